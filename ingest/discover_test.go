package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
