package snapshot

import (
	"fmt"
	"math/big"

	"gpureport/internal/gen/pickle"
)

// Tests write their generic value trees (pyvalue.go types) with the
// generator's pickle writer, in the dialect of one pickler, so that they
// control every byte of their input. Lists and dicts are shared by
// pointer, as objects are by identity, and equal strings are one str
// object, so a repeated key is a memo reference.

type pickleStyle int

const (
	stylePy4   pickleStyle = iota // CPython protocol 4: FRAME, MEMOIZE, batches of 1000
	stylePy5                      // CPython protocol 5 (3.14's default): same opcodes as 4
	stylePy2                      // CPython protocol 2: BINPUT memo, no frames
	styleCpp                      // PyTorch's C++ pickler: protocol 2, memo after build
	styleMarks                    // protocol 2 with containers built after their items (MARK ... LIST/DICT)
)

var pickleOptions = [...]pickle.Options{
	stylePy4:   {Protocol: 4},
	stylePy5:   {Protocol: 5},
	stylePy2:   {Protocol: 2},
	styleCpp:   {Protocol: 2, Style: pickle.TorchCpp},
	styleMarks: {Protocol: 2, Style: pickle.Marks},
}

func (s pickleStyle) String() string {
	return [...]string{"py4", "py5", "py2", "cpp", "marks"}[s]
}

// writePickle pickles the generic tree v in the given style.
func writePickle(v any, style pickleStyle) []byte {
	b, err := pickle.Marshal(toPickle(v, map[any]any{}), pickleOptions[style])
	if err != nil {
		panic(fmt.Sprintf("writePickle: %v", err))
	}
	return b
}

// toPickle converts a generic tree to the writer's values; seen maps each
// list, dict and string already converted to its value, keeping identity.
func toPickle(v any, seen map[any]any) any {
	switch v.(type) {
	case string, *pyList, *pyDict: // hashable, and shared by identity
		if c, ok := seen[v]; ok {
			return c
		}
	}
	switch x := v.(type) {
	case nil, bool, int, int64, uint64, float64, *big.Int:
		return v
	case string:
		s := pickle.NewStr(x)
		seen[x] = s
		return s
	case []byte:
		return &pickle.Bytes{B: x}
	case pyTuple:
		t := make(pickle.Tuple, len(x))
		for i, e := range x {
			t[i] = toPickle(e, seen)
		}
		return t
	case *pyList:
		l := pickle.NewList()
		seen[x] = l
		for _, e := range x.items {
			l.Append(toPickle(e, seen))
		}
		return l
	case *pyDict:
		d := pickle.NewDict(len(x.keys))
		seen[x] = d
		for i := range x.keys {
			d.Set(toPickle(x.keys[i], seen), toPickle(x.vals[i], seen))
		}
		return d
	}
	panic(fmt.Sprintf("writePickle: unsupported %T", v))
}

// Helpers to build generic trees tersely.

func pyD(kv ...any) *pyDict {
	d := &pyDict{}
	for i := 0; i < len(kv); i += 2 {
		d.set(kv[i], kv[i+1])
	}
	return d
}

func pyL(items ...any) *pyList { return &pyList{items: items} }
