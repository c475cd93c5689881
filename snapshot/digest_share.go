package snapshot

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"reflect"
	"slices"
	"sync"
	"unsafe"
)

// Sharer lets the digests of one load share their stack tables, segment
// lists and block lists. A run's snapshots mostly hold the same live
// blocks under the same stacks (a training step's allocator state repeats
// from step to step unless something leaks: the parameters' and optimizer
// states' segments do not change), and Reduce numbers a digest's stacks
// and frames in the order its segments list them, so consecutive digests
// often have equal tables, equal segment lists, and where the lists
// differ (the activations' segments), equal blocks in most segments:
// sharing one copy keeps a run's memory from growing by a table (tens to
// hundreds of KB with thousands of distinct stacks) and by 32 bytes a
// block per snapshot. All are compared in full, never trusted by their
// hash, and digests are never modified after loading.
type Sharer struct {
	mu     sync.Mutex
	seed   maphash.Seed
	byHash map[uint64][]*Stacks
	segs   map[uint64][][]Segment
	blocks map[uint64][][]Block
	// recent are the stack sections DecodeDigestShared read last, newest
	// first, with the shared tables read from them.
	recent []rawTable
}

// rawTable is a stack section's bytes (a copy) and the table read from
// them.
type rawTable struct {
	raw []byte
	tab Stacks
}

// recentTables is how many stack sections a Sharer keeps: enough for
// the load's workers (one file in flight each) to meet the table of the
// file before theirs, few enough that a run whose tables all differ
// holds a few copies of a section (hundreds of KB each), not one per
// snapshot.
const recentTables = 4

// recentTable returns the table read lately from stack section raw,
// compared in full, and whether there is one.
func (t *Sharer) recentTable(raw []byte) (Stacks, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, r := range t.recent {
		if bytes.Equal(r.raw, raw) {
			copy(t.recent[1:i+1], t.recent[:i])
			t.recent[0] = r
			return r.tab, true
		}
	}
	return Stacks{}, false
}

// rememberTable records tab, shared, as the table read from stack
// section raw (copied).
func (t *Sharer) rememberTable(raw []byte, tab Stacks) {
	r := rawTable{raw: bytes.Clone(raw), tab: Stacks{Frames: tab.Frames, off: tab.off, ids: tab.ids}}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.recent) < recentTables {
		t.recent = append(t.recent, rawTable{})
	}
	copy(t.recent[1:], t.recent[:len(t.recent)-1])
	t.recent[0] = r
}

// NewSharer returns an empty Sharer; it is safe for concurrent use.
func NewSharer() *Sharer {
	return &Sharer{seed: maphash.MakeSeed(), byHash: map[uint64][]*Stacks{}, segs: map[uint64][][]Segment{}, blocks: map[uint64][][]Block{}}
}

// Share shares digest d's stack table and segment list or, when the list
// is new, the blocks of each of its segments.
func (t *Sharer) Share(d *Snapshot) {
	t.shareStacks(&d.Stacks)
	d.Segments = slices.Clip(d.Segments)
	hashes := make([]uint64, len(d.Segments))
	var words []uint64
	for i := range d.Segments {
		hashes[i], words = t.hashBlocks(d.Segments[i].Blocks, words)
	}
	h := t.hashSegments(d.Segments, hashes)
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.segs[h] {
		if segmentsEqual(c, d.Segments) {
			d.Segments = c
			return
		}
	}
	t.shareBlocks(d.Segments, hashes)
	t.segs[h] = append(t.segs[h], d.Segments)
}

// shareBlocks makes each segment of segs use an equal block list seen
// before, or records it for later ones; hashes are the lists' hashes
// (hashBlocks). Decoders put all blocks of a snapshot in one array, which
// stays in memory as long as one segment points into it: when some
// segments now share, the others' blocks are copied to an array of their
// own, so the decoder's array is let go.
func (t *Sharer) shareBlocks(segs []Segment, hashes []uint64) {
	shared := make([]bool, len(segs))
	some, rest := false, 0
	for i := range segs {
		bl := segs[i].Blocks
		if len(bl) == 0 {
			continue
		}
		for _, c := range t.blocks[hashes[i]] {
			if slices.Equal(c, bl) {
				segs[i].Blocks, shared[i], some = c, true, true
				break
			}
		}
		if !shared[i] {
			rest += len(bl)
		}
	}
	if some && rest > 0 {
		own := make([]Block, 0, rest)
		for i := range segs {
			if !shared[i] && len(segs[i].Blocks) > 0 {
				start := len(own)
				own = append(own, segs[i].Blocks...)
				segs[i].Blocks = own[start:len(own):len(own)]
			}
		}
	}
	for i := range segs {
		if !shared[i] && len(segs[i].Blocks) > 0 {
			segs[i].Blocks = slices.Clip(segs[i].Blocks)
			t.blocks[hashes[i]] = append(t.blocks[hashes[i]], segs[i].Blocks)
		}
	}
}

// hashBlocks hashes a block list, every field of every block, using
// words as scratch space (returned for the next call).
func (t *Sharer) hashBlocks(bl []Block, words []uint64) (uint64, []uint64) {
	words = words[:0]
	for _, b := range bl {
		words = append(words, b.Address, uint64(b.Size), uint64(b.RequestedSize), uint64(b.Stack)|uint64(b.State)<<32)
	}
	return maphash.Bytes(t.seed, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words))), words
}

// hashSegments hashes a segment list from its segments' places and the
// hashes of their block lists.
func (t *Sharer) hashSegments(segs []Segment, blockHashes []uint64) uint64 {
	words := make([]uint64, 0, 3*len(segs))
	for i := range segs {
		words = append(words, segs[i].Address, uint64(segs[i].TotalSize), blockHashes[i])
	}
	return maphash.Bytes(t.seed, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words)))
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
	t.mu.Lock()
	for i := range t.recent {
		if s.SameTable(&t.recent[i].tab) {
			t.mu.Unlock()
			return
		}
	}
	t.mu.Unlock()
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
