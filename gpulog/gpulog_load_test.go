package gpulog_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/ingest/ingesttest"
)

// TestLoadGPULogs builds a run directory of GPU logs only (no snapshots)
// beside files that merely look like logs, and checks what Load reads:
// logs by content whatever their names, compute-apps rows joined to GPU
// indexes through the query log's UUIDs, and the rest left alone.
func TestLoadGPULogs(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
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
	real := ingesttest.RealFiles(t, "nvidia-smi", "a100_driver555_four_samples.log")[0]
	b, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	write("nvidia-smi-loop.out", string(b))

	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
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
