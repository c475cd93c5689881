package snapshot

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The generic Python value tree. The reference decoder (gopickle) and the
// fast decoder's fallback both build it, and convertSnapshotAt turns it into a
// Snapshot. Values are:
//
//	nil (None), bool, int64, *big.Int (ints beyond 64 bits), float64,
//	string (str and bytes alike), *pyList, *pyDict, pyTuple.
//
// Lists and dicts are pointers so that memo sharing survives: the converter
// interns a shared frame list once.

// pyList is a Python list. at is one more than the byte offset of the
// opcode that created it, when known (0 otherwise), for error messages.
type pyList struct {
	items []any
	at    int64
}

// pyDict is a Python dict with keys in insertion order. Setting an existing
// key replaces its value, as in Python.
type pyDict struct {
	keys []any
	vals []any
	idx  map[string]int // string key -> position, built past smallDict keys
	at   int64          // like pyList.at
}

// smallDict is the size up to which pyDict looks keys up by a linear scan.
const smallDict = 16

// pyTuple is a Python tuple.
type pyTuple []any

func (d *pyDict) set(k, v any) {
	if ks, ok := k.(string); ok {
		if i := d.find(ks); i >= 0 {
			d.vals[i] = v
			return
		}
		if d.idx != nil {
			d.idx[ks] = len(d.keys)
		}
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	if d.idx == nil && len(d.keys) > smallDict {
		d.idx = make(map[string]int, 2*len(d.keys))
		for i, e := range d.keys {
			if s, ok := e.(string); ok {
				d.idx[s] = i
			}
		}
	}
}

// find returns the position of string key k, or -1.
func (d *pyDict) find(k string) int {
	if d.idx != nil {
		if i, ok := d.idx[k]; ok {
			return i
		}
		return -1
	}
	for i, e := range d.keys {
		if s, ok := e.(string); ok && s == k {
			return i
		}
	}
	return -1
}

// get returns the value of string key k.
func (d *pyDict) get(k string) (any, bool) {
	if i := d.find(k); i >= 0 {
		return d.vals[i], true
	}
	return nil, false
}

// typeName returns the Python type name of v, for error messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case int64, *big.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []byte:
		return "bytes"
	case *pyList:
		return "list"
	case *pyDict:
		return "dict"
	case pyTuple:
		return "tuple"
	}
	return fmt.Sprintf("%T", v)
}

// asInt64 returns v as an int64 (bools count as ints, as in Python).
func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), true
		}
	}
	return 0, false
}

// asFloat returns v as a float64 (ints convert).
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f, !math.IsInf(f, 0)
	}
	return 0, false
}

// Bounds of formatValue's output: hostile settings (a dict holding
// itself, a million keys) must print quickly and briefly.
const (
	maxFormatDepth = 4
	maxFormatLen   = 512
)

// formatValue prints a setting the way Python's repr would, roughly.
// Containers nested deeper than maxFormatDepth print as {...}, [...] or
// (...), and output beyond maxFormatLen bytes is cut with "...".
func formatValue(v any) string {
	var b strings.Builder
	writeValue(&b, v, 0)
	if b.Len() > maxFormatLen {
		return strings.ToValidUTF8(b.String()[:maxFormatLen], "") + "..."
	}
	return b.String()
}

func writeValue(b *strings.Builder, v any, depth int) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(x)
	case float64:
		b.WriteString(fmt.Sprint(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case *big.Int:
		b.WriteString(x.String())
	case *pyDict:
		if depth >= maxFormatDepth {
			b.WriteString("{...}")
			return
		}
		b.WriteByte('{')
		for i := range x.keys {
			if b.Len() > maxFormatLen {
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, x.keys[i], depth+1)
			b.WriteString(": ")
			writeValue(b, x.vals[i], depth+1)
		}
		b.WriteByte('}')
	case *pyList:
		fmt.Fprintf(b, "[%d items]", len(x.items))
	case pyTuple:
		if depth >= maxFormatDepth {
			b.WriteString("(...)")
			return
		}
		b.WriteByte('(')
		for i, e := range x {
			if b.Len() > maxFormatLen {
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e, depth+1)
		}
		b.WriteByte(')')
	default:
		b.WriteString(typeName(v))
	}
}
