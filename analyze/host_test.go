package analyze

import (
	"fmt"
	"testing"
	"time"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// pinStack is the stack of a batch the data loader's pin_memory thread
// pins (torch/utils/data/_utils/pin_memory.py, PyTorch 2.x).
func pinStack() []snapshot.Frame {
	return []snapshot.Frame{
		torchFrame("utils/data/_utils/pin_memory.py", 73, "pin_memory"),
		torchFrame("utils/data/_utils/pin_memory.py", 38, "do_one_step"),
		torchFrame("utils/data/_utils/pin_memory.py", 58, "_pin_memory_loop"),
		{File: "/opt/conda/lib/python3.11/threading.py", Line: 1010, Name: "run"},
	}
}

// hostSegment adds a pinned host segment of one block (the host
// allocator does not split).
func (b *snapBuilder) hostSegment(x blk) *snapBuilder {
	seg := snapshot.Segment{Device: snapshot.HostDevice, Address: 0x10000000 + uint64(len(b.s.HostSegments))<<26, Pool: snapshot.PoolLarge, TotalSize: x.size}
	bl := snapshot.Block{Address: seg.Address, Size: x.size, RequestedSize: x.size, State: x.state, Stack: b.stack(x.frames)}
	if x.state == snapshot.StateActiveAllocated {
		seg.AllocatedSize, seg.ActiveSize, seg.RequestedSize = x.size, x.size, x.size
	}
	seg.Blocks = []snapshot.Block{bl}
	b.s.HostSegments = append(b.s.HostSegments, &seg)
	return b
}

// pinnedRun is a run of n snapshots of rank 0 whose GPU memory is flat
// and whose pinned host memory grows by one kept 16 MiB batch per
// snapshot, beside a cached free 32 MiB block; recorded is false for
// files written without host memory (older PyTorch, or recording off).
func pinnedRun(n int, recorded func(i int) bool) *ingest.Run {
	var files []*ingest.SnapshotFile
	for i := range n {
		b := newSnap()
		b.segment(0, live(1*gib, stackAt("model.py", 20, "__init__")))
		if recorded(i) {
			b.hostSegment(free(32 * mib))
			for range i + 1 {
				b.hostSegment(live(16*mib, pinStack()))
			}
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		b.event(0, snapshot.ActionSnapshot, 0, 0, at.UnixMicro(), nil)
		step := int64(100 * (i + 1))
		files = append(files, file(b.done(), fmt.Sprintf("rank0/snapshot_step_%06d.pickle", step), step, 0))
	}
	return &ingest.Run{Dir: "pinned", Location: time.UTC, Snapshots: files}
}

// TestPinnedHostDevice analyses pinned host memory as a device of its
// own (docs/design.md, host_pinned): after the rank's CUDA devices, with
// its own accounting, trend and leak suspects, no GPU, capacity,
// fragmentation or OOMs, and no place in the comparison of ranks.
func TestPinnedHostDevice(t *testing.T) {
	const n = 8
	f := Analyze(pinnedRun(n, func(int) bool { return true }), Options{})
	if len(f.Devices) != 2 {
		t.Fatalf("%d devices, want cuda:0 and its pinned host memory", len(f.Devices))
	}
	gpu, host := f.Devices[0], f.Devices[1]
	if gpu.Host || !host.Host || host.Rank != 0 || host.Name() != "rank 0 · pinned host" {
		t.Fatalf("devices %v, %v", gpu.DeviceKey, host.DeviceKey)
	}
	if len(host.Points) != n {
		t.Fatalf("%d host points, want %d", len(host.Points), n)
	}
	for i, p := range host.Points {
		want := int64(i+1) * 16 * mib
		if p.Usage.Allocated != want || p.Usage.Reserved != want+32*mib {
			t.Errorf("point %d: allocated %d, reserved %d; want %d, %d", i, p.Usage.Allocated, p.Usage.Reserved, want, want+32*mib)
		}
	}
	if host.Status != StatusLeak || len(host.Suspects) == 0 || host.Suspects[0].Function != "pin_memory" {
		t.Errorf("host status %s, suspects %+v", host.Status, host.Suspects)
	}
	if gpu.Status == StatusLeak {
		t.Errorf("cuda:0 is flat, status %s", gpu.Status)
	}
	if !f.Verdict.Leak {
		t.Error("a growing pinned host memory is a leak")
	}
	if host.GPU != nil || host.Capacity != 0 || host.Fragmentation != nil {
		t.Errorf("host device has a GPU (%v), capacity %d or fragmentation %v", host.GPU, host.Capacity, host.Fragmentation)
	}
	if f.Ranks != nil {
		t.Errorf("one rank compared with its own pinned host memory: %+v", f.Ranks)
	}
	// Roles like any device's: the pinned batches are inputs, the leak is
	// input batches kept across steps.
	for i, p := range host.Points {
		if p.Roles == nil || p.Roles.Allocated != p.Usage.Allocated || p.Roles.Bytes[roles.Inputs] != p.Usage.Allocated {
			t.Errorf("host point %d: roles %+v of %d allocated, want all inputs", i, p.Roles, p.Usage.Allocated)
		}
	}
	if len(host.Suspects) > 0 {
		if sr := host.Suspects[0].Roles; sr == nil || sr.Role != roles.Inputs || sr.Bytes[roles.Inputs] != n*16*mib {
			t.Errorf("host suspect roles %+v, want %d bytes of inputs", sr, n*16*mib)
		}
	}
	if h := f.Held; h == nil || h.Device != gpu.DeviceKey || h.OOM != -1 {
		t.Errorf("held %+v, want the peak of cuda:0", h)
	}
}

// TestPinnedHostUnrecorded: files that did not record pinned host memory
// are left out of its series rather than read as empty, and a run that
// pinned nothing has no host device.
func TestPinnedHostUnrecorded(t *testing.T) {
	f := Analyze(pinnedRun(8, func(i int) bool { return i%2 == 0 }), Options{})
	if len(f.Devices) != 2 || !f.Devices[1].Host || len(f.Devices[1].Points) != 4 {
		t.Fatalf("devices %d; host points %d, want 4", len(f.Devices), len(f.Devices[len(f.Devices)-1].Points))
	}
	none := Analyze(pinnedRun(4, func(int) bool { return false }), Options{})
	if len(none.Devices) != 1 || none.Devices[0].Host {
		t.Errorf("a run without pinned host memory has %d devices", len(none.Devices))
	}
}
