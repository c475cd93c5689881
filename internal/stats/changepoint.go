package stats

import (
	"cmp"
	"math"
	"slices"
)

// StepChange is the best single change in level of a series: the split
// that leaves the least squared deviation when each side is replaced by
// its own mean (the least-squares change point; the first step of binary
// segmentation, Scott and Knott 1974).
//
// Memory series of healthy training runs often hold exactly one such
// step: the optimizer state created at the first step, a cuDNN workspace,
// a buffer allocated once mid-run, the caching allocator's pool filling
// up. A step is not a leak, so the trend code asks whether growth remains
// once the best step is set aside (StratifiedMannKendall over the two
// sides).
type StepChange struct {
	// Index is the first point after the change, 1 ≤ Index < n; 0 when
	// the series is too short (n < 2) or constant.
	Index int
	// Before and After are the mean levels on each side.
	Before, After float64
	// Explained is the share (0..1) of the series' variance the step
	// explains: 1 − RSS_step / RSS_constant.
	Explained float64
}

// Jump is After − Before.
func (c StepChange) Jump() float64 { return c.After - c.Before }

// FindStep returns the best single change in level of y, trying every
// split that leaves at least minSeg points on each side (minSeg < 1 counts
// as 1).
func FindStep(y []float64, minSeg int) StepChange {
	n := len(y)
	minSeg = max(minSeg, 1)
	var c StepChange
	if n < 2*minSeg {
		return c
	}
	// Prefix sums make every split O(1).
	sum := make([]float64, n+1)
	sq := make([]float64, n+1)
	for i, v := range y {
		sum[i+1] = sum[i] + v
		sq[i+1] = sq[i] + v*v
	}
	rss := func(a, b int) float64 { // points [a, b)
		m := float64(b - a)
		s := sum[b] - sum[a]
		return math.Max(0, sq[b]-sq[a]-s*s/m)
	}
	total := rss(0, n)
	if total == 0 {
		return c
	}
	best := math.Inf(1)
	for k := minSeg; k <= n-minSeg; k++ {
		if r := rss(0, k) + rss(k, n); r < best {
			best = r
			c.Index = k
		}
	}
	if c.Index == 0 {
		return c
	}
	c.Before = sum[c.Index] / float64(c.Index)
	c.After = (sum[n] - sum[c.Index]) / float64(n-c.Index)
	c.Explained = 1 - best/total
	return c
}

// Segments splits y into pieces of constant level by binary segmentation:
// a piece is split at its best step while the split lowers the squared
// deviation by more than penalty (in squared y units); pieces shorter than
// 2·minSeg are not split. It returns the start index of every piece after
// the first, ascending. With penalty = 2·σ²·ln(n) this is the usual
// BIC-style stopping rule for a mean-shift model with noise σ.
func Segments(y []float64, minSeg int, penalty float64) []int {
	var cuts []int
	var split func(a, b int)
	split = func(a, b int) {
		if b-a < 2*max(minSeg, 1) {
			return
		}
		seg := y[a:b]
		c := FindStep(seg, minSeg)
		if c.Index == 0 {
			return
		}
		before := sumSquares(seg)
		after := sumSquares(seg[:c.Index]) + sumSquares(seg[c.Index:])
		if before-after <= penalty {
			return
		}
		split(a, a+c.Index)
		cuts = append(cuts, a+c.Index)
		split(a+c.Index, b)
	}
	split(0, len(y))
	return cuts
}

// sumSquares is the sum of squared deviations of v from its mean.
func sumSquares(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	m := mean(v)
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return s
}

// noiseScale estimates the noise standard deviation of a series from its
// first differences: MAD(Δy)/√2, which a trend or a few steps barely move
// (a linear trend shifts every difference equally; a step changes one).
func NoiseScale(y []float64) float64 {
	if len(y) < 3 {
		return 0
	}
	d := make([]float64, len(y)-1)
	for i := range d {
		d[i] = y[i+1] - y[i]
	}
	return mad(d) / math.Sqrt2
}

// Drops counts the falls of y between consecutive points larger than tol
// (in y units): zero for a series that only accumulates (a leak, a cache
// filling up), many for one sampled at different phases of a training step
// or cut back by empty_cache().
func Drops(y []float64, tol float64) int {
	n := 0
	for i := 1; i < len(y); i++ {
		if y[i] < y[i-1]-tol {
			n++
		}
	}
	return n
}

// TroughEnvelope returns the rolling minimum of y over windows of w
// points, one value per window start (len(y) − w + 1 values; y itself
// when w ≤ 1 or y is shorter than w).
//
// When snapshots land at different phases of a training step, a series
// is its persistent part (parameters, optimizer state, anything leaked)
// plus a phase-dependent part (activations alive at that moment, which is
// never negative). The persistent part is the series' floor, the "heap
// after GC" of the JVM tools: a leak raises the floor, a phase only adds
// excursions above it. The rolling minimum follows the floor.
func TroughEnvelope(y []float64, w int) []float64 {
	return perWindow(y, w, slices.Min)
}

// NeighbourMin returns, for each value of y, the least of it and its
// neighbours on either side (the ends have one): TroughEnvelope over
// windows of 3 centred on each value, one value per point. One or two
// values above those around them drop to their level, while a level held
// for three values or more stays, so growth that persists keeps its
// size, at most one value later.
func NeighbourMin(y []float64) []float64 {
	if len(y) < 2 {
		return slices.Clone(y)
	}
	padded := make([]float64, 0, len(y)+2)
	padded = append(padded, y[0])
	padded = append(padded, y...)
	padded = append(padded, y[len(y)-1])
	return TroughEnvelope(padded, 3)
}

// FloorPoints picks the points of y that lie on its floor: the points
// not lifted by a phase excursion. It fits a Theil-Sen line to the trough
// envelope (window w), measures the floor's own noise from the points at
// or below that line (1.4826·median |residual|, a normal-consistent MAD),
// and keeps every point less than 3 of those above the line (plus tol);
// when that keeps fewer than half the points, it keeps the half with the
// smallest residuals. It returns the kept indexes, ascending.
//
// Unlike the envelope itself, the kept values are original observations,
// one per snapshot, so the trend tests that follow see independent
// points rather than overlapping window minima.
func FloorPoints(x, y []float64, w int, tol float64) []int {
	env := TroughEnvelope(y, w)
	line := TheilSen(windowMid(x, w), env)
	if math.IsNaN(line.Slope) {
		all := make([]int, len(y))
		for i := range all {
			all[i] = i
		}
		return all
	}
	res := make([]float64, len(y))
	var below []float64
	for i := range y {
		res[i] = y[i] - (line.Intercept + line.Slope*x[i])
		if res[i] <= 0 {
			below = append(below, -res[i])
		}
	}
	s := 0.0
	if len(below) >= 3 {
		s = 1.4826 * Median(below)
	}
	var keep []int
	for i, r := range res {
		if r <= 3*s+tol {
			keep = append(keep, i)
		}
	}
	if len(keep) < (len(y)+1)/2 {
		// The floor's noise could not be measured (too few points at or
		// below the line): keep the lower half by residual instead.
		order := make([]int, len(y))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(res[a], res[b]) })
		keep = order[:(len(y)+1)/2]
		slices.Sort(keep)
	}
	return keep
}

// windowMid is the mean x of each window of w points, matching
// TroughEnvelope's output.
func windowMid(x []float64, w int) []float64 {
	return perWindow(x, w, mean)
}

// perWindow applies f to each window of w consecutive points of v, one
// value per window start (len(v) − w + 1 values; v itself when w ≤ 1 or v
// is shorter than w).
func perWindow(v []float64, w int, f func([]float64) float64) []float64 {
	if w <= 1 || len(v) < w {
		return v
	}
	out := make([]float64, len(v)-w+1)
	for i := range out {
		out[i] = f(v[i : i+w])
	}
	return out
}

// mean is the arithmetic mean of v (NaN when v is empty).
func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
