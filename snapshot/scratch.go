package snapshot

import "io"

// Scratch is memory that a series of decodes reuses: the pickle
// decoder's largest arrays (the stack table, the segment and block
// arrays, the memo, the read buffer), emptied and filled again by the
// next file instead of made anew. A load that reduces each file to a
// digest decodes hundreds of files whose arrays are garbage as soon as
// the digest is made (Reduce copies what it keeps): reusing them spares
// the allocator, the zeroing of fresh memory and the garbage collector
// most of a load's allocations (about 8 MB a decode for a 3.5 MB
// snapshot of 10k blocks). Sharer.Reduce borrows the reduction's arrays
// from it too.
//
// A snapshot decoded with a Scratch shares its arrays, so it is valid
// only until the next decode with the same Scratch; nothing decoded with
// one may be kept. A Scratch is for one goroutine at a time; the zero
// value is ready to use.
type Scratch struct {
	m      *vm
	reduce reduceArrays
}

// vm returns a machine reading r (see newVM) that reuses the arrays of
// the last machine sc kept; a nil sc makes a fresh one.
func (sc *Scratch) vm(r io.Reader, size int64, generic bool) *vm {
	if sc == nil || sc.m == nil {
		return newVM(r, size, generic)
	}
	old := sc.m
	sc.m = nil
	buf := old.buf
	if old.whole != nil {
		buf = nil // the last input itself, not a read buffer
	}
	m := newVMReusing(r, size, generic, buf)
	m.stack = old.stack[:0]
	m.marks = old.marks[:0]
	m.strs = old.strs[:0]
	clear(old.strIdx)
	m.strIdx = old.strIdx
	m.strInfo = old.strInfo[:0]
	m.frameSlots = old.frameSlots[:0]
	for _, ch := range old.memo.chunks {
		clear(ch)
	}
	m.memo.chunks = old.memo.chunks
	m.st.Frames = old.st.Frames[:0]
	m.st.off = old.st.off[:0]
	m.st.ids = old.st.ids[:0]
	if old.st.frameIdx != nil {
		clear(old.st.frameIdx)
		m.st.frameIdx = old.st.frameIdx
	}
	m.segments = old.segments[:0]
	m.blocks = old.blocks[:0]
	m.segmentLists = old.segmentLists[:0]
	m.segmentDicts = old.segmentDicts[:0]
	m.blockLists = old.blockLists[:0]
	m.blockDicts = old.blockDicts[:0]
	m.frameDicts = old.frameDicts[:0]
	clear(old.stackTab)
	m.stackTab = old.stackTab
	clear(old.spanTab)
	m.spanTab, m.spanBytes = old.spanTab, old.spanBytes[:0]
	// A skim's ring of pending events (its slots are reset as they are
	// taken) and its traces' first events.
	m.spareRing, m.spareFlags = old.ents.ring, old.ents.rflags
	if old.ents.ring == nil {
		m.spareRing, m.spareFlags = old.spareRing, old.spareFlags
	}
	for i := range old.traceLists {
		if h := old.traceLists[i].head; cap(h) > 0 {
			m.spareHeads = append(m.spareHeads, h[:0])
		}
		// The map only: what live() returned was copied out of it.
		if o := old.traceLists[i].live.open; o != nil {
			clear(o)
			m.spareOpen = append(m.spareOpen, o)
		}
	}
	return m
}

// keep lends m's arrays to the next decode with sc.
func (sc *Scratch) keep(m *vm) {
	if sc != nil {
		sc.m = m
	}
}

// reduceArrays are the arrays and lookups a reduction fills and the
// Sharer copies from (Sharer.Reduce): the digest's stack table and the
// maps that intern into it, its segments and blocks, and the renumbering
// of the decoded snapshot's stacks and frames.
type reduceArrays struct {
	st       Stacks
	segs     []Segment
	blocks   []Block
	remap    []StackID
	frameIDs []FrameID
	// spans and section are the places and bytes of the devices'
	// segments of the digest DecodeDigestReusing reads, seen the sections
	// its segments may be taken from (section is the caller's memory;
	// both are let go after the call).
	spans   []rawSeg
	section []byte
	seen    *seenSections
}

// lookups returns zeroed renumbering arrays for stacks stacks and frames
// frames: r's, or new ones for a nil r.
func (r *reduceArrays) lookups(stacks, frames int) ([]StackID, []FrameID) {
	if r == nil {
		return make([]StackID, stacks), make([]FrameID, frames)
	}
	r.remap = resize(r.remap, stacks)
	r.frameIDs = resize(r.frameIDs, frames)
	return r.remap, r.frameIDs
}

// resize returns s with length n, zeroed, reusing its memory when it is
// large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// lendStacks makes the empty table st use r's arrays and maps.
func (r *reduceArrays) lendStacks(st *Stacks) {
	if r == nil {
		return
	}
	st.Frames, st.off, st.ids = r.st.Frames[:0], r.st.off[:0], r.st.ids[:0]
	clear(r.st.frameIdx)
	clear(r.st.stackIdx)
	st.frameIdx, st.stackIdx, st.seed = r.st.frameIdx, r.st.stackIdx, r.st.seed
}

// keepStacks takes back the arrays and maps of st, filled, before it is
// sealed.
func (r *reduceArrays) keepStacks(st *Stacks) {
	r.st = *st
}

// segmentArrays returns an array of n segments and an empty one with
// room for blocks blocks: r's, or new ones for a nil r.
func (r *reduceArrays) segmentArrays(n, blocks int) ([]Segment, []Block) {
	if r == nil {
		return make([]Segment, n), make([]Block, 0, blocks)
	}
	r.segs = resize(r.segs, n)
	if cap(r.blocks) < blocks {
		r.blocks = make([]Block, 0, blocks)
	}
	return r.segs, r.blocks[:0]
}
