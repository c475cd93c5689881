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
		// A per-epoch count: "iter 90/100" before every dict; the
		// epoch and the epoch's length give the global step.
		name: "epoch and a count that restarts",
		text: "epoch 0 iter 90/100 loss 2\n" + dict(1000) + "epoch 1 iter 90/100 loss 2\n" + dict(2000) + "epoch 2 iter 90/100\n" + dict(3000),
		want: []int64{90, 190, 290},
	}, {
		name: "Epoch [E/T] Step [i/N]",
		text: "Epoch [1/3] Step [50/50]\n" + dict(1000) + "Epoch [2/3] Step [50/50]\n" + dict(2000),
		want: []int64{100, 150},
	}, {
		// Steps that repeat with no epoch length: log order, as
		// before steps were taken from the line above.
		name: "a count that restarts, no epoch length",
		text: "epoch 0 iter 90\n" + dict(1000) + "epoch 1 iter 90\n" + dict(2000) + "epoch 2 iter 90\n" + dict(3000),
		want: []int64{input.NoStep, input.NoStep, input.NoStep},
	}, {
		name: "steps that go back",
		text: "step 500\n" + dict(1000) + "step 200\n" + dict(2000),
		want: []int64{input.NoStep, input.NoStep},
	}, {
		// A global step beside the epoch increases alone: kept.
		name: "a global step beside the epoch",
		text: "epoch 0 step 500/3000\n" + dict(1000) + "epoch 1 step 1500/3000\n" + dict(2000),
		want: []int64{500, 1500},
	}, {
		// Each rank's steps are checked alone.
		name: "two ranks interleaved",
		text: "[rank0]: step 100\n[rank0]: " + dict(1000) + "[rank1]: step 100\n[rank1]: " + dict(1000) +
			"[rank0]: step 200\n[rank0]: " + dict(2000) + "[rank1]: step 200\n[rank1]: " + dict(2000),
		want: []int64{100, 100, 200, 200},
	}, {
		// The count on the dict's own line restarts too.
		name: "epoch and count on the dict's line",
		text: "epoch 0 iter 90/100 " + dict(1000) + "epoch 1 iter 90/100 " + dict(2000),
		want: []int64{90, 190},
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
