package frames

import (
	"hash/maphash"
	"slices"

	"gpureport/snapshot"
)

// StackMemo keeps a value read from each distinct stack (what the roles
// rules read of it, its signature) across the snapshots of a run. A
// run's snapshots mostly hold the same stacks under StackIDs of their
// own, each numbering its table, so a stack is found by its frames:
// hashed, then compared in full with the stack it was first read from,
// never trusted by its hash. The value must be a function of the frames
// alone, so that a reader gets the same with or without a memo. The memo
// refers to the stack tables it read from (the run's snapshots hold them
// anyway): it costs a few words per distinct stack. Not safe for
// concurrent use; the zero value is not ready, use NewStackMemo.
type StackMemo[V any] struct {
	seed maphash.Seed
	m    map[uint64][]memoEntry[V]
}

// memoEntry is one distinct stack: where it was first read (stack id of
// table tab) and its value.
type memoEntry[V any] struct {
	tab *snapshot.Stacks
	id  snapshot.StackID
	v   V
}

// NewStackMemo returns an empty StackMemo.
func NewStackMemo[V any]() *StackMemo[V] {
	return &StackMemo[V]{seed: maphash.MakeSeed(), m: map[uint64][]memoEntry[V]{}}
}

// Get returns the value of stack id of table tab: read() the first time a
// stack with its frames comes up, the value kept then after. read reads
// stack id of tab itself, as the caller's own cache would.
func (m *StackMemo[V]) Get(tab *snapshot.Stacks, id snapshot.StackID, read func() V) V {
	ids := tab.Stack(id)
	var h uint64
	for _, f := range ids {
		h = h*1099511628211 ^ maphash.Comparable(m.seed, tab.Frames[f])
	}
	for _, e := range m.m[h] {
		if sameFrames(e.tab, e.tab.Stack(e.id), tab, ids) {
			return e.v
		}
	}
	v := read()
	m.m[h] = append(m.m[h], memoEntry[V]{tab, id, v})
	return v
}

// Len returns the number of distinct stacks the memo holds.
func (m *StackMemo[V]) Len() int {
	n := 0
	for _, es := range m.m {
		n += len(es)
	}
	return n
}

// sameFrames reports whether frames a of table ta are frames b of table
// tb, frame by frame.
func sameFrames(ta *snapshot.Stacks, a []snapshot.FrameID, tb *snapshot.Stacks, b []snapshot.FrameID) bool {
	if len(a) != len(b) {
		return false
	}
	if ta == tb {
		return slices.Equal(a, b)
	}
	for i := range a {
		if ta.Frames[a[i]] != tb.Frames[b[i]] {
			return false
		}
	}
	return true
}
