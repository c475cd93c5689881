package gpulog

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strings"
)

// An nvidia-smi query CSV opened in a spreadsheet and saved again in a
// locale whose decimal mark is the comma (German, French, ...) has its
// fields separated by ';', its numbers possibly written with a decimal
// comma ("33,09 W", "1024,5"), fields holding the separator in double
// quotes, and often a UTF-8 byte order mark (Excel's "CSV UTF-8"):
//
//	timestamp;name;memory.total [MiB];memory.used [MiB]
//	2024/03/08 10:00:01.123;NVIDIA A100-SXM4-80GB;81920 MiB;1024 MiB
//
// Such a file is recognised by its first line, a query CSV header or a
// header-less query row once read with ';' as the separator, and every
// line is then rewritten as nvidia-smi writes it (", " between fields,
// decimal points, timestamps the spreadsheet wrote as its own dates made
// nvidia-smi's again: semicolon_dates.go), one line for one, so the query
// CSV reader reads it and its line numbers stay the file's.

// reDecimalComma matches a number written with a decimal comma, with an
// optional unit after it ("33,09 W", "1024,5", "-0,5").
var reDecimalComma = regexp.MustCompile(`^-?[0-9]+,[0-9]+(?:\s*[A-Za-z%]+)?$`)

// maxDateScan bounds the start of a ';'-separated file read ahead to
// decide the order of its dates (semicolon_dates.go): a spreadsheet holds
// at most 1,048,576 rows, and a memory query row is some 50-70 bytes, so
// 64 MiB holds a whole re-saved sheet; a longer file's order is decided
// by its first 64 MiB.
const maxDateScan = 64 << 20

// semicolonLine rewrites one ';'-separated line with ", " between its
// fields, quotes removed, decimal commas made points and a spreadsheet's
// dates nvidia-smi's timestamps (in the order dates says).
func semicolonLine(line string, dates *sheetDates) string {
	fields := splitSemicolons(line)
	for i, f := range fields {
		f = strings.TrimSpace(f)
		if reDecimalComma.MatchString(f) {
			f = strings.Replace(f, ",", ".", 1)
		} else {
			f = dates.rewrite(f)
		}
		fields[i] = f
	}
	return strings.Join(fields, ", ")
}

// splitSemicolons splits a line at the ';' outside double quotes, and
// removes the quotes ("" inside quotes is one quote).
func splitSemicolons(line string) []string {
	var fields []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"' && quoted && i+1 < len(line) && line[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			fields = append(fields, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(fields, cur.String())
}

// looksLikeSemicolonCSV reports whether head's first line is an nvidia-smi
// query CSV header or query row separated by ';'.
func looksLikeSemicolonCSV(head []byte) bool {
	lines := headLines(head, 1)
	if len(lines) == 0 || !strings.Contains(lines[0], ";") {
		return false
	}
	line := semicolonLine(lines[0], decideSheetDates(strings.Split(string(head), "\n")))
	if _, ok := parseCSVHeader(line); ok {
		return true
	}
	return looksLikeHeaderlessRow(line)
}

// semicolonText rewrites a head of a ';'-separated CSV (for sniffing).
func semicolonText(head []byte) []byte {
	b, _ := io.ReadAll(newSemicolonReader(bytes.NewReader(head)))
	return b
}

// semicolonReader reads a ';'-separated CSV as nvidia-smi writes it.
type semicolonReader struct {
	br    *bufio.Reader
	out   bytes.Buffer
	first bool
	err   error
	// dates is the order of the file's dates, decided from its first
	// maxDateScan bytes before its first line is written.
	dates *sheetDates
}

func newSemicolonReader(r io.Reader) *semicolonReader {
	return &semicolonReader{br: bufio.NewReaderSize(r, 64<<10), first: true}
}

// readAhead reads the start of the file to decide the order of its
// dates, and puts it back before the rest.
func (s *semicolonReader) readAhead() {
	ahead, err := io.ReadAll(io.LimitReader(s.br, maxDateScan))
	s.dates = decideSheetDates(strings.Split(string(ahead), "\n"))
	rest := []io.Reader{bytes.NewReader(ahead), s.br}
	if err != nil {
		rest = []io.Reader{bytes.NewReader(ahead), errReader{err}}
	}
	s.br = bufio.NewReaderSize(io.MultiReader(rest...), 64<<10)
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (s *semicolonReader) Read(p []byte) (int, error) {
	if s.dates == nil {
		s.readAhead()
	}
	for s.out.Len() == 0 && s.err == nil {
		line, err := s.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer is no CSV row: passed on as
			// it is, for the line reader to skip.
			s.out.Write(line)
			continue
		}
		s.err = err
		if len(line) == 0 {
			break
		}
		if s.first {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			s.first = false
		}
		body, nl := line, []byte(nil)
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			body, nl = body[:i], body[i:]
		}
		body = bytes.TrimSuffix(body, []byte("\r"))
		if bytes.IndexByte(body, ';') >= 0 {
			s.out.WriteString(semicolonLine(string(body), s.dates))
		} else {
			s.out.Write(body)
		}
		s.out.Write(nl)
	}
	if s.out.Len() == 0 {
		return 0, s.err
	}
	return s.out.Read(p)
}
