package snapshot

import (
	"errors"
	"fmt"
)

// Pickle opcodes (see CPython's Lib/pickletools.py). The fast decoder
// accepts the data opcodes of protocols 2 to 5 that build dicts, lists,
// tuples, strings, bytes and numbers; everything that constructs a class,
// calls a function or resolves an external reference is refused.
const (
	opMark           = '('
	opStop           = '.'
	opPop            = '0'
	opPopMark        = '1'
	opDup            = '2'
	opFloat          = 'F'
	opInt            = 'I'
	opBinInt         = 'J'
	opBinInt1        = 'K'
	opLong           = 'L'
	opBinInt2        = 'M'
	opNone           = 'N'
	opPersID         = 'P'
	opBinPersID      = 'Q'
	opReduce         = 'R'
	opString         = 'S'
	opBinString      = 'T'
	opShortBinString = 'U'
	opUnicode        = 'V'
	opBinUnicode     = 'X'
	opAppend         = 'a'
	opBuild          = 'b'
	opGlobal         = 'c'
	opDict           = 'd'
	opEmptyDict      = '}'
	opAppends        = 'e'
	opGet            = 'g'
	opBinGet         = 'h'
	opInst           = 'i'
	opLongBinGet     = 'j'
	opList           = 'l'
	opEmptyList      = ']'
	opObj            = 'o'
	opPut            = 'p'
	opBinPut         = 'q'
	opLongBinPut     = 'r'
	opSetItem        = 's'
	opTuple          = 't'
	opEmptyTuple     = ')'
	opSetItems       = 'u'
	opBinFloat       = 'G'

	opProto    = 0x80
	opNewObj   = 0x81
	opExt1     = 0x82
	opExt2     = 0x83
	opExt4     = 0x84
	opTuple1   = 0x85
	opTuple2   = 0x86
	opTuple3   = 0x87
	opNewTrue  = 0x88
	opNewFalse = 0x89
	opLong1    = 0x8a
	opLong4    = 0x8b

	opBinBytes      = 'B'
	opShortBinBytes = 'C'

	opShortBinUnicode = 0x8c
	opBinUnicode8     = 0x8d
	opBinBytes8       = 0x8e
	opEmptySet        = 0x8f
	opAddItems        = 0x90
	opFrozenSet       = 0x91
	opNewObjEx        = 0x92
	opStackGlobal     = 0x93
	opMemoize         = 0x94
	opFrame           = 0x95

	opByteArray8     = 0x96
	opNextBuffer     = 0x97
	opReadOnlyBuffer = 0x98
)

// opNames names every opcode pickletools knows, for error messages.
var opNames = map[byte]string{
	opMark: "MARK", opStop: "STOP", opPop: "POP", opPopMark: "POP_MARK", opDup: "DUP",
	opFloat: "FLOAT", opInt: "INT", opBinInt: "BININT", opBinInt1: "BININT1", opLong: "LONG",
	opBinInt2: "BININT2", opNone: "NONE", opPersID: "PERSID", opBinPersID: "BINPERSID",
	opReduce: "REDUCE", opString: "STRING", opBinString: "BINSTRING",
	opShortBinString: "SHORT_BINSTRING", opUnicode: "UNICODE", opBinUnicode: "BINUNICODE",
	opAppend: "APPEND", opBuild: "BUILD", opGlobal: "GLOBAL", opDict: "DICT",
	opEmptyDict: "EMPTY_DICT", opAppends: "APPENDS", opGet: "GET", opBinGet: "BINGET",
	opInst: "INST", opLongBinGet: "LONG_BINGET", opList: "LIST", opEmptyList: "EMPTY_LIST",
	opObj: "OBJ", opPut: "PUT", opBinPut: "BINPUT", opLongBinPut: "LONG_BINPUT",
	opSetItem: "SETITEM", opTuple: "TUPLE", opEmptyTuple: "EMPTY_TUPLE", opSetItems: "SETITEMS",
	opBinFloat: "BINFLOAT", opProto: "PROTO", opNewObj: "NEWOBJ", opExt1: "EXT1",
	opExt2: "EXT2", opExt4: "EXT4", opTuple1: "TUPLE1", opTuple2: "TUPLE2", opTuple3: "TUPLE3",
	opNewTrue: "NEWTRUE", opNewFalse: "NEWFALSE", opLong1: "LONG1", opLong4: "LONG4",
	opBinBytes: "BINBYTES", opShortBinBytes: "SHORT_BINBYTES",
	opShortBinUnicode: "SHORT_BINUNICODE", opBinUnicode8: "BINUNICODE8",
	opBinBytes8: "BINBYTES8", opEmptySet: "EMPTY_SET", opAddItems: "ADDITEMS",
	opFrozenSet: "FROZENSET", opNewObjEx: "NEWOBJ_EX", opStackGlobal: "STACK_GLOBAL",
	opMemoize: "MEMOIZE", opFrame: "FRAME", opByteArray8: "BYTEARRAY8",
	opNextBuffer: "NEXT_BUFFER", opReadOnlyBuffer: "READONLY_BUFFER",
}

// opName returns the opcode's pickletools name and byte, e.g. "GLOBAL (0x63)".
func opName(op byte) string {
	if n, ok := opNames[op]; ok {
		return fmt.Sprintf("%s (0x%02x)", n, op)
	}
	return fmt.Sprintf("0x%02x", op)
}

// classOpcodes construct classes, call functions or resolve references
// outside the pickle. A snapshot never uses them.
func isClassOpcode(op byte) bool {
	switch op {
	case opGlobal, opStackGlobal, opReduce, opBuild, opInst, opObj, opNewObj, opNewObjEx,
		opPersID, opBinPersID, opExt1, opExt2, opExt4:
		return true
	}
	return false
}

// Kinds of pickle errors, for errors.Is. Every error the decoder returns for
// bad input is a *PickleError wrapping one of them.
var (
	// ErrTruncated: the data ends in the middle of the pickle.
	ErrTruncated = errors.New("unexpected end of data (truncated file?)")
	// ErrForbiddenOpcode: the pickle asks to construct a class, call a
	// function or load an external reference.
	ErrForbiddenOpcode = errors.New("opcode is not allowed")
	// ErrUnsupportedOpcode: an opcode a snapshot pickle never uses (text
	// protocol 0 opcodes, sets, out-of-band buffers) or no opcode at all.
	ErrUnsupportedOpcode = errors.New("opcode is not supported")
	// ErrMemo: a memo reference to a slot never set.
	ErrMemo = errors.New("memo reference to a slot never set")
	// ErrLimit: the input exceeds a safety bound (nesting depth, string
	// length, stack or memo size, decoder memory).
	ErrLimit = errors.New("safety limit exceeded")
	// ErrMalformed: any other violation of the pickle format (stack
	// underflow, wrong operand types, frame overrun, ...).
	ErrMalformed = errors.New("malformed pickle")
)

// PickleError is a problem at one place of a pickle stream.
type PickleError struct {
	// Offset is the byte offset of the opcode in the pickle stream (the
	// decompressed stream for gzip and zip containers).
	Offset int64
	// Op is the opcode at Offset.
	Op byte
	// Kind is one of the Err* kinds above.
	Kind error
	// Msg says what is wrong.
	Msg string
}

func (e *PickleError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Unwrap returns the error's kind.
func (e *PickleError) Unwrap() error { return e.Kind }
