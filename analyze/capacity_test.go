package analyze

import (
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestOOMMessageCapacity: a device whose capacity no GPU log, option or
// manifest gives takes the total capacity of a training-log OOM message
// of its rank and device; a message of the exact rank wins over one
// without a rank, one naming another device or giving no capacity is
// not used.
func TestOOMMessageCapacity(t *testing.T) {
	const gib = int64(1) << 30
	oom := func(rank, dev, line int, capacity int64) gpulog.TrainingOOM {
		return gpulog.TrainingOOM{Rank: rank, Device: dev, Line: line, Capacity: capacity}
	}
	logs := []*gpulog.GPULog{
		{Source: input.Source{Path: "a/train.log"}, OOMs: []gpulog.TrainingOOM{oom(input.NoRank, 0, 7, 79*gib), oom(1, 1, 9, 40*gib)}},
		{Source: input.Source{Path: "b/rank2.log"}, OOMs: []gpulog.TrainingOOM{oom(2, 0, 3, 0), oom(2, 0, 5, 24*gib), oom(3, -1, 6, 48*gib)}},
	}
	tests := []struct {
		key  DeviceKey
		want int64
		src  string
	}{
		{DeviceKey{Rank: input.NoRank, Device: 0}, 79 * gib, "a/train.log line 7"},
		{DeviceKey{Rank: 0, Device: 0}, 79 * gib, "a/train.log line 7"}, // a message without a rank
		{DeviceKey{Rank: 2, Device: 0}, 24 * gib, "b/rank2.log line 5"}, // its own rank's, with a capacity
		{DeviceKey{Rank: 1, Device: 1}, 40 * gib, "a/train.log line 9"}, // its device
		{DeviceKey{Rank: 3, Device: 4}, 48 * gib, "b/rank2.log line 6"}, // a message naming no device
		{DeviceKey{Rank: 1, Device: 0}, 79 * gib, "a/train.log line 7"}, // rank 1's message names cuda:1
		{DeviceKey{Rank: 4, Device: 2}, 0, ""},                          // none for it
	}
	for _, tt := range tests {
		got, src, ok := oomMessageCapacity(logs, tt.key)
		if got != tt.want || src != tt.src || ok != (tt.want > 0) {
			t.Errorf("%+v: %d %q %v, want %d %q", tt.key, got, src, ok, tt.want, tt.src)
		}
	}
}
