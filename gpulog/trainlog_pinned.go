package gpulog

import "strings"

// Pinned (page-locked) host memory. A DataLoader with pin_memory=True
// copies each batch into page-locked host memory in a thread of the main
// process (torch/utils/data/_utils/pin_memory.py); PyTorch's caching
// host allocator gets that memory with cudaHostAlloc, whose failure is
// CUDA's generic "CUDA error: out of memory" (c10/cuda's C10_CUDA_CHECK).
// The thread's exception is wrapped and raised again in the main
// process (dataloader.py _process_data, ExceptionWrapper):
//
//	RuntimeError: Caught RuntimeError in pin memory thread for device 0.
//	Original Traceback (most recent call last):
//	  File ".../torch/utils/data/_utils/pin_memory.py", line 37, in do_one_step
//	    data = pin_memory(data, device)
//	...
//	RuntimeError: CUDA error: out of memory
//
// What ran out is the host's memory that the driver may lock, not the
// device's: an OOM message that closes such a traceback, or that names
// cudaHostAlloc itself, is PinnedHost. The evidence is a line of the
// traceback before the message (the wrapper's "in pin memory thread", a
// pin_memory.py frame, a cudaHostAlloc mention) with nothing but
// traceback lines between them, at most maxPinnedLines before it.

// maxPinnedLines bounds how far the evidence may be before the message:
// the pin-memory thread's original traceback is a handful of frames (two
// lines each); 40 lines leave room for a deeper one (a custom
// pin_memory method) without reaching back to another failure.
const maxPinnedLines = 40

// pinnedMayBe reports whether a line names pinned host memory's failure
// path.
func pinnedMayBe(line string) bool {
	return strings.Contains(line, "in pin memory thread") || strings.Contains(line, "_utils/pin_memory.py") ||
		strings.Contains(line, "_utils\\pin_memory.py") || strings.Contains(line, "cudaHostAlloc")
}

// followPinned follows the evidence of a pinned-memory failure (line ln,
// as visibleText shows it, that continues no message): tr.pinned is the
// line of the latest evidence, 0 when none or when a line that is no
// part of a traceback came after it.
func (tr *trainingReader) followPinned(ln int, line string) {
	if pinnedMayBe(line) {
		tr.pinned = ln
		return
	}
	if tr.pinned == 0 {
		return
	}
	rest := readLineHead(line).rest
	t := strings.TrimSpace(rest)
	// readLineHead drops the spaces before rest: a source line is
	// indented by more than the one space after a prefix.
	prefix := line[:len(line)-len(rest)]
	indented := len(prefix)-len(strings.TrimRight(prefix, " \t")) >= 2
	switch {
	case ln-tr.pinned > maxPinnedLines:
		tr.pinned = 0
	case t == "", strings.HasPrefix(t, "File \""), strings.HasPrefix(t, "Original Traceback"), strings.HasPrefix(t, "Traceback (most recent call last)"),
		strings.HasPrefix(t, "^"), indented, reExceptionLine.MatchString(t):
		// Frames, source lines, the wrapper's and the original
		// exception lines.
	default:
		tr.pinned = 0
	}
}

// pinnedHost reports whether the message whose first line is n (text:
// its text with its continuation) is pinned host memory's.
func (tr *trainingReader) pinnedHost(n int, text string) bool {
	return strings.Contains(text, "cudaHostAlloc") || tr.pinned > 0 && tr.pinned < n && n-tr.pinned <= maxPinnedLines
}
