package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"gpureport/internal/units"
)

// The run verdict raises four independent flags:
//
//   - Leak: some device has an unsuppressed leak suspect (a stack group
//     whose live bytes grow under the trend rules), or its live memory in
//     blocks without stacks grows under the same rules: a leak no stack
//     can name;
//   - OutsideAllocatorLeak: memory outside the caching allocator grows
//     (reconcile.go);
//   - Fragmentation: a device is fragmented (fragmentation.go) or an OOM
//     was a fragmentation OOM;
//   - OOM: a snapshot's trace holds an `oom` event.
//
// A device without snapshots but with torch.cuda.memory_stats() readings
// (memstats.go) raises Leak when its allocated trend grows (no site: the
// reason says how to record snapshots), and any device raises OOM when its
// num_ooms counter rises between two readings, unless its snapshots
// already explain an OOM.
//
// A device without snapshots, memory_stats readings or anything but GPU
// log readings raises no flag (used memory mixes PyTorch with the rest),
// but its used memory growing is a warning: "memory grows (no site: no
// snapshots)" (Verdict.MemoryGrows).
//
// Severity: "critical" for an OOM, or a leak projected to exhaust the
// device within the run's own length or within Horizon (--horizon,
// 24 h by default) of wall-clock time; "warning" for any other flag or
// growing memory; "info" when nothing is raised but the data cannot say
// so (a trend insufficient or inconclusive, or no device at all): the
// headline then says "Not enough data" and what is missing; "ok"
// otherwise. A leak's own severity (Suspect.Severity) follows its time to
// capacity, not its size.

// DefaultHorizon: a leak that exhausts the device within a day
// needs action before the next day's runs; 24 hours.
const DefaultHorizon = 24 * time.Hour

func decideVerdict(f *Findings) {
	v := &f.Verdict
	type ref struct {
		SuspectRef
		siteSlope, slope float64
		site             int
	}
	var refs []ref
	critical := false
	var missing []string // what a verdict lacks, for an info headline
	var statsOOMs int64
	statsLeak := false
	for _, d := range f.Devices {
		where := deviceName(d.DeviceKey)
		projectLeaks(f, d)
		for i := range d.Suspects {
			sp := &d.Suspects[i]
			if sp.Suppressed != "" {
				continue
			}
			siteSlope, site := siteOrder(d, i)
			refs = append(refs, ref{SuspectRef{d.DeviceKey, i}, siteSlope, sp.Trend.Slope, site})
		}
		n := 0
		for i := range d.Suspects {
			if d.Suspects[i].Suppressed == "" {
				n++
			}
		}
		at := d.Trend(MetricAllocated)
		deviceLeak := false
		if n > 0 && len(d.LeakSites) > 0 {
			deviceLeak = true
			ls := &d.LeakSites[0]
			t := ls.Trend
			if ls.Paths() == 1 {
				top := &d.Suspects[ls.Suspects[0]]
				v.Reasons = append(v.Reasons, fmt.Sprintf("leak on %s: %s; the top one, %s in %s (fingerprint %s), grows %s, %s, over %d snapshots (%s); %s",
					where, units.CountOf(n, "suspect"), top.Site, top.Function, top.Fingerprint, units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), t.N, t.Test, leakSeverityText(ls.Severity, ls.Projection, t.Per)))
			} else {
				v.Reasons = append(v.Reasons, fmt.Sprintf("leak on %s: %s; the top site, %s in %s, grows %s, %s, over %d snapshots (%s) through %d call paths (%s); %s",
					where, units.CountOf(n, "suspect"), ls.Site, ls.Function, units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), t.N, t.Test, ls.Paths(), ls.pathsText(d), leakSeverityText(ls.Severity, ls.Projection, t.Per)))
			}
			if slices.Contains(d.Lockstep, 0) {
				v.Reasons[len(v.Reasons)-1] += fmt.Sprintf("; %d of its leak sites grow in lockstep (the same number of new live blocks at every snapshot): one object probably keeps them all alive, such as a loss or output kept with its autograd graph", len(d.Lockstep))
			}
			if ls.Severity == SeverityHigh {
				critical = true
			}
		} else if d.StacklessLeak() {
			nt := d.Coverage.NoStackTrend
			deviceLeak = true
			v.Reasons = append(v.Reasons, fmt.Sprintf("leak on %s without a site: live memory in blocks without stacks grows %s, %s; only %s of live bytes carry stacks",
				where, units.RateCI(nt.Slope, nt.Lo, nt.Hi, nt.Per), units.PValue(nt.PValue), units.Percent(d.Coverage.MinLiveWithStack)))
		}
		ooms, leak := memStatsVerdict(f, d, v)
		statsOOMs += ooms
		if leak {
			deviceLeak, statsLeak = true, true
		}
		if deviceLeak {
			v.Leak = true
			// One decision shown everywhere: a device with a leak says
			// so, whatever its allocated trend says on its own.
			d.Verdict = VerdictLeak
		}
		if span, ok := deviceSpan(d); deviceLeak && at != nil && at.Projection != nil && ok {
			p := at.Projection
			within := p.Remaining <= span
			soon := p.Hours > 0 && p.Hours <= f.Thresholds.Horizon.Hours()
			if within || soon {
				critical = true
				wall := ""
				if p.Hours > 0 {
					wall = "; about " + units.Hours(p.Hours) + " of wall-clock time"
				}
				v.Reasons = append(v.Reasons, fmt.Sprintf("%s: at this rate allocated memory reaches %s in about %s (95%% CI %s%s), %s; limit: %s",
					where, units.Bytes(p.Capacity), units.AxisAmount(p.Remaining, at.Per), units.AxisRange(p.RemainingLo, p.RemainingHi, at.Per), wall,
					map[bool]string{true: "within the run's own length", false: "within " + units.Duration(f.Thresholds.Horizon)}[within], p.Basis))
			}
		}
		if d.Reconciliation != nil && d.Reconciliation.OutsideLeak {
			v.OutsideAllocatorLeak = true
			v.Reasons = append(v.Reasons, fmt.Sprintf("leak outside the allocator on %s: %s", where, d.Reconciliation.Reason))
		}
		if d.Fragmentation != nil && d.Fragmentation.Fragmented {
			v.Fragmentation = true
			v.Reasons = append(v.Reasons, fmt.Sprintf("fragmentation on %s: %s", where, d.Fragmentation.Reason))
		}
		if ms := d.MemoryStats; ms != nil && ms.Retries != nil && ms.Retries.Growing && !deviceLeak && (at == nil || at.State != StateGrowing) {
			v.Fragmentation = true
			v.Reasons = append(v.Reasons, fmt.Sprintf("fragmentation on %s: %s while live memory does not grow: requests fail until the allocator frees its cache", where, ms.Retries.Reason))
		}
		if len(d.Points) == 0 && d.MemoryStats == nil {
			if ut := d.Trend(MetricGPUUsed); ut != nil && ut.State == StateGrowing {
				v.MemoryGrows = true
				v.Reasons = append(v.Reasons, fmt.Sprintf("memory grows on %s (no site: no snapshots): nvidia-smi used memory grows %s, %s, %s over the fitted range; record snapshots (torch.cuda.memory._record_memory_history() and _dump_snapshot every few hundred steps) to find what grows",
					where, units.RateCI(ut.Slope, ut.Lo, ut.Hi, ut.Per), units.PValue(ut.PValue), units.Signed(ut.Growth)))
			}
		}
		statsOOMCauses(d, deviceLeak, fragmentedDevice(d))
		if !deviceLeak {
			if m := missingData(d); m != "" {
				missing = append(missing, m)
			}
		}
	}
	for _, d := range f.Devices {
		if d.MemoryStats == nil || hasSnapshotOOM(f, d.DeviceKey) {
			continue
		}
		for _, o := range d.MemoryStats.OOMs {
			if o.Cause != "" {
				v.Reasons = append(v.Reasons, fmt.Sprintf("%s OOM on %s (torch.cuda.memory_stats): the cause follows the device's verdict, as memory_stats do not record the failed request", o.Cause, deviceName(d.DeviceKey)))
			}
		}
	}
	for _, o := range f.OOMs {
		v.OOM = true
		critical = true
		if o.Class == CauseFragmentation {
			v.Fragmentation = true
		}
		r := oomReason(o)
		if o.Class == CauseLeak {
			r += fmt.Sprintf("; the leak at %s had added %s, more than the %s the request lacked", o.LeakSite, units.Bytes(o.LeakedBytes), units.Bytes(o.Missing))
			if o.Earlier > 0 {
				r += fmt.Sprintf(": %s earlier the request would have fit", earlierText(o.Earlier, o.LeakPer))
			}
		}
		v.Reasons = append(v.Reasons, r)
	}
	slices.SortStableFunc(refs, func(a, b ref) int {
		return cmp.Or(cmp.Compare(b.siteSlope, a.siteSlope), cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Device, b.Device), cmp.Compare(a.site, b.site), cmp.Compare(b.slope, a.slope), cmp.Compare(a.Index, b.Index))
	})
	for _, r := range refs {
		v.Suspects = append(v.Suspects, r.SuspectRef)
	}

	if statsOOMs > 0 {
		v.OOM = true
		critical = true
	}
	if len(f.Devices) == 0 {
		missing = append(missing, "no device with snapshots or GPU readings")
	}
	switch {
	case critical:
		v.Severity = SeverityCritical
	case v.Leak || v.OutsideAllocatorLeak || v.Fragmentation || v.MemoryGrows:
		v.Severity = SeverityWarning
	case len(missing) > 0:
		v.Severity = SeverityInfo
	default:
		v.Severity = SeverityOK
	}
	var parts []string
	if v.Leak {
		if len(v.Suspects) > 0 {
			ref := v.Suspects[0]
			top := f.Suspect(ref)
			shown := top.Trend
			text := fmt.Sprintf("leak at %s (%s)", top.Site, units.Rate(shown.Slope, shown.Per))
			if ls := f.Site(ref); ls != nil && ls.Paths() > 1 {
				shown = ls.Trend
				text = fmt.Sprintf("leak at %s (%s through %d call paths)", ls.Site, units.Rate(shown.Slope, shown.Per), ls.Paths())
			}
			if more := otherSites(f, top.Site); more > 0 {
				text += fmt.Sprintf(" and %s", units.CountOf(more, "more site"))
				if all := leakRate(f, shown.Per); all > shown.Slope {
					text += ", " + units.Rate(all, shown.Per) + " in all"
				}
			}
			parts = append(parts, text)
		} else if statsLeak {
			parts = append(parts, "leak (no site: no snapshots)")
		} else {
			parts = append(parts, "leak (no site: stacks missing)")
		}
	}
	if v.MemoryGrows && !v.Leak {
		parts = append(parts, "memory grows (no site: no snapshots)")
	}
	if v.OutsideAllocatorLeak {
		parts = append(parts, "memory outside PyTorch grows")
	}
	if v.Fragmentation {
		parts = append(parts, "fragmentation")
	}
	if v.OOM {
		n := int64(len(f.OOMs)) + statsOOMs
		causes := map[OOMCause]int{}
		var order []string
		for _, c := range OOMCauses(f) {
			if causes[c] == 0 {
				order = append(order, string(c))
			}
			causes[c]++
		}
		text := fmt.Sprintf("%d OOM", n)
		if len(order) > 0 {
			text += " (" + strings.Join(order, ", ") + ")"
		}
		parts = append(parts, text)
	}
	switch {
	case len(parts) > 0:
		v.Headline = capitalize(strings.Join(parts, "; "))
	case v.Severity == SeverityInfo:
		v.Headline = "Not enough data: " + strings.Join(missing, "; ")
	default:
		v.Headline = "No leak, fragmentation or OOM found"
	}
}

// OOMCauses lists the causes of the run's OOMs: the snapshot OOMs' in
// time order, then those of memory_stats OOMs that no snapshot explains
// ("" causes left out).
func OOMCauses(f *Findings) []OOMCause {
	var out []OOMCause
	for _, o := range f.OOMs {
		if o.Class != "" {
			out = append(out, o.Class)
		}
	}
	for _, d := range f.Devices {
		if d.MemoryStats == nil || hasSnapshotOOM(f, d.DeviceKey) {
			continue
		}
		for _, o := range d.MemoryStats.OOMs {
			if o.Cause != "" {
				out = append(out, o.Cause)
			}
		}
	}
	return out
}

// hasSnapshotOOM reports whether a snapshot explains an OOM of device k.
func hasSnapshotOOM(f *Findings, k DeviceKey) bool {
	for _, o := range f.OOMs {
		if o.Rank == k.Rank && o.Device == k.Device {
			return true
		}
	}
	return false
}

// fragmentedDevice reports whether device d itself is fragmented: by its
// snapshots, or by allocation retries that keep rising while its live
// memory does not grow.
func fragmentedDevice(d *Device) bool {
	if d.Fragmentation != nil && d.Fragmentation.Fragmented {
		return true
	}
	ms := d.MemoryStats
	at := d.Trend(MetricAllocated)
	return ms != nil && ms.Retries != nil && ms.Retries.Growing && (at == nil || at.State != StateGrowing)
}

// statsOOMCauses sets the cause of device d's memory_stats OOMs from what
// the device's verdict decided, in docs/design.md's order (leak, then
// fragmentation, then capacity).
func statsOOMCauses(d *Device, leak, fragmented bool) {
	ms := d.MemoryStats
	if ms == nil {
		return
	}
	for i := range ms.OOMs {
		o := &ms.OOMs[i]
		r := ms.Readings[o.Index]
		switch {
		case leak:
			o.Cause = CauseLeak
		case fragmented:
			o.Cause = CauseFragmentation
		case r.Reserved > 0 && r.Allocated >= 0 && float64(r.Reserved-r.Allocated) < FragShareMin*float64(r.Reserved):
			o.Cause = CauseCapacity
		}
	}
}

// VerdictLeak is Device.Verdict for a device with a leak (an unsuppressed
// suspect, or growing live memory without stacks or snapshots).
const VerdictLeak = "leak"

// projectLeaks sets the time to capacity and severity of each
// unsuppressed suspect and each leak site of d (projectLeak).
func projectLeaks(f *Findings, d *Device) {
	keep := trendIndexOf(d.Points)
	for i := range d.Suspects {
		sp := &d.Suspects[i]
		sp.Projection, sp.Severity = nil, SeverityLow
		if sp.Suppressed == "" {
			sp.Projection, sp.Severity = projectLeak(f, d, keep, sp.Trend)
		}
	}
	for j := range d.LeakSites {
		ls := &d.LeakSites[j]
		ls.Projection, ls.Severity = projectLeak(f, d, keep, ls.Trend)
	}
}

// projectLeak is a leak's time to capacity and severity: the device's
// allocated memory at its last periodic snapshot, growing at the leak's
// rate t (and interval), against the capacity less the memory outside
// the allocator; keep are the device's periodic points. Nil and
// SeverityLow without a capacity, two periodic snapshots or growth.
func projectLeak(f *Findings, d *Device, keep []int, t Trend) (*Projection, LeakSeverity) {
	if d.Capacity <= 0 || len(keep) < 2 || !(t.Slope > 0) {
		return nil, SeverityLow
	}
	first, last := d.Points[keep[0]], d.Points[keep[len(keep)-1]]
	limit := float64(d.Capacity)
	basis := fmt.Sprintf("%s device memory (%s)", units.Bytes(d.Capacity), d.CapacitySource)
	if rc := d.Reconciliation; rc != nil && rc.Matched > 0 && rc.Level > 0 {
		limit -= rc.Level
		basis += fmt.Sprintf(" minus %s outside the allocator", units.Bytes(int64(rc.Level)))
	}
	t.Verdict = VerdictGrowing
	t.Intercept = float64(last.Usage.Allocated) - t.Slope*last.X
	span := last.X - first.X
	p := Project(&t, limit, last.X, span, pace(d.Axis, d.Points, keep), f.Thresholds.ExtrapolationRuns)
	if p == nil {
		return nil, SeverityLow
	}
	p.Basis = basis
	withinHorizon(p, f.Thresholds.Horizon)
	switch {
	case p.Remaining <= span || (p.Hours > 0 && p.Hours <= f.Thresholds.Horizon.Hours()):
		return p, SeverityHigh
	case !p.Beyond:
		return p, SeverityMedium
	}
	return p, SeverityLow
}

// withinHorizon clears Beyond on a projection whose wall-clock time left
// is within the critical horizon: "not within 10× the run's length" must
// never describe a device that fills up before the horizon.
func withinHorizon(p *Projection, critical time.Duration) {
	if p.Hours > 0 && p.Hours <= critical.Hours() {
		p.Beyond = false
	}
}

// leakSeverityText says a leak's severity and time to capacity, p its
// projection (nil when unknown) on an axis per.
func leakSeverityText(sev LeakSeverity, p *Projection, per units.Per) string {
	if p == nil {
		return string(sev) + " severity (no time to capacity: capacity unknown or too few snapshots)"
	}
	if p.Beyond {
		return fmt.Sprintf("%s severity: at this rate it reaches %s only after %s%s, beyond %g× the run's length", sev, units.Bytes(p.Capacity), units.AxisAmount(p.Remaining, per), hoursText(p), p.ExtrapolationRuns)
	}
	return fmt.Sprintf("%s severity: at this rate the device (%s) is full in about %s%s", sev, units.Bytes(p.Capacity), units.AxisAmount(p.Remaining, per), hoursText(p))
}

// hoursText is " (about 45 min of wall-clock time)" for a projection with
// a known pace, "" otherwise.
func hoursText(p *Projection) string {
	if p.Hours <= 0 {
		return ""
	}
	return " (about " + units.Hours(p.Hours) + " of wall-clock time)"
}

// earlierText is "about 12 steps" or, on an hours axis, "about 45 min".
func earlierText(v float64, per units.Per) string {
	return "about " + units.AxisAmount(v, per)
}

// missingData says what a device lacks for a verdict, "" when its trend
// decided: its primary trend (allocated memory, else GPU used memory) is
// insufficient or inconclusive, or it has none.
func missingData(d *Device) string {
	where := deviceName(d.DeviceKey)
	t := d.Trend(MetricAllocated)
	what := "snapshots"
	if t == nil {
		t = d.Trend(MetricGPUUsed)
		what = "GPU readings"
	}
	switch {
	case t == nil && len(d.Points) == 0 && d.GPU != nil:
		return fmt.Sprintf("%s has %s, too few for a trend", where, units.CountOf(len(d.GPU.Used), "GPU reading"))
	case t == nil && d.UsedShare != nil:
		return fmt.Sprintf("%s has %s of used memory as a percent of the device and no total: pass --capacity (or add an nvidia-smi log of the GPU) to read them as bytes and fit a trend", where, units.CountOf(len(d.UsedShare.Percent), "reading"))
	case t == nil:
		return ""
	case t.State == StateInsufficient:
		return fmt.Sprintf("%s has %d %s usable for a trend; a verdict needs at least %d (%d more)", where, t.N, what, t.N+t.MoreNeeded, t.MoreNeeded)
	case t.State == StateInconclusive:
		more := "more " + what
		if t.MoreNeeded > 0 {
			more = fmt.Sprintf("about %d more %s", t.MoreNeeded, what)
		}
		return fmt.Sprintf("%s: %s grows %s but the evidence is thin (%s); %s would decide it", where, t.Metric, units.Rate(t.Slope, t.Per), units.PValue(t.PValue), more)
	}
	return ""
}

// deviceName names a device in a sentence (DeviceKey.Name).
func deviceName(k DeviceKey) string { return k.Name() }

// deviceSpan is the length of a device's series on its axis: from the
// first to the last snapshot, or, without snapshots, over its placed
// memory_stats readings; false when it has fewer than two.
func deviceSpan(d *Device) (float64, bool) {
	if n := len(d.Points); n > 1 {
		return d.Points[n-1].X - d.Points[0].X, true
	}
	if len(d.Points) == 0 && d.MemoryStats != nil {
		if x0, x1, ok := finiteRange(d.MemoryStats.X); ok && x1 > x0 {
			return x1 - x0, true
		}
	}
	return 0, false
}
