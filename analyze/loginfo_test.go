package analyze

import (
	"slices"
	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
)

// TestLogInfoKinds: a log's sample count is split by kind of reading when
// it holds several kinds (a table's GPU readings and its process rows),
// and not split when it holds one.
func TestLogInfoKinds(t *testing.T) {
	mixed := stepLog(5, mib, false)
	mixed.Path = "nvidia-smi.log"
	for range 3 {
		mixed.Processes = append(mixed.Processes, gpulog.ProcessSample{GPU: 0, PID: 7, Name: "python", UsedMemory: 1 << 30})
	}
	plain := stepLog(5, mib, false)
	plain.Path = "gpu.csv"
	f := Analyze(&ingest.Run{Dir: "logs", Logs: []*gpulog.GPULog{mixed, plain}}, Options{})
	got := map[string]LogInfo{}
	for _, l := range f.Inputs.Logs {
		got[l.Path] = l
	}
	if m := got["nvidia-smi.log"]; m.Samples != 8 || !slices.Equal(m.Kinds, []ReadingCount{{ReadingGPU, 5}, {ReadingProcess, 3}}) {
		t.Errorf("mixed log: %d samples, kinds %+v", m.Samples, m.Kinds)
	}
	if p := got["gpu.csv"]; p.Samples != 5 || p.Kinds != nil {
		t.Errorf("GPU-only log: %d samples, kinds %+v", p.Samples, p.Kinds)
	}
}
