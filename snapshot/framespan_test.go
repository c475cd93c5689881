package snapshot

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gpureport/internal/testutil"
)

// decodeSpans decodes data in the fast mode, skimming the trace when
// skim is set, with runs of memo gets found by their bytes always
// (spanAlways), by the default rule, or never (spansOff); it returns the
// snapshot, the lists found by their bytes and the error.
func decodeSpans(data []byte, skim bool, mode string) (*Snapshot, uint64, error) {
	m := newVM(bytes.NewReader(data), int64(len(data)), false)
	m.skim = skim
	switch mode {
	case "always":
		m.spanAlways = true
	case "never":
		m.spansOff = true
	}
	v, err := m.run()
	if err != nil {
		return nil, m.spanHits, err
	}
	s, err := m.finish(v)
	return s, m.spanHits, err
}

// TestSpansDecodeTheSame decodes every real snapshot and the generator's
// benchmark shapes, in full and skimming the trace, with frames lists
// found by their runs' bytes always, by the default rule and never: the
// snapshots must be equal (or the errors the same), and runs must have
// been found, on the large shape by the default rule too.
func TestSpansDecodeTheSame(t *testing.T) {
	inputs := map[string][]byte{}
	for _, p := range testutil.RealFiles(t, "snapshots", "*.pickle") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(p)] = b
	}
	for name, in := range shapeInputs {
		b, err := in()
		if err != nil {
			t.Fatal(err)
		}
		inputs["shape "+name] = b
	}
	var always uint64
	for name, data := range inputs {
		for _, skim := range []bool{false, true} {
			never, hits, nerr := decodeSpans(data, skim, "never")
			if hits != 0 {
				t.Fatalf("%s: %d lists found by their bytes with spans off", name, hits)
			}
			for _, mode := range []string{"always", "rule"} {
				s, hits, err := decodeSpans(data, skim, mode)
				switch {
				case (err == nil) != (nerr == nil) || err != nil && err.Error() != nerr.Error():
					t.Fatalf("%s (skim %v, %s): error %v, without spans %v", name, skim, mode, err, nerr)
				case err == nil:
					if d := diffSnapshots(s, never); d != "" {
						t.Fatalf("%s (skim %v, %s): differs from the decode without spans: %s", name, skim, mode, d)
					}
				}
				if mode == "always" {
					always += hits
				}
				if name == "shape large" && mode == "rule" && hits < 100_000 {
					t.Errorf("%s (skim %v): %d lists found by their bytes by the default rule, want most of its 175k", name, skim, hits)
				}
			}
		}
	}
	if always == 0 {
		t.Fatal("no list was found by its bytes: the test compares nothing")
	}
}

// TestMemoPutDropsSpans checks that putting a frame's memo slot again
// turns the runs off for the rest of the decode: the bytes of a run no
// longer name the frames they named.
func TestMemoPutDropsSpans(t *testing.T) {
	m := newVM(bytes.NewReader(nil), 0, false)
	m.frameSlots = make([]uint32, 8)
	m.frameSlots[3] = 5
	m.spanTab, m.spanCount, m.spanBytes = make([]spanSlot, 4), 1, []byte{1}
	m.spanTab[1] = spanSlot{h: 1, n: 1, id: 1}
	if err := m.memoPut(2, val{}); err != nil {
		t.Fatal(err)
	}
	if m.spansOff || m.spanCount != 1 {
		t.Fatal("a slot that held no frame turned the runs off")
	}
	if err := m.memoPut(3, val{}); err != nil {
		t.Fatal(err)
	}
	if !m.spansOff || m.spanCount != 0 || m.spanTab[1].id != NoStack || len(m.spanBytes) != 0 {
		t.Fatalf("a frame's slot put again left the runs on (off %v, %d kept)", m.spansOff, m.spanCount)
	}
}
