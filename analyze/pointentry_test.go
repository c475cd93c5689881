package analyze

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"gpureport/ingest"
	"gpureport/internal/gen/train"
	"gpureport/internal/testutil"
	"gpureport/internal/testutil/realsnap"
)

// pointRuns returns run folders to analyse through point entries: the
// sample run (a leak), every folder of real snapshots, and generated runs
// of the scenarios whose segments matter most to the entries (pinned
// holes, expandable segments, graph pools, several ranks, releases).
func pointRuns(t *testing.T) map[string]string {
	t.Helper()
	runs := map[string]string{"sample": filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")}
	real := filepath.Join(testutil.RepoRoot(t), "..", "shared", "testdata-real", "snapshots")
	if ents, err := os.ReadDir(real); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				runs["real/"+e.Name()] = filepath.Join(real, e.Name())
			}
		}
	} else {
		t.Logf("no real snapshots: %v", err)
	}
	if !testing.Short() {
		dir := t.TempDir()
		labels, err := train.WriteCorpus(dir, train.CorpusOptions{Seed: 31, PerScenario: 1, Jobs: 2,
			Scenarios: []string{train.ScFrag, train.ScFragOOM, train.ScGraphPool, train.ScMultiRank, train.ScSawtooth}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range labels.Cases {
			runs[c.Scenario] = filepath.Join(dir, c.Name)
		}
	}
	return runs
}

// copyRun copies the files of run folder src into a new folder, each with
// its own modification time (its content key stays its content's), but
// those whose base name skip names.
func copyRun(t *testing.T, src string, skip ...string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || slices.Contains(skip, d.Name()) {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		testutil.CopyFile(t, p, filepath.Join(dst, rel), st.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestPointEntriesStandForSegments reports runs through a digest cache
// whose point entries let the load leave cached files' segments unread,
// and checks every finding against a report of the same run without a
// cache: on the run that makes the entries, on one that reads them, on one
// whose other side entries are gone (so the roles, the groups and the
// survival fold read the blocks of files loaded without them), on one
// whose entries are corrupt, and on the run with a periodic file removed
// (pairs of files no entry measured). It checks that entries are made for
// every snapshot, that a re-run leaves all but the last files' segments
// unread, and that a corrupt entry and a new pair are written again.
func TestPointEntriesStandForSegments(t *testing.T) {
	const version = "test-1"
	kind := PointKind(version)
	for name, src := range pointRuns(t) {
		t.Run(name, func(t *testing.T) {
			dir := copyRun(t, src)
			cache := &ingest.DigestCache{Dir: t.TempDir()}
			load := func(dir string, c *ingest.DigestCache) *ingest.Run {
				t.Helper()
				run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: c, PointKind: kind})
				if err != nil {
					t.Fatal(err)
				}
				return run
			}
			findings := func(run *ingest.Run) *Findings {
				t.Helper()
				return Analyze(run, Options{SideVersion: version})
			}
			want := findings(load(dir, nil))
			same := func(what string, got *Findings) {
				t.Helper()
				if diff := cmp.Diff(want, got, cmpopts.EquateNaNs(), cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
					t.Errorf("%s: findings differ from a report without a cache (-want +got):\n%s", what, diff)
				}
			}
			unread := func(run *ingest.Run) int {
				n := 0
				for _, f := range run.Snapshots {
					if f.SegmentsUnread() {
						n++
					}
				}
				return n
			}

			first := load(dir, cache)
			if n := unread(first); n != 0 {
				t.Fatalf("a first run left %d files' segments unread", n)
			}
			same("first run", findings(first))
			entries := sideFiles(t, cache.Dir, "point")
			withSegments := 0
			for _, f := range first.Snapshots {
				if len(f.Snapshot.Segments) > 0 {
					withSegments++
				}
			}
			if len(entries) != withSegments {
				t.Fatalf("%d point entries for %d snapshots with device segments", len(entries), withSegments)
			}

			again := load(dir, cache)
			if n := unread(again); n < withSegments-len(again.Snapshots)/2-1 || withSegments > 1 && n == 0 {
				t.Errorf("a re-run left %d of %d files' segments unread", n, len(again.Snapshots))
			}
			same("from the entries", findings(again))

			// The roles, groups, trace windows and survival checkpoints gone:
			// the stages read the blocks of the files loaded without them.
			for _, what := range []string{"roles", "lastroles", "groups", "survival", "window"} {
				for _, r := range sideFiles(t, cache.Dir, what) {
					if err := cache.RemoveSide(r.Key, r.Kind); err != nil {
						t.Fatal(err)
					}
				}
			}
			same("without the other side entries", findings(load(dir, cache)))

			if len(entries) > 0 {
				key, k := entries[0].Key, entries[0].Kind
				if err := cache.PutSide(key, k, []byte{pointEntryFormat, 200}); err != nil {
					t.Fatal(err)
				}
				same("after a corrupt entry", findings(load(dir, cache)))
				if b, err := cache.GetSide(key, k); err != nil || bytes.Equal(b, []byte{pointEntryFormat, 200}) {
					t.Errorf("the corrupt entry was not made again: % x, %v", b, err)
				}
			}

			// A periodic file removed from the middle: the file after it
			// is measured against the one before it, which its entry did
			// not measure; the entry is written again with that pair.
			if len(first.Snapshots) >= 3 {
				s := orderSeries(first.Snapshots, nil)[0]
				mid := s.Files[len(s.Files)/2]
				gone := copyRun(t, dir, filepath.Base(mid.Path))
				want = findings(load(gone, nil))
				same("a file removed", findings(load(gone, cache)))
				run := load(gone, cache)
				pts := readPointEntries(run.Snapshots)
				checked, pairs := 0, 0
				for _, s := range orderSeries(run.Snapshots, pts) {
					trend := s.trendIndex()
					for k := 1; k < len(trend); k++ {
						pairs++
						prev, cur := s.Files[trend[k-1]], s.Files[trend[k]]
						if e := pts[cur]; e != nil {
							if p := e.device(s.Device); p != nil {
								checked++
								if p.prev != prev.DigestKey() {
									t.Errorf("%s: the entry measures device %d from %.12s, not from the file before it, %s (%.12s)", cur.Path, s.Device, p.prev, prev.Path, prev.DigestKey())
								}
							}
						}
					}
				}
				if checked == 0 && pairs > 0 {
					t.Error("no pair of files read from the entries")
				}
			}
		})
	}
}

// TestPointEntryRoundTrip encodes the point entry of every device of
// every real snapshot and reads it back equal; the entry cut short at any
// byte, or followed by one more, must be refused.
func TestPointEntryRoundTrip(t *testing.T) {
	n := 0
	for name, s := range realsnap.Each(t) {
		f := &ingest.SnapshotFile{Snapshot: s}
		var e pointEntry
		for _, dev := range segmentDevices(f) {
			e.devices = append(e.devices, pointDevice{dev: dev, sums: segmentSumsOf(s, dev), pools: PoolUsages(s, dev), prev: "k" + name, grown: int64(dev) + 1})
		}
		b := encodePointEntry(&e)
		back, ok := decodePointEntry(b)
		if !ok || !reflect.DeepEqual(*back, e) {
			t.Errorf("%s: the entry reads back %v %+v, want %+v", name, ok, back, e)
			continue
		}
		for i := range len(b) {
			if _, ok := decodePointEntry(b[:i]); ok {
				t.Errorf("%s: the entry cut to %d of %d bytes was read", name, i, len(b))
			}
		}
		if _, ok := decodePointEntry(append(slices.Clip(b), 0)); ok {
			t.Errorf("%s: the entry with a byte after its end was read", name)
		}
		n += len(e.devices)
	}
	if n == 0 {
		t.Fatal("no device with segments in the real snapshots")
	}
}

// FuzzDecodePointEntry reads arbitrary bytes as a point entry: never a
// panic, and what reads encodes to an entry that reads back the same.
func FuzzDecodePointEntry(f *testing.F) {
	for _, s := range realsnap.Each(f) {
		sf := &ingest.SnapshotFile{Snapshot: s}
		var e pointEntry
		for _, dev := range segmentDevices(sf) {
			e.devices = append(e.devices, pointDevice{dev: dev, sums: segmentSumsOf(s, dev), pools: PoolUsages(s, dev)})
		}
		f.Add(encodePointEntry(&e))
	}
	f.Add([]byte{pointEntryFormat, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, ok := decodePointEntry(b)
		if !ok {
			return
		}
		back, ok := decodePointEntry(encodePointEntry(e))
		if !ok || !reflect.DeepEqual(back, e) {
			t.Fatalf("an entry read from % x does not read back: %+v, want %+v", b, back, e)
		}
	})
}
