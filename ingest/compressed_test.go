package ingest_test

import (
	"context"
	"os"
	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestLoadCompressedInputs checks that discovery tells what a gzip file
// holds by the text inside it: a GPU log or a training log is read as
// one, a gzipped snapshot stays a snapshot, and compressed data files are
// not scanned for out-of-memory messages.
func TestLoadCompressedInputs(t *testing.T) {
	real := testutil.RealFiles(t, "snapshots", "tiny_2dev_expandable_maxsplit128.pickle")[0]
	pickle, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	const oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.20 GiB is free.\n"
	dir := t.TempDir()
	files := map[string][]byte{
		"snapshot_step_10.pickle.gz": testutil.Gzip(t, pickle),
		"logs/gpu.csv.gz": testutil.Gzip(t, []byte("timestamp, index, memory.used [MiB], memory.total [MiB]\n"+
			"2025/01/02 03:04:05.000, 0, 1000 MiB, 81559 MiB\n2025/01/02 03:04:06.000, 0, 1100 MiB, 81559 MiB\n")),
		"logs/dmon.log.gz":  testutil.Gzip(t, []byte("# gpu     fb   bar1\n# Idx     MB     MB\n    0   1000      5\n    0   1100      5\n")),
		"logs/train.log.gz": testutil.Gzip(t, []byte("step 1 loss 2.3\n"+oom)),
		// Source and data quote OOM messages; they are no job output.
		"data/errors.json.gz": testutil.Gzip(t, []byte(`{"msg": "`+oom[:len(oom)-1]+`"}`+"\n")),
	}
	testutil.WriteFiles(t, dir, files)
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Snapshots) != 1 || run.Snapshots[0].Step != 10 {
		t.Errorf("snapshots %+v, want the gzipped one at step 10", run.Snapshots)
	}
	got := map[string]gpulog.LogFormat{}
	for _, l := range run.Logs {
		got[l.Path] = l.Format
		if l.Format == gpulog.FormatTrainingLog && len(l.OOMs) != 1 {
			t.Errorf("%s: %d OOMs, want 1", l.Path, len(l.OOMs))
		}
		if l.Format != gpulog.FormatTrainingLog && len(l.Samples) != 2 {
			t.Errorf("%s: %d readings, want 2", l.Path, len(l.Samples))
		}
	}
	want := map[string]gpulog.LogFormat{
		"logs/gpu.csv.gz":   gpulog.FormatQueryCSV,
		"logs/dmon.log.gz":  gpulog.FormatDmon,
		"logs/train.log.gz": gpulog.FormatTrainingLog,
	}
	for p, f := range want {
		if got[p] != f {
			t.Errorf("%s read as %q, want %q", p, got[p], f)
		}
	}
	if len(got) != len(want) {
		t.Errorf("logs %v, want %v", got, want)
	}
	// The JSON file is a gzip file that is nothing gpureport reads; as
	// before, it is listed as skipped, with the reason.
	if len(run.Skipped) != 1 || run.Skipped[0].Path != "data/errors.json.gz" {
		t.Errorf("skipped %+v, want data/errors.json.gz", run.Skipped)
	}
}
