package snapshot

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"gpureport/internal/pickleop"
)

// TestAppendFrameGets checks where a run of memo gets of noted frame dicts
// stops, and the frames it gathers: at a get of a slot not noted (never
// set, or set again with something else), at any other opcode, and where
// an operand would pass vm.lim (the buffered data or the current FRAME's
// end).
func TestAppendFrameGets(t *testing.T) {
	binGet := func(i byte) []byte { return []byte{pickleop.BinGet, i} }
	longGet := func(i uint32) []byte {
		return []byte{pickleop.LongBinGet, byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24)}
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	// Frames 10, 20, 30 and 40 in slots 1, 2, 3 and 300.
	slots := make([]uint32, 301)
	slots[1], slots[2], slots[3], slots[300] = 11, 21, 31, 41
	tests := []struct {
		name string
		buf  []byte
		lim  int // -1: the whole buffer
		want int
		ids  []FrameID
	}{
		{"all noted, to the end", cat(binGet(1), longGet(300), binGet(3)), -1, 9, []FrameID{10, 40, 30}},
		{"stops at a slot not noted", cat(binGet(1), binGet(4), binGet(3)), -1, 2, []FrameID{10}},
		{"stops at a long get of a slot not noted", cat(binGet(2), longGet(70)), -1, 2, []FrameID{20}},
		{"stops at a slot past the table", cat(binGet(1), longGet(1<<20)), -1, 2, []FrameID{10}},
		{"stops at another opcode", cat(binGet(1), []byte{pickleop.Appends}, binGet(2)), -1, 2, []FrameID{10}},
		{"stops before an operand past lim", cat(binGet(1), longGet(2)), 5, 2, []FrameID{10}},
		{"stops before a short operand past lim", cat(binGet(1), binGet(2)), 3, 2, []FrameID{10}},
		{"empty", nil, -1, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lim := len(tc.buf)
			if tc.lim >= 0 {
				lim = tc.lim
			}
			got, ids := appendFrameGets(tc.buf, 0, lim, slots, nil)
			if got != tc.want || !slices.Equal(ids, tc.ids) {
				t.Errorf("appendFrameGets = %d, %v; want %d, %v", got, ids, tc.want, tc.ids)
			}
		})
	}
}

// TestFrameSlots checks the table of memo slots holding frame dicts: a
// slot is noted only for a finished, valid frame dict in the memo's
// chunks, and forgotten when the slot is set again (BINPUT may reuse a
// slot for another value).
func TestFrameSlots(t *testing.T) {
	m := newVM(bytes.NewReader(nil), 0, false)
	if err := m.memoPut(5, val{k: kInt, x: 1}); err != nil {
		t.Fatal(err)
	}
	m.frameDicts = []uint32{frFinal | 7, frBad, frOpen}
	for _, tc := range []struct {
		slot uint64
		dict uint64
		want uint32
	}{
		{5, 0, 8},       // final: its FrameID plus one
		{6, 1, 0},       // bad
		{7, 2, 0},       // not finished
		{1 << 40, 0, 0}, // no chunk: not noted
	} {
		if err := m.noteFrameSlot(tc.slot, val{k: kDict, r: rFrame, h: 1, x: tc.dict}); err != nil {
			t.Fatal(err)
		}
		got := uint32(0)
		if tc.slot < uint64(len(m.frameSlots)) {
			got = m.frameSlots[tc.slot]
		}
		if got != tc.want {
			t.Errorf("slot %d holding dict %d: noted %d, want %d", tc.slot, tc.dict, got, tc.want)
		}
	}
	if err := m.memoPut(5, val{k: kInt, x: 2}); err != nil {
		t.Fatal(err)
	}
	if m.frameSlots[5] != 0 {
		t.Errorf("setting slot 5 again left it noted: %d", m.frameSlots[5])
	}
}

// TestGatheredFramesReadBack checks a legal pickle that reads back a
// frame the decoder had gathered straight into its frames list (DUP then
// POP of the last memo get before APPENDS): the fast path hands over to
// the generic decode, which agrees with gopickle, instead of calling the
// pickle broken.
func TestGatheredFramesReadBack(t *testing.T) {
	f := pyD("filename", "/work/a.py", "line", int64(7), "name", "f")
	blocks := pyL(
		pyD("address", int64(1<<30), "size", int64(512), "requested_size", int64(512), "state", "active_allocated", "frames", pyL(f)),
		pyD("address", int64(1<<30+512), "size", int64(512), "requested_size", int64(512), "state", "active_allocated", "frames", pyL(f, f)),
		pyD("address", int64(1<<30+1024), "size", int64(512), "requested_size", int64(512), "state", "active_allocated", "frames", pyL(f, f)),
	)
	seg := pyD("device", int64(0), "address", int64(1<<30), "total_size", int64(2<<20), "stream", int64(0), "blocks", blocks)
	data := writePickle(pyD("segments", pyL(seg)), stylePy2)
	// The third block's frames list: MARK, two gets of a slot the second
	// block's list made known, APPENDS.
	at := -1
	for i := 0; i+6 <= len(data); i++ {
		if data[i] == pickleop.Mark && data[i+1] == pickleop.BinGet && data[i+3] == pickleop.BinGet && data[i+5] == pickleop.Appends {
			at = i + 5
		}
	}
	if at < 0 {
		t.Fatal("no frames list of two memo gets in the test's pickle")
	}
	data = slices.Concat(data[:at], []byte{pickleop.Dup, pickleop.Pop}, data[at:])
	if _, err := decodeFast(bytes.NewReader(data), int64(len(data)), false); !errors.Is(err, errFallback) {
		t.Errorf("fast path: %v, want a fallback", err)
	}
	ref, err := DecodeReference(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := DecodeBytes(data, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffSnapshots(got, ref); d != "" {
		t.Errorf("models differ: %s", d)
	}
	if st := got.Segments[0].Blocks[2].Stack; len(got.Stacks.Stack(st)) != 2 {
		t.Errorf("third block's stack %v", got.Stacks.StackFrames(st))
	}
}
