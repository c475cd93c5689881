package placement

import (
	"slices"
	"testing"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// laidOut is a dump of a test's layout: its path and what it holds.
type laidOut struct {
	path string
	s    *snapshot.Snapshot
}

// joinLaidOut is the run the tests of dumps without a rank share: it
// makes a snapshot file of each dump, its path read as ingest reads it,
// checks that separateRanks leaves no note (the layouts give ranks by
// their paths alone), runs joinUnranked, and checks the files' ranks
// are ranks, in dump order. It returns joinUnranked's notes for the test
// to check.
func joinLaidOut(t *testing.T, dumps []laidOut, ranks []int) []Note {
	t.Helper()
	var files []*ingest.SnapshotFile
	for _, d := range dumps {
		n := ingest.ParseName(d.path)
		files = append(files, &ingest.SnapshotFile{Source: input.Source{Path: d.path}, Step: n.Step, Order: n.Order, OrderKind: n.OrderKind,
			Rank: n.Rank, Phase: n.Phase, Epoch: n.Epoch, Snapshot: d.s})
	}
	notes, _ := separateRanks(files)
	if len(notes) > 0 {
		t.Fatalf("separateRanks: notes %+v, want none", notes)
	}
	notes = joinUnranked(files, notes)
	var got []int
	for _, f := range files {
		got = append(got, f.Rank)
	}
	if !slices.Equal(got, ranks) {
		t.Errorf("ranks %v, want %v", got, ranks)
	}
	return notes
}
