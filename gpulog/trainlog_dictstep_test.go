package gpulog_test

import (
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestMemoryStatsDictStepBefore: a printed memory_stats() dict whose line
// names no step takes the step of the nearest step line before it, of
// the same rank, with no reading between; a second dict after the same
// step line, or one after another rank's step line, has none. Framework
// lines name no device (DeviceAssumed).
func TestMemoryStatsDictStepBefore(t *testing.T) {
	dict := func(alloc int) string {
		return "OrderedDict([('active_bytes.all.current', 10), ('allocated_bytes.all.current', " + itoa(alloc) + "), ('num_ooms', 0), ('reserved_bytes.all.current', 4000000000)])\n"
	}
	tests := []struct {
		name string
		text string
		want []int64
	}{{
		name: "step line before each dict",
		text: "epoch 0 step 500\n" + dict(1000) + "epoch 0 step 1000\n" + dict(2000),
		want: []int64{500, 1000},
	}, {
		name: "a log line between",
		text: "epoch 0 step 500\nloss 1.9\n" + dict(1000),
		want: []int64{500},
	}, {
		name: "two dicts after one step line",
		text: "step 500\n" + dict(1000) + dict(2000),
		want: []int64{500, input.NoStep},
	}, {
		name: "a dict before any step",
		text: dict(1000) + "step 500\n",
		want: []int64{input.NoStep},
	}, {
		name: "another rank's step line",
		text: "[rank1]: step 500\n[rank0]: " + dict(1000),
		want: []int64{input.NoStep},
	}, {
		name: "the same rank's step line",
		text: "[rank0]: step 500\n[rank0]: " + dict(1000),
		want: []int64{500},
	}, {
		name: "the step on the dict's own line wins",
		text: "step 500\nstep 600 " + dict(1000),
		want: []int64{600},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.MemoryStats) != len(tt.want) {
				t.Fatalf("%d readings, want %d", len(l.MemoryStats), len(tt.want))
			}
			for i, w := range tt.want {
				if r := l.MemoryStats[i]; r.Step != w || !r.DeviceAssumed {
					t.Errorf("reading %d: step %d assumed %v, want step %d, assumed", i, r.Step, r.DeviceAssumed, w)
				}
			}
		})
	}
}
