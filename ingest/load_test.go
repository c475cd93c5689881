package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
)

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadSkipsBadFilesAndOwnOutput builds a run directory (in a temporary
// folder) from one real snapshot plus broken inputs and a previous report,
// and checks what Load uses and what it lists as skipped.
func TestLoadSkipsBadFilesAndOwnOutput(t *testing.T) {
	real := testutil.RealFiles(t, "snapshots", "cs336_silmont_mem_snapshot_small.pickle")[0]
	dir := t.TempDir()
	copyFile(t, real, filepath.Join(dir, "rank_1", "snapshot_step_5.pickle"))
	copyFile(t, real, filepath.Join(dir, "gpureport", "old_step_1.pickle")) // own output: never read
	write := func(rel, content string) {
		t.Helper()
		testutil.WriteFile(t, filepath.Join(dir, rel), []byte(content))
	}
	write("truncated.pickle", "\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94(")
	write("ints.pkl", "\x80\x04]\x94(K\x01K\x02e.")
	write("notes.pickle", "hello")
	write("config.yaml", "lr: 3e-4\n")
	write("empty.pkl", "")

	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Snapshots) != 1 {
		t.Fatalf("got %d snapshots, want 1", len(run.Snapshots))
	}
	s := run.Snapshots[0]
	if s.Path != "rank_1/snapshot_step_5.pickle" || s.Step != 5 || s.Rank != 1 {
		t.Errorf("snapshot %q step %d rank %d", s.Path, s.Step, s.Rank)
	}
	want := map[string]string{
		"truncated.pickle": "",
		"ints.pkl":         "not a PyTorch memory snapshot",
		"notes.pickle":     "no pickle, gzip, bzip2 or zip signature",
		"empty.pkl":        "empty file",
	}
	if len(run.Skipped) != len(want) {
		t.Errorf("skipped %+v, want %d entries", run.Skipped, len(want))
	}
	for _, sk := range run.Skipped {
		sub, ok := want[sk.Path]
		if !ok {
			t.Errorf("unexpected skip %+v", sk)
			continue
		}
		if sk.Reason == "" || !strings.Contains(sk.Reason, sub) {
			t.Errorf("%s: reason %q, want it to mention %q", sk.Path, sk.Reason, sub)
		}
	}
}

// TestLoadRankFromLogName: per-rank training logs (rank0.log,
// rank_3/train.log) give their OOM messages the rank their path names
// when the lines give none; a rank a line gives wins.
func TestLoadRankFromLogName(t *testing.T) {
	const msg = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
		"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.\n"
	dir := t.TempDir()
	files := map[string]string{
		"rank0.log":         msg,
		"rank_3/train.log":  msg,
		"rank1.log":         "[rank5]: " + msg,
		"logs/train.log":    msg,
		"logs/r2/train.log": msg,
	}
	want := map[string]int{"rank0.log": 0, "rank_3/train.log": 3, "rank1.log": 5, "logs/train.log": input.NoRank, "logs/r2/train.log": 2}
	for rel, content := range files {
		testutil.WriteFile(t, filepath.Join(dir, rel), []byte(content))
	}
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Logs) != len(files) {
		t.Fatalf("%d logs, want %d", len(run.Logs), len(files))
	}
	for _, l := range run.Logs {
		if len(l.OOMs) != 1 || l.OOMs[0].Rank != want[l.Path] || l.OOMs[0].Requested != 2<<30 {
			t.Errorf("%s: OOMs %+v, want one of rank %d", l.Path, l.OOMs, want[l.Path])
		}
	}
}
