package snapshot

import (
	"cmp"
	"slices"
)

// A block's own fields say where it was allocated (its stack) but not
// when, nor what the user said of it: user_metadata and annotations exist
// only on trace events (torch.cuda.memory._set_memory_metadata stamps the
// allocating event, torch.cuda.memory._annotate_tensor adds an "annotate"
// event at the block's address). BlockTrace carries those facts over to
// the blocks still live at the dump, by replaying the trace forward: an
// alloc opens an address, a free closes it (free_requested, or a
// free_completed whose free_requested was never recorded), an annotate
// event adds to the open allocation at its address. What is open at the
// end and is a live block of the snapshot was allocated inside the
// trace's window; a live block without an open allocation was allocated
// before it (before recording began, or before the ring buffer's
// oldest event).
//
// Both decoders and Reduce use one tracker, so a digest (made from a skim
// that keeps no trace) holds the same facts as the full snapshot.

// BlockTrace is what a device's trace says of one block that is live at
// the dump and was allocated inside the trace's window.
type BlockTrace struct {
	// Addr is the block's address.
	Addr uint64
	// Alloc is the index of the block's alloc event in the device's trace;
	// TimeUS its time (microseconds since the Unix epoch, UTC; 0 when the
	// trace has no times): with it a block allocated anew at an old
	// address is told from one that stayed (analyze's survival).
	Alloc  int
	TimeUS int64
	// Meta is the user_metadata of the alloc event (NoMeta: none).
	Meta MetaID
	// Notes are the annotations put on the block since it was allocated,
	// oldest first (nil: none).
	Notes []MetaID
}

// liveTracker replays a trace forward to find the allocations open at its
// end (see BlockTrace).
type liveTracker struct {
	open map[uint64]BlockTrace
}

// add takes event i of the trace.
func (t *liveTracker) add(i int, e *TraceEntry) {
	switch e.Action {
	case ActionAlloc:
		if t.open == nil {
			t.open = map[uint64]BlockTrace{}
		}
		t.open[e.Addr] = BlockTrace{Addr: e.Addr, Alloc: i, TimeUS: e.TimeUS, Meta: e.Meta}
	case ActionFreeRequested, ActionFreeCompleted:
		// After its free_requested the address is closed already; a
		// free_completed alone is the free of an allocation whose
		// free_requested the ring buffer dropped.
		delete(t.open, e.Addr)
	case ActionAnnotate:
		if bt, ok := t.open[e.Addr]; ok && e.Meta != NoMeta {
			bt.Notes = append(bt.Notes, e.Meta)
			t.open[e.Addr] = bt
		}
	}
}

// live returns the open allocations that are live (active_allocated)
// blocks among segs of device dev, by address.
func (t *liveTracker) live(segs []*Segment, dev int) []BlockTrace {
	if len(t.open) == 0 {
		return nil
	}
	var out []BlockTrace
	for i := range segs {
		if segs[i].Device != dev {
			continue
		}
		for _, b := range segs[i].Blocks {
			if b.State != StateActiveAllocated {
				continue
			}
			if bt, ok := t.open[b.Address]; ok {
				out = append(out, bt)
			}
		}
	}
	slices.SortFunc(out, func(a, b BlockTrace) int { return cmp.Compare(a.Addr, b.Addr) })
	return out
}

// liveOf replays trace tr and returns its allocations that are live
// blocks of device dev in segs.
func liveOf(tr []TraceEntry, segs []*Segment, dev int) []BlockTrace {
	var t liveTracker
	for i := range tr {
		t.add(i, &tr[i])
	}
	return t.live(segs, dev)
}

// BlockTraces returns what device dev's trace says of its live blocks
// that were allocated inside the trace's window, by address: from the
// trace, or for a digest from its summary. It is nil when the device has
// no trace or none of its live blocks was allocated in it.
func (s *Snapshot) BlockTraces(dev int) []BlockTrace {
	td, tr := s.traceOf(dev)
	if td != nil {
		return td.Live
	}
	return liveOf(tr, s.Segments, dev)
}

// BlockTraceAt returns the entry of bts (sorted by address, as
// BlockTraces returns them) for the block at addr, and false when that
// block was allocated before the trace's window.
func BlockTraceAt(bts []BlockTrace, addr uint64) (BlockTrace, bool) {
	if len(bts) == 0 {
		// No live block born in the trace's window: a large model's
		// snapshot, whose 161k blocks are each asked. Tested inline
		// (this function is small enough to be), the search a call.
		return BlockTrace{}, false
	}
	return blockTraceSearch(bts, addr)
}

// blockTraceSearch is BlockTraceAt's binary search.
func blockTraceSearch(bts []BlockTrace, addr uint64) (BlockTrace, bool) {
	i, ok := slices.BinarySearchFunc(bts, addr, func(bt BlockTrace, a uint64) int { return cmp.Compare(bt.Addr, a) })
	if !ok {
		return BlockTrace{}, false
	}
	return bts[i], true
}

// RoundedSize returns the size of the block the caching allocator makes
// for a request of n bytes without roundup_power2_divisions: n rounded up
// to a multiple of 512 bytes (kMinBlockSize), at least 512. Trace events
// record requests; replaying them in blocks needs this.
func RoundedSize(n int64) int64 {
	if n <= 512 {
		return 512
	}
	return (n + 511) / 512 * 512
}
