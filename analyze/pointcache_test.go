package analyze

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/analyze/frames"
	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/internal/testutil"
	"gpureport/internal/testutil/realsnap"
	"gpureport/snapshot"
)

// sideFiles lists the side entries of kind what ("roles", "groups") in
// cache dir, in bundles or files of their own.
func sideFiles(t *testing.T, dir, what string) []ingest.SideRef {
	t.Helper()
	all, err := (&ingest.DigestCache{Dir: dir}).Sides()
	if err != nil {
		t.Fatal(err)
	}
	var out []ingest.SideRef
	for _, r := range all {
		if strings.HasPrefix(r.Kind, what+".") {
			out = append(out, r)
		}
	}
	return out
}

// TestPointsFromCache reports the sample run (a leak, 14 snapshots)
// through a digest cache three times (making the roles and groups side
// entries, reading them, and reading them after some were corrupted or
// emptied) and without a cache: every device's points, groups, suspects
// and leak sites must be the same each time, the entries must exist after
// the first run, and a corrupt entry must be made again.
func TestPointsFromCache(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")
	cacheDir := t.TempDir()
	analyzeWith := func(c *ingest.DigestCache, version string) *Findings {
		t.Helper()
		run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		return Analyze(run, Options{SideVersion: version})
	}
	fresh := analyzeWith(nil, "")
	if len(fresh.Devices) == 0 || len(fresh.Devices[0].Suspects) == 0 {
		t.Fatalf("the sample run has no leak suspect to compare: %+v", fresh.Devices)
	}
	same := func(name string, got *Findings) {
		t.Helper()
		if len(got.Devices) != len(fresh.Devices) {
			t.Fatalf("%s: %d devices, want %d", name, len(got.Devices), len(fresh.Devices))
		}
		for i, d := range got.Devices {
			w := fresh.Devices[i]
			for what, pair := range map[string][2]any{
				"points": {w.Points, d.Points}, "groups": {w.Groups, d.Groups},
				"suspects": {w.Suspects, d.Suspects}, "leak sites": {w.LeakSites, d.LeakSites},
				"trace window": {w.TraceWindow, d.TraceWindow},
			} {
				if diff := cmp.Diff(pair[0], pair[1], cmp.AllowUnexported(Trend{})); diff != "" {
					t.Errorf("%s: device %d's %s differ from a report without a cache (-fresh +cached):\n%s", name, i, what, diff)
				}
			}
		}
	}
	cache := &ingest.DigestCache{Dir: cacheDir}
	same("first run", analyzeWith(cache, "test-1"))
	groups, rolesEntries := sideFiles(t, cacheDir, "groups"), sideFiles(t, cacheDir, "roles")
	// Every snapshot's groups and roles, the last's too: when the run
	// grows, it is read as the others are, not classified again.
	if n := len(fresh.Devices[0].Points); len(groups) != n || len(rolesEntries) != n {
		t.Fatalf("%d groups and %d roles entries for %d snapshots; want %d each", len(groups), len(rolesEntries), n, n)
	}
	// The last snapshot's decisions and the survival fold's state: one
	// entry each for the one device with snapshots.
	// The group sums' checkpoint too.
	lastRoles, survival := sideFiles(t, cacheDir, "lastroles"), sideFiles(t, cacheDir, "survival")
	window, sums := sideFiles(t, cacheDir, "window"), sideFiles(t, cacheDir, "groupsums")
	if len(lastRoles) != 1 || len(survival) != 1 || len(window) != 1 || len(sums) != 1 {
		t.Fatalf("%d lastroles, %d survival, %d window and %d groupsums entries, want 1 each", len(lastRoles), len(survival), len(window), len(sums))
	}
	if fresh.Devices[0].TraceWindow == nil || fresh.Devices[0].TraceWindow.Peak == nil {
		t.Fatal("the sample run has no trace window to compare")
	}
	if fresh.Devices[0].Suspects[0].Roles == nil {
		t.Fatal("the sample run's suspect has no roles to compare")
	}
	same("from the cache", analyzeWith(cache, "test-1"))

	// Write entries whose payloads are wrong: garbage, an unknown format,
	// a truncated list, a role out of range. The group sums' checkpoint
	// is of another format, so the files' groups entries are read. (A
	// side file or bundle that fails its CRC is ingest's to refuse:
	// TestSideEntries, TestSideBundleRefused.)
	twoDecisions, err := encodeLastRoles(&lastRolesEntry{Breakdown: roles.Breakdown{Allocated: 1}, Decided: []byte{0, 0, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	for p, payload := range map[ingest.SideRef][]byte{
		groups[0]:       []byte("garbage"),
		rolesEntries[0]: []byte("garbage"),
		groups[1]:       {9, 1, 2, 3, 4, 5, 6, 7},
		groups[2]:       {groupsFormat, 3, 1},
		rolesEntries[1]: []byte(`{"Allocated": 1, "Rules": [{"Rule": "x", "Role": 200}]}`),
		// Two decisions for the last snapshot's many blocks (read, then
		// found not to fit its scene: decided afresh, points included),
		// then a state of another format.
		lastRoles[0]: twoDecisions,
		survival[0]:  {survivalFormat + 1, 0, 0, 0, 0},
		window[0]:    []byte(`{"Entries": -1}`),
		sums[0]:      {groupSumsFormat + 1, 0, 0, 0},
	} {
		if err := cache.PutSide(p.Key, p.Kind, payload); err != nil {
			t.Fatal(err)
		}
	}
	same("after corrupt entries", analyzeWith(cache, "test-1"))
	for _, p := range []ingest.SideRef{groups[0], groups[1], groups[2], rolesEntries[0], rolesEntries[1], lastRoles[0], survival[0], window[0], sums[0]} {
		kind := p.Kind
		b, err := cache.GetSide(p.Key, kind)
		if err != nil {
			t.Errorf("%s was not made again: %v", kind, err)
			continue
		}
		if strings.HasPrefix(kind, "groups.") && (len(b) == 0 || b[0] != groupsFormat || len(b) < 8) {
			t.Errorf("%s was not made again: % x", kind, b)
		}
		if strings.HasPrefix(kind, "roles.") && strings.Contains(string(b), `"Role":200`) {
			t.Errorf("%s was not made again: %s", kind, b)
		}
		if strings.HasPrefix(kind, "window.") && strings.Contains(string(b), `"Entries": -1`) {
			t.Errorf("%s was not made again: %s", kind, b)
		}
		if strings.HasPrefix(kind, "lastroles.") && bytes.Equal(b, twoDecisions) {
			t.Errorf("%s was not made again: %s", kind, b)
		}
		if _, ok := decodeSurvival(b); strings.HasPrefix(kind, "survival.") && !ok {
			t.Errorf("%s was not made again: % x", kind, b)
		}
		if strings.HasPrefix(kind, "groupsums.") && (len(b) == 0 || b[0] != groupSumsFormat) {
			t.Errorf("%s was not made again: % x", kind, b)
		}
	}
	// Another build of the analysis reads none of them, and its bundles
	// keep its own entries only: each new build does not add its
	// entries to every bundle for good.
	same("another version", analyzeWith(cache, "test-2"))
	builds := map[string]int{}
	for _, r := range sideFiles(t, cacheDir, "groups") {
		builds[strings.Split(r.Kind, ".")[1]]++
	}
	if want := map[string]int{"test-2": len(groups)}; !maps.Equal(builds, want) {
		t.Errorf("groups entries by build after a second version's run: %v, want %v", builds, want)
	}
}

// TestGroupsEntryRoundTrip encodes groupLive's groups of every device of
// every real snapshot and reads them back through a fresh cache of the
// same table: the groups must be equal, their signatures the ones the
// cache gives; and entries that are cut short, carry a stack the table
// does not hold, repeat a signature or carry bytes after the last group
// must be refused.
func TestGroupsEntryRoundTrip(t *testing.T) {
	checked := 0
	for f, s := range realsnap.Each(t) {
		for _, dev := range s.Devices() {
			memo := frames.NewStackMemo[*Signature]()
			cache := newRunSignatureCache(&s.Stacks, memo)
			gs := groupLive(s, dev, cache)
			b := encodeGroups(gs)
			back, ok := decodeGroups(b, newRunSignatureCache(&s.Stacks, memo))
			if !ok {
				t.Errorf("%s device %d: its own entry (%d bytes) is refused", f, dev, len(b))
				continue
			}
			if len(back) != len(gs) {
				t.Errorf("%s device %d: %d groups read back, want %d", f, dev, len(back), len(gs))
			}
			for k, g := range gs {
				h := back[k]
				if h == nil || !reflect.DeepEqual(*h.sig, *g.sig) {
					t.Errorf("%s device %d: group %q read back as %+v, want signature %+v", f, dev, k, h, *g.sig)
					continue
				}
				// A stack's signature is the memo's, the same pointer;
				// the no-stack group's is each cache's own.
				if g.first != snapshot.NoStack && h.sig != g.sig {
					t.Errorf("%s device %d: group %q's signature is not the memo's", f, dev, k)
				}
				hc, gc := *h, *g
				hc.sig, gc.sig = nil, nil
				if hc != gc {
					t.Errorf("%s device %d: group %q read back as %+v, want %+v", f, dev, k, hc, gc)
				}
			}
			checked++
			if len(gs) == 0 {
				continue
			}
			for name, bad := range map[string][]byte{
				"cut short":    b[:len(b)-1],
				"bytes after":  append(append([]byte{}, b...), 0),
				"no format":    b[1:],
				"large count":  append([]byte{groupsFormat, 0xff, 0xff, 0x03}, b[2:]...),
				"far stack":    append([]byte{groupsFormat, 1}, encodeOne(uint64(s.Stacks.Len()), 1, 1, 0, 1, 0)...),
				"twice":        append([]byte{groupsFormat, 2}, append(encodeOne(1, 1, 1, 1, 1, 0), encodeOne(1, 1, 1, 1, 1, 0)...)...),
				"blocks 0":     append([]byte{groupsFormat, 1}, encodeOne(1, 1, 0, 1, 1, 0)...),
				"empty":        {},
				"format alone": {groupsFormat},
			} {
				if name == "twice" && s.Stacks.Len() < 2 {
					continue
				}
				if _, ok := decodeGroups(bad, newRunSignatureCache(&s.Stacks, memo)); ok {
					t.Errorf("%s device %d: an entry %s is read", f, dev, name)
				}
			}
		}
	}
	if checked == 0 {
		t.Skip("no real snapshot read")
	}
}

// encodeOne encodes one group record as encodeGroups does.
func encodeOne(first uint64, bytes int64, blocks, rep uint64, repBytes, private int64) []byte {
	return encodeGroups(map[string]*groupAcc{"": {first: snapshot.StackID(first), bytes: bytes, blocks: int(blocks), rep: snapshot.StackID(rep), repBytes: repBytes, private: private}})[2:]
}

// FuzzDecodeGroups feeds arbitrary bytes, seeded with the entries of the
// real snapshots' and the sample run's groups, to the groups side entry's
// reader against a real snapshot's table: it must never panic, and what it
// reads must name only stacks of the table, one group a signature, each
// with at least one block, and read back the same once encoded again.
func FuzzDecodeGroups(f *testing.F) {
	var s *snapshot.Snapshot
	for _, d := range realsnap.Each(f, samplePaths(f)...) {
		for _, dev := range d.Devices() {
			f.Add(encodeGroups(groupLive(d, dev, newSignatureCache(&d.Stacks))))
		}
		if s == nil || d.Stacks.Len() > s.Stacks.Len() {
			s = d
		}
	}
	if s == nil {
		f.Skip("no snapshot read")
	}
	memo := frames.NewStackMemo[*Signature]()
	f.Fuzz(func(t *testing.T, data []byte) {
		cache := newRunSignatureCache(&s.Stacks, memo)
		gs, ok := decodeGroups(data, cache)
		if !ok {
			return
		}
		for k, g := range gs {
			if int(g.first) >= s.Stacks.Len() || int(g.rep) >= s.Stacks.Len() || g.blocks < 1 || g.sig == nil || g.sig.Key != k {
				t.Fatalf("read group %q as %+v", k, g)
			}
		}
		// The same groups encode canonically (data may hold longer
		// varints than needed) and read back equal.
		again, ok := decodeGroups(encodeGroups(gs), cache)
		if !ok || len(again) != len(gs) {
			t.Fatalf("% x read as %d groups, which read back as %d (%v)", data, len(gs), len(again), ok)
		}
		for k, g := range gs {
			if h := again[k]; h == nil || *h != *g {
				t.Fatalf("% x: group %q read as %+v, then as %+v", data, k, g, h)
			}
		}
	})
}

// samplePaths returns the bundled sample run's snapshot files.
func samplePaths(tb testing.TB) []string {
	tb.Helper()
	ps, err := filepath.Glob(filepath.Join(testutil.RepoRoot(tb), "testdata", "sample-run", "*.pickle"))
	if err != nil {
		tb.Fatal(err)
	}
	return ps
}

// FuzzDecodeRoles feeds arbitrary bytes, seeded with the sample run's
// roles entries, to the roles side entry's reader: it must never panic,
// a breakdown it reads must have every rule's role and evidence in range
// (its readers index tables by them) and no negative figure, and it must
// read back the same once encoded again.
func FuzzDecodeRoles(f *testing.F) {
	for _, c := range sampleRoles(f) {
		f.Add(encodeBreakdown(&c.bd))
	}
	f.Add(encodeBreakdown(&roles.Breakdown{Allocated: 1, Rules: []roles.RuleShare{{Rule: "x", Role: 1}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		bd, ok := decodeBreakdown(data)
		if !ok {
			return
		}
		for _, rs := range bd.Rules {
			if rs.Role >= roles.NumRoles || rs.Evidence >= roles.NumEvidence || rs.Bytes < 0 || rs.Blocks < 0 {
				t.Fatalf("read rule %+v", rs)
			}
			_ = bd.Share(rs.Role, rs.Evidence)
		}
		if bd.Allocated < 0 {
			t.Fatalf("read %+v", bd)
		}
		if back, ok := decodeBreakdown(encodeBreakdown(&bd)); !ok || !reflect.DeepEqual(back, bd) {
			t.Fatalf("% x read as %+v, which reads back as %+v (%v)", data, bd, back, ok)
		}
	})
}

// FuzzDecodeLastRoles feeds arbitrary bytes, seeded with entries of the
// sample run's first three blocks, to the lastroles side entry's reader:
// it must never panic, an entry it reads must hold pairs of a role and an
// evidence in range (setSuspectRoles indexes tables by them) and a valid
// breakdown, and it must read back the same once encoded again.
func FuzzDecodeLastRoles(f *testing.F) {
	const blocks = 3
	add := func(e lastRolesEntry) {
		b, err := encodeLastRoles(&e)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, c := range sampleRoles(f) {
		e := lastRolesEntry{Breakdown: c.bd}
		for _, d := range c.ds[:min(blocks, len(c.ds))] {
			e.Decided = append(e.Decided, byte(d.Role), byte(d.Evidence))
		}
		add(e)
	}
	add(lastRolesEntry{Breakdown: roles.Breakdown{Allocated: 1}, Decided: []byte{0, 0, 0, 0}})
	add(lastRolesEntry{Breakdown: roles.Breakdown{Allocated: 1}, Decided: []byte{0, 0, 0}})
	f.Add([]byte(`{"Breakdown": {"Allocated": 1}, "Decided": "AAAA"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, ok := decodeLastRoles(data)
		if !ok {
			return
		}
		if len(e.Decided)%2 != 0 || !e.Breakdown.Valid() {
			t.Fatalf("read %+v", e)
		}
		var bytes [roles.NumRoles][roles.NumEvidence]int64
		for i := 0; i < len(e.Decided); i += 2 {
			bytes[e.Decided[i]][e.Decided[i+1]]++
		}
		b, err := encodeLastRoles(&e)
		if err != nil {
			t.Fatal(err)
		}
		if back, ok := decodeLastRoles(b); !ok || !reflect.DeepEqual(back, e) {
			t.Fatalf("% x read as %+v, which reads back as %+v (%v)", data, e, back, ok)
		}
	})
}

// TestBreakdownEntryRoundTrip encodes the roles breakdown of every device
// of every real snapshot and of the sample run, and reads it back: it
// must be equal, and every strict prefix of it refused.
func TestBreakdownEntryRoundTrip(t *testing.T) {
	checked := 0
	for p, s := range realsnap.Each(t, samplePaths(t)...) {
		for _, dev := range s.Devices() {
			_, bd := roles.ClassifySnapshot(s, dev)
			b := encodeBreakdown(&bd)
			back, ok := decodeBreakdown(b)
			if !ok || !reflect.DeepEqual(back, bd) {
				t.Errorf("%s device %d: %+v read back as %+v (%v)", filepath.Base(p), dev, bd, back, ok)
			}
			for n := range len(b) {
				if _, ok := decodeBreakdown(b[:n]); ok {
					t.Errorf("%s device %d: an entry cut to %d of %d bytes was read", filepath.Base(p), dev, n, len(b))
					break
				}
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d breakdowns checked", checked)
	}
}

// classified is one device's roles: its decisions and breakdown.
type classified struct {
	ds []roles.Decision
	bd roles.Breakdown
}

// sampleRoles classifies every device of the sample run's first two
// snapshots: the roles entries' fuzz seeds.
func sampleRoles(tb testing.TB) []classified {
	tb.Helper()
	var out []classified
	for _, p := range samplePaths(tb)[:2] {
		s, _, err := snapshot.DecodeFile(p, snapshot.DecodeOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		for _, dev := range s.Devices() {
			ds, bd := roles.ClassifySnapshot(s, dev)
			out = append(out, classified{ds, bd})
		}
	}
	return out
}

// TestGrowingRunReadsTheLastRoles follows a run that grows by one
// snapshot: the snapshot that was the last is read from its roles entry,
// not classified again. Its entry is replaced by another snapshot's
// breakdown before the second run, which must then show that breakdown
// at its point; every other point is the one a run without a cache
// gives.
func TestGrowingRunReadsTheLastRoles(t *testing.T) {
	names := testutil.SampleSnapshots(t, 5)
	dir := t.TempDir()
	put := func(i int) {
		t.Helper()
		testutil.CopyFile(t, names[i], filepath.Join(dir, filepath.Base(names[i])), time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC))
	}
	cache := &ingest.DigestCache{Dir: t.TempDir()}
	analyzeDir := func(c *ingest.DigestCache) (*ingest.Run, *Findings) {
		t.Helper()
		run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		return run, Analyze(run, Options{SideVersion: "test-1"})
	}
	for i := range 4 {
		put(i)
	}
	run, first := analyzeDir(cache)
	if n := len(first.Devices[0].Points); n != 4 {
		t.Fatalf("%d points, want 4", n)
	}
	// The snapshot that was the last, and the one whose breakdown
	// replaces its entry (the two must differ for the test to tell).
	byName := map[string]*ingest.SnapshotFile{}
	for _, f := range run.Snapshots {
		byName[filepath.Base(f.Path)] = f
	}
	last, other := byName[filepath.Base(names[3])], byName[filepath.Base(names[0])]
	key := DeviceKey{Device: 0}
	planted, ok := cachedRoles(other, key, "test-1")
	if !ok {
		t.Fatal("the first snapshot has no roles entry")
	}
	if was, ok := cachedRoles(last, key, "test-1"); !ok {
		t.Fatal("the last snapshot has no roles entry")
	} else if reflect.DeepEqual(was, planted) {
		t.Fatal("the first and the last snapshot have the same breakdown: the test cannot tell them apart")
	}
	cacheRoles(last, key, "test-1", &planted)
	run.WriteSides()

	put(4)
	_, grown := analyzeDir(cache)
	_, fresh := analyzeDir(nil)
	pts, want := grown.Devices[0].Points, fresh.Devices[0].Points
	if len(pts) != 5 || len(want) != 5 {
		t.Fatalf("%d and %d points, want 5", len(pts), len(want))
	}
	for i := range pts {
		w := want[i].Roles
		if i == 3 {
			w = &planted
		}
		if diff := cmp.Diff(w, pts[i].Roles); diff != "" {
			t.Errorf("point %d's roles (-want +got):\n%s", i, diff)
		}
	}
}

// TestPrepareNewIsTheAnalysis: the entries PrepareNew keeps for the one
// new snapshot of a re-run (its roles, decisions and trace window), made
// while the load reads the other digests, are byte for byte those the
// analysis makes of it without PrepareNew, they are there before the
// analysis starts, and the findings are the same either way.
func TestPrepareNewIsTheAnalysis(t *testing.T) {
	names := testutil.SampleSnapshots(t, 5)
	dir := t.TempDir()
	for i, n := range names {
		testutil.CopyFile(t, n, filepath.Join(dir, filepath.Base(n)), time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC))
	}
	newest := filepath.Join(dir, filepath.Base(names[4]))
	hold := filepath.Join(t.TempDir(), "held")
	if err := os.Rename(newest, hold); err != nil {
		t.Fatal(err)
	}
	const version = "test-1"
	load := func(c *ingest.DigestCache, fresh func(*ingest.SnapshotFile)) *ingest.Run {
		t.Helper()
		run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: c, Fresh: fresh})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	with := &ingest.DigestCache{Dir: t.TempDir()}
	Analyze(load(with, nil), Options{SideVersion: version})
	without := &ingest.DigestCache{Dir: t.TempDir()}
	if err := os.CopyFS(without.Dir, os.DirFS(with.Dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(hold, newest); err != nil {
		t.Fatal(err)
	}

	prepared := 0
	run := load(with, func(f *ingest.SnapshotFile) { prepared++; PrepareNew(f, version) })
	if prepared != 1 {
		t.Fatalf("PrepareNew called %d times, want 1", prepared)
	}
	kinds := []string{"roles", "lastroles", "window"}
	entries := func(run *ingest.Run) map[string][]byte {
		t.Helper()
		for _, f := range run.Snapshots {
			if filepath.Base(f.Path) != filepath.Base(newest) {
				continue
			}
			got := map[string][]byte{}
			for _, k := range kinds {
				if b, ok := sideBytes(f, sideKind(k, version, DeviceKey{Device: 0})); ok {
					got[k] = b
				}
			}
			return got
		}
		t.Fatal("the new snapshot was not loaded")
		return nil
	}
	before := entries(run)
	if len(before) != len(kinds) {
		t.Errorf("after the load, the new snapshot has entries %v, want %q", slices.Sorted(maps.Keys(before)), kinds)
	}
	got := Analyze(run, Options{SideVersion: version})

	plain := load(without, nil)
	want := Analyze(plain, Options{SideVersion: version})
	made := entries(plain)
	for _, k := range kinds {
		if !bytes.Equal(before[k], made[k]) {
			t.Errorf("%s entry: PrepareNew's (%d bytes) differs from the analysis's (%d bytes)", k, len(before[k]), len(made[k]))
		}
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Errorf("findings differ with PrepareNew:\n%s", cmp.Diff(string(wj), string(gj)))
	}
}
