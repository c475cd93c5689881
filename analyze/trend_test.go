package analyze

import (
	"math"
	"math/rand/v2"
	"testing"
)

// series shapes for trend tests, on a step axis 0, 100, 200, ...
type shape func(i, n int, rng *rand.Rand) float64

func xs(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i * 100)
	}
	return x
}

func gen(n int, seed uint64, f shape) []float64 {
	rng := rand.New(rand.NewPCG(seed, 99))
	y := make([]float64, n)
	for i := range y {
		y[i] = f(i, n, rng)
	}
	return y
}

const base = 6e9 // a 6 GB steady level

var shapes = map[string]shape{
	"flat noise": func(i, n int, r *rand.Rand) float64 { return base + 30e6*r.NormFloat64() },
	// Noise on a few discrete levels: runs of equal values, so drops come
	// further apart than every other point, at no regular spacing.
	"coarse noise": func(i, n int, r *rand.Rand) float64 {
		if r.Float64() < 0.35 {
			return base + 2e6*float64(r.IntN(3)-1)
		}
		return base
	},
	"phase noise": func(i, n int, r *rand.Rand) float64 {
		return base + float64(r.IntN(2))*2e9 + 1e6*r.NormFloat64()
	},
	"warm-up jump": func(i, n int, r *rand.Rand) float64 {
		if i == 0 {
			return base / 2
		}
		return base + 5e6*r.NormFloat64()
	},
	"warm-up ramp": func(i, n int, r *rand.Rand) float64 {
		return base*math.Min(1, 0.5+0.5*float64(i)/float64(n/4)) + 5e6*r.NormFloat64()
	},
	"one-time step": func(i, n int, r *rand.Rand) float64 {
		if i >= n/2 {
			return base + 500e6 + 5e6*r.NormFloat64()
		}
		return base + 5e6*r.NormFloat64()
	},
	"saw-tooth": func(i, n int, r *rand.Rand) float64 { return base + float64(i%4)*300e6 },
	"steady leak": func(i, n int, r *rand.Rand) float64 {
		return base + float64(i)*20e6 + 2e6*r.NormFloat64()
	},
	"leak under phase noise": func(i, n int, r *rand.Rand) float64 {
		return base + float64(i)*40e6 + float64(r.IntN(2))*200e6
	},
	"leak bursts": func(i, n int, r *rand.Rand) float64 {
		return base + float64(i*4/n)*200e6
	},
	"warm-up then leak": func(i, n int, r *rand.Rand) float64 {
		if i == 0 {
			return base / 2
		}
		return base + float64(i)*20e6
	},
	"tiny growth": func(i, n int, r *rand.Rand) float64 { return base + float64(i)*1024 },
	// A buffer that fills for 10 snapshots and is flushed: a saw-tooth of
	// live memory, with and without a leak under it.
	"flushed buffer": func(i, n int, r *rand.Rand) float64 { return base + float64(i%10)*20e6 + 1e5*r.NormFloat64() },
	"leak under a flushed buffer": func(i, n int, r *rand.Rand) float64 {
		return base + float64(i)*5e6 + float64(i%10)*20e6 + 1e5*r.NormFloat64()
	},
}

func TestFitTrendShapes(t *testing.T) {
	tests := []struct {
		shape   string
		n       int
		verdict Status
		pattern Pattern
	}{
		{"flat noise", 20, StatusFlat, ""},
		{"phase noise", 20, StatusFlat, ""},
		{"warm-up jump", 12, StatusFlat, "warm-up then flat"},
		{"warm-up ramp", 20, StatusFlat, ""},
		{"one-time step", 20, StatusFlat, "one-time step"},
		{"one-time step", 8, StatusFlat, "one-time step"},
		{"saw-tooth", 20, StatusFlat, ""},
		{"steady leak", 8, StatusGrowing, "steady growth"},
		{"steady leak", 40, StatusGrowing, "steady growth"},
		{"leak under phase noise", 30, StatusGrowing, ""},
		{"leak bursts", 20, StatusGrowing, "growth in bursts"},
		{"warm-up then leak", 12, StatusGrowing, "steady growth"},
		{"tiny growth", 20, StatusGrowing, "steady growth"}, // small but certain: growing (docs/design.md)
		{"steady leak", 4, StatusInsufficient, "too few points"},
		{"flushed buffer", 31, StatusFlat, ""},
		{"flushed buffer", 40, StatusFlat, ""},
		{"leak under a flushed buffer", 31, StatusGrowing, ""},
		{"leak under a flushed buffer", 40, StatusGrowing, ""},
	}
	for _, tt := range tests {
		y := gen(tt.n, 7, shapes[tt.shape])
		tr := FitTrend(MetricAllocated, "step", xs(tt.n), y, DefaultTrendRules())
		if tr.Status() != tt.verdict || (tt.pattern != "" && tr.Pattern != tt.pattern) {
			t.Errorf("%s (n=%d): %s / %s (%s), want %s / %s", tt.shape, tt.n, tr.Status(), tr.Pattern, tr.Why.Rule, tt.verdict, tt.pattern)
		}
	}
	// Warm-up is excluded from the fit of a leak after it.
	y := gen(12, 7, shapes["warm-up then leak"])
	tr := FitTrend(MetricAllocated, "step", xs(12), y, DefaultTrendRules())
	if tr.FitFrom != 1 || math.Abs(tr.Slope-20e6/100) > 1 {
		t.Errorf("warm-up then leak: FitFrom %d slope %v, want 1 and 2e5", tr.FitFrom, tr.Slope)
	}
}

// TestFitTrendFalseAlarmRate measures how often series without a leak
// are called growing, over many seeds: it must stay well under 1%.
func TestFitTrendFalseAlarmRate(t *testing.T) {
	for _, name := range []string{"flat noise", "coarse noise", "phase noise", "warm-up jump", "warm-up ramp", "one-time step", "saw-tooth"} {
		alarms, trials := 0, 0
		for seed := range uint64(300) {
			for _, n := range []int{8, 15, 25, 40} {
				y := gen(n, seed, shapes[name])
				if FitTrend(MetricAllocated, "step", xs(n), y, DefaultTrendRules()).State == StateGrowing {
					alarms++
				}
				trials++
			}
		}
		if rate := float64(alarms) / float64(trials); rate > 0.01 {
			t.Errorf("%s: %d of %d called growing (%.1f%%)", name, alarms, trials, 100*rate)
		}
	}
}

// TestFitTrendPower measures how often real leaks are found.
func TestFitTrendPower(t *testing.T) {
	tests := []struct {
		name string
		ns   []int
		want float64
	}{
		{"steady leak", []int{8, 10, 15, 25, 40}, 0.95},
		{"leak bursts", []int{10, 15, 25, 40}, 0.95},
		{"warm-up then leak", []int{10, 15, 25, 40}, 0.95},
		// Phase noise five times the growth per snapshot hides a leak
		// from the device series until about 25 snapshots; the stack
		// groups find it earlier (attribution_test.go).
		{"leak under phase noise", []int{25, 40}, 0.9},
	}
	for _, tt := range tests {
		name := tt.name
		found, trials := 0, 0
		for seed := range uint64(100) {
			for _, n := range tt.ns {
				y := gen(n, seed, shapes[name])
				if FitTrend(MetricAllocated, "step", xs(n), y, DefaultTrendRules()).State == StateGrowing {
					found++
				}
				trials++
			}
		}
		if rate := float64(found) / float64(trials); rate < tt.want {
			t.Errorf("%s: found %d of %d (%.1f%%)", name, found, trials, 100*rate)
		}
	}
}

func TestProject(t *testing.T) {
	tr := Trend{State: StateGrowing, Slope: 1e6, Lo: 0.5e6, Hi: 2e6, Intercept: 1e9}
	p := Project(&tr, 2e9, 500, 500, 0.01, 10)
	// Now 1.5e9, 0.5e9 left: 500 steps at 1e6/step, [250, 1000].
	if p == nil || p.Remaining != 500 || p.RemainingLo != 250 || p.RemainingHi != 1000 || p.X != 1000 || p.Hours != 5 || p.Beyond {
		t.Fatalf("projection %+v", p)
	}
	if p := Project(&tr, 1e12, 500, 500, 0, 10); p == nil || !p.Beyond {
		t.Errorf("far projection %+v, want Beyond", p)
	}
	tr.Lo = -1
	if p := Project(&tr, 2e9, 500, 500, 0, 10); !math.IsInf(p.RemainingHi, 1) {
		t.Errorf("interval with a non-growing low slope: %+v", p)
	}
	flat := Trend{State: StateFlat, Slope: 1}
	if Project(&flat, 2e9, 0, 1, 0, 10) != nil {
		t.Error("projection of a flat trend")
	}
}

// TestFitTrendStoppedGrowth: a pure accumulation that stops for its last
// third, longer than twice any pause before, is growth that stopped (a
// bounded cache that filled); a leak that pauses between bursts as long
// as it does at the end keeps growing, and so does one whose bursts come
// at random.
func TestFitTrendStoppedGrowth(t *testing.T) {
	rules := DefaultTrendRules()
	for _, n := range []int{10, 12, 20, 40} {
		// Fills until the last third of the intervals, flat after.
		full := n - 1 - (n+1)/3
		y := make([]float64, n)
		for i := range y {
			y[i] = base + float64(min(i, full))*20e6
		}
		tr := FitTrend(MetricAllocated, "step", xs(n), y, rules)
		if tr.Status() != StatusFlat || tr.Pattern != "growth then plateau" || tr.ChangePoint != full {
			t.Errorf("bounded cache (n=%d): %s / %s at %d (%s), want flat / growth then plateau at %d", n, tr.Status(), tr.Pattern, tr.ChangePoint, tr.Why.Rule, full)
		}
		// One point short of a third: a pause, not a stop.
		for i := range y {
			y[i] = base + float64(min(i, full+1))*20e6
		}
		if tr := FitTrend(MetricAllocated, "step", xs(n), y, rules); tr.State != StateGrowing {
			t.Errorf("cache filling until a shorter tail (n=%d): %s / %s (%s), want growing", n, tr.Status(), tr.Pattern, tr.Why.Rule)
		}
	}
	for _, n := range []int{20, 24, 40} {
		y := make([]float64, n)
		for i := range y {
			y[i] = base + float64(i/4)*200e6 // a burst every 4 points, the run ending in a pause
		}
		if tr := FitTrend(MetricAllocated, "step", xs(n), y, rules); tr.State != StateGrowing {
			t.Errorf("periodic bursts (n=%d): %s / %s (%s), want growing", n, tr.Status(), tr.Pattern, tr.Why.Rule)
		}
	}
	found, trials := 0, 0
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 3))
		for _, n := range []int{15, 25, 40} {
			y := make([]float64, n)
			level := 0.0
			for i := range y {
				if rng.Float64() < 0.35 {
					level += 100e6
				}
				y[i] = base + level
			}
			if FitTrend(MetricAllocated, "step", xs(n), y, rules).State == StateGrowing {
				found++
			}
			trials++
		}
	}
	if rate := float64(found) / float64(trials); rate < 0.95 {
		t.Errorf("random bursts: found %d of %d (%.1f%%)", found, trials, 100*rate)
	}
}

// TestFitTrendOnset: a leak that starts mid-run is fitted from its onset,
// so its rate is the rate it grows at, not a line's through the flat part
// (which would put the time to capacity twice as far). A steady leak, a
// one-time step and flat noise keep their fits.
func TestFitTrendOnset(t *testing.T) {
	rules := DefaultTrendRules()
	const rate = 8e6 // bytes per 100-step interval
	for _, tt := range []struct {
		name    string
		n       int
		y       func(i, n int, r *rand.Rand) float64
		verdict Status
		onset   int // FitFrom wanted, -1: no onset
	}{
		{"leak from the middle", 20, func(i, n int, r *rand.Rand) float64 {
			return base + rate*math.Max(0, float64(i-10)) + 1e5*r.NormFloat64()
		}, StatusGrowing, 10},
		{"leak from a third in", 30, func(i, n int, r *rand.Rand) float64 {
			return base + rate*math.Max(0, float64(i-10)) + 1e5*r.NormFloat64()
		}, StatusGrowing, 10},
		{"steady leak", 20, func(i, n int, r *rand.Rand) float64 { return base + rate*float64(i) + 1e5*r.NormFloat64() }, StatusGrowing, -1},
		{"one-time step", 20, shapes["one-time step"], StatusFlat, -1},
		{"flat noise", 20, shapes["flat noise"], StatusFlat, -1},
	} {
		y := gen(tt.n, 3, tt.y)
		tr := FitTrend(MetricAllocated, "step", xs(tt.n), y, rules)
		if tr.Status() != tt.verdict {
			t.Errorf("%s: %s / %s (%s), want %s", tt.name, tr.Status(), tr.Pattern, tr.Why.Rule, tt.verdict)
			continue
		}
		if onset := tr.Pattern == "flat, then growth"; onset != (tt.onset >= 0) || (onset && tr.FitFrom != tt.onset) {
			t.Errorf("%s: pattern %q from %d, want onset at %d", tt.name, tr.Pattern, tr.FitFrom, tt.onset)
		}
		if tt.verdict == StatusGrowing {
			if want := rate / 100; !(math.Abs(tr.Slope-want) < 0.02*want) || !(tr.Lo <= want && want <= tr.Hi*1.0001) {
				t.Errorf("%s: slope %g [%g, %g], want %g", tt.name, tr.Slope, tr.Lo, tr.Hi, want)
			}
		}
	}
}

// TestFitTrendIrregularDropsKeepTheWindow: a stack group's noise of a
// few MiB around 745 MiB (a generated one-time-step run), whose drops come
// every four points or so but irregularly, is no cycle: its floor is
// fitted with the usual window, and it does not grow.
func TestFitTrendIrregularDropsKeepTheWindow(t *testing.T) {
	kib := []float64{762258, 764306, 765042, 765391, 764770, 766370, 763282, 765202, 765906, 765906, 765810, 765954, 763282, 765106,
		764306, 764306, 764306, 764306, 765330, 764306, 763730, 765527, 765330, 764786, 765500, 765106, 764562, 763922, 764306, 765391,
		765330, 765330, 764306, 765330, 765330}
	y := make([]float64, len(kib))
	for i, v := range kib {
		y[i] = v * 1024
	}
	rules := DefaultTrendRules()
	rules.RefLevel, rules.Alpha = 3e9, DefaultSuspectAlpha
	if tr := FitTrend("live_bytes", "snapshot", xs(len(y)), y, rules); tr.State == StateGrowing {
		t.Errorf("%s / %s (%s, %s)", tr.Status(), tr.Pattern, tr.Method, tr.Why.Rule)
	}
}

// TestInsufficientTrendHasNoSlope: a series with fewer points than any
// test needs has no slope, interval or growth, however straight its few
// points lie (Theil-Sen through 2-4 points gives an interval of zero
// width at p = 1, which no output may state), as one of no points has
// none; it says how many more points would decide it.
func TestInsufficientTrendHasNoSlope(t *testing.T) {
	r := DefaultTrendRules()
	for _, n := range []int{1, 2, 3, r.MinPoints - 1} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(100*i), float64(1<<30+i<<24)
		}
		tr := FitTrend(MetricAllocated, "step", x, y, r)
		if tr.State != StateInsufficient || tr.N != n || tr.MoreNeeded != r.MinPoints-n {
			t.Errorf("%d points: state %s, N %d, more needed %d", n, tr.State, tr.N, tr.MoreNeeded)
		}
		for name, v := range map[string]float64{"slope": tr.Slope, "lo": tr.Lo, "hi": tr.Hi, "growth": tr.Growth} {
			if !math.IsNaN(v) {
				t.Errorf("%d points: %s %v, want none (NaN)", n, name, v)
			}
		}
	}
	x, y := []float64{0, 1, 2, 3, 4, 5}, []float64{1, 2, 3, 4, 5, 6}
	if tr := FitTrend(MetricAllocated, "step", x, y, r); tr.State == StateInsufficient || math.IsNaN(tr.Slope) {
		t.Errorf("%d points: state %s, slope %v; want a fitted trend", len(x), tr.State, tr.Slope)
	}
}
