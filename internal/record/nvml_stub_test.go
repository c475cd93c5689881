//go:build !(cgo && linux)

package record

import (
	"errors"
	"testing"
)

// TestStubOpenUnavailable: a build without cgo (Windows, macOS, CGO_ENABLED=0)
// must answer record with UnavailableError, which the CLI maps to its
// NVML-unavailable exit code, never with a nil Source.
func TestStubOpenUnavailable(t *testing.T) {
	src, err := Open()
	if src != nil {
		t.Fatalf("Open() returned a Source %v in a build without NVML", src)
	}
	var ue *UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("Open() error = %v (%T), want *UnavailableError", err, err)
	}
}
