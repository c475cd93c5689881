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
// decimal points), one line for one, so the query CSV reader reads it and
// its line numbers stay the file's.

// reDecimalComma matches a number written with a decimal comma, with an
// optional unit after it ("33,09 W", "1024,5", "-0,5").
var reDecimalComma = regexp.MustCompile(`^-?[0-9]+,[0-9]+(?:\s*[A-Za-z%]+)?$`)

// semicolonLine rewrites one ';'-separated line with ", " between its
// fields, quotes removed and decimal commas made points.
func semicolonLine(line string) string {
	fields := splitSemicolons(line)
	for i, f := range fields {
		f = strings.TrimSpace(f)
		if reDecimalComma.MatchString(f) {
			f = strings.Replace(f, ",", ".", 1)
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
	line := semicolonLine(lines[0])
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
}

func newSemicolonReader(r io.Reader) *semicolonReader {
	return &semicolonReader{br: bufio.NewReaderSize(r, 64<<10), first: true}
}

func (s *semicolonReader) Read(p []byte) (int, error) {
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
			s.out.WriteString(semicolonLine(string(body)))
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
