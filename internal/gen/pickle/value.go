// Package pickle writes Python pickles byte for byte the way CPython's
// pickler (and PyTorch's C++ pickler) writes them, for the generated test
// snapshots of gpureport. It is the project's one pickle writer: the
// snapshot decoder's tests write their hand-built trees with it too, in
// the dialects the decoder must read (protocols 2 to 5, Style). Load reads
// back what it writes (and any snapshot pickle) as the same tree, for tests.
//
// Values are a small tree that mirrors the Python objects a memory snapshot
// holds. Object identity matters: CPython memoizes every str, dict, list and
// tuple it saves and writes a later reference to the same object as a
// BINGET, so a frame dict shared by a million trace entries is written once.
// The tree therefore distinguishes shared objects (pointers: *Str, *Dict,
// *List) from values written afresh each time (a Go string is a new str
// object every time it is saved).
//
// The accepted value types are:
//
//	nil               None
//	bool              True / False
//	int, int64        int
//	uint64            int (addresses above 2^63 stay positive)
//	*big.Int          int of any size
//	float64           float
//	string            a new str object each time it is saved
//	*Str              one str object; later saves refer back to it
//	*Dict             dict (insertion order kept), shared by identity
//	*List             list, shared by identity
//	Tuple             tuple (a new object each time it is saved)
//	*TupleObj         tuple, shared by identity
//	*Bytes            bytes (protocol 3 and later), shared by identity
//
// As in CPython, the empty string and one-character Latin-1 strings are
// singletons: every such string is the same object whichever way it is made.
//
// Nothing here constructs or names a Python class: the writer emits no
// GLOBAL, REDUCE or BUILD opcode, and Load rejects them.
package pickle

// Str is one Python str object. Saving the same *Str twice writes it once
// and refers back to it through the memo.
type Str struct {
	// S is the string's text (UTF-8).
	S string
}

// NewStr returns a new shared str object holding s.
func NewStr(s string) *Str { return &Str{S: s} }

// Dict is a Python dict: items in insertion order. Keys are not checked
// for uniqueness; callers add each key once.
type Dict struct {
	Items []Item
}

// Item is one key/value pair of a Dict.
type Item struct {
	Key, Value any
}

// NewDict returns an empty dict with room for n items.
func NewDict(n int) *Dict { return &Dict{Items: make([]Item, 0, n)} }

// Set appends the pair k: v.
func (d *Dict) Set(k, v any) { d.Items = append(d.Items, Item{k, v}) }

// Get returns the value of the first item whose key is the string k (a
// string or *Str key), and false when there is none.
func (d *Dict) Get(k string) (any, bool) {
	for _, it := range d.Items {
		if s, ok := AsString(it.Key); ok && s == k {
			return it.Value, true
		}
	}
	return nil, false
}

// List is a Python list.
type List struct {
	Items []any
}

// NewList returns a list holding items (not copied).
func NewList(items ...any) *List { return &List{Items: items} }

// Append adds v at the end.
func (l *List) Append(v any) { l.Items = append(l.Items, v) }

// Tuple is a Python tuple. It is a value: each save writes a new tuple
// object, as the snapshot writers do for segment_pool_id.
type Tuple []any

// TupleObj is one Python tuple object: saving it again refers back to it
// through the memo, as CPython does for a tuple shared by several
// containers.
type TupleObj struct {
	Items []any
}

// Bytes is one Python bytes object, shared by identity like *Str.
type Bytes struct {
	B []byte
}

// AsString returns the text of a string or *Str value, and false for any
// other value.
func AsString(v any) (string, bool) {
	switch s := v.(type) {
	case string:
		return s, true
	case *Str:
		return s.S, true
	case *Bytes:
		return string(s.B), true
	}
	return "", false
}

// isSingletonStr reports whether CPython keeps only one object for the
// text s: the empty string and strings of one Latin-1 character.
func isSingletonStr(s string) bool {
	switch {
	case len(s) == 0:
		return true
	case len(s) == 1:
		return s[0] < 0x80
	case len(s) == 2:
		// One character U+0080..U+00FF is two UTF-8 bytes: C2 or C3
		// followed by a continuation byte.
		return (s[0] == 0xc2 || s[0] == 0xc3) && s[1]&0xc0 == 0x80
	}
	return false
}
