package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Count formats an integer with thousands separators: 1234567 is
// "1,234,567".
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// CountOf is a count and its noun in the right number, with thousands
// separators: "1 suspect", "3 suspects", "1,000 events". noun is the
// singular; its plural adds an "s".
func CountOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Count(int64(n)) + " " + noun + "s"
}

// Hours formats a duration given in hours for a reader: "40 s",
// "45 min", "3.2 hours", "2.1 days"; "n/a" when unknown or negative.
func Hours(h float64) string {
	if math.IsNaN(h) || math.IsInf(h, 0) || h < 0 {
		return "n/a"
	}
	switch {
	case h*60 < 0.5:
		// Under half a minute, which would print as "0 min".
		return strconv.FormatFloat(h*3600, 'f', 0, 64) + " s"
	case h < 1:
		return strconv.FormatFloat(h*60, 'f', 0, 64) + " min"
	case h < 48:
		return sig3(h) + " hours"
	default:
		return sig3(h/24) + " days"
	}
}

// Duration is Hours for a time.Duration: "45 min", "24.0 hours".
func Duration(d time.Duration) string { return Hours(d.Hours()) }

// Amount formats a count that may be fractional, such as a number of
// steps to capacity: "3,327", "12", "3.5", "0.25".
func Amount(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case a >= 1e15:
		// Beyond float64's exact integers: no false digits.
		return strconv.FormatFloat(v, 'g', 3, 64)
	case a >= 10 || v == math.Trunc(v):
		return Count(int64(math.Round(v)))
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

// AxisAmount formats an amount of x on a device axis: "1,200 steps",
// "1 step", "2.5 snapshots", "3.20 hours", "40 readings".
func AxisAmount(x float64, per Per) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if per == PerHour {
		return Hours(x)
	}
	if x == 1 {
		return "1 " + string(per.orStep())
	}
	return Amount(x) + " " + per.orStep().Plural()
}

// AxisRange formats an interval of amounts of x, the unit said once:
// "3,321 to 3,335 steps", "0.5 to 2 snapshots"; in hours each end has its
// own unit ("10.6 hours to 2.89 days"); an unbounded upper end (NaN or
// +Inf, a rate whose interval reaches 0) is "12 steps to never".
func AxisRange(lo, hi float64, per Per) string {
	if math.IsNaN(hi) || math.IsInf(hi, 1) {
		return AxisAmount(lo, per) + " to never"
	}
	if per == PerHour {
		return Hours(lo) + " to " + Hours(hi)
	}
	return Amount(lo) + " to " + AxisAmount(hi, per)
}

// Relative formats t relative to now: "just now", "5 min ago",
// "3.0 hours ago", "in 2.00 days"; "n/a" for the zero time.
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
	s := Duration(d)
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

// Device names a CUDA device of a run for a reader: "cuda:0", or
// "rank 3 · cuda:0" when the run has ranks. rank is negative when the run
// has none (input.NoRank).
func Device(rank, device int) string {
	return TypedDevice("cuda", rank, device)
}

// TypedDevice names a device of PyTorch device type typ ("cuda", "xpu",
// "npu", "mps"; "" is "cuda") as torch.device prints it: "xpu:0", or
// "rank 3 · xpu:0" when the run has ranks (negative rank: none). Apple's
// MPS backend has one device, which PyTorch names "mps" ("mps:N" is kept
// for an index other than 0, which no message prints).
func TypedDevice(typ string, rank, device int) string {
	if typ == "" {
		typ = "cuda"
	}
	name := fmt.Sprintf("%s:%d", typ, device)
	if typ == "mps" && device == 0 {
		name = typ
	}
	if rank < 0 {
		return name
	}
	return fmt.Sprintf("rank %d · %s", rank, name)
}

// Host names the pinned host memory of a run's process for a reader:
// "pinned host", or "rank 3 · pinned host" when the run has ranks
// (negative rank: none, input.NoRank).
func Host(rank int) string {
	if rank < 0 {
		return "pinned host"
	}
	return fmt.Sprintf("rank %d · pinned host", rank)
}
