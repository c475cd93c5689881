package stats

import (
	"math"
	"slices"
)

// TheilSenFit is a Theil-Sen line with Sen's confidence interval.
//
// The Theil-Sen estimator takes the slope of the line through every pair
// of points, (y_j − y_i) / (x_j − x_i) for x_i ≠ x_j, and reports their
// median. Up to 29% of the points can be arbitrarily wrong without moving
// it (its breakdown point), so one snapshot taken at an unusual moment
// (mid-forward, after empty_cache) does not tilt the trend the way it tilts
// least squares.
//
// Sen's interval (Sen 1968; Gilbert 1987, §16.4) is distribution-free: it
// counts off C = z₀.₉₇₅ · √Var(S) pairwise slopes on each side of the
// median, where Var(S) is the tie-corrected variance of the Mann-Kendall
// statistic (mannkendall.go). With N′ pairwise slopes sorted
// ascending, the 95% bounds are the M₁-th and (M₂+1)-th of them, with
// M₁ = (N′ − C)/2 and M₂ = (N′ + C)/2 (1-based, rounded to the nearest
// index and clamped to the ends).
//
// The intercept is the median of y_i − Slope·x_i (Conover's choice), so
// the line passes through the middle of the data.
type TheilSenFit struct {
	// N is the number of points; Pairs the number of pairwise slopes.
	N, Pairs int
	// Slope is the median pairwise slope, in y units per x unit.
	Slope float64
	// Lo and Hi bound Slope's 95% confidence interval.
	Lo, Hi float64
	// Intercept is the fitted y at x = 0.
	Intercept float64
}

// TheilSen fits y against x. With fewer than two distinct x values the
// statistics are NaN.
func TheilSen(x, y []float64) TheilSenFit { return TheilSenCorrected(x, y, 1) }

// TheilSenCorrected is TheilSen with Sen's interval built on Var(S)
// multiplied by varFactor (at least 1): the Hamed-Rao factor of serially
// correlated points (hamedrao.go) widens the interval as it widens the
// test.
func TheilSenCorrected(x, y []float64, varFactor float64) TheilSenFit {
	n := min(len(x), len(y))
	f := TheilSenFit{N: n, Slope: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Intercept: math.NaN()}
	slopes := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if dx := x[j] - x[i]; dx != 0 {
				slopes = append(slopes, (y[j]-y[i])/dx)
			}
		}
	}
	f.Pairs = len(slopes)
	if len(slopes) == 0 {
		return f
	}
	slices.Sort(slopes)
	m := len(slopes)
	if m%2 == 1 {
		f.Slope = slopes[m/2]
	} else {
		f.Slope = (slopes[m/2-1] + slopes[m/2]) / 2
	}
	c := z975 * math.Sqrt(math.Max(1, varFactor)*mkVariance(y[:n]))
	m1 := int(math.Round((float64(m) - c) / 2))
	m2 := int(math.Round((float64(m)+c)/2)) + 1
	f.Lo = slopes[clampIndex(m1-1, m)]
	f.Hi = slopes[clampIndex(m2-1, m)]
	res := make([]float64, n)
	for i := range n {
		res[i] = y[i] - f.Slope*x[i]
	}
	f.Intercept = Median(res)
	return f
}

func clampIndex(i, n int) int {
	return max(0, min(i, n-1))
}
