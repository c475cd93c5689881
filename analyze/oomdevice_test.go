package analyze

import (
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
)

// oomMessage is a training-log OOM message on line line: PyTorch's
// "CUDA out of memory" with a total capacity (gpu -1: a message that names
// no GPU and gives no figures, as a raw CUDA error).
func oomMessage(line, rank, gpu int, capacity int64) gpulog.TrainingOOM {
	m := gpulog.TrainingOOM{Line: line, Count: 1, Kind: gpulog.OOMTorch, Rank: rank, Device: gpu, Requested: 2 * gib,
		Capacity: capacity, Free: 1 * gib, Allocated: 30 * gib, ReservedUnallocated: 512 * mib, Reserved: 30*gib + 512*mib,
		ProcessInUse: 31 * gib}
	if gpu < 0 {
		m.Kind, m.Requested, m.Capacity, m.Free, m.Allocated, m.ReservedUnallocated, m.Reserved, m.ProcessInUse = gpulog.OOMCUDAError,
			gpulog.Unknown, gpulog.Unknown, gpulog.Unknown, gpulog.Unknown, gpulog.Unknown, gpulog.Unknown, gpulog.Unknown
	}
	return m
}

// oomStatsLog is a training log at path holding 30 flat memory_stats
// readings of each device in devs (no rank on the lines; from line 10 on)
// and the OOM messages ooms, which come before them.
func oomStatsLog(path string, devs []int, ooms ...gpulog.TrainingOOM) *gpulog.GPULog {
	var rs []statsReading
	for _, dev := range devs {
		rs = append(rs, statsSeries(30, func(i int) statsReading {
			r := flatStats(i)
			r.device = dev
			return r
		})...)
	}
	l := statsLog(path, rs)
	for i := range l.MemoryStats {
		l.MemoryStats[i].Line = 10 + i
	}
	l.OOMs = ooms
	return l
}

// TestLogOOMDeviceAgrees: the device a training-log OOM message belongs to
// is decided once, and the OOM finding, the capacity the message gives and
// the count of a memory_stats device's logged OOMs all follow it. Each case
// is one where they disagreed when each decided alone.
func TestLogOOMDeviceAgrees(t *testing.T) {
	type want struct {
		capacity int64 // the device's capacity (0: none)
		source   string
		logged   int64 // MemoryStats.OOMsLogged
	}
	tests := []struct {
		name string
		logs []*gpulog.GPULog
		// oomKey is the OOM finding's rank and device.
		oomKey  DeviceKey
		devices map[DeviceKey]want
	}{
		{
			// Each rank's log numbers its own device cuda:0; the message has
			// no rank prefix: it is rank 1's, by its log's path, for all
			// three (the OOM finding named no rank, and rank 0's device took
			// rank 1's capacity).
			name: "ranked logs",
			logs: []*gpulog.GPULog{oomStatsLog("rank0.log", []int{0}),
				oomStatsLog("rank1.log", []int{0}, oomMessage(2, input.NoRank, 0, 40*gib))},
			oomKey: DeviceKey{Rank: 1, Device: 0},
			devices: map[DeviceKey]want{
				{Rank: 0, Device: 0}: {},
				{Rank: 1, Device: 0}: {capacity: 40 * gib, source: "rank1.log line 2", logged: 1},
			},
		},
		{
			// A wrapper printed the nvidia-smi index (CUDA_VISIBLE_DEVICES=2):
			// the process's only device is the one (the capacity and the
			// count looked for a device 2).
			name:   "physical index, the only device",
			logs:   []*gpulog.GPULog{oomStatsLog("train.log", []int{0}, oomMessage(1, input.NoRank, 2, 79*gib))},
			oomKey: DeviceKey{Rank: input.NoRank, Device: 0},
			devices: map[DeviceKey]want{
				{Rank: input.NoRank, Device: 0}: {capacity: 79 * gib, source: "train.log line 1", logged: 1},
			},
		},
		{
			// A message naming no GPU, of a process with two devices: its
			// default device, cuda:0 (the count gave it to both).
			name:   "no GPU named, two devices",
			logs:   []*gpulog.GPULog{oomStatsLog("train.log", []int{0, 1}, oomMessage(1, input.NoRank, -1, 0))},
			oomKey: DeviceKey{Rank: input.NoRank, Device: 0},
			devices: map[DeviceKey]want{
				{Rank: input.NoRank, Device: 0}: {logged: 1},
				{Rank: input.NoRank, Device: 1}: {},
			},
		},
		{
			// The message is shown from a console copy (the first file),
			// but the log of the readings prints it before them: the
			// readings' num_ooms counts it (it read as an OOM before the
			// log started).
			name: "a copy in another file",
			logs: []*gpulog.GPULog{{Source: input.Source{Path: "console.out"}, OOMs: []gpulog.TrainingOOM{oomMessage(1, input.NoRank, 0, 79*gib)}},
				oomStatsLog("train.log", []int{0}, oomMessage(4, input.NoRank, 0, 79*gib))},
			oomKey: DeviceKey{Rank: input.NoRank, Device: 0},
			devices: map[DeviceKey]want{
				{Rank: input.NoRank, Device: 0}: {capacity: 79 * gib, source: "console.out line 1", logged: 1},
			},
		},
		{
			// A GPU no device of the run has (and two devices to choose
			// from): the OOM stays on the GPU it names, and gives neither
			// device a capacity or a count.
			name:   "a device the run does not have",
			logs:   []*gpulog.GPULog{oomStatsLog("train.log", []int{0, 1}, oomMessage(1, input.NoRank, 5, 79*gib))},
			oomKey: DeviceKey{Rank: input.NoRank, Device: 5},
			devices: map[DeviceKey]want{
				{Rank: input.NoRank, Device: 0}: {},
				{Rank: input.NoRank, Device: 1}: {},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(&ingest.Run{Dir: "run", Location: time.UTC, Logs: tt.logs}, Options{})
			if len(f.OOMs) != 1 || (DeviceKey{Rank: f.OOMs[0].Rank, Device: f.OOMs[0].Device}) != tt.oomKey {
				t.Errorf("OOMs %+v, want one on %+v", f.OOMs, tt.oomKey)
			}
			if len(f.Devices) != len(tt.devices) {
				t.Fatalf("%d devices, want %d", len(f.Devices), len(tt.devices))
			}
			for _, d := range f.Devices {
				w, ok := tt.devices[d.DeviceKey]
				if !ok {
					t.Fatalf("device %+v, want one of %v", d.DeviceKey, tt.devices)
				}
				if d.Capacity != w.capacity || d.CapacitySource.OOMMessage != w.source {
					t.Errorf("device %+v: capacity %d from %q, want %d from %q", d.DeviceKey, d.Capacity, d.CapacitySource.OOMMessage, w.capacity, w.source)
				}
				if d.MemoryStats == nil {
					t.Fatalf("device %+v: no memory_stats", d.DeviceKey)
				}
				if d.MemoryStats.OOMsLogged != w.logged {
					t.Errorf("device %+v: %d OOMs logged, want %d", d.DeviceKey, d.MemoryStats.OOMsLogged, w.logged)
				}
			}
		})
	}
}

// pathRank is the rank a log's path gives, as placement.Run.LogRank reads
// it without rank folders to number.
func pathRank(l *gpulog.GPULog) int { return ingest.RankFromPath(l.Path) }

// TestVisibleDevicesOOM: in a run known from GPU logs alone (devices
// numbered by nvidia-smi index), an OOM message's "GPU 0" is the GPU the
// log's CUDA_VISIBLE_DEVICES setting before it maps CUDA device 0 to; a
// number past the list (an nvidia-smi index), a setting after the message
// or none, and a run whose device has the process's numbering (a
// snapshot's, joined to its GPU) keep the message's number.
func TestVisibleDevicesOOM(t *testing.T) {
	gpuOnly := func(n int) []*Device {
		var out []*Device
		for g := range n {
			out = append(out, &Device{DeviceKey: DeviceKey{Rank: input.NoRank, Device: g}, GPU: &GPUSeries{}, GPUIndex: g, GPUJoinMethod: placement.JoinByIndex})
		}
		return out
	}
	withSnapshots := []*Device{{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 0}, GPU: &GPUSeries{}, GPUIndex: 3,
		GPUJoin: &Join{}, GPUJoinMethod: placement.JoinByIndex, Points: []Point{{}}}}
	vis := func(line int, gpus ...int) gpulog.VisibleDevices {
		return gpulog.VisibleDevices{Line: line, Rank: input.NoRank, GPUs: gpus}
	}
	for _, tt := range []struct {
		name    string
		visible []gpulog.VisibleDevices
		gpu     int
		devices []*Device
		want    int
	}{
		{"CUDA_VISIBLE_DEVICES=3, GPU 0", []gpulog.VisibleDevices{vis(1, 3)}, 0, gpuOnly(4), 3},
		{"CUDA_VISIBLE_DEVICES=2,3, GPU 1", []gpulog.VisibleDevices{vis(1, 2, 3)}, 1, gpuOnly(4), 3},
		{"the latest setting before the message", []gpulog.VisibleDevices{vis(1, 1), vis(2, 2), vis(9, 0)}, 0, gpuOnly(4), 2},
		{"a message naming no GPU", []gpulog.VisibleDevices{vis(1, 2)}, -1, gpuOnly(4), 2},
		{"no setting", nil, 0, gpuOnly(4), 0},
		{"a launch line without a setting ends it", []gpulog.VisibleDevices{vis(1, 7), vis(2)}, 0, gpuOnly(8), 0},
		{"a setting after the message", []gpulog.VisibleDevices{vis(9, 3)}, 0, gpuOnly(4), 0},
		{"a number past the list: an nvidia-smi index", []gpulog.VisibleDevices{vis(1, 3)}, 2, gpuOnly(4), 2},
		{"no log of the GPU mapped to", []gpulog.VisibleDevices{vis(1, 6)}, 0, gpuOnly(4), 0},
		{"a snapshot device, joined to GPU 3", []gpulog.VisibleDevices{vis(1, 3)}, 0, withSnapshots, 0},
	} {
		l := &gpulog.GPULog{Source: input.Source{Path: "train.log"}, VisibleDevices: tt.visible,
			OOMs: []gpulog.TrainingOOM{oomMessage(4, input.NoRank, tt.gpu, 79*gib)}}
		placed := placeLogOOMs([]*gpulog.GPULog{l}, pathRank, tt.devices)
		if len(placed) != 1 || placed[0].key.Device != tt.want {
			t.Errorf("%s: placed %+v, want on device %d", tt.name, placed, tt.want)
		}
	}
}
