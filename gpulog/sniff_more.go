package gpulog

// sniffMoreFormats recognises, from the start of a file (head, and its
// first non-blank lines), the formats read by readers of their own files:
// rocm-smi (rocm_smi.go), torch.profiler's Chrome traces
// (kineto_trace.go) and W&B's wandb-events.jsonl (wandb_events.go).
func sniffMoreFormats(head []byte, lines []string) (LogFormat, bool) {
	if sniffRocmSMI(head, lines) {
		return FormatRocmSMI, true
	}
	if sniffWandbEvents(lines[0]) {
		return FormatWandbEvents, true
	}
	if sniffKinetoTrace(head) {
		return FormatKinetoTrace, true
	}
	return "", false
}
