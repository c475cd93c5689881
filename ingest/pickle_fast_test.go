package ingest

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"gpureport/ingest/ingesttest"
)

// decodeModes decodes a bare pickle three ways: the fast path (which must
// not fall back on data we know), the same machine in generic mode, and
// gopickle.
func decodeModes(t *testing.T, data []byte) (fast, generic, ref *Snapshot) {
	t.Helper()
	var err error
	fast, err = decodeFast(bytes.NewReader(data), int64(len(data)), false)
	if errors.Is(err, errFallback) {
		t.Fatalf("fast path fell back on a real file")
	}
	if err != nil {
		t.Fatalf("fast: %v", err)
	}
	if generic, err = decodeFast(bytes.NewReader(data), int64(len(data)), true); err != nil {
		t.Fatalf("generic: %v", err)
	}
	if ref, err = DecodeReference(bytes.NewReader(data)); err != nil {
		t.Fatalf("reference: %v", err)
	}
	return fast, generic, ref
}

// TestFastMatchesReferenceOnRealFiles decodes every real snapshot with the
// fast path (no fallback allowed), the generic mode and gopickle, and
// requires the three models to be equal.
func TestFastMatchesReferenceOnRealFiles(t *testing.T) {
	for _, f := range ingesttest.RealFiles(t, "snapshots", "*.pickle", "*.pkl") {
		t.Run(ingesttest.Rel(t, f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fast, generic, ref := decodeModes(t, data)
			if d := diffSnapshots(fast, ref); d != "" {
				t.Errorf("fast vs reference: %s", d)
			}
			if d := diffSnapshots(generic, ref); d != "" {
				t.Errorf("generic vs reference: %s", d)
			}
			if len(fast.Segments) == 0 && fast.Generation != GenFrames {
				t.Errorf("no segments decoded")
			}
		})
	}
}
