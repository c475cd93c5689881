package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/ingest"
	"gpureport/ingest/ingesttest"
)

// TestLogFixturesUpToDate regenerates the log fixtures and compares them
// with the committed testdata/logs byte for byte; -update rewrites them.
func TestLogFixturesUpToDate(t *testing.T) {
	committed := filepath.Join(ingesttest.RepoRoot(t), "testdata", "logs")
	if *update {
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
	want := map[string]ingest.LogFormat{
		"epoch_seconds_nounits.csv": ingest.FormatQueryCSV, "epoch_millis.csv": ingest.FormatCSVColumns,
		"elapsed_own_columns.csv": ingest.FormatCSVColumns, "table_then_query_csv.log": ingest.FormatTable,
		"xml_no_timestamp.xml": ingest.FormatXML, "query_no_timestamp.csv": ingest.FormatQueryCSV,
		"power_only_gpu.csv": ingest.FormatCSVColumns, "lightning_torch/metrics.csv": ingest.FormatLightningCSV,
		"lightning_nvsmi/metrics.csv": ingest.FormatLightningCSV, "wandb_system.csv": ingest.FormatWandbCSV,
		"dcgm_metrics.txt": ingest.FormatDCGMProm, "memory_stats_2026.jsonl": ingest.FormatMemoryStats,
		"train_oom.log": ingest.FormatTrainingLog, "train_oom_legacy.log": ingest.FormatTrainingLog,
		"train_nccl_oom.err": ingest.FormatTrainingLog, "train_cuda_error.out": ingest.FormatTrainingLog,
	}
	cands, skipped, err := ingest.Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]ingest.LogFormat{}
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
