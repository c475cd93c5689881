package analyze

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/btree"

	"gpureport/snapshot"
)

// TestMemStateTreeMatchesList replays random walks of set, remove and add on
// one memory state twice: in a tree (ordered pieces) and in a list that
// every step scans (the reference), and requires the same pieces after
// every step; an empty range added turns the tree into the list. Ranges
// fall on piece edges, inside pieces, across several and outside all, as
// a trace walked back makes them.
func TestMemStateTreeMatchesList(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 11))
		pieces, at := randomPieces(rng, 30, 64, 4)
		fast := &memState{tree: btree.NewG(pieceTreeDegree, func(a, b piece) bool { return a.start < b.start })}
		for _, p := range pieces {
			fast.tree.ReplaceOrInsert(p)
		}
		scan := &memState{pieces: slices.Clone(pieces)}
		// now returns fast's pieces as a list, leaving its tree.
		now := func() []piece {
			if fast.tree == nil {
				return fast.pieces
			}
			c := &memState{tree: fast.tree.Clone()}
			c.flat()
			return c.pieces
		}
		empties := 0
		for step := range 40 {
			lo := uint64(rng.IntN(int(at/32)+4)) * 32
			hi := lo + uint64(1+rng.IntN(8))*32
			var op string
			switch rng.IntN(3) {
			case 0:
				st := pieceState(rng.IntN(3))
				stack := snapshot.StackID(rng.IntN(5))
				fast.set(lo, hi, st, stack)
				scan.set(lo, hi, st, stack)
				op = "set"
			case 1:
				fast.remove(lo, hi)
				scan.remove(lo, hi)
				op = "remove"
			case 2:
				exp := rng.IntN(2) == 0
				if rng.IntN(50) == 0 {
					hi = lo // an empty range: the tree gives way to the list
					empties++
				}
				fast.add(lo, hi, exp)
				scan.add(lo, hi, exp)
				op = "add"
			}
			if got := now(); !slices.Equal(got, scan.pieces) {
				t.Fatalf("seed %d, step %d, %s [%d, %d):\ntree %v\nlist %v", seed, step, op, lo, hi, got, scan.pieces)
			}
			if (fast.tree == nil) != (empties > 0) {
				t.Fatalf("seed %d, step %d: tree %v after %d empty ranges", seed, step, fast.tree != nil, empties)
			}
		}
		fast.flat()
		if !slices.Equal(fast.pieces, scan.pieces) || fast.tree != nil {
			t.Fatalf("seed %d: flat %v, want %v", seed, fast.pieces, scan.pieces)
		}
	}
}

// randomPieces returns 1 to most pieces of 1 to 4 units each, in address
// order from 0 with gaps between some, of random states, in segs segment
// identities, every third expandable, every other large, each its own
// stack; and the address past the last.
func randomPieces(rng *rand.Rand, most int, unit uint64, segs int) ([]piece, uint64) {
	var pieces []piece
	at := uint64(0)
	for i := range 1 + rng.IntN(most) {
		at += uint64(rng.IntN(3)) * unit // gaps between segments
		size := uint64(1+rng.IntN(4)) * unit
		pieces = append(pieces, piece{start: at, end: at + size, state: pieceState(rng.IntN(3)), seg: i % segs,
			expandable: i%3 == 0, large: i%2 == 0, stack: snapshot.StackID(i)})
		at += size
	}
	return pieces, at
}

// TestReplayWork checks the replay's cost model: a tree visits about
// log2 of its pieces per event (so an OOM early in a large model's
// trace is replayed exactly), a list all of them (so a damaged file's is
// bounded by maxReplayWork).
func TestReplayWork(t *testing.T) {
	const n, events = 175_000, 9_000
	pieces := make([]piece, n)
	for i := range pieces {
		pieces[i] = piece{start: uint64(i) * 512, end: uint64(i)*512 + 512}
	}
	tree := &memState{tree: btree.NewG(pieceTreeDegree, func(a, b piece) bool { return a.start < b.start })}
	for _, p := range pieces {
		tree.tree.ReplaceOrInsert(p)
	}
	list := &memState{pieces: pieces}
	if w := tree.replayWork(events); w != n+events*18 || w > maxReplayWork {
		t.Errorf("tree of %d pieces, %d events: work %d, want %d (within %d)", n, events, w, n+events*18, maxReplayWork)
	}
	if w := list.replayWork(events); w != n*events || w <= maxReplayWork {
		t.Errorf("list of %d pieces, %d events: work %d, want %d (beyond %d)", n, events, w, n*events, maxReplayWork)
	}
}

// TestMemStateAddJoinsExpandable checks that a range mapped next to an
// expandable segment takes its identity (the one before first), and any
// other range a new one, in the list and in the tree.
func TestMemStateAddJoinsExpandable(t *testing.T) {
	base := []piece{
		{start: 0, end: 64, seg: 5, expandable: true, large: true},
		{start: 320, end: 384, seg: 7, expandable: true, large: true},
		{start: 512, end: 576, seg: 9, large: true},
	}
	tests := []struct {
		name       string
		lo, hi     uint64
		expandable bool
		want       int
	}{
		{"after an expandable segment", 64, 128, true, 5},
		{"before an expandable segment", 256, 320, true, 7},
		{"between both", 64, 320, true, 5},
		{"next to a plain segment", 576, 640, true, -1 - len(base)},
		{"not expandable", 64, 128, false, -1 - len(base)},
		{"apart", 1024, 1088, true, -1 - len(base)},
	}
	for _, tc := range tests {
		for _, tree := range []bool{false, true} {
			m := &memState{pieces: slices.Clone(base)}
			if tree {
				m = &memState{tree: btree.NewG(pieceTreeDegree, func(a, b piece) bool { return a.start < b.start })}
				for _, p := range base {
					m.tree.ReplaceOrInsert(p)
				}
			}
			m.add(tc.lo, tc.hi, tc.expandable)
			m.flat()
			i := slices.IndexFunc(m.pieces, func(p piece) bool { return p.start == tc.lo })
			if i < 0 || m.pieces[i].seg != tc.want {
				t.Errorf("%s (tree %v): pieces %v, want [%d, %d) in segment %d", tc.name, tree, m.pieces, tc.lo, tc.hi, tc.want)
			}
		}
	}
}

// TestMemStateWalkMatchesList walks random traces back twice from one
// state: once with the pieces their events reach in a tree and the rest
// left in the list (walkOver), and once as one list that every event
// scans (the reference), and requires the same memory and bytes freed.
// Events fall on piece edges, inside pieces, across several, outside
// all, next to the pieces left alone (an expandable mapping takes their
// segment), with empty ranges, ranges that wrap past the top of the
// address space, and events that change no memory.
func TestMemStateWalkMatchesList(t *testing.T) {
	actions := []snapshot.Action{snapshot.ActionAlloc, snapshot.ActionFreeRequested, snapshot.ActionFreeCompleted,
		snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap, snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap,
		snapshot.ActionSnapshot}
	walked := 0
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 12))
		pieces, at := randomPieces(rng, 60, 512, 5)
		// A quarter of the states lie at the top of the address space,
		// where events' ranges wrap.
		var base uint64
		if seed%4 == 0 {
			base = -at - 1024
			for i := range pieces {
				pieces[i].start += base
				pieces[i].end += base
			}
		}
		tr := make([]snapshot.TraceEntry, 1+rng.IntN(12))
		for i := range tr {
			e := &tr[i]
			e.Action = actions[rng.IntN(len(actions))]
			e.Addr = base + uint64(rng.IntN(int(at/256)+4))*256
			e.Size = int64(rng.IntN(6)) * 512
			if rng.IntN(40) == 0 {
				e.Size = 0
			}
			e.Stack = snapshot.StackID(100 + i)
		}
		s := &snapshot.Snapshot{Traces: [][]snapshot.TraceEntry{tr}}
		cut := rng.IntN(len(tr)) - 1
		walk := &memState{pieces: slices.Clone(pieces), ordered: true}
		list := &memState{pieces: slices.Clone(pieces)}
		if walk.replayWork(len(tr)) > list.replayWork(len(tr))+len(pieces) {
			t.Fatalf("seed %d: a walk costs more than a list", seed)
		}
		fw, fl := walk.stateAt(s, 0, cut), list.stateAt(s, 0, cut)
		if fw != fl || !slices.Equal(walk.pieces, list.pieces) || walk.tree != nil {
			t.Fatalf("seed %d, cut %d, events %v:\nwalk %v (freed %d)\nlist %v (freed %d)", seed, cut, tr, walk.pieces, fw, list.pieces, fl)
		}
		if !slices.Equal(walk.pieces, pieces) {
			walked++
		}
	}
	if walked < 200 {
		t.Fatalf("only %d of 400 walks changed the memory", walked)
	}
}

// TestMemStateCutOutsideTheTrace walks back from cuts outside a trace
// (past its end, before its start, of an empty trace), which the walk
// must take as no event and as every event, never a panic.
func TestMemStateCutOutsideTheTrace(t *testing.T) {
	pieces := []piece{{start: 0, end: 512, state: pieceLive}, {start: 512, end: 1024}}
	tr := []snapshot.TraceEntry{{Action: snapshot.ActionAlloc, Addr: 0, Size: 512}}
	for _, tc := range []struct {
		name  string
		tr    []snapshot.TraceEntry
		cut   int
		first pieceState
	}{
		{"past the end", tr, 5, pieceLive},
		{"at the end", tr, 0, pieceLive},
		{"before the start", tr, -3, pieceFree},
		{"an empty trace", nil, 0, pieceLive},
	} {
		m := &memState{pieces: slices.Clone(pieces), ordered: true}
		m.stateAt(&snapshot.Snapshot{Traces: [][]snapshot.TraceEntry{tc.tr}}, 0, tc.cut)
		if len(m.pieces) != 2 || m.pieces[0].state != tc.first || m.tree != nil {
			t.Errorf("%s: pieces %v, want the first %v", tc.name, m.pieces, tc.first)
		}
	}
}
