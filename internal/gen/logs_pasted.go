package main

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Logs as people paste them into issue threads (issue 28): one fixture per
// failure class, each in the shape the class describes, with the figures
// the tests check.

// pastedFixtures are the fixtures of issue 28's classes, in class order.
func pastedFixtures() []logFixture {
	return []logFixture{
		{"train_oom_cached.log", "PyTorch 1.0-1.3 wording: \"X cached\" is reserved minus allocated (class 1)", trainOOMCached()},
		{"train_oom_first_line.log", "a 2.7 OOM message with commas as the log's first line (class 2)", trainOOMFirstLine()},
		{"query_noheader_one_gpu.csv", "header-less query CSV of one GPU, neither time nor index: \"3 %, 612 MiB\" (class 3)", queryNoHeaderOneGPU()},
		{"train_oom_no_index.log", "\"GPU  has a total capacity\": the message prints no device index (class 4)", trainOOMNoIndex()},
		{"train_nccl_device.err", "NCCL's \"host:pid:tid [2]\" names the CUDA device of a failed calloc (class 5)", trainNCCLDevice()},
		{"train_oom_time_rank.log", "a rank prefix after a timestamp (class 6)", trainOOMTimeRank()},
		{"table_date_loop.log", "`while true; do date; nvidia-smi; sleep 60; done` in en_US locale, with ==== markers (class 7)", tableDateLoop()},
		{"memory_used_max.csv", "a user's CSV: Time, Memory Used, Memory Max (class 8)", memoryUsedMax()},
		{"train_oom_rocm_limit.log", "ROCm: 612 MiB free for a 100 MiB request, the OOM cause limit (class 9)", trainOOMROCmLimit()},
		{"wandb_chart_percent.csv", "W&B chart export of system/gpu.0.memoryAllocated, percent of the device (class 10)", wandbChartPercent()},
		{"dcgm_mig_metrics.txt", "DCGM exporter scrapes of a GPU in MIG mode: FB fields with GPU_I_ID labels (class 10)", dcgmMIG()},
		{"composer_memory_monitor.log", "Composer's console logger with MemoryMonitor metrics in gigabytes (class 10)", composerMemoryMonitor()},
	}
}

func trainOOMCached() string {
	return `Epoch 1:  12%|#2        | 60/500 [00:31<03:48,  1.93it/s]
Traceback (most recent call last):
  File "train.py", line 142, in <module>
    loss = model(batch).sum()
RuntimeError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 11.17 GiB total capacity; 10.52 GiB already allocated; 61.19 MiB free; 301.40 MiB cached)
`
}

// oom27 is a PyTorch 2.7 message with private pools; its clause "(e.g.,
// CUDA Graphs), and" splits at commas into fields a CSV reader would
// take for a header.
const oom27 = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 79.10 GiB of which 803.88 MiB is free. " +
	"Including non-PyTorch memory, this process has 78.29 GiB memory in use. Of the allocated memory 74.88 GiB is allocated by PyTorch, with 2.00 GiB allocated in private pools (e.g., CUDA Graphs), " +
	"and 2.81 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  " +
	"See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"

func trainOOMFirstLine() string {
	var b strings.Builder
	b.WriteString(oom27 + "\n")
	b.WriteString("epoch,step,loss,lr\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "0,%d,%.4f,3.0e-04\n", 10*i, 2.3-0.05*float64(i))
	}
	return b.String()
}

func queryNoHeaderOneGPU() string {
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "%d %%, %.0f MiB\n", (i*7)%100, usedCurve(i, 400, 612))
	}
	return b.String()
}

func trainOOMNoIndex() string {
	return "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB. GPU  has a total capacity of 39.39 GiB of which 96.44 MiB is free. " +
		"Including non-PyTorch memory, this process has 39.29 GiB memory in use. Of the allocated memory 37.90 GiB is allocated by PyTorch, and 880.43 MiB is reserved by PyTorch but unallocated. " +
		"If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n"
}

func trainNCCLDevice() string {
	return `node7:4711:4711 [2] NCCL INFO Bootstrap : Using eth0:10.0.0.7<0>
node7:4711:4790 [2] NCCL INFO Channel 00/24 :    0   1   2   3
node7:4711:4790 [2] include/alloc.h:124 NCCL WARN Cuda failure 'out of memory'
node7:4711:4790 [2] include/alloc.h:131 NCCL WARN Failed to CUDA calloc 8388608 bytes
node7:4711:4790 [2] NCCL INFO init.cc:1273 -> 1
RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
`
}

func trainOOMTimeRank() string {
	return "2025-03-02 08:11:58 [rank6]: step 3120 loss 1.6625\n" +
		"2025-03-02 08:11:59 [rank6]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 6 has a total capacity of 79.10 GiB of which 1.23 GiB is free. " +
		"Including non-PyTorch memory, this process has 77.85 GiB memory in use. Of the allocated memory 75.10 GiB is allocated by PyTorch, and 420.00 MiB is reserved by PyTorch but unallocated.\n"
}

// tableDateLoop writes three samples of a shell loop that prints the date,
// as en_US.UTF-8's date(1) spells it, inside a marker, then nvidia-smi's
// table; the script echoes a line first.
func tableDateLoop() string {
	var b strings.Builder
	b.WriteString("starting GPU watch on node7 (every 60 s)\n")
	for s := 0; s < 3; s++ {
		t := fixStart.Add(time.Duration(s) * time.Minute)
		fmt.Fprintf(&b, "==== %s ====\n", t.Format("Mon 02 Jan 2006 03:04:05 PM MST"))
		used := usedCurve(s, 1200, 30000)
		fmt.Fprintf(&b, `+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA A100-SXM4-40GB          On  |   00000000:07:00.0 Off |                    0 |
| N/A   38C    P0             92W /  400W |   %5.0fMiB /  40960MiB |     97%%      Default |
|                                         |                        |             Disabled |
+-----------------------------------------+------------------------+----------------------+
`, used)
		b.WriteString("\n")
	}
	return b.String()
}

func memoryUsedMax() string {
	var b strings.Builder
	b.WriteString("Time,Memory Used,Memory Max\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "%s,%.0f MiB,24564 MiB\n", fixStart.Add(time.Duration(30*i)*time.Second).Format("2006-01-02 15:04:05"), usedCurve(i, 800, 18000))
	}
	return b.String()
}

func trainOOMROCmLimit() string {
	return `Traceback (most recent call last):
  File "/workspace/train.py", line 211, in <module>
    out = model(**batch)
torch.OutOfMemoryError: HIP out of memory. Tried to allocate 100.00 MiB. GPU 0 has a total capacity of 63.98 GiB of which 612.00 MiB is free. Of the allocated memory 62.10 GiB is allocated by PyTorch, and 48.12 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)
`
}

// wandbChartPercent imitates a chart exported from the W&B UI: "Step", then
// "RUN - METRIC" with __MIN and __MAX beside it; memoryAllocated is the
// share of the device's memory in use.
func wandbChartPercent() string {
	const run = "lucky-sun-42"
	var b strings.Builder
	fmt.Fprintf(&b, "Step,%[1]s - system/gpu.0.memoryAllocated,%[1]s - system/gpu.0.memoryAllocated__MIN,%[1]s - system/gpu.0.memoryAllocated__MAX\n", run)
	for i := 0; i < 12; i++ {
		pct := 100 * usedCurve(i, 800, 61000) / 81559
		fmt.Fprintf(&b, "%d,%.4f,%.4f,%.4f\n", 50*i, pct, pct, pct)
	}
	return b.String()
}

// dcgmMIG imitates dcgm-exporter on an A100 with two MIG instances: the
// framebuffer fields carry GPU_I_PROFILE and GPU_I_ID labels, and the
// whole GPU has no framebuffer line of its own.
func dcgmMIG() string {
	var b strings.Builder
	gis := []int{1, 2}
	for s := 0; s < 6; s++ {
		fmt.Fprintln(&b, fixStart.Add(time.Duration(15*s)*time.Second).Format("Mon Jan _2 15:04:05 UTC 2006"))
		labels := func(k int) string {
			return fmt.Sprintf(`{gpu="0",UUID="GPU-4d5e6f70-8192-a3b4-c5d6-e7f8091a2b3c",device="nvidia0",modelName="NVIDIA A100-SXM4-40GB",GPU_I_PROFILE="3g.20gb",GPU_I_ID="%d",Hostname="node-3"}`, gis[k])
		}
		used := func(k int) float64 { return usedCurve(4+s, 300, 15000+float64(k)*2000) }
		for _, m := range []struct {
			name, help string
			val        func(int) string
		}{
			{"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", func(k int) string { return fmt.Sprintf("%.0f", 19968-used(k)) }},
			{"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", func(k int) string { return fmt.Sprintf("%.0f", used(k)) }},
			{"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", func(int) string { return "0.812" }},
		} {
			fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", m.name, m.help, m.name)
			for k := range gis {
				fmt.Fprintf(&b, "%s%s %s\n", m.name, labels(k), m.val(k))
			}
		}
	}
	return b.String()
}

// composerMemoryMonitor imitates Composer's console logger: a batch line,
// then every metric of the batch, MemoryMonitor's in gigabytes (bytes /
// 1e9, five significant digits).
func composerMemoryMonitor() string {
	var b strings.Builder
	b.WriteString("[2025-08-06 10:02:48,562][composer.trainer.trainer][INFO] - Using precision Precision.AMP_BF16\n")
	sig5 := func(gb float64) string {
		mag := int(math.Floor(math.Log10(gb)))
		return fmt.Sprintf("%.*f", max(0, 4-mag), gb)
	}
	for i := 1; i <= 8; i++ {
		alloc := usedCurve(i, 900, 1600) * (1 << 20) / 1e9
		reserved := 4096 * float64(1<<20) / 1e9
		fmt.Fprintf(&b, "[batch=%d/8]:\n", 10*i)
		fmt.Fprintf(&b, "\t Train time/batch: %d\n", 10*i-1)
		fmt.Fprintf(&b, "\t Train memory/current_allocated_mem: %s\n", sig5(alloc))
		fmt.Fprintf(&b, "\t Train memory/current_active_mem: %s\n", sig5(alloc))
		fmt.Fprintf(&b, "\t Train memory/current_inactive_mem: %s\n", sig5(0.81))
		fmt.Fprintf(&b, "\t Train memory/current_reserved_mem: %s\n", sig5(reserved))
		fmt.Fprintf(&b, "\t Train memory/peak_allocated_mem: %s\n", sig5(alloc+1.2))
		b.WriteString("\t Train memory/alloc_retries: 0\n")
		fmt.Fprintf(&b, "\t Train loss/train/total: %.4f\n", 2.1-0.1*float64(i))
	}
	return b.String()
}
