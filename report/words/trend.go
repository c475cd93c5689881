package words

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
)

// Trend is a trend in a few words: "+12.3 MiB/step (95% CI ...), p<0.001,
// growing (steady growth)"; "insufficient data (3 points)"; "no trend
// fitted" for none.
func Trend(t *analyze.Trend) string {
	if t == nil {
		return "no trend fitted"
	}
	if t.State == analyze.StateInsufficient {
		return fmt.Sprintf("insufficient data (%s)", units.CountOf(t.N, "point"))
	}
	st := t.Status()
	pattern := ""
	if t.Pattern != "" && string(t.Pattern) != string(st) {
		pattern = " (" + string(t.Pattern) + ")"
	}
	if FlatRise(t) {
		return string(st) + pattern + ": " + flatRiseWhy(t) + ", so no growth rate"
	}
	return units.RateCI(t.Slope, t.Lo, t.Hi, t.Per) + ", " + units.PValue(t.PValue) + ", " + string(st) + pattern
}

// FlatRise reports whether t is flat though its fitted line rises with an
// interval above 0: a rule after the test decided the rise is no growth
// (it stopped, levels off, or is one level change). Its slope, the line's
// through the rise and what followed, reads as a growth rate it is not,
// so the words print none (summary.json keeps the number).
func FlatRise(t *analyze.Trend) bool {
	return t != nil && t.State == analyze.StateFlat && t.Lo > 0 && t.Slope > 0
}

// flatRiseWhy says in a few words why a FlatRise trend is no growth.
func flatRiseWhy(t *analyze.Trend) string {
	switch t.Why.Rule {
	case analyze.RuleStopped, analyze.RulePlateau:
		return "a rise that stopped"
	case analyze.RuleLevelsOff:
		return "a rise that levels off"
	case analyze.RuleOneStep, analyze.RuleStepHolds:
		return "one level change"
	case analyze.RuleRatchet:
		return "a steady workload's running peak"
	case analyze.RuleTurnedOver:
		return "blocks that are replaced"
	}
	return "no significant growth"
}

// SlopeText is a trend's slope with its interval, as a trends table
// shows it; a FlatRise trend's is no growth rate and says so.
func SlopeText(t *analyze.Trend) string {
	if FlatRise(t) {
		return "none (flat: " + flatRiseWhy(t) + ")"
	}
	return units.RateCI(t.Slope, t.Lo, t.Hi, t.Per)
}

// Method names how a trend's slope was estimated: "Theil-Sen", "Theil-Sen
// on the low points between drops (8 of 20 points)", "least squares
// (Theil-Sen is 0 with this many ties)".
func Method(t *analyze.Trend) string {
	s := t.Method
	if t.Floor > 0 {
		s += fmt.Sprintf(" on the low points between drops (%d of %d points)", t.Floor, t.Given)
	}
	if t.Tied {
		s += " (Theil-Sen is 0 with this many ties)"
	}
	return s
}

// TrendReason says why a trend's State is what it is, with its numbers.
func TrendReason(t *analyze.Trend) string {
	s := trendRule(t)
	if g := t.Why.UntilOOM; g > 0 {
		s = fmt.Sprintf("grew %s over the run without ever falling and filled the device until the OOM; its trend alone: %s", units.Bytes(int64(g)), s)
	}
	return s
}

// trendRule words the rule that decided a trend (trend.go in analyze).
func trendRule(t *analyze.Trend) string {
	w := t.Why
	rate := units.RateCI(t.Slope, t.Lo, t.Hi, t.Per)
	switch w.Rule {
	case analyze.RuleNoPoints:
		return "no points"
	case analyze.RuleTooFew:
		return fmt.Sprintf("%d points; a trend verdict needs at least %d (about %d more)", t.Given, w.MinPoints, t.MoreNeeded)
	case analyze.RuleOneX:
		return fmt.Sprintf("%d points all at one %s: no axis to fit a growth rate on (%s in their order)", t.Given, cmp.Or(string(t.Per), "step"), units.PValue(t.PValue))
	case analyze.RuleFalls:
		return "falls: " + rate + ", " + units.PValue(t.PValue)
	case analyze.RuleNoGrowth:
		return "no significant growth, " + units.PValue(t.PValue) + "; slope " + rate
	case analyze.RuleStepHolds:
		return fmt.Sprintf("no significant growth, %s: one level change of %s at point %d holds the rise", units.PValue(t.PValue), units.Signed(w.Jump), w.At)
	case analyze.RuleOneStep:
		return fmt.Sprintf("one level change of %s at point %d explains the rise (no trend on either side: %s)", units.Signed(w.Jump), t.ChangePoint, units.PValue(t.StepPValue))
	case analyze.RuleStopped:
		return fmt.Sprintf("growth stopped after point %d: the rest rose %s where steady growth gives %s", t.ChangePoint, units.BytesF(w.Observed), units.BytesF(w.Expected))
	case analyze.RulePlateau:
		return fmt.Sprintf("grew until point %d, then stayed flat over the last %d points, a longer pause than any before: growth that stopped (a bounded cache that filled, or a warm-up that ended late)", t.ChangePoint, w.Tail)
	case analyze.RuleLevelsOff:
		return fmt.Sprintf("grew %s in its first third but %s in its last: growth that levels off (the allocator's cache filling up, or a start-up ending), not a leak's steady growth",
			units.Rate(w.RateFirst, t.Per), units.Rate(w.RateLast, t.Per))
	case analyze.RuleRatchet:
		return fmt.Sprintf("a peak since start that rose at %d readings, where a steady workload's new largest batches give about %.1f (%s): the running peak of a steady workload, not growth; slope %s",
			w.Rises, w.RisesExpected, units.PValue(w.RisesP), rate)
	case analyze.RuleGrows:
		s := "grows " + rate + ", " + units.PValue(t.PValue) + "; " + units.Signed(t.Growth) + " over the fitted range"
		if t.Pattern == analyze.PatternOnset {
			s += fmt.Sprintf(", from point %d on (flat before it)", t.FitFrom)
		}
		if w.Rises > 0 {
			s += fmt.Sprintf("; a peak since start that rose at %d readings, where a steady workload gives about %.1f (%s)", w.Rises, w.RisesExpected, units.PValue(w.RisesP))
		}
		return s
	case analyze.RuleBounded:
		return "no significant growth, " + notEstablished(t) + "; slope " + rate + "; at most " + units.BytesF(w.Bound) + " over the fitted range"
	case analyze.RuleThin:
		more := "more points"
		if t.MoreNeeded > 0 {
			more = fmt.Sprintf("about %d more points", t.MoreNeeded)
		}
		return "grows " + rate + ", but the evidence is thin (" + notEstablished(t) + "); " + more + " at the same pace would decide it"
	case analyze.RuleTurnedOver:
		return "grows " + rate + ", but in blocks that are replaced: what it keeps does not grow, a bounded container of recent tensors"
	}
	return ""
}

// notEstablished says why growth seen was not established: the p-value
// missed the level, or the slope's interval reaches 0.
func notEstablished(t *analyze.Trend) string {
	if t.PValue < t.Why.Alpha {
		return "the slope's 95% interval reaches 0"
	}
	return units.PValue(t.PValue) + " > " + strconv.FormatFloat(t.Why.Alpha, 'g', -1, 64)
}

// Basis says what a projection's limit is: "22.5 GiB device memory (GPU
// log memory.total) minus 512 MiB outside the allocator".
func Basis(d *analyze.Device, p *analyze.Projection) string {
	s := units.Bytes(d.Capacity) + " device memory (" + CapacitySource(d) + ")"
	if p.Outside > 0 {
		s += " minus " + units.Bytes(p.Outside) + " outside the allocator"
	}
	return s
}

// Projection says when a trend of device d reaches its limit, or, on a
// device the run already ran out of memory on, that it did (RanOut);
// wall-clock time first: "reaches 22.0 GiB in about 45 min at the run's pace (3,327
// steps at this rate); limit: 22.5 GiB device memory (nvidia-smi) minus
// 512 MiB outside the allocator"; "" when the trend has no projection. A
// projection further ahead than the horizon times the run's length still
// says when (the run's own pace is what a user plans by) and adds that
// it is a long extrapolation.
func Projection(d *analyze.Device, t *analyze.Trend) string {
	if t != nil && t.RanOut != nil {
		return RanOut(t.RanOut) + ", so no time to capacity is forecast"
	}
	if t != nil && t.Bounded != nil {
		return Bounded(t.Bounded)
	}
	if t == nil || t.Projection == nil {
		return ""
	}
	p := t.Projection
	limit := "; limit: " + Basis(d, p)
	if math.IsNaN(p.Remaining) {
		return ""
	}
	if p.Remaining <= 0 {
		return fmt.Sprintf("already at or over the limit (%s)%s", units.Bytes(p.Capacity), limit)
	}
	lo, hi := p.RemainingLo, p.RemainingHi
	if lo == 0 && hi == 0 && (p.XLo != 0 || p.XHi != 0) {
		lastX := LastX(d)
		lo, hi = max(p.XLo-lastX, 0), p.XHi-lastX
	}
	ci := ""
	// An interval whose ends read the same (a noise-free series: "46.7
	// hours to 46.7 hours") says nothing the estimate does not.
	if (lo > 0 || hi > 0) && units.AxisAmount(lo, t.Per) != units.AxisAmount(hi, t.Per) {
		ci = "95% CI " + units.AxisRange(lo, hi, t.Per)
	}
	var s string
	var extra []string
	switch {
	case t.Per == units.PerHour:
		s = fmt.Sprintf("reaches %s in about %s", units.Bytes(p.Capacity), units.Hours(p.Remaining))
	case p.Hours > 0:
		s = fmt.Sprintf("reaches %s in about %s at the run's pace", units.Bytes(p.Capacity), units.Hours(p.Hours))
		// An interval whose ends read the same ("45 min to 45 min") says
		// nothing the estimate does not.
		if p.HoursLo > 0 && units.Hours(p.HoursLo) != units.Hours(p.HoursHi) {
			extra = append(extra, "95% CI "+units.AxisRange(p.HoursLo, p.HoursHi, units.PerHour))
		}
		extra = append(extra, units.AxisAmount(p.Remaining, t.Per)+" at this rate")
		ci = ""
	default:
		s = fmt.Sprintf("reaches %s in about %s", units.Bytes(p.Capacity), units.AxisAmount(p.Remaining, t.Per))
	}
	if ci != "" {
		extra = append(extra, ci)
	}
	if t.Per != units.PerHour && p.Hours <= 0 {
		// One pair of parentheses: "(95% CI 8.0 to 11 snapshots; the
		// run's pace in time is unknown)".
		extra = append(extra, "the run's pace in time is unknown")
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, "; ") + ")"
	}
	if p.Beyond {
		s += fmt.Sprintf(", more than %s× the run's length ahead, so a long extrapolation", units.Number(p.ExtrapolationRuns))
	}
	return s + limit
}

// Bounded says why a growing trend has no time to capacity: "no time to
// capacity: the growth is a bounded container's (replay.py:33 in push,
// whose blocks are replaced: the freed ones lived at most 3 snapshots),
// not a leak; it holds at most its entries at their largest size and is
// not expected to fill the device".
func Bounded(b *analyze.Bounded) string {
	site := b.Site
	if b.Function != "" {
		site += " in " + b.Function
	}
	whose := "a bounded container's"
	if b.Containers > 1 {
		whose = fmt.Sprintf("%d bounded containers', the fastest", b.Containers)
	}
	return fmt.Sprintf("no time to capacity: the growth is %s (%s, whose blocks are replaced: the freed ones lived at most %s), not a leak; "+
		"a container holds at most its entries at their largest size, so the trend is not expected to fill the device",
		whose, site, units.CountOf(b.Turnover, "snapshot"))
}

// LastX is the position of a device's last point on its axis: its last
// snapshot, else its last placed memory_stats reading; 0 without either.
func LastX(d *analyze.Device) float64 {
	if n := len(d.Points); n > 0 {
		return d.Points[n-1].X
	}
	if m := d.MemoryStats; m != nil {
		for i := len(m.X) - 1; i >= 0; i-- {
			if x := m.X[i]; !math.IsNaN(x) && !math.IsInf(x, 0) {
				return x
			}
		}
	}
	return 0
}

// RanOut says that the run already ran out of memory on a device, when
// and what shows it: "already ran out of memory: an OOM by step 700
// (num_ooms rose in the memory_stats of stats.jsonl)".
func RanOut(r *analyze.RanOut) string {
	// A num_ooms rise shows an OOM before the reading it is read at, and
	// a snapshot's trace one before the step the snapshot was dumped at:
	// "by". A trace event's and a log line's time are the OOM's own: "at".
	// The step comes first, the time after it when both are known.
	var when string
	switch {
	case r.Step != input.NoStep && !r.Time.IsZero():
		when = " by step " + strconv.FormatInt(r.Step, 10) + ", " + units.Timestamp(r.Time)
	case r.Step != input.NoStep:
		when = " by step " + strconv.FormatInt(r.Step, 10)
	case !r.Time.IsZero() && r.From != analyze.RanOutMemoryStats:
		when = " at " + units.Timestamp(r.Time)
	case !r.Time.IsZero():
		when = " by " + units.Timestamp(r.Time)
	}
	var what string
	switch r.From {
	case analyze.RanOutTrainingLog:
		what = fmt.Sprintf("line %d of %s", r.Line, r.Path)
	case analyze.RanOutMemoryStats:
		what = "num_ooms rose in the memory_stats of " + r.Path
	default:
		what = "in the trace of " + r.Path
	}
	return "already ran out of memory: an OOM" + when + " (" + what + ")"
}

// severity says a leak's severity and time to capacity, p its projection
// (nil when unknown) on an axis per, or, in its place, the OOM the device
// already had (r, nil when none).
func severity(sev analyze.LeakSeverity, p *analyze.Projection, r *analyze.RanOut, per units.Per) string {
	if r != nil {
		return fmt.Sprintf("%s severity; the device %s", sev, RanOut(r))
	}
	if p == nil {
		return string(sev) + " severity (no time to capacity: capacity unknown or too few snapshots)"
	}
	if p.Beyond {
		return fmt.Sprintf("%s severity: at this rate it reaches %s only after %s%s, beyond %g× the run's length", sev, units.Bytes(p.Capacity), units.AxisAmount(p.Remaining, per), wallClock(p), p.ExtrapolationRuns)
	}
	return fmt.Sprintf("%s severity: at this rate the device (%s) is full in about %s%s", sev, units.Bytes(p.Capacity), units.AxisAmount(p.Remaining, per), wallClock(p))
}

// wallClock is " (about 45 min of wall-clock time)" for a projection
// with a known pace, "" otherwise.
func wallClock(p *analyze.Projection) string {
	if p.Hours <= 0 {
		return ""
	}
	return " (about " + units.Hours(p.Hours) + " of wall-clock time)"
}
