package gpulog_test

import (
	"encoding/json"
	"testing"

	"gpureport/gpulog"
)

// gpustatText is gpustat -a -p output, as a log of two queries: the
// second in colour, as `gpustat --color -i` writes it.
const gpustatText = `node7                        Thu Nov 26 12:00:00 2026  535.54.03
[0] NVIDIA A100-SXM4-80GB | 45°C,  16 %,  99 % (E:   0 %  D:   0 %),  250 / 400 W | 40000 / 81920 MB | alice:python/4242(39000M) bob:top/77(?M)
[1] NVIDIA A100-SXM4-80GB | 30°C,  ?? %,   0 % (E:  ?? %  D:  ?? %),   ?? / 400 W |     4 / 81920 MB |
` + "\x1b[1m\x1b[37mnode7\x1b[m  Thu Nov 26 12:00:05 2026  \x1b[1m\x1b[30m535.54.03\x1b[m\n" +
	"\x1b[36m[0]\x1b[m \x1b[34mNVIDIA A100-SXM4-80GB\x1b[m |\x1b[31m 46°C\x1b[m, \x1b[1m\x1b[32m 98 %\x1b[m | \x1b[36m\x1b[1m\x1b[33m40100\x1b[m / \x1b[33m81920\x1b[m MB | alice(39100M)\n"

func TestReadGpustat(t *testing.T) {
	if f, ok := gpulog.SniffLog([]byte(gpustatText)); !ok || f != gpulog.FormatGpustat {
		t.Errorf("SniffLog = %q, %v", f, ok)
	}
	noHeader := "[0] Tesla T4 | 40°C,   0 % |  1000 / 15109 MB | (Not Supported)\n[0] Tesla T4 | 41°C,   5 % |  1200 / 15109 MB |\n"
	if f, ok := gpulog.SniffLog([]byte(noHeader)); !ok || f != gpulog.FormatGpustat {
		t.Errorf("--no-header: SniffLog = %q, %v", f, ok)
	}
	runReadCases(t, []readCase{
		{name: "header, colours, full stats and processes", format: gpulog.FormatGpustat, in: gpustatText,
			samples: []sampleWant{
				{0, 40000 * logMiB, 81920 * logMiB, "2026-11-26T11:00:00Z"},
				{1, 4 * logMiB, 81920 * logMiB, "2026-11-26T11:00:00Z"},
				{0, 40100 * logMiB, 81920 * logMiB, "2026-11-26T11:00:05Z"}},
			// Processes with a pid are readings; bob's has no size.
			procs: []gpulog.ProcessSample{{GPU: 0, PID: 4242, Name: "python", UsedMemory: 39000 * logMiB}, {GPU: 0, PID: 77, Name: "top", UsedMemory: logNA}},
			gpus:  2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if s := l.Samples[0]; s.UtilizationGPU != 99 || s.PowerW != 250 {
					t.Errorf("utilization %v, power %v; want 99 and 250", s.UtilizationGPU, s.PowerW)
				}
				if s := l.Samples[2]; s.UtilizationGPU != 98 {
					t.Errorf("coloured line: utilization %v, want 98", s.UtilizationGPU)
				}
			}},
		{name: "no header: untimed", format: gpulog.FormatGpustat, in: noHeader + "garbage line\n",
			samples: []sampleWant{{0, 1000 * logMiB, 15109 * logMiB, ""}, {0, 1200 * logMiB, 15109 * logMiB, ""}}, gpus: 1, skipped: 1},
	})
}

func TestReadGpustatJSON(t *testing.T) {
	query := func(stamp string, used int) string {
		b, _ := json.MarshalIndent(map[string]any{
			"hostname": "node7", "driver_version": "535.54.03", "query_time": stamp,
			"gpus": []any{map[string]any{"index": 3, "uuid": "GPU-abc", "name": "NVIDIA H100", "utilization.gpu": 97, "power.draw": 600,
				"memory.used": used, "memory.total": 81559, "fan.speed": nil,
				"processes": []any{map[string]any{"pid": 4242, "command": "python", "gpu_memory_usage": used - 500, "username": "alice"}}}},
		}, "", "    ")
		return string(b) + "\n"
	}
	in := query("2026-11-26T12:00:00.250000", 30000) + query("2026-11-26T12:00:05.250000", 30100)
	if f, ok := gpulog.SniffLog([]byte(in)); !ok || f != gpulog.FormatGpustatJSON {
		t.Errorf("SniffLog = %q, %v", f, ok)
	}
	runReadCases(t, []readCase{
		{name: "two queries", format: gpulog.FormatGpustatJSON, in: in,
			samples: []sampleWant{{3, 30000 * logMiB, 81559 * logMiB, "2026-11-26T11:00:00.25Z"}, {3, 30100 * logMiB, 81559 * logMiB, "2026-11-26T11:00:05.25Z"}},
			procs: []gpulog.ProcessSample{{GPU: 3, UUID: "GPU-abc", PID: 4242, Name: "python", UsedMemory: 29500 * logMiB},
				{GPU: 3, UUID: "GPU-abc", PID: 4242, Name: "python", UsedMemory: 29600 * logMiB}},
			gpus: 1},
		// A cut last object keeps the ones before it.
		{name: "cut off", format: gpulog.FormatGpustatJSON, in: in[:len(in)-40],
			samples: []sampleWant{{3, 30000 * logMiB, 81559 * logMiB, ""}},
			procs:   []gpulog.ProcessSample{{GPU: 3, UUID: "GPU-abc", PID: 4242, Name: "python", UsedMemory: 29500 * logMiB}},
			gpus:    1, skipped: 1, kind: "unreadable JSON object"},
	})
}
