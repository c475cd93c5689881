package analyze

import (
	"strings"
	"testing"
)

// FuzzParseSuppressions checks that any suppression file either parses
// into rules that can be matched, or fails with an error naming the file
// and line; it must never panic.
func FuzzParseSuppressions(f *testing.F) {
	for _, seed := range []string{
		"fingerprint 3fa9c2d81b07 # ticket\n",
		"3fa9c2d81b07\nsite train.py:57\nfunction *warm*\nframe */apex/*\n",
		"\ufeff# only a comment\n\n",
		"site [\n",
		"frame a b\n",
		"fingerprint zz\n",
		strings.Repeat("site x:1\n", 50),
	} {
		f.Add([]byte(seed))
	}
	sig := SignatureOf(stackAt("train.py", 57, "train_step"))
	frames := stackAt("train.py", 57, "train_step")
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := ParseSuppressions("s.txt", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "s.txt:") {
				t.Fatalf("error without the file and line: %v", err)
			}
			return
		}
		for _, r := range rules {
			if r.Pattern == "" || r.Source == "" {
				t.Fatalf("empty rule %+v", r)
			}
			r.Matches(sig, frames)
		}
	})
}

// FuzzFitTrend feeds arbitrary series (repeated x, constant runs, huge and
// negative values) to the trend verdict: it must never panic, and a
// verdict of "growing" must come with a positive slope and growth.
func FuzzFitTrend(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(0))
	f.Add([]byte{5, 5, 5, 5, 5, 9, 9, 9, 9, 9, 9}, uint8(1))
	f.Add([]byte{1, 200, 3, 180, 5, 160, 7, 140, 9, 120, 11, 100}, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, xmode uint8) {
		if len(data) > 64 {
			data = data[:64]
		}
		x := make([]float64, len(data))
		y := make([]float64, len(data))
		for i, b := range data {
			switch xmode % 3 {
			case 0:
				x[i] = float64(i)
			case 1:
				x[i] = float64(i / 2) // repeated steps
			default:
				x[i] = float64(int(b) % 7) // unordered, repeated
			}
			y[i] = float64(b) * float64(1<<20) * float64(1+i%3)
		}
		tr := FitTrend(MetricAllocated, "step", x, y, DefaultTrendRules())
		if tr.State == StateGrowing && !(tr.Slope > 0 && tr.Growth > 0) {
			t.Fatalf("growing with slope %v growth %v", tr.Slope, tr.Growth)
		}
	})
}
