package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gpureport/internal/testutil"
)

// TestDigestReportsIdentical proves that digesting changes how a report is
// made, not what it says: the sample run and the folder of every real
// snapshot are reported with every snapshot kept decoded in full
// (--no-digest, the pre-digest path), as digests without the cache, as
// digests written to a fresh cache, and as digests read back from it; the
// summary.json, summary.md, index.html and report.xlsx of all four are byte-identical
// (SOURCE_DATE_EPOCH pins the report time, the only run-time field).
func TestDigestReportsIdentical(t *testing.T) {
	root := testutil.RepoRoot(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1772442000")
	runs := []struct {
		name string
		dir  string
		args []string
	}{
		{"sample run", filepath.Join(root, "testdata", "sample-run"), []string{"--tz", "UTC"}},
		{"real snapshots", testutil.RealDir(t, "snapshots"), nil},
	}
	modes := []struct {
		name string
		args []string
	}{
		{"full decode", []string{"--no-digest"}},
		{"digest, no cache", []string{"--no-cache"}},
		{"digest, cold cache", nil},
		{"digest, warm cache", nil},
	}
	files := []string{"summary.json", "summary.md", "index.html", "report.xlsx"}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			cacheDir := t.TempDir()
			var want map[string][]byte
			for _, m := range modes {
				out := t.TempDir()
				args := append([]string{"-q", "--cache-dir", cacheDir, "-o", out}, r.args...)
				args = append(append(args, m.args...), r.dir)
				code, stdout, stderr := runCmd(t, args...)
				if code != exitOK {
					t.Fatalf("%s: exit %d\n%s\n%s", m.name, code, stdout, stderr)
				}
				got := map[string][]byte{}
				for _, f := range files {
					got[f] = readFile(t, filepath.Join(out, f))
				}
				if want == nil {
					want = got
					continue
				}
				for _, f := range files {
					if !bytes.Equal(got[f], want[f]) {
						t.Errorf("%s: %s differs from the full decode's (%d bytes, want %d)", m.name, f, len(got[f]), len(want[f]))
					}
				}
			}
			entries, err := filepath.Glob(filepath.Join(cacheDir, "*", "*.digest"))
			if err != nil || len(entries) == 0 {
				t.Errorf("the cache in %s holds no digest (%v)", cacheDir, err)
			}
		})
	}
}

// TestDigestCacheChangedFile checks that a file changed under its name is
// digested again, not served from the cache: a report after one snapshot
// is replaced by another (same name) describes the new content.
func TestDigestCacheChangedFile(t *testing.T) {
	root := testutil.RepoRoot(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1772442000")
	src := filepath.Join(root, "testdata", "sample-run")
	run := t.TempDir()
	names, err := filepath.Glob(filepath.Join(src, "snapshot_step_*.pickle"))
	if err != nil || len(names) < 3 {
		t.Fatalf("sample run: %v, %d snapshots", err, len(names))
	}
	for _, n := range names[:3] {
		copyFile(t, n, filepath.Join(run, filepath.Base(n)))
	}
	cacheDir := t.TempDir()
	report := func(extra ...string) []byte {
		out := t.TempDir()
		args := append([]string{"-q", "--tz", "UTC", "--cache-dir", cacheDir, "-o", out}, extra...)
		code, stdout, stderr := runCmd(t, append(args, run)...)
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		return readFile(t, filepath.Join(out, "summary.json"))
	}
	before := report()
	// Replace the last snapshot's content with a later one's, keeping its
	// name and its modification time: only the sampled bytes tell.
	last := filepath.Join(run, filepath.Base(names[2]))
	st, err := os.Stat(last)
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, names[len(names)-1], last)
	if err := os.Chtimes(last, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	after := report()
	fresh := report("--no-cache")
	if bytes.Equal(before, after) {
		t.Fatal("the report did not change after a snapshot was replaced: a stale digest was served")
	}
	if !bytes.Equal(after, fresh) {
		t.Error("the cached report differs from one that digests every file afresh")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
