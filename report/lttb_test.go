package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestLTTB(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		xs, ys []float64
		n      int
		want   []int
	}{
		{"short series kept", []float64{0, 1, 2}, []float64{5, 6, 7}, 10, []int{0, 1, 2}},
		{"NaN dropped", []float64{0, 1, 2, 3}, []float64{5, nan, 7, 8}, 10, []int{0, 2, 3}},
		{"n below 3 keeps all", []float64{0, 1, 2, 3}, []float64{1, 2, 3, 4}, 2, []int{0, 1, 2, 3}},
		// Two buckets over indexes 1-2 and 3-5: the spike at 3 wins the
		// second; the first keeps the point that best leads to it.
		{"spike kept", []float64{0, 1, 2, 3, 4, 5, 6}, []float64{0, 0, 0, 9, 0, 0, 0}, 4, []int{0, 2, 3, 6}},
		{"empty", nil, nil, 5, []int{}},
	}
	for _, tt := range tests {
		got := LTTB(tt.xs, tt.ys, tt.n)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: LTTB = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestLTTBProperties: on random walks the result has n ascending indices,
// keeps the ends and the global extremes.
func TestLTTBProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		m := 100 + r.IntN(5000)
		n := 3 + r.IntN(200)
		xs, ys := make([]float64, m), make([]float64, m)
		y := 0.0
		for i := range xs {
			xs[i] = float64(i)
			y += r.NormFloat64()
			ys[i] = y
		}
		imax, imin := 0, 0
		for i := range ys {
			if ys[i] > ys[imax] {
				imax = i
			}
			if ys[i] < ys[imin] {
				imin = i
			}
		}
		ys[imax] += 1000 // make the maximum a clear spike
		got := LTTB(xs, ys, n)
		if len(got) != min(n, m) {
			t.Fatalf("m=%d n=%d: %d points", m, n, len(got))
		}
		if got[0] != 0 || got[len(got)-1] != m-1 {
			t.Fatalf("ends not kept: %d..%d", got[0], got[len(got)-1])
		}
		if !slices.IsSorted(got) {
			t.Fatal("indices not ascending")
		}
		if !slices.Contains(got, imax) {
			t.Fatalf("m=%d n=%d: spike at %d dropped", m, n, imax)
		}
	}
}

func BenchmarkLTTB(b *testing.B) {
	const m = 1_000_000
	xs, ys := make([]float64, m), make([]float64, m)
	for i := range xs {
		xs[i] = float64(i)
		ys[i] = math.Sin(float64(i) / 1000)
	}
	b.ReportAllocs()
	for b.Loop() {
		LTTB(xs, ys, maxChartPoints)
	}
}

func BenchmarkHTML(b *testing.B) {
	f := largeFindings()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HTML(f, fixedOptions); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkXLSX(b *testing.B) {
	f := largeFindings()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := XLSX(f, fixedOptions); err != nil {
			b.Fatal(err)
		}
	}
}
