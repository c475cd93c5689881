package analyze

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
	"gpureport/placement"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestCaptureKitFindings: a run the capture kit wrote (its torch
// stand-in; testutil.CaptureKitRun) is reported as captured with the
// kit, with the kit's files it used counted by kind, and rank 1's OOM is
// explained from the kit's OOM snapshot, so nothing is missed.
func TestCaptureKitFindings(t *testing.T) {
	run, err := ingest.Load(context.Background(), testutil.CaptureKitRun(t), ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := Analyze(run, Options{})
	want := &Capture{
		Manifests:     []string{"rank0/gpureport-capture.json", "rank1/gpureport-capture.json"},
		KitVersions:   []string{"0.1.0"},
		TorchVersions: []string{"2.4.0"},
		CUDAVersions:  []string{"12.1"},
		WorldSize:     2, Ranks: []int{0, 1},
		Every: 2, MaxEntries: 1000, Stacks: "python",
		Snapshots: 7, OOMSnapshots: 1, MemoryStatsLogs: 2,
		OOMs: 1,
	}
	if d := cmp.Diff(want, f.Capture, cmpopts.IgnoreFields(Capture{}, "GatherMax", "WriteMax", "TraceEntries", "DumpBytes")); d != "" {
		t.Errorf("capture (-want +got):\n%s", d)
	}
	if f.Capture.TraceEntries < 1 || f.Capture.DumpBytes <= 0 || f.Capture.WriteMax <= 0 {
		t.Errorf("dump costs not read: %+v", f.Capture)
	}
	if f.MissedOOM != nil {
		t.Errorf("missed OOM %+v, want none: rank 1's OOM has its snapshot", f.MissedOOM)
	}
	var explained bool
	for _, o := range f.OOMs {
		explained = explained || (o.Path == "rank1/snapshot_oom_step_000006.pickle" && o.Rank == 1)
	}
	if !explained || !f.Verdict.OOM {
		t.Errorf("rank 1's OOM is not explained from its OOM snapshot: %+v", f.OOMs)
	}
}

// TestMissedOOM: a training log's OOM that no snapshot explains, on a rank
// without an OOM dump, is missed; with the kit, its manifests say why no
// dump was taken.
func TestMissedOOM(t *testing.T) {
	kit := func(mod func(m *ingest.CaptureManifest)) []*ingest.CaptureManifest {
		m := &ingest.CaptureManifest{Path: "rank0/gpureport-capture.json", Rank: 0, WorldSize: 1,
			Settings:  ingest.CaptureSettings{OOMSnapshot: true},
			Recording: map[string]string{"oom_observer": "attached"}}
		if mod != nil {
			mod(m)
		}
		return []*ingest.CaptureManifest{m}
	}
	for _, tt := range []struct {
		name     string
		captures []*ingest.CaptureManifest
		logRank  int
		oomDump  bool // the run has an OOM-phase snapshot of rank 0
		want     *MissedOOM
	}{
		{"no kit", nil, 0, false, &MissedOOM{Sources: []string{"train.log"}, Ranks: []int{0}}},
		{"no kit, rankless message", nil, input.NoRank, false, &MissedOOM{Sources: []string{"train.log"}, Ranks: []int{input.NoRank}}},
		{"an OOM dump exists", nil, 0, true, nil},
		{"kit: observer never called", kit(nil), 0, false,
			&MissedOOM{Sources: []string{"train.log"}, Ranks: []int{0}, Kit: true, Reason: MissedNotCalled}},
		{"kit: observer unavailable", kit(func(m *ingest.CaptureManifest) { m.Recording["oom_observer"] = "unavailable" }), 0, false,
			&MissedOOM{Sources: []string{"train.log"}, Ranks: []int{0}, Kit: true, Reason: MissedObserverOff}},
		{"kit: oom_snapshot off", kit(func(m *ingest.CaptureManifest) { m.Settings.OOMSnapshot = false }), 0, false,
			&MissedOOM{Sources: []string{"train.log"}, Ranks: []int{0}, Kit: true, Reason: MissedObserverOff}},
		{"kit: dump not written", kit(func(m *ingest.CaptureManifest) { m.OOMs = []ingest.CaptureOOM{{Step: 5}} }), 0, false,
			&MissedOOM{Sources: []string{"train.log"}, Ranks: []int{0}, Kit: true, Reason: MissedNotWritten}},
		{"kit on rank 0 only, OOM on rank 3", kit(nil), 3, false,
			&MissedOOM{Sources: []string{"train.log"}, Ranks: []int{3}, Kit: true, Reason: MissedNoManifest}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sp := synthSpec{n: 8, seed: 2, rank: 0}
			run := sp.run()
			if tt.oomDump {
				dump := *run.Snapshots[len(run.Snapshots)-1]
				dump.Path, dump.Phase = "rank0/snapshot_oom_step_000009.pickle", ingest.PhaseOOM
				run.Snapshots = append(run.Snapshots, &dump)
			}
			run.Captures = tt.captures
			run.Logs = append(run.Logs, &gpulog.GPULog{Source: input.Source{Path: "train.log"}, Format: gpulog.FormatTrainingLog,
				OOMs: []gpulog.TrainingOOM{{Line: 9, Count: 1, Rank: tt.logRank, Device: -1, Requested: 4 * gib, RequestedSlack: 0,
					Capacity: gpulog.Unknown, Free: gpulog.Unknown, ProcessInUse: gpulog.Unknown, Allocated: gpulog.Unknown,
					Reserved: gpulog.Unknown, ReservedUnallocated: gpulog.Unknown}}})
			f := Analyze(run, Options{})
			if d := cmp.Diff(tt.want, f.MissedOOM); d != "" {
				t.Errorf("missed OOM (-want +got):\n%s", d)
			}
			if !f.Verdict.OOM {
				t.Errorf("the training log's OOM did not raise the oom flag")
			}
		})
	}
}

// TestMissedOOMFromMemoryStats: a num_ooms rise in memory_stats lines is
// an OOM too; without an OOM dump it is missed.
func TestMissedOOMFromMemoryStats(t *testing.T) {
	l := &gpulog.GPULog{Source: input.Source{Path: "rank2/memory_stats.jsonl"}, Format: gpulog.FormatMemoryStats}
	for i := range 6 {
		ooms := int64(0)
		if i >= 4 {
			ooms = 1
		}
		l.MemoryStats = append(l.MemoryStats, gpulog.MemoryStatsSample{Step: int64(i), Rank: 2, Device: 0,
			Allocated: gib, Reserved: 2 * gib, Active: gib, InactiveSplit: 0, NumAllocRetries: 0, NumOOMs: ooms})
	}
	f := Analyze(&ingest.Run{Dir: "stats", Logs: []*gpulog.GPULog{l}}, Options{})
	want := &MissedOOM{Sources: []string{"rank2/memory_stats.jsonl"}, Ranks: []int{2}}
	if d := cmp.Diff(want, f.MissedOOM); d != "" {
		t.Errorf("missed OOM (-want +got):\n%s", d)
	}
}

func TestKitFilePatterns(t *testing.T) {
	k := kitPatterns([]*ingest.CaptureManifest{{Files: ingest.CaptureFiles{
		Snapshots: "rank3/snapshot_step_{step:06d}.pickle", OOMSnapshots: "rank3/snapshot_oom_step_{step:06d}.pickle",
		MemoryStats: "rank3/memory_stats.jsonl", GPULogDir: "gpu_logs/node-1"}}})
	for _, tt := range []struct {
		path           string
		snap, oom, gpu bool
	}{
		{"rank3/snapshot_step_000100.pickle", true, false, false},
		{"rank3/snapshot_step_1234567.pickle", true, false, false},
		{"rank3/snapshot_oom_step_000101.pickle", false, true, false},
		{"rank3/snapshot_oom_step_000101_2.pickle", false, true, false},
		{"rank3/snapshot_step_.pickle", false, false, false},
		{"rank3/snapshot_step_final.pickle", false, false, false},
		{"rank4/snapshot_step_000100.pickle", false, false, false},
		{"rank3/snapshot_step_000100.pickle.gz", false, false, false},
		{"gpu_logs/node-1/nvidia-smi-20240501-120000.csv", false, false, true},
		{"gpu_logs/node-10/nvidia-smi.csv", false, false, false},
	} {
		if got := [3]bool{k.snapshot(tt.path), k.oomSnapshot(tt.path), k.gpuLog(tt.path)}; got != [3]bool{tt.snap, tt.oom, tt.gpu} {
			t.Errorf("%s: snapshot, OOM snapshot, GPU log = %v, want %v", tt.path, got, [3]bool{tt.snap, tt.oom, tt.gpu})
		}
	}
}

// TestCaptureFromManifests: what the manifests themselves say, summed
// over ranks: missing ranks, ranks without an OOM observer or never
// stopped, dump costs, errors (the first few, all counted), problems.
func TestCaptureFromManifests(t *testing.T) {
	stopped := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	var errs []string
	for i := range maxCaptureErrors + 2 {
		errs = append(errs, fmt.Sprintf("dump %d failed", i))
	}
	run := &ingest.Run{Dir: "run", Captures: []*ingest.CaptureManifest{
		{Path: "rank0/gpureport-capture.json", Rank: 0, WorldSize: 4, KitVersion: "0.1.0", Stopped: stopped,
			Torch:     ingest.CaptureTorch{Version: "2.3.1", CUDA: "12.1"},
			Settings:  ingest.CaptureSettings{Every: 50, MaxEntries: 20000, Stacks: "all", OOMSnapshot: true},
			Recording: map[string]string{"oom_observer": "unavailable"},
			Dumps:     ingest.CaptureDumps{Count: 2, Bytes: 3000, TraceEntries: 20000, GatherMax: time.Second, WriteMax: 2 * time.Second},
			OOMs:      []ingest.CaptureOOM{{Step: 3, Snapshot: "rank0/snapshot_oom_step_000003.pickle"}, {Step: 3}}},
		{Path: "rank2/gpureport-capture.json", Rank: 2, WorldSize: 4, KitVersion: "0.1.0",
			Torch:    ingest.CaptureTorch{Version: "2.4.0", CUDA: "12.1"},
			Settings: ingest.CaptureSettings{OOMSnapshot: true},
			Dumps:    ingest.CaptureDumps{Count: 1, Bytes: 6000, TraceEntries: -1, GatherMax: 3 * time.Second},
			Errors:   errs, Problems: []string{"pid: not a number"}},
	}}
	got := captureFindings(placement.Place(run), &Findings{})
	want := &Capture{
		Manifests:   []string{"rank0/gpureport-capture.json", "rank2/gpureport-capture.json"},
		KitVersions: []string{"0.1.0"}, TorchVersions: []string{"2.3.1", "2.4.0"}, CUDAVersions: []string{"12.1"},
		WorldSize: 4, Ranks: []int{0, 2}, MissingRanks: []int{1, 3},
		Every: 50, MaxEntries: 20000, Stacks: "all",
		OOMs: 2, OOMsWithoutSnapshot: 1, NoObserver: []int{0}, Unstopped: []int{2},
		GatherMax: 3 * time.Second, WriteMax: 2 * time.Second, TraceEntries: 20000, DumpBytes: 3000,
		ErrorCount: maxCaptureErrors + 2, Errors: []CaptureError{{2, "dump 0 failed"}, {2, "dump 1 failed"}, {2, "dump 2 failed"},
			{2, "dump 3 failed"}, {2, "dump 4 failed"}},
		Problems: []string{"rank2/gpureport-capture.json: pid: not a number"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("capture (-want +got):\n%s", d)
	}
	if captureFindings(placement.Place(&ingest.Run{}), &Findings{}) != nil {
		t.Errorf("a run without manifests has a capture")
	}
}
