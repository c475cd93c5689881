package snapshot

import (
	"encoding/binary"
	"hash/maphash"
	"reflect"
	"slices"
	"sync"
	"unsafe"
)

// Sharer lets the digests of one load share their stack tables and
// segment lists. A run's snapshots mostly hold the same live blocks under
// the same stacks (a training step's allocator state repeats from step to
// step unless something leaks), and Reduce numbers a digest's stacks and
// frames in the order its segments list them, so consecutive digests often
// have equal tables and equal segments: sharing one copy keeps a run's
// memory from growing by a table (tens to hundreds of KB with thousands of
// distinct stacks) and a segment list (about 40 bytes a block) per
// snapshot. Both are compared in full, never trusted by their hash, and
// digests are never modified after loading.
type Sharer struct {
	mu     sync.Mutex
	seed   maphash.Seed
	byHash map[uint64][]*Stacks
	segs   map[uint64][][]Segment
}

// NewSharer returns an empty Sharer; it is safe for concurrent use.
func NewSharer() *Sharer {
	return &Sharer{seed: maphash.MakeSeed(), byHash: map[uint64][]*Stacks{}, segs: map[uint64][][]Segment{}}
}

// Share shares digest d's stack table and segment list.
func (t *Sharer) Share(d *Snapshot) {
	t.shareStacks(&d.Stacks)
	d.Segments = slices.Clip(d.Segments)
	h := t.hashSegments(d.Segments)
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.segs[h] {
		if segmentsEqual(c, d.Segments) {
			d.Segments = c
			return
		}
	}
	t.segs[h] = append(t.segs[h], d.Segments)
}

func (t *Sharer) hashSegments(segs []Segment) uint64 {
	var h maphash.Hash
	h.SetSeed(t.seed)
	var n [8]byte
	word := func(v uint64) {
		binary.LittleEndian.PutUint64(n[:], v)
		h.Write(n[:])
	}
	for i := range segs {
		sg := &segs[i]
		word(sg.Address)
		word(uint64(sg.TotalSize))
		word(uint64(len(sg.Blocks)))
		for _, b := range sg.Blocks {
			word(b.Address ^ uint64(b.Size)<<1 ^ uint64(b.Stack)<<40 ^ uint64(b.State)<<56)
		}
	}
	return h.Sum64()
}

// segmentsEqual compares two segment lists field by field, blocks included.
func segmentsEqual(a, b []Segment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !slices.Equal(x.Blocks, y.Blocks) {
			return false
		}
		// Every other field, whatever fields Segment gains.
		x.Blocks, y.Blocks = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// shareStacks makes sealed table s use the storage of an equal table seen
// before, or records s for later ones. Either way the slices' capacities equal their
// lengths, so an append to one digest's table never writes into another's.
func (t *Sharer) shareStacks(s *Stacks) {
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

func (t *Sharer) hash(s *Stacks) uint64 {
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
