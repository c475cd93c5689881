package pickleop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Walk steps over the opcodes of the pickle at the start of b, up to and
// including its STOP, without executing any, and returns how many it
// stepped over and the offset just past the STOP. It is the floor of a decoder's work: a decoder that reads
// every opcode does at least this, so the time Walk takes bounds what any
// such decoder can gain (internal/benchdecode prints CPython's time over
// it). Like the snapshot decoder it steps over a run of one-byte memo
// gets (BINGET) four at a time, the bulk of a snapshot. An opcode no
// protocol defines, an argument past the end of b, a negative length and
// a pickle without STOP are errors, with the offset of the opcode.
func Walk(b []byte) (ops, end int, err error) {
	for p := 0; ; {
		for p+8 <= len(b) && FourGets(binary.LittleEndian.Uint64(b[p:p+8])) {
			p += 8
			ops += 4
		}
		if p >= len(b) {
			return ops, p, fmt.Errorf("offset %d: the pickle ends without STOP", p)
		}
		op := b[p]
		// The bulk of a snapshot's opcodes first, with constant lengths;
		// the rest from the table.
		var n int
		switch op {
		case BinGet, BinInt1:
			n = 1
		case LongBinGet, BinInt:
			n = 4
		case Memoize, Mark, EmptyDict, EmptyList, SetItems, Appends:
			n = 0
		case Long1, ShortBinUnicode:
			n = -1
			if p+1 < len(b) {
				n = 1 + int(b[p+1])
			}
		default:
			n = fixedLen[op]
		}
		if n < 0 || p+1+n > len(b) {
			var err error
			if n, err = argLen(b[p+1:], op); err != nil {
				return ops, p, fmt.Errorf("offset %d: %s: %w", p, Name(op), err)
			}
		}
		ops++
		if op == Stop {
			return ops, p + 1, nil
		}
		p += 1 + n
	}
}

// FourGets reports whether w, eight bytes of a pickle read as a
// little-endian word, is four one-byte memo gets (BINGET) in a row: the
// opcode in each even byte. A run of such gets, most of a snapshot's
// frames lists, is stepped over or gathered four at a time.
func FourGets(w uint64) bool {
	const (
		evenBytes = 0x00FF00FF00FF00FF
		fourGets  = uint64(BinGet) * 0x0001000100010001
	)
	return w&evenBytes == fourGets
}

// errShort is an argument that runs past the end of the input.
var errShort = errors.New("argument past the end of the input")

// fixedLen is the length of the argument of each opcode whose argument
// has a fixed length (0 for none), -1 for the others.
var fixedLen = func() [256]int {
	var t [256]int
	for i := range t {
		t[i] = -1
	}
	for _, op := range []byte{Mark, Stop, Pop, PopMark, Dup, None, BinPersID, Reduce, Append,
		Build, Dict, EmptyDict, Appends, List, EmptyList, Obj, SetItem, Tuple, EmptyTuple,
		SetItems, NewObj, Tuple1, Tuple2, Tuple3, NewTrue, NewFalse, EmptySet, AddItems,
		FrozenSet, NewObjEx, StackGlobal, Memoize, NextBuffer, ReadOnlyBuffer} {
		t[op] = 0
	}
	for _, op := range []byte{BinInt1, BinGet, BinPut, Proto, Ext1} {
		t[op] = 1
	}
	for _, op := range []byte{BinInt2, Ext2} {
		t[op] = 2
	}
	for _, op := range []byte{BinInt, LongBinGet, LongBinPut, Ext4} {
		t[op] = 4
	}
	for _, op := range []byte{BinFloat, Frame} {
		t[op] = 8
	}
	return t
}()

// argLen returns the length of the argument of opcode op that starts at
// a[0], its length prefix or line end included.
func argLen(a []byte, op byte) (int, error) {
	n := fixedLen[op]
	switch {
	case n >= 0:
	case op == ShortBinString || op == ShortBinBytes || op == ShortBinUnicode || op == Long1:
		if len(a) < 1 {
			return 0, errShort
		}
		n = 1 + int(a[0])
	case op == BinString || op == BinUnicode || op == BinBytes || op == Long4:
		if len(a) < 4 {
			return 0, errShort
		}
		l := binary.LittleEndian.Uint32(a)
		if (op == BinString || op == Long4) && int32(l) < 0 {
			return 0, fmt.Errorf("negative length %d", int32(l))
		}
		if uint64(l) > uint64(len(a)-4) {
			return 0, errShort
		}
		n = 4 + int(l)
	case op == BinUnicode8 || op == BinBytes8 || op == ByteArray8:
		if len(a) < 8 {
			return 0, errShort
		}
		l := binary.LittleEndian.Uint64(a)
		if l > uint64(len(a)-8) {
			return 0, errShort
		}
		n = 8 + int(l)
	case op == Int || op == Long || op == Float || op == String || op == Unicode ||
		op == Get || op == Put || op == PersID:
		return lineLen(a, 1)
	case op == Global || op == Inst:
		return lineLen(a, 2)
	default:
		return 0, fmt.Errorf("no protocol defines this opcode")
	}
	if n > len(a) {
		return 0, errShort
	}
	return n, nil
}

// lineLen returns the length of the first lines lines of a, their
// newlines included.
func lineLen(a []byte, lines int) (int, error) {
	n := 0
	for range lines {
		i := bytes.IndexByte(a[n:], '\n')
		if i < 0 {
			return 0, errShort
		}
		n += i + 1
	}
	return n, nil
}
