package stats

import (
	"math"
	"slices"
)

// MKResult is the outcome of a Mann-Kendall trend test.
//
// The Mann-Kendall test asks whether a series tends to rise (or fall)
// with its order, without assuming the rise is linear or the noise
// normal. Its statistic is
//
//	S = Σ_{i<j} sign(y_j − y_i)
//
// over all pairs of points in order: the number of rising pairs minus the
// number of falling ones. Under the null hypothesis (no trend: every order
// equally likely) S has mean 0 and, with tie correction,
//
//	Var(S) = [n(n−1)(2n+5) − Σ_t t(t−1)(2t+5)] / 18
//
// where t runs over the sizes of groups of equal values. Memory series
// have many ties (a stack group that did not change between snapshots), so
// the correction matters. The p-value uses the normal approximation with a
// continuity correction, Z = (S − Sign(S)) / √Var(S), which is adequate
// from about n = 8 and conservative below.
//
// Mann-Kendall alone raises many false alarms on memory series (Machida
// et al., ISSREW 2013): a single step (one buffer allocated once) or a
// warm-up ramp makes every later pair rise. The trend code therefore
// combines it with change-point handling, Theil-Sen effect sizes and
// minimum-duration rules (analyze/trend.go).
type MKResult struct {
	// N is the number of points.
	N int
	// S is the Mann-Kendall statistic; VarS its tie-corrected variance
	// under no trend.
	S    float64
	VarS float64
	// POneSided is the one-sided p-value in the direction of S: the
	// probability under no trend of an S at least as far from 0 on the
	// same side (S ≥ s for a rise). Exact (Exact true) for series of at
	// most exactMaxN points without ties, where the normal approximation
	// is poor; the continuity-corrected normal approximation otherwise.
	// 1 when S is 0.
	POneSided float64
	Exact     bool
	// Z is the continuity-corrected normal score of S.
	Z float64
	// PValue is the two-sided p-value of no trend (1 when N < 3).
	PValue float64
	// Tau is Kendall's tau-a, S / (n(n−1)/2), between −1 and 1.
	Tau float64
	// VarFactor is the factor by which VarS was inflated for serial
	// correlation (ModifiedMannKendall, hamedrao.go); 0 or 1 for the plain
	// test.
	VarFactor float64
}

// MannKendall tests y (in order) for a monotone trend.
func MannKendall(y []float64) MKResult {
	n := len(y)
	r := MKResult{N: n, PValue: 1}
	if n < 3 {
		return r
	}
	var s float64
	for i := 0; i < n-1; i++ {
		for j := i + 1; j < n; j++ {
			s += Sign(y[j] - y[i])
		}
	}
	r.S = s
	r.VarS = mkVariance(y)
	r.Tau = s / (float64(n*(n-1)) / 2)
	r.Z = mkZ(r.S, r.VarS)
	r.PValue = twoSidedNormalP(r.Z)
	r.POneSided = 1
	switch {
	case r.VarS == 0:
		r.PValue = 1
	case s == 0:
	case n <= exactMaxN && !hasTies(y):
		r.POneSided, r.Exact = exactMKUpper(n, math.Abs(s)), true
	default:
		r.POneSided = twoSidedNormalP(r.Z) / 2
	}
	return r
}

// exactMaxN is the largest series for which the one-sided p-value is
// computed exactly: 10! orderings are still exact in float64, and from
// about 10 points on the normal approximation is within a few percent.
const exactMaxN = 10

// hasTies reports whether two values of y are equal.
func hasTies(y []float64) bool {
	s := slices.Clone(y)
	slices.Sort(s)
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			return true
		}
	}
	return false
}

// exactMKUpper is P(S ≥ s) under no trend for n distinct values: every
// ordering is equally likely, and S = N − 2k where N = n(n−1)/2 and k is
// the ordering's number of inversions (falling pairs), whose counts over
// the n! orderings are the Mahonian numbers, built row by row.
func exactMKUpper(n int, s float64) float64 {
	pairs := n * (n - 1) / 2
	counts := []float64{1} // orderings of 1 value by inversions
	for m := 2; m <= n; m++ {
		next := make([]float64, len(counts)+m-1)
		for k, c := range counts {
			for j := 0; j < m; j++ { // the new value adds 0..m-1 inversions
				next[k+j] += c
			}
		}
		counts = next
	}
	var total, upper float64
	for k, c := range counts {
		total += c
		if float64(pairs-2*k) >= s-1e-9 {
			upper += c
		}
	}
	return upper / total
}

// StratifiedMannKendall is the Mann-Kendall test within blocks: S and
// Var(S) are summed over the segments (Hirsch and Slack's seasonal
// Kendall test), so only pairs inside one segment count. Splitting a
// series at a change point and testing the pieces this way asks whether
// the series still trends once the jump at the change point is set
// aside: a one-time step gives no trend within either piece.
func StratifiedMannKendall(segments ...[]float64) MKResult {
	var r MKResult
	for _, seg := range segments {
		m := MannKendall(seg)
		r.N += m.N
		r.S += m.S
		r.VarS += m.VarS
	}
	r.PValue = 1
	if r.VarS > 0 {
		r.Z = mkZ(r.S, r.VarS)
		r.PValue = twoSidedNormalP(r.Z)
	}
	if r.N > 1 {
		r.Tau = r.S / (float64(r.N*(r.N-1)) / 2)
	}
	return r
}

func mkZ(s, v float64) float64 {
	if v <= 0 {
		return 0
	}
	switch {
	case s > 0:
		return (s - 1) / math.Sqrt(v)
	case s < 0:
		return (s + 1) / math.Sqrt(v)
	}
	return 0
}

// mkVariance is the tie-corrected variance of S for the values y.
func mkVariance(y []float64) float64 {
	n := float64(len(y))
	v := n * (n - 1) * (2*n + 5)
	s := slices.Clone(y)
	slices.Sort(s)
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if t := float64(j - i); t > 1 {
			v -= t * (t - 1) * (2*t + 5)
		}
		i = j
	}
	return v / 18
}

func Sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
