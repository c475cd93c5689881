package pickle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"gpureport/internal/pickleop"
)

// ErrClass is wrapped by Load's error for a pickle that asks to construct
// a class or call a function (GLOBAL, REDUCE, ...). Snapshots never do.
var ErrClass = errors.New("pickle asks to construct a class or call a function")

// Stats describes the opcode structure of a loaded pickle, for tests that
// check the writer's framing and memo use.
type Stats struct {
	// Protocol is the PROTO argument (0 when absent).
	Protocol int
	// Ops counts each opcode.
	Ops [256]int
	// Frames are the FRAME lengths in bytes, in order.
	Frames []uint64
	// Unframed counts bytes after PROTO that lie outside any frame
	// (excluding FRAME headers).
	Unframed int
	// MemoSize is the number of memo entries created.
	MemoSize int
}

// Load decodes a pickle holding only the value types of this package and
// returns its value tree: every str comes back as a *Str, shared through
// the memo exactly as in the file, ints as int64 (uint64 above 2^63-1).
// It checks the framing (no opcode straddles a frame end) and rejects any
// opcode that would construct an object. It is the writer's test oracle,
// not the project's snapshot decoder.
func Load(data []byte) (any, *Stats, error) {
	l := loader{data: data, st: &Stats{}}
	v, err := l.run()
	if err != nil {
		return nil, nil, err
	}
	return v, l.st, nil
}

type loader struct {
	data    []byte
	pos     int
	st      *Stats
	stack   []any
	marks   []int
	memo    []any
	memoSet []bool
	// sparse holds the memo entries whose index is past what the input
	// could fill densely (sparseMemo).
	sparse   map[uint64]any
	frameEnd int // -1 when not in a frame
}

// maxLoadMemo bounds memo indexes so that hostile input cannot make the
// loader allocate a huge memo.
const maxLoadMemo = 1 << 26

func (l *loader) errf(start int, format string, a ...any) error {
	return fmt.Errorf("pickle: offset %d: %s", start, fmt.Sprintf(format, a...))
}

func (l *loader) need(start, n int) ([]byte, error) {
	if n < 0 || l.pos+n > len(l.data) || l.pos+n < l.pos {
		return nil, l.errf(start, "truncated: need %d bytes, %d left", n, len(l.data)-l.pos)
	}
	b := l.data[l.pos : l.pos+n]
	l.pos += n
	return b, nil
}

func (l *loader) pop(start int) (any, error) {
	if len(l.stack) == 0 || (len(l.marks) > 0 && len(l.stack) <= l.marks[len(l.marks)-1]) {
		return nil, l.errf(start, "stack underflow")
	}
	v := l.stack[len(l.stack)-1]
	l.stack = l.stack[:len(l.stack)-1]
	return v, nil
}

func (l *loader) popMark(start int) ([]any, error) {
	if len(l.marks) == 0 {
		return nil, l.errf(start, "no MARK on the stack")
	}
	m := l.marks[len(l.marks)-1]
	l.marks = l.marks[:len(l.marks)-1]
	items := append([]any(nil), l.stack[m:]...)
	l.stack = l.stack[:m]
	return items, nil
}

func (l *loader) top(start int) (any, error) {
	if len(l.stack) == 0 || (len(l.marks) > 0 && len(l.stack) <= l.marks[len(l.marks)-1]) {
		return nil, l.errf(start, "stack underflow")
	}
	return l.stack[len(l.stack)-1], nil
}

func (l *loader) put(start int, idx uint64) error {
	if idx >= maxLoadMemo {
		return l.errf(start, "memo index %d too large", idx)
	}
	v, err := l.top(start)
	if err != nil {
		return err
	}
	if l.sparseMemo(idx) {
		if l.sparse == nil {
			l.sparse = map[uint64]any{}
		}
		l.sparse[idx] = v
	} else {
		if n := int(idx) + 1; n > len(l.memo) {
			l.memo = slices.Grow(l.memo, n-len(l.memo))[:n]
			l.memoSet = slices.Grow(l.memoSet, n-len(l.memoSet))[:n]
		}
		l.memo[idx] = v
		l.memoSet[idx] = true
	}
	if int(idx)+1 > l.st.MemoSize {
		l.st.MemoSize = int(idx) + 1
	}
	return nil
}

func (l *loader) get(start int, idx uint64) error {
	if l.sparseMemo(idx) {
		v, ok := l.sparse[idx]
		if !ok {
			return l.errf(start, "memo index %d not defined", idx)
		}
		l.stack = append(l.stack, v)
		return nil
	}
	if idx >= uint64(len(l.memo)) || !l.memoSet[idx] {
		return l.errf(start, "memo index %d not defined", idx)
	}
	l.stack = append(l.stack, l.memo[idx])
	return nil
}

// sparseMemo reports whether memo index idx is kept in the map rather
// than the array: an index past the input's length, since each entry the
// input makes costs it at least one byte, so a dense memo never reaches
// there, and a hostile BINPUT of a huge index would otherwise allocate
// an array that size (a 911-byte input made 64M entries, 3 GB).
func (l *loader) sparseMemo(idx uint64) bool {
	return idx > uint64(len(l.data))
}

func (l *loader) run() (any, error) {
	l.frameEnd = -1
	for {
		if l.frameEnd >= 0 && l.pos == l.frameEnd {
			l.frameEnd = -1
		}
		start := l.pos
		if l.pos >= len(l.data) {
			return nil, l.errf(start, "truncated: no STOP")
		}
		op := l.data[l.pos]
		l.pos++
		l.st.Ops[op]++
		inFrame := l.frameEnd >= 0
		if err := l.step(start, op); err != nil {
			if err == errStop {
				if l.frameEnd >= 0 && l.pos != l.frameEnd {
					return nil, l.errf(start, "STOP before the end of the frame")
				}
				if l.pos != len(l.data) {
					return nil, l.errf(l.pos, "%d trailing bytes after STOP", len(l.data)-l.pos)
				}
				if len(l.stack) != 1 || len(l.marks) != 0 {
					return nil, l.errf(start, "STOP with %d values and %d marks on the stack", len(l.stack), len(l.marks))
				}
				if op == pickleop.Stop && !inFrame && l.st.Protocol >= 4 {
					l.st.Unframed++
				}
				return l.stack[0], nil
			}
			return nil, err
		}
		if l.frameEnd >= 0 && l.pos > l.frameEnd {
			return nil, l.errf(start, "opcode 0x%02x crosses the end of its frame at %d", op, l.frameEnd)
		}
		if !inFrame && op != pickleop.Frame && op != pickleop.Proto {
			l.st.Unframed += l.pos - start
		}
	}
}

var errStop = errors.New("stop")

func (l *loader) step(start int, op byte) error {
	switch op {
	case pickleop.Proto:
		b, err := l.need(start, 1)
		if err != nil {
			return err
		}
		if b[0] < 2 || b[0] > 5 {
			return l.errf(start, "protocol %d not supported", b[0])
		}
		l.st.Protocol = int(b[0])
	case pickleop.Frame:
		b, err := l.need(start, 8)
		if err != nil {
			return err
		}
		if l.frameEnd >= 0 {
			return l.errf(start, "FRAME inside a frame that ends at %d", l.frameEnd)
		}
		n := binary.LittleEndian.Uint64(b)
		if n > uint64(len(l.data)-l.pos) {
			return l.errf(start, "FRAME of %d bytes, only %d left", n, len(l.data)-l.pos)
		}
		l.st.Frames = append(l.st.Frames, n)
		l.frameEnd = l.pos + int(n)
	case pickleop.Stop:
		return errStop
	case pickleop.Mark:
		l.marks = append(l.marks, len(l.stack))
	case pickleop.None:
		l.stack = append(l.stack, nil)
	case pickleop.NewTrue:
		l.stack = append(l.stack, true)
	case pickleop.NewFalse:
		l.stack = append(l.stack, false)
	case pickleop.BinInt1:
		b, err := l.need(start, 1)
		if err != nil {
			return err
		}
		l.stack = append(l.stack, int64(b[0]))
	case pickleop.BinInt2:
		b, err := l.need(start, 2)
		if err != nil {
			return err
		}
		l.stack = append(l.stack, int64(binary.LittleEndian.Uint16(b)))
	case pickleop.BinInt:
		b, err := l.need(start, 4)
		if err != nil {
			return err
		}
		l.stack = append(l.stack, int64(int32(binary.LittleEndian.Uint32(b))))
	case pickleop.Long1, pickleop.Long4:
		size := 1
		if op == pickleop.Long4 {
			size = 4
		}
		n, err := l.uarg(start, size)
		if err != nil {
			return err
		}
		if n > 1<<16 {
			return l.errf(start, "LONG4 of %d bytes", n)
		}
		d, err := l.need(start, int(n))
		if err != nil {
			return err
		}
		v, err := longValue(d)
		if err != nil {
			return l.errf(start, "%v", err)
		}
		l.stack = append(l.stack, v)
	case pickleop.ShortBinBytes, pickleop.BinBytes, pickleop.BinBytes8:
		d, err := l.sized(start, op == pickleop.ShortBinBytes, op == pickleop.BinBytes, "bytes")
		if err != nil {
			return err
		}
		l.stack = append(l.stack, &Bytes{B: append([]byte(nil), d...)})
	case pickleop.BinFloat:
		b, err := l.need(start, 8)
		if err != nil {
			return err
		}
		l.stack = append(l.stack, math.Float64frombits(binary.BigEndian.Uint64(b)))
	case pickleop.ShortBinUnicode, pickleop.BinUnicode, pickleop.BinUnicode8:
		d, err := l.sized(start, op == pickleop.ShortBinUnicode, op == pickleop.BinUnicode, "string")
		if err != nil {
			return err
		}
		if !utf8.Valid(d) {
			return l.errf(start, "string is not valid UTF-8")
		}
		l.stack = append(l.stack, &Str{S: string(d)})
	case pickleop.EmptyDict:
		l.stack = append(l.stack, &Dict{})
	case pickleop.EmptyList:
		l.stack = append(l.stack, &List{})
	case pickleop.EmptyTuple:
		l.stack = append(l.stack, Tuple{})
	case pickleop.Tuple1, pickleop.Tuple2, pickleop.Tuple3, pickleop.Tuple:
		items, err := l.items(start, op == pickleop.Tuple, int(op-pickleop.Tuple1)+1)
		if err != nil {
			return err
		}
		l.stack = append(l.stack, Tuple(items))
	case pickleop.SetItem, pickleop.SetItems, pickleop.Dict:
		kv, err := l.items(start, op != pickleop.SetItem, 2)
		if err != nil {
			return err
		}
		if len(kv)%2 != 0 {
			return l.errf(start, "SETITEMS or DICT with an odd number of values")
		}
		if op == pickleop.Dict {
			l.stack = append(l.stack, &Dict{})
		}
		d, err := topAs[*Dict](l, start, "SETITEM(S)")
		if err != nil {
			return err
		}
		for i := 0; i < len(kv); i += 2 {
			switch kv[i].(type) {
			case *Dict, *List:
				return l.errf(start, "unhashable dict key %T", kv[i])
			}
			d.Items = append(d.Items, Item{kv[i], kv[i+1]})
		}
	case pickleop.Append, pickleop.Appends, pickleop.List:
		items, err := l.items(start, op != pickleop.Append, 1)
		if err != nil {
			return err
		}
		if op == pickleop.List {
			l.stack = append(l.stack, &List{})
		}
		ls, err := topAs[*List](l, start, "APPEND(S)")
		if err != nil {
			return err
		}
		ls.Items = append(ls.Items, items...)
	case pickleop.Memoize:
		return l.put(start, uint64(len(l.memo)))
	case pickleop.BinPut, pickleop.LongBinPut, pickleop.BinGet, pickleop.LongBinGet:
		size := 4
		if op == pickleop.BinPut || op == pickleop.BinGet {
			size = 1
		}
		i, err := l.uarg(start, size)
		if err != nil {
			return err
		}
		if op == pickleop.BinPut || op == pickleop.LongBinPut {
			return l.put(start, i)
		}
		return l.get(start, i)
	case pickleop.Pop:
		_, err := l.pop(start)
		return err
	case pickleop.PopMark:
		_, err := l.popMark(start)
		return err
	default:
		if pickleop.IsClass(op) {
			return fmt.Errorf("pickle: offset %d: opcode 0x%02x: %w", start, op, ErrClass)
		}
		return l.errf(start, "unsupported opcode 0x%02x", op)
	}
	return nil
}

// items pops an opcode's operands: the values above the last MARK when
// marked, else the top n values.
func (l *loader) items(start int, marked bool, n int) ([]any, error) {
	if marked {
		return l.popMark(start)
	}
	out := make([]any, n)
	for i := n - 1; i >= 0; i-- {
		v, err := l.pop(start)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// topAs returns the top of the stack as a T; what names the opcode for
// the error when it is something else.
func topAs[T any](l *loader, start int, what string) (T, error) {
	var c T
	t, err := l.top(start)
	if err != nil {
		return c, err
	}
	c, ok := t.(T)
	if !ok {
		return c, l.errf(start, "%s on a %T", what, t)
	}
	return c, nil
}

// longValue decodes a LONG1 payload (little-endian two's complement).
func longValue(d []byte) (any, error) {
	if len(d) == 0 {
		return int64(0), nil
	}
	neg := d[len(d)-1]&0x80 != 0
	// Strip sign-extension bytes beyond 8.
	for len(d) > 8 {
		last := d[len(d)-1]
		if (!neg && last == 0) || (neg && last == 0xff) {
			d = d[:len(d)-1]
			continue
		}
		break
	}
	if len(d) > 8 || (neg && len(d) == 8 && d[7]&0x80 == 0) {
		return nil, errors.New("int wider than 64 bits")
	}
	var u uint64
	for i := len(d) - 1; i >= 0; i-- {
		u = u<<8 | uint64(d[i])
	}
	if neg {
		// Sign-extend.
		if len(d) < 8 {
			u |= ^uint64(0) << (8 * len(d))
		}
		return int64(u), nil
	}
	if len(d) == 8 && u > math.MaxInt64 {
		// A 9-byte positive payload stripped to 8 bytes.
		return u, nil
	}
	return int64(u), nil
}

// sized reads a length-prefixed payload: a 1-byte length when short, a
// 4-byte one when mid, else an 8-byte one (the SHORT_/BIN/BIN8 forms of
// BYTES and UNICODE), then that many bytes. what names the payload in the
// error when the length runs past the data.
// uarg reads an opcode's little-endian unsigned argument of size bytes
// (1, 4 or 8).
func (l *loader) uarg(start, size int) (uint64, error) {
	b, err := l.need(start, size)
	if err != nil {
		return 0, err
	}
	switch size {
	case 1:
		return uint64(b[0]), nil
	case 4:
		return uint64(binary.LittleEndian.Uint32(b)), nil
	}
	return binary.LittleEndian.Uint64(b), nil
}

func (l *loader) sized(start int, short, mid bool, what string) ([]byte, error) {
	size := 8
	switch {
	case short:
		size = 1
	case mid:
		size = 4
	}
	n, err := l.uarg(start, size)
	if err != nil {
		return nil, err
	}
	if n > uint64(len(l.data)-l.pos) {
		return nil, l.errf(start, "%s of %d bytes, only %d left", what, n, len(l.data)-l.pos)
	}
	d, _ := l.need(start, int(n))
	return d, nil
}
