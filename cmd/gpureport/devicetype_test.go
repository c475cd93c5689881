package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deviceTypeSummary is what summary.json says of devices and OOMs' places.
type deviceTypeSummary struct {
	Devices []struct {
		Device     int    `json:"device"`
		DeviceType string `json:"device_type"`
		Capacity   *int64 `json:"capacity_bytes"`
		GPUSamples *struct {
			Samples int `json:"samples"`
		} `json:"gpu_samples"`
		Trend *struct {
			Metric string `json:"metric"`
			RanOut *struct {
				Path string `json:"path"`
			} `json:"ran_out"`
		} `json:"trend"`
	} `json:"devices"`
	OOMs []struct {
		Device     int    `json:"device"`
		DeviceType string `json:"device_type"`
		Class      string `json:"class"`
	} `json:"ooms"`
	Verdict struct {
		Reasons []string `json:"reasons"`
	} `json:"verdict"`
	OOMWithoutSnapshot *struct {
		Sources []string `json:"sources"`
	} `json:"oom_without_snapshot"`
}

// reportFiles writes files into a new run folder, reports it and returns
// its summary.json, read, and summary.md.
func reportFiles(t *testing.T, files map[string]string) (deviceTypeSummary, string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runCmd(t, "-q", "--no-cache", "--tz", "UTC", dir); code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var s deviceTypeSummary
	data, err := os.ReadFile(filepath.Join(dir, "gpureport", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "gpureport", "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	return s, string(md)
}

// TestOOMDeviceTypes: an OOM message of each backend is placed on a
// device of the type PyTorch gives that backend, and summary.json
// (device, device_type) and summary.md (the verdict's reason, the OOM's
// line) name it so: ROCm's HIP devices are CUDA devices, Apple's one MPS
// device is "mps". The capture kit, which dumps CUDA snapshots, is offered
// for CUDA OOMs only.
func TestOOMDeviceTypes(t *testing.T) {
	const tb = "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    loss.backward()\n"
	for _, tt := range []struct {
		name, msg string
		device    int
		typ       string
		label     string
		class     string
		kit       bool
	}{
		{"CUDA", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.15 GiB of which 1.10 GiB is free. Including non-PyTorch memory, this process has 78.04 GiB memory in use. Of the allocated memory 75.20 GiB is allocated by PyTorch, and 2.30 GiB is reserved by PyTorch but unallocated.",
			1, "cuda", "cuda:1", "fragmentation", true},
		{"HIP", "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 191.98 GiB of which 1.50 GiB is free. Of the allocated memory 188.00 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.",
			0, "cuda", "cuda:0", "capacity", true},
		{"XPU", "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 63.98 GiB of which 2.10 GiB is free. Of the allocated memory 58.20 GiB is allocated by PyTorch, and 1.40 GiB is reserved by PyTorch but unallocated.",
			0, "xpu", "xpu:0", "capacity", false},
		{"NPU", "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 3; 60.97 GiB total capacity; 56.21 GiB already allocated; 56.21 GiB current active; 1.17 GiB free; 58.90 GiB reserved in total by PyTorch)",
			3, "npu", "npu:3", "fragmentation", false},
		{"MPS", "RuntimeError: MPS backend out of memory (MPS allocated: 17.68 GB, other allocations: 3.95 MB, max allowed: 18.13 GB). Tried to allocate 1024.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).",
			0, "mps", "mps", "capacity", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, md := reportFiles(t, map[string]string{"train.log": "epoch 1 step 60 loss 0.834\n" + tb + tt.msg + "\n"})
			if len(s.OOMs) != 1 {
				t.Fatalf("ooms %+v", s.OOMs)
			}
			if o := s.OOMs[0]; o.Device != tt.device || o.DeviceType != tt.typ || o.Class != tt.class {
				t.Errorf("oom on device %d of type %q, class %s; want %d, %q, %s", o.Device, o.DeviceType, o.Class, tt.device, tt.typ, tt.class)
			}
			reason := tt.class + " OOM on " + tt.label + ":"
			if len(s.Verdict.Reasons) != 1 || !strings.HasPrefix(s.Verdict.Reasons[0], reason) {
				t.Errorf("reasons %q, want one starting %q", s.Verdict.Reasons, reason)
			}
			for _, want := range []string{"- " + reason, "- `train.log`, " + tt.label + ": "} {
				if !strings.Contains(md, want) {
					t.Errorf("summary.md lacks %q:\n%s", want, md)
				}
			}
			if tt.typ != "cuda" && strings.Contains(md, "cuda:") {
				t.Errorf("summary.md names a CUDA device:\n%s", md)
			}
			if kit := s.OOMWithoutSnapshot != nil; kit != tt.kit {
				t.Errorf("oom_without_snapshot %+v, want it %v", s.OOMWithoutSnapshot, tt.kit)
			}
		})
	}
}

// TestXPUAndCUDAStayTwo: an XPU's "GPU 0" beside nvidia-smi's GPU 0 (the
// run's cuda:0) is another device: its OOM is on xpu:0 and neither gives
// cuda:0 its capacity nor marks cuda:0 as having run out; a CUDA OOM
// message of the same figures in the same log stays an OOM of its own,
// on cuda:0.
func TestXPUAndCUDAStayTwo(t *testing.T) {
	const xpu = "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 63.98 GiB of which 2.10 GiB is free. Of the allocated memory 58.20 GiB is allocated by PyTorch, and 1.40 GiB is reserved by PyTorch but unallocated."
	csv := "timestamp, index, memory.used [MiB], memory.total [MiB]\n"
	for i := range 12 {
		csv += fmt.Sprintf("2026/11/20 10:%02d:00.000, 0, %d MiB, 81559 MiB\n", i, 20000+i*500)
	}
	cuda := strings.Replace(xpu, "XPU", "CUDA", 1)
	for _, tt := range []struct {
		name  string
		log   string
		types []string
	}{
		{"an XPU OOM beside a CUDA GPU", xpu + "\n", []string{"xpu"}},
		{"an XPU and a CUDA OOM of the same figures", xpu + "\n" + cuda + "\n", []string{"xpu", "cuda"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, md := reportFiles(t, map[string]string{"gpu.csv": csv, "train.log": tt.log})
			if len(s.Devices) != 1 || s.Devices[0].DeviceType != "cuda" || s.Devices[0].Device != 0 {
				t.Fatalf("devices %+v, want cuda:0 alone", s.Devices)
			}
			d := s.Devices[0]
			if d.Capacity == nil || *d.Capacity != 81559<<20 {
				t.Errorf("cuda:0 capacity %v, want nvidia-smi's 81559 MiB", d.Capacity)
			}
			xpuRanOut := len(tt.types) == 1 && d.Trend != nil && d.Trend.RanOut != nil
			if xpuRanOut {
				t.Errorf("cuda:0 ran out at %+v: the XPU's OOM", d.Trend.RanOut)
			}
			var got []string
			for _, o := range s.OOMs {
				got = append(got, o.DeviceType)
				if o.Device != 0 {
					t.Errorf("oom on device %d, want 0", o.Device)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.types, ",") {
				t.Errorf("OOMs on types %q, want %q", got, tt.types)
			}
			if !strings.Contains(md, "OOM on xpu:0") {
				t.Errorf("summary.md lacks the OOM on xpu:0:\n%s", md)
			}
		})
	}
}

// TestMemoryStatsDeviceType: torch.xpu.memory_stats() lines whose
// "device" is "xpu:0" make an XPU device, which joins none of
// nvidia-smi's GPUs: beside nvidia-smi's GPU 0 the run has two devices,
// xpu:0 (its allocated memory, no GPU readings) and cuda:0 (the GPU's
// used memory).
func TestMemoryStatsDeviceType(t *testing.T) {
	csv := "timestamp, index, memory.used [MiB], memory.total [MiB]\n"
	var stats strings.Builder
	for i := range 12 {
		csv += fmt.Sprintf("2026/11/20 10:%02d:00.000, 0, %d MiB, 81559 MiB\n", i, 20000+i*500)
		fmt.Fprintf(&stats, `{"step": %d, "time": %d, "device": "xpu:0", "allocated_bytes.all.current": %d, "reserved_bytes.all.current": %d}`+"\n",
			i*100, 1763632800+i*60, 10<<30+i*(256<<20), 12<<30+i*(256<<20))
	}
	s, md := reportFiles(t, map[string]string{"gpu.csv": csv, "xpu_stats.jsonl": stats.String()})
	type dev struct {
		name, metric string
		gpu          bool
	}
	var got []dev
	for _, d := range s.Devices {
		g := dev{name: d.DeviceType + ":" + fmt.Sprint(d.Device), gpu: d.GPUSamples != nil}
		if d.Trend != nil {
			g.metric = d.Trend.Metric
		}
		got = append(got, g)
	}
	want := []dev{{"xpu:0", "allocated_bytes", false}, {"cuda:0", "gpu_used_bytes", true}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("devices %+v, want %+v", got, want)
	}
	for _, w := range []string{"| xpu:0 |", "| cuda:0 |"} {
		if !strings.Contains(md, w) {
			t.Errorf("summary.md lacks the row %q:\n%s", w, md)
		}
	}
}
