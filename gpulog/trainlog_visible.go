package gpulog

import (
	"regexp"
	"strconv"
	"strings"
)

// VisibleDevices is a CUDA_VISIBLE_DEVICES setting a training log printed
// (a launch script's "CUDA_VISIBLE_DEVICES=3", an environment dump's
// "'CUDA_VISIBLE_DEVICES': '2,3'"): the process's CUDA device i is
// physical GPU GPUs[i], so an OOM message's "GPU 0" after it is GPU
// GPUs[0] of an nvidia-smi log of the machine.
type VisibleDevices struct {
	// Line is the 1-based line; Rank the rank its prefix gives
	// (input.NoRank when none).
	Line, Rank int
	// GPUs are the physical GPU indices listed, in order; a list of
	// UUIDs or MIG names is not read (it says no index).
	GPUs []int
}

// reVisibleDevices matches a CUDA_VISIBLE_DEVICES setting of GPU
// indices: the name, an optional quote, "=" or ":" (or " is"), an
// optional quote, then a comma-separated list of indices ended by the
// line, a space, a quote or punctuation; a name followed by a UUID
// ("GPU-..."), by text, or by a number run into letters is no setting.
var reVisibleDevices = regexp.MustCompile(`CUDA_VISIBLE_DEVICES['"]?\s*(?:=|:|\bis\b)\s*['"]?(\d{1,3}(?:\s*,\s*\d{1,3})*)(?:$|[\s'";),\]}])`)

// visibleDevicesLine reads a CUDA_VISIBLE_DEVICES setting of line n into
// b's log; it returns true when the line was one. The line may also be
// something else (a launch command), so the caller reads it on.
func visibleDevicesLine(b *logBuilder, n int, line string) bool {
	if !strings.Contains(line, "CUDA_VISIBLE_DEVICES") {
		return false
	}
	m := reVisibleDevices.FindStringSubmatch(visibleText(line))
	if m == nil {
		return false
	}
	var gpus []int
	for f := range strings.SplitSeq(m[1], ",") {
		g, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return false
		}
		gpus = append(gpus, g)
	}
	_, rank := fwTimeRank(b, line)
	b.log.VisibleDevices = append(b.log.VisibleDevices, VisibleDevices{Line: n, Rank: rank, GPUs: gpus})
	return true
}
