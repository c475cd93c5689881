package ingest

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gpureport/snapshot"
)

// DefaultDigestCacheBytes bounds the digest cache on disk (bytes): 1 GiB.
// A digest is a few kilobytes to a few megabytes (its segments, blocks and
// their stacks), so this holds the digests of hundreds of thousands of
// typical snapshots; the least recently used entries go first beyond it.
const DefaultDigestCacheBytes int64 = 1 << 30

// Content identity sampling: sampleBlocks blocks of sampleBlock bytes,
// spread evenly over the file from its first byte to its last. 16 blocks
// of 4 KiB read 64 KiB of any file, so keying a 1 GB snapshot costs well
// under a millisecond from the page cache.
const (
	sampleBlocks = 16
	sampleBlock  = 4 << 10
)

// digestExt names digest files in the cache folder.
const digestExt = ".digest"

// DigestCache stores snapshot digests on disk, keyed by the content
// identity of the file they were made from (see ContentKey). It is safe
// for concurrent use, also by several processes sharing the folder (entries
// are written to a temporary file and renamed into place).
type DigestCache struct {
	// Dir is the cache folder.
	Dir string
	// MaxBytes bounds the folder's digests (bytes); Evict removes the least
	// recently used ones beyond it. 0 means DefaultDigestCacheBytes.
	MaxBytes int64
}

// DefaultDigestCacheDir is the cache folder used when none is given:
// gpureport/digests under the user cache folder (os.UserCacheDir:
// $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS).
func DefaultDigestCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "gpureport", "digests"), nil
}

// ContentKey returns the content identity of the file at path, named
// name in its run (its path relative to the run folder, as the run's
// files list it): a SHA-256 over the digest format version, the name, the
// file's size, its modification time and sampleBlocks blocks of its bytes
// spread over the whole file. Size and mtime change on any ordinary
// write; the sampled bytes also catch a file replaced by another of the
// same size whose mtime was preserved (cp -p, rsync -t, a restored
// archive). The name keeps apart two files of one run that are written
// within one tick of the file system's clock with the same size and
// differ only between the sampled blocks (the ranks of one step, copies
// that differ in a few bytes); a copy of the whole run folder keeps its
// files' names, and every machine of a fan-out sees the same ones. A full
// hash would read every byte, which costs as much as decoding the file's
// containers and would make a report over a cached run as slow as the
// first one.
func ContentKey(path, name string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	return contentKey(f, name, st.Size(), st.ModTime())
}

func contentKey(ra io.ReaderAt, name string, size int64, mtime time.Time) (string, error) {
	h := sha256.New()
	var hdr [32]byte
	binary.LittleEndian.PutUint64(hdr[0:], snapshot.DigestVersion)
	binary.LittleEndian.PutUint64(hdr[8:], uint64(size))
	binary.LittleEndian.PutUint64(hdr[16:], uint64(mtime.UnixNano()))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(len(name)))
	h.Write(hdr[:])
	h.Write([]byte(name))
	if err := hashSamples(h, ra, size); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashSamples writes to h the sampleBlocks blocks of sampleBlock bytes
// spread evenly over the size bytes of ra, from its first byte to its
// last (the whole of a file of at most sampleBlock bytes).
func hashSamples(h io.Writer, ra io.ReaderAt, size int64) error {
	buf := make([]byte, sampleBlock)
	for i := range int64(sampleBlocks) {
		off := int64(0)
		if size > sampleBlock {
			off = (size - sampleBlock) * i / (sampleBlocks - 1)
		}
		n, err := ra.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return err
		}
		h.Write(buf[:n])
		if size <= sampleBlock {
			break
		}
	}
	return nil
}

func (c *DigestCache) path(key string) string {
	return filepath.Join(c.Dir, key[:2], key+digestExt)
}

// Get returns the digest stored under key and the container of its file.
// A missing entry is a plain miss. An entry of another format version, or
// one that does not read back whole (truncated, corrupt, written for
// another key), is removed and reported as a miss with the reason, so the
// caller rebuilds it. share, when not nil, lends the digest a stack table
// it read lately from the same bytes (snapshot.DecodeDigestShared).
func (c *DigestCache) Get(key string, share *snapshot.Sharer) (*snapshot.Snapshot, snapshot.Container, error) {
	if len(key) < 2 {
		return nil, "", errors.New("digest cache: empty key")
	}
	return c.get(key, share, nil, false)
}

// get is Get; with sc (and share), the entry is read into sc's buffer and
// decoded into its arrays, and the digest is shared
// (snapshot.DecodeDigestReusing); noSegments leaves the devices' segments
// unread (snapshot.DecodeDigestWithoutSegments).
func (c *DigestCache) get(key string, share *snapshot.Sharer, sc *loadScratch, noSegments bool) (*snapshot.Snapshot, snapshot.Container, error) {
	p := c.path(key)
	read := readFileInto
	if noSegments {
		read = readHeadInto // the segments are not read: their bytes neither
	}
	var buf []byte
	if sc != nil {
		buf = sc.read
	}
	b, err := read(p, buf)
	if sc != nil {
		sc.read = b
	}
	if err != nil {
		return nil, "", err
	}
	var k string
	var cont snapshot.Container
	var s *snapshot.Snapshot
	if noSegments {
		k, cont, s, err = snapshot.DecodeDigestWithoutSegments(b, share)
	} else if sc != nil && share != nil {
		k, cont, s, err = snapshot.DecodeDigestReusing(b, share, &sc.decode)
	} else {
		k, cont, s, err = snapshot.DecodeDigestShared(b, share)
	}
	if err == nil && k != key {
		err = fmt.Errorf("%w: it records key %.12s", snapshot.ErrDigestCorrupt, k)
	}
	if err != nil {
		os.Remove(p)
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	// The modification time is the entry's last use, for eviction.
	now := time.Now()
	_ = os.Chtimes(p, now, now)
	return s, cont, nil
}

// Put stores digest s of a file with container cont under key. The write
// is atomic: readers see the old entry, none, or the new one whole.
func (c *DigestCache) Put(key string, cont snapshot.Container, s *snapshot.Snapshot) error {
	var buf []byte
	return c.put(key, cont, s, &buf)
}

// readFileInto reads the file at p into buf's memory when it is large
// enough, else into a new buffer; it returns the bytes read.
func readFileInto(p string, buf []byte) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := bytes.NewBuffer(buf[:0])
	if st, err := f.Stat(); err == nil {
		// Room for the file and for ReadFrom's last read, which sees EOF.
		b.Grow(int(st.Size()) + bytes.MinRead)
	}
	if _, err := b.ReadFrom(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// headGuess is how much of a digest readHeadInto reads at first: the
// head of an ordinary snapshot's digest (10k blocks, 3,000 stacks) is
// about 90 KB, and a head that is longer is read on in a second read.
const headGuess = 128 << 10

// readHeadInto reads the head of the digest at p, everything but its
// devices' segments (snapshot.DigestHeadLength), into buf's memory when
// it is large enough; the segments, two thirds of an ordinary digest, are
// not read. An entry that is no digest of this version is read no
// further: its error comes from decoding what was read.
func readHeadInto(p string, buf []byte) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := slices.Grow(buf[:0], headGuess)[:headGuess]
	n, err := io.ReadFull(f, b)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return b[:n], nil // the whole entry
	case err != nil:
		return nil, err
	}
	head, herr := snapshot.DigestHeadLength(b)
	if herr != nil || head <= n {
		return b[:n], nil
	}
	b = slices.Grow(b, head-n)[:head]
	m, err := io.ReadFull(f, b[n:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	return b[:n+m], nil // short when the entry is cut inside its head
}

// put is Put encoding into *buf's memory, and leaving there the buffer
// used, for the next put.
func (c *DigestCache) put(key string, cont snapshot.Container, s *snapshot.Snapshot, buf *[]byte) error {
	if len(key) < 2 {
		return errors.New("digest cache: empty key")
	}
	b, err := snapshot.EncodeDigestReusing(*buf, key, cont, s)
	if err != nil {
		return err
	}
	*buf = b
	return writeAtomic(c.path(key), b)
}

// writeAtomic writes b to the file at p through a temporary file in the
// same folder, renamed into place: readers see the old file, none, or
// the new one whole.
func writeAtomic(p string, b []byte) error {
	dir := filepath.Dir(p)
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if errors.Is(err, fs.ErrNotExist) {
		// The folder is made only when missing: most writes go to a
		// folder that exists, and checking first was a system call a
		// write.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		tmp, err = os.CreateTemp(dir, ".tmp-*")
	}
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err == nil {
		// Readable by the other users of a shared cache folder.
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Evict removes the least recently used digests, side entries, side
// bundles and stat indexes until the folder holds at most MaxBytes of
// them, and the temporary files of writers that died (older than an
// hour). It returns the bytes removed.
func (c *DigestCache) Evict() (int64, error) {
	limit := cmp.Or(c.MaxBytes, DefaultDigestCacheBytes)
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var (
		all   []entry
		total int64
		freed int64
	)
	err := c.walkFiles(func(p string, d fs.DirEntry) error {
		info, err := d.Info()
		if err != nil {
			return nil
		}
		switch {
		case strings.HasPrefix(d.Name(), ".tmp-") && time.Since(info.ModTime()) > time.Hour:
			if os.Remove(p) == nil {
				freed += info.Size()
			}
		case strings.HasSuffix(d.Name(), digestExt), strings.HasSuffix(d.Name(), sideExt), strings.HasSuffix(d.Name(), bundleExt),
			strings.HasSuffix(d.Name(), statIndexExt):
			all = append(all, entry{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		return freed, err
	}
	slices.SortFunc(all, func(a, b entry) int { return cmp.Or(a.used.Compare(b.used), cmp.Compare(a.path, b.path)) })
	for _, e := range all {
		if total <= limit {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
			freed += e.size
		}
	}
	return freed, nil
}

// walkFiles calls visit with each file under the cache folder, path and
// entry; a file or folder removed meanwhile (by another run's eviction) is
// passed over.
func (c *DigestCache) walkFiles(visit func(p string, d fs.DirEntry) error) error {
	return filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		return visit(p, d)
	})
}

// Clear removes every digest (and the folder's other contents).
func (c *DigestCache) Clear() error {
	return os.RemoveAll(c.Dir)
}
