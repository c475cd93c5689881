package ingest

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
	arena    []TraceEntry // entries 0..len(arena)-1 once sized
	aflags   []uint8
	chunks   []*entryChunk // entries from len(arena) on
	n        int           // entries created
	firstOff int64         // input offset when entry 0 was created
}

// at returns entry i and its flags.
func (es *entryStore) at(i uint64) (*TraceEntry, *uint8) {
	if i < uint64(len(es.arena)) {
		return &es.arena[i], &es.aflags[i]
	}
	i -= uint64(len(es.arena))
	c := es.chunks[i>>entryChunkBits]
	j := i & (1<<entryChunkBits - 1)
	return &c.e[j], &c.f[j]
}

// newEntry creates a trace entry and returns its index.
func (m *vm) newEntry() (uint64, error) {
	es := &m.ents
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
// when they all lie in it, else a copy gathered from the chunks.
func (es *entryStore) slice(start, n int) []TraceEntry {
	if n == 0 {
		return []TraceEntry{}
	}
	if start+n <= len(es.arena) {
		return es.arena[start : start+n : start+n]
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
