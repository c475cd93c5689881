package snapshot

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/big"
	"strconv"
	"unsafe"

	"gpureport/internal/pickleop"
)

// The fast snapshot decoder is a pickle machine (see pickle_ops.go for the
// opcodes) whose stack and memo hold small tagged values instead of Go
// interfaces. Containers carry a role, predicted from where they are
// created (pickle_roles.go): a trace entry dict is decoded straight into a
// TraceEntry, a frames list into an interned stack, and only the small
// generic regions (allocator_settings, external_annotations) become a
// generic value tree. When a file does not fit the prediction the decoder
// reports errFallback and the caller decodes it again with every role
// generic, converting the tree with convertSnapshotAt: same machine, same
// pickle semantics, only slower.

// Safety limits of the pickle machine. Real snapshots stay far below them;
// a file that exceeds one is hostile or broken and gets an ErrLimit error.
const (
	// maxStringLen bounds one str or bytes value, in bytes.
	maxStringLen = 256 << 20
	// maxLongLen bounds the byte length of one LONG4 integer.
	maxLongLen = 1 << 16
	// maxStack bounds the values on the machine's stack (the C++ pickler
	// puts a whole trace on the stack before APPENDS: 8M entries is a file
	// of about a gigabyte).
	maxStack = 1 << 23
	// maxMarks bounds open MARKs; each is a level of nesting.
	maxMarks = maxNesting
	// budgetBase and budgetPerByte bound the decoder's own memory: at most
	// budgetBase plus budgetPerByte times the bytes read so far. Real
	// snapshots need less than one byte of model per byte of file.
	budgetBase    = 64 << 20
	budgetPerByte = 8
	// readBufSize is the size of the streaming read buffer.
	readBufSize = 256 << 10
)

// errFallback means the fast decoder met a legal pickle that does not fit
// its role prediction; the caller decodes again in generic mode.
var errFallback = errors.New("snapshot layout not handled by the fast path")

// vkind is the type of a machine value.
type vkind uint8

const (
	kUnset vkind = iota // an empty memo slot; never on the stack
	kNone
	kBool  // x: 0 or 1
	kInt   // x: int64 bits
	kBig   // x: index into vm.bigs (integers outside int64)
	kFloat // x: float64 bits
	kStr   // x: index into vm.strs (str and bytes alike)
	kTuple
	kList
	kDict
)

// val is one machine value: scalars inline, containers as an index into the
// payload table of their role.
type val struct {
	x uint64
	// h is the nesting height: 0 for scalars and empty containers, else one
	// more than the highest item.
	h uint32
	k vkind
	r role
}

// vm is the pickle machine and the state of one decode.
type vm struct {
	// Input: buf[pos:end] holds unread bytes; base is the stream offset of
	// buf[0]; size is the stream length when known, else -1.
	r        io.Reader
	buf      []byte
	pos, end int
	base     int64
	size     int64
	eof      bool
	// whole is the input read in place (a mapped file, wholeReader):
	// buf is the input itself, never written, base stays 0, and fill
	// only moves end forward (fillWhole).
	whole    *wholeReader
	frameEnd int64 // end offset of the current FRAME, -1 outside frames
	lim      int   // buf index up to which reads need no checks (setLim)
	opOff    int64 // offset of the opcode being executed
	op       byte

	// generic makes every container generic (the fallback mode).
	generic bool
	// skim builds no stacks for trace events but OOM events'
	// (DecodeOptions.SkimTrace); skimPending is the frames list (index
	// plus one; 0: none) of the last skimmed event, kept until an event
	// uses another (skimmedDone).
	skim        bool
	skimPending uint64
	// skipFence is the fence of the MARK whose items were gathered
	// straight into the frames list below it (gatherFrames) instead of
	// being pushed; skipH is their nesting height. 0 when none. The MARK
	// must end in APPENDS onto that list, else the decode falls back
	// (popMark).
	skipFence int
	skipH     uint32
	// frameSlots[i] is the FrameID plus one of the finished, valid flat
	// frame dict memo slot i holds, 0 for any other slot: most memo gets
	// of a snapshot are of such slots, inside frames lists, and are
	// gathered without loading the slot (gatherFrames). memoPut clears a
	// slot that is set again.
	frameSlots []uint32
	// spanTab finds the stack of a frames list that is one run of memo
	// gets of frame slots, by the run's bytes (framespan.go), an
	// open-addressed table of spanCount runs; spansOff
	// is set once a frame's slot is put again, after which bytes no
	// longer tell frames. pend is the run of the list pendList (index
	// plus one; 0: none), kept until the list becomes a stack.
	spanTab   []spanSlot
	spanCount int
	spanBytes []byte
	spansOff  bool
	pend      []byte
	pendHash  uint64
	pendList  uint64
	// lists counts the frames lists made stacks (stackOf); spanAlways
	// keeps and finds runs from the first list on (tests).
	lists      uint64
	spanAlways bool
	// spanHits counts the lists found by their run's bytes.
	spanHits uint64

	stack []val
	marks []int
	fence int // stack index of the innermost MARK (0 when none)
	memo  memo

	used   int64 // estimated decoder memory, bytes
	budget int64 // budgetBase, lowered by tests

	strs    []string
	strIdx  map[string]uint32
	strInfo []strInfo
	bigs    []*big.Int
	gobjs   []any

	typed
}

// newVM makes a machine reading r, whose length is size (-1 if unknown).
func newVM(r io.Reader, size int64, generic bool) *vm {
	return newVMReusing(r, size, generic, nil)
}

// newVMReusing is newVM reading into buf's memory when it holds a read
// buffer's worth.
func newVMReusing(r io.Reader, size int64, generic bool, buf []byte) *vm {
	bufSize := readBufSize
	if size >= 0 && size < readBufSize {
		bufSize = int(max(size, 16))
	}
	w, whole := r.(*wholeReader)
	switch {
	case whole:
		buf = w.b
	case cap(buf) >= bufSize:
		buf = buf[:cap(buf)]
	default:
		buf = make([]byte, bufSize)
	}
	m := &vm{
		r:        r,
		buf:      buf,
		size:     size,
		frameEnd: -1,
		budget:   budgetBase,
		generic:  generic,
		stack:    make([]val, 0, 64),
		strIdx:   make(map[string]uint32),
	}
	if whole {
		m.whole = w
	}
	return m
}

// offset returns the stream offset of the next unread byte.
func (m *vm) offset() int64 { return m.base + int64(m.pos) }

// fail returns a PickleError at the current opcode.
func (m *vm) fail(kind error, msg string) error {
	return &PickleError{Offset: m.opOff, Op: m.op, Kind: kind, Msg: msg}
}

// failf is fail with the opcode's name in front of msg.
func (m *vm) failOp(kind error, msg string) error {
	return m.fail(kind, pickleop.Name(m.op)+": "+msg)
}

// fill makes at least n unread bytes available, reading (and growing the
// buffer only as data actually arrives). It returns ErrTruncated when the
// data ends first.
func (m *vm) fill(n int) error {
	if m.whole != nil {
		return m.fillWhole(n)
	}
	if m.pos > 0 {
		copy(m.buf, m.buf[m.pos:m.end])
		m.base += int64(m.pos)
		m.end -= m.pos
		m.pos = 0
		m.setLim()
	}
	for m.end < n {
		if m.eof {
			return m.truncated()
		}
		if m.end == len(m.buf) {
			// Grow only once the buffer is full of real data, so a
			// declared length costs memory only as its bytes arrive.
			nb := make([]byte, 2*len(m.buf))
			copy(nb, m.buf[:m.end])
			m.buf = nb
		}
		k, err := m.r.Read(m.buf[m.end:])
		m.end += k
		m.setLim()
		if err == io.EOF {
			m.eof = true
		} else if err != nil {
			// Where reading broke, not the opcode: the data is corrupt
			// from there (a bad gzip checksum, a decompression bound).
			at := m.base + int64(m.end)
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return &PickleError{Offset: at, Kind: ErrTruncated, Msg: "the compressed data ends here (truncated file?)"}
			}
			return &PickleError{Offset: at, Kind: err, Msg: "reading: " + err.Error()}
		}
	}
	m.setLim()
	return nil
}

// truncated is the error of a read past the end of the data.
func (m *vm) truncated() error {
	msg := ErrTruncated.Error()
	if end := m.base + int64(m.end); end > m.opOff {
		msg = pickleop.Name(m.op) + ": the data ends at offset " + strconv.FormatInt(end, 10) + ", inside its operand (truncated file?)"
	}
	return m.fail(ErrTruncated, msg)
}

// arg reads the next n bytes as one read of the pickle machine, which must
// not cross the end of the current FRAME (CPython and gopickle refuse
// that; a read that starts exactly at the end leaves the frame). The
// common case (buffered, inside the frame) is small enough to inline.
func (m *vm) arg(n int) ([]byte, error) {
	if p := m.pos + n; p <= m.lim {
		b := m.buf[m.pos:p:p]
		m.pos = p
		return b, nil
	}
	return m.argSlow(n)
}

func (m *vm) argSlow(n int) ([]byte, error) {
	if m.end-m.pos < n {
		if err := m.fill(n); err != nil {
			return nil, err
		}
	}
	if m.frameEnd >= 0 && n > 0 {
		o := m.offset()
		if o == m.frameEnd {
			m.frameEnd = -1
			m.setLim()
		} else if o+int64(n) > m.frameEnd {
			return nil, m.failOp(ErrMalformed, "operand crosses the end of its FRAME at offset "+strconv.FormatInt(m.frameEnd, 10))
		}
	}
	b := m.buf[m.pos : m.pos+n : m.pos+n]
	m.pos += n
	return b, nil
}

// checkLen refuses a declared length before anything is allocated for it.
func (m *vm) checkLen(n uint64, what string) error {
	if m.size >= 0 && n > uint64(max(m.size-m.offset(), 0)) {
		return m.failOp(ErrTruncated, "declared "+what+" length "+strconv.FormatUint(n, 10)+" exceeds the "+strconv.FormatInt(max(m.size-m.offset(), 0), 10)+" bytes left (truncated file?)")
	}
	if n > maxStringLen {
		return m.failOp(ErrLimit, "declared "+what+" length "+strconv.FormatUint(n, 10)+" exceeds the "+strconv.Itoa(maxStringLen)+"-byte limit")
	}
	return nil
}

// charge adds n bytes to the decoder's memory estimate and fails when it
// passes the budget for the input read so far.
func (m *vm) charge(n int) error {
	m.used += int64(n)
	if m.used > m.budget && m.used > m.budget+budgetPerByte*m.offset() {
		return m.fail(ErrLimit, "decoding needs more than "+strconv.FormatInt(m.used>>20, 10)+" MiB for "+strconv.FormatInt(m.offset(), 10)+" bytes of input; the pickle is hostile or broken")
	}
	return nil
}

// push puts v on the stack.
func (m *vm) push(v val) error {
	if len(m.stack) == cap(m.stack) {
		return m.pushGrow(v)
	}
	m.stack = append(m.stack, v)
	return nil
}

func (m *vm) pushGrow(v val) error {
	if len(m.stack) >= maxStack {
		return m.failOp(ErrLimit, "more than "+strconv.Itoa(maxStack)+" values on the stack")
	}
	if err := m.charge(len(m.stack) * int(unsafe.Sizeof(val{}))); err != nil {
		return err
	}
	m.stack = append(m.stack, v)
	return nil
}

// pop removes the top value above the innermost MARK.
func (m *vm) pop() (val, error) {
	n := len(m.stack)
	if n <= m.fence {
		return val{}, m.underflow()
	}
	v := m.stack[n-1]
	m.stack = m.stack[:n-1]
	return v, nil
}

// top returns a pointer to the top value above the innermost MARK.
func (m *vm) top() (*val, error) {
	n := len(m.stack)
	if n <= m.fence {
		return nil, m.underflow()
	}
	return &m.stack[n-1], nil
}

// popMark returns the values pushed since the innermost MARK and removes
// them and the MARK. The slice aliases the stack: use it before pushing.
func (m *vm) popMark() ([]val, error) {
	if len(m.marks) == 0 {
		return nil, m.failOp(ErrMalformed, "no MARK to pop")
	}
	f := m.fence
	if m.skipFence != 0 && f == m.skipFence {
		// Memo gets under this MARK were gathered into the frames list
		// below it: only APPENDS onto that list may end it.
		if m.op != pickleop.Appends {
			return nil, errFallback
		}
		l := &m.stack[f-1]
		l.h = max(l.h, m.skipH)
		if l.h > maxNesting {
			return nil, m.failOp(ErrLimit, "containers nested deeper than "+strconv.Itoa(maxNesting)+" levels")
		}
		m.skipFence, m.skipH = 0, 0
	}
	items := m.stack[f:]
	m.stack = m.stack[:f]
	m.marks = m.marks[:len(m.marks)-1]
	m.fence = 0
	if len(m.marks) > 0 {
		m.fence = m.marks[len(m.marks)-1]
	}
	return items, nil
}

// intern returns the string id of b.
func (m *vm) intern(b []byte) (uint32, error) {
	if id, ok := m.strIdx[string(b)]; ok {
		return id, nil
	}
	if err := m.charge(len(b) + 48); err != nil {
		return 0, err
	}
	s := string(b)
	id := uint32(len(m.strs))
	m.strs = append(m.strs, s)
	m.strIdx[s] = id
	m.strInfo = append(m.strInfo, infoOf(s))
	return id, nil
}

// intVal makes an integer value from a little-endian two's complement
// number (the LONG1/LONG4 encoding; empty means 0).
func (m *vm) intVal(b []byte) (val, error) {
	if len(b) <= 8 {
		var u uint64
		for i := len(b) - 1; i >= 0; i-- {
			u = u<<8 | uint64(b[i])
		}
		if n := len(b); n > 0 && n < 8 && b[n-1]&0x80 != 0 {
			u |= ^uint64(0) << (8 * n) // sign-extend
		}
		return val{k: kInt, x: u}, nil
	}
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	z := new(big.Int).SetBytes(be)
	if b[len(b)-1]&0x80 != 0 {
		z.Sub(z, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	if z.IsInt64() {
		return val{k: kInt, x: uint64(z.Int64())}, nil
	}
	if err := m.charge(len(b) + 64); err != nil {
		return val{}, err
	}
	m.bigs = append(m.bigs, z)
	return val{k: kBig, x: uint64(len(m.bigs) - 1)}, nil
}

// setLim recomputes lim, the buffer index up to which operands can be read
// without refilling or leaving the current frame.
func (m *vm) setLim() {
	m.lim = m.end
	if m.frameEnd >= 0 {
		if f := m.frameEnd - m.base; f < int64(m.lim) {
			m.lim = int(max(f, 0))
		}
	}
}

// next prepares the next opcode when fewer than 16 bytes are readable
// without a check: it refills the buffer and leaves a finished frame.
func (m *vm) next() error {
	if m.end-m.pos < 16 {
		m.opOff, m.op = m.offset(), 0
		if err := m.fill(16); err != nil {
			if m.end == m.pos || !errors.Is(err, ErrTruncated) {
				return err
			}
		}
	}
	if m.frameEnd >= 0 && m.offset() >= m.frameEnd {
		m.frameEnd = -1
	}
	m.setLim()
	return nil
}

// run executes the pickle until STOP and returns the value it leaves. The
// opcodes of a snapshot's bulk (memo gets, small ints, short strings,
// container ends) take an inlined path; the rest go through exec.
func (m *vm) run() (val, error) {
	for {
		if m.pos+16 > m.lim {
			if err := m.next(); err != nil {
				return val{}, err
			}
		}
		m.opOff = m.base + int64(m.pos)
		op := m.buf[m.pos]
		m.op = op
		var err error
		switch op {
		case pickleop.BinGet, pickleop.LongBinGet:
			var i uint64
			if op == pickleop.BinGet {
				i = uint64(m.buf[m.pos+1])
				m.pos += 2
			} else {
				i = uint64(binary.LittleEndian.Uint32(m.buf[m.pos+1:]))
				m.pos += 5
			}
			if m.pos > m.lim {
				// The operand was not all buffered or crossed the frame:
				// redo it the careful way.
				m.pos = int(m.opOff-m.base) + 1
				err = m.exec(op)
				break
			}
			if m.fence > 0 && len(m.stack) == m.fence && i < uint64(len(m.frameSlots)) && m.frameSlots[i] != 0 {
				var done bool
				if done, err = m.gatherFrames(i); done || err != nil {
					break
				}
			}
			var v val
			ok := false
			if c := i >> memoChunkBits; c < uint64(len(m.memo.chunks)) {
				if ch := m.memo.chunks[c]; ch != nil {
					if s := ch[i&(memoChunk-1)]; s != 0 && s>>packKShift != packSpill {
						v, ok = unpack(s), true
					}
				}
			}
			if !ok {
				if v, ok = m.memo.get(i); !ok {
					return val{}, m.memoMiss(op, i)
				}
			}
			if v.k == kDict && v.r == rFrame && v.h <= 1 {
				if err = m.noteFrameSlot(i, v); err != nil {
					break
				}
			}
			if len(m.stack) < cap(m.stack) {
				m.stack = append(m.stack, v)
			} else {
				err = m.pushGrow(v)
			}
		case pickleop.Memoize:
			m.pos++
			n := len(m.stack)
			if n <= m.fence {
				return val{}, m.underflow()
			}
			v := m.stack[n-1]
			i := uint64(m.memo.n)
			if c := i >> memoChunkBits; c < uint64(len(m.memo.chunks)) && m.memo.chunks[c] != nil {
				if s, ok := pack(v); ok && m.memo.chunks[c][i&(memoChunk-1)] == 0 {
					m.memo.chunks[c][i&(memoChunk-1)] = s
					m.memo.n++
					break
				}
			}
			err = m.memoPut(i, v)
		case pickleop.Mark:
			m.pos++
			if len(m.marks) >= maxMarks {
				return val{}, m.failOp(ErrLimit, "MARKs nested deeper than "+strconv.Itoa(maxMarks)+" levels")
			}
			if m.skipFence != 0 && m.skipFence == len(m.stack) {
				// A MARK right after frames gathered under the one
				// before: the two would sit at one height, and the
				// gathered frames, on the stack for the pickle, are not
				// for the machine (a fuzzed APPENDS read them back).
				return val{}, errFallback
			}
			m.marks = append(m.marks, len(m.stack))
			m.fence = len(m.stack)
		case pickleop.BinInt1, pickleop.BinInt2, pickleop.BinInt:
			var x uint64
			switch op {
			case pickleop.BinInt1:
				x = uint64(m.buf[m.pos+1])
				m.pos += 2
			case pickleop.BinInt2:
				x = uint64(binary.LittleEndian.Uint16(m.buf[m.pos+1:]))
				m.pos += 3
			default:
				x = uint64(int64(int32(binary.LittleEndian.Uint32(m.buf[m.pos+1:]))))
				m.pos += 5
			}
			if m.pos > m.lim {
				m.pos = int(m.opOff-m.base) + 1
				err = m.exec(op)
				break
			}
			err = m.push(val{k: kInt, x: x})
		case pickleop.Long1:
			// Addresses and times: up to 8 bytes, two's complement.
			n := int(m.buf[m.pos+1])
			if n > 8 || m.pos+2+n > m.lim {
				m.pos++
				err = m.exec(op)
				break
			}
			b := m.buf[m.pos+2 : m.pos+2+n]
			m.pos += 2 + n
			var u uint64
			for i := n - 1; i >= 0; i-- {
				u = u<<8 | uint64(b[i])
			}
			if n > 0 && n < 8 && b[n-1]&0x80 != 0 {
				u |= ^uint64(0) << (8 * n)
			}
			err = m.push(val{k: kInt, x: u})
		case pickleop.Appends, pickleop.SetItems:
			m.pos++
			var items []val
			if items, err = m.popMark(); err == nil {
				var c *val
				switch c, err = m.top(); {
				case err != nil:
				case op == pickleop.Appends:
					err = m.appendItems(c, items)
				default:
					err = m.setItems(c, items)
				}
			}
		case pickleop.EmptyDict:
			m.pos++
			err = m.pushContainer(kDict, nil)
		case pickleop.EmptyList:
			m.pos++
			err = m.pushContainer(kList, nil)
		case pickleop.Stop:
			m.pos++
			v, e := m.pop()
			if e != nil {
				return val{}, e
			}
			if e := m.finishFrame(); e != nil {
				return val{}, e
			}
			return v, nil
		default:
			m.pos++
			err = m.exec(op)
		}
		if err != nil {
			return val{}, err
		}
	}
}

// memoMiss is the error of a memo get (op) of slot i never set.
func (m *vm) memoMiss(op byte, i uint64) error {
	name, _ := pickleop.Lookup(op)
	return m.fail(ErrMemo, name+" "+strconv.FormatUint(i, 10)+" refers to a memo slot never set")
}

// memoArg reads a memo index operand: one byte (BINGET, BINPUT) or four,
// little-endian (LONG_BINGET, LONG_BINPUT).
func (m *vm) memoArg(short bool) (uint64, error) {
	if short {
		b, err := m.arg(1)
		if err != nil {
			return 0, err
		}
		return uint64(b[0]), nil
	}
	b, err := m.arg(4)
	if err != nil {
		return 0, err
	}
	return uint64(binary.LittleEndian.Uint32(b)), nil
}

// exec executes one opcode whose byte has been read.
func (m *vm) exec(op byte) error {
	var err error
	switch op {
	case pickleop.LongBinGet, pickleop.BinGet:
		i, e := m.memoArg(op == pickleop.BinGet)
		if e != nil {
			return e
		}
		v, ok := m.memo.get(i)
		if !ok {
			return m.memoMiss(op, i)
		}
		err = m.push(v)
	case pickleop.BinPut, pickleop.LongBinPut:
		i, e := m.memoArg(op == pickleop.BinPut)
		if e != nil {
			return e
		}
		var t *val
		if t, err = m.top(); err == nil {
			err = m.memoPut(i, *t)
		}
	case pickleop.BinInt1:
		b, e := m.arg(1)
		if e != nil {
			return e
		}
		err = m.push(val{k: kInt, x: uint64(b[0])})
	case pickleop.BinInt2:
		b, e := m.arg(2)
		if e != nil {
			return e
		}
		err = m.push(val{k: kInt, x: uint64(binary.LittleEndian.Uint16(b))})
	case pickleop.BinInt:
		b, e := m.arg(4)
		if e != nil {
			return e
		}
		err = m.push(val{k: kInt, x: uint64(int64(int32(binary.LittleEndian.Uint32(b))))})
	case pickleop.Long1, pickleop.Long4:
		var v val
		if v, err = m.longArg(op); err == nil {
			err = m.push(v)
		}
	case pickleop.ShortBinUnicode, pickleop.ShortBinString, pickleop.BinUnicode, pickleop.BinString, pickleop.BinUnicode8,
		pickleop.ShortBinBytes, pickleop.BinBytes, pickleop.BinBytes8:
		// str and bytes alike: a snapshot's text may come as either
		// (os.fsencode'd file names, Python 2 str), and means the same.
		n, e := m.strLen(op)
		if e != nil {
			return e
		}
		b, e := m.arg(int(n))
		if e != nil {
			return e
		}
		id, e := m.intern(b)
		if e != nil {
			return e
		}
		err = m.push(val{k: kStr, x: uint64(id)})
	case pickleop.None:
		err = m.push(val{k: kNone})
	case pickleop.NewTrue:
		err = m.push(val{k: kBool, x: 1})
	case pickleop.NewFalse:
		err = m.push(val{k: kBool})
	case pickleop.BinFloat:
		b, e := m.arg(8)
		if e != nil {
			return e
		}
		err = m.push(val{k: kFloat, x: binary.BigEndian.Uint64(b)})
	case pickleop.EmptyTuple:
		err = m.pushContainer(kTuple, nil)
	case pickleop.Append:
		var v val
		if v, err = m.pop(); err == nil {
			var l *val
			if l, err = m.top(); err == nil {
				one := [1]val{v}
				err = m.appendItems(l, one[:])
			}
		}
	case pickleop.SetItem:
		var kv [2]val
		if kv[1], err = m.pop(); err == nil {
			if kv[0], err = m.pop(); err == nil {
				var d *val
				if d, err = m.top(); err == nil {
					err = m.setItems(d, kv[:])
				}
			}
		}
	case pickleop.Tuple1, pickleop.Tuple2, pickleop.Tuple3:
		n := int(op-pickleop.Tuple1) + 1
		if len(m.stack)-m.fence < n {
			return m.underflow()
		}
		var items [3]val
		copy(items[:], m.stack[len(m.stack)-n:])
		m.stack = m.stack[:len(m.stack)-n]
		err = m.pushContainer(kTuple, items[:n])
	case pickleop.Tuple, pickleop.List, pickleop.Dict:
		var items []val
		if items, err = m.popMark(); err == nil {
			// items alias the stack above its new top; copy them
			// before pushing the container over them.
			cp := append([]val(nil), items...)
			k := kTuple
			switch op {
			case pickleop.List:
				k = kList
			case pickleop.Dict:
				k = kDict
			}
			err = m.pushContainer(k, cp)
		}
	case pickleop.Pop:
		if len(m.stack) == m.fence && len(m.marks) > 0 {
			_, err = m.popMark()
		} else {
			_, err = m.pop()
		}
	case pickleop.PopMark:
		_, err = m.popMark()
	case pickleop.Dup:
		var t *val
		if t, err = m.top(); err == nil {
			err = m.push(*t)
		}
	case pickleop.Frame:
		b, e := m.arg(8)
		if e != nil {
			return e
		}
		n := binary.LittleEndian.Uint64(b)
		o := m.offset()
		if m.frameEnd >= 0 && o < m.frameEnd {
			return m.failOp(ErrMalformed, "a new frame begins before the end of the current one")
		}
		if n > 1<<62 {
			return m.failOp(ErrLimit, "frame length "+strconv.FormatUint(n, 10)+" is absurd")
		}
		if m.size >= 0 && int64(n) > m.size-o {
			return m.failOp(ErrTruncated, "frame of "+strconv.FormatUint(n, 10)+" bytes extends past the end of the data (truncated file?)")
		}
		m.frameEnd = o + int64(n)
		m.setLim()
	case pickleop.Proto:
		b, e := m.arg(1)
		if e != nil {
			return e
		}
		if b[0] > 5 {
			return m.failOp(ErrUnsupportedOpcode, "unsupported pickle protocol "+strconv.Itoa(int(b[0])))
		}
	default:
		if pickleop.IsClass(op) {
			return m.failOp(ErrForbiddenOpcode, "not allowed: snapshots never construct classes or call functions")
		}
		if _, known := pickleop.Lookup(op); known {
			return m.failOp(ErrUnsupportedOpcode, "not supported: snapshot pickles never use it")
		}
		return m.fail(ErrUnsupportedOpcode, "unknown opcode "+pickleop.Name(op)+": not a pickle, or corrupt")
	}
	return err
}

// longArg reads the operands of a LONG1 or LONG4 opcode (a byte count,
// then that many bytes of little-endian two's complement) and returns the
// integer, refusing counts beyond maxLongLen.
func (m *vm) longArg(op byte) (val, error) {
	var n uint64
	if op == pickleop.Long1 {
		b, err := m.arg(1)
		if err != nil {
			return val{}, err
		}
		n = uint64(b[0])
	} else {
		b, err := m.arg(4)
		if err != nil {
			return val{}, err
		}
		ln := int32(binary.LittleEndian.Uint32(b))
		if ln < 0 {
			return val{}, m.failOp(ErrMalformed, "negative byte count")
		}
		if ln > maxLongLen {
			return val{}, m.failOp(ErrLimit, "integer of "+strconv.Itoa(int(ln))+" bytes exceeds the "+strconv.Itoa(maxLongLen)+"-byte limit")
		}
		n = uint64(ln)
		if err := m.checkLen(n, "integer"); err != nil {
			return val{}, err
		}
	}
	b, err := m.arg(int(n))
	if err != nil {
		return val{}, err
	}
	return m.intVal(b)
}

// strLen reads the length operand of a string or bytes opcode and checks it.
func (m *vm) strLen(op byte) (uint64, error) {
	var n uint64
	switch op {
	case pickleop.ShortBinUnicode, pickleop.ShortBinString, pickleop.ShortBinBytes:
		b, err := m.arg(1)
		if err != nil {
			return 0, err
		}
		return uint64(b[0]), nil
	case pickleop.BinUnicode, pickleop.BinBytes:
		b, err := m.arg(4)
		if err != nil {
			return 0, err
		}
		n = uint64(binary.LittleEndian.Uint32(b))
	case pickleop.BinString:
		b, err := m.arg(4)
		if err != nil {
			return 0, err
		}
		ln := int32(binary.LittleEndian.Uint32(b))
		if ln < 0 {
			return 0, m.failOp(ErrMalformed, "negative byte count")
		}
		n = uint64(ln)
	default: // 8-byte lengths
		b, err := m.arg(8)
		if err != nil {
			return 0, err
		}
		n = binary.LittleEndian.Uint64(b)
		if n > math.MaxInt64 {
			return 0, m.failOp(ErrLimit, "length exceeds the maximum size")
		}
	}
	return n, m.checkLen(n, "string")
}

// finishFrame makes sure the FRAME that STOP ended in is complete: the
// reference decoders read a whole frame before decoding it, so a file cut
// inside its last frame is truncated even when STOP is present.
func (m *vm) finishFrame() error {
	if m.frameEnd < 0 {
		return nil
	}
	for m.offset() < m.frameEnd {
		if m.pos == m.end {
			if err := m.fill(1); err != nil {
				return m.fail(ErrTruncated, "the last frame ends at offset "+strconv.FormatInt(m.frameEnd, 10)+" but the data ends before it (truncated file?)")
			}
		}
		m.pos += int(min(int64(m.end-m.pos), m.frameEnd-m.offset()))
	}
	return nil
}
