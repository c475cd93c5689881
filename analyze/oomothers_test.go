package analyze

import (
	"slices"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/internal/units"
)

// said is an OOM message's figures as OOM.Logged or OOM.Message hold
// them: total, this process's memory in use, the other processes' and
// the cap (gpulog.Unknown where not printed).
func said(total, inUse, others, allowed int64, pid int) *OOMMessage {
	m := &OOMMessage{Total: total, ProcessInUse: inUse, OtherProcesses: others, Allowed: allowed, OtherAllocations: gpulog.Unknown, GPU: 0}
	if others > 0 {
		m.OtherCount, m.LargestOtherPID, m.LargestOther = 1, pid, others
	}
	return m
}

// TestOutsideOOM: docs/design.md's cause after fragmentation. A snapshot's
// OOM whose process holds far less than the device offers, the request
// lacking memory, is an others OOM when the message of the same OOM lists
// other processes holding what the request lacked, unknown (memory
// outside the process unaccounted) when nothing says whose it was, and a
// capacity OOM only when the process's memory and the request come near
// the device's.
func TestOutsideOOM(t *testing.T) {
	const unk = gpulog.Unknown
	tests := []struct {
		name string
		// capacity is the device's (a GPU log's total, 0 unknown);
		// reserved the allocator's at the OOM; free CUDA's; req the
		// request; logged the message of the same OOM (nil: none).
		capacity, reserved, free, req int64
		logged                        *OOMMessage
		cause                         OOMCause
		outside                       int64 // about, within 1%; 0: none
		first                         StepKind
	}{
		// hunt6 o-other-process: 58.70 GiB of Process 4242.
		{"another process", 0, 20 * gib, 312 * mib, 2 * gib, said(79*gib+194*mib, 20*gib+184*mib, 58*gib+717*mib, unk, 4242), CauseOthers, 58*gib + 717*mib, StepOthersFree},
		// The same OOM with a GPU log's total and no message: 59 GiB
		// outside the allocator, whose nobody says.
		{"snapshot and GPU total only", 79*gib + 194*mib, 20 * gib, 312 * mib, 2 * gib, nil, CauseCapacity, 58*gib + 906*mib, StepReduceLive},
		// hunt4 d-cuda-oom-mps-daemon's figures on a snapshot: "this
		// process has 19.60 GiB", no process listed (an MPS client).
		{"unlisted outside memory", 0, 19 * gib, 0, 2 * gib, said(79*gib+154*mib, 19*gib+614*mib, unk, unk, 0), CauseCapacity, 59*gib + 564*mib, StepReduceLive},
		// Listed processes too small to explain what the request lacked:
		// the rest is unaccounted.
		{"listed too small", 0, 19 * gib, 0, 2 * gib, said(79*gib+154*mib, 19*gib+614*mib, 1*gib, unk, 7), CauseCapacity, 59*gib + 564*mib, StepReduceLive},
		// The process holds the device: capacity.
		{"own memory fills it", 80 * gib, 78 * gib, 300 * mib, 2 * gib, nil, CauseCapacity, 0, StepReduceLive},
		// Outside the allocator but within a context, NCCL and the
		// driver's reserve: the process's own memory, capacity.
		{"own non-PyTorch memory", 80 * gib, 77*gib + 512*mib, 300 * mib, 2 * gib, nil, CauseCapacity, 0, StepReduceLive},
		// A desktop's display server (1.1 GiB of a 23.6 GiB card) could
		// have made room, but holds under a tenth of the device.
		{"desktop processes", 0, 22 * gib, 100 * mib, 500 * mib, said(23*gib+614*mib, 22*gib+400*mib, 1*gib+100*mib, unk, 1234), CauseCapacity, 0, StepReduceLive},
		// No device total: nothing outside can be told.
		{"no total", 0, 20 * gib, 312 * mib, 2 * gib, nil, CauseCapacity, 0, StepReduceLive},
		// hunt6 o-limit-memory-fraction: the free memory covered the
		// request; the message's cap is the check to make first.
		{"limit with the logged cap", 0, 38 * gib, 40*gib + 317*mib, 4 * gib, said(79*gib+194*mib, 38*gib+880*mib, unk, 39*gib+614*mib, 0), CauseLimit, 0, StepLimitFraction},
		{"limit without a message", 0, 38 * gib, 40*gib + 317*mib, 4 * gib, nil, CauseLimit, 0, StepLimitCap},
	}
	for _, tt := range tests {
		o := OOM{Requested: tt.req, DeviceFree: tt.free, Reserved: tt.reserved, Allocated: tt.reserved, Capacity: tt.capacity,
			Missing: max(0, tt.req-tt.free), Logged: tt.logged, LoggedIn: "train.log"}
		classifyOOM(&o)
		if o.Cause != tt.cause {
			t.Errorf("%s: cause %q, want %q", tt.name, o.Cause, tt.cause)
			continue
		}
		if d := o.Outside - tt.outside; d*100 > tt.outside || -d*100 > tt.outside {
			t.Errorf("%s: outside %s, want about %s", tt.name, units.Bytes(o.Outside), units.Bytes(tt.outside))
		}
		// Memory outside the process that no input names leaves the
		// cause capacity, with a step to find it.
		find := slices.ContainsFunc(o.Recommendations, func(r Recommendation) bool { return r.Kind == StepOutsideFind })
		if find != (tt.outside > 0 && tt.cause == CauseCapacity) {
			t.Errorf("%s: recommendations %+v: a step to find the outside memory %v, want %v", tt.name, o.Recommendations, find, !find)
		}
		if len(o.Recommendations) == 0 || o.Recommendations[0].Kind != tt.first {
			t.Errorf("%s: recommendations %+v, want %q first", tt.name, o.Recommendations, tt.first)
		}
	}
}

// TestTrainingOOMOutside: a training log's message alone is classed as a
// snapshot's OOM is, from its own figures.
func TestTrainingOOMOutside(t *testing.T) {
	const unk = gpulog.Unknown
	msg := func(total, free, inUse, others int64, pid int) gpulog.TrainingOOM {
		m := gpulog.TrainingOOM{Line: 2, Count: 1, Kind: gpulog.OOMTorch, Rank: input.NoRank, Device: 0, Requested: 2 * gib, RequestedSlack: 5 << 20,
			Capacity: total, Free: free, FreeSlack: 5 << 20, ProcessInUse: inUse, Allocated: inUse - 2*gib, Reserved: inUse - 1*gib,
			ReservedUnallocated: 1 * gib, Allowed: unk, PrivatePools: unk, OtherProcesses: unk, OtherAllocations: unk}
		if others > 0 {
			m.OtherProcesses, m.OtherCount, m.LargestOtherPID, m.LargestOther = others, 1, pid, others
		}
		return m
	}
	tests := []struct {
		name  string
		m     gpulog.TrainingOOM
		cause OOMCause
	}{
		{"other process listed", msg(79*gib, 0, 20*gib, 58*gib, 4242), CauseOthers},
		{"nothing listed", msg(79*gib, 0, 20*gib, 0, 0), CauseCapacity},
		{"own memory fills it", msg(79*gib, 0, 78*gib+512*mib, 0, 0), CauseCapacity},
	}
	for _, tt := range tests {
		o := trainingOOM("train.log", tt.m, DeviceKey{Rank: input.NoRank, Type: CUDA}, 0, false)
		if o.Cause != tt.cause {
			t.Errorf("%s: cause %q, want %q", tt.name, o.Cause, tt.cause)
		}
		if (tt.name != "own memory fills it") != (o.Outside > 0) {
			t.Errorf("%s: outside %s", tt.name, units.Bytes(o.Outside))
		}
	}
}

// TestMergeLoggedOOMs: a training log's message of the OOM a snapshot
// explains (same device, request and free memory) gives the snapshot's
// OOM its figures, so the cap it printed decides what to check first;
// another OOM's message, of another request or free memory, does not.
func TestMergeLoggedOOMs(t *testing.T) {
	const unk = gpulog.Unknown
	snapOOM := func() OOM {
		o := OOM{Path: "oom_snapshot.pickle", Rank: input.NoRank, Type: CUDA, Requested: 4 * gib, DeviceFree: 40*gib + 317*mib,
			Reserved: 38 * gib, Allocated: 38 * gib, LargestFree: 0}
		classifyOOM(&o)
		return o
	}
	msg := func(req, free int64) *gpulog.TrainingOOM {
		return &gpulog.TrainingOOM{Line: 2, Count: 1, Kind: gpulog.OOMTorch, Rank: input.NoRank, Device: 0, Requested: req, RequestedSlack: 5 << 20,
			Capacity: 79*gib + 194*mib, Free: free, FreeSlack: 5 << 20, ProcessInUse: 38*gib + 880*mib, Allocated: 38 * gib,
			Reserved: 38*gib + 40*mib, ReservedUnallocated: 40 * mib, Allowed: 39*gib + 614*mib, PrivatePools: unk,
			OtherProcesses: unk, OtherAllocations: unk, Fatal: true}
	}
	tests := []struct {
		name   string
		m      *gpulog.TrainingOOM
		merged bool
	}{
		{"same OOM", msg(4*gib, 40*gib+317*mib), true},
		{"same OOM, free unprinted", msg(4*gib, unk), true},
		{"another request", msg(6*gib, 40*gib+317*mib), false},
		{"other free memory", msg(4*gib, 30*gib), false},
	}
	for _, tt := range tests {
		known := []OOM{snapOOM()}
		placed := []logOOM{{path: "train.log", m: tt.m, key: DeviceKey{Rank: input.NoRank, Type: CUDA}}}
		mergeLoggedOOMs(placed, known)
		o := known[0]
		// A retry that failed again at the same request and free
		// memory: the message is either, and both take it.
		again := []OOM{snapOOM(), snapOOM()}
		mergeLoggedOOMs(placed, again)
		if (again[0].Logged != nil) != tt.merged || (again[1].Logged != nil) != tt.merged {
			t.Errorf("%s: of two equal OOMs merged %v and %v, want %v", tt.name, again[0].Logged != nil, again[1].Logged != nil, tt.merged)
		}
		if (o.Logged != nil) != tt.merged {
			t.Errorf("%s: merged %v, want %v", tt.name, o.Logged != nil, tt.merged)
			continue
		}
		first := StepLimitCap
		if tt.merged {
			first = StepLimitFraction
			if o.LoggedIn != "train.log" || o.Logged.Allowed != tt.m.Allowed || o.Said() != o.Logged || o.Message != nil {
				t.Errorf("%s: logged %+v in %q", tt.name, o.Logged, o.LoggedIn)
			}
		}
		if o.Cause != CauseLimit || len(o.Recommendations) == 0 || o.Recommendations[0].Kind != first {
			t.Errorf("%s: cause %q, recommendations %+v; want limit, %q first", tt.name, o.Cause, o.Recommendations, first)
		}
	}
}
