package placement

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"gpureport/gpulog"
	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// The GPU join: which nvidia-smi (or NVML) GPU holds a rank's CUDA
// device. A process's cuda:N is not necessarily nvidia-smi GPU N:
// CUDA_VISIBLE_DEVICES, Slurm's GPU binding and container runtimes
// renumber the devices a process sees, so on a multi-GPU node cuda:0 of a
// job is often nvidia-smi GPU 1 or 5. Joining by index then reads another
// GPU's memory, and growth outside the allocator (NCCL communicators, say)
// is missed or invented.
//
// The rule, in order (docs/design.md, "GPU-log join"):
//
//  1. By UUID, when an input names the device's UUID: a memory_stats line
//     with "uuid" (torch.cuda.get_device_properties(d).uuid), or a
//     memory_stats line with "pid" whose process a compute-apps log shows
//     on a GPU. The UUID is matched against the GPUs the logs list.
//  2. By tracking: the GPU whose memory.used stays at or above the
//     device's reserved memory at every matched time, at some reading
//     within the match window of it (the allocator's segments are part of
//     the process's device memory; a reading may precede a segment the
//     snapshot holds by a sample), above it at a typical time (the
//     median, at the higher of the readings one sample either side: the
//     device's GPU also holds the process's CUDA context), and follows it
//     best: first the GPU idle before the first snapshot and after the
//     last (the process's lifetime), then the one that moves with
//     reserved memory at the most of the few snapshots at which it leaves
//     the level it sits at most of the time, then the one with the
//     smallest spread of used − reserved, which is the roughly constant
//     CUDA context and library workspaces. A GPU busy with another job
//     either sits below reserved at some time, sits just under it at most
//     times, runs before and after the process, stays put when reserved
//     memory moves, or drifts independently of it.
//     A snapshot's time is its trace time, else a time in its file name,
//     else its file time when that is a write time, not a copy time.
//     When no snapshot has such a time, the one unclaimed GPU whose
//     readings hold a whole process life inside the log (idle, busy in
//     one stretch at the device's reserved memory, idle) is taken, if
//     exactly one does (joinByLifetime). The ranks of one job live
//     together, so for several such devices the GPUs holding their lives
//     are taken in order when there are exactly as many as devices
//     (lifetimesInOrder).
//  3. By index: GPU N for cuda:N, or GPU r for rank r when every rank's
//     snapshots are on one and the same CUDA device (one GPU per process,
//     as torchrun sets it up). This is kept whenever tracking cannot tell
//     the GPUs apart, or agrees with it, so the mapping only moves away from
//     the index on evidence.
//
// The devices are joined one at a time. When that leaves two ranks on one
// GPU, a later rank on a lower GPU, or a rank on a GPU that does not hold
// its reserved memory, the ranks take their GPUs in rank order, one each
// (assignInOrder), as torchrun's local ranks take CUDA_VISIBLE_DEVICES.
//
// The join says which rule chose it; a note warns when the choice is
// ambiguous (another GPU tracks the device about as well).

// JoinMethod names the rule that mapped a device to a GPU of the logs.
type JoinMethod string

// Join methods, strongest first.
const (
	// JoinByUUID: an input named the device's UUID.
	JoinByUUID JoinMethod = "uuid"
	// JoinByTracking: the GPU whose used memory tracks reserved memory.
	JoinByTracking JoinMethod = "tracking"
	// JoinByLifetime: for snapshots without usable times, the one GPU
	// busy for a single stretch inside the log at the device's reserved
	// memory.
	JoinByLifetime JoinMethod = "lifetime"
	// JoinByIndex: nvidia-smi GPU N for CUDA device N.
	JoinByIndex JoinMethod = "index"
	// JoinByRank: nvidia-smi GPU r for rank r (a guess).
	JoinByRank JoinMethod = "rank"
)

// Join says which GPU of the logs a device joins, and why: the rule that
// chose it and the evidence that rule saw, as figures (package
// report/words says it in words).
type Join struct {
	// GPU is the nvidia-smi index of the GPU.
	GPU int
	// Method is the rule that chose GPU.
	Method JoinMethod
	// Guess is true when the join is an assumption a reader should check
	// (the rank rule, or an ambiguous tracking choice).
	Guess bool
	// Confirmed is true when the rank rule's GPU tracks the rank's
	// reserved memory clearly better than any other GPU (JoinByRank;
	// Guess is then false).
	Confirmed bool
	// Ambiguous lists the GPUs that tracked the device about as well as
	// GPU, best first (JoinByTracking; nil when none).
	Ambiguous []int
	// ID is the identifier that joined the device (JoinByUUID).
	ID JoinID
	// Track is how GPU's memory.used follows the device's reserved memory
	// (JoinByTracking).
	Track Tracking
	// Life is the evidence of a process life on GPU (JoinByLifetime).
	Life LifeEvidence
}

// JoinID is the identifier an input gave for a device that joined it to
// a GPU of the logs (JoinByUUID).
type JoinID struct {
	// UUID is the GPU's UUID as normUUID writes it (lower case, without
	// nvidia-smi's "GPU-"); "" when a process id joined the device.
	UUID string
	// Manifest is the path of the capture manifest that gave the UUID;
	// "" when a memory_stats line gave it.
	Manifest string
	// PID is the memory_stats process that a compute-apps log shows on
	// the GPU; 0 when a UUID joined the device.
	PID int
}

// Tracking is how one GPU's memory.used followed a device's reserved
// memory at the snapshot times (JoinByTracking), and why the index rule's
// GPU lost.
type Tracking struct {
	// Tracked is the number of the Matched snapshot times (those with a
	// reading near them) at which memory.used was at or above reserved
	// memory.
	Tracked, Matched int
	// Above is the median of memory.used minus reserved memory (bytes;
	// negative when the GPU typically sits below it).
	Above int64
	// Lifetime is true when the GPU was busy from just before the first
	// snapshot to just after the last (the process's life).
	Lifetime bool
	// Departures counts the snapshot times at which reserved memory was
	// away from its usual level, and Followed those at which memory.used
	// moved with it.
	Departures, Followed int
	// InRankOrder is true when the devices took one GPU each in rank
	// order (the one-device-at-a-time rules had put two on one GPU, or
	// one on a GPU that does not hold its memory); Index is then unset.
	InRankOrder bool
	// Index is how the index rule's GPU fared.
	Index IndexOutcome
}

// IndexLoss names why tracking chose another GPU than the index rule's
// (IndexOutcome.Loss).
type IndexLoss string

// Why the index rule's GPU lost.
const (
	// IndexNotLogged: no log reads the GPU.
	IndexNotLogged IndexLoss = "not in the logs"
	// IndexNotAtTimes: too few of its readings are near snapshot times.
	IndexNotAtTimes IndexLoss = "not logged at the snapshot times"
	// IndexBelow: it sat below reserved memory at too many times (Below
	// of Matched).
	IndexBelow IndexLoss = "below reserved memory"
	// IndexNoRoom: it typically sat Gap bytes below reserved memory,
	// leaving no room for the process's CUDA context.
	IndexNoRoom IndexLoss = "no room for a CUDA context"
	// IndexFurther: it tracks too, but sits further above reserved
	// memory, by Gap bytes.
	IndexFurther IndexLoss = "further above"
)

// IndexOutcome is how the index rule's GPU (GPU N for cuda:N) fared
// against the GPU tracking chose.
type IndexOutcome struct {
	// GPU is the index rule's GPU.
	GPU int
	// Loss says why it lost.
	Loss IndexLoss
	// Below and Matched: at Below of Matched snapshot times it sat below
	// reserved memory (IndexBelow).
	Below, Matched int
	// Gap is how far below reserved memory it typically sat (IndexNoRoom)
	// or how far above (IndexFurther), bytes.
	Gap int64
}

// LifeEvidence is what the lifetime rule saw (JoinByLifetime): GPUs busy
// for one stretch inside the log at the device's reserved memory, idle
// before and after.
type LifeEvidence struct {
	// Peak is the device's highest reserved memory (bytes).
	Peak int64
	// InOrder lists the GPUs that hold such a life for the run's devices
	// without usable times, which took them in order, as
	// CUDA_VISIBLE_DEVICES lists them; nil when GPU was the only one.
	InOrder []int
}

// JoinInput is what JoinGPUs knows of one device: its key, its reserved
// memory over time, its reserved memory at every periodic snapshot (timed
// or not), and the UUIDs and process ids that inputs attach to it.
type JoinInput struct {
	Key DeviceKey
	// Reserved are the device's reserved bytes at known times (its
	// snapshots, or its memory_stats readings), the evidence tracking
	// compares GPU readings with.
	Reserved []TimedValue
	// Levels are its reserved bytes at every periodic snapshot, timed or
	// not, the evidence of a GPU that holds its life (joinByLifetime).
	Levels []int64
	// uuids (normalised, normUUID) and pids are the identifiers inputs
	// give for the device (AddUUID, AddPID).
	uuids []string
	pids  []int
	// captured are the UUIDs the capture kit's manifests give the device
	// (Run.DeviceUUIDs).
	captured []DeviceUUID
}

// AddUUID adds a GPU UUID an input gives for the device, as written (with
// or without nvidia-smi's "GPU-" prefix); "" and repeats are ignored.
func (in *JoinInput) AddUUID(u string) {
	if u := normUUID(u); u != "" && !slices.Contains(in.uuids, u) {
		in.uuids = append(in.uuids, u)
	}
}

// AddPID adds the id of a process that ran on the device; 0 (not logged)
// and repeats are ignored.
func (in *JoinInput) AddPID(pid int) {
	if pid > 0 && !slices.Contains(in.pids, pid) {
		in.pids = append(in.pids, pid)
	}
}

// addCaptureUUIDs gives each join input the GPU UUIDs the capture
// manifests give its (rank, device).
func addCaptureUUIDs(ins []JoinInput, uuids []DeviceUUID) {
	for i := range ins {
		for _, u := range uuids {
			if u.Rank == ins[i].Key.Rank && u.Device == ins[i].Key.Device {
				ins[i].captured = append(ins[i].captured, u)
			}
		}
	}
}

// normUUID puts a GPU UUID in one form for comparison: lower case, without
// nvidia-smi's "GPU-" prefix (PyTorch prints the bare UUID).
func normUUID(u string) string {
	u = strings.ToLower(strings.TrimSpace(u))
	return strings.TrimPrefix(u, "gpu-")
}

// Tracking tolerances.
const (
	// trackSlackBytes is how far memory.used may sit below reserved at a
	// matched time and still count as "at or above": nvidia-smi rounds to
	// whole MiB, and a reading a few seconds from the snapshot can miss a
	// segment allocated or freed in between. 64 MiB covers both at the
	// allocator's 2 MiB and 20 MiB segment granularity.
	trackSlackBytes = 64 << 20
	// trackRoundBytes is nvidia-smi's resolution: it prints whole MiB.
	trackRoundBytes = 1 << 20
	// trackSlackShare is the same slack as a share of reserved memory
	// (2%), for large devices where one step's segments move more.
	trackSlackShare = 0.02
	// trackBelowShare is the share of matched times at which a GPU may sit
	// below reserved (beyond the slack) and still be a candidate: 10%
	// forgives a reading caught mid-step or across a clock jitter without
	// accepting a GPU that is below for a sustained stretch. One such
	// time is forgiven however few there are (tooOftenBelow): a snapshot
	// may catch a peak shorter than the sampling interval (an OOM dump,
	// a long batch) that no reading shows, and with under 10 snapshots
	// 10% would forgive none.
	trackBelowShare = 0.10
	// trackMinMatched is the fewest matched times tracking needs: with
	// one or two, any GPU at or above reserved "tracks" it.
	trackMinMatched = 3
	// trackClearFactor and trackClearBytes decide when one GPU tracks
	// clearly better than another: its spread of used − reserved is
	// smaller by a factor of 2 and by 64 MiB. Below that, two GPUs are
	// indistinguishable at nvidia-smi's resolution and sampling jitter.
	trackClearFactor = 2.0
	trackClearBytes  = 64 << 20
)

// trackScore is how well one GPU's readings follow a device's reserved
// memory.
type trackScore struct {
	gpu     int
	matched int
	// below is the number of matched times at which used < reserved
	// beyond the slack, at the matched reading and at every other reading
	// within the match window. The reserved memory counted is the lower
	// of the snapshot's and its neighbours': a dump can catch a peak
	// shorter than the readings' interval (a tensor re-created bigger,
	// its old segments released right after), which the device's own
	// GPU never shows.
	below int
	// spread is the median absolute deviation of used − reserved around
	// its own Theil-Sen line (bytes): memory outside the allocator that
	// grows steadily on the right GPU (an outside-allocator leak) does not
	// make it track worse. gap is the median of used − reserved, and
	// gapHigh the median of the highest reading within one sampling
	// interval of the time − reserved.
	spread, gap, gapHigh float64
	// drop is how far that line falls over the matched times (bytes, 0
	// when it does not fall): the GPU's used memory lagging the device's
	// growing reserved memory. On the device's own GPU used − reserved
	// is the CUDA context plus memory outside the allocator, which grows
	// (an outside-allocator leak) or holds, but does not shrink step
	// after step; a GPU at a steady level above a growing device does.
	drop float64
	// departures counts the matched times at which reserved memory is
	// away from its usual level, and followed those at which memory.used
	// moved with it (followDepartures).
	departures, followed int
	// lifetime is 1 when the GPU's readings show the process's life
	// around the snapshots (lifetimeSeen), else 0.
	lifetime int
}

// evidence compares the specific evidence of s and o (the process's
// lifetime, then the departures followed): positive when s has more.
// Either outweighs the spread and the gap, which another job at a steady
// level can match as well as the device's own GPU.
func (s trackScore) evidence(o trackScore) int {
	return cmp.Or(cmp.Compare(s.lifetime, o.lifetime), cmp.Compare(s.followed, o.followed))
}

// ok reports whether the GPU is a candidate at all: logged at enough
// snapshot times, at or above reserved memory at nearly all of them, and
// above it at the median. The slack forgives single readings, but the
// GPU that holds the device holds its reserved memory plus the process's
// CUDA context (hundreds of MiB), so at a typical snapshot time its
// memory.used is above reserved, at the reading before the snapshot or
// the one after (a reading may lag a segment by one sample); a GPU below
// it at most times holds another job of about the same size.
func (s trackScore) ok() bool {
	return s.matched >= trackMinMatched && !s.tooOftenBelow() && s.gapHigh >= -trackRoundBytes
}

// tooOftenBelow reports whether the GPU sat below reserved memory at more
// matched times than tracking forgives (trackBelowShare).
func (s trackScore) tooOftenBelow() bool {
	return float64(s.below) > max(1, trackBelowShare*float64(s.matched))
}

// clearlyBetter reports whether s tracks the device clearly better than o:
// it has more specific evidence (evidence), or as much with a clearly
// smaller spread.
func (s trackScore) clearlyBetter(o trackScore) bool {
	if !o.ok() {
		return s.ok()
	}
	if !s.ok() || s.evidence(o) != 0 {
		return s.ok() && s.evidence(o) > 0
	}
	if o.drop > trackClearFactor*s.drop && o.drop-s.drop > trackClearBytes {
		// o's used memory falls behind the device's reserved memory by
		// more than nvidia-smi's jitter where s's holds it: o follows a
		// straight line beside the device, not the device.
		return true
	}
	return o.spread > trackClearFactor*s.spread && o.spread-s.spread > trackClearBytes
}

// trackedGPU is one GPU's readings in time order with what tracking
// needs of them whatever the device: computed once per GPU.
type trackedGPU struct {
	index int
	s     *GPUSeries // nil when the GPU has no readings
	// win is the match window, step the sampling interval.
	win, step time.Duration
}

// newTrackedGPU prepares GPU index's readings s for tracking.
func newTrackedGPU(index int, s *GPUSeries) trackedGPU {
	t := trackedGPU{index: index, s: s}
	if s != nil {
		t.step = s.SampleInterval()
		t.win = windowOf(t.step)
	}
	return t
}

// scoreTracking matches each observation to the GPU's reading nearest in
// time (GPUSeries.UsedAt, within the readings' match window) and scores
// the pairs. flat says that the device's reserved memory sits at one level at most
// snapshots (reservedSpread), when departures from it are counted.
func scoreTracking(in JoinInput, tg trackedGPU, flat bool) trackScore {
	sc := trackScore{gpu: tg.index, spread: math.Inf(1), gap: math.Inf(1), gapHigh: math.Inf(-1)}
	g, win, step := tg.s, tg.win, tg.step
	if g == nil || len(in.Reserved) == 0 {
		return sc
	}
	var gaps, highs []float64
	var matched []TimedValue
	// The reserved memory the readings must hold: each snapshot's, or a
	// neighbour's when lower (a peak the dump caught between two
	// readings; trackScore.below).
	res := make([]float64, len(in.Reserved))
	for k, o := range in.Reserved {
		res[k] = float64(o.Value)
	}
	held := stats.NeighbourMin(res)
	for k, o := range in.Reserved {
		used, ok := g.UsedAt(o.Time, win, 0, len(g.Times))
		if !ok {
			continue
		}
		sc.matched++
		if floor := held[k] - trackSlack(int64(held[k])); used < floor && maxUsedNear(g, o.Time, win) < floor {
			sc.below++
		}
		gaps = append(gaps, used-float64(o.Value))
		highs = append(highs, maxUsedNear(g, o.Time, step)-float64(o.Value))
		matched = append(matched, o)
	}
	if len(gaps) == 0 {
		return sc
	}
	sc.gap = stats.Median(gaps)
	sc.gapHigh = stats.Median(highs)
	// line[i] is the expected used − reserved at matched time i: the
	// Theil-Sen line through the gaps (their median with fewer than 3).
	line := make([]float64, len(gaps))
	for i := range line {
		line[i] = sc.gap
	}
	if len(gaps) >= 3 {
		xs := make([]float64, len(gaps))
		for i := range xs {
			xs[i] = float64(i)
		}
		fit := stats.TheilSen(xs, gaps)
		for i := range line {
			line[i] = fit.Intercept + fit.Slope*xs[i]
		}
		sc.drop = max(0, line[0]-line[len(line)-1])
	}
	dev := make([]float64, len(gaps))
	for i, v := range gaps {
		dev[i] = math.Abs(v - line[i])
	}
	sc.spread = stats.Median(dev)
	if flat {
		sc.departures, sc.followed = followDepartures(g, matched, line, sc.spread, step)
	}
	sc.lifetime = tg.lifetimeSeen(matched)
	return sc
}

// tracking is the score's figures as a join states them.
func (s trackScore) tracking() Tracking {
	return Tracking{Tracked: s.matched - s.below, Matched: s.matched, Above: int64(s.gap),
		Lifetime: s.lifetime > 0, Departures: s.departures, Followed: s.followed}
}

// lifetimeSeen is 1 when the GPU's readings show the life of a process
// that took the matched snapshots, else 0: one stretch of readings at or
// above half the device's smallest reserved memory (the process holds at
// least its reserved memory; anything under half of it is not this
// process), with readings under it on both sides, beginning at most win
// after the first snapshot and ending at most win before the last.
// Logging usually starts before a training process and outlives it,
// while another job on the node runs through the whole log, comes and
// goes, or starts and stops at times of its own; it may start near the
// run's first snapshot by chance, but rarely also stop near its last, so
// one end alone is not taken as evidence. The threshold is the device's,
// not the log's: a run may fill only a small part of a long log.
func (tg trackedGPU) lifetimeSeen(matched []TimedValue) int {
	least := matched[0].Value
	for _, o := range matched {
		least = min(least, o.Value)
	}
	lo, hi, ok := tg.lifeSpan(least)
	if !ok {
		return 0
	}
	g := tg.s
	first, last := matched[0].Time, matched[len(matched)-1].Time
	if g.Times[lo].After(first.Add(tg.win)) || g.Times[hi-1].Before(last.Add(-tg.win)) {
		return 0
	}
	return 1
}

// lifeSpan finds the one stretch [lo, hi) of readings at or above half of
// least (a device's smallest reserved memory, bytes), with readings under
// it before and after; ok is false when the readings are busy from the
// start or to the end of the log, or busy in more than one stretch (a
// job that comes and goes).
func (tg trackedGPU) lifeSpan(least int64) (lo, hi int, ok bool) {
	used := tg.s.Used
	thr := least / 2
	lo, hi = 0, len(used)
	for lo < hi && used[lo] < thr {
		lo++
	}
	for hi > lo && used[hi-1] < thr {
		hi--
	}
	if lo == 0 || hi == len(used) || hi <= lo {
		return 0, 0, false
	}
	for _, u := range used[lo:hi] {
		if u < thr {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// joinByLifetime joins a device whose snapshots have no usable times to
// the one unclaimed GPU whose readings hold a whole process life at the
// device's reserved memory (holdsLife), when exactly one does.
func joinByLifetime(in JoinInput, gpus []trackedGPU, claimed map[int]bool) (Join, bool) {
	found := lifeHolders(in, gpus, claimed)
	if len(found) != 1 {
		return Join{}, false
	}
	g := found[0]
	return Join{GPU: g, Method: JoinByLifetime, Life: LifeEvidence{Peak: slices.Max(in.Levels)}}, true
}

// lifeHolders lists, in index order, the GPUs not in taken whose
// readings hold a whole process life at device in's reserved memory
// (holdsLife).
func lifeHolders(in JoinInput, gpus []trackedGPU, taken map[int]bool) []int {
	if len(in.Levels) == 0 {
		return nil
	}
	r := make([]float64, len(in.Levels))
	for i, l := range in.Levels {
		r[i] = float64(l)
	}
	least, typ, peak := slices.Min(in.Levels), stats.Median(r), slices.Max(r)
	var found []int
	for _, tg := range gpus {
		if tg.s != nil && !taken[tg.index] && tg.holdsLife(least, typ, peak) {
			found = append(found, tg.index)
		}
	}
	return found
}

// lifetimesInOrder joins the devices of a run whose snapshots have no
// usable times, when one at a time could not: the ranks of one job live
// and die together, so every rank's lifetime evidence names all of their
// GPUs, and none is the only one. When the GPUs that hold a process life
// at some of these devices' reserved memory are exactly as many as the
// devices, the devices take them in order, one each, as torchrun's local
// ranks take CUDA_VISIBLE_DEVICES in increasing order (assignInOrder);
// each device's GPU must hold a life at its own reserved memory. Devices
// joined by UUID or tracking keep their GPUs, which no other takes.
func lifetimesInOrder(ins []JoinInput, gpus []trackedGPU, out []Join) []Join {
	var pending []int
	taken := map[int]bool{}
	for i, j := range out {
		switch {
		case j.Method == JoinByUUID:
			return out
		case len(ins[i].Reserved) == 0 && j.Method != JoinByTracking:
			pending = append(pending, i)
		default:
			taken[j.GPU] = true
		}
	}
	if len(pending) < 2 {
		return out
	}
	holders := make([][]int, len(pending))
	var all []int
	for k, i := range pending {
		holders[k] = lifeHolders(ins[i], gpus, taken)
		all = append(all, holders[k]...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) != len(pending) {
		return out
	}
	for k := range pending {
		if !slices.Contains(holders[k], all[k]) {
			return out
		}
	}
	for k, i := range pending {
		out[i] = Join{GPU: all[k], Method: JoinByLifetime, Life: LifeEvidence{Peak: slices.Max(ins[i].Levels), InOrder: all}}
	}
	return out
}

// holdsLife reports whether the GPU's readings hold one process life
// (lifeSpan against least, the device's smallest reserved memory at its
// snapshots) whose typical reading is at or above typ, the device's
// median reserved memory, and whose highest reading is at or above peak,
// its highest (bytes), both within the tracking slack: the process holds
// at least its reserved memory while it lives.
func (tg trackedGPU) holdsLife(least int64, typ, peak float64) bool {
	lo, hi, ok := tg.lifeSpan(least)
	if !ok {
		return false
	}
	v := make([]float64, hi-lo)
	for i := range v {
		v[i] = float64(tg.s.Used[lo+i])
	}
	return stats.Median(v) >= typ-trackSlack(int64(typ)) &&
		slices.Max(v) >= peak-trackSlack(int64(peak))
}

// trackSlack is how far memory.used may sit below reserved memory of
// reserved bytes and still count as at or above it (bytes).
func trackSlack(reserved int64) float64 {
	return math.Max(trackSlackBytes, trackSlackShare*float64(reserved))
}

// followDepartures counts the matched times at which the device's
// reserved memory is away from its median level by more than the slack
// (after empty_cache(), at a long batch, at a warm-up step), and those at
// which a reading within one sampling interval moved at least half as far
// with it: used − reserved stayed within half the departure of the
// expected line[i].
//
// scoreTracking asks for them only when reserved memory sits at one level
// at most snapshots. Then any GPU at a steady level above it "tracks" it
// by the spread, a median that passes over the few snapshots away from
// that level, and those few are the evidence that tells the device's GPU
// from another job's. A departure counts only when it is larger than
// twice the GPU's own spread (noise, bytes): a GPU that strays that far
// anyway lands near any level by chance.
func followDepartures(g *GPUSeries, matched []TimedValue, line []float64, noise float64, step time.Duration) (departures, followed int) {
	levels := make([]float64, len(matched))
	for i, o := range matched {
		levels[i] = float64(o.Value)
	}
	level := stats.Median(levels)
	for i, o := range matched {
		d := math.Abs(float64(o.Value) - level)
		if d <= trackSlack(o.Value) {
			continue
		}
		departures++
		if noise < d/2 && minDevNear(g, o.Time, step, float64(o.Value)+line[i]) < d/2 {
			followed++
		}
	}
	return departures, followed
}

// minDevNear is the smallest |memory.used − want| of the readings within
// win of t (bytes; +Inf when none).
func minDevNear(g *GPUSeries, t time.Time, win time.Duration, want float64) float64 {
	m := math.Inf(1)
	for _, u := range usedWithin(g, t, win) {
		m = min(m, math.Abs(float64(u)-want))
	}
	return m
}

// usedWithin is the memory.used readings of g within win of t (g's
// readings are in time order).
func usedWithin(g *GPUSeries, t time.Time, win time.Duration) []int64 {
	i, _ := slices.BinarySearchFunc(g.Times, t.Add(-win), time.Time.Compare)
	// j: the first reading after t+win.
	j, _ := slices.BinarySearchFunc(g.Times, t.Add(win), func(a, b time.Time) int {
		if a.After(b) {
			return 1
		}
		return -1
	})
	return g.Used[i:max(i, j)]
}

// maxUsedNear is the largest memory.used reading within win of t (bytes;
// -Inf when none). The reading nearest a snapshot may precede a segment
// the snapshot already holds, or follow one it freed, when the two clocks
// differ by a second or the snapshot falls between readings; the right
// GPU holds the snapshot's reserved memory at some reading that close.
func maxUsedNear(g *GPUSeries, t time.Time, win time.Duration) float64 {
	m := math.Inf(-1)
	for _, u := range usedWithin(g, t, win) {
		m = max(m, float64(u))
	}
	return m
}

// closerAbove reports whether s sits clearly closer above the device's
// reserved memory than o: its median gap is at most half of o's, and
// smaller by trackClearBytes. Half, because the ranks of one job differ in
// reserved memory by a few hundred MiB, so a neighbour rank's GPU can sit
// a little closer above a device than its own; another job's memory on
// top of this one's is a multiple of the CUDA context, not a fraction.
// Between two GPUs that follow the device equally, the one with less
// unexplained memory on top of reserved is the likelier: the other holds
// another job's memory besides (or instead of) this process's.
//
// A GPU with less specific evidence (evidence) is never closer above: it
// runs before and after the process, or sits at a steady level the
// device left.
func (s trackScore) closerAbove(o trackScore) bool {
	return s.ok() && o.ok() && s.evidence(o) >= 0 && o.gap-s.gap > trackClearBytes && s.gap <= o.gap/2
}

// JoinGPUs chooses, for every device of ins, the GPU of the run's logs
// whose readings belong to it, by the rules at the top of this file, with
// the UUIDs the capture manifests give the devices (Run.DeviceUUIDs)
// first; the joins are in the order of ins.
func (r *Run) JoinGPUs(ins []JoinInput) []Join {
	addCaptureUUIDs(ins, r.DeviceUUIDs)
	return joinGPUs(ins, r.Logs)
}

// joinGPUs is JoinGPUs over logs, with the devices' evidence as given.
// The logs are placed ones (Run.Logs): GPUs numbered across machines,
// process readings on their GPUs.
func joinGPUs(ins []JoinInput, logs []*gpulog.GPULog) []Join {
	out := make([]Join, len(ins))
	ranks := map[int]bool{}
	devs := map[int]bool{}
	for _, in := range ins {
		ranks[joinRank(in.Key)] = true
		devs[in.Key.Device] = true
	}
	logged := map[int]bool{}
	byUUID := map[string]int{}
	pidGPU := map[int]int{}
	for _, l := range logs {
		for _, smp := range l.Samples {
			logged[smp.GPU] = true
		}
		for _, g := range l.GPUs {
			if u := normUUID(g.UUID); u != "" && g.Index >= 0 {
				byUUID[u] = g.Index
			}
		}
		for _, p := range l.Processes {
			if p.PID > 0 && p.GPU >= 0 {
				pidGPU[p.PID] = p.GPU
			}
		}
	}
	gpus := slices.Sorted(maps.Keys(logged))
	// Each GPU's readings in time order, built once for every device's
	// scores.
	placed := make([]trackedGPU, len(gpus))
	for gi, g := range gpus {
		placed[gi] = newTrackedGPU(g, GPUReadings(logs, g, Placer{Axis: units.PerHour}))
	}
	// score[i][g] is how GPU gpus[g] tracks device i, for every device
	// not joined by UUID; assignInOrder reuses them.
	score := make([][]trackScore, len(ins))
	byRank := len(ranks) > 1 && len(devs) == 1
	// claimed holds the GPUs already joined to an earlier device: two
	// processes rarely share a GPU, so a later device takes another one
	// when another one tracks it too.
	claimed := map[int]bool{}
	for i, in := range ins {
		if i > 0 {
			claimed[out[i-1].GPU] = true
		}
		// 3. The index rule, the default.
		idx := Join{GPU: in.Key.Device, Method: JoinByIndex}
		if r := joinRank(in.Key); byRank && r >= 0 && logged[r] {
			idx = Join{GPU: r, Method: JoinByRank, Guess: true}
		}
		out[i] = idx

		// 1. By UUID.
		if j, ok := joinByID(in, byUUID, pidGPU, logged); ok {
			out[i] = j
			continue
		}

		// 2. By tracking.
		flat := reservedSpread(in) <= trackClearBytes
		score[i] = make([]trackScore, len(gpus))
		for gi := range gpus {
			score[i][gi] = scoreTracking(in, placed[gi], flat)
		}
		scores := slices.Clone(score[i])
		slices.SortStableFunc(scores, func(a, b trackScore) int {
			if a.ok() != b.ok() {
				if a.ok() {
					return -1
				}
				return 1
			}
			return cmp.Or(b.evidence(a), cmp.Compare(a.spread, b.spread), cmp.Compare(a.gap, b.gap), cmp.Compare(a.gpu, b.gpu))
		})
		// A GPU another device took goes after every free one that
		// tracks this device at all.
		slices.SortStableFunc(scores, func(a, b trackScore) int {
			ca, cb := claimed[a.gpu] && a.gpu != idx.GPU, claimed[b.gpu] && b.gpu != idx.GPU
			if a.ok() && b.ok() && ca != cb {
				if ca {
					return 1
				}
				return -1
			}
			return 0
		})
		// When reserved memory barely moves, any GPU at a steady level
		// above it "tracks" it: the spread says nothing, and the GPU
		// closest above reserved memory is the likelier. Otherwise, among
		// the GPUs that track about as well as the best, prefer the one
		// closest above reserved memory.
		for k := 1; k < len(scores); k++ {
			if scores[0].ok() && claimed[scores[k].gpu] != claimed[scores[0].gpu] {
				continue
			}
			if (flat || !scores[0].clearlyBetter(scores[k])) && scores[k].closerAbove(scores[0]) {
				scores[0], scores[k] = scores[k], scores[0]
			}
		}
		if len(scores) == 0 || !scores[0].ok() {
			// No GPU tracks it. Without usable snapshot times, one GPU
			// that holds a process's whole life may still; else keep the
			// index rule.
			if len(in.Reserved) == 0 {
				if j, ok := joinByLifetime(in, placed, claimed); ok {
					out[i] = j
				}
			}
			continue
		}
		best := scores[0]
		var cur trackScore
		hasCur := false
		for _, s := range scores {
			if s.gpu == idx.GPU && logged[idx.GPU] {
				cur, hasCur = s, true
			}
		}
		beats := !cur.ok() || best.evidence(cur) > 0 || best.closerAbove(cur) || (!flat && best.clearlyBetter(cur))
		if claimed[cur.gpu] && hasCur && cur.gpu != best.gpu && !claimed[best.gpu] && best.ok() {
			beats = true // the index GPU is another device's
		}
		if hasCur && (cur.gpu == best.gpu || !beats) {
			// The index rule's GPU tracks the device as well as any: keep
			// it, and say that the readings agree with it.
			if cur.ok() && idx.Method == JoinByRank && len(scores) > 1 && scores[1].gpu != cur.gpu && best.clearlyBetter(scores[1]) {
				out[i].Guess, out[i].Confirmed = false, true
			}
			continue
		}
		j := Join{GPU: best.gpu, Method: JoinByTracking, Track: best.tracking()}
		j.Track.Index = indexOutcome(idx.GPU, cur, hasCur)
		for _, s := range scores[1:] {
			if s.ok() && !best.clearlyBetter(s) && !best.closerAbove(s) {
				j.Ambiguous = append(j.Ambiguous, s.gpu)
			}
		}
		j.Guess = len(j.Ambiguous) > 0
		out[i] = j
	}
	return clearAmbiguity(lifetimesInOrder(ins, placed, assignInOrder(ins, score, gpus, out)))
}

// clearAmbiguity takes out of each join's Ambiguous the GPUs that
// another device's join took without ambiguity: two processes rarely
// share a GPU (the premise of claimed in joinGPUs), so a GPU that tracks
// another device and only it is no alternative. A device decided first
// lists the GPUs of devices decided after it (a flat device "tracked" by
// a GPU that grows with the next rank's leak); each pass may clear
// another join, so it repeats until nothing changes.
func clearAmbiguity(out []Join) []Join {
	for changed := true; changed; {
		changed = false
		clear := map[int]int{} // GPU -> devices joined to it without ambiguity
		for _, j := range out {
			if len(j.Ambiguous) == 0 && j.Method == JoinByTracking || j.Method == JoinByUUID {
				clear[j.GPU]++
			}
		}
		for i := range out {
			j := &out[i]
			if len(j.Ambiguous) == 0 {
				continue
			}
			kept := j.Ambiguous[:0:0]
			for _, g := range j.Ambiguous {
				if clear[g] == 0 || g == j.GPU {
					kept = append(kept, g)
				}
			}
			if len(kept) < len(j.Ambiguous) {
				changed = true
				j.Ambiguous = kept
				if len(kept) == 0 {
					j.Ambiguous = nil
					j.Guess = false
				}
			}
		}
	}
	return out
}

// assignInOrder revisits the joins of a run with several devices when
// the one-device-at-a-time rules left two devices on one GPU, put a later
// device on a lower GPU, or left a device on a GPU whose memory.used does
// not stay above its reserved memory. The ranks of one job run one
// process per GPU, and torchrun's local rank r uses the r-th GPU of
// CUDA_VISIBLE_DEVICES, which lists them in increasing order as
// schedulers write it ("2,3,6,7"); so the devices, in rank order, take
// GPUs in increasing index order, each a different one. Among those
// assignments, the one with the most devices on a GPU that tracks them,
// then the least spread and memory on top of reserved, is taken when
// every device tracks its GPU; otherwise the joins stay as they were.
// Joins by UUID or process id are evidence of their own and are never
// moved (the pass is skipped when there is one).
//
// score[i][g] is how gpus[g] tracks device i (joinGPUs's scores).
func assignInOrder(ins []JoinInput, score [][]trackScore, gpus []int, out []Join) []Join {
	k, n := len(ins), len(gpus)
	if k < 2 || n < k {
		return out
	}
	for _, j := range out {
		if j.Method == JoinByUUID {
			return out
		}
	}
	// The greedy joins need revisiting only when they share a GPU, go
	// back in GPU order, or one of them is not tracked.
	broken := false
	for i, j := range out {
		g := slices.Index(gpus, j.GPU)
		if g < 0 || !score[i][g].ok() || (i > 0 && j.GPU <= out[i-1].GPU) {
			broken = true
		}
	}
	if !broken {
		return out
	}
	// best[i][g]: the best assignment of devices i.. to GPUs g.. in
	// order; value: devices tracked (more is better), then the total of
	// each tracked device's spread and gap (less is better): a GPU that
	// follows the device as well but holds more memory on top of it holds
	// another job's too, as closerAbove says.
	type value struct {
		tracked int
		cost    float64
	}
	better := func(a, b value) bool {
		return a.tracked > b.tracked || (a.tracked == b.tracked && a.cost < b.cost)
	}
	best := make([][]value, k+1)
	take := make([][]bool, k+1)
	for i := range best {
		best[i] = make([]value, n+1)
		take[i] = make([]bool, n+1)
	}
	for i := k - 1; i >= 0; i-- {
		best[i][n] = value{tracked: -k - 1} // not enough GPUs left
		for g := n - 1; g >= 0; g-- {
			skip := best[i][g+1]
			use := best[i+1][g+1]
			if sc := score[i][g]; sc.ok() {
				use.tracked++
				use.cost += sc.spread + max(sc.gap, 0)
			}
			if better(use, skip) || use == skip {
				best[i][g], take[i][g] = use, true
			} else {
				best[i][g] = skip
			}
		}
	}
	if best[0][0].tracked < k {
		return out
	}
	res := slices.Clone(out)
	for i, g := 0, 0; i < k; g++ {
		if !take[i][g] {
			continue
		}
		if res[i].GPU != gpus[g] {
			res[i] = Join{GPU: gpus[g], Method: JoinByTracking, Track: score[i][g].tracking()}
			res[i].Track.InRankOrder = true
		}
		i++
	}
	return res
}

// indexOutcome says why the index rule's GPU (gpu, scored cur; has is
// false when no log reads it) lost to tracking.
func indexOutcome(gpu int, cur trackScore, has bool) IndexOutcome {
	o := IndexOutcome{GPU: gpu, Below: cur.below, Matched: cur.matched}
	switch {
	case !has:
		o.Loss = IndexNotLogged
	case cur.matched < trackMinMatched:
		o.Loss = IndexNotAtTimes
	case cur.tooOftenBelow():
		o.Loss = IndexBelow
	case !cur.ok():
		o.Loss, o.Gap = IndexNoRoom, int64(-cur.gapHigh)
	default:
		o.Loss, o.Gap = IndexFurther, int64(cur.gap)
	}
	return o
}

// joinByID maps a device by a UUID or a process id that an input gives
// for it.
func joinByID(in JoinInput, byUUID map[string]int, pidGPU map[int]int, logged map[int]bool) (Join, bool) {
	for _, c := range in.captured {
		if g, ok := byUUID[normUUID(c.UUID)]; ok && logged[g] {
			return Join{GPU: g, Method: JoinByUUID, ID: JoinID{UUID: normUUID(c.UUID), Manifest: c.Source}}, true
		}
	}
	for _, u := range in.uuids {
		if g, ok := byUUID[u]; ok && logged[g] {
			return Join{GPU: g, Method: JoinByUUID, ID: JoinID{UUID: u}}, true
		}
	}
	for _, p := range in.pids {
		if g, ok := pidGPU[p]; ok && logged[g] {
			return Join{GPU: g, Method: JoinByUUID, ID: JoinID{PID: p}}, true
		}
	}
	return Join{}, false
}

// reservedSpread is the median absolute deviation of a device's reserved
// memory over its observations (bytes): how much there is to track.
func reservedSpread(in JoinInput) float64 {
	if len(in.Reserved) == 0 {
		return 0
	}
	v := make([]float64, len(in.Reserved))
	for i, o := range in.Reserved {
		v[i] = float64(o.Value)
	}
	m := stats.Median(v)
	for i := range v {
		v[i] = math.Abs(v[i] - m)
	}
	return stats.Median(v)
}

// joinRank is the rank the rank rule (JoinByRank) reads of device k: its
// Rank, or for a separate run of the script the job's rank its paths
// give (ScriptRun.Rank; input.NoRank for a script without ranks). The
// number placement gave a run is no rank: a second run of a one-GPU
// script, or a sweep's experiment, ran on the GPU of its own device
// index, as the first did, not on the GPU of its number.
func joinRank(k DeviceKey) int {
	if k.Run.N > 0 {
		return k.Run.Rank
	}
	return k.Rank
}
