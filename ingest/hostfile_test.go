package ingest

import (
	"testing"

	"gpureport/input"
	"gpureport/snapshot"
)

// TestHostFile presents a file's pinned host memory as a file of its own:
// the host segments as device 0, the host trace as its trace, the same
// source and rank; the file itself is left as it was, and a file without
// host memory has none.
func TestHostFile(t *testing.T) {
	s := &snapshot.Snapshot{
		Segments:     []*snapshot.Segment{{Device: 0, Address: 0x7f0000000000, TotalSize: 2 << 20}},
		HostSegments: []*snapshot.Segment{{Device: snapshot.HostDevice, Address: 0x10000000, TotalSize: 1 << 20}},
		HostTrace:    []snapshot.TraceEntry{{Action: snapshot.ActionAlloc, Addr: 0x10000000, Size: 1 << 20}},
	}
	f := &SnapshotFile{Source: input.Source{Path: "rank1/snapshot_step_10.pickle"}, Step: 10, Rank: 1, Snapshot: s}
	h := f.HostFile()
	if h == nil {
		t.Fatal("no host file")
	}
	if h.Path != f.Path || h.Step != 10 || h.Rank != 1 {
		t.Errorf("host file %s step %d rank %d", h.Path, h.Step, h.Rank)
	}
	if len(h.Snapshot.Segments) != 1 || h.Snapshot.Segments[0].Device != 0 || h.Snapshot.Segments[0].Address != 0x10000000 {
		t.Errorf("host segments %+v", h.Snapshot.Segments)
	}
	full, err := h.Full()
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Traces) != 1 || len(full.Traces[0]) != 1 || full.Segments[0].Address != 0x10000000 {
		t.Errorf("full host snapshot: traces %v, segments %+v", full.Traces, full.Segments)
	}
	if f.Snapshot != s || s.HostSegments[0].Device != snapshot.HostDevice || s.Segments[0].Address != 0x7f0000000000 {
		t.Error("HostFile changed the file")
	}
	plain := &SnapshotFile{Snapshot: &snapshot.Snapshot{Segments: s.Segments}}
	if plain.HostFile() != nil {
		t.Error("a file without pinned host memory has a host file")
	}
}
