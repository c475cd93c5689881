package report

import (
	"math"
	"testing"
	"time"
)

func TestBytes(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0 B"},
		{512, "512 B"},
		{1023, "1023 B"},
		{1024, "1.00 KiB"},
		{1536, "1.50 KiB"},
		{12.3 * (1 << 20), "12.3 MiB"},
		{512 * (1 << 20), "512 MiB"},
		{1023.9 * (1 << 20), "1.00 GiB"},
		{80 * (1 << 30), "80.0 GiB"},
		{-1.5 * (1 << 30), "-1.50 GiB"},
		{0.5, "0.5 B"},
		{math.NaN(), "n/a"},
		{math.Inf(1), "n/a"},
	}
	for _, tt := range tests {
		if got := BytesF(tt.in); got != tt.want {
			t.Errorf("BytesF(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := SignedBytes(3 << 20); got != "+3.00 MiB" {
		t.Errorf("SignedBytes = %q", got)
	}
}

func TestRateCI(t *testing.T) {
	tests := []struct {
		slope, lo, hi float64
		per, want     string
	}{
		{12.3 * (1 << 20), 11.1 * (1 << 20), 13.5 * (1 << 20), "step", "+12.3 MiB/step (95% CI +11.1 to +13.5 MiB)"},
		{-2 << 30, -3 << 30, -1 << 30, "hour", "-2.00 GiB/hour (95% CI -3.00 to -1.00 GiB)"},
		{100, -50, 250, "step", "+100 B/step (95% CI -50.0 to +250.0 B)"},
		{1 << 20, math.NaN(), math.NaN(), "", "+1.00 MiB/step"},
		{math.NaN(), 0, 0, "step", "n/a"},
		// The bounds use the unit of the widest figure.
		{500 << 10, 100 << 10, 2 << 20, "step", "+500 KiB/step (95% CI +0.10 to +2.00 MiB)"},
	}
	for _, tt := range tests {
		if got := RateCI(tt.slope, tt.lo, tt.hi, tt.per); got != tt.want {
			t.Errorf("RateCI(%v, %v, %v) = %q, want %q", tt.slope, tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestSmallFormats(t *testing.T) {
	now := time.Date(2025, 1, 2, 12, 0, 0, 0, time.UTC)
	tests := []struct{ got, want string }{
		{PValue(0.0004), "p<0.001"},
		{PValue(0.0042), "p=0.004"},
		{PValue(0.41), "p=0.41"},
		{PValue(math.NaN()), "p=n/a"},
		{Percent(0.425), "42.5%"},
		{Percent(1), "100%"},
		{Percent(0), "0%"},
		{Count(0), "0"},
		{Count(999), "999"},
		{Count(1234567), "1,234,567"},
		{Count(-1234), "-1,234"},
		{Hours(0.75), "45 min"},
		{Hours(3.25), "3.25 hours"},
		{Hours(50), "2.08 days"},
		{Hours(math.Inf(1)), "n/a"},
		{AxisAmount(1200, "step"), "1,200 steps"},
		{AxisAmount(2, "hour"), "2.00 hours"},
		{Relative(now.Add(-3*time.Hour), now), "3.00 hours ago"},
		{Relative(now.Add(30*time.Second), now), "just now"},
		{Relative(now.Add(72*time.Hour), now), "in 3.00 days"},
		{Relative(time.Time{}, now), "n/a"},
		{Timestamp(time.Date(2025, 1, 2, 13, 0, 0, 0, time.FixedZone("CET", 3600))), "2025-01-02T12:00:00Z"},
		{Timestamp(time.Time{}), ""},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestMarkdownEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		// Words with underscores and comparisons stay as typed: GitHub and
		// Jira show a pasted backslash or entity literally.
		{"train_step", "train_step"},
		{"snapshot_step_000010.pickle", "snapshot_step_000010.pickle"},
		{"p < 0.001", "p < 0.001"},
		{"p<0.001", "p<0.001"},
		{"A & B", "A & B"},
		{"_private", `\_private`},
		{"a|b", `a\|b`},
		{"<img src=x>", `\<img src=x>`},
		{"</b>", `\</b>`},
		{"&lt;", `\&lt;`},
		{"[x](http://e)", `\[x](http://e)`},
		{"issue #3", "issue #3"},
		{"+720 MiB", "+720 MiB"},
		{"~3 steps ~5", `\~3 steps \~5`},
		{"a\x1b[31mred", "a\uFFFD\\[31mred"},
	}
	for _, tt := range tests {
		if got := mdEscape(tt.in); got != tt.want {
			t.Errorf("mdEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for in, want := range map[string]string{"# not a heading": `\# not a heading`, "+1 MiB": `\+1 MiB`, "a - b": "a - b"} {
		if got := mdItem(in); got != want {
			t.Errorf("mdItem(%q) = %q, want %q", in, got, want)
		}
	}
	if got := mdCode("a`b|c"); got != "`a'b¦c`" {
		t.Errorf("mdCode = %q", got)
	}
}
