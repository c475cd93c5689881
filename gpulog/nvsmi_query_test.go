package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// queryDoc is one `nvidia-smi -q` document of two GPUs at stamp: GPU 0
// uses used0 MiB and runs one process, GPU 1 is idle and reports power
// the way drivers before 535 did.
func queryDoc(stamp string, used0 int) string {
	return fmt.Sprintf(`
==============NVSMI LOG==============

Timestamp                                 : %s
Driver Version                            : 535.54.03
CUDA Version                              : 12.2

Attached GPUs                             : 2
GPU 00000000:01:00.0
    Product Name                          : NVIDIA A100-SXM4-80GB
    GPU UUID                              : GPU-aaaa
    FB Memory Usage
        Total                             : 81559 MiB
        Reserved                          : 569 MiB
        Used                              : %d MiB
        Free                              : 1000 MiB
    BAR1 Memory Usage
        Total                             : 131072 MiB
        Used                              : 1 MiB
        Free                              : 131071 MiB
    Utilization
        Gpu                               : 99 %%
        Memory                            : 40 %%
    GPU Power Readings
        Power Draw                        : 250.00 W
        Current Power Limit               : 400.00 W
    Processes
        GPU instance ID                   : N/A
        Compute instance ID               : N/A
        Process ID                        : 4242
            Type                          : C
            Name                          : python
            Used GPU Memory               : %d MiB

GPU 00000000:02:00.0
    Product Name                          : NVIDIA A100-SXM4-80GB
    GPU UUID                              : GPU-bbbb
    FB Memory Usage
        Total                             : 81559 MiB
        Reserved                          : 569 MiB
        Used                              : 3 MiB
        Free                              : 80987 MiB
    Power Readings
        Power Draw                        : 61.02 W
    Processes                             : None
`, stamp, used0, used0-500)
}

func TestReadQueryText(t *testing.T) {
	in := queryDoc("Thu Nov 26 12:00:00 2026", 40000) + queryDoc("Thu Nov 26 12:00:05 2026", 40100)
	if f, ok := gpulog.SniffLog([]byte(in)); !ok || f != gpulog.FormatQueryText {
		t.Errorf("SniffLog = %q, %v", f, ok)
	}
	runReadCases(t, []readCase{
		{name: "two documents", format: gpulog.FormatQueryText, in: in,
			samples: []sampleWant{
				{0, 40000 * logMiB, 81559 * logMiB, "2026-11-26T11:00:00Z"}, {1, 3 * logMiB, 81559 * logMiB, "2026-11-26T11:00:00Z"},
				{0, 40100 * logMiB, 81559 * logMiB, "2026-11-26T11:00:05Z"}, {1, 3 * logMiB, 81559 * logMiB, "2026-11-26T11:00:05Z"}},
			procs: []gpulog.ProcessSample{
				{GPU: 0, UUID: "GPU-aaaa", BusID: "00000000:01:00.0", PID: 4242, Name: "python", UsedMemory: 39500 * logMiB},
				{GPU: 0, UUID: "GPU-aaaa", BusID: "00000000:01:00.0", PID: 4242, Name: "python", UsedMemory: 39600 * logMiB}},
			gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				s0, s1 := l.Samples[0], l.Samples[1]
				if s0.MemoryReserved != 569*logMiB || s0.MemoryFree != 1000*logMiB || s0.UtilizationGPU != 99 || s0.UtilizationMemory != 40 || s0.PowerW != 250 {
					t.Errorf("GPU 0: %+v", s0)
				}
				if s1.PowerW != 61.02 {
					t.Errorf("GPU 1 power %v, want 61.02 (old Power Readings section)", s1.PowerW)
				}
				if g := l.GPUs[1]; g.UUID != "GPU-bbbb" || g.BusID != "00000000:02:00.0" || g.Name != "NVIDIA A100-SXM4-80GB" {
					t.Errorf("GPU 1: %+v", g)
				}
			}},
		// A bad value costs its line; a document cut mid-GPU (here inside
		// its Free line) keeps what was read.
		{name: "bad value, cut off", format: gpulog.FormatQueryText,
			in:      strings.Replace(queryDoc("Thu Nov 26 12:00:00 2026", 40000), "Total                             : 81559 MiB", "Total                             : lots", 1)[:600],
			samples: []sampleWant{{0, 40000 * logMiB, logNA, "2026-11-26T11:00:00Z"}}, gpus: 1, skipped: 2},
	})
}
