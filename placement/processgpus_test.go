package placement

import (
	"testing"

	"gpureport/gpulog"
)

func TestResolveProcessGPUs(t *testing.T) {
	query := &gpulog.GPULog{GPUs: []gpulog.GPU{{Index: 0, UUID: "GPU-a"}, {Index: 1, BusID: "00000000:02:00.0"}}}
	apps := &gpulog.GPULog{Processes: []gpulog.ProcessSample{
		{GPU: -1, UUID: "GPU-a"}, {GPU: -1, BusID: "00000000:02:00.0"}, {GPU: -1, UUID: "GPU-z"}, {GPU: 3}}}
	if n := resolveProcessGPUs([]*gpulog.GPULog{query, apps}); n != 2 {
		t.Errorf("resolved %d, want 2", n)
	}
	for i, want := range []int{0, 1, -1, 3} {
		if got := apps.Processes[i].GPU; got != want {
			t.Errorf("process %d: GPU %d, want %d", i, got, want)
		}
	}
}
