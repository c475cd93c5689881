package placement

import (
	"cmp"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"gpureport/ingest"
	"gpureport/snapshot"
)

// Two processes one after another. A trainer's rank0_step_N dumps and,
// after it ended, an evaluation script's snapshot_N dumps on the same GPU
// follow one another in time like one process's dumps under two names
// (a job resumed from a checkpoint), and their traces, an hour apart,
// cover no time in common: nothing processEvidence looks at tells them
// apart, and joined into one series the evaluation's different memory
// reads as a jump in the trainer's, which hides the trainer's leak.
//
// What tells them apart is what a process keeps alive. One process's
// dumps share the blocks it holds from one dump to the next: its model's
// parameters, its optimizer state, each at one address with one size and
// one allocation stack; an OOM observer's dump shares the live blocks of
// the process's last periodic dump. A process that resumed from a
// checkpoint runs the same code, so its blocks have the same stacks as
// the first one's. A separate program has none of this: over the dumps of
// the two groups nearest in time (each boundary where the time order goes
// from one group's dump to the other's) no live block (device, address,
// size) in common, no segment (device, address, size) in common, and no
// allocation stack of a live block in common; and its traces share no
// event (processEvidence's first test, done before this one).
//
// It is evidence only where there is something to compare: both dumps
// of a boundary have live blocks with stacks (history recorded), and a
// group shows that it keeps blocks alive (the dump of a boundary and the
// group's dump next to it share a live block), so that finding no block
// in common says something. Without a time order for every dump, or
// without such a boundary, there is no evidence either way, and the rule
// before it (join) stands. Any boundary whose dumps share a block, a
// segment or a stack makes the groups one process as far as this test
// goes.

// InTurn is why dumps without a rank were kept apart from the only
// rank's dumps as two processes one after another (inturn.go).
type InTurn struct {
	// Before and After are the two dumps, one of each group, adjacent in
	// time, that have nothing in common: After is the later.
	Before, After string
	// GapSeconds is the time from Before's latest time to After's, in
	// seconds (trace times, else the times in their names).
	GapSeconds float64
}

// liveKey is a block's or segment's identity in one process: device,
// address and size.
type liveKey struct {
	dev  int
	addr uint64
	size int64
}

// liveSet is what a dump's process keeps alive, as inTurn compares it.
type liveSet struct {
	blocks map[liveKey]bool
	segs   map[liveKey]bool
	// stacks are the live blocks' allocation stacks, each as its frames'
	// text (stack IDs are per file).
	stacks map[string]bool
	// stackBytes is the live blocks' bytes by allocation stack (as in
	// stacks).
	stackBytes map[string]int64
}

// stacked reports whether the dump has a live block with a stack.
func (l *liveSet) stacked() bool { return l != nil && len(l.stacks) > 0 }

// keepsAlive reports whether l and o share a live block.
func (l *liveSet) keepsAlive(o *liveSet) bool {
	if l == nil || o == nil {
		return false
	}
	for k := range l.blocks {
		if o.blocks[k] {
			return true
		}
	}
	return false
}

// sharesAny reports whether l and o share a live block, a segment or a
// live block's stack.
func (l *liveSet) sharesAny(o *liveSet) bool {
	if l.keepsAlive(o) {
		return true
	}
	for k := range l.segs {
		if o.segs[k] {
			return true
		}
	}
	for k := range l.stacks {
		if o.stacks[k] {
			return true
		}
	}
	return false
}

// liveSets reads each file's liveSet once, with the devices' segments
// that a re-run from the cache left unread (ingest.SnapshotFile.
// WithSegments): the same blocks as a full decode's, so both decide
// alike.
type liveSets map[*ingest.SnapshotFile]*liveSet

func (ls liveSets) of(f *ingest.SnapshotFile) *liveSet {
	if l, ok := ls[f]; ok {
		return l
	}
	var l *liveSet
	if f.Snapshot != nil {
		s, err := f.WithSegments()
		if err != nil {
			slog.Debug("snapshot's blocks not read to tell processes apart", "file", f.Path, "reason", err)
		} else {
			l = liveSetOf(s)
		}
	}
	ls[f] = l
	return l
}

// liveSetOf is s's live blocks, segments and live blocks' stacks.
func liveSetOf(s *snapshot.Snapshot) *liveSet {
	l := &liveSet{blocks: map[liveKey]bool{}, segs: map[liveKey]bool{}, stacks: map[string]bool{}, stackBytes: map[string]int64{}}
	text := map[snapshot.StackID]string{}
	var b strings.Builder
	for _, seg := range s.Segments {
		l.segs[liveKey{seg.Device, seg.Address, seg.TotalSize}] = true
		for j := range seg.Blocks {
			blk := &seg.Blocks[j]
			if blk.State != snapshot.StateActiveAllocated {
				continue
			}
			l.blocks[liveKey{seg.Device, blk.Address, blk.Size}] = true
			if blk.Stack == snapshot.NoStack {
				continue
			}
			t, ok := text[blk.Stack]
			if !ok {
				b.Reset()
				for _, id := range s.Stacks.Stack(blk.Stack) {
					fr := &s.Stacks.Frames[id]
					b.WriteString(fr.File)
					b.WriteByte(':')
					b.WriteString(strconv.Itoa(fr.Line))
					b.WriteByte(' ')
					b.WriteString(fr.Name)
					b.WriteByte('\n')
				}
				t = b.String()
				text[blk.Stack] = t
			}
			if t != "" {
				l.stacks[t] = true
				l.stackBytes[t] += blk.Size
			}
		}
	}
	return l
}

// inTurn reports whether the dumps a and b are of two processes one
// after another (see above), with the boundary that shows it; nil when
// nothing shows it.
func inTurn(a, b []*ingest.SnapshotFile) *InTurn {
	all := slices.Concat(a, b)
	at, _, ok := dumpTimes(all)
	if !ok {
		return nil
	}
	inA := map[*ingest.SnapshotFile]bool{}
	for _, f := range a {
		inA[f] = true
	}
	slices.SortStableFunc(all, func(x, y *ingest.SnapshotFile) int {
		return cmp.Or(at[x].Compare(at[y]), cmp.Compare(x.Path, y.Path))
	})
	// neighbour is the dump of f's group next to f in time on the side
	// away from the boundary (step -1: before it, +1: after it); nil when
	// none.
	neighbour := func(i, step int) *ingest.SnapshotFile {
		for j := i + step; j >= 0 && j < len(all); j += step {
			if inA[all[j]] == inA[all[i]] {
				return all[j]
			}
		}
		return nil
	}
	ls := liveSets{}
	var shown *InTurn
	for i := 1; i < len(all); i++ {
		x, y := all[i-1], all[i]
		if inA[x] == inA[y] {
			continue
		}
		lx, ly := ls.of(x), ls.of(y)
		if lx == nil || ly == nil {
			continue
		}
		if lx.sharesAny(ly) {
			return nil
		}
		if !lx.stacked() || !ly.stacked() {
			continue
		}
		px, ny := neighbour(i-1, -1), neighbour(i, 1)
		if px != nil && ls.of(px).keepsAlive(lx) || ny != nil && ly.keepsAlive(ls.of(ny)) {
			if shown == nil {
				shown = &InTurn{Before: x.Path, After: y.Path, GapSeconds: at[y].Sub(at[x]).Seconds()}
			}
		}
	}
	return shown
}
