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
// Walking a trace back changes the pieces once per event. Pieces that do
// not overlap and are not empty (every well-formed snapshot's blocks) are
// kept in a B-tree by start while the walk lasts, so that an event costs
// a few tree operations: a large model has 175k pieces, and an OOM early
// in a ring buffer has most of its 10k events after it. Other pieces (a
// damaged file's overlapping blocks, an empty range) are a list that
// every event scans. Readers see the list either way (flat).
type memState struct {
	pieces []piece // sorted by start; stale while tree is not nil
	tree   *btree.BTreeG[piece]
	hit    []piece // scratch for cut
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

// newMemState returns device dev's memory at the dump of snapshot s, its
// pieces in a tree when they allow one (see memState).
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
	ordered := true
	for i, p := range m.pieces {
		if p.start >= p.end || i > 0 && p.start < m.pieces[i-1].end {
			ordered = false
			break
		}
	}
	if ordered {
		m.tree = btree.NewG(pieceTreeDegree, func(a, b piece) bool { return a.start < b.start })
		for _, p := range m.pieces {
			m.tree.ReplaceOrInsert(p)
		}
		m.pieces = nil
	}
	return m
}

// replayWork is the work of walking back events events, in piece visits:
// a tree operation visits about log2 of the pieces, a list scan all of
// them.
func (m *memState) replayWork(events int) int {
	if m.tree != nil {
		n := m.tree.Len()
		return n + events*bits.Len(uint(n))
	}
	return events * max(len(m.pieces), 1)
}

// stateAt rebuilds device dev's memory just after trace event cut, by
// undoing every later event from the snapshot's state m (newMemState).
// It returns the bytes freed after cut.
func (m *memState) stateAt(s *snapshot.Snapshot, dev, cut int) int64 {
	defer m.flat()
	var freed int64
	tr := s.Traces[dev]
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
	for i := len(tr) - 1; i > cut; i-- {
		e := &tr[i]
		size := uint64(roundUp(e.Size))
		switch e.Action {
		case snapshot.ActionAlloc:
			m.set(e.Addr, e.Addr+size, pieceFree, snapshot.NoStack)
		case snapshot.ActionFreeRequested:
			freed += int64(size)
			m.set(e.Addr, e.Addr+size, pieceLive, freeStack[i])
		case snapshot.ActionFreeCompleted:
			m.set(e.Addr, e.Addr+size, piecePending, snapshot.NoStack)
		case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
			m.remove(e.Addr, e.Addr+uint64(e.Size))
		case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
			m.add(e.Addr, e.Addr+uint64(e.Size), e.Action == snapshot.ActionSegmentUnmap)
		}
	}
	return freed
}

// flat makes pieces current and drops the tree.
func (m *memState) flat() {
	if m.tree == nil {
		return
	}
	m.pieces = make([]piece, 0, m.tree.Len())
	m.tree.Ascend(func(p piece) bool {
		m.pieces = append(m.pieces, p)
		return true
	})
	m.tree = nil
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
		i, _ = slices.BinarySearchFunc(m.pieces, lo, func(a piece, t uint64) int { return cmp.Compare(a.start, t) })
		if i > 0 {
			prev = &m.pieces[i-1]
		}
		if i < len(m.pieces) {
			next = &m.pieces[i]
		}
	}
	n := len(m.pieces)
	if m.tree != nil {
		n = m.tree.Len()
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
