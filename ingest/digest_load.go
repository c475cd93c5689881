package ingest

import (
	"errors"
	"io/fs"
	"log/slog"
	"sync"
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
	stacks *stackShare
	// warnOnce limits cache write failures (a read-only or full disk) to
	// one warning per run.
	warnOnce sync.Once
}

func newDigestLoader(opt LoadOptions) *digestLoader {
	return &digestLoader{opt: opt, full: &fullLoader{opt: opt.Decode, abs: map[string]string{}}, stacks: newStackShare()}
}

// load returns candidate c's snapshot, or its digest with LoadOptions.Digest,
// and whether that came from the cache.
func (dl *digestLoader) load(c Candidate) (*Snapshot, Container, bool, error) {
	if !dl.opt.Digest {
		s, cont, err := DecodeFile(c.Path, dl.opt.Decode)
		return s, cont, false, err
	}
	dl.full.mu.Lock()
	dl.full.abs[c.Source.Path] = c.Path
	dl.full.mu.Unlock()
	cache := dl.opt.Cache
	var key string
	if cache != nil {
		if k, err := ContentKey(c.Path); err == nil {
			key = k
			s, cont, err := cache.Get(key)
			if err == nil {
				dl.stacks.shareDigest(s)
				return s, cont, true, nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				slog.Warn("digest cache entry rebuilt", "file", c.Path, "reason", err)
			}
		}
	}
	// Reduce keeps no trace stacks but OOM events': skim past the rest.
	skim := dl.opt.Decode
	skim.SkimTrace = true
	s, cont, err := DecodeFile(c.Path, skim)
	if err != nil {
		return nil, cont, false, err
	}
	d := Reduce(s)
	dl.stacks.shareDigest(d)
	if key != "" {
		// Store the digest only if the file did not change while it was
		// decoded: it would be filed under the old content's key.
		if k, err := ContentKey(c.Path); err == nil && k == key {
			if err := cache.Put(key, cont, d); err != nil {
				dl.warnOnce.Do(func() { slog.Warn("digest cache not written", "dir", cache.Dir, "err", err) })
			}
		}
	}
	return d, cont, false, nil
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
func CacheDigest(cache *DigestCache, c Candidate, opt DecodeOptions) (cached bool, err error) {
	if cache == nil {
		return false, errors.New("CacheDigest: no cache")
	}
	dl := newDigestLoader(LoadOptions{Decode: opt, Digest: true, Cache: cache})
	_, _, cached, err = dl.load(c)
	return cached, err
}
