package analyze

import (
	"slices"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
)

// TestRankReadingsOnTheOOMsDevice: memory lines that name no device
// (gpulog.MemoryStatsSample.DeviceAssumed: Megatron-LM's "[Rank r] ...
// memory (MB)") are on the device the rank's own OOM message names, and
// the OOM is on that device, with a note; ranks without such a message,
// readings that name their device, messages naming two devices, and a
// message of another rank leave the readings where they were.
func TestRankReadingsOnTheOOMsDevice(t *testing.T) {
	// ranked are readings of ranks 1-4, each 30 flat readings; assumed
	// says the lines name no device.
	ranked := func(assumed bool, ooms ...gpulog.TrainingOOM) *gpulog.GPULog {
		var rs []statsReading
		for r := range 4 {
			rs = append(rs, statsSeries(30, func(i int) statsReading {
				s := flatStats(i)
				s.rank = r + 1
				return s
			})...)
		}
		l := statsLog("megatron.log", rs)
		for i := range l.MemoryStats {
			l.MemoryStats[i].DeviceAssumed = assumed
		}
		l.OOMs = ooms
		return l
	}
	tests := []struct {
		name string
		log  *gpulog.GPULog
		// devices are each rank's device, ranks 1-4; oom the OOM's.
		devices []int
		oom     DeviceKey
		note    bool
	}{
		{"rank 3's message names GPU 2", ranked(true, oomMessage(200, 3, 2, 80*gib)), []int{0, 0, 2, 0}, DeviceKey{Rank: 3, Device: 2}, true},
		{"its message names GPU 0", ranked(true, oomMessage(200, 3, 0, 80*gib)), []int{0, 0, 0, 0}, DeviceKey{Rank: 3, Device: 0}, false},
		{"readings that name their device", ranked(false, oomMessage(200, 3, 2, 80*gib)), []int{0, 0, 0, 0}, DeviceKey{Rank: 3, Device: 0}, false},
		{"a message of another rank", ranked(true, oomMessage(200, 5, 2, 80*gib)), []int{0, 0, 0, 0}, DeviceKey{Rank: 5, Device: 2}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(&ingest.Run{Dir: "run", Location: time.UTC, Logs: []*gpulog.GPULog{tt.log}}, Options{})
			var got []int
			for _, d := range f.Devices {
				if d.Rank == input.NoRank || d.Rank > 4 {
					continue
				}
				got = append(got, d.Device)
			}
			if !slices.Equal(got, tt.devices) {
				t.Errorf("devices by rank %v, want %v", got, tt.devices)
			}
			if len(f.OOMs) != 1 || f.OOMs[0].Key() != tt.oom {
				t.Errorf("OOMs %+v, want one on %+v", f.OOMs, tt.oom)
			}
			note := slices.ContainsFunc(f.Notes, func(n Note) bool { return n.Kind == NoteText && n.Device == tt.oom })
			if note != tt.note {
				t.Errorf("note on %+v: %v, want %v (notes %+v)", tt.oom, note, tt.note, f.Notes)
			}
		})
	}
	// Two messages of one rank naming two devices: which one the lines
	// are of is unknown.
	f := Analyze(&ingest.Run{Dir: "run", Location: time.UTC, Logs: []*gpulog.GPULog{
		ranked(true, oomMessage(200, 3, 2, 80*gib), oomMessage(300, 3, 3, 80*gib))}}, Options{})
	for _, d := range f.Devices {
		if d.Device != 0 {
			t.Errorf("device %+v, want every rank's readings on cuda:0", d.DeviceKey)
		}
	}
}
