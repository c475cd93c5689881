package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"gpureport/analyze/roles"
	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/placement"
)

// The devices stage: a device for each snapshot series, for each group of
// memory_stats readings that joins no series, in a run without snapshots
// for each GPU of the logs (a GPU whose logs give only its used share
// too: shares.go), for each MIG device of the logs (mig.go), and for
// each rank's pinned host memory (a series of its own, with no GPU and no
// capacity). Each CUDA device gets the GPU log readings of the GPU it
// joins (placement.JoinGPUs), moved by a whole-hour clock offset when the
// log's clock differs (placement.DetectClockOffset), the processes of
// that GPU (each GPU's on the first device that joins it) and its
// capacity. The notes of the join (a clock offset, a guessed or ambiguous
// join) are added device by device.

// deviceRun is one device through the stages: the device, what it is made
// of, and what each stage leaves for the next.
type deviceRun struct {
	d *Device
	// s is its snapshot series, nil for a device without snapshots; ms its
	// memory_stats readings that join no series, nil otherwise.
	s  *Series
	ms *memStatsGroup
	// fit is what the trends stage measured; ac the attribution's context;
	// ooms the OOMs its snapshots record.
	fit  trendFit
	ac   attributionContext
	ooms []OOM
	// roles are the roles of each snapshot, and last those of the last
	// snapshot's blocks, from pointRoles to joinRoles.
	roles []roles.Breakdown
	last  lastRoles
	// points are what the fragmentation stage measured of each snapshot
	// file for its point entry (keepPointEntries).
	points []pointMeasure
	// turned are the stack groups whose live bytes grow in blocks that
	// turn over (bounded containers), from attribution to
	// boundProjections.
	turned []container
}

// devices makes the run's devices from its series, memory_stats readings
// and GPU logs (stage 2), and adds them to the Findings in that order.
func (a *analysis) devices(all []*Series) []*deviceRun {
	run, f := a.in, a.f
	// Pinned host memory joins no GPU and no memory_stats readings: its
	// devices come after the CUDA devices, each its series alone.
	var series, host []*Series
	for _, s := range all {
		if s.Host {
			host = append(host, s)
		} else {
			series = append(series, s)
		}
	}
	groups, msNotes := collectMemStats(run)
	for _, n := range msNotes {
		f.addNote(n)
	}
	msBySeries, msOnly := matchMemStats(series, groups)
	procs := collectProcesses(run.Logs)
	// Devices without snapshots but with memory_stats readings join the GPU
	// logs by the same rule as snapshot series, decided over both.
	joinIns := make([]placement.JoinInput, 0, len(series)+len(msOnly))
	for i, s := range series {
		joinIns = append(joinIns, seriesJoinInput(s, msBySeries[i]))
	}
	// A device of another type than CUDA joins no GPU of the logs, which
	// read CUDA GPUs (nvidia-smi, rocm-smi under ROCm's PyTorch), and
	// takes no part in the join, where it would claim one.
	joinAt := make([]int, len(msOnly))
	for j, g := range msOnly {
		joinAt[j] = -1
		if g.key.Type == CUDA {
			joinAt[j] = len(joinIns)
			joinIns = append(joinIns, memStatsJoinInput(g))
		}
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
	var out []*deviceRun
	joinNotes := func(d *Device, join placement.Join, clock Note) {
		f.Devices = append(f.Devices, d)
		if clock.Kind != "" {
			f.addNote(clock)
		}
		if join.Guess && join.Method == placement.JoinByRank {
			f.addRankJoinNote(d)
		}
		if d.GPUJoin != nil && len(d.GPUJoin.Ambiguous) > 0 {
			f.addNote(Note{Kind: NoteJoinAmbiguous, Device: d.DeviceKey})
		}
	}
	for i, s := range series {
		d, note := snapshotDevice(s, run, joins[i], a.opt, a.rules, unclaimed(joins[i].GPU))
		out = append(out, &deviceRun{d: d, s: s, ms: msBySeries[i]})
		joinNotes(d, joins[i], note)
	}
	gpuClaimed := map[int]bool{}
	for j, g := range msOnly {
		if joinAt[j] < 0 {
			d, note := memStatsDevice(g, placement.Join{GPU: -1}, run, a.opt, a.rules, nil)
			out = append(out, &deviceRun{d: d, ms: g})
			joinNotes(d, placement.Join{GPU: -1}, note)
			continue
		}
		join := joins[joinAt[j]]
		d, note := memStatsDevice(g, join, run, a.opt, a.rules, unclaimed(join.GPU))
		if d.GPU != nil {
			gpuClaimed[join.GPU] = true
		}
		out = append(out, &deviceRun{d: d, ms: g})
		joinNotes(d, join, note)
	}
	var logOnly []*Device
	if len(series) > 0 {
		a.unjoinedGPUNotes(joins)
	} else {
		logOnly = gpuOnlyDevices(run.Logs, a.opt, a.rules, gpuClaimed, procClaimed, procs)
		logOnly = append(logOnly, shareDevices(run.Logs, append(f.Devices[:len(f.Devices):len(f.Devices)], logOnly...))...)
	}
	migs := migDevices(run.Logs, a.opt, a.rules)
	for _, d := range append(logOnly, migs...) {
		out = append(out, &deviceRun{d: d})
		f.Devices = append(f.Devices, d)
	}
	if len(migs) > 0 && len(series)+len(msOnly) > 0 {
		f.addNote(Note{Kind: NoteMIGApart, Device: migs[0].DeviceKey, Count: len(migs)})
	}
	for _, s := range host {
		d := &Device{DeviceKey: s.DeviceKey, Order: s.Order, Axis: s.Axis, StepsPerEpoch: s.StepsPerEpoch, Points: s.Points}
		out = append(out, &deviceRun{d: d, s: s})
		f.Devices = append(f.Devices, d)
	}
	f.OtherProcesses = otherProcesses(procs, procClaimed, a.rules)
	if op := f.OtherProcesses; op != nil && len(series) == 0 && len(msOnly) == 0 {
		// A run known only from GPU logs: its processes of no device
		// (a compute-apps CSV naming GPUs by UUID, pmon's rows without
		// GPU readings) are all it shows of its memory.
		op.Decides = true
		processCapacities(op, run.Logs, a.opt)
	}
	// Every device is made: each training-log OOM message is placed on
	// its device, once for all that read it (logOOM).
	a.logOOMs = placeLogOOMs(run.Logs, run.LogRank, f.Devices)
	lastResortCapacities(out, a.logOOMs, run.Logs, f.Devices)
	for _, dr := range out {
		if dr.ms != nil {
			countLoggedOOMs(dr.d, dr.ms, a.logOOMs)
		}
	}
	return out
}

// unjoinedGPUNotes notes each GPU of the logs that no device joined
// (joins) and whose used memory grows over hours: with snapshots
// from some ranks only, the others' GPUs are in the logs but in no
// device, and their growth would go unsaid. It is a note, not a device or
// a verdict, since a GPU log of a shared machine also shows other jobs'
// GPUs. A MIG instance's readings are not the parent GPU's (migDevices).
func (a *analysis) unjoinedGPUNotes(joins []placement.Join) {
	joined := map[int]bool{}
	for _, j := range joins {
		if j.GPU >= 0 {
			joined[j.GPU] = true
		}
	}
	for _, d := range gpuOnlyDevices(a.in.Logs, a.opt, a.rules, joined, map[int]bool{}, nil) {
		if d.Axis != AxisHours {
			continue
		}
		if t := gpuTrend(d, "hour", a.rules); t != nil && t.State == StateGrowing {
			a.f.addNote(Note{Kind: NoteUnjoinedGPUGrows, Device: d.DeviceKey, Trend: t})
		}
	}
}

// snapshotDevice places the device of one snapshot series: the GPU
// readings of the GPU it joins, on its axis (moved by a clock offset the
// snapshots show), the processes of that GPU (procs by GPU index, nil when
// another device shows them) and its capacity. note is a clock-offset
// warning for Findings.Notes (NoteClockOffset; its Kind is "" when none).
func snapshotDevice(s *Series, run *placement.Run, join placement.Join, opt Options, rules TrendRules, procs map[int][]*ProcessSeries) (d *Device, note Note) {
	d = &Device{DeviceKey: s.DeviceKey, Order: s.Order, Axis: s.Axis, StepsPerEpoch: s.StepsPerEpoch, Points: s.Points}
	d.GPU = JoinGPU(s, run.Logs, join.GPU)
	var shift time.Duration
	if d.GPU != nil {
		d.setJoin(join)
		if off, ok := detectClockOffset(d); ok {
			note = Note{Kind: NoteClockOffset, Clock: off.Explain(run.Location, d.GPU.Times[0])}
			shift = off.Shift
			d.GPU = placement.GPUReadings(run.Logs, join.GPU, seriesPlacer(s, off.Shift))
			d.ClockShift = -off.Hours()
		}
	}
	if list := procs[join.GPU]; len(list) > 0 {
		p := seriesPlacer(s, shift)
		d.Processes = processSet(list, &p, s.Axis, rules)
	}
	opt.setCapacity(d, run)
	return d, note
}

// setJoin records on d the join that chose its GPU readings.
func (d *Device) setJoin(j placement.Join) {
	d.GPUJoin = &j
	d.GPUIndex, d.GPUJoinMethod, d.GPUJoinAmbiguous = j.GPU, j.Method, len(j.Ambiguous) > 0
}

// setCapacity sets a device's capacity and where it came from: the
// user's --capacity, which overrides a GPU log's memory.total, else the
// memory.total of the GPU readings joined to it, else the device memory
// a capture manifest of run gives (run nil: none), else the
// totalGlobalMem of a torch.profiler trace whose readings make the device
// (traceCapacity). The last resorts, the
// total capacity an OOM message gives and then the capacity a training
// framework printed at start, wait for every device to be made
// (lastResortCapacities).
func (o Options) setCapacity(d *Device, run *placement.Run) {
	switch {
	case o.Capacity > 0:
		d.Capacity = o.Capacity
		d.CapacitySource = CapacitySource{Option: cmp.Or(o.CapacitySource, "--capacity")}
		if g := d.GPU; g != nil && g.Total > 0 && g.Total != o.Capacity {
			d.CapacitySource.Overrides = g.Total
		}
	case d.GPU != nil && d.GPU.Total > 0:
		d.Capacity = d.GPU.Total
	case run != nil:
		if m, ok := run.ManifestMemory(d.DeviceKey); ok {
			d.Capacity, d.CapacitySource = m.Total, CapacitySource{Manifest: m.Source}
		} else if c, src, ok := traceCapacity(d, run.Logs); ok {
			d.Capacity, d.CapacitySource = c, CapacitySource{Trace: src}
		}
	}
}

// lastResortCapacities gives each device of snapshots or memory_stats
// readings (devs) that no option, GPU log, manifest or trace gave a
// capacity the total capacity an OOM message on it gives
// (oomMessageCapacity), else the capacity a training framework printed
// for it (frameworkCapacity: rounded to 0.01 GiB, so an OOM message's
// exact figure is preferred). It runs once the run's devices are made and
// its OOM messages placed on them (placed): which device a message is on
// depends on all of them (messageDevice). A device known only from GPU
// logs is left as it is: its readings' total is its capacity.
func lastResortCapacities(devs []*deviceRun, placed []logOOM, logs []*gpulog.GPULog, devices []*Device) {
	for _, dr := range devs {
		d := dr.d
		if dr.s == nil && dr.ms == nil || d.Host || d.Capacity != 0 || d.CapacitySource != (CapacitySource{}) {
			continue
		}
		if c, src, ok := oomMessageCapacity(placed, d, devices); ok {
			d.Capacity, d.CapacitySource = c, CapacitySource{OOMMessage: src}
		} else if c, src, ok := frameworkCapacity(logs, d.DeviceKey); ok {
			d.Capacity, d.CapacitySource = c, CapacitySource{Framework: src}
		}
	}
}

// traceCapacity is the totalGlobalMem that a torch.profiler trace
// whose readings make device d gives its device (the trace's
// deviceProperties, GPU.MemoryTotal), and the trace's path: the device's
// own figure, exact, unlike an OOM message's rounded one.
func traceCapacity(d *Device, logs []*gpulog.GPULog) (int64, string, bool) {
	if d.MemoryStats == nil {
		return 0, "", false
	}
	for _, l := range logs {
		if l.Format != gpulog.FormatKinetoTrace || !slices.Contains(d.MemoryStats.Sources, l.Path) {
			continue
		}
		for _, g := range l.GPUs {
			if g.Index == d.Device && g.MemoryTotal > 0 {
				return g.MemoryTotal, l.Path, true
			}
		}
	}
	return 0, "", false
}

// oomMessageCapacity is the total capacity a training log's OOM message
// on device d gives ("GPU 0 has a total capacity of 79.15 GiB"), and where
// (the log's path and line): of the run's messages, placed on their
// devices (placeLogOOMs), the first on d alone (logOOM.onlyOn: devices
// are the run's), one of d's exact rank before one without a rank. A
// message without a rank whose device number several ranks' devices
// share gives none of them its capacity: it was one process's, on one
// machine, and which one the message does not say. PyTorch prints it to
// two decimals of its unit, so it is the device's memory within a few
// MiB: close enough to project against.
func oomMessageCapacity(placed []logOOM, d *Device, devices []*Device) (int64, string, bool) {
	var best *logOOM
	for i := range placed {
		p := &placed[i]
		if p.m.Capacity <= 0 || !p.onlyOn(d, devices) {
			continue
		}
		if best == nil || best.key.Rank != d.Rank && p.key.Rank == d.Rank {
			best = p
		}
	}
	if best == nil {
		return 0, "", false
	}
	return best.m.Capacity, fmt.Sprintf("%s line %d", best.path, best.m.Line), true
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

// gpuOnlyDevices makes a device per GPU of the logs when the run has no
// snapshots: its GPU readings, capacity and the GPU's processes unless
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
// the reading axis, with its per-reading trend) and its capacity, and the
// series that places its readings; nil when the logs hold no memory
// reading of it.
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
	opt.setCapacity(d, nil)
	return d, s
}
