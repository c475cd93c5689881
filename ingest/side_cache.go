package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
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

// PutSide stores data as the side entry kind of the file with content
// key. The write is atomic.
func (c *DigestCache) PutSide(key, kind string, data []byte) error {
	if len(key) < 2 {
		return errors.New("digest cache: empty key")
	}
	if err := checkSideKind(kind); err != nil {
		return err
	}
	return writeAtomic(c.sidePath(key, kind), encodeSide(kind, data))
}

// GetSide returns the side entry kind of the file with content key. A
// missing entry is a plain miss (fs.ErrNotExist); one that does not read
// back whole is removed and reported with the reason (ErrSideCorrupt).
func (c *DigestCache) GetSide(key, kind string) ([]byte, error) {
	if len(key) < 2 {
		return nil, errors.New("digest cache: empty key")
	}
	if err := checkSideKind(kind); err != nil {
		return nil, err
	}
	p := c.sidePath(key, kind)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	data, err := decodeSide(b, kind)
	if err != nil {
		os.Remove(p)
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	// The modification time is the entry's last use, for eviction.
	now := time.Now()
	_ = os.Chtimes(p, now, now)
	return data, nil
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
	if len(b) < len(sideMagic)+4 || string(b[:len(sideMagic)]) != sideMagic {
		return nil, fmt.Errorf("%w: no side entry header", ErrSideCorrupt)
	}
	body := b[:len(b)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(b[len(b)-4:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, expected %08x", ErrSideCorrupt, got, want)
	}
	rest := body[len(sideMagic):]
	field := func(what string) ([]byte, error) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return nil, fmt.Errorf("%w: %s length with %d bytes left", ErrSideCorrupt, what, len(rest))
		}
		f := rest[k : k+int(n)]
		rest = rest[k+int(n):]
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
