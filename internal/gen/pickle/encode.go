package pickle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"gpureport/internal/pickleop"
)

const (
	// frameSizeTarget is CPython's FRAME_SIZE_TARGET: a frame is closed at
	// the first object boundary after it reaches 64 KiB.
	frameSizeTarget = 64 << 10
	// frameSizeMin is CPython's FRAME_SIZE_MIN: shorter frames get no
	// FRAME header.
	frameSizeMin = 4
	// batchSize is CPython's BATCHSIZE for SETITEMS/APPENDS.
	batchSize = 1000
	// maxDepth bounds container nesting (and catches cycles the C++ style
	// cannot represent).
	maxDepth = 10000
)

// Style selects whose pickler the output imitates.
type Style uint8

const (
	// CPython is Python's C pickler (pickle.dump), as used by
	// torch.cuda.memory._dump_snapshot: memo entry for every str, dict,
	// list and tuple right after it is opened; SETITEMS/APPENDS in batches
	// of 1000; minimal LONG1 ints; FRAME opcodes from protocol 4.
	CPython Style = iota
	// TorchCpp is PyTorch's C++ pickler (torch::jit::Pickler, used by
	// _memory_snapshot_pickled): protocol 2, strings memoized by value,
	// dicts and lists memoized (BINPUT after their contents) only when
	// referenced more than once, MARK ... SETITEMS/APPENDS without
	// batching, 8-byte LONG1 for ints outside int32.
	TorchCpp
	// Marks is a pickler that builds each list and dict after its items
	// (MARK ... LIST, MARK ... DICT), as CPython's protocols 0 and 1 and
	// some hand-written picklers do: protocol 2, strs memoized as CPython
	// does, containers memoized after they are built and only when
	// referenced more than once (as TorchCpp). It cannot stream
	// (BeginDict, BeginList).
	Marks
)

// String names the style as the command-line flag spells it.
func (s Style) String() string {
	switch s {
	case TorchCpp:
		return "cpp"
	case Marks:
		return "marks"
	}
	return "cpython"
}

// Options choose the pickle dialect.
type Options struct {
	// Protocol is the pickle protocol: 2, 3, 4 or 5; 0 means 4 (the
	// default of Python 3.8-3.13). TorchCpp and Marks require 2.
	Protocol int
	// Style is the pickler imitated.
	Style Style
	// Ints chooses how integers are written; the zero value writes them
	// as the chosen pickler does.
	Ints IntStyle
}

// IntStyle chooses the opcodes integers are written with. Every one is a
// legal pickle of the same numbers; the non-default ones stand for
// picklers (other Python implementations, hand-written ones) that do not
// pick the shortest opcode, so a reader must take any width anywhere.
type IntStyle uint8

const (
	// IntsShortest writes each int as the pickler does: BININT1, BININT2
	// or BININT when it fits, LONG1 otherwise.
	IntsShortest IntStyle = iota
	// IntsLong1 writes every int as LONG1 with the fewest bytes (0 as an
	// empty LONG1), as pickle's protocol 2 encode_long does.
	IntsLong1
	// IntsLong4 writes every int as LONG4 of 16 bytes, sign-extended:
	// wider than any 64-bit number needs.
	IntsLong4
)

// Encoder writes one pickle to an io.Writer. Values are written either
// whole (Encode, Value) or streamed container by container (BeginDict,
// BeginList, Next, End) so that a pickle of any size is written in bounded
// memory. An Encoder is not safe for concurrent use. After the first error
// every method does nothing and Finish returns the error.
type Encoder struct {
	out     io.Writer
	style   Style
	ints    IntStyle
	proto   int
	framing bool
	inFrame bool
	buf     []byte

	memo    map[any]uint32
	strMemo map[string]uint32
	memoLen uint32
	refs    map[any]int

	depth    int
	started  bool
	finished bool
	written  int64
	err      error
}

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer, opt Options) (*Encoder, error) {
	p := opt.Protocol
	if p == 0 {
		p = 4
	}
	if p < 2 || p > 5 {
		return nil, fmt.Errorf("pickle: protocol %d not supported (want 2-5)", p)
	}
	if opt.Style != CPython && p != 2 {
		return nil, fmt.Errorf("pickle: the %s pickler style writes protocol 2, not %d", opt.Style, p)
	}
	return &Encoder{
		out:     w,
		style:   opt.Style,
		ints:    opt.Ints,
		proto:   p,
		buf:     make([]byte, 0, frameSizeTarget+1024),
		memo:    make(map[any]uint32),
		strMemo: make(map[string]uint32),
	}, nil
}

// Marshal returns the pickle of v.
func Marshal(v any, opt Options) ([]byte, error) {
	var b sliceWriter
	e, err := NewEncoder(&b, opt)
	if err != nil {
		return nil, err
	}
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return b.b, nil
}

type sliceWriter struct{ b []byte }

func (s *sliceWriter) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

// Encode writes the whole pickle of v: the protocol header, v and STOP.
func (e *Encoder) Encode(v any) error {
	if e.style != CPython {
		e.CountRefs(v)
	}
	e.Start()
	e.Value(v)
	return e.Finish()
}

// CountRefs records how often each dict and list is referenced from v, for
// the TorchCpp and Marks styles, which memoize only containers referenced
// more than once.
// Encode calls it; streaming writers call it for the shared subtrees they
// will write.
func (e *Encoder) CountRefs(v any) {
	if e.refs == nil {
		e.refs = make(map[any]int)
	}
	e.countRefs(v, 0)
}

func (e *Encoder) countRefs(v any, depth int) {
	if depth > maxDepth {
		return
	}
	switch x := v.(type) {
	case *Dict:
		e.refs[x]++
		if e.refs[x] > 1 {
			return
		}
		for _, it := range x.Items {
			e.countRefs(it.Key, depth+1)
			e.countRefs(it.Value, depth+1)
		}
	case *List:
		e.refs[x]++
		if e.refs[x] > 1 {
			return
		}
		for _, it := range x.Items {
			e.countRefs(it, depth+1)
		}
	case Tuple:
		for _, it := range x {
			e.countRefs(it, depth+1)
		}
	case *TupleObj:
		for _, it := range x.Items {
			e.countRefs(it, depth+1)
		}
	}
}

// Start writes the protocol header. It must be called once, first.
func (e *Encoder) Start() {
	if e.err != nil {
		return
	}
	if e.started {
		e.fail(errors.New("pickle: Start called twice"))
		return
	}
	e.started = true
	e.buf = append(e.buf, pickleop.Proto, byte(e.proto))
	// CPython enables framing after writing PROTO, so the header is
	// outside the first frame.
	e.framing = e.proto >= 4
}

// Finish writes STOP, closes the last frame and flushes. It returns the
// first error met while encoding or writing.
func (e *Encoder) Finish() error {
	if e.err != nil {
		return e.err
	}
	if !e.started || e.finished {
		return errors.New("pickle: Finish without Start, or twice")
	}
	if e.depth != 0 {
		return errors.New("pickle: Finish inside an unfinished container")
	}
	e.finished = true
	e.write1(pickleop.Stop)
	e.commitFrame()
	e.flush()
	return e.err
}

// Written returns the number of bytes written to the underlying writer so
// far.
func (e *Encoder) Written() int64 { return e.written }

func (e *Encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// boundary is CPython's _Pickler_OpcodeBoundary, called at the start of
// every save(): a frame that has reached the target size is closed here.
func (e *Encoder) boundary() {
	if e.framing && e.inFrame && len(e.buf) >= frameSizeTarget {
		e.commitFrame()
	}
}

// write appends bytes to the current frame (opening one when framing and
// none is open).
func (e *Encoder) write(p ...byte) { appendOut(e, p) }

func (e *Encoder) write1(b byte) { appendOut(e, []byte{b}) }

func (e *Encoder) writeString(s string) { appendOut(e, s) }

func appendOut[T []byte | string](e *Encoder, p T) {
	if e.framing && !e.inFrame {
		e.flush()
		e.inFrame = true
	}
	e.buf = append(e.buf, p...)
	if !e.framing && len(e.buf) >= frameSizeTarget {
		e.flush()
	}
}

// commitFrame closes the open frame: a FRAME header with its length when
// it holds at least frameSizeMin bytes, none otherwise.
func (e *Encoder) commitFrame() {
	if !e.inFrame {
		return
	}
	e.inFrame = false
	if len(e.buf) >= frameSizeMin {
		var h [9]byte
		h[0] = pickleop.Frame
		binary.LittleEndian.PutUint64(h[1:], uint64(len(e.buf)))
		e.emit(h[:])
	}
	e.emit(e.buf)
	e.buf = e.buf[:0]
}

// flush writes buffered bytes that are not part of an open frame.
func (e *Encoder) flush() {
	if e.inFrame || len(e.buf) == 0 {
		return
	}
	e.emit(e.buf)
	e.buf = e.buf[:0]
}

func (e *Encoder) emit(p []byte) {
	if e.err != nil {
		return
	}
	n, err := e.out.Write(p)
	e.written += int64(n)
	if err != nil {
		e.fail(fmt.Errorf("pickle: write: %w", err))
	}
}

// memoPut records the object just written under the next memo index and
// writes MEMOIZE (protocol 4+) or BINPUT/LONG_BINPUT. key is the object's
// identity (nil for objects nobody refers to again).
func (e *Encoder) memoPut(key any) {
	idx := e.memoLen
	e.memoLen++
	if key != nil {
		e.memo[key] = idx
	}
	e.writePut(idx)
}

func (e *Encoder) writePut(idx uint32) {
	switch {
	case e.proto >= 4 && e.style == CPython:
		e.write1(pickleop.Memoize)
	case idx < 256:
		e.write(pickleop.BinPut, byte(idx))
	default:
		e.write(pickleop.LongBinPut, byte(idx), byte(idx>>8), byte(idx>>16), byte(idx>>24))
	}
}

func (e *Encoder) writeGet(idx uint32) {
	if idx < 256 {
		e.write(pickleop.BinGet, byte(idx))
		return
	}
	e.write(pickleop.LongBinGet, byte(idx), byte(idx>>8), byte(idx>>16), byte(idx>>24))
}

// Forget drops obj (a *Str, *Dict or *List already written) from the
// memo: a streaming writer calls it for objects it will not refer to
// again, so that the memo stays bounded. The memo index stays used, as in
// CPython; saving obj again writes it anew.
func (e *Encoder) Forget(obj any) {
	delete(e.memo, obj)
}

// Value saves v (see the package comment for the accepted types).
func (e *Encoder) Value(v any) {
	if e.err != nil {
		return
	}
	if !e.started {
		e.fail(errors.New("pickle: Value before Start"))
		return
	}
	e.boundary()
	switch x := v.(type) {
	case nil:
		e.write1(pickleop.None)
	case bool:
		if x {
			e.write1(pickleop.NewTrue)
		} else {
			e.write1(pickleop.NewFalse)
		}
	case int:
		e.int64(int64(x))
	case int64:
		e.int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			e.int64(int64(x))
		} else {
			e.uint64(x)
		}
	case *big.Int:
		e.bigInt(x)
	case float64:
		var b [9]byte
		b[0] = pickleop.BinFloat
		binary.BigEndian.PutUint64(b[1:], math.Float64bits(x))
		e.write(b[:]...)
	case string:
		e.str(x, nil)
	case *Str:
		if x == nil {
			e.write1(pickleop.None)
			return
		}
		e.str(x.S, x)
	case *Dict:
		if x == nil {
			e.write1(pickleop.None)
			return
		}
		e.dict(x)
	case *List:
		if x == nil {
			e.write1(pickleop.None)
			return
		}
		e.list(x)
	case Tuple:
		e.tuple(x)
	case *TupleObj:
		if x == nil {
			e.write1(pickleop.None)
			return
		}
		if idx, ok := e.memo[x]; ok {
			e.writeGet(idx)
			return
		}
		e.tuple(Tuple(x.Items))
		if e.style == CPython && len(x.Items) > 0 {
			e.memo[x] = e.memoLen - 1 // the index tuple() just memoized
		}
	case *Bytes:
		if x == nil {
			e.write1(pickleop.None)
			return
		}
		e.bytes(x)
	default:
		e.fail(fmt.Errorf("pickle: cannot save a value of type %T", v))
	}
}

func (e *Encoder) int64(v int64) {
	switch e.ints {
	case IntsLong1:
		e.long1(v)
		return
	case IntsLong4:
		e.long4(uint64(v), v < 0)
		return
	}
	if v >= math.MinInt32 && v <= math.MaxInt32 {
		switch {
		case v >= 0 && v <= 0xff:
			e.write(pickleop.BinInt1, byte(v))
		case v >= 0 && v <= 0xffff:
			e.write(pickleop.BinInt2, byte(v), byte(v>>8))
		default:
			u := uint32(v)
			e.write(pickleop.BinInt, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
		return
	}
	if e.style == TorchCpp {
		var b [10]byte
		b[0], b[1] = pickleop.Long1, 8
		binary.LittleEndian.PutUint64(b[2:], uint64(v))
		e.write(b[:]...)
		return
	}
	e.long1(v)
}

// long1 writes v as LONG1 the way CPython's encode_long does: (bit
// length of |v|) / 8 + 1 bytes of two's complement, one fewer for
// -(2**(8j-1)), and no bytes at all for 0.
func (e *Encoder) long1(v int64) {
	if v == 0 {
		e.write(pickleop.Long1, 0)
		return
	}
	var abs uint64
	if v < 0 {
		abs = uint64(-(v + 1)) + 1
	} else {
		abs = uint64(v)
	}
	n := bits.Len64(abs)/8 + 1
	var b [11]byte
	b[0] = pickleop.Long1
	u := uint64(v)
	for i := 0; i < n; i++ {
		if i < 8 {
			b[2+i] = byte(u >> (8 * i))
		} else if v < 0 {
			b[2+i] = 0xff
		}
	}
	if v < 0 && n > 1 && b[2+n-1] == 0xff && b[2+n-2]&0x80 != 0 {
		n--
	}
	b[1] = byte(n)
	e.write(b[:2+n]...)
}

// long4 writes the 64 bits of u as LONG4 of 16 bytes, sign-extended
// when neg.
func (e *Encoder) long4(u uint64, neg bool) {
	var b [21]byte
	b[0] = pickleop.Long4
	binary.LittleEndian.PutUint32(b[1:], 16)
	binary.LittleEndian.PutUint64(b[5:], u)
	if neg {
		binary.LittleEndian.PutUint64(b[13:], math.MaxUint64)
	}
	e.write(b[:]...)
}

// bigInt writes an int of any size: as int64 or uint64 when it fits, else
// as LONG1 (LONG4 beyond 255 bytes) of the fewest two's complement bytes,
// as CPython's encode_long does.
func (e *Encoder) bigInt(x *big.Int) {
	switch {
	case x.IsInt64():
		e.int64(x.Int64())
		return
	case x.IsUint64():
		e.uint64(x.Uint64())
		return
	}
	n := (x.BitLen() + 8) / 8 // room for the sign bit
	v := new(big.Int).Set(x)
	if x.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	le := v.FillBytes(make([]byte, n))
	slices.Reverse(le)
	// Drop redundant sign bytes.
	for len(le) > 1 && (le[len(le)-1] == 0 && le[len(le)-2]&0x80 == 0 || le[len(le)-1] == 0xff && le[len(le)-2]&0x80 != 0) {
		le = le[:len(le)-1]
	}
	if len(le) <= 0xff {
		e.write(pickleop.Long1, byte(len(le)))
	} else {
		e.write(pickleop.Long4, byte(len(le)), byte(len(le)>>8), byte(len(le)>>16), byte(len(le)>>24))
	}
	e.write(le...)
}

// uint64 writes an int in [2^63, 2^64).
func (e *Encoder) uint64(v uint64) {
	if e.ints == IntsLong4 {
		e.long4(v, false)
		return
	}
	if e.style == TorchCpp {
		e.int64(int64(v))
		return
	}
	var b [11]byte
	b[0], b[1] = pickleop.Long1, 9
	binary.LittleEndian.PutUint64(b[2:], v)
	e.write(b[:11]...)
}

// str saves a str; obj is its identity (nil for a fresh object). The C++
// pickler memoizes strs by value, CPython by identity except for its
// singletons (the empty and one-character Latin-1 strs).
func (e *Encoder) str(s string, obj *Str) {
	byValue := e.style == TorchCpp || isSingletonStr(s)
	var idx uint32
	var ok bool
	if byValue {
		idx, ok = e.strMemo[s]
	} else if obj != nil {
		idx, ok = e.memo[obj]
	}
	if ok {
		e.writeGet(idx)
		return
	}
	e.strHeaderAndData(s)
	idx = e.memoLen
	e.memoLen++
	if byValue {
		e.strMemo[s] = idx
	} else if obj != nil {
		e.memo[obj] = idx
	}
	e.writePut(idx)
}

// bytes saves a bytes object (protocol 3 and later), memoized like a str.
func (e *Encoder) bytes(b *Bytes) {
	if e.proto < 3 {
		e.fail(errors.New("pickle: bytes need protocol 3 or later (protocol 2 pickles them through a class)"))
		return
	}
	if idx, ok := e.memo[b]; ok {
		e.writeGet(idx)
		return
	}
	e.headerAndData(string(b.B), true, [3]byte{pickleop.ShortBinBytes, pickleop.BinBytes, pickleop.BinBytes8})
	e.memoPut(b)
}

// strHeaderAndData writes a str's opcode, length and UTF-8 bytes.
func (e *Encoder) strHeaderAndData(s string) {
	e.headerAndData(s, e.proto >= 4 && e.style == CPython, [3]byte{pickleop.ShortBinUnicode, pickleop.BinUnicode, pickleop.BinUnicode8})
}

// headerAndData writes data with the opcode of ops (1-, 4- and 8-byte
// length) that fits its length, the 1-byte one only when short allows it.
func (e *Encoder) headerAndData(data string, short bool, ops [3]byte) {
	n := len(data)
	var h [9]byte
	var hl int
	switch {
	case n <= 0xff && short:
		h[0], h[1] = ops[0], byte(n)
		hl = 2
	case uint64(n) <= 0xffffffff:
		h[0] = ops[1]
		binary.LittleEndian.PutUint32(h[1:], uint32(n))
		hl = 5
	default:
		h[0] = ops[2]
		binary.LittleEndian.PutUint64(h[1:], uint64(n))
		hl = 9
	}
	if e.framing && n >= frameSizeTarget {
		// CPython's _Pickler_write_bytes: large payloads (str and bytes)
		// bypass framing.
		e.commitFrame()
		e.flush()
		e.emit(h[:hl])
		e.emit([]byte(data))
		return
	}
	e.write(h[:hl]...)
	e.writeString(data)
}

func (e *Encoder) dict(d *Dict) {
	e.container(d, len(d.Items), false, func(i int) {
		e.Value(d.Items[i].Key)
		e.Value(d.Items[i].Value)
	})
}

func (e *Encoder) list(l *List) {
	e.container(l, len(l.Items), true, func(i int) { e.Value(l.Items[i]) })
}

// container saves the dict or list obj of n items, item(i) saving the
// i-th (a key and its value, for a dict). CPython memoizes it as it opens
// it and adds its items in batches; TorchCpp and Marks build it whole and
// memoize it afterwards, only when it is referenced more than once.
func (e *Encoder) container(obj any, n int, list bool, item func(int)) {
	if e.style == CPython {
		if idx, ok := e.memo[obj]; ok {
			e.writeGet(idx)
			return
		}
		e.write1(pick(list, pickleop.EmptyList, pickleop.EmptyDict))
		e.memoPut(obj)
		b := e.openBatch(n, list)
		for i := range n {
			item(i)
			e.Next(&b)
		}
		e.End(&b)
		return
	}
	shared := e.refs[obj] > 1
	if shared {
		if idx, ok := e.memo[obj]; ok {
			e.writeGet(idx)
			return
		}
	}
	e.enter()
	if e.style == Marks {
		e.write1(pickleop.Mark)
	} else {
		e.write(pick(list, pickleop.EmptyList, pickleop.EmptyDict), pickleop.Mark)
	}
	for i := range n {
		item(i)
	}
	switch {
	case e.style == Marks:
		e.write1(pick(list, pickleop.List, pickleop.Dict))
	default:
		e.write1(pick(list, pickleop.Appends, pickleop.SetItems))
	}
	e.leave()
	if shared {
		e.memoPut(obj)
	}
}

// pick returns a when list is true, else b.
func pick(list bool, a, b byte) byte {
	if list {
		return a
	}
	return b
}

func (e *Encoder) tuple(t Tuple) {
	if len(t) == 0 {
		e.write1(pickleop.EmptyTuple)
		return
	}
	e.enter()
	defer e.leave()
	if len(t) <= 3 {
		for _, it := range t {
			e.Value(it)
		}
		e.write1(pickleop.Tuple1 + byte(len(t)-1))
	} else {
		e.write1(pickleop.Mark)
		for _, it := range t {
			e.Value(it)
		}
		e.write1(pickleop.Tuple)
	}
	if e.style == CPython {
		e.memoPut(nil)
	}
}

func (e *Encoder) enter() {
	e.depth++
	if e.depth > maxDepth {
		e.fail(fmt.Errorf("pickle: containers nested deeper than %d levels (a cycle?)", maxDepth))
	}
}

func (e *Encoder) leave() { e.depth-- }

// Batch tracks a dict or list being streamed: BeginDict or BeginList opens
// it, Next follows each item, End closes it.
type Batch struct {
	n, i, inBatch int
	list          bool
}

func (e *Encoder) openBatch(n int, list bool) Batch {
	e.enter()
	if n > 1 || (e.style == TorchCpp) {
		e.write1(pickleop.Mark)
	}
	return Batch{n: n, list: list}
}

// BeginDict starts a new dict (one nobody refers to again) of exactly n
// items: after it, save each key and value with Value (or nested streaming
// calls) and call Next after each pair, then End.
func (e *Encoder) BeginDict(n int) Batch { return e.begin(n, false) }

// BeginList starts a new list (one nobody refers to again) of exactly n
// items; call Next after each item, then End.
func (e *Encoder) BeginList(n int) Batch { return e.begin(n, true) }

// begin opens a streamed dict or list of n items.
func (e *Encoder) begin(n int, list bool) Batch {
	if e.err == nil && e.style == Marks {
		e.fail(errors.New("pickle: the marks style cannot stream containers"))
	}
	if e.err != nil {
		return Batch{n: n, list: list}
	}
	e.boundary()
	e.write1(pick(list, pickleop.EmptyList, pickleop.EmptyDict))
	if e.style == CPython {
		e.memoPut(nil)
	}
	return e.openBatch(n, list)
}

// Next marks the end of one item (a key and its value, for a dict).
func (e *Encoder) Next(b *Batch) {
	if e.err != nil {
		return
	}
	b.i++
	b.inBatch++
	if b.i > b.n {
		e.fail(fmt.Errorf("pickle: container declared %d items, got more", b.n))
		return
	}
	if e.style == TorchCpp || b.n == 1 || b.inBatch < batchSize {
		return
	}
	// CPython's batch_dict_exact closes a full batch and opens the next
	// one even when no items remain (so a dict of exactly 1000 items ends
	// MARK SETITEMS); batch_list_exact opens the next only when items
	// remain.
	if b.list {
		if b.i < b.n {
			e.write(pickleop.Appends, pickleop.Mark)
			b.inBatch = 0
		}
		return
	}
	e.write(pickleop.SetItems, pickleop.Mark)
	b.inBatch = 0
}

// End closes a container opened by BeginDict or BeginList (or internally).
func (e *Encoder) End(b *Batch) {
	if e.err != nil {
		return
	}
	if b.i != b.n {
		e.fail(fmt.Errorf("pickle: container declared %d items, got %d", b.n, b.i))
		return
	}
	defer e.leave()
	switch {
	case e.style != TorchCpp && b.n == 0:
	case e.style != TorchCpp && b.n == 1:
		e.write1(pick(b.list, pickleop.Append, pickleop.SetItem))
	default:
		e.write1(pick(b.list, pickleop.Appends, pickleop.SetItems))
	}
}
