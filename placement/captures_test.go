package placement

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"gpureport/ingest"
)

func TestCaptureUUIDs(t *testing.T) {
	dev := func(i int, u string) *ingest.CaptureDevice { return &ingest.CaptureDevice{Index: i, UUID: u} }
	ms := []*ingest.CaptureManifest{
		{Path: "rank1/gpureport-capture.json", Rank: 1, Device: dev(1, "GPU-b")},
		{Path: "rank0/gpureport-capture.json", Rank: 0, Device: dev(0, "GPU-a")},
		{Path: "rank2/gpureport-capture.json", Rank: 2}, // stopped before its device was known
		{Path: "rank3/gpureport-capture.json", Rank: 3, Device: dev(3, "")},
		// Two attempts of one run in one folder disagree on rank 4's GPU.
		{Path: "a/rank4/gpureport-capture.json", Rank: 4, Device: dev(0, "GPU-c")},
		{Path: "b/rank4/gpureport-capture.json", Rank: 4, Device: dev(0, "GPU-d")},
		// ... and agree (ignoring case) on rank 5's.
		{Path: "a/rank5/gpureport-capture.json", Rank: 5, Device: dev(1, "GPU-e")},
		{Path: "b/rank5/gpureport-capture.json", Rank: 5, Device: dev(1, "gpu-E")},
		// A manifest in a rank folder that placement numbered as rank 9.
		{Path: "node1/rank0/gpureport-capture.json", Rank: 0, Device: dev(0, "GPU-f")},
	}
	got, notes := captureUUIDs(ms, map[string]int{"node1/rank0": 9})
	want := []DeviceUUID{
		{Rank: 0, Device: 0, UUID: "GPU-a", Source: "rank0/gpureport-capture.json"},
		{Rank: 1, Device: 1, UUID: "GPU-b", Source: "rank1/gpureport-capture.json"},
		{Rank: 5, Device: 1, UUID: "GPU-e", Source: "a/rank5/gpureport-capture.json"},
		{Rank: 9, Device: 0, UUID: "GPU-f", Source: "node1/rank0/gpureport-capture.json"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("UUIDs (-want +got):\n%s", d)
	}
	if len(notes) != 1 || notes[0].Kind != NoteManifestsDisagree || *notes[0].Manifests != (ManifestClash{Rank: 4, Device: 0,
		Paths: [2]string{"a/rank4/gpureport-capture.json", "b/rank4/gpureport-capture.json"}, UUIDs: [2]string{"GPU-c", "GPU-d"}}) {
		t.Errorf("notes %+v, want one on rank 4", notes)
	}
}
