package ingest

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// indexedLoad loads run folder dir with cache and a clock at now, and
// returns the content key of each snapshot by name and how many keys were
// found from the files' contents rather than the stat index.
func indexedLoad(t *testing.T, dir string, cache *DigestCache, now time.Time) (map[string]string, int) {
	t.Helper()
	opt := LoadOptions{Jobs: 2, Digest: true, Cache: cache, Location: time.UTC, now: func() time.Time { return now }}
	cands, _, err := discover(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dl := newDigestLoader(opt)
	dl.prepare(dir, cands, 2)
	keys := map[string]string{}
	for _, c := range cands {
		keys[c.Source.Path] = dl.keys[c.Path]
	}
	return keys, int(dl.keyed.Load())
}

// TestStatIndexSparesContentKeys: a second load of unchanged files finds
// every content key in the stat index, without reading a file; a file
// replaced by another of the same size and modification time (a new
// inode, as cp and rsync make) is keyed from its content again; a removed
// file leaves the index; an unchanged index is not written again; files
// changed less than racyWindow before the load are never indexed; and an
// index that does not read back is rebuilt.
func TestStatIndexSparesContentKeys(t *testing.T) {
	src := testutil.SampleSnapshots(t, 3)
	dir := t.TempDir()
	names := make([]string, len(src))
	for i, p := range src {
		names[i] = filepath.Base(p)
		testutil.CopyFile(t, p, filepath.Join(dir, names[i]), time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC))
	}
	cache := &DigestCache{Dir: t.TempDir()}
	later := time.Now().Add(time.Hour) // the files have settled by then

	first, keyed := indexedLoad(t, dir, cache, later)
	if keyed != 3 {
		t.Fatalf("first load: %d keys from contents, want 3", keyed)
	}
	for _, n := range names {
		if want, err := ContentKey(filepath.Join(dir, n), n); err != nil || first[n] != want {
			t.Fatalf("%s: key %.12s, want ContentKey's %.12s (%v)", n, first[n], want, err)
		}
	}
	written, err := os.Stat(openStatIndex(cache, dir).path)
	if err != nil {
		t.Fatalf("no index after the first load: %v", err)
	}
	again, keyed := indexedLoad(t, dir, cache, later)
	if keyed != 0 || !reflect.DeepEqual(again, first) {
		t.Fatalf("second load: %d keys from contents (want 0), keys equal: %v", keyed, reflect.DeepEqual(again, first))
	}
	// Nothing changed: the index is not written again.
	if now, err := os.Stat(openStatIndex(cache, dir).path); err != nil || !os.SameFile(now, written) {
		t.Errorf("an unchanged index was written again (%v)", err)
	}

	// names[1] replaced by names[2]'s bytes cut to its size, its mtime kept.
	p := filepath.Join(dir, names[1])
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.ReadFile(src[2])
	if err != nil {
		t.Fatal(err)
	}
	repl := bytes.Repeat([]byte{0}, int(fi.Size()))
	copy(repl, other)
	tmp := filepath.Join(dir, ".repl")
	if err := os.WriteFile(tmp, repl, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	changed, keyed := indexedLoad(t, dir, cache, later)
	if keyed != 1 || changed[names[1]] == first[names[1]] {
		t.Errorf("after replacing %s: %d keys from contents (want 1), key changed: %v", names[1], keyed, changed[names[1]] != first[names[1]])
	}
	if want, _ := ContentKey(p, names[1]); changed[names[1]] != want {
		t.Errorf("%s: key %.12s, want ContentKey's %.12s", names[1], changed[names[1]], want)
	}

	if err := os.Remove(filepath.Join(dir, names[0])); err != nil {
		t.Fatal(err)
	}
	indexedLoad(t, dir, cache, later)
	ix := openStatIndex(cache, dir)
	if got := slices.Sorted(maps.Keys(ix.entries)); !slices.Equal(got, names[1:]) {
		t.Errorf("index after removing %s holds %q, want %q", names[0], got, names[1:])
	}

	// A clock within racyWindow of the files' last change: nothing is
	// indexed, every key comes from the contents.
	fresh := &DigestCache{Dir: t.TempDir()}
	for range 2 {
		if _, keyed := indexedLoad(t, dir, fresh, time.Now()); keyed != 2 {
			t.Errorf("files changed just now: %d keys from contents, want 2", keyed)
		}
	}

	// A corrupt index is ignored and written again.
	if err := os.WriteFile(ix.path, []byte("gpureport-statindex\ngarbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, keyed := indexedLoad(t, dir, cache, later); keyed != 2 {
		t.Errorf("corrupt index: %d keys from contents, want 2", keyed)
	}
	if _, keyed := indexedLoad(t, dir, cache, later); keyed != 0 {
		t.Errorf("after the rebuild: %d keys from contents, want 0", keyed)
	}
}

// TestStatIndexLookup: an entry answers only for the identity it was made
// with, each of whose five numbers a change of the file moves, and only
// once it settled (made more than racyWindow after the file's last
// change and modification).
func TestStatIndexLookup(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC).UnixNano()
	id := fileIdentity{Size: 3475995, MTime: now - int64(time.Hour), CTime: now - int64(time.Hour), Ino: 42, Dev: 2049}
	key := "b18cf22b97fd1599a0a9e86ea7c9d36356c5ed174eba9f435a91118fc9b97c1b"
	ix := &statIndex{entries: map[string]statEntry{"a.pickle": {id: id, recorded: now, key: key}}}
	if got, ok := ix.lookup("a.pickle", id); !ok || got != key {
		t.Fatalf("unchanged file: %q, %v", got, ok)
	}
	for _, c := range []struct {
		what string
		edit func(*fileIdentity)
	}{
		{"size", func(i *fileIdentity) { i.Size++ }},
		{"mtime", func(i *fileIdentity) { i.MTime++ }},
		{"ctime", func(i *fileIdentity) { i.CTime++ }},
		{"inode", func(i *fileIdentity) { i.Ino++ }},
		{"device", func(i *fileIdentity) { i.Dev++ }},
	} {
		changed := id
		c.edit(&changed)
		if _, ok := ix.lookup("a.pickle", changed); ok {
			t.Errorf("%s changed: the entry still answered", c.what)
		}
	}
	if _, ok := ix.lookup("b.pickle", id); ok {
		t.Error("another name: the entry answered")
	}
	for _, c := range []struct {
		ctime, mtime time.Duration // before the entry was made
		settled      bool
	}{
		{time.Hour, time.Hour, true},
		{racyWindow + time.Millisecond, time.Hour, true},
		{racyWindow, time.Hour, false},
		{time.Second, time.Hour, false},
		{time.Hour, time.Second, false},
		{-time.Second, time.Hour, false},
	} {
		e := statEntry{id: fileIdentity{CTime: now - int64(c.ctime), MTime: now - int64(c.mtime)}, recorded: now, key: key}
		if got := e.settled(); got != c.settled {
			t.Errorf("changed %v and modified %v before: settled %v, want %v", c.ctime, c.mtime, got, c.settled)
		}
	}
}

// TestDecodeStatIndexRefuses: what is not an index of this format and
// digest version, whole, is refused.
func TestDecodeStatIndexRefuses(t *testing.T) {
	now := time.Now().UnixNano()
	entries := map[string]statEntry{
		"rank0/step_10.pickle": {id: fileIdentity{Size: 10, MTime: 1, CTime: 2, Ino: 3, Dev: 4}, recorded: now, key: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"},
		"rank1/step_10.pickle": {id: fileIdentity{Size: 11, MTime: -5, CTime: -6e18, Ino: 7, Dev: 4}, recorded: -now, key: "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"},
	}
	good := encodeStatIndex("/runs/run42", entries)
	folder, got, err := decodeStatIndex(good)
	if err != nil || folder != "/runs/run42" || !reflect.DeepEqual(got, entries) {
		t.Fatalf("round trip: %q, %v, %v", folder, got, err)
	}
	magic := len(statIndexMagic)
	for _, c := range []struct {
		what string
		b    []byte
	}{
		{"empty", nil},
		{"wrong magic", reseal(append([]byte("gpureport-side\n"), good[magic-1:]...))},
		{"bad checksum", append(slices.Clone(good[:len(good)-1]), good[len(good)-1]^1)},
		{"truncated", reseal(good[:len(good)-20])},
		{"another format", reseal(slices.Concat(good[:magic], []byte{statIndexFormat + 1}, good[magic+1:]))},
		{"another digest version", reseal(slices.Concat(good[:magic+1], []byte{byte(snapshot.DigestVersion + 1)}, good[magic+2:]))},
		{"trailing bytes", reseal(slices.Concat(good[:len(good)-4], []byte{0}, good[len(good)-4:]))},
		{"a name twice", encodeDuplicate(t, entries)},
	} {
		if _, _, err := decodeStatIndex(c.b); !errors.Is(err, errStatIndex) {
			t.Errorf("%s: %v, want errStatIndex", c.what, err)
		}
	}
}

// encodeDuplicate writes an index whose two entries have one name.
func encodeDuplicate(t *testing.T, entries map[string]statEntry) []byte {
	t.Helper()
	two := map[string]statEntry{}
	for n, e := range entries {
		two[n] = e
	}
	b := encodeStatIndex("/runs/run42", two)
	// Both names are 20 bytes and differ in their fifth-last byte ("0"
	// against "1"): make the second one the first's.
	i := bytes.LastIndex(b, []byte("rank1/step_10.pickle"))
	if i < 0 {
		t.Fatal("no second name")
	}
	b = slices.Clone(b)
	b[i+4] = '0'
	return reseal(b)
}

// reseal replaces the checksum an index ends with by that of its other
// bytes.
func reseal(b []byte) []byte { return encodeCRC(slices.Clone(b[:len(b)-4])) }

// FuzzDecodeStatIndex feeds decodeStatIndex arbitrary bytes, seeded with
// indexes of one and many entries: it must never panic, must refuse what
// it does not accept with errStatIndex, and what it accepts must read the
// same once written again.
func FuzzDecodeStatIndex(f *testing.F) {
	key := "b18cf22b97fd1599a0a9e86ea7c9d36356c5ed174eba9f435a91118fc9b97c1b"
	f.Add(encodeStatIndex("/runs/run42", map[string]statEntry{"step_1.pickle": {id: fileIdentity{Size: 1, MTime: 2, CTime: 3, Ino: 4, Dev: 5}, recorded: 6, key: key}}))
	many := map[string]statEntry{}
	for i := range 50 {
		many["rank"+string(rune('0'+i%8))+"/snapshot_step_"+string(rune('a'+i%26))+string(rune('a'+i/26))+".pickle"] = statEntry{id: fileIdentity{Size: int64(i) << 20, MTime: int64(i), CTime: -int64(i), Ino: uint64(i), Dev: 2049}, recorded: time.Now().UnixNano(), key: key}
	}
	f.Add(encodeStatIndex("/scratch/exp/run 7", many))
	f.Add(encodeStatIndex("", nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		folder, entries, err := decodeStatIndex(b)
		if err != nil {
			if !errors.Is(err, errStatIndex) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		folder2, entries2, err := decodeStatIndex(encodeStatIndex(folder, entries))
		if err != nil || folder2 != folder || !reflect.DeepEqual(entries2, entries) {
			t.Fatalf("accepted index reads back as %q %v (%v), not %q %v", folder2, entries2, err, folder, entries)
		}
	})
}

// BenchmarkPrepareKeys measures the prepare pass of a re-run (each
// snapshot's content key and whether the cache holds its digest) over a
// run folder of 14 snapshots, the keys found from the files' contents
// (opened, 16 blocks read and hashed) or from the stat index (one stat
// each, made by discovery). ns/op is for the whole folder.
func BenchmarkPrepareKeys(b *testing.B) {
	src := testutil.SampleSnapshots(b, 14)
	dir := b.TempDir()
	for i, p := range src {
		testutil.CopyFile(b, p, filepath.Join(dir, filepath.Base(p)), time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC))
	}
	cands, _, err := discover(dir, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		now  time.Time // the clock entries are made by
	}{
		// Files changed just now are never indexed.
		{"contents", time.Now()},
		{"index", time.Now().Add(time.Hour)},
	} {
		b.Run(c.name, func(b *testing.B) {
			cache := &DigestCache{Dir: b.TempDir()}
			opt := LoadOptions{Digest: true, Cache: cache, now: func() time.Time { return c.now }}
			newDigestLoader(opt).prepare(dir, cands, 1) // the index, when there is one
			b.ReportAllocs()
			for b.Loop() {
				newDigestLoader(opt).prepare(dir, cands, 1)
			}
		})
	}
}
