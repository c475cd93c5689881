package snapshot

import (
	"slices"
	"testing"
	"unsafe"
)

// TestStackShare checks that equal stack tables end up sharing storage,
// that unequal ones do not, and that interning into a shared table later
// never changes the table it shares with.
func TestStackShare(t *testing.T) {
	table := func(frames ...string) *Stacks {
		s := &Stacks{}
		var ids []FrameID
		for i, name := range frames {
			ids = append(ids, s.InternFrame(Frame{File: "train.py", Line: 10 + i, Name: name}))
			s.InternStack(ids)
		}
		s.Seal()
		return s
	}
	same := func(a, b *Stacks) bool {
		return unsafe.SliceData(a.Frames) == unsafe.SliceData(b.Frames) && unsafe.SliceData(a.ids) == unsafe.SliceData(b.ids)
	}
	sh := NewSharer()
	a, b, c := table("step", "forward", "linear"), table("step", "forward", "linear"), table("step", "forward", "conv")
	for _, s := range []*Stacks{a, b, c} {
		sh.shareStacks(s)
	}
	if !same(a, b) {
		t.Error("equal tables do not share storage")
	}
	if same(a, c) {
		t.Error("different tables share storage")
	}
	want := a.StackFrames(3)
	b.InternStack([]FrameID{b.InternFrame(Frame{File: "x.py", Line: 1, Name: "new"})})
	if got := a.StackFrames(3); !slices.Equal(got, want) || a.Len() != 4 || len(a.Frames) != 3 {
		t.Errorf("interning into a shared table changed the other: %v, %d stacks, %d frames", got, a.Len(), len(a.Frames))
	}
}

// TestShareSegments checks that equal segment lists of two digests end up
// sharing storage, and that lists differing in one block field or one
// segment field do not.
func TestShareSegments(t *testing.T) {
	segs := func(blockSize int64, stream int64) *Snapshot {
		return &Snapshot{Segments: []Segment{{Device: 0, Address: 1 << 30, TotalSize: 2 << 20, Stream: stream,
			Blocks: []Block{{Address: 1 << 30, Size: blockSize, State: StateActiveAllocated, Stack: 1}}}}}
	}
	sh := NewSharer()
	a, b, c, d := segs(1<<20, 0), segs(1<<20, 0), segs(2<<20, 0), segs(1<<20, 7)
	for _, s := range []*Snapshot{a, b, c, d} {
		sh.Share(s)
	}
	if &a.Segments[0] != &b.Segments[0] {
		t.Error("equal segment lists do not share storage")
	}
	if &a.Segments[0] == &c.Segments[0] || &a.Segments[0] == &d.Segments[0] {
		t.Error("segment lists that differ share storage")
	}
}

// TestShareBlocks checks that digests whose segment lists differ in one
// segment share the blocks of the others, keep their own blocks intact,
// and no longer point into the array their decoder made (so that it can
// be collected).
func TestShareBlocks(t *testing.T) {
	digest := func(variant int64) *Snapshot {
		blocks := make([]Block, 6) // one array, as decoders make it
		var segs []Segment
		for i := range 3 {
			addr := uint64(i+1) << 30
			bl := blocks[2*i : 2*i+2 : 2*i+2]
			bl[0] = Block{Address: addr, Size: 1 << 20, RequestedSize: 1<<20 - 1, State: StateActiveAllocated, Stack: StackID(i + 1)}
			bl[1] = Block{Address: addr + 1<<20, Size: 1 << 20, State: StateInactive}
			segs = append(segs, Segment{Address: addr, TotalSize: 2 << 20, Blocks: bl})
		}
		segs[1].Blocks[0].RequestedSize -= variant
		return &Snapshot{Segments: segs}
	}
	within := func(bl []Block, arr []Block) bool {
		p, start := uintptr(unsafe.Pointer(&bl[0])), uintptr(unsafe.Pointer(&arr[0]))
		return p >= start && p < start+uintptr(len(arr))*unsafe.Sizeof(Block{})
	}
	sh := NewSharer()
	a, b := digest(0), digest(5)
	want := make([][]Block, len(b.Segments))
	for i, sg := range b.Segments {
		want[i] = slices.Clone(sg.Blocks)
	}
	bArray := unsafe.Slice(&b.Segments[0].Blocks[0], 6)
	sh.Share(a)
	sh.Share(b)
	for i := range b.Segments {
		if !slices.Equal(b.Segments[i].Blocks, want[i]) {
			t.Errorf("segment %d: blocks %v after sharing, want %v", i, b.Segments[i].Blocks, want[i])
		}
		same := &a.Segments[i].Blocks[0] == &b.Segments[i].Blocks[0]
		if wantSame := i != 1; same != wantSame {
			t.Errorf("segment %d: shares its blocks %v, want %v", i, same, wantSame)
		}
		if within(b.Segments[i].Blocks, bArray) {
			t.Errorf("segment %d: blocks still in the decoder's array", i)
		}
	}
	c := digest(5) // equal to b: the whole list is shared
	sh.Share(c)
	if &c.Segments[0] != &b.Segments[0] {
		t.Error("an equal segment list is not shared")
	}
}
