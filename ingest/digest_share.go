package ingest

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sync"
	"unsafe"
)

// stackShare lets the digests of one load share their stack tables. A run's
// snapshots mostly hold the same live blocks under the same stacks, and
// Reduce numbers a digest's stacks and frames in the order its segments
// list them, so consecutive digests often have equal tables: sharing one
// copy keeps a run's memory from growing by a table (tens to hundreds of KB
// with thousands of distinct stacks) per snapshot. Tables are compared in
// full, never trusted by their hash.
type stackShare struct {
	mu     sync.Mutex
	seed   maphash.Seed
	byHash map[uint64][]*Stacks
}

func newStackShare() *stackShare {
	return &stackShare{seed: maphash.MakeSeed(), byHash: map[uint64][]*Stacks{}}
}

// share makes sealed table s use the storage of an equal table seen before,
// or records s for later ones. Either way the slices' capacities equal their
// lengths, so an append to one digest's table never writes into another's.
func (t *stackShare) share(s *Stacks) {
	s.Frames = slices.Clip(s.Frames)
	s.off = slices.Clip(s.off)
	s.ids = slices.Clip(s.ids)
	h := t.hash(s)
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.byHash[h] {
		if slices.Equal(c.Frames, s.Frames) && slices.Equal(c.off, s.off) && slices.Equal(c.ids, s.ids) {
			s.Frames, s.off, s.ids = c.Frames, c.off, c.ids
			return
		}
	}
	t.byHash[h] = append(t.byHash[h], &Stacks{Frames: s.Frames, off: s.off, ids: s.ids})
}

func (t *stackShare) hash(s *Stacks) uint64 {
	var h maphash.Hash
	h.SetSeed(t.seed)
	var n [8]byte
	for _, f := range s.Frames {
		h.WriteString(f.File)
		h.WriteString(f.Name)
		binary.LittleEndian.PutUint64(n[:], uint64(f.Line))
		h.Write(n[:])
	}
	h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s.off))), 4*len(s.off)))
	h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s.ids))), 4*len(s.ids)))
	return h.Sum64()
}
