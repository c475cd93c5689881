package snapshot

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
	"strings"
	"sync"
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

// segmentDigests encodes a series of digests over one set of segments,
// as a run's snapshots change them: the list as it was, one segment's
// block changed in place, a segment dropped, two added (one among the
// others, one at the end), the list again, the list under a stack table
// too small for one segment's block (a corrupt digest, which must read
// as corrupt however much of it was read before), and the list again.
// hits says how many of each digest's segments a Sharer that read the
// ones before takes from what it read; -1 marks the corrupt one.
func segmentDigests(t *testing.T) (encs [][]byte, hits []int) {
	t.Helper()
	const n = 40
	base := func() []*Segment {
		segs := make([]*Segment, n)
		for i := range segs {
			addr := uint64(i+1) << 24
			segs[i] = &Segment{Device: i % 2, Address: addr, TotalSize: 4 << 20, AllocatedSize: 3 << 20, Stack: StackID(1 + i%3),
				Blocks: []Block{
					{Address: addr, Size: 1 << 20, RequestedSize: 1<<20 - 8, State: StateActiveAllocated, Stack: StackID(1 + i%3)},
					{Address: addr + 1<<20, Size: 2 << 20, State: StateActiveAllocated, Stack: StackID(1 + (i+1)%3)},
					{Address: addr + 3<<20, Size: 1 << 20, State: StateInactive},
				}}
		}
		segs[5].Blocks[1].Stack = 8 // the table's last stack
		return segs
	}
	digest := func(stacks int, segs []*Segment) []byte {
		d := &Snapshot{Digest: &Digest{}}
		for i := range stacks {
			d.Stacks.InternStack([]FrameID{d.Stacks.InternFrame(Frame{File: "train.py", Line: i + 1, Name: "step"})})
		}
		d.Stacks.Seal()
		d.Segments = segs
		enc, err := EncodeDigest(fmt.Sprint("digest ", len(encs)), "", d)
		if err != nil {
			t.Fatal(err)
		}
		return enc
	}
	add := func(enc []byte, h int) {
		encs, hits = append(encs, enc), append(hits, h)
	}
	add(digest(8, base()), 0)
	changed := base()
	changed[10].Blocks[0].RequestedSize--
	add(digest(8, changed), n-1)
	dropped := base()
	dropped = slices.Delete(dropped, 20, 21)
	add(digest(8, dropped), n-1)
	added := base()
	added = slices.Insert(added, 30, &Segment{Device: 1, Address: 30<<24 + 8<<20, TotalSize: 2 << 20})
	added = append(added, &Segment{Device: 0, Address: (n + 1) << 24, TotalSize: 2 << 20})
	add(digest(8, added), n)
	add(digest(8, base()), n)
	add(digest(4, base()), -1)
	add(digest(8, base()), n)
	return encs, hits
}

// TestDecodeDigestTakesRepeatedSegments reads segmentDigests through one
// Sharer and Scratch: each digest reads as it does alone (the corrupt one
// fails with the same error), the segments it repeats are taken from the
// digests read before it and not read again, and once all are read each
// still encodes to its own bytes.
func TestDecodeDigestTakesRepeatedSegments(t *testing.T) {
	encs, hits := segmentDigests(t)
	sh, sc := NewSharer(), new(Scratch)
	digests := make([]*Snapshot, len(encs))
	var buf []byte // one buffer for every read, as the cache's reads
	for i, enc := range encs {
		_, _, alone, aloneErr := DecodeDigest(enc)
		buf = append(buf[:0], enc...)
		_, _, d, err := DecodeDigestReusing(buf, sh, sc)
		if hits[i] < 0 {
			if aloneErr == nil || err == nil || err.Error() != aloneErr.Error() {
				t.Fatalf("digest %d: read after the others: %v; alone: %v", i, err, aloneErr)
			}
			continue
		}
		if aloneErr != nil || err != nil {
			t.Fatalf("digest %d: %v, alone %v", i, err, aloneErr)
		}
		if why := sameDigest(alone, d); why != "" {
			t.Errorf("digest %d: read after the others, its %s differ from the digest read alone", i, why)
		}
		got := 0
		for _, sp := range sc.reduce.spans {
			if sp.hit {
				got++
			}
		}
		if got != hits[i] {
			t.Errorf("digest %d: %d of %d segments taken from earlier digests, want %d", i, got, len(d.Segments), hits[i])
		}
		digests[i] = d
	}
	for i, d := range digests {
		if d == nil {
			continue
		}
		again, err := EncodeDigest(fmt.Sprint("digest ", i), "", d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, encs[i]) {
			t.Errorf("digest %d changed after the later reads", i)
		}
	}
	if len(sh.spare) > recentTables || len(sh.sections) > recentTables {
		t.Errorf("the Sharer holds %d sections and %d spare, at most %d each", len(sh.sections), len(sh.spare), recentTables)
	}
}

// TestDecodeDigestTakesSegmentsConcurrently reads segmentDigests on four
// goroutines through one Sharer, each with its own Scratch, as the
// load's workers do: every digest reads as it does alone (run under the
// race detector by make race).
func TestDecodeDigestTakesSegmentsConcurrently(t *testing.T) {
	encs, hits := segmentDigests(t)
	alone := make([]*Snapshot, len(encs))
	for i, enc := range encs {
		if hits[i] >= 0 {
			_, _, alone[i], _ = DecodeDigest(enc)
		}
	}
	sh := NewSharer()
	var wg sync.WaitGroup
	errs := make(chan string, 4*20*len(encs))
	for w := range 4 {
		wg.Go(func() {
			sc := new(Scratch)
			for round := range 20 {
				for k := range encs {
					i := (k + w + round) % len(encs)
					_, _, d, err := DecodeDigestReusing(encs[i], sh, sc)
					switch {
					case hits[i] < 0 && err == nil:
						errs <- fmt.Sprintf("digest %d read, though corrupt", i)
					case hits[i] >= 0 && err != nil:
						errs <- fmt.Sprintf("digest %d: %v", i, err)
					case hits[i] >= 0:
						if why := sameDigest(alone[i], d); why != "" {
							errs <- fmt.Sprintf("digest %d: %s differ", i, why)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestSegmentSectionBlockCount checks that a segment section whose count
// of blocks is not the number its segments hold is corrupt, read into a
// Scratch's arrays or not: the count sizes the reader's array.
func TestSegmentSectionBlockCount(t *testing.T) {
	segs := []*Segment{
		{Address: 1 << 30, TotalSize: 2 << 20, Blocks: []Block{{Address: 1 << 30, Size: 1 << 20, Stack: 1}, {Address: 1<<30 + 1<<20, Size: 1 << 20}}},
		{Address: 2 << 30, TotalSize: 2 << 20, Blocks: []Block{{Address: 2 << 30, Size: 2 << 20, Stack: 1}}},
	}
	w := &digestWriter{}
	w.segments(segs)
	if w.b[0] != 2 || w.b[1] != 3 {
		t.Fatalf("section starts % x, want the segments' count 2 and the blocks' 3", w.b[:2])
	}
	for _, c := range []struct {
		count byte
		want  string
	}{
		{3, ""},
		{2, "more blocks than the 2 counted"},
		{4, "3 blocks, 4 counted"},
		{0, "more blocks than the 0 counted"},
	} {
		for _, borrowed := range []bool{false, true} {
			b := slices.Clone(w.b)
			b[1] = c.count
			r := &digestReader{b: b, stacks: 1}
			if borrowed {
				r.arrays = new(reduceArrays)
			}
			got := r.segments(false)
			switch {
			case c.want == "" && (r.err != nil || len(got) != 2 || len(got[0].Blocks) != 2 || len(got[1].Blocks) != 1):
				t.Errorf("count %d, borrowed %v: %v, %d segments", c.count, borrowed, r.err, len(got))
			case c.want != "" && (r.err == nil || !strings.Contains(r.err.Error(), c.want)):
				t.Errorf("count %d, borrowed %v: error %v, want %q", c.count, borrowed, r.err, c.want)
			}
		}
	}
}

// TestHashSegmentsIsTheWholeList holds hashSegments, which hashes a
// segment list's numbers in batches, to the hash of all of them at once,
// at the lengths around a batch's end, from the segments and from spans.
func TestHashSegmentsIsTheWholeList(t *testing.T) {
	sh := NewSharer()
	for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 1000} {
		segs := make([]*Segment, n)
		spans := make([]rawSeg, n)
		blocks := make([]uint64, n)
		var words []uint64
		for i := range segs {
			addr, size := uint64(0x7f0000000000+i<<21), int64(2<<20+i)
			segs[i] = &Segment{Address: addr, TotalSize: size}
			spans[i] = rawSeg{addr: addr, size: size}
			blocks[i] = uint64(i)*0x9e3779b97f4a7c15 + 1
			words = append(words, addr, uint64(size), blocks[i])
		}
		want := maphash.Bytes(sh.seed, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words)))
		if got := sh.hashSegments(segs, blocks, nil); got != want {
			t.Errorf("%d segments: hash %x, want %x", n, got, want)
		}
		if got := sh.hashSegments(segs, blocks, spans); got != want {
			t.Errorf("%d spans: hash %x, want %x", n, got, want)
		}
		if n > 0 {
			// A change in the last segment changes the hash.
			blocks[n-1]++
			if sh.hashSegments(segs, blocks, nil) == want {
				t.Errorf("%d segments: the last segment's blocks do not change the hash", n)
			}
		}
	}
}
