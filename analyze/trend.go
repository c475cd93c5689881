package analyze

import (
	"math"
	"slices"

	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// The trend verdict of a memory series.
//
// A series is in one of docs/design.md's four states:
//
//   - insufficient: fewer than MinPoints points (after warm-up);
//   - growing: significant growth whose 95% interval lies above 0;
//   - inconclusive: growth seen but not established; the reason says
//     about how many more points would decide it;
//   - flat: evidence of no meaningful growth (including a series that
//     falls, Status "shrinking").
//
// A series is called growing only when all of these hold:
//
//  1. Enough data: at least MinPoints points (TrendRules.MinPoints).
//  2. Statistical support: the one-sided Mann-Kendall test of a rise
//     rejects "no trend" at Alpha. Up to exactMaxN points without ties
//     the p-value is exact, so 5 strictly rising points (p = 1/120 ≈
//     0.0083) can be significant; the normal approximation is poor there.
//     Its variance is corrected for serial correlation (Hamed and Rao,
//     stats.ModifiedMannKendall): snapshots of memory that changes more
//     slowly than the dumps come are not independent, and a wandering
//     series would otherwise pass for a rise; Sen's interval widens by
//     the same factor.
//  3. An interval above 0: the slope's 95% interval excludes 0. The
//     slope is Theil-Sen with Sen's interval; when ties pin Theil-Sen to
//     0 (a staircase of leaked tensors), the least-squares slope with its
//     t interval is used instead (chooseSlope). Either way the estimate
//     lies inside its own interval.
//  4. Not one step: the best single change in level (stats.FindStep) does not
//     explain the rise. It explains it when the step fits the points at
//     least as well as a straight line (sum of absolute deviations) and
//     no growth remains on its two sides that is both significant
//     (stratified Mann-Kendall at StepAlpha) and large enough (the slope
//     within the sides over the fitted span reaches the minimum growth).
//     A buffer allocated once, the optimizer state created at the first
//     step and a warm-up jump are one step each; a leak keeps adding.
//  5. Persistence (the minimum-duration rule): after any prefix of at most
//     a third of the points, the rest still rises by at least PersistShare
//     of what steady growth would give it. A warm-up ramp that flattened
//     out fails; a leak that keeps going passes.
//  6. Not stopped (the same at the other end, for a series that never
//     falls): its last third is not a flat tail longer than twice any
//     pause between its earlier rises (stoppedAt). A bounded cache that
//     filled fails; a leak that pauses between bursts passes.
//     A GPU monitor's readings (TrendRules.Readings) tolerate the
//     allocator's churn and need the tail longer than every earlier
//     pause by one reading only (readingsStoppedAt): a job's start-up
//     ramp that reached its working level fails.
//  7. Not levelling off (readings only): the rate of the last third of
//     the fitted points is not far below the first third's
//     (decelerates): growth that slows to a crawl is the allocator's
//     cache filling up or a start-up ending (an exponential approach to
//     a working level), not a leak, which adds at a steady pace.
//
// Several jobs. A GPU monitor left running over jobs run one after another
// (a sweep) reads used memory falling back to the idle GPU between them:
// each job's processes end and free everything. A line across jobs is
// meaningless, so growth seen across such readings (growing or
// inconclusive) is questioned: they are
// split at those returns (jobSpans) and each job is judged alone
// (fitJobs). The split finds no growth the whole series does not show: a
// job's readings alone are fewer, and a start-up staircase without the
// working level after it (a job the capture cut short) would read as
// growth.
//
// Size does not decide "growing": a small but certain growth is growing,
// and its severity comes from its time to capacity (verdict.go). Size
// decides "flat" against "inconclusive": growth that is not established
// is flat when the upper end of its 95% interval, over the fitted range,
// stays below MinGrowthBytes and MinGrowthShare of the reference level
// (evidence that no growth that matters is there), or when the test sees
// next to nothing (one-sided p ≥ InconclusiveP).
//
// Phase noise. When snapshots land at different phases of a training step
// (mid-forward with activations alive, or after backward), the series is a
// persistent floor plus non-negative excursions. A series that falls
// between snapshots more than once is fitted on its floor points
// (stats.FloorPoints: the snapshots within the floor's own noise of a line
// through the trough envelope), the floor a leak raises. A series that
// never falls (a pure accumulation) is fitted as is.
//
// Idle readings. A GPU monitor's readings before the job started and
// after it ended (idleHead, idleTail) are set aside first.
//
// Warm-up. A prefix of at most a third of the points that lies wholly
// below the rest, by more than the rest's range and its typical step
// (warmupEnd), is set aside before the tests (FitFrom), so the jump
// neither fakes a trend nor inflates the slope.

// TrendRules are the thresholds of a trend verdict.
type TrendRules struct {
	// Alpha is the Mann-Kendall significance level.
	Alpha float64
	// StepAlpha is the significance level of growth beyond the best step.
	StepAlpha float64
	// MinPoints is the fewest points a verdict needs.
	MinPoints int
	// MinGrowthBytes is the smallest fitted growth over the fitted range
	// that counts, in bytes.
	MinGrowthBytes float64
	// MinGrowthShare is the smallest fitted growth as a share of
	// RefLevel.
	MinGrowthShare float64
	// RefLevel is the level growth is compared with, in bytes; 0 means
	// the series' own median.
	RefLevel float64
	// PersistShare is the share of the rise steady growth would give the
	// points after a warm-up prefix that must be observed.
	PersistShare float64
	// NoEnvelope disables fitting on the floor points (for series whose
	// noise is on both sides, such as used − reserved).
	NoEnvelope bool
	// Readings marks a GPU monitor's readings of used memory (nvidia-smi,
	// rocm-smi, ...), often captured around a job's start: the readings
	// before the job started are set aside (idleHead), and a plateau is
	// told from a pause by readingsStoppedAt.
	Readings bool
	// Binned marks readings of a monitor's export binned to a coarse
	// step (readingsBinned): a short gap between two jobs may blend
	// with them (blendedGaps). Holes are the x positions (on the fit's
	// axis) of the first reading after each hole in the readings' times
	// (readingHoles): a job boundary whatever the levels. Both are for
	// Readings only.
	Binned bool
	Holes  []TimeHole
}

// Default thresholds (see the rules above for what each protects against).
const (
	// DefaultAlpha: 1% keeps the false-alarm rate of a single device
	// series low; MK's normal approximation is slightly conservative at
	// small n.
	DefaultAlpha = 0.01
	// DefaultSuspectAlpha: stack groups are many (tens to hundreds per
	// device), so each group's test is held to 0.1%, a Bonferroni-style
	// correction for about ten effectively independent noisy groups.
	DefaultSuspectAlpha = 0.001
	// DefaultStepAlpha: the beyond-one-step test only has to show that
	// growth is not all in one jump; 5% is enough once the overall trend
	// is already significant.
	DefaultStepAlpha = 0.05
	// DefaultMinPoints: 5 points is the smallest n at which a perfectly
	// monotone series reaches p < 0.05 under Mann-Kendall.
	DefaultMinPoints = 5
	// DefaultMinGrowthBytes: 8 MiB, four 2 MiB small-pool segments; below
	// that a leak would not matter on any GPU in use.
	DefaultMinGrowthBytes = 8 << 20
	// DefaultMinGrowthShare: growth over the run of at least 1% of the
	// steady allocated level; a smaller leak needs over a hundred runs'
	// lengths to double the memory, and is not what fills a device.
	DefaultMinGrowthShare = 0.01
	// DefaultPersistShare: after a warm-up prefix (at most a third of the
	// points) the rest must show at least a quarter of the rise steady
	// growth would give it.
	DefaultPersistShare = 0.25
	// stepPatternShare: a flat series is described as a step when one
	// level change explains at least 80% of its variance (a description
	// only; it decides nothing).
	stepPatternShare = 0.8
	// DefaultExtrapolationRuns: projections beyond 10 times the run's
	// length are reported as "not within 10× the run's length": ten times
	// the data seen is as far as a straight line is worth reading.
	DefaultExtrapolationRuns = 10
)

// DefaultTrendRules returns the rules for a device series.
func DefaultTrendRules() TrendRules {
	return TrendRules{
		Alpha:          DefaultAlpha,
		StepAlpha:      DefaultStepAlpha,
		MinPoints:      DefaultMinPoints,
		MinGrowthBytes: DefaultMinGrowthBytes,
		MinGrowthShare: DefaultMinGrowthShare,
		PersistShare:   DefaultPersistShare,
	}
}

// FitTrend fits y against x (in order) under rules r and returns the
// trend with its verdict. metric and per label it ("allocated_bytes",
// "step").
func FitTrend(metric string, per units.Per, x, y []float64, r TrendRules) Trend {
	t := fitWhole(metric, per, x, y, r)
	if r.Readings && (t.State == StateGrowing || t.State == StateInconclusive) {
		n := min(len(x), len(y))
		if jobs, gaps := jobSpans(x[:n], y[:n], r); len(jobs) >= 2 {
			return fitJobs(metric, per, x, y, r, jobs, gaps)
		}
	}
	return t
}

// fitWhole is FitTrend over the whole series, one job's at most.
func fitWhole(metric string, per units.Per, x, y []float64, r TrendRules) Trend {
	t := fitTrend(metric, per, x, y, r, true)
	if t.onset && t.State != StateGrowing {
		// The onset is only a better account of growth; without growth
		// the whole series speaks.
		t = fitTrend(metric, per, x, y, r, false)
	}
	return t
}

// fitTrend is FitTrend, looking for a growth onset when onset is true.
func fitTrend(metric string, per units.Per, x, y []float64, r TrendRules, onset bool) Trend {
	n := min(len(x), len(y))
	t := Trend{Metric: metric, Per: per, N: n, Given: n, Method: MethodTheilSen, ChangePoint: -1, StepPValue: 1,
		Slope: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Intercept: math.NaN(), PValue: 1, R2: math.NaN()}
	t.Why.MinPoints, t.Why.Alpha = r.MinPoints, r.Alpha
	if per == AxisHours {
		// An hours axis is its own pace; a step axis's is its device's
		// (stampPace).
		t.HoursPerX = 1
	}
	if n == 0 {
		t.State, t.Pattern, t.Why.Rule = StateInsufficient, PatternTooFew, RuleNoPoints
		return t
	}
	x, y = x[:n], y[:n]
	// Readings before the job started are no part of its trend.
	head := 0
	if r.Readings {
		head = idleHead(y, r.MinPoints)
		x, y = x[head:], y[head:]
		end := len(y) - idleTail(y, r.MinPoints)
		x, y = x[:end], y[:end]
		if head > 0 {
			t.FitFrom, t.ChangePoint = head, head
		}
	}
	fx, fy := x, y
	// Phase noise: fit the floor.
	idx := make([]int, len(y)) // fitted point -> original index
	for i := range idx {
		idx[i] = head + i
	}
	if tol := dropTolerance(y); !r.NoEnvelope && len(y) >= 2*r.MinPoints-2 && stats.Drops(y, tol) >= 2 {
		w := 2
		if len(y) >= 16 {
			w = 3
		}
		// A window must hold a trough: with drops at a regular spacing of
		// P ≥ minCycle points (a buffer flushed every P snapshots: a
		// saw-tooth of live memory, not noise, whose drops come every
		// other point or so and irregularly) it spans P+1 points, up to a
		// third of the series.
		if p := dropSpacing(y, tol); p >= minCycle {
			w = max(w, min(p+1, len(y)/3))
		}
		if keep := stats.FloorPoints(x, y, w, tol); len(keep) >= r.MinPoints {
			idx = keep
			fx, fy = pick(x, idx), pick(y, idx)
			t.Floor = len(idx)
		}
	}
	// Warm-up: set aside a prefix lying wholly below the rest.
	warm := 0
	if len(fy) >= r.MinPoints {
		warm = warmupEnd(fy, r.MinPoints)
		fx, fy, idx = fx[warm:], fy[warm:], idx[warm:]
		if warm > 0 {
			t.FitFrom, t.ChangePoint = idx[0], idx[0]
		}
	}
	// Onset: flat, then growth from a knot on (growthOnset). The rate is
	// the growth's since it began, not a line's through the flat part.
	if onset && len(fy) >= r.MinPoints {
		if k := growthOnset(fx, fy, r.MinPoints); k > 0 {
			fx, fy, idx = fx[k:], fy[k:], idx[k:]
			t.FitFrom, t.ChangePoint = idx[0], idx[0]
			t.onset = true
		}
	}
	mk := stats.ModifiedMannKendall(fx, fy)
	t.fit(fx, fy, mk.VarFactor)
	if len(fy) < r.MinPoints || n < r.MinPoints {
		t.State, t.Pattern = StateInsufficient, PatternTooFew
		t.MoreNeeded = r.MinPoints - min(n, len(fy))
		t.Why.Rule = RuleTooFew
		// Fewer points than any test needs give no slope worth stating:
		// Theil-Sen through 2-4 points has an interval of zero width or
		// none, at p = 1. An insufficient trend has no slope, interval or
		// growth (as one of no points has none), so every output says
		// "insufficient data (N points)" and none shows a slope beside it.
		t.Slope, t.Lo, t.Hi, t.Intercept, t.Growth = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return t
	}
	t.PValue = mk.POneSided
	t.VarFactor = mk.VarFactor
	t.Test = "Mann-Kendall, one-sided, normal approximation"
	switch {
	case mk.Exact:
		t.Test = "Mann-Kendall, one-sided, exact"
	case mk.VarFactor > 1:
		t.Test = "Mann-Kendall, one-sided, Hamed-Rao variance correction for serial correlation"
	}
	if t.FitX1 == t.FitX0 {
		// Every point at one x (readings that all give one step): the
		// axis has no rate to fit, and the test's order is the points',
		// not the axis's. Not flat: no evidence either way.
		t.State, t.Pattern, t.Why.Rule = StateInsufficient, PatternTooFew, RuleOneX
		return t
	}
	if mk.POneSided < r.Alpha {
		t.chooseSlope(fx, fy, mk.S)
	}
	ref := r.RefLevel
	if ref <= 0 {
		ref = math.Abs(t.Level)
	}
	// minGrowth is the growth over the fitted range that would matter: it
	// no longer decides "growing" (a small but certain growth is growing,
	// its severity comes from its time to capacity), only "flat": a series
	// whose 95% upper bound stays below it shows evidence of no meaningful
	// growth.
	minGrowth := math.Max(r.MinGrowthBytes, r.MinGrowthShare*ref)
	span := t.FitX1 - t.FitX0
	t.State = StateFlat

	if mk.S < 0 && mk.POneSided < r.Alpha && t.Hi < 0 {
		t.Pattern, t.Why.Rule = PatternDecreasing, RuleFalls
		return t
	}
	if mk.S <= 0 || !(t.Slope > 0) || mk.POneSided >= InconclusiveP {
		t.flatPattern(fy, y, idx, warm)
		t.Why.Rule = RuleNoGrowth
		return t
	}

	// Rule 3: growth beyond one step. The step explains the rise when it
	// fits the points at least as well as the line (sum of absolute
	// deviations) and no growth remains on its two sides that is both
	// significant (stratified Mann-Kendall at StepAlpha) and large enough
	// to matter (the slope within the sides, over the fitted span, reaches
	// the minimum growth). Noise within flat sides can pass the
	// significance test by chance, rarely the size test; a straight line
	// of a few points cannot pass the significance test once split, but
	// the line fits it better than any step.
	sig := mk.POneSided < r.Alpha
	c := stats.FindStep(fy, 1)
	if !sig && c.Index > 0 && c.Explained >= stepPatternShare && c.Jump() > 0 {
		// Not significant, and one clear level change holds the rise.
		t.flatPattern(fy, y, idx, warm)
		t.Why.Rule, t.Why.Jump, t.Why.At = RuleStepHolds, c.Jump(), idx[c.Index]
		return t
	}
	if sig && c.Index > 0 {
		sm := stats.StratifiedMannKendall(fy[:c.Index], fy[c.Index:])
		t.StepPValue = sm.PValue
		within := math.Max(withinSlope(fx, fy, c.Index), withinSenSlope(fx, fy, c.Index)) * span
		stepFits := stepL1(fy, c.Index) <= lineL1(fx, fy, t.Slope, t.Intercept)
		if stepFits && (sm.PValue >= r.StepAlpha || sm.S <= 0 || !(within >= minGrowth)) {
			t.ChangePoint = idx[c.Index]
			t.Pattern = PatternStep
			if c.Index <= len(fy)/3 {
				t.Pattern = PatternWarmUp
			}
			t.Why.Rule, t.Why.Jump = RuleOneStep, c.Jump()
			return t
		}
	}

	// Rule 4: persistence. If, after some prefix of at most a third of the
	// points, the rest rises by less than PersistShare of what steady
	// growth would give it, the rise was a warm-up (a ramp, or a few early
	// jumps) that has ended. Rises are measured robustly (tailRise) and
	// scaled by x span, so a straight line scores 1.
	if sig && span > 0 {
		total := tailRise(fy)
		for w := 1; w <= len(fy)/3 && len(fy)-w >= 3; w++ {
			expected := total * (fx[len(fx)-1] - fx[w]) / span
			if observed := tailRise(fy[w:]); expected > 0 && observed < r.PersistShare*expected {
				t.Pattern = PatternWarmUp
				t.ChangePoint = idx[w]
				t.Why.Rule, t.Why.Observed, t.Why.Expected = RuleStopped, observed, expected
				return t
			}
		}
	}

	// Not stopped (rule 6 above; stoppedAt): the mirror of persistence at
	// the other end, for series that never fall. A bounded cache that
	// filled, or a warm-up that ended late, is not growing.
	if sig {
		at, ok := stoppedAt(fy)
		if r.Readings {
			at, ok = readingsStoppedAt(fy, r)
		}
		if ok {
			t.Pattern = PatternPlateau
			t.ChangePoint = idx[at]
			t.Why.Rule, t.Why.Tail = RulePlateau, len(fy)-1-at
			return t
		}
	}

	// Levelling off (readings only): the rate of the last third far below
	// the first third's, beyond both intervals (decelerates).
	if sig && r.Readings {
		if first, last, ok := decelerates(fx, fy, r.PersistShare); ok {
			t.Pattern = PatternPlateau
			t.Why.Rule, t.Why.RateFirst, t.Why.RateLast = RuleLevelsOff, first, last
			return t
		}
	}

	// Growing: the test is significant and the slope's 95% interval lies
	// above 0 (so the estimate, inside its interval, is above 0 too).
	if sig && t.Lo > 0 {
		t.State, t.Pattern = StateGrowing, PatternSteady
		if cuts := stats.Segments(fy, 1, segmentPenalty(fy)); len(cuts) >= 2 && stats.Drops(fy, dropTolerance(fy)) == 0 && bursty(fy, cuts) {
			t.Pattern = PatternBursts
		}
		t.Why.Rule = RuleGrows
		if t.onset {
			t.Pattern = PatternOnset
		}
		return t
	}

	// Growth seen, not established. Flat when even the interval's upper
	// end would add less than what matters over the fitted range, or the
	// test sees next to nothing; inconclusive otherwise, with the number
	// of further points that would likely decide it.
	if !(t.Hi*span >= minGrowth) {
		t.Pattern = PatternFlat
		if stats.Drops(y, dropTolerance(y)) >= 2 {
			t.Pattern = PatternNoisy
		}
		t.Why.Rule, t.Why.Bound = RuleBounded, math.Max(0, t.Hi*span)
		return t
	}
	t.State, t.Pattern = StateInconclusive, PatternNotShown
	t.MoreNeeded = morePointsNeeded(fx, fy, r.Alpha)
	t.Why.Rule = RuleThin
	return t
}

// InconclusiveP is the one-sided p-value below which growth that is not
// established is still "seen": a series at most this unlikely under no
// trend (10%, about one clean series in ten by chance) is reported as
// inconclusive rather than flat.
const InconclusiveP = 0.1

// flatPattern describes a series without growth.
func (t *Trend) flatPattern(fy, y []float64, idx []int, warm int) {
	t.Pattern = PatternFlat
	switch c := stats.FindStep(fy, 1); {
	case warm > 0:
		t.Pattern = PatternWarmUp
	case c.Index > 0 && c.Explained >= stepPatternShare && c.Jump() > 0:
		t.Pattern, t.ChangePoint = PatternStep, idx[c.Index]
		if c.Index <= len(fy)/3 {
			t.Pattern = PatternWarmUp
		}
	case stats.Drops(y, dropTolerance(y)) >= 2:
		t.Pattern = PatternNoisy
	}
}

// morePointsNeeded estimates how many more points, continuing at the same
// pace and noise, would make the growth significant: the least-squares t
// statistic of a slope grows as n^1.5 for evenly spaced points, so n must
// grow by (t_needed / t)^(2/3). 0 when the fit gives no estimate.
func morePointsNeeded(x, y []float64, alpha float64) int {
	f := stats.OLS(x, y)
	n := float64(len(y))
	if !(f.Slope > 0) || !(f.SlopeSE > 0) {
		return 0
	}
	tNow := f.Slope / f.SlopeSE
	tNeed := stats.StudentTQuantile(1-alpha, n-2)
	if tNow >= tNeed {
		return 1
	}
	more := int(math.Ceil(n*math.Pow(tNeed/tNow, 2.0/3))) - len(y)
	return max(1, more)
}

// pick returns v at the indexes idx.
func pick(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = v[j]
	}
	return out
}

// fit sets the Theil-Sen line, stats.OLS R², fitted range, level and growth
// from the points. varFactor (at least 1) widens Sen's interval for
// serial correlation, as the test's variance is widened
// (stats.ModifiedMannKendall).
func (t *Trend) fit(x, y []float64, varFactor float64) {
	ts := stats.TheilSenCorrected(x, y, varFactor)
	t.Slope, t.Lo, t.Hi, t.Intercept = ts.Slope, ts.Lo, ts.Hi, ts.Intercept
	t.N = len(x)
	t.R2 = stats.OLS(x, y).R2
	t.Method = MethodTheilSen
	if len(x) > 0 {
		// The x range, not the first and last x: FitTrend's x are in
		// order, but a caller's repeated or unordered x must not make
		// a rising line's growth 0 or negative.
		t.FitX0, t.FitX1 = slices.Min(x), slices.Max(x)
		t.Level = stats.Median(y)
		t.Growth = t.Slope * (t.FitX1 - t.FitX0)
	}
}

// warmupEnd returns the length of the warm-up prefix of y: the longest
// prefix of at most a third of the points (leaving at least minPoints)
// that lies wholly below the rest, by a gap larger than the rest's whole
// range and over 3 times its median step between consecutive points. A
// warm-up (optimizer state created at the first step, the allocator's
// cache filling up) is such a jump; the steady increments of a leak, or
// the first of several bursts, are not. 0 when there is none.
func warmupEnd(y []float64, minPoints int) int {
	best := 0
	for k := 1; k <= len(y)/3 && len(y)-k >= minPoints; k++ {
		lo, hi, top := math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, v := range y[k:] {
			lo, top = math.Min(lo, v), math.Max(top, v)
		}
		for _, v := range y[:k] {
			hi = math.Max(hi, v)
		}
		gap := lo - hi
		if gap <= 0 || gap <= top-lo {
			continue
		}
		steps := make([]float64, 0, len(y)-k-1)
		for i := k + 1; i < len(y); i++ {
			steps = append(steps, math.Abs(y[i]-y[i-1]))
		}
		if gap > 3*stats.Median(steps) {
			best = k
		}
	}
	return best
}

// withinSlope is the common least-squares slope of the two sides of a
// split at k, each side with its own level (an analysis-of-covariance
// fit): the growth rate left once the step at k is set aside. Least
// squares rather than Theil-Sen because the sides of a staircase are
// mostly ties, where the median pairwise slope is 0.
func withinSlope(x, y []float64, k int) float64 {
	var sxy, sxx float64
	for _, r := range [][2]int{{0, k}, {k, len(y)}} {
		xs, ys := x[r[0]:r[1]], y[r[0]:r[1]]
		if len(xs) < 2 {
			continue
		}
		var mx, my float64
		for i := range xs {
			mx += xs[i]
			my += ys[i]
		}
		mx /= float64(len(xs))
		my /= float64(len(xs))
		for i := range xs {
			sxy += (xs[i] - mx) * (ys[i] - my)
			sxx += (xs[i] - mx) * (xs[i] - mx)
		}
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}

// withinSenSlope is the Theil-Sen slope over the pairs of points on the
// same side of split k: robust to outliers where withinSlope is not, but
// 0 on staircases of ties, where withinSlope is right; the trend takes
// the larger.
func withinSenSlope(x, y []float64, k int) float64 {
	var slopes []float64
	for _, r := range [][2]int{{0, k}, {k, len(y)}} {
		for i := r[0]; i < r[1]; i++ {
			for j := i + 1; j < r[1]; j++ {
				if dx := x[j] - x[i]; dx != 0 {
					slopes = append(slopes, (y[j]-y[i])/dx)
				}
			}
		}
	}
	if len(slopes) == 0 {
		return 0
	}
	return stats.Median(slopes)
}

// stepL1 is the sum of absolute deviations of y from the medians of its
// two sides when split at k.
func stepL1(y []float64, k int) float64 {
	var s float64
	for _, part := range [][]float64{y[:k], y[k:]} {
		m := stats.Median(part)
		for _, v := range part {
			s += math.Abs(v - m)
		}
	}
	return s
}

// lineL1 is the sum of absolute deviations of y from a line.
func lineL1(x, y []float64, slope, icpt float64) float64 {
	var s float64
	for i := range y {
		s += math.Abs(y[i] - icpt - slope*x[i])
	}
	return s
}

// chooseSlope settles the slope and its 95% interval of a series whose
// test is significant. Theil-Sen with
// Sen's interval is the estimate, unless ties pin it: memory series are
// staircases of equal values (a stack group unchanged between snapshots),
// where most pairwise slopes are 0, so the median slope, or an end of its
// interval, is exactly 0 while Mann-Kendall's S says clearly which way the
// series goes. Then the least-squares slope with its t interval replaces
// both (Method says so): an estimate always comes with the interval built
// around it, and lies inside it.
func (t *Trend) chooseSlope(x, y []float64, s float64) {
	tied := s != 0 && (stats.Sign(t.Slope) != stats.Sign(s) || (s > 0 && t.Lo == 0) || (s < 0 && t.Hi == 0))
	inside := t.Lo <= t.Slope && t.Slope <= t.Hi
	if !tied && inside {
		return
	}
	f := stats.OLS(x, y)
	if math.IsNaN(f.Slope) || math.IsNaN(f.Lo) {
		return
	}
	// Serial correlation leaves fewer independent points than there are
	// (the test's variance factor): the t interval widens by its root.
	half := (f.Hi - f.Lo) / 2 * math.Sqrt(math.Max(1, t.VarFactor))
	t.Slope, t.Lo, t.Hi, t.Intercept = f.Slope, f.Slope-half, f.Slope+half, f.Intercept
	t.Growth = t.Slope * (t.FitX1 - t.FitX0)
	t.Method, t.Tied = MethodLeastSquares, true
}

// tailRise is the robust rise of a series: the median of its last third
// minus the median of its first third (at least one point each).
func tailRise(y []float64) float64 {
	k := max(1, len(y)/3)
	return stats.Median(y[len(y)-k:]) - stats.Median(y[:k])
}

// minCycle is the shortest median spacing of drops, in points, read as a
// cycle of live memory (a periodic flush) rather than phase noise: under
// noise a drop follows every second point or so.
const minCycle = 4

// dropSpacing is the period of a cycle in y: the number of points from
// one drop (a fall beyond tol) to the next when at least three drops come
// at regular spacing (every gap within one point of the median), 0
// otherwise. Noise drops at irregular spacing.
func dropSpacing(y []float64, tol float64) int {
	var at []int
	for i := 1; i < len(y); i++ {
		if y[i] < y[i-1]-tol {
			at = append(at, i)
		}
	}
	if len(at) < 3 {
		return 0
	}
	gaps := make([]float64, len(at)-1)
	for i := range gaps {
		gaps[i] = float64(at[i+1] - at[i])
	}
	p := stats.Median(gaps)
	for _, g := range gaps {
		if math.Abs(g-p) > 1 {
			return 0
		}
	}
	return int(p)
}

// Growth onset thresholds. A hinge (flat, then a line: stats.FindOnset)
// replaces the straight line only when it fits far better and the rate
// after the knot clearly differs from the line's.
const (
	// onsetFitShare: the hinge leaves at most a quarter of the line's
	// squared deviation (half its RMS), which noise around a line does
	// not reach.
	onsetFitShare = 0.25
	// onsetRateRatio: the growth after the knot is at least 1.1 times the
	// whole series' Theil-Sen slope (the rate reported without the
	// onset); closer, that rate is as good and keeps every point.
	onsetRateRatio = 1.1
	// onsetMinHead: at least 3 flat points, so one low point is not an
	// onset (that is a warm-up, set aside before).
	onsetMinHead = 3
)

// growthOnset returns the index where growth starts in a series that is
// flat before it (the knot of the best hinge), 0 when a straight line
// describes the series as well. The part after the knot keeps at least
// minTail points.
func growthOnset(x, y []float64, minTail int) int {
	o := stats.FindOnset(x, y, onsetMinHead, minTail)
	if o.Knot == 0 || !(o.LineRSS > 0) || o.RSS > onsetFitShare*o.LineRSS || !(o.Slope > 0) {
		return 0
	}
	if whole := stats.TheilSen(x, y).Slope; !(o.Slope >= onsetRateRatio*whole) {
		return 0
	}
	return o.Knot
}

// stoppedAt finds growth that stopped in y: a series that never falls
// (a pure accumulation: tensors kept, never freed) and whose last rise, at
// point at, is followed by a flat tail of at least a third of its
// intervals (and at least minStoppedTail), longer than twice any pause
// between its earlier rises. A leak that adds in bursts pauses as long
// between them as at the end, so such a tail is not a pause of that kind.
// Rises and falls count beyond dropTolerance.
func stoppedAt(y []float64) (at int, ok bool) {
	tol := dropTolerance(y)
	if len(y) < 2 || stats.Drops(y, tol) > 0 {
		return 0, false
	}
	last, pause, longest := -1, 0, 0
	for i := 1; i < len(y); i++ {
		if y[i] > y[i-1]+tol {
			last, longest, pause = i, max(longest, pause), 0
		} else {
			pause++
		}
	}
	tail := len(y) - 1 - last
	if last < 0 || tail < minStoppedTail || 3*tail < len(y)-1 || tail <= 2*longest {
		return 0, false
	}
	return last, true
}

// idleHead returns how many of the first readings of a GPU's used memory
// come before the job started: the leading readings at the first one's
// level (within dropTolerance), at least onsetMinHead of them (one or two
// equal readings are a leak's pause as well as an idle GPU), when a rise
// follows them and at least minPoints readings remain. A monitor started
// before the job (nvidia-smi -l 1 while launching it) reads the idle GPU,
// near zero, or the level of what ran before; that level is no part of
// the job's memory, and a line through it would make the job's start-up
// look like growth and its rate the start-up's. 0 when there is none.
func idleHead(y []float64, minPoints int) int {
	if len(y) == 0 {
		return 0
	}
	tol := dropTolerance(y)
	k := 1
	for k < len(y) && math.Abs(y[k]-y[0]) <= tol {
		k++
	}
	if k < onsetMinHead || k == len(y) || y[k] <= y[0]+tol || len(y)-k < minPoints {
		return 0
	}
	// A job's start maps its context and weights at once: more than the
	// level before it when that is an idle GPU (near zero) or a smaller
	// job. A leak's burst adds a share of the job's memory, not all of
	// it, so a pause before one is not idle.
	if rise := y[k] - y[k-1]; rise <= math.Abs(y[0]) && !startsBeside(y, k) {
		return 0
	}
	return k
}

// startsBeside reports whether the rise at reading k is a job starting
// beside another that holds the GPU at the level before it (a smaller job
// joining a bigger one, whose level is then the GPU's idle one for it).
// A job's start-up is a run of rises from one reading to the next (its
// context, then its weights, its optimizer state): that run maps more
// than a CUDA context (jobContextBytes), the least a starting job holds,
// and at least twice as much as any later rise from one reading to the
// next (the job's churn and steps). A leak's bursts are alike, so its
// first burst after a pause is no start.
func startsBeside(y []float64, k int) bool {
	tol := dropTolerance(y)
	j := k
	for j+1 < len(y) && y[j+1] > y[j]+tol {
		j++
	}
	rise := y[j] - y[k-1]
	if !(rise > jobContextBytes) {
		return false
	}
	for i := j + 1; i < len(y); i++ {
		if 2*(y[i]-y[i-1]) > rise {
			return false
		}
	}
	return true
}

// idleTail is idleHead at the other end: how many of the last readings
// come after the job ended (a monitor left running after it): at least
// onsetMinHead readings at the last one's level, after a fall larger than
// that level (the job's memory released), leaving at least minPoints.
// Their fall is the job's end, not its memory shrinking.
func idleTail(y []float64, minPoints int) int {
	r := slices.Clone(y)
	slices.Reverse(r)
	return idleHead(r, minPoints)
}

// readingsStoppedAt is stoppedAt for a GPU monitor's readings of used
// memory, which the allocator's churn makes wobble: a segment released
// (an empty_cache, a cuDNN workspace, a finished process's context) and
// mapped again shows as a fall and a rise of a few hundred MiB in a job
// whose memory does not grow.
//
//   - A fall no larger than the growth that matters (MinGrowthBytes,
//     MinGrowthShare of the series' largest level) is such noise: by the
//     yardstick that calls growth meaningful, it hides none. A larger
//     fall is a change of phase, and the series is not a pure
//     accumulation (false, as stoppedAt).
//   - A rise counts only when it lifts the level past the last counted
//     rise by more than the largest fall: going back up after a fall is
//     the same churn, not growth.
//   - The flat tail must be longer than every earlier pause by more than
//     one reading, not twice as long: a monitor reads at a fixed
//     interval, so a leak adding in bursts at a steady pace shows its
//     pauses equal to within one reading, and the tail, a pause still
//     running when the capture ended, is no longer than them. Readings
//     around a job's start hold its start-up pauses (loading, compiling,
//     the first steps) before the job reaches its working level; a
//     margin of twice those would read every such start-up as growth.
//     A leak adding at random moments has pauses that vary by more than
//     a reading, and its capture may end in its longest: a tail no
//     longer than twice the longest earlier pause is a plateau only when
//     so long a pause is unlikely (below pauseChance) at the pace of the
//     rises before it.
//
// The tail still holds at least a third of the intervals and
// minStoppedTail.
func readingsStoppedAt(y []float64, r TrendRules) (at int, ok bool) {
	if len(y) < 2 {
		return 0, false
	}
	top := 0.0
	for _, v := range y {
		top = math.Max(top, math.Abs(v))
	}
	noise := math.Max(r.MinGrowthBytes, r.MinGrowthShare*top)
	rise := dropTolerance(y)
	for i := 1; i < len(y); i++ {
		fall := y[i-1] - y[i]
		if fall > noise {
			return 0, false
		}
		rise = math.Max(rise, fall)
	}
	ref := y[0]
	last, pause, longest, rises := -1, 0, 0, 0
	for i := 1; i < len(y); i++ {
		if y[i] > ref+rise {
			ref, last, longest, pause = y[i], i, max(longest, pause), 0
			rises++
		} else {
			pause++
		}
	}
	tail := len(y) - 1 - last
	if last < 0 || tail < minStoppedTail || 3*tail < len(y)-1 || tail <= longest+1 {
		return 0, false
	}
	// A leak adding in bursts at random moments, one reading in 1/p on
	// average (p: the share of intervals up to the last rise that rose),
	// pauses at least tail readings with probability (1-p)^tail: its last
	// pause may be its longest by chance, and is a plateau only when so
	// long a pause is unlikely at that pace. A start-up that rose at most
	// readings, then stayed flat, passes easily.
	if tail <= 2*longest && math.Pow(1-float64(rises)/float64(last), float64(tail)) >= pauseChance {
		return 0, false
	}
	return last, true
}

// pauseChance is the probability below which a flat tail is too long to
// be a pause of a leak adding in bursts at the pace seen before it
// (readingsStoppedAt): 1%, the trend test's own level (DefaultAlpha), so
// a leak's last pause is taken for a plateau about as rarely as noise for
// growth.
const pauseChance = 0.01

// minStoppedTail is the fewest flat intervals at the end that can show
// growth stopped: with fewer, a pause is too short to tell from a leak's.
const minStoppedTail = 3

// dropTolerance is the smallest fall that counts as one: 0.1% of the
// series' largest magnitude, and at least 4 KiB, so allocator rounding
// and tiny scalars do not count as a phase.
func dropTolerance(y []float64) float64 {
	var m float64
	for _, v := range y {
		m = math.Max(m, math.Abs(v))
	}
	return math.Max(4096, 0.001*m)
}

// segmentPenalty is the BIC-style penalty for stats.Segments: 2·σ²·ln n, with σ
// the noise scale from first differences, at least a tiny positive floor
// so a noise-free staircase is split at every stair.
func segmentPenalty(y []float64) float64 {
	s := stats.NoiseScale(y)
	p := 2 * s * s * math.Log(float64(len(y)))
	return math.Max(p, 1)
}

// bursty reports whether the growth of y comes in a few jumps separated
// by flat stretches: some stretch between cuts lasts at least 2 points.
func bursty(y []float64, cuts []int) bool {
	prev := 0
	for _, c := range append(cuts, len(y)) {
		if c-prev >= 3 {
			return true
		}
		prev = c
	}
	return false
}

// Project forecasts when a growing trend reaches limit (bytes): the x
// where the fitted line, anchored at the last fitted point, crosses it,
// with an interval from the slope's interval. lastX is the last point's x,
// span the run's length on the axis (runs of it bound the projection:
// ExtrapolationRuns), hoursPerX the
// wall-clock pace (hours per step, or 1 on an hours axis; 0 when unknown).
func Project(t *Trend, limit float64, lastX, span, hoursPerX, runs float64) *Projection {
	return projectFrom(t, t.Intercept+t.Slope*lastX, limit, lastX, span, hoursPerX, runs)
}

// projectFrom is Project from the level now (bytes) at lastX instead of
// the fitted line's.
func projectFrom(t *Trend, now, limit, lastX, span, hoursPerX, runs float64) *Projection {
	// A job that ended (an earlier job of several: fitJobs) fills nothing.
	if t.State != StateGrowing || !(t.Slope > 0) || limit <= 0 || t.Job < t.Jobs {
		return nil
	}
	if runs <= 0 {
		runs = DefaultExtrapolationRuns
	}
	p := &Projection{Capacity: int64(limit), ExtrapolationRuns: runs}
	left := limit - now
	if left <= 0 {
		p.X, p.XLo, p.XHi = lastX, lastX, lastX
		return p
	}
	p.Remaining = left / t.Slope
	p.RemainingLo = left / t.Hi
	p.RemainingHi = math.Inf(1)
	if t.Lo > 0 {
		p.RemainingHi = left / t.Lo
	}
	p.X, p.XLo, p.XHi = lastX+p.Remaining, lastX+p.RemainingLo, lastX+p.RemainingHi
	if hoursPerX > 0 {
		p.Hours, p.HoursLo, p.HoursHi = p.Remaining*hoursPerX, p.RemainingLo*hoursPerX, p.RemainingHi*hoursPerX
	}
	if span > 0 && p.Remaining > runs*span {
		p.Beyond = true
	}
	return p
}
