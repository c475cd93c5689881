package stats

import (
	"math"
)

// This file holds the probability distributions the trend statistics
// need: the standard normal (Mann-Kendall's and Sen's normal
// approximations) and Student's t (the OLS confidence interval). They are
// written out here rather than imported because the standard library has
// only the error function, and the t distribution needs the regularised
// incomplete beta function.

// normalQuantile is Φ⁻¹(p) for 0 < p < 1, computed from the inverse error
// function: Φ⁻¹(p) = √2 · erfinv(2p − 1).
func normalQuantile(p float64) float64 {
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// z975 is Φ⁻¹(0.975) ≈ 1.96: the two-sided 95% normal critical value.
var z975 = normalQuantile(0.975)

// twoSidedNormalP is the two-sided p-value of a standard normal statistic z:
// 2·(1 − Φ(|z|)).
func twoSidedNormalP(z float64) float64 {
	if math.IsNaN(z) {
		return 1
	}
	return math.Min(1, math.Erfc(math.Abs(z)/math.Sqrt2))
}

// studentTCDF is the distribution function of Student's t with df degrees
// of freedom, from the regularised incomplete beta function:
// for t ≥ 0, F(t) = 1 − ½·I_{df/(df+t²)}(df/2, ½).
func studentTCDF(t, df float64) float64 {
	if math.IsNaN(t) || df <= 0 {
		return math.NaN()
	}
	if math.IsInf(t, 0) {
		if t > 0 {
			return 1
		}
		return 0
	}
	x := df / (df + t*t)
	tail := 0.5 * regIncBeta(df/2, 0.5, x)
	if t >= 0 {
		return 1 - tail
	}
	return tail
}

// studentTQuantile is the p-quantile of Student's t with df degrees of
// freedom (0 < p < 1), found by bisection on studentTCDF, which is
// monotone; 200 halvings of a bracket reach float64 precision.
func StudentTQuantile(p, df float64) float64 {
	if p <= 0 || p >= 1 || df <= 0 {
		return math.NaN()
	}
	if p == 0.5 {
		return 0
	}
	lo, hi := -1.0, 1.0
	for studentTCDF(lo, df) > p {
		lo *= 2
	}
	for studentTCDF(hi, df) < p {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if studentTCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-12*math.Max(1, math.Abs(mid)) {
			break
		}
	}
	return (lo + hi) / 2
}

// regIncBeta is the regularised incomplete beta function I_x(a, b),
// evaluated with the continued fraction of Numerical Recipes (betacf, by
// the modified Lentz method), using the symmetry
// I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges faster.
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const (
		maxIter = 300
		eps     = 1e-15
		tiny    = 1e-300
	)
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	// step applies one term aa of the continued fraction (modified
	// Lentz's method) and returns the factor it multiplies h by.
	step := func(aa float64) float64 {
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		return d * c
	}
	for m := 1; m <= maxIter; m++ {
		m2 := float64(2 * m)
		fm := float64(m)
		h *= step(fm * (b - fm) * x / ((qam + m2) * (a + m2)))
		del := step(-(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2)))
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// median returns the median of v (NaN when empty). v is not modified.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := sortedCopy(v)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// mad returns the median absolute deviation of v from its median, scaled
// by 1.4826 so that it estimates the standard deviation of normal data.
func mad(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	m := Median(v)
	d := make([]float64, len(v))
	for i, x := range v {
		d[i] = math.Abs(x - m)
	}
	return 1.4826 * Median(d)
}
