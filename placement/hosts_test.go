package placement

import (
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
)

// hostLog is a log at path of GPUs 0..gpus-1 read every second from t0
// for n seconds; used gives GPU g's used MiB at second i.
func hostLog(path string, gpus, n int, t0 time.Time, used func(g, i int) int64) *gpulog.GPULog {
	l := &gpulog.GPULog{Source: input.Source{Path: path}, Format: gpulog.FormatQueryCSV}
	if strings.HasSuffix(path, "metrics.csv") {
		l.Format = gpulog.FormatCSVColumns
	}
	for g := range gpus {
		l.GPUs = append(l.GPUs, gpulog.GPU{Index: g})
	}
	for i := range n {
		for g := range gpus {
			l.Samples = append(l.Samples, gpulog.GPUSample{Time: t0.Add(time.Duration(i) * time.Second), GPU: g, MemoryUsed: used(g, i) << 20})
		}
	}
	return l
}

func TestSeparateHosts(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	busy := func(base int64) func(g, i int) int64 {
		return func(g, i int) int64 { return base + 1000*int64(g) + 10*int64(i) }
	}
	tests := []struct {
		name string
		logs []*gpulog.GPULog
		// first are the lowest GPU index of each log wanted after; note
		// says whether a note is wanted.
		first []int
		note  bool
	}{
		{"two nodes of two GPUs", []*gpulog.GPULog{
			hostLog("node0/gpu.csv", 2, 20, t0, busy(3000)), hostLog("node1/gpu.csv", 2, 20, t0, busy(9000))}, []int{0, 2}, true},
		{"three nodes, one of eight GPUs", []*gpulog.GPULog{
			hostLog("a/gpu.csv", 8, 10, t0, busy(3000)), hostLog("b/gpu.csv", 2, 10, t0, busy(40000)), hostLog("c/gpu.csv", 2, 10, t0, busy(60000))},
			[]int{0, 8, 10}, true},
		// Nodes in the natural order of their paths, as a labelled log's
		// machines (gpulog): node2 before node10, though "node10" sorts
		// first byte by byte.
		{"node2 before node10", []*gpulog.GPULog{
			hostLog("node10/gpu.csv", 2, 20, t0, busy(9000)), hostLog("node2/gpu.csv", 2, 20, t0, busy(3000))}, []int{2, 0}, true},
		// Two loggers on one machine read within a few MiB of each other.
		{"one machine, two loggers", []*gpulog.GPULog{
			hostLog("gpu.csv", 2, 20, t0, busy(3000)), hostLog("dmon.log", 2, 20, t0.Add(300*time.Millisecond), busy(3004))}, []int{0, 0}, false},
		// Logs of different times cannot be compared: one machine, as
		// before.
		{"one after the other", []*gpulog.GPULog{
			hostLog("day1.csv", 2, 20, t0, busy(3000)), hostLog("day2.csv", 2, 20, t0.Add(time.Hour), busy(9000))}, []int{0, 0}, false},
		// A script's CSV may log PyTorch's allocated memory as "used": it
		// differs from nvidia-smi's on the same GPU, and is no machine.
		{"a script's own memory column", []*gpulog.GPULog{
			hostLog("gpu.csv", 2, 20, t0, busy(9000)), hostLog("metrics.csv", 2, 20, t0, busy(3000))}, []int{0, 0}, false},
		// Two idle readings alike are no evidence either way.
		{"too few readings", []*gpulog.GPULog{
			hostLog("node0/gpu.csv", 1, 2, t0, busy(3000)), hostLog("node1/gpu.csv", 1, 2, t0, busy(9000))}, []int{0, 0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := separateHosts(tt.logs)
			for i, l := range tt.logs {
				if got := l.Samples[0].GPU; got != tt.first[i] || l.GPUs[0].Index != tt.first[i] {
					t.Errorf("%s: first GPU %d (listed %d), want %d", l.Path, got, l.GPUs[0].Index, tt.first[i])
				}
			}
			if tt.note != (len(notes) == 1 && notes[0].Kind == NoteMachinesNumbered) {
				t.Fatalf("notes %+v, want a note: %v", notes, tt.note)
			}
			if tt.note {
				var moved []MovedLog
				for i, l := range tt.logs {
					if tt.first[i] > 0 {
						moved = append(moved, MovedLog{Path: l.Path, FirstGPU: tt.first[i]})
					}
				}
				if m := notes[0].Machines; !slices.Equal(m.Moved, moved) || m.Machines != len(moved)+1 {
					t.Errorf("note says %+v, want %d machines, moved %+v", m, len(moved)+1, moved)
				}
			}
		})
	}
}
