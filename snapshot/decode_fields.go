package snapshot

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Snapshot fields are read by meaning, not by the exact Python type a
// given PyTorch or Python version happened to write: an integer may come in
// any width (BININT1 ... LONG1, LONG4, wider than 64 bits), a list may be a
// tuple and a tuple a list, a str may be bytes, a key may be missing or
// None. The rules below decide what each kind of field makes of a value.
// Both decoders use them: the fast path (pickle_roles.go) for the values
// it can take silently, handing anything that calls for a note to the
// generic path (convert.go), which records the note. A field that cannot be
// made sense of costs that field, never the file: the decoder assumes a
// value and says so in a DecodeNote.

// intState is how a value reads as an integer.
type intState uint8

const (
	// intOK: an integer that fits int64; the value is int64(x).
	intOK intState = iota
	// intHigh: an integer in [2^63, 2^64-1); x holds it as unsigned.
	intHigh
	// intAbsent: the key is missing or its value is None.
	intAbsent
	// intUnknown: -1 or 2^64-1, PyTorch's "unknown" (a frame line it
	// could not find is 2^64-1, size_t(-1)).
	intUnknown
	// intWide: an integer outside [-2^63, 2^64); x holds it clamped to
	// int64 (math.MinInt64 or math.MaxInt64).
	intWide
	// intNotInt: not an integer (a str, a container, a fractional float).
	intNotInt
)

// maxUint64 is 2^64-1, size_t(-1): "unknown" in PyTorch's C++ code.
const maxUint64 = ^uint64(0)

// intNum classifies an int64.
func intNum(n int64) (uint64, intState) {
	if n == -1 {
		return 0, intUnknown
	}
	return uint64(n), intOK
}

// bigNum classifies an integer of any width.
func bigNum(b *big.Int) (uint64, intState) {
	switch {
	case b.IsInt64():
		return intNum(b.Int64())
	case b.IsUint64():
		if u := b.Uint64(); u != maxUint64 {
			return u, intHigh
		}
		return 0, intUnknown
	case b.Sign() < 0:
		return uint64(1) << 63, intWide // math.MinInt64
	}
	return math.MaxInt64, intWide
}

// floatNum classifies a float: an integral float in int64's range is that
// integer (a snapshot that went through JSON), anything else is no integer.
func floatNum(f float64) (uint64, intState) {
	if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return intNum(int64(f))
	}
	return 0, intNotInt
}

// numOf classifies a generic tree value as an integer (bools count, as in
// Python).
func numOf(v any) (uint64, intState) {
	switch x := v.(type) {
	case int64:
		return intNum(x)
	case nil:
		return 0, intAbsent
	case bool:
		if x {
			return 1, intOK
		}
		return 0, intOK
	case *big.Int:
		return bigNum(x)
	case float64:
		return floatNum(x)
	}
	return 0, intNotInt
}

// fieldProblem says why a field's value could not be used as written;
// probNone when it could, or when its absence is normal for the field.
type fieldProblem uint8

const (
	probNone fieldProblem = iota
	probMissing
	probUnknown
	probNegative
	probTooLarge
	probNotInt
	probNotStr
	probNotBool
	probNotPair
	probNotList
	probNotDict
	probUnknownName
)

// describe says what was wrong with value v (of the generic tree) for a
// note, e.g. "a str, not an integer".
func (p fieldProblem) describe(v any) string {
	switch p {
	case probMissing:
		if v == nil {
			return "missing or None"
		}
	case probUnknown:
		return "-1 or 2^64-1 (unknown)"
	case probNegative:
		return "negative (" + formatValue(v) + ")"
	case probTooLarge:
		return "too large (" + formatValue(v) + ")"
	case probNotInt:
		return "a " + typeName(v) + ", not an integer"
	case probNotStr:
		return "a " + typeName(v) + ", not a str"
	case probNotBool:
		return "a " + typeName(v) + ", not a bool"
	case probNotPair:
		return "a " + typeName(v) + " " + formatValue(v) + ", not a pair of integers"
	case probNotList:
		return "a " + typeName(v) + ", not a list"
	case probNotDict:
		return "a " + typeName(v) + ", not a dict"
	case probUnknownName:
		return strconv.Quote(formatValue(v)) + ", a name this reader does not know"
	}
	return "missing or None"
}

// sizeField reads a byte count (or another count that cannot be
// negative): known reports whether x holds one. A missing or unknown value
// is no problem of its own; the caller decides what its absence means.
func sizeField(x uint64, st intState) (n int64, known bool, p fieldProblem) {
	switch st {
	case intOK:
		if int64(x) < 0 {
			return 0, false, probNegative
		}
		return int64(x), true, probNone
	case intAbsent:
		return 0, false, probMissing
	case intUnknown:
		return 0, false, probUnknown
	case intHigh, intWide:
		return 0, false, probTooLarge
	}
	return 0, false, probNotInt
}

// optSize is sizeField for a field whose zero value means "none" (a trace
// event's size, time_us, a frame's line): missing and unknown read 0
// without a problem.
func optSize(x uint64, st intState) (int64, fieldProblem) {
	n, _, p := sizeField(x, st)
	if p == probMissing || p == probUnknown {
		p = probNone
	}
	return n, p
}

// addrField reads a device address. Negative numbers are the same 64 bits
// written as a signed integer (PyTorch's C++ pickler writes int64), so
// they are taken as such; missing and unknown are not known, without a
// problem.
func addrField(x uint64, st intState) (a uint64, known bool, p fieldProblem) {
	switch st {
	case intOK, intHigh:
		return x, true, probNone
	case intAbsent, intUnknown:
		return 0, false, probNone
	case intWide:
		return 0, false, probTooLarge
	}
	return 0, false, probNotInt
}

// streamField reads a CUDA stream: a number PyTorch takes from the stream
// handle, any 64 bits; missing and unknown read 0 (the default stream).
func streamField(x uint64, st intState) (int64, fieldProblem) {
	a, _, p := addrField(x, st)
	return int64(a), p
}

// deviceField reads a CUDA device index. Missing means device 0, as in
// every layout that omits it; an unknown or impossible index (negative,
// or beyond int32, the type of CUDA's device ordinals) is assumed to be
// device 0, with a problem to note.
func deviceField(x uint64, st intState) (int, fieldProblem) {
	switch st {
	case intOK:
		if n := int64(x); n < 0 {
			return 0, probNegative
		} else if n > math.MaxInt32 {
			return 0, probTooLarge
		}
		return int(x), probNone
	case intAbsent:
		return 0, probNone
	case intUnknown:
		return 0, probUnknown
	case intHigh, intWide:
		return 0, probTooLarge
	}
	return 0, probNotInt
}

// lineField reads a frame's line number: missing and unknown (PyTorch
// writes 2^64-1 for a line it could not find) read 0, as for C++ frames;
// a line beyond int32 (CPython's line numbers are C ints) is no line.
func lineField(x uint64, st intState) (int, fieldProblem) {
	n, p := optSize(x, st)
	if n > math.MaxInt32 {
		return 0, probTooLarge
	}
	return int(n), p
}

// boolField reads a flag: a bool, or an integer taken by its truth as in
// Python; missing reads false.
func boolField(x uint64, st intState, isBool bool) (bool, fieldProblem) {
	if isBool || st == intOK {
		return x != 0, probNone
	}
	if st == intAbsent {
		return false, probNone
	}
	return false, probNotBool
}

// blockRequested decides the requested size of a block of size bytes from
// its requested_size field (req) and, in the legacy layout, the real_size
// of its first history entry (real). Inactive blocks' requested sizes are
// stale and never used: they read as written, else 0, without a problem.
// An active block without a usable requested size is assumed to have asked
// for its whole size (no rounding waste), and the problem is returned.
func blockRequested(active bool, size int64, reqX uint64, reqSt intState, realX uint64, realSt intState) (int64, fieldProblem) {
	n, known, p := sizeField(reqX, reqSt)
	if known {
		return n, probNone
	}
	if !active {
		return 0, probNone
	}
	if r, ok, _ := sizeField(realX, realSt); ok && (p == probMissing || p == probUnknown) {
		return r, probNone
	}
	return size, p
}

// Assumptions named in notes, one phrase per rule.
const (
	assumeDevice0      = "device 0"
	assumeAddress0     = "address 0"
	assumeBlockAddress = "the address after the previous block"
	assumeTotalSize    = "the sum of its block sizes"
	assumeSegSum       = "the sum over its blocks"
	assumeStream0      = "stream 0"
	assumePoolUnknown  = "pool unknown"
	assumeDefaultPool  = "the default pool (0, 0)"
	assumeNotExpand    = "not expandable"
	assumeBlockSize0   = "0 bytes"
	assumeRequested    = "the block's size (no rounding waste)"
	assumeStateUnknown = "state unknown (counted as neither allocated nor active)"
	assumeActionOther  = "an unknown action"
	assumeZero         = "0 (unknown)"
	assumeEmpty        = "empty text"
	assumeNoStack      = "no stack"
	assumeFrameSkipped = "the frame left out of its stack"
	assumeNoHistory    = "no history"
	assumeNoSettings   = "no allocator settings"
	assumeNoAnnots     = "no annotations"
	assumeSkipped      = "the item left out"
	assumeNoMeta       = "no user_metadata"
	assumeNoPoolID     = "no pool id"
	assumeNoHost       = "no pinned host memory data"
	assumeBlocksCount  = "total_size as reserved memory; the blocks for allocated, active and requested memory"
)

// DecodeNote is one kind of problem the decoder worked around in a
// snapshot: a field it could not make sense of and the value it assumed
// instead, or totals that do not agree. Notes with the same assumption at
// places of the same pattern (segments[0].device, segments[7].device) are
// one note: Place is the first such place and Count how many there were.
type DecodeNote struct {
	// Place is where in the snapshot, e.g. "segments[0].segment_pool_id".
	Place string
	// Problem says what was found there.
	Problem string
	// Assumed says what the decoder used instead.
	Assumed string
	// Count is the number of places with this problem (at least 1).
	Count int
}

// String prints the note as the report shows it (without the file).
func (n DecodeNote) String() string {
	s := n.Place + ": " + n.Problem + "; assumed " + n.Assumed
	if n.Count > 1 {
		s += " (" + strconv.Itoa(n.Count-1) + " more place"
		if n.Count > 2 {
			s += "s"
		}
		s += " like it)"
	}
	return s
}

// noteSet collects decode notes, merging those of one pattern and
// assumption. The number of notes is bounded by the schema (its fields
// times their assumptions), whatever the file holds.
type noteSet struct {
	notes []DecodeNote
	idx   map[string]int
}

// add records that the field at place held v, which had problem p, and
// that assumed was used instead.
func (ns *noteSet) add(place string, p fieldProblem, v any, assumed string) {
	ns.addText(place, p.describe(v), assumed)
}

// addText is add with the problem in words.
func (ns *noteSet) addText(place, problem, assumed string) {
	key := placePattern(place) + "\x00" + assumed
	if i, ok := ns.idx[key]; ok {
		ns.notes[i].Count++
		return
	}
	if ns.idx == nil {
		ns.idx = map[string]int{}
	}
	ns.idx[key] = len(ns.notes)
	ns.notes = append(ns.notes, DecodeNote{Place: place, Problem: problem, Assumed: assumed, Count: 1})
}

// placePattern replaces the indexes of a place with [], so that
// segments[3].blocks[7].size and segments[0].blocks[1].size match.
func placePattern(place string) string {
	if !strings.Contains(place, "[") {
		return place
	}
	var b strings.Builder
	skip := false
	for i := 0; i < len(place); i++ {
		c := place[i]
		switch {
		case c == '[':
			skip = true
			b.WriteByte(c)
		case c == ']':
			skip = false
			b.WriteByte(c)
		case !skip:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// satAdd adds byte counts, saturating instead of overflowing on hostile
// input.
func satAdd(a, b int64) int64 {
	if s := a + b; (s > a) == (b > 0) {
		return s
	}
	if b > 0 {
		return math.MaxInt64
	}
	return math.MinInt64
}

// blockSums returns the totals of blocks as the segment fields define
// them: all sizes, active_allocated sizes, active sizes, requested sizes
// of active blocks.
func blockSums(blocks []Block) (total, alloc, active, req int64) {
	for i := range blocks {
		b := &blocks[i]
		total = satAdd(total, b.Size)
		if b.State == StateActiveAllocated {
			alloc = satAdd(alloc, b.Size)
		}
		if b.State.Active() {
			active = satAdd(active, b.Size)
			req = satAdd(req, b.RequestedSize)
		}
	}
	return total, alloc, active, req
}

// checkSegments notes segments whose blocks do not add up to their own
// totals (a trimmed or edited file), one note per segment naming the
// totals that disagree: reserved memory keeps total_size, and the analysis
// counts the blocks for the rest.
func checkSegments(s *Snapshot, ns *noteSet) {
	for i := range s.Segments {
		seg := s.Segments[i]
		total, alloc, active, req := blockSums(seg.Blocks)
		if total == seg.TotalSize && alloc == seg.AllocatedSize && active == seg.ActiveSize && req == seg.RequestedSize {
			continue
		}
		var b strings.Builder
		b.WriteString("its " + strconv.Itoa(len(seg.Blocks)) + " blocks do not add up to the segment's own totals:")
		sep := " "
		for _, f := range [...]struct {
			name         string
			file, blocks int64
		}{{"total_size", seg.TotalSize, total}, {"allocated_size", seg.AllocatedSize, alloc},
			{"active_size", seg.ActiveSize, active}, {"requested_size", seg.RequestedSize, req}} {
			if f.file != f.blocks {
				b.WriteString(sep + f.name + " " + strconv.FormatInt(f.file, 10) + " (blocks " + strconv.FormatInt(f.blocks, 10) + ")")
				sep = ", "
			}
		}
		b.WriteString(" (a trimmed or edited file?)")
		ns.addText("segments["+strconv.Itoa(i)+"]", b.String(), assumeBlocksCount)
	}
}

// metaTable interns the user_metadata texts of a snapshot's trace events
// (Snapshot.Meta): texts[0] is "", no metadata.
type metaTable struct {
	texts []string
	idx   map[string]MetaID
}

// id returns the MetaID of text, adding it when new ("" is NoMeta).
func (t *metaTable) id(text string) MetaID {
	if text == "" {
		return NoMeta
	}
	if id, ok := t.idx[text]; ok {
		return id
	}
	if t.idx == nil {
		t.idx = map[string]MetaID{}
		t.texts = []string{""}
	}
	id := MetaID(len(t.texts))
	t.texts = append(t.texts, intern(text))
	t.idx[text] = id
	return id
}

// maxPools bounds the distinct pool ids a snapshot's events may name
// (TraceEntry.Pool is 16 bits): far more private pools than a process
// makes (each CUDA graph or MemPool is one); events past the bound keep
// no pool, with a note.
const maxPools = 1<<16 - 1

// poolTable interns the pool_id pairs of a snapshot's trace events
// (Snapshot.Pools).
type poolTable struct {
	pairs [][2]int64
	idx   map[[2]int64]uint16
}

// ref returns TraceEntry.Pool for pair p: one more than its index, and
// false when the table is full.
func (t *poolTable) ref(p [2]int64) (uint16, bool) {
	if r, ok := t.idx[p]; ok {
		return r, true
	}
	if len(t.pairs) >= maxPools {
		return 0, false
	}
	if t.idx == nil {
		t.idx = map[[2]int64]uint16{}
	}
	t.pairs = append(t.pairs, p)
	r := uint16(len(t.pairs))
	t.idx[p] = r
	return r, true
}
