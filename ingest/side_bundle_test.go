package ingest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/internal/testutil"
)

// TestSideBundleRoundTrip: a bundle reads back the entries it was written
// with, whatever their order of insertion, and encodes the same entries
// to the same bytes.
func TestSideBundleRoundTrip(t *testing.T) {
	for _, entries := range []map[string][]byte{
		{},
		{"point.v1": {1, 2, 3}},
		{"roles.v1.d0": []byte("roles"), "groups.v1.d0": bytes.Repeat([]byte{7}, 5000), "oom.v1.d0.e3": nil, "point.v1": {}},
	} {
		b := encodeBundle(entries)
		back, err := decodeBundle(b)
		if err != nil {
			t.Fatalf("%v: %v", slices.Sorted(maps.Keys(entries)), err)
		}
		if !maps.EqualFunc(back, entries, bytes.Equal) {
			t.Errorf("read back %v, want %v", back, entries)
		}
		if again := encodeBundle(back); !bytes.Equal(again, b) {
			t.Errorf("%v: encodes again to other bytes", slices.Sorted(maps.Keys(entries)))
		}
	}
}

// TestSideBundleRefused: a bundle that does not read back whole is
// refused as corrupt with the reason, removed, and a miss for every one
// of its entries.
func TestSideBundleRefused(t *testing.T) {
	good := encodeBundle(map[string][]byte{"groups.v1.d0": {1, 2}, "point.v1": {3}})
	reCRC := func(b []byte) []byte {
		b = bytes.Clone(b)
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
		return b
	}
	// body builds a bundle of version from its count and raw entry bytes.
	bodyOf := func(version, count uint64, raw ...string) []byte {
		b := binary.AppendUvarint([]byte(bundleMagic), version)
		b = binary.AppendUvarint(b, count)
		for _, r := range raw {
			b = append(b, r...)
		}
		return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	}
	body := func(count uint64, raw ...string) []byte { return bodyOf(bundleVersion, count, raw...) }
	entry := func(kind, data string) string {
		b := binary.AppendUvarint(nil, uint64(len(kind)))
		b = append(b, kind...)
		b = binary.AppendUvarint(b, uint64(len(data)))
		return string(append(b, data...))
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x20
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"a flipped byte", flipped, "checksum"},
		{"truncated", good[:len(good)-3], "checksum"},
		{"no magic", reCRC(append([]byte("gpureport-side\n!"), good[len(bundleMagic):]...)), "header"},
		{"empty", nil, "header"},
		{"another version", bodyOf(bundleVersion+1, 1, entry("point.v1", "x")), "format version 2, not 1"},
		{"no version", reCRC([]byte(bundleMagic + "\x00\x00\x00\x00")), "format version 0, not 1"},
		{"a count past the bytes", body(50, entry("point.v1", "x")), "entry count"},
		{"an entry missing", body(2, entry("point.v1", "x")), "entry 1: kind length"},
		{"data past the end", body(1, entry("point.v1", "x")[:len(entry("point.v1", "x"))-1]), "entry 0: data length"},
		{"kinds out of order", body(2, entry("point.v1", "x"), entry("groups.v1.d0", "y")), `kind "groups.v1.d0" after "point.v1"`},
		{"a kind twice", body(2, entry("point.v1", "x"), entry("point.v1", "y")), `kind "point.v1" after "point.v1"`},
		{"a kind that names no file", body(1, entry("a/b", "x")), "only a-z"},
		{"bytes after the last entry", body(1, entry("point.v1", "x"), "z"), "1 bytes after the last entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := &DigestCache{Dir: t.TempDir()}
			const key = "ab0123"
			p := cache.bundlePath(key)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tt.b, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := cache.readBundle(key)
			if !errors.Is(err, ErrSideCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("readBundle = %v, %v; want ErrSideCorrupt with %q", got, err, tt.want)
			}
			if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the corrupt bundle was kept: %v", err)
			}
		})
	}
}

// FuzzDecodeBundle feeds decodeBundle arbitrary bytes, seeded with bundles
// of a snapshot's usual entries: it must never panic, must refuse what is
// not well formed with ErrSideCorrupt, and what it accepts must encode
// back to the same bytes.
func FuzzDecodeBundle(f *testing.F) {
	f.Add(encodeBundle(nil))
	f.Add(encodeBundle(map[string][]byte{"point.v1": {1, 0}, "roles.v1.d0": bytes.Repeat([]byte{3}, 190), "groups.v1.d0": bytes.Repeat([]byte{0x81}, 600)}))
	f.Add(encodeBundle(map[string][]byte{"oom.v1.d0.e7": []byte(`{"Requested":1048576}`), "oom.v1.host.e0": nil}))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := decodeBundle(b)
		if err != nil {
			if !errors.Is(err, ErrSideCorrupt) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if back := encodeBundle(entries); !bytes.Equal(back, b) {
			t.Fatalf("accepted bundle encodes back as %q, not %q", back, b)
		}
	})
}

// TestSideBundlesOfARun loads the sample run through a cache, sets side
// entries on its files and checks where they go and come back from:
//   - an entry set is found at once, before anything is written, and
//     WriteSides writes one bundle for each file that had entries set,
//     none for the others, and none the second time;
//   - SetSideAlone writes a file of its own at once;
//   - the next load reads both (the bundle once for all its entries);
//   - a build that sets its entries leaves out another build's when it
//     writes the bundle again;
//   - a corrupt bundle is a miss for all its entries, is removed, and is
//     written again once an entry is set.
func TestSideBundlesOfARun(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")
	cache := &DigestCache{Dir: t.TempDir()}
	load := func() (*Run, []*SnapshotFile) {
		t.Helper()
		run, err := Load(context.Background(), dir, LoadOptions{Jobs: 2, Digest: true, Cache: cache, Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(run.Snapshots, func(a, b *SnapshotFile) int { return strings.Compare(a.Path, b.Path) })
		if len(run.Snapshots) < 3 {
			t.Fatalf("%d snapshots, want 3 or more", len(run.Snapshots))
		}
		return run, run.Snapshots
	}
	bundles := func() []string {
		t.Helper()
		var out []string
		err := filepath.WalkDir(cache.Dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, bundleExt) {
				out = append(out, strings.TrimSuffix(filepath.Base(p), bundleExt))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(out)
		return out
	}
	run, files := load()
	a, b, c := files[0], files[1], files[2]
	a.SetSide("roles.b1.d0", []byte("ra"))
	a.SetSide("groups.b1.d0", []byte("ga"))
	b.SetSide("roles.b1.d0", []byte("rb"))
	c.SetSideAlone("window.b1.d0", []byte("wc"))
	if got, ok := a.Side("roles.b1.d0"); !ok || string(got) != "ra" {
		t.Errorf("a set entry reads %q, %v before the bundle is written", got, ok)
	}
	if got := bundles(); len(got) != 0 {
		t.Errorf("bundles %v written before WriteSides", got)
	}
	if got, err := cache.getAlone(c.DigestKey(), "window.b1.d0"); err != nil || string(got) != "wc" {
		t.Errorf("SetSideAlone's entry: %q, %v", got, err)
	}
	if n := run.WriteSides(); n != 2 {
		t.Errorf("WriteSides wrote %d bundles, want 2", n)
	}
	if want := slices.Sorted(slices.Values([]string{a.DigestKey(), b.DigestKey()})); !slices.Equal(bundles(), want) {
		t.Errorf("bundles %v, want %v", bundles(), want)
	}
	if n := run.WriteSides(); n != 0 {
		t.Errorf("WriteSides wrote %d bundles again with nothing new", n)
	}
	if got, ok := a.Side("groups.b1.d0"); !ok || string(got) != "ga" {
		t.Errorf("after WriteSides, an entry reads %q, %v from the same run", got, ok)
	}

	run, files = load()
	a, b, c = files[0], files[1], files[2]
	for _, tc := range []struct {
		f          *SnapshotFile
		kind, want string
	}{{a, "roles.b1.d0", "ra"}, {a, "groups.b1.d0", "ga"}, {b, "roles.b1.d0", "rb"}, {c, "window.b1.d0", "wc"}} {
		if got, ok := tc.f.Side(tc.kind); !ok || string(got) != tc.want {
			t.Errorf("%s %s: %q, %v after a new load; want %q", filepath.Base(tc.f.Path), tc.kind, got, ok, tc.want)
		}
	}
	if _, ok := c.Side("roles.b1.d0"); ok {
		t.Error("an entry never set is found")
	}

	// Another build writes a's bundle: b1's entries go.
	a.SetSide("roles.b2.d0", []byte("ra2"))
	run.WriteSides()
	entries, err := cache.readBundle(a.DigestKey())
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(entries)); !slices.Equal(got, []string{"roles.b2.d0"}) {
		t.Errorf("a's bundle after build b2 wrote it: %v, want [roles.b2.d0]", got)
	}

	// A corrupt bundle: a miss, removed, and written again.
	p := cache.bundlePath(b.DigestKey())
	if err := os.WriteFile(p, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	run, files = load()
	b = files[1]
	if got, ok := b.Side("roles.b1.d0"); ok {
		t.Errorf("an entry of a corrupt bundle was read: %q", got)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the corrupt bundle was kept: %v", err)
	}
	b.SetSide("roles.b1.d0", []byte("rb2"))
	run.WriteSides()
	if got, err := cache.GetSide(b.DigestKey(), "roles.b1.d0"); err != nil || string(got) != "rb2" {
		t.Errorf("the bundle written again reads %q, %v", got, err)
	}
}

// TestSideEntriesWherever: the cache's own side API finds, replaces and
// removes an entry wherever it is kept (a bundle, or a file of its own),
// and Sides lists both kinds.
func TestSideEntriesWherever(t *testing.T) {
	cache := &DigestCache{Dir: t.TempDir()}
	const key = "cd4567"
	if err := cache.writeBundle(key, map[string][]byte{"groups.v1.d0": {1}, "roles.v1.d0": {2}}); err != nil {
		t.Fatal(err)
	}
	if err := cache.PutSide(key, "window.v1.d0", []byte{3}); err != nil {
		t.Fatal(err)
	}
	want := []SideRef{{key, "groups.v1.d0"}, {key, "roles.v1.d0"}, {key, "window.v1.d0"}}
	if got, err := cache.Sides(); err != nil || !slices.Equal(got, want) {
		t.Errorf("Sides = %v, %v; want %v", got, err, want)
	}
	if _, err := os.Stat(cache.sidePath(key, "window.v1.d0")); err != nil {
		t.Errorf("an entry the bundle does not hold is not in a file of its own: %v", err)
	}
	if err := cache.PutSide(key, "roles.v1.d0", []byte{9}); err != nil {
		t.Fatal(err)
	}
	if entries, err := cache.readBundle(key); err != nil || !bytes.Equal(entries["roles.v1.d0"], []byte{9}) {
		t.Errorf("PutSide of a bundled entry: the bundle holds %v, %v", entries, err)
	}
	for kind, w := range map[string]byte{"groups.v1.d0": 1, "roles.v1.d0": 9, "window.v1.d0": 3} {
		if got, err := cache.GetSide(key, kind); err != nil || !bytes.Equal(got, []byte{w}) {
			t.Errorf("GetSide %s = %v, %v; want [%d]", kind, got, err, w)
		}
	}
	for _, kind := range []string{"groups.v1.d0", "window.v1.d0", "oom.v1.d0.e1"} {
		if err := cache.RemoveSide(key, kind); err != nil {
			t.Fatal(err)
		}
		if _, err := cache.GetSide(key, kind); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("GetSide %s after RemoveSide: %v, want a plain miss", kind, err)
		}
	}
	if got, err := cache.Sides(); err != nil || !slices.Equal(got, []SideRef{{key, "roles.v1.d0"}}) {
		t.Errorf("Sides after removals = %v, %v", got, err)
	}
}

// TestWriteSidesGoesOnPastAFailure: a bundle that cannot be written (its
// path taken by a folder) is left out and the others are written; the
// run's entries are made again next time, never half written.
func TestWriteSidesGoesOnPastAFailure(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")
	cache := &DigestCache{Dir: t.TempDir()}
	run, err := Load(context.Background(), dir, LoadOptions{Jobs: 2, Digest: true, Cache: cache, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Snapshots) < 2 {
		t.Fatalf("%d snapshots, want 2 or more", len(run.Snapshots))
	}
	a, b := run.Snapshots[0], run.Snapshots[1]
	blocked := cache.bundlePath(a.DigestKey())
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	a.SetSide("roles.b1.d0", []byte("ra"))
	b.SetSide("roles.b1.d0", []byte("rb"))
	if n := run.WriteSides(); n != 1 {
		t.Errorf("WriteSides wrote %d bundles, want 1 (the other's path is a folder)", n)
	}
	if got, err := cache.GetSide(b.DigestKey(), "roles.b1.d0"); err != nil || string(got) != "rb" {
		t.Errorf("the bundle that could be written reads %q, %v", got, err)
	}
	if st, err := os.Stat(blocked); err != nil || !st.IsDir() {
		t.Errorf("the folder in the bundle's place: %v, %v", st, err)
	}
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(blocked), ".tmp-*"))
	if len(tmps) != 0 {
		t.Errorf("temporary files left behind: %v", tmps)
	}
}

// BenchmarkSideBundle encodes and reads back the bundle of an ordinary
// snapshot: its point entry (250 bytes), one device's roles (190) and
// stack groups (4.9 KB), the sizes of benchscale's ordinary shape.
func BenchmarkSideBundle(b *testing.B) {
	entries := map[string][]byte{
		"point.v1":     bytes.Repeat([]byte{1}, 250),
		"roles.v1.d0":  bytes.Repeat([]byte{2}, 190),
		"groups.v1.d0": bytes.Repeat([]byte{3}, 4900),
	}
	enc := encodeBundle(entries)
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			encodeBundle(entries)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			if _, err := decodeBundle(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
