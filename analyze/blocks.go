package analyze

import (
	"iter"

	"gpureport/ingest"
)

// deviceSegments yields the segments of device dev in snapshot s with
// their index in s.Segments.
func deviceSegments(s *ingest.Snapshot, dev int) iter.Seq2[int, *ingest.Segment] {
	return func(yield func(int, *ingest.Segment) bool) {
		for i := range s.Segments {
			if seg := &s.Segments[i]; seg.Device == dev && !yield(i, seg) {
				return
			}
		}
	}
}

// liveBlocks yields device dev's live (active_allocated) blocks in
// snapshot s, in segment and address order.
func liveBlocks(s *ingest.Snapshot, dev int) iter.Seq[*ingest.Block] {
	return func(yield func(*ingest.Block) bool) {
		for _, seg := range deviceSegments(s, dev) {
			for j := range seg.Blocks {
				if b := &seg.Blocks[j]; b.State == ingest.StateActiveAllocated && !yield(b) {
					return
				}
			}
		}
	}
}
