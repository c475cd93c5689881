package gpulog_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/internal/testutil"
)

// Fuzz targets for every GPU log reader, seeded from the real files (cut
// to their first 4 KiB: larger seeds make the engine spend the run
// minimising them) and small inline logs. A reader must never panic, must
// return a log or an error, and the log must satisfy checkLogInvariants.
// CI runs each for a few seconds:
//
//	for f in FuzzQueryCSV FuzzDmon FuzzTable FuzzXML FuzzMemoryStats FuzzSniffLog \
//		FuzzColumnsCSV FuzzWandbCSV FuzzLightningCSV FuzzDCGM FuzzTrainingLog; do
//		go test ./gpulog -run='^$' -fuzz="^$f\$" -fuzztime=10s -fuzzminimizetime=5s || exit 1
//	done

// maxLogSeed bounds a seed taken from a real file, in bytes.
const maxLogSeed = 4 << 10

// realLogSeeds adds the real files under sub matching the patterns as seeds;
// it adds nothing when the real data is not present.
func realLogSeeds(f *testing.F, sub string, patterns ...string) {
	base := os.Getenv("GPUREPORT_REAL_DATA")
	if base == "" {
		base = filepath.Join(testutil.RepoRoot(f), "..", "shared", "testdata-real")
	}
	for _, pat := range patterns {
		files, _ := filepath.Glob(filepath.Join(base, sub, pat))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > maxLogSeed {
				b = b[:maxLogSeed]
			}
			f.Add(b)
		}
	}
}

func fuzzReader(f *testing.F, format gpulog.LogFormat) {
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := gpulog.ReadLog(bytes.NewReader(data), format, gpulog.ReadOptions{
			Location: time.UTC, ModTime: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)})
		if err != nil {
			if l != nil {
				t.Fatal("log and error both returned")
			}
			return
		}
		if l.Format != format {
			t.Fatalf("format %q, want %q", l.Format, format)
		}
		checkLogInvariants(t, l)
	})
}

func FuzzQueryCSV(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "query-gpu-csv/*", "query-compute-apps-csv/*", "mixed-hostile/*")
	f.Add([]byte("timestamp, index, uuid, memory.used [MiB], memory.total [MiB]\n2024/03/01 10:00:00.000, 0, GPU-a, 1 MiB, 2 MiB\n0, x\n"))
	f.Add([]byte("pid, process_name, used_gpu_memory [MiB]\n1, a,b,c, 5 MiB\n"))
	f.Add([]byte("# gpureport record\ntimestamp, index, memory.used [MiB]\n2025-08-01T15:47:06.123+02:00, 0, 1 MiB"))
	f.Add([]byte("timestamp, name, memory.used [MiB]\n2024/03/01 10:00:00.001, A, 1 MiB\n2024/03/01 10:00:00.002, A, 1 MiB\n2024/03/01 10:00:02.001, A, 1 MiB\n"))
	f.Add(utf16("index, memory.used [MiB]\r\n0, 1 MiB\r\n", false))
	f.Add([]byte("2024/03/01 10:00:00.000, 0, 81920, 1234\n2024/03/01 10:00:01.000, 0, 81920, 1300\n"))
	f.Add([]byte("0, 1234 MiB, 81920 MiB\n1, 1 MiB, 81920 MiB\ntimestamp, memory.used [MiB]\n"))
	f.Add(gzipped(f, "index, memory.used [MiB]\n0, 1 MiB\n", "0, 2 MiB\n"))
	f.Add([]byte(bzip2Query))
	// Re-saved by a spreadsheet (semicolon_csv.go).
	f.Add([]byte("\xef\xbb\xbftimestamp;index;power.draw [W];memory.used [MiB]\r\n2024/03/08 10:00:01.123;0;33,09;1024,5\r\n0;\"a;\"\"b\";;\n"))
	f.Add([]byte("2024/03/08 10:00:01.123;NVIDIA A100-SXM4-80GB;81920 MiB;1024 MiB\n"))
	// Dates a spreadsheet rewrote (semicolon_dates.go).
	f.Add([]byte("timestamp;index;memory.used [MiB]\n08.03.24 10:00;0;1 MiB\n12/13/2024 99:99:99,123456789;0;2 MiB\n13/12/2024 0:00;0;3 MiB\n31.02.2024 10:00:00;0;4\n2024-03-08 10:00;1;5\n"))
	f.Add([]byte("08/03/2024 10:00:01,5;NVIDIA A100-SXM4-80GB;81920 MiB;1024,5 MiB\n01/12/2024 23:59:00;x;1;2\n"))
	// Loop captures (dateline_rows.go, term_codes.go, docker_json.go) and
	// logs without memory.used (derive_used.go).
	f.Add([]byte("Wed May  1 12:00:00 UTC 2024\n0, 1000 MiB, 81920 MiB\n1714564805.123\n0, 1500 MiB, 81920 MiB\n\x1b[H\x1b[2J9999999999\n"))
	f.Add([]byte(`{"log":"index, memory.used [MiB]\n","stream":"stdout","time":"2024-05-01T12:00:00Z"}` + "\n" +
		`{"log":"0, 1","stream":"stdout","time":"x"}` + "\n" + `{"log":"0 MiB\n","stream":"stderr"}` + "\n{\"log\":1}\n"))
	f.Add([]byte("timestamp, index, memory.total [MiB], memory.reserved [MiB], memory.free [MiB]\n2024/05/01 12:00:00.123, 0, 81559 MiB, 585 MiB, 99974 MiB\n"))
	// Two pods' lines in one kubectl logs --prefix stream (gpulog_machines.go).
	f.Add([]byte("[pod/w-0/smi] timestamp, index, memory.used [MiB]\n[pod/w-1/smi] timestamp, index, memory.used [MiB]\n" +
		"[pod/w-0/smi] 2024/03/08 10:00:00.000, 0, 1 MiB\n[pod/w-1/smi] 2024/03/08 10:00:00.000, 1, 2 MiB\n[pod/w-1/smi] 2024/03/08 10:01:00.000, 65535, 2 MiB\n"))
	fuzzReader(f, gpulog.FormatQueryCSV)
}

func FuzzDmon(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "dmon/*")
	f.Add([]byte("#Date       Time        gpu    fb  bar1\n#YYYYMMDD   HH:MM:SS    Idx    MB    MB\n 20240301   10:00:00      0  1234     5\n"))
	f.Add([]byte("#Time gpu fb\n#HH:MM:SS Idx MB\n23:59:59 0 1\n00:00:01 0 2\n"))
	f.Add([]byte("# gpu pid type fb command\n# Idx # C/G MB name\n 0 12 C 40 python x\n 1 - - - -\n"))
	fuzzReader(f, gpulog.FormatDmon)
}

func FuzzTable(f *testing.F) {
	f.Add([]byte(watchCapture80x24))
	realLogSeeds(f, "nvidia-smi", "table/*", "mixed-hostile/*")
	f.Add([]byte(tableH100))
	f.Add([]byte(tableMIG))
	f.Add([]byte(tableWindows + "index, name, memory.used [MiB]\n0, x, 1 MiB\n"))
	// A job's output: a table, then an OOM message (trainlog_side.go).
	f.Add([]byte(smiTable + jobOOM))
	fuzzReader(f, gpulog.FormatTable)
}

func FuzzXML(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "xml/*")
	f.Add([]byte(xmlDoc + xmlDoc))
	f.Add([]byte(xmlDoc[:400]))
	fuzzReader(f, gpulog.FormatXML)
}

// fixtureSeeds adds the generated fixtures of testdata/logs as seeds.
func fixtureSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(f), "testdata", "logs", filepath.FromSlash(n)))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > maxLogSeed {
			b = b[:maxLogSeed]
		}
		f.Add(b)
	}
}

func FuzzColumnsCSV(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "query-gpu-csv/*")
	fixtureSeeds(f, "epoch_millis.csv", "elapsed_own_columns.csv", "power_only_gpu.csv", "custom_columns.csv")
	f.Add([]byte("ts,gpu,fb_used,fb_free\n1764189075,0,\"1\n2\",5\n1764189075,cuda:1,3 GiB,nan\n\"bad\n"))
	// A Grafana panel export whose series are named by their query.
	f.Add([]byte("\"Time\",\"DCGM_FI_DEV_FB_USED{gpu=\"\"0\"\", Hostname=\"\"n\"\"}\",\"DCGM_FI_DEV_FB_FREE{gpu=\"\"99999999999\"\"}\",\"x{\"\n2024-03-01 10:00:00,1,2,3\n2024-03-01 10:02:00,-1,1e400,\n"))
	// An epoch counter beside a step column (Lightning's CSVLogger).
	f.Add([]byte("epoch,step,train_loss,cuda:0_memory.used (MB),cuda:0_memory.total (MB)\n0,50,2.0,30000,81920\n0,-1,x,30250,81920\n1,1e20,,,\n1.5,150,2,30500,81920\n"))
	// nvitop's ResourceMetricCollector keys; xpu-smi dump's times of day.
	f.Add([]byte("m/host/cpu_percent (%)/mean,m/cuda:0 (gpu:3)/memory_used (MiB)/mean,m/cuda:0 (gpu:3)/memory_free (MiB)/mean,m/gpu:999/memory_used (GiB)/mean,m/timestamp\n1,50000,31920,1,1709287200\n,x,,1e30,\n"))
	f.Add([]byte("Timestamp, DeviceId, GPU Memory Used (MiB)\n23:59:59.999,    0, 20000\n00:00:09.5, 0, 20060\n24:00:00,0,1\n"))
	fuzzReader(f, gpulog.FormatCSVColumns)
}

// FuzzColumnsSpec reads CSVs with a --gpu-log-columns spec.
func FuzzColumnsSpec(f *testing.F) {
	fixtureSeeds(f, "custom_columns.csv", "epoch_millis.csv")
	spec, err := gpulog.ParseColumnSpec("time=when,used=x_used,total=x_cap,unit=GiB")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatCSVColumns, gpulog.ReadOptions{Location: time.UTC, Columns: spec})
		if err == nil {
			checkLogInvariants(t, l)
		}
	})
}

func FuzzWandbCSV(f *testing.F) {
	fixtureSeeds(f, "wandb_system.csv")
	fuzzReader(f, gpulog.FormatWandbCSV)
}

func FuzzLightningCSV(f *testing.F) {
	fixtureSeeds(f, "lightning_torch/metrics.csv", "lightning_nvsmi/metrics.csv")
	fuzzReader(f, gpulog.FormatLightningCSV)
}

func FuzzDCGM(f *testing.F) {
	fixtureSeeds(f, "dcgm_metrics.txt")
	f.Add([]byte("DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\\\"b\",GPU_I_ID=\"1\"} 5 1764189075000\nDCGM_FI_DEV_FB_USED{gpu=\"0\"} 6\nDCGM_FI_DEV_FB_FREE{gpu=\"x\"} 1\n"))
	fuzzReader(f, gpulog.FormatDCGMProm)
}

func FuzzPromJSON(f *testing.F) {
	f.Add([]byte(promMatrix(promSeriesJSON("DCGM_FI_DEV_FB_USED", 0, "n1", 40000, 10, 3), promSeriesJSON("DCGM_FI_DEV_FB_FREE", 0, "n1", 40000, -10, 3))))
	f.Add([]byte(`{"data":{"resultType":"vector","result":[{"metric":{"__name__":"DCGM_FI_DEV_FB_USED","gpu":"0","GPU_I_ID":"1"},"value":[1e300,"1e300"]},{"metric":{"__name__":"DCGM_FI_DEV_FB_TOTAL","gpu":"99999999999"},"value":[1,"-0"]}]}}`))
	f.Add([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"DCGM_FI_DEV_FB_USED","gpu":"0"},"values":[[0.0001,"5"],[1709287200,"+Inf"],[],null]}]}}`))
	fuzzReader(f, gpulog.FormatPromJSON)
}

func FuzzDCGMDmon(f *testing.F) {
	f.Add([]byte(dcgmDmon))
	f.Add([]byte("#Entity FBFRE FBTTL FBRSV\nID\nGPU 2 70000 81559 500\nGPU-I 1 5 5 5\n#Entity FBUSD\nGPU 0 N/A\n"))
	fuzzReader(f, gpulog.FormatDCGMDmon)
}

func FuzzGpustat(f *testing.F) {
	f.Add([]byte(gpustatText))
	f.Add([]byte(gpustatBlock + jobOOM))
	f.Add([]byte("[0] T4 | 40°C,   0 % |  1000 / 15109 MB | (Not Supported)\n[x] T4 | ?? | ?? / ?? MB | a/0(1M) b:c/9(99999999999M)\n"))
	fuzzReader(f, gpulog.FormatGpustat)
}

func FuzzGpustatJSON(f *testing.F) {
	f.Add([]byte(`{"query_time": "2026-11-26T12:00:00", "gpus": [{"index": 0, "memory.used": 5, "memory.total": 9, "processes": [{"pid": 1, "gpu_memory_usage": 3}]}]}` + "\n"))
	f.Add([]byte(`{"query_time": 5, "gpus": [{"index": -1}, {"memory.used": -1e300}]} {"gpus": [{"index": 2, "memory.used": 1e30}]}`))
	fuzzReader(f, gpulog.FormatGpustatJSON)
}

func FuzzQueryText(f *testing.F) {
	f.Add([]byte(queryDoc("Thu Nov 26 12:00:00 2026", 40000)))
	f.Add([]byte("==============NVSMI LOG==============" + "\nGPU 00000000:01:00.0\n    FB Memory Usage\n        Used : x MiB\n    Processes\n        Process ID : y\n            Name : z\n"))
	// MIG devices, nested and flat, one cut inside its FB Memory Usage.
	f.Add([]byte(migQueryDoc("Fri Jan 27 11:32:31 2023", 4000, true)))
	f.Add([]byte(migQueryDoc("Fri Jan 27 11:32:31 2023", 4000, false)[:900]))
	f.Add([]byte("GPU 00000000:01:00.0\nMIG Device\n  Index : x\n  FB Memory Usage\n    Total : 1 MiB\n        MIG Device\n            FB Memory Usage\n Used : 99999999999999999 MiB\n"))
	fuzzReader(f, gpulog.FormatQueryText)
}

func FuzzTrainingLog(f *testing.F) {
	fixtureSeeds(f, "train_oom.log", "train_oom_legacy.log", "train_nccl_oom.err", "train_cuda_error.out",
		"train_oom_cached.log", "train_oom_first_line.log", "train_oom_no_index.log", "train_nccl_device.err", "train_oom_time_rank.log",
		"train_oom_rocm_limit.log", "composer_memory_monitor.log")
	// tqdm bars with a GPU memory postfix, redrawn with carriage returns.
	f.Add([]byte("Epoch 1/1:  2%|| 100/4000 [00:15<10:00, 6.6it/s, loss=1.9, gpu_mem=30.2G]\r 50/4000 [00:15, ?it/s, gpu_reserved=99999999999999GiB]\r7it [00:01<?, 1s/it, cuda_mem=1.5MiB]\n"))
	// torchtitan's capacity line (trainlog_capacity.go).
	f.Add([]byte("[rank0]:[titan] 2024-05-01 12:00:00,000 - root - INFO - CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory\n" +
		"GPU capacity: X (99999999999999999999) with 1e400GiB memory\nNPU capacity:  with 0.GiB memory\n" + hfOOM))
	// Hugging Face Trainer's memory metrics (trainlog_hf.go).
	f.Add([]byte("{'train_runtime': 1.5, 'before_init_mem_gpu': 536870912, 'train_mem_gpu_alloc_delta': -726663168, 'train_mem_gpu_peaked_delta': 99999999999999999999}\n" +
		"***** train metrics *****\n  init_mem_gpu_alloc_delta =   230MB\n  train_mem_gpu_peaked_delta = 9223372036854775807MB\n" + hfOOM))
	for _, w := range oomWordings {
		f.Add([]byte(w.msg + "\n"))
		f.Add([]byte(wrapAt("2025-03-02 08:11:59 [rank6]: "+w.msg, 80)))
	}
	// Inductor's dropped autotuning choice, ggml's and SGLang's failures
	// (trainlog_recovery.go, oom_serving.go).
	f.Add([]byte("W0301 10:01:12.118000 1 torch/_inductor/select_algorithm.py:1469] [0/0] Runtime error during autotuning: \n" +
		"W0301 10:01:12.118000 1 torch/_inductor/select_algorithm.py:1469] [0/0] CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 2.93 GiB is free. \n" +
		"W0301 10:01:12.118000 1 torch/_inductor/select_algorithm.py:1469] [0/0] Ignoring this choice.\n"))
	f.Add([]byte("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 99999999999999999999.51 MiB on device 999: cudaMalloc failed: out of memory\n"))
	f.Add([]byte("[2024-03-01 10:01:41 DP1 TP2 EP2] Scheduler hit an exception: Traceback (most recent call last):\n  File \"x.py\", line 1, in f\n" +
		"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: mem_fraction_static=0.88\n"))
	f.Add([]byte("[2025-10-09 12:01:31,035] [WARNING] [stage3.py:2160:step] 99999999999999999999 pytorch allocator cache flushes since last step. this happens\n" +
		"[2025-10-09 12:01:32,035] [WARNING] [stage3.py:2160:step] 3 pytorch allocator cache flushes since last step.\n"))
	f.Add([]byte("[default3]:2024-05-01 12:00:00,123 RuntimeError: CUDA out of memory. Tried to allocate 99999999999 TiB (GPU 9; 1 bytes total capacity; 2 KiB already allocated; 3 MiB free; 4 GiB cached)\n"))
	f.Add([]byte("step 7 | loss 1\n" + memorySummary("[rank2]: ", 1, "146836 KB", "4261 MB", 1, 3)))
	// Framework memory lines (trainlog_framework.go).
	f.Add([]byte(" [2024-05-01 12:01:00] iteration 10/ 500 |\n[Rank 0] (after 10 iterations) memory (MB) | allocated: 1234.5 | max allocated: 2345.6 | reserved: 3000.0 | max reserved: 1e400\n"))
	f.Add([]byte("[2024-05-01 12:00:00,123] [INFO] [utils.py:791:see_memory_usage] After step 9\n[2024-05-01 12:00:00,124] [INFO] [utils.py:792:see_memory_usage] MA 1.2 GB         Max_MA 3.4 GB         CA 99999999999 GB         Max_CA 5 GB \n"))
	f.Add([]byte("[rank0]:[titan] 2024-05-01 12:00:00,000 - root - INFO - \x1b[31mstep: 10  \x1b[33mmemory: 31.02GiB(39.21%)  tps: 5,123\n"))
	// The toolkits' peak lines (trainlog_peak.go).
	f.Add([]byte("2024/05/01 12:00:00 - mmengine - INFO - Epoch(train)  [99999999999][  50/99999999999]  lr: 2.0000e-02  memory: 3456  loss: 1.2\n" +
		"2024/05/01 12:12:00 - mmengine - INFO - Iter(train) [   50/90000]  lr: 2.0000e-02  memory: 99999999999999999999  loss: 1.0\n" +
		"2022-05-01 12:00:00,123 - mmdet - INFO - Epoch [1][50/7330]\tlr: 2.000e-02, time: 0.500, data_time: 0.050, memory: 3456, loss: 1.2\n"))
	f.Add([]byte("[05/01 12:00:00 d2.utils.events]:  eta: 0:10:00  iter: 19  total_loss: 1.2  lr: 0.0002  max_mem: 2345M\n" +
		"[05/01 12:02:00 d2.engine.hooks]:  iter: 59  max_reserved_mem: 3000MB  reserved_mem: 99999999999999MB  max_allocated_mem: 2450MB  allocated_mem: 1200MB \n" +
		"Epoch: [0]  [   0/5005]  eta: 1:00:00  loss: 6.9 (6.9)  time: 0.3  data: 0.1  max mem: 1234\nTest:  [  0/196]  max mem: 2000\n"))
	f.Add([]byte("2021-05-04 12:00:00 | INFO | fairseq.utils | rank   0: capabilities =  7.0  ; total memory = 31.749 GB ; name = Tesla V100-SXM2-32GB\n" +
		"2021-05-04 12:00:07 | INFO | train_inner | epoch 001:    100 / 4000 loss=9.1, num_updates=100, gb_free=6.2, wall=50\n" +
		"2021-05-04 12:30:00 | INFO | train | epoch 001 | num_updates 99999999999999999999 | gb_free 31.8 | wall 2000\n" +
		`{"epoch": 2, "num_updates": "4100", "gb_free": "5.5"}` + "\n"))
	// JSON logger records (trainlog_prefix.go's readJSONRecord).
	f.Add([]byte(`{"ts": "2024-05-01T12:00:05Z", "rank": "7", "exc_info": "RuntimeError: CUDA error: out of memory"}` + "\n"))
	f.Add([]byte(`{"local_rank": 99999999, "time": 5, "msg": "CUDA error: out of memory"} {"rank": -1}` + "\n"))
	f.Add([]byte("step 3: {'allocated_bytes.all.current': 99999999999999999999, 'reserved_bytes.all.current': 4096, 'num_ooms': 1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := fuzzTrainingLog(t, data, "OOMs or memory summaries")
		if l == nil {
			return
		}
		for _, r := range l.MemoryStats {
			if r.Allocated < 0 && r.Reserved < 0 && r.PeakAllocated <= 0 || r.Device < 0 || r.PeakAllocated < 0 || r.PeakReserved < 0 {
				t.Fatalf("memory summary reading %+v", r)
			}
		}
		for _, o := range l.OOMs {
			if o.Count < 1 || o.Line < 1 {
				t.Fatalf("OOM %+v", o)
			}
			for _, b := range []int64{o.Requested, o.Capacity, o.Free, o.Allocated, o.Reserved, o.ReservedUnallocated, o.ProcessInUse,
				o.PrivatePools, o.Allowed, o.OtherProcesses, o.OtherAllocations, o.RequestedSlack, o.FreeSlack} {
				if b < gpulog.Unknown {
					t.Fatalf("negative byte count in %+v", o)
				}
			}
		}
	})
}

func FuzzMemoryStats(f *testing.F) {
	f.Add([]byte(`{"step": 10, "time": 1709287200.5, "allocated_bytes.all.current": 1024, "reserved_bytes.all.current": 4096}` + "\n"))
	f.Add([]byte(`{"iteration": 3, "rank": 2, "device": "cuda:1", "timestamp": "2024-03-01T10:00:00", "memory_stats": {"allocated_bytes": {"all": {"current": 100}}}}` + "\n"))
	f.Add([]byte(`{"step": 1, "allocated_mb": 1.5e300, "memory_reserved": -4}` + "\nnot json\n"))
	fuzzReader(f, gpulog.FormatMemoryStats)
}

// FuzzSniffLog checks that SniffLog never panics, and that whatever it
// claims, the claimed reader takes without panicking.
func FuzzSniffLog(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "*/*")
	f.Add([]byte("Epoch 1/10\nloss 0.3\n"))
	f.Add([]byte(`{"step": 1, "allocated": 5}`))
	f.Add([]byte(prefixed(tableH100, func(int) string { return "2026-11-26T12:00:01.5Z " })))
	f.Add([]byte("0: # gpu fb\n0: # Idx MB\n0:  0 12\n1:  0 13\n"))
	f.Add([]byte("1714564800\n1000, 81920\n1714564805\n1500, 81920\n"))
	// pdsh's host labels before nvidia-smi's header-less rows.
	f.Add([]byte("gpu-node-01: 2024/03/01 10:00:00.000, 0, 40000 MiB, 81920 MiB\ngpu-node-02: 2024/03/01 10:00:00.000, 0, 40150 MiB, 81920 MiB\nn3: x, 0\n"))
	f.Add([]byte("\x1b[H\x1b[2J\x1b[3J\x1b]0;title\x07" + tableH100))
	f.Add([]byte(watchCapture100x40))
	f.Add([]byte(watchCapture80x24[:900] + "\x1b[2Z\x1b[1;74H40\x1b[99999;99999H\x1b[5M\x1b[3L\x1bM\x1b[2;5r\n\n\n\n\n\n\x1b[9b"))
	f.Add([]byte(`{"log":"timestamp, index, memory.used [MiB]\n","stream":"stdout","time":"2024-05-01T12:00:00Z"}` + "\n"))
	f.Add([]byte("GPU 0:\n" + pynvmlV1(85899345920, 84850769920, 1048576000) + "\n"))
	// The toolkits' progress lines (trainlog_peak.go).
	f.Add([]byte("2024/05/01 12:00:00 - mmengine - INFO - Epoch(train)  [1][  50/1000]  lr: 2.0000e-02  memory: 3456  loss: 1.2\n" +
		"Epoch: [0]  [   0/5005]  eta: 1:00:00  loss: 6.9 (6.9)  time: 0.3  data: 0.1  max mem: 1234\n"))
	// Monitoring exports: a Prometheus API response, Grafana panel CSVs.
	f.Add([]byte(promMatrix(promSeriesJSON("DCGM_FI_DEV_FB_USED", 0, "n1", 40000, 10, 3))))
	f.Add([]byte(grafanaCSV([]string{`DCGM_FI_DEV_FB_USED{gpu="0"}`, "n GPU 1"}, 3, func(i, j int) string { return "1 GiB" })))
	fixtureSeeds(f, "epoch_millis.csv", "wandb_system.csv", "lightning_torch/metrics.csv", "dcgm_metrics.txt", "elapsed_own_columns.csv",
		"table_date_loop.log", "memory_used_max.csv", "query_noheader_one_gpu.csv", "train_oom_first_line.log", "wandb_chart_percent.csv", "dcgm_mig_metrics.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		format, ok := gpulog.SniffLog(data)
		if !ok {
			if format != "" {
				t.Fatalf("unclaimed but format %q", format)
			}
			return
		}
		if again, _ := gpulog.SniffLog(data); again != format {
			t.Fatalf("SniffLog not deterministic: %q then %q", format, again)
		}
		if l, err := gpulog.ReadLog(bytes.NewReader(data), format, gpulog.ReadOptions{}); err == nil {
			checkLogInvariants(t, l)
		}
	})
}

func FuzzPynvml(f *testing.F) {
	f.Add([]byte("2024-03-01 10:00:00 step 1 cuda:0 mem_get_info: (64424509440, 85024112640)\nGPU 1 free/total: (9, 8)\ncuda free total (0, 999999999999999)\n"))
	f.Add([]byte(pynvmlV1(85899345920, 84850769920, 1048576000) + "\n"))
	f.Add([]byte("2024-05-01T12:00:00Z GPU 1:\n" + pynvmlV2(85899345920, 454033408, 84400000000, 1045312512) + "\n"))
	f.Add([]byte("[2024-05-01 12:00:05,250] INFO cuda:3 " + pynvmlV1(99999999999999999, 1, 2) + "\nWed May  1 12:00:00 UTC 2024\nc_nvmlMemory_t(total: 1 B, free: -1 B)\n"))
	fuzzReader(f, gpulog.FormatPynvml)
}

func FuzzRocmSMI(f *testing.F) {
	f.Add([]byte("Fri Mar  8 10:00:00 UTC 2024\n=== ROCm System Management Interface ===\nGPU[0]\t\t: VRAM Total Memory (B): 68702699520\nGPU[0]\t\t: VRAM Total Used Memory (B): 1\n===\n"))
	f.Add([]byte("device,GPU use (%),VRAM Total Memory (B),VRAM Total Used Memory (B)\ncard0,9,68702699520,1\ncard1,x\ncard2,1,2,3,4\n"))
	f.Add([]byte("{\"card0\": {\"VRAM Total Memory (B)\": \"1\", \"VRAM Total Used Memory (B)\": \"2\"}, \"system\": {}}\n{\n\"card1\": {\"a\\\"}\": 1\n"))
	f.Add([]byte("GPU[0] : vram Total Used Memory (B): 5\nGPU[0] : vram Total Used Memory (B): 6\nGPU[99999] : x\n"))
	// --showmemuse's percent in use (rocm_smi.go).
	f.Add([]byte(rocmMemUse("30", "") + rocmMemUse("45", "68702699520")))
	f.Add([]byte("device,GPU Memory Allocated (VRAM%)\ncard0,1e400\ncard1,-1\ncard2,N/A\n{\"card3\": {\"GPU Memory Allocated (VRAM%)\": \"NaN\"}}\nGPU[0] : GPU Memory Allocated (VRAM%): 100\n"))
	fuzzReader(f, gpulog.FormatRocmSMI)
}

func FuzzKinetoTrace(f *testing.F) {
	f.Add([]byte(`{"schemaVersion": 1, "deviceProperties": [{"id": 0, "totalGlobalMem": 85045559296}], "distributedInfo": {"rank": 1}, "traceEvents": [{"ph": "i", "name": "[memory]", "ts": 1000.5, "args": {"Total Reserved": 2, "Total Allocated": 1, "Device Id": 0, "Device Type": 1}}, {"name": "[memory]", "args": {"Device Type": 0}}], "baseTimeNanoseconds": 1709892000000000000}`))
	f.Add([]byte(`{"traceEvents": [{"name": "[memory]", "ts": "x", "args": {"Total Allocated": -1, "Device Id": 99999999, "Device Type": "CUDA"}}, 5, {"name": "[memory]", "ts": 1e308, "args": {"Total Allocated": 1, "Device Id": 0, "Device Type": 1}}`))
	f.Add([]byte(`{"traceEvents": {}, "deviceProperties": 5}`))
	fuzzReader(f, gpulog.FormatKinetoTrace)
}

func FuzzWandbEvents(f *testing.F) {
	f.Add([]byte(`{"system.gpu.0.memoryAllocated": 45.1, "system.gpu.0.memoryAllocatedBytes": 38740605009, "system.gpu.process.0.memoryAllocated": 45.1, "system.gpu.0.gpu": 98.0, "_wandb": true, "_timestamp": 1709892001.5, "_runtime": 30.2}` + "\n" +
		`{"system.gpu.1.memoryAllocated": 0, "system.gpu.1.memoryAllocatedBytes": 5, "_runtime": 1}` + "\n{\"system.gpu.99999.memoryAllocated\": 101, \"_timestamp\": \"x\"}\n[1]\n"))
	fuzzReader(f, gpulog.FormatWandbEvents)
}

func FuzzMLflowGPU(f *testing.F) {
	f.Add([]byte("1709892000000 40000.0 0\n1709892010000 1e300 1\n1709892010000 -5 2\n9999999999999999 1 1\n"))
	// Read as both files, megabytes and percentage, and paired.
	f.Add([]byte("1709892000000 49.04 0\n1709892010000 0.0001 1\n1709892020000 NaN 2\n1709892030000 100 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatMLflowGPU, gpulog.ReadOptions{Location: time.UTC,
			Name: "mlruns/0/r/metrics/system/gpu_1_memory_usage_megabytes"})
		if err == nil {
			checkLogInvariants(t, l)
		}
		p, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatMLflowGPU, gpulog.ReadOptions{Location: time.UTC,
			Name: "mlruns/0/r/metrics/system/gpu_1_memory_usage_percentage"})
		if err == nil {
			checkLogInvariants(t, p)
			if l != nil {
				for _, r := range gpulog.ResolveShares([]*gpulog.GPULog{l, p}, 0) {
					checkLogInvariants(t, r)
				}
			}
		}
	})
}
