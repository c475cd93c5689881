package snapshot_test

import (
	"testing"

	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// TestRealSnapshotsSelfConsistent decodes every real snapshot and checks the
// decoded blocks against each segment's own totals: total_size is the sum of
// block sizes, allocated_size the sum of active_allocated blocks,
// active_size the sum of active blocks, requested_size the requested sum of
// active blocks; blocks are contiguous from the segment start.
func TestRealSnapshotsSelfConsistent(t *testing.T) {
	files := testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")
	if len(files) != 51 {
		t.Errorf("found %d real snapshots, want 51", len(files))
	}
	for _, f := range files {
		t.Run(testutil.Rel(t, f), func(t *testing.T) {
			s, c, err := snapshot.DecodeFile(f, snapshot.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c != snapshot.ContainerPickle {
				t.Errorf("container %q", c)
			}
			for i, seg := range s.Segments {
				var total, alloc, active, req int64
				next := seg.Address
				for j, b := range seg.Blocks {
					if b.Address != next {
						t.Fatalf("segment %d block %d at %#x, want %#x", i, j, b.Address, next)
					}
					next += uint64(b.Size)
					total += b.Size
					if b.State == snapshot.StateActiveAllocated {
						alloc += b.Size
					}
					if b.State.Active() {
						active += b.Size
						req += b.RequestedSize
					}
				}
				if total != seg.TotalSize || alloc != seg.AllocatedSize || active != seg.ActiveSize || req != seg.RequestedSize {
					t.Fatalf("segment %d: blocks sum to total %d alloc %d active %d requested %d; segment says %d %d %d %d",
						i, total, alloc, active, req, seg.TotalSize, seg.AllocatedSize, seg.ActiveSize, seg.RequestedSize)
				}
			}
		})
	}
}
