package analyze

import (
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/placement"
)

// TestCaptureUUIDJoin: the GPU UUID a capture manifest gives a rank's
// device decides its GPU log, before tracking: with the UUID of the GPU
// that tracks the device, and with the UUID of a GPU that does not.
func TestCaptureUUIDJoin(t *testing.T) {
	uuids := map[int]string{0: "GPU-aaaaaaaa-0000-4000-8000-000000000000", 1: "GPU-bbbbbbbb-0000-4000-8000-000000000001"}
	for _, tt := range []struct {
		name     string
		manifest string // the UUID the manifest gives rank 0's cuda:0 ("" none)
		want     int
		method   placement.JoinMethod
	}{
		{"no manifest: tracking", "", 1, placement.JoinByTracking},
		{"manifest names the tracking GPU", uuids[1], 1, placement.JoinByUUID},
		{"manifest names the other GPU, in nvidia-smi's case", strings.ToUpper(uuids[0]), 0, placement.JoinByUUID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sp := synthSpec{n: 12, seed: 3, rank: 0}
			fs := sp.files()
			l := sp.log(fs, 1)
			other := &gpulog.GPULog{}
			gpuTrace(other, 0, sp.n, func(float64) int64 { return 70 * gib })
			l.Samples = append(l.Samples, other.Samples...)
			l.GPUs = []gpulog.GPU{{Index: 0, UUID: uuids[0]}, {Index: 1, UUID: uuids[1]}}
			run := &ingest.Run{Dir: "synth", Snapshots: fs, Logs: []*gpulog.GPULog{l}}
			if tt.manifest != "" {
				run.Captures = []*ingest.CaptureManifest{{Path: "rank0/gpureport-capture.json", Rank: 0,
					Device: &ingest.CaptureDevice{Index: 0, UUID: tt.manifest}}}
			}
			f := Analyze(run, Options{})
			d := f.Devices[0]
			if d.GPU == nil || d.GPUIndex != tt.want || d.GPUJoinMethod != tt.method {
				t.Fatalf("joined GPU %d by %s (%+v), want GPU %d by %s", d.GPUIndex, d.GPUJoinMethod, d.GPUJoin, tt.want, tt.method)
			}
			if tt.method == placement.JoinByUUID {
				if d.GPUJoin.ID.Manifest != "rank0/gpureport-capture.json" {
					t.Errorf("join %+v does not name the manifest", d.GPUJoin)
				}
				if got := f.Capture.UUIDJoins; len(got) != 1 || got[0] != d.DeviceKey {
					t.Errorf("UUID joins %v, want %v", got, d.DeviceKey)
				}
			}
		})
	}
}

// TestCaptureCapacity: a capture manifest's device memory is a device's
// capacity when neither --capacity nor a GPU log gives one, and says so;
// a manifest of another device gives none.
func TestCaptureCapacity(t *testing.T) {
	const manifest = "rank0/gpureport-capture.json"
	for _, tt := range []struct {
		name     string
		log      bool  // the run has a GPU log of the device (80 GiB)
		option   int64 // --capacity
		device   int   // the manifest's CUDA device
		want     int64
		wantFrom CapacitySource
	}{
		{"manifest only", false, 0, 0, 40 * gib, CapacitySource{Manifest: manifest}},
		{"manifest of another device", false, 0, 1, 0, CapacitySource{}},
		{"a GPU log wins", true, 0, 0, 80 * gib, CapacitySource{}},
		{"--capacity wins", false, 24 * gib, 0, 24 * gib, CapacitySource{Option: "--capacity"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sp := synthSpec{n: 8, seed: 3, rank: 0}
			run := sp.run()
			if !tt.log {
				run.Logs = nil
			}
			run.Captures = []*ingest.CaptureManifest{{Path: manifest, Rank: 0, Device: &ingest.CaptureDevice{Index: tt.device, TotalMemory: 40 * gib}}}
			f := Analyze(run, Options{Capacity: tt.option})
			d := f.Devices[0]
			if d.Capacity != tt.want || d.CapacitySource != tt.wantFrom {
				t.Errorf("capacity %d from %+v, want %d from %+v", d.Capacity, d.CapacitySource, tt.want, tt.wantFrom)
			}
		})
	}
}
