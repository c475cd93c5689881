package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// The digest file format (README "Digest cache"), version DigestVersion:
//
//	magic    "gpureport-digest\n" (17 bytes)
//	version  uvarint
//	head     8 bytes, little endian: the length of the head, everything
//	         from the magic through the head's checksum
//	key      string: the content identity the digest was made from
//	payload  container, generation, settings, the stack section (its
//	         length in 8 bytes, little endian; the frames; the number of
//	         stacks and of their frame IDs; each stack), the host
//	         segments with their blocks, the trace digests, the decode
//	         notes (see EncodeDigest)
//	headcrc  4 bytes, CRC-32C of the head before it, little endian
//	segments the devices' segments with their blocks
//	crc      4 bytes, CRC-32C (Castagnoli) of everything before, little endian
//
// Version 2 added each trace digest's LastAlloc and the decode notes;
// version 3 the frames' FX nodes, the user_metadata texts and pool ids,
// each trace digest's live blocks (BlockTrace) and its OOM events'
// metadata and pool, and pinned host memory (host segments, host trace
// digest); version 4 each live block's allocation time; version 5 the
// stack section's length, so that a reader can take a table read from
// the same bytes before (DecodeDigestShared), and the number of frame IDs
// of all stacks, so that it sizes a table it reads once; version 6 each
// segment's encoded length (4 bytes, little endian) before it, so that a
// reader can take a segment read from the same bytes before
// (DecodeDigestReusing); version 7 the number of blocks of all
// segments, so that a reader sizes its array of blocks once; version 8
// the devices' segments after the rest, which is a head with its own
// checksum, so that a reader that needs no segments reads the head alone
// (DigestHeadLength); each block's address as its distance from the end
// of the block before it in its segment (from the segment's address for
// the first), and its requested size as what its size exceeds it by (a
// byte or two where the absolute numbers took seven and three); and each
// stack as the frames it shares with the stack before at both ends and
// the frames between. A large model's digest (175k blocks) is 40%
// smaller, an ordinary one (10k blocks) 42%: less to write on a first
// run and to read on every re-run. Version 9 added each trace digest's
// TraceWindow: its first and last time_us, its sample's level, and each
// sampled event's key hash (8 bytes, little endian) and time after the
// first.
//
// Integers are varints (signed ones zig-zag), strings a uvarint length and
// the bytes. A reader refuses another version (ErrDigestVersion), a wrong
// checksum, a count larger than the bytes left, and any index out of range
// (ErrDigestCorrupt): a cache entry is rebuilt, never trusted.

// DigestVersion is the digest file format's version. Bump it whenever the
// format or what a digest holds changes; older entries are then rebuilt.
const DigestVersion = 9

const digestMagic = "gpureport-digest\n"

// ErrDigestVersion is wrapped by DecodeDigest for a digest written by
// another version of the format.
var ErrDigestVersion = errors.New("digest format version differs")

// ErrDigestCorrupt is wrapped by DecodeDigest for a digest that is not
// well formed.
var ErrDigestCorrupt = errors.New("corrupt digest")

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// EncodeDigest serialises digest s (made by Reduce) of a file with the
// given container, recording key, the content identity it was made from.
func EncodeDigest(key string, c Container, s *Snapshot) ([]byte, error) {
	return EncodeDigestReusing(nil, key, c, s)
}

// EncodeDigestReusing is EncodeDigest writing into buf's memory when it
// is large enough (its contents are overwritten): a load that encodes
// hundreds of digests of a megabyte each, one at a time per worker,
// reuses one buffer. The result aliases buf's memory when it fits.
func EncodeDigestReusing(buf []byte, key string, c Container, s *Snapshot) ([]byte, error) {
	if s.Digest == nil {
		return nil, errors.New("EncodeDigest: not a digest (call Reduce first)")
	}
	if hint := encodedSizeHint(s); cap(buf) < hint {
		buf = make([]byte, 0, hint)
	}
	w := &digestWriter{b: buf[:0]}
	w.b = append(w.b, digestMagic...)
	w.uint(DigestVersion)
	headAt := len(w.b)
	w.b = binary.LittleEndian.AppendUint64(w.b, 0) // the head's length, written when known
	w.str(key)
	w.str(string(c))
	w.str(string(s.Generation))
	st := &s.Settings
	w.bool(st.Present)
	w.str(st.Conf)
	w.int(st.MaxSplitSize)
	w.uint(math.Float64bits(st.GCThreshold))
	w.bool(st.ExpandableSegments)
	w.uint(uint64(len(st.Raw)))
	for _, kv := range st.Raw {
		w.str(kv.Key)
		w.str(kv.Value)
	}
	// The frames and stacks, after their length (8 bytes, little endian,
	// written when known): a reader that has read the same bytes before
	// reuses that table (DecodeDigestShared).
	at := len(w.b)
	w.b = binary.LittleEndian.AppendUint64(w.b, 0)
	w.stackSection(&s.Stacks)
	binary.LittleEndian.PutUint64(w.b[at:], uint64(len(w.b)-at-8))
	w.uint(uint64(len(s.Meta)))
	for _, m := range s.Meta {
		w.str(m)
	}
	w.uint(uint64(len(s.Pools)))
	for _, p := range s.Pools {
		w.int(p[0])
		w.int(p[1])
	}
	w.segments(s.HostSegments)
	d := s.Digest
	w.int(d.LatestUS)
	w.bool(d.Traces != nil)
	w.uint(uint64(len(d.Traces)))
	for i := range d.Traces {
		w.traceDigest(&d.Traces[i])
	}
	w.bool(d.Host != nil)
	if d.Host != nil {
		w.traceDigest(d.Host)
	}
	w.uint(uint64(len(s.Notes)))
	for _, n := range s.Notes {
		w.str(n.Place)
		w.str(n.Problem)
		w.str(n.Assumed)
		w.uint(uint64(n.Count))
	}
	// The head ends with its own checksum; the devices' segments follow.
	binary.LittleEndian.PutUint64(w.b[headAt:], uint64(len(w.b)+4))
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.Checksum(w.b, crcTable))
	w.segments(s.Segments)
	if w.tooLong {
		return nil, errors.New("EncodeDigest: a segment's encoding exceeds 4 GiB")
	}
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.Checksum(w.b, crcTable))
	return w.b, nil
}

// encodedSizeHint is a generous guess of digest s's encoded size, bytes,
// so that the buffer is made once rather than doubled a dozen times for a
// large model's digest (each fresh doubling costs more than the varints):
// a frame's strings, a frame ID as at most 3 bytes, a segment's length
// and 13 numbers and a block's 5 as at most 5 bytes each, and 64 KB for
// the rest.
func encodedSizeHint(s *Snapshot) int {
	n := 64<<10 + 128*len(s.Stacks.Frames) + 3*len(s.Stacks.ids) + 3*len(s.Stacks.off)
	for _, segs := range [2][]*Segment{s.Segments, s.HostSegments} {
		n += 69 * len(segs)
		for i := range segs {
			n += 25 * len(segs[i].Blocks)
		}
	}
	return n
}

// stackSection writes the frames, with their FX nodes, and the stacks:
// their count, the number of frame IDs of all of them, then each stack as
// the frames it shares with the stack before (sharedEnds) and the frame
// IDs between.
func (w *digestWriter) stackSection(st *Stacks) {
	w.uint(uint64(len(st.Frames)))
	for _, f := range st.Frames {
		w.str(f.File)
		w.int(int64(f.Line))
		w.str(f.Name)
		w.str(f.FX.Op)
		w.str(f.FX.Name)
		w.str(f.FX.Target)
		w.str(f.FX.Trace)
	}
	w.uint(uint64(st.Len() - 1))
	w.uint(uint64(len(st.ids)))
	var prev []FrameID
	for id := 1; id < st.Len(); id++ {
		ids := st.Stack(StackID(id))
		p, q := sharedEnds(prev, ids)
		w.uint(uint64(p))
		w.uint(uint64(q))
		w.uint(uint64(len(ids) - p - q))
		for _, f := range ids[p : len(ids)-q] {
			w.uint(uint64(f))
		}
		prev = ids
	}
}

// sharedEnds returns how many frames stack ids shares with stack prev
// at its start (p), and then at its end (q) among the frames left: a
// digest writes a stack as those two counts and the frames between.
// Stacks interned one after the other share most of their frames (the
// training loop's outer frames at the end, an operator's inner ones at
// the start): on the generator's shapes this writes a fourth to a third
// of the stacks' bytes.
func sharedEnds(prev, ids []FrameID) (p, q int) {
	for p < len(ids) && p < len(prev) && ids[p] == prev[p] {
		p++
	}
	for q < len(ids)-p && q < len(prev)-p && ids[len(ids)-1-q] == prev[len(prev)-1-q] {
		q++
	}
	return p, q
}

// segments writes a segment list, the number of their blocks (so that a
// reader sizes its array once), and each segment with its blocks, after
// the length of its encoding (4 bytes, little endian), so that a reader
// can compare a segment's bytes with one it has read before without
// reading its numbers (Sharer). A segment's encoding names nothing
// outside it but stack IDs.
func (w *digestWriter) segments(segs []*Segment) {
	w.uint(uint64(len(segs)))
	blocks := 0
	for _, sg := range segs {
		blocks += len(sg.Blocks)
	}
	w.uint(uint64(blocks))
	for i := range segs {
		sg := segs[i]
		at := len(w.b)
		w.b = binary.LittleEndian.AppendUint32(w.b, 0)
		w.int(int64(sg.Device))
		w.uint(sg.Address)
		w.int(sg.TotalSize)
		w.int(sg.AllocatedSize)
		w.int(sg.ActiveSize)
		w.int(sg.RequestedSize)
		w.int(sg.Stream)
		w.uint(uint64(sg.Pool))
		w.int(sg.PrivatePool[0])
		w.int(sg.PrivatePool[1])
		w.bool(sg.Expandable)
		w.uint(uint64(sg.Stack))
		w.uint(uint64(len(sg.Blocks)))
		next := sg.Address // where a block that follows the last one starts
		for j := range sg.Blocks {
			b := &sg.Blocks[j]
			w.int(int64(b.Address - next))
			w.int(b.Size)
			w.int(b.Size - b.RequestedSize)
			next = b.Address + uint64(b.Size)
			w.uint(uint64(b.State))
			w.uint(uint64(b.Stack))
		}
		if n := len(w.b) - at - 4; n > math.MaxUint32 {
			w.tooLong = true
		} else {
			binary.LittleEndian.PutUint32(w.b[at:], uint32(n))
		}
	}
}

// traceDigest writes one trace digest.
func (w *digestWriter) traceDigest(t *TraceDigest) {
	w.uint(uint64(t.Entries))
	w.uint(uint64(t.UnknownFrees))
	w.uint(uint64(len(t.OOMs)))
	for _, e := range t.OOMs {
		w.uint(uint64(e.Index))
		w.uint(e.Addr)
		w.int(e.Size)
		w.int(e.Stream)
		w.int(e.TimeUS)
		w.uint(uint64(e.Stack))
		w.uint(uint64(e.Action))
		w.uint(uint64(e.Meta))
		w.uint(uint64(e.Pool))
	}
	w.int(int64(t.LastAlloc))
	w.uint(uint64(len(t.Live)))
	for _, bt := range t.Live {
		w.uint(bt.Addr)
		w.uint(uint64(bt.Alloc))
		w.int(bt.TimeUS)
		w.uint(uint64(bt.Meta))
		w.uint(uint64(len(bt.Notes)))
		for _, n := range bt.Notes {
			w.uint(uint64(n))
		}
	}
	w.int(t.Window.FirstUS)
	w.int(t.Window.LastUS)
	w.uint(uint64(t.Window.Level))
	w.uint(uint64(len(t.Window.Sample)))
	for _, k := range t.Window.Sample {
		w.b = binary.LittleEndian.AppendUint64(w.b, k.Key)
		w.uint(uint64(k.TimeUS - t.Window.FirstUS))
	}
}

// digestWriter appends a digest's numbers to b; tooLong records a
// segment whose encoding does not fit its 4-byte length (4 GiB: some
// 300 million blocks).
type digestWriter struct {
	b       []byte
	tooLong bool
}

func (w *digestWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *digestWriter) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *digestWriter) str(s string)  { w.uint(uint64(len(s))); w.b = append(w.b, s...) }
func (w *digestWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// digestHeadAt is where a digest's head length is: after the magic line
// and the version, which takes one byte.
const digestHeadAt = len(digestMagic) + 1

// digestHead checks the magic line, the version and the head's checksum
// of digest b, which may be its head alone, and returns the head's
// length: the bytes up to and including its checksum.
func digestHead(b []byte) (int, error) {
	head, err := DigestHeadLength(b)
	if err != nil {
		return 0, err
	}
	if head > len(b) {
		return 0, fmt.Errorf("%w: a head of %d bytes in %d", ErrDigestCorrupt, head, len(b))
	}
	if got, want := crc32.Checksum(b[:head-4], crcTable), binary.LittleEndian.Uint32(b[head-4:]); got != want {
		return 0, fmt.Errorf("%w: head checksum %08x, expected %08x", ErrDigestCorrupt, got, want)
	}
	return head, nil
}

// DigestHeadLength returns the length of the head of the digest that
// prefix begins (at least DigestPrefix bytes of it, or the whole digest
// when shorter): everything but the devices' segments, which is what
// DecodeDigestWithoutSegments reads. Errors wrap ErrDigestVersion or
// ErrDigestCorrupt.
func DigestHeadLength(prefix []byte) (int, error) {
	if len(prefix) < DigestPrefix || string(prefix[:len(digestMagic)]) != digestMagic {
		return 0, fmt.Errorf("%w: no digest header", ErrDigestCorrupt)
	}
	if v := prefix[len(digestMagic)]; v != DigestVersion {
		// A version of 128 or more would take two bytes: not this one.
		return 0, fmt.Errorf("%w: version %d, this gpureport reads version %d", ErrDigestVersion, v, DigestVersion)
	}
	head := binary.LittleEndian.Uint64(prefix[digestHeadAt:])
	if head < uint64(DigestPrefix)+4 || head > math.MaxInt32 {
		return 0, fmt.Errorf("%w: a head of %d bytes", ErrDigestCorrupt, head)
	}
	return int(head), nil
}

// DigestPrefix is how many bytes of a digest DigestHeadLength needs.
const DigestPrefix = digestHeadAt + 8

// DecodeDigest reads a digest written by EncodeDigest and returns the key
// it records, the file's container and the digest. Errors wrap
// ErrDigestVersion or ErrDigestCorrupt.
func DecodeDigest(b []byte) (key string, c Container, s *Snapshot, err error) {
	return DecodeDigestShared(b, nil)
}

// DecodeDigestShared is DecodeDigest for the digests of one load: when t
// has lately read a stack section with the same bytes (consecutive
// snapshots of a steady run hold the same stacks), the digest gets that
// table, already shared, instead of reading its own. t may be nil.
func DecodeDigestShared(b []byte, t *Sharer) (key string, c Container, s *Snapshot, err error) {
	return decodeDigest(b, t, nil, false)
}

// DecodeDigestWithoutSegments is DecodeDigestShared leaving the devices'
// segments unread: s.Segments is nil and s.Digest.SegmentsUnread is set.
// b may be the digest's head alone (DigestHeadLength); only the head's
// checksum is checked.
// The host segments, the stacks and the trace digests are read. A re-run
// reads most cached digests only for what a point entry of the analysis
// already holds (their segments' sums), and reading the segments was
// two thirds of a digest's decoding; DecodeDigestShared of the same bytes
// gives them when a stage needs them after all.
func DecodeDigestWithoutSegments(b []byte, t *Sharer) (key string, c Container, s *Snapshot, err error) {
	return decodeDigest(b, t, nil, true)
}

// DecodeDigestReusing is DecodeDigestShared followed by t.Share, its
// segments and blocks read into arrays borrowed from sc (and kept there
// for the next call), so that the digest holds only the copies Share
// makes of what no earlier digest holds. A segment whose bytes equal
// those of a segment in one of the last digests t read this way is that
// segment, and its numbers are not read again: a run's segments mostly
// repeat from snapshot to snapshot, and reading them was most of a
// re-run's load. t must not be nil.
func DecodeDigestReusing(b []byte, t *Sharer, sc *Scratch) (key string, c Container, s *Snapshot, err error) {
	key, c, s, err = decodeDigest(b, t, &sc.reduce, false)
	if err == nil {
		spans := sc.reduce.spans
		t.share(s, true, spans)
		for i := range spans {
			spans[i].seg = s.Segments[i]
			spans[i].nblocks = uint32(len(s.Segments[i].Blocks))
		}
		t.rememberSection(sc.reduce.section, spans, sc.reduce.seen)
	}
	// b is the caller's; the sections are let go.
	t.release(sc.reduce.seen)
	sc.reduce.section, sc.reduce.seen = nil, nil
	return key, c, s, err
}

// decodeDigest is DecodeDigestShared, reading the segments into r's
// arrays when r is not nil, and leaving the devices' segments unread
// (b may then be the head alone) when skipSegments is set.
func decodeDigest(b []byte, t *Sharer, arrays *reduceArrays, skipSegments bool) (key string, c Container, s *Snapshot, err error) {
	head, err := digestHead(b)
	if err != nil {
		return "", "", nil, err
	}
	if !skipSegments {
		if len(b) < head+4 {
			return "", "", nil, fmt.Errorf("%w: no segments after the head", ErrDigestCorrupt)
		}
		if got, want := crc32.Checksum(b[:len(b)-4], crcTable), binary.LittleEndian.Uint32(b[len(b)-4:]); got != want {
			return "", "", nil, fmt.Errorf("%w: checksum %08x, expected %08x", ErrDigestCorrupt, got, want)
		}
	}
	r := &digestReader{b: b[DigestPrefix : head-4], arrays: arrays}
	if arrays != nil {
		r.seen = t.seen()
		arrays.spans, arrays.section, arrays.seen = arrays.spans[:0], nil, r.seen
	}
	key = r.str()
	c = Container(r.str())
	s = &Snapshot{Generation: Generation(r.str()), Digest: &Digest{}}
	st := &s.Settings
	st.Present = r.bool()
	st.Conf = intern(r.str())
	st.MaxSplitSize = r.int()
	st.GCThreshold = math.Float64frombits(r.uint())
	st.ExpandableSegments = r.bool()
	if n := r.count(2); n > 0 {
		st.Raw = make([]KeyValue, n)
		for i := range st.Raw {
			st.Raw[i] = KeyValue{Key: intern(r.str()), Value: intern(r.str())}
		}
	}
	r.stacks = r.stackSection(&s.Stacks, t)
	if nm := r.count(1); nm > 0 {
		s.Meta = make([]string, nm)
		for i := range s.Meta {
			s.Meta[i] = intern(r.str())
		}
		if r.err == nil && s.Meta[0] != "" {
			r.fail("user_metadata 0 is not empty")
		}
	}
	r.metas = len(s.Meta)
	if np := r.count(2); np > 0 {
		if np > maxPools {
			r.fail("%d pool ids", np)
		}
		s.Pools = make([][2]int64, min(np, maxPools))
		for i := range s.Pools {
			s.Pools[i] = [2]int64{r.int(), r.int()}
		}
	}
	r.pools = len(s.Pools)
	s.HostSegments = r.segments(true)
	d := s.Digest
	d.LatestUS = r.int()
	hasTraces := r.bool()
	nd := r.count(4)
	if hasTraces {
		d.Traces = make([]TraceDigest, nd)
	} else if nd > 0 {
		r.fail("trace digests without traces")
	}
	for i := 0; i < len(d.Traces) && r.err == nil; i++ {
		d.Traces[i] = r.traceDigest()
	}
	if r.bool() {
		td := r.traceDigest()
		d.Host = &td
	}
	nn := r.count(4)
	for i := 0; i < nn && r.err == nil; i++ {
		n := DecodeNote{Place: intern(r.str()), Problem: intern(r.str()), Assumed: intern(r.str())}
		n.Count = int(r.enum(math.MaxInt32))
		if r.err == nil && n.Count < 1 {
			r.fail("decode note with count %d", n.Count)
		}
		s.Notes = append(s.Notes, n)
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d bytes after the end of the head", len(r.b))
	}
	if skipSegments {
		s.Digest.SegmentsUnread = true
	} else if r.err == nil {
		r.b = b[head : len(b)-4]
		s.Segments = r.segments(false)
		if r.err == nil && len(r.b) != 0 {
			r.fail("%d bytes after the end", len(r.b))
		}
	}
	if r.err != nil {
		return "", "", nil, r.err
	}
	s.Stacks.Seal()
	return key, c, s, nil
}

// stack reads a StackID of the digest's stacks.
func (r *digestReader) stack() StackID {
	v := r.uint()
	if v > uint64(r.stacks) {
		r.fail("stack %d of %d", v, r.stacks)
		return NoStack
	}
	return StackID(v)
}

// meta reads a MetaID of the digest's user_metadata texts.
func (r *digestReader) meta() MetaID {
	v := r.uint()
	if v > 0 && v >= uint64(r.metas) {
		r.fail("user_metadata %d of %d", v, r.metas)
		return NoMeta
	}
	return MetaID(v)
}

// segments reads a segment list with its blocks (nil when empty): the
// host segments, whose device is HostDevice, or the devices'. Each
// segment is read from its own bytes, whose length comes first. Reading
// the devices' segments of a digest for DecodeDigestReusing (r.seen is
// set), a segment whose bytes equal those of one read lately, with stack
// IDs this digest's table holds, is that segment, already shared, and is
// not read again; each segment's place is kept in the arrays' spans, its
// bytes in their section, for Sharer.rememberSection.
func (r *digestReader) segments(host bool) []*Segment {
	nseg := r.count(18)
	nblocks := r.count(5)
	if nseg == 0 {
		if nblocks != 0 {
			r.fail("%d blocks in no segment", nblocks)
		}
		return nil
	}
	var segs []Segment
	var blocks []Block // the borrowed array, when borrowed
	borrowed := r.arrays != nil && !host
	var spans []rawSeg
	total := 0 // the blocks of the segments read or taken so far
	if borrowed {
		segs, blocks = r.arrays.segmentArrays(nseg, nblocks)
		spans = r.arrays.spans[:0]
	} else {
		segs = make([]Segment, nseg)
	}
	out := make([]*Segment, nseg)
	section := r.b
	for i := 0; i < nseg && r.err == nil; i++ {
		n, ok := r.segmentLength()
		if !ok {
			r.badSegmentLength(i, nseg)
			break
		}
		off := len(section) - len(r.b) + 4
		span, rest := r.b[4:4+n], r.b[4+n:]
		if borrowed && r.seen != nil {
			if found, ok := r.seen.find(span, StackID(r.stacks)); ok {
				total += int(found.nblocks)
				out[i] = found.seg
				found.off, found.n, found.hit = uint32(off), n, true
				spans = append(spans, found)
				r.b = rest
				continue
			}
		}
		r.b = span
		sg := &segs[i]
		if host {
			if sg.Device = int(r.int()); sg.Device != HostDevice {
				r.fail("host segment of device %d", sg.Device)
			}
		} else {
			sg.Device = r.device()
		}
		sg.Address = r.uint()
		sg.TotalSize = r.int()
		sg.AllocatedSize = r.int()
		sg.ActiveSize = r.int()
		sg.RequestedSize = r.int()
		sg.Stream = r.int()
		sg.Pool = Pool(r.enum(uint64(PoolLarge)))
		sg.PrivatePool = [2]int64{r.int(), r.int()}
		sg.Expandable = r.bool()
		sg.Stack = r.stack()
		maxStack := sg.Stack
		if nb := r.count(5); nb > 0 {
			if total += nb; total > nblocks {
				r.fail("segment %d of %d: more blocks than the %d counted", i, nseg, nblocks)
				break
			}
			if borrowed {
				// The array holds the blocks counted (those of the
				// segments taken are not read into it).
				start := len(blocks)
				blocks = blocks[:start+nb]
				sg.Blocks = blocks[start : start+nb : start+nb]
			} else {
				sg.Blocks = make([]Block, nb)
			}
			next := sg.Address // see segments: addresses are relative
			for j := range sg.Blocks {
				b := &sg.Blocks[j]
				b.Address = next + uint64(r.int())
				b.Size = r.int()
				b.RequestedSize = b.Size - r.int()
				next = b.Address + uint64(b.Size)
				b.State = BlockState(r.enum(uint64(StateUnknown)))
				b.Stack = r.stack()
				maxStack = max(maxStack, b.Stack)
			}
		}
		if r.err != nil {
			break
		}
		if len(r.b) != 0 {
			r.fail("segment %d of %d: %d bytes after its end", i, nseg, len(r.b))
			break
		}
		r.b = rest
		out[i] = sg
		if borrowed {
			spans = append(spans, rawSeg{off: uint32(off), n: n, addr: sg.Address, size: sg.TotalSize, maxStack: maxStack})
		}
	}
	if r.err == nil && total != nblocks {
		r.fail("%d blocks, %d counted", total, nblocks)
	}
	if borrowed {
		r.arrays.blocks = blocks
		r.arrays.spans = spans
		r.arrays.section = section[:len(section)-len(r.b)]
	}
	return out
}

// segmentLength reads the length of the next segment, the 4 bytes before
// its own, and reports whether they and the segment's bytes are there
// (badSegmentLength says why not). Small enough to inline.
func (r *digestReader) segmentLength() (uint32, bool) {
	if len(r.b) < 4 {
		return 0, false
	}
	n := binary.LittleEndian.Uint32(r.b)
	return n, uint64(n) <= uint64(len(r.b)-4)
}

// badSegmentLength fails the read at segment i of nseg, whose length or
// bytes are missing.
func (r *digestReader) badSegmentLength(i, nseg int) {
	if len(r.b) < 4 {
		r.fail("segment %d of %d: no length", i, nseg)
		return
	}
	r.fail("segment %d of %d: length %d with %d bytes left", i, nseg, binary.LittleEndian.Uint32(r.b), len(r.b)-4)
}

// traceDigest reads one trace digest.
func (r *digestReader) traceDigest() TraceDigest {
	var t TraceDigest
	t.Entries = int(r.enum(math.MaxInt32))
	t.UnknownFrees = int(r.enum(uint64(t.Entries)))
	no := r.count(9)
	for i := 0; i < no && r.err == nil; i++ {
		var e IndexedEntry
		e.Index = int(r.uint())
		e.Addr = r.uint()
		e.Size = r.int()
		e.Stream = r.int()
		e.TimeUS = r.int()
		e.Stack = r.stack()
		e.Action = Action(r.enum(uint64(numActions - 1)))
		e.Meta = r.meta()
		e.Pool = uint16(r.enum(uint64(r.pools)))
		if r.err == nil && e.Index >= t.Entries {
			r.fail("OOM event %d of a %d-event trace", e.Index, t.Entries)
		}
		t.OOMs = append(t.OOMs, e)
	}
	t.LastAlloc = int(r.int())
	if r.err == nil && (t.LastAlloc < -1 || t.LastAlloc >= t.Entries) {
		r.fail("last allocation %d of a %d-event trace", t.LastAlloc, t.Entries)
	}
	nl := r.count(5)
	for i := 0; i < nl && r.err == nil; i++ {
		bt := BlockTrace{Addr: r.uint()}
		bt.Alloc = int(r.enum(uint64(max(t.Entries-1, 0))))
		bt.TimeUS = r.int()
		bt.Meta = r.meta()
		if nn := r.count(1); nn > 0 {
			bt.Notes = make([]MetaID, nn)
			for k := range bt.Notes {
				bt.Notes[k] = r.meta()
			}
		}
		if r.err == nil && i > 0 && t.Live[i-1].Addr >= bt.Addr {
			r.fail("live blocks out of address order")
		}
		t.Live = append(t.Live, bt)
	}
	w := &t.Window
	w.FirstUS, w.LastUS = r.int(), r.int()
	w.Level = uint8(r.enum(64))
	ns := r.count(9)
	if r.err == nil && (ns > TraceSampleCap || w.FirstUS > w.LastUS || (ns > 0 && w.LastUS == 0)) {
		r.fail("trace window %d..%d with %d sampled events", w.FirstUS, w.LastUS, ns)
	}
	for i := 0; i < ns && r.err == nil; i++ {
		if len(r.b) < 8 {
			r.fail("truncated sampled event")
			break
		}
		k := KeyedTime{Key: binary.LittleEndian.Uint64(r.b)}
		r.b = r.b[8:]
		k.TimeUS = w.FirstUS + int64(r.enum(uint64(w.LastUS-w.FirstUS)))
		if r.err == nil && !sampled(k.Key, w.Level) {
			r.fail("sampled event key %x not of level %d", k.Key, w.Level)
		}
		w.Sample = append(w.Sample, k)
	}
	return t
}

// digestReader reads the fields of a digest, keeping the first error.
type digestReader struct {
	b   []byte
	err error
	// stacks, metas and pools are the sizes of the digest's tables, for
	// checking the indexes into them.
	stacks, metas, pools int
	// arrays, when set, hold the devices' segments and blocks
	// (DecodeDigestReusing).
	arrays *reduceArrays
	// seen, when set, are the segment sections DecodeDigestReusing read
	// lately (with arrays).
	seen *seenSections
}

// stackSection reads the frames and stacks (digestWriter.stackSection)
// into st, or takes the table t read from the same bytes lately, and
// returns the number of stacks.
func (r *digestReader) stackSection(st *Stacks, t *Sharer) int {
	if len(r.b) < 8 {
		r.fail("no stack section")
		return 0
	}
	n := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	if n > uint64(len(r.b)) {
		r.fail("stack section of %d bytes with %d left", n, len(r.b))
		return 0
	}
	raw := r.b[:n]
	r.b = r.b[n:]
	if t != nil {
		if tab, ok := t.recentTable(raw); ok {
			*st = tab
			return st.Len() - 1
		}
	}
	sr := &digestReader{b: raw}
	nf := sr.count(7)
	st.Frames = make([]Frame, 0, nf)
	for range nf {
		f := Frame{File: intern(sr.str()), Line: int(sr.int()), Name: intern(sr.str())}
		f.FX = FXNode{Op: intern(sr.str()), Name: intern(sr.str()), Target: intern(sr.str()), Trace: intern(sr.str())}
		// Frames are distinct by construction; append without interning
		// so that a duplicate does not shift the IDs.
		st.Frames = append(st.Frames, f)
	}
	ns := sr.count(3)
	total := sr.uint()
	if sr.err == nil && total > maxIDsPerByte*uint64(len(sr.b)) {
		sr.fail("%d frame IDs in %d bytes", total, len(sr.b))
	}
	sr.stackTable(st, ns, int(total), nf)
	if sr.err == nil && len(sr.b) > 0 {
		sr.fail("%d bytes after the stacks", len(sr.b))
	}
	if sr.err != nil {
		r.err = fmt.Errorf("stack section: %w", sr.err)
		r.b = nil
		return 0
	}
	if t != nil {
		t.shareStacks(st, false)
		t.rememberTable(raw, *st)
	}
	return ns
}

// maxIDsPerByte bounds the frame IDs a stack section may declare per
// byte of its stacks, before the table is sized from the count. A stack
// that repeats the one before it but for one frame takes four bytes,
// so a section of 1,000-frame stacks that differ by a frame each holds
// 250 IDs a byte; a count beyond this bound is corrupt.
const maxIDsPerByte = 1024

// stackTable reads ns stacks of total frame IDs in all into st, whose
// nf frames are read: each stack as the number of frames it shares with
// the stack before at its start and then at its end, and the frame IDs
// between (digestWriter.stackSection). The table
// is sized once; every stack must be non-empty, name frames that exist,
// and differ from every other (a digest holds each distinct stack once,
// so a repeat means a corrupt entry).
func (r *digestReader) stackTable(st *Stacks, ns, total, nf int) {
	st.off = make([]uint32, 0, ns)
	st.ids = make([]FrameID, 0, total)
	var prev []FrameID
	for id := 1; id <= ns && r.err == nil; id++ {
		p, q := r.uint(), r.uint()
		k := r.count(1)
		if r.err == nil && p+q > uint64(len(prev)) {
			r.fail("stack %d shares %d and %d frames with the %d of the stack before", id, p, q, len(prev))
		}
		n := int(p) + int(q) + k
		if r.err == nil && (n == 0 || n > total-len(st.ids)) {
			r.fail("stack %d has %d frames, %d of %d frame IDs left", id, n, total-len(st.ids), total)
		}
		if r.err != nil {
			return
		}
		start := len(st.ids)
		st.ids = append(st.ids, prev[:p]...)
		for range k {
			f := r.uint()
			if r.err == nil && f >= uint64(nf) {
				r.fail("frame %d of %d", f, nf)
			}
			if r.err != nil {
				return
			}
			st.ids = append(st.ids, FrameID(f))
		}
		st.ids = append(st.ids, prev[len(prev)-int(q):]...)
		st.off = append(st.off, uint32(len(st.ids)))
		prev = st.ids[start:len(st.ids):len(st.ids)]
	}
	if r.err != nil {
		return
	}
	if len(st.ids) != total {
		r.fail("stacks hold %d frame IDs, the table says %d", len(st.ids), total)
	} else if id, ok := st.firstRepeat(); ok {
		r.fail("stack %d repeats an earlier one", id)
	}
}

func (r *digestReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrDigestCorrupt, fmt.Sprintf(format, args...))
	}
	r.b = nil
}

// uint and int read one varint. Most of a digest's numbers (block states,
// stack IDs, counts, small sizes) take one byte: that case is answered at
// once, the rest by binary.Uvarint, called directly (a generic reader
// taking it as a value cost a dictionary and an indirect call a number,
// on a re-run's hottest path).
func (r *digestReader) uint() uint64 {
	b := r.b
	if len(b) > 0 && b[0] < 0x80 {
		r.b = b[1:]
		return uint64(b[0])
	}
	v, n := binary.Uvarint(b)
	if n <= 0 {
		// After a failure r.b is empty: every later number fails here
		// too, and reads as 0.
		r.fail("truncated number")
		return 0
	}
	r.b = b[n:]
	return v
}

// int reads a zig-zag varint (binary.Varint).
func (r *digestReader) int() int64 {
	u := r.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (r *digestReader) bool() bool {
	switch r.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail("boolean out of range")
	return false
}

// enum reads a number of at most hi.
func (r *digestReader) enum(hi uint64) uint64 {
	v := r.uint()
	if v > hi {
		r.fail("value %d above %d", v, hi)
		return 0
	}
	return v
}

// device reads a device index: a CUDA device number, below 1<<16.
func (r *digestReader) device() int {
	v := r.int()
	if v < 0 || v >= 1<<16 {
		r.fail("device %d", v)
		return 0
	}
	return int(v)
}

// count reads the length of a list whose items take at least min bytes
// each (least), and refuses one longer than the bytes left could hold, so a
// corrupt count cannot make the reader allocate much.
func (r *digestReader) count(least int) int {
	v := r.uint()
	if r.err == nil && v > uint64(len(r.b)/least) {
		r.fail("count %d with %d bytes left", v, len(r.b))
		return 0
	}
	return int(v)
}

func (r *digestReader) str() string {
	n := r.count(1)
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
