package analyze

import (
	"slices"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
)

// TestMIGDevicesApart: a DCGM or nvidia-smi XML log's MIG devices are
// devices of their own; beside snapshot devices (which no MIG UUID joins
// them to) a note says they are shown apart, and a logs-only run needs no
// such note.
func TestMIGDevicesApart(t *testing.T) {
	migLog := func() *gpulog.GPULog {
		l := &gpulog.GPULog{Source: input.Source{Path: "dcgm.prom"}}
		for i := range 30 {
			l.MIG = append(l.MIG, gpulog.MIGSample{Time: t0.Add(time.Duration(i) * time.Minute), GPU: 1, MIG: 0, GPUInstance: 7, ComputeInstance: -1,
				MemoryUsed: 5*gib + int64(i)*mib, MemoryTotal: 10 * gib})
		}
		return l
	}
	mig := DeviceKey{Rank: input.NoRank, Device: 1, MIG: "GI 7"}
	for _, tt := range []struct {
		name      string
		snapshots bool
		note      bool
	}{
		{"beside snapshots", true, true},
		{"logs only", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := &ingest.Run{Dir: "synth", Location: time.UTC, Logs: []*gpulog.GPULog{migLog()}}
			if tt.snapshots {
				run = synthSpec{n: 8, seed: 3, rank: 0}.run()
				run.Logs = append(run.Logs, migLog())
			}
			f := Analyze(run, Options{})
			if !slices.ContainsFunc(f.Devices, func(d *Device) bool { return d.DeviceKey == mig && d.Capacity == 10*gib }) {
				t.Fatalf("no MIG device %v among %d devices", mig, len(f.Devices))
			}
			want := Note{Kind: NoteMIGApart, Device: mig, Count: 1}
			if got := slices.Contains(f.Notes, want); got != tt.note {
				t.Errorf("note %+v: %v, want %v (notes %+v)", want, got, tt.note, f.Notes)
			}
		})
	}
}
