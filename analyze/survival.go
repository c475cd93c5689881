package analyze

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"gpureport/internal/stats"
	"gpureport/snapshot"
)

// Leak evidence is survival (docs/design.md): a leak's bytes are in blocks that
// outlive the snapshots around them. A stack group's live bytes can grow
// for two reasons that its byte count cannot tell apart:
//
//   - it keeps tensors: the same blocks are there snapshot after snapshot
//     and new ones join them (a list that is appended to and never
//     cleared), or one tensor is re-created bigger each time (torch.cat
//     onto a history tensor: one block that grows);
//   - it holds a bounded set of recent tensors whose sizes vary (a rolling
//     window of the last W batches' outputs, a replay buffer that fills to
//     a cap and then overwrites, a cache of the last K eval outputs): it
//     replaces its blocks, and its bytes wander with the sizes it holds,
//     upward for a long stretch by chance.
//
// Survival tells them apart. A block is known across the periodic
// snapshots of a device by its identity: its address, its size and its
// stack group (a freed block's address is handed out again, but rarely to
// a block of the same size made by the same code at the moment of a
// dump). Where the snapshot's trace saw the block allocated, the
// allocation itself decides (snapshot.BlockTraces): a block allocated
// after the previous snapshot, or at another time than the one seen
// there, is a new block at an old address. Following the blocks from one snapshot to the next gives each
// block its birth (the snapshot where it was first seen) and, for blocks
// that went away, their lifetime in snapshots. Per group:
//
//   - Survivors: the bytes at a snapshot in blocks already alive at the
//     snapshot before (what the three-snapshot technique of leak hunting
//     calls the objects that outlived the snapshots around them);
//   - Turnover: the longest lifetime of any of its blocks that went away,
//     in snapshots (0 when none did): how long the group keeps a block it
//     does not keep for good;
//   - Kept: at each snapshot, the bytes of the blocks still alive at the
//     last snapshot that were born by then. For a leak it is the leaked
//     bytes, and it grows; for a container every block alive at the last
//     snapshot is younger than the turnover, so over the snapshots older
//     than that Kept is 0 (or the odd block whose identity was reused);
//   - Largest: the group's largest live block at each snapshot: the
//     history tensor re-created bigger each time grows it without ever
//     falling back;
//   - Recreated and GrewBeside: of the snapshots where Largest grew, those
//     where no block of the previous Largest's size is still alive (the
//     tensor was replaced by a bigger one) and those where one is (a
//     bigger block joined it: a container's newest entry whose sizes
//     drift upward). A container whose every block is replaced between
//     dumps counts as Recreated too; survivalEvidence tells it apart by
//     how much of the group's growth the largest block carries, or, for
//     K tensors re-created bigger by one line, by Risen;
//   - Risen: of the Recreated snapshots, those where the group kept its
//     count of blocks, none of its sorted requested sizes fell, and each
//     rank rose by its rise at the snapshot before times one factor (K
//     histories each appended the same rows between two dumps), though
//     not all by one drift while they differ in size by no more than
//     that drift (a cache of the last K outputs whose sizes follow a
//     curriculum: oneDrift). Where the snapshots give no requested sizes
//     (older PyTorch), the block sizes stand for them, known to within
//     the allocator's rounding (blockSlack), and the rises are compared
//     to within it.
//
// survivalEvidence (attribution.go) reads these for a group whose bytes
// grow. Survival is a fold: Observe takes the snapshots one at a time, in
// order, and keeps only the live blocks' identities and births and a few
// numbers per group and snapshot, never an earlier snapshot.

// blockID identifies a live block across the snapshots of one device.
type blockID struct {
	addr  uint64
	size  int64
	group int32
}

// Survival follows one device's live blocks across its periodic snapshots
// (see above). The zero value is not ready: use newSurvival.
type Survival struct {
	index map[string]int32 // signature key -> group index
	// bySig is index by the Signature a signatureCache returned: a
	// pointer is hashed where a key string is tens of bytes or more.
	bySig  map[*Signature]int32
	groups []groupSurvival // by group index
	// live is the live blocks at the last snapshot, sorted by identity
	// (liveBlock.compare): a snapshot's blocks are matched with them by a
	// merge, not a map, which on 175k blocks a snapshot cost a map
	// lookup, delete and insert each.
	live   []liveBlock
	points int   // snapshots observed
	prevUS int64 // the last snapshot's latest time, 0 unknown
	// cur, taken and spare are scratch for Observe; spare is the list
	// before live, whose array the next live is written into (a large
	// model's 175k live blocks are 5.6 MB a list).
	cur, spare []liveBlock
	taken      []bool
	// lives is scratch for fold: per group, whether a block of its
	// previous largest size lived on into the snapshot.
	lives []bool
	// at is scratch for countRisen: per group, its place among those
	// re-created bigger, -1 for the others.
	at []int32
}

// liveBlock is a live block's identity and birth, and the bytes its
// tensor asked for (req: its size before the allocator's rounding; 0
// when its snapshot does not give the sizes asked for, see fold).
type liveBlock struct {
	id   blockID
	life lifetime
	req  int64
}

// compare orders live blocks by address, size and group.
func (a *liveBlock) compare(b *liveBlock) int {
	switch {
	case a.id.addr != b.id.addr:
		return cmp.Compare(a.id.addr, b.id.addr)
	case a.id.size != b.id.size:
		return cmp.Compare(a.id.size, b.id.size)
	}
	return cmp.Compare(a.id.group, b.id.group)
}

// lifetime is a live block's birth: the snapshot it was first seen in,
// and the time of its allocation when a trace saw it (0 unknown).
type lifetime struct {
	born int32
	us   int64
}

// groupSurvival is one group's survival so far.
type groupSurvival struct {
	survivors []int64 // per snapshot observed (shorter until the group appears)
	largest   []int64
	turnover  int // longest lifetime of a block that went away, in snapshots
	deaths    int // blocks that went away
	// recreated and grewBeside count the snapshots where largest grew, the
	// previous largest's size gone and still alive (see the file's top).
	recreated, grewBeside int
	// risen counts the recreated snapshots where the group kept its
	// count of blocks, none of its sorted sizes fell, and each rank rose
	// in proportion to its rise at the snapshot before, not all by one
	// drift (countRisen); rise is that last rise per rank, nil when the
	// group's last snapshot was not such a rise.
	risen int
	rise  []sized
}

// sized is a byte count known to within unc bytes: a requested size the
// snapshot gives (unc 0), or a block's size where it gives none (the
// request is then above size-unc and at most size: blockSlack), or the
// rise of one from a snapshot to the next (then less than unc off either
// way).
type sized struct {
	v, unc int64
}

func newSurvival() *Survival {
	return &Survival{index: map[string]int32{}, bySig: map[*Signature]int32{}}
}

// Observe follows device dev's live blocks into snapshot s, the next
// periodic snapshot in order; cache names their stack groups.
func (sv *Survival) Observe(s *snapshot.Snapshot, dev int, cache *signatureCache) {
	births := s.BlockTraces(dev)
	// This snapshot's blocks with their groups and trace times (in
	// life.us), in identity order; a stable sort keeps a block listed
	// twice in the file's order.
	cur := slices.Grow(sv.cur[:0], len(sv.live))
	var lastStack snapshot.StackID
	var lastGroup int32 = -1
	for b := range liveBlocks(s, dev) {
		if lastGroup < 0 || b.Stack != lastStack {
			lastStack, lastGroup = b.Stack, sv.groupOf(cache.get(b.Stack))
		}
		cur = append(cur, liveBlock{id: blockID{addr: b.Address, size: b.Size, group: lastGroup}, life: lifetime{us: birthTime(births, b.Address)}, req: b.RequestedSize})
	}
	sv.cur = cur
	slices.SortStableFunc(cur, func(a, b liveBlock) int { return a.compare(&b) })
	sv.followMove(cur)
	sv.fold(cur, s.LatestTimeUS())
}

// fold follows the live blocks into the next snapshot, whose live blocks
// are cur in the file's order (each with its group and, in life.us, the
// time its trace saw it allocated, 0 when none), latest its latest time;
// fold sorts cur.
func (sv *Survival) fold(cur []liveBlock, latest int64) {
	k := int32(sv.points)
	// A snapshot that gives the bytes asked for has blocks rounded above
	// them (a scalar's 512-byte block, any request not a multiple of 512
	// bytes); one where every block is exactly its request is a file
	// without requested sizes (older PyTorch: the decoder takes the
	// block's size), whose requests are known only to within the
	// allocator's rounding (blockSlack): req 0 says so.
	if !slices.ContainsFunc(cur, func(c liveBlock) bool { return c.req > 0 && c.req < c.id.size }) {
		for i := range cur {
			cur[i].req = 0
		}
	}
	less := func(a, b liveBlock) int { return a.compare(&b) }
	if !slices.IsSortedFunc(cur, less) {
		slices.SortStableFunc(cur, less)
	}
	// Merge with the blocks alive at the snapshot before: taken marks
	// those seen again.
	taken := slices.Grow(sv.taken[:0], len(sv.live))[:len(sv.live)]
	clear(taken)
	next := slices.Grow(sv.spare[:0], len(cur))
	j := 0
	for i := range cur {
		c := &cur[i]
		gs := &sv.groups[c.id.group]
		gs.grow(sv.points + 1)
		for j < len(sv.live) && sv.live[j].compare(c) < 0 {
			j++
		}
		us := c.life.us
		var life lifetime
		ok := j < len(sv.live) && sv.live[j].id == c.id && !taken[j]
		if ok {
			life = sv.live[j].life
		}
		if ok && us > 0 && (sv.prevUS > 0 && us > sv.prevUS || life.us > 0 && us != life.us) {
			// The trace saw it allocated anew: the old block went away
			// (counted below), this one is new.
			ok = false
		}
		if ok {
			gs.survivors[k] += c.id.size
			taken[j] = true
			life.us = max(life.us, us)
		} else {
			life = lifetime{born: k, us: us}
		}
		if n := len(next); n > 0 && next[n-1].id == c.id {
			// A file listing a block twice: one block, born the earlier.
			life.born = min(life.born, next[n-1].life.born)
			next[n-1].life = life
		} else {
			next = append(next, liveBlock{id: c.id, life: life, req: c.req})
		}
		gs.largest[k] = max(gs.largest[k], c.id.size)
	}
	// The blocks not seen again went away between the snapshots: they
	// were seen at born..k-1. Those seen again tell whether a group's
	// largest block lived on.
	lives := slices.Grow(sv.lives[:0], len(sv.groups))[:len(sv.groups)]
	clear(lives)
	for j := range sv.live {
		b := &sv.live[j]
		gs := &sv.groups[b.id.group]
		if !taken[j] {
			gs.turnover = max(gs.turnover, int(k-b.life.born))
			gs.deaths++
		} else if k > 0 && b.id.size == gs.largest[k-1] {
			lives[b.id.group] = true
		}
	}
	if k > 0 {
		var recreated []int32
		for g := range sv.groups {
			gs := &sv.groups[g]
			if len(gs.largest) <= int(k) || gs.largest[k-1] == 0 || gs.largest[k] <= gs.largest[k-1] {
				gs.rise = nil
				continue
			}
			if lives[g] {
				gs.rise = nil
				gs.grewBeside++
			} else {
				gs.recreated++
				recreated = append(recreated, int32(g))
			}
		}
		sv.countRisen(recreated, next)
	}
	sv.lives = lives
	sv.taken = taken
	sv.spare, sv.live = sv.live, next
	sv.points++
	sv.prevUS = latest
}

// followMove follows a process that moved every live block between two
// snapshots: offloaded all its GPU state to the CPU (an RLHF trainer's
// rollout in "sleep mode", a colocated inference engine) and loaded it
// back, every tensor at a new address. When no block alive at the
// snapshot before is alive at the same place in cur (sorted by identity),
// each group's blocks before are matched with its blocks in cur of the
// same size, in address order. If that matches every block the process
// had kept through a snapshot at least (its parameters and optimizer
// state, which a reload brings back whole; one such at least), the
// blocks before take the new addresses: they are the same tensors, and
// keep their births. (The trace saw the reloaded blocks allocated: their
// trace times are dropped.) A series whose blocks all turn over, or
// whose kept blocks come back in other sizes, moved nothing. Placement
// has parted new runs of a script from the series before this (a fresh
// process's model would match too). sv.live is left sorted.
func (sv *Survival) followMove(cur []liveBlock) {
	if len(sv.live) == 0 || len(cur) == 0 {
		return
	}
	for i, j := 0, 0; i < len(cur) && j < len(sv.live); {
		switch c := sv.live[j].compare(&cur[i]); {
		case c == 0:
			return // a block stayed where it was
		case c < 0:
			j++
		default:
			i++
		}
	}
	type key struct {
		group int32
		size  int64
	}
	// fresh is, per group and size, cur's blocks in address order (cur
	// is sorted by address first).
	fresh := map[key][]int{}
	for i := range cur {
		k := key{cur[i].id.group, cur[i].id.size}
		fresh[k] = append(fresh[k], i)
	}
	to := make([]int, len(sv.live))
	kept := false
	for j := range sv.live {
		b := &sv.live[j]
		k := key{b.id.group, b.id.size}
		to[j] = -1
		if q := fresh[k]; len(q) > 0 {
			to[j] = q[0]
			fresh[k] = q[1:]
		}
		if b.life.born < int32(sv.points)-1 {
			// Alive at the two snapshots before: kept.
			if to[j] < 0 {
				return
			}
			kept = true
		}
	}
	if !kept {
		return
	}
	for j, i := range to {
		if i >= 0 {
			sv.live[j].id.addr = cur[i].id.addr
			cur[i].life.us = 0
		}
	}
	slices.SortStableFunc(sv.live, func(a, b liveBlock) int { return a.compare(&b) })
}

// countRisen adds one to risen for each group of recreated (the groups
// whose largest block was re-created bigger into the snapshot whose live
// blocks are cur) that kept its count of blocks, whose sorted requested
// sizes did not fall at any rank since the snapshot before (sv.live):
// every block of it is at least as big as the one of its rank before,
// whose rises are those of the snapshot before times one factor
// (proportional), and whose blocks are not all moved by one drift
// (oneDrift).
func (sv *Survival) countRisen(recreated []int32, cur []liveBlock) {
	if len(recreated) == 0 {
		return
	}
	// A few groups grow their largest block at a snapshot: at is each
	// group's place among them (-1: none), read once a live block.
	at := slices.Grow(sv.at[:0], len(sv.groups))[:len(sv.groups)]
	for g := range at {
		at[g] = -1
	}
	for i, g := range recreated {
		at[g] = int32(i)
	}
	sv.at = at
	prev := make([][]sized, len(recreated))
	now := make([][]sized, len(recreated))
	for i := range sv.live {
		if p := at[sv.live[i].id.group]; p >= 0 {
			prev[p] = append(prev[p], sv.live[i].asked())
		}
	}
	for i := range cur {
		if p := at[cur[i].id.group]; p >= 0 {
			now[p] = append(now[p], cur[i].asked())
		}
	}
	for i, g := range recreated {
		gs := &sv.groups[g]
		rise := risesAtEveryRank(prev[i], now[i])
		if rise != nil && proportional(gs.rise, rise) && !oneDrift(rise, now[i]) {
			gs.risen++
		}
		gs.rise = rise
	}
}

// asked is the bytes b's tensor asked for: its request where the snapshot
// gives it, else its size, to within blockSlack.
func (b *liveBlock) asked() sized {
	if b.req > 0 {
		return sized{v: b.req}
	}
	return sized{v: b.id.size, unc: blockSlack(b.id.size)}
}

// blockSlack is how many bytes a block of size bytes may hold beyond its
// request, where the snapshot does not give the request. The caching
// allocator rounds a request up to 512 bytes; a large request's new
// segment is rounded up to 2 MiB, and a rest of the segment too small to
// split (1 MiB or less) stays in the block, which is then the whole
// segment, a multiple of 2 MiB. So a large block of a multiple of 2 MiB
// may be up to 2 MiB above its request, any other one 512 bytes. (A rest
// of up to 1 MiB left in a reused free block is not allowed for: it is
// the exception, and allowing 1 MiB to every block would blur the small
// steps of a cache's sizes that oneDrift reads.)
func blockSlack(size int64) int64 {
	const segment = 2 << 20
	if size > segment/2 && size%segment == 0 {
		return segment
	}
	return 512
}

// risesAtEveryRank returns, when the sizes now are as many as before (two
// at least) and, both sorted, none of now is below the one of its rank
// before, each rank's rise (now minus before, to within the larger
// uncertainty of the two: both round up by less than it), else nil; it
// sorts both.
func risesAtEveryRank(before, now []sized) []sized {
	if len(before) < 2 || len(before) != len(now) {
		return nil
	}
	bySize := func(a, b sized) int { return cmp.Compare(a.v, b.v) }
	slices.SortFunc(before, bySize)
	slices.SortFunc(now, bySize)
	rise := make([]sized, len(now))
	for i := range now {
		if now[i].v < before[i].v {
			return nil
		}
		rise[i] = sized{v: now[i].v - before[i].v, unc: max(now[i].unc, before[i].unc)}
	}
	return rise
}

// proportional reports whether the rises of the sorted requested sizes
// now are the rises before scaled by one factor: as for K histories of
// one line (hist[k] = torch.cat([hist[k], x[k]]) in a loop over the
// keys), each appended the same number of rows N between two dumps, rank
// r by N times its row's bytes, so the rises of two intervals differ by
// the ratio of their N alone. Requested sizes, not blocks, because the
// allocator rounds a block up to 512 bytes and may leave up to 1 MiB of
// its segment in it, which would hide a cache's rises of less than that.
// A cache of K tensors drawn afresh has rises that each rank draws for
// itself. Where the snapshot gives only block sizes, each rise is known
// to within its uncertainty: then some one factor must bring every rise
// before within the uncertainties of the one now, and the rises must be
// more than their uncertainties in all (a cache whose sizes creep by
// less than the rounding rises, rounded, by nothing or by a whole step
// at random). False when before is not as long as now or rose by
// nothing.
func proportional(before, now []sized) bool {
	if len(before) != len(now) || len(now) == 0 {
		return false
	}
	var sb, sn, ub, un int64
	for i := range now {
		sb += before[i].v
		sn += now[i].v
		ub += before[i].unc
		un += now[i].unc
	}
	if sb <= ub || sn <= un {
		return false
	}
	if ub == 0 && un == 0 {
		for i := range now {
			// now[i]/sn == before[i]/sb, in integers (a rise is at
			// most a device's memory, 2^40 or so, and so is a sum:
			// the products fit in 128 bits, compared as two 64-bit
			// halves).
			if !equalProducts(now[i].v, sb, before[i].v, sn) {
				return false
			}
		}
		return true
	}
	// The factors f with |now - f*before| within the two uncertainties,
	// at every rank: an interval per rank, which must all meet.
	lo, hi := 0.0, math.Inf(1)
	for i := range now {
		n, b := float64(now[i].v), float64(before[i].v)
		un, ub := float64(now[i].unc), float64(before[i].unc)
		if b+ub > 0 {
			lo = max(lo, (n-un)/(b+ub))
		} else if n > un {
			return false // nothing rose before, and this rank did
		}
		if b > ub {
			hi = min(hi, (n+un)/(b-ub))
		}
	}
	return lo <= hi
}

// oneDrift reports whether every rank of a group rose by the same bytes
// (rise, to within their uncertainties) while its sizes now differ
// beyond theirs, but by no more than that rise: one drift of all its
// blocks' sizes, not lineages each appended its own rows. A cache of the
// last K outputs whose sizes follow a curriculum (a sequence a token
// longer each step) holds K sizes drawn at different steps, which all
// move by the curriculum's growth between two dumps, in proportion to the
// steps between them as K histories' rows are; K histories of one line,
// each appended the same rows, are alike in size when their rows are of
// one width, and rise by different bytes when they are not.
//
// The bound on the spread: countRisen asks this only of a group whose
// previous largest block is gone. In a cache of the last K outputs (the
// oldest evicted first) the newest entry goes last, so every entry now
// was made since the dump before: all K were drawn within the D steps
// between the two dumps. For a curriculum whose sizes never shrink, the
// spread now (newest minus oldest entry) is then the growth over part of
// those D steps, at most the growth over all of them, which is the rise
// of the newest rank: the spread is at most the rise. K histories of one
// width begun at different times (tasks, metrics or buffers added as a
// run goes on) differ by the rows of the steps between their starts,
// typically many rises: they are lineages, not a drift. Histories begun
// one dump apart are spread by one rise or two and still read as a
// drift; a cache whose K entries come from one step (all alike) reads
// as histories.
func oneDrift(rise, now []sized) bool {
	riseLo, riseHi := int64(math.MinInt64), int64(math.MaxInt64)
	sizeLo, sizeHi := int64(math.MinInt64), int64(math.MaxInt64)
	for i := range rise {
		// Rounding up by less than unc bytes, a request is above the
		// size less unc, and a rise within less than unc of the true
		// one: in whole bytes, within unc-1.
		ru, su := max(rise[i].unc-1, 0), max(now[i].unc-1, 0)
		riseLo, riseHi = max(riseLo, rise[i].v-ru), min(riseHi, rise[i].v+ru)
		sizeLo, sizeHi = max(sizeLo, now[i].v-su), min(sizeHi, now[i].v)
	}
	// sizeLo-sizeHi is the least the requests now can spread (the
	// largest request at its least, the smallest at its most): above
	// nothing, they differ; above the most the common rise can be, the
	// entries were not all drawn since the dump before.
	return riseLo <= riseHi && sizeLo > sizeHi && sizeLo-sizeHi <= riseHi
}

// equalProducts reports whether a*b == c*d for non-negative a, b, c, d.
func equalProducts(a, b, c, d int64) bool {
	h1, l1 := bits.Mul64(uint64(a), uint64(b))
	h2, l2 := bits.Mul64(uint64(c), uint64(d))
	return h1 == h2 && l1 == l2
}

// birthTime is the allocation time the trace gives the live block at
// addr (births by address), 0 when the trace did not see it allocated.
func birthTime(births []snapshot.BlockTrace, addr uint64) int64 {
	bt, ok := snapshot.BlockTraceAt(births, addr)
	if !ok {
		return 0
	}
	return bt.TimeUS
}

// group returns the index of the group with signature key, adding it.
func (sv *Survival) group(key string) int32 {
	if g, ok := sv.index[key]; ok {
		return g
	}
	g := int32(len(sv.groups))
	sv.index[key] = g
	sv.groups = append(sv.groups, groupSurvival{})
	return g
}

// groupOf is group(sig.Key), found by sig's pointer after the first time.
func (sv *Survival) groupOf(sig *Signature) int32 {
	if g, ok := sv.bySig[sig]; ok {
		return g
	}
	g := sv.group(sig.Key)
	sv.bySig[sig] = g
	return g
}

// kept reports whether the group with signature key had live blocks and
// none of them ever went away.
func (sv *Survival) kept(key string) bool {
	g, ok := sv.index[key]
	return ok && sv.groups[g].deaths == 0
}

// grow extends the per-snapshot series to n snapshots.
func (gs *groupSurvival) grow(n int) {
	for len(gs.survivors) < n {
		gs.survivors = append(gs.survivors, 0)
		gs.largest = append(gs.largest, 0)
	}
}

// GroupSurvival is one stack group's survival over the snapshots observed
// so far (see the comment at the top of the file). Series are indexed by
// the snapshots observed (the device's periodic snapshots), in bytes.
type GroupSurvival struct {
	// Survivors is the bytes in blocks already alive at the snapshot
	// before (0 at the first).
	Survivors []int64
	// Kept is the bytes of the blocks alive at the last snapshot that
	// were born at or before each snapshot (non-decreasing).
	Kept []int64
	// Largest is the group's largest live block at each snapshot.
	Largest []int64
	// Turnover is the longest lifetime, in snapshots, of a block of the
	// group that went away; 0 when none did. Deaths counts those blocks.
	Turnover, Deaths int
	// Recreated counts the snapshots where Largest grew and no block of
	// the previous Largest's size was still alive (one tensor replaced by
	// a bigger one); GrewBeside those where one was (a bigger block
	// joined the ones already there).
	Recreated, GrewBeside int
	// Risen counts, of the Recreated snapshots, those where the group had
	// as many blocks as at the snapshot before and each of its sorted
	// block sizes was at least the one of its rank there, each risen in
	// proportion to its rise at the snapshot before, not all by one drift
	// (countRisen): every tensor of the group re-created bigger by the
	// rows it was appended.
	Risen int
	// Blocks is the group's live blocks at the last snapshot; Born
	// counts those born at each snapshot.
	Blocks int
	Born   []int
}

// Group returns the survival of the group with signature key; nil when no
// snapshot observed had a live block of it.
func (sv *Survival) Group(key string) *GroupSurvival {
	g, ok := sv.index[key]
	if !ok {
		return nil
	}
	gs := &sv.groups[g]
	gs.grow(sv.points)
	out := &GroupSurvival{
		Survivors: append([]int64(nil), gs.survivors...),
		Largest:   append([]int64(nil), gs.largest...),
		Kept:      make([]int64, sv.points),
		Born:      make([]int, sv.points),
		Turnover:  gs.turnover, Deaths: gs.deaths,
		Recreated: gs.recreated, GrewBeside: gs.grewBeside, Risen: gs.risen,
	}
	for _, b := range sv.live {
		if b.id.group == g {
			out.Kept[b.life.born] += b.id.size
			out.Born[b.life.born]++
			out.Blocks++
		}
	}
	for i := 1; i < len(out.Kept); i++ {
		out.Kept[i] += out.Kept[i-1]
	}
	return out
}

// survivalEvidence judges a group whose live bytes grow (grew, their
// trend; nil when not known) by the survival of its blocks gs over the
// periodic points of ac (see the top of the file):
//
//   - kept: Kept grows, under the device's trend rules, over the
//     snapshots older than the group's turnover (a block born there and
//     alive at the end outlived every block the group let go). A leak
//     keeps what it adds; a container's blocks alive at the end are all
//     younger than its turnover, so Kept stays flat there;
//   - re-created bigger: the largest block never falls between snapshots
//     and grows under the same rules, where it grew the one before it
//     was mostly gone (Recreated > GrewBeside), and its growth is most of
//     the group's (explainsGrowth) or every block of the group grew with
//     it, in proportion (allRecreated);
//   - turned over: neither, with at least the rules' fewest points older
//     than the turnover;
//   - unknown: neither, with fewer (a short run, or blocks that live
//     nearly as long as it): the bytes' trend alone decides.
func survivalEvidence(gs *GroupSurvival, grew *Trend, ac attributionContext) *SurvivalEvidence {
	ev := &SurvivalEvidence{Form: SurvivalUnknown}
	x := pick(ac.x, ac.keep)
	m := len(x)
	if gs == nil || m == 0 || len(gs.Kept) != m {
		return ev
	}
	ev.Turnover, ev.Deaths, ev.Blocks, ev.Survivors = gs.Turnover, gs.Deaths, gs.Blocks, gs.Survivors[m-1]
	ev.Recreated, ev.GrewBeside = gs.Recreated, gs.GrewBeside
	ev.KeptBytes, ev.Snapshots = gs.Kept[m-1], m
	ev.LargestFirst, ev.LargestLast = gs.Largest[0], gs.Largest[m-1]
	upto := m - gs.Turnover // snapshots 0..upto-1 are older than the turnover
	for _, n := range gs.Born[:max(upto, 0)] {
		ev.Old += n
	}
	r := ac.rules
	r.RefLevel = ac.refLevel
	if upto >= r.MinPoints {
		kt := FitTrend("kept_bytes", ac.per, x[:upto], int64s(gs.Kept[:upto]), r)
		mapTrend(&kt, ac.keep)
		ev.Kept = &kt
		if kt.State == StateGrowing {
			ev.Form = SurvivalKept
			return ev
		}
	}
	// One tensor re-created bigger replaces itself: at most snapshots
	// where the largest block grew, the one before it is gone. Where it
	// mostly lives on beside the bigger one, the group holds several
	// tensors whose sizes drift upward (a rolling window of growing
	// sequences), which its turnover judges. A majority, not every time,
	// because a dump can fall between the new tensor's allocation and the
	// old one's release.
	//
	// One tensor re-created bigger is also all of the group's growth: the
	// history tensor is the group, or the group's other blocks hold
	// still. A group whose blocks are all replaced between dumps (a cache
	// of the last K tensors, every entry evicted by the next dump) has no
	// block of the previous largest size alive either, so Recreated
	// alone cannot tell it from a history tensor; but when its sizes
	// drift, every one of its K blocks grows, and the largest carries
	// about 1/K of the group's growth. So the largest block's slope must
	// explain at least half of the group's (grew): then no other block
	// of the group, nor all of them together, grows as much as it does.
	// Half, not all, leaves room for a history tensor beside a second
	// one of the same code (two tensors re-created bigger by one line
	// still read as a leak) and for the noise of the two fits.
	//
	// K history tensors of one line (hist[k] = torch.cat([hist[k],
	// x[k]]) for each of K keys) carry 1/K of the growth each, as the
	// cache does; but each is appended the same rows between two dumps,
	// so every one of its sorted sizes rises, and by the rises of the
	// interval before times the ratio of the rows (allRecreated). A
	// cache's entries drawn afresh rise, when they all do (a drift
	// faster than their spread), each by its own draw.
	if ly := int64s(gs.Largest); stats.Drops(ly, dropTolerance(ly)) == 0 && gs.Recreated > gs.GrewBeside {
		lt := FitTrend("largest_block_bytes", ac.per, x, ly, r)
		mapTrend(&lt, ac.keep)
		if lt.State == StateGrowing && (explainsGrowth(lt.Slope, grew) || allRecreated(gs)) {
			ev.Form, ev.Largest = SurvivalRecreated, &lt
			return ev
		}
	}
	if ev.Kept != nil {
		ev.Form = SurvivalTurnedOver
	}
	return ev
}

// largestShare is the least share of a group's growth slope that its
// largest block's slope must carry for the group to be one tensor
// re-created bigger: at least half, so that the largest block grows more
// than all the group's other blocks together (see survivalEvidence).
const largestShare = 0.5

// explainsGrowth reports whether the largest block's growth slope largest
// carries at least largestShare of the group's trend grew (both in bytes
// per unit of the same axis). Without a slope for the group it does not
// judge and reports true.
func explainsGrowth(largest float64, grew *Trend) bool {
	if grew == nil || math.IsNaN(grew.Slope) || grew.Slope <= 0 {
		return true
	}
	return largest >= largestShare*grew.Slope
}

// allRecreated reports whether every block of the group was re-created
// bigger, in proportion to the time before, at half or more of the
// snapshots where its largest block was re-created bigger (Risen; see
// survivalEvidence). Half: the first of those has no rise before it to be
// compared with, and a dump can fall inside the loop that re-creates
// them, some re-created and some not yet.
func allRecreated(gs *GroupSurvival) bool {
	return gs.Risen > 0 && gs.Risen*2 >= gs.Recreated
}

// int64s converts byte counts to float64 for the statistics.
func int64s(v []int64) []float64 {
	out := make([]float64, len(v))
	for i, b := range v {
		out[i] = float64(b)
	}
	return out
}
