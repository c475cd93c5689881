package snapshot

import (
	"bytes"
	"testing"

	"gpureport/internal/pickleop"
)

// TestSkipFlatGets checks where a run of memo gets of flat frame dicts
// stops: at a get of a slot without its bit (never set, or set again with
// something else), at any other opcode, and where an operand would pass
// vm.lim (the buffered data or the current FRAME's end).
func TestSkipFlatGets(t *testing.T) {
	binGet := func(i byte) []byte { return []byte{pickleop.BinGet, i} }
	longGet := func(i uint32) []byte {
		return []byte{pickleop.LongBinGet, byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24)}
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name string
		buf  []byte
		lim  int // -1: the whole buffer
		want int
	}{
		{"all flat, to the end", cat(binGet(1), longGet(2), binGet(3)), -1, 9},
		{"stops at a slot without its bit", cat(binGet(1), binGet(4), binGet(3)), -1, 2},
		{"stops at a long get of a slot without its bit", cat(binGet(1), longGet(70)), -1, 2},
		{"stops at a slot past the bitmap", cat(binGet(1), longGet(1<<20)), -1, 2},
		{"stops at another opcode", cat(binGet(1), []byte{pickleop.Appends}, binGet(2)), -1, 2},
		{"stops before an operand past lim", cat(binGet(1), longGet(2)), 5, 2},
		{"stops before a short operand past lim", cat(binGet(1), binGet(2)), 3, 2},
		{"empty", nil, -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newVM(bytes.NewReader(nil), 0, false)
			// Flat frames in slots 1, 2, 3 and 65 (a second word).
			m.flatFrames = []uint64{1<<1 | 1<<2 | 1<<3, 1 << 1}
			m.buf, m.end, m.lim = tc.buf, len(tc.buf), len(tc.buf)
			if tc.lim >= 0 {
				m.lim = tc.lim
			}
			if got := m.skipFlatGets(0); got != tc.want {
				t.Errorf("skipFlatGets = %d, want %d", got, tc.want)
			}
		})
	}
}
