package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gpureport/snapshot"
)

// TestMemStateCutBySearch replays random walks of set, remove and add on
// one memory state twice: cut by binary search (disjoint pieces) and by
// the scan of every piece (the reference), and requires the same pieces
// after every step. Ranges fall on piece edges, inside pieces, across
// several and outside all, as a trace walked back makes them.
func TestMemStateCutBySearch(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 11))
		var pieces []piece
		at := uint64(0)
		for i := range 1 + rng.IntN(30) {
			at += uint64(rng.IntN(3)) * 64 // gaps between segments
			size := uint64(1+rng.IntN(4)) * 64
			pieces = append(pieces, piece{start: at, end: at + size, state: pieceState(rng.IntN(3)), seg: i % 4, expandable: i%3 == 0, large: i%2 == 0})
			at += size
		}
		fast := &memState{pieces: slices.Clone(pieces), disjoint: true}
		scan := &memState{pieces: slices.Clone(pieces)}
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
				fast.add(lo, hi, exp)
				scan.add(lo, hi, exp)
				op = "add"
			}
			if !slices.Equal(fast.pieces, scan.pieces) {
				t.Fatalf("seed %d, step %d, %s [%d, %d):\nsearch %v\nscan   %v", seed, step, op, lo, hi, fast.pieces, scan.pieces)
			}
			if !fast.disjoint {
				t.Fatalf("seed %d, step %d: %s [%d, %d) left pieces that overlap: %v", seed, step, op, lo, hi, fmt.Sprint(fast.pieces))
			}
		}
	}
}
