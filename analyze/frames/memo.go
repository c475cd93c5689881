package frames

import (
	"slices"

	"gpureport/internal/slicecap"
	"gpureport/snapshot"
)

// StackMemo keeps a value read from each distinct stack (what the roles
// rules read of it, its signature) across the snapshots of a run. A
// run's snapshots mostly hold the same stacks under StackIDs and FrameIDs
// of their own, each numbering its table, so the memo numbers the run's
// distinct frames itself: each frame of a table is looked up once (by
// value, strings compared in full), and a stack is then the list of its
// frames' run numbers, compared in full, never trusted by its hash. The
// value must be a function of the frames alone, so that a reader gets the
// same with or without a memo. The memo holds a copy of each distinct
// frame, the run numbers of each distinct stack (4 bytes a frame) and one
// table's translation (4 bytes a frame and 4 a stack of that table); it
// keeps no table but the last one read alive. A table that is the last
// one's own memory (snapshot.Stacks.SameTable: the digests of a run in a
// steady state share one copy) keeps its translation, so its stacks cost
// one index each. Not safe for concurrent use; the zero
// value is not ready, use NewStackMemo.
type StackMemo[V any] struct {
	// runFrame numbers the run's distinct frames from 1.
	runFrame map[snapshot.Frame]uint32
	// tab is the table xlat translates: xlat[f] is the run number of
	// tab's frame f, 0 until looked up.
	tab  *snapshot.Stacks
	xlat []uint32
	// entry[id] is the entry of tab's stack id plus one, 0 until looked
	// up.
	entry []int32
	// byHash finds the entries of a stack's hash.
	byHash map[uint64][]int32
	// Entry i is frames ids[off[i]:off[i+1]] with value vals[i].
	off  []int
	ids  []uint32
	vals []V
	// key is scratch for the stack being looked up.
	key []uint32
}

// NewStackMemo returns an empty StackMemo.
func NewStackMemo[V any]() *StackMemo[V] {
	return &StackMemo[V]{runFrame: map[snapshot.Frame]uint32{}, byHash: map[uint64][]int32{}, off: []int{0}}
}

// Get returns the value of stack id of table tab: read() the first time a
// stack with its frames comes up, the value kept then after. read reads
// stack id of tab itself, as the caller's own cache would. A nil memo
// keeps nothing: it returns read().
func (m *StackMemo[V]) Get(tab *snapshot.Stacks, id snapshot.StackID, read func() V) V {
	if m == nil {
		return read()
	}
	if !tab.SameTable(m.tab) {
		m.xlat = m.xlat[:0]
		m.entry = m.entry[:0]
	}
	m.tab = tab
	if n := len(tab.Frames); len(m.xlat) < n {
		m.xlat = append(m.xlat, make([]uint32, n-len(m.xlat))...)
	}
	if n := tab.Len(); len(m.entry) < n {
		m.entry = append(m.entry, make([]int32, n-len(m.entry))...)
	}
	if int(id) < len(m.entry) && m.entry[id] != 0 {
		return m.vals[m.entry[id]-1]
	}
	key := m.key[:0]
	// FNV-1a over the run numbers: spreads them well enough for a map
	// key, and a collision costs only a compare.
	h := uint64(14695981039346656037)
	for _, f := range tab.Stack(id) {
		r := m.xlat[f]
		if r == 0 {
			r = m.number(tab.Frames[f])
			m.xlat[f] = r
		}
		key = append(key, r)
		h = (h ^ uint64(r)) * 1099511628211
	}
	m.key = key
	for _, i := range m.byHash[h] {
		if slices.Equal(m.ids[m.off[i]:m.off[i+1]], key) {
			m.remember(id, i)
			return m.vals[i]
		}
	}
	v := read()
	m.remember(id, int32(len(m.vals)))
	m.byHash[h] = append(m.byHash[h], int32(len(m.vals)))
	// Doubled: a run's first snapshot adds thousands of stacks of tens
	// of frames.
	m.ids = append(slicecap.Doubling(m.ids, len(key), 1024), key...)
	m.off = append(m.off, len(m.ids))
	m.vals = append(m.vals, v)
	return v
}

// remember records that stack id of the current table is entry i.
func (m *StackMemo[V]) remember(id snapshot.StackID, i int32) {
	if int(id) < len(m.entry) {
		m.entry[id] = i + 1
	}
}

// number returns the run number of frame f, giving it the next one the
// first time.
func (m *StackMemo[V]) number(f snapshot.Frame) uint32 {
	r, ok := m.runFrame[f]
	if !ok {
		r = uint32(len(m.runFrame) + 1)
		m.runFrame[f] = r
	}
	return r
}

// Len returns the number of distinct stacks the memo holds.
func (m *StackMemo[V]) Len() int { return len(m.vals) }
