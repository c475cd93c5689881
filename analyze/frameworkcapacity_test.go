package analyze

import (
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestFrameworkCapacity: a device takes the capacity torchtitan printed
// for its rank (or, without a rank, for the run), never one printed for
// another device index.
func TestFrameworkCapacity(t *testing.T) {
	const gib = int64(1) << 30
	capa := func(rank, dev, line int, total int64) gpulog.DeviceCapacity {
		return gpulog.DeviceCapacity{Rank: rank, Device: dev, Line: line, Total: total, Framework: "torchtitan"}
	}
	logs := []*gpulog.GPULog{
		{Source: input.Source{Path: "a/train.log"}, Capacities: []gpulog.DeviceCapacity{capa(input.NoRank, -1, 2, 79*gib), capa(1, -1, 3, 40*gib)}},
		{Source: input.Source{Path: "b/old.log"}, Capacities: []gpulog.DeviceCapacity{capa(5, 3, 1, 24*gib)}},
	}
	tests := []struct {
		key  DeviceKey
		want int64
		src  string
	}{
		{DeviceKey{Rank: input.NoRank, Device: 0}, 79 * gib, "a/train.log line 2 (torchtitan)"},
		{DeviceKey{Rank: 1, Device: 0}, 40 * gib, "a/train.log line 3 (torchtitan)"}, // its own rank's
		{DeviceKey{Rank: 5, Device: 3}, 24 * gib, "b/old.log line 1 (torchtitan)"},
		{DeviceKey{Rank: 5, Device: 0}, 79 * gib, "a/train.log line 2 (torchtitan)"}, // rank 5's names device 3
	}
	for _, tt := range tests {
		got, src, ok := frameworkCapacity(logs, tt.key)
		if got != tt.want || src != tt.src || ok != (tt.want > 0) {
			t.Errorf("%+v: %d %q %v, want %d %q", tt.key, got, src, ok, tt.want, tt.src)
		}
	}
}
