package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gpureport/snapshot"
)

// A stat index spares a re-run the content keys of files that did not
// change. Finding a file's content key opens it, reads 16 sampled blocks
// and hashes them: about 0.1 ms of CPU a file, 7% of a re-run of 200
// ordinary snapshots after one more. The index keeps, for each snapshot of
// a run folder, the content key found for it and the file's identity when
// it was found: its size, modification and change times (nanoseconds),
// inode and device, which discovery reads anyway (it stats every file it
// opens: Candidate.id). A file whose identity is unchanged has the same
// content key: any write to a file sets its change time (ctime) to the
// time of the write, which no user call can set back (cp -p and rsync -t
// preserve the modification time only), and a file replaced by another
// gets another inode.
//
// One exception is a write within one tick of the file system's clock
// after the identity was read (ext4's ctime moves at the kernel's timer
// tick, some file systems' at whole seconds): the change time may not
// move. An entry is therefore kept only when the file's change and
// modification times are more than racyWindow before the time the entry
// was made, so that a later write, later still, moves the change time to
// another tick. (Git's index has the same rule for its "racily clean"
// entries.) The file system's clock and this machine's are taken to agree
// within that window, as they do on a local disk and on a network file
// system whose server keeps time. A freshly written snapshot is keyed by
// its content the first time and indexed the next.
//
// Without the identity (Windows: no inode or change time in os.FileInfo)
// there is no index, and every key is found from the file's content.
//
// The index file, one per run folder and cache, is
// <cache>/index/<first 32 hex digits of SHA-256 of the run folder's
// absolute path>.idx:
//
//	magic    "gpureport-statindex\n"
//	format   uvarint, statIndexFormat
//	digest   uvarint, snapshot.DigestVersion (which the content key hashes)
//	folder   uvarint length and the bytes: the run folder's absolute path
//	count    uvarint, then for each entry:
//	  name     uvarint length and the bytes: the file's path in the run
//	  size, mtime, ctime        varints (bytes; Unix nanoseconds)
//	  ino, dev                  uvarints
//	  recorded                  varint, Unix nanoseconds
//	  key                       32 bytes, the content key's SHA-256
//	crc      4 bytes, CRC-32C (Castagnoli) of everything before, little endian
//
// An index that does not read back whole, of another format or digest
// version, or of another folder is ignored and written again: it is
// rebuilt, never trusted. It is evicted with the digests.

// statIndexExt names stat index files in the cache folder.
const statIndexExt = ".idx"

const statIndexMagic = "gpureport-statindex\n"

// statIndexFormat is the index file's format version.
const statIndexFormat = 1

// racyWindow is how long after a file's last change (and modification)
// its index entry must have been made to be kept: more than the coarsest
// common file system clock (FAT's two seconds; ext4's change time moves at
// the timer tick, milliseconds), so that a write after the entry was made
// lands on another tick of that clock.
const racyWindow = 3 * time.Second

// fileIdentity is what one stat of a file tells of its content's
// identity.
type fileIdentity struct {
	// Size is in bytes; MTime and CTime are Unix nanoseconds.
	Size, MTime, CTime int64
	// Ino and Dev are the inode and device numbers.
	Ino, Dev uint64
}

// statEntry is a file's identity and its content key when the entry was
// made (Recorded, Unix nanoseconds).
type statEntry struct {
	id       fileIdentity
	recorded int64
	key      string
}

// settled reports whether e may be kept: the file had not changed for
// racyWindow when the entry was made.
func (e statEntry) settled() bool {
	limit := e.recorded - int64(racyWindow)
	return e.id.CTime < limit && e.id.MTime < limit
}

// statIndex is a run folder's index: the entries read and those made by
// this load.
type statIndex struct {
	path    string // the index file; "" for none
	folder  string // the run folder's absolute path
	entries map[string]statEntry
}

// openStatIndex reads the index of run folder dir in cache, empty when
// there is none or it does not read back; nil when dir has no absolute
// path.
func openStatIndex(cache *DigestCache, dir string) *statIndex {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	sum := sha256.Sum256([]byte(abs))
	ix := &statIndex{
		path:   filepath.Join(cache.Dir, "index", hex.EncodeToString(sum[:16])+statIndexExt),
		folder: abs,
	}
	if b, err := os.ReadFile(ix.path); err == nil {
		if folder, entries, err := decodeStatIndex(b); err == nil && folder == abs {
			ix.entries = entries
		}
	}
	if ix.entries == nil {
		ix.entries = map[string]statEntry{}
	}
	return ix
}

// lookup returns the content key the index holds for the file named name
// in the run, whose identity is id, and whether it holds one.
func (ix *statIndex) lookup(name string, id fileIdentity) (string, bool) {
	e, ok := ix.entries[name]
	if !ok || e.id != id || !e.settled() {
		return "", false
	}
	return e.key, true
}

// save stores the index of this load's snapshots, cands with their
// content keys keys (one for each candidate, "" for none), when its
// settled entries differ from the index read: an entry made now, or kept
// from the index (with the time it was made) when the file's identity and
// key are the ones it holds.
func (ix *statIndex) save(cands []Candidate, keys []string, now time.Time) error {
	keep := make(map[string]statEntry, len(cands))
	for i, c := range cands {
		if keys[i] == "" || !c.identified {
			continue
		}
		e := statEntry{id: c.id, recorded: now.UnixNano(), key: keys[i]}
		if old, ok := ix.entries[c.Source.Path]; ok && old.id == e.id && old.key == e.key {
			e.recorded = old.recorded
		}
		if e.settled() {
			keep[c.Source.Path] = e
		}
	}
	if maps.Equal(keep, ix.entries) {
		return nil
	}
	return writeAtomic(ix.path, encodeStatIndex(ix.folder, keep))
}

// encodeStatIndex writes the entries of folder in the index file format,
// sorted by name so that the same entries write the same bytes.
func encodeStatIndex(folder string, entries map[string]statEntry) []byte {
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	slices.Sort(names)
	b := []byte(statIndexMagic)
	b = binary.AppendUvarint(b, statIndexFormat)
	b = binary.AppendUvarint(b, snapshot.DigestVersion)
	b = appendString(b, folder)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		e := entries[n]
		key, err := hex.DecodeString(e.key)
		if err != nil || len(key) != sha256.Size {
			continue // not a content key: never written by ContentKey
		}
		b = appendString(b, n)
		b = binary.AppendVarint(b, e.id.Size)
		b = binary.AppendVarint(b, e.id.MTime)
		b = binary.AppendVarint(b, e.id.CTime)
		b = binary.AppendUvarint(b, e.id.Ino)
		b = binary.AppendUvarint(b, e.id.Dev)
		b = binary.AppendVarint(b, e.recorded)
		b = append(b, key...)
	}
	return encodeCRC(b)
}

// encodeCRC appends the CRC-32C of b, little endian.
func encodeCRC(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// errStatIndex is what decodeStatIndex returns for bytes that are not an
// index of this format and digest version.
var errStatIndex = errors.New("not a stat index of this version")

// decodeStatIndex reads an index file: the run folder and its entries by
// name. It refuses (errStatIndex) a wrong magic, format, digest version
// or checksum, a truncated or overlong file, a count larger than the
// bytes left, and a name given twice.
func decodeStatIndex(b []byte) (string, map[string]statEntry, error) {
	if len(b) < len(statIndexMagic)+4 || !bytes.HasPrefix(b, []byte(statIndexMagic)) {
		return "", nil, errStatIndex
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return "", nil, errStatIndex
	}
	r := ixReader{b: body[len(statIndexMagic):], ok: true}
	if r.uint() != statIndexFormat || r.uint() != snapshot.DigestVersion {
		return "", nil, errStatIndex
	}
	folder, ok := r.string()
	n := r.uint()
	// Each entry takes at least 40 bytes (a name, six numbers, the key).
	if !ok || !r.ok || n > uint64(len(r.b))/40 {
		return "", nil, errStatIndex
	}
	entries := make(map[string]statEntry, n)
	for range n {
		name, ok := r.string()
		var e statEntry
		e.id.Size, e.id.MTime, e.id.CTime = r.int(), r.int(), r.int()
		e.id.Ino, e.id.Dev = r.uint(), r.uint()
		e.recorded = r.int()
		if !ok || !r.ok || len(r.b) < sha256.Size {
			return "", nil, errStatIndex
		}
		e.key, r.b = hex.EncodeToString(r.b[:sha256.Size]), r.b[sha256.Size:]
		if _, dup := entries[name]; dup {
			return "", nil, errStatIndex
		}
		entries[name] = e
	}
	if len(r.b) != 0 {
		return "", nil, errStatIndex
	}
	return folder, entries, nil
}

// ixReader reads the varints and strings of an index, keeping ok false
// from the first that does not read.
type ixReader struct {
	b  []byte
	ok bool
}

func (r *ixReader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.ok, r.b = false, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// int reads a varint: a uvarint of the zig-zag encoding, as
// binary.AppendVarint writes it.
func (r *ixReader) int() int64 {
	u := r.uint()
	return int64(u>>1) ^ -int64(u&1)
}

// string reads a length and that many bytes.
func (r *ixReader) string() (string, bool) {
	l := r.uint()
	if !r.ok || l > uint64(len(r.b)) {
		r.ok, r.b = false, nil
		return "", false
	}
	s := string(r.b[:l])
	r.b = r.b[l:]
	return s, true
}
