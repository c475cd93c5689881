package stats

import (
	"math"
	"slices"
)

// OLSFit is an ordinary least-squares line y = Intercept + Slope·x.
//
// OLS was the project's first trend method and is kept for
// comparison and for R²; the verdicts use the Theil-Sen slope and the
// Mann-Kendall test (theilsen.go, mannkendall.go), which a
// single outlier snapshot cannot drag around.
type OLSFit struct {
	// N is the number of points fitted.
	N int
	// Slope is in y units per x unit (bytes per step or per hour);
	// Intercept is the fitted y at x = 0.
	Slope, Intercept float64
	// SlopeSE is the standard error of the slope,
	// √(σ̂² / Σ(x − x̄)²) with σ̂² = RSS / (N − 2).
	SlopeSE float64
	// Lo and Hi bound the slope's 95% confidence interval,
	// Slope ± t₀.₉₇₅(N − 2) · SlopeSE (Student's t, assuming independent
	// normal residuals, which memory series rarely have: read it as a
	// rough guide).
	Lo, Hi float64
	// PValue is the two-sided p-value of the t test of Slope = 0.
	PValue float64
	// R2 is the coefficient of determination, 1 − RSS/TSS (0 when y is
	// constant).
	R2 float64
}

// OLS fits y against x by ordinary least squares. With fewer than three
// points, or when every x is equal, it returns N and NaN statistics.
func OLS(x, y []float64) OLSFit {
	n := min(len(x), len(y))
	f := OLSFit{N: n, Slope: math.NaN(), Intercept: math.NaN(), SlopeSE: math.NaN(),
		Lo: math.NaN(), Hi: math.NaN(), PValue: math.NaN(), R2: math.NaN()}
	if n < 3 {
		return f
	}
	var mx, my float64
	for i := range n {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(n)
	my /= float64(n)
	var sxx, sxy, syy float64
	for i := range n {
		dx, dy := x[i]-mx, y[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return f
	}
	f.Slope = sxy / sxx
	f.Intercept = my - f.Slope*mx
	rss := math.Max(0, syy-f.Slope*sxy)
	if syy > 0 {
		f.R2 = 1 - rss/syy
	} else {
		f.R2 = 0
	}
	df := float64(n - 2)
	f.SlopeSE = math.Sqrt(rss / df / sxx)
	tq := StudentTQuantile(0.975, df)
	f.Lo, f.Hi = f.Slope-tq*f.SlopeSE, f.Slope+tq*f.SlopeSE
	switch {
	case f.SlopeSE > 0:
		f.PValue = 2 * (1 - studentTCDF(math.Abs(f.Slope/f.SlopeSE), df))
	case f.Slope != 0:
		f.PValue = 0 // a perfect line
	default:
		f.PValue = 1
	}
	return f
}

// sortedCopy returns v sorted ascending, leaving v as it was.
func sortedCopy(v []float64) []float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s
}
