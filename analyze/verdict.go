package analyze

import (
	"cmp"
	"slices"
	"time"

	"gpureport/input"
)

// The run verdict raises four independent flags:
//
//   - Leak: some device has an unsuppressed leak suspect (a stack group
//     whose live bytes grow under the trend rules), or its live memory in
//     blocks without stacks grows under the same rules: a leak no stack
//     can name (a possible leak seen in one snapshot's trace,
//     Device.WindowLeak, is not one: one window cannot tell a leak from
//     a structure that fills once; it is a reason of an info verdict,
//     ReasonWindowLeak, that names the candidate);
//   - OutsideAllocatorLeak: memory outside the caching allocator grows
//     (reconcile.go);
//   - Fragmentation: a device is fragmented (fragmentation.go) or an OOM
//     was a fragmentation OOM;
//   - OOM: a snapshot's trace holds an `oom` event, or a training log
//     an OOM message (one the job caught and went on from included).
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
// snapshots)" (Verdict.MemoryGrows). So is, in a run known only from GPU
// logs, the used memory of a process of no device growing (a
// compute-apps CSV naming its GPU by UUID only, pmon rows of a GPU
// without readings: ReasonProcessGrows), a warning however soon a known
// capacity of its GPU is reached; a flat process there is evidence enough
// for a verdict. So is the reserved memory of a
// device whose memory_stats readings give no allocated memory
// (torchtitan's peak reserved): the cache grows with live memory or
// without it, and reserved memory alone cannot say which; and so is the
// peak allocated memory of a device whose readings print only that
// (peaktrend.go): a peak holds the steady memory and the interval's
// largest batch, and cannot say which of them grows. Such a trend's
// time to capacity (for used memory, against the GPU's total: when the
// GPU is full) is quoted, but never makes the verdict critical: the caching
// allocator frees its cache and retries before it raises an OOM, and a
// server reserving most of the GPU at start ramps towards the total in
// minutes without failing.
//
// Severity: "critical" for an OOM (not one the training log or the
// snapshot's trace shows the job caught and went on from: OOM.Handled, a
// warning), a leak projected to exhaust the
// device within the run's own length or within Horizon (--horizon,
// 24 h by default) of wall-clock time, or a leak on a device that already
// ran out of memory (Device.RanOut, caught OOMs included: the forecast
// came true within the run); "warning" for any other flag or
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
	undecided := false // a device lacks data for a verdict
	var statsOOMs, statsHandled int64
	statsLeak := false
	reason := func(kind ReasonKind, d *Device) *Reason {
		v.Reasons = append(v.Reasons, Reason{Kind: kind, Device: d.DeviceKey})
		return &v.Reasons[len(v.Reasons)-1]
	}
	for _, d := range f.Devices {
		projectLeaks(f, d)
		n := 0
		for i := range d.Suspects {
			sp := &d.Suspects[i]
			if sp.Suppressed != "" {
				continue
			}
			n++
			siteSlope, site := siteOrder(d, i)
			refs = append(refs, ref{SuspectRef{d.DeviceKey, i}, siteSlope, sp.Trend.Slope, site})
		}
		at := d.Trend(MetricAllocated)
		// Whether the device leaks is decided once (leakfact.go), for
		// this flag and for its OOMs' causes.
		lf := deviceLeakFact(d)
		deviceLeak := lf.kind != leakNone
		if lf.kind == leakBySuspects {
			reason(ReasonLeak, d).Suspects = n
			if d.LeakSites[0].Severity == SeverityHigh {
				critical = true
			}
		} else if lf.kind == leakStackless {
			reason(ReasonStacklessLeak, d)
		} else if lf.kind == leakNone && d.WindowLeak != nil {
			// A candidate seen in one trace: no flag, no warning (one
			// window cannot tell a leak from a structure that fills
			// once: windowleak.go); the reason names it and how to
			// confirm it, beside the device's lack of data.
			reason(ReasonWindowLeak, d)
		}
		ooms, handled, leak := memStatsVerdict(f, d, lf)
		statsOOMs += ooms
		statsHandled += handled
		if leak {
			statsLeak = true
		}
		// One decision shown everywhere: a device with a leak says so,
		// whatever its primary trend says on its own.
		d.Status = StatusInsufficient
		if p := d.Primary(); p != nil {
			d.Status = p.Status()
		}
		if deviceLeak {
			v.Leak = true
			d.Status = StatusLeak
		}
		if deviceLeak && at != nil && at.RanOut != nil {
			// The leak's forecast came true: the device already ran
			// out of memory (ranOut put that OOM in place of the
			// projection). That is exhaustion within the run, critical
			// even when the job caught the OOM and went on.
			critical = true
			reason(ReasonExhaustion, d).WithinRun = true
		} else if span, ok := deviceSpan(d); deviceLeak && at != nil && at.Projection != nil && ok {
			p := at.Projection
			within := p.Remaining <= span
			soon := p.Hours > 0 && p.Hours <= f.Thresholds.Horizon.Hours()
			if d.MemoryStats != nil && d.MemoryStats.Window {
				// One trace's profiling window (often under a second)
				// fitted by time: its slope mixes the rise and fall within
				// steps with any growth over them, so a projection from it
				// is no forecast of the run's hours; only reaching the
				// capacity within the window itself stays critical.
				soon = false
			}
			if within || soon {
				critical = true
				reason(ReasonExhaustion, d).WithinRun = within
			}
		}
		if d.Reconciliation != nil && d.Reconciliation.OutsideLeak {
			v.OutsideAllocatorLeak = true
			reason(ReasonOutsideLeak, d)
		}
		if d.Fragmentation != nil && d.Fragmentation.Fragmented {
			v.Fragmentation = true
			reason(ReasonFragmentation, d)
		}
		if ms := d.MemoryStats; ms != nil && ms.Retries != nil && ms.Retries.Growing && !deviceLeak && (at == nil || at.State != StateGrowing) {
			v.Fragmentation = true
			reason(ReasonRetries, d)
		}
		if len(d.Points) == 0 && (d.MemoryStats == nil || d.PrimaryMetric == MetricReserved || d.PrimaryMetric == MetricPeakAllocated) {
			// Used memory, or reserved memory without allocated memory,
			// grows: a leak or a growing cache, which these readings
			// cannot tell apart. Printed peaks of allocated memory
			// grow: the steady memory under them, or the batches on
			// top (longer sequences, larger images), which a peak
			// alone cannot tell apart either.
			if p := d.Primary(); p != nil && p.Metric != MetricAllocated && p.State == StateGrowing && !deviceLeak {
				v.MemoryGrows = true
				reason(ReasonMemoryGrows, d).Metric = p.Metric
			}
		}
		statsOOMCauses(d, lf, fragmentedDevice(d))
		if !deviceLeak && lacksData(d) {
			v.Undecided = append(v.Undecided, d.DeviceKey)
			undecided = true
		}
	}
	procDecided := false
	if op := f.OtherProcesses; op != nil && op.Decides {
		for i := range op.Series {
			p := &op.Series[i]
			p.Projection = nil
			if p.Trend == nil {
				continue
			}
			switch p.Trend.State {
			case StateGrowing:
				procDecided = true
				v.MemoryGrows = true
				p.Projection = projectProcess(op, i, f.Thresholds.ExtrapolationRuns)
				r := reason(ReasonProcessGrows, &Device{})
				r.Process = i
				// A forecast, however soon, keeps it a warning, as a
				// GPU's used memory does: the caching allocator frees
				// its cache and retries before it raises an OOM.
			case StateFlat:
				procDecided = true
			}
		}
	}
	for _, d := range f.Devices {
		if d.MemoryStats == nil || hasSnapshotOOM(f, d.DeviceKey) {
			continue
		}
		for i, o := range d.MemoryStats.OOMs {
			if o.Cause != "" {
				reason(ReasonStatsOOMCause, d).Index = i
			}
		}
	}
	for i, o := range f.OOMs {
		v.OOM = true
		if o.Handled {
			// The job caught it and went on: a warning, no crash.
			v.OOMsHandled++
		} else {
			critical = true
		}
		if o.Cause == CauseFragmentation && (o.Message == nil || !o.Message.Autotune) {
			// An autotuning choice Inductor dropped tried a trial
			// allocation: its cause says nothing of the job's cache.
			v.Fragmentation = true
		}
		v.Reasons = append(v.Reasons, Reason{Kind: ReasonOOM, Device: o.Key(), Index: i})
	}
	slices.SortStableFunc(refs, func(a, b ref) int {
		return cmp.Or(cmp.Compare(b.siteSlope, a.siteSlope), cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Device, b.Device), cmp.Compare(a.site, b.site), cmp.Compare(b.slope, a.slope), cmp.Compare(a.Index, b.Index))
	})
	for _, r := range refs {
		v.Suspects = append(v.Suspects, r.SuspectRef)
	}

	if statsOOMs > 0 {
		// Rises the process went on from are caught OOMs, as a
		// training log's handled messages: a warning.
		v.OOM = true
		v.OOMsHandled += statsHandled
		if statsOOMs > statsHandled {
			critical = true
		}
	}
	// A run without devices is decided by its processes' trends when
	// they are the run's own (ProcessSet.Decides).
	undecided = undecided || len(f.Devices) == 0 && !procDecided
	switch {
	case critical:
		v.Severity = SeverityCritical
	case v.Leak || v.OutsideAllocatorLeak || v.Fragmentation || v.MemoryGrows || v.OOM:
		v.Severity = SeverityWarning
	case undecided:
		v.Severity = SeverityInfo
	default:
		v.Severity = SeverityOK
	}
	// What the headline says beside the flags.
	switch {
	case !v.Leak:
	case len(v.Suspects) > 0:
		top := f.Suspect(v.Suspects[0])
		per := top.Trend.Per
		if ls := f.Site(v.Suspects[0]); ls != nil && ls.Paths() > 1 {
			per = ls.Trend.Per
		}
		v.OtherSites, v.SitesRate = otherSites(f, top.Site), leakRate(f, per)
	case statsLeak:
		v.NoSite = NoSiteSnapshots
	default:
		v.NoSite = NoSiteStacks
	}
	v.OOMs = int64(len(f.OOMs)) + statsOOMs
	v.OOMCauses = oomCauses(f)
	v.Suppressed = suppressedRules(f)
}

// suppressedRules counts the suspects that suppressions took out of the
// verdict, by rule, most suspects first.
func suppressedRules(f *Findings) []SuppressedRule {
	var rules []SuppressedRule
	idx := map[string]int{}
	for _, d := range f.Devices {
		for i := range d.Suspects {
			r := d.Suspects[i].Suppressed
			if r == "" {
				continue
			}
			if j, ok := idx[r]; ok {
				rules[j].Suspects++
				continue
			}
			idx[r] = len(rules)
			rules = append(rules, SuppressedRule{Rule: r, Suspects: 1})
		}
	}
	slices.SortStableFunc(rules, func(a, b SuppressedRule) int {
		return cmp.Or(cmp.Compare(b.Suspects, a.Suspects), cmp.Compare(a.Rule, b.Rule))
	})
	return rules
}

// oomCauses lists the causes of the run's OOMs: the snapshot OOMs' in
// time order, then those of memory_stats OOMs that no snapshot explains
// ("" causes left out).
func oomCauses(f *Findings) []OOMCause {
	var out []OOMCause
	for _, o := range f.OOMs {
		if o.Cause != "" {
			out = append(out, o.Cause)
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

// hasSnapshotOOM reports whether an OOM finding (a snapshot's, or a
// training log's message) explains an OOM of device k, so that its
// memory_stats num_ooms rises are that OOM, not more. A finding without a
// rank explains k's when k is the only device of the run it can be on
// (the message's rank-less line beside one rank's readings, whose device
// it also gives its capacity and ran-out mark); beside several ranks'
// devices it stands for one OOM of one of them, which cannot explain the
// rises of each.
func hasSnapshotOOM(f *Findings, k DeviceKey) bool {
	if k.Host {
		return false
	}
	for _, o := range f.OOMs {
		if o.Device != k.Device || o.Type != k.Type || o.pinnedHost() {
			continue
		}
		if o.Rank == k.Rank {
			return true
		}
		if o.Rank == input.NoRank {
			n := 0
			for _, d := range f.Devices {
				if !d.Host && d.Device == o.Device && d.Type == o.Type {
					n++
				}
			}
			if n == 1 {
				return true
			}
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
// fragmentation, then capacity): a leak OOM by the rule every OOM of the
// device follows (leakFact.covers), with no failed request to compare
// (memory_stats record none).
func statsOOMCauses(d *Device, lf leakFact, fragmented bool) {
	ms := d.MemoryStats
	if ms == nil {
		return
	}
	for i := range ms.OOMs {
		o := &ms.OOMs[i]
		r := o
		switch {
		case lf.covers(lf.leaked, -1):
			o.Cause = CauseLeak
		case fragmented:
			o.Cause = CauseFragmentation
		case r.Reserved > 0 && r.Allocated >= 0 && float64(r.Reserved-r.Allocated) < FragShareMin*float64(r.Reserved):
			o.Cause = CauseCapacity
		}
	}
}

// projectLeaks sets the time to capacity and severity of each
// unsuppressed suspect and each leak site of d (projectLeak), or the OOM
// the device already had in place of the time (ranOutInstead).
func projectLeaks(f *Findings, d *Device) {
	keep := trendIndexOf(d.Points)
	for i := range d.Suspects {
		sp := &d.Suspects[i]
		sp.Projection, sp.RanOut, sp.Severity = nil, nil, SeverityLow
		if sp.Suppressed == "" {
			sp.Projection, sp.Severity = projectLeak(f, d, keep, sp.Trend)
			sp.Projection, sp.RanOut = ranOutInstead(d, sp.Projection)
		}
	}
	for j := range d.LeakSites {
		ls := &d.LeakSites[j]
		ls.Projection, ls.Severity = projectLeak(f, d, keep, ls.Trend)
		ls.Projection, ls.RanOut = ranOutInstead(d, ls.Projection)
	}
}

// ranOutInstead is a leak's projection p, or, on a device the run already
// ran out of memory on, no projection but that OOM (Device.RanOut). The
// leak's severity still follows p: how fast its rate fills the device.
func ranOutInstead(d *Device, p *Projection) (*Projection, *RanOut) {
	if p != nil && d.RanOut != nil {
		return nil, d.RanOut
	}
	return p, nil
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
	limit, outside := float64(d.Capacity), 0.0
	if rc := d.Reconciliation; rc != nil && rc.Matched > 0 && rc.Level > 0 {
		limit -= rc.Level
		outside = rc.Level
	}
	t.State = StateGrowing
	t.Intercept = float64(last.Usage.Allocated) - t.Slope*last.X
	span := last.X - first.X
	p := Project(&t, limit, last.X, span, d.hoursPerX(t.Per), f.Thresholds.ExtrapolationRuns)
	if p == nil {
		return nil, SeverityLow
	}
	p.Outside = int64(outside)
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

// lacksData reports whether a device's primary trend decided nothing:
// it is insufficient or inconclusive, or the device has GPU readings but
// too few for a trend, or only used shares without a total (UsedShare).
func lacksData(d *Device) bool {
	t := d.Primary()
	if t == nil {
		return len(d.Points) == 0 && (d.GPU != nil || d.UsedShare != nil)
	}
	return t.State == StateInsufficient || t.State == StateInconclusive
}

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
