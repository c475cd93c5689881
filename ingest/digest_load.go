package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"gpureport/snapshot"
)

// LoadProgress is the state of a Load, for progress displays.
type LoadProgress struct {
	// Done and Total count the files read and to read.
	Done, Total int
	// DoneBytes and TotalBytes are their sizes on disk, bytes.
	DoneBytes, TotalBytes int64
	// Cached counts the files whose digest came from the cache.
	Cached int
	// Rel is the latest file read (empty before the first).
	Rel string
}

// digestLoader reads the snapshots of one Load: in full, or as digests
// through the cache.
type digestLoader struct {
	opt  LoadOptions
	full *fullLoader
	// stacks shares equal stack tables and segment lists between the
	// run's digests.
	stacks *snapshot.Sharer
	// warnOnce limits cache write failures (a read-only or full disk) to
	// one warning per run.
	warnOnce sync.Once
	// scratch holds the memory of one file's decode and encoding between
	// files: one for each file in flight at most.
	mu      sync.Mutex
	scratch []*loadScratch
	// keys holds the content keys that prepare found, by candidate path;
	// read only while the files load.
	keys map[string]string
	// now is the clock that dates stat index entries (time.Now; tests
	// move it).
	now func() time.Time
	// keyed counts the content keys prepare found from files' contents
	// rather than from the stat index.
	keyed atomic.Int64
	// keepFull is the path of the one snapshot this load decodes (none:
	// ""), found by prepare: a re-run after one more snapshot. It is
	// decoded in full rather than skimmed, and kept for
	// SnapshotFile.Full, which the analysis calls for the last snapshot
	// of a series (its trace window): a large model's snapshot was
	// decoded twice, 120-180 ms of CPU each. Where a load decodes more
	// files (a first run) none is kept: which of them the analysis reads
	// in full is not known yet, and memory holds one decoded file at a
	// time. (A new file that is not the last of its series, which the
	// analysis does not read in full, stays held until the run is let
	// go or another file is decoded in full: one snapshot's memory, as
	// the analysis's own full decode would take.)
	keepFull string
}

// prepare finds the content key of every snapshot candidate of run folder
// dir, jobs at a time, and returns which of them the cache holds no digest
// for (nil without a cache): those are decoded, the others only read, so
// Load starts them first. Started in the files' order, the one new
// snapshot of a re-run (30-50 ms of decoding for an ordinary snapshot) was
// often the last, and ran alone after the other workers had read every
// cached digest. The keys are kept for load, which finds each only once. A
// key comes from the folder's stat index (statindex.go) when the file's
// identity is the one indexed with it, else from the file's content; the
// index is then written again with this run's snapshots.
func (dl *digestLoader) prepare(dir string, cands []Candidate, jobs int) []bool {
	cache := dl.opt.Cache
	if !dl.opt.Digest || cache == nil {
		return nil
	}
	ix := openStatIndex(cache, dir)
	keys := make([]string, len(cands))
	missing := make([]bool, len(cands))
	var g errgroup.Group
	g.SetLimit(jobs)
	for i, c := range cands {
		if c.Kind != KindSnapshot {
			continue
		}
		g.Go(func() error {
			var k string
			if ix != nil && c.identified {
				k, _ = ix.lookup(c.Source.Path, c.id)
			}
			if k == "" {
				var err error
				if k, err = ContentKey(c.Path, c.Source.Path); err != nil {
					return nil // load finds it again, and says why
				}
				dl.keyed.Add(1)
			}
			keys[i] = k
			_, err := os.Stat(cache.path(k))
			missing[i] = err != nil
			return nil
		})
	}
	g.Wait()
	dl.keys = make(map[string]string, len(cands))
	decode := 0
	for i, k := range keys {
		if k != "" {
			dl.keys[cands[i].Path] = k
			if missing[i] {
				decode++
				dl.keepFull = cands[i].Path
			}
		}
	}
	if decode != 1 {
		dl.keepFull = ""
	}
	if ix != nil {
		if err := ix.save(cands, keys, dl.now()); err != nil {
			dl.warnOnce.Do(func() { slog.Warn("digest cache not written", "dir", cache.Dir, "err", err) })
		}
	}
	return missing
}

// loadScratch is the memory a file's load leaves for the next one: the
// decoder's arrays (snapshot.Scratch), the digest's encoding buffer and
// the cache entry's read buffer.
type loadScratch struct {
	decode snapshot.Scratch
	encode []byte
	read   []byte
}

// takeScratch returns the memory a load before left, or none.
func (dl *digestLoader) takeScratch() *loadScratch {
	dl.mu.Lock()
	defer dl.mu.Unlock()
	if n := len(dl.scratch); n > 0 {
		sc := dl.scratch[n-1]
		dl.scratch = dl.scratch[:n-1]
		return sc
	}
	return new(loadScratch)
}

// giveScratch returns sc, whose snapshot and encoding are no longer
// used, for the next file's load.
func (dl *digestLoader) giveScratch(sc *loadScratch) {
	dl.mu.Lock()
	defer dl.mu.Unlock()
	dl.scratch = append(dl.scratch, sc)
}

func newDigestLoader(opt LoadOptions) *digestLoader {
	full := &fullLoader{opt: opt.Decode, abs: map[string]string{}, cache: opt.Cache, keys: map[string]string{}}
	now := opt.now
	if now == nil {
		now = time.Now
	}
	return &digestLoader{opt: opt, full: full, stacks: snapshot.NewSharer(), now: now}
}

// load returns candidate c's snapshot, or its digest with LoadOptions.Digest,
// and whether that came from the cache.
func (dl *digestLoader) load(c Candidate) (*snapshot.Snapshot, snapshot.Container, bool, []byte, error) {
	if !dl.opt.Digest {
		s, cont, err := snapshot.DecodeFile(c.Path, dl.opt.Decode)
		return s, cont, false, nil, err
	}
	dl.full.mu.Lock()
	dl.full.abs[c.Source.Path] = c.Path
	dl.full.mu.Unlock()
	sc := dl.takeScratch()
	defer dl.giveScratch(sc)
	cache := dl.opt.Cache
	var key string
	if cache != nil {
		k, ok := dl.keys[c.Path]
		var err error
		if !ok {
			k, err = ContentKey(c.Path, c.Source.Path)
		}
		if err == nil {
			key = k
			var point []byte
			if kind := dl.opt.PointKind; kind != "" {
				point, _ = dl.full.side(key, c.Path, kind)
			}
			s, cont, err := cache.get(key, dl.stacks, sc, point != nil)
			if err == nil {
				dl.full.cached(c.Source.Path, key)
				return s, cont, true, point, nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				slog.Warn("digest cache entry rebuilt", "file", c.Path, "reason", err)
			}
		}
	}
	// Reduce keeps no trace stacks but OOM events': skim past the rest.
	// The digest keeps copies of what it holds, and the decoded snapshot
	// is let go, so its arrays, and the reduction's, serve the next file.
	// The one file kept (keepFull) is decoded in full into memory of its
	// own instead.
	dopt := dl.opt.Decode
	keep := dl.keepFull != "" && c.Path == dl.keepFull
	if !keep {
		dopt.SkimTrace = true
		dopt.Scratch = &sc.decode
	}
	s, cont, err := snapshot.DecodeFile(c.Path, dopt)
	if err != nil {
		return nil, cont, false, nil, err
	}
	// The digest of a full decode is the skimmed one's
	// (TestSkimmedDigestEqualsFull).
	d := dl.stacks.Reduce(s, &sc.decode)
	if keep {
		dl.full.keep(c.Source.Path, s)
	}
	if key != "" {
		// Store the digest only if the file did not change while it was
		// decoded: it would be filed under the old content's key.
		if k, err := ContentKey(c.Path, c.Source.Path); err == nil && k == key {
			if err := cache.put(key, cont, d, &sc.encode); err != nil {
				dl.warnOnce.Do(func() { slog.Warn("digest cache not written", "dir", cache.Dir, "err", err) })
			} else {
				dl.full.cached(c.Source.Path, key)
			}
		}
	}
	return d, cont, false, nil, nil
}

// fresh reports whether f, loaded from candidate c (from the cache when
// cached), is the one snapshot this load decoded and kept, with its digest
// now in the cache, and if so attaches it (LoadOptions.Fresh).
func (dl *digestLoader) fresh(c Candidate, f *SnapshotFile, cached bool) bool {
	if f == nil || cached || dl.keepFull == "" || c.Path != dl.keepFull {
		return false
	}
	dl.attach(f)
	return f.DigestKey() != ""
}

// attach lets a digested file decode itself in full later.
func (dl *digestLoader) attach(f *SnapshotFile) {
	if f.Snapshot != nil && f.Snapshot.Digest != nil {
		f.full = dl.full
	}
}

// CacheDigest makes sure cache holds the digest of snapshot candidate c,
// decoding the file when the cache has no valid entry for its current
// content, and reports whether the entry was already there. It is the
// work of one file of `gpureport digest`.
func CacheDigest(cache *DigestCache, c Candidate, opt snapshot.DecodeOptions) (cached bool, err error) {
	if cache == nil {
		return false, errors.New("CacheDigest: no cache")
	}
	dl := newDigestLoader(LoadOptions{Decode: opt, Digest: true, Cache: cache})
	_, _, cached, _, err = dl.load(c)
	return cached, err
}

// PointEntry returns the side entry named by LoadOptions.PointKind that
// was read with f's digest, when the digest's devices' segments were left
// unread for it (f.Snapshot.Digest.SegmentsUnread); else nil.
func (f *SnapshotFile) PointEntry() []byte {
	if f.hostOf != nil {
		return nil
	}
	return f.point
}

// SegmentsUnread reports whether f's digest was read without its
// devices' segments (LoadOptions.PointKind): f.Snapshot.Segments is nil
// whatever the file holds, and WithSegments has them.
func (f *SnapshotFile) SegmentsUnread() bool {
	return f.Snapshot != nil && f.Snapshot.Digest != nil && f.Snapshot.Digest.SegmentsUnread
}

// WithSegments returns f's digest with its devices' segments: f.Snapshot
// when they were read, else the digest read again from the cache, or
// where that fails, the file decoded and reduced again. The result is not
// kept: a stage that needs the blocks of a file read without them pays
// one more read, and memory stays one digest. It fails when the file
// changed since it was digested, or no longer decodes.
func (f *SnapshotFile) WithSegments() (*snapshot.Snapshot, error) {
	if !f.SegmentsUnread() || f.hostOf != nil {
		return f.Snapshot, nil
	}
	cache, key := f.sideKey()
	if cache != nil {
		s, _, err := cache.get(key, nil, nil, false)
		if err == nil {
			return s, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			slog.Warn("digest cache entry unreadable; the snapshot is decoded again", "file", f.Path, "reason", err)
		}
	}
	if f.full == nil {
		return nil, fmt.Errorf("%s: the snapshot's segments were not read, and its file is not at hand", f.Path)
	}
	path, err := f.full.unchanged(f)
	if err != nil {
		return nil, err
	}
	f.full.mu.Lock()
	opt := f.full.opt
	f.full.mu.Unlock()
	opt.SkimTrace = true
	s, _, err := snapshot.DecodeFile(path, opt)
	if err != nil {
		return nil, err
	}
	return snapshot.Reduce(s), nil
}

// ReadSegments makes f.Snapshot the digest with its devices' segments
// (WithSegments) when they were left unread. It writes f: no other
// goroutine may read f meanwhile.
func (f *SnapshotFile) ReadSegments() error {
	if !f.SegmentsUnread() {
		return nil
	}
	s, err := f.WithSegments()
	if err != nil {
		return err
	}
	f.Snapshot, f.point = s, nil
	return nil
}

// Full returns the fully decoded snapshot of f: f.Snapshot when it is not
// a digest, else the file decoded again. Callers use it for the few files
// whose trace they draw; the run keeps at most one such snapshot (the last
// one asked for), so memory stays that of the largest single snapshot. It
// fails when the file changed since it was digested, or no longer decodes.
func (f *SnapshotFile) Full() (*snapshot.Snapshot, error) {
	if f.hostOf != nil {
		s, err := f.hostOf.Full()
		if err != nil {
			return nil, err
		}
		if h := s.Host(); h != nil {
			return h, nil
		}
		return nil, fmt.Errorf("%s: the full snapshot holds no pinned host memory, unlike its digest", f.Path)
	}
	if f.Snapshot == nil || f.Snapshot.Digest == nil {
		return f.Snapshot, nil
	}
	if f.full == nil {
		return nil, fmt.Errorf("%s: only the digest of this snapshot is at hand", f.Path)
	}
	return f.full.get(f)
}

// HostFile returns the pinned host memory of f as a file of its own: the
// same source, name and rank, whose Snapshot is f.Snapshot.Host() (the host
// allocator as device 0) and whose Full is that of f's full decode. It is
// nil when f holds no pinned host memory data. f is not modified.
func (f *SnapshotFile) HostFile() *SnapshotFile {
	if f.Snapshot == nil {
		return nil
	}
	h := f.Snapshot.Host()
	if h == nil {
		return nil
	}
	hf := *f
	hf.Snapshot, hf.full, hf.hostOf = h, nil, f
	return &hf
}

// Side returns the side entry kind of f's file in the digest cache, and
// whether there is one: from the file's side bundle (SetSide), else an
// entry of its own (SetSideAlone). There is none when the run was loaded
// without a cache, or f's digest is not in it. A corrupt entry or bundle
// is removed, and logged. The bytes returned must not be modified.
func (f *SnapshotFile) Side(kind string) ([]byte, bool) {
	if f.hostOf != nil {
		return f.hostOf.Side(kind)
	}
	cache, key := f.sideKey()
	if cache == nil {
		return nil, false
	}
	return f.full.side(key, f.Path, kind)
}

// SetSide stores a copy of data as the side entry kind of f's file, in its
// side bundle, where Side finds it at once; Run.WriteSides writes the
// bundle to the cache. Without a cache it does nothing. A kind that cannot
// name an entry (checkSideKind) is logged, once a run.
func (f *SnapshotFile) SetSide(kind string, data []byte) {
	if f.hostOf != nil {
		f.hostOf.SetSide(kind, data)
		return
	}
	cache, key := f.sideKey()
	if cache == nil {
		return
	}
	if err := checkSideKind(kind); err != nil {
		f.full.warnSide(f.Path, kind, err)
		return
	}
	f.full.bundles.of(key).put(cache, key, f.Path, kind, data)
}

// SetSideAlone stores data as the side entry kind of f's file in a file
// of its own, now, where Side finds it: for a large entry that few runs
// read, which in the bundle every re-run would read. Without a cache it
// does nothing. A failed write is logged, once a run: the entry is only
// made again on the next run.
func (f *SnapshotFile) SetSideAlone(kind string, data []byte) {
	if f.hostOf != nil {
		f.hostOf.SetSideAlone(kind, data)
		return
	}
	cache, key := f.sideKey()
	if cache == nil {
		return
	}
	if err := cache.putAlone(key, kind, data); err != nil {
		f.full.warnSide(f.Path, kind, err)
	}
}

// DigestKey returns the content key under which f's digest is in the
// digest cache (the key its side entries are filed under), "" when the
// run was loaded without a cache or f's digest is not in it.
func (f *SnapshotFile) DigestKey() string {
	if f.hostOf != nil {
		return f.hostOf.DigestKey()
	}
	_, key := f.sideKey()
	return key
}

// sideKey returns the cache and content key of f's digest, nil when it has
// none.
func (f *SnapshotFile) sideKey() (*DigestCache, string) {
	if f.full == nil || f.full.cache == nil {
		return nil, ""
	}
	f.full.mu.Lock()
	defer f.full.mu.Unlock()
	key, ok := f.full.keys[f.Path]
	if !ok {
		return nil, ""
	}
	return f.full.cache, key
}

// fullLoader decodes the full snapshot of digested files, keeping the last
// one (a report asks for the last snapshot of a series once per device),
// and keeps the content keys under which their digests are cached, for
// their side entries.
type fullLoader struct {
	opt snapshot.DecodeOptions
	mu  sync.Mutex
	// abs maps a file's Source.Path to the path to open.
	abs  map[string]string
	last *SnapshotFile
	snap *snapshot.Snapshot
	// cache is the digest cache (nil: none), keys a file's Source.Path to
	// the content key its digest is cached under; sideWarn limits side
	// entry write failures to one warning.
	cache    *DigestCache
	keys     map[string]string
	sideWarn sync.Once
	// bundles are the files' side bundles, by content key.
	bundles sideBundles
	// pre is the snapshot the load decoded in full (digestLoader.keepFull)
	// of the file at Source.Path prePath, until get returns it or decodes
	// another file.
	prePath string
	pre     *snapshot.Snapshot
}

// side returns the side entry kind of the file with content key (named
// file in logs), and whether there is one: from its bundle, read the first
// time, else from a file of its own.
func (l *fullLoader) side(key, file, kind string) ([]byte, bool) {
	if b, ok := l.bundles.of(key).get(l.cache, key, file, kind); ok {
		return b, true
	}
	b, err := l.cache.getAlone(key, kind)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			slog.Warn("digest cache side entry made again", "file", file, "kind", kind, "reason", err)
		}
		return nil, false
	}
	return b, true
}

// warnSide logs that the side entry kind of file was not kept, once a
// run: a read-only or full cache folder fails every write.
func (l *fullLoader) warnSide(file, kind string, err error) {
	l.sideWarn.Do(func() {
		slog.Warn("digest cache side entry not written", "file", file, "kind", kind, "err", err)
	})
}

// keep holds s, the full decode of the file at Source.Path path, for get.
func (l *fullLoader) keep(path string, s *snapshot.Snapshot) {
	l.mu.Lock()
	l.prePath, l.pre = path, s
	l.mu.Unlock()
}

// cached records that the digest of the file at Source.Path path is
// cached under key.
func (l *fullLoader) cached(path, key string) {
	l.mu.Lock()
	l.keys[path] = key
	l.mu.Unlock()
}

func (l *fullLoader) get(f *SnapshotFile) (*snapshot.Snapshot, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == f {
		return l.snap, nil
	}
	if l.pre != nil && f.Path == l.prePath {
		// Decoded by the load from the content its digest was made of.
		l.last, l.snap, l.pre = f, l.pre, nil
		return l.snap, nil
	}
	// Let the previous one go before decoding.
	l.last, l.snap, l.pre = nil, nil, nil
	path, err := l.unchangedLocked(f)
	if err != nil {
		return nil, err
	}
	s, _, err := snapshot.DecodeFile(path, l.opt)
	if err != nil {
		return nil, err
	}
	l.last, l.snap = f, s
	return s, nil
}

// unchanged returns the path to open for f, and an error when the file
// is gone or changed (size or modification time) since it was digested:
// a digest is never mixed with another content's decode.
func (l *fullLoader) unchanged(f *SnapshotFile) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.unchangedLocked(f)
}

// unchangedLocked is unchanged with l.mu held.
func (l *fullLoader) unchangedLocked(f *SnapshotFile) (string, error) {
	path := l.abs[f.Path]
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.Size() != f.Bytes || !st.ModTime().Equal(f.ModTime) {
		return "", fmt.Errorf("%s: the file changed since it was digested (now %d bytes, modified %s)", path, st.Size(), st.ModTime().UTC().Format("2006-01-02T15:04:05Z"))
	}
	return path, nil
}
