package analyze

import (
	"iter"

	"gpureport/snapshot"
)

// deviceSegments yields the segments of device dev in snapshot s with
// their index in s.Segments.
func deviceSegments(s *snapshot.Snapshot, dev int) iter.Seq2[int, *snapshot.Segment] {
	return func(yield func(int, *snapshot.Segment) bool) {
		for i := range s.Segments {
			if seg := s.Segments[i]; seg.Device == dev && !yield(i, seg) {
				return
			}
		}
	}
}

// liveBlocks yields device dev's live (active_allocated) blocks in
// snapshot s, in segment and address order.
func liveBlocks(s *snapshot.Snapshot, dev int) iter.Seq[*snapshot.Block] {
	return func(yield func(*snapshot.Block) bool) {
		for _, seg := range deviceSegments(s, dev) {
			for j := range seg.Blocks {
				if b := &seg.Blocks[j]; b.State == snapshot.StateActiveAllocated && !yield(b) {
					return
				}
			}
		}
	}
}
