package placement

import (
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/units"
)

// t0 is when the test logs begin.
var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

const (
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// gpuTrace builds nvidia-smi readings of one GPU every 10 s over n
// minutes, used(i) bytes at minute i.
func gpuTrace(l *gpulog.GPULog, gpu, n int, used func(min float64) int64) {
	end := t0.Add(time.Duration(n-1) * time.Minute)
	for t := t0; !t.After(end); t = t.Add(10 * time.Second) {
		l.Samples = append(l.Samples, gpulog.GPUSample{Time: t, GPU: gpu, MemoryUsed: used(t.Sub(t0).Minutes()),
			MemoryTotal: 80 * gib, MemoryFree: gpulog.Unknown, MemoryReserved: gpulog.Unknown})
	}
}

// growingObs is a device whose reserved memory grows from 10 GiB by
// 1 GiB a minute, observed once a minute for n minutes.
func growingObs(key DeviceKey, n int) JoinInput {
	in := JoinInput{Key: key}
	for i := range n {
		in.Reserved = append(in.Reserved, TimedValue{t0.Add(time.Duration(i) * time.Minute), 10*gib + int64(i)*gib})
	}
	return in
}

// flatObs is a device whose reserved memory stays at level, observed
// once a minute for n minutes.
func flatObs(key DeviceKey, n int, level int64) JoinInput { return flatObsFrom(key, 0, n, level) }

// flatObsFrom is flatObs observed at minutes [from, to).
func flatObsFrom(key DeviceKey, from, to int, level int64) JoinInput {
	in := JoinInput{Key: key}
	for i := from; i < to; i++ {
		in.Reserved = append(in.Reserved, TimedValue{t0.Add(time.Duration(i) * time.Minute), level})
	}
	return in
}

func reservedLine(min float64) int64 { return 10*gib + int64(min*float64(gib)) }

// lifeAt is level from minute from to minute to, 0 outside: a process's
// life in a GPU's readings.
func lifeAt(min, from, to float64, level int64) int64 {
	if min < from || min > to {
		return 0
	}
	return level
}

// dips are the minutes at which dippingObs's reserved memory is down.
var dips = []int{2, 5, 8}

// dippingLevel is level, less drop at the dip minutes (for 6 s around
// them: the dip lasts under a sampling interval).
func dippingLevel(min float64, level, drop int64, dips []int) int64 {
	k := math.Round(min)
	if math.Abs(min-k) < 0.1 && slices.Contains(dips, int(k)) {
		return level - drop
	}
	return level
}

// dippingObs is a device whose reserved memory stays at level but for a
// drop at the dip minutes, observed once a minute for n minutes.
func dippingObs(key DeviceKey, n int, level, drop int64, dips []int) JoinInput {
	in := JoinInput{Key: key}
	for i := range n {
		in.Reserved = append(in.Reserved, TimedValue{t0.Add(time.Duration(i) * time.Minute), dippingLevel(float64(i), level, drop, dips)})
	}
	return in
}

func TestGPUJoins(t *testing.T) {
	const n = 10
	dev0 := DeviceKey{Rank: input.NoRank, Device: 0}
	tests := []struct {
		name      string
		in        []JoinInput
		gpus      map[int]func(float64) int64 // readings per GPU index
		uuids     map[int]string              // GPU index -> UUID in the log
		procs     []gpulog.ProcessSample
		want      []int
		method    []JoinMethod
		ambiguous []bool
		// why checks the evidence of the first device's join.
		why func(Join) bool
	}{
		{
			name: "index GPU tracks: kept",
			in:   []JoinInput{growingObs(dev0, n)},
			gpus: map[int]func(float64) int64{
				0: func(m float64) int64 { return reservedLine(m) + 600*mib },
				1: func(float64) int64 { return 70 * gib }, // another job, flat
			},
			want: []int{0}, method: []JoinMethod{JoinByIndex}, ambiguous: []bool{false},
		},
		{
			name: "CUDA_VISIBLE_DEVICES=1: cuda:0 is GPU 1, GPU 0 runs another job below reserved",
			in:   []JoinInput{growingObs(dev0, n)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 5 * gib },
				1: func(m float64) int64 { return reservedLine(m) + 600*mib },
				2: func(float64) int64 { return 79 * gib },
			},
			want: []int{1}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
			why: func(j Join) bool { return j.Track.Index.Loss == IndexBelow },
		},
		{
			name: "remapped, with NCCL growth outside the allocator on the right GPU",
			in:   []JoinInput{growingObs(dev0, n)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 12 * gib },
				1: func(m float64) int64 { return reservedLine(m) + 600*mib + int64(m)*100*mib },
			},
			want: []int{1}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
		},
		{
			name: "only GPU 3 logged (nvidia-smi -i 3): joined by tracking",
			in:   []JoinInput{growingObs(dev0, n)},
			gpus: map[int]func(float64) int64{
				3: func(m float64) int64 { return reservedLine(m) + 500*mib },
			},
			want: []int{3}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
		},
		{
			name: "two GPUs track equally, neither is the index: ambiguous",
			in:   []JoinInput{growingObs(dev0, n)},
			gpus: map[int]func(float64) int64{
				2: func(m float64) int64 { return reservedLine(m) + 600*mib },
				3: func(m float64) int64 { return reservedLine(m) + 610*mib },
			},
			want: []int{2}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{true},
			why: func(j Join) bool { return len(j.Ambiguous) > 0 },
		},
		{
			name: "UUID in memory_stats wins over tracking",
			in: func() []JoinInput {
				in := growingObs(dev0, n)
				in.uuids = []string{normUUID("8a3c0b1e-0000-4000-8000-000000000005")}
				return []JoinInput{in}
			}(),
			gpus: map[int]func(float64) int64{
				0: func(m float64) int64 { return reservedLine(m) + 600*mib },
				5: func(float64) int64 { return 79 * gib },
			},
			uuids: map[int]string{0: "GPU-00000000-0000-4000-8000-000000000000", 5: "GPU-8A3C0B1E-0000-4000-8000-000000000005"},
			want:  []int{5}, method: []JoinMethod{JoinByUUID}, ambiguous: []bool{false},
			why: func(j Join) bool { return j.ID.UUID != "" && j.ID.PID == 0 },
		},
		{
			name: "pid in memory_stats found in compute-apps",
			in: func() []JoinInput {
				in := JoinInput{Key: dev0, pids: []int{4242}}
				return []JoinInput{in}
			}(),
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 3 * gib },
				6: func(float64) int64 { return 30 * gib },
			},
			procs: []gpulog.ProcessSample{{Time: t0, GPU: 6, PID: 4242, UsedMemory: 29 * gib}},
			want:  []int{6}, method: []JoinMethod{JoinByUUID}, ambiguous: []bool{false},
			why: func(j Join) bool { return j.ID.PID == 4242 && j.ID.UUID == "" },
		},
		{
			name: "torchrun ranks all on cuda:0, GPUs tracked per rank",
			in: []JoinInput{
				growingObs(DeviceKey{Rank: 0, Device: 0}, n),
				func() JoinInput {
					in := JoinInput{Key: DeviceKey{Rank: 1, Device: 0}}
					for i := range n {
						in.Reserved = append(in.Reserved, TimedValue{t0.Add(time.Duration(i) * time.Minute), 20 * gib})
					}
					return in
				}(),
			},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 20*gib + 700*mib },
				1: func(m float64) int64 { return reservedLine(m) + 600*mib },
			},
			want:   []int{1, 0},
			method: []JoinMethod{JoinByTracking, JoinByTracking}, ambiguous: []bool{false, false},
		},
		{
			name: "outside-allocator growth on the right GPU, another job grows alike far above",
			in:   []JoinInput{flatObs(dev0, n, 7*gib)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 5 * gib }, // below reserved
				1: func(m float64) int64 { return 7*gib + 400*mib + int64(m*500)*mib },
				4: func(m float64) int64 { return 11*gib + int64(m*400)*mib },
			},
			want: []int{1}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
		},
		{
			// Reserved memory steps up by 1 GiB at each snapshot, and
			// GPU 1's reading at the snapshot's second still shows the
			// level before; the reading 10 s later holds it. Read at the
			// nearest reading alone, GPU 1 sat below reserved at every
			// snapshot and the idle-looking GPU 2 won.
			name: "CUDA_VISIBLE_DEVICES=1, readings lag the snapshots by a sample",
			in:   []JoinInput{growingObs(dev0, n)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 14 * gib },
				1: func(m float64) int64 { return reservedLine(math.Floor(m-0.1)) + 600*mib },
				2: func(float64) int64 { return 79 * gib },
			},
			want: []int{1}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
		},
		{
			// CUDA_VISIBLE_DEVICES=2,3,6,7: rank r is cuda:r on the r-th
			// listed GPU. The four ranks reserve about the same, so each
			// of the job's GPUs tracks every rank about as well; GPU 1
			// runs another job that grows alike far above. One device at
			// a time, cuda:1 stays on GPU 1 and two ranks share a GPU;
			// in rank order, one GPU each, every rank is tracked.
			name: "four ranks on GPUs 2,3,6,7: one GPU each, in rank order",
			in: []JoinInput{
				growingObs(DeviceKey{Rank: 0, Device: 0}, n), growingObs(DeviceKey{Rank: 1, Device: 1}, n),
				growingObs(DeviceKey{Rank: 2, Device: 2}, n), growingObs(DeviceKey{Rank: 3, Device: 3}, n),
			},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 0 },
				1: func(m float64) int64 { return reservedLine(m) + 20*gib },
				2: func(m float64) int64 { return reservedLine(m) + 600*mib },
				3: func(m float64) int64 { return reservedLine(m) + 620*mib },
				4: func(float64) int64 { return 79 * gib },
				6: func(m float64) int64 { return reservedLine(m) + 590*mib },
				7: func(m float64) int64 { return reservedLine(m) + 610*mib },
			},
			want:   []int{2, 3, 6, 7},
			method: []JoinMethod{JoinByTracking, JoinByTracking, JoinByTracking, JoinByTracking}, ambiguous: []bool{false, false, false, false},
		},
		{
			// Another job of about the same size as this device sits a
			// little below its reserved memory, within the per-reading
			// slack, so it looked "at or above" reserved and, being
			// closest to it, won. The device's own GPU holds reserved
			// memory plus a CUDA context above it.
			name: "another job just below reserved is not the device's GPU",
			in:   []JoinInput{flatObs(dev0, n, 20*gib)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 0 },
				2: func(float64) int64 { return 20*gib - 40*mib },
				5: func(float64) int64 { return 20*gib + 500*mib },
			},
			want: []int{5}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
		},
		{
			name: "the index GPU runs another job just below reserved",
			in:   []JoinInput{flatObs(dev0, n, 20*gib)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 20*gib - 40*mib },
				5: func(float64) int64 { return 20*gib + 500*mib },
			},
			want: []int{5}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
			why: func(j Join) bool {
				return j.Track.Index == IndexOutcome{GPU: 0, Loss: IndexNoRoom, Matched: 10, Gap: 40 * mib}
			},
		},
		{
			// Reserved memory sits at 7 GiB and drops by 1 GiB right after
			// empty_cache() at 3 of the 10 snapshots. Its median does not
			// move, so any GPU at a steady level above 7 GiB "tracked"
			// it, and GPU 2, another job steady just above, was closest
			// above. GPU 6 holds the device: it drops with it.
			name: "reserved leaves its level at a few snapshots: the GPU that moves with it",
			in:   []JoinInput{dippingObs(dev0, n, 7*gib, gib, dips)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 0 },
				2: func(float64) int64 { return 7*gib + 300*mib },
				6: func(m float64) int64 { return dippingLevel(m, 7*gib, gib, dips) + 900*mib },
			},
			want: []int{6}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
			why: func(j Join) bool { return j.Track.Departures == 3 && j.Track.Followed == 3 },
		},
		{
			// The dumps at 3 of the 8 snapshots caught reserved memory at
			// a peak 8 GiB above its level (a tensor re-created bigger,
			// then its old segments released) that lasts less than the
			// readings' interval: GPU 5, idle before the first snapshot
			// and after the last, holds the device but never shows the
			// peaks, and was below reserved memory at those 3 times, too
			// often to track it. GPU 1 runs another job, nearly full,
			// above reserved memory at every time. A snapshot's reserved
			// memory is held by the readings at the lower of it and its
			// neighbours'.
			name: "peaks between readings: the GPU below only at the peaks",
			in: []JoinInput{func() JoinInput {
				in := flatObsFrom(dev0, 1, n-1, 10*gib)
				for _, k := range []int{2, 4, 6} {
					in.Reserved[k].Value += 8 * gib
				}
				return in
			}()},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 0 },
				1: func(float64) int64 { return 79 * gib },
				5: func(m float64) int64 { return lifeAt(m, 0.9, n-2+0.1, 10*gib+700*mib) },
			},
			want: []int{5}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
			why: func(j Join) bool { return j.Track.Lifetime },
		},
		{
			// Logging began before the process and outlived it: GPU 5 is
			// idle before the first snapshot and after the last, and its
			// memory.used also carries growth outside the allocator.
			// GPU 3 runs another job through the whole log, steady just
			// above the device's flat reserved memory, and was closest
			// above it.
			name: "the GPU idle before and after the snapshots holds the process",
			in:   []JoinInput{flatObsFrom(dev0, 1, n-1, 10*gib)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 0 },
				3: func(float64) int64 { return 10*gib + 300*mib },
				5: func(m float64) int64 { return lifeAt(m, 0.9, n-2+0.1, 11*gib+int64(m*100)*mib) },
			},
			want: []int{5}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
			why: func(j Join) bool { return j.Track.Lifetime },
		},
		{
			// The process started before logging did; another job starts
			// on GPU 4 just before the first snapshot and runs on. One
			// end of a life near the snapshots is chance, not evidence.
			name: "another job starting near the first snapshot is not the process",
			in:   []JoinInput{flatObsFrom(dev0, 1, n-1, 10*gib)},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 0 },
				2: func(float64) int64 { return 10*gib + 400*mib },
				4: func(m float64) int64 { return lifeAt(m, 0.9, math.Inf(1), 11*gib+500*mib) },
			},
			want: []int{2}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
		},
		{
			// The snapshots have no trace times and copied file times:
			// nothing places them in time. GPU 4 alone is busy for one
			// stretch inside the log at the device's reserved memory;
			// GPU 0 runs another job through the log, GPU 6 one that
			// comes and goes.
			name: "untimed snapshots: the one GPU holding a whole life at reserved memory",
			in:   []JoinInput{{Key: dev0, Levels: []int64{9 * gib, 10 * gib, 10 * gib}}},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 20 * gib },
				4: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) },
				6: func(m float64) int64 { return lifeAt(m, 1, 3, 12*gib) + lifeAt(m, 5, 8, 12*gib) },
			},
			want: []int{4}, method: []JoinMethod{JoinByLifetime}, ambiguous: []bool{false},
			why: func(j Join) bool { return j.Life.Peak > 0 && j.Life.InOrder == nil },
		},
		{
			name: "untimed snapshots, two GPUs hold a life: index rule",
			in:   []JoinInput{{Key: dev0, Levels: []int64{9 * gib, 10 * gib, 10 * gib}}},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 20 * gib },
				4: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) },
				5: func(m float64) int64 { return lifeAt(m, 1, 8, 11*gib) },
			},
			want: []int{0}, method: []JoinMethod{JoinByIndex}, ambiguous: []bool{false},
		},
		{
			// Four ranks of one job on cuda:0..3 with
			// CUDA_VISIBLE_DEVICES=1,2,3,6, snapshots without usable
			// times. The four ranks live and die together, so each
			// rank's lifetime evidence names all four GPUs; GPU 0 runs a
			// saw-tooth job through the log, GPU 4 is idle.
			name: "untimed ranks of one job: the GPUs holding their lives, in order",
			in: []JoinInput{
				{Key: DeviceKey{Rank: 0, Device: 0}, Levels: []int64{9 * gib, 10 * gib, 10 * gib}},
				{Key: DeviceKey{Rank: 1, Device: 1}, Levels: []int64{9 * gib, 10 * gib, 10 * gib}},
				{Key: DeviceKey{Rank: 2, Device: 2}, Levels: []int64{9 * gib, 10 * gib, 12 * gib}},
				{Key: DeviceKey{Rank: 3, Device: 3}, Levels: []int64{9 * gib, 10 * gib, 10 * gib}},
			},
			gpus: map[int]func(float64) int64{
				0: func(m float64) int64 { return 20*gib + int64(math.Mod(m, 3)*float64(4*gib)) },
				1: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) },
				2: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) },
				3: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) + lifeAt(m, 5, 7, 2*gib) },
				4: func(float64) int64 { return 0 },
				6: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) },
			},
			want:      []int{1, 2, 3, 6},
			method:    []JoinMethod{JoinByLifetime, JoinByLifetime, JoinByLifetime, JoinByLifetime},
			ambiguous: []bool{false, false, false, false},
			why:       func(j Join) bool { return len(j.Life.InOrder) == 4 },
		},
		{
			// The same with a fifth GPU holding a life at these levels:
			// which four are the job's is not known, so the index rule
			// stays.
			name: "untimed ranks, more GPUs holding a life than ranks: index rule",
			in: []JoinInput{
				{Key: DeviceKey{Rank: 0, Device: 0}, Levels: []int64{9 * gib, 10 * gib, 10 * gib}},
				{Key: DeviceKey{Rank: 1, Device: 1}, Levels: []int64{9 * gib, 10 * gib, 10 * gib}},
			},
			gpus: map[int]func(float64) int64{
				0: func(m float64) int64 { return 20 * gib },
				1: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) },
				2: func(m float64) int64 { return lifeAt(m, 2, 7, 10*gib+500*mib) },
				3: func(m float64) int64 { return lifeAt(m, 1, 8, 11*gib) },
			},
			want:      []int{0, 1},
			method:    []JoinMethod{JoinByIndex, JoinByIndex},
			ambiguous: []bool{false, false},
		},
		{
			// Five snapshots, one of them at a peak of 14 GiB that lasts
			// less than a sampling interval: GPU 5's readings never show
			// it, so GPU 5 sat below reserved memory at 1 of 5 times, and
			// with 10% of 5 forgiving none, only GPU 2, another job steady
			// above the peak, was a candidate.
			name: "one snapshot at a peak no reading shows is forgiven",
			in: func() []JoinInput {
				in := flatObsFrom(dev0, 1, 6, 10*gib)
				in.Reserved[2].Value = 14 * gib
				return []JoinInput{in}
			}(),
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 0 },
				2: func(float64) int64 { return 14*gib + 500*mib },
				5: func(m float64) int64 { return lifeAt(m, 0.9, 5.1, 10*gib+500*mib) },
			},
			want: []int{5}, method: []JoinMethod{JoinByTracking}, ambiguous: []bool{false},
		},
		{
			// Rank 1 grows 32 MiB a minute on GPU 3; GPU 2 holds flat rank
			// 0. A straight line fits GPU 2 − rank 1 too (spread 0), but it
			// falls: GPU 2 does not follow rank 1's growth. And GPU 3,
			// rank 1's without doubt, is no alternative for flat rank 0,
			// though used − reserved of a straight line tracks it as well.
			name: "CUDA_VISIBLE_DEVICES=2,3: flat rank 0 on GPU 2, growing rank 1 on GPU 3, neither ambiguous",
			in: func() []JoinInput {
				r0, r1 := DeviceKey{Rank: 0, Device: 0}, DeviceKey{Rank: 1, Device: 1}
				a, b := flatObs(r0, n, 3456*mib), JoinInput{Key: r1}
				for i := range n {
					b.Reserved = append(b.Reserved, TimedValue{t0.Add(time.Duration(i) * time.Minute), 3520*mib + int64(i)*32*mib})
				}
				return []JoinInput{a, b}
			}(),
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 60000 * mib }, // another user's job
				1: func(float64) int64 { return 12 * mib },    // idle
				2: func(float64) int64 { return 4200 * mib },
				3: func(m float64) int64 { return 4300*mib + int64(m*32)*mib },
			},
			want: []int{2, 3}, method: []JoinMethod{JoinByTracking, JoinByTracking}, ambiguous: []bool{false, false},
		},
		{
			name: "no timed evidence: index rule",
			in:   []JoinInput{{Key: dev0}},
			gpus: map[int]func(float64) int64{
				0: func(float64) int64 { return 5 * gib },
				1: func(float64) int64 { return 7 * gib },
			},
			want: []int{0}, method: []JoinMethod{JoinByIndex}, ambiguous: []bool{false},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
			for _, g := range slices.Sorted(maps.Keys(tt.gpus)) {
				l.GPUs = append(l.GPUs, gpulog.GPU{Index: g, UUID: tt.uuids[g]})
				gpuTrace(l, g, n, tt.gpus[g])
			}
			l.Processes = tt.procs
			got := joinGPUs(tt.in, []*gpulog.GPULog{l})
			for i, j := range got {
				if j.GPU != tt.want[i] || j.Method != tt.method[i] || (len(j.Ambiguous) > 0) != tt.ambiguous[i] {
					t.Errorf("device %d: joined GPU %d by %s (ambiguous %v), want GPU %d by %s (ambiguous %v)\n%+v",
						i, j.GPU, j.Method, j.Ambiguous, tt.want[i], tt.method[i], tt.ambiguous[i], j)
				}
				if tt.why != nil && i == 0 && !tt.why(j) {
					t.Errorf("join evidence not as wanted: %+v", j)
				}
			}
		})
	}
}

// TestGPUJoinDuplicateReadings: the same readings arrive three times
// (a log concatenated with itself, or CSV, XML and a recorder sampling
// the same instants), so two of every three gaps between readings are 0.
// The sampling interval is still the time between distinct readings, and
// the lagging readings of the device's GPU still join it.
func TestGPUJoinDuplicateReadings(t *testing.T) {
	const n = 10
	var logs []*gpulog.GPULog
	for range 3 {
		l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
		gpuTrace(l, 0, n, func(float64) int64 { return 14 * gib })
		gpuTrace(l, 1, n, func(m float64) int64 { return reservedLine(math.Floor(m-0.1)) + 600*mib })
		gpuTrace(l, 2, n, func(float64) int64 { return 79 * gib })
		logs = append(logs, l)
	}
	if got := GPUReadings(logs, 1, Placer{Axis: units.PerHour}).SampleInterval(); got != 10*time.Second {
		t.Errorf("sampling interval %v, want 10s", got)
	}
	j := joinGPUs([]JoinInput{growingObs(DeviceKey{Rank: input.NoRank, Device: 0}, n)}, logs)[0]
	if j.GPU != 1 {
		t.Errorf("joined GPU %d, want GPU 1:\n%+v", j.GPU, j)
	}
}

// TestGPUJoinShortRunInLongLog: nvidia-smi logged for 10 hours and the
// run lasted 10 minutes of it, so the device's GPU is idle for most of the
// log. Its life still shows against the device's reserved memory, and
// wins over another job steady just above reserved through the log.
func TestGPUJoinShortRunInLongLog(t *testing.T) {
	const hours = 10
	l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
	gpus := map[int]func(float64) int64{
		0: func(float64) int64 { return 0 },
		2: func(float64) int64 { return 10*gib + 300*mib },
		5: func(m float64) int64 {
			if m < 299.9 || m > 309.1 {
				return 0
			}
			return 11 * gib
		},
	}
	for _, g := range slices.Sorted(maps.Keys(gpus)) {
		l.GPUs = append(l.GPUs, gpulog.GPU{Index: g})
		gpuTrace(l, g, hours*60, gpus[g])
	}
	in := flatObsFrom(DeviceKey{Rank: input.NoRank, Device: 0}, 300, 310, 10*gib)
	j := joinGPUs([]JoinInput{in}, []*gpulog.GPULog{l})[0]
	if j.GPU != 5 || !j.Track.Lifetime {
		t.Errorf("joined GPU %d, want GPU 5 by its lifetime:\n%+v", j.GPU, j)
	}
}

// BenchmarkGPUJoins joins 8 ranks to 8 GPUs logged every 10 s for a day,
// each rank with a snapshot every 15 minutes: the tracking scores of every
// (device, GPU) pair.
func BenchmarkGPUJoins(b *testing.B) {
	const minutes = 24 * 60
	l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
	var ins []JoinInput
	for g := range 8 {
		l.GPUs = append(l.GPUs, gpulog.GPU{Index: g})
		gpuTrace(l, g, minutes, func(m float64) int64 { return 20*gib + int64(g)*gib + int64(m)*mib })
		in := JoinInput{Key: DeviceKey{Rank: g, Device: 0}}
		for i := 0; i < minutes; i += 15 {
			in.Reserved = append(in.Reserved, TimedValue{t0.Add(time.Duration(i) * time.Minute), 19*gib + int64(g)*gib + int64(i)*mib})
		}
		ins = append(ins, in)
	}
	logs := []*gpulog.GPULog{l}
	b.ReportAllocs()
	for b.Loop() {
		joinGPUs(ins, logs)
	}
}

// TestGPUJoinRunsByIndex: two processes on cuda:0 of a machine whose two
// GPUs' readings track neither. Two ranks of a job take the rank rule's
// guess (rank 1 on GPU 1); two separate runs of a script (a run started
// over, a sweep's experiments: DeviceKey.Run) are no ranks, and each
// joins the GPU of its device index, as a one-GPU script's runs ran,
// whatever number placement gave the second run. A run of rank 1 of a
// job still takes rank 1's guess.
func TestGPUJoinRunsByIndex(t *testing.T) {
	const n = 10
	l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
	gpuTrace(l, 0, n, func(float64) int64 { return 0 })
	gpuTrace(l, 1, n, func(float64) int64 { return 0 })
	run := func(rank, n int, jobRank int) DeviceKey {
		return DeviceKey{Rank: rank, Device: 0, Run: ingest.ScriptRun{N: n, Rank: jobRank}}
	}
	tests := []struct {
		name   string
		keys   [2]DeviceKey
		want   [2]int
		method [2]JoinMethod
	}{
		{"two ranks: the rank rule's guess", [2]DeviceKey{{Rank: 0}, {Rank: 1}}, [2]int{0, 1}, [2]JoinMethod{JoinByRank, JoinByRank}},
		{"two runs of a script without ranks: by index", [2]DeviceKey{run(0, 1, input.NoRank), run(1, 2, input.NoRank)}, [2]int{0, 0}, [2]JoinMethod{JoinByIndex, JoinByIndex}},
		{"rank 0, and rank 1 run again: rank 1's guess", [2]DeviceKey{{Rank: 0}, run(2, 2, 1)}, [2]int{0, 1}, [2]JoinMethod{JoinByRank, JoinByRank}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := joinGPUs([]JoinInput{flatObs(tt.keys[0], n, 20*gib), flatObs(tt.keys[1], n, 20*gib)}, []*gpulog.GPULog{l})
			for i, j := range got {
				if j.GPU != tt.want[i] || j.Method != tt.method[i] {
					t.Errorf("%s: GPU %d by %s, want GPU %d by %s", tt.keys[i].Name(), j.GPU, j.Method, tt.want[i], tt.method[i])
				}
			}
		})
	}
}
