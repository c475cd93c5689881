package analyze

import (
	"fmt"
	"math"
)

// Number formatting for the sentences analysis attaches to its findings
// (Reason, Explanation, Notes). The report writers format their own
// tables and figures; these keep the sentences readable on their own, in
// summary.json and on stdout.

// fmtBytes formats a byte count: "1.50 GiB", "12.3 MiB", "512 B".
func fmtBytes(b int64) string { return fmtBytesF(float64(b)) }

// fmtBytesF formats a fractional byte amount, such as a slope, to three
// significant digits so an interval's ends stay apart: "6.22 MiB",
// "12.3 GiB", "512 B".
func fmtBytesF(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	unit, div := "B", 1.0
	switch a := math.Abs(v); {
	case a >= 1<<40:
		unit, div = "TiB", 1<<40
	case a >= 1<<30:
		unit, div = "GiB", 1<<30
	case a >= 1<<20:
		unit, div = "MiB", 1<<20
	case a >= 1<<10:
		unit, div = "KiB", 1<<10
	}
	x := v / div
	switch a := math.Abs(x); {
	case unit == "B" || a >= 100:
		return fmt.Sprintf("%.0f %s", x, unit)
	case a >= 10:
		return fmt.Sprintf("%.1f %s", x, unit)
	}
	return fmt.Sprintf("%.2f %s", x, unit)
}

// fmtSigned is fmtBytesF with an explicit sign: "+6.2 MiB", "-512 B".
func fmtSigned(v float64) string {
	if v > 0 {
		return "+" + fmtBytesF(v)
	}
	return fmtBytesF(v)
}

// fmtRate is a growth rate with its 95% interval:
// "+6.2 MiB per step (95% interval +6.2 to +6.3 MiB)".
func fmtRate(slope, lo, hi float64, per string) string {
	return fmt.Sprintf("%s per %s (95%% interval %s to %s)", fmtSigned(slope), per, fmtSigned(lo), fmtSigned(hi))
}

// fmtP is a p-value: "p < 0.001", "p = 0.39".
func fmtP(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.2g", p)
}

// countOf is "1 suspect" or "3 suspects": a count and its noun in the
// right number.
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
