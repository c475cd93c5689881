package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// TestDigestShards digests a run in two shards and checks that the shards
// split its snapshots between them, that a later whole-run digest finds
// every one cached, and that --clear empties the cache.
func TestDigestShards(t *testing.T) {
	root := testutil.RepoRoot(t)
	names, err := filepath.Glob(filepath.Join(root, "testdata", "sample-run", "snapshot_step_*.pickle"))
	if err != nil || len(names) < 6 {
		t.Fatalf("sample run: %v, %d snapshots", err, len(names))
	}
	run := t.TempDir()
	for _, n := range names[:6] {
		copyFile(t, n, filepath.Join(run, filepath.Base(n)))
	}
	cacheDir := t.TempDir()
	digest := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCmd(t, append([]string{"digest", "-q", "--cache-dir", cacheDir}, args...)...)
		if code != exitOK {
			t.Fatalf("digest %v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		return stdout
	}
	total := 0
	for i := range 2 {
		out := digest("--shard", fmt.Sprintf("%d/2", i), run)
		var files, done, cached, skipped int
		if _, err := fmt.Sscanf(out[strings.Index(out, "shard"):], "shard %d/2: %d snapshots, %d digested, %d already cached, %d skipped",
			new(int), &files, &done, &cached, &skipped); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		if done != files || cached != 0 || skipped != 0 {
			t.Errorf("shard %d: %q", i, out)
		}
		total += files
	}
	if total != 6 {
		t.Errorf("the shards hold %d snapshots, want 6", total)
	}
	if entries, _ := filepath.Glob(filepath.Join(cacheDir, "*", "*.digest")); len(entries) != 6 {
		t.Errorf("%d cache entries, want 6", len(entries))
	}
	if out := digest(run); !strings.Contains(out, "6 snapshots, 0 digested, 6 already cached, 0 skipped") {
		t.Errorf("whole run after the shards: %q", out)
	}
	digest("--clear")
	if entries, _ := filepath.Glob(filepath.Join(cacheDir, "*", "*.digest")); len(entries) != 0 {
		t.Errorf("%d cache entries after --clear", len(entries))
	}
	if code, _, stderr := runCmd(t, "digest", "--shard", "2/2", run); code != exitUsage {
		t.Errorf("--shard 2/2: exit %d, %s", code, stderr)
	}
}
