package placement

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
)

// gpuNumbers lists every GPU number a log holds: its GPUs' indexes, then
// its samples' and its process readings' GPUs.
func gpuNumbers(l *gpulog.GPULog) []int {
	var out []int
	for _, g := range l.GPUs {
		out = append(out, g.Index)
	}
	for _, s := range l.Samples {
		out = append(out, s.GPU)
	}
	for _, p := range l.Processes {
		out = append(out, p.GPU)
	}
	return out
}

// TestPlaceLeavesTheRunAsRead places a run in which every decision moves
// something (ranks that paths do not tell apart, logs of two machines, a
// process reading named by UUID), and checks that the placed run has
// them while the run as read keeps its own numbers, so that placing (and
// analysing) it again gives the same answer.
func TestPlaceLeavesTheRunAsRead(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	busy := func(base int64) func(g, i int) int64 {
		return func(g, i int) int64 { return base + 1000*int64(g) + 10*int64(i) }
	}
	node1 := hostLog("node1/gpu.csv", 2, 20, t0, busy(9000))
	node1.GPUs[1].UUID = "GPU-b"
	apps := &gpulog.GPULog{Format: gpulog.FormatComputeAppsCSV}
	apps.Path = "node1/apps.csv"
	apps.Processes = []gpulog.ProcessSample{{Time: t0, GPU: -1, UUID: "GPU-b", PID: 42, UsedMemory: 1 << 30}}
	read := &ingest.Run{
		Snapshots: filesAt(expand("node{node}/rank{local}/snapshot_step_{s}.pickle", 4, func(p int) string { return fmt.Sprint(p) })),
		Logs:      []*gpulog.GPULog{hostLog("node0/gpu.csv", 2, 20, t0, busy(3000)), node1, apps},
	}
	var ranks []int
	for _, f := range read.Snapshots {
		ranks = append(ranks, f.Rank)
	}
	var gpus [][]int
	for _, l := range read.Logs {
		gpus = append(gpus, gpuNumbers(l))
	}
	first := Place(read)
	again := Place(read)
	for _, placed := range []*Run{first, again} {
		var got []int
		for _, f := range placed.Snapshots {
			got = append(got, f.Rank)
		}
		if want := []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}; !slices.Equal(got, want) {
			t.Errorf("placed ranks %v, want %v", got, want)
		}
		if g := placed.Logs[1].Samples[0].GPU; g != 2 {
			t.Errorf("node1's first GPU placed as %d, want 2", g)
		}
		if g := placed.Logs[2].Processes[0].GPU; g != 3 {
			t.Errorf("process on GPU-b placed on GPU %d, want 3 (node1's GPU 1)", g)
		}
		if len(placed.Notes) != 2 {
			t.Errorf("notes %+v, want one on ranks and one on machines", placed.Notes)
		}
	}
	for i, f := range read.Snapshots {
		if f.Rank != ranks[i] {
			t.Errorf("%s: the run as read has rank %d, was %d", f.Path, f.Rank, ranks[i])
		}
	}
	for i, l := range read.Logs {
		if got := gpuNumbers(l); !slices.Equal(got, gpus[i]) {
			t.Errorf("%s: the run as read has GPUs %v, was %v", l.Path, got, gpus[i])
		}
	}
}
