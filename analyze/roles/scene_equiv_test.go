package roles

import (
	"cmp"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// TestSceneAtIsTheMapped holds SceneAt's blocks live at the dump
// (dumpBlocks) to the map by address it replaced (sceneAtMapped, the
// earlier SceneAt): the same scene on random snapshots whose segments are
// in address order or not, on two devices, with blocks listed twice at
// one address, trace events at the dump's addresses and others, freed
// twice and annotated, at every moment of the trace; and on every device
// of the real snapshots at three moments.
func TestSceneAtIsTheMapped(t *testing.T) {
	check := func(name string, s *snapshot.Snapshot, dev, at int) {
		t.Helper()
		got, want := SceneAt(s, dev, at), sceneAtMapped(s, dev, at)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s device %d at %d: scene differs from the map's\n got %+v\nwant %+v", name, dev, at, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 30))
	for range 300 {
		s := randomScene(rng)
		for dev := range 2 {
			for at := -1; at < len(s.Traces[dev]); at++ {
				check("random", s, dev, at)
			}
		}
	}
	for _, p := range testutil.RealFiles(t, "snapshots", "*.pickle") {
		s, _, err := snapshot.DecodeFile(p, snapshot.DecodeOptions{})
		if err != nil {
			continue
		}
		for _, dev := range s.Devices() {
			n := s.TraceEntries(dev)
			for _, at := range []int{-1, n / 2, n - 1} {
				check(p, s, dev, at)
			}
		}
	}
}

// randomScene is a snapshot of two devices whose segments are shuffled
// half the time, some blocks listed twice at one address, and a trace on
// each device that allocates, frees (requested, completed, or both) and
// annotates blocks live at the dump and others.
func randomScene(rng *rand.Rand) *snapshot.Snapshot {
	s := &snapshot.Snapshot{Traces: make([][]snapshot.TraceEntry, 2)}
	var addrs [2][]uint64
	for dev := range 2 {
		base := uint64(0x7f0000000000) + uint64(dev)<<32
		for range 1 + rng.IntN(6) {
			seg := &snapshot.Segment{Device: dev, Address: base, TotalSize: 0x10000}
			if rng.IntN(4) == 0 {
				seg.PrivatePool = [2]int64{1, int64(rng.IntN(3))}
			}
			a := base
			for range rng.IntN(8) {
				b := snapshot.Block{Address: a, Size: int64(0x200 * (1 + rng.IntN(4))), State: snapshot.BlockState(rng.IntN(4)), Stack: snapshot.StackID(rng.IntN(3))}
				if rng.IntN(10) == 0 && len(seg.Blocks) > 0 {
					b.Address = seg.Blocks[len(seg.Blocks)-1].Address // listed twice
				}
				seg.Blocks = append(seg.Blocks, b)
				addrs[dev] = append(addrs[dev], b.Address)
				a += uint64(b.Size)
			}
			s.Segments = append(s.Segments, seg)
			base += 0x10000 + uint64(rng.IntN(2))*0x10000
		}
		for range rng.IntN(30) {
			e := snapshot.TraceEntry{Addr: base + uint64(rng.IntN(8))*0x200, Size: int64(1 + rng.IntN(0x800)), Meta: snapshot.NoMeta}
			if len(addrs[dev]) > 0 && rng.IntN(2) == 0 {
				e.Addr = addrs[dev][rng.IntN(len(addrs[dev]))]
			}
			e.Action = []snapshot.Action{snapshot.ActionAlloc, snapshot.ActionAlloc, snapshot.ActionFreeRequested, snapshot.ActionFreeCompleted, snapshot.ActionAnnotate}[rng.IntN(5)]
			s.Traces[dev] = append(s.Traces[dev], e)
		}
	}
	if rng.IntN(2) == 0 {
		rng.Shuffle(len(s.Segments), func(i, j int) { s.Segments[i], s.Segments[j] = s.Segments[j], s.Segments[i] })
	}
	return s
}

func sceneAtMapped(s *snapshot.Snapshot, dev, at int) *Scene {
	if s.Digest != nil || dev < 0 || dev >= len(s.Traces) || at < -1 || at >= len(s.Traces[dev]) {
		return nil
	}
	tr := s.Traces[dev]
	sc := &Scene{Stacks: &s.Stacks, Trace: tr, At: at, HasTrace: true, Future: true, Pools: map[[2]int64]Pool{}}
	for _, p := range Pools(s, dev) {
		sc.Pools[p.ID] = p
	}
	type live struct {
		size int64
		pool [2]int64
	}
	var segs []*snapshot.Segment
	blocks := 0
	for i := range s.Segments {
		if seg := s.Segments[i]; seg.Device == dev {
			segs = append(segs, seg)
			blocks += len(seg.Blocks)
		}
	}
	// Sized first: a large model's 175k live blocks grew the map a dozen
	// times over.
	atDump := make(map[uint64]live, blocks)
	for _, seg := range segs {
		for _, b := range seg.Blocks {
			if b.State == snapshot.StateActiveAllocated {
				atDump[b.Address] = live{b.Size, seg.PrivatePool}
			}
		}
	}
	// byAddr finds the segment holding an address by binary search: the
	// trace's 10k events against a large model's 17k segments made a
	// scan per event the most of this function.
	byAddr := slices.Clone(segs)
	slices.SortStableFunc(byAddr, func(a, b *snapshot.Segment) int { return cmp.Compare(a.Address, b.Address) })
	poolOf := func(e *snapshot.TraceEntry) [2]int64 {
		if p, ok := s.PoolOf(e); ok {
			return p
		}
		// The last segment starting at or below the address.
		i, _ := slices.BinarySearchFunc(byAddr, e.Addr+1, func(seg *snapshot.Segment, a uint64) int { return cmp.Compare(seg.Address, a) })
		if i > 0 {
			if seg := byAddr[i-1]; e.Addr < seg.Address+uint64(seg.TotalSize) {
				return seg.PrivatePool
			}
		}
		return [2]int64{}
	}
	// At most one block per event and one per block live at the dump.
	sc.Blocks = make([]Block, 0, len(tr)+len(atDump))
	open := map[uint64]int{} // address -> index in sc.Blocks of its open allocation
	// requested holds the addresses freed by a free_requested whose
	// free_completed is still to come: that free_completed frees nothing
	// more.
	requested := map[uint64]bool{}
	free := func(i int, e *snapshot.TraceEntry) {
		if j, ok := open[e.Addr]; ok {
			sc.Blocks[j].Freed = i
			delete(open, e.Addr)
			return
		}
		// Allocated before the trace's window.
		sc.Blocks = append(sc.Blocks, Block{Addr: e.Addr, Size: snapshot.RoundedSize(e.Size), Pool: poolOf(e), Alloc: -1, Freed: i})
	}
	for i := range tr {
		e := &tr[i]
		switch e.Action {
		case snapshot.ActionAlloc:
			b := Block{Addr: e.Addr, Size: snapshot.RoundedSize(e.Size), Stack: e.Stack, Pool: poolOf(e), Alloc: i, Meta: s.MetaText(e.Meta), Freed: -1}
			open[e.Addr] = len(sc.Blocks)
			sc.Blocks = append(sc.Blocks, b)
		case snapshot.ActionFreeRequested:
			free(i, e)
			requested[e.Addr] = true
		case snapshot.ActionFreeCompleted:
			if requested[e.Addr] {
				delete(requested, e.Addr)
				continue
			}
			free(i, e)
		case snapshot.ActionAnnotate:
			if j, ok := open[e.Addr]; ok && i <= at && e.Meta != snapshot.NoMeta {
				sc.Blocks[j].Notes = append(sc.Blocks[j].Notes, s.MetaText(e.Meta))
			}
		}
	}
	for j := range sc.Blocks {
		b := &sc.Blocks[j]
		if b.Freed < 0 {
			if l, ok := atDump[b.Addr]; ok {
				b.Size, b.Pool = l.size, l.pool
				delete(atDump, b.Addr)
			}
		}
	}
	// Live at the dump, never seen allocated: alive all along.
	for _, seg := range segs {
		for _, b := range seg.Blocks {
			if _, ok := atDump[b.Address]; ok && b.State == snapshot.StateActiveAllocated {
				sc.Blocks = append(sc.Blocks, Block{Addr: b.Address, Size: b.Size, Stack: b.Stack, Pool: seg.PrivatePool, Alloc: -1, Freed: -1})
			}
		}
	}
	alive := sc.Blocks[:0]
	for _, b := range sc.Blocks {
		if b.Alloc <= at && (b.Freed < 0 || b.Freed > at) {
			alive = append(alive, b)
		}
	}
	sc.Blocks = alive
	return sc
}
