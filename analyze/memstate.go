package analyze

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/google/btree"

	"gpureport/snapshot"
)

// memState is a device's allocator memory rebuilt at some point of a
// trace: reserved ranges cut into live, pending and free pieces.
//
// Walking a trace back changes the pieces once per event, and only the
// pieces its events' ranges reach: a large model has 175k pieces, and an
// OOM early in a ring buffer has most of its 10k events after it, which
// touch a few thousand. When the pieces do not overlap and are not empty
// (every well-formed snapshot's blocks), a walk (stateAt) moves the pieces
// that some event's range reaches into a B-tree by start, where an event
// costs a few tree operations, and leaves the others in the sorted list,
// which no event of the walk changes. Building a tree of all 175k pieces
// took 95 ms, more than the walk. Other pieces (a damaged file's
// overlapping blocks, an empty range) are one list that every event
// scans. Readers see one list either way (flat).
type memState struct {
	// pieces are sorted by start. While tree is not nil they are the
	// pieces the walk leaves alone, and tree holds the rest.
	pieces []piece
	tree   *btree.BTreeG[piece]
	// ordered is set when pieces were non-empty and apart when the state
	// was made: a walk may then use a tree.
	ordered bool
	hit     []piece // scratch for cut
}

type pieceState uint8

const (
	pieceFree pieceState = iota
	pieceLive
	piecePending
)

type piece struct {
	start, end uint64
	state      pieceState
	seg        int // segment identity: pieces of different segments never merge
	expandable bool
	large      bool
	stack      snapshot.StackID
}

// pieceTreeDegree is the B-tree's degree: nodes of 2×32 pieces (3 KB)
// keep a tree of 175k pieces four levels deep.
const pieceTreeDegree = 32

// newMemState returns device dev's memory at the dump of snapshot s.
func newMemState(s *snapshot.Snapshot, dev int) *memState {
	m := &memState{}
	n := 0
	for _, seg := range deviceSegments(s, dev) {
		n += len(seg.Blocks)
	}
	// Sized first: a large model's 175k pieces, grown by appends, were
	// copied into fresh memory many times over.
	m.pieces = make([]piece, 0, n)
	for i, seg := range deviceSegments(s, dev) {
		for j := range seg.Blocks {
			b := &seg.Blocks[j]
			st := pieceFree
			switch b.State {
			case snapshot.StateActiveAllocated:
				st = pieceLive
			case snapshot.StateActivePendingFree:
				st = piecePending
			}
			m.pieces = append(m.pieces, piece{start: b.Address, end: b.Address + uint64(b.Size), state: st, seg: i,
				expandable: seg.Expandable, large: seg.Pool != snapshot.PoolSmall, stack: b.Stack})
		}
	}
	slices.SortFunc(m.pieces, func(a, b piece) int { return cmp.Compare(a.start, b.start) })
	m.ordered = true
	for i, p := range m.pieces {
		if p.start >= p.end || i > 0 && p.start < m.pieces[i-1].end {
			m.ordered = false
			break
		}
	}
	return m
}

// replayWork is the work of walking back events events, in piece visits:
// a tree operation visits about log2 of the pieces, a list scan all of
// them.
func (m *memState) replayWork(events int) int {
	n := len(m.pieces)
	if m.tree != nil {
		n += m.tree.Len()
	}
	if m.ordered || m.tree != nil {
		return n + events*bits.Len(uint(n))
	}
	return events * max(n, 1)
}

// stateAt rebuilds device dev's memory just after trace event cut, by
// undoing every later event from the snapshot's state m (newMemState);
// a cut past the last event undoes none.
// It returns the bytes freed after cut.
func (m *memState) stateAt(s *snapshot.Snapshot, dev, cut int) int64 {
	defer m.flat()
	var freed int64
	tr := s.Traces[dev]
	cut = max(cut, -1) // before the first event: all are undone
	// The stack of each freed block is its latest alloc's.
	allocStack := map[uint64]snapshot.StackID{}
	freeStack := map[int]snapshot.StackID{}
	for i := range tr {
		e := &tr[i]
		switch e.Action {
		case snapshot.ActionAlloc:
			allocStack[e.Addr] = e.Stack
		case snapshot.ActionFreeRequested:
			if i > cut {
				st, ok := allocStack[e.Addr]
				if !ok {
					st = e.Stack
				}
				freeStack[i] = st
			}
		}
	}
	if m.ordered && m.tree == nil {
		m.walkOver(tr[min(cut+1, len(tr)):])
	}
	for i := len(tr) - 1; i > cut; i-- {
		e := &tr[i]
		lo, hi, ok := undoRange(e)
		if !ok {
			continue
		}
		switch e.Action {
		case snapshot.ActionAlloc:
			m.set(lo, hi, pieceFree, snapshot.NoStack)
		case snapshot.ActionFreeRequested:
			freed += int64(hi - lo)
			m.set(lo, hi, pieceLive, freeStack[i])
		case snapshot.ActionFreeCompleted:
			m.set(lo, hi, piecePending, snapshot.NoStack)
		case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
			m.remove(lo, hi)
		case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
			m.add(lo, hi, e.Action == snapshot.ActionSegmentUnmap)
		}
	}
	return freed
}

// undoRange is the address range that undoing trace event e changes:
// a block's, rounded as the allocator rounds it, or a segment's. It
// reports false for an event that changes no memory.
func undoRange(e *snapshot.TraceEntry) (lo, hi uint64, ok bool) {
	switch e.Action {
	case snapshot.ActionAlloc, snapshot.ActionFreeRequested, snapshot.ActionFreeCompleted:
		return e.Addr, e.Addr + uint64(roundUp(e.Size)), true
	case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap, snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
		return e.Addr, e.Addr + uint64(e.Size), true
	}
	return 0, 0, false
}

// walkOver moves into a tree the pieces that undoing events may change
// (m.ordered must hold): every piece that meets or touches an event's
// range, closed at both ends. A change reaches no other piece: set and
// remove cut the pieces that overlap their range, or, for an empty range,
// split the one that holds its start (a range that wraps past the top of
// the address space changes nothing, taken as its start); add inserts a piece in its
// range and takes the segment of a neighbour that ends at its start or
// starts at its end, which touches the range. So the pieces left in the
// list stay as they are until flat merges both, and the tree alone
// answers add's question of the neighbours: a nearer neighbour left in
// the list would not touch the range, nor would one beyond it.
func (m *memState) walkOver(events []snapshot.TraceEntry) {
	var spans [][2]uint64
	for i := range events {
		if lo, hi, ok := undoRange(&events[i]); ok {
			spans = append(spans, [2]uint64{lo, max(lo, hi)})
		}
	}
	slices.SortFunc(spans, func(a, b [2]uint64) int { return cmp.Compare(a[0], b[0]) })
	// Joined where they meet, the spans ascend in both ends.
	joined := spans[:0]
	for _, sp := range spans {
		if k := len(joined) - 1; k >= 0 && sp[0] <= joined[k][1] {
			joined[k][1] = max(joined[k][1], sp[1])
			continue
		}
		joined = append(joined, sp)
	}
	m.tree = btree.NewG(pieceTreeDegree, func(a, b piece) bool { return a.start < b.start })
	kept := m.pieces[:0]
	k := 0
	for _, p := range m.pieces {
		// The pieces ascend in both ends too (they are apart).
		for k < len(joined) && joined[k][1] < p.start {
			k++
		}
		if k < len(joined) && joined[k][0] <= p.end {
			m.tree.ReplaceOrInsert(p)
		} else {
			kept = append(kept, p)
		}
	}
	m.pieces = kept
	m.ordered = false // a walk's pieces need not stay apart
}

// flat makes pieces the whole memory and drops the tree, merging the
// tree's pieces with those the walk left alone (no two share a start).
func (m *memState) flat() {
	if m.tree == nil {
		return
	}
	out := make([]piece, 0, len(m.pieces)+m.tree.Len())
	i := 0
	m.tree.Ascend(func(p piece) bool {
		for i < len(m.pieces) && m.pieces[i].start < p.start {
			out = append(out, m.pieces[i])
			i++
		}
		out = append(out, p)
		return true
	})
	m.pieces, m.tree = append(out, m.pieces[i:]...), nil
}

// set gives [lo, hi) the state st (and stack), splitting pieces at the
// ends. Ranges outside every piece are ignored.
func (m *memState) set(lo, hi uint64, st pieceState, stack snapshot.StackID) {
	m.cut(lo, hi, func(q *piece) { q.state, q.stack = st, stack })
}

// remove drops [lo, hi) from the reserved ranges.
func (m *memState) remove(lo, hi uint64) { m.cut(lo, hi, nil) }

// cut splits the pieces that overlap [lo, hi) at its ends; the part
// inside is dropped, or kept as change leaves it when change is not nil.
func (m *memState) cut(lo, hi uint64, change func(*piece)) {
	if m.tree == nil {
		m.pieces = cutPieces(nil, m.pieces, lo, hi, change)
		return
	}
	// The pieces touched: the one starting below lo if it reaches past
	// it, and those starting in [lo, hi).
	hit := m.hit[:0]
	m.tree.DescendLessOrEqual(piece{start: lo}, func(p piece) bool {
		if p.start < lo && p.end > lo {
			hit = append(hit, p)
		}
		return false
	})
	m.tree.AscendRange(piece{start: lo}, piece{start: hi}, func(p piece) bool {
		hit = append(hit, p)
		return true
	})
	m.hit = hit
	if len(hit) == 0 {
		return
	}
	for _, p := range hit {
		m.tree.Delete(p)
	}
	// The parts are not empty and stay apart: the tree's order holds.
	for _, q := range cutPieces(nil, hit, lo, hi, change) {
		m.tree.ReplaceOrInsert(q)
	}
}

// cutPieces appends pieces to out, split at lo and hi as cut says.
func cutPieces(out, pieces []piece, lo, hi uint64, change func(*piece)) []piece {
	for _, p := range pieces {
		if p.end <= lo || p.start >= hi {
			out = append(out, p)
			continue
		}
		if p.start < lo {
			q := p
			q.end = lo
			out = append(out, q)
		}
		if change != nil {
			q := p
			q.start, q.end = max(p.start, lo), min(p.end, hi)
			change(&q)
			out = append(out, q)
		}
		if p.end > hi {
			q := p
			q.start = hi
			out = append(out, q)
		}
	}
	return out
}

// byStart orders a piece against an address by its start.
func byStart(a piece, t uint64) int { return cmp.Compare(a.start, t) }

// add reserves [lo, hi) as free memory. A range re-mapped into an
// expandable segment joins the neighbouring segment's identity.
func (m *memState) add(lo, hi uint64, expandable bool) {
	if lo >= hi {
		m.flat() // an empty piece: the tree's order would not hold
	}
	m.remove(lo, hi)
	// The pieces just before lo and from it (none starts in [lo, hi) now).
	var prev, next *piece
	i := 0
	if m.tree != nil {
		if expandable {
			m.tree.DescendLessOrEqual(piece{start: lo}, func(q piece) bool {
				prev = &q
				return false
			})
			m.tree.AscendGreaterOrEqual(piece{start: lo}, func(q piece) bool {
				next = &q
				return false
			})
		}
	} else {
		i, _ = slices.BinarySearchFunc(m.pieces, lo, byStart)
		if i > 0 {
			prev = &m.pieces[i-1]
		}
		if i < len(m.pieces) {
			next = &m.pieces[i]
		}
	}
	n := len(m.pieces)
	if m.tree != nil {
		n += m.tree.Len()
	}
	p := piece{start: lo, end: hi, state: pieceFree, seg: -1 - n, expandable: expandable, large: true}
	if expandable {
		if prev != nil && prev.end == lo && prev.expandable {
			p.seg = prev.seg
		} else if next != nil && next.start == hi && next.expandable {
			p.seg = next.seg
		}
	}
	if m.tree != nil {
		m.tree.ReplaceOrInsert(p)
	} else {
		m.pieces = slices.Insert(m.pieces, i, p)
	}
}

// totals returns reserved, allocated (live) and active bytes.
func (m *memState) totals() (reserved, allocated, active int64) {
	for _, p := range m.pieces {
		sz := int64(p.end - p.start)
		reserved += sz
		switch p.state {
		case pieceLive:
			allocated += sz
			active += sz
		case piecePending:
			active += sz
		}
	}
	return
}

// largestFree returns the largest contiguous free range, merging adjacent
// free pieces of one segment (or of neighbouring expandable mappings);
// large selects the large pool (requests over 1 MiB) or the small one.
func (m *memState) largestFree(large bool) int64 {
	var best, run int64
	var prev *piece
	for i := range m.pieces {
		p := &m.pieces[i]
		if p.state != pieceFree || p.large != large {
			run, prev = 0, nil
			continue
		}
		if prev != nil && prev.end == p.start && (prev.seg == p.seg || (prev.expandable && p.expandable)) {
			run += int64(p.end - p.start)
		} else {
			run = int64(p.end - p.start)
		}
		best = max(best, run)
		prev = p
	}
	return best
}

// liveGroups groups the live pieces by signature, largest first.
func (m *memState) liveGroups(st *snapshot.Stacks) []LiveGroup {
	cache := newSignatureCache(st)
	accs := map[string]*groupAcc{}
	for _, p := range m.pieces {
		if p.state != pieceLive {
			continue
		}
		sig := cache.get(p.stack)
		g := accs[sig.Key]
		if g == nil {
			g = &groupAcc{sig: sig}
			accs[sig.Key] = g
		}
		g.add(int64(p.end-p.start), p.stack)
	}
	out := make([]LiveGroup, 0, len(accs))
	for _, g := range accs {
		out = append(out, g.liveGroup(st))
	}
	sortLiveGroups(out)
	return out
}
