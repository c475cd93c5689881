package gpulog

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"gpureport/internal/units"
)

// A shell loop around a header-less query (`while true; do date;
// nvidia-smi --query-gpu=index,memory.used,memory.total
// --format=csv,noheader; sleep 5; done`) writes a date line, then one row
// per GPU, with no timestamp column. The date line, in any of date(1)'s
// forms (dateline.go) or as `date +%s` prints it (Unix seconds, with
// `+%s.%N` a fraction), is the time of the rows under it, up to the next
// date line, as it is the time of the table under it. A row with a time
// of its own keeps it.

// Unix seconds a `date +%s` line may give: 10^9 is 2001-09-09, 10^10 is
// year 2286; a clock's time in a GPU log lies between, and a bare number
// outside is a value, not a time (a memory figure in MiB is far below
// 10^9).
const (
	minEpochLine = 1e9
	maxEpochLine = 1e10
)

// parseEpochLine reads a line that is only Unix seconds (`date +%s`,
// `date +%s.%N`).
func parseEpochLine(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	whole, frac, _ := strings.Cut(s, ".")
	if len(whole) != 10 || !allDigits(whole) || frac != "" && (!allDigits(frac) || len(frac) > 9) {
		return time.Time{}, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < minEpochLine || v >= maxEpochLine {
		return time.Time{}, false
	}
	sec := math.Floor(v)
	ns := 0
	if frac != "" {
		ns, _ = strconv.Atoi((frac + "000000000")[:9])
	}
	return time.Unix(int64(sec), int64(ns)).UTC(), true
}

// parseLoopDate reads a loop's date line: a date(1) line (parseDateLine)
// or Unix seconds (parseEpochLine, never zoneless).
func parseLoopDate(s string, loc *time.Location) (t time.Time, zoneless, ok bool) {
	if t, zoneless, ok = parseDateLine(s, loc); ok {
		return t, zoneless, true
	}
	t, ok = parseEpochLine(s)
	return t, false, ok
}

// rowDate is a date line of the log, which times the rows under it.
type rowDate struct {
	line     int
	t        time.Time
	zoneless bool
}

// dateFor returns the date line that times a row at line n: the last one
// before it; ok is false when none is, or when a table came after it (an
// entry with a zero time: the date was the table's).
func dateFor(dates []rowDate, n int) (rowDate, bool) {
	i := sort.Search(len(dates), func(i int) bool { return dates[i].line >= n })
	if i == 0 || dates[i-1].t.IsZero() {
		return rowDate{}, false
	}
	return dates[i-1], true
}

// looksLikeLoopRows reports whether lines (a head's lines, trimmed) are a
// loop's date lines with header-less CSV rows under them: the first is a
// date line and the first line after the date lines is a CSV header or a
// row of numbers, each with at most a unit ("1000 MiB", "1000", "45 %").
func looksLikeLoopRows(lines []string) bool {
	i := 0
	for i < len(lines) {
		if _, _, ok := parseLoopDate(lines[i], time.UTC); !ok {
			break
		}
		i++
	}
	if i == 0 || i == len(lines) {
		return false
	}
	row := lines[i]
	if _, ok := parseCSVHeader(row); ok || looksLikeHeaderlessRow(row) {
		return true
	}
	fields := strings.Split(row, ",")
	if len(fields) < 2 {
		return false
	}
	for _, f := range fields {
		num, _ := units.SplitUnit(f)
		if _, err := strconv.ParseFloat(num, 64); err != nil {
			return false
		}
	}
	return true
}

// maxLoopDates bounds the date lines looksLikeLoopRows passes over before
// the first row: a loop that ran before nvidia-smi wrote anything prints
// a few dates with nothing under them, a head of dates alone is no log.
const maxLoopDates = 4
