package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/internal/stats"
	"gpureport/internal/units"
	"gpureport/placement"
)

// torch.cuda.memory_stats() readings (gpulog.FormatMemoryStats: JSON lines
// a training loop writes) give a device's allocated, reserved, active and
// inactive-split bytes and the cumulative num_alloc_retries and num_ooms
// counters over steps or time, without stacks.
//
// Grouping. Readings are grouped by (rank, device): the rank the line
// gives, else the rank in the log's path (rank3/stats.jsonl, or the
// rank folder placement numbered: placement.Run.LogRank), else none.
// Each group is ordered by step when every reading has one, else by time
// when every reading has one, else kept in log order (logs by path).
//
// Joining. A group joins the snapshot series with the same key; a group
// without a rank joins the only snapshot series of its device (and a group
// with a rank the only rankless series of its device). There the readings
// are placed on the series axis (their step on a step axis, else their
// time interpolated between timed snapshots; hours since the first
// snapshot on an hours axis), drawn beside the snapshot points, and
// fitted for comparison: the snapshot analysis stays primary.
//
// A group that joins no snapshot series becomes a device of its own: its
// axis is the readings' (steps, else hours since the first reading, else
// their position), its allocated and reserved trends are fitted with
// FitTrend under the device rules exactly as snapshot points are (the
// steady level is the median allocated), projected against the capacity,
// and joined to the GPU logs as a snapshot series would be. Its verdict is
// a leak when allocated memory grows, with no attribution: only snapshots
// with stacks can name the site.
//
// Either way, a rise of num_ooms between two readings is an OOM (unless
// the snapshots already explain one on the device), and a
// num_alloc_retries counter that keeps growing gets a note: each retry is
// a cudaMalloc that failed until the allocator freed its cache, a sign of
// fragmentation or memory pressure.

// maxMemStatsPoints bounds the readings a memory_stats trend is fitted on:
// longer series are binned to this many medians (binMedians), as GPU log
// readings are.
const maxMemStatsPoints = 400

// MinRetryRises is the fewest rises of num_alloc_retries (readings where
// the counter went up) that can make it "keep growing".
const MinRetryRises = 3

// memStatsGroup is the readings of one (rank, device) before they are
// joined to a device.
type memStatsGroup struct {
	key DeviceKey
	ms  *MemoryStatsSeries
	// axis is the readings' own axis, start the origin of an hours axis
	// (the earliest reading time).
	axis  Axis
	start time.Time
	// oomsLine is, by log path, the line of the group's first reading in
	// that log that gives num_ooms (countLoggedOOMs).
	oomsLine map[string]int
}

// collectMemStats groups the run's memory_stats readings by (rank,
// device), orders each group and reads its counters. Groups are ordered by
// rank, then device.
//
// A reading whose line names no device (gpulog.MemoryStatsSample.
// DeviceAssumed: a framework's memory line, which each rank prints of its
// own device) is on the device the rank's own OOM messages name
// (rankOOMDevices): Megatron-LM's ranks call torch.cuda.set_device, so
// rank 2's "[Rank 2] ... memory (MB)" is of cuda:2 when its traceback says
// "GPU 2"; without such a message it stays the assumed cuda:0. notes say
// which ranks' readings moved.
func collectMemStats(run *placement.Run) ([]*memStatsGroup, []Note) {
	byKey := map[DeviceKey]*memStatsGroup{}
	ownDevice := rankOOMDevices(run)
	moved := map[DeviceKey]int{}
	for _, l := range run.Logs {
		pathRank := run.LogRank(l)
		for _, r := range l.MemoryStats {
			k := DeviceKey{Rank: processRank(r.Rank, pathRank, run.RunOf(pathRank)), Device: r.Device, Type: placement.ParseDeviceType(r.Type)}
			k.Run = run.RunOf(k.Rank)
			if dev, ok := ownDevice[rankType{k.Rank, k.Type}]; ok && r.DeviceAssumed && k.Rank != input.NoRank && dev != k.Device {
				r.Device, k.Device = dev, dev
				moved[k]++
			}
			g := byKey[k]
			if g == nil {
				g = &memStatsGroup{key: k, ms: &MemoryStatsSeries{}, oomsLine: map[string]int{}}
				byKey[k] = g
			}
			if !slices.Contains(g.ms.Sources, l.Path) {
				g.ms.Sources = append(g.ms.Sources, l.Path)
			}
			g.ms.Readings = append(g.ms.Readings, r)
			if r.NumOOMs >= 0 && r.Line > 0 && (g.oomsLine[l.Path] == 0 || r.Line < g.oomsLine[l.Path]) {
				g.oomsLine[l.Path] = r.Line
			}
		}
	}
	out := make([]*memStatsGroup, 0, len(byKey))
	for _, g := range byKey {
		orderMemStats(g)
		// Several traces placed by time span the profiling cycles
		// between them: a trend over those is the run's.
		g.ms.Window = g.ms.Order == "time" && len(g.ms.Sources) == 1 && allTraces(run.Logs, g.ms.Sources)
		memStatsCounters(g.ms)
		memStatsHandled(g, run.Logs)
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b *memStatsGroup) int {
		return cmp.Or(cmp.Compare(a.key.Rank, b.key.Rank), cmp.Compare(a.key.Device, b.key.Device), cmp.Compare(a.key.Type, b.key.Type))
	})
	var notes []Note
	for _, g := range out {
		if n := moved[g.key]; n > 0 {
			notes = append(notes, Note{Kind: NoteText, Device: g.key, Text: fmt.Sprintf(
				"rank %d's memory lines name no device (%s): they are shown on %s, the device its own OOM message names, not on the cuda:0 assumed for such lines",
				g.key.Rank, units.CountOf(n, "reading"), g.key.Name())})
		}
	}
	return out, notes
}

// rankType is a rank's devices of one type.
type rankType struct {
	rank int
	typ  DeviceType
}

// rankOOMDevices maps each rank whose training-log OOM messages name a
// device of one type, all the same, to that device: the messages of the
// rank's line prefix, else of its log's path (placement.Run.LogRank).
// PyTorch's message names the process's own device ("GPU 2" is cuda:2).
// A rank whose messages name several devices of one type is left out:
// which one a line that names none is of is unknown.
func rankOOMDevices(run *placement.Run) map[rankType]int {
	out := map[rankType]int{}
	clash := map[rankType]bool{}
	for _, l := range run.Logs {
		pathRank := run.LogRank(l)
		for i := range l.OOMs {
			m := &l.OOMs[i]
			rank := processRank(m.Rank, pathRank, run.RunOf(pathRank))
			if rank == input.NoRank || m.Device < 0 || m.Machine != "" {
				continue
			}
			k := rankType{rank, placement.ParseDeviceType(m.DeviceType())}
			if d, seen := out[k]; seen && d != m.Device {
				clash[k] = true
			}
			out[k] = m.Device
		}
	}
	for k := range clash {
		delete(out, k)
	}
	return out
}

// allTraces reports whether every log of paths is a torch.profiler trace.
func allTraces(logs []*gpulog.GPULog, paths []string) bool {
	for _, l := range logs {
		if slices.Contains(paths, l.Path) && l.Format != gpulog.FormatKinetoTrace {
			return false
		}
	}
	return true
}

// countLoggedOOMs sets OOMsLogged of g, the memory_stats readings of
// device d: the out-of-memory messages on d (placed: the run's, on their
// devices, placeLogOOMs) that a log holding g's readings prints before
// its first reading of them that gives num_ooms (the line of a memory
// summary table): a log that prints an OOM and then
// torch.cuda.memory_summary() shows "CUDA OOMs: 1" for that very OOM. A
// message shown from a copy in another file (a tee of the console)
// counts where this log prints it. The largest count over the logs is
// kept, as the readings of one process come from one log.
func countLoggedOOMs(d *Device, g *memStatsGroup, placed []logOOM) {
	for path, line := range g.oomsLine {
		var n int64
		for _, p := range placed {
			if at, ok := p.lineIn(path); ok && at < line && p.on(d) {
				n += int64(max(p.m.Count, 1))
			}
		}
		g.ms.OOMsLogged = max(g.ms.OOMsLogged, n)
	}
}

// orderMemStats orders a group's readings and places them on their own
// axis (X): steps, hours since the earliest reading, or positions.
func orderMemStats(g *memStatsGroup) {
	ms := g.ms
	allStep, allTime, oneStep := true, true, true
	for _, r := range ms.Readings {
		allStep = allStep && r.Step != input.NoStep
		oneStep = oneStep && r.Step == ms.Readings[0].Step
		allTime = allTime && !r.Time.IsZero()
		if !r.Time.IsZero() && (g.start.IsZero() || r.Time.Before(g.start)) {
			g.start = r.Time
		}
	}
	switch {
	case allStep && (!oneStep || len(ms.Readings) < 2):
		// Readings all at one step have no step axis: their times, or
		// their order, place them.
		ms.Order, g.axis = "step", AxisStep
		slices.SortStableFunc(ms.Readings, func(a, b gpulog.MemoryStatsSample) int {
			return cmp.Or(cmp.Compare(a.Step, b.Step), a.Time.Compare(b.Time))
		})
	case allTime:
		ms.Order, g.axis = "time", AxisHours
		slices.SortStableFunc(ms.Readings, func(a, b gpulog.MemoryStatsSample) int { return a.Time.Compare(b.Time) })
	default:
		ms.Order, g.axis = "log order", AxisReading
	}
	ms.X = make([]float64, len(ms.Readings))
	for i, r := range ms.Readings {
		switch g.axis {
		case AxisStep:
			ms.X[i] = float64(r.Step)
		case AxisHours:
			ms.X[i] = r.Time.Sub(g.start).Hours()
		default:
			ms.X[i] = float64(i)
		}
	}
}

// memStatsCounters reads the cumulative counters: the rises of num_ooms
// and what num_alloc_retries did. A counter that falls (a new process, or
// reset_accumulated_memory_stats) starts over from its new value.
func memStatsCounters(ms *MemoryStatsSeries) {
	ms.Max, ms.Last = memStatsFigures(ms.Readings)
	prev := -1
	for i, r := range ms.Readings {
		if r.NumOOMs < 0 {
			continue
		}
		switch {
		case prev < 0:
			ms.OOMsBefore = r.NumOOMs
		case r.NumOOMs > ms.Readings[prev].NumOOMs:
			ms.OOMs = append(ms.OOMs, MemoryStatsOOM{At: readingOf(ms.Readings, i), Prev: readingOf(ms.Readings, prev),
				Before: ms.Readings[prev].NumOOMs, After: r.NumOOMs, Allocated: r.Allocated, Reserved: r.Reserved})
		}
		prev = i
	}

	var known []int
	for i, r := range ms.Readings {
		if r.NumAllocRetries >= 0 {
			known = append(known, i)
		}
	}
	if len(known) == 0 {
		return
	}
	n := len(known)
	ar := &AllocRetries{First: ms.Readings[known[0]].NumAllocRetries, Last: ms.Readings[known[n-1]].NumAllocRetries, Readings: n}
	early, late := false, false
	lastRise := -1
	for j := 1; j < n; j++ {
		if ms.Readings[known[j]].NumAllocRetries > ms.Readings[known[j-1]].NumAllocRetries {
			ar.Rises++
			lastRise = known[j]
			if 3*j >= 2*n {
				late = true
			} else {
				early = true
			}
		}
	}
	ar.Growing = ar.Rises >= MinRetryRises && early && late
	if lastRise >= 0 {
		ar.LastRise = readingOf(ms.Readings, lastRise)
	}
	ms.Retries = ar
}

// memStatsHandled sets Handled on the num_ooms rises of group g that the
// process evidently went on from (logs: the run's logs):
//
//   - a later reading of the same process: a num_ooms reading is written
//     by a live process, but the one that shows the rise may be its
//     handler's last words before it re-raises; a reading after it, at a
//     later step or time, whose counter has not fallen below the rise
//     (a new process starts from 0: torchelastic's restart after a fatal
//     OOM, a job launched again) and whose pid, when both give one, is
//     the same, shows the process that counted the OOM still running.
//     Readings without the counter are passed over; the first that has
//     it decides;
//   - a line of a training log saying the job caught an OOM and went on
//     (gpulog.GPULog.Recoveries, those that answer no OOM message of
//     their own), of the group's rank or none, between the two readings:
//     by line, in the one log that holds all the readings, else by time
//     when both readings and the line have one.
func memStatsHandled(g *memStatsGroup, logs []*gpulog.GPULog) {
	ms := g.ms
	for k := range ms.OOMs {
		o := &ms.OOMs[k]
		o.Handled = wentOnAfter(ms.Readings, o.At.Index, o.After) || recoveredBetween(g, logs, o)
	}
}

// wentOnAfter reports whether a reading after rs[at] shows the process
// that counted after OOMs at rs[at] still running (memStatsHandled).
func wentOnAfter(rs []gpulog.MemoryStatsSample, at int, after int64) bool {
	a := rs[at]
	for _, r := range rs[at+1:] {
		if r.NumOOMs < 0 {
			continue
		}
		later := r.Step != input.NoStep && a.Step != input.NoStep && r.Step > a.Step ||
			(r.Step == input.NoStep || a.Step == input.NoStep) && !r.Time.IsZero() && !a.Time.IsZero() && r.Time.After(a.Time)
		samePID := r.PID == 0 || a.PID == 0 || r.PID == a.PID
		return later && samePID && r.NumOOMs >= after
	}
	return false
}

// recoveredBetween reports whether a training log's recovery line that
// answers no message lies between the readings of rise o of group g
// (memStatsHandled).
func recoveredBetween(g *memStatsGroup, logs []*gpulog.GPULog, o *MemoryStatsOOM) bool {
	ms := g.ms
	prev, at := ms.Readings[o.Prev.Index], ms.Readings[o.At.Index]
	for _, l := range logs {
		byLine := len(ms.Sources) == 1 && ms.Sources[0] == l.Path && prev.Line > 0 && at.Line > prev.Line
		for _, r := range l.Recoveries {
			if r.Rank != input.NoRank && g.key.Rank != input.NoRank && r.Rank != g.key.Rank {
				continue
			}
			switch {
			case byLine:
				if r.Line > prev.Line && r.Line < at.Line {
					return true
				}
			case !r.Time.IsZero() && !prev.Time.IsZero() && !at.Time.IsZero():
				if r.Time.After(prev.Time) && !r.Time.After(at.Time) {
					return true
				}
			}
		}
	}
	return false
}

// readingOf names reading i of rs.
func readingOf(rs []gpulog.MemoryStatsSample, i int) Reading {
	return Reading{Index: i, Step: rs[i].Step, Time: rs[i].Time}
}

// memStatsFigures returns the largest and the last known value of each
// field of the readings, gpulog.Unknown where no reading has it.
func memStatsFigures(rs []gpulog.MemoryStatsSample) (most, last MemoryStatsFigures) {
	u := gpulog.Unknown
	most = MemoryStatsFigures{u, u, u, u, u, u}
	last = most
	for _, r := range rs {
		f := MemoryStatsFigures{r.Allocated, r.Reserved, r.Active, r.InactiveSplit, r.NumAllocRetries, r.NumOOMs}
		// A reading of a span (a profiler step) gives its peak apart.
		most = MemoryStatsFigures{max(most.Allocated, f.Allocated, spanPeak(r.PeakAllocated)), max(most.Reserved, f.Reserved, spanPeak(r.PeakReserved)), max(most.Active, f.Active),
			max(most.InactiveSplit, f.InactiveSplit), max(most.NumAllocRetries, f.NumAllocRetries), max(most.NumOOMs, f.NumOOMs)}
		known := func(v, was int64) int64 {
			if v >= 0 {
				return v
			}
			return was
		}
		last = MemoryStatsFigures{known(f.Allocated, last.Allocated), known(f.Reserved, last.Reserved), known(f.Active, last.Active),
			known(f.InactiveSplit, last.InactiveSplit), known(f.NumAllocRetries, last.NumAllocRetries), known(f.NumOOMs, last.NumOOMs)}
	}
	return most, last
}

// spanPeak is a reading's span peak, gpulog.Unknown when it has none (0).
func spanPeak(v int64) int64 {
	if v > 0 {
		return v
	}
	return gpulog.Unknown
}

// matchMemStats joins memory_stats groups to snapshot series: bySeries[i]
// is the group of series[i] (nil when none); the groups that join no
// series are returned apart, in order.
func matchMemStats(series []*Series, groups []*memStatsGroup) (bySeries []*memStatsGroup, unmatched []*memStatsGroup) {
	bySeries = make([]*memStatsGroup, len(series))
	done := make([]bool, len(groups))
	for gi, g := range groups {
		for i, s := range series {
			if bySeries[i] == nil && s.DeviceKey == g.key {
				bySeries[i], done[gi] = g, true
				break
			}
		}
	}
	for gi, g := range groups {
		if done[gi] {
			continue
		}
		cand := -1
		for i, s := range series {
			if bySeries[i] != nil || s.Device != g.key.Device || s.Type != g.key.Type || (s.Rank != input.NoRank && g.key.Rank != input.NoRank) {
				continue
			}
			if cand >= 0 {
				cand = -2
				break
			}
			cand = i
		}
		if cand >= 0 {
			bySeries[cand], done[gi] = g, true
			continue
		}
		unmatched = append(unmatched, g)
	}
	return bySeries, unmatched
}

// memStatsTrends fits the trends of a group's readings: allocated and
// reserved memory where they give them, and the peak allocated memory of
// readings that give nothing else (peakTrend).
func memStatsTrends(ms *MemoryStatsSeries, per units.Per, rules TrendRules) []Trend {
	type pt struct{ x, y float64 }
	var alloc, res []pt
	for i, r := range ms.Readings {
		x := ms.X[i]
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		if r.Allocated >= 0 {
			alloc = append(alloc, pt{x, float64(r.Allocated)})
		}
		if r.Reserved >= 0 {
			res = append(res, pt{x, float64(r.Reserved)})
		}
	}
	split := func(p []pt) ([]float64, []float64) {
		slices.SortStableFunc(p, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
		x, y := make([]float64, len(p)), make([]float64, len(p))
		for i, q := range p {
			x[i], y[i] = q.x, q.y
		}
		return binMedians(x, y, maxMemStatsPoints)
	}
	r := rules
	var out []Trend
	if len(alloc) > 0 {
		x, y := split(alloc)
		r.RefLevel = stats.Median(y)
		t := FitTrend(MetricAllocated, per, x, y, r)
		t.Source = SourceMemoryStats
		out = append(out, t)
	}
	if len(res) > 0 {
		x, y := split(res)
		t := FitTrend(MetricReserved, per, x, y, r)
		t.Source = SourceMemoryStats
		out = append(out, t)
	}
	if t := peakTrend(ms, per, rules); t != nil {
		out = append(out, *t)
	}
	return out
}

// attachMemStats places a group's readings on a snapshot device's axis and
// fits them for comparison with the snapshot trends.
func attachMemStats(d *Device, s *Series, g *memStatsGroup, rules TrendRules) {
	ms := g.ms
	p := seriesPlacer(s, 0)
	for i, r := range ms.Readings {
		if d.Axis == AxisStep && r.Step != input.NoStep {
			ms.X[i] = float64(r.Step)
		} else {
			ms.X[i] = p.At(r.Time)
		}
	}
	ms.Trends = memStatsTrends(ms, d.Axis, rules)
	d.MemoryStats = ms
}

// memStatsDevice places a device made of memory_stats readings that join
// no snapshot series (the devices stage): their axis, the GPU log
// readings of the joined GPU, its capacity and the processes of that
// GPU. note is a clock-offset warning (NoteClockOffsetStats; its Kind is
// "" when none).
func memStatsDevice(g *memStatsGroup, join placement.Join, run *placement.Run, opt Options, rules TrendRules, procs map[int][]*ProcessSeries) (d *Device, note Note) {
	ms := g.ms
	d = &Device{DeviceKey: g.key, Axis: g.axis, MemoryStats: ms}
	if d.Type != CUDA {
		// The GPU logs read CUDA GPUs: none is this device's (no join,
		// devices.go).
		opt.setCapacity(d, run)
		return d, note
	}
	place := memStatsPlacer(g, 0)
	d.GPU = placement.GPUReadings(run.Logs, join.GPU, place)
	if d.GPU != nil {
		d.setJoin(join)
		var stats, gpu []placement.TimedValue
		for _, r := range ms.Readings {
			if !r.Time.IsZero() && r.Reserved >= 0 {
				stats = append(stats, placement.TimedValue{Time: r.Time, Value: r.Reserved})
			}
		}
		// The offset test pairs every reading with the log for 29 shifts;
		// a few hundred evenly spaced readings decide it as well.
		if n := len(stats); n > maxMemStatsPoints {
			thin := make([]placement.TimedValue, 0, maxMemStatsPoints)
			for i := range maxMemStatsPoints {
				thin = append(thin, stats[i*n/maxMemStatsPoints])
			}
			stats = thin
		}
		for i, t := range d.GPU.Times {
			gpu = append(gpu, placement.TimedValue{Time: t, Value: d.GPU.Used[i]})
		}
		if off, ok := placement.DetectClockOffset(stats, gpu); ok {
			note = Note{Kind: NoteClockOffsetStats, Clock: off.Explain(run.Location, d.GPU.Times[0])}
			place.Shift = off.Shift
			d.GPU = placement.GPUReadings(run.Logs, join.GPU, place)
			d.ClockShift = -off.Hours()
		}
	}
	opt.setCapacity(d, run)
	if list := procs[join.GPU]; len(list) > 0 {
		d.Processes = processSet(list, &place, g.axis, rules)
	}
	return d, note
}

// memStatsDeviceTrends fits the trends of a device made of memory_stats
// readings (the trends stage): its allocated and reserved memory, its
// GPU's used memory, and their projections against its capacity.
func memStatsDeviceTrends(d *Device, g *memStatsGroup, rules TrendRules, runs float64) {
	ms, per := g.ms, g.axis
	if per == AxisStep {
		d.HoursPerStep, d.PaceSpanHours = memStatsHoursPerStep(ms)
	}
	ms.Trends = memStatsTrends(ms, per, rules)
	d.Trends = slices.Clone(ms.Trends)
	dr := rules
	var alloc []float64
	for _, r := range ms.Readings {
		if r.Allocated >= 0 {
			alloc = append(alloc, float64(r.Allocated))
		}
	}
	if len(alloc) > 0 {
		dr.RefLevel = stats.Median(alloc)
	}
	if ut := gpuTrend(d, per, dr); ut != nil {
		d.Trends = append(d.Trends, *ut)
	}
	projectMemStats(d, g, runs)
}

// projectMemStats projects a memory_stats device's growing trends against
// its capacity, as analyzeDevice does for snapshot devices (without the
// memory outside the allocator, which needs snapshot times to measure).
func projectMemStats(d *Device, g *memStatsGroup, runs float64) {
	x0, x1, ok := finiteRange(d.MemoryStats.X)
	if d.Capacity <= 0 || !ok || x1 <= x0 {
		return
	}
	for i := range d.Trends {
		t := &d.Trends[i]
		lastX := x1
		if t.Metric == MetricGPUUsed && d.GPU != nil && len(d.GPU.X) > 0 && !math.IsNaN(d.GPU.X[len(d.GPU.X)-1]) {
			lastX = math.Max(lastX, d.GPU.X[len(d.GPU.X)-1])
		}
		t.Projection = Project(t, float64(d.Capacity), lastX, x1-x0, d.hoursPerX(t.Per), runs)
	}
}

// finiteRange returns the first and last finite values of x.
func finiteRange(x []float64) (first, last float64, ok bool) {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if !ok {
			first, ok = v, true
		}
		last = v
	}
	return first, last, ok
}

// memStatsVerdict raises the verdict's flags from memory_stats readings
// (called by decideVerdict for each device, with its leak lf): a leak
// when a device without snapshots has a growing allocated trend
// (leakMemoryStats), an OOM for each rise of num_ooms
// on a device where the snapshots explain none. It returns how many OOMs
// it counted, how many of those the process went on from
// (MemoryStatsOOM.Handled), and whether it raised the leak flag.
func memStatsVerdict(f *Findings, d *Device, lf leakFact) (ooms, handled int64, leak bool) {
	ms := d.MemoryStats
	if ms == nil {
		return 0, 0, false
	}
	v := &f.Verdict
	if lf.kind == leakMemoryStats {
		leak = true
		v.Reasons = append(v.Reasons, Reason{Kind: ReasonStatsLeak, Device: d.DeviceKey})
	}
	if hasSnapshotOOM(f, d.DeviceKey) {
		return 0, 0, leak
	}
	for i, o := range ms.OOMs {
		ooms += o.After - o.Before
		if o.Handled {
			handled += o.After - o.Before
		}
		v.Reasons = append(v.Reasons, Reason{Kind: ReasonStatsOOM, Device: d.DeviceKey, Index: i})
	}
	return ooms, handled, leak
}

// statsTrend returns the memory_stats trend of metric, nil when none.
func statsTrend(ms *MemoryStatsSeries, metric string) *Trend {
	for i := range ms.Trends {
		if ms.Trends[i].Metric == metric {
			return &ms.Trends[i]
		}
	}
	return nil
}
