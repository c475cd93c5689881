package units

import (
	"errors"
	"math"
	"strconv"
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
		{99.97 * (1 << 20), "100 MiB"},
		{512 * (1 << 20), "512 MiB"},
		{1023.9 * (1 << 20), "1.00 GiB"},
		{80 * (1 << 30), "80.0 GiB"},
		{3 << 50, "3.00 PiB"},
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
	for _, tt := range []struct {
		in   float64
		want string
	}{{3 << 20, "+3.00 MiB"}, {-512, "-512 B"}, {0, "0 B"}, {math.Inf(1), "n/a"}} {
		if got := Signed(tt.in); got != tt.want {
			t.Errorf("Signed(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   int64
		want string
	}{{0, "0 B"}, {999, "999 B"}, {1500, "1.50 kB"}, {80e9, "80.0 GB"}, {999_700_000, "1.00 GB"}, {-2500, "-2.50 kB"}} {
		if got := DecimalBytes(tt.in); got != tt.want {
			t.Errorf("DecimalBytes(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRateCI(t *testing.T) {
	tests := []struct {
		slope, lo, hi float64
		per           Per
		want          string
	}{
		{12.3 * (1 << 20), 11.1 * (1 << 20), 13.5 * (1 << 20), PerStep, "+12.3 MiB/step (95% CI +11.1 to +13.5 MiB)"},
		{-2 << 30, -3 << 30, -1 << 30, PerHour, "-2.00 GiB/hour (95% CI -3.00 to -1.00 GiB)"},
		{100, -50, 250, PerSnapshot, "+100 B/snapshot (95% CI -50.0 to +250.0 B)"},
		{1 << 20, math.NaN(), math.NaN(), "", "+1.00 MiB/step"},
		{math.NaN(), 0, 0, PerStep, "n/a"},
		// The bounds use the unit of the widest figure.
		{500 << 10, 100 << 10, 2 << 20, PerReading, "+500 KiB/reading (95% CI +0.10 to +2.00 MiB)"},
		// A zero bound is "0" whatever the unit, as a zero rate is "0 B".
		{0, 0, 0, PerStep, "0 B/step (95% CI 0 to 0 B)"},
		{0, 0, 20.7 * (1 << 10), PerStep, "0 B/step (95% CI 0 to +20.7 KiB)"},
		{math.Copysign(0, -1), math.Copysign(0, -1), 1 << 10, PerHour, "0 B/hour (95% CI 0 to +1.00 KiB)"},
	}
	for _, tt := range tests {
		if got := RateCI(tt.slope, tt.lo, tt.hi, tt.per); got != tt.want {
			t.Errorf("RateCI(%v, %v, %v) = %q, want %q", tt.slope, tt.lo, tt.hi, got, tt.want)
		}
	}
	if got := Rate(-3<<20, PerHour); got != "-3.00 MiB/hour" {
		t.Errorf("Rate = %q", got)
	}
}

func TestSmallFormats(t *testing.T) {
	now := time.Date(2025, 1, 2, 12, 0, 0, 0, time.UTC)
	tests := []struct{ got, want string }{
		{PValue(0.0004), "p<0.001"},
		{PValue(0), "p<0.001"},
		{PValue(0.0042), "p=0.004"},
		{PValue(0.41), "p=0.41"},
		{PValue(math.NaN()), "p=n/a"},
		{Percent(0.425), "42.5%"},
		{Percent(1), "100%"},
		{Percent(0), "0%"},
		{Percent(math.NaN()), "n/a"},
		{Number(0.42137), "0.4214"},
		{Number(math.NaN()), "n/a"},
		{Count(0), "0"},
		{Count(999), "999"},
		{Count(1234567), "1,234,567"},
		{Count(-1234), "-1,234"},
		{CountOf(1, "suspect"), "1 suspect"},
		{CountOf(0, "suspect"), "0 suspects"},
		{CountOf(1000, "event"), "1,000 events"},
		{Hours(0.005), "18 s"},
		{Hours(0.75), "45 min"},
		{Hours(3.25), "3.25 hours"},
		{Hours(24), "24.0 hours"},
		{Hours(50), "2.08 days"},
		{Hours(math.Inf(1)), "n/a"},
		{Hours(-1), "n/a"},
		{Duration(90 * time.Minute), "1.50 hours"},
		{AxisAmount(1200, PerStep), "1,200 steps"},
		{AxisAmount(1, PerStep), "1 step"},
		{AxisAmount(40, PerReading), "40 readings"},
		{AxisAmount(12, PerSnapshot), "12 snapshots"},
		{AxisAmount(2, PerHour), "2.00 hours"},
		{AxisAmount(math.NaN(), PerStep), "n/a"},
		{AxisAmount(2.5, PerSnapshot), "2.5 snapshots"},
		{AxisAmount(0.25, PerStep), "0.25 steps"},
		{AxisRange(3321, 3335, PerStep), "3,321 to 3,335 steps"},
		{AxisRange(0.5, 1, PerSnapshot), "0.5 to 1 snapshot"},
		{AxisRange(12, math.Inf(1), PerStep), "12 steps to never"},
		{AxisRange(12, math.NaN(), PerReading), "12 readings to never"},
		{AxisRange(10.6, 69.4, PerHour), "10.6 hours to 2.89 days"},
		{Amount(3326.6), "3,327"},
		{Amount(12), "12"},
		{Amount(-3.5), "-3.5"},
		{Amount(2e15), "2e+15"},
		{Relative(now.Add(-3*time.Hour), now), "3.00 hours ago"},
		{Relative(now.Add(30*time.Second), now), "just now"},
		{Relative(now.Add(72*time.Hour), now), "in 3.00 days"},
		{Relative(time.Time{}, now), "n/a"},
		{Timestamp(time.Date(2025, 1, 2, 13, 0, 0, 0, time.FixedZone("CET", 3600))), "2025-01-02T12:00:00Z"},
		{Timestamp(time.Time{}), ""},
		{Device(-1, 0), "cuda:0"},
		{Device(3, 1), "rank 3 · cuda:1"},
		{TypedDevice("", -1, 2), "cuda:2"},
		{TypedDevice("xpu", -1, 0), "xpu:0"},
		{TypedDevice("npu", 5, 3), "rank 5 · npu:3"},
		{TypedDevice("mps", -1, 0), "mps"},
		{TypedDevice("mps", 1, 0), "rank 1 · mps"},
		{Host(-1), "pinned host"},
		{Host(2), "rank 2 · pinned host"},
		{PerHour.Plural(), "hours"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"80GiB", 80 << 30, false},
		{"80G", 80 << 30, false},
		{"80GB", 80e9, false},
		{"80gb", 80e9, false},
		{"512MiB", 512 << 20, false},
		{"512 MiB", 512 << 20, false},
		{"1.5 TiB", 3 << 39, false},
		{"2kB", 2000, false},
		{"4096", 4096, false},
		{"4096 bytes", 4096, false},
		{"12 parsecs", 0, true},
		{"-1G", 0, true},
		{"", 0, true},
		{"GiB", 0, true},
		{"9000000TiB", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestParseSizeUnit(t *testing.T) {
	tests := []struct {
		in, desc string
		want     int64
		noUnit   bool
	}{
		{"80GiB", "80GiB", 80 << 30, false},
		{"80GB", "80GB = 80×10^9 bytes", 80e9, false},
		{" 1.5 tb ", "1.5tb = 1.5×10^12 bytes", 1.5e12, false},
		{"512 MiB", "512MiB", 512 << 20, false},
		{"80", "", 0, true},
		{"80.5", "", 0, true},
	}
	for _, tt := range tests {
		got, desc, err := ParseSizeUnit(tt.in)
		if errors.Is(err, ErrNoUnit) != tt.noUnit || got != tt.want || desc != tt.desc {
			t.Errorf("ParseSizeUnit(%q) = %d, %q, %v; want %d, %q, no unit %v", tt.in, got, desc, err, tt.want, tt.desc, tt.noUnit)
		}
	}
	if _, _, err := ParseSizeUnit("80 parsecs"); err == nil || errors.Is(err, ErrNoUnit) {
		t.Errorf("unknown unit: %v", err)
	}
}

// TestUnitBytes: the decimal spellings follow the convention; the binary
// ones and single letters are powers of 1024 under both.
func TestUnitBytes(t *testing.T) {
	tests := []struct {
		unit     string
		si, bin  int64
		badUnits bool
	}{
		{"", 1, 1, false},
		{"bytes", 1, 1, false},
		{"KB", 1000, 1 << 10, false},
		{"MiB", 1 << 20, 1 << 20, false},
		{"mb", 1e6, 1 << 20, false},
		{"G", 1 << 30, 1 << 30, false},
		{"TB", 1e12, 1 << 40, false},
		{"PiB", 0, 0, true},
		{"kbit", 0, 0, true},
		{"%", 0, 0, true},
	}
	for _, tt := range tests {
		si, ok1 := UnitBytes(tt.unit, SI)
		bin, ok2 := UnitBytes(tt.unit, Binary)
		if ok1 == tt.badUnits || ok2 == tt.badUnits || si != tt.si || bin != tt.bin {
			t.Errorf("UnitBytes(%q) = %d, %v (SI), %d, %v (binary); want %d, %d", tt.unit, si, ok1, bin, ok2, tt.si, tt.bin)
		}
	}
	for in, want := range map[string][2]string{"841 MiB": {"841", "MiB"}, "841MiB": {"841", "MiB"}, "1.5": {"1.5", ""}, "N/A": {"", "N/A"}} {
		if n, u := SplitUnit(in); n != want[0] || u != want[1] {
			t.Errorf("SplitUnit(%q) = %q, %q; want %q", in, n, u, want)
		}
	}
}

// FuzzParseSize: any input either fails or gives a size in range, and a
// plain byte count reads back as itself.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"80GiB", "80GB", "512 MiB", "1.5TB", "4096", "841 MiB", "24576 MiB", "", "GiB", "1e3k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			return
		}
		if n < 0 || n > maxSize {
			t.Fatalf("ParseSize(%q) = %d, out of range", s, n)
		}
		if m, err := ParseSize(strconv.FormatInt(n, 10)); err != nil || m != n {
			t.Fatalf("ParseSize(%d) = %d, %v", n, m, err)
		}
	})
}
