package gpulog

// sniffMoreFormats recognises, from the start of a file (head, and its
// first non-blank lines), the formats read by readers of their own files:
// rocm-smi (rocm_smi.go), torch.profiler's Chrome traces
// (kineto_trace.go), W&B's wandb-events.jsonl (wandb_events.go) and
// Prometheus API responses (prom_json.go).
func sniffMoreFormats(head []byte, lines []string) (LogFormat, bool) {
	if sniffRocmSMI(head, lines) {
		return FormatRocmSMI, true
	}
	if sniffWandbEvents(lines[0]) {
		return FormatWandbEvents, true
	}
	if sniffPromJSON(head) {
		return FormatPromJSON, true
	}
	if sniffKinetoTrace(head) {
		return FormatKinetoTrace, true
	}
	return "", false
}
