package roles

import (
	"cmp"
	"slices"
	"sort"

	"gpureport/snapshot"
)

// SceneOf returns device dev of snapshot s at its dump: its live
// (active_allocated) blocks with what the trace says of them
// (snapshot.BlockTraces), its pools, and its trace when s is not a
// digest. A device whose trace ends at an OOM is an OOM dump.
func SceneOf(s *snapshot.Snapshot, dev int) *Scene { return SceneReusing(nil, s, dev) }

// SceneReusing is SceneOf with the block list built in the storage of
// prev (nil: none), for a caller that classifies a run's snapshots one
// after another and keeps no scene but the last: a new list for every
// snapshot (a MB for 10k blocks) was most of the cost of making the
// scene. prev must not be read after.
func SceneReusing(prev *Scene, s *snapshot.Snapshot, dev int) *Scene {
	sc := &Scene{Stacks: &s.Stacks, HasTrace: s.TraceEntries(dev) > 0, Pools: map[[2]int64]Pool{}}
	for _, p := range Pools(s, dev) {
		sc.Pools[p.ID] = p
	}
	bts := s.BlockTraces(dev)
	// Count first: the scene is made for every snapshot, and growing
	// the list by appends copied it a dozen times.
	n := 0
	for i := range s.Segments {
		if s.Segments[i].Device == dev {
			for _, b := range s.Segments[i].Blocks {
				if b.State == snapshot.StateActiveAllocated {
					n++
				}
			}
		}
	}
	if prev != nil && cap(prev.Blocks) >= n {
		sc.Blocks = prev.Blocks[:0]
	} else {
		sc.Blocks = make([]Block, 0, n)
	}
	for i := range s.Segments {
		seg := s.Segments[i]
		if seg.Device != dev {
			continue
		}
		for _, b := range seg.Blocks {
			if b.State != snapshot.StateActiveAllocated {
				continue
			}
			blk := Block{Addr: b.Address, Size: b.Size, Stack: b.Stack, Pool: seg.PrivatePool, Alloc: -1, Freed: -1}
			if bt, ok := snapshot.BlockTraceAt(bts, b.Address); ok {
				blk.Alloc, blk.Meta = bt.Alloc, s.MetaText(bt.Meta)
				for _, n := range bt.Notes {
					blk.Notes = append(blk.Notes, s.MetaText(n))
				}
			}
			sc.Blocks = append(sc.Blocks, blk)
		}
	}
	if s.Digest == nil && dev >= 0 && dev < len(s.Traces) {
		sc.Trace = s.Traces[dev]
	}
	sc.At = s.TraceEntries(dev) - 1
	if s.TraceEndsAtOOM(dev) {
		ooms := s.OOMEntries(dev)
		e := ooms[len(ooms)-1].TraceEntry
		sc.OOM = &e
	}
	return sc
}

// ClassifySnapshot returns the roles of device dev's live memory in
// snapshot s (a full snapshot or a digest): Classify of SceneOf.
func ClassifySnapshot(s *snapshot.Snapshot, dev int) ([]Decision, Breakdown) {
	return Classify(SceneOf(s, dev))
}

// SceneAt returns device dev of full snapshot s just after event at of
// its trace: the blocks alive then, rebuilt as PyTorch's MemoryViz
// rebuilds them, from the snapshot's own blocks and the trace:
//
//   - a live block of the snapshot that the trace never saw allocated
//     was alive all along;
//   - an allocation the trace frees without having seen it made (the
//     ring buffer dropped its alloc, or recording began later) was alive
//     until its free, without a stack;
//   - an allocation made in the trace is alive from its alloc until its
//     free (free_requested, or a free_completed whose free_requested was
//     never recorded), with its event's stack, user_metadata and the
//     annotations made up to the moment.
//
// Each block's Freed says when it was freed after the moment (Future is
// set). Sizes are the blocks' where they are still live at the dump, else
// the requests rounded as the allocator rounds them. It returns nil when
// s has no trace for dev or at is out of range.
func SceneAt(s *snapshot.Snapshot, dev, at int) *Scene {
	if s.Digest != nil || dev < 0 || dev >= len(s.Traces) || at < -1 || at >= len(s.Traces[dev]) {
		return nil
	}
	tr := s.Traces[dev]
	sc := &Scene{Stacks: &s.Stacks, Trace: tr, At: at, HasTrace: true, Future: true, Pools: map[[2]int64]Pool{}}
	for _, p := range Pools(s, dev) {
		sc.Pools[p.ID] = p
	}
	var segs []*snapshot.Segment
	blocks := 0
	for i := range s.Segments {
		if seg := s.Segments[i]; seg.Device == dev {
			segs = append(segs, seg)
			blocks += len(seg.Blocks)
		}
	}
	dump := newDumpBlocks(segs, blocks)
	// byAddr finds the segment holding an address by binary search: the
	// trace's 10k events against a large model's 17k segments made a
	// scan per event the most of this function.
	byAddr := slices.Clone(segs)
	slices.SortStableFunc(byAddr, func(a, b *snapshot.Segment) int { return cmp.Compare(a.Address, b.Address) })
	poolOf := func(e *snapshot.TraceEntry) [2]int64 {
		if p, ok := s.PoolOf(e); ok {
			return p
		}
		// The last segment starting at or below the address.
		i, _ := slices.BinarySearchFunc(byAddr, e.Addr+1, func(seg *snapshot.Segment, a uint64) int { return cmp.Compare(seg.Address, a) })
		if i > 0 {
			if seg := byAddr[i-1]; e.Addr < seg.Address+uint64(seg.TotalSize) {
				return seg.PrivatePool
			}
		}
		return [2]int64{}
	}
	// At most one block per event and one per block live at the dump.
	sc.Blocks = make([]Block, 0, len(tr)+len(dump.live))
	open := map[uint64]int{} // address -> index in sc.Blocks of its open allocation
	// requested holds the addresses freed by a free_requested whose
	// free_completed is still to come: that free_completed frees nothing
	// more.
	requested := map[uint64]bool{}
	free := func(i int, e *snapshot.TraceEntry) {
		if j, ok := open[e.Addr]; ok {
			sc.Blocks[j].Freed = i
			delete(open, e.Addr)
			return
		}
		// Allocated before the trace's window.
		sc.Blocks = append(sc.Blocks, Block{Addr: e.Addr, Size: snapshot.RoundedSize(e.Size), Pool: poolOf(e), Alloc: -1, Freed: i})
	}
	for i := range tr {
		e := &tr[i]
		switch e.Action {
		case snapshot.ActionAlloc:
			b := Block{Addr: e.Addr, Size: snapshot.RoundedSize(e.Size), Stack: e.Stack, Pool: poolOf(e), Alloc: i, Meta: s.MetaText(e.Meta), Freed: -1}
			open[e.Addr] = len(sc.Blocks)
			sc.Blocks = append(sc.Blocks, b)
		case snapshot.ActionFreeRequested:
			free(i, e)
			requested[e.Addr] = true
		case snapshot.ActionFreeCompleted:
			if requested[e.Addr] {
				delete(requested, e.Addr)
				continue
			}
			free(i, e)
		case snapshot.ActionAnnotate:
			if j, ok := open[e.Addr]; ok && i <= at && e.Meta != snapshot.NoMeta {
				sc.Blocks[j].Notes = append(sc.Blocks[j].Notes, s.MetaText(e.Meta))
			}
		}
	}
	for j := range sc.Blocks {
		b := &sc.Blocks[j]
		if b.Freed < 0 {
			if l, ok := dump.take(b.Addr); ok {
				b.Size, b.Pool = l.Size, l.pool
			}
		}
	}
	// Live at the dump, never seen allocated: alive all along.
	for k, l := range dump.live {
		if !dump.taken[k] {
			sc.Blocks = append(sc.Blocks, Block{Addr: l.Address, Size: l.Size, Stack: l.Stack, Pool: l.pool, Alloc: -1, Freed: -1})
		}
	}
	alive := sc.Blocks[:0]
	for _, b := range sc.Blocks {
		if b.Alloc <= at && (b.Freed < 0 || b.Freed > at) {
			alive = append(alive, b)
		}
	}
	sc.Blocks = alive
	return sc
}

// OOMPhase returns the phase of the training step the moment's OOM
// happened in, by the failing allocation's stack: "forward", "backward",
// "optimizer step", or "" when the moment is no OOM dump or its stack
// names none. Activation checkpointing's recomputation is forward code
// run in backward: its OOM came in backward (gradients are being made,
// and the forward's are long gone).
func (sc *Scene) OOMPhase() string {
	if sc.OOM == nil {
		return ""
	}
	st := readTableStack(sc.Stacks, sc.OOM.Stack)
	if st.recomputed() {
		return "backward"
	}
	switch phaseOf(st) {
	case forward:
		return "forward"
	case backward:
		return "backward"
	case optimizerStep:
		return "optimizer step"
	}
	return ""
}

// dumpBlocks is the blocks live at a snapshot's dump (active_allocated),
// in the file's order, each found by its address and taken at most once:
// the trace's allocations that are still open at the dump take theirs,
// and those left are the blocks alive all along. (A map by address did
// this: on a large model's 175k live blocks, filling and probing it was
// most of SceneAt.) The blocks are kept as the map kept them: an address
// listed twice finds its last block, and taking an address takes every
// block listed at it.
type dumpBlocks struct {
	live []dumpBlock
	// byAddr indexes live by address, stably (nil when live is in
	// address order already, as PyTorch lists segments and blocks).
	byAddr []int32
	taken  []bool
}

// dumpBlock is a live block with its segment's private pool.
type dumpBlock struct {
	snapshot.Block
	pool [2]int64
}

// newDumpBlocks lists the live blocks of segs, which hold blocks blocks
// in all.
func newDumpBlocks(segs []*snapshot.Segment, blocks int) *dumpBlocks {
	d := &dumpBlocks{live: make([]dumpBlock, 0, blocks)}
	sorted := true
	for _, seg := range segs {
		for _, b := range seg.Blocks {
			if b.State != snapshot.StateActiveAllocated {
				continue
			}
			if n := len(d.live); n > 0 && b.Address < d.live[n-1].Address {
				sorted = false
			}
			d.live = append(d.live, dumpBlock{b, seg.PrivatePool})
		}
	}
	d.taken = make([]bool, len(d.live))
	if !sorted {
		d.byAddr = make([]int32, len(d.live))
		for i := range d.byAddr {
			d.byAddr[i] = int32(i)
		}
		slices.SortStableFunc(d.byAddr, func(a, b int32) int { return cmp.Compare(d.live[a].Address, d.live[b].Address) })
	}
	return d
}

// at returns the index in live of the i-th block in address order.
func (d *dumpBlocks) at(i int) int {
	if d.byAddr == nil {
		return i
	}
	return int(d.byAddr[i])
}

// take returns the last block listed at addr and takes every block at
// addr; false when there is none, or it was taken.
func (d *dumpBlocks) take(addr uint64) (dumpBlock, bool) {
	n := len(d.live)
	lo := sort.Search(n, func(i int) bool { return d.live[d.at(i)].Address >= addr })
	hi := lo
	for hi < n && d.live[d.at(hi)].Address == addr {
		hi++
	}
	if lo == hi || d.taken[d.at(lo)] {
		return dumpBlock{}, false
	}
	for i := lo; i < hi; i++ {
		d.taken[d.at(i)] = true
	}
	return d.live[d.at(hi-1)], true
}
