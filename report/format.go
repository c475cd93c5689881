package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Formatting helpers shared by every writer (and by the stats command):
// bytes with binary units, rates with their 95% interval, p-values, counts
// with thousands separators, durations and relative times. Every helper
// returns "n/a" (or "") for NaN and infinities rather than printing them.

// binary units, in powers of 1024.
var byteUnits = []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// ByteUnit returns the binary unit that suits a magnitude of n bytes and
// its size in bytes: ("GiB", 1<<30) for n = 3<<30.
func ByteUnit(n float64) (string, float64) {
	n = math.Abs(n)
	i, size := 0, 1.0
	for i < len(byteUnits)-1 && n >= size*1024*0.9995 {
		size *= 1024
		i++
	}
	return byteUnits[i], size
}

// Bytes formats a byte count with a binary unit and three significant
// digits: "0 B", "512 B", "1.50 KiB", "12.3 MiB", "80.0 GiB".
func Bytes(n int64) string { return BytesF(float64(n)) }

// BytesF is Bytes for a fractional or negative byte count (a slope, a
// difference): "-1.50 GiB", "0.5 B".
func BytesF(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	unit, size := ByteUnit(x)
	if unit == "B" {
		if x == math.Trunc(x) {
			return strconv.FormatFloat(x, 'f', 0, 64) + " B"
		}
		return strconv.FormatFloat(x, 'f', 1, 64) + " B"
	}
	return sig3(x/size) + " " + unit
}

// SignedBytes is BytesF with an explicit sign: "+1.50 GiB", "-12.0 MiB",
// "0 B".
func SignedBytes(x float64) string {
	s := BytesF(x)
	if x > 0 && !math.IsInf(x, 0) {
		return "+" + s
	}
	return s
}

// sig3 formats v with three significant digits (at least the integer
// part): 1.50, 12.3, 512, 1023.
func sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 99.95:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 9.995:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// Rate formats a growth rate in bytes per unit: "+12.3 MiB/step",
// "-1.00 GiB/hour".
func Rate(bytesPer float64, per string) string {
	if per == "" {
		per = "step"
	}
	return SignedBytes(bytesPer) + "/" + per
}

// RateCI formats a growth rate with its 95% confidence interval, every
// figure with its uncertainty as benchstat prints them:
// "+12.3 MiB/step (95% CI +11.1 to +13.5 MiB)". The interval bounds use
// the unit of the largest of the three figures. Missing bounds (NaN) print
// the rate alone.
func RateCI(slope, lo, hi float64, per string) string {
	if math.IsNaN(slope) || math.IsInf(slope, 0) {
		return "n/a"
	}
	if per == "" {
		per = "step"
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return Rate(slope, per)
	}
	unit, size := ByteUnit(max(math.Abs(slope), math.Abs(lo), math.Abs(hi)))
	f := func(v float64) string {
		if unit == "B" {
			s := strconv.FormatFloat(v, 'f', 1, 64)
			if v > 0 {
				s = "+" + s
			}
			return s
		}
		s := sig3(v / size)
		if v > 0 {
			s = "+" + s
		}
		return s
	}
	return fmt.Sprintf("%s/%s (95%% CI %s to %s %s)", SignedBytes(slope), per, f(lo), f(hi), unit)
}

// PValue formats a p-value: "p=0.032", "p<0.001", "p=n/a".
func PValue(p float64) string {
	switch {
	case math.IsNaN(p) || p < 0:
		return "p=n/a"
	case p < 0.001:
		return "p<0.001"
	case p < 0.01:
		return "p=" + strconv.FormatFloat(p, 'f', 3, 64)
	default:
		return "p=" + strconv.FormatFloat(p, 'f', 2, 64)
	}
}

// Percent formats a share (0..1) as a percentage: 0.425 -> "42.5%".
func Percent(share float64) string {
	if math.IsNaN(share) || math.IsInf(share, 0) {
		return "n/a"
	}
	v := share * 100
	if math.Abs(v) >= 99.95 || v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "%"
}

// Count formats an integer with thousands separators: 1234567 ->
// "1,234,567".
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Hours formats a duration given in hours for a reader: "45 min",
// "3.2 hours", "2.1 days"; "n/a" when unknown.
func Hours(h float64) string {
	if math.IsNaN(h) || math.IsInf(h, 0) || h < 0 {
		return "n/a"
	}
	switch {
	case h < 1:
		return strconv.FormatFloat(h*60, 'f', 0, 64) + " min"
	case h < 48:
		return sig3(h) + " hours"
	default:
		return sig3(h/24) + " days"
	}
}

// AxisAmount formats an amount on a device axis: "1,200 steps" or
// "3.2 hours"; per is "step" or "hour".
func AxisAmount(x float64, per string) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if per == "hour" || per == "hours" {
		return Hours(x)
	}
	if per == "snapshot" {
		return Count(int64(math.Round(x))) + " snapshots"
	}
	return Count(int64(math.Round(x))) + " steps"
}

// Relative formats t relative to now: "just now", "5 min ago",
// "3 hours ago", "in 2.0 days".
func Relative(t, now time.Time) string {
	if t.IsZero() {
		return "n/a"
	}
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	if d < time.Minute {
		return "just now"
	}
	s := Hours(d.Hours())
	if future {
		return "in " + s
	}
	return s + " ago"
}

// Timestamp formats a time as RFC 3339 in UTC, "" for the zero time.
func Timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Number formats a float with up to 4 significant digits, "n/a" for NaN.
func Number(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
