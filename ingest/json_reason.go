package ingest

import (
	"bytes"
	"regexp"
)

// reMemoryTimeline matches the start of torch.profiler's
// export_memory_timeline JSON: json.dump([times, sizes]), a list of
// times (ns since the epoch) and a list of per-category byte lists.
var reMemoryTimeline = regexp.MustCompile(`^\[\s*\[\s*\d{10,20}(?:\.\d+)?\s*,`)

// unreadJSON returns the skip reason of a JSON file that is a profiler
// output gpureport recognises but does not read, so that a run holding
// only it says what it holds instead of "no snapshot and no GPU log";
// false for other files (configuration JSON is no input and is not
// listed).
func unreadJSON(ext string, head []byte) (string, bool) {
	if ext != ".json" {
		return "", false
	}
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if reMemoryTimeline.Match(h) {
		return "torch.profiler's export_memory_timeline JSON ([times, bytes by category] of one device): not read; " +
			"a trace with profile_memory=True (its [memory] events) or memory snapshots give the allocator's figures", true
	}
	return "", false
}
