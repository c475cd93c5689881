package report

import "math"

// oomByteCell is a byte figure of an OOM: "unknown", with no value, for a
// figure the input did not give (a training log's message has no largest
// free block, an NCCL message no free memory), marked -1 (gpulog.Unknown).
func oomByteCell(n int64) Cell {
	if n < 0 {
		return Cell{Text: "unknown", Value: math.NaN(), Unit: UnitBytes}
	}
	return byteCell(n)
}
