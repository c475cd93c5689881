package placement

import (
	"testing"
	"time"
)

// TestGapAt matches a moment with readings 2 s apart around it: the
// reading at the moment itself, else the smaller difference of the two
// around it, neither of them below reserved memory nor beyond the window.
func TestGapAt(t *testing.T) {
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	const res = 10 * gib
	tests := []struct {
		name   string
		times  []float64 // seconds after t0
		used   []int64
		t      float64
		win    time.Duration
		lo, hi int // readings range; hi -1: all
		want   int64
		ok     bool
	}{
		{"a reading at the moment", []float64{8, 10, 12}, []int64{res + 900*mib, res + 300*mib, res + 100*mib}, 10, 10 * time.Second, 0, -1, 300 * mib, true},
		// The next step's segments were mapped after the dump: the
		// reading after it is above by them.
		{"a rise after the moment", []float64{9, 11}, []int64{res + 300*mib, res + 2*gib}, 10, 10 * time.Second, 0, -1, 300 * mib, true},
		// Segments released just before the dump: the reading before it
		// still holds them.
		{"a release before the moment", []float64{9, 11}, []int64{res + 3*gib, res + 300*mib}, 10, 10 * time.Second, 0, -1, 300 * mib, true},
		{"the one before below reserved", []float64{9, 11}, []int64{res - gib, res + 400*mib}, 10, 10 * time.Second, 0, -1, 400 * mib, true},
		{"both below reserved", []float64{9, 11}, []int64{res - gib, res - mib}, 10, 10 * time.Second, 0, -1, 0, false},
		{"the one after beyond the window", []float64{9, 30}, []int64{res + 500*mib, res + 100*mib}, 10, 10 * time.Second, 0, -1, 500 * mib, true},
		{"both beyond the window", []float64{-5, 30}, []int64{res + 500*mib, res + 100*mib}, 10, 10 * time.Second, 0, -1, 0, false},
		{"before the first reading", []float64{11, 13}, []int64{res + 200*mib, res + 100*mib}, 10, 10 * time.Second, 0, -1, 200 * mib, true},
		{"after the last reading", []float64{7, 9}, []int64{res + 100*mib, res + 200*mib}, 10, 10 * time.Second, 0, -1, 200 * mib, true},
		// Readings outside [lo, hi) (the log's idle ends) are not taken.
		{"the one before outside the range", []float64{9, 11, 13}, []int64{res + 100*mib, res + 600*mib, res}, 10, 10 * time.Second, 1, -1, 600 * mib, true},
		{"the one after outside the range", []float64{9, 11, 13}, []int64{res + 700*mib, res + 100*mib, res}, 10, 10 * time.Second, 0, 1, 700 * mib, true},
		// Two readings at the moment (a log read twice): the first that
		// is not below reserved.
		{"a reading at the moment below reserved", []float64{8, 10, 12}, []int64{res + 200*mib, res - mib, res + 900*mib}, 10, 10 * time.Second, 0, -1, 200 * mib, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &GPUSeries{}
			for i, s := range tt.times {
				g.Times = append(g.Times, at(s))
				g.Used = append(g.Used, tt.used[i])
			}
			hi := tt.hi
			if hi < 0 {
				hi = len(g.Times)
			}
			got, ok := g.GapAt(at(tt.t), res, tt.win, tt.lo, hi)
			if ok != tt.ok || ok && got != float64(tt.want) {
				t.Errorf("GapAt = %v MiB, %v; want %v MiB, %v", got/float64(mib), ok, tt.want/mib, tt.ok)
			}
		})
	}
}
