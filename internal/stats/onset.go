package stats

import "math"

// Onset is the best hinge of a series: flat up to a knot, then a straight
// line from the knot on (a broken stick, continuous at the knot), fitted
// by least squares over every knot that leaves enough points on each
// side. A leak that starts mid-run has this shape; a straight line through
// it understates the rate at which it grows now.
type Onset struct {
	// Knot is the index of the last flat point, where growth starts; 0
	// when no knot was tried (too few points, or all x equal).
	Knot int
	// Level is the flat part's level and Slope the growth after the knot,
	// y units per x unit.
	Level, Slope float64
	// RSS is the hinge's residual sum of squares and LineRSS that of one
	// least-squares line through every point.
	RSS, LineRSS float64
}

// FindOnset returns the best hinge of y over x (x ascending), trying every
// knot with at least minHead points up to it and minTail from it on
// (both at least 2).
func FindOnset(x, y []float64, minHead, minTail int) Onset {
	n := min(len(x), len(y))
	minHead, minTail = max(minHead, 2), max(minTail, 2)
	var o Onset
	if n < minHead+minTail-1 {
		return o
	}
	// Centred copies keep the sums of squares from cancelling (memory
	// levels are ~1e10, their wiggles ~1e6).
	mx, my := 0.0, 0.0
	for i := range n {
		mx += x[i] / float64(n)
		my += y[i] / float64(n)
	}
	cx, cy := make([]float64, n), make([]float64, n)
	for i := range n {
		cx[i], cy[i] = x[i]-mx, y[i]-my
	}
	x, y = cx, cy
	// Tail sums from index k on make every knot O(1).
	var sx, sy, sxx, sxy, syy float64
	tx := make([]float64, n+1)
	ty := make([]float64, n+1)
	txx := make([]float64, n+1)
	txy := make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		tx[i] = tx[i+1] + x[i]
		ty[i] = ty[i+1] + y[i]
		txx[i] = txx[i+1] + x[i]*x[i]
		txy[i] = txy[i+1] + x[i]*y[i]
	}
	for i := range n {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
		syy += y[i] * y[i]
	}
	N := float64(n)
	// One line: y = a + b·x.
	if d := N*sxx - sx*sx; d > 0 {
		b := (N*sxy - sx*sy) / d
		a := (sy - b*sx) / N
		o.LineRSS = math.Max(0, syy-a*sy-b*sxy)
	} else {
		return o
	}
	best := math.Inf(1)
	for k := minHead - 1; k <= n-minTail; k++ {
		// y = a + b·z with z = max(0, x − x[k]); z is 0 up to k.
		xc := x[k]
		m := float64(n - k)
		sz := tx[k] - m*xc
		szz := txx[k] - 2*xc*tx[k] + m*xc*xc
		szy := txy[k] - xc*ty[k]
		d := N*szz - sz*sz
		if d <= 0 {
			continue
		}
		b := (N*szy - sz*sy) / d
		a := (sy - b*sz) / N
		if rss := math.Max(0, syy-a*sy-b*szy); rss < best {
			best = rss
			o.Knot, o.Level, o.Slope, o.RSS = k, a+my, b, rss
		}
	}
	return o
}
