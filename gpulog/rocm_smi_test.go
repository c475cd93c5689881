package gpulog_test

import (
	"strings"
	"testing"

	"gpureport/gpulog"
)

// rocmText is one `rocm-smi --showmeminfo vram` report of two GPUs of
// 64 GiB, as rocm_smi.py prints it (a tab pair after the device).
func rocmText(used0, used1 int64) string {
	const total = "68702699520"
	return "\n\n========================= ROCm System Management Interface =========================\n" +
		"=============================== Memory Usage (Bytes) ===============================\n" +
		"GPU[0]\t\t: VRAM Total Memory (B): " + total + "\n" +
		"GPU[0]\t\t: VRAM Total Used Memory (B): " + i64(used0) + "\n" +
		"GPU[1]\t\t: VRAM Total Memory (B): " + total + "\n" +
		"GPU[1]\t\t: VRAM Total Used Memory (B): " + i64(used1) + "\n" +
		"====================================================================================\n" +
		"=============================== End of ROCm SMI Log ================================\n"
}

// TestReadRocmSMI: rocm-smi's text, --csv and --json reports are
// readings of GPU N (GPU[N], cardN) in bytes, timed by the `date` line
// before them; VIS_VRAM and GTT are not device memory use.
func TestReadRocmSMI(t *testing.T) {
	const total = 68702699520
	gib := int64(1 << 30)
	cases := []readCase{
		{name: "date loop", format: gpulog.FormatRocmSMI,
			in: "Fri Mar  8 10:00:00 UTC 2024\n" + rocmText(10*gib, 3*gib) + "\nFri Mar  8 10:10:00 UTC 2024\n" + rocmText(12*gib, 3*gib),
			samples: []sampleWant{{0, 10 * gib, total, "2024-03-08T10:00:00Z"}, {1, 3 * gib, total, "2024-03-08T10:00:00Z"},
				{0, 12 * gib, total, "2024-03-08T10:10:00Z"}, {1, 3 * gib, total, "2024-03-08T10:10:00Z"}}, gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if l.GPUs[0].Index != 0 || l.GPUs[1].MemoryTotal != total || l.Zoneless {
					t.Errorf("GPUs %+v zoneless %v", l.GPUs, l.Zoneless)
				}
			}},
		{name: "single report, no date", format: gpulog.FormatRocmSMI, in: rocmText(5*gib, 6*gib),
			samples: []sampleWant{{0, 5 * gib, total, ""}, {1, 6 * gib, total, ""}}, gpus: 2},
		// ROCm 5's lower-case "vram" and --showmeminfo all's other pools;
		// two reports back to back without rules between.
		{name: "showmeminfo all, no rules", format: gpulog.FormatRocmSMI,
			in: "GPU[0] : vram Total Memory (B): 34342961152\nGPU[0] : vram Total Used Memory (B): 7426048\n" +
				"GPU[0] : vis_vram Total Memory (B): 268435456\nGPU[0] : GTT Total Used Memory (B): 11096064\n" +
				"GPU[0] : vram Total Memory (B): 34342961152\nGPU[0] : vram Total Used Memory (B): 9426048\n",
			samples: []sampleWant{{0, 7426048, 34342961152, ""}, {0, 9426048, 34342961152, ""}}, gpus: 1},
		{name: "csv with utilization, a warning line", format: gpulog.FormatRocmSMI,
			in: "device,GPU use (%),VRAM Total Memory (B),VRAM Total Used Memory (B)\ncard0,97,68702699520,10957766656\n" +
				"WARNING: One or more commands failed\ncard1,0,68702699520,30957766656\n",
			samples: []sampleWant{{0, 10957766656, total, ""}, {1, 30957766656, total, ""}}, gpus: 2, skipped: 1, kind: "not a rocm-smi line",
			check: func(t *testing.T, l *gpulog.GPULog) {
				if l.Samples[0].UtilizationGPU != 97 {
					t.Errorf("sample %+v", l.Samples[0])
				}
			}},
		{name: "csv in a date loop", format: gpulog.FormatRocmSMI,
			in: "2024-03-08T10:00:00Z\ndevice,VRAM Total Memory (B),VRAM Total Used Memory (B)\ncard0,68702699520,100\n" +
				"2024-03-08T10:00:10Z\ndevice,VRAM Total Memory (B),VRAM Total Used Memory (B)\ncard0,68702699520,200\ncard7,x,y\n",
			samples: []sampleWant{{0, 100, total, "2024-03-08T10:00:00Z"}, {0, 200, total, "2024-03-08T10:00:10Z"}}, gpus: 1, skipped: 1},
		{name: "json on one line with system", format: gpulog.FormatRocmSMI,
			in:      `{"card1": {"VRAM Total Memory (B)": "68702699520", "VRAM Total Used Memory (B)": "30957766656"}, "card0": {"GPU use (%)": "0", "VRAM Total Memory (B)": "68702699520", "VRAM Total Used Memory (B)": "10957766656"}, "system": {"Driver version": "6.7.0"}}` + "\n",
			samples: []sampleWant{{0, 10957766656, total, ""}, {1, 30957766656, total, ""}}, gpus: 2},
		{name: "pretty json in a date loop", format: gpulog.FormatRocmSMI,
			in: "Fri Mar  8 10:00:00 UTC 2024\n{\n  \"card0\": {\n    \"VRAM Total Memory (B)\": \"68702699520\",\n    \"VRAM Total Used Memory (B)\": \"1000\"\n  }\n}\n" +
				"Fri Mar  8 10:00:05 UTC 2024\n{\n  \"card0\": {\n    \"VRAM Total Memory (B)\": \"68702699520\",\n    \"VRAM Total Used Memory (B)\": \"2000\"\n  }\n}\n",
			samples: []sampleWant{{0, 1000, total, "2024-03-08T10:00:00Z"}, {0, 2000, total, "2024-03-08T10:00:05Z"}}, gpus: 1},
		{name: "json cut off", format: gpulog.FormatRocmSMI,
			in: "{\"card0\": {\"VRAM Total Used Memory (B)\": \"5\"}}\n{\n \"card0\": {\n", samples: []sampleWant{{0, 5, logNA, ""}}, gpus: 1,
			skipped: 1, kind: "unreadable rocm-smi JSON"},
		{name: "no vram", format: gpulog.FormatRocmSMI, in: "==== ROCm System Management Interface ====\nGPU[0] : GTT Total Memory (B): 5\n", err: "no readings"},
	}
	runReadCases(t, cases)
}

// TestSniffRocmSMI: each form of rocm-smi's memory report is claimed;
// other tools' banners and CSVs with a device column are not.
func TestSniffRocmSMI(t *testing.T) {
	cases := []struct {
		name, head string
		want       bool
	}{
		{"date then banner", "Fri Mar  8 10:00:00 UTC 2024\n\n\n" + rocmText(1, 2), true},
		{"field line first", "GPU[0]\t\t: VRAM Total Memory (B): 68702699520\n", true},
		{"csv", "device,VRAM Total Memory (B),VRAM Total Used Memory (B)\ncard0,1,2\n", true},
		{"json", `{"card0": {"VRAM Total Memory (B)": "1", "VRAM Total Used Memory (B)": "2"}}`, true},
		{"other csv with a device column", "device,loss,step\ncuda:0,1.0,3\n", false},
		{"json without cards", `{"VRAM Total Memory (B)": "1"}`, false},
		{"gtt only field line", "GPU[0] : GTT Total Memory (B): 5\n", false},
		{"showmemuse field line", "GPU[0]\t\t: GPU Memory Allocated (VRAM%): 45\n", true},
		{"showmemuse csv", "device,GPU use (%),GPU Memory Allocated (VRAM%)\ncard0,90,4\n", true},
		{"showmemuse json", `{"card0": {"GPU use (%)": "7", "GPU Memory Allocated (VRAM%)": "13"}}`, true},
		{"old memory busy line", "GPU[0] : GPU memory use (%): 45\n", false},
	}
	for _, c := range cases {
		f, ok := gpulog.SniffLog([]byte(c.head))
		if got := ok && f == gpulog.FormatRocmSMI; got != c.want {
			t.Errorf("%s: sniffed %q %v, want rocm-smi %v", c.name, f, ok, c.want)
		}
	}
	if !strings.Contains(rocmText(1, 2), "GPU[1]") {
		t.Fatal("rocmText")
	}
}

// rocmMemUse is one `rocm-smi --showuse --showmemuse` report of GPU 0
// (rocm_smi.py's layout), with --showmeminfo vram's lines when total is
// not "".
func rocmMemUse(pct, total string) string {
	s := "============================ ROCm System Management Interface ============================\n" +
		"=================================== % time GPU is busy ===================================\n" +
		"GPU[0]\t\t: GPU use (%): 99\n" +
		"==================================== Current Memory Use ====================================\n" +
		"GPU[0]\t\t: GPU Memory Allocated (VRAM%): " + pct + "\n" +
		"GPU[0]\t\t: GPU Memory Read/Write Activity (%): 12\n"
	if total != "" {
		s += "================================== Memory Usage (Bytes) ==================================\n" +
			"GPU[0]\t\t: VRAM Total Memory (B): " + total + "\n"
	}
	return s + "==========================================================================================\n" +
		"============================ End of ROCm SMI Log =============================\n"
}

// TestReadRocmSMIMemUse: --showmemuse's VRAM% is the reading's share of
// the device, in bytes only where a total is known (the same report's
// VRAM Total Memory); Read/Write Activity is not memory in use.
func TestReadRocmSMIMemUse(t *testing.T) {
	const total = 68702699520
	share := func(want ...float64) func(t *testing.T, l *gpulog.GPULog) {
		return func(t *testing.T, l *gpulog.GPULog) {
			t.Helper()
			for i, s := range l.Samples {
				if !s.HasUsedPercent || s.MemoryUsedPercent != want[i] {
					t.Errorf("sample %d: share %v %v, want %v", i, s.HasUsedPercent, s.MemoryUsedPercent, want[i])
				}
			}
		}
	}
	cases := []readCase{
		{name: "percent only, date loop", format: gpulog.FormatRocmSMI,
			in:      "Fri Mar  8 10:00:00 UTC 2024\n" + rocmMemUse("30", "") + "\nFri Mar  8 10:05:00 UTC 2024\n" + rocmMemUse("40", ""),
			samples: []sampleWant{{0, logNA, logNA, "2024-03-08T10:00:00Z"}, {0, logNA, logNA, "2024-03-08T10:05:00Z"}}, gpus: 1,
			check: share(30, 40)},
		{name: "percent with the total", format: gpulog.FormatRocmSMI, in: rocmMemUse("50", "68702699520"),
			samples: []sampleWant{{0, logNA, total, ""}}, gpus: 1, check: share(50)},
		{name: "csv", format: gpulog.FormatRocmSMI,
			in:      "device,GPU use (%),GPU Memory Allocated (VRAM%)\ncard0,90,4\ncard1,0,N/A\ncard2,1,250\n",
			samples: []sampleWant{{0, logNA, logNA, ""}}, gpus: 1, skipped: 2, check: share(4)},
		{name: "json, with the byte count too", format: gpulog.FormatRocmSMI,
			in:      `{"card0": {"GPU use (%)": "7", "GPU Memory Allocated (VRAM%)": "13%"}, "card1": {"GPU Memory Allocated (VRAM%)": "20", "VRAM Total Used Memory (B)": "1000"}}` + "\n",
			samples: []sampleWant{{0, logNA, logNA, ""}, {1, 1000, logNA, ""}}, gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if !l.Samples[0].HasUsedPercent || l.Samples[0].MemoryUsedPercent != 13 || l.Samples[1].HasUsedPercent {
					t.Errorf("samples %+v", l.Samples)
				}
			}},
		{name: "bad percent", format: gpulog.FormatRocmSMI, in: rocmMemUse("lots", "") + rocmMemUse("45", ""),
			samples: []sampleWant{{0, logNA, logNA, ""}}, gpus: 1, skipped: 1, kind: "unreadable row", check: share(45)},
		{name: "activity only", format: gpulog.FormatRocmSMI,
			in: "==== ROCm System Management Interface ====\nGPU[0] : GPU Memory Read/Write Activity (%): 12\nGPU[0] : GPU memory use (%): 40\n", err: "no readings"},
	}
	runReadCases(t, cases)

	// The share becomes bytes of the report's own total.
	l, err := gpulog.ReadLog(strings.NewReader(rocmMemUse("50", "68702699520")), gpulog.FormatRocmSMI, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := gpulog.ResolveShares([]*gpulog.GPULog{l}, 0)[0]
	if s := r.Samples[0]; s.MemoryUsed != total/2 || s.MemoryTotal != total || !strings.Contains(r.Notes[len(r.Notes)-1], "own total") {
		t.Errorf("resolved %+v notes %q", s, r.Notes)
	}
}
