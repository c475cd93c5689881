package snapshot

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"strconv"
	"unsafe"

	"gpureport/internal/pickleop"
)

// Frames lists are most of a snapshot. Every block and trace event has
// one, and pickle.dump writes each distinct frame dict once and fetches it
// again by its memo slot wherever it recurs, so a frames list is
//
//	EMPTY_LIST MEMOIZE MARK BINGET f1 LONG_BINGET f2 ... APPENDS
//
// with one memo get per frame: 80% of the opcodes of a real snapshot.
// The decoder keeps, per memo slot, the FrameID of the flat frame dict the
// slot holds (vm.frameSlots), and when a get of such a slot starts the
// items of an open frames list, gatherFrames appends the IDs of the whole
// run of such gets to the list in one tight loop, without pushing them.
// Those items are then under the MARK only virtually (vm.skipFence): the
// MARK must end in APPENDS, and an opcode that would read them off the
// stack makes the decode fall back (vm.underflow). A list's IDs live in a
// reusable scratch slice until the list is used as a stack: internStack
// then finds or adds its StackID.
//
// A skimmed trace (DecodeOptions.SkimTrace) gathers its events' frames
// the same way but interns only an OOM event's. An event's list is
// dropped when the next event uses another one: consecutive events share
// a list (the segment_free events of a failed allocation and its OOM
// event), events far apart need not.

// Frames list states.
const (
	fsEmpty    uint8 = iota // no items yet
	fsOpen                  // items in frameScratch[id]
	fsInterned              // used as a stack: id is its StackID; sealed
	fsBad                   // holds something that is not a frame
	fsDropped               // a skimmed event's list whose IDs were dropped
	fsSpan                  // one run of gets whose stack its bytes found: id is its StackID; IDs not in scratch
)

// errSkimmedStack means a skimming decode needed the stack of a frames
// list it had dropped (an OOM event sharing the list of an event long
// before it); the caller decodes again without skimming.
var errSkimmedStack = errors.New("a skimmed trace event's stack was needed after it was dropped")

// noteFrameSlot records that memo slot i holds frame dict v when v is a
// finished, valid flat frame dict (all real ones are; the caller checks
// that v is no higher than 1, and the memo keeps the height a dict had
// when it was memoized, 0 for CPython's, which memoizes before the
// items), so that later gets of the slot can be gathered. Only slots in
// the memo's chunks are noted: their number is bounded by the input read
// so far.
func (m *vm) noteFrameSlot(i uint64, v val) error {
	st := m.frameDicts[v.x]
	if st&frFinal == 0 || i>>memoChunkBits >= uint64(len(m.memo.chunks)) {
		return nil
	}
	if i >= uint64(len(m.frameSlots)) {
		n := max(int(i)+1, 2*len(m.frameSlots), 1024)
		if err := m.charge(4 * (n - len(m.frameSlots))); err != nil {
			return err
		}
		m.frameSlots = append(m.frameSlots, make([]uint32, n-len(m.frameSlots))...)
	}
	m.frameSlots[i] = st&frMask + 1
	return nil
}

// gatherFrames appends the frame of memo slot i (noted in frameSlots),
// and those of the gets of noted slots right after it, to the open frames
// list below the innermost MARK, when nothing is above that MARK but such
// gathered frames. It reports whether it did; when not, the get is
// executed as any other.
func (m *vm) gatherFrames(i uint64) (bool, error) {
	l := &m.stack[m.fence-1]
	if l.k != kList || l.r != rFrames && l.r != rSkimmed || m.skipFence != 0 && m.skipFence != m.fence {
		return false, nil
	}
	p := m.framesLists.at(l.x)
	if p.state == fsSpan {
		m.openSpan(p)
	}
	start := int(m.opOff - m.base)
	// A skimmed event's list becomes a stack only at an OOM event: its
	// run is neither found nor kept.
	spans := l.r == rFrames && !m.spansOff && m.spansPay()
	if p.state == fsEmpty && spans {
		if id, end, ok := m.spanStack(start); ok {
			p.state, p.id = fsSpan, uint32(id)
			m.pos = end
			m.skipFence = m.fence
			m.skipH = max(m.skipH, 2)
			return true, m.charge(4 * len(m.st.Stack(id)))
		}
	}
	if m.pendList == l.x+1 {
		m.pendList = 0 // a list of more than one run
	}
	if !m.openFrames(p) {
		return false, nil
	}
	ids := m.frameScratch[p.id]
	before := len(ids)
	ids = append(ids, FrameID(m.frameSlots[i]-1))
	m.pos, ids = appendFrameGets(m.buf, m.pos, m.lim, m.frameSlots, ids)
	m.frameScratch[p.id] = ids
	if before == 0 && spans && m.pos < m.lim && m.buf[m.pos] == pickleop.Appends {
		// The whole list's run: its stack is found by its bytes next
		// time.
		m.pendSpan(start, l.x)
	}
	m.skipFence = m.fence
	m.skipH = max(m.skipH, 2) // a flat frame dict is 1 high
	return true, m.charge(4 * (len(ids) - before))
}

// appendFrameGets appends to ids the frames of the run of memo gets that
// starts at buf[p] and whose slots all hold noted frame dicts (slots[i]
// is the FrameID plus one), and returns the index after the run. The run
// stops at the first other opcode, at a get of a slot not noted, and
// where an operand would pass lim (the buffered data or the current
// FRAME's end); the opcode loop takes over from there, with its checks.
func appendFrameGets(buf []byte, p, lim int, slots []uint32, ids []FrameID) (int, []FrameID) {
	for {
		if len(slots) >= 256 {
			// Four one-byte gets at a time (pickleop.FourGets): their slots
			// are bytes, so index a 256-slot view without checks.
			s := slots[:256]
			for p+8 <= lim {
				w := binary.LittleEndian.Uint64(buf[p : p+8])
				if !pickleop.FourGets(w) {
					break
				}
				a, b, c, d := s[byte(w>>8)], s[byte(w>>24)], s[byte(w>>40)], s[byte(w>>56)]
				if min(a, b, c, d) == 0 {
					break
				}
				ids = append(ids, FrameID(a-1), FrameID(b-1), FrameID(c-1), FrameID(d-1))
				p += 8
			}
		}
		var i uint64
		var n int
		switch {
		case p+2 <= lim && buf[p] == pickleop.BinGet:
			i, n = uint64(buf[p+1]), 2
		case p+5 <= lim && buf[p] == pickleop.LongBinGet:
			i, n = uint64(binary.LittleEndian.Uint32(buf[p+1:])), 5
		default:
			return p, ids
		}
		if i >= uint64(len(slots)) || slots[i] == 0 {
			return p, ids
		}
		ids = append(ids, FrameID(slots[i]-1))
		p += n
	}
}

// underflow is the error of an opcode that needs a value above the
// innermost MARK and finds none: when gathered frames are there, the
// pickle reads them back, which the decoder does not model, so it falls
// back.
func (m *vm) underflow() error {
	if m.fence > 0 && m.skipFence == m.fence {
		return errFallback
	}
	return m.failOp(ErrMalformed, "stack underflow")
}

// openFrames makes frames list p ready to take frame IDs (a scratch slice
// for a new list) and reports whether it is: a list used as a stack, bad
// or dropped takes no more.
func (m *vm) openFrames(p *framesList) bool {
	switch p.state {
	case fsOpen:
		return true
	case fsEmpty:
		if n := len(m.freeScratch); n > 0 {
			p.id = m.freeScratch[n-1]
			m.freeScratch = m.freeScratch[:n-1]
		} else {
			p.id = uint32(len(m.frameScratch))
			m.frameScratch = append(m.frameScratch, nil)
		}
		p.state = fsOpen
		return true
	}
	return false
}

// appendFrames adds frame dicts to frames list l, computing its nesting
// height in the same pass. The IDs of open lists live in reusable scratch
// slices, so a million short-lived frames lists cost one small table entry
// each.
func (m *vm) appendFrames(l *val, items []val) error {
	h := l.h
	p := m.framesLists.at(l.x)
	switch p.state {
	case fsInterned:
		return errFallback // changed after use
	case fsDropped:
		return errSkimmedStack
	case fsEmpty:
		if len(items) == 0 {
			return nil
		}
		m.openFrames(p)
	case fsSpan:
		if len(items) == 0 {
			return nil
		}
		m.openSpan(p)
	}
	if len(items) > 0 && m.pendList == l.x+1 {
		m.pendList = 0 // more than the run
	}
	var ids []FrameID
	if p.state == fsOpen {
		ids = m.frameScratch[p.id]
	}
	for i := range items {
		it := &items[i]
		if it.h >= h {
			h = it.h + 1
		}
		if p.state != fsOpen {
			continue // bad: only the height matters now
		}
		if it.k != kDict || it.r != rFrame {
			m.releaseFrames(p)
			p.state = fsBad
			continue
		}
		f := m.frameDicts[it.x]
		if f == frOpen {
			f = m.finishFrameDict(it.x, nil)
		}
		if f&frBad != 0 {
			m.releaseFrames(p)
			p.state = fsBad
			continue
		}
		ids = append(ids, FrameID(f&frMask))
	}
	if h > maxNesting {
		return m.failOp(ErrLimit, "containers nested deeper than "+strconv.Itoa(maxNesting)+" levels")
	}
	l.h = h
	if p.state == fsOpen {
		m.frameScratch[p.id] = ids
	}
	return m.charge(4 * len(items))
}

// releaseFrames returns the scratch slice of open list p for reuse.
func (m *vm) releaseFrames(p *framesList) {
	if p.state == fsOpen {
		m.frameScratch[p.id] = m.frameScratch[p.id][:0]
		m.freeScratch = append(m.freeScratch, p.id)
	}
}

// skimmedDone is called when a skimmed trace event is finished with its
// frames list l: the list of the event before, when another, is dropped
// (its IDs go back to the scratch pool).
func (m *vm) skimmedDone(l val) {
	if prev := m.skimPending; prev != 0 && prev-1 != l.x {
		p := m.framesLists.at(prev - 1)
		if p.state == fsOpen || p.state == fsSpan {
			m.releaseFrames(p)
			p.state = fsDropped
		}
		if m.pendList == prev {
			m.pendList = 0
		}
	}
	m.skimPending = l.x + 1
}

// stackOf interns a frames value (None or a frames list) as a stack; the
// list is sealed from then on. A dict without the frames key (kUnset) has
// no stack, as with None.
func (m *vm) stackOf(v val) (StackID, error) {
	if v.k == kNone || v.k == kUnset {
		return NoStack, nil
	}
	if v.k != kList || v.r != rFrames && v.r != rSkimmed {
		return NoStack, errFallback
	}
	p := m.framesLists.at(v.x)
	var ids []FrameID
	switch p.state {
	case fsInterned:
		return StackID(p.id), nil
	case fsSpan:
		p.state = fsInterned
		m.lists++
		return StackID(p.id), nil
	case fsBad:
		return NoStack, errFallback
	case fsDropped:
		return NoStack, errSkimmedStack
	case fsOpen:
		ids = m.frameScratch[p.id]
	}
	id, err := m.internStack(ids)
	if err != nil {
		return NoStack, err
	}
	m.lists++
	if m.pendList == v.x+1 {
		m.keepSpan(id)
	}
	m.releaseFrames(p)
	p.state, p.id = fsInterned, uint32(id)
	return id, nil
}

// stackSlot is one entry of the decoder's stack table: a stack's hash and
// ID (NoStack: empty).
type stackSlot struct {
	h  uint64
	id StackID
}

// stackSeed seeds the stack table's hash; any fixed seed will do, as a
// collision only costs a comparison.
var stackSeed = maphash.MakeSeed()

// internStack returns the StackID of ids, adding the stack when new. Most
// stacks repeat (thousands of distinct stacks among a million lists), so
// an open-addressed table of hashes, kept at most half full, answers them
// with one hash of the IDs and one comparison; it is the only index of
// the decoder's stacks (Stacks.add).
func (m *vm) internStack(ids []FrameID) (StackID, error) {
	if len(ids) == 0 {
		return NoStack, nil
	}
	key := idBytes(ids)
	h := maphash.String(stackSeed, key)
	if len(m.stackTab) == 0 {
		m.stackTab = make([]stackSlot, 1024)
	}
	mask := uint64(len(m.stackTab) - 1)
	j := h & mask
	for ; m.stackTab[j].id != NoStack; j = (j + 1) & mask {
		if s := m.stackTab[j]; s.h == h && idBytes(m.st.Stack(s.id)) == key {
			return s.id, nil
		}
	}
	id := m.st.add(ids)
	if err := m.charge(4*len(ids) + 32); err != nil {
		return NoStack, err
	}
	m.stackTab[j] = stackSlot{h, id}
	if m.stackCount++; 2*m.stackCount > len(m.stackTab) {
		m.growStackTab()
	}
	return id, nil
}

// idBytes returns the memory of ids as a string, without copying: what
// the stack table hashes and compares (a string comparison is one
// vectorised memory compare).
func idBytes(ids []FrameID) string {
	return unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(ids))), 4*len(ids))
}

// growStackTab doubles the stack table.
func (m *vm) growStackTab() {
	m.used += int64(16 * len(m.stackTab))
	m.stackTab = doubled(m.stackTab)
}

// hashed is an entry of an open-addressed table keyed by a hash (the
// stack table, the table of kept runs): its hash, and whether the slot
// is used.
type hashed interface {
	slotHash() (uint64, bool)
}

func (s stackSlot) slotHash() (uint64, bool) { return s.h, s.id != NoStack }
func (s spanSlot) slotHash() (uint64, bool)  { return s.h, s.id != NoStack }

// doubled returns a table twice the size of old, a power of two, that
// holds old's used entries, each in the first free slot from its hash:
// both tables are kept at most half full, so that a lookup probes few
// slots.
func doubled[S hashed](old []S) []S {
	t := make([]S, 2*len(old))
	mask := uint64(len(t) - 1)
	for _, s := range old {
		h, used := s.slotHash()
		if !used {
			continue
		}
		j := h & mask
		for {
			if _, taken := t[j].slotHash(); !taken {
				break
			}
			j = (j + 1) & mask
		}
		t[j] = s
	}
	return t
}
