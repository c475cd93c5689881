package gpulog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A spreadsheet that re-saves an nvidia-smi query CSV rewrites its
// timestamps as dates of its own (Excel and LibreOffice write a date
// cell as its locale's short date and time): "2024/03/08 10:00:01.123"
// becomes "08.03.2024 10:00" or "08.03.2024 10:00:01" (German),
// "08/03/2024 10:00:01" (French, Spanish, Italian), "08-03-2024 10:00"
// (Dutch), "2024-03-08 10:00:01" (Swedish), with a two-digit year
// ("08.03.24 10:00") in some, the seconds often dropped (Excel's default
// date-time format has none) and a fraction of a second, when kept,
// after a decimal comma. Such a field is rewritten as nvidia-smi's
// "2024/03/08 10:00:01.123" so that the query CSV reader reads it.
//
// Day and month are told apart for the whole date column at once, never
// line by line (a file is one locale's): a field over 12 in the first
// place makes every date day-first, in the second month-first; else
// dates with '.' between day, month and year are day-first (no locale
// writes them month-first), as are dates in a file with decimal commas
// (the locales whose decimal mark is the comma write the day first);
// else the order under which the dates run forward in time, the file
// being a log in time order; when both do, the order whose consecutive
// rows lie closest in time (the smaller largest gap), a logger sampling
// at a regular interval; else day-first, the ';' list separator being
// that of the decimal-comma locales. Year-first dates need no decision.

// reSheetDate matches a spreadsheet's date and time: day or month,
// separator, month or day, the same separator, year; hour and minute,
// optional seconds and fraction.
var reSheetDate = regexp.MustCompile(`^(\d{1,2})([./-])(\d{1,2})[./-](\d{4}|\d{2})\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$`)

// reSheetDateYearFirst matches a year-first date with a time that is not
// already nvidia-smi's ("2024-03-08 10:00", "2024.03.08 10:00:01,5").
var reSheetDateYearFirst = regexp.MustCompile(`^(\d{4})([./-])(\d{1,2})[./-](\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$`)

// sheetDates is the decision for a file's spreadsheet dates.
type sheetDates struct {
	// dayFirst is the order of the day-first or month-first dates, why
	// the reason for it ("" when the file has none).
	dayFirst bool
	why      string
	// n counts the dates seen in the scan, noSeconds those without
	// seconds.
	n, noSeconds int
}

// sheetDate is one matched date field's parts, first and second the two
// numbers before the year (day and month in some order).
type sheetDate struct {
	first, second, year int
	sep                 byte
	clock               string
	// tod is the time of day the clock says.
	tod time.Duration
}

// parseSheetDate reads a day-first or month-first date field.
func parseSheetDate(f string) (sheetDate, bool) {
	m := reSheetDate.FindStringSubmatch(f)
	if m == nil {
		return sheetDate{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[3])
	y, _ := strconv.Atoi(m[4])
	if len(m[4]) == 2 {
		// Spreadsheets read two-digit years as 1930-2029; GPU logs are of
		// this century.
		y += 2000
	}
	return sheetDate{first: a, second: b, year: y, sep: m[2][0], clock: sheetClock(m[5:]), tod: timeOfDay(m[5:])}, true
}

// timeOfDay is the time of day of hour, minute, seconds and fraction (as
// sheetClock takes them).
func timeOfDay(m []string) time.Duration {
	h, _ := strconv.Atoi(m[0])
	mi, _ := strconv.Atoi(m[1])
	sec, _ := strconv.Atoi(m[2])
	d := time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(sec)*time.Second
	if m[3] != "" {
		frac, _ := strconv.Atoi((m[3] + "000000000")[:9])
		d += time.Duration(frac)
	}
	return d
}

// sheetClock writes hour, minute, seconds and fraction as nvidia-smi
// does ("10:00:01.123"), without seconds when the field has none.
func sheetClock(m []string) string {
	h, _ := strconv.Atoi(m[0])
	s := fmt.Sprintf("%02d:%s", h, m[1])
	if m[2] != "" {
		s += ":" + m[2]
		if m[3] != "" {
			s += "." + m[3]
		}
	}
	return s
}

// stamp writes the date as nvidia-smi's timestamp, day first or not; ok
// is false when it is no calendar date that way.
func (d sheetDate) stamp(dayFirst bool) (string, bool) {
	t, ok := d.date(dayFirst)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%04d/%02d/%02d %s", t.Year(), t.Month(), t.Day(), d.clock), true
}

// date is the date's midnight (UTC), day first or not; ok is false when
// it is no calendar date that way.
func (d sheetDate) date(dayFirst bool) (time.Time, bool) {
	day, month := d.first, d.second
	if !dayFirst {
		day, month = month, day
	}
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return time.Time{}, false
	}
	t := time.Date(d.year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day {
		return time.Time{}, false // 31 April
	}
	return t, true
}

// decideSheetDates decides the order of the date column of lines (a
// file's ';'-separated lines, or its head).
func decideSheetDates(lines []string) *sheetDates {
	var dates []sheetDate
	decimalComma := false
	d := &sheetDates{dayFirst: true}
	for _, line := range lines {
		if strings.IndexByte(line, ';') < 0 {
			continue
		}
		for _, f := range splitSemicolons(line) {
			f = strings.TrimSpace(f)
			if sd, ok := parseSheetDate(f); ok {
				dates = append(dates, sd)
				if strings.Count(sd.clock, ":") == 1 {
					d.noSeconds++
				}
			} else if m := reSheetDateYearFirst.FindStringSubmatch(f); m != nil {
				d.n++
				if m[7] == "" {
					d.noSeconds++
				}
			} else if reDecimalComma.MatchString(f) {
				decimalComma = true
			}
		}
	}
	d.n += len(dates)
	if len(dates) == 0 {
		if d.n > 0 {
			d.why = "year first"
		}
		return d
	}
	dayOver, monthOver, dots := 0, 0, false
	for _, sd := range dates {
		if sd.first > 12 {
			dayOver++
		}
		if sd.second > 12 {
			monthOver++
		}
		dots = dots || sd.sep == '.'
	}
	switch {
	case dayOver > 0 && monthOver == 0:
		d.why = "a first number over 12"
	case monthOver > 0 && dayOver == 0:
		d.dayFirst, d.why = false, "a second number over 12"
	case dayOver > 0:
		// Both: no one order reads every date; the one that reads more.
		d.dayFirst, d.why = dayOver >= monthOver, "the order that reads more of them (some dates fit neither)"
	case dots:
		d.why = "dates with '.' between day, month and year"
	case decimalComma:
		d.why = "a decimal-comma locale's"
	default:
		fwd, fwdGap := forward(dates, true)
		back, backGap := forward(dates, false)
		switch {
		case fwd && !back:
			d.why = "the only order in which they run forward in time"
		case back && !fwd:
			d.dayFirst, d.why = false, "the only order in which they run forward in time"
		// Both orders run forward when every day and month is 12 or less
		// (a US capture from 03/08 to 03/09 is 8 to 9 March, or 3 August
		// to 3 September). A logger samples at a regular interval, so its
		// consecutive rows lie one interval apart, a day when the date
		// changes between them; read in the wrong order the same change
		// of day is a change of month, a gap of some 30 days among gaps
		// of minutes. The order whose largest gap between consecutive
		// rows is smaller is the log's. Equal gaps (every row on one
		// date, the two orders then differing nowhere in time) decide
		// nothing.
		case fwd && back && fwdGap < backGap:
			d.why = "the order in which consecutive rows lie closest in time, as a logger's regular samples do"
		case fwd && back && backGap < fwdGap:
			d.dayFirst, d.why = false, "the order in which consecutive rows lie closest in time, as a logger's regular samples do"
		default:
			d.why = "assumed from the ';' separator of a decimal-comma locale; day and month could not be told apart"
		}
	}
	return d
}

// forward reports whether dates, read day first or not, are all dates
// and never go back in time, and the largest gap between consecutive
// dates when they do.
func forward(dates []sheetDate, dayFirst bool) (bool, time.Duration) {
	var last time.Time
	var gap time.Duration
	for i, sd := range dates {
		t, ok := sd.time(dayFirst)
		if !ok {
			return false, 0
		}
		// A clock without seconds reads as that minute's first second,
		// never after the same minute's with them.
		if i > 0 {
			if t.Before(last) {
				return false, 0
			}
			gap = max(gap, t.Sub(last))
		}
		last = t
	}
	return true, gap
}

// time is the date's time (UTC: only its distance to the others is
// used), day first or not; ok is false when it is no calendar date that
// way.
func (d sheetDate) time(dayFirst bool) (time.Time, bool) {
	t, ok := d.date(dayFirst)
	return t.Add(d.tod), ok
}

// rewrite returns field f as nvidia-smi's timestamp when it is a
// spreadsheet's date, else f.
func (d *sheetDates) rewrite(f string) string {
	if d == nil {
		return f
	}
	if sd, ok := parseSheetDate(f); ok {
		if s, ok := sd.stamp(d.dayFirst); ok {
			return s
		}
		return f
	}
	if m := reSheetDateYearFirst.FindStringSubmatch(f); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[3])
		day, _ := strconv.Atoi(m[4])
		return fmt.Sprintf("%04d/%02d/%02d %s", y, mo, day, sheetClock(m[5:]))
	}
	return f
}

// note says how the file's dates were read, "" when it has none.
func (d *sheetDates) note() string {
	if d == nil || d.n == 0 {
		return ""
	}
	s := "timestamps rewritten by a spreadsheet as its locale's dates: read "
	if d.why == "year first" {
		s += "year first"
	} else if d.dayFirst {
		s += "day first (" + d.why + ")"
	} else {
		s += "month first (" + d.why + ")"
	}
	if d.noSeconds > 0 {
		s += fmt.Sprintf("; %d of them without seconds, to the minute", d.noSeconds)
	}
	return s
}
