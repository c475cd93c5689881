package placement_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
	"gpureport/placement"
)

// TestPlaceRunLayouts lays out the runs that common trainers write, with
// a small real snapshot (1 KB) copied into a temporary folder under each
// name (links to one file would be read once), and checks
// what ingest.Load reads from the names (step, rank, order and phase) and
// the ranks Place decides.
func TestPlaceRunLayouts(t *testing.T) {
	real := testutil.RealFiles(t, "snapshots", "tiny_2dev_expandable_maxsplit128.pickle")[0]
	type want struct {
		step  int64
		rank  int
		kind  ingest.OrderKind
		order int64
		phase ingest.Phase
	}
	tests := []struct {
		name  string
		files map[string]want
	}{
		{"torchtitan", map[string]want{
			"outputs/memory_snapshot/iteration_10/rank0_memory_snapshot.pickle":      {10, 0, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"outputs/memory_snapshot/iteration_10/rank1_memory_snapshot.pickle":      {10, 1, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"outputs/memory_snapshot/iteration_20/rank0_memory_snapshot.pickle":      {20, 0, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"outputs/memory_snapshot/iteration_20/rank1_memory_snapshot.pickle":      {20, 1, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"outputs/memory_snapshot/iteration_24_exit/rank0_memory_snapshot.pickle": {24, 0, ingest.OrderNone, 0, ingest.PhaseOOM},
			"outputs/memory_snapshot/iteration_24_exit/rank1_memory_snapshot.pickle": {24, 1, ingest.OrderNone, 0, ingest.PhaseOOM},
		}},
		{"rank folders rankN", map[string]want{
			"rank0/snapshot_step_5.pickle": {5, 0, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"rank3/snapshot_step_5.pickle": {5, 3, ingest.OrderNone, 0, ingest.PhasePeriodic},
		}},
		// Local ranks on two nodes: Place numbers the four ranks as global
		// ranks (ranks.go).
		{"local rank folders on two nodes", map[string]want{
			"node0/rank0/snapshot_step_5.pickle":  {5, 0, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"node0/rank0/snapshot_step_10.pickle": {10, 0, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"node0/rank1/snapshot_step_5.pickle":  {5, 1, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"node0/rank1/snapshot_step_10.pickle": {10, 1, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"node1/rank0/snapshot_step_5.pickle":  {5, 2, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"node1/rank0/snapshot_step_10.pickle": {10, 2, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"node1/rank1/snapshot_step_5.pickle":  {5, 3, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"node1/rank1/snapshot_step_10.pickle": {10, 3, ingest.OrderNone, 0, ingest.PhasePeriodic},
		}},
		{"rank folders rN", map[string]want{
			"r0/snapshot_step_5.pickle": {5, 0, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"r3/snapshot_step_5.pickle": {5, 3, ingest.OrderNone, 0, ingest.PhasePeriodic},
		}},
		{"rank folders local_rank_N", map[string]want{
			"local_rank_0/snapshot_step_5.pickle": {5, 0, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"local_rank_3/snapshot_step_5.pickle": {5, 3, ingest.OrderNone, 0, ingest.PhasePeriodic},
		}},
		{"step in folder names", map[string]want{
			"snapshots/step_100/snap.pickle": {100, input.NoRank, ingest.OrderNone, 0, ingest.PhasePeriodic},
			"snapshots/iter-200/snap.pickle": {200, input.NoRank, ingest.OrderNone, 0, ingest.PhasePeriodic},
		}},
		{"index names", map[string]want{
			"mem_snapshot_3.pkl":  {input.NoStep, input.NoRank, ingest.OrderIndex, 3, ingest.PhasePeriodic},
			"mem_snapshot_10.pkl": {input.NoStep, input.NoRank, ingest.OrderIndex, 10, ingest.PhasePeriodic},
		}},
		{"epoch names", map[string]want{
			"snapshot_epoch4.pickle": {input.NoStep, input.NoRank, ingest.OrderEpoch, 4, ingest.PhasePeriodic},
			"snapshot_epoch5.pickle": {input.NoStep, input.NoRank, ingest.OrderEpoch, 5, ingest.PhasePeriodic},
		}},
		{"timestamp names", map[string]want{
			"snapshot_1700000000.pickle":      {input.NoStep, input.NoRank, ingest.OrderTimestamp, 1700000000e9, ingest.PhasePeriodic},
			"snapshot_20231114_221320.pickle": {input.NoStep, input.NoRank, ingest.OrderTimestamp, 1700000000e9, ingest.PhasePeriodic},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				testutil.CopyFile(t, real, p, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			}
			read, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			run := placement.Place(read)
			if len(run.Snapshots) != len(tt.files) || len(run.Skipped) != 0 {
				t.Fatalf("%d snapshots, skipped %v; want %d", len(run.Snapshots), run.Skipped, len(tt.files))
			}
			var seen []string
			for _, f := range run.Snapshots {
				w, ok := tt.files[f.Path]
				if !ok {
					t.Errorf("unexpected %s", f.Path)
					continue
				}
				seen = append(seen, f.Path)
				got := want{f.Step, f.Rank, f.OrderKind, f.Order, f.Phase}
				if w.kind == ingest.OrderNone {
					got.order = 0
				}
				if got != w {
					t.Errorf("%s: got %+v, want %+v", f.Path, got, w)
				}
			}
			slices.Sort(seen)
			if len(slices.Compact(seen)) != len(tt.files) {
				t.Errorf("read %s", strings.Join(seen, ", "))
			}
		})
	}
}

// TestPlaceGPULogs builds a run directory of GPU logs only (no snapshots)
// beside files that merely look like logs, and checks what ingest.Load
// reads (logs by content whatever their names, the rest left alone) and
// that Place joins compute-apps rows to GPU indexes through the query
// log's UUIDs.
func TestPlaceGPULogs(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		testutil.WriteFile(t, filepath.Join(dir, rel), []byte(content))
	}
	write("logs/gpu.csv", "timestamp, index, uuid, memory.used [MiB], memory.total [MiB]\n"+
		"2024/03/01 10:00:00.000, 0, GPU-a, 100 MiB, 1000 MiB\n2024/03/01 10:00:00.000, 1, GPU-b, 200 MiB, 1000 MiB\n")
	write("logs/apps.txt", "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\n"+
		"2024/03/01 10:00:00.000, GPU-b, 42, python, 150 MiB\n2024/03/01 10:00:00.000, GPU-z, 43, other, 1 MiB\n")
	write("stats.jsonl", `{"step": 1, "allocated_bytes.all.current": 5, "reserved_bytes.all.current": 8}`+"\n")
	write("train.log", "Epoch 1/10\nstep 100 loss 0.35\n")
	write("config.yaml", "lr: 3e-4\n")
	write("README.md", "# run 42\n")
	write("metrics.csv", "step,loss\n1,0.5\n")
	real := testutil.RealFiles(t, "nvidia-smi", "a100_driver555_four_samples.log")[0]
	b, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	write("nvidia-smi-loop.out", string(b))

	read, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	run := placement.Place(read)
	if len(run.Snapshots) != 0 || len(run.Logs) != 4 {
		t.Fatalf("%d snapshots, %d logs; want 0 and 4", len(run.Snapshots), len(run.Logs))
	}
	want := map[string]gpulog.LogFormat{
		"logs/apps.txt":       gpulog.FormatComputeAppsCSV,
		"logs/gpu.csv":        gpulog.FormatQueryCSV,
		"nvidia-smi-loop.out": gpulog.FormatTable,
		"stats.jsonl":         gpulog.FormatMemoryStats,
	}
	for _, l := range run.Logs {
		if want[l.Path] != l.Format {
			t.Errorf("%s read as %q, want %q", l.Path, l.Format, want[l.Path])
		}
		if l.Path == "logs/apps.txt" {
			if l.Processes[0].GPU != 1 || l.Processes[1].GPU != -1 {
				t.Errorf("processes %+v: want GPU-b joined to index 1, GPU-z unknown", l.Processes)
			}
		}
		if l.Bytes == 0 || l.ModTime.IsZero() {
			t.Errorf("%s: source %+v", l.Path, l.Source)
		}
	}
	// metrics.csv and train.log promise a log by their extensions but are
	// none: listed as skipped with the reason; the others are ignored.
	if len(run.Skipped) != 2 || run.Skipped[0].Path != "metrics.csv" || run.Skipped[1].Path != "train.log" {
		t.Errorf("skipped %+v, want metrics.csv and train.log", run.Skipped)
	}
}
