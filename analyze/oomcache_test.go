package analyze

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/ingest"
	"gpureport/internal/gen/train"
)

// writeOOMCopies writes n distinct copies of a small generated snapshot
// whose trace keeps two caught OOM events (so every copy holds them, and
// the first explains them), and returns their paths.
func writeOOMCopies(t *testing.T, dir string, n int) []string {
	t.Helper()
	var buf bytes.Buffer
	res, err := train.WriteShape(&buf, train.Shape{Tensors: 400, Events: 2000, Stacks: 200, OOMs: 2, PythonDepth: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range n {
		data := bytes.Clone(buf.Bytes())
		res.SetVariant(data, i)
		p := filepath.Join(dir, fmt.Sprintf("snapshot_step_%06d.pickle", 10*(i+1)))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestOOMExplainedFromCache checks that an OOM's explanation kept beside
// its file's digest explains it on a later run as the full decode did,
// without the file: once the file the OOMs are explained from no longer
// matches its digest (a full decode of it fails), a run of the same
// SideVersion still explains them, the same in every field, and a run of
// another version (a changed analysis) does not read them.
func TestOOMExplainedFromCache(t *testing.T) {
	dir := t.TempDir()
	paths := writeOOMCopies(t, dir, 3)
	cache := &ingest.DigestCache{Dir: t.TempDir()}
	load := func() *ingest.Run {
		t.Helper()
		run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 1, Digest: true, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	opt := Options{SideVersion: "test-1"}
	first := Analyze(load(), opt)
	if len(first.OOMs) != 2 {
		t.Fatalf("%d OOMs explained, want the trace's 2", len(first.OOMs))
	}
	for _, o := range first.OOMs {
		if o.Path != filepath.Base(paths[0]) || o.Roles == nil || len(o.TopLive) == 0 {
			t.Fatalf("OOM explained from %s with roles %v and %d live groups; want the first file's, replayed", o.Path, o.Roles, len(o.TopLive))
		}
	}
	run := load()
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(paths[0], later, later); err != nil {
		t.Fatal(err)
	}
	again := Analyze(run, opt)
	if diff := cmp.Diff(first.OOMs, again.OOMs); diff != "" {
		t.Errorf("OOMs from the cache differ from the full decode's (-decoded +cached):\n%s", diff)
	}
	// (Last: the other version's bundles leave this version's entries
	// out when they are written.)
	if other := Analyze(run, Options{SideVersion: "test-2"}); len(other.OOMs) != 0 {
		t.Errorf("another version explained %d OOMs without the file: it read this version's entries", len(other.OOMs))
	}
	if none := Analyze(run, Options{}); len(none.OOMs) != 0 {
		t.Errorf("no SideVersion explained %d OOMs without the file", len(none.OOMs))
	}
}

// TestCachedRunFollowsItsFiles checks that a run reported through the
// digest cache follows its files, not the cache: after one file is
// replaced by another snapshot and another file is removed, the next
// report over the same cache reads the replaced file's new content and
// leaves the removed one out, exactly as a report without a cache does.
func TestCachedRunFollowsItsFiles(t *testing.T) {
	dir := t.TempDir()
	paths := writeOOMCopies(t, dir, 3)
	cache := &ingest.DigestCache{Dir: t.TempDir()}
	analyzeDir := func(c *ingest.DigestCache) *Findings {
		t.Helper()
		run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		return Analyze(run, Options{SideVersion: "test-1"})
	}
	before := analyzeDir(cache)
	if n := len(before.Devices[0].Points); n != 3 {
		t.Fatalf("%d points, want 3", n)
	}
	// Replace the second file with another snapshot (more live memory)
	// and remove the third.
	var buf bytes.Buffer
	if _, err := train.WriteShape(&buf, train.Shape{Tensors: 900, Events: 2000, Stacks: 200, OOMs: 2, PythonDepth: 1, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths[1], buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(paths[2]); err != nil {
		t.Fatal(err)
	}
	after := analyzeDir(cache)
	fresh := analyzeDir(nil)
	pts, want := after.Devices[0].Points, fresh.Devices[0].Points
	if len(pts) != 2 {
		t.Fatalf("%d points after a file was removed, want 2", len(pts))
	}
	if pts[1].Usage == before.Devices[0].Points[1].Usage {
		t.Errorf("the replaced file's point still has its old usage %+v", pts[1].Usage)
	}
	if diff := cmp.Diff(want, pts); diff != "" {
		t.Errorf("points through the cache differ from a report without it (-fresh +cached):\n%s", diff)
	}
	if diff := cmp.Diff(fresh.OOMs, after.OOMs); diff != "" {
		t.Errorf("OOMs through the cache differ from a report without it (-fresh +cached):\n%s", diff)
	}
}
