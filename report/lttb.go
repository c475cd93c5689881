package report

import "math"

// LTTB down-samples the series (xs[i], ys[i]) to at most n points with
// Steinarsson's Largest-Triangle-Three-Buckets algorithm and returns the
// indices of the kept points, ascending. It keeps the first and last points
// and, from each of n-2 equal buckets between them, the point that forms
// the largest triangle with the point kept before and the average of the
// next bucket, so peaks and steps survive while flat stretches thin out.
//
// xs must be ascending. Points whose x or y is NaN are never kept. With
// n < 3, or when there are no more than n usable points, every usable
// index is returned.
func LTTB(xs, ys []float64, n int) []int {
	m := min(len(xs), len(ys))
	idx := make([]int, 0, m)
	for i := 0; i < m; i++ {
		if !math.IsNaN(xs[i]) && !math.IsNaN(ys[i]) {
			idx = append(idx, i)
		}
	}
	if n < 3 || len(idx) <= n {
		return idx
	}
	out := make([]int, 0, n)
	out = append(out, idx[0])
	// Buckets over idx[1 : len-1].
	every := float64(len(idx)-2) / float64(n-2)
	a := idx[0]
	for b := 0; b < n-2; b++ {
		start := int(math.Floor(float64(b)*every)) + 1
		end := int(math.Floor(float64(b+1)*every)) + 1
		end = min(end, len(idx)-1)
		// Average of the next bucket (the last point for the last bucket).
		ns := end
		ne := int(math.Floor(float64(b+2)*every)) + 1
		ne = min(ne, len(idx))
		if b == n-3 {
			ns, ne = len(idx)-1, len(idx)
		}
		var avgX, avgY float64
		for _, j := range idx[ns:ne] {
			avgX += xs[j]
			avgY += ys[j]
		}
		cnt := float64(ne - ns)
		avgX /= cnt
		avgY /= cnt
		best, bestArea := idx[start], -1.0
		ax, ay := xs[a], ys[a]
		for _, j := range idx[start:end] {
			area := math.Abs((ax-avgX)*(ys[j]-ay) - (ax-xs[j])*(avgY-ay))
			if area > bestArea {
				best, bestArea = j, area
			}
		}
		out = append(out, best)
		a = best
	}
	return append(out, idx[len(idx)-1])
}
