package snapshot

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"

	"gpureport/internal/pickleop"
)

// A frames list is most often one run of memo gets of frame dicts,
// pickle.dump's way of writing a stack it wrote before:
//
//	EMPTY_LIST MEMOIZE MARK BINGET f1 LONG_BINGET f2 ... APPENDS
//
// and a stack that recurs (a layer's tensors, an optimizer's states, an
// allocation site's trace events) recurs as the same bytes, since a frame
// dict keeps its memo slot. The first time such a run becomes a stack
// (stackOf), its bytes are kept with the StackID (vm.spans); a later run
// of the same bytes is that stack without gathering its frames one slot
// at a time and hashing their IDs (gatherFrames; a large model's 175k
// blocks over 3,000 stacks spent 43% of their decode there). Only a run
// that is the whole list counts, ended by its APPENDS inside the buffered
// data: a run that reaches the buffer's or the FRAME's end, a get of a
// slot that is not a frame's, a run before a frame dict written in full
// (a stack's first appearance), or a list that takes more, goes the usual
// way. The bytes name the same frames only while no frame's memo slot is
// put again; the first time one is, spans are dropped for the rest of
// the decode (memoPut). A skimmed trace event's list becomes a stack only
// at an OOM event, so its runs are neither found nor kept.

// spanRepeats is how many times, on average, a snapshot's stacks must
// each have become a stack before runs are kept and found by their
// bytes. A kept run costs its copy, a hash and an entry, and each finding
// a scan and a hash, against the slot lookups and the IDs' hash it spares:
// with stacks of a few frames it pays only for a stack found several
// times. The generator's ordinary shape (10k blocks and 10k events over
// 3,000 stacks, a ratio under 7) decoded 5-8% slower with runs kept from
// the start; its large shape (175k blocks over 3,000, a ratio of 58) 18%
// faster. 8 leaves the first alone and turns them on for the second
// after its first 24k blocks.
const spanRepeats = 8

// spansPay reports whether runs are kept and found here: once a thousand
// lists became stacks, spanRepeats times as many as the distinct stacks.
func (m *vm) spansPay() bool {
	return m.spanAlways || m.lists >= 1024 && m.lists >= spanRepeats*uint64(m.stackCount)
}

// spanSlot is one entry of the table of kept runs (vm.spanTab): the
// run's hash, its bytes m.spanBytes[off:off+n], and its stack (NoStack:
// an empty slot).
type spanSlot struct {
	h      uint64
	off, n uint32
	id     StackID
}

// scanGets returns the index after the run of memo gets (BINGET,
// LONG_BINGET) that starts at buf[p], stopping where an operand would
// pass lim.
func scanGets(buf []byte, p, lim int) int {
	for {
		for p+8 <= lim && pickleop.FourGets(binary.LittleEndian.Uint64(buf[p:p+8])) {
			p += 8
		}
		switch {
		case p+2 <= lim && buf[p] == pickleop.BinGet:
			p += 2
		case p+5 <= lim && buf[p] == pickleop.LongBinGet:
			p += 5
		default:
			return p
		}
	}
}

// spanStack finds the stack of the run of memo gets that starts at
// m.buf[start] when its bytes were kept: the StackID and the index after
// the run.
func (m *vm) spanStack(start int) (StackID, int, bool) {
	if m.spanCount == 0 {
		return NoStack, 0, false
	}
	p := scanGets(m.buf, start, m.lim)
	if p >= m.lim || m.buf[p] != pickleop.Appends {
		return NoStack, 0, false
	}
	run := m.buf[start:p]
	h := maphash.Bytes(stackSeed, run)
	mask := uint64(len(m.spanTab) - 1)
	for j := h & mask; m.spanTab[j].id != NoStack; j = (j + 1) & mask {
		if r := m.spanTab[j]; r.h == h && bytes.Equal(m.spanBytes[r.off:r.off+r.n], run) {
			m.spanHits++
			return r.id, p, true
		}
	}
	return NoStack, 0, false
}

// pendSpan keeps the bytes of the whole run m.buf[start:m.pos], list x's
// only items so far, until the list becomes a stack (keepSpan).
func (m *vm) pendSpan(start int, x uint64) {
	m.pend = append(m.pend[:0], m.buf[start:m.pos]...)
	m.pendHash = maphash.Bytes(stackSeed, m.pend)
	m.pendList = x + 1
}

// keepSpan keeps the pending run's bytes as stack id's.
func (m *vm) keepSpan(id StackID) {
	m.pendList = 0
	if m.spansOff || id == NoStack || uint64(len(m.spanBytes))+uint64(len(m.pend)) > 1<<32-1 {
		return
	}
	if len(m.spanTab) == 0 {
		m.spanTab = make([]spanSlot, 1024)
	}
	mask := uint64(len(m.spanTab) - 1)
	j := m.pendHash & mask
	for ; m.spanTab[j].id != NoStack; j = (j + 1) & mask {
		if m.spanTab[j].h == m.pendHash {
			return // another run of this hash was kept first
		}
	}
	m.spanTab[j] = spanSlot{h: m.pendHash, off: uint32(len(m.spanBytes)), n: uint32(len(m.pend)), id: id}
	m.spanBytes = append(m.spanBytes, m.pend...)
	if m.spanCount++; 2*m.spanCount > len(m.spanTab) {
		m.growSpanTab()
	}
}

// growSpanTab doubles the table of kept runs.
func (m *vm) growSpanTab() {
	m.used += int64(24 * len(m.spanTab))
	m.spanTab = doubled(m.spanTab)
}

// dropSpans turns the kept runs off for the rest of the decode: a
// frame's memo slot was put again, so bytes no longer name frames.
func (m *vm) dropSpans() {
	m.spansOff = true
	clear(m.spanTab)
	m.spanCount, m.spanBytes = 0, m.spanBytes[:0]
}

// openSpan makes list p, found by its run's bytes (fsSpan), an open list
// of its stack's frame IDs, for a list that takes more than the run.
func (m *vm) openSpan(p *framesList) {
	ids := m.st.Stack(StackID(p.id))
	p.state = fsEmpty
	m.openFrames(p)
	m.frameScratch[p.id] = append(m.frameScratch[p.id][:0], ids...)
}
