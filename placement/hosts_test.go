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

// TestSeparateHostsByIdentity: logs of different times cannot be compared
// by their readings; what they say of their GPUs tells machines apart.
func TestSeparateHostsByIdentity(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	flat := func(g, i int) int64 { return 3000 }
	with := func(l *gpulog.GPULog, g gpulog.GPU) *gpulog.GPULog {
		l.GPUs[0].UUID, l.GPUs[0].BusID, l.GPUs[0].Name, l.GPUs[0].MemoryTotal = g.UUID, g.BusID, g.Name, g.MemoryTotal
		return l
	}
	const gib = 1 << 30
	tests := []struct {
		name string
		a, b gpulog.GPU
		want int // b's first GPU after
	}{
		{"different products", gpulog.GPU{Name: "NVIDIA H100 80GB HBM3", MemoryTotal: 80 * gib}, gpulog.GPU{Name: "Tesla V100-PCIE-32GB", MemoryTotal: 32 * gib}, 1},
		{"a driver that puts NVIDIA before the name renames no GPU", gpulog.GPU{Name: "A100-SXM4-80GB"}, gpulog.GPU{Name: "NVIDIA A100-SXM4-80GB"}, 0},
		{"nor a GeForce", gpulog.GPU{Name: "GeForce RTX 3090"}, gpulog.GPU{Name: "NVIDIA GeForce RTX 3090"}, 0},
		{"a name cut by a table is the same product", gpulog.GPU{Name: "NVIDIA GeForce RTX 3060 L"}, gpulog.GPU{Name: "NVIDIA GeForce RTX 3060 Laptop GPU"}, 0},
		{"different UUIDs, same product", gpulog.GPU{UUID: "GPU-aaaa", Name: "NVIDIA A100-SXM4-80GB"}, gpulog.GPU{UUID: "GPU-bbbb", Name: "NVIDIA A100-SXM4-80GB"}, 1},
		{"one UUID, names spelled apart", gpulog.GPU{UUID: "GPU-aaaa", Name: "A100"}, gpulog.GPU{UUID: "gpu-AAAA", Name: "NVIDIA A100-SXM4-80GB"}, 0},
		{"different slots", gpulog.GPU{BusID: "00000000:01:00.0"}, gpulog.GPU{BusID: "00000000:CA:00.0"}, 1},
		{"ECC on and off", gpulog.GPU{MemoryTotal: 48 * gib}, gpulog.GPU{MemoryTotal: 45 * gib}, 0},
		{"sizes of two products", gpulog.GPU{MemoryTotal: 80 * gib}, gpulog.GPU{MemoryTotal: 40 * gib}, 1},
		{"nothing said", gpulog.GPU{}, gpulog.GPU{Name: "NVIDIA L40S"}, 0},
		{"same product, same slot: two days of one machine", gpulog.GPU{Name: "NVIDIA L40S", BusID: "00000000:4A:00.0"}, gpulog.GPU{Name: "NVIDIA L40S", BusID: "00000000:4A:00.0"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := with(hostLog("day1.log", 1, 20, t0, flat), tt.a)
			b := with(hostLog("day2.log", 1, 20, t0.Add(24*time.Hour), flat), tt.b)
			notes := separateHosts([]*gpulog.GPULog{a, b})
			if got := b.Samples[0].GPU; got != tt.want || a.Samples[0].GPU != 0 {
				t.Errorf("first GPUs %d and %d, want 0 and %d", a.Samples[0].GPU, got, tt.want)
			}
			if (len(notes) == 1) != (tt.want > 0) {
				t.Errorf("notes %+v", notes)
			}
			if len(notes) == 1 && (!notes[0].Machines.ByIdentity || notes[0].Machines.ByReadings) {
				t.Errorf("note's evidence %+v, want by identity alone", notes[0].Machines)
			}
		})
	}
}
