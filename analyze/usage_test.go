package analyze

import (
	"reflect"
	"testing"

	"gpureport/analyze/roles"
	"gpureport/internal/testutil/realsnap"
	"gpureport/snapshot"
)

// TestPoolUsagesKindsAndFreeMemory checks the per-pool accounting: each
// pool's kind (from its id and the stacks allocated in it), and its free
// memory split into stranded (in segments that also hold live blocks:
// empty_cache() cannot return it) and reusable (whole free segments, and
// the free blocks of expandable segments), which sum to its inactive
// memory.
func TestPoolUsagesKindsAndFreeMemory(t *testing.T) {
	fwd := stackAt("model.py", 40, "forward")
	trees := []snapshot.Frame{torchFrame("_inductor/cudagraph_trees.py", 2150, "run_eager"), userFrame("train.py", 57, "train_step")}
	b := newSnap()
	b.segment(0, live(4*mib, fwd), free(16*mib))                     // default large: 16 MiB stranded
	b.segment(0, free(20*mib))                                       // default large: 20 MiB reusable
	b.segment(0, live(512*kib, fwd), free(1536*kib))                 // default small: 1.5 MiB stranded
	b.segment(0, live(2*mib, fwd), free(4*mib))                      // expandable: 4 MiB reusable
	b.segment(0, live(8*mib, fwd), free(12*mib))                     // CUDA graph (1, 0): 12 MiB stranded
	b.segment(0, live(8*mib, trees), free(2*mib), live(10*mib, fwd)) // cudagraph trees (0, 3): 2 MiB stranded
	b.s.Segments[3].Expandable = true
	b.s.Segments[4].PrivatePool = [2]int64{1, 0}
	b.s.Segments[5].PrivatePool = [2]int64{0, 3}
	s := b.done()
	type want struct {
		pool                         string
		kind                         roles.PoolKind
		inactive, stranded, reusable int64
	}
	wants := []want{
		{"small", roles.PoolDefault, 1536 * kib, 1536 * kib, 0},
		{"large", roles.PoolDefault, 40 * mib, 16 * mib, 24 * mib},
		{"private (0, 3)", roles.PoolCUDAGraphTrees, 2 * mib, 2 * mib, 0},
		{"private (1, 0)", roles.PoolCUDAGraph, 12 * mib, 12 * mib, 0},
	}
	got := PoolUsages(s, 0)
	if len(got) != len(wants) {
		t.Fatalf("%d pools: %+v", len(got), got)
	}
	for i, w := range wants {
		g := got[i]
		if g.Pool != w.pool || g.Kind != w.kind || g.KindDecided == 0 || g.Inactive != w.inactive || g.StrandedFree != w.stranded || g.ReusableFree != w.reusable {
			t.Errorf("pool %d: %s %s (decided by %d) inactive %d stranded %d reusable %d; want %+v", i, g.Pool, g.Kind, g.KindDecided, g.Inactive, g.StrandedFree, g.ReusableFree, w)
		}
	}
	u := DeviceUsage(s, 0)
	if u.StrandedFree+u.ReusableFree != u.Inactive || u.StrandedFree != 30*mib+1536*kib {
		t.Errorf("device: stranded %d + reusable %d, inactive %d", u.StrandedFree, u.ReusableFree, u.Inactive)
	}
}

// TestHostUsage accounts the pinned host memory of a snapshot and of its
// digest, and none for a snapshot without it.
func TestHostUsage(t *testing.T) {
	pin := []snapshot.Frame{torchFrame("utils/data/_utils/pin_memory.py", 73, "pin_memory")}
	b := newSnap()
	b.segment(0, live(4*mib, stackAt("model.py", 40, "forward")))
	b.segment(0, live(2*mib, pin))
	b.segment(0, free(4*mib))
	s := b.done()
	if _, ok := HostUsage(s); ok {
		t.Fatal("host usage of a snapshot without host memory")
	}
	s.HostSegments = s.Segments[1:]
	s.Segments = s.Segments[:1]
	for i := range s.HostSegments {
		s.HostSegments[i].Device = snapshot.HostDevice
	}
	for _, snap := range []*snapshot.Snapshot{s, snapshot.Reduce(s)} {
		u, ok := HostUsage(snap)
		if !ok || u.Reserved != 6*mib || u.Allocated != 2*mib || u.ReusableFree != 4*mib || u.Segments != 2 {
			t.Errorf("host usage %+v %v (digest %v)", u, ok, snap.Digest != nil)
		}
		if d := DeviceUsage(snap, 0); d.Reserved != 4*mib {
			t.Errorf("device 0 reserved %d: host segments leaked into it", d.Reserved)
		}
	}
}

// TestUsageOfPoolsIsDeviceUsage holds a device's usage summed from its
// pools to DeviceUsage, which reads the blocks itself, on every device of
// every real snapshot; and keeps the list of Usage's fields whole, so that
// a field added to Usage is summed there too.
func TestUsageOfPoolsIsDeviceUsage(t *testing.T) {
	if n := reflect.TypeFor[Usage]().NumField(); n != 12 {
		t.Fatalf("Usage has %d fields, 12 when usageOfPools was written: add the new ones there and here", n)
	}
	checked := 0
	for f, s := range realsnap.Each(t) {
		for _, dev := range s.Devices() {
			pools := PoolUsages(s, dev)
			got, want := usageOfPools(pools, s.TraceEntries(dev)), DeviceUsage(s, dev)
			if got != want {
				t.Errorf("%s device %d: usage of its %d pools %+v, want %+v", f, dev, len(pools), got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Skip("no real snapshot")
	}
}
