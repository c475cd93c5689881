package snapshot

import "unsafe"

// Trace entries dominate a big snapshot (1.4 million in a 200 MB file), so
// where they are decoded matters. They are numbered in creation order and
// every device's trace is a contiguous run of those numbers (checked as
// lists take them). The first entryChunk of them goes into a chunk; when it
// fills and the input's size is known, the bytes it took predict how many
// entries the rest of the input holds, and one array of that capacity
// takes the rest, so the final per-device slices are views of it instead
// of copies. Pages of the array past the last entry are never touched and
// cost no resident memory. Entries beyond the estimate, and all entries of
// streams of unknown size, go to further chunks and are gathered at the
// end.

// entryChunkBits sizes the chunks (16K entries, 656 KiB).
const entryChunkBits = 14

type entryChunk struct {
	e [1 << entryChunkBits]TraceEntry
	f [1 << entryChunkBits]uint8 // ef* flags
}

// entryStore holds trace entries by creation index.
type entryStore struct {
	// ring, when set (skimming), holds the entries not yet appended to
	// their trace list: entry i is ring[i%len(ring)], and its slot is
	// reused once the entry has been folded into its trace's summary.
	ring     []TraceEntry
	rflags   []uint8
	arena    []TraceEntry // entries 0..len(arena)-1 once sized
	aflags   []uint8
	chunks   []*entryChunk // entries from len(arena) on
	n        int           // entries created
	firstOff int64         // input offset when entry 0 was created
}

// at returns entry i and its flags.
func (es *entryStore) at(i uint64) (*TraceEntry, *uint8) {
	if es.ring != nil {
		j := i & uint64(len(es.ring)-1)
		return &es.ring[j], &es.rflags[j]
	}
	if i < uint64(len(es.arena)) {
		return &es.arena[i], &es.aflags[i]
	}
	i -= uint64(len(es.arena))
	c := es.chunks[i>>entryChunkBits]
	j := i & (1<<entryChunkBits - 1)
	return &c.e[j], &c.f[j]
}

// skimRing is the number of trace events a skim starts with room for: those
// made but not yet appended to their trace list. CPython appends in batches
// of 1000, so 8192 leaves room, and 320 KB of events stay in the CPU's cache
// where a million would be written to memory once and never read again.
// PyTorch's C++ pickler appends a whole list at once; the ring then doubles
// as needed, up to the trace's size.
const skimRing = 1 << 13

// newEntry creates a trace entry and returns its index.
func (m *vm) newEntry() (uint64, error) {
	es := &m.ents
	if m.skim {
		if es.ring == nil {
			if len(m.spareRing) >= skimRing {
				es.ring, es.rflags = m.spareRing, m.spareFlags
				m.spareRing, m.spareFlags = nil, nil
			} else {
				es.ring = make([]TraceEntry, skimRing)
				es.rflags = make([]uint8, skimRing)
			}
		}
		if es.n-m.nextEntry >= len(es.ring) {
			if err := m.growRing(); err != nil {
				return 0, err
			}
		}
		i := es.n
		es.n++
		j := i & (len(es.ring) - 1)
		es.ring[j], es.rflags[j] = TraceEntry{}, 0
		return uint64(i), nil
	}
	if es.n == 0 {
		es.firstOff = m.offset()
	}
	k := es.n - len(es.arena)
	if k&(1<<entryChunkBits-1) == 0 {
		if err := m.charge(int(unsafe.Sizeof(entryChunk{}))); err != nil {
			return 0, err
		}
		if k == 1<<entryChunkBits && len(es.arena) == 0 && m.size >= 0 {
			m.sizeArena()
		}
		if es.n-len(es.arena) == len(es.chunks)<<entryChunkBits {
			es.chunks = append(es.chunks, new(entryChunk))
		}
	}
	i := es.n
	es.n++
	return uint64(i), nil
}

// growRing doubles the skim's ring, keeping the events not yet appended
// to their list (the others have been folded into their trace's summary).
func (m *vm) growRing() error {
	es := &m.ents
	n := 2 * len(es.ring)
	if err := m.charge(n * int(unsafe.Sizeof(TraceEntry{})+1)); err != nil {
		return err
	}
	ring, flags := make([]TraceEntry, n), make([]uint8, n)
	for k := m.nextEntry; k < es.n; k++ {
		ring[k&(n-1)], flags[k&(n-1)] = es.ring[k&(len(es.ring)-1)], es.rflags[k&(len(es.ring)-1)]
	}
	es.ring, es.rflags = ring, flags
	return nil
}

// maxArena bounds the arena (2.7 GB of address space, most of it never
// touched when the estimate is high); entries beyond go to chunks.
const maxArena = 1 << 26

// sizeArena moves the first chunk into an array sized for the entries the
// rest of the input can hold at the rate the first chunk took. The array
// never takes more bytes than the input has left, nor more than maxArena
// entries, so a hostile input cannot reserve more than its own size.
func (m *vm) sizeArena() {
	es := &m.ents
	off := m.offset()
	left := m.size - off
	per := max((off-es.firstOff)/int64(es.n), 8)
	est := left/per + left/per/16 + 1024
	est = min(est, left/int64(unsafe.Sizeof(TraceEntry{})), maxArena)
	if est < 1<<entryChunkBits {
		return // not worth it: a few more chunks will do
	}
	n := es.n + int(est)
	es.arena = make([]TraceEntry, n)
	es.aflags = make([]uint8, n)
	copy(es.arena, es.chunks[0].e[:])
	copy(es.aflags, es.chunks[0].f[:])
	es.chunks = es.chunks[:0]
}

// slice returns entries start..start+n as one slice: a view of the arena
// or of one chunk when they all lie in it, else a copy gathered from the
// chunks.
func (es *entryStore) slice(start, n int) []TraceEntry {
	if n == 0 {
		return []TraceEntry{}
	}
	if start+n <= len(es.arena) {
		return es.arena[start : start+n : start+n]
	}
	if j := start - len(es.arena); j >= 0 && j>>entryChunkBits == (j+n-1)>>entryChunkBits {
		c := es.chunks[j>>entryChunkBits]
		k := j & (1<<entryChunkBits - 1)
		return c.e[k : k+n : k+n]
	}
	out := make([]TraceEntry, n)
	for i := 0; i < n; {
		j := start + i
		if j < len(es.arena) {
			i += copy(out[i:], es.arena[j:])
			continue
		}
		j -= len(es.arena)
		c := es.chunks[j>>entryChunkBits]
		i += copy(out[i:], c.e[j&(1<<entryChunkBits-1):])
	}
	return out
}
