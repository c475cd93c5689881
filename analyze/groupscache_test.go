package analyze

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/analyze/frames"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestGroupSumsCheckpointInCache reports a growing copy of the sample run
// through a digest cache, with every file's groups entry removed before
// each run: a run must make again the entries of the files after the
// group sums' checkpoint only (a run with one more file: one; the same
// files: none), and all of them when a file changed or was removed
// before the end (its chain then has no checkpoint). Every run's groups,
// suspects and leak sites must equal a report of the same files without
// a cache.
func TestGroupSumsCheckpointInCache(t *testing.T) {
	names := testutil.SampleSnapshots(t, 10)
	dir := t.TempDir()
	cacheDir := t.TempDir()
	cache := &ingest.DigestCache{Dir: cacheDir}
	put := func(from, to string, mtime time.Time) {
		t.Helper()
		testutil.CopyFile(t, from, filepath.Join(dir, filepath.Base(to)), mtime)
	}
	at := func(i int) time.Time { return time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC) }
	for i, n := range names[:9] {
		put(n, n, at(i))
	}
	analyzeWith := func(c *ingest.DigestCache) *Findings {
		t.Helper()
		run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		return Analyze(run, Options{SideVersion: "test-1"})
	}
	for _, c := range []struct {
		name   string
		change func()
		made   int // files' groups entries made again
	}{
		{"first run", func() {}, 9},
		{"one more file", func() { put(names[9], names[9], at(9)) }, 1},
		{"the same files", func() {}, 0},
		{"a file changed before the end", func() { put(names[3], names[2], at(20)) }, 10},
		{"the same files again", func() {}, 0},
		{"a file removed", func() { os.Remove(filepath.Join(dir, filepath.Base(names[4]))) }, 9},
	} {
		c.change()
		for _, r := range sideFiles(t, cacheDir, "groups") {
			if err := cache.RemoveSide(r.Key, r.Kind); err != nil {
				t.Fatal(err)
			}
		}
		got := analyzeWith(cache)
		if n := len(sideFiles(t, cacheDir, "groups")); n != c.made {
			t.Errorf("%s: %d files' groups entries made again, want %d", c.name, n, c.made)
		}
		want := analyzeWith(nil)
		if len(want.Devices) == 0 || len(want.Devices[0].Groups) == 0 {
			t.Fatalf("%s: no groups to compare", c.name)
		}
		for i, d := range got.Devices {
			w := want.Devices[i]
			for what, pair := range map[string][2]any{
				"groups": {w.Groups, d.Groups}, "suspects": {w.Suspects, d.Suspects}, "leak sites": {w.LeakSites, d.LeakSites},
			} {
				if diff := cmp.Diff(pair[0], pair[1], cmp.AllowUnexported(Trend{})); diff != "" {
					t.Errorf("%s: device %d's %s differ from a report without a cache (-fresh +cached):\n%s", c.name, i, what, diff)
				}
			}
		}
	}
}

// checkpointOf reports the sample run through a fresh cache and returns
// its files in the series' order and the encoded group sums of device 0
// the run kept, the checkpoint of all its files.
func checkpointOf(tb testing.TB) ([]*ingest.SnapshotFile, []byte) {
	tb.Helper()
	dir := filepath.Join(testutil.RepoRoot(tb), "testdata", "sample-run")
	cache := &ingest.DigestCache{Dir: tb.TempDir()}
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: cache})
	if err != nil {
		tb.Fatal(err)
	}
	Analyze(run, Options{SideVersion: "test-1"})
	series := orderSeries(run.Snapshots, nil)
	if len(series) != 1 {
		tb.Fatalf("%d series in the sample run, want 1", len(series))
	}
	files := series[0].Files
	ck := newGroupsCheckpoint(files, series[0].DeviceKey, "test-1")
	b, ok := files[len(files)-1].Side(ck.kind(len(files)))
	if !ok {
		tb.Fatal("the sample run kept no group sums")
	}
	return files, b
}

// TestDecodeGroupSums reads the sample run's group sums back (encoding
// them again gives the same bytes) and refuses what is cut short, has
// bytes after its last group, counts files other than those given, has a
// group whose peak point is past the files, repeats a group, or names a
// stack a file's table does not hold; a refusal leaves the points' sums
// as they were.
func TestDecodeGroupSums(t *testing.T) {
	files, b := checkpointOf(t)
	n := len(files)
	decode := func(data []byte, files []*ingest.SnapshotFile) (groupSums, *seriesGroups, bool) {
		sg := &seriesGroups{noStack: make([]int64, n), liveAll: make([]int64, n)}
		for i := range sg.liveAll {
			sg.liveAll[i] = -1
		}
		sums, ok := decodeGroupSums(data, files, frames.NewStackMemo[*Signature](), sg)
		return sums, sg, ok
	}
	sums, sg, ok := decode(b, files)
	if !ok || len(sums.order) == 0 {
		t.Fatalf("the sample run's group sums do not read back (%v, %d groups)", ok, len(sums.order))
	}
	if again := encodeGroupSums(sums, sg, n); !bytes.Equal(again, b) {
		t.Fatalf("the group sums read back encode to %d other bytes", len(again))
	}
	if sg.liveAll[n-1] <= 0 {
		t.Fatalf("the last point's live bytes read as %d", sg.liveAll[n-1])
	}
	refused := func(name string, data []byte, files []*ingest.SnapshotFile) {
		t.Helper()
		_, sg, ok := decode(data, files)
		if ok {
			t.Errorf("%s: read", name)
		}
		if sg.liveAll[0] != -1 {
			t.Errorf("%s: refused, but the points' sums were changed", name)
		}
	}
	for i := range len(b) {
		refused("cut", b[:i], files)
	}
	refused("a byte after the last group", append(bytes.Clone(b), 0), files)
	refused("fewer files than counted", b, files[:n-1])
	// A one-group entry of the first group, then with its peak point or
	// its stacks changed, and repeated.
	first := sums.byKey[sums.order[0]]
	one := groupSums{byKey: map[string]*groupSeries{"a": first}, order: []string{"a"}}
	if _, _, ok := decode(encodeGroupSums(one, sg, n), files); !ok {
		t.Fatal("a one-group entry does not read")
	}
	for _, c := range []struct {
		name   string
		change func(*groupSeries)
	}{
		{"a peak point past the files", func(a *groupSeries) { a.peakAt = n }},
		{"a first stack past the table", func(a *groupSeries) { a.firstStack = 1 << 30 }},
		{"a representative stack past the table", func(a *groupSeries) { a.at = &groupAcc{rep: 1 << 30} }},
		{"a first file past the files", func(a *groupSeries) { a.firstFile = n }},
	} {
		g := *first
		c.change(&g)
		refused(c.name, encodeGroupSums(groupSums{byKey: map[string]*groupSeries{"a": &g}, order: []string{"a"}}, sg, n), files)
	}
	two := groupSums{byKey: map[string]*groupSeries{"a": first, "b": first}, order: []string{"a", "b"}}
	refused("a group twice", encodeGroupSums(two, sg, n), files)
	refused("another format", append([]byte{groupSumsFormat + 1}, b[1:]...), files)
}

// FuzzDecodeGroupSums feeds arbitrary bytes, seeded with the sample run's
// group sums, to the checkpoint's reader: it must never panic, and sums
// it reads must encode to bytes that read back as the same sums.
func FuzzDecodeGroupSums(f *testing.F) {
	files, b := checkpointOf(f)
	f.Add(b)
	n := len(files)
	memo := frames.NewStackMemo[*Signature]()
	f.Fuzz(func(t *testing.T, data []byte) {
		sg := &seriesGroups{noStack: make([]int64, n), liveAll: make([]int64, n)}
		sums, ok := decodeGroupSums(data, files, memo, sg)
		if !ok {
			return
		}
		enc := encodeGroupSums(sums, sg, n)
		sg2 := &seriesGroups{noStack: make([]int64, n), liveAll: make([]int64, n)}
		again, ok := decodeGroupSums(enc, files, memo, sg2)
		if !ok || !bytes.Equal(encodeGroupSums(again, sg2, n), enc) {
			t.Fatalf("% x read, encoded as % x, does not read back the same", data, enc)
		}
	})
}
