package ingest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Side bundles. Most side entries are small and made for every snapshot
// file: its point entry, each device's roles and stack groups, its OOM
// explanations (a few hundred bytes to a few kilobytes). In a file each, a
// first run of 200 ordinary snapshots created 600 files beside their 200
// digests, and a re-run opened two of them for every cached snapshot:
// creating a file cost more than writing its bytes (an inode, a directory
// entry, a rename), 5-7% of the first run. A file's small entries are
// kept together instead, in one bundle beside its digest: read once, with
// the digest, and written once, when the analysis is done with the run
// (Run.WriteSides). Large entries that few runs read (the last snapshot's
// trace window, a series' checkpoints) keep a file each
// (SnapshotFile.SetSideAlone): every re-run reads every bundle whole.
//
// The file format, `<key>.sides`:
//
//	magic   "gpureport-sides\n" (16 bytes)
//	version uvarint: bundleVersion
//	count   uvarint: the number of entries
//	entries each its kind (uvarint length and the bytes) and data (uvarint
//	        length and the bytes), kinds in ascending byte order
//	crc     4 bytes, CRC-32C (Castagnoli) of everything before, little endian
//
// A reader refuses a wrong magic, version or checksum, a length or count
// past the bytes left, a kind checkSideKind refuses, kinds out of order or
// twice, and bytes after the last entry (ErrSideCorrupt); the bundle is
// removed and its entries are made again, never trusted.
//
// A kind is "what.build[.more]" (the analysis names the build that made
// it second). A bundle written with one build's entries leaves out those
// of other builds, so that each new build of gpureport does not add its
// entries to every bundle for good; the bundle holds the entries of the
// builds that wrote to it in the run that wrote it.

// bundleExt names side bundles in the cache folder.
const bundleExt = ".sides"

const bundleMagic = "gpureport-sides\n"

// bundleVersion is the bundle format's version. Bump it whenever the
// format changes: a bundle of another version is removed and its entries
// made again.
const bundleVersion = 1

// bundleWriters bounds the bundles Run.WriteSides writes at once: enough
// to keep the cores busy with the system calls of file creation, few
// enough not to crowd the report written beside them.
const bundleWriters = 4

func (c *DigestCache) bundlePath(key string) string {
	return filepath.Join(c.Dir, key[:2], key+bundleExt)
}

// readBundle returns the entries of the side bundle of the file with
// content key: a missing bundle is a plain miss (fs.ErrNotExist); one
// that does not read back whole is removed and reported with the reason
// (ErrSideCorrupt).
func (c *DigestCache) readBundle(key string) (map[string][]byte, error) {
	if len(key) < 2 {
		return nil, errors.New("digest cache: empty key")
	}
	return readUsed(c.bundlePath(key), decodeBundle)
}

// writeBundle stores entries as the side bundle of the file with content
// key. The write is atomic.
func (c *DigestCache) writeBundle(key string, entries map[string][]byte) error {
	if len(key) < 2 {
		return errors.New("digest cache: empty key")
	}
	return writeAtomic(c.bundlePath(key), encodeBundle(entries))
}

// encodeBundle returns the bundle file holding entries.
func encodeBundle(entries map[string][]byte) []byte {
	kinds := slices.Sorted(maps.Keys(entries))
	n := len(bundleMagic) + binary.MaxVarintLen64 + 4
	for _, k := range kinds {
		n += len(k) + len(entries[k]) + 2*binary.MaxVarintLen64
	}
	b := make([]byte, 0, n)
	b = append(b, bundleMagic...)
	b = binary.AppendUvarint(b, bundleVersion)
	b = binary.AppendUvarint(b, uint64(len(kinds)))
	for _, k := range kinds {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(len(entries[k])))
		b = append(b, entries[k]...)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// decodeBundle returns the entries of bundle file b. Their data are
// slices of b.
func decodeBundle(b []byte) (map[string][]byte, error) {
	rest, err := sideBody(b, bundleMagic, "side bundle")
	if err != nil {
		return nil, err
	}
	version, k := binary.Uvarint(rest)
	if k <= 0 || version != bundleVersion {
		return nil, fmt.Errorf("%w: format version %d, not %d", ErrSideCorrupt, version, bundleVersion)
	}
	rest = rest[k:]
	count, k := binary.Uvarint(rest)
	// An entry takes at least three bytes: a kind of one byte, and two
	// lengths.
	if k <= 0 || count > uint64(len(rest)-k)/3 {
		return nil, fmt.Errorf("%w: entry count with %d bytes left", ErrSideCorrupt, len(rest))
	}
	rest = rest[k:]
	field := func(what string, i uint64) ([]byte, error) {
		f, ok := cutField(&rest)
		if !ok {
			return nil, fmt.Errorf("%w: entry %d: %s length with %d bytes left", ErrSideCorrupt, i, what, len(rest))
		}
		return f, nil
	}
	entries := make(map[string][]byte, count)
	prev := ""
	for i := range count {
		kb, err := field("kind", i)
		if err != nil {
			return nil, err
		}
		kind := string(kb)
		if err := checkSideKind(kind); err != nil {
			return nil, fmt.Errorf("%w: entry %d: %v", ErrSideCorrupt, i, err)
		}
		if i > 0 && kind <= prev {
			return nil, fmt.Errorf("%w: entry %d: kind %q after %q", ErrSideCorrupt, i, kind, prev)
		}
		prev = kind
		data, err := field("data", i)
		if err != nil {
			return nil, err
		}
		entries[kind] = data
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last entry", ErrSideCorrupt, len(rest))
	}
	return entries, nil
}

// sideBuild returns the build that made an entry of kind: its second
// dot-separated field ("" for a kind of one field).
func sideBuild(kind string) string {
	_, rest, ok := strings.Cut(kind, ".")
	if !ok {
		return ""
	}
	build, _, _ := strings.Cut(rest, ".")
	return build
}

// fileSides is what a run has of one file's side bundle: read once (read),
// then the entries it held and those set since; set says some were set,
// and builds names the builds that set them.
type fileSides struct {
	mu      sync.Mutex
	read    bool
	entries map[string][]byte
	set     bool
	builds  map[string]bool
}

// sideBundles are the side bundles of a load's files, by content key.
type sideBundles struct {
	mu    sync.Mutex
	files map[string]*fileSides
}

// of returns the bundle of the file with content key.
func (sb *sideBundles) of(key string) *fileSides {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.files == nil {
		sb.files = map[string]*fileSides{}
	}
	s := sb.files[key]
	if s == nil {
		s = &fileSides{}
		sb.files[key] = s
	}
	return s
}

// readLocked reads the bundle from cache the first time (s.mu held), which
// get and put do before anything else, so no entry is set before it; a
// corrupt one is logged and left out. file names the snapshot in the log.
func (s *fileSides) readLocked(cache *DigestCache, key, file string) {
	if s.read {
		return
	}
	s.read = true
	entries, err := cache.readBundle(key)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			slog.Warn("digest cache side entries made again", "file", file, "reason", err)
		}
		return
	}
	s.entries = entries
}

// get returns the entry kind of the bundle, reading it the first time.
func (s *fileSides) get(cache *DigestCache, key, file, kind string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readLocked(cache, key, file)
	b, ok := s.entries[kind]
	return b, ok
}

// put sets the entry kind of the bundle, for WriteSides.
func (s *fileSides) put(cache *DigestCache, key, file, kind string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readLocked(cache, key, file)
	if s.entries == nil {
		s.entries = map[string][]byte{}
	}
	if s.builds == nil {
		s.builds = map[string]bool{}
	}
	// A copy of its own size: the caller may reuse data, and an encoder's
	// buffer is often several times the bytes it holds, which a run of
	// hundreds of files would keep until its bundles are written.
	s.entries[kind] = bytes.Clone(data)
	s.builds[sideBuild(kind)] = true
	s.set = true
}

// take returns the entries to write of a bundle that had some set (those
// of the builds that set them), nil when none were set, and lets the
// bundle's memory go: a later get reads it again from the cache.
func (s *fileSides) take() map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out map[string][]byte
	if s.set {
		out = make(map[string][]byte, len(s.entries))
		for k, v := range s.entries {
			if s.builds[sideBuild(k)] {
				out[k] = v
			}
		}
	}
	s.read, s.entries, s.set, s.builds = false, nil, false, nil
	return out
}

// write writes every bundle that had entries set since it was read or
// last written, bundleWriters at a time, and returns how many it wrote
// and the first error. It lets every bundle's memory go (take): a run
// that writes its bundles is done with them, and holding them all (a few
// kilobytes a snapshot) grew a run's memory with its length.
func (sb *sideBundles) write(cache *DigestCache) (int, error) {
	sb.mu.Lock()
	keys := slices.Sorted(maps.Keys(sb.files))
	files := make([]*fileSides, len(keys))
	for i, k := range keys {
		files[i] = sb.files[k]
	}
	sb.mu.Unlock()
	var (
		g       errgroup.Group
		mu      sync.Mutex
		written int
		first   error
	)
	g.SetLimit(min(bundleWriters, 2*runtime.GOMAXPROCS(0)))
	for i, f := range files {
		entries := f.take()
		if entries == nil {
			continue
		}
		g.Go(func() error {
			err := cache.writeBundle(keys[i], entries)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				first = cmp.Or(first, err)
			} else {
				written++
			}
			return nil
		})
	}
	g.Wait()
	return written, first
}
