package testutil

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// update is the -update flag of every test binary that imports this
// package: golden files and generated fixtures are rewritten instead of
// compared.
var update = flag.Bool("update", false, "rewrite golden files and generated fixtures instead of comparing them")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Golden compares got with the golden file at path, or rewrites the file
// (creating its folder) when the test runs with -update. A difference is
// reported whole, as the lines removed and added (go-cmp over the files'
// lines), so one run shows every changed line of every golden file.
func Golden(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		WriteFile(tb, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -run '%s' -update to create it)", err, tb.Name())
	}
	if d := cmp.Diff(strings.SplitAfter(string(want), "\n"), strings.SplitAfter(string(got), "\n")); d != "" {
		tb.Errorf("%s differs from the golden file (-want +got; run go test -run '%s' -update if the change is intended):\n%s", path, tb.Name(), d)
	}
}

// WriteFile writes data to path, creating its folders.
func WriteFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// WriteFiles writes files (slash-separated path under dir -> content)
// under dir, creating their folders.
func WriteFiles(tb testing.TB, dir string, files map[string][]byte) {
	tb.Helper()
	for p, b := range files {
		WriteFile(tb, filepath.Join(dir, filepath.FromSlash(p)), b)
	}
}

// CopyFile copies the file src to dst, creating dst's folders, and sets
// dst's modification time to mtime unless it is zero (a run's files each
// with a time of their own, as a digest cache keys them).
func CopyFile(tb testing.TB, src, dst string, mtime time.Time) {
	tb.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	WriteFile(tb, dst, b)
	if !mtime.IsZero() {
		if err := os.Chtimes(dst, mtime, mtime); err != nil {
			tb.Fatal(err)
		}
	}
}

// SampleSnapshots returns the paths of the first n snapshots of the
// bundled sample run (testdata/sample-run), in step order; the test
// fails when the run has fewer.
func SampleSnapshots(tb testing.TB, n int) []string {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join(RepoRoot(tb), "testdata", "sample-run", "snapshot_step_*.pickle"))
	if err != nil || len(names) < n {
		tb.Fatalf("sample run: %d snapshots, want %d (%v)", len(names), n, err)
	}
	return names[:n]
}
