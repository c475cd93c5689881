package gpulog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
)

// A GPU log is often saved through something that writes its own text
// before every line:
//
//	0: timestamp, index, memory.used [MiB]                    srun --label
//	2026-11-26T12:00:01.123456789Z # gpu   fb  bar1            kubectl logs --timestamps, docker logs -t
//	Nov 26 12:00:01 node7 gpumon[812]: Thu Nov 26 12:00:01 2026  journalctl, ts
//	gpumon-1  | <?xml version="1.0" ?>                          docker compose logs
//	2026-11-26 12:00:01,123 INFO monitor: index, memory.used    Python logging
//
// Rather than list collectors, gpulog learns the prefix from the file: the
// start of the first line, up to a space, whose shape (runs of digits,
// runs of letters, the punctuation between them) begins nearly every line
// of the head, and without which the head is a GPU log SniffLog knows.
// ReadLog then removes that prefix from every line that has it, and notes
// it. A file that is a GPU log as it stands is never stripped. When the
// prefix starts with a date and time (not syslog's, which has no year), a
// reading without a time of its own takes its line's (logBuilder.lineTime).

// prefixScanLines is how many non-blank head lines a prefix is checked
// against.
const prefixScanLines = 24

// prefixMinShare is the share of the scanned head lines that must begin
// with the prefix shape. A collector prefixes every line; a few lines
// without it (a wrapped long line, a message of the collector's own) are
// allowed, a prefix seen on half the lines is not one.
const prefixMinShare = 0.9

// prefixFirstLines is how many of the head's first lines a prefix is
// learned from: a blank line of the log is the prefix alone, and a log
// may open with a few.
const prefixFirstLines = 4

// prefixMaxLen bounds the prefix, in bytes: the longest collector prefixes
// (journald's time, host, unit and pid; logging's time, level and logger
// name) are under 80.
const prefixMaxLen = 96

// linePrefix is a collector's prefix learned from a file.
type linePrefix struct {
	re *regexp.Regexp
	// example is the prefix of the first line, for the note.
	example string
	// stampTokens is how many leading blank-separated tokens of the
	// prefix spell its time (kubectl's "2026-11-26T12:00:01.5Z" is one,
	// logging's "2026-11-26 12:00:01,123" two); 0 when it holds none.
	stampTokens int
	// labelled is true when the prefix is a launcher's label that names a
	// machine (kubectl logs --prefix's pod, pdsh's host: labelMachine):
	// each line's machine is kept (prefixStripper.machineOf).
	labelled bool
}

// prefixStamp reads the time at the start of a prefix: its first n
// tokens, with Python logging's comma before the milliseconds read as a
// point and brackets around it dropped.
func prefixStamp(prefix string, n int, loc *time.Location) (t time.Time, zoneless, ok bool) {
	f := strings.Fields(prefix)
	if n < 1 || len(f) < n {
		return time.Time{}, false, false
	}
	s := strings.Trim(strings.Join(f[:n], " "), "[]")
	s = strings.Replace(s, ",", ".", 1)
	return parseStamp(s, loc)
}

// stampTokensOf finds how many leading tokens of prefix spell a time.
func stampTokensOf(prefix string) int {
	for n := min(len(strings.Fields(prefix)), 3); n >= 1; n-- {
		if _, _, ok := prefixStamp(prefix, n, time.UTC); ok {
			return n
		}
	}
	return 0
}

// learnPrefix finds the collector prefix of head (decompressed, UTF-8
// text) and the format of the text after it; ok is false when no prefix
// makes the head a GPU log.
func learnPrefix(head []byte, spec *ColumnSpec) (p *linePrefix, f LogFormat, ok bool) {
	lines := headLines(head, prefixScanLines)
	if len(lines) < 2 {
		return nil, "", false
	}
	// A blank line of the log is the prefix alone ("0:", a bare time), so
	// the prefix is looked for in each of the first few lines.
	type cut struct {
		p        *linePrefix
		stripped []byte
	}
	var cuts []cut
	tried := map[string]bool{}
	for _, first := range lines[:min(len(lines), prefixFirstLines)] {
		for k := 1; k < len(first) && k <= prefixMaxLen; k++ {
			if first[k-1] != ' ' || first[k] == ' ' {
				continue
			}
			// A prefix holding ", " or ";" would be CSV fields.
			if strings.Contains(first[:k], ", ") || strings.Contains(first[:k], ";") {
				continue
			}
			if splitsStamp(first, k) || !plausibleStart(first[k:]) {
				continue
			}
			re := prefixShape(first[:k])
			if re == nil || tried[re.String()] {
				continue
			}
			tried[re.String()] = true
			stripped, n := stripHead(head, re)
			if float64(n) < prefixMinShare*float64(len(lines)) {
				continue
			}
			ex := strings.TrimRight(first[:k], " ")
			labelled := prefixMachine(first[:k]) != ""
			cuts = append(cuts, cut{&linePrefix{re: re, example: ex, stampTokens: stampTokensOf(ex), labelled: labelled}, stripped})
		}
	}
	// A distinct format after some cut beats a guess after a shorter one:
	// the date of "2026-11-26 12:00:01,123 INFO x: index, ..." is no
	// prefix of a CSV whose first column is a time of day. A head that is
	// a guessed format as it stands is only stripped to make it a distinct
	// one: the first word of a header-less row's GPU name is no prefix.
	// A machine's label ("gpu-node-01: ", pdsh's) is no GPU name's first
	// word (those have no colon), so a labelled cut may also make the
	// head a guessed format: pdsh's lines of nvidia-smi's csv,noheader
	// rows are rows once the host is cut.
	guessed := false
	if _, ok := sniffGuess(head, spec); ok {
		guessed = true
	}
	for _, c := range cuts {
		if f, ok := sniffDistinct(c.stripped, spec); ok {
			return c.p, f, true
		}
	}
	for _, c := range cuts {
		if guessed && !c.p.labelled {
			continue
		}
		if f, ok := sniffGuess(c.stripped, spec); ok {
			return c.p, f, true
		}
	}
	return nil, "", false
}

// plausibleStart reports whether the text after a cut could begin a GPU
// log: a cheap test before the cut's shape is compiled and the head
// stripped and sniffed (a run folder's other text files are many).
func plausibleStart(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '<', '#', '{', '|', '+', '[', '=':
		return true
	}
	if strings.HasPrefix(s, dcgmPrefix) || strings.Contains(s, ",") {
		return true
	}
	_, _, ok := parseDateLine(s, time.UTC)
	return ok
}

// splitsStamp reports whether a cut of line at k falls inside a timestamp
// that starts the line: "2024/03/01 10:00:00.000, 0, 1234" is a
// header-less row, not the prefix "2024/03/01" before a time of day.
func splitsStamp(line string, k int) bool {
	next := line[k:]
	if i := strings.IndexAny(next, ",;|\t"); i >= 0 {
		next = next[:i]
	}
	if i := strings.Index(next, "  "); i >= 0 {
		next = next[:i]
	}
	_, _, ok := parseStamp(strings.TrimSpace(line[:k]+next), time.UTC)
	return ok
}

// prefixShape turns the start of a line into a pattern of its shape:
// digits and letters become runs of their class, spaces inside become any
// run of blanks, other bytes stand for themselves. Leading blanks are
// optional (srun pads task numbers); the final blanks are matched as they
// are, so the text after the prefix keeps its indentation.
func prefixShape(s string) *regexp.Regexp {
	body := strings.TrimRight(s, " ")
	tail := len(s) - len(body)
	body = strings.TrimLeft(body, " ")
	if body == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString(`^[ \t]*`)
	for i := 0; i < len(body); {
		c := rune(body[i])
		j := i + 1
		switch {
		case c < 0x80 && unicode.IsDigit(c):
			for j < len(body) && body[j] >= '0' && body[j] <= '9' {
				j++
			}
			b.WriteString(`[0-9]+`)
		case c < 0x80 && unicode.IsLetter(c):
			for j < len(body) && body[j] < 0x80 && unicode.IsLetter(rune(body[j])) {
				j++
			}
			b.WriteString(`[A-Za-z]+`)
		case c == ' ' || c == '\t':
			for j < len(body) && (body[j] == ' ' || body[j] == '\t') {
				j++
			}
			b.WriteString(`[ \t]+`)
		default:
			b.WriteString(regexp.QuoteMeta(body[i:j]))
		}
		i = j
	}
	fmt.Fprintf(&b, ` {%d}`, tail)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// stripHead removes re's match from the start of each line of head and
// counts the non-blank lines that had it.
func stripHead(head []byte, re *regexp.Regexp) ([]byte, int) {
	var out bytes.Buffer
	n := 0
	for line := range bytes.Lines(head) {
		if loc := re.FindIndex(line); loc != nil {
			line = line[loc[1]:]
			n++
		}
		out.Write(line)
	}
	return out.Bytes(), n
}

// note describes the prefix for GPULog.Notes.
func (p *linePrefix) note() string {
	return fmt.Sprintf("every line starts with text a log collector added (%q on the first line); it was removed before reading", p.example)
}

// prefixStripper reads r with p's prefix removed from the start of every
// line that has it. Lines longer than its buffer are passed through after
// their start. When the prefix holds a time, times keeps each line's
// (Unix nanoseconds, by 1-based line number; 0 for none).
type prefixStripper struct {
	br      *bufio.Reader
	p       *linePrefix
	loc     *time.Location
	pending []byte
	// midLine is true while the rest of a long line is being passed on.
	midLine bool
	err     error
	line    int
	times   []int64
	// zoneless is true when a prefix time had no zone (Python logging's)
	// and was read in loc.
	zoneless bool
	// machines are the machines the labels of a labelled prefix name, in
	// the order first seen; lineMachines the position in machines of each
	// line's (by 1-based line number; 0, the first, for none).
	machines     []string
	lineMachines []int32
}

func newPrefixStripper(r io.Reader, p *linePrefix, loc *time.Location) *prefixStripper {
	return &prefixStripper{br: bufio.NewReaderSize(r, 64<<10), p: p, loc: loc}
}

// machineOf is the position in s.machines of the machine the label of
// line n names: 0 for the first machine, a line without a label and a
// log whose prefix names no machine.
func (s *prefixStripper) machineOf(n int) int {
	if s == nil || n < 1 || n >= len(s.lineMachines) {
		return 0
	}
	return int(s.lineMachines[n])
}

// lineTime is the time the prefix of line n gives, zero when none.
func (s *prefixStripper) lineTime(n int) time.Time {
	if s == nil || n < 1 || n >= len(s.times) || s.times[n] == 0 {
		return time.Time{}
	}
	return time.Unix(0, s.times[n])
}

func (s *prefixStripper) Read(b []byte) (int, error) {
	for len(s.pending) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		line, err := s.br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			err = nil
		case err != nil:
			s.err = err
		}
		if !s.midLine {
			s.line++
			if loc := s.p.re.FindIndex(line); loc != nil {
				if s.p.stampTokens > 0 {
					if t, zoneless, ok := prefixStamp(string(line[:loc[1]]), s.p.stampTokens, s.loc); ok {
						s.times = append(s.times, make([]int64, s.line+1-len(s.times))...)
						s.times[s.line] = t.UnixNano()
						s.zoneless = s.zoneless || zoneless
					}
				}
				if s.p.labelled {
					s.labelLine(string(line[:loc[1]]))
				}
				line = line[loc[1]:]
			}
		}
		s.midLine = len(line) > 0 && line[len(line)-1] != '\n'
		s.pending = line
	}
	n := copy(b, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// labelLine keeps the machine that the label of the current line's
// prefix names.
func (s *prefixStripper) labelLine(line string) {
	m := prefixMachine(line)
	if m == "" {
		return
	}
	id := slices.Index(s.machines, m)
	if id < 0 {
		id = len(s.machines)
		s.machines = append(s.machines, m)
	}
	if id == 0 {
		return
	}
	s.lineMachines = append(s.lineMachines, make([]int32, s.line+1-len(s.lineMachines))...)
	s.lineMachines[s.line] = int32(id)
}

// prefixMachine is the machine that a collector prefix (learned from the
// file: it starts nearly every line) names when it is a launcher's label
// (labelMachine): kubectl logs --prefix's pod label, alone or before more
// (--timestamps), or the whole prefix a host's "host: " as pdsh writes it;
// "" for any other prefix, srun's task number included.
func prefixMachine(prefix string) string {
	if m := rePrefixPod.FindString(prefix); m != "" {
		return labelMachine(m)
	}
	if rePrefixTask.MatchString(prefix) {
		return ""
	}
	if m := rePrefixHost.FindString(prefix); m != "" && strings.TrimRight(m, " ") == strings.TrimRight(prefix, " ") {
		return labelMachine(m)
	}
	return ""
}
