package snapshot

import (
	"reflect"
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
		sh.shareStacks(s, false)
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
		return &Snapshot{Segments: []*Segment{{Device: 0, Address: 1 << 30, TotalSize: 2 << 20, Stream: stream,
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
	if a.Segments[0] == c.Segments[0] || a.Segments[0] == d.Segments[0] {
		t.Error("segments that differ are shared")
	}
	if d.Segments[0].Stream != 7 || c.Segments[0].Blocks[0].Size != 2<<20 {
		t.Errorf("sharing changed a segment: %+v, %+v", *d.Segments[0], *c.Segments[0])
	}
}

// TestShareEachSegment checks that digests whose segment lists differ in
// one segment share the others, a segment that differs in a field but
// not in its blocks shares its block list, each keeps its own values,
// and none points into the arrays its decoder made (so that they can be
// collected).
func TestShareEachSegment(t *testing.T) {
	digest := func(variant, stream int64) (*Snapshot, []Segment, []Block) {
		blocks := make([]Block, 6) // one array each, as decoders make them
		segs := make([]Segment, 3)
		for i := range segs {
			addr := uint64(i+1) << 30
			bl := blocks[2*i : 2*i+2 : 2*i+2]
			bl[0] = Block{Address: addr, Size: 1 << 20, RequestedSize: 1<<20 - 1, State: StateActiveAllocated, Stack: StackID(i + 1)}
			bl[1] = Block{Address: addr + 1<<20, Size: 1 << 20, State: StateInactive}
			segs[i] = Segment{Address: addr, TotalSize: 2 << 20, Blocks: bl}
		}
		segs[1].Blocks[0].RequestedSize -= variant
		segs[2].Stream = stream
		return &Snapshot{Segments: pointers(segs)}, segs, blocks
	}
	within := func(p unsafe.Pointer, start unsafe.Pointer, size uintptr) bool {
		return uintptr(p) >= uintptr(start) && uintptr(p) < uintptr(start)+size
	}
	sh := NewSharer()
	a, _, _ := digest(0, 0)
	b, bSegs, bBlocks := digest(5, 3)
	want := make([]Segment, len(b.Segments))
	for i, sg := range b.Segments {
		want[i] = *sg
		want[i].Blocks = slices.Clone(sg.Blocks)
	}
	sh.Share(a)
	sh.Share(b)
	for i, sg := range b.Segments {
		if !segmentEqual(sg, &want[i]) {
			t.Errorf("segment %d: %+v after sharing, want %+v", i, *sg, want[i])
		}
		if shared, wantShared := sg == a.Segments[i], i == 0; shared != wantShared {
			t.Errorf("segment %d: shared %v, want %v", i, shared, wantShared)
		}
		if sameBlocks, want := &sg.Blocks[0] == &a.Segments[i].Blocks[0], i != 1; sameBlocks != want {
			t.Errorf("segment %d: shares its blocks %v, want %v", i, sameBlocks, want)
		}
		if within(unsafe.Pointer(sg), unsafe.Pointer(&bSegs[0]), uintptr(len(bSegs))*unsafe.Sizeof(Segment{})) {
			t.Errorf("segment %d: still in the decoder's segment array", i)
		}
		if within(unsafe.Pointer(&sg.Blocks[0]), unsafe.Pointer(&bBlocks[0]), uintptr(len(bBlocks))*unsafe.Sizeof(Block{})) {
			t.Errorf("segment %d: blocks still in the decoder's array", i)
		}
	}
	c, _, _ := digest(5, 3) // equal to b: the whole list is shared
	sh.Share(c)
	if &c.Segments[0] != &b.Segments[0] {
		t.Error("an equal segment list is not shared")
	}
}

// TestSegmentEqualFields checks that segmentEqual and hashSegment see
// every field of Segment: two segments that differ in any one field are
// not equal, whatever fields Segment gains.
func TestSegmentEqualFields(t *testing.T) {
	base := Segment{Device: 1, Address: 1 << 30, TotalSize: 2 << 20, Blocks: []Block{{Address: 1 << 30, Size: 2 << 20}}}
	sh := NewSharer()
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		other := base
		f := reflect.ValueOf(&other).Elem().Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64, reflect.Int32:
			f.SetInt(f.Int() + 1)
		case reflect.Uint64, reflect.Uint32, reflect.Uint8:
			f.SetUint(f.Uint() + 1)
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Array:
			f.Index(0).SetInt(f.Index(0).Int() + 1)
		case reflect.Slice:
			other.Blocks = append(slices.Clone(base.Blocks), Block{Address: 3 << 30})
		default:
			t.Fatalf("field %s: kind %s; teach this test and segmentEqual about it", typ.Field(i).Name, f.Kind())
		}
		if segmentEqual(&base, &other) {
			t.Errorf("segments that differ in %s are equal", typ.Field(i).Name)
		}
		hb, _ := sh.hashBlocks(base.Blocks, nil)
		ho, _ := sh.hashBlocks(other.Blocks, nil)
		if sh.hashSegment(&base, hb) == sh.hashSegment(&other, ho) {
			t.Errorf("segments that differ in %s hash alike", typ.Field(i).Name)
		}
	}
	if copy := base; !segmentEqual(&base, &copy) {
		t.Error("a segment differs from its copy")
	}
}
