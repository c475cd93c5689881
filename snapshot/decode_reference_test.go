package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/types"
)

// errClass is returned for pickles that ask to construct a class or call a
// function (GLOBAL, REDUCE, ...). A snapshot never does.
var errClass = errors.New("pickle asks to construct a class or call a function; snapshots never do, so it is rejected")

// This file holds the test-only decoders: gopickle as the reference the
// fast decoder must agree with (only tests link gopickle, never the
// gpureport binary), and DecodeBytes.

// DecodeBytes decodes an in-memory snapshot (any container).
func DecodeBytes(b []byte, opt DecodeOptions) (*Snapshot, Container, error) {
	return Decode(bytes.NewReader(b), int64(len(b)), opt)
}

// DecodeReference decodes a snapshot pickle (no container) with gopickle,
// the general-purpose reference decoder, and converts the result. It is
// slow and memory-hungry; the fast decoder must agree with it on every
// file. gopickle panics on some corrupt input: the panic becomes an error.
func DecodeReference(r io.Reader) (*Snapshot, error) {
	pv, err := referenceTree(r)
	if err != nil {
		return nil, err
	}
	return convertSnapshotAt(pv, 0)
}

// referenceTree unpickles r with gopickle into the generic value tree.
func referenceTree(r io.Reader) (pv any, err error) {
	defer func() {
		if p := recover(); p != nil {
			pv, err = nil, fmt.Errorf("corrupt pickle (reference decoder panicked: %v)", p)
		}
	}()
	u := pickle.NewUnpickler(r)
	u.FindClass = func(module, name string) (any, error) {
		return nil, fmt.Errorf("%w (%s.%s)", errClass, module, name)
	}
	u.PersistentLoad = func(any) (any, error) { return nil, errClass }
	u.GetExtension = func(int) (any, error) { return nil, errClass }
	v, err := u.Load()
	if err != nil {
		return nil, err
	}
	a := adapter{seen: map[any]any{}}
	return a.value(v, 0)
}

// adapter converts gopickle's value tree into the generic tree, keeping
// shared containers shared.
type adapter struct {
	seen map[any]any
}

func (a *adapter) value(v any, depth int) (any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("containers nested deeper than %d levels", maxNesting)
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return x, nil
	case int:
		return int64(x), nil
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), nil
		}
		return x, nil
	case float64:
		return x, nil
	case string:
		return x, nil
	case []byte:
		return string(x), nil // str and bytes alike
	case *types.List:
		if p, ok := a.seen[x]; ok {
			return p, nil
		}
		l := &pyList{items: make([]any, len(*x))}
		a.seen[x] = l
		for i, e := range *x {
			ev, err := a.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			l.items[i] = ev
		}
		return l, nil
	case *types.Dict:
		if p, ok := a.seen[x]; ok {
			return p, nil
		}
		d := &pyDict{}
		a.seen[x] = d
		for _, e := range *x {
			k, err := a.value(e.Key, depth+1)
			if err != nil {
				return nil, err
			}
			switch k.(type) {
			case *pyList, *pyDict:
				return nil, fmt.Errorf("unhashable dict key of type %s", typeName(k))
			}
			ev, err := a.value(e.Value, depth+1)
			if err != nil {
				return nil, err
			}
			d.set(k, ev)
		}
		return d, nil
	case *types.Tuple:
		t := make(pyTuple, len(*x))
		for i, e := range *x {
			ev, err := a.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			t[i] = ev
		}
		return t, nil
	}
	return nil, fmt.Errorf("%w (value of type %T)", errClass, v)
}
