package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// cacheSource is a snapshot of the sample run, to put through the cache.
func cacheSource(tb testing.TB) string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(testutil.RepoRoot(tb), "testdata", "sample-run", "*.pickle"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("sample run: %v", err)
	}
	return files[0]
}

// sameEncoding reports whether two digests encode to the same bytes.
func sameEncoding(tb testing.TB, a, b *snapshot.Snapshot) bool {
	tb.Helper()
	ea, err := snapshot.EncodeDigest("k", snapshot.ContainerPickle, a)
	if err != nil {
		tb.Fatal(err)
	}
	eb, err := snapshot.EncodeDigest("k", snapshot.ContainerPickle, b)
	if err != nil {
		tb.Fatal(err)
	}
	return bytes.Equal(ea, eb)
}

// TestDigestCacheRefusesBadEntries checks that an entry of another format
// version, a corrupt one, a truncated one and one filed under the wrong
// key are refused with the matching error and removed, never returned.
func TestDigestCacheRefusesBadEntries(t *testing.T) {
	src := cacheSource(t)
	full, c, err := snapshot.DecodeFile(src, snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := snapshot.Reduce(full)
	const key = "ab0123"
	good, err := snapshot.EncodeDigest(key, c, d)
	if err != nil {
		t.Fatal(err)
	}
	otherVersion := bytes.Clone(good)
	otherVersion[bytes.IndexByte(good, '\n')+1] = snapshot.DigestVersion + 1 // the byte after the magic line
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	otherKey, err := snapshot.EncodeDigest("ab9999", c, d)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"other version", otherVersion, snapshot.ErrDigestVersion},
		{"flipped byte", flipped, snapshot.ErrDigestCorrupt},
		{"truncated", good[:len(good)/2], snapshot.ErrDigestCorrupt},
		{"empty", nil, snapshot.ErrDigestCorrupt},
		{"other key", otherKey, snapshot.ErrDigestCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := &DigestCache{Dir: t.TempDir()}
			p := cache.path(key)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, _, err := cache.Get(key, nil)
			if !errors.Is(err, tt.want) || s != nil {
				t.Fatalf("Get = %v, %v; want %v", s != nil, err, tt.want)
			}
			if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the bad entry is still there: %v", err)
			}
			if err := cache.Put(key, c, d); err != nil {
				t.Fatal(err)
			}
			s, _, err = cache.Get(key, nil)
			if err != nil || !sameEncoding(t, s, d) {
				t.Fatalf("rebuilt entry: %v", err)
			}
		})
	}
}

// TestContentKey checks that the key changes with the file's name in its
// run, its size, its modification time and the bytes of any sampled
// block, and not with the folder it is in (a copy of the run).
func TestContentKey(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	mtime := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	write := func(folder, name string, b []byte, mt time.Time) string {
		p := filepath.Join(dir, folder, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		k, err := ContentKey(p, name)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := write("run", "a.pickle", data, mtime)
	if k := write("copy-of-run", "a.pickle", data, mtime); k != base {
		t.Error("the same file in a copy of the run has another key")
	}
	lastByte := bytes.Clone(data)
	lastByte[len(lastByte)-1] ^= 1
	// A byte between the sampled blocks, size and mtime kept: only the
	// name tells two such files of one run apart (the key's documented
	// blind spot is such a file replaced in place).
	middle := bytes.Clone(data)
	middle[len(middle)/2+sampleBlock] ^= 1
	tests := []struct {
		name, file string
		data       []byte
		mt         time.Time
	}{
		{"another name", "b.pickle", data, mtime},
		{"another name, a byte between the samples", "b.pickle", middle, mtime},
		{"one byte longer", "a.pickle", append(bytes.Clone(data), 0), mtime},
		{"touched", "a.pickle", data, mtime.Add(time.Second)},
		{"last byte changed", "a.pickle", lastByte, mtime},
		{"first byte changed", "a.pickle", append([]byte{'x'}, data[1:]...), mtime},
	}
	for _, tt := range tests {
		if k := write("other", tt.file, tt.data, tt.mt); k == base {
			t.Errorf("%s: same key", tt.name)
		}
	}
}

// TestDigestCacheEvict checks that eviction removes the least recently
// used entries first, down to MaxBytes.
func TestDigestCacheEvict(t *testing.T) {
	src := cacheSource(t)
	full, c, err := snapshot.DecodeFile(src, snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := snapshot.Reduce(full)
	cache := &DigestCache{Dir: t.TempDir()}
	keys := []string{"aa01", "bb02", "cc03", "dd04"}
	base := time.Now().Add(-time.Hour)
	var size int64
	for i, k := range keys {
		if err := cache.Put(k, c, d); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(cache.path(k))
		if err != nil {
			t.Fatal(err)
		}
		size = st.Size()
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(cache.path(k), at, at); err != nil {
			t.Fatal(err)
		}
	}
	// Using the oldest entry makes it the most recent.
	if _, _, err := cache.Get("aa01", nil); err != nil {
		t.Fatal(err)
	}
	cache.MaxBytes = 2 * size
	if _, err := cache.Evict(); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		_, err := os.Stat(cache.path(k))
		kept := err == nil
		if want := k == "aa01" || k == "dd04"; kept != want {
			t.Errorf("%s kept %v, want %v", k, kept, want)
		}
	}
}

// TestLoadDigestFull loads a run as digests through a cache, twice, and
// checks that the second load comes from the cache, that Full decodes the
// same snapshot as DecodeFile, and that Full refuses a file that changed
// after it was digested instead of mixing two contents.
func TestLoadDigestFull(t *testing.T) {
	src, err := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run", "*.pickle"))
	if err != nil || len(src) < 2 {
		t.Fatalf("sample run: %v", err)
	}
	run := t.TempDir()
	for _, p := range src[:2] {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := &DigestCache{Dir: t.TempDir()}
	load := func() (*Run, int) {
		cached := 0
		r, err := Load(t.Context(), run, LoadOptions{Digest: true, Cache: cache, ProgressBytes: func(p LoadProgress) { cached = p.Cached }})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Snapshots) != 2 {
			t.Fatalf("%d snapshots", len(r.Snapshots))
		}
		return r, cached
	}
	if _, cached := load(); cached != 0 {
		t.Errorf("first load: %d from the cache", cached)
	}
	r, cached := load()
	if cached != 2 {
		t.Errorf("second load: %d from the cache, want 2", cached)
	}
	f := r.Snapshots[0]
	if f.Snapshot.Digest == nil {
		t.Fatal("not a digest")
	}
	full, err := f.Full()
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := snapshot.DecodeFile(filepath.Join(run, f.Path), snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(full.Traces, want.Traces) || !reflect.DeepEqual(full.Segments, want.Segments) {
		t.Error("Full differs from DecodeFile")
	}
	g := r.Snapshots[1]
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(run, g.Path), later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Full(); err == nil || !strings.Contains(err.Error(), "changed since it was digested") {
		t.Errorf("Full of a changed file: %v", err)
	}
}

// BenchmarkContentKey measures keying a 64 MiB file held in memory: the
// cost of a cache lookup besides reading the entry.
func BenchmarkContentKey(b *testing.B) {
	data := bytes.Repeat([]byte{1, 2, 3, 4}, 16<<20)
	ra := bytes.NewReader(data)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := contentKey(ra, "snapshot_step_000100.pickle", int64(len(data)), now); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadFileInto checks that a cache entry read into a reused buffer,
// too small, large enough or dirty, is the file's bytes.
func TestReadFileInto(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 4095, 4096, 100000} {
		want := bytes.Repeat([]byte{byte(n)}, n)
		for i := range want {
			want[i] += byte(i)
		}
		p := filepath.Join(dir, fmt.Sprint(n))
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, buf := range [][]byte{nil, bytes.Repeat([]byte{0xee}, 10), bytes.Repeat([]byte{0xee}, 2*n+10)} {
			got, err := readFileInto(p, buf)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%d bytes, buffer of %d: read %d bytes that differ", n, len(buf), len(got))
			}
			if n > 0 && cap(buf) >= n+bytes.MinRead && &got[0] != &buf[0] {
				t.Errorf("%d bytes, buffer of %d: not read into the buffer", n, len(buf))
			}
		}
	}
	if _, err := readFileInto(filepath.Join(dir, "missing"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadHeadInto checks that reading a digest's head reads no more
// than the first headGuess bytes when the head fits in them, exactly the
// head when it is longer (a second read), and an entry cut inside its
// head short, so that decoding refuses it; what is read decodes without
// segments to the digest read whole.
func TestReadHeadInto(t *testing.T) {
	dir := t.TempDir()
	digest := func(frames int) []byte {
		d := &snapshot.Snapshot{Digest: &snapshot.Digest{}}
		var stack []snapshot.FrameID
		for i := range frames {
			stack = append(stack, d.Stacks.InternFrame(snapshot.Frame{File: fmt.Sprintf("/opt/src/train/module_%06d.py", i), Line: i + 1, Name: "forward"}))
			d.Stacks.InternStack(stack[max(0, len(stack)-8):])
		}
		d.Stacks.Seal()
		var blocks []snapshot.Block
		for i := range 20_000 {
			blocks = append(blocks, snapshot.Block{Address: 1<<40 + uint64(i)<<20, Size: 1 << 20, RequestedSize: 1 << 20, State: snapshot.StateActiveAllocated, Stack: 1})
		}
		d.Segments = []*snapshot.Segment{{Address: 1 << 40, TotalSize: 20_000 << 20, Blocks: blocks}}
		b, err := snapshot.EncodeDigest("k", snapshot.ContainerPickle, d)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	small, large := digest(10), digest(5000)
	for _, tt := range []struct {
		name    string
		data    []byte
		cut     int // bytes of the entry written; 0: all
		readLen func(head int) int
		refused bool
	}{
		{"head within the first read", small, 0, func(int) int { return headGuess }, false},
		{"head longer than the first read", large, 0, func(head int) int { return head }, false},
		{"cut inside the first read", small, 100, func(int) int { return 100 }, true},
		{"cut inside a long head", large, headGuess + 1000, func(int) int { return headGuess + 1000 }, true},
		{"cut inside the header", small, snapshot.DigestPrefix - 1, func(int) int { return snapshot.DigestPrefix - 1 }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			head, err := snapshot.DigestHeadLength(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if longHead := len(tt.data) == len(large); longHead != (head > headGuess) || len(tt.data) <= headGuess {
				t.Fatalf("head %d of %d bytes: the case tests nothing", head, len(tt.data))
			}
			data := tt.data
			if tt.cut > 0 {
				data = data[:tt.cut]
			}
			p := filepath.Join(dir, tt.name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, buf := range [][]byte{nil, make([]byte, 10), make([]byte, 2*len(data))} {
				got, err := readHeadInto(p, buf)
				if err != nil {
					t.Fatal(err)
				}
				if want := tt.readLen(head); len(got) != want || !bytes.Equal(got, data[:want]) {
					t.Fatalf("read %d bytes, want the first %d", len(got), want)
				}
				_, _, s, err := snapshot.DecodeDigestWithoutSegments(got, nil)
				if tt.refused {
					if !errors.Is(err, snapshot.ErrDigestCorrupt) {
						t.Fatalf("decoding what was read: %v, want ErrDigestCorrupt", err)
					}
					continue
				}
				_, _, whole, err2 := snapshot.DecodeDigest(tt.data)
				if err != nil || err2 != nil {
					t.Fatal(err, err2)
				}
				if s.Stacks.Len() != whole.Stacks.Len() || !s.Digest.SegmentsUnread || len(whole.Segments) != 1 {
					t.Fatalf("%d stacks (whole %d), unread %v", s.Stacks.Len(), whole.Stacks.Len(), s.Digest.SegmentsUnread)
				}
			}
		})
	}
	if _, err := readHeadInto(filepath.Join(dir, "missing"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestLoadDecodesNewFilesFirst loads a run whose cache holds the digests
// of all its snapshots but one, on one worker: the file to decode must be
// read first, though by size it comes last, so that on several workers
// its decoding overlaps the cached digests' reading instead of running
// alone after it.
func TestLoadDecodesNewFilesFirst(t *testing.T) {
	src := testutil.SampleSnapshots(t, 5)
	dir := t.TempDir()
	put := copierInto(t, dir)
	// The new file is the smallest: by size alone it is read last.
	newest := src[0]
	for _, p := range src {
		if st, err := os.Stat(p); err != nil {
			t.Fatal(err)
		} else if nst, _ := os.Stat(newest); st.Size() < nst.Size() {
			newest = p
		}
	}
	for _, p := range src {
		if p != newest {
			put(p)
		}
	}
	cache := &DigestCache{Dir: t.TempDir()}
	load := func() []LoadProgress {
		t.Helper()
		var seen []LoadProgress
		run, err := Load(context.Background(), dir, LoadOptions{Jobs: 1, Digest: true, Cache: cache, Location: time.UTC,
			ProgressBytes: func(p LoadProgress) { seen = append(seen, p) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Skipped) > 0 {
			t.Fatalf("skipped: %+v", run.Skipped)
		}
		return seen[1:] // the first call is before any file
	}
	load()
	name := put(newest)
	seen := load()
	if len(seen) != 5 {
		t.Fatalf("%d files read, want 5", len(seen))
	}
	if seen[0].Rel != name || seen[0].Cached != 0 {
		t.Errorf("first file read %s (%d cached), want %s, decoded", seen[0].Rel, seen[0].Cached, name)
	}
	if last := seen[len(seen)-1]; last.Cached != 4 {
		t.Errorf("%d digests from the cache, want 4", last.Cached)
	}
}

// TestLoadKeepsTheOneNewFileDecoded follows a run through the cache: a
// first run keeps no file decoded in full, and SnapshotFile.Full decodes
// from disk; a re-run after one more snapshot decodes that one in full
// once, and Full returns it even when the file is gone, equal to a
// decode of it, its digest the skimmed decode's, until another file is
// decoded in full (one at a time).
func TestLoadKeepsTheOneNewFileDecoded(t *testing.T) {
	src := testutil.SampleSnapshots(t, 5)
	dir := t.TempDir()
	put := copierInto(t, dir)
	cache := &DigestCache{Dir: t.TempDir()}
	load := func() map[string]*SnapshotFile {
		t.Helper()
		run, err := Load(context.Background(), dir, LoadOptions{Jobs: 2, Digest: true, Cache: cache, Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]*SnapshotFile{}
		for _, f := range run.Snapshots {
			files[filepath.Base(f.Path)] = f
		}
		return files
	}
	for _, p := range src[:4] {
		put(p)
	}
	first := load()
	gone := filepath.Base(src[3])
	if err := os.Rename(filepath.Join(dir, gone), filepath.Join(dir, gone+".away")); err != nil {
		t.Fatal(err)
	}
	if _, err := first[gone].Full(); err == nil {
		t.Errorf("a first run kept %s decoded in full", gone)
	}
	if err := os.Rename(filepath.Join(dir, gone+".away"), filepath.Join(dir, gone)); err != nil {
		t.Fatal(err)
	}

	put(src[4])
	again := load()
	name := filepath.Base(src[4])
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	got, err := again[name].Full()
	if err != nil {
		t.Fatalf("the new file was not kept decoded: %v", err)
	}
	want, _, err := snapshot.DecodeFile(src[4], snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the kept decode differs from a decode of the file")
	}
	skim, _, err := snapshot.DecodeFile(src[4], snapshot.DecodeOptions{SkimTrace: true})
	if err != nil {
		t.Fatal(err)
	}
	if !sameEncoding(t, again[name].Snapshot, snapshot.Reduce(skim)) {
		t.Error("the digest of the kept decode differs from the skimmed decode's")
	}
	if _, err := again[filepath.Base(src[0])].Full(); err != nil {
		t.Fatal(err)
	}
	if _, err := again[name].Full(); err == nil {
		t.Error("the new file is still held after another file was decoded in full")
	}
}

// TestLoadFreshIsTheOneNewFile: LoadOptions.Fresh is called once, with the
// one snapshot a load decodes (a re-run after one more), its digest in the
// cache when it is called (so that side entries can be filed under it) and
// its full decode at hand; never by a first run of several files, a run
// whose every digest is cached, or a load without a cache.
func TestLoadFreshIsTheOneNewFile(t *testing.T) {
	src := testutil.SampleSnapshots(t, 4)
	dir := t.TempDir()
	put := copierInto(t, dir)
	cache := &DigestCache{Dir: t.TempDir()}
	load := func(c *DigestCache) []string {
		t.Helper()
		var mu sync.Mutex
		var called []string
		fresh := func(f *SnapshotFile) {
			what := filepath.Base(f.Path)
			if f.DigestKey() == "" {
				what += " (no digest in the cache)"
			}
			if _, err := f.Full(); err != nil {
				what += " (no full decode: " + err.Error() + ")"
			}
			mu.Lock()
			called = append(called, what)
			mu.Unlock()
		}
		if _, err := Load(context.Background(), dir, LoadOptions{Jobs: 2, Digest: true, Cache: c, Location: time.UTC, Fresh: fresh}); err != nil {
			t.Fatal(err)
		}
		return called
	}
	for _, p := range src[:3] {
		put(p)
	}
	if got := load(cache); len(got) != 0 {
		t.Errorf("a first run of 3 files called Fresh with %q", got)
	}
	put(src[3])
	if got, want := load(cache), []string{filepath.Base(src[3])}; !slices.Equal(got, want) {
		t.Errorf("a re-run after one more file called Fresh with %q, want %q", got, want)
	}
	if got := load(cache); len(got) != 0 {
		t.Errorf("a run whose every digest is cached called Fresh with %q", got)
	}
	if got := load(nil); len(got) != 0 {
		t.Errorf("a load without a cache called Fresh with %q", got)
	}
}

// copierInto returns a function that copies a file into dir under its
// base name (its modification time left as the copy makes it) and
// returns that name: a run folder that grows as a test adds snapshots.
func copierInto(t *testing.T, dir string) func(string) string {
	return func(p string) string {
		t.Helper()
		testutil.CopyFile(t, p, filepath.Join(dir, filepath.Base(p)), time.Time{})
		return filepath.Base(p)
	}
}

// TestLoadWithoutSegments loads a run whose cached digests have a point
// entry (LoadOptions.PointKind) and one that has none: only the files
// with an entry are read without their devices' segments, each with its
// entry's bytes; WithSegments gives the digest read whole, from the cache
// or, its entry gone, from the file; ReadSegments puts it in the file;
// and a file changed since the load has no segments to give.
func TestLoadWithoutSegments(t *testing.T) {
	src := testutil.SampleSnapshots(t, 3)
	dir := t.TempDir()
	put := copierInto(t, dir)
	for _, p := range src {
		put(p)
	}
	cache := &DigestCache{Dir: t.TempDir()}
	const kind = "point.test"
	load := func(pointKind string) map[string]*SnapshotFile {
		t.Helper()
		run, err := Load(context.Background(), dir, LoadOptions{Jobs: 2, Digest: true, Cache: cache, Location: time.UTC, PointKind: pointKind})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]*SnapshotFile{}
		for _, f := range run.Snapshots {
			out[filepath.Base(f.Path)] = f
		}
		return out
	}
	whole := load(kind) // a first run: every file decoded
	names := slices.Sorted(maps.Keys(whole))
	for _, n := range names {
		if f := whole[n]; f.SegmentsUnread() || f.PointEntry() != nil || len(f.Snapshot.Segments) == 0 {
			t.Fatalf("%s: a first run's file: unread %v, entry %q, %d segments", n, f.SegmentsUnread(), f.PointEntry(), len(f.Snapshot.Segments))
		}
	}
	// Entries for the first two files only.
	for i, n := range names[:2] {
		if err := cache.PutSide(whole[n].DigestKey(), kind, []byte{byte(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	got := load(kind)
	for i, n := range names {
		f := got[n]
		if want := i < 2; f.SegmentsUnread() != want || (f.Snapshot.Segments == nil) != want {
			t.Errorf("%s: unread %v with %d segments, want unread %v", n, f.SegmentsUnread(), len(f.Snapshot.Segments), want)
		}
		if i < 2 && !bytes.Equal(f.PointEntry(), []byte{byte(i + 1)}) {
			t.Errorf("%s: entry % x, want %d", n, f.PointEntry(), i+1)
		}
	}
	if f := load("")[names[0]]; f.SegmentsUnread() {
		t.Errorf("%s: read without its segments with no PointKind", names[0])
	}
	wholeSegs := func(n string, s *snapshot.Snapshot) {
		t.Helper()
		if !reflect.DeepEqual(s.Segments, whole[n].Snapshot.Segments) || !reflect.DeepEqual(s.Digest.Traces, whole[n].Snapshot.Digest.Traces) {
			t.Errorf("%s: the segments read again differ from the first run's", n)
		}
	}
	f0, f1 := got[names[0]], got[names[1]]
	s, err := f0.WithSegments()
	if err != nil {
		t.Fatal(err)
	}
	wholeSegs(names[0], s)
	if !f0.SegmentsUnread() {
		t.Error("WithSegments changed the file")
	}
	if err := f0.ReadSegments(); err != nil {
		t.Fatal(err)
	}
	if f0.SegmentsUnread() || f0.PointEntry() != nil {
		t.Error("ReadSegments left the file without its segments")
	}
	wholeSegs(names[0], f0.Snapshot)
	// Its digest gone from the cache: the file is decoded again.
	if err := os.Remove(cache.path(f1.DigestKey())); err != nil {
		t.Fatal(err)
	}
	if s, err = f1.WithSegments(); err != nil {
		t.Fatal(err)
	}
	wholeSegs(names[1], s)
	// And changed since the load: it has none to give.
	if err := os.Remove(cache.path(f1.DigestKey())); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	testutil.CopyFile(t, src[2], filepath.Join(dir, names[1]), time.Now().Add(time.Hour))
	if _, err := f1.WithSegments(); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("a file changed since the load gave segments: %v", err)
	}
}
