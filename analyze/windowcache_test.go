package analyze

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gpureport/input"
	"gpureport/internal/testutil"
	"gpureport/internal/testutil/realsnap"
)

// realWindows returns the trace window of every device of the sample
// run's last snapshot and of every real snapshot (those that have one).
func realWindows(tb testing.TB) []*TraceWindow {
	tb.Helper()
	var out []*TraceWindow
	sample := testutil.SampleSnapshots(tb, 1)
	for p, s := range realsnap.Each(tb, sample[len(sample)-1]) {
		for _, dev := range s.Devices() {
			if w := TraceWindowOf(file(s, p, 1, input.NoRank), dev, nil); w != nil {
				out = append(out, w)
			}
		}
	}
	if len(out) < 10 {
		tb.Fatalf("%d trace windows, want 10 or more", len(out))
	}
	return out
}

// TestWindowEntryRoundTrip encodes the trace window of every device of
// the sample run's last snapshot and of every real snapshot: each must
// read back equal, the peaks and never-freed stacks included; cut short
// at every length, with a byte after the end, with a flag that is not 0
// or 1, or of another format, it must be refused.
func TestWindowEntryRoundTrip(t *testing.T) {
	peaks, groups := 0, 0
	for _, w := range realWindows(t) {
		b, err := encodeWindow(w)
		if err != nil {
			t.Fatal(err)
		}
		back, ok := decodeWindow(b)
		if !ok {
			t.Errorf("%s: its own entry (%d bytes) is refused", w.Path, len(b))
			continue
		}
		if diff := cmp.Diff(*w, back); diff != "" {
			t.Errorf("%s: read back differs (-want +got):\n%s", w.Path, diff)
		}
		if w.Peak != nil {
			peaks++
		}
		groups += len(w.NeverFreed)
		for _, n := range cuts(len(b)) {
			if _, ok := decodeWindow(b[:n]); ok {
				t.Fatalf("%s: an entry cut to %d of %d bytes was read", w.Path, n, len(b))
			}
		}
		if _, ok := decodeWindow(append(bytes.Clone(b), 0)); ok {
			t.Errorf("%s: an entry with a byte after the end was read", w.Path)
		}
		other := bytes.Clone(b)
		other[0] = windowFormat + 1
		if _, ok := decodeWindow(other); ok {
			t.Errorf("%s: an entry of another format was read", w.Path)
		}
	}
	if peaks == 0 || groups == 0 {
		t.Fatalf("%d peaks and %d never-freed groups: the round trip tested neither", peaks, groups)
	}
	// A flag of 2 where the peak's is.
	w := &TraceWindow{Path: "x", Entries: 1}
	b, _ := encodeWindow(w)
	b[len(b)-1] = 2
	if _, ok := decodeWindow(b); ok {
		t.Error("a peak flag of 2 was read")
	}
}

// cuts returns the lengths to cut an entry of n bytes to: every length
// of its first and last 256 bytes and 256 spread between (reading a
// window of 177 KB at every length took minutes).
func cuts(n int) []int {
	var out []int
	for i := range n {
		if i < 256 || i >= n-256 || i%max(1, n/256) == 0 {
			out = append(out, i)
		}
	}
	return out
}

// FuzzDecodeWindow: whatever decodeWindow reads must encode to bytes
// that read back the same.
func FuzzDecodeWindow(f *testing.F) {
	for _, w := range realWindows(f) {
		b, err := encodeWindow(w)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w, ok := decodeWindow(data)
		if !ok {
			return
		}
		enc, err := encodeWindow(&w)
		if err != nil {
			t.Fatal(err)
		}
		again, ok := decodeWindow(enc)
		if !ok {
			t.Fatalf("% x read, encoded as % x, is refused", data, enc)
		}
		if diff := cmp.Diff(w, again); diff != "" {
			t.Fatalf("% x read, encoded as % x, reads back otherwise:\n%s", data, enc, diff)
		}
	})
}
