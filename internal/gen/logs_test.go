package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestLogFixturesUpToDate regenerates the log fixtures and compares them
// with the committed testdata/logs byte for byte; -update rewrites them.
func TestLogFixturesUpToDate(t *testing.T) {
	committed := filepath.Join(testutil.RepoRoot(t), "testdata", "logs")
	if testutil.Update() {
		if err := writeLogFixtures(committed); err != nil {
			t.Fatal(err)
		}
	}
	fresh := t.TempDir()
	if err := writeLogFixtures(fresh); err != nil {
		t.Fatal(err)
	}
	want, got := listFiles(t, fresh), listFiles(t, committed)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("testdata/logs holds %v, the generator writes %v (go test ./internal/gen -run TestLogFixturesUpToDate -update)", got, want)
	}
	for _, f := range want {
		a, _ := os.ReadFile(filepath.Join(fresh, f))
		b, _ := os.ReadFile(filepath.Join(committed, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from what the generator writes (run with -update)", f)
		}
	}
}

// TestLogFixturesDiscovered: discovery finds every fixture by content, as
// the format it imitates (custom_columns.csv only with its column spec).
func TestLogFixturesDiscovered(t *testing.T) {
	dir := t.TempDir()
	if err := writeLogFixtures(dir); err != nil {
		t.Fatal(err)
	}
	want := map[string]gpulog.LogFormat{
		"epoch_seconds_nounits.csv": gpulog.FormatQueryCSV, "epoch_millis.csv": gpulog.FormatCSVColumns,
		"elapsed_own_columns.csv": gpulog.FormatCSVColumns, "table_then_query_csv.log": gpulog.FormatTable,
		"xml_no_timestamp.xml": gpulog.FormatXML, "query_no_timestamp.csv": gpulog.FormatQueryCSV,
		"power_only_gpu.csv": gpulog.FormatCSVColumns, "lightning_torch/metrics.csv": gpulog.FormatLightningCSV,
		"lightning_nvsmi/metrics.csv": gpulog.FormatLightningCSV, "wandb_system.csv": gpulog.FormatWandbCSV,
		"dcgm_metrics.txt": gpulog.FormatDCGMProm, "memory_stats_2026.jsonl": gpulog.FormatMemoryStats,
		"train_oom.log": gpulog.FormatTrainingLog, "train_oom_legacy.log": gpulog.FormatTrainingLog,
		"train_nccl_oom.err": gpulog.FormatTrainingLog, "train_cuda_error.out": gpulog.FormatTrainingLog,
		// Issue 28's classes.
		"train_oom_cached.log": gpulog.FormatTrainingLog, "train_oom_first_line.log": gpulog.FormatTrainingLog,
		"query_noheader_one_gpu.csv": gpulog.FormatQueryCSV, "train_oom_no_index.log": gpulog.FormatTrainingLog,
		"train_nccl_device.err": gpulog.FormatTrainingLog, "train_oom_time_rank.log": gpulog.FormatTrainingLog,
		"table_date_loop.log": gpulog.FormatTable, "memory_used_max.csv": gpulog.FormatCSVColumns,
		"train_oom_rocm_limit.log": gpulog.FormatTrainingLog, "wandb_chart_percent.csv": gpulog.FormatWandbCSV,
		"dcgm_mig_metrics.txt": gpulog.FormatDCGMProm, "composer_memory_monitor.log": gpulog.FormatTrainingLog,
	}
	cands, skipped, err := ingest.Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]gpulog.LogFormat{}
	for _, c := range cands {
		got[c.Rel] = c.Log
	}
	for name, f := range want {
		if got[name] != f {
			t.Errorf("%s discovered as %q, want %q", name, got[name], f)
		}
	}
	if len(skipped) != 1 || skipped[0].Path != "custom_columns.csv" {
		t.Errorf("skipped %+v, want only custom_columns.csv (no spec given)", skipped)
	}
	if len(cands) != len(want) {
		t.Errorf("%d candidates, want %d", len(cands), len(want))
	}
}
