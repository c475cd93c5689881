package analyze

import (
	"cmp"
	"slices"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
)

// GPU-log readings without times, and OOM messages of training logs.
//
// A GPU whose readings mostly have no time (a log the reader left in
// reading order: gpulog.TimingOrder) is shown on the reading-index axis:
// its readings in file order (logs in path order), numbered 0, 1, 2, ...,
// so that its readings, maximum used and total are reported even with
// one reading. Its trend, with enough readings, is per reading. When
// every one of its readings has a training step (gpulog.TimingSteps: a
// CSV logger's metrics with a step column), the step is the axis instead
// and the trend is per step.
//
// An OOM message in a training log becomes an OOM finding with the
// message's numbers, on the device decided for it once per run (logOOM),
// of the device type its backend names (an XPU's message on xpu:N, never
// on the run's cuda:N),
// unless a snapshot already explains an OOM on the same device. Its class follows the design's order where the numbers
// allow: limit when the device's free memory alone was at least the
// request (oomlimit.go), fragmentation when device free plus PyTorch's
// reserved-but-unallocated memory was at least the request (contiguous
// free memory would have served it), else capacity; "unknown" when the
// message gives no free memory (NCCL, raw CUDA errors, XPU builds that
// print none), no reserved memory (a message cut short; limit is still
// told from free memory alone), or a request of 0 bytes. An MPS message gives no free memory but a watermark: its
// OOM is capacity (mpsOOM). A leak cannot be told from a message alone
// (blameTrainingLeaks uses the snapshots).

// readingOrderGPU reports whether GPU gpu's memory readings are better
// placed by reading order: more of them lack a time (logs with
// gpulog.TimingOrder) than have one.
func readingOrderGPU(logs []*gpulog.GPULog, gpu int) bool {
	return readingOrder(logs, func(s *gpulog.GPUSample) bool { return s.GPU == gpu && s.MemoryUsed >= 0 })
}

// readingOrder reports whether the readings of logs that keep selects are
// better placed by reading order: more of them lack a time (or come from
// logs with gpulog.TimingOrder) than have one.
func readingOrder(logs []*gpulog.GPULog, keep func(s *gpulog.GPUSample) bool) bool {
	timed, untimed := 0, 0
	for _, l := range logs {
		for i := range l.Samples {
			s := &l.Samples[i]
			if !keep(s) {
				continue
			}
			if s.Time.IsZero() || l.Timing == gpulog.TimingOrder {
				untimed++
			} else {
				timed++
			}
		}
	}
	return untimed > 0 && untimed >= timed
}

// joinGPUByReading collects GPU gpu's memory readings in file order on
// the reading-index axis.
func joinGPUByReading(logs []*gpulog.GPULog, gpu int) *GPUSeries {
	g := &GPUSeries{}
	for _, l := range logs {
		n := 0
		for _, s := range l.Samples {
			if s.GPU != gpu || s.MemoryUsed < 0 {
				continue
			}
			g.X = append(g.X, float64(len(g.Used)))
			g.Times = append(g.Times, s.Time)
			g.Used = append(g.Used, s.MemoryUsed)
			g.MaxUsed = max(g.MaxUsed, s.MemoryUsed)
			g.Total = max(g.Total, s.MemoryTotal)
			n++
		}
		if n > 0 {
			g.Sources = append(g.Sources, l.Path)
		}
	}
	if len(g.Used) == 0 {
		return nil
	}
	g.Tool = placement.ToolOf(logs, g.Sources)
	return g
}

// byReadingDevice fills a GPU-only device whose readings lack times: the
// step axis when every one of its readings has a training step (a CSV
// logger's step column), else the reading-index axis, and a trend per
// step or per reading when there are enough readings for one. It returns
// false when the GPU's readings have times enough for the hours axis.
func byReadingDevice(d *Device, logs []*gpulog.GPULog, gpu int, rules TrendRules) bool {
	if !readingOrderGPU(logs, gpu) {
		return false
	}
	d.Axis = AxisReading
	if g := joinGPUByStep(logs, gpu); g != nil {
		d.Axis, d.GPU = AxisStep, g
	} else {
		d.GPU = joinGPUByReading(logs, gpu)
	}
	if d.GPU != nil && len(d.GPU.Used) >= rules.MinPoints {
		if t := gpuTrend(d, d.Axis, rules); t != nil {
			d.Trends = append(d.Trends, *t)
		}
	}
	return true
}

// joinGPUByStep collects GPU gpu's memory readings on the step axis, in
// step order (a reading's x is its step); nil unless every reading has a
// step and they span two steps or more.
func joinGPUByStep(logs []*gpulog.GPULog, gpu int) *GPUSeries {
	type reading struct {
		step        int64
		t           time.Time
		used, total int64
	}
	var rs []reading
	var sources []string
	for _, l := range logs {
		n := 0
		for _, s := range l.Samples {
			if s.GPU != gpu || s.MemoryUsed < 0 {
				continue
			}
			if !s.HasStep {
				return nil
			}
			rs = append(rs, reading{s.Step, s.Time, s.MemoryUsed, s.MemoryTotal})
			n++
		}
		if n > 0 {
			sources = append(sources, l.Path)
		}
	}
	if len(rs) == 0 || !slices.ContainsFunc(rs, func(r reading) bool { return r.step != rs[0].step }) {
		return nil
	}
	slices.SortStableFunc(rs, func(a, b reading) int { return cmp.Compare(a.step, b.step) })
	g := &GPUSeries{Sources: sources}
	for _, r := range rs {
		g.X = append(g.X, float64(r.step))
		g.Times = append(g.Times, r.t)
		g.Used = append(g.Used, r.used)
		g.MaxUsed = max(g.MaxUsed, r.used)
		g.Total = max(g.Total, r.total)
	}
	g.Tool = placement.ToolOf(logs, g.Sources)
	return g
}

// logOOM is one OOM message of a training log and the device of the run
// it happened on. Which device that is is decided once per run
// (placeLogOOMs, at the end of the devices stage, once every device is
// made) and read by all that place a message on a device: the OOM
// findings (trainingLogOOMs), the capacity a message gives a device
// (oomMessageCapacity) and the OOMs a memory_stats device's log prints
// (countLoggedOOMs). Deciding it in each of them made them disagree: a
// rank's log whose lines have no rank prefix gave its OOM to no rank but
// its count to the path's rank, and a message printing an nvidia-smi
// index gave its OOM to the process's device but its capacity to none.
type logOOM struct {
	path string
	m    *gpulog.TrainingOOM
	// key is where it happened: the rank of the message's line, else of
	// its log's path (placement.Run.LogRank), input.NoRank when neither
	// gives one; and the device messageDevice decides, of the type the
	// message's backend names.
	key DeviceKey
	// repeats are the other logs that hold a copy of the message
	// (distinctLoggedOOMs), in path order.
	repeats []string
	// lines is the message's line in each log that holds it, path and
	// repeats alike: a consumer of one log's lines (countLoggedOOMs)
	// finds the event in whichever copy that log holds.
	lines map[string]int
}

// lineIn is the line of the message in the log at path, false when that
// log holds no copy of it.
func (o logOOM) lineIn(path string) (int, bool) {
	if path == o.path {
		return o.m.Line, true
	}
	l, ok := o.lines[path]
	return l, ok
}

// on reports whether the OOM happened on device d: a device of its rank
// (of any rank when it has none) with its device type and number. Pinned
// host memory is no device an OOM message names, and a message of pinned
// host memory running out (gpulog.TrainingOOM.PinnedHost) is on no
// device: the device's memory did not run out.
func (o logOOM) on(d *Device) bool {
	return !d.Host && (o.m == nil || !o.m.PinnedHost) && sameProcess(o.key, d.DeviceKey) && o.key.Device == d.Device && o.key.Type == d.Type
}

// onlyOn reports whether the OOM happened on device d and on no other
// device of the run (devices) it may be on: its rank is d's, or no other
// device has its device number and a process it may be (sameProcess). A message
// without a rank in a run of several processes each on its cuda:0 is on
// each of them as far as on tells, and on none of them alone.
func (o logOOM) onlyOn(d *Device, devices []*Device) bool {
	if !o.on(d) {
		return false
	}
	if surelySameProcess(o.key, d.DeviceKey) {
		return true
	}
	for _, e := range devices {
		if e != d && o.on(e) {
			return false
		}
	}
	return true
}

// placeLogOOMs decides the device of each OOM message of the training logs
// (logOOM), in log order: logRank gives a log's rank from its path, for
// lines without a rank; devices are the run's devices (messageDevice). A
// message that other files copy is one logOOM, naming them
// (distinctLoggedOOMs), so that no consumer counts a copy again.
func placeLogOOMs(logs []*gpulog.GPULog, logRank func(*gpulog.GPULog) int, devices []*Device) []logOOM {
	var out []logOOM
	onMachine := machineGPUs(logs)
	for _, l := range logs {
		pathRank := logRank(l)
		for i := range l.OOMs {
			m := &l.OOMs[i]
			rank, pid := processRank(m.Rank, pathRank, runOfRank(pathRank, devices)), 0
			if m.Rank == input.NoRank {
				pid = folderPID(rank, devices)
			}
			if p := messagePID(l.Path, m, devices); p > 0 {
				rank, pid = pidRank(p, devices), p
			}
			key, ok := machineDevice(onMachine, m, rank, pid, devices)
			if !ok {
				key, ok = visibleDevice(l, m, rank, devices)
			}
			if !ok {
				key = messageDevice(placement.ParseDeviceType(m.DeviceType()), m.Device, rank, pid, devices)
			}
			if key.Run.N == 0 {
				key.Run = runOfRank(key.Rank, devices)
			}
			out = append(out, logOOM{path: l.Path, m: m, key: key, lines: map[string]int{l.Path: m.Line}})
		}
	}
	return distinctLoggedOOMs(out)
}

// machineGPU is a GPU of one machine of a log that holds several
// machines' GPUs (gpulog.GPU.Machine): its machine and its index there.
type machineGPU struct {
	machine string
	index   int
}

// machineGPUs maps each GPU of the logs that holds several machines' GPUs
// to its index in the log (numbered across the machines).
func machineGPUs(logs []*gpulog.GPULog) map[machineGPU]int {
	var out map[machineGPU]int
	for _, l := range logs {
		for _, g := range l.GPUs {
			if g.Machine == "" || g.Index < 0 {
				continue
			}
			if out == nil {
				out = map[machineGPU]int{}
			}
			out[machineGPU{g.Machine, g.MachineIndex}] = g.Index
		}
	}
	return out
}

// visibleDevice is the device of OOM message m of rank rank, in log l,
// when l printed the process's CUDA_VISIBLE_DEVICES before the message
// (the latest setting of the rank, or of no rank, before its line;
// gpulog.VisibleDevices) and the run's CUDA devices of that rank are all
// known only from GPU readings, numbered by nvidia-smi index (byGPUIndex).
// PyTorch's "GPU 0" is the process's CUDA device 0, physical GPU
// GPUs[0]; a message naming no device is on CUDA device 0 too. A number
// past the list is no CUDA device of the process: a wrapper's nvidia-smi
// index, left to messageDevice. ok is false when the log says no mapping,
// a device of the rank has the process's own numbering (a snapshot's or
// memory_stats' device: messageDevice's number is then right), or no
// device reads the GPU the mapping names.
func visibleDevice(l *gpulog.GPULog, m *gpulog.TrainingOOM, rank int, devices []*Device) (DeviceKey, bool) {
	typ := placement.ParseDeviceType(m.DeviceType())
	if typ != placement.CUDA || len(l.VisibleDevices) == 0 {
		return DeviceKey{}, false
	}
	var gpus []int
	for _, v := range l.VisibleDevices {
		if v.Line < m.Line && sameRank(v.Rank, rank) {
			gpus = v.GPUs
		}
	}
	cuda := max(m.Device, 0)
	if cuda >= len(gpus) {
		return DeviceKey{}, false
	}
	var found *Device
	for _, d := range devices {
		if d.Host || d.Type != typ || !sameRank(d.Rank, rank) {
			continue
		}
		if !d.byGPUIndex() {
			return DeviceKey{}, false
		}
		if d.GPUIndex == gpus[cuda] && d.MIG == "" {
			found = d
		}
	}
	if found == nil {
		return DeviceKey{}, false
	}
	return DeviceKey{Rank: rank, Device: found.Device, Type: typ}, true
}

// byGPUIndex reports whether d is known only from a GPU's readings (a GPU
// log's, or its used share), numbered by the GPU's nvidia-smi index, not
// by a process's CUDA device number.
func (d *Device) byGPUIndex() bool {
	return d.GPUJoin == nil && d.GPUJoinMethod == placement.JoinByIndex && len(d.Points) == 0
}

// machineDevice is the device of OOM message m of rank rank when a launcher
// labelled it with its machine (gpulog.TrainingOOM.Machine) and a GPU log
// labelled alike holds that machine's GPUs (onMachine): the one device of
// the rank joined to that machine's GPU of the message's number. Its
// device number alone would name the first machine's GPU of that number
// (each machine numbers its GPUs from 0). ok is false when no one device
// is.
func machineDevice(onMachine map[machineGPU]int, m *gpulog.TrainingOOM, rank, pid int, devices []*Device) (DeviceKey, bool) {
	idx, ok := onMachine[machineGPU{m.Machine, max(m.Device, 0)}]
	if !ok || m.Machine == "" || placement.ParseDeviceType(m.DeviceType()) != placement.CUDA {
		return DeviceKey{}, false
	}
	var found *Device
	for _, d := range devices {
		if d.Host || d.GPU == nil || d.GPUIndex != idx || !sameProcess(DeviceKey{Rank: rank, PID: pid}, d.DeviceKey) {
			continue
		}
		if found != nil {
			return DeviceKey{}, false
		}
		found = d
	}
	if found == nil {
		return DeviceKey{}, false
	}
	if rank == input.NoRank || found.PID > 0 {
		return DeviceKey{Rank: found.Rank, Device: found.Device, Type: found.Type, PID: found.PID}, true
	}
	return DeviceKey{Rank: rank, Device: found.Device, Type: found.Type}, true
}

// fatalLogOOMs applies the training logs' evidence of death to the OOMs
// the snapshots explain (known): a message the log shows the process died
// of (gpulog.TrainingOOM.Fatal) is one of the known OOMs it is covered by
// (trainingLogOOMs' test), which is then not Handled, whatever its trace
// shows after it. Of several it may be, it is the one of the same request
// (sameRequest) when there is one, and of those the latest: a process dies
// of its last OOM, so none of its OOMs comes after the fatal one.
func fatalLogOOMs(placed []logOOM, known []OOM) {
	for _, p := range placed {
		m := p.m
		if !m.Fatal {
			continue
		}
		best, bestSame := -1, false
		for i := range known {
			k := &known[i]
			if !coveredBy(p, k) {
				continue
			}
			same := sameRequest(m.Requested, m.RequestedSlack, k.Requested)
			switch {
			case best < 0, same && !bestSame:
			case same == bestSame && !k.Time.Before(known[best].Time):
			default:
				continue
			}
			best, bestSame = i, same
		}
		if best >= 0 {
			known[best].Handled = false
		}
	}
}

// coveredBy reports whether the OOM message p is the OOM k a snapshot
// explains (trainingLogOOMs).
func coveredBy(p logOOM, k *OOM) bool {
	// The same failed request is the same OOM even when the message
	// numbers the GPU otherwise than the snapshot (a physical index
	// beside cuda:N).
	return k.Type == p.key.Type && sameProcess(k.Key(), p.key) && (k.Device == p.key.Device || sameRequest(p.m.Requested, p.m.RequestedSlack, k.Requested))
}

// trainingLogOOMs makes OOM findings of the training logs' OOM messages,
// placed on their devices (placeLogOOMs). known are the OOMs the snapshots
// explain; a message one of them covers (same rank when both know it, and
// the same device or the same requested bytes) is left out. devices are
// the run's devices; capacity is the device memory the run knows (0:
// unknown).
func trainingLogOOMs(placed []logOOM, known []OOM, devices []*Device, capacity int64) []OOM {
	var out []OOM
	for _, p := range placed {
		m := p.m
		if slices.ContainsFunc(known, func(k OOM) bool { return coveredBy(p, &k) }) {
			continue
		}
		o := trainingOOM(p.path, *m, p.key, capacity, expandableOn(devices, p))
		o.RepeatedIn, o.Handled = p.repeats, m.Handled
		out = append(out, o)
	}
	return out
}

// expandableOn reports whether the run's snapshots show the device of
// OOM message p using expandable segments (Fragmentation.Expandable): a
// training log's OOM message does not say.
func expandableOn(devices []*Device, p logOOM) bool {
	for _, d := range devices {
		if p.on(d) && d.Fragmentation != nil && d.Fragmentation.Expandable {
			return true
		}
	}
	return false
}

// processRank is the number of the process that a log line of rank
// lineRank (input.NoRank: the line gives none) is of, in a log whose path
// gives pathRank (placement.Run.LogRank) of separate run pathRun (the
// zero value when pathRank numbers none): lineRank, else pathRank. A log
// in the folder of a separate run of the script (placement numbered the
// run apart from the job's ranks: a sweep's experiment, a run started
// over) is that run's, when the line's rank is the run's job rank or the
// run has none (a single-process script's "rank 0"): numbered by the
// line's rank alone, it would land on the first run's device.
func processRank(lineRank, pathRank int, pathRun ingest.ScriptRun) int {
	switch {
	case lineRank == input.NoRank:
		return pathRank
	case pathRun.N > 0 && (pathRun.Rank == input.NoRank || pathRun.Rank == lineRank):
		return pathRank
	}
	return lineRank
}

// runOfRank is the separate run of the script placement numbered rank
// (DeviceKey.Run), as the run's devices carry it; the zero value when
// rank numbers none.
func runOfRank(rank int, devices []*Device) ingest.ScriptRun {
	if rank == input.NoRank {
		return ingest.ScriptRun{}
	}
	for _, d := range devices {
		if d.Rank == rank && d.Run.N > 0 {
			return d.Run
		}
	}
	return ingest.ScriptRun{}
}

// sameRank reports whether two ranks may be the same process's: equal,
// or one of them unknown (input.NoRank: no rank in the paths or the log
// line).
func sameRank(a, b int) bool {
	return a == b || a == input.NoRank || b == input.NoRank
}

// A process the snapshot paths tell apart by its pid alone
// (DeviceKey.PID: snapshot_pid4242_step5.pickle) has a Rank that numbers
// it in path order, no rank of the job: a training log's "rank 0" or
// "GPU 0" says nothing of which pid it was, and matched by that number
// an OOM of the log went to whichever pid sorted first. Only evidence of
// the process places an event on such a device: its pid (the log's path
// names it, or the message lists it as this process: messagePID), the
// folder that holds its dumps alone (folderPID), or its GPU (the
// nvidia-smi index its device is joined to, messageDevice); else it may
// be any of them, and placed on none alone.

// sameProcess reports whether a and b may be one process's: the same pid
// when both have one; either unknown when one has a pid (the other's
// rank is no evidence against a path-order number); else sameRank.
func sameProcess(a, b DeviceKey) bool {
	switch {
	case a.PID > 0 && b.PID > 0:
		return a.PID == b.PID
	case a.PID > 0 || b.PID > 0:
		return true
	}
	return sameRank(a.Rank, b.Rank)
}

// surelySameProcess reports whether a and b are known to be one
// process's: the same pid, or (neither having one) the same known rank.
func surelySameProcess(a, b DeviceKey) bool {
	if a.PID > 0 || b.PID > 0 {
		return a.PID == b.PID
	}
	return a.Rank != input.NoRank && a.Rank == b.Rank
}

// messagePID is the pid of a device of the run that the OOM message m of
// the log at path names as its process: the pid the log's path names
// (placement.PathPID: train_pid4242.log), else the pid the message lists
// as this process (gpulog.TrainingOOM.ListedSelfPID); 0 when neither is a
// device's pid.
func messagePID(path string, m *gpulog.TrainingOOM, devices []*Device) int {
	for _, p := range []int{placement.PathPID(path), m.ListedSelfPID} {
		if p > 0 && slices.ContainsFunc(devices, func(d *Device) bool { return d.PID == p }) {
			return p
		}
	}
	return 0
}

// folderPID is the pid of the process whose rank folder a log's path rank
// (placement.Run.LogRank) is, when the devices of that path-order number
// are a pid's alone; 0 otherwise.
func folderPID(rank int, devices []*Device) int {
	pid := 0
	for _, d := range devices {
		if d.Rank != rank || rank == input.NoRank {
			continue
		}
		if d.PID == 0 || pid > 0 && d.PID != pid {
			return 0
		}
		pid = d.PID
	}
	return pid
}

// pidRank is the path-order number of the devices of pid.
func pidRank(pid int, devices []*Device) int {
	for _, d := range devices {
		if d.PID == pid {
			return d.Rank
		}
	}
	return input.NoRank
}

// messageDevice is the device of type typ of the run that an OOM message
// of rank rank (input.NoRank: unknown) means by "GPU gpu" (-1: it names
// none), with the message's rank; only devices of that type are looked
// at, so an XPU message is never placed on a CUDA device of the same
// number (the run's other devices). PyTorch prints the process's own device number,
// but a wrapper or an older build may print the nvidia-smi index, which
// CUDA_VISIBLE_DEVICES makes differ: when gpu is no device of the rank, it
// is the device joined to nvidia-smi GPU gpu, or else the rank's only
// device. gpu stays as it is when nothing decides, and a message naming
// none is on device 0, the CUDA device a process that never selects one
// runs on.
//
// A message without a rank that names a GPU joined to exactly one device
// of the run is that device's rank's: its GPU number says which process
// it was, where the CUDA number it maps to (each rank's cuda:0) would
// place the OOM on every rank's device (Device.RanOut on ranks that never
// ran out). A CUDA number that several ranks' devices share stays rankless.
func messageDevice(typ DeviceType, gpu, rank, pid int, devices []*Device) DeviceKey {
	who := DeviceKey{Rank: rank, PID: pid}
	var ofRank []*Device
	for _, d := range devices {
		if !sameProcess(who, d.DeviceKey) || d.Host || d.Type != typ {
			continue
		}
		if d.Device == gpu {
			return DeviceKey{Rank: rank, Device: gpu, Type: typ, PID: pid}
		}
		ofRank = append(ofRank, d)
	}
	var joined []*Device
	for _, d := range ofRank {
		if d.GPU != nil && d.GPUIndex == gpu && gpu >= 0 {
			joined = append(joined, d)
		}
	}
	switch {
	case len(joined) == 1 && (rank == input.NoRank || joined[0].PID > 0):
		// A pid-named device's Rank is no rank of the job: its GPU is
		// the evidence, whatever rank the line gives.
		return joined[0].DeviceKey
	case len(joined) > 0:
		return DeviceKey{Rank: rank, Device: joined[0].Device, Type: typ, PID: pid}
	case len(ofRank) == 1:
		return DeviceKey{Rank: rank, Device: ofRank[0].Device, Type: typ, PID: pid}
	}
	return DeviceKey{Rank: rank, Device: max(gpu, 0), Type: typ, PID: pid}
}

// sameRequest reports whether an OOM message's request (logged bytes, as
// printed, within slack of the truth) is the request a snapshot's OOM
// event recorded (size: the rounded block size). PyTorch prints the size
// of the segment it tried to allocate (format_size(alloc_size)) to two
// decimals of its unit; a writer may print the block size itself; either
// matches. Comparing byte for byte missed every message: "793.71 MiB" is
// not the 832,264,704 bytes the trace holds.
func sameRequest(logged, slack, size int64) bool {
	if logged <= 0 || size <= 0 {
		return false
	}
	// +1: parsing "793.71 MiB" truncates to whole bytes.
	near := func(v int64) bool { return max(logged-v, v-logged) <= slack+1 }
	return near(size) || near(segmentSize(size))
}

// segmentSize is the cudaMalloc size PyTorch's caching allocator asks
// for to serve a block of size bytes (get_allocation_size in
// c10/cuda/CUDACachingAllocator.cpp): a 2 MiB segment for blocks up to
// 1 MiB, a 20 MiB one below 10 MiB, and above that the size rounded up
// to a multiple of 2 MiB.
func segmentSize(size int64) int64 {
	const (
		smallSize   = 1 << 20  // kSmallSize: largest small-pool block
		smallBuffer = 2 << 20  // kSmallBuffer: segment for small blocks
		minLarge    = 10 << 20 // kMinLargeAlloc: below it, one 20 MiB segment
		largeBuffer = 20 << 20 // kLargeBuffer
		roundLarge  = 2 << 20  // kRoundLarge: large segments' granularity
	)
	switch {
	case size <= smallSize:
		return smallBuffer
	case size < minLarge:
		return largeBuffer
	}
	return (size + roundLarge - 1) / roundLarge * roundLarge
}

// trainingOOM converts one message, whose OOM happened on device key of
// the run (placeLogOOMs); expandable says that device used expandable
// segments (expandableOn).
func trainingOOM(path string, m gpulog.TrainingOOM, key DeviceKey, capacity int64, expandable bool) OOM {
	o := OOM{Path: path, Rank: key.Rank, Device: key.Device, Type: key.Type, PID: key.PID, Run: key.Run, Time: m.Time, Expandable: expandable,
		Requested: m.Requested, DeviceFree: m.Free, Reserved: m.Reserved, Allocated: m.Allocated,
		CachedFree: m.ReservedUnallocated, LargestFree: gpulog.Unknown, Capacity: max(m.Capacity, capacity, 0)}
	if m.Capacity > 0 {
		o.Capacity = m.Capacity
	}
	if m.Reserved >= 0 && m.Free >= 0 {
		o.EstimatedCapacity = m.Reserved + m.Free
	}
	o.Message = messageOf(&m)
	if m.Requested >= 0 && m.Free >= 0 {
		o.Missing = max(0, m.Requested-m.Free)
	}
	switch {
	case m.PinnedHost:
		// Host memory: the device's figures say nothing of it.
		o.Cause = CauseUnknown
	case m.Kind == gpulog.OOMVLLMKVCache, m.Kind == gpulog.OOMSGLangKVPool:
		vllmOOM(&o, m)
	case m.Requested > 0 && m.Free < 0 && o.Capacity > 0 && m.Requested-m.RequestedSlack > o.Capacity:
		// The request alone exceeds the device (a message without free
		// memory, ggml's or a bare request): no cap, cache or leak
		// could have served it, a capacity OOM.
		o.Cause = CauseCapacity
		o.Missing = m.Requested - o.Capacity
	case m.Kind == gpulog.OOMMPS && m.Requested >= 0 && m.Allocated >= 0:
		mpsOOM(&o, m)
	case m.Requested <= 0 || m.Free < 0:
		// "Tried to allocate 0 bytes" is printed by paths that do not
		// pass the failed size (a zero-size request never fails by
		// itself): nothing lacked by the message's figures, so neither
		// limit nor fragmentation nor capacity can be told.
		o.Cause = CauseUnknown
	case limitOOM(m.Free, m.FreeSlack, m.Requested, m.RequestedSlack):
		o.Cause, o.Asked = CauseLimit, m.Requested
		o.Recommendations = limitChecks(&o)
	case m.ReservedUnallocated < 0:
		// A message cut before its reserved figures: fragmentation
		// (free plus cached free covers the request) cannot be told
		// from capacity.
		o.Cause = CauseUnknown
	case m.ReservedUnallocated > 0 && m.Free+m.ReservedUnallocated-m.FreeSlack >= m.Requested+m.RequestedSlack:
		o.Cause, o.Message.Fits = CauseFragmentation, true
		if !o.Expandable {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepExpandable})
		}
	case outsideOOM(&o):
		// Memory outside this process filled the device (oomothers.go).
	default:
		// Missing is 0 when free and requested are equal as printed:
		// too close to tell a limit from a full device.
		o.Cause = CauseCapacity
		if o.Outside > 0 {
			// Memory outside the process no input names (outsideOOM).
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepOutsideFind})
		}
	}
	return o
}

// messageOf is what OOM message m says, as an OOM carries it.
func messageOf(m *gpulog.TrainingOOM) *OOMMessage {
	return &OOMMessage{Line: m.Line, Count: m.Count, Kind: OOMMessageKind(m.Kind), GPU: m.Device, Total: m.Capacity,
		ProcessInUse: m.ProcessInUse, ListedSelfPID: m.ListedSelfPID, Allowed: m.Allowed, OtherProcesses: m.OtherProcesses,
		OtherAllocations: m.OtherAllocations, OtherCount: m.OtherCount, LargestOtherPID: m.LargestOtherPID, LargestOther: m.LargestOther,
		Reserved: m.Reserved, Autotune: m.Autotune, PinnedHost: m.PinnedHost}
}

// vllmOOM classifies vLLM's startup refusal (and SGLang's, the same
// failure in its words: gpulog/oom_serving.go): the memory the engine may
// use (gpu_memory_utilization of the device) less the weights,
// activations and non-torch memory left less for the KV cache than one
// request of the longest sequence needs. No allocation was tried, so no
// cap refused it and no cache was fragmented: the model, its activations
// and one request's cache exceed what the device offers the engine, a
// capacity OOM, lacking the cache needed less the memory available when
// the message gives both.
func vllmOOM(o *OOM, m gpulog.TrainingOOM) {
	o.Cause = CauseCapacity
	o.DeviceFree = gpulog.Unknown
	if m.Requested >= 0 && m.Allowed >= 0 {
		o.Missing = max(0, m.Requested-m.Allowed)
	}
	step := StepVLLMCache
	if m.Kind == gpulog.OOMSGLangKVPool {
		step = StepSGLangPool
	}
	o.Recommendations = append(o.Recommendations, Recommendation{Kind: step})
}

// mpsOOM classifies an MPS message, which gives no free device memory:
// MPS's allocator refuses once its allocations, the process's other
// allocations and the request pass the high watermark ("max allowed"), or
// when Metal cannot map the buffer. Either way live memory and the request
// exceed what the process may use: capacity, against the watermark when
// the message gives one.
func mpsOOM(o *OOM, m gpulog.TrainingOOM) {
	o.Cause = CauseCapacity
	if m.Allowed > 0 {
		o.Missing = max(0, m.Allocated+max(m.OtherAllocations, 0)+m.Requested-m.Allowed)
		o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepMPSWatermark})
		return
	}
	o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepReduceLive})
}

// blameTrainingLeaks applies docs/design.md's first OOM cause to the OOMs
// that training logs report: when the device's unsuppressed leak
// suspects had added at least the bytes the request lacked (requested
// minus device free) by their last snapshot, the leak filled the device,
// and the OOM is a leak OOM whatever cached memory was free. The leaked
// bytes are counted to the last periodic snapshot, before the OOM, so they
// understate the leak at the OOM: a leak cause is never claimed on bytes
// that were not seen.
func blameTrainingLeaks(f *Findings, from int) {
	for k := from; k < len(f.OOMs); k++ {
		o := &f.OOMs[k]
		if o.Cause == CauseUnknown || o.Cause == CauseLimit || o.Requested < 0 || o.DeviceFree < 0 {
			continue
		}
		for _, d := range f.Devices {
			if d.Device != o.Device || d.Type != o.Type || !sameProcess(o.Key(), d.DeviceKey) || d.Host {
				continue
			}
			lf := deviceLeakFact(d)
			missing := o.Requested - o.DeviceFree
			leaked := lf.leakedAt(d, o)
			if missing <= 0 || !lf.covers(leaked, missing) {
				continue
			}
			rate := lf.rate
			o.Cause = CauseLeak
			o.Missing, o.LeakedBytes, o.LeakRate, o.LeakPer, o.LeakSite = missing, leaked, rate, lf.per, lf.site
			o.Earlier = 0
			if rate > 0 {
				o.Earlier = float64(missing) / rate
			}
			o.Recommendations = []Recommendation{{Kind: StepFixLeak}}
			break
		}
	}
}
