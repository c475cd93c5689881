package analyze

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/gen/pickle"
	"gpureport/snapshot"
)

// TestDecodeNotesReachFindings: what the snapshot decoder had to assume
// reaches the report's notes, naming the file and the place. The snapshot
// is the kind the issue describes: a 2026 file with segment_pool_id as a
// list and a trimmed segment, whose frame line is 2^64-1.
func TestDecodeNotesReachFindings(t *testing.T) {
	frame := pickle.NewDict(3)
	frame.Set("filename", "train.py")
	frame.Set("name", "step")
	frame.Set("line", ^uint64(0))
	block := func(size int64, state string) *pickle.Dict {
		b := pickle.NewDict(4)
		b.Set("size", size)
		b.Set("requested_size", size)
		b.Set("state", state)
		b.Set("frames", pickle.NewList(frame))
		return b
	}
	seg := pickle.NewDict(8)
	seg.Set("device", int64(0))
	seg.Set("address", int64(1<<40))
	seg.Set("total_size", int64(20<<20))
	seg.Set("allocated_size", int64(2<<20))
	seg.Set("active_size", int64(2<<20))
	seg.Set("requested_size", int64(2<<20))
	seg.Set("segment_pool_id", pickle.NewList(int64(0), int64(0)))
	seg.Set("blocks", pickle.NewList(block(2<<20, "active_allocated"), block(4<<20, "inactive")))
	top := pickle.NewDict(2)
	top.Set("segments", pickle.NewList(seg))
	top.Set("device_traces", pickle.NewList(pickle.NewList()))
	data, err := pickle.Marshal(top, pickle.Options{Protocol: 5})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := snapshot.Decode(bytes.NewReader(data), int64(len(data)), snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := &ingest.Run{Dir: "run", Location: time.UTC, Snapshots: []*ingest.SnapshotFile{{
		Source: input.Source{Path: "snapshots/rank0.pickle"}, Step: input.NoStep, Rank: input.NoRank, Snapshot: s}}}
	f := Analyze(run, Options{})
	var found []string
	for _, n := range f.Notes {
		if n.Kind == NoteText && strings.HasPrefix(n.Text, "snapshots/rank0.pickle: ") {
			found = append(found, n.Text)
		}
	}
	if len(found) != 1 || !strings.Contains(found[0], "segments[0]: its 2 blocks do not add up to the segment's own totals: total_size 20971520 (blocks 6291456) (a trimmed or edited file?)") {
		t.Fatalf("decode notes in findings: %q (all notes %+v)", found, f.Notes)
	}
	if len(f.Devices) != 1 || f.Devices[0].Points[0].Usage.Reserved != 20<<20 {
		t.Fatalf("reserved memory is not total_size")
	}
}
