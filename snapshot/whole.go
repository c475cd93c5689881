package snapshot

import "io"

// wholeReader is a pickle held in memory entire, most often a mapped
// file (internal/mmapfile): the pickle machine reads it in place instead of
// copying it through its read buffer, which for a snapshot in the page
// cache is a tenth of the decode (the kernel's copy of every byte).
//
// The machine never writes b, and nothing it returns points into b (it
// copies the strings and bytes it keeps, as it must when streaming,
// where the read buffer is overwritten), so b may be unmapped once the
// decode returns.
type wholeReader struct {
	b []byte
	// release, when set, gives back the memory of b[:n] (n a multiple of
	// the page size), which the machine has read past; released is how
	// far it has. A mapped file's pages would otherwise stay resident,
	// counted in the process's memory, until the decode ends: the
	// whole file, where streaming holds 256 KB of it.
	release  func(n int)
	released int
	// populate, when set, makes b[from:to] resident ahead of the
	// machine, in one call rather than a fault per few pages; populated
	// is how far it has.
	populate  func(from, to int)
	populated int
}

// Read implements io.Reader, the input a decode opens, with nothing to
// read as a stream: the pickle machine reads b in place (fillWhole) and
// never calls it.
func (w *wholeReader) Read([]byte) (int, error) { return 0, io.EOF }

const (
	// wholeWindow is how far fillWhole moves the end of the readable
	// bytes at a time: the streaming buffer's size, so that a machine
	// reading in place sees its input in the same steps as one
	// streaming, and calls fillWhole often enough to release pages.
	wholeWindow = readBufSize
	// wholeStep is how much input is made resident ahead of the
	// machine, and given back behind it, at a time: one madvise call
	// each per 2 MiB, 25 for a large model's 48 MB snapshot, each a few
	// microseconds, holding at most about 5 MiB of the file resident
	// (with the margin) where 8 MiB steps held 17 (bench-decode, -shape
	// large: peak RSS 1.19 against 1.41 times the file, the decode no
	// slower).
	wholeStep = 2 << 20
	// releaseMargin is how far behind the current opcode input stays
	// resident: a frames list's run of memo gets (framespan.go) is read
	// again from where the list began. Input released too early is not
	// an error (the page is read again from the file), only slower.
	releaseMargin = 1 << 20
)

// fillWhole is fill for input read in place: it moves the end of the
// readable bytes forward, at least n past pos, and gives back the pages
// well behind pos.
func (m *vm) fillWhole(n int) error {
	w := m.whole
	m.end = min(len(m.buf), max(m.end, m.pos+max(n, wholeWindow)))
	m.eof = m.end == len(m.buf)
	m.setLim()
	if w.populate != nil && w.populated < len(m.buf) && m.end > w.populated-wholeWindow {
		to := min(len(m.buf), max(m.end, w.populated)+wholeStep)
		w.populate(w.populated, to)
		w.populated = to
	}
	if w.release != nil {
		if upTo := (m.pos - releaseMargin) &^ (pageSize - 1); upTo-w.released >= wholeStep {
			w.release(upTo)
			w.released = upTo
		}
	}
	if m.end == len(m.buf) && m.end-m.pos < wholeTail {
		m.ownTail()
	}
	if m.end-m.pos < n {
		return m.truncated()
	}
	return nil
}

// wholeTail is the unread input under which the machine reads on from a
// copy (ownTail): its inlined opcodes read their operands before
// checking them against the end (run), up to 16 bytes past an opcode,
// which a streaming buffer of at least 16 bytes allows and the end of a
// mapped file does not.
const wholeTail = 16

// ownTail moves the last unread bytes of an input read in place into a
// buffer of the machine's own, from where it reads on as from a stream
// at its end.
func (m *vm) ownTail() {
	rest := m.buf[m.pos:m.end]
	nb := make([]byte, wholeTail)
	copy(nb, rest)
	m.whole = nil
	m.base += int64(m.pos)
	m.buf, m.pos, m.end, m.eof = nb, 0, len(rest), true
	m.setLim()
}

// pageSize is the granularity of released input: 64 KiB, a multiple of
// the page sizes Linux uses (4, 16 and 64 KiB).
const pageSize = 64 << 10
