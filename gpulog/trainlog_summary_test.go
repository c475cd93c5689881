package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/gpulog"
	"gpureport/input"
)

// memorySummary writes torch.cuda.memory_summary()'s table for device dev
// with the given current sizes (already formatted, as PyTorch prints
// them) and counters; prefix goes before every line.
func memorySummary(prefix string, dev int, alloc, reserved string, ooms, retries int) string {
	lines := []string{
		"|===========================================================================|",
		fmt.Sprintf("|                  PyTorch CUDA memory summary, device ID %-17d |", dev),
		"|---------------------------------------------------------------------------|",
		fmt.Sprintf("|            CUDA OOMs: %-12d |        cudaMalloc retries: %-8d  |", ooms, retries),
		"|===========================================================================|",
		"|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |",
		"|---------------------------------------------------------------------------|",
		fmt.Sprintf("| Allocated memory      | %10s | %10s |  99999 MiB |  88888 MiB |", alloc, alloc),
		fmt.Sprintf("|       from large pool | %10s | %10s |  99999 MiB |  88888 MiB |", "1 MiB", "1 MiB"),
		"|---------------------------------------------------------------------------|",
		fmt.Sprintf("| Active memory         | %10s | %10s |  99999 MiB |  88888 MiB |", alloc, alloc),
		"|---------------------------------------------------------------------------|",
		fmt.Sprintf("| GPU reserved memory   | %10s | %10s |  99999 MiB |      0 B   |", reserved, reserved),
		"|---------------------------------------------------------------------------|",
		"| Non-releasable memory |   2048 KiB |   4096 KiB |  77777 MiB |  77775 MiB |",
		"|---------------------------------------------------------------------------|",
		"| Allocations           |     512    |     600    |    9999 K  |    9998 K  |",
		"|===========================================================================|",
	}
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}

func TestTrainingLogMemorySummaries(t *testing.T) {
	const mib = int64(1) << 20
	var log strings.Builder
	log.WriteString("loading model\n")
	for i, step := range []int{100, 200, 300} {
		fmt.Fprintf(&log, "step %d | loss %.2f | lr 3e-4\n", step, 2.0-0.1*float64(i))
		log.WriteString(memorySummary("", 0, fmt.Sprintf("%d MiB", 1000+100*i), "4096 MiB", 0, i))
	}
	// Older releases print KB and MB (binary), with a rank prefix and a
	// time; a summary printed after a caught OOM counts it.
	log.WriteString("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which 1.23 GiB is free.\n")
	log.WriteString(memorySummary("[rank1]: ", 1, "146836 KB", "4261 MB", 1, 3))
	data := log.String()

	if f, ok := gpulog.SniffLog([]byte(data)); ok {
		t.Errorf("SniffLog claims a training log as %q", f)
	}
	if !gpulog.SniffTrainingLog(strings.NewReader(data), []byte(data)) {
		t.Fatal("SniffTrainingLog does not claim the log")
	}
	// Without an OOM message, summaries alone make a training log.
	justSummary := "epoch 1\n" + memorySummary("", 0, "1 MiB", "2 MiB", 0, 0)
	if !gpulog.SniffTrainingLog(strings.NewReader(justSummary), []byte(justSummary)) {
		t.Error("a log of summaries only is not claimed")
	}

	l, err := gpulog.ReadLog(strings.NewReader(data), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// line is the table's header line.
	reading := func(step int64, dev, rank int, alloc, reserved, retries, ooms int64, line int) gpulog.MemoryStatsSample {
		return gpulog.MemoryStatsSample{Step: step, Device: dev, Rank: rank, Allocated: alloc, Reserved: reserved, Active: alloc,
			InactiveSplit: 2048 << 10, NumAllocRetries: retries, NumOOMs: ooms, Line: line}
	}
	want := []gpulog.MemoryStatsSample{
		reading(100, 0, input.NoRank, 1000*mib, 4096*mib, 0, 0, 4),
		reading(200, 0, input.NoRank, 1100*mib, 4096*mib, 1, 0, 23),
		reading(300, 0, input.NoRank, 1200*mib, 4096*mib, 2, 0, 42),
		// The step line is 26 lines up: too far to be this table's.
		reading(input.NoStep, 1, 1, 146836<<10, 4261*mib, 3, 1, 61),
	}
	if d := cmp.Diff(want, l.MemoryStats, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); d != "" {
		t.Errorf("readings (-want +got):\n%s", d)
	}
	if len(l.OOMs) != 1 || l.OOMs[0].Rank != 1 {
		t.Errorf("OOMs %+v, want the one message of rank 1", l.OOMs)
	}
}
