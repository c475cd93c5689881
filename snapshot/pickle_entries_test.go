package snapshot

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestEntryStore decodes traces longer than one entry chunk three ways: a
// uniform trace (the arena sized from the first chunk holds them all), a
// trace whose first entries are much bigger than the rest (the estimate
// falls short and the rest overflow into chunks), and a stream of unknown
// size (chunks only). Each must give the generic mode's model, and the
// storage must be the one intended.
func TestEntryStore(t *testing.T) {
	n := 6<<entryChunkBits + 100
	uniform := synthSnapshot(synthOpts{entries: n, segments: 1})
	frontHeavy := synthSnapshot(synthOpts{entries: n, segments: 1})
	tr, _ := frontHeavy.get("device_traces")
	for i, e := range tr.(*pyList).items[0].(*pyList).items {
		if i < 1<<entryChunkBits {
			// About 80 more bytes each (distinct strings: no memo), so
			// the first chunk predicts too few entries for the rest.
			e.(*pyDict).set("user_metadata", strings.Repeat("x", 70)+strconv.Itoa(i))
		}
	}
	for _, c := range []struct {
		name           string
		tree           *pyDict
		size           bool // input size known
		arena, chunked bool // storage expected at the end
	}{
		{"uniform", uniform, true, true, false},
		{"front-heavy", frontHeavy, true, true, true},
		{"stream", uniform, false, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := writePickle(c.tree, stylePy4)
			size := int64(-1)
			if c.size {
				size = int64(len(data))
			}
			m := newVM(bytes.NewReader(data), size, false)
			v, err := m.run()
			if err != nil {
				t.Fatal(err)
			}
			if got := len(m.ents.arena) > 0; got != c.arena {
				t.Errorf("arena used: %v, want %v", got, c.arena)
			}
			if got := len(m.ents.chunks) > 0; got != c.chunked {
				t.Errorf("chunks used: %v, want %v", got, c.chunked)
			}
			if c.arena && len(m.ents.arena) > 2*len(data)/int(40) {
				t.Errorf("arena of %d entries for %d bytes of input", len(m.ents.arena), len(data))
			}
			fast, err := m.finish(v)
			if err != nil {
				t.Fatal(err)
			}
			gen, err := decodeFast(bytes.NewReader(data), size, true)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffSnapshots(fast, gen); d != "" {
				t.Fatal(d)
			}
			if len(fast.Traces[0]) != n+1 || len(fast.Traces[1]) != 3 {
				t.Errorf("trace lengths %d, %d", len(fast.Traces[0]), len(fast.Traces[1]))
			}
			if c.arena && !c.chunked && &fast.Traces[0][0] != &m.ents.arena[0] {
				t.Errorf("device 0's trace is a copy, not a view of the arena")
			}
		})
	}
}
