package stats

import (
	"math"
	"slices"
)

// Mann-Kendall's variance (mannkendall.go) assumes the points are
// independent. Memory series often are not: a container that holds the
// last W batches' tensors, dumped every few steps, makes consecutive
// snapshots alike, and a series that wanders slowly rises for a long
// stretch by chance far more often than independent noise does. Positive
// serial correlation makes Var(S) too small, so the test reports rises as
// more surprising than they are.
//
// Hamed and Rao's modified test (J. Hydrology 204, 1998) corrects the
// variance by an effective sample size. It removes the trend first (the
// series minus Sen's slope times x, so that the trend itself is not read
// as correlation), ranks the residuals, and takes the autocorrelations
// ρ_k of the ranks at every lag k. Only the lags whose ρ_k is significant
// at 5% (|ρ_k| > z₀.₉₇₅/√n, the bound for white noise) count, so that
// the noise of many small estimates does not add up. Then
//
//	n/n* = 1 + 2/(n(n−1)(n−2)) · Σ_k (n−k)(n−k−1)(n−k−2) ρ_k
//	Var*(S) = Var(S) · n/n*
//
// The factor is clamped at 1 from below: negative correlation (snapshots
// that alternate between phases of a step) would shrink the variance and
// make rises look more certain, and the verdicts never want that from
// this correction; the test stays at least as strict as Mann-Kendall's.
// The correction is partial on short series: the autocorrelations
// estimated from a few dozen points are biased towards 0, so a slowly
// wandering series still passes more often than the nominal level (on
// AR(1) noise with φ = 0.8 and 100 points, about 17% one-sided rejections
// at 5% against 27% for the plain test). It makes the significance
// honest where the data show their correlation; whether a group's blocks
// are kept or turned over is decided by their survival
// (analyze/survival.go), not by this test.
//
// The same factor widens Sen's interval (TheilSenCorrected), whose count
// of pairwise slopes rests on the same Var(S), so the slope's interval
// and the test keep agreeing.

// hamedRaoLagAlpha is the significance level at which a lag's rank
// autocorrelation counts (Hamed and Rao's choice).
const hamedRaoLagAlpha = 0.05

// HamedRaoFactor returns n/n*, the factor by which serial correlation
// inflates Var(S) for the series y against x (in order): 1 for
// independent points or fewer than 4 points, larger the more the
// detrended series' ranks are autocorrelated. It is never below 1 (see
// above).
func HamedRaoFactor(x, y []float64) float64 {
	n := min(len(x), len(y))
	if n < 4 {
		return 1
	}
	x, y = x[:n], y[:n]
	slope := TheilSen(x, y).Slope
	if math.IsNaN(slope) {
		slope = 0
	}
	res := make([]float64, n)
	scale := 0.0
	for i := range n {
		res[i] = y[i] - slope*x[i]
		scale = math.Max(scale, math.Abs(y[i]))
	}
	// Residuals within rounding of one another are ties: a straight
	// line's residuals are all equal up to float error, and ranking that
	// error would invent correlation.
	r := tiedRanks(res, 1e-9*scale)
	var mean float64
	for _, v := range r {
		mean += v
	}
	mean /= float64(n)
	var denom float64
	for _, v := range r {
		denom += (v - mean) * (v - mean)
	}
	if denom == 0 {
		return 1
	}
	bound := normalQuantile(1-hamedRaoLagAlpha/2) / math.Sqrt(float64(n))
	nf := float64(n)
	var sum float64
	for k := 1; k <= n-3; k++ {
		var num float64
		for i := 0; i+k < n; i++ {
			num += (r[i] - mean) * (r[i+k] - mean)
		}
		rho := num / denom
		if math.Abs(rho) <= bound {
			continue
		}
		kf := float64(k)
		sum += (nf - kf) * (nf - kf - 1) * (nf - kf - 2) * rho
	}
	f := 1 + 2*sum/(nf*(nf-1)*(nf-2))
	return math.Max(1, f)
}

// tiedRanks returns the ranks (1-based) of v, values within tol of their
// neighbour in sorted order sharing their average rank.
func tiedRanks(v []float64, tol float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]]-v[idx[j-1]] <= tol {
			j++
		}
		avg := float64(i+j+1) / 2 // ranks i+1..j
		for _, k := range idx[i:j] {
			r[k] = avg
		}
		i = j
	}
	return r
}

// ModifiedMannKendall is the Mann-Kendall test of y against its order with
// Hamed and Rao's variance correction for serial correlation (see above);
// x places the points for the detrending. Its VarFactor says how much the
// variance grew. With a factor of 1 it is MannKendall exactly (exact
// p-values included); otherwise the p-values use the normal approximation
// with the corrected variance.
func ModifiedMannKendall(x, y []float64) MKResult {
	r := MannKendall(y)
	r.VarFactor = 1
	f := HamedRaoFactor(x, y)
	if f <= 1 || r.VarS == 0 {
		return r
	}
	r.VarFactor = f
	r.VarS *= f
	r.Exact = false
	r.Z = mkZ(r.S, r.VarS)
	r.PValue = twoSidedNormalP(r.Z)
	r.POneSided = 1
	if r.S != 0 {
		r.POneSided = r.PValue / 2
	}
	return r
}
