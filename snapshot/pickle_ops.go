package snapshot

import (
	"errors"
	"fmt"
)

// The opcodes are named in internal/pickleop. The fast decoder accepts the
// data opcodes of protocols 2 to 5 that build dicts, lists, tuples,
// strings, bytes and numbers; everything that constructs a class, calls a
// function or resolves an external reference is refused
// (pickleop.IsClass).

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
