package ingest

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Side entries: what an analysis made of one file that costs a full
// decode to make again (an OOM's explanation), kept in the digest cache
// beside the file's digest, under the file's content key and a kind the
// analysis names. ingest stores the bytes without reading them; the
// analysis owns their meaning and puts its version in the kind. A side
// entry is evicted like a digest, least recently used first.
//
// The file format:
//
//	magic   "gpureport-side\n" (15 bytes)
//	kind    uvarint length and the bytes: the kind asked for
//	data    uvarint length and the bytes
//	crc     4 bytes, CRC-32C (Castagnoli) of everything before, little endian
//
// A reader refuses a wrong magic, kind or checksum and a length longer
// than the bytes left (ErrSideCorrupt), and removes the entry: it is made
// again, never trusted.

// sideExt names side entries in the cache folder.
const sideExt = ".side"

const sideMagic = "gpureport-side\n"

// maxSideKind bounds a side entry's kind (bytes): the kind is part of the
// file name, which file systems limit to 255 bytes with the 64-byte key.
const maxSideKind = 120

// ErrSideCorrupt is wrapped by GetSide for an entry that is not well
// formed.
var ErrSideCorrupt = errors.New("corrupt side entry")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checkSideKind refuses a kind that is empty, too long, or not made of
// lower-case letters, digits, '-' and '.' (it names a file).
func checkSideKind(kind string) error {
	if kind == "" || len(kind) > maxSideKind {
		return fmt.Errorf("side entry kind %q: 1 to %d bytes", kind, maxSideKind)
	}
	for _, r := range kind {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '.' {
			return fmt.Errorf("side entry kind %q: only a-z, 0-9, '-' and '.'", kind)
		}
	}
	return nil
}

func (c *DigestCache) sidePath(key, kind string) string {
	return filepath.Join(c.Dir, key[:2], key+"."+kind+sideExt)
}

// putAlone stores data as the side entry kind of the file with content
// key, in a file of its own. The write is atomic.
func (c *DigestCache) putAlone(key, kind string, data []byte) error {
	if len(key) < 2 {
		return errors.New("digest cache: empty key")
	}
	if err := checkSideKind(kind); err != nil {
		return err
	}
	return writeAtomic(c.sidePath(key, kind), encodeSide(kind, data))
}

// getAlone returns the side entry kind of the file with content key from
// its own file. A missing entry is a plain miss (fs.ErrNotExist); one
// that does not read back whole is removed and reported with the reason
// (ErrSideCorrupt).
func (c *DigestCache) getAlone(key, kind string) ([]byte, error) {
	if len(key) < 2 {
		return nil, errors.New("digest cache: empty key")
	}
	if err := checkSideKind(kind); err != nil {
		return nil, err
	}
	return readUsed(c.sidePath(key, kind), func(b []byte) ([]byte, error) { return decodeSide(b, kind) })
}

// readUsed returns what decode reads of the cache file at p, and marks it
// used: its modification time is its last use, for eviction. A missing
// file is a plain miss (fs.ErrNotExist); one that decode refuses is
// removed and reported with its path.
func readUsed[T any](p string, decode func([]byte) (T, error)) (T, error) {
	var zero T
	b, err := os.ReadFile(p)
	if err != nil {
		return zero, err
	}
	v, err := decode(b)
	if err != nil {
		os.Remove(p)
		return zero, fmt.Errorf("%s: %w", p, err)
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now)
	return v, nil
}

// GetSide returns the side entry kind of the file with content key, from
// the file's side bundle or a file of its own. A missing entry is a plain
// miss (fs.ErrNotExist); an entry or bundle that does not read back whole
// is removed and reported with the reason (ErrSideCorrupt).
func (c *DigestCache) GetSide(key, kind string) ([]byte, error) {
	entries, err := c.readBundle(key)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if b, ok := entries[kind]; ok {
		return b, nil
	}
	return c.getAlone(key, kind)
}

// PutSide stores data as the side entry kind of the file with content
// key: in the file's side bundle when that holds kind, else in a file of
// its own. The write is atomic.
func (c *DigestCache) PutSide(key, kind string, data []byte) error {
	entries, err := c.bundleFor(key, kind)
	if err != nil {
		return err
	}
	if _, ok := entries[kind]; ok {
		entries[kind] = data
		return c.writeBundle(key, entries)
	}
	return c.putAlone(key, kind, data)
}

// RemoveSide removes the side entry kind of the file with content key,
// from its bundle and its own file; an entry that is not there is no
// error.
func (c *DigestCache) RemoveSide(key, kind string) error {
	entries, err := c.bundleFor(key, kind)
	if err != nil {
		return err
	}
	if _, ok := entries[kind]; ok {
		delete(entries, kind)
		if err := c.writeBundle(key, entries); err != nil {
			return err
		}
	}
	if err := os.Remove(c.sidePath(key, kind)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// bundleFor checks kind and returns the entries of the side bundle of the
// file with content key, nil for none.
func (c *DigestCache) bundleFor(key, kind string) (map[string][]byte, error) {
	if err := checkSideKind(kind); err != nil {
		return nil, err
	}
	entries, err := c.readBundle(key)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return entries, nil
}

// SideRef names a side entry in the digest cache: the content key of its
// snapshot file and its kind.
type SideRef struct {
	Key, Kind string
}

// Sides lists the side entries the cache holds, in bundles or files of
// their own, by key then kind; a bundle that does not read back is left
// out (and removed), and one that does is marked used, as any read of it
// is. It is for inspection and tests: a run reads the entries of its own
// files only.
func (c *DigestCache) Sides() ([]SideRef, error) {
	var out []SideRef
	err := c.walkFiles(func(_ string, d fs.DirEntry) error {
		name := d.Name()
		switch {
		case strings.HasSuffix(name, bundleExt):
			key := strings.TrimSuffix(name, bundleExt)
			if len(key) < 2 {
				return nil
			}
			entries, err := c.readBundle(key)
			if err != nil {
				return nil
			}
			for kind := range entries {
				out = append(out, SideRef{Key: key, Kind: kind})
			}
		case strings.HasSuffix(name, sideExt) && !strings.HasPrefix(name, "."):
			key, kind, ok := strings.Cut(strings.TrimSuffix(name, sideExt), ".")
			if ok {
				out = append(out, SideRef{Key: key, Kind: kind})
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b SideRef) int { return cmp.Or(strings.Compare(a.Key, b.Key), strings.Compare(a.Kind, b.Kind)) })
	return out, err
}

// encodeSide returns the side entry file of kind holding data.
func encodeSide(kind string, data []byte) []byte {
	b := make([]byte, 0, len(sideMagic)+len(kind)+len(data)+2*binary.MaxVarintLen64+4)
	b = append(b, sideMagic...)
	b = binary.AppendUvarint(b, uint64(len(kind)))
	b = append(b, kind...)
	b = binary.AppendUvarint(b, uint64(len(data)))
	b = append(b, data...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// decodeSide returns the data of side entry file b, which must be of
// kind.
func decodeSide(b []byte, kind string) ([]byte, error) {
	rest, err := sideBody(b, sideMagic, "side entry")
	if err != nil {
		return nil, err
	}
	field := func(what string) ([]byte, error) {
		f, ok := cutField(&rest)
		if !ok {
			return nil, fmt.Errorf("%w: %s length with %d bytes left", ErrSideCorrupt, what, len(rest))
		}
		return f, nil
	}
	k, err := field("kind")
	if err != nil {
		return nil, err
	}
	if string(k) != kind {
		return nil, fmt.Errorf("%w: of kind %q, not %q", ErrSideCorrupt, k, kind)
	}
	data, err := field("data")
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("%w: %d bytes after the data", ErrSideCorrupt, len(rest))
	}
	return data, nil
}

// sideBody checks the magic line and the trailing CRC-32C of a side entry
// or bundle file b (what, in errors) and returns the bytes between them.
func sideBody(b []byte, magic, what string) ([]byte, error) {
	if len(b) < len(magic)+4 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: no %s header", ErrSideCorrupt, what)
	}
	body := b[:len(b)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(b[len(b)-4:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, expected %08x", ErrSideCorrupt, got, want)
	}
	return body[len(magic):], nil
}

// cutField cuts a field (a uvarint length and that many bytes) off the
// front of *rest and returns it, capped at its length; false when the
// length does not read or runs past the end.
func cutField(rest *[]byte) ([]byte, bool) {
	n, k := binary.Uvarint(*rest)
	if k <= 0 || n > uint64(len(*rest)-k) {
		return nil, false
	}
	end := k + int(n)
	f := (*rest)[k:end:end]
	*rest = (*rest)[end:]
	return f, true
}
