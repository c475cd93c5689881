package snapshot

import (
	"encoding/binary"

	"gpureport/internal/pickleop"
)

// skipFlatGets returns the buffer index after the run of memo gets that
// starts at p and whose slots all hold flat frame dicts (vm.flatFrames):
// inside a skimmed frames list such a get changes nothing but the list's
// nesting height, which the get before the run has already raised to
// that of a flat frame. Most of a skimmed trace is such runs (a stack is
// one get per frame), so they are passed over here without going through
// the opcode loop. The run stops at the first other opcode, at a get of
// any other slot, and where an operand is not wholly below vm.lim (past
// the buffered data or the current FRAME); the opcode loop then takes
// over from there, with its checks.
func (m *vm) skipFlatGets(p int) int {
	buf, lim, flat := m.buf, m.lim, m.flatFrames
	for {
		var i uint64
		switch {
		case p+2 <= lim && buf[p] == pickleop.BinGet:
			i = uint64(buf[p+1])
			if i>>6 >= uint64(len(flat)) || flat[i>>6]&(1<<(i&63)) == 0 {
				return p
			}
			p += 2
		case p+5 <= lim && buf[p] == pickleop.LongBinGet:
			i = uint64(binary.LittleEndian.Uint32(buf[p+1:]))
			if i>>6 >= uint64(len(flat)) || flat[i>>6]&(1<<(i&63)) == 0 {
				return p
			}
			p += 5
		default:
			return p
		}
	}
}
