package analyze

import (
	"cmp"
	"math"
	"slices"
	"time"

	"gpureport/analyze/stats"
	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
)

// Options tune the analysis. The zero value is ready to use.
type Options struct {
	// Capacity is the device memory in bytes set by the user (--capacity);
	// it overrides a GPU log's memory.total. 0 means unset.
	Capacity int64
	// CapacitySource says where Capacity came from, as the report shows it
	// beside the limit, e.g. "--capacity 80GB = 80×10^9 bytes"; empty
	// means "--capacity".
	CapacitySource string
	// Suppressions are the user's suppression rules (ParseSuppressions of
	// the --suppress file); matching suspects are reported but do not make
	// the verdict a leak.
	Suppressions []Suppression
	// NoBuiltinSuppressions turns off the built-in benign patterns
	// (BuiltinSuppression).
	NoBuiltinSuppressions bool
	// ExtrapolationRuns is how far ahead a projection is read, in lengths
	// of the run: one further ahead is a long extrapolation (Projection.
	// Beyond); 0 means DefaultExtrapolationRuns.
	ExtrapolationRuns float64
	// Horizon is the wall-clock time (--horizon) within which a
	// leak projected to exhaust the device makes the verdict critical (as
	// does exhaustion within the run's own length); 0 means
	// DefaultHorizon.
	Horizon time.Duration
}

// setCapacity sets a device's capacity and where it came from: the
// user's --capacity, which overrides a GPU log's memory.total, else the
// memory.total of the GPU readings joined to it.
func (o Options) setCapacity(d *Device) {
	switch {
	case o.Capacity > 0:
		d.Capacity = o.Capacity
		d.CapacitySource = CapacitySource{Option: cmp.Or(o.CapacitySource, "--capacity")}
		if g := d.GPU; g != nil && g.Total > 0 && g.Total != o.Capacity {
			d.CapacitySource.Overrides = g.Total
		}
	case d.GPU != nil && d.GPU.Total > 0:
		d.Capacity = d.GPU.Total
	}
}

// Analyze runs every analysis over a decoded run, after package placement
// has decided where each of its inputs belongs. It is pure and
// deterministic: the same run and options give the same Findings, and
// the run is not modified.
func Analyze(read *ingest.Run, opt Options) *Findings {
	run := placement.Place(read)
	// Used memory given as a share of the device becomes bytes where a
	// total is known (the logs are placement's copies, not changed).
	run.Logs = gpulog.ResolveShares(run.Logs, opt.Capacity)
	f := &Findings{RunDir: run.Dir}
	if run.Location != nil {
		f.Location = run.Location.String()
	}
	f.Inputs.Snapshots = len(run.Snapshots)
	f.Inputs.Skipped = run.Skipped
	for _, l := range run.Logs {
		f.Inputs.Logs = append(f.Inputs.Logs, LogInfo{
			Path: l.Path, Format: l.Format, Samples: len(l.Samples) + len(l.Processes) + len(l.MemoryStats) + len(l.MIG),
			GPUs: len(l.GPUs), SkippedLines: l.SkippedLines, Problems: l.Problems,
			SkipCounts: l.SkipCounts, Notes: l.Notes,
		})
	}
	runs := opt.ExtrapolationRuns
	if runs <= 0 {
		runs = DefaultExtrapolationRuns
	}
	rules := DefaultTrendRules()
	f.Thresholds = Thresholds{Alpha: rules.Alpha, SuspectAlpha: DefaultSuspectAlpha, MinPoints: rules.MinPoints,
		MinGrowthBytes: int64(rules.MinGrowthBytes), MinGrowthShare: rules.MinGrowthShare, ExtrapolationRuns: runs,
		Horizon: cmp.Or(opt.Horizon, DefaultHorizon), InconclusiveP: InconclusiveP}

	series := BuildSeries(run.Snapshots)
	msBySeries, msOnly := matchMemStats(series, collectMemStats(run))
	procs := collectProcesses(run.Logs)
	// Devices without snapshots but with memory_stats readings join the GPU
	// logs by the same rule as snapshot series, decided over both.
	joinIns := make([]placement.JoinInput, 0, len(series)+len(msOnly))
	for i, s := range series {
		joinIns = append(joinIns, seriesJoinInput(s, msBySeries[i]))
	}
	for _, g := range msOnly {
		joinIns = append(joinIns, memStatsJoinInput(g))
	}
	joins := run.JoinGPUs(joinIns)
	procClaimed := map[int]bool{}
	// A GPU's processes are shown on the first device that joins it.
	unclaimed := func(gpu int) map[int][]*ProcessSeries {
		if procClaimed[gpu] {
			return nil
		}
		procClaimed[gpu] = true
		return procs
	}
	for i, s := range series {
		d, ac, note := analyzeDevice(s, run, joins[i], opt, rules, runs, unclaimed(joins[i].GPU))
		if g := msBySeries[i]; g != nil {
			attachMemStats(d, s, g, rules)
		}
		f.Devices = append(f.Devices, d)
		f.addText(note)
		ooms := explainOOMs(s, d.Capacity)
		oomSuspects(d, ooms, ac)
		fragmented := d.Fragmentation != nil && d.Fragmentation.Fragmented
		for _, o := range ooms {
			fragmented = fragmented || o.Cause == CauseFragmentation
		}
		if fragmented && len(s.Files) > 0 {
			last := s.Files[len(s.Files)-1]
			markPinningSuspects(d, last)
			if share, sp := pinnedByLeak(d, last); d.Fragmentation.Fragmented && share >= PinningShare {
				d.Fragmentation.Fragmented = false
				d.Fragmentation.Why.LeakShare, d.Fragmentation.Why.LeakSite = share, sp.Site
				sp.Evidence = append(sp.Evidence, Evidence{Kind: EvidencePinsSegments})
			}
		}
		d.LeakSites = leakSites(d, ac)
		d.Lockstep = lockstepSites(d, ac.keep)
		lastShares(d)
		if n := len(s.Files); n > 0 {
			d.Segments = segmentMapOf(d, s.Files[n-1])
		}
		f.OOMs = append(f.OOMs, ooms...)
		if joins[i].Guess && joins[i].Method == placement.JoinByRank {
			f.addRankJoinNote(d)
		}
		f.addText(joins[i].AmbiguityNote(s.DeviceKey))
	}
	gpuClaimed := map[int]bool{}
	for j, g := range msOnly {
		join := joins[len(series)+j]
		d, note := memStatsDevice(g, join, run, opt, rules, runs, unclaimed(join.GPU))
		f.Devices = append(f.Devices, d)
		if d.GPU != nil {
			gpuClaimed[join.GPU] = true
		}
		f.addText(note)
		if join.Guess && join.Method == placement.JoinByRank {
			f.addRankJoinNote(d)
		}
		f.addText(join.AmbiguityNote(g.key))
	}
	if len(series) == 0 {
		f.Devices = append(f.Devices, gpuOnlyDevices(run.Logs, opt, rules, gpuClaimed, procClaimed, procs)...)
		f.Devices = append(f.Devices, shareDevices(run.Logs, f.Devices)...)
	}
	f.Devices = append(f.Devices, migDevices(run.Logs, opt, rules)...)
	for _, d := range f.Devices {
		d.PrimaryMetric = primaryMetric(d)
		setPeaks(d)
	}
	slices.SortStableFunc(f.Devices, func(a, b *Device) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Device, b.Device), cmp.Compare(a.MIG, b.MIG))
	})
	f.OtherProcesses = otherProcesses(procs, procClaimed, rules)
	fromLog := len(f.OOMs)
	f.OOMs = append(f.OOMs, trainingLogOOMs(run.Logs, f.OOMs, f.Devices, opt.Capacity)...)
	blameTrainingLeaks(f, fromLog)
	sortOOMs(f.OOMs)
	f.Ranks = compareRanks(f.Devices)
	for _, n := range run.Notes {
		f.Notes = append(f.Notes, Note{Kind: NoteText, Text: n})
	}
	// What the snapshot decoder had to assume, file by file.
	for _, sf := range run.Snapshots {
		for _, n := range sf.Snapshot.Notes {
			f.Notes = append(f.Notes, Note{Kind: NoteText, Text: sf.Path + ": " + n.String()})
		}
	}
	runNotes(f)
	f.Capture = captureFindings(run, f)
	f.MissedOOM = missedOOM(run, f, f.Capture)
	decideVerdict(f)
	decideNextSteps(f)
	return f
}

// analyzeDevice runs the per-device analyses of one series. procs are the
// run's process series by GPU index (nil when another device shows them);
// the device takes those of the GPU it joins. It returns the attribution
// context for the OOM-linked suspects, and note, a clock-offset warning
// for Findings.Notes ("" when none).
func analyzeDevice(s *Series, run *placement.Run, join placement.Join, opt Options, rules TrendRules, runs float64, procs map[int][]*ProcessSeries) (d *Device, ac attributionContext, note string) {
	d = &Device{DeviceKey: s.DeviceKey, Order: s.Order, Axis: s.Axis, Points: s.Points}
	per := s.Axis
	d.GPU = JoinGPU(s, run.Logs, join.GPU)
	var shift time.Duration
	if d.GPU != nil {
		d.GPUJoin = join.Text
		d.GPUIndex, d.GPUJoinMethod, d.GPUJoinAmbiguous = join.GPU, join.Method, join.Ambiguous != ""
		if off, ok := detectClockOffset(d); ok {
			note = off.Note(run.Location, d.GPU.Times[0])
			shift = off.Shift
			d.GPU = placement.GPUReadings(run.Logs, join.GPU, seriesPlacer(s, off.Shift))
			d.ClockShift = -off.Hours()
		}
	}
	if list := procs[join.GPU]; len(list) > 0 {
		p := seriesPlacer(s, shift)
		d.Processes = processSet(list, &p, s.Axis, rules)
	}
	opt.setCapacity(d)
	n := len(s.Points)
	x := make([]float64, n)
	alloc := make([]float64, n)
	res := make([]float64, n)
	for i, p := range s.Points {
		x[i] = p.X
		alloc[i] = float64(p.Usage.Allocated)
		res[i] = float64(p.Usage.Reserved)
	}
	// Off-phase snapshots (an OOM dump) are evidence, not trend points.
	keep := s.trendIndex()
	refLevel := stats.Median(pick(alloc, keep))
	dr := rules
	dr.RefLevel = refLevel
	at := fitKept(MetricAllocated, per, x, alloc, keep, dr)
	rt := fitKept(MetricReserved, per, x, res, keep, dr)
	d.Trends = append(d.Trends, at, rt)
	ut := gpuTrend(d, per, dr)
	if ut != nil {
		d.Trends = append(d.Trends, *ut)
	}
	d.Reconciliation = reconcile(d, s.SnapshotTimes(), x, per, dr, ut)
	if d.Reconciliation != nil && d.Reconciliation.Trend != nil {
		d.Trends = append(d.Trends, *d.Reconciliation.Trend)
	}

	// Projections against capacity (less memory outside the allocator for
	// the allocator's own series).
	outside := 0.0
	if d.Reconciliation != nil && d.Reconciliation.Matched > 0 && !math.IsNaN(d.Reconciliation.Level) {
		outside = math.Max(0, d.Reconciliation.Level)
	}
	if d.Capacity > 0 && len(keep) > 1 {
		span := x[keep[len(keep)-1]] - x[keep[0]]
		hoursPerX := paceHoursPerX(s)
		for i := range d.Trends {
			t := &d.Trends[i]
			limit, off := float64(d.Capacity), 0.0
			if (t.Metric == MetricAllocated || t.Metric == MetricReserved) && outside > 0 {
				limit -= outside
				off = outside
			}
			lastX := x[keep[len(keep)-1]]
			if t.Metric == MetricGPUUsed && d.GPU != nil && len(d.GPU.X) > 0 && !math.IsNaN(d.GPU.X[len(d.GPU.X)-1]) {
				lastX = math.Max(lastX, d.GPU.X[len(d.GPU.X)-1])
			}
			if p := Project(t, limit, lastX, span, hoursPerX, runs); p != nil {
				p.Outside = int64(off)
				withinHorizon(p, cmp.Or(opt.Horizon, DefaultHorizon))
				t.Projection = p
			}
		}
	}

	// Leak attribution.
	sg := buildGroups(s)
	d.Coverage = coverageOf(sg, s.Files, s.Device)
	if peak(sg.noStack) > 0 {
		y := make([]float64, n)
		for i, b := range sg.noStack {
			y[i] = float64(b)
		}
		nr := rules
		nr.RefLevel = refLevel
		if ky := pick(y, keep); stats.Drops(ky, dropTolerance(ky)) > 0 {
			nr.Alpha = DefaultSuspectAlpha
		}
		t := fitKept("no_stack_bytes", per, x, y, keep, nr)
		d.Coverage.NoStackTrend = &t
	}
	ac = attributionContext{x: x, keep: keep, per: per, refLevel: refLevel, allocTr: &d.Trends[0], coverage: d.Coverage,
		rules: rules, suppress: opt.Suppressions, builtins: !opt.NoBuiltinSuppressions}
	d.Groups, d.Suspects = findSuspects(sg, ac)

	ceiling := 0.0
	if d.Capacity > 0 {
		ceiling = float64(d.Capacity) - outside
	}
	d.Fragmentation = analyzeFragmentation(s, x, keep, per, rules, ceiling)
	if n > 0 {
		d.TraceWindow = TraceWindowOf(s.Files[n-1], s.Device)
	}
	return d, ac, note
}

// addRankJoinNote notes, once, that GPU readings were joined to ranks by
// guessing rank r used GPU r; d is the first device joined so (the note
// says what its series are made of).
func (f *Findings) addRankJoinNote(d *Device) {
	for _, n := range f.Notes {
		if n.Kind == NoteRankJoin && (len(f.device(n.Device).Points) > 0) == (len(d.Points) > 0) {
			return
		}
	}
	f.Notes = append(f.Notes, Note{Kind: NoteRankJoin, Device: d.DeviceKey})
}

// primaryMetric chooses a device's primary trend (Device.PrimaryMetric):
// allocated bytes when the device has that trend (from its snapshots, or
// from its memory_stats readings without them), else nvidia-smi used
// bytes for a device known only from GPU logs; "" when it has neither.
func primaryMetric(d *Device) string {
	for _, m := range []string{MetricAllocated, MetricGPUUsed} {
		if d.Trend(m) != nil {
			return m
		}
	}
	return ""
}

// lastShares sets each suspect's live bytes at the last snapshot as a
// share of the device's allocated bytes there (Suspect.LastShare).
func lastShares(d *Device) {
	for i := range d.Suspects {
		sp := &d.Suspects[i]
		sp.LastShare = math.NaN()
		if k := len(sp.Bytes); k > 0 && len(d.Points) >= k && d.Points[k-1].Usage.Allocated > 0 {
			sp.LastShare = float64(sp.Bytes[k-1]) / float64(d.Points[k-1].Usage.Allocated)
		}
	}
}

// setPeaks sets a device's peak allocated and reserved bytes: over its
// snapshots, or over its memory_stats readings when it has no snapshots.
func setPeaks(d *Device) {
	for _, p := range d.Points {
		d.PeakAllocated = max(d.PeakAllocated, p.Usage.Allocated)
		d.PeakReserved = max(d.PeakReserved, p.Usage.Reserved)
	}
	if len(d.Points) == 0 && d.MemoryStats != nil {
		d.PeakAllocated, d.PeakReserved = max(d.MemoryStats.Max.Allocated, 0), max(d.MemoryStats.Max.Reserved, 0)
	}
}

// paceHoursPerX is the wall-clock hours per unit of the series axis over
// all its snapshots (see pace).
func paceHoursPerX(s *Series) float64 { return pace(s.Axis, s.Points, nil) }

// pace is the wall-clock hours per unit of axis over the points keep
// (indexes into pts; nil for all): 1 on an hours axis; 0 (unknown) on the
// snapshot axis, which is chosen when the times span less than
// MinHoursAxisSpan or are copy times, so there is no pace to trust; on a
// step axis, the time between the first and last timed points over their
// step distance; 0 when unknown.
func pace(axis Axis, pts []Point, keep []int) float64 {
	switch axis {
	case AxisHours:
		return 1
	case AxisSnapshot:
		return 0
	}
	if keep == nil {
		keep = make([]int, len(pts))
		for i := range keep {
			keep[i] = i
		}
	}
	first, last := -1, -1
	for _, i := range keep {
		if !pts[i].Time.IsZero() {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || last <= first {
		return 0
	}
	a, b := pts[first], pts[last]
	if b.X <= a.X {
		return 0
	}
	return b.Time.Sub(a.Time).Hours() / (b.X - a.X)
}

// gpuOnlyDevices makes a device per GPU of the logs when the run has no
// snapshots: GPU readings and their trend, and the GPU's processes unless
// another device shows them (procClaimed, updated). GPUs in skip are left
// out (a memory_stats device already shows them).
func gpuOnlyDevices(logs []*gpulog.GPULog, opt Options, rules TrendRules, skip, procClaimed map[int]bool, procs map[int][]*ProcessSeries) []*Device {
	idx := map[int]bool{}
	for _, l := range logs {
		for _, smp := range l.Samples {
			idx[smp.GPU] = true
		}
	}
	var out []*Device
	for _, g := range sortedKeys(idx) {
		if skip[g] {
			continue
		}
		d, s := gpuOnlyDevice(logs, DeviceKey{Rank: input.NoRank, Device: g}, opt, rules)
		if d == nil {
			continue
		}
		if list := procs[g]; len(list) > 0 && !procClaimed[g] {
			procClaimed[g] = true
			p := seriesPlacer(s, 0)
			d.Processes = processSet(list, &p, AxisHours, rules)
		}
		out = append(out, d)
	}
	return out
}

// gpuOnlyDevice makes the device key of the readings of GPU key.Device in
// logs: its GPU series on the hours axis (or, for readings without times,
// the reading axis) and its trend, and the series that places its
// readings; nil when the logs hold no memory reading of it.
func gpuOnlyDevice(logs []*gpulog.GPULog, key DeviceKey, opt Options, rules TrendRules) (*Device, *Series) {
	g := key.Device
	s := &Series{DeviceKey: key, Axis: AxisHours}
	d := &Device{DeviceKey: s.DeviceKey, Axis: AxisHours}
	byReading := byReadingDevice(d, logs, g, rules)
	if !byReading {
		d.GPU = JoinGPU(s, logs, g)
	}
	if d.GPU == nil {
		return nil, nil
	}
	if !byReading && len(d.GPU.Times) > 0 {
		s.Start = d.GPU.Times[0]
		d.GPU = JoinGPU(s, logs, g)
	}
	d.GPUIndex, d.GPUJoinMethod = g, placement.JoinByIndex
	opt.setCapacity(d)
	if !byReading {
		if t := gpuTrend(d, "hour", rules); t != nil {
			d.Trends = append(d.Trends, *t)
		}
	}
	return d, s
}
