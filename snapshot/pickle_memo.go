package snapshot

import "strconv"

// memo is the pickle machine's memo: values by slot number. Slots live in
// fixed-size chunks (no copying as the memo grows, which it does by two
// slots per trace entry) and are packed into 8 bytes; the rare values that
// do not pack (wide integers, floats) and slots far beyond the input read
// so far go to a map.
type memo struct {
	chunks [][]uint64
	n      int // number of set slots: the index MEMOIZE uses next
	spill  map[uint64]val
}

const (
	memoChunkBits = 14
	memoChunk     = 1 << memoChunkBits

	// A packed slot: kind (4 bits), role (5), height (10: maxNesting
	// fits), payload (45). Zero is an unset slot.
	packXBits  = 45
	packHBits  = 10
	packXMask  = 1<<packXBits - 1
	packHMask  = 1<<packHBits - 1
	packSpill  = 0xf // kind nibble of a slot whose value is in spill
	packHShift = packXBits
	packRShift = packXBits + packHBits
	packRBits  = 5
	packRMask  = 1<<packRBits - 1
	packKShift = packRShift + packRBits
)

func pack(v val) (uint64, bool) {
	if v.k == kInt || v.k == kFloat || v.x > packXMask || v.h > packHMask {
		return 0, false
	}
	return uint64(v.k)<<packKShift | uint64(v.r)<<packRShift | uint64(v.h)<<packHShift | v.x, true
}

func unpack(s uint64) val {
	return val{k: vkind(s >> packKShift), r: role(s>>packRShift) & packRMask, h: uint32(s>>packHShift) & packHMask, x: s & packXMask}
}

// get returns slot i.
func (mm *memo) get(i uint64) (val, bool) {
	if c := i >> memoChunkBits; c < uint64(len(mm.chunks)) {
		if ch := mm.chunks[c]; ch != nil {
			s := ch[i&(memoChunk-1)]
			if s>>packKShift != packSpill {
				return unpack(s), s != 0
			}
		}
	}
	v, ok := mm.spill[i]
	return v, ok
}

// memoPut stores v in memo slot i. Chunks are created only for slots up to
// the input offset (each slot costs at least one opcode) and are charged
// to the memory budget, so hostile slot numbers cannot allocate more than
// the input allows.
func (m *vm) memoPut(i uint64, v val) error {
	mm := &m.memo
	if i < uint64(len(m.frameSlots)) {
		if m.frameSlots[i] != 0 {
			// A frame's slot put again: a run of gets no longer names
			// the frames it named (framespan.go).
			m.dropSpans()
		}
		m.frameSlots[i] = 0
	}
	c := i >> memoChunkBits
	var ch []uint64
	if c < uint64(len(mm.chunks)) {
		ch = mm.chunks[c]
	}
	if ch == nil && i <= uint64(m.offset())+64 {
		if err := m.charge(8 * memoChunk); err != nil {
			return err
		}
		for uint64(len(mm.chunks)) <= c {
			mm.chunks = append(mm.chunks, nil)
		}
		ch = make([]uint64, memoChunk)
		mm.chunks[c] = ch
	}
	if ch != nil {
		j := i & (memoChunk - 1)
		old := ch[j]
		if s, ok := pack(v); ok {
			if old == 0 {
				mm.n++
			} else if old>>packKShift == packSpill {
				delete(mm.spill, i)
			}
			ch[j] = s
			return nil
		}
		if old == 0 {
			mm.n++
		}
		ch[j] = packSpill << packKShift
		return m.spillPut(i, v, old == 0)
	}
	_, had := mm.spill[i]
	if !had {
		mm.n++
	}
	return m.spillPut(i, v, !had)
}

func (m *vm) spillPut(i uint64, v val, fresh bool) error {
	if m.memo.spill == nil {
		m.memo.spill = make(map[uint64]val)
	}
	if fresh {
		if err := m.charge(48); err != nil {
			return err
		}
	}
	m.memo.spill[i] = v
	if len(m.memo.spill) > maxStack {
		return m.failOp(ErrLimit, "more than "+strconv.Itoa(maxStack)+" scattered memo slots")
	}
	return nil
}
