package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func near(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

func TestDistributions(t *testing.T) {
	tests := []struct {
		name      string
		got, want float64
	}{
		// Reference values from standard tables.
		{"z 0.975", normalQuantile(0.975), 1.959963985},
		{"z 0.5", normalQuantile(0.5), 0},
		{"two-sided p z=1.96", twoSidedNormalP(1.96), 0.04999579},
		{"t 0.975 df1", StudentTQuantile(0.975, 1), 12.70620474},
		{"t 0.975 df3", StudentTQuantile(0.975, 3), 3.182446305},
		{"t 0.975 df10", StudentTQuantile(0.975, 10), 2.228138852},
		{"t 0.975 df30", StudentTQuantile(0.975, 30), 2.042272456},
		{"t 0.025 df5", StudentTQuantile(0.025, 5), -2.570581836},
		{"tcdf 2 df4", studentTCDF(2, 4), 0.9419417},
		{"tcdf -1 df2", studentTCDF(-1, 2), 0.2113249},
		{"two-sided p z=1.96", twoSidedNormalP(1.959963985), 0.05},
	}
	for _, tt := range tests {
		if !near(tt.got, tt.want, 1e-6) {
			t.Errorf("%s = %.9g, want %.9g", tt.name, tt.got, tt.want)
		}
	}
}

func TestOLS(t *testing.T) {
	tests := []struct {
		name                       string
		x, y                       []float64
		slope, icpt, lo, hi, p, r2 float64
	}{
		// Worked by hand: RSS 2.4, σ² 0.8, Sxx 10, SE √0.08, t₀.₉₇₅(3) 3.182446.
		{"textbook", []float64{1, 2, 3, 4, 5}, []float64{2, 4, 5, 4, 5}, 0.6, 2.2, 0.6 - 3.182446305*math.Sqrt(0.08), 0.6 + 3.182446305*math.Sqrt(0.08), 0.1240, 0.6},
		{"perfect line", []float64{0, 1, 2, 3}, []float64{1, 3, 5, 7}, 2, 1, 2, 2, 0, 1},
		{"flat", []float64{0, 1, 2, 3}, []float64{5, 5, 5, 5}, 0, 5, 0, 0, 1, 0},
		{"too short", []float64{0, 1}, []float64{1, 2}, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()},
		{"equal x", []float64{1, 1, 1}, []float64{1, 2, 3}, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()},
	}
	for _, tt := range tests {
		f := OLS(tt.x, tt.y)
		if !near(f.Slope, tt.slope, 1e-9) || !near(f.Intercept, tt.icpt, 1e-9) || !near(f.Lo, tt.lo, 1e-6) ||
			!near(f.Hi, tt.hi, 1e-6) || !near(f.PValue, tt.p, 1e-3) || !near(f.R2, tt.r2, 1e-9) {
			t.Errorf("%s: got %+v", tt.name, f)
		}
	}
}

func TestMannKendall(t *testing.T) {
	tests := []struct {
		name       string
		y          []float64
		s, varS, p float64
	}{
		// Var = n(n−1)(2n+5)/18 = 16.667; Z = 9/√16.667 = 2.2045.
		{"rising", []float64{1, 2, 3, 4, 5}, 10, 300.0 / 18, 0.02749},
		{"falling", []float64{5, 4, 3, 2, 1}, -10, 300.0 / 18, 0.02749},
		// Two pairs of ties: Var = (300 − 2·18)/18; Z = 7/√14.667.
		{"ties", []float64{1, 1, 2, 2, 3}, 8, 264.0 / 18, 0.06758},
		{"constant", []float64{3, 3, 3, 3}, 0, 0, 1},
		{"short", []float64{1, 2}, 0, 0, 1},
	}
	for _, tt := range tests {
		r := MannKendall(tt.y)
		if r.S != tt.s || !near(r.VarS, tt.varS, 1e-9) || !near(r.PValue, tt.p, 1e-3) {
			t.Errorf("%s: got S=%v Var=%v p=%v, want %v %v %v", tt.name, r.S, r.VarS, r.PValue, tt.s, tt.varS, tt.p)
		}
	}
}

// TestMannKendallFalsePositiveRate checks the test's size: on pure noise
// at α = 0.05 it must reject about 5% of the time (the normal
// approximation with continuity correction is slightly conservative).
func TestMannKendallFalsePositiveRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 2000
	for _, n := range []int{8, 20, 40} {
		rejected := 0
		y := make([]float64, n)
		for range trials {
			for i := range y {
				y[i] = rng.NormFloat64()
			}
			if MannKendall(y).PValue < 0.05 {
				rejected++
			}
		}
		rate := float64(rejected) / trials
		if rate < 0.025 || rate > 0.07 {
			t.Errorf("n=%d: rejection rate %.3f on noise, want about 0.05", n, rate)
		}
	}
}

func TestStratifiedMannKendallSetsStepAside(t *testing.T) {
	step := []float64{10, 11, 10, 9, 10, 12, 8, 10, 50, 51, 49, 50, 50, 52, 48, 50}
	if p := MannKendall(step).PValue; p >= 0.05 {
		t.Fatalf("plain MK p=%v: a step should look like a trend to plain MK", p)
	}
	c := FindStep(step, 1)
	if c.Index != 8 {
		t.Fatalf("step at %d, want 8", c.Index)
	}
	if p := StratifiedMannKendall(step[:c.Index], step[c.Index:]).PValue; p < 0.2 {
		t.Errorf("stratified p=%v: a step with flat sides has no trend within them", p)
	}
	ramp := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	c = FindStep(ramp, 1)
	if p := StratifiedMannKendall(ramp[:c.Index], ramp[c.Index:]).PValue; p >= 0.01 {
		t.Errorf("stratified p=%v on a ramp split at %d: growth must remain", p, c.Index)
	}
}

func TestTheilSen(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	y := make([]float64, len(x))
	for i := range x {
		y[i] = 3*x[i] + 7
	}
	y[4] = 1000 // one wild snapshot
	f := TheilSen(x, y)
	if f.Slope != 3 || f.Intercept != 7 {
		t.Errorf("slope %v intercept %v, want 3 and 7 despite the outlier", f.Slope, f.Intercept)
	}
	if !(f.Lo <= 3 && f.Hi >= 3) {
		t.Errorf("interval [%v, %v] excludes 3", f.Lo, f.Hi)
	}
	if o := OLS(x, y); math.Abs(o.Slope-3) < 1 {
		t.Errorf("OLS slope %v: the outlier should have moved least squares (test is meaningless otherwise)", o.Slope)
	}
	if f := TheilSen([]float64{1, 1}, []float64{1, 2}); !math.IsNaN(f.Slope) {
		t.Errorf("equal x: slope %v, want NaN", f.Slope)
	}
}

// TestTheilSenCoverage checks that Sen's 95% interval covers the true
// slope about 95% of the time on noisy lines.
func TestTheilSenCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{10, 30} {
		const trials = 800
		covered := 0
		x := make([]float64, n)
		y := make([]float64, n)
		for range trials {
			for i := range x {
				x[i] = float64(i * 10)
				y[i] = 1e6 + 500*x[i] + 4e4*rng.NormFloat64()
			}
			f := TheilSen(x, y)
			if f.Lo <= 500 && 500 <= f.Hi {
				covered++
			}
		}
		rate := float64(covered) / trials
		if rate < 0.92 || rate > 0.99 {
			t.Errorf("n=%d: coverage %.3f, want about 0.95", n, rate)
		}
	}
}

func TestSegmentsAndDrops(t *testing.T) {
	y := []float64{0, 0, 0, 5, 5, 5, 5, 9, 9, 9}
	cuts := Segments(y, 1, 1)
	if len(cuts) != 2 || cuts[0] != 3 || cuts[1] != 7 {
		t.Errorf("cuts %v, want [3 7]", cuts)
	}
	if c := Segments([]float64{1, 1, 1, 1}, 1, 1); len(c) != 0 {
		t.Errorf("constant series cut at %v", c)
	}
	if d := Drops([]float64{1, 5, 2, 6, 6, 1}, 0.5); d != 2 {
		t.Errorf("drops %d, want 2", d)
	}
	env := TroughEnvelope([]float64{5, 1, 6, 2, 7, 3}, 2)
	want := []float64{1, 1, 2, 2, 3}
	for i := range want {
		if env[i] != want[i] {
			t.Fatalf("envelope %v, want %v", env, want)
		}
	}
	if s := NoiseScale([]float64{0, 1, 2, 3, 4, 5}); s != 0 {
		t.Errorf("noise of a clean line %v, want 0", s)
	}
}

// TestFindOnset: the hinge finds where a flat series starts to grow, at
// the rate it grows, on levels of memory size (no cancellation in the
// sums); on a straight line the hinge fits no better than the line.
func TestFindOnset(t *testing.T) {
	tests := []struct {
		name      string
		n, knot   int
		slope     float64
		wantKnot  int     // 0: no knot expected to matter
		wantRatio float64 // RSS/LineRSS at most this (or at least, for no knot)
	}{
		{"flat, then growth at a third", 30, 10, 8e6, 10, 0.01},
		{"flat, then growth at two thirds", 30, 20, 8e6, 20, 0.01},
		{"a straight line", 30, 0, 8e6, 0, 0.9},
	}
	for _, tt := range tests {
		rng := rand.New(rand.NewPCG(1, 2))
		x, y := make([]float64, tt.n), make([]float64, tt.n)
		for i := range x {
			x[i] = float64(100 * i)
			y[i] = 6e9 + tt.slope*math.Max(0, x[i]-float64(100*tt.knot)) + 1e5*rng.NormFloat64()
		}
		o := FindOnset(x, y, 3, 5)
		ratio := o.RSS / o.LineRSS
		if tt.wantKnot > 0 {
			if o.Knot != tt.wantKnot || !near(o.Slope, tt.slope, 0.01) || ratio > tt.wantRatio || !near(o.Level, 6e9, 1e-4) {
				t.Errorf("%s: knot %d slope %g level %g ratio %g, want knot %d slope %g ratio <= %g", tt.name, o.Knot, o.Slope, o.Level, ratio, tt.wantKnot, tt.slope, tt.wantRatio)
			}
		} else if ratio < tt.wantRatio {
			t.Errorf("%s: hinge at %d fits a line %g times better", tt.name, o.Knot, 1/ratio)
		}
	}
	if o := FindOnset([]float64{0, 1, 2}, []float64{1, 2, 3}, 3, 5); o.Knot != 0 {
		t.Errorf("too few points: knot %d", o.Knot)
	}
}

// TestHamedRaoFactor checks n/n* against values computed independently
// (a Python transcription of Hamed and Rao's formulas, unclamped) and the
// clamp at 1.
func TestHamedRaoFactor(t *testing.T) {
	seq := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i)
		}
		return x
	}
	tests := []struct {
		name string
		y    []float64
		want float64
	}{
		// Every value twice (dumps closer together than the data
		// changes): the detrended ranks correlate at lag 1.
		// Python: 1.3467285395.
		{"pairs", []float64{1, 1, 2, 2, 3, 3, 6, 6, 5, 5, 6, 6, 9, 9, 8, 8, 10, 10, 12, 12}, 1.3467285395},
		// Rises with a dip every sixth point: correlated at lag 6, but
		// more so negatively at lag 3. Python: 0.7668540339, clamped.
		{"rise with periodic dips", []float64{1, 2, 3, 4, 5, 6, 5, 6, 7, 8, 9, 10, 9, 10, 11, 12, 13, 14}, 1},
		// A triangle wave is negatively correlated at half its period:
		// Python gives 0.4356, which the clamp lifts to 1.
		{"triangle wave", []float64{0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3}, 1},
		// A straight line's residuals are all equal (up to float error).
		{"straight line", []float64{0.1, 1.2, 2.3, 3.4, 4.5, 5.6, 6.7, 7.8, 8.9, 10}, 1},
		{"too short", []float64{1, 3, 2}, 1},
	}
	for _, tt := range tests {
		if got := HamedRaoFactor(seq(len(tt.y)), tt.y); !near(got, tt.want, 1e-9) {
			t.Errorf("%s: factor %.10f, want %.10f", tt.name, got, tt.want)
		}
	}
}

func TestModifiedMannKendall(t *testing.T) {
	y := []float64{1, 1, 2, 2, 3, 3, 6, 6, 5, 5, 6, 6, 9, 9, 8, 8, 10, 10, 12, 12}
	x := make([]float64, len(y))
	for i := range x {
		x[i] = float64(i)
	}
	r := ModifiedMannKendall(x, y)
	// Python: S 160, Var(S) 933.33 (ties corrected), z = 159/√(933.33·1.34673).
	if r.S != 160 || !near(r.VarFactor, 1.3467285395, 1e-9) || !near(r.VarS, 933.3333333*1.3467285395, 1e-9) ||
		!near(r.Z, 4.48475481, 1e-7) || !near(r.POneSided, 3.649891315e-06, 1e-6) || r.Exact {
		t.Errorf("modified test %+v", r)
	}
	// Independent points: the plain test, exact p-value included.
	line := []float64{3, 1, 4, 5, 9, 8, 10}
	lx := []float64{0, 1, 2, 3, 4, 5, 6}
	m, p := ModifiedMannKendall(lx, line), MannKendall(line)
	if m.VarFactor != 1 || m.POneSided != p.POneSided || m.Exact != p.Exact || !m.Exact {
		t.Errorf("uncorrelated: modified %+v, plain %+v", m, p)
	}
}

// TestModifiedMannKendallFalseAlarms draws autocorrelated series without
// a trend (AR(1), φ = 0.8, the wandering of a container that spans
// several snapshots) and counts one-sided rejections at 5%: the plain
// test rejects far more often than 5%, the modified one markedly less
// (not down to 5%: the estimated autocorrelations are biased towards 0,
// so the correction is partial, see hamedrao.go).
func TestModifiedMannKendallFalseAlarms(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 7))
	const runs, n = 400, 100
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
	}
	plain, modified := 0, 0
	for range runs {
		y := make([]float64, n)
		v := rng.NormFloat64()
		for i := range y {
			v = 0.8*v + rng.NormFloat64()
			y[i] = v
		}
		if r := MannKendall(y); r.S > 0 && r.POneSided < 0.05 {
			plain++
		}
		if r := ModifiedMannKendall(x, y); r.S > 0 && r.POneSided < 0.05 {
			modified++
		}
	}
	pr, mr := float64(plain)/runs, float64(modified)/runs
	t.Logf("one-sided rejections at 5%%: plain %.3f, modified %.3f", pr, mr)
	if pr < 0.2 || mr > 0.7*pr {
		t.Errorf("rejection rates plain %.3f, modified %.3f: the correction should bring the rate down", pr, mr)
	}
}

func TestTheilSenCorrectedWidens(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	y := []float64{1, 3, 2, 5, 4, 6, 8, 7, 9, 11, 10, 12}
	a, b := TheilSen(x, y), TheilSenCorrected(x, y, 4)
	if a.Slope != b.Slope || a.Intercept != b.Intercept || !(b.Lo < a.Lo && b.Hi > a.Hi) || !(b.Lo <= b.Slope && b.Slope <= b.Hi) {
		t.Errorf("plain %+v, corrected %+v", a, b)
	}
	if c := TheilSenCorrected(x, y, 0.5); c != a {
		t.Errorf("a factor below 1 changed the fit: %+v", c)
	}
}

// TestNeighbourMin keeps a level held for three values or more and drops
// one or two values above those around them.
func TestNeighbourMin(t *testing.T) {
	tests := []struct{ in, want []float64 }{
		{nil, nil},
		{[]float64{5}, []float64{5}},
		{[]float64{9, 1}, []float64{1, 1}},
		{[]float64{1, 9, 1}, []float64{1, 1, 1}},
		{[]float64{1, 9, 9, 1}, []float64{1, 1, 1, 1}},
		{[]float64{1, 9, 9, 9, 1}, []float64{1, 1, 9, 1, 1}},
		{[]float64{1, 1, 1, 5, 5, 5, 5}, []float64{1, 1, 1, 1, 5, 5, 5}},
		{[]float64{9, 1, 1, 1, 9}, []float64{1, 1, 1, 1, 1}},
	}
	for _, tt := range tests {
		if got := NeighbourMin(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("NeighbourMin(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
