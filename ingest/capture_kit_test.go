package ingest_test

import (
	"context"
	"slices"
	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/testutil"
	"gpureport/placement"

	"github.com/google/go-cmp/cmp"
)

// TestCaptureKitRun reads a run the capture kit wrote (python/, against
// its torch stand-in; testutil.CaptureKitRun): the file names it gives
// must put every snapshot on its rank and step, make the OOM dump an
// OOM-phase dump, its memory_stats lines must be read with their steps,
// ranks, devices and UUIDs, and its manifests must give each rank's GPU.
func TestCaptureKitRun(t *testing.T) {
	dir := testutil.CaptureKitRun(t)
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Skipped) > 0 {
		t.Errorf("skipped %v", run.Skipped)
	}
	type snap struct {
		Path  string
		Rank  int
		Step  int64
		Phase ingest.Phase
	}
	var got []snap
	for _, s := range run.Snapshots {
		got = append(got, snap{s.Path, s.Rank, s.Step, s.Phase})
		if len(s.Snapshot.Segments) == 0 {
			t.Errorf("%s: no segments decoded", s.Path)
		}
	}
	want := []snap{
		{"rank0/snapshot_step_000000.pickle", 0, 0, ingest.PhasePeriodic},
		{"rank0/snapshot_step_000002.pickle", 0, 2, ingest.PhasePeriodic},
		{"rank0/snapshot_step_000004.pickle", 0, 4, ingest.PhasePeriodic},
		{"rank0/snapshot_step_000006.pickle", 0, 6, ingest.PhasePeriodic},
		{"rank1/snapshot_oom_step_000006.pickle", 1, 6, ingest.PhaseOOM},
		{"rank1/snapshot_step_000000.pickle", 1, 0, ingest.PhasePeriodic},
		{"rank1/snapshot_step_000002.pickle", 1, 2, ingest.PhasePeriodic},
		{"rank1/snapshot_step_000004.pickle", 1, 4, ingest.PhasePeriodic},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("snapshots (-want +got):\n%s", d)
	}

	uuids := []string{"GPU-5eed0000-0000-4000-8000-000000000000", "GPU-5eed0001-0000-4000-8000-000000000001"}
	type lines struct {
		Path   string
		Format gpulog.LogFormat
		Rank   []int
		Device []int
		Steps  []int64
		UUIDs  []string
		Grows  bool
	}
	var gotLines []lines
	for _, l := range run.Logs {
		ls := lines{Path: l.Path, Format: l.Format}
		for i, r := range l.MemoryStats {
			ls.Steps = append(ls.Steps, r.Step)
			if !slices.Contains(ls.Rank, r.Rank) {
				ls.Rank = append(ls.Rank, r.Rank)
			}
			if !slices.Contains(ls.Device, r.Device) {
				ls.Device = append(ls.Device, r.Device)
			}
			if !slices.Contains(ls.UUIDs, r.UUID) {
				ls.UUIDs = append(ls.UUIDs, r.UUID)
			}
			if r.Time.IsZero() || r.PID == 0 {
				t.Errorf("%s reading %d: no time or pid: %+v", l.Path, i, r)
			}
		}
		n := len(l.MemoryStats)
		ls.Grows = n > 1 && l.MemoryStats[n-1].Allocated > l.MemoryStats[0].Allocated
		gotLines = append(gotLines, ls)
	}
	wantLines := []lines{
		{"rank0/memory_stats.jsonl", gpulog.FormatMemoryStats, []int{0}, []int{0}, []int64{0, 1, 2, 3, 4, 5, 6, 7}, uuids[:1], true},
		{"rank1/memory_stats.jsonl", gpulog.FormatMemoryStats, []int{1}, []int{1}, []int64{0, 1, 2, 3, 4, 5}, uuids[1:], false},
	}
	if d := cmp.Diff(wantLines, gotLines); d != "" {
		t.Errorf("memory_stats logs (-want +got):\n%s", d)
	}

	if len(run.Captures) != 2 || run.Captures[0].Path != "rank0/gpureport-capture.json" || run.Captures[1].Path != "rank1/gpureport-capture.json" {
		t.Fatalf("captures %v, want the two ranks' manifests", run.Captures)
	}
	m := run.Captures[1]
	if m.Dumps.Count != 3 || len(m.OOMs) != 1 || m.OOMs[0].Snapshot != "rank1/snapshot_oom_step_000006.pickle" || m.OOMs[0].Step != 6 {
		t.Errorf("rank 1's manifest: dumps %+v, OOMs %+v", m.Dumps, m.OOMs)
	}
	if len(m.Problems) > 0 || len(run.Captures[0].Problems) > 0 {
		t.Errorf("problems reading the kit's manifests: %q %q", run.Captures[0].Problems, m.Problems)
	}
	// Placement gives each UUID its rank's device.
	wantUUIDs := []placement.DeviceUUID{
		{Rank: 0, Device: 0, UUID: uuids[0], Source: "rank0/gpureport-capture.json"},
		{Rank: 1, Device: 1, UUID: uuids[1], Source: "rank1/gpureport-capture.json"},
	}
	if d := cmp.Diff(wantUUIDs, placement.Place(run).DeviceUUIDs); d != "" {
		t.Errorf("device UUIDs (-want +got):\n%s", d)
	}
}
