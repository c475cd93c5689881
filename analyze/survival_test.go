package analyze

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/stats"
	"gpureport/snapshot"
)

// sblock is a live block placed at a fixed address, for runs whose block
// identities a test controls.
type sblock struct {
	addr   uint64
	size   int64
	frames []snapshot.Frame
	// req is the bytes the tensor asked for; 0: the snapshot gives none
	// (older PyTorch), so its requested size is the block's.
	req int64
}

// slot is the address of the i-th block slot: 1 GiB apart, so that no two
// slots' segments overlap.
func slot(i int) uint64 { return 0x7f0000000000 + uint64(i+1)<<30 }

// blocksRun makes a run of one snapshot per element of snaps: a 2 GiB
// parameter segment, then each block in a segment of its own at its
// address, every 100 steps.
func blocksRun(snaps [][]sblock) *ingest.Run {
	run := &ingest.Run{Dir: "survival", Location: time.UTC}
	for i, blocks := range snaps {
		b := newSnap()
		b.segment(0, live(2*gib, stackAt("model.py", 20, "__init__")))
		sorted := slices.Clone(blocks)
		slices.SortFunc(sorted, func(x, y sblock) int { return int(x.addr>>20) - int(y.addr>>20) })
		for _, x := range sorted {
			b.next = x.addr
			b.segment(0, blk{size: x.size, state: snapshot.StateActiveAllocated, frames: x.frames, req: x.req})
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		b.event(0, snapshot.ActionSnapshot, 0, 0, at.UnixMicro(), nil)
		step := int64(100 * (i + 1))
		run.Snapshots = append(run.Snapshots, file(b.done(), fmt.Sprintf("snapshot_step_%06d.pickle", step), step, input.NoRank))
	}
	return run
}

// window returns n snapshots of a container at train.py:90 that holds the
// blocks of the last life snapshots, perSnap new ones each, whose sizes
// are log-normal (σ 0.8, a heavy tail) around a median that drifts by
// drift per snapshot (a share of the first median, 2 MiB): the wandering
// of a rolling window of variable-size batches. frames nil makes them
// stackless.
func window(n, life, perSnap int, drift float64, seed uint64, frames []snapshot.Frame) [][]sblock {
	rng := rand.New(rand.NewPCG(seed, 3))
	sizes := map[int]int64{}
	out := make([][]sblock, n)
	for k := range n {
		for j := range perSnap {
			median := 2 * float64(mib) * (1 + drift*float64(k))
			sizes[k*perSnap+j] = (int64(median*math.Exp(0.8*rng.NormFloat64())) + 511) / 512 * 512
		}
		for b := max(0, k-life+1); b <= k; b++ {
			for j := range perSnap {
				id := b*perSnap + j
				out[k] = append(out[k], sblock{addr: slot(id), size: sizes[id], frames: frames})
			}
		}
	}
	return out
}

func TestSurvivalFold(t *testing.T) {
	list := stackAt("train.py", 57, "train_step")
	win := stackAt("train.py", 90, "train_step")
	// The list keeps a block per snapshot; the window holds two blocks
	// for one snapshot each; one window block reappears with the same
	// address and size (a reused identity).
	snaps := [][]sblock{
		{{addr: slot(0), size: 4 * mib, frames: list}, {addr: slot(10), size: 3 * mib, frames: win}, {addr: slot(11), size: 5 * mib, frames: win}},
		{{addr: slot(0), size: 4 * mib, frames: list}, {addr: slot(1), size: 4 * mib, frames: list}, {addr: slot(12), size: 2 * mib, frames: win}, {addr: slot(13), size: 6 * mib, frames: win}},
		{{addr: slot(0), size: 4 * mib, frames: list}, {addr: slot(1), size: 4 * mib, frames: list}, {addr: slot(2), size: 4 * mib, frames: list}, {addr: slot(12), size: 2 * mib, frames: win}, {addr: slot(14), size: 1 * mib, frames: win}},
	}
	run := blocksRun(snaps)
	sv := newSurvival()
	for _, f := range run.Snapshots {
		sv.Observe(f.Snapshot, 0, newSignatureCache(&f.Snapshot.Stacks))
	}
	l := sv.Group(SignatureOf(list).Key)
	w := sv.Group(SignatureOf(win).Key)
	if l == nil || w == nil {
		t.Fatalf("groups %v %v", l, w)
	}
	want := GroupSurvival{Survivors: []int64{0, 4 * mib, 8 * mib}, Kept: []int64{4 * mib, 8 * mib, 12 * mib},
		Largest: []int64{4 * mib, 4 * mib, 4 * mib}, Blocks: 3, Born: []int{1, 1, 1}}
	if fmt.Sprint(*l) != fmt.Sprint(want) {
		t.Errorf("list: %+v\nwant %+v", *l, want)
	}
	// Window: slot 12 survives once (lifetime so far 2); the blocks of
	// snapshot 0 and slot 13 lived one snapshot each.
	want = GroupSurvival{Survivors: []int64{0, 0, 2 * mib}, Kept: []int64{0, 2 * mib, 3 * mib},
		Largest: []int64{5 * mib, 6 * mib, 2 * mib}, Turnover: 1, Deaths: 3, Recreated: 1, Blocks: 2, Born: []int{0, 1, 1}}
	if fmt.Sprint(*w) != fmt.Sprint(want) {
		t.Errorf("window: %+v\nwant %+v", *w, want)
	}
	if g := sv.Group("no such key"); g != nil {
		t.Errorf("unknown group %+v", g)
	}
}

// TestSurvivalDecidesGrowth runs the analysis on runs whose block
// identities are set by hand: growth that keeps its blocks (a list, a
// history tensor re-created bigger) is a leak; growth of a container that
// replaces its blocks is not, however its sizes drift; the same holds
// for blocks without stacks.
func TestSurvivalDecidesGrowth(t *testing.T) {
	site := stackAt("train.py", 57, "train_step")
	list := make([][]sblock, 16)
	for k := range list {
		for b := 0; b <= k; b++ {
			list[k] = append(list[k], sblock{addr: slot(b), size: 24 * mib, frames: site})
		}
	}
	history := make([][]sblock, 16)
	for k := range history {
		// A new block at the next address each time, 8 MiB bigger.
		history[k] = []sblock{{addr: slot(k), size: int64(k+1) * 8 * mib, frames: site}}
	}
	tests := []struct {
		name  string
		snaps [][]sblock
		leak  bool
		form  SurvivalForm
		// growing says the group's bytes grow under the trend rules (so
		// survival, not the trend, decides).
		growing bool
	}{
		{"list that keeps its tensors", list, true, SurvivalKept, true},
		{"history re-created bigger", history, true, SurvivalRecreated, true},
		{"window of one snapshot, drifting up", window(24, 1, 6, 0.15, 1, site), false, "", true},
		{"window of three snapshots, drifting up", window(24, 3, 3, 0.06, 2, site), false, "", true},
		{"stackless window, drifting up", window(24, 2, 6, 0.15, 3, nil), false, "", true},
		// Each new block bigger than every one before (a sequence-length
		// warm-up): its largest block grows at every snapshot and never
		// falls, but the block before it is still held beside it.
		{"window of five snapshots, each block bigger", risingWindow(20, 5, site), false, "", true},
		// Two history tensors of one line, one growing faster: its
		// growth is most of the group's, a leak still.
		{"two histories re-created bigger", histories(16, site), true, SurvivalRecreated, true},
		// A cache of the last 8 tensors, every entry replaced between
		// dumps, sizes drifting up: no block of the previous largest
		// size lives on (as for a history tensor), but the largest
		// block carries an eighth of the growth: a container.
		{"cache of 8, all replaced, drifting up", driftCache(16, 8, 8, site), false, "", true},
		// The same cache with half its entries replaced between dumps.
		{"cache of 8, half replaced, drifting up", driftCache(16, 8, 4, site), false, "", true},
		// One line re-creating 8 history tensors bigger, one a key
		// (hist[k] = torch.cat([hist[k], x[k]])): the largest carries an
		// eighth of the growth, but every tensor of the group is
		// re-created bigger at every dump, by the same rows each.
		{"8 equal histories re-created bigger", widthHistories(6, []int64{16, 16, 16, 16, 16, 16, 16, 16}, site), true, SurvivalRecreated, true},
		// The same with rows of 8 widths, from 1 to 8 MiB a dump, over
		// a run of dumps 100, 300, 400, 700, ... steps apart: each rank
		// rises by its width times the rows between the dumps.
		{"8 histories of 8 widths, uneven dumps", widthHistories(9, []int64{1, 2, 3, 4, 5, 6, 7, 8}, site), true, SurvivalRecreated, true},
		// A cache of 8 replaced at every dump whose sizes drift up by
		// more than they spread (every sorted size rises at every
		// dump): each rank's rise is drawn anew, not in proportion.
		{"cache of 8, all replaced, drifting past its spread", steepCache(8, site), false, "", true},
		// A cache of the last 8 outputs whose sizes follow a linear
		// curriculum (a token more a step): every entry replaced between
		// dumps, every rank risen by the same bytes, in proportion to the
		// steps between dumps, as 8 histories of one width; but its
		// entries differ in size (drawn at different steps) while they
		// rise alike: one drift shared by all its blocks, not lineages
		// each appended its own rows.
		{"curriculum cache of the last 8 outputs", curriculumCache(16, 8, 1, 32000, false, true, site), false, "", true},
		{"curriculum cache, block sizes only", curriculumCache(16, 8, 1, 32000, false, false, site), false, "", true},
		{"curriculum cache, block sizes only, 2 MiB segments", curriculumCache(16, 8, 12, 64000, true, false, site), false, "", true},
		// Entries under 1 MiB apart, in 2 MiB segments: two blocks a
		// whole segment step apart cannot hold one request.
		{"curriculum cache, 2 MiB segments, entries under 1 MiB apart", curriculumCache(16, 8, 4, 32000, true, false, site), false, "", true},
		// Four histories of one width (one loss row per step) begun at
		// different times, so unlike in size, each appended the same
		// rows between dumps (hunt7 s-multitask-histories-*): they rise
		// alike as a curriculum cache's entries do, but are spread by
		// many rises: a leak.
		{"4 histories of one width begun at different times", staggeredHistories(10, []int64{8, 40, 72, 104}, false, site), true, SurvivalRecreated, true},
		{"4 histories begun at irregular times, 2 MiB segments", staggeredHistories(10, []int64{8, 21, 50, 130}, true, site), true, SurvivalRecreated, true},
		// Histories in a snapshot without requested sizes (older
		// PyTorch): the blocks' rounding, up to their 2 MiB segment,
		// blurs the rises, which are still in proportion within it.
		{"8 equal histories, block sizes only, 2 MiB segments", roundedHistories(6, []int64{3, 3, 3, 3, 3, 3, 3, 3}, true, false, site), true, SurvivalRecreated, true},
		{"8 histories of 8 widths, block sizes only, 2 MiB segments", roundedHistories(9, []int64{1, 2, 3, 4, 5, 6, 7, 8}, true, false, site), true, SurvivalRecreated, true},
		{"8 histories of 8 widths, requested sizes, 2 MiB segments", roundedHistories(9, []int64{1, 2, 3, 4, 5, 6, 7, 8}, true, true, site), true, SurvivalRecreated, true},
		{"8 equal histories, requested sizes", roundedHistories(6, []int64{16, 16, 16, 16, 16, 16, 16, 16}, false, true, site), true, SurvivalRecreated, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(blocksRun(tt.snaps), Options{})
			CheckProse(t, t.Name(), f)
			if f.Verdict.Leak != tt.leak {
				t.Errorf("leak %v, want %v", f.Verdict.Leak, tt.leak)
			}
			d := f.Devices[0]
			var bytes []float64
			for _, g := range d.Groups {
				if g.Site == "train.py:57" || g.Kind == SiteNone && g.Site == NoStackSite {
					bytes = int64s(g.Bytes)
				}
			}
			r := DefaultTrendRules()
			r.RefLevel = stats2GiB
			if stats.Drops(bytes, dropTolerance(bytes)) > 0 {
				r.Alpha = DefaultSuspectAlpha // as findSuspects holds such groups
			}
			if tr := FitTrend("live_bytes", "step", d.xs(), bytes, r); (tr.State == StateGrowing) != tt.growing {
				t.Errorf("the group's bytes: %s (%s), want growing %v", tr.State, tr.Why.Rule, tt.growing)
			}
			if !tt.leak {
				if len(d.Suspects) != 0 {
					t.Errorf("suspects %+v", d.Suspects[0].Evidence)
				}
				return
			}
			if len(d.Suspects) != 1 || d.Suspects[0].Survival == nil {
				t.Fatalf("suspects %+v", d.Suspects)
			}
			sp := d.Suspects[0]
			if sp.Survival.Form != tt.form || !slices.Contains(sp.Evidence, Evidence{Kind: EvidenceSurvival}) {
				t.Errorf("survival %+v, evidence %v", sp.Survival, sp.Evidence)
			}
		})
	}
}

// risingWindow returns n snapshots of a container at a fixed address per
// tensor that holds the blocks of the last life snapshots, one new each
// snapshot, each 1/4 MiB bigger than the one before (from 2 MiB).
func risingWindow(n, life int, frames []snapshot.Frame) [][]sblock {
	out := make([][]sblock, n)
	for k := range n {
		for b := max(0, k-life+1); b <= k; b++ {
			out[k] = append(out[k], sblock{addr: slot(b), size: 2*mib + int64(b)*mib/4, frames: frames})
		}
	}
	return out
}

// histories returns n snapshots of two history tensors made by one line,
// re-created bigger at new addresses each snapshot, by 8 and 3 MiB.
func histories(n int, frames []snapshot.Frame) [][]sblock {
	out := make([][]sblock, n)
	for k := range n {
		out[k] = []sblock{{addr: slot(2 * k), size: int64(k+1) * 8 * mib, frames: frames}, {addr: slot(2*k + 1), size: int64(k+1) * 3 * mib, frames: frames}}
	}
	return out
}

// widthHistories returns n snapshots of one history tensor per width
// (in MiB a row), re-created at new addresses at each snapshot with the
// rows appended since the one before: 1, 3, 4, 7, 8, 10, ... rows (steps
// between dumps that differ), each block rounded up to 512 bytes from an
// odd request, which the snapshot does not give.
func widthHistories(n int, widths []int64, frames []snapshot.Frame) [][]sblock {
	return roundedHistories(n, widths, false, false, frames)
}

// roundedHistories is widthHistories with the allocator's rounding of
// allocBlock (seg: large blocks take their 2 MiB segment) and, when known,
// the requested sizes in the snapshot.
func roundedHistories(n int, widths []int64, seg, known bool, frames []snapshot.Frame) [][]sblock {
	out := make([][]sblock, n)
	rows, next := int64(0), 0
	for k := range n {
		rows += int64(1 + 2*(k%2) + k/2)
		for _, w := range widths {
			req := rows*w*mib + 100
			b := sblock{addr: slot(next), size: allocBlock(req, seg), frames: frames}
			if known {
				b.req = req
			}
			out[k] = append(out[k], b)
			next++
		}
	}
	return out
}

// staggeredHistories returns n snapshots of one history tensor per
// start (its MiB at the first snapshot), each re-created at a new address
// at every snapshot with 4 MiB of rows more (tensors of one width begun
// at different times), from odd requests the snapshot does not give; seg:
// see allocBlock.
func staggeredHistories(n int, starts []int64, seg bool, frames []snapshot.Frame) [][]sblock {
	out := make([][]sblock, n)
	next := 0
	for k := range n {
		for _, st := range starts {
			req := (st+4*int64(k))*mib + 100
			out[k] = append(out[k], sblock{addr: slot(next), size: allocBlock(req, seg), frames: frames})
			next++
		}
	}
	return out
}

// allocBlock returns the block the caching allocator gives a request of
// req bytes: rounded up to 512 bytes; with seg, a request over 1 MiB
// keeps its whole new segment, rounded up to 2 MiB (the rest of a large
// segment stays in the block when it is too small to split).
func allocBlock(req int64, seg bool) int64 {
	if seg && req > mib {
		return (req + 2*mib - 1) / (2 * mib) * (2 * mib)
	}
	return (req + 511) / 512 * 512
}

// curriculumCache returns n snapshots, 100 steps apart, of a cache of the
// last size outputs, one every every steps (size times every at most 100:
// every entry is replaced between dumps), the output of step t asking for
// 512+t tokens of perToken bytes (a sequence-length curriculum, a token a
// step): each new entry is a little bigger than the one it evicts, and
// every rank of the cache rises by the same bytes between two dumps.
// known: the snapshot gives the requested sizes; seg: see allocBlock.
func curriculumCache(n, size, every int, perToken int64, seg, known bool, frames []snapshot.Frame) [][]sblock {
	out := make([][]sblock, n)
	next := 0
	for k := range n {
		step := 100 * (k + 1)
		for j := range size {
			req := int64(512+step-j*every) * perToken
			b := sblock{addr: slot(next), size: allocBlock(req, seg), frames: frames}
			if known {
				b.req = req
			}
			out[k] = append(out[k], b)
			next++
		}
	}
	return out
}

// steepCache returns n snapshots of a cache of 8 entries, all replaced
// between snapshots, each new entry 20 + 15k MiB give or take 5 at
// snapshot k (hunt3 s-bounded-cache-drift's sizes): the drift beats the
// spread, so every sorted size rises at every snapshot.
func steepCache(n int, frames []snapshot.Frame) [][]sblock {
	rng := rand.New(rand.NewPCG(9, 9))
	out := make([][]sblock, n)
	next := 0
	for k := range n {
		for range 8 {
			sz := int64(20+15*k+rng.IntN(11)) * mib
			out[k] = append(out[k], sblock{addr: slot(next), size: sz, frames: frames})
			next++
		}
	}
	return out
}

// driftCache returns n snapshots of a cache of size entries (an
// OrderedDict that evicts its oldest) of which fresh are replaced between
// consecutive snapshots, by new tensors at new addresses; the survivors
// keep theirs. A new entry's size drifts up 10% of the first, 4 MiB, per
// snapshot, give or take 5% (a sequence-length curriculum).
func driftCache(n, size, fresh int, frames []snapshot.Frame) [][]sblock {
	rng := rand.New(rand.NewPCG(uint64(size), uint64(fresh)))
	next := 0
	entry := func(k int) sblock {
		sz := int64(4*float64(mib)*(1+0.1*float64(k))*(1+0.05*rng.NormFloat64())) / 512 * 512
		next++
		return sblock{addr: slot(next - 1), size: sz, frames: frames}
	}
	var cache []sblock
	out := make([][]sblock, n)
	for k := range n {
		add := fresh
		if k == 0 {
			add = size
		}
		for range add {
			cache = append(cache, entry(k))
		}
		cache = cache[len(cache)-size:]
		out[k] = slices.Clone(cache)
	}
	return out
}

// stats2GiB is the steady allocated level of blocksRun's parameters.
const stats2GiB = float64(2 * gib)

// xs returns the device's points' x.
func (d *Device) xs() []float64 {
	x := make([]float64, len(d.Points))
	for i, p := range d.Points {
		x[i] = p.X
	}
	return x
}

// TestSurvivalTraceBirths: a block at the same address, of the same size
// and stack, is a new one when the snapshot's trace saw it allocated after
// the previous snapshot; without such an event it is the same block.
func TestSurvivalTraceBirths(t *testing.T) {
	site := stackAt("train.py", 66, "train_step")
	run := blocksRun([][]sblock{
		{{addr: slot(0), size: 4 * mib, frames: site}, {addr: slot(1), size: 4 * mib, frames: site}},
		{{addr: slot(0), size: 4 * mib, frames: site}, {addr: slot(1), size: 4 * mib, frames: site}},
	})
	// Snapshot 1's trace: slot 0 freed and allocated again a minute after
	// snapshot 0 (its snapshot event is at t0).
	s1 := run.Snapshots[1].Snapshot
	again := t0.Add(30 * time.Second).UnixMicro()
	s1.Traces[0] = append([]snapshot.TraceEntry{
		{Action: snapshot.ActionFreeCompleted, Addr: slot(0), Size: 4 * mib, TimeUS: again - 1},
		{Action: snapshot.ActionAlloc, Addr: slot(0), Size: 4 * mib, TimeUS: again},
	}, s1.Traces[0]...)
	sv := newSurvival()
	for _, f := range run.Snapshots {
		sv.Observe(f.Snapshot, 0, newSignatureCache(&f.Snapshot.Stacks))
	}
	g := sv.Group(SignatureOf(site).Key)
	if g.Survivors[1] != 4*mib || g.Turnover != 1 || g.Deaths != 1 || fmt.Sprint(g.Born) != "[1 1]" {
		t.Errorf("survival %+v: want slot 1 to survive and slot 0 to be born again", *g)
	}
	// Digested, the same.
	sv = newSurvival()
	for _, f := range run.Snapshots {
		d := snapshot.Reduce(f.Snapshot)
		sv.Observe(d, 0, newSignatureCache(&d.Stacks))
	}
	if d := sv.Group(SignatureOf(site).Key); fmt.Sprint(*d) != fmt.Sprint(*g) {
		t.Errorf("from digests %+v, want %+v", *d, *g)
	}
}

// refSurvival is the map-based fold Survival.fold replaced: each block
// looked up, deleted and inserted by identity, in the file's order. It
// is kept as the reference the merge must agree with.
type refSurvival struct {
	groups map[int32]*groupSurvival
	live   map[blockID]lifetime
	points int
	prevUS int64
}

func (sv *refSurvival) fold(cur []liveBlock, latest int64) {
	k := int32(sv.points)
	next := map[blockID]lifetime{}
	before := maps.Clone(sv.live)
	for _, c := range cur {
		gs := sv.groups[c.id.group]
		if gs == nil {
			gs = &groupSurvival{}
			sv.groups[c.id.group] = gs
		}
		gs.grow(sv.points + 1)
		us := c.life.us
		life, ok := sv.live[c.id]
		if ok && us > 0 && (sv.prevUS > 0 && us > sv.prevUS || life.us > 0 && us != life.us) {
			ok = false
		}
		if ok {
			gs.survivors[k] += c.id.size
			delete(sv.live, c.id)
			life.us = max(life.us, us)
		} else {
			life = lifetime{born: k, us: us}
		}
		if had, dup := next[c.id]; dup {
			life.born = min(life.born, had.born)
		}
		next[c.id] = life
		gs.largest[k] = max(gs.largest[k], c.id.size)
	}
	for id, life := range sv.live {
		gs := sv.groups[id.group]
		gs.turnover = max(gs.turnover, int(k-life.born))
		gs.deaths++
	}
	// A group's largest grew re-created unless a block of its previous
	// largest size was seen again.
	lives := map[int32]bool{}
	for id := range before {
		if _, gone := sv.live[id]; !gone && k > 0 && id.size == sv.groups[id.group].largest[k-1] {
			lives[id.group] = true
		}
	}
	for g, gs := range sv.groups {
		if k == 0 || len(gs.largest) <= int(k) || gs.largest[k-1] == 0 || gs.largest[k] <= gs.largest[k-1] {
			continue
		}
		if lives[g] {
			gs.grewBeside++
		} else {
			gs.recreated++
		}
	}
	sv.live = next
	sv.points++
	sv.prevUS = latest
}

// TestSurvivalMergeMatchesMap folds random runs through Survival and
// through the map-based reference, and requires the same group series
// and the same live blocks with the same births after every snapshot.
// The runs are made to meet every branch: blocks that stay, go and
// come back at the same identity, blocks listed twice (even out of the
// file's address order), several groups at one address, and trace times
// that say a block was allocated anew.
func TestSurvivalMergeMatchesMap(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		const groups = 3
		sv := newSurvival()
		for g := range groups {
			sv.group(fmt.Sprint(g))
		}
		ref := &refSurvival{groups: map[int32]*groupSurvival{}, live: map[blockID]lifetime{}}
		var us int64 = 1000
		for snap := range 2 + rng.IntN(8) {
			var cur []liveBlock
			for range rng.IntN(40) {
				b := liveBlock{id: blockID{addr: uint64(rng.IntN(12)) << 20, size: int64(1+rng.IntN(3)) << 10, group: int32(rng.IntN(groups))}}
				switch rng.IntN(4) {
				case 0: // the trace saw it allocated: before or after the last snapshot
					b.life.us = us - int64(rng.IntN(2000))
				case 1:
					b.life.us = us + int64(rng.IntN(100))
				}
				cur = append(cur, b)
				if rng.IntN(8) == 0 {
					cur = append(cur, b) // listed twice
				}
			}
			rng.Shuffle(len(cur), func(i, j int) { cur[i], cur[j] = cur[j], cur[i] })
			us += 500
			ref.fold(slices.Clone(cur), us)
			sv.fold(slices.Clone(cur), us)
			for g := range int32(groups) {
				want := ref.groups[g]
				if want == nil {
					want = &groupSurvival{}
				}
				sv.groups[g].grow(sv.points)
				// The reference leaves the rises of the sorted sizes
				// out (TestSurvivalDecidesGrowth judges them).
				got := sv.groups[g]
				got.risen, got.rise = 0, nil
				want.grow(sv.points)
				if fmt.Sprint(got) != fmt.Sprint(*want) {
					t.Fatalf("seed %d, snapshot %d, group %d: merge %+v, map %+v", seed, snap, g, got, *want)
				}
			}
			var want []liveBlock
			for id, life := range ref.live {
				want = append(want, liveBlock{id: id, life: life})
			}
			slices.SortFunc(want, func(a, b liveBlock) int { return a.compare(&b) })
			if !slices.Equal(sv.live, want) {
				t.Fatalf("seed %d, snapshot %d: live blocks\nmerge %v\nmap   %v", seed, snap, sv.live, want)
			}
		}
	}
}

// TestRiseRules judges pairs of snapshots' sorted sizes by the rules of
// countRisen: rises in proportion to the ones before (to within the
// rounding where the sizes are blocks'), and one drift of all the sizes.
func TestRiseRules(t *testing.T) {
	exact := func(v ...int64) []sized {
		out := make([]sized, len(v))
		for i, x := range v {
			out[i] = sized{v: x * mib}
		}
		return out
	}
	blocks := func(v ...int64) []sized { // block sizes in MiB, requests not given
		out := make([]sized, len(v))
		for i, x := range v {
			out[i] = sized{v: x * mib, unc: blockSlack(x * mib)}
		}
		return out
	}
	tests := []struct {
		name                   string
		before, now, after     []sized // three snapshots' sizes
		proportional, oneDrift bool    // of the rises into after
	}{
		// Histories of widths 1, 2, 3 appended 2 rows, then 4.
		{"histories, exact", exact(1, 2, 3), exact(3, 6, 9), exact(7, 14, 21), true, false},
		// Two histories of one width: alike, rising alike.
		{"equal histories, exact", exact(5, 5), exact(7, 7), exact(11, 11), true, false},
		// A curriculum cache: three sizes a step apart, risen alike by
		// the steps between dumps.
		{"curriculum cache, exact", exact(10, 11, 12), exact(20, 21, 22), exact(40, 41, 42), true, true},
		// A cache drawn afresh: each rank rises by its own draw.
		{"fresh cache, exact", exact(10, 14, 19), exact(21, 23, 30), exact(33, 41, 42), false, false},
		// The histories' blocks rounded up to 2 MiB segments (requests
		// 1+, 2+, 3+ then 3+, 6+, 9+ then 7+, 14+, 21+ MiB): the rises
		// are in proportion within the rounding.
		{"histories, 2 MiB segments", blocks(2, 4, 4), blocks(4, 8, 10), blocks(8, 16, 22), true, false},
		// A cache of three drawn afresh in 2 MiB segments: the last
		// rises (2, 14, 2) are in no proportion to (8, 4, 8).
		{"fresh cache, 2 MiB segments", blocks(10, 14, 20), blocks(18, 18, 28), blocks(20, 32, 30), false, false},
		// Sizes creeping by less than the rounding: nothing to judge
		// (the blocks 6 and 8 MiB cannot hold one request: a drift,
		// were the rises measurable).
		{"creeping cache, 2 MiB segments", blocks(4, 4, 6), blocks(4, 6, 6), blocks(6, 6, 8), false, true},
		// Histories of one width begun at different times (hunt7
		// s-multitask-histories-staggered: 8, 40, 72, 104 MiB, each
		// appended 4 MiB a dump): risen alike, but spread 24 rises
		// apart, which no cache drawn since the dump before can be.
		{"staggered histories, exact", exact(8, 40, 72, 104), exact(12, 44, 76, 108), exact(16, 48, 80, 112), true, false},
		{"staggered histories, irregular starts", exact(8, 21, 50, 130), exact(12, 25, 54, 134), exact(16, 29, 58, 138), true, false},
		{"staggered histories, 2 MiB segments", blocks(8, 40, 72, 104), blocks(12, 44, 76, 108), blocks(16, 48, 80, 112), true, false},
		// A curriculum cache spread by exactly its rise (its oldest
		// entry drawn just after the dump before): still one drift.
		{"curriculum cache spread by its rise, exact", exact(10, 15, 20), exact(20, 25, 30), exact(30, 35, 40), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r1 := risesAtEveryRank(slices.Clone(tt.before), slices.Clone(tt.now))
			r2 := risesAtEveryRank(slices.Clone(tt.now), slices.Clone(tt.after))
			if r1 == nil || r2 == nil {
				t.Fatalf("rises %v %v", r1, r2)
			}
			if got := proportional(r1, r2); got != tt.proportional {
				t.Errorf("proportional(%v, %v) = %v", r1, r2, got)
			}
			if got := oneDrift(r2, tt.after); got != tt.oneDrift {
				t.Errorf("oneDrift(%v, %v) = %v", r2, tt.after, got)
			}
		})
	}
	if got := risesAtEveryRank(exact(3, 5), exact(4, 4)); got != nil {
		t.Errorf("a rank fell: %v, want nil", got)
	}
	for size, want := range map[int64]int64{512: 512, mib: 512, 2 * mib: 2 * mib, 3 * mib: 512, 3*mib + 512: 512, 40 * mib: 2 * mib} {
		if got := blockSlack(size); got != want {
			t.Errorf("blockSlack(%d) = %d, want %d", size, got, want)
		}
	}
}

// movedRun is blocksRun whose process moves every block from snapshot
// from on: the parameters and each block of snaps 16 TiB lower (all its
// GPU state offloaded to the CPU for a rollout and loaded back at new
// addresses).
func movedRun(snaps [][]sblock, from int) *ingest.Run {
	const shift = 0x100000000000
	run := &ingest.Run{Dir: "survival", Location: time.UTC}
	for i, blocks := range snaps {
		b := newSnap()
		off := uint64(0)
		if i >= from {
			off = shift
		}
		b.next -= off
		b.segment(0, live(2*gib, stackAt("model.py", 20, "__init__")))
		sorted := slices.Clone(blocks)
		slices.SortFunc(sorted, func(x, y sblock) int { return int(x.addr>>20) - int(y.addr>>20) })
		for _, x := range sorted {
			b.next = x.addr - off
			b.segment(0, blk{size: x.size, state: snapshot.StateActiveAllocated, frames: x.frames, req: x.req})
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		b.event(0, snapshot.ActionSnapshot, 0, 0, at.UnixMicro(), nil)
		step := int64(100 * (i + 1))
		run.Snapshots = append(run.Snapshots, file(b.done(), fmt.Sprintf("snapshot_step_%06d.pickle", step), step, input.NoRank))
	}
	return run
}

// TestSurvivalFollowsMove: a process that moves every block at once
// (offload and reload, hunt7 r-rollout-offload-timestamped) keeps its
// blocks' identities across the move: a list that keeps its tensors is
// still a leak kept for good, and a cache whose entries are all replaced
// at every dump is still no leak.
func TestSurvivalFollowsMove(t *testing.T) {
	site := stackAt("train.py", 57, "train_step")
	list := make([][]sblock, 12)
	for k := range list {
		for b := 0; b <= k; b++ {
			list[k] = append(list[k], sblock{addr: slot(b), size: 24 * mib, frames: site})
		}
	}
	tests := []struct {
		name string
		run  *ingest.Run
		leak bool
	}{
		{"list kept, all moved at snapshot 6", movedRun(list, 6), true},
		{"list kept, nothing moved", movedRun(list, len(list)), true},
		{"cache of 8, all replaced, moved at snapshot 8", movedRun(driftCache(16, 8, 8, site), 8), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(tt.run, Options{})
			if f.Verdict.Leak != tt.leak {
				t.Fatalf("leak %v, want %v", f.Verdict.Leak, tt.leak)
			}
			if !tt.leak {
				return
			}
			d := f.Devices[0]
			if len(d.Suspects) != 1 || d.Suspects[0].Survival == nil || d.Suspects[0].Survival.Form != SurvivalKept {
				t.Fatalf("suspects %+v", d.Suspects)
			}
		})
	}
}
