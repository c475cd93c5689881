package report

// oomBytes formats a byte figure of an OOM: "unknown" for a figure the
// input did not give (a training log's message has no largest free block,
// an NCCL message no free memory), marked -1 (gpulog.Unknown).
func oomBytes(n int64) string {
	if n < 0 {
		return "unknown"
	}
	return Bytes(n)
}
