package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/ingest"
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
