package analyze

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"time"

	"gpureport/analyze/frames"
	"gpureport/analyze/roles"
	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/stats"
	"gpureport/placement"
	"gpureport/snapshot"
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
	// SideVersion names this build of the analysis for what it keeps in
	// the digest cache beside a file's digest (an OOM's explanation,
	// which costs a full decode to make again): an entry is read back
	// only under the same name, so a changed analysis never reads an
	// older one's. Lower-case letters, digits, '-' and '.'; empty keeps
	// none.
	SideVersion string
	// SidesLater leaves the writing of the files' side bundles
	// (ingest.Run.WriteSides) to the caller, who does it beside other
	// work (the report): tens of milliseconds for 200 snapshots on a
	// first run. By default Analyze writes them before it returns.
	SidesLater bool
}

// Analyze runs the analysis over a decoded run, after package placement
// has decided where each of its inputs belongs, stage by stage, as
// pprof's driver reads: each stage takes what the ones before it made
// and leaves its output, a type of its own, for the next. It is pure and
// deterministic: the same run and options give the same Findings, and
// the run is not modified.
//
//  1. series         the snapshots as one ordered series per (rank, device),
//     each snapshot's accounting (series.go, usage.go): []*Series
//  2. devices        a device per series, memory_stats group, GPU and MIG
//     device, with its GPU readings, clock, processes and capacity
//     (devices.go; the GPU join's evidence in gpujoin.go, MIG devices
//     in mig.go, GPUs known by used shares in shares.go): []*deviceRun;
//     then, once every device is made, the training logs' OOM messages
//     placed on them (trainlog.go: analysis.logOOMs), whose capacity a
//     device without another takes and whose count a memory_stats
//     device's num_ooms is held against
//  3. trends         each device's trends, the memory outside the allocator
//     and projections (devicetrends.go): trendFit
//  4. attribution    stack groups, stack coverage and leak suspects, and the
//     last trace window (attribution.go, tracewindow.go; each snapshot's
//     groups and roles, the last snapshot's decisions and trace window kept
//     in the digest cache: pointcache.go; the survival fold's checkpoint:
//     survivalcache.go): attributionContext. The stack groups it starts
//     from read only the series' files and periodic points: they are
//     summed on another core from stage 1's order on, beside the
//     snapshots' accounting and stages 2 and 3
//  5. roles          what holds the memory: the roles of every snapshot and
//     of each leak suspect (memroles.go): Point.Roles, Suspect.Roles; the
//     snapshots' roles are classified beside stage 4, on another core,
//     since neither reads the other's output, followed there by the last
//     trace window, stage 6 and stage 7's explanations, which read
//     nothing stage 4 decides
//  6. fragmentation  per snapshot and over the series (fragmentation.go):
//     *Fragmentation
//  7. ooms           the OOMs the snapshots record, the roles at each, their
//     causes and, at a capacity OOM, the levers (oom.go, memroles.go):
//     []OOM, on stage 5's core; the groups that grew into them, once
//     stage 4 is done
//  8. sites          suspects that pin fragmented segments, leak sites,
//     lockstep, the segment map (attribution.go, leaksites.go,
//     segmentmap.go)
//  9. run            the training logs' OOMs (one copied into several files
//     counted once: oomrepeat.go), the ranks compared, the capture
//     kit's manifests, the OOMs no snapshot was taken at and the moment
//     the roles' one line is about (trainlog.go, ranks.go, capture.go,
//     memroles.go); then, every OOM known, the devices that already ran
//     out of memory, whose OOM replaces stage 3's projections
//     (ranout.go)
//  10. verdict       notes, the verdict, what to try next (notes.go,
//     verdict.go, nextsteps.go)
func Analyze(read *ingest.Run, opt Options) *Findings {
	a := newAnalysis(placement.Place(read), opt)
	// The cached files read without their segments answer from their
	// point entries; the last file of each series, whose blocks several
	// stages read, has its segments read here, before any stage starts.
	series := orderSeries(a.in.Snapshots, readPointEntries(a.in.Snapshots))
	for _, s := range series {
		if n := len(s.Files); n > 0 && s.Files[n-1].SegmentsUnread() {
			readSegments(s.Files[n-1])
		}
	}
	// The stack groups of a series read its files and which of its points
	// are periodic, nothing the points' usages, the devices or the trends
	// decide: they are summed on another core while those are measured
	// (reading every snapshot's blocks), which a re-run waited for first.
	groups := make(map[*Series]*seriesGroups, len(series))
	var gw sync.WaitGroup
	{
		trends := make([][]int, len(series))
		for i, s := range series {
			trends[i] = s.trendIndex()
		}
		gw.Go(func() {
			for i, s := range series {
				groups[s] = buildGroups(s, trends[i], a.sigs, a.opt.SideVersion)
			}
		})
	}
	for _, s := range series {
		s.measure()
	}
	devs := a.devices(series)
	// Each device stage runs over every device before the next starts:
	// a later stage may read what an earlier one decided on any device.
	a.eachDevice(devs, a.trends)
	// But the roles of every snapshot read only the snapshots (and the
	// roles memo, a.stacks), and attribution reads no roles: the two run
	// side by side, on two cores; what joins them (the suspects' roles)
	// runs after both. The trace window (which reads the roles memo)
	// and fragmentation read nothing attribution decides, and follow the
	// roles on their core, the shorter of the two paths.
	for _, dr := range devs {
		a.cachedTraceWindow(dr)
	}
	// The trace window reads the first device's last snapshot decoded
	// in full: decoded beside stages 4 and 5, it is off the path (the
	// loader keeps it for the trace window; an error is the trace
	// window's to report). A window kept in the cache needs no decode.
	// Which file is asked before the trace window's goroutine starts,
	// which sets the window.
	var full func() (*snapshot.Snapshot, error)
	if dr := firstSnapshotDevice(devs); dr != nil && dr.d.TraceWindow == nil {
		full = dr.s.Files[len(dr.s.Files)-1].Full
	}
	// The OOMs' explanations (a snapshot decoded in full, its memory
	// replayed to each OOM) read the snapshots, the devices' capacities
	// and the roles memo, nothing attribution decides: they follow on
	// the roles' core, which the stack groups outlast, rather than run
	// alone after both (a quarter of a run's analysis of 60 large
	// snapshots with OOM events). What the suspects make of them waits
	// for attribution (oomSuspects).
	ranks := dataRanks(jobDevices(a.f.Devices))
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, stage := range []func(*deviceRun){a.pointRoles, a.traceWindow, a.fragmentation} {
			a.eachDevice(devs, stage)
		}
		a.eachDevice(devs, func(dr *deviceRun) { a.explainOOMs(dr, ranks) })
	})
	if full != nil {
		wg.Go(func() { _, _ = full() })
	}
	gw.Wait()
	a.eachDevice(devs, func(dr *deviceRun) { a.attribute(dr, groups[dr.s]) })
	wg.Wait()
	// The point entries read the points' pools and what fragmentation
	// measured, nothing later stages decide: they are written beside
	// those (10-20 ms for 200 ordinary snapshots on a first run).
	var kept sync.WaitGroup
	kept.Go(func() { a.keepPointEntries(devs) })
	for _, stage := range []func(*deviceRun){a.joinRoles, a.oomSuspects, a.sites} {
		a.eachDevice(devs, stage)
	}
	a.run(devs)
	a.verdict()
	kept.Wait()
	// The files' side entries are written together, one bundle a file,
	// once every stage has set its own.
	if !opt.SidesLater {
		read.WriteSides()
	}
	return a.f
}

// firstSnapshotDevice returns the first device with snapshots, nil
// without one.
func firstSnapshotDevice(devs []*deviceRun) *deviceRun {
	for _, dr := range devs {
		if dr.s != nil && len(dr.s.Files) > 0 {
			return dr
		}
	}
	return nil
}

// eachDevice runs stage over every device, in order.
func (a *analysis) eachDevice(devs []*deviceRun, stage func(*deviceRun)) {
	for _, dr := range devs {
		stage(dr)
	}
}

// analysis is a run being analysed: its inputs, placed, and options, the
// trend rules, how many run lengths a projection reaches
// (ExtrapolationRuns), and the Findings the stages fill.
type analysis struct {
	in    *placement.Run
	opt   Options
	rules TrendRules
	runs  float64
	f     *Findings
	// stacks and sigs keep what the roles rules read of each distinct
	// stack, and its signature, across the run's snapshots, which mostly
	// share their stacks.
	stacks *roles.StackMemo
	sigs   *frames.StackMemo[*Signature]
	// logOOMs are the training logs' OOM messages placed on their
	// devices, once, at the end of the devices stage (placeLogOOMs).
	logOOMs []logOOM
}

// newAnalysis starts the Findings of run, whose inputs package placement
// has placed: its inputs and the thresholds the verdict will apply.
func newAnalysis(run *placement.Run, opt Options) *analysis {
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
		var kinds []ReadingCount
		total := 0
		for _, k := range []ReadingCount{{ReadingGPU, memoryReadings(l.Samples)}, {ReadingProcess, len(l.Processes)},
			{ReadingMemoryStats, len(l.MemoryStats)}, {ReadingMIG, len(l.MIG)}} {
			if k.Readings > 0 {
				kinds = append(kinds, k)
				total += k.Readings
			}
		}
		if len(kinds) < 2 {
			kinds = nil
		}
		f.Inputs.Logs = append(f.Inputs.Logs, LogInfo{
			Path: l.Path, Format: l.Format, Samples: total, Kinds: kinds,
			GPUs: len(l.GPUs), SkippedLines: l.SkippedLines, Problems: l.Problems,
			SkipCounts: l.SkipCounts, Notes: l.Notes,
		})
		if z, ok := run.LogZones[l.Path]; ok {
			f.Inputs.Logs[len(f.Inputs.Logs)-1].Zone = &z
		}
	}
	runs := opt.ExtrapolationRuns
	if runs <= 0 {
		runs = DefaultExtrapolationRuns
	}
	rules := DefaultTrendRules()
	f.Thresholds = Thresholds{Alpha: rules.Alpha, SuspectAlpha: DefaultSuspectAlpha, MinPoints: rules.MinPoints,
		MinGrowthBytes: int64(rules.MinGrowthBytes), MinGrowthShare: rules.MinGrowthShare, ExtrapolationRuns: runs,
		Horizon: cmp.Or(opt.Horizon, DefaultHorizon), InconclusiveP: InconclusiveP}
	return &analysis{in: run, opt: opt, rules: rules, runs: runs, f: f, stacks: roles.NewStackMemo(), sigs: frames.NewStackMemo[*Signature]()}
}

// attribute groups a snapshot device's live memory by allocation stack,
// measures the stacks' coverage and the trend of the memory without
// stacks, and finds its leak suspects (stage 4); the last snapshot's
// trace window is the secondary evidence a single snapshot has.
//
// sg is the series' stack groups (buildGroups), nil without a series.
func (a *analysis) attribute(dr *deviceRun, sg *seriesGroups) {
	s, d, fit := dr.s, dr.d, &dr.fit
	if s == nil {
		return
	}
	d.Coverage = coverageOf(sg, s.Files, s.Device)
	dr.ac = attributionContext{x: fit.x, keep: fit.keep, per: fit.per, refLevel: fit.refLevel, allocTr: &d.Trends[0], survival: sg.survival,
		rules: a.rules, suppress: a.opt.Suppressions, builtins: !a.opt.NoBuiltinSuppressions}
	if peak(sg.noStack) > 0 {
		y := make([]float64, len(sg.noStack))
		for i, b := range sg.noStack {
			y[i] = float64(b)
		}
		nr := a.rules
		nr.RefLevel = fit.refLevel
		if ky := pick(y, fit.keep); stats.Drops(ky, dropTolerance(ky)) > 0 {
			nr.Alpha = DefaultSuspectAlpha
		}
		t := fitKept("no_stack_bytes", fit.per, fit.x, y, fit.keep, nr)
		// Stackless blocks that turn over are a container, as with stacks.
		if t.State == StateGrowing {
			if ev := survivalEvidence(sg.survival.Group(noStackSignature.Key), &t, dr.ac); ev.Form == SurvivalTurnedOver {
				dr.turned = append(dr.turned, container{site: NoStackSite, slope: t.Slope, turnover: ev.Turnover})
				t.State, t.Pattern, t.Why = StateFlat, PatternTurnedOver, TrendWhy{Rule: RuleTurnedOver}
			}
		}
		d.Coverage.NoStackTrend = &t
	}
	dr.ac.coverage = d.Coverage
	var turned []container
	d.Groups, d.Suspects, turned = findSuspects(sg, dr.ac)
	dr.turned = append(dr.turned, turned...)
}

// traceWindow reads the last snapshot's trace window, the secondary
// evidence a single snapshot has (stage 4, after the roles of every
// snapshot, whose memo it shares).
func (a *analysis) traceWindow(dr *deviceRun) {
	// A window from the cache (cachedTraceWindow) is set already; only
	// one that is not nil is kept there.
	if s := dr.s; s != nil && len(s.Files) > 0 && dr.d.TraceWindow == nil {
		f := s.Files[len(s.Files)-1]
		dr.d.TraceWindow = traceWindowKept(f, s.DeviceKey, s.Device, a.opt.SideVersion, a.stacks)
	}
}

// cachedTraceWindow sets the trace window of device dr from its last
// snapshot's side entry, when there is one that reads back.
func (a *analysis) cachedTraceWindow(dr *deviceRun) {
	if s := dr.s; s != nil && len(s.Files) > 0 {
		f := s.Files[len(s.Files)-1]
		if w, ok := cachedTraceWindow(f, s.DeviceKey, a.opt.SideVersion); ok {
			dr.d.TraceWindow = w
		}
	}
}

// fragmentation measures a snapshot device's fragmentation and decides
// whether it is fragmented (stage 5), against what the allocator can
// reserve: the device's memory less what lives outside the allocator.
func (a *analysis) fragmentation(dr *deviceRun) {
	s, d, fit := dr.s, dr.d, &dr.fit
	if s == nil || d.Host {
		// The host allocator rounds each pinned block up to a power of
		// two and never splits one: it has no holes to fragment.
		return
	}
	ceiling := 0.0
	if d.Capacity > 0 {
		ceiling = float64(d.Capacity) - fit.outside
	}
	d.Fragmentation, dr.points = analyzeFragmentation(s, fit.x, fit.keep, fit.per, a.rules, ceiling)
}

// explainOOMs explains the OOMs a snapshot device's trace records and
// decides their causes (stage 7); ranks is the number of ranks with
// device memory.
func (a *analysis) explainOOMs(dr *deviceRun, ranks int) {
	if dr.s == nil || dr.d.Host {
		// An OOM explanation weighs device memory (CUDA's free bytes, the
		// device's capacity); a failed cudaHostAlloc is not one.
		return
	}
	dr.ooms = explainOOMs(dr.s, dr.d.Capacity, ranks, a.stacks, a.opt.SideVersion)
}

// oomSuspects adds the stack groups that grew into a device's OOMs
// (explainOOMs) to its suspects, once attribution has made them.
func (a *analysis) oomSuspects(dr *deviceRun) {
	oomSuspects(dr.d, dr.ooms, dr.ac)
}

// sites settles a snapshot device's leak suspects (stage 8): those whose
// tensors pin its fragmented segments are the fragmentation's cause, and
// a leak that pins them makes the holes its own; the rest are grouped by
// site, the sites that grow in lockstep found, and the last snapshot laid
// out for the segment map.
func (a *analysis) sites(dr *deviceRun) {
	s, d := dr.s, dr.d
	if s == nil {
		return
	}
	fragmented := d.Fragmentation != nil && d.Fragmentation.Fragmented
	for _, o := range dr.ooms {
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
	d.LeakSites = leakSites(d, dr.ac)
	boundProjections(d, dr.turned)
	d.WindowLeak = windowLeak(d, a.rules, a.opt.Suppressions, !a.opt.NoBuiltinSuppressions)
	d.Lockstep = lockstepSites(d, dr.ac.keep)
	lastShares(d)
	if n := len(s.Files); n > 0 {
		d.Segments = segmentMapOf(d, s.Files[n-1], a.sigs)
	}
	a.f.OOMs = append(a.f.OOMs, dr.ooms...)
}

// run completes what concerns the run as a whole (stage 8): each device's
// primary trend and peaks, the devices in order, the processes of no
// device, the training logs' OOMs (blamed on the leaks that filled the
// device), the comparison of ranks, what the capture kit's manifests say
// and the OOMs no snapshot was taken at.
func (a *analysis) run(devs []*deviceRun) {
	f := a.f
	for _, dr := range devs {
		dr.d.PrimaryMetric = primaryMetric(dr.d)
		setPeaks(dr.d)
		stampPace(dr.d)
	}
	slices.SortStableFunc(f.Devices, func(a, b *Device) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), compareBool(a.Host, b.Host), cmp.Compare(a.Device, b.Device), cmp.Compare(a.MIG, b.MIG))
	})
	fromLog := len(f.OOMs)
	mergeLoggedOOMs(a.logOOMs, f.OOMs)
	fatalLogOOMs(a.logOOMs, f.OOMs)
	f.OOMs = append(f.OOMs, trainingLogOOMs(a.logOOMs, f.OOMs, f.Devices, a.opt.Capacity)...)
	blameTrainingLeaks(f, fromLog)
	sortOOMs(f.OOMs)
	f.Held = heldMoment(f)
	f.Ranks = compareRanks(jobDevices(f.Devices))
	heavyRoles(f.Ranks, devs)
	for _, ex := range heavyOf(f.Ranks) {
		f.Notes = append(f.Notes, Note{Kind: NoteHeavyRank, Device: ex.DeviceKey})
	}
	f.Capture = captureFindings(a.in, f)
	f.MissedOOM = missedOOM(a.in, f, f.Capture)
	// Every OOM is known: a device that ran out states that OOM in
	// place of a time to capacity.
	ranOut(f)
}

// verdict adds the caveats of the inputs' readers and of every device,
// decides the verdict and what to try next (stage 9).
func (a *analysis) verdict() {
	f := a.f
	for _, n := range a.in.Notes {
		f.Notes = append(f.Notes, Note{Kind: NoteKind(n.Kind), Place: &n})
	}
	// What the snapshot decoder had to assume, file by file.
	for _, sf := range a.in.Snapshots {
		for _, n := range sf.Snapshot.Notes {
			f.Notes = append(f.Notes, Note{Kind: NoteText, Text: sf.Path + ": " + n.String()})
		}
	}
	runNotes(f)
	decideVerdict(f)
	decideNextSteps(f)
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// primaryMetric chooses a device's primary trend (Device.PrimaryMetric):
// allocated bytes when the device has that trend (from its snapshots, or
// from its memory_stats readings without them), else reserved bytes for
// a device whose memory_stats readings give reserved memory only
// (torchtitan's "memory:" figure is its peak reserved memory), else
// peak allocated bytes for one whose readings give only that
// (peaktrend.go), else nvidia-smi used bytes for a device known only from
// GPU logs; "" when it has none. Reserved and peak allocated memory are
// the process's own, nvidia-smi's used memory mixes in every other
// process, so they come first.
func primaryMetric(d *Device) string {
	if d.Trend(MetricAllocated) != nil {
		return MetricAllocated
	}
	if rt := d.Trend(MetricReserved); rt != nil && rt.Source == SourceMemoryStats && len(d.Points) == 0 {
		return MetricReserved
	}
	if pt := d.Trend(MetricPeakAllocated); pt != nil && len(d.Points) == 0 {
		return MetricPeakAllocated
	}
	if d.Trend(MetricGPUUsed) != nil {
		return MetricGPUUsed
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

// memoryReadings counts the GPU readings that give memory: a row of a lost
// GPU ("[GPU is lost]", "ERR!  /  81559MiB") is kept by the readers for
// the total it may still give but reads no memory, and is no sample, as
// it is no point of the device's series.
func memoryReadings(ss []gpulog.GPUSample) int {
	n := 0
	for _, s := range ss {
		if s.MemoryUsed >= 0 || s.HasUsedPercent || s.MemoryFree >= 0 || s.MemoryReserved >= 0 {
			n++
		}
	}
	return n
}

// setPeaks sets a device's peak allocated and reserved bytes: over its
// snapshots, or over its memory_stats readings when it has no snapshots;
// gpulog.Unknown where neither gives the figure (readings of reserved
// memory only, as torchtitan's "memory:" lines, know no allocated peak,
// and a device known only from GPU logs knows neither).
func setPeaks(d *Device) {
	d.PeakAllocated, d.PeakReserved = gpulog.Unknown, gpulog.Unknown
	for _, p := range d.Points {
		d.PeakAllocated = max(d.PeakAllocated, p.Usage.Allocated)
		d.PeakReserved = max(d.PeakReserved, p.Usage.Reserved)
	}
	if len(d.Points) == 0 && d.MemoryStats != nil {
		// memStatsFigures gives gpulog.Unknown for a field no reading has.
		d.PeakAllocated, d.PeakReserved = d.MemoryStats.Max.Allocated, d.MemoryStats.Max.Reserved
	}
}
