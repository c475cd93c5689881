package alloc

import (
	"errors"
	"math/rand/v2"
	"testing"
)

const (
	kib = int64(1) << 10
	mb  = int64(1) << 20
	gb  = int64(1) << 30
)

func TestRoundSize(t *testing.T) {
	for _, tc := range []struct {
		n         int64
		divisions int
		want      int64
	}{
		{0, 0, 512},
		{1, 0, 512},
		{512, 0, 512},
		{513, 0, 1024},
		{4000, 0, 4096},
		{mb, 0, mb},
		{mb + 1, 0, mb + 512},
		{1200000, 4, 1310720}, // quarter steps between 1 MiB and 2 MiB
		{1310720, 4, 1310720},
		{mb, 4, mb},         // powers of two stay
		{1500, 4, 1536},     // at most 512*divisions: plain rounding
		{3 * mb, 2, 3 * mb}, // half steps: 2 MiB, 3 MiB, 4 MiB
		{3*mb + 1, 2, 4 * mb},
		{5 * mb, 2, 6 * mb},
	} {
		if got := RoundSize(tc.n, tc.divisions); got != tc.want {
			t.Errorf("RoundSize(%d, %d) = %d, want %d", tc.n, tc.divisions, got, tc.want)
		}
	}
}

func TestSegmentSizeAndPool(t *testing.T) {
	for _, tc := range []struct {
		rounded int64
		small   bool
		seg     int64
	}{
		{512, true, 2 * mb},
		{mb, true, 2 * mb},
		{mb + 512, false, 20 * mb},
		{10*mb - 512, false, 20 * mb},
		{10 * mb, false, 10 * mb},
		{10*mb + 512, false, 12 * mb},
		{101 * mb, false, 102 * mb},
	} {
		if IsSmall(tc.rounded) != tc.small || SegmentSize(tc.rounded) != tc.seg {
			t.Errorf("%d: small=%v segment=%d, want %v %d", tc.rounded, IsSmall(tc.rounded), SegmentSize(tc.rounded), tc.small, tc.seg)
		}
	}
}

func newTest(t *testing.T, cfg Config) *Allocator {
	t.Helper()
	if cfg.Capacity == 0 {
		cfg.Capacity = 80 * gb
	}
	if cfg.MaxEntries == 0 {
		cfg.MaxEntries = 10000
	}
	return New(cfg)
}

func mustMalloc(t *testing.T, a *Allocator, n int64) *Block {
	t.Helper()
	b, err := a.Malloc(n, 0, nil)
	if err != nil {
		t.Fatalf("malloc %d: %v", n, err)
	}
	if err := a.Check(); err != nil {
		t.Fatalf("after malloc %d: %v", n, err)
	}
	return b
}

func mustFree(t *testing.T, a *Allocator, b *Block) {
	t.Helper()
	a.Free(b, nil)
	if err := a.Check(); err != nil {
		t.Fatalf("after free: %v", err)
	}
}

func actions(a *Allocator) []string {
	var out []string
	for _, e := range a.Trace() {
		out = append(out, e.Action.String())
	}
	return out
}

// TestSplitting checks which blocks split and how: the allocated piece
// keeps the low address, the remainder stays free.
func TestSplitting(t *testing.T) {
	for _, tc := range []struct {
		name      string
		maxSplit  int64
		req       int64
		blockSize int64
		segSize   int64
		segBlocks int
	}{
		{"small splits remainder >= 512", 0, 1000, 1024, 2 * mb, 2},
		{"small exact", 0, mb, mb, 2 * mb, 2},
		{"large splits remainder > 1 MiB", 0, 5 * mb, 5 * mb, 20 * mb, 2},
		{"large own segment, remainder <= 1 MiB kept", 0, 19*mb + 512*kib, 20 * mb, 20 * mb, 1},
		{"large own segment, remainder of 1 MiB kept", 0, 17 * mb, 18 * mb, 18 * mb, 1},
		{"large own segment, remainder > 1 MiB splits", 0, 10*mb + 512, 10*mb + 512, 12 * mb, 2},
		{"no split at or above max_split_size", 8 * mb, 9 * mb, 20 * mb, 20 * mb, 1},
		{"split below max_split_size", 8 * mb, 7 * mb, 7 * mb, 20 * mb, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTest(t, Config{MaxSplitSize: tc.maxSplit})
			b := mustMalloc(t, a, tc.req)
			if b.Size != tc.blockSize || b.Requested != tc.req {
				t.Errorf("block %d (requested %d), want %d", b.Size, b.Requested, tc.blockSize)
			}
			segs := a.Segments()
			if len(segs) != 1 || segs[0].Size != tc.segSize || len(segs[0].Blocks()) != tc.segBlocks {
				t.Fatalf("segments %d, size %d, blocks %d; want 1 %d %d", len(segs), segs[0].Size, len(segs[0].Blocks()), tc.segSize, tc.segBlocks)
			}
			if b.Addr != segs[0].Addr {
				t.Errorf("allocated block not at the segment start")
			}
		})
	}
}

func TestMergeOnFree(t *testing.T) {
	a := newTest(t, Config{})
	x := mustMalloc(t, a, 4*mb)
	y := mustMalloc(t, a, 4*mb)
	z := mustMalloc(t, a, 4*mb)
	if n := len(a.Segments()); n != 1 {
		t.Fatalf("%d segments, want 1", n)
	}
	mustFree(t, a, x)
	mustFree(t, a, z) // merges with the 8 MiB tail
	if n := len(a.Segments()[0].Blocks()); n != 3 {
		t.Fatalf("%d blocks, want 3 (free, y, free)", n)
	}
	mustFree(t, a, y)
	bl := a.Segments()[0].Blocks()
	if len(bl) != 1 || bl[0].Size != 20*mb || bl[0].State != Inactive {
		t.Fatalf("after freeing all: %d blocks, first %d %s", len(bl), bl[0].Size, bl[0].State)
	}
}

func TestBestFit(t *testing.T) {
	a := newTest(t, Config{})
	// Two segments with free holes of 6 MiB (lower address) and 4 MiB.
	c := mustMalloc(t, a, 6*mb)
	mustMalloc(t, a, 14*mb)
	x := mustMalloc(t, a, 4*mb)
	mustMalloc(t, a, 16*mb)
	if len(a.Segments()) != 2 {
		t.Fatalf("%d segments, want 2", len(a.Segments()))
	}
	mustFree(t, a, c)
	mustFree(t, a, x)
	b := mustMalloc(t, a, 3*mb)
	if b.Addr != x.Addr {
		t.Errorf("3 MiB request served at %#x, want the 4 MiB hole at %#x", b.Addr, x.Addr)
	}
	// Equal sizes: the lower address wins.
	a2 := newTest(t, Config{})
	p := mustMalloc(t, a2, 12*mb)
	mustMalloc(t, a2, 8*mb)
	q := mustMalloc(t, a2, 12*mb)
	mustMalloc(t, a2, 8*mb)
	mustFree(t, a2, q)
	mustFree(t, a2, p)
	if b := mustMalloc(t, a2, 12*mb); b.Addr != p.Addr {
		t.Errorf("tie served at %#x, want lower address %#x", b.Addr, p.Addr)
	}
}

func TestMaxSplitSize(t *testing.T) {
	a := newTest(t, Config{MaxSplitSize: 16 * mb})
	big := mustMalloc(t, a, 18*mb)
	mustFree(t, a, big)
	small := mustMalloc(t, a, 4*mb)
	if small.seg == big.seg {
		t.Error("oversize block served a small request")
	}
	again := mustMalloc(t, a, 17*mb)
	if again.Addr != big.Addr || again.Size != 18*mb {
		t.Errorf("17 MiB request not served by the cached 18 MiB block")
	}
	mustFree(t, a, again)
	// An oversize block more than 20 MiB too big is not used.
	huge := mustMalloc(t, a, 60*mb)
	mustFree(t, a, huge)
	b := mustMalloc(t, a, 30*mb)
	if b.Addr == huge.Addr {
		t.Error("60 MiB block served a 30 MiB request")
	}
}

func TestEmptyCache(t *testing.T) {
	a := newTest(t, Config{})
	keep := mustMalloc(t, a, 4*mb) // pins its segment
	x := mustMalloc(t, a, 30*mb)
	s := mustMalloc(t, a, 100*kib)
	mustFree(t, a, x)
	mustFree(t, a, s)
	before := a.Reserved()
	a.EmptyCache(nil)
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	if got, want := a.Reserved(), int64(20*mb); got != want {
		t.Errorf("reserved after empty_cache %d, want %d (was %d)", got, want, before)
	}
	if keep.seg != a.Segments()[0] {
		t.Error("segment with a live block released")
	}
	tr := actions(a)
	if tr[len(tr)-1] != "segment_free" || tr[len(tr)-2] != "segment_free" {
		t.Errorf("trace ends %v, want two segment_free", tr[len(tr)-3:])
	}
}

// TestOOMFragmented builds the classic fragmentation OOM: more cached
// free memory than the request, but no free block large enough and no
// room for a new segment.
func TestOOMFragmented(t *testing.T) {
	a := newTest(t, Config{Capacity: 64 * mb})
	for i := 0; i < 3; i++ {
		mustMalloc(t, a, 6*mb)
		mustMalloc(t, a, 6*mb)
		mustMalloc(t, a, 8*mb)
	}
	if n := len(a.Segments()); n != 3 {
		t.Fatalf("%d segments, want 3", n)
	}
	// Free the 8 MiB pieces: 24 MiB cached in three 8 MiB holes.
	for _, s := range a.Segments() {
		mustFree(t, a, s.Blocks()[2])
	}
	_, err := a.Malloc(10*mb, 0, "ctx")
	var oom *OOMError
	if !errors.As(err, &oom) {
		t.Fatalf("err = %v, want OOM", err)
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	if oom.Inactive != 24*mb || oom.LargestFree != 8*mb || oom.Rounded != 10*mb || oom.DeviceFree != 4*mb {
		t.Errorf("oom %+v", *oom)
	}
	last := a.Trace()[len(a.Trace())-1]
	if last.Action != OOM || last.Addr != uint64(4*mb) || last.Size != 10*mb || last.Ctx != "ctx" {
		t.Errorf("last trace entry %+v, want oom with device_free 4 MiB", last)
	}
}

// TestOOMReleasesCache checks that a failed cudaMalloc first releases
// cached segments and retries.
func TestOOMReleasesCache(t *testing.T) {
	a := newTest(t, Config{Capacity: 64 * mb})
	x := mustMalloc(t, a, 30*mb)
	y := mustMalloc(t, a, 30*mb)
	mustFree(t, a, x)
	mustFree(t, a, y)
	if n := a.AllocRetries(); n != 0 {
		t.Errorf("%d retries before any was needed", n)
	}
	b := mustMalloc(t, a, 50*mb)
	if b.Size != 50*mb || a.Reserved() != 50*mb {
		t.Errorf("block %d reserved %d", b.Size, a.Reserved())
	}
	if n := a.AllocRetries(); n != 1 {
		t.Errorf("num_alloc_retries %d after one retry, want 1", n)
	}
	tr := actions(a)
	want := []string{"segment_free", "segment_free", "segment_alloc", "alloc"}
	if got := tr[len(tr)-4:]; !equal(got, want) {
		t.Errorf("trace ends %v, want %v", got, want)
	}
	if _, err := a.Malloc(20*mb, 0, nil); err == nil {
		t.Error("allocation beyond capacity succeeded")
	}
	a.Free(b, nil)
	a.EmptyCache(nil)
	a.SetOverhead(20 * mb)
	if _, err := a.Malloc(50*mb, 0, nil); err == nil {
		t.Error("allocation ignoring the non-PyTorch overhead succeeded")
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTraceRing(t *testing.T) {
	a := newTest(t, Config{MaxEntries: 5})
	for i := 0; i < 4; i++ {
		a.SetTime(int64(1000 + i))
		b := mustMalloc(t, a, 100)
		mustFree(t, a, b)
	}
	tr := a.Trace()
	if len(tr) != 5 {
		t.Fatalf("%d entries, want 5", len(tr))
	}
	// 1 segment_alloc + 4*(alloc, free_requested, free_completed) = 13;
	// the last 5 start with the free_completed of an evicted alloc.
	want := []string{"free_requested", "free_completed", "alloc", "free_requested", "free_completed"}
	if got := actions(a); !equal(got, want) {
		t.Errorf("ring %v, want %v", got, want)
	}
	for i := 1; i < len(tr); i++ {
		if tr[i].TimeUS < tr[i-1].TimeUS {
			t.Error("times go backwards")
		}
	}
	a.SetRecording(false)
	b := mustMalloc(t, a, 100)
	if b.Ctx != nil || len(a.Trace()) != 5 || a.Trace()[4].Action != FreeCompleted {
		t.Error("events recorded while recording is off")
	}
}

func TestPendingFree(t *testing.T) {
	a := newTest(t, Config{})
	a.SetTime(100)
	b := mustMalloc(t, a, 4*mb)
	a.FreeAfter(b, "free-ctx", 200)
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	if b.State != ActivePendingFree || a.Allocated() != 0 || a.Active() != 4*mb {
		t.Fatalf("state %s allocated %d active %d", b.State, a.Allocated(), a.Active())
	}
	// Not reusable yet.
	c := mustMalloc(t, a, 4*mb)
	if c.Addr == b.Addr {
		t.Error("pending block reused")
	}
	a.SetTime(250)
	a.ProcessEvents()
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	if b.State != Inactive || a.Active() != 4*mb {
		t.Errorf("after events: %s, active %d", b.State, a.Active())
	}
	tr := a.Trace()
	if e := tr[len(tr)-1]; e.Action != FreeCompleted || e.Ctx != "free-ctx" || e.TimeUS != 250 {
		t.Errorf("last entry %+v", e)
	}
}

func TestExpandable(t *testing.T) {
	a := newTest(t, Config{Expandable: true, Capacity: 200 * mb})
	var bl []*Block
	for i := 0; i < 5; i++ {
		bl = append(bl, mustMalloc(t, a, 7*mb))
	}
	mustMalloc(t, a, 100*kib)
	segs := a.Segments()
	if len(segs) != 2 {
		t.Fatalf("%d segments, want one per pool", len(segs))
	}
	large := segs[0]
	if large.Small {
		large = segs[1]
	}
	if !large.Expandable || large.Size != 40*mb {
		t.Errorf("large expandable segment maps %d bytes, want 40 MiB", large.Size)
	}
	for _, b := range bl[2:] {
		mustFree(t, a, b)
	}
	a.EmptyCache(nil)
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	if large.Size != 20*mb {
		t.Errorf("after empty_cache maps %d, want 20 MiB (14 MiB live, rounded up to a page)", large.Size)
	}
	n := map[string]int{}
	for _, s := range actions(a) {
		n[s]++
	}
	if n["segment_map"] != 3 || n["segment_unmap"] != 1 || n["segment_alloc"] != 0 {
		t.Errorf("actions %v", n)
	}
	if _, err := a.Malloc(300*mb, 0, nil); err == nil {
		t.Error("expandable allocation beyond capacity succeeded")
	}
}

func TestHistory(t *testing.T) {
	a := newTest(t, Config{History: true})
	x := mustMalloc(t, a, 4*mb)
	y := mustMalloc(t, a, 4*mb)
	xa, ya := x.Addr, y.Addr
	if len(x.History) != 1 || x.History[0].RealSize != 4*mb || x.History[0].Addr != x.Addr {
		t.Fatalf("history %+v", x.History)
	}
	mustFree(t, a, x)
	mustFree(t, a, y)
	free := a.Segments()[0].Blocks()[0]
	if len(free.History) != 2 || free.History[0].Addr != xa || free.History[1].Addr != ya {
		t.Errorf("merged history %+v", free.History)
	}
}

// TestRandomOps runs random allocation patterns under every configuration
// and checks the invariants after each operation.
func TestRandomOps(t *testing.T) {
	for _, cfg := range []Config{
		{Capacity: 2 * gb},
		{Capacity: 2 * gb, MaxSplitSize: 32 * mb},
		{Capacity: 2 * gb, RoundupPower2Divisions: 4},
		{Capacity: 2 * gb, Expandable: true},
		{Capacity: 512 * mb, History: true, MaxEntries: 100},
	} {
		a := New(cfg)
		r := rand.New(rand.NewPCG(1, 2))
		var live []*Block
		ooms := 0
		for i := 0; i < 4000; i++ {
			a.SetTime(int64(i))
			switch op := r.IntN(10); {
			case op < 5 || len(live) == 0:
				var n int64
				switch r.IntN(3) {
				case 0:
					n = 1 + r.Int64N(mb)
				case 1:
					n = mb + r.Int64N(12*mb)
				default:
					n = r.Int64N(80 * mb)
				}
				b, err := a.Malloc(n, int64(r.IntN(2)), i)
				if err != nil {
					ooms++
					break
				}
				live = append(live, b)
			case op < 9:
				k := r.IntN(len(live))
				if r.IntN(8) == 0 {
					a.FreeAfter(live[k], nil, int64(i+5))
				} else {
					a.Free(live[k], nil)
				}
				live = append(live[:k], live[k+1:]...)
			default:
				a.EmptyCache(nil)
			}
			if err := a.Check(); err != nil {
				t.Fatalf("config %+v op %d: %v", cfg, i, err)
			}
		}
		if ooms == 0 && cfg.Capacity < gb {
			t.Errorf("config %+v: no OOM under pressure", cfg)
		}
	}
}

func BenchmarkMallocFree(b *testing.B) {
	a := New(Config{Capacity: 80 * gb, MaxEntries: 100000})
	r := rand.New(rand.NewPCG(1, 2))
	live := make([]*Block, 0, 512)
	for b.Loop() {
		if len(live) < 256 || r.IntN(2) == 0 {
			blk, err := a.Malloc(1+r.Int64N(16*mb), 0, nil)
			if err != nil {
				b.Fatal(err)
			}
			live = append(live, blk)
		} else {
			k := r.IntN(len(live))
			a.Free(live[k], nil)
			live[k] = live[len(live)-1]
			live = live[:len(live)-1]
		}
	}
}

// TestPrivatePool allocates in a CUDA graph's private pool: its segments
// carry the pool's id, serve only its requests, and survive empty_cache.
func TestPrivatePool(t *testing.T) {
	a := New(Config{Capacity: 8 * gb})
	g := PoolID{1, 7}
	x, err := a.MallocIn(30*mb, 0, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	y, err := a.MallocIn(5*mb, 0, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if x.seg.Pool != g || y.seg.Pool != g {
		t.Errorf("pools %v %v, want %v", x.seg.Pool, y.seg.Pool, g)
	}
	a.Free(x, nil)
	// A default-pool request of the freed size gets a segment of its
	// own: the graph's free block is not for it.
	z, err := a.Malloc(30*mb, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if z.seg == x.seg || z.seg.Pool != (PoolID{}) {
		t.Errorf("default request served from the private pool (%v)", z.seg.Pool)
	}
	// The pool's own request reuses it.
	w, err := a.MallocIn(30*mb, 0, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.seg != x.seg {
		t.Errorf("private request got a new segment")
	}
	a.Free(w, nil)
	a.Free(z, nil)
	before := a.Reserved()
	a.EmptyCache(nil)
	if got := a.Reserved(); got != before-30*mb {
		t.Errorf("reserved %d after empty_cache, want %d (only the default segment returned)", got, before-30*mb)
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestExpandableMaxSplit: with max_split_size set, a free range of at
// least that size inside an expandable segment is not handed to a
// smaller request (get_free_block's oversize rule, PyTorch #193400), so
// the allocator maps more at the end; a free tail of any size is taken
// as it is.
func TestExpandableMaxSplit(t *testing.T) {
	a := newTest(t, Config{Expandable: true, MaxSplitSize: 64 * mb, Capacity: 2 * gb})
	big := mustMalloc(t, a, 100*mb)
	mustMalloc(t, a, 20*mb) // a fence after it, filling its page
	mustFree(t, a, big)
	before := a.Reserved()
	x := mustMalloc(t, a, 10*mb)
	if x.Addr == big.Addr || a.Reserved() <= before {
		t.Errorf("a 10 MiB request reused the 100 MiB free range (reserved %d -> %d)", before, a.Reserved())
	}
	// Free everything after the fence: the tail is free and large; a
	// smaller request takes it without mapping.
	mustFree(t, a, x)
	before = a.Reserved()
	y := mustMalloc(t, a, 10*mb)
	if a.Reserved() != before || y.Addr == big.Addr {
		t.Errorf("reserved %d -> %d, block at %#x (the stranded range is at %#x)", before, a.Reserved(), y.Addr, big.Addr)
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
}
