package words

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/input"
)

func TestCaptureLines(t *testing.T) {
	full := &analyze.Capture{
		Manifests:   []string{"rank0/gpureport-capture.json", "rank1/gpureport-capture.json"},
		KitVersions: []string{"0.1.0"}, TorchVersions: []string{"2.4.0"}, CUDAVersions: []string{"12.1"},
		WorldSize: 4, Ranks: []int{0, 1}, MissingRanks: []int{2, 3},
		Every: 100, MaxEntries: 100000, Stacks: "all",
		Snapshots: 20, OOMSnapshots: 1, MemoryStatsLogs: 2, GPULogs: 1,
		Skipped:   []string{"rank1/snapshot_step_000300.pickle"},
		UUIDJoins: []analyze.DeviceKey{{Rank: 0, Device: 0}, {Rank: 1, Device: 1}},
		OOMs:      3, OOMsWithoutSnapshot: 1, Unstopped: []int{1}, NoObserver: []int{0},
		GatherMax: 52 * time.Microsecond, WriteMax: 3400 * time.Millisecond, TraceEntries: 99000, DumpBytes: 24 << 20,
		ErrorCount: 1, Errors: []analyze.CaptureError{{Rank: 1, Message: "dumping x: disk full"}},
		Problems: []string{"rank1/gpureport-capture.json: pid: not a number"},
	}
	want := []string{
		`Captured with gpureport's capture kit 0.1.0 (torch 2.4.0, CUDA 12.1) on ranks 0, 1 of 4 (snapshots every 100 steps, max_entries 100000, stacks="all"); used 20 snapshots, 1 OOM snapshot, 2 memory_stats logs and 1 GPU log of its files.`,
		"Joined to their GPU by the UUID in the capture manifest: rank 0 · cuda:0, rank 1 · cuda:1.",
		"No capture manifest for ranks 2, 3 of the job's 4: those ranks did not run the kit, or wrote elsewhere.",
		"The kit's files that could not be read (see the skipped inputs): rank1/snapshot_step_000300.pickle.",
		"No snapshot would be taken at an OOM on rank 0: the kit ran with oom_snapshot=False, or on a torch without the OOM observer.",
		"The capture of rank 1 never stopped: the process was killed, or the run is still going.",
		"The kit's slowest dump took 0.052 ms in torch.cuda.memory._snapshot() and 3.4 s to write; a dump is 24.0 MiB on average, with up to 99000 trace entries.",
		"The kit's OOM observer saw 3 out-of-memory errors, 1 without a snapshot (the kit's limit per process, or a failed dump).",
		"The kit recorded 1 error: rank 1: dumping x: disk full.",
		"Capture manifest fields not used: rank1/gpureport-capture.json: pid: not a number.",
	}
	got := Capture(full)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("capture lines (-want +got):\n%s", d)
	}
	if got := Capture(nil); got != nil {
		t.Errorf("no capture: %q", got)
	}
	minimal := Capture(&analyze.Capture{Ranks: []int{0}, TraceEntries: -1, Stacks: "python"})
	if want := `Captured with gpureport's capture kit on rank 0 (no periodic snapshots, max_entries 0, stacks="python"); used 0 snapshots, 0 OOM snapshots, 0 memory_stats logs and 0 GPU logs of its files.`; len(minimal) != 1 || minimal[0] != want {
		t.Errorf("minimal capture: %q, want [%q]", minimal, want)
	}
}

func TestMissedOOM(t *testing.T) {
	src := []string{"train.log"}
	for _, tt := range []struct {
		m    *analyze.MissedOOM
		want []string
	}{
		{nil, nil},
		{&analyze.MissedOOM{Sources: src, Ranks: []int{input.NoRank}},
			[]string{"The out-of-memory error in `train.log` has no snapshot taken at it: gpureport's capture kit would have caught it.", "gpureport_capture.start(run_dir, every=100)", "before the stack unwinds"}},
		{&analyze.MissedOOM{Sources: src, Ranks: []int{3}}, []string{"at it (rank 3): gpureport's capture kit would have caught it"}},
		{&analyze.MissedOOM{Sources: src, Ranks: []int{3}, Kit: true, Reason: analyze.MissedNoManifest}, []string{"no capture manifest", "Start the kit on every rank"}},
		{&analyze.MissedOOM{Sources: src, Ranks: []int{0}, Kit: true, Reason: analyze.MissedObserverOff}, []string{"`oom_snapshot=False`"}},
		{&analyze.MissedOOM{Sources: src, Ranks: []int{0}, Kit: true, Reason: analyze.MissedNotWritten}, []string{"`max_oom_snapshots`"}},
		{&analyze.MissedOOM{Sources: src, Ranks: []int{0}, Kit: true, Reason: analyze.MissedNotCalled}, []string{"never called", "NCCL"}},
	} {
		got := nextStep(tt.m)
		if (got == "") != (tt.want == nil) {
			t.Errorf("%+v: %q", tt.m, got)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: %q lacks %q", tt.m, got, w)
			}
		}
	}
}

// nextStep is the missed-OOM next step in Markdown, its code parts as
// code spans; "" when no OOM was missed.
func nextStep(m *analyze.MissedOOM) string {
	f := &analyze.Findings{MissedOOM: m}
	var b strings.Builder
	for _, p := range NextStep(f, analyze.NextStep{Kind: analyze.StepSnapshotAtOOM, OOM: -1}) {
		if p.Code {
			b.WriteString("`" + p.Text + "`")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// TestLogZone: a kit GPU log read in its manifest's UTC offset says so,
// with the offset and the manifest; one read in the run's zone says
// nothing.
func TestLogZone(t *testing.T) {
	for _, tt := range []struct {
		zone *ingest.LogZone
		want string
	}{
		{nil, ""},
		{&ingest.LogZone{Offset: 2 * time.Hour, Manifest: "rank0/gpureport-capture.json"},
			"zoneless times read in UTC+02:00, the UTC offset the capture manifest rank0/gpureport-capture.json records for its machine (no --tz given)"},
		{&ingest.LogZone{Offset: -(5*time.Hour + 30*time.Minute), Manifest: "m.json"},
			"zoneless times read in UTC-05:30, the UTC offset the capture manifest m.json records for its machine (no --tz given)"},
		{&ingest.LogZone{Manifest: "m.json"},
			"zoneless times read in UTC, the UTC offset the capture manifest m.json records for its machine (no --tz given)"},
	} {
		if got := LogZone(analyze.LogInfo{Path: "gpu_logs/h/nvidia-smi.csv", Zone: tt.zone}); got != tt.want {
			t.Errorf("\n got %q\nwant %q", got, tt.want)
		}
	}
}
