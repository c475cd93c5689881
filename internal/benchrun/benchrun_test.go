package benchrun

import (
	"testing"
	"time"
)

// TestSpreadOf checks the fastest, median and slowest of timings by wall
// time, whatever their order, and that the timings given are left in
// order.
func TestSpreadOf(t *testing.T) {
	s := func(n int) Result {
		return Result{Wall: time.Duration(n) * time.Second, CPU: time.Duration(2*n) * time.Second}
	}
	for _, tc := range []struct {
		in                 []int
		fast, median, slow int
	}{
		{[]int{5}, 5, 5, 5},
		{[]int{3, 1, 2}, 1, 2, 3},
		{[]int{9, 4, 7, 4, 1}, 1, 4, 9},
	} {
		var rs []Result
		for _, n := range tc.in {
			rs = append(rs, s(n))
		}
		got := SpreadOf(rs)
		if want := (Spread{s(tc.fast), s(tc.median), s(tc.slow)}); got != want {
			t.Errorf("SpreadOf(%v) = %+v; want %+v", tc.in, got, want)
		}
		if rs[0] != s(tc.in[0]) {
			t.Errorf("SpreadOf(%v) reordered its input", tc.in)
		}
	}
}
