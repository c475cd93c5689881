package ingest

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// reMemoryTimeline matches the start of torch.profiler's
// export_memory_timeline JSON: json.dump([times, sizes]), a list of
// times (ns since the epoch) and a list of per-category byte lists.
var reMemoryTimeline = regexp.MustCompile(`^\[\s*\[\s*\d{10,20}(?:\.\d+)?\s*,`)

// gpuMemoryNames are names of GPU memory metrics that a JSON file
// gpureport does not read may hold: DCGM's framebuffer fields and
// nvidia-smi's query fields (quoted, as JSON keys or values write
// them). A configuration file names none of them.
var gpuMemoryNames = []string{"DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_TOTAL",
	`"memory.used"`, `"memory.free"`, `"memory.total"`}

// unreadJSON returns the skip reason of a JSON file that is a profiler
// output gpureport recognises but does not read, or that names GPU memory
// metrics in a layout no reader claimed, so that a run holding only it
// says what it holds instead of "no snapshot and no GPU log"; false for
// other files (configuration JSON is no input and is not listed).
//
// The memory timeline is not read as a series, though its sums by time
// look like one: the file does not name its device (export_memory_timeline's
// device argument, cuda:0 by default when CUDA is present, else the CPU),
// marks no steps, and its figures are the bytes of the tensors the
// profiler saw and categorised over the profiled window (a few steps),
// not the allocator's allocated or reserved memory; its categories
// (parameters, optimizer state, gradients, activations, ...) have no place
// in a reading. Its HTML form (export_memory_timeline_html, or
// export_memory_timeline to a .html path) holds only a PNG of the plot.
func unreadJSON(ext string, head []byte) (string, bool) {
	if (ext == ".html" || ext == ".htm") && bytes.Contains(head, []byte("<title>GPU Memory Timeline HTML</title>")) {
		return "torch.profiler's export_memory_timeline HTML: a PNG of the plot, no figures to read; " +
			"export it to a .json path for the figures, or better, keep the trace with profile_memory=True (its [memory] events) or record memory snapshots", true
	}
	if ext != ".json" {
		return "", false
	}
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if reMemoryTimeline.Match(h) {
		return "torch.profiler's export_memory_timeline JSON ([times, bytes by category] of one device): not read: it names no device (cuda:0 by default, " +
			"else the CPU), marks no steps, and sums the bytes of the tensors the profiler categorised over its window, not the allocator's allocated or reserved memory; " +
			"a trace with profile_memory=True (its [memory] events) or memory snapshots give the allocator's figures", true
	}
	for _, name := range gpuMemoryNames {
		if bytes.Contains(h, []byte(name)) {
			return fmt.Sprintf("a JSON file naming GPU memory metrics (%s) in a layout gpureport does not read: not read; "+
				"DCGM metrics are read from the exporter's text (curl :9400/metrics) or a Prometheus API response (/api/v1/query_range), "+
				"nvidia-smi's from its CSV (--query-gpu=timestamp,index,memory.used,memory.total --format=csv)", strings.Trim(name, `"`)), true
		}
	}
	return "", false
}
