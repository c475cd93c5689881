package snapshot

import (
	"math"
	"slices"
	"strconv"
	"unsafe"
)

// role is what a container stands for in the snapshot schema. The role of
// a new container is predicted from the stack when it is created (its
// parent container and key) and checked when its parent consumes it: a
// container consumed anywhere but where its role says makes the decode
// fall back to generic mode (errFallback), so a wrong prediction costs time,
// never correctness.
type role uint8

const (
	rGeneric   role = iota // a generic value tree container (gobjs)
	rIgnore                // contents never used (unknown keys)
	rTop                   // the top-level snapshot dict
	rSegs                  // list of segments
	rSeg                   // segment dict
	rBlocks                // list of blocks
	rBlock                 // block dict
	rHist                  // legacy block history list
	rHistEntry             // history entry dict
	rFrames                // frames list (a stack)
	rFrame                 // frame dict
	rTraces                // device_traces: list of per-device traces
	rTrace                 // one device's trace list
	rEntry                 // trace entry dict
	rSkimmed               // a trace event's frames list when skimming: no stack is built
	rPair                  // a trace event's pool_id tuple: x is its Pool reference
	rSegPool               // a segment's segment_pool_id tuple of two ints: x indexes segmentPools
)

// keyCode names the snapshot's dict keys and enum strings, so dispatch on a
// key is a switch on a small integer looked up once per distinct string.
type keyCode uint8

const (
	cUnknown keyCode = iota
	cSegments
	cDeviceTraces
	cAllocatorSettings
	cExternalAnnotations
	cDevice
	cAddress
	cTotalSize
	cAllocatedSize
	cActiveSize
	cRequestedSize
	cStream
	cSegmentType
	cSegmentPoolID
	cIsExpandable
	cFrames
	cBlocks
	cSize
	cState
	cHistory
	cRealSize
	cFilename
	cLine
	cName
	cAction
	cAddr
	cTimeUS
	cDeviceFree
	cSmall
	cLarge
	cUserMetadata
	cPoolID
	cHostSegments
	cHostTraces
	cFXNodeOp
	cFXNodeName
	cFXNodeTarget
	cFXOriginalTrace

	numKeys // how many key codes there are: the length of a dictValues
)

// strInfo is what the decoder knows about an interned string.
type strInfo struct {
	code   keyCode
	action Action     // ParseAction of the string
	state  BlockState // ParseBlockState of the string
}

// keyCodes maps the strings the schema gives meaning to.
var keyCodes = map[string]keyCode{
	"segments": cSegments, "device_traces": cDeviceTraces,
	"allocator_settings": cAllocatorSettings, "external_annotations": cExternalAnnotations,
	"device": cDevice, "address": cAddress, "total_size": cTotalSize,
	"allocated_size": cAllocatedSize, "active_size": cActiveSize,
	"requested_size": cRequestedSize, "stream": cStream, "segment_type": cSegmentType,
	"segment_pool_id": cSegmentPoolID, "is_expandable": cIsExpandable, "frames": cFrames,
	"blocks": cBlocks, "size": cSize, "state": cState, "history": cHistory,
	"real_size": cRealSize, "filename": cFilename, "line": cLine, "name": cName,
	"action": cAction, "addr": cAddr, "time_us": cTimeUS, "device_free": cDeviceFree,
	"small": cSmall, "large": cLarge,
	"user_metadata": cUserMetadata, "pool_id": cPoolID,
	"host_segments": cHostSegments, "host_traces": cHostTraces,
	"fx_node_op": cFXNodeOp, "fx_node_name": cFXNodeName,
	"fx_node_target": cFXNodeTarget, "fx_original_trace": cFXOriginalTrace,
}

// infoOf returns what the schema makes of string s.
func infoOf(s string) strInfo {
	return strInfo{code: keyCodes[s], action: ParseAction(s), state: ParseBlockState(s)}
}

// dictValues holds a dict's values by the key codes of their keys: kUnset
// where the dict has no such key. The values of the keys the schema has no
// use for all land in dictValues[cUnknown], which nothing reads.
type dictValues [numKeys]val

// setValues stores the value of each key/value pair of items in v at the
// key's code. A key given twice keeps its last value, as in a Python dict.
func (m *vm) setValues(v *dictValues, items []val) {
	for j := 0; j < len(items); j += 2 {
		v[m.keyOf(items[j])] = items[j+1]
	}
}

// Payloads of the typed roles: what the decoder keeps of a container of
// that role while the pickle builds it. A container value's x indexes the
// table of its role (typed).
type (
	// topDict is the snapshot's top-level dict (rTop): its values by key,
	// gathered over every SETITEM(S) that fills it. The allocator
	// settings, the external annotations and the host memory are generic
	// trees.
	topDict = dictValues
	// segmentList is the segments list (rSegs): n segments, which are
	// typed.segments[start:start+n] as long as its segment dicts were
	// made one after another (every real file), else a copy (copied:
	// segs); and whether any came in the legacy history layout.
	segmentList struct {
		start, n int
		copied   bool
		segs     []Segment
		history  bool
	}
	// segmentDict is one segment dict (rSeg): the segment itself is
	// typed.segments at the same index, decoded once its items are set
	// (final).
	segmentDict struct {
		final, history bool
	}
	// blockList is a segment's blocks list (rBlocks): n blocks, which
	// are typed.blocks[start:start+n] as long as its block dicts were
	// made one after another (every real file), else a copy (copied:
	// blocks, and hasAddr, whether each has its address). Sealed once
	// its segment took it.
	blockList struct {
		start, n        int
		copied          bool
		blocks          []Block
		hasAddr         []bool
		noAddr          bool // some block has no address (legacy layout)
		history, sealed bool
	}
	// blockDict is one block dict (rBlock): the block itself is
	// typed.blocks at the same index, decoded once its items are set
	// (final); taken once a blocks list holds it.
	blockDict struct {
		final, hasAddr, history, taken bool
	}
	// historyList is a legacy block's history list (rHist): its first
	// entry, the only one read, and its length.
	historyList struct {
		first  val
		n      int
		sealed bool
	}
	// historyEntry is one legacy history entry dict (rHistEntry).
	historyEntry struct {
		realSize, frames val
		final            bool
	}
	// framesList is a frames list (rFrames, rSkimmed): its frame IDs
	// while open (in frameScratch), its StackID once used as a stack.
	framesList struct {
		id    uint32 // scratch slot while open, StackID once interned
		state uint8
	}
	// deviceTraces is the device_traces list (rTraces): its per-device
	// trace lists, by index into traceLists.
	deviceTraces struct {
		refs []uint32
	}
	// traceList is one device's trace list (rTrace): a run of trace
	// entries, start to start+n, in creation order.
	traceList struct {
		start, n int
		timed    bool
		// When skimming, the events are summarised as they are appended
		// (their ring slots are then reused): the first OverflowScan
		// events, the OOM events, the index of the last that allocated
		// (-1: none) and the time window (whose LastUS is the latest
		// time).
		head      []TraceEntry
		ooms      []IndexedEntry
		lastAlloc int
		live      liveTracker
		window    TraceWindow
	}
)

// Frame dict states, in the top bits of typed.frameDicts entries.
const (
	frOpen  uint32 = 0
	frFinal uint32 = 1 << 31
	frBad   uint32 = 1 << 30
	frMask  uint32 = frBad - 1
)

// Trace entry flags.
const (
	efFinal uint8 = 1 << iota
	efTimed
)

// entry returns trace entry i and its flags.
func (t *typed) entry(i uint64) (*TraceEntry, *uint8) { return t.ents.at(i) }

// grow appends v to the decoder's table *s and returns its index. The
// tables double as they grow (append grows large slices by a quarter,
// which copies a table of a hundred thousand blocks five times over).
// Each growth is charged to the memory budget before it is made: the new
// capacity times the element size, the bytes the table then holds (the old
// array is garbage). This is the one place a payload table's memory is
// charged, so what a container of any role makes live is charged from its
// Go type however small its pickle is.
func grow[T any](m *vm, s *[]T, v T) (uint64, error) {
	if len(*s) == cap(*s) {
		size := int(unsafe.Sizeof(v))
		more := max(len(*s), 16)
		if err := m.charge(more * size); err != nil {
			return 0, err
		}
		old := cap(*s)
		*s = slices.Grow(*s, more)
		// slices.Grow rounds up to the allocator's size class.
		m.used += int64((cap(*s) - old - more) * size)
	}
	*s = append(*s, v)
	return uint64(len(*s) - 1), nil
}

// table is a growable array in fixed-size chunks: for payloads created
// once per trace entry, growing never copies.
type table[T any] struct {
	c [][]T
	n int
}

const tableChunkBits = 12

// add appends v and returns its index, charging each new chunk to m's
// memory budget before it is made.
func (t *table[T]) add(m *vm, v T) (uint64, error) {
	if t.n&(1<<tableChunkBits-1) == 0 {
		if err := m.charge(int(unsafe.Sizeof(v)) << tableChunkBits); err != nil {
			return 0, err
		}
		t.c = append(t.c, make([]T, 1<<tableChunkBits))
	}
	i := t.n
	t.c[i>>tableChunkBits][i&(1<<tableChunkBits-1)] = v
	t.n++
	return uint64(i), nil
}

// at returns element i.
func (t *table[T]) at(i uint64) *T {
	return &t.c[i>>tableChunkBits][i&(1<<tableChunkBits-1)]
}

// typed holds the payload tables of the fast path: one table per role,
// which a container value of that role indexes (val.x).
type typed struct {
	st           Stacks
	topDicts     []topDict     // rTop
	segmentLists []segmentList // rSegs
	segmentDicts []segmentDict // rSeg
	// segments holds every segment dict's segment, by the dict's index:
	// the segments list is a run of it.
	segments   []Segment
	blockLists []blockList // rBlocks
	blockDicts []blockDict // rBlock
	// blocks holds every block dict's block, by the dict's index: the
	// blocks lists of the snapshot's segments are runs of it.
	blocks []Block
	// segmentPools holds the segments' segment_pool_id pairs (rSegPool).
	segmentPools     [][2]int64
	historyLists     []historyList  // rHist
	historyEntries   []historyEntry // rHistEntry
	framesLists      table[framesList]
	deviceTraceLists []deviceTraces // rTraces
	traceLists       []traceList    // rTrace
	// frameDicts holds each frame dict's state word (rFrame): frOpen,
	// frBad, or frFinal with its FrameID.
	frameDicts []uint32
	// frameScratch holds the frame IDs of the frames lists still open
	// (rFrames, rSkimmed), one slice each, reused through freeScratch,
	// the indexes of the slices free for the next list.
	frameScratch [][]FrameID
	freeScratch  []uint32
	ents         entryStore
	notes        noteSet
	meta         metaTable
	metaOf       map[uint32]MetaID // string id to MetaID
	pools        poolTable
	// stackTab finds the StackID of a frames list's IDs (internStack);
	// stackCount is the stacks in it.
	stackTab []stackSlot
	// spareRing, spareFlags and spareHeads are a Scratch's skim ring
	// and trace heads, for this decode to take (scratch.go).
	spareRing  []TraceEntry
	spareFlags []uint8
	spareHeads [][]TraceEntry
	// spareOpen are a Scratch's skim trackers' maps of open allocations,
	// emptied: a map grown to a trace's thousands of open addresses was
	// grown again, rehashes included, for every file.
	spareOpen  []map[uint64]BlockTrace
	stackCount int
	// nextEntry is the index of the next trace entry a trace list may
	// take: entries are consumed in creation order, so every device's
	// trace is a contiguous run of one shared array.
	nextEntry int
}

// keyOf returns the key code of dict key k: cUnknown for a str the
// decoder has no use for, and for a key that is no str.
func (m *vm) keyOf(k val) keyCode {
	if k.k != kStr {
		return cUnknown
	}
	return m.strInfo[k.x].code
}

// listElem returns the role of a container of kind k appended to a list of
// role r, and false when such a list does not take it.
func listElem(r role, k vkind) (role, bool) {
	switch r {
	case rGeneric, rIgnore:
		return r, true
	case rSegs:
		return rSeg, k == kDict
	case rBlocks:
		return rBlock, k == kDict
	case rHist:
		return rHistEntry, k == kDict
	case rFrames, rSkimmed:
		return rFrame, k == kDict
	case rTraces:
		return rTrace, k == kList
	case rTrace:
		return rEntry, k == kDict
	}
	return rIgnore, false
}

// elemRole is listElem's role, or rIgnore when the list does not take k.
func elemRole(r role, k vkind) role {
	if e, ok := listElem(r, k); ok {
		return e
	}
	return rIgnore
}

// keyRole returns the role of a container of kind k stored under key in a
// dict of role r.
func (m *vm) keyRole(r role, key val, k vkind) role {
	switch r {
	case rGeneric, rIgnore:
		return r
	}
	if key.k != kStr {
		return rIgnore
	}
	c := m.strInfo[key.x].code
	switch r {
	case rTop:
		switch c {
		case cSegments:
			if k == kList {
				return rSegs
			}
		case cDeviceTraces:
			if k == kList {
				return rTraces
			}
		case cAllocatorSettings, cExternalAnnotations, cHostSegments, cHostTraces:
			return rGeneric
		}
	case rSeg:
		switch c {
		case cBlocks:
			if k == kList {
				return rBlocks
			}
		case cFrames:
			if k == kList {
				return rFrames
			}
		case cSegmentPoolID:
			if k == kTuple {
				return rSegPool
			}
			return rGeneric
		}
	case rBlock:
		switch c {
		case cFrames:
			if k == kList {
				return rFrames
			}
		case cHistory:
			if k == kList {
				return rHist
			}
		}
	case rHistEntry, rEntry:
		if r == rEntry && c == cPoolID {
			if k == kTuple {
				return rPair
			}
			return rGeneric
		}
		if c == cFrames && k == kList {
			if r == rEntry && m.skim {
				return rSkimmed
			}
			return rFrames
		}
	}
	return rIgnore
}

// dictFinal reports whether a typed dict has had its items set.
func (m *vm) dictFinal(d val) bool {
	switch d.r {
	case rSeg:
		return m.segmentDicts[d.x].final
	case rBlock:
		return m.blockDicts[d.x].final
	case rHistEntry:
		return m.historyEntries[d.x].final
	case rFrame:
		return m.frameDicts[d.x] != frOpen
	case rEntry:
		_, f := m.entry(d.x)
		return *f&efFinal != 0
	}
	return false
}

// predict returns the role of a new container of kind k from the stack:
// an item of a list (APPEND form: the list is on top; APPENDS form: the
// list is below the MARK), or the value of the key on top of the stack
// (SETITEM form: the dict is under the key; SETITEMS form: the dict is
// below the MARK). Where the schema cannot tell the forms apart it leans on
// what CPython and the C++ pickler write.
func (m *vm) predict(k vkind) role {
	s := m.stack
	n, f := len(s), m.fence
	if n > f {
		top := s[n-1]
		switch top.k {
		case kList:
			if r, ok := listElem(top.r, k); ok {
				return r
			}
		case kDict:
			// A finished sibling: handled below.
		default:
			// A key: is the dict right under it (SETITEM form)? That is
			// ambiguous: [outer, MARK, 'k1', d, 'k2'] is d getting a
			// single item, or outer's next key. A typed dict that has its
			// items already cannot be getting more; an untyped one is
			// taken as outer's value when the SETITEMS form fits. A wrong
			// guess costs a fallback, not a wrong model.
			if n-2 >= f && s[n-2].k == kDict {
				d := s[n-2]
				batch := f > 0 && s[f-1].k == kDict && (n-f)%2 == 1
				useSingle := true
				switch d.r {
				case rTop:
				case rSeg, rBlock, rHistEntry, rFrame, rEntry:
					useSingle = !m.dictFinal(d)
				default:
					useSingle = !batch
				}
				if useSingle {
					return m.keyRole(d.r, top, k)
				}
			}
		}
	}
	if f > 0 {
		p := s[f-1]
		switch p.k {
		case kList:
			return elemRole(p.r, k)
		case kDict:
			if (n-f)%2 == 1 {
				return m.keyRole(p.r, s[n-1], k)
			}
			return rIgnore
		}
		return rGeneric
	}
	if n == 0 {
		switch k {
		case kDict:
			return rTop
		case kList:
			return rSegs
		}
	}
	return rGeneric
}

// pushContainer creates a container of kind k, gives it items (the TUPLE,
// LIST and DICT opcodes build containers from marked items) and pushes it.
func (m *vm) pushContainer(k vkind, items []val) error {
	r := rGeneric
	if !m.generic {
		r = m.predict(k)
	}
	v := val{k: k, r: r}
	if k == kTuple {
		if err := m.makeTuple(&v, items); err != nil {
			return err
		}
		return m.push(v)
	}
	var err error
	switch r {
	case rGeneric:
		// The list or dict itself, then its slot in gobjs (grow).
		var o any = &pyList{at: m.opOff + 1}
		size := unsafe.Sizeof(pyList{})
		if k == kDict {
			o = &pyDict{at: m.opOff + 1}
			size = unsafe.Sizeof(pyDict{})
		}
		if err := m.charge(int(size)); err != nil {
			return err
		}
		v.x, err = grow(m, &m.gobjs, o)
	case rIgnore:
		// Nothing but its stack slot, charged as the stack grows.
	case rTop:
		// A real file has one, but every dict made on an empty stack is
		// one: charged in full like every payload, a run of them stays
		// within the budget.
		v.x, err = grow(m, &m.topDicts, topDict{})
	case rSegs:
		v.x, err = grow(m, &m.segmentLists, segmentList{})
	case rSeg:
		if v.x, err = grow(m, &m.segmentDicts, segmentDict{}); err == nil {
			_, err = grow(m, &m.segments, Segment{})
		}
	case rBlocks:
		v.x, err = grow(m, &m.blockLists, blockList{})
	case rBlock:
		if v.x, err = grow(m, &m.blockDicts, blockDict{}); err == nil {
			_, err = grow(m, &m.blocks, Block{})
		}
	case rHist:
		v.x, err = grow(m, &m.historyLists, historyList{})
	case rHistEntry:
		v.x, err = grow(m, &m.historyEntries, historyEntry{})
	case rFrames, rSkimmed:
		v.x, err = m.framesLists.add(m, framesList{})
	case rFrame:
		v.x, err = grow(m, &m.frameDicts, frOpen)
	case rTraces:
		v.x, err = grow(m, &m.deviceTraceLists, deviceTraces{})
	case rTrace:
		tl := traceList{lastAlloc: -1}
		if n := len(m.spareHeads); n > 0 {
			tl.head, m.spareHeads = m.spareHeads[n-1], m.spareHeads[:n-1]
		}
		if n := len(m.spareOpen); n > 0 {
			tl.live.open, m.spareOpen = m.spareOpen[n-1], m.spareOpen[:n-1]
		}
		v.x, err = grow(m, &m.traceLists, tl)
	case rEntry:
		v.x, err = m.newEntry() // charged by the chunk (pickle_entries.go)
	}
	if err != nil {
		return err
	}
	if len(items) > 0 {
		if k == kList {
			err = m.appendItems(&v, items)
		} else {
			err = m.setItems(&v, items)
		}
		if err != nil {
			return err
		}
	}
	return m.push(v)
}

// raise lifts *h, the nesting height of a container, above the heights of
// its items, and fails past maxNesting (leaving *h as it was).
func (m *vm) raise(h *uint32, items []val) error {
	x := *h
	for i := range items {
		if items[i].h >= x {
			x = items[i].h + 1
		}
	}
	if x > maxNesting {
		return m.failOp(ErrLimit, "containers nested deeper than "+strconv.Itoa(maxNesting)+" levels")
	}
	*h = x
	return nil
}

// makeTuple fills in tuple v from its items.
func (m *vm) makeTuple(v *val, items []val) error {
	v.h = 0
	if err := m.raise(&v.h, items); err != nil {
		return err
	}
	if v.r == rPair {
		// A pool id of two ints is interned as it is made: a million
		// events name a handful of pools. Anything else is built as a
		// tuple and read as the converter reads it.
		if len(items) == 2 && plainInt(items[0]) && plainInt(items[1]) {
			if ref, ok := m.pools.ref([2]int64{int64(items[0].x), int64(items[1].x)}); ok {
				v.x = uint64(ref)
				return nil
			}
		}
		v.r = rGeneric
	}
	if v.r == rSegPool {
		// Every segment has one: two ints kept as they are, without a
		// generic tuple each.
		if len(items) == 2 && plainInt(items[0]) && plainInt(items[1]) {
			var err error
			v.x, err = grow(m, &m.segmentPools, [2]int64{int64(items[0].x), int64(items[1].x)})
			return err
		}
		v.r = rGeneric
	}
	if v.r != rGeneric {
		v.r = rIgnore
		return nil
	}
	// The tuple's header, boxed in gobjs, and its items.
	if err := m.charge(int(unsafe.Sizeof(pyTuple{}) + uintptr(len(items))*unsafe.Sizeof(any(nil)))); err != nil {
		return err
	}
	t := make(pyTuple, len(items))
	for i, it := range items {
		var err error
		if t[i], err = m.toAny(it); err != nil {
			return err
		}
	}
	var err error
	v.x, err = grow(m, &m.gobjs, any(t))
	return err
}

// typeName returns the Python type name of a machine value.
func (v val) typeName() string {
	switch v.k {
	case kNone:
		return "None"
	case kBool:
		return "bool"
	case kInt, kBig:
		return "int"
	case kFloat:
		return "float"
	case kStr:
		return "str"
	case kTuple:
		return "tuple"
	case kList:
		return "list"
	case kDict:
		return "dict"
	}
	return "nothing"
}

// treesOf returns two top-level values as generic trees, nil for a key
// that is absent or None.
func (m *vm) treesOf(a, b val) ([2]any, error) {
	var out [2]any
	for i, x := range [2]val{a, b} {
		if x.k == kUnset || x.k == kNone {
			continue
		}
		v, err := m.toAny(x)
		if err != nil {
			return out, err
		}
		out[i] = v
	}
	return out, nil
}

// toAny returns v as a generic tree value. Typed containers have no generic
// form: meeting one means the prediction was wrong, and the decode falls
// back.
func (m *vm) toAny(v val) (any, error) {
	switch v.k {
	case kNone:
		return nil, nil
	case kBool:
		return v.x != 0, nil
	case kInt:
		return int64(v.x), nil
	case kBig:
		return m.bigs[v.x], nil
	case kFloat:
		return math.Float64frombits(v.x), nil
	case kStr:
		return m.strs[v.x], nil
	}
	if v.r == rGeneric {
		return m.gobjs[v.x], nil
	}
	return nil, errFallback
}

// num is numOf for machine values; kUnset (a missing key) reads as
// absent. The common case, a plain int, is small enough to inline.
func (m *vm) num(v val) (uint64, intState) {
	if plainInt(v) {
		return v.x, intOK
	}
	return numSlow(m, v)
}

// plainInt reports whether v is an int other than -1: what num reads as
// intOK without looking further.
func plainInt(v val) bool { return v.k == kInt && v.x != maxUint64 }

func numSlow(m *vm, v val) (uint64, intState) {
	switch v.k {
	case kInt:
		return 0, intUnknown // -1: the only kInt num leaves here
	case kUnset, kNone:
		return 0, intAbsent
	case kBool:
		return v.x, intOK
	case kBig:
		return bigNum(m.bigs[v.x])
	case kFloat:
		return floatNum(math.Float64frombits(v.x))
	}
	return 0, intNotInt
}

// text is strOf for machine values: ok is false when v is neither text
// nor missing (nor None).
func (m *vm) text(v val) (string, bool) {
	switch v.k {
	case kStr:
		return m.strs[v.x], true
	case kUnset, kNone:
		return "", true
	}
	return "", false
}

// appendItems is APPEND and APPENDS: items go into list l.
func (m *vm) appendItems(l *val, items []val) error {
	if l.k != kList {
		return m.failOp(ErrMalformed, "appends to a "+l.typeName()+", not a list")
	}
	switch l.r {
	case rFrames, rSkimmed:
		return m.appendFrames(l, items) // the bulk of a snapshot: one pass
	}
	if err := m.raise(&l.h, items); err != nil {
		return err
	}
	switch l.r {
	case rGeneric:
		pl := m.gobjs[l.x].(*pyList)
		if err := m.charge(len(items) * int(unsafe.Sizeof(any(nil)))); err != nil {
			return err
		}
		for _, it := range items {
			a, err := m.toAny(it)
			if err != nil {
				return err
			}
			pl.items = append(pl.items, a)
		}
	case rIgnore:
	case rTrace:
		p := &m.traceLists[l.x]
		for _, it := range items {
			i := int(it.x)
			if it.k != kDict || it.r != rEntry || i != m.nextEntry || p.n > 0 && p.start+p.n != i {
				return errFallback
			}
			_, fl := m.entry(it.x)
			if *fl&efFinal == 0 {
				return errFallback
			}
			if p.n == 0 {
				p.start = i
			}
			p.n++
			m.nextEntry++
			if *fl&efTimed != 0 {
				p.timed = true
			}
			if m.skim {
				e, _ := m.entry(it.x)
				if err := m.charge(foldCost(e)); err != nil {
					return err
				}
				p.fold(e)
			}
		}
	case rTraces:
		p := &m.deviceTraceLists[l.x]
		for _, it := range items {
			if it.k != kList || it.r != rTrace {
				return errFallback
			}
			p.refs = append(p.refs, uint32(it.x))
		}
	case rSegs:
		p := &m.segmentLists[l.x]
		if err := m.charge(4 * len(items)); err != nil {
			return err
		}
		for _, it := range items {
			if it.k != kDict || it.r != rSeg || !m.segmentDicts[it.x].final {
				return errFallback
			}
			if i := int(it.x); !p.copied && (p.n == 0 || p.start+p.n == i) {
				if p.n == 0 {
					p.start = i
				}
			} else {
				if !p.copied {
					if err := m.charge(p.n * int(unsafe.Sizeof(Segment{}))); err != nil {
						return err
					}
					p.segs = append([]Segment(nil), m.segments[p.start:p.start+p.n]...)
					p.copied = true
				}
				if _, err := grow(m, &p.segs, m.segments[i]); err != nil {
					return err
				}
			}
			p.n++
			p.history = p.history || m.segmentDicts[it.x].history
		}
	case rBlocks:
		p := &m.blockLists[l.x]
		if p.sealed {
			return errFallback
		}
		if err := m.charge(4 * len(items)); err != nil {
			return err
		}
		for _, it := range items {
			if it.k != kDict || it.r != rBlock {
				return errFallback
			}
			bd := &m.blockDicts[it.x]
			if !bd.final || bd.taken {
				return errFallback // not decoded, or in two lists: let the generic path copy it
			}
			bd.taken = true
			if i := int(it.x); !p.copied && (p.n == 0 || p.start+p.n == i) {
				if p.n == 0 {
					p.start = i
				}
			} else {
				if err := m.copyBlocks(p); err != nil {
					return err
				}
				if _, err := grow(m, &p.blocks, m.blocks[i]); err != nil {
					return err
				}
				if _, err := grow(m, &p.hasAddr, bd.hasAddr); err != nil {
					return err
				}
			}
			p.n++
			p.noAddr = p.noAddr || !bd.hasAddr
			p.history = p.history || bd.history
		}
	case rHist:
		p := &m.historyLists[l.x]
		if p.sealed {
			return errFallback
		}
		if p.n == 0 && len(items) > 0 {
			p.first = items[0]
		}
		p.n += len(items)
	default:
		return errFallback
	}
	return nil
}

// foldCost is the bytes fold keeps for event e beyond its ring slot: an
// OOM event is kept whole, an allocation opens a live block (a map entry
// keyed by its address), an annotation adds a note to one. The first
// OverflowScan events kept in head are not counted: they are a bounded
// few.
func foldCost(e *TraceEntry) int {
	switch e.Action {
	case ActionOOM:
		return int(unsafe.Sizeof(IndexedEntry{}))
	case ActionAlloc:
		return int(unsafe.Sizeof(BlockTrace{}) + unsafe.Sizeof(e.Addr))
	case ActionAnnotate:
		return int(unsafe.Sizeof(e.Meta))
	}
	return 0
}

// fold adds the next event of a skimmed trace to its summary.
func (p *traceList) fold(e *TraceEntry) {
	i := p.n - 1
	if i < OverflowScan {
		p.head = append(p.head, *e)
	}
	if e.Action == ActionOOM {
		p.ooms = append(p.ooms, IndexedEntry{Index: i, TraceEntry: *e})
	}
	switch e.Action {
	case ActionAlloc, ActionSegmentAlloc, ActionSegmentMap:
		p.lastAlloc = i
	}
	p.live.add(i, e)
	p.window.add(e)
}

// setItems is SETITEM and SETITEMS: key/value pairs go into dict d.
func (m *vm) setItems(d *val, items []val) error {
	if len(items)%2 != 0 {
		return m.failOp(ErrMalformed, "odd number of items (a key without a value)")
	}
	if d.k != kDict {
		return m.failOp(ErrMalformed, "sets items of a "+d.typeName()+", not a dict")
	}
	for i := 0; i < len(items); i += 2 {
		if k := items[i].k; k == kList || k == kDict {
			return m.failOp(ErrMalformed, "unhashable dict key of type "+items[i].typeName())
		}
	}
	if err := m.raise(&d.h, items); err != nil {
		return err
	}
	switch d.r {
	case rGeneric:
		pd := m.gobjs[d.x].(*pyDict)
		// Per pair: a key and a value slot (two anys) and, past
		// smallDict keys, an idx entry (string, int) with the map's
		// bookkeeping: two anys per item covers them.
		if err := m.charge(len(items) * 2 * int(unsafe.Sizeof(any(nil)))); err != nil {
			return err
		}
		for i := 0; i < len(items); i += 2 {
			k, err := m.toAny(items[i])
			if err != nil {
				return err
			}
			v, err := m.toAny(items[i+1])
			if err != nil {
				return err
			}
			pd.set(k, v)
		}
		return nil
	case rIgnore:
		return nil
	case rTop:
		m.setValues(&m.topDicts[d.x], items)
		return nil
	}
	if m.dictFinal(*d) {
		return errFallback // changed after use, or set twice
	}
	switch d.r {
	case rEntry:
		return m.finishEntry(d.x, items)
	case rFrame:
		if m.finishFrameDict(d.x, items) == frBad {
			return nil // only an error if a used stack holds it
		}
		return nil
	case rSeg:
		return m.finishSeg(d.x, items)
	case rBlock:
		return m.finishBlock(d.x, items)
	case rHistEntry:
		var v dictValues
		m.setValues(&v, items)
		m.historyEntries[d.x] = historyEntry{realSize: v[cRealSize], frames: v[cFrames], final: true}
		return nil
	}
	return errFallback
}

// finishFrameDict decodes a frame dict (items may be nil: an empty dict)
// and returns its state word: frFinal|FrameID, or frBad when a field has
// the wrong type.
func (m *vm) finishFrameDict(i uint64, items []val) uint32 {
	var v dictValues
	m.setValues(&v, items)
	var f Frame
	var okFile, okName bool
	f.File, okFile = m.text(v[cFilename])
	f.Name, okName = m.text(v[cName])
	var p fieldProblem
	f.Line, p = lineField(m.num(v[cLine]))
	ok := okFile && okName && p == probNone
	for _, fx := range [...]struct {
		c   keyCode
		dst *string
	}{{cFXNodeOp, &f.FX.Op}, {cFXNodeName, &f.FX.Name}, {cFXNodeTarget, &f.FX.Target}, {cFXOriginalTrace, &f.FX.Trace}} {
		var okFX bool
		*fx.dst, okFX = m.text(v[fx.c])
		ok = ok && okFX
	}
	st := frBad
	if ok {
		before, capBefore := len(m.st.Frames), cap(m.st.Frames)
		st = frFinal | uint32(m.st.InternFrame(f))
		if len(m.st.Frames) != before {
			// A new frame: Frames' growth, and the index's entry (the
			// frame as key, its ID as value). Charged after the fact:
			// the next charge checks the budget.
			m.used += int64(cap(m.st.Frames)-capBefore)*int64(unsafe.Sizeof(Frame{})) +
				int64(unsafe.Sizeof(Frame{})+unsafe.Sizeof(FrameID(0)))
		}
	}
	m.frameDicts[i] = st
	return st
}

// finishEntry decodes a trace entry dict, as converter.trace does.
func (m *vm) finishEntry(i uint64, items []val) error {
	var v dictValues
	m.setValues(&v, items)
	action, size, stream, timeUS, frames := v[cAction], v[cSize], v[cStream], v[cTimeUS], v[cFrames]
	if action.k != kStr {
		return errFallback
	}
	e, flags := m.entry(i)
	e.Action = m.strInfo[action.x].action
	a := v[cAddr]
	if e.Action == ActionOOM {
		a = v[cDeviceFree]
	}
	if plainInt(a) && plainInt(size) && plainInt(stream) && plainInt(timeUS) && int64(size.x|timeUS.x) >= 0 {
		// What the field rules make of plain ints, without the calls:
		// most of a snapshot is trace entries.
		e.Addr, e.Size, e.Stream, e.TimeUS = a.x, int64(size.x), int64(stream.x), int64(timeUS.x)
	} else {
		var p1, p2, p3, p4 fieldProblem
		e.Addr, _, p1 = addrField(m.num(a))
		e.Size, p2 = optSize(m.num(size))
		e.Stream, p3 = streamField(m.num(stream))
		e.TimeUS, p4 = optSize(m.num(timeUS))
		if p1|p2|p3|p4 != probNone {
			return errFallback // a note to make: the generic path makes it
		}
	}
	if err := m.entryMeta(e, v[cUserMetadata], v[cPoolID]); err != nil {
		return err
	}
	fl := efFinal
	if timeUS.k != kUnset {
		fl |= efTimed
	}
	var err error
	if frames.k == kList && frames.r == rSkimmed {
		// A skim keeps only an OOM event's stack.
		if e.Action == ActionOOM {
			if e.Stack, err = m.stackOf(frames); err != nil {
				return err
			}
		}
		m.skimmedDone(frames)
	} else if e.Stack, err = m.stackOf(frames); err != nil {
		return err
	}
	*flags = fl
	return nil
}

// entryMeta sets e's user_metadata and pool id from their values, as
// converter.entry reads them; a value that calls for a note falls back.
func (m *vm) entryMeta(e *TraceEntry, meta, pool val) error {
	switch meta.k {
	case kUnset, kNone:
	case kStr:
		id, ok := m.metaOf[uint32(meta.x)]
		if !ok {
			id = m.meta.id(m.strs[meta.x])
			if m.metaOf == nil {
				m.metaOf = map[uint32]MetaID{}
			}
			m.metaOf[uint32(meta.x)] = id
		}
		e.Meta = id
	default:
		return errFallback
	}
	switch {
	case pool.k == kUnset || pool.k == kNone:
	case pool.r == rPair:
		e.Pool = uint16(pool.x)
	default:
		a, err := m.toAny(pool)
		if err != nil {
			return err
		}
		pair, ok := poolPair(a)
		if !ok {
			return errFallback
		}
		if e.Pool, ok = m.pools.ref(pair); !ok {
			return errFallback
		}
	}
	return nil
}

// finishSeg decodes a segment dict, as converter.segment does.
func (m *vm) finishSeg(i uint64, items []val) error {
	var v dictValues
	m.setValues(&v, items)
	segType, pool, expandable, frames, blocks := v[cSegmentType], v[cSegmentPoolID], v[cIsExpandable], v[cFrames], v[cBlocks]
	p := &m.segmentDicts[i]
	s := &m.segments[i]
	var p1, p2, p3, p4 fieldProblem
	s.Device, p1 = deviceField(m.num(v[cDevice]))
	s.Address, _, p2 = addrField(m.num(v[cAddress]))
	s.Stream, p3 = streamField(m.num(v[cStream]))
	x, st := m.num(expandable)
	s.Expandable, p4 = boolField(x, st, expandable.k == kBool)
	if p1|p2|p3|p4 != probNone {
		return errFallback // a note to make: the generic path makes it
	}
	switch segType.k {
	case kUnset, kNone:
	case kStr:
		switch m.strInfo[segType.x].code {
		case cSmall:
			s.Pool = PoolSmall
		case cLarge:
			s.Pool = PoolLarge
		}
	default:
		return errFallback
	}
	if pool.k == kTuple && pool.r == rSegPool {
		s.PrivatePool = m.segmentPools[pool.x]
	} else if pool.k != kUnset && pool.k != kNone {
		a, err := m.toAny(pool)
		if err != nil {
			return err
		}
		var ok bool
		if s.PrivatePool, ok = poolPair(a); !ok {
			return errFallback
		}
	}
	var err error
	if s.Stack, err = m.stackOf(frames); err != nil {
		return err
	}
	if blocks.k != kList || blocks.r != rBlocks {
		return errFallback
	}
	bp := &m.blockLists[blocks.x]
	if bp.sealed {
		return errFallback // shared by two segments: let the generic path copy it
	}
	bp.sealed = true
	s.Blocks = bp.blocks
	if !bp.copied {
		s.Blocks = m.blocks[bp.start : bp.start+bp.n : bp.start+bp.n]
	}
	if s.Blocks == nil {
		s.Blocks = []Block{}
	}
	if bp.noAddr {
		next := s.Address
		for j := range s.Blocks {
			has := bp.copied && bp.hasAddr[j] || !bp.copied && m.blockDicts[bp.start+j].hasAddr
			if !has {
				s.Blocks[j].Address = next
			}
			next = s.Blocks[j].Address + uint64(s.Blocks[j].Size)
		}
	}
	bp.blocks, bp.hasAddr = nil, nil
	// Sizes: the segment's own totals, or where it has none, its blocks'.
	var sums [4]int64
	summed := false
	for j, f := range [...]struct {
		c   keyCode
		dst *int64
	}{{cTotalSize, &s.TotalSize}, {cAllocatedSize, &s.AllocatedSize}, {cActiveSize, &s.ActiveSize}, {cRequestedSize, &s.RequestedSize}} {
		n, known, pr := sizeField(m.num(v[f.c]))
		switch {
		case known:
			*f.dst = n
		case j == 0 || (pr != probMissing && pr != probUnknown):
			return errFallback // a note to make
		default:
			if !summed {
				sums[0], sums[1], sums[2], sums[3] = blockSums(s.Blocks)
				summed = true
			}
			*f.dst = sums[j]
		}
	}
	p.history = bp.history
	p.final = true
	return nil
}

// finishBlock decodes a block dict, as converter.block does.
func (m *vm) finishBlock(i uint64, items []val) error {
	var v dictValues
	m.setValues(&v, items)
	state, frames, history := v[cState], v[cFrames], v[cHistory]
	p := &m.blockDicts[i]
	b := &m.blocks[i]
	var known bool
	var pr fieldProblem
	if b.Size, known, _ = sizeField(m.num(v[cSize])); !known {
		return errFallback // a note to make: the generic path makes it
	}
	if state.k != kStr {
		return errFallback
	}
	if b.State = m.strInfo[state.x].state; b.State == StateUnknown {
		return errFallback
	}
	if b.Address, p.hasAddr, pr = addrField(m.num(v[cAddress])); pr != probNone {
		return errFallback
	}
	var err error
	if b.Stack, err = m.stackOf(frames); err != nil {
		return err
	}
	var real val
	if history.k != kUnset && history.k != kNone {
		p.history = true
		if history.k != kList || history.r != rHist {
			return errFallback
		}
		hp := &m.historyLists[history.x]
		hp.sealed = true
		if hp.n > 0 && b.State.Active() {
			f := hp.first
			if f.k != kDict || f.r != rHistEntry {
				return errFallback
			}
			he := &m.historyEntries[f.x]
			he.final = true
			real = he.realSize
			if b.Stack == NoStack {
				if b.Stack, err = m.stackOf(he.frames); err != nil {
					return err
				}
			}
		}
	}
	rx, rst := m.num(v[cRequestedSize])
	ax, ast := m.num(real)
	if b.RequestedSize, pr = blockRequested(b.State.Active(), b.Size, rx, rst, ax, ast); pr != probNone {
		return errFallback
	}
	p.final = true
	return nil
}

// finish turns the value STOP returned into a Snapshot.
func (m *vm) finish(v val) (*Snapshot, error) {
	if m.generic {
		a, err := m.toAny(v)
		if err != nil {
			return nil, err
		}
		return convertSnapshotAt(a, m.opOff+1)
	}
	s := &Snapshot{}
	switch {
	case v.k == kList && v.r == rSegs:
		s.Segments = pointers(m.segmentsOf(&m.segmentLists[v.x]))
		s.Generation = GenSegmentsList
	case v.k == kDict && v.r == rTop:
		t := &m.topDicts[v.x]
		segs, traces := t[cSegments], t[cDeviceTraces]
		if segs.k != kList || segs.r != rSegs {
			return nil, errFallback
		}
		sl := &m.segmentLists[segs.x]
		s.Segments = pointers(m.segmentsOf(sl))
		timed := false
		if traces.k != kUnset && traces.k != kNone {
			if traces.k != kList || traces.r != rTraces {
				return nil, errFallback
			}
			refs := m.deviceTraceLists[traces.x].refs
			if m.skim {
				s.skimmed = make([]TraceDigest, len(refs))
				for d, r := range refs {
					tr := &m.traceLists[r]
					timed = timed || tr.timed && tr.n > 0
					s.skimmed[d] = TraceDigest{Entries: tr.n, UnknownFrees: UnknownFrees(tr.head, OverflowScan), OOMs: tr.ooms, LastAlloc: tr.lastAlloc, Live: tr.live.live(s.Segments, d), Window: tr.window}
					s.skimmedLatestUS = max(s.skimmedLatestUS, tr.window.LastUS)
				}
			} else {
				s.Traces = make([][]TraceEntry, len(refs))
				done := map[uint32][]TraceEntry{}
				for d, r := range refs {
					tr := m.traceLists[r]
					timed = timed || tr.timed && tr.n > 0
					if e, ok := done[r]; ok {
						s.Traces[d] = e
						continue
					}
					s.Traces[d] = m.ents.slice(tr.start, tr.n)
					done[r] = s.Traces[d]
				}
			}
		}
		// Both are generic trees, read as the converter reads them.
		extras, err := m.treesOf(t[cAllocatorSettings], t[cExternalAnnotations])
		if err != nil {
			return nil, err
		}
		readExtras(s, extras[0], extras[1], &m.notes)
		hostHistory, hostTimed, err := m.hostMemory(s, t)
		if err != nil {
			return nil, err
		}
		// Host memory's blocks and trace date the format as the
		// device's do, as the converter reads both.
		s.Generation = generationOf(sl.history || hostHistory, timed || hostTimed)
	default:
		return nil, errFallback
	}
	if s.Segments == nil {
		s.Segments = []*Segment{}
	}
	finish(s, m.st, &m.meta, &m.pools, &m.notes)
	return s, nil
}

// hostMemory reads the top-level dict's host_segments and host_traces,
// which the fast path keeps as generic trees: the converter reads them
// into s with the machine's stacks, metadata, pools and notes. It
// reports whether a host block carried a history (the legacy layout) and
// whether a host trace event carried time_us, which date the format.
func (m *vm) hostMemory(s *Snapshot, t *topDict) (history, timed bool, err error) {
	vals, err := m.treesOf(t[cHostSegments], t[cHostTraces])
	if err != nil {
		return false, false, err
	}
	if vals[0] == nil && vals[1] == nil {
		return false, false, nil
	}
	c := converter{st: m.st, stacks: map[*pyList]StackID{}, tstacks: map[*any]StackID{}, frames: map[*pyDict]FrameID{},
		notes: m.notes, meta: m.meta, pools: m.pools}
	err = c.hostMemory(s, vals[0], vals[1])
	m.st, m.notes, m.meta, m.pools = c.st, c.notes, c.meta, c.pools
	return c.history, c.timed, err
}

// copyBlocks turns blocks list p, a run of typed.blocks so far, into a
// copy of its own: the next block dict it takes was not made right after
// its last one.
func (m *vm) copyBlocks(p *blockList) error {
	if p.copied {
		return nil
	}
	if err := m.charge(p.n * int(unsafe.Sizeof(Block{})+unsafe.Sizeof(false))); err != nil {
		return err
	}
	p.blocks = append([]Block(nil), m.blocks[p.start:p.start+p.n]...)
	p.hasAddr = make([]bool, p.n)
	for j := range p.n {
		p.hasAddr[j] = m.blockDicts[p.start+j].hasAddr
	}
	p.copied = true
	return nil
}

// segmentsOf returns the segments of segments list p.
func (m *vm) segmentsOf(p *segmentList) []Segment {
	if p.copied {
		return p.segs
	}
	return m.segments[p.start : p.start+p.n : p.start+p.n]
}
