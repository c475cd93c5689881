package roles

import (
	"testing"

	"gpureport/snapshot"
)

// TestSceneAtPoolByAddress checks that a trace event without a pool_id
// (PyTorch before 2.1) takes the pool of the segment holding its address,
// whatever the segments' order in the file, and no pool outside them.
func TestSceneAtPoolByAddress(t *testing.T) {
	seg := func(addr uint64, pool [2]int64) *snapshot.Segment {
		return &snapshot.Segment{Device: 0, Address: addr, TotalSize: 0x1000, PrivatePool: pool}
	}
	s := &snapshot.Snapshot{
		// Out of address order, with another device's segment between.
		Segments: []*snapshot.Segment{seg(0x3000, [2]int64{1, 2}), seg(0x1000, [2]int64{}), {Device: 1, Address: 0x2800, TotalSize: 0x100, PrivatePool: [2]int64{9, 9}}, seg(0x2000, [2]int64{5, 6})},
	}
	want := map[uint64][2]int64{
		0x2100: {5, 6}, 0x2fff: {5, 6}, 0x3000: {1, 2}, 0x3800: {1, 2}, 0x1100: {},
		0x4000: {}, 0x0fff: {}, 0x2800: {5, 6},
	}
	var tr []snapshot.TraceEntry
	for _, a := range []uint64{0x2100, 0x2fff, 0x3000, 0x3800, 0x1100, 0x4000, 0x0fff, 0x2800} {
		tr = append(tr, snapshot.TraceEntry{Action: snapshot.ActionAlloc, Addr: a, Size: 1})
	}
	s.Traces = [][]snapshot.TraceEntry{tr}
	sc := SceneAt(s, 0, len(tr)-1)
	if sc == nil || len(sc.Blocks) != len(tr) {
		t.Fatalf("scene %+v: want %d blocks", sc, len(tr))
	}
	for _, b := range sc.Blocks {
		if b.Pool != want[b.Addr] {
			t.Errorf("block at %#x: pool %v, want %v", b.Addr, b.Pool, want[b.Addr])
		}
	}
}
