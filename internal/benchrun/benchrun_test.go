package benchrun

import (
	"testing"
	"time"
)

// TestSpreadOf checks the fastest, median and slowest of timings by wall
// time, whatever their order, and that the timings given are left in
// order.
func TestSpreadOf(t *testing.T) {
	s := func(n int, rss int64) Result {
		return Result{Wall: time.Duration(n) * time.Second, CPU: time.Duration(2*n) * time.Second, RSS: rss}
	}
	for _, tc := range []struct {
		in                 []int
		rss                []int64 // each run's peak, in the order of in
		fast, median, slow int
		medianRSS          int64
	}{
		{[]int{5}, []int64{50}, 5, 5, 5, 50},
		{[]int{3, 1, 2}, []int64{30, 10, 20}, 1, 2, 3, 20},
		// The median run (4 s, the second listed) peaked at 90: the
		// median peak is 40, another run's.
		{[]int{9, 4, 7, 4, 1}, []int64{10, 90, 40, 60, 30}, 1, 4, 9, 40},
	} {
		var rs []Result
		byWall := map[int]Result{}
		for i, n := range tc.in {
			rs = append(rs, s(n, tc.rss[i]))
			if _, ok := byWall[n]; !ok {
				byWall[n] = rs[i]
			}
		}
		got := SpreadOf(rs)
		if got.Fastest.Wall != byWall[tc.fast].Wall || got.Median.Wall != byWall[tc.median].Wall || got.Slowest.Wall != byWall[tc.slow].Wall {
			t.Errorf("SpreadOf(%v) = %+v; want walls %d, %d, %d s", tc.in, got, tc.fast, tc.median, tc.slow)
		}
		if got.Fastest != byWall[tc.fast] || got.Slowest != byWall[tc.slow] {
			t.Errorf("SpreadOf(%v) = %+v: the fastest or slowest is not that run whole", tc.in, got)
		}
		if got.RSS != tc.medianRSS {
			t.Errorf("SpreadOf(%v) median peak RSS %d; want %d", tc.in, got.RSS, tc.medianRSS)
		}
		if rs[0] != s(tc.in[0], tc.rss[0]) {
			t.Errorf("SpreadOf(%v) reordered its input", tc.in)
		}
	}
}
