package analyze

import "gpureport/snapshot"

// StackCoverage returns the share (0..1) of device dev's live bytes
// (active_allocated blocks) whose blocks carry an allocation stack, and the
// live bytes it was computed over. With no live bytes the share is 1: there
// is nothing left unexplained.
func StackCoverage(s *snapshot.Snapshot, dev int) (share float64, live int64) {
	var with int64
	for b := range liveBlocks(s, dev) {
		live += b.Size
		if b.Stack != snapshot.NoStack {
			with += b.Size
		}
	}
	if live == 0 {
		return 1, 0
	}
	return float64(with) / float64(live), live
}

// ActionCounts counts device dev's trace events by action.
func ActionCounts(s *snapshot.Snapshot, dev int) [snapshot.NumActions]int {
	var n [snapshot.NumActions]int
	if dev < 0 || dev >= len(s.Traces) {
		return n
	}
	for i := range s.Traces[dev] {
		n[s.Traces[dev][i].Action]++
	}
	return n
}
