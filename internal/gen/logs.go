package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The GPU-log and training-log fixtures (testdata/logs): one small file
// per shape that users' scripts and ML frameworks write, each in the real
// tool's own layout (column names, units, label sets, message wording),
// with values from a simple deterministic memory curve. The ingest tests
// read them and state what each must decode to.
//
//	go run ./internal/gen logs -o testdata/logs

// logFixture is one generated file.
type logFixture struct {
	// name is the path under the fixture folder.
	name string
	// about says what it imitates (for the README table).
	about string
	data  string
}

// cmdLogs is `gen logs`: the GPU-log and training-log fixtures.
func cmdLogs(*flag.FlagSet) runFunc {
	return func(out string, stdout io.Writer) error {
		if err := writeLogFixtures(out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d log fixtures to %s\n", len(logFixtures()), out)
		return nil
	}
}

func writeLogFixtures(dir string) error {
	for _, f := range logFixtures() {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(f.data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// fixStart is when the fixtures' runs start: 2025-11-26T20:31:15Z, Unix
// 1764189075 (the example value).
var fixStart = time.Unix(1764189075, 0).UTC()

// usedCurve is a GPU's used memory in MiB at reading i: a warm-up ramp
// then a plateau with a small saw-tooth, as a training job shows.
func usedCurve(i int, base, plateau float64) float64 {
	ramp := math.Min(1, float64(i)/4)
	return math.Round(base + ramp*(plateau-base) + float64(i%3)*8)
}

func logFixtures() []logFixture {
	return append([]logFixture{
		{"epoch_seconds_nounits.csv", "a user's script: nvidia-smi field names, Unix-epoch seconds, no units (issue 11 item 4)", epochNoUnits()},
		{"epoch_millis.csv", "the same with time.time()*1000 and memory in GiB in the header", epochMillis()},
		{"elapsed_own_columns.csv", "a script's own columns, elapsed seconds, a quoted note holding a newline (item 5)", elapsedOwnColumns()},
		{"table_then_query_csv.log", "one plain nvidia-smi table, then 1,236 --query-gpu CSV rows without a timestamp (item 6)", tableThenQueryCSV()},
		{"xml_no_timestamp.xml", "nvidia-smi -q -x without <timestamp> (item 7)", xmlNoTimestamp()},
		{"query_no_timestamp.csv", "--query-gpu CSV without a timestamp column, one reading (item 7)", queryNoTimestamp()},
		{"power_only_gpu.csv", "a script logging GPU utilization and power only: no memory columns", powerOnly()},
		{"custom_columns.csv", "columns no heuristic can name (read with --gpu-log-columns time=when,used=x_used,total=x_cap,unit=GiB)", customColumns()},
		{"lightning_torch/metrics.csv", "Lightning CSVLogger with DeviceStatsMonitor on CUDA (torch.cuda.memory_stats keys)", lightningTorch()},
		{"lightning_nvsmi/metrics.csv", "Lightning 1.x CSVLogger with DeviceStatsMonitor's nvidia-smi keys", lightningNvsmi()},
		{"wandb_system.csv", "Weights & Biases system-metrics export, 2 GPUs", wandbSystem()},
		{"dcgm_metrics.txt", "DCGM exporter /metrics scrapes appended in a date; curl loop, 2 GPUs", dcgmScrapes()},
		{"memory_stats_2026.jsonl", "JSON lines of torch.cuda.memory_stats() with the newer keys", memoryStats2026()},
		{"train_oom.log", "a job's stdout with PyTorch 2.x's OOM message (rank prefix, echoed by torchrun)", trainOOM()},
		{"train_oom_legacy.log", "a job's stdout with the pre-2.0 OOM message", trainOOMLegacy()},
		{"train_nccl_oom.err", "a job's stderr with NCCL's CUDA allocation failure", trainNCCL()},
		{"train_cuda_error.out", "a job's stdout with a raw CUDA error: out of memory", trainCUDAError()},
	}, pastedFixtures()...)
}

func epochNoUnits() string {
	var b strings.Builder
	b.WriteString("timestamp,memory.used,memory.total,utilization.gpu\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "%d,%.0f, 24576, %d\n", fixStart.Unix()+int64(i), usedCurve(i, 442, 18000), (i*7)%100)
	}
	return b.String()
}

func epochMillis() string {
	var b strings.Builder
	b.WriteString("time_ms,gpu,gpu_mem_used_gib,gpu_mem_total_gib\n")
	for i := 0; i < 6; i++ {
		for g := 0; g < 2; g++ {
			fmt.Fprintf(&b, "%d,%d,%.2f,79.65\n", fixStart.UnixMilli()+int64(i)*500, g, usedCurve(i, 1024, 60000+float64(g)*1000)/1024)
		}
	}
	return b.String()
}

func elapsedOwnColumns() string {
	var b strings.Builder
	b.WriteString("elapsed_sec,gpu_util_pct,mem_used_mb,mem_total_mb,temp_c,power_w,note\n")
	for i := 0; i < 10; i++ {
		note := ""
		switch i {
		case 0:
			note = "start"
		case 4:
			note = "\"checkpoint saved,\nresuming\""
		}
		fmt.Fprintf(&b, "%.1f,%d,%.0f,24564,%d,%.1f,%s\n", 0.5+2*float64(i), 90+i%5, usedCurve(i, 500, 20000), 40+i, 250.5+float64(i), note)
	}
	return b.String()
}

// tableThenQueryCSV follows the shape of a real log: a `date; nvidia-smi`
// table of the idle GPU before the job, then `nvidia-smi
// --query-gpu=index,name,memory.total,memory.used,memory.free,... -l 1`
// rows (no timestamp field) while the job ran at about 30 GiB.
func tableThenQueryCSV() string {
	var b strings.Builder
	b.WriteString(`Wed Nov 26 20:31:15 2025       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|                               |                      |               MIG M. |
|===============================+======================+======================|
|   0  Tesla V100-SXM2...  On   | 00000000:16:00.0 Off |                    0 |
| N/A   30C    P0    42W / 300W |      0MiB / 32768MiB |      0%      Default |
|                               |                      |                  N/A |
+-------------------------------+----------------------+----------------------+
                                                                               
+-----------------------------------------------------------------------------+
| Processes:                                                                  |
|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |
|        ID   ID                                                   Usage      |
|=============================================================================|
|  No running processes found                                                 |
+-----------------------------------------------------------------------------+
index, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], temperature.gpu, pstate, utilization.gpu [%], utilization.memory [%]
`)
	for i := 0; i < 1236; i++ {
		used := usedCurve(i, 2000, 30700)
		fmt.Fprintf(&b, "0, Tesla V100-SXM2-32GB, 32768 MiB, %.0f MiB, %.0f MiB, %d, P0, %d %%, %d %%\n", used, 32768-used, 60+i%10, 90+i%10, 30+i%20)
	}
	return b.String()
}

func xmlNoTimestamp() string {
	return `<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">
<nvidia_smi_log>
	<driver_version>550.54.15</driver_version>
	<cuda_version>12.4</cuda_version>
	<attached_gpus>1</attached_gpus>
	<gpu id="00000000:01:00.0">
		<product_name>NVIDIA L4</product_name>
		<uuid>GPU-5e1c0c35-0d6a-4c5e-9e1e-2f3b6a7c8d90</uuid>
		<fb_memory_usage>
			<total>23034 MiB</total>
			<reserved>431 MiB</reserved>
			<used>17250 MiB</used>
			<free>5353 MiB</free>
		</fb_memory_usage>
		<utilization>
			<gpu_util>97 %</gpu_util>
			<memory_util>41 %</memory_util>
		</utilization>
	</gpu>
</nvidia_smi_log>
`
}

func queryNoTimestamp() string {
	return "index, name, uuid, memory.total [MiB], memory.used [MiB], memory.free [MiB]\n" +
		"0, NVIDIA A100-SXM4-40GB, GPU-0b7c5d2e-1a2b-3c4d-5e6f-708192a3b4c5, 40960 MiB, 38211 MiB, 2325 MiB\n"
}

func powerOnly() string {
	var b strings.Builder
	b.WriteString("timestamp,gpu_util_pct,gpu_power_w,gpu_temp_c\n")
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "%s,%d,%.1f,%d\n", fixStart.Add(time.Duration(i)*time.Second).Format("2006-01-02 15:04:05"), 95, 280.5+float64(i), 65)
	}
	return b.String()
}

func customColumns() string {
	var b strings.Builder
	b.WriteString("when,x_used,x_cap,loss\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "%d,%.2f,79.6,%.3f\n", fixStart.Unix()+int64(60*i), usedCurve(i, 1024, 40000)/1024, 2.5-0.1*float64(i))
	}
	return b.String()
}

// lightningTorch imitates Lightning 2.x's CSVLogger with DeviceStatsMonitor
// on a CUDA device: get_device_stats returns torch.cuda.memory_stats(),
// each key prefixed "DeviceStatsMonitor.<hook>/"; the logger writes the
// union of keys, sorted, and leaves cells of keys a row lacks empty (loss
// rows, epoch-end rows).
func lightningTorch() string {
	keys := []string{"active_bytes.all.current", "allocated_bytes.all.current", "inactive_split_bytes.all.current",
		"num_alloc_retries", "num_device_alloc", "num_device_free", "num_ooms", "requested_bytes.all.current", "reserved_bytes.all.current"}
	var cols []string
	for _, hook := range []string{"on_train_batch_end", "on_train_batch_start"} {
		for _, k := range keys {
			cols = append(cols, "DeviceStatsMonitor."+hook+"/"+k)
		}
	}
	cols = append(cols, "epoch", "step", "train_loss")
	sort.Strings(cols)
	var b strings.Builder
	b.WriteString(strings.Join(cols, ",") + "\n")
	for step := 0; step < 8; step++ {
		alloc := int64(usedCurve(step, 300, 2400)) << 20
		vals := map[string]string{}
		for _, hook := range []string{"on_train_batch_end", "on_train_batch_start"} {
			a := alloc
			if hook == "on_train_batch_start" {
				a -= 200 << 20
			}
			p := "DeviceStatsMonitor." + hook + "/"
			vals[p+"allocated_bytes.all.current"] = fmt.Sprint(a)
			vals[p+"active_bytes.all.current"] = fmt.Sprint(a + 4<<20)
			vals[p+"requested_bytes.all.current"] = fmt.Sprint(a - 1<<20)
			vals[p+"reserved_bytes.all.current"] = fmt.Sprint(int64(3072) << 20)
			vals[p+"inactive_split_bytes.all.current"] = fmt.Sprint(12 << 20)
			vals[p+"num_alloc_retries"] = "0"
			vals[p+"num_ooms"] = "0"
			vals[p+"num_device_alloc"] = fmt.Sprint(20 + step)
			vals[p+"num_device_free"] = "3"
		}
		vals["step"] = fmt.Sprint(step)
		b.WriteString(joinRow(cols, vals) + "\n")
		if step%4 == 3 {
			b.WriteString(joinRow(cols, map[string]string{"epoch": fmt.Sprint(step / 4), "step": fmt.Sprint(step), "train_loss": fmt.Sprintf("%.4f", 2.3-0.2*float64(step))}) + "\n")
		}
	}
	return b.String()
}

// lightningNvsmi imitates Lightning 1.5-1.9's DeviceStatsMonitor on the
// nvidia-smi path (get_nvidia_gpu_stats keys with units in parentheses),
// with the hook as prefix.
func lightningNvsmi() string {
	keys := []string{"fan.speed (%)", "memory.free (MB)", "memory.used (MB)", "temperature.gpu (°C)", "temperature.memory (°C)", "utilization.gpu (%)", "utilization.memory (%)"}
	var cols []string
	for _, k := range keys {
		cols = append(cols, "on_train_batch_start/"+k)
	}
	cols = append(cols, "epoch", "step", "train_loss")
	sort.Strings(cols)
	var b strings.Builder
	b.WriteString(strings.Join(cols, ",") + "\n")
	for step := 0; step < 6; step++ {
		used := usedCurve(step, 900, 14000)
		vals := map[string]string{
			"on_train_batch_start/memory.used (MB)": fmt.Sprintf("%.1f", used), "on_train_batch_start/memory.free (MB)": fmt.Sprintf("%.1f", 16160-used),
			"on_train_batch_start/utilization.gpu (%)": "98.0", "on_train_batch_start/utilization.memory (%)": "40.0",
			"on_train_batch_start/fan.speed (%)": "0.0", "on_train_batch_start/temperature.gpu (°C)": "55.0", "on_train_batch_start/temperature.memory (°C)": "0.0",
			"step": fmt.Sprint(step),
		}
		b.WriteString(joinRow(cols, vals) + "\n")
	}
	return b.String()
}

// wandbSystem imitates run.history(stream="system") exported to CSV: the
// system monitor's gpu.N.* metrics with the "system." prefix, _runtime
// (seconds since the run started), _timestamp (Unix seconds, fractional)
// and _wandb. gpu.N.memory is memory-bandwidth utilization.
func wandbSystem() string {
	cols := []string{"_runtime", "_timestamp", "_wandb"}
	for g := 0; g < 2; g++ {
		for _, m := range []string{"gpu", "memory", "memoryAllocated", "memoryAllocatedBytes", "powerPercent", "powerWatts", "temp"} {
			cols = append(cols, fmt.Sprintf("system.gpu.%d.%s", g, m))
		}
	}
	cols = append(cols, "system.gpu.process.0.memoryAllocatedBytes")
	total := 85899345920.0 // 80 GiB
	var b strings.Builder
	b.WriteString(strings.Join(cols, ",") + "\n")
	for i := 0; i < 8; i++ {
		vals := map[string]string{"_runtime": fmt.Sprintf("%.5f", 15.2+15*float64(i)), "_timestamp": fmt.Sprintf("%.6f", float64(fixStart.Unix())+15.2+15*float64(i)), "_wandb": "true"}
		for g := 0; g < 2; g++ {
			used := usedCurve(i, 800, 61000+float64(g)*3000) * (1 << 20)
			p := fmt.Sprintf("system.gpu.%d.", g)
			vals[p+"gpu"] = "97"
			vals[p+"memory"] = "38"
			vals[p+"memoryAllocated"] = fmt.Sprintf("%.13g", 100*used/total)
			vals[p+"memoryAllocatedBytes"] = fmt.Sprintf("%.0f", used)
			vals[p+"powerPercent"] = "71.4"
			vals[p+"powerWatts"] = "499.8"
			vals[p+"temp"] = "61"
			if g == 0 {
				vals["system.gpu.process.0.memoryAllocatedBytes"] = vals[p+"memoryAllocatedBytes"]
			}
		}
		b.WriteString(joinRow(cols, vals) + "\n")
	}
	return b.String()
}

// dcgmScrapes imitates dcgm-exporter 3.x's default counters, scraped by
// `while true; do date; curl -s localhost:9400/metrics; sleep 10; done`.
func dcgmScrapes() string {
	uuids := []string{"GPU-8a3c5f21-93e4-2b7d-6c1a-0f9e8d7c6b5a", "GPU-1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718"}
	var b strings.Builder
	for s := 0; s < 4; s++ {
		fmt.Fprintln(&b, fixStart.Add(time.Duration(10*s)*time.Second).Format("Mon Jan _2 15:04:05 UTC 2006"))
		labels := func(g int) string {
			return fmt.Sprintf(`{gpu="%d",UUID="%s",pci_bus_id="00000000:%02X:00.0",device="nvidia%d",modelName="NVIDIA A100-SXM4-80GB",Hostname="node-7",DCGM_FI_DRIVER_VERSION="535.129.03"}`,
				g, uuids[g], 7+g*8, g)
		}
		metric := func(name, help, typ string, val func(g int) string) {
			fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
			for g := 0; g < 2; g++ {
				fmt.Fprintf(&b, "%s%s %s\n", name, labels(g), val(g))
			}
		}
		used := func(g int) float64 { return usedCurve(s, 600, 71000+float64(g)*2000) }
		metric("DCGM_FI_DEV_SM_CLOCK", "SM frequency (in MHz).", "gauge", func(int) string { return "1410" })
		metric("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", "gauge", func(int) string { return "58" })
		metric("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", "gauge", func(int) string { return "312.418000" })
		metric("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", "gauge", func(int) string { return "99" })
		metric("DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", "gauge", func(int) string { return "41" })
		metric("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", "gauge", func(g int) string { return fmt.Sprintf("%.0f", 81050-used(g)) })
		metric("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", "gauge", func(g int) string { return fmt.Sprintf("%.0f", used(g)) })
		metric("DCGM_FI_DEV_FB_RESERVED", "Framebuffer memory reserved (in MiB).", "gauge", func(int) string { return "519" })
		metric("DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.", "gauge", func(int) string { return "0" })
	}
	return b.String()
}

// memoryStats2026 writes what `json.dumps({"step": s, "time": time.time(),
// **torch.cuda.memory_stats()})` gives with a recent PyTorch: the core
// statistics plus requested_bytes, oversize_*, num_sync_all_streams,
// num_device_alloc/free and max_split_size (-1: unlimited), which the
// reader must pass over.
func memoryStats2026() string {
	var b strings.Builder
	for s := 0; s < 6; s++ {
		alloc := int64(usedCurve(s, 1200, 5200)) << 20
		fmt.Fprintf(&b, `{"step": %d, "time": %.3f, "device": "cuda:0", "allocated_bytes.all.current": %d, "allocated_bytes.all.peak": %d, `+
			`"reserved_bytes.all.current": %d, "active_bytes.all.current": %d, "inactive_split_bytes.all.current": %d, `+
			`"requested_bytes.all.current": %d, "requested_bytes.large_pool.current": %d, "oversize_allocations.current": 0, "oversize_segments.current": 0, `+
			`"num_alloc_retries": 0, "num_ooms": 0, "num_sync_all_streams": 0, "num_device_alloc": %d, "num_device_free": 0, "max_split_size": -1}`+"\n",
			s*100, float64(fixStart.Unix())+30*float64(s), alloc, alloc+(256<<20), int64(6144)<<20, alloc+(2<<20), int64(40)<<20, alloc-(1<<20), alloc-(3<<20), 30+s)
	}
	return b.String()
}

func trainOOM() string {
	msg := "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.23 GiB is free. " +
		"Including non-PyTorch memory, this process has 77.85 GiB memory in use. Of the allocated memory 75.10 GiB is allocated by PyTorch, and " +
		"1.20 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting " +
		"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
	var b strings.Builder
	for s := 0; s < 4; s++ {
		fmt.Fprintf(&b, "[rank0]:[2025-11-26 20:3%d:00,000] train.py:88 step %d loss %.4f\n", s, s*50, 2.1-0.1*float64(s))
	}
	b.WriteString(`[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/train.py", line 131, in <module>
[rank0]:     main()
[rank0]:   File "/work/train.py", line 57, in train_step
[rank0]:     except torch.OutOfMemoryError:
[rank0]:         if "CUDA out of memory" in str(e): raise
[rank0]: ` + msg + "\n")
	b.WriteString("E1126 20:34:12.345000 140 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 4242) of binary: /usr/bin/python\n")
	b.WriteString("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n============================================================\ntrain.py FAILED\n")
	b.WriteString("[rank0]: " + msg + "\n")
	return b.String()
}

func trainOOMLegacy() string {
	return `Epoch 3:  41%|####      | 204/500 [01:12<01:45,  2.81it/s, loss=0.412]
Traceback (most recent call last):
  File "train.py", line 88, in <module>
    out = model(x)
RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 13.2 GiB already allocated; 5.69 MiB free; 14.62 GiB reserved in total by PyTorch)
`
}

func trainNCCL() string {
	return `node-7:4242:4300 [0] NCCL INFO Channel 00/24 :    0   1
node-7:4242:4300 [0] include/alloc.h:114 NCCL WARN Cuda failure 'out of memory'
node-7:4242:4300 [0] include/alloc.h:121 NCCL WARN Failed to CUDA calloc 6291456 bytes
node-7:4242:4300 [0] NCCL INFO init.cc:1273 -> 1
RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5
`
}

func trainCUDAError() string {
	return `step 120 loss 1.873
RuntimeError: CUDA error: out of memory
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
`
}

// joinRow writes a CSV row of cols from vals, empty where vals lacks a
// column.
func joinRow(cols []string, vals map[string]string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = vals[c]
	}
	return strings.Join(out, ",")
}
