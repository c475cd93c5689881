package ingest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/gpulog"
	"gpureport/internal/testutil"
)

// TestDiscoverKeepsWalkOrder classifies a folder of many files of every
// kind (snapshots in nested folders, GPU logs, files whose extension
// promises a snapshot they do not hold, files of no interest, a link to a
// snapshot, a previous report) and compares what discover finds, sniffing
// several files at once, with the walk classified one file at a time:
// the candidates and the skipped files must be the same, in the same
// order.
func TestDiscoverKeepsWalkOrder(t *testing.T) {
	root := testutil.RepoRoot(t)
	snap := testutil.SampleSnapshots(t, 1)[0]
	log := filepath.Join(root, "testdata", "sample-run", "nvidia-smi.csv")
	dir := t.TempDir()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 24 {
		sub := filepath.Join(dir, fmt.Sprintf("rank_%d", i%3))
		switch i % 4 {
		case 0:
			testutil.CopyFile(t, snap, filepath.Join(sub, fmt.Sprintf("snapshot_step_%d.pickle", i)), at)
		case 1:
			testutil.CopyFile(t, log, filepath.Join(sub, fmt.Sprintf("gpu_%d.csv", i)), at)
		case 2:
			testutil.WriteFile(t, filepath.Join(sub, fmt.Sprintf("broken_%d.pkl", i)), []byte(fmt.Sprintf("not a pickle %d", i)))
		default:
			testutil.WriteFile(t, filepath.Join(sub, fmt.Sprintf("notes_%d.txt", i)), []byte("lr 3e-4\n"))
		}
	}
	testutil.WriteFile(t, filepath.Join(dir, "empty.pkl"), nil)
	testutil.CopyFile(t, snap, filepath.Join(dir, OutputDirName, "old.pickle"), at)
	if err := os.Symlink(filepath.Join(dir, "rank_0", "snapshot_step_0.pickle"), filepath.Join(dir, "linked.pickle")); err != nil {
		t.Fatal(err)
	}

	cands, skipped, err := discover(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same walk, one file at a time.
	var wantCands []Candidate
	var wantSkipped []Skipped
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && isReportDir(p, d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		rel := relPath(dir, p)
		c, reason, ok := classify(p, rel, nil)
		switch {
		case ok:
			wantCands = append(wantCands, c)
		case reason != "":
			wantSkipped = append(wantSkipped, Skipped{Path: rel, Reason: reason})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(wantCands) != 13 || len(wantSkipped) != 13 {
		t.Fatalf("the one-at-a-time walk found %d candidates and %d skipped files, want 13 each", len(wantCands), len(wantSkipped))
	}
	if diff := cmp.Diff(wantCands, cands, cmp.AllowUnexported(Candidate{})); diff != "" {
		t.Errorf("candidates differ from the walk's, one file at a time (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
		t.Errorf("skipped files differ from the walk's, one file at a time (-want +got):\n%s", diff)
	}
}

// TestDiscoverTrainingLogEncodings: a job's log holding an OOM message is
// a training log when written as UTF-16 with a byte order mark (Windows
// PowerShell's redirection), as JSON-lines logger records (train.jsonl),
// or as torchelastic's error.json; a JSON-lines data set or a JSON
// configuration quoting the message is not.
func TestDiscoverTrainingLogEncodings(t *testing.T) {
	const msg = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
		"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated."
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "step 1 loss 2.3\r\n" + msg + "\r\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	escaped := strings.ReplaceAll(msg, `"`, `\"`)
	files := map[string]string{
		"win/train.log":                  string(utf16),
		"json/train.jsonl":               `{"ts": "2024-05-01T12:00:00Z", "level": "INFO", "msg": "step 0"}` + "\n" + `{"level": "ERROR", "msg": "failed", "exc_info": "Traceback (most recent call last):\n` + escaped + `"}` + "\n",
		"elastic/attempt_0/3/error.json": `{"message": {"message": "` + escaped + `", "extraInfo": {"py_callstack": "Traceback", "timestamp": "1714564806"}}}`,
		"data/corpus.jsonl":              `{"text": "` + escaped + `"}` + "\n",
		"conf/config.json":               `{"level": "debug", "message": "` + escaped + `"}`,
	}
	want := map[string]bool{"win/train.log": true, "json/train.jsonl": true, "elastic/attempt_0/3/error.json": true}
	dir := t.TempDir()
	for rel, content := range files {
		testutil.WriteFile(t, filepath.Join(dir, rel), []byte(content))
	}
	cands, _, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range cands {
		if c.Kind == KindLog && c.Log == gpulog.FormatTrainingLog {
			got[c.Rel] = true
		}
	}
	for rel := range files {
		if got[rel] != want[rel] {
			t.Errorf("%s: training log %v, want %v", rel, got[rel], want[rel])
		}
	}
	run, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range run.Logs {
		if len(l.OOMs) != 1 || l.OOMs[0].Requested != 2<<30 || l.OOMs[0].Free != 1320702443 {
			t.Errorf("%s: OOMs %+v, want the one message", l.Path, l.OOMs)
		}
	}
}
