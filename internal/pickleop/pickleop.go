// Package pickleop names the opcodes of Python's pickle protocols 0 to 5,
// as CPython's Lib/pickletools.py does, for gpureport's two pickle
// programs: the snapshot decoder (package snapshot) and the test-data
// writer and reader (internal/gen/pickle). It holds their names, and Walk,
// which steps over a pickle's opcodes without executing any: the floor the
// decoder benchmarks measure the decoder against. What each program
// accepts or writes is its own business.
package pickleop

import "fmt"

// The opcodes, by their pickletools names.
const (
	Mark           = '('
	Stop           = '.'
	Pop            = '0'
	PopMark        = '1'
	Dup            = '2'
	Float          = 'F'
	Int            = 'I'
	BinInt         = 'J'
	BinInt1        = 'K'
	Long           = 'L'
	BinInt2        = 'M'
	None           = 'N'
	PersID         = 'P'
	BinPersID      = 'Q'
	Reduce         = 'R'
	String         = 'S'
	BinString      = 'T'
	ShortBinString = 'U'
	Unicode        = 'V'
	BinUnicode     = 'X'
	Append         = 'a'
	Build          = 'b'
	Global         = 'c'
	Dict           = 'd'
	EmptyDict      = '}'
	Appends        = 'e'
	Get            = 'g'
	BinGet         = 'h'
	Inst           = 'i'
	LongBinGet     = 'j'
	List           = 'l'
	EmptyList      = ']'
	Obj            = 'o'
	Put            = 'p'
	BinPut         = 'q'
	LongBinPut     = 'r'
	SetItem        = 's'
	Tuple          = 't'
	EmptyTuple     = ')'
	SetItems       = 'u'
	BinFloat       = 'G'

	Proto    = 0x80
	NewObj   = 0x81
	Ext1     = 0x82
	Ext2     = 0x83
	Ext4     = 0x84
	Tuple1   = 0x85
	Tuple2   = 0x86
	Tuple3   = 0x87
	NewTrue  = 0x88
	NewFalse = 0x89
	Long1    = 0x8a
	Long4    = 0x8b

	BinBytes      = 'B'
	ShortBinBytes = 'C'

	ShortBinUnicode = 0x8c
	BinUnicode8     = 0x8d
	BinBytes8       = 0x8e
	EmptySet        = 0x8f
	AddItems        = 0x90
	FrozenSet       = 0x91
	NewObjEx        = 0x92
	StackGlobal     = 0x93
	Memoize         = 0x94
	Frame           = 0x95

	ByteArray8     = 0x96
	NextBuffer     = 0x97
	ReadOnlyBuffer = 0x98
)

// names names every opcode pickletools knows, for error messages.
var names = map[byte]string{
	Mark: "MARK", Stop: "STOP", Pop: "POP", PopMark: "POP_MARK", Dup: "DUP",
	Float: "FLOAT", Int: "INT", BinInt: "BININT", BinInt1: "BININT1", Long: "LONG",
	BinInt2: "BININT2", None: "NONE", PersID: "PERSID", BinPersID: "BINPERSID",
	Reduce: "REDUCE", String: "STRING", BinString: "BINSTRING",
	ShortBinString: "SHORT_BINSTRING", Unicode: "UNICODE", BinUnicode: "BINUNICODE",
	Append: "APPEND", Build: "BUILD", Global: "GLOBAL", Dict: "DICT",
	EmptyDict: "EMPTY_DICT", Appends: "APPENDS", Get: "GET", BinGet: "BINGET",
	Inst: "INST", LongBinGet: "LONG_BINGET", List: "LIST", EmptyList: "EMPTY_LIST",
	Obj: "OBJ", Put: "PUT", BinPut: "BINPUT", LongBinPut: "LONG_BINPUT",
	SetItem: "SETITEM", Tuple: "TUPLE", EmptyTuple: "EMPTY_TUPLE", SetItems: "SETITEMS",
	BinFloat: "BINFLOAT", Proto: "PROTO", NewObj: "NEWOBJ", Ext1: "EXT1",
	Ext2: "EXT2", Ext4: "EXT4", Tuple1: "TUPLE1", Tuple2: "TUPLE2", Tuple3: "TUPLE3",
	NewTrue: "NEWTRUE", NewFalse: "NEWFALSE", Long1: "LONG1", Long4: "LONG4",
	BinBytes: "BINBYTES", ShortBinBytes: "SHORT_BINBYTES",
	ShortBinUnicode: "SHORT_BINUNICODE", BinUnicode8: "BINUNICODE8",
	BinBytes8: "BINBYTES8", EmptySet: "EMPTY_SET", AddItems: "ADDITEMS",
	FrozenSet: "FROZENSET", NewObjEx: "NEWOBJ_EX", StackGlobal: "STACK_GLOBAL",
	Memoize: "MEMOIZE", Frame: "FRAME", ByteArray8: "BYTEARRAY8",
	NextBuffer: "NEXT_BUFFER", ReadOnlyBuffer: "READONLY_BUFFER",
}

// Lookup returns the opcode's pickletools name ("BINGET"), and false for a
// byte that no protocol defines.
func Lookup(op byte) (string, bool) {
	n, ok := names[op]
	return n, ok
}

// Name returns the opcode's pickletools name and byte, e.g. "GLOBAL (0x63)".
func Name(op byte) string {
	if n, ok := names[op]; ok {
		return fmt.Sprintf("%s (0x%02x)", n, op)
	}
	return fmt.Sprintf("0x%02x", op)
}

// IsClass reports whether op constructs a class, call functions or resolve references
// outside the pickle (a snapshot never uses such opcodes).
func IsClass(op byte) bool {
	switch op {
	case Global, StackGlobal, Reduce, Build, Inst, Obj, NewObj, NewObjEx,
		PersID, BinPersID, Ext1, Ext2, Ext4:
		return true
	}
	return false
}
