package snapshot

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestDecoderPanicIsInternalError: a panic inside the decoder costs one
// file as an *internalError (which fuzzing looks for), not the process.
func TestDecoderPanicIsInternalError(t *testing.T) {
	_, err := decodePickle(func() (io.Reader, error) { panic("boom") }, -1)
	var ie *internalError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("got %v, want an *internalError naming the panic", err)
	}
	if _, err := decodePickle(func() (io.Reader, error) { return strings.NewReader("\x80\x04K\x01."), nil }, -1); errors.As(err, &ie) {
		t.Fatalf("an ordinary error %v is an internalError", err)
	}
}
