package gpulog

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// A shell loop that logs nvidia-smi (`while true; do date; nvidia-smi;
// sleep 60; done`) or a DCGM scrape writes a date line before each sample,
// in whatever form date(1) takes in the user's locale, often inside a
// marker the script draws:
//
//	Sun Mar  2 08:11:59 UTC 2025            C locale
//	Sun 02 Mar 2025 08:11:59 AM UTC         en_US.UTF-8
//	Sun, 02 Mar 2025 08:11:59 +0000         date -R
//	==== Sun Mar  2 08:11:59 UTC 2025 ====  a marker around it
//	[2025-03-02 08:11:59]                   date '+%F %T' in brackets
//
// parseDateWords reads such a line by its words, in any order: a month
// name, a day, a year and a time are needed; a weekday, AM/PM and a zone
// may be there, and nothing else. UTC, GMT, Z and numeric offsets are
// zones; other abbreviations (CET, PST) are ambiguous and the time is read
// in the run's zone, as a zoneless time.

// dateMarks are the characters a script draws around a date line.
const dateMarks = "=-*#~[]<>()_ \t"

var (
	monthNames = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
		"sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
	weekdayNames = map[string]bool{"mon": true, "tue": true, "tues": true, "wed": true, "thu": true, "thur": true, "thurs": true,
		"fri": true, "sat": true, "sun": true}
)

// unmarkDate removes a script's marker around a date line ("==== ... ===="),
// and any white space among its characters (a vertical tab, a carriage
// return: what strings.TrimSpace removes from a line), so that a line
// reads inside a marker as it does alone.
func unmarkDate(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(dateMarks, r) })
}

// parseDateWords reads a date line by its words (see above).
func parseDateWords(s string, loc *time.Location) (t time.Time, zoneless, ok bool) {
	var (
		month              time.Month
		day, year          = -1, -1
		hh, mm, ss, nsec   = -1, 0, 0, 0
		pm, am             bool
		zone               *time.Location
		sawWeekday, sawDay bool
	)
	words := strings.Fields(s)
	if len(words) < 4 || len(words) > 8 {
		return time.Time{}, false, false
	}
	for _, w := range words {
		// "Sun, 02 Mar", "Sunday, March 2, 2025": a comma ends a word.
		w = strings.TrimSuffix(w, ",")
		if w == "" {
			return time.Time{}, false, false
		}
		lw := strings.ToLower(w)
		switch {
		case weekdayNames[lw] || len(lw) > 3 && weekdayNames[lw[:3]] && strings.HasSuffix(lw, "day"):
			if sawWeekday {
				return time.Time{}, false, false
			}
			sawWeekday = true
		case monthNames[lw] != 0 || len(lw) > 3 && monthNames[lw[:3]] != 0 && isMonthWord(lw):
			if month != 0 {
				return time.Time{}, false, false
			}
			month = monthNames[lw[:min(3, len(lw))]]
			if lw == "sept" {
				month = time.September
			}
		case lw == "am" || lw == "pm":
			am, pm = lw == "am", lw == "pm"
		case lw == "utc" || lw == "gmt" || lw == "z":
			zone = time.UTC
		case strings.Count(w, ":") >= 1 && hh < 0:
			h, m, sec, ns, good := clockWords(w)
			if !good {
				return time.Time{}, false, false
			}
			hh, mm, ss, nsec = h, m, sec, ns
		case (w[0] == '+' || w[0] == '-') && len(w) == 5 && allDigits(w[1:]):
			h, _ := strconv.Atoi(w[1:3])
			m, _ := strconv.Atoi(w[3:])
			off := (h*60 + m) * 60
			if w[0] == '-' {
				off = -off
			}
			zone = time.FixedZone(w, off)
		case allDigits(w) && len(w) == 4 && year < 0:
			year, _ = strconv.Atoi(w)
		case allDigits(w) && len(w) <= 2 && !sawDay:
			day, _ = strconv.Atoi(w)
			sawDay = true
		case len(w) >= 3 && len(w) <= 5 && isUpperWord(w) && zone == nil:
			// A zone abbreviation other than UTC: read in loc.
		default:
			return time.Time{}, false, false
		}
	}
	if month == 0 || day < 1 || day > 31 || year < 1970 || hh < 0 {
		return time.Time{}, false, false
	}
	switch {
	case pm && hh < 12:
		hh += 12
	case am && hh == 12:
		hh = 0
	}
	if hh > 23 {
		return time.Time{}, false, false
	}
	in := loc
	if zone != nil {
		in = zone
	}
	t = time.Date(year, month, day, hh, mm, ss, nsec, in)
	if t.Day() != day {
		return time.Time{}, false, false
	}
	return t, zone == nil, true
}

// isMonthWord reports whether a word is a month's full name ("march").
func isMonthWord(w string) bool {
	switch w {
	case "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december":
		return true
	}
	return false
}

// clockWords reads "08:11:59", "08:11:59.123" or "08:11".
func clockWords(w string) (h, m, s, ns int, ok bool) {
	parts := strings.Split(w, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, 0, 0, 0, false
	}
	var err error
	if h, err = strconv.Atoi(parts[0]); err != nil || h > 23 || len(parts[0]) > 2 {
		return 0, 0, 0, 0, false
	}
	if m, err = strconv.Atoi(parts[1]); err != nil || m > 59 || len(parts[1]) != 2 {
		return 0, 0, 0, 0, false
	}
	if len(parts) == 3 {
		sec, frac, _ := strings.Cut(parts[2], ".")
		if s, err = strconv.Atoi(sec); err != nil || s > 60 || len(sec) != 2 {
			return 0, 0, 0, 0, false
		}
		if frac != "" {
			if !allDigits(frac) || len(frac) > 9 {
				return 0, 0, 0, 0, false
			}
			ns, _ = strconv.Atoi((frac + "000000000")[:9])
		}
	}
	return h, m, s, ns, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isUpperWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
