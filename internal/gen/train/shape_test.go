package train

import (
	"bytes"
	"crypto/sha256"
	"maps"
	"slices"
	"testing"

	"gpureport/internal/gen/pickle"
	"gpureport/internal/pickleop"
	"gpureport/snapshot"
)

// TestWriteShape writes small shapes and checks them with the project's
// decoder and the writer's own reader: the trace holds exactly the
// requested events and OOMs, the blocks are the tensors plus their
// segments' free remainders, the stacks are as many as asked, and the
// frames lists are built from memo gets of shared frame dicts, as
// pickle.dump writes PyTorch's snapshots. The same shape writes the same
// bytes.
func TestWriteShape(t *testing.T) {
	tests := []struct {
		name string
		sh   Shape
	}{
		{"few tensors", Shape{Tensors: 20, Events: 3000, Stacks: 40, PythonDepth: 2, Seed: 1}},
		{"many tensors", Shape{Tensors: 2000, Events: 700, Stacks: 300, Seed: 2}},
		{"with OOMs", Shape{Tensors: 200, Events: 1500, Stacks: 50, OOMs: 3, PythonDepth: 1, Seed: 3}},
		{"with early OOMs", Shape{Tensors: 200, Events: 1500, Stacks: 50, OOMs: 2, OOMsEarly: true, PythonDepth: 1, Seed: 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			res, err := WriteShape(&buf, tc.sh)
			if err != nil {
				t.Fatal(err)
			}
			if res.Bytes != int64(buf.Len()) || res.Entries != tc.sh.Events || res.OOMs != tc.sh.OOMs {
				t.Fatalf("result %+v for %d bytes of %+v", res, buf.Len(), tc.sh)
			}
			s, _, err := snapshot.Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()), snapshot.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if s.Generation != snapshot.GenTimed || len(s.Traces) != 1 || len(s.Traces[0]) != tc.sh.Events {
				t.Fatalf("generation %s, %d traces", s.Generation, len(s.Traces))
			}
			ooms := s.OOMEntries(0)
			if len(ooms) != tc.sh.OOMs {
				t.Errorf("%d OOM events, want %d", len(ooms), tc.sh.OOMs)
			}
			// Late OOMs end the last step, early ones leave most of the
			// trace after them.
			for _, o := range ooms {
				if after := tc.sh.Events - 1 - o.Index; tc.sh.OOMsEarly && after < tc.sh.Events/2 || !tc.sh.OOMsEarly && after > tc.sh.Events/10 {
					t.Errorf("OOM at event %d of %d (early %v)", o.Index, tc.sh.Events, tc.sh.OOMsEarly)
				}
			}
			blocks, live := 0, 0
			for _, sg := range s.Segments {
				blocks += len(sg.Blocks)
				for _, b := range sg.Blocks {
					if b.State.Active() {
						live++
					}
				}
			}
			if blocks != res.Blocks || live != tc.sh.Tensors || len(s.Segments) != res.Segments {
				t.Errorf("%d blocks (%d live) in %d segments; result %+v, %d tensors", blocks, live, len(s.Segments), res, tc.sh.Tensors)
			}
			// Every site is used at least once by a tensor or a recent
			// temporary, and the free sites add a few.
			if n := s.Stacks.Len() - 1; n < tc.sh.Stacks*9/10 || n > tc.sh.Stacks+20 {
				t.Errorf("%d distinct stacks, want about %d", n, tc.sh.Stacks)
			}
			_, st, err := pickle.Load(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			gets := st.Ops[pickleop.BinGet] + st.Ops[pickleop.LongBinGet]
			if st.Protocol != 4 || gets < 10*(blocks+tc.sh.Events) {
				t.Errorf("protocol %d, %d memo gets for %d blocks and %d events", st.Protocol, gets, blocks, tc.sh.Events)
			}
			var again bytes.Buffer
			if _, err := WriteShape(&again, tc.sh); err != nil {
				t.Fatal(err)
			}
			if sha256.Sum256(buf.Bytes()) != sha256.Sum256(again.Bytes()) {
				t.Error("the same shape wrote different bytes")
			}
		})
	}
}

// TestWriteShapeRefuses checks that an empty shape is an error.
func TestWriteShapeRefuses(t *testing.T) {
	for _, sh := range []Shape{{}, {Tensors: 1, Events: 1}, {Tensors: 1, Stacks: 1}, {Events: 1, Stacks: 1}, {Tensors: 1, Events: 1, Stacks: 1, OOMs: -1}} {
		if _, err := WriteShape(&bytes.Buffer{}, sh); err == nil {
			t.Errorf("%+v: no error", sh)
		}
	}
}

// TestShapeVariants checks the copies a run is made of: copy i differs
// from the snapshot only in one live block's requested size (and its
// segment's), which is i bytes less, and decodes without a note; the
// block may be alone in its segment or share it (a large model's
// tensors, a quarter MB each, share their segments).
func TestShapeVariants(t *testing.T) {
	for _, tc := range []struct {
		name string
		sh   Shape
		// neighbours is how many other live blocks share the varied
		// block's segment.
		neighbours func(int) bool
	}{
		{"alone", Shape{Tensors: 60, Events: 700, Stacks: 30, Seed: 4}, func(n int) bool { return n == 0 }},
		{"shared", Shape{Tensors: 2000, Events: 700, Stacks: 30, Seed: 4, Live: 2000 << 18}, func(n int) bool { return n > 0 }},
		// A large model's: many blocks of each size over 1 MiB.
		{"many of one size", Shape{Tensors: 16000, Events: 700, Stacks: 30, Seed: 4, Live: 16000 << 18}, func(n int) bool { return n > 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) { testShapeVariants(t, tc.sh, tc.neighbours) })
	}
}

func testShapeVariants(t *testing.T, sh Shape, neighbours func(int) bool) {
	var buf bytes.Buffer
	res, err := WriteShape(&buf, sh)
	if err != nil {
		t.Fatal(err)
	}
	base := buf.Bytes()
	others := map[int64]int{} // live blocks beside each live block in its segment
	requested := func(data []byte) map[int64]int64 {
		s, _, err := snapshot.Decode(bytes.NewReader(data), int64(len(data)), snapshot.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Notes) > 0 {
			t.Errorf("decode notes: %v", s.Notes)
		}
		out := map[int64]int64{}
		for _, sg := range s.Segments {
			var sum int64
			var live []int64
			for _, b := range sg.Blocks {
				if b.State.Active() {
					out[int64(b.Address)] = b.RequestedSize
					sum += b.RequestedSize
					live = append(live, int64(b.Address))
				}
			}
			for _, addr := range live {
				others[addr] = len(live) - 1
			}
			if sum != sg.RequestedSize {
				t.Errorf("segment %#x: requested_size %d, its blocks ask for %d", sg.Address, sg.RequestedSize, sum)
			}
		}
		return out
	}
	want := requested(base)
	// Blocks of one size that copies may vary in ask for distinct sizes,
	// so that each number is written once (else a large model, with
	// thousands of blocks of each size, has none to vary).
	s, _, err := snapshot.Decode(bytes.NewReader(base), int64(len(base)), snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	asks := map[[2]int64]int{}
	bySize := map[int64]int{}
	for _, sg := range s.Segments {
		for _, b := range sg.Blocks {
			if b.State == snapshot.StateActiveAllocated && b.Size > 1<<20 {
				asks[[2]int64{b.Size, b.RequestedSize}]++
				bySize[b.Size]++
			}
		}
	}
	for k, n := range asks {
		if n > 1 && bySize[k[0]] <= 256 {
			t.Errorf("%d blocks of %d bytes ask for %d", n, k[0], k[1])
		}
	}
	if sh.Tensors > 10000 && !slices.ContainsFunc(slices.Collect(maps.Values(bySize)), func(n int) bool { return n > 1 }) {
		t.Errorf("no two blocks over 1 MiB of one size: the check above checks nothing")
	}
	for _, i := range []int{0, 1, 37} {
		data := slices.Clone(base)
		res.SetVariant(data, i)
		diff := 0
		for j := range data {
			if data[j] != base[j] {
				diff++
			}
		}
		got := requested(data)
		changed := 0
		for addr, r := range got {
			if r != want[addr] {
				changed++
				if want[addr]-r != int64(i) || r != int64(res.VariantSize)-int64(i) {
					t.Errorf("copy %d: block %#x asks for %d, copy 0 for %d", i, addr, r, want[addr])
				}
				if !neighbours(others[addr]) {
					t.Errorf("copy %d: block %#x has %d blocks beside it in its segment", i, addr, others[addr])
				}
			}
		}
		if wantChanged := min(i, 1); changed != wantChanged || diff > 8 || len(got) != len(want) {
			t.Errorf("copy %d: %d blocks changed (want %d), %d bytes differ", i, changed, wantChanged, diff)
		}
	}
}
