package gpulog_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	utf16pkg "unicode/utf16"

	"gpureport/gpulog"
	"gpureport/input"
)

// sampleWant is one expected GPU reading; a time of "" is not checked.
type sampleWant struct {
	gpu         int
	used, total int64
	time        string
}

// readCase is one log text and what reading it must give.
type readCase struct {
	name    string
	format  gpulog.LogFormat
	in      string
	samples []sampleWant
	procs   []gpulog.ProcessSample // Time is not compared
	gpus    int
	skipped int
	// kind, when set, is the kind of the first skip count.
	kind string
	// err, when set, is a substring of the expected error.
	err string
	// check, when set, runs extra checks.
	check func(t *testing.T, l *gpulog.GPULog)
}

func runReadCases(t *testing.T, cases []readCase) {
	t.Helper()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		berlin = time.FixedZone("CET", 3600)
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tt.in), tt.format, gpulog.ReadOptions{
				Location: berlin, ModTime: time.Date(2024, 3, 2, 0, 30, 0, 0, berlin)})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkLogInvariants(t, l)
			if len(l.Samples) != len(tt.samples) || len(l.Processes) != len(tt.procs) || len(l.GPUs) != tt.gpus || l.SkippedLines != tt.skipped {
				t.Fatalf("samples %d, processes %d, GPUs %d, skipped %d; want %d, %d, %d, %d\nsamples %+v\nproblems %+v",
					len(l.Samples), len(l.Processes), len(l.GPUs), l.SkippedLines,
					len(tt.samples), len(tt.procs), tt.gpus, tt.skipped, l.Samples, l.Problems)
			}
			for i, w := range tt.samples {
				s := l.Samples[i]
				if s.GPU != w.gpu || s.MemoryUsed != w.used || s.MemoryTotal != w.total {
					t.Errorf("sample %d: GPU %d used %d total %d; want %d %d %d", i, s.GPU, s.MemoryUsed, s.MemoryTotal, w.gpu, w.used, w.total)
				}
				if w.time != "" && s.Time.UTC().Format(time.RFC3339Nano) != w.time {
					t.Errorf("sample %d: time %s, want %s", i, s.Time.UTC().Format(time.RFC3339Nano), w.time)
				}
			}
			for i, w := range tt.procs {
				p := l.Processes[i]
				p.Time = time.Time{}
				if p != w {
					t.Errorf("process %d: %+v, want %+v", i, p, w)
				}
			}
			if tt.kind != "" && (len(l.SkipCounts) == 0 || l.SkipCounts[0].Kind != tt.kind) {
				t.Errorf("skip counts %+v, want first kind %q; problems %+v", l.SkipCounts, tt.kind, l.Problems)
			}
			if tt.check != nil {
				tt.check(t, l)
			}
		})
	}
}

const logNA = gpulog.Unknown

func TestReadQueryCSV(t *testing.T) {
	runReadCases(t, []readCase{
		{name: "units and aliases", format: gpulog.FormatQueryCSV,
			in: "timestamp, gpu_name, gpu_bus_id, fb_memory_usage.used [MiB], memory.total [MiB], utilization.gpu [%], power.draw [W]\n" +
				"2024/03/01 10:00:00.250, NVIDIA A100, 0000:81:00.0, 841 MiB, 81920 MiB, 22 %, 61.5 W\n",
			samples: []sampleWant{{0, 841 * logMiB, 81920 * logMiB, "2024-03-01T09:00:00.25Z"}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				s, g := l.Samples[0], l.GPUs[0]
				if s.UtilizationGPU != 22 || s.PowerW != 61.5 || !math.IsNaN(s.UtilizationMemory) || s.MemoryFree != logNA {
					t.Errorf("sample %+v", s)
				}
				if g.BusID != "00000000:81:00.0" || g.Name != "NVIDIA A100" || g.MemoryTotal != 81920*logMiB || !l.Zoneless {
					t.Errorf("GPU %+v, zoneless %v", g, l.Zoneless)
				}
			}},
		{name: "nounits, two GPUs", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB], memory.total [MiB]\n0, 100, 200\n1, 50, 200\n",
			samples: []sampleWant{{0, 100 * logMiB, 200 * logMiB, ""}, {1, 50 * logMiB, 200 * logMiB, ""}}, gpus: 2},
		{name: "N/A values", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB], memory.total [MiB], utilization.gpu [%]\n0, [N/A], N/A, [Not Supported]\n",
			samples: []sampleWant{{0, logNA, logNA, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if !math.IsNaN(l.Samples[0].UtilizationGPU) {
					t.Errorf("utilization %v, want NaN", l.Samples[0].UtilizationGPU)
				}
			}},
		{name: "any order, unknown extra fields", format: gpulog.FormatQueryCSV,
			in:      "pstate, memory.used [MiB], index, clocks.sm [MHz], memory.free [MiB]\nP0, 5 MiB, 1, 1410 MHz, 7 MiB\n",
			samples: []sampleWant{{1, 5 * logMiB, logNA, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if l.Samples[0].MemoryFree != 7*logMiB {
					t.Errorf("free %d", l.Samples[0].MemoryFree)
				}
			}},
		{name: "header changes mid-file", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB]\n0, 1 MiB\nmemory.total [MiB], index, memory.used [MiB]\n100 MiB, 0, 2 MiB\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, ""}, {0, 2 * logMiB, 100 * logMiB, ""}}, gpus: 1},
		{name: "no index: rows of one sample share a timestamp", format: gpulog.FormatQueryCSV,
			in: "timestamp, name, memory.used [MiB]\n" +
				"2024/03/01 10:00:00.001, H200, 1 MiB\n2024/03/01 10:00:00.004, H200, 2 MiB\n" +
				"2024/03/01 10:00:02.001, H200, 3 MiB\n2024/03/01 10:00:02.001, H200, 4 MiB\n" +
				"2024/03/01 10:00:04.003, H200, 5 MiB\n2024/03/01 10:00:04.003, H200, 6 MiB\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, ""}, {1, 2 * logMiB, logNA, ""}, {0, 3 * logMiB, logNA, ""}, {1, 4 * logMiB, logNA, ""}, {0, 5 * logMiB, logNA, ""}, {1, 6 * logMiB, logNA, ""}},
			gpus:    2},
		{name: "no index, one GPU at 50 ms", format: gpulog.FormatQueryCSV,
			in: "timestamp, memory.used [MiB]\n2024/03/01 10:00:00.000, 1 MiB\n2024/03/01 10:00:00.050, 2 MiB\n" +
				"2024/03/01 10:00:00.101, 3 MiB\n2024/03/01 10:00:00.150, 4 MiB\n2024/03/01 10:00:00.200, 5 MiB\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, ""}, {0, 2 * logMiB, logNA, ""}, {0, 3 * logMiB, logNA, ""}, {0, 4 * logMiB, logNA, ""}, {0, 5 * logMiB, logNA, ""}},
			gpus:    1},
		{name: "no index, no time, a header per sample", format: gpulog.FormatQueryCSV,
			in:      "name, memory.used [MiB]\nA, 1 MiB\nA, 2 MiB\nname, memory.used [MiB]\nA, 3 MiB\nA, 4 MiB\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, ""}, {1, 2 * logMiB, logNA, ""}, {0, 3 * logMiB, logNA, ""}, {1, 4 * logMiB, logNA, ""}}, gpus: 2},
		{name: "last line cut in a value", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB], memory.total [MiB]\n0, 1 MiB, 100 MiB\n0, 2 MiB, 10",
			samples: []sampleWant{{0, 1 * logMiB, 100 * logMiB, ""}}, gpus: 1, skipped: 1, kind: "last line cut off (the file ends mid-line)"},
		{name: "last line cut after a comma", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB], memory.total [MiB]\n0, 1 MiB, 100 MiB\n0, 2 MiB,",
			samples: []sampleWant{{0, 1 * logMiB, 100 * logMiB, ""}}, gpus: 1, skipped: 1, kind: "last line cut off (the file ends mid-line)"},
		{name: "complete last line without newline", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB], memory.total [MiB]\n0, 1 MiB, 100 MiB\n0, 2 MiB, 100 MiB",
			samples: []sampleWant{{0, 1 * logMiB, 100 * logMiB, ""}, {0, 2 * logMiB, 100 * logMiB, ""}}, gpus: 1},
		{name: "bad rows are skipped with the reason", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB]\n0, 1 MiB\n0, 2 MiB, 3\nx, 4 MiB\n0, lots\n\n0, 5 MiB\r\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, ""}, {0, 5 * logMiB, logNA, ""}}, gpus: 1, skipped: 3, kind: "unreadable row",
			check: func(t *testing.T, l *gpulog.GPULog) {
				want := []string{"3 fields, the header has 2", `index "x" is not a GPU index`, `memory.used "lots" is not a memory size`}
				for i, w := range want {
					if !strings.Contains(l.Problems[i].Reason, w) || l.Problems[i].Line != i+3 {
						t.Errorf("problem %d: %+v, want line %d with %q", i, l.Problems[i], i+3, w)
					}
				}
			}},
		{name: "rows of a different GPU at the same index", format: gpulog.FormatQueryCSV,
			in:      "index, uuid, memory.used [MiB]\n0, GPU-a, 1 MiB\n0, GPU-b, 2 MiB\n1, GPU-c, 3 MiB\n0, GPU-a, 4 MiB\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, ""}, {1, 3 * logMiB, logNA, ""}, {0, 4 * logMiB, logNA, ""}}, gpus: 2, skipped: 1, kind: "row of a different GPU"},
		{name: "noheader, known order", format: gpulog.FormatQueryCSV,
			in:      "2024/03/01 10:00:00.000, NVIDIA A100, 00000000:01:00.0, 535.54.03, P0, 4, 4, 33, 0 %, 0 %, 81920 MiB, 81000 MiB, 920 MiB\n",
			samples: []sampleWant{{0, 920 * logMiB, 81920 * logMiB, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if len(l.Notes) != 1 || !strings.Contains(l.Notes[0], "documented example") {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		// Header-less orders of a user's own choosing, read from the
		// values: total is the memory column that never changes for a GPU.
		{name: "noheader, index, used and total by their values", format: gpulog.FormatQueryCSV,
			in:      "0, 1234 MiB, 81920 MiB\n1, 1 MiB, 81920 MiB\n0, 1300 MiB, 81920 MiB\n",
			samples: []sampleWant{{0, 1234 * logMiB, 81920 * logMiB, ""}, {1, 1 * logMiB, 81920 * logMiB, ""}, {0, 1300 * logMiB, 81920 * logMiB, ""}}, gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if len(l.Notes) == 0 || !strings.Contains(l.Notes[0], "columns read as index, memory.used, memory.total from their values") {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		{name: "noheader, nounits, total before used", format: gpulog.FormatQueryCSV,
			in:      "2024/03/01 10:00:00.000, 0, 81920, 1234\n2024/03/01 10:00:01.000, 0, 81920, 1300\n",
			samples: []sampleWant{{0, 1234 * logMiB, 81920 * logMiB, ""}, {0, 1300 * logMiB, 81920 * logMiB, ""}}, gpus: 1},
		{name: "noheader, name, index and a utilization column", format: gpulog.FormatQueryCSV,
			in:      "2024/03/01 10:00:00.000, NVIDIA H100 80GB HBM3, 0, 35 %, 1000 MiB, 81559 MiB\n",
			samples: []sampleWant{{0, 1000 * logMiB, 81559 * logMiB, ""}}, gpus: 1},
		{name: "noheader, more rows than the inference looks at", format: gpulog.FormatQueryCSV,
			in: headerlessRows(100), samples: headerlessWant(100), gpus: 1},
		{name: "noheader, used, free and total cannot be told apart", format: gpulog.FormatQueryCSV,
			in:  "0, 1234 MiB, 80686 MiB, 81920 MiB\n",
			err: "without a header line"},
		{name: "noheader, two memory columns that both change", format: gpulog.FormatQueryCSV,
			in:  "0, 5 MiB, 7 MiB\n0, 6 MiB, 5 MiB\n",
			err: "without a header line"},
		{name: "compute-apps with uuid and a name holding commas", format: gpulog.FormatComputeAppsCSV,
			in: "timestamp, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]\n" +
				"2024/03/01 10:00:00.000, GPU-abc, 00000000:01:00.0, 123, python train.py --a=1,2, 1000 MiB\n" +
				"2024/03/01 10:00:00.000, GPU-abd, 00000000:02:00.0, 124, python, [N/A]\n",
			procs: []gpulog.ProcessSample{
				{GPU: -1, UUID: "GPU-abc", BusID: "00000000:01:00.0", PID: 123, Name: "python train.py --a=1,2", UsedMemory: 1000 * logMiB},
				{GPU: -1, UUID: "GPU-abd", BusID: "00000000:02:00.0", PID: 124, Name: "python", UsedMemory: logNA}},
			gpus: 2},
		{name: "compute-apps name column is the process", format: gpulog.FormatComputeAppsCSV,
			in:    "pid, name, used_memory [MiB]\n5, python, 10 MiB\n",
			procs: []gpulog.ProcessSample{{GPU: -1, PID: 5, Name: "python", UsedMemory: 10 * logMiB}}},
		{name: "gpureport record file", format: gpulog.FormatNVML,
			in: "# gpureport record 0.1.0 host=box interval=1s\n" +
				"timestamp, index, name, uuid, pci.bus_id, memory.total [MiB], memory.used [MiB], memory.free [MiB], memory.reserved [MiB], utilization.gpu [%], utilization.memory [%], power.draw [W]\n" +
				"2025-08-01T15:47:06.123+02:00, 0, NVIDIA H100, GPU-x, 00000000:01:00.0, 81559 MiB, 1000 MiB, 80000 MiB, 559 MiB, 5 %, 1 %, 70.25 W\n",
			samples: []sampleWant{{0, 1000 * logMiB, 81559 * logMiB, "2025-08-01T13:47:06.123Z"}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if l.Zoneless || l.Format != gpulog.FormatNVML || l.Samples[0].MemoryReserved != 559*logMiB {
					t.Errorf("zoneless %v, format %s, sample %+v", l.Zoneless, l.Format, l.Samples[0])
				}
			}},
		{name: "NUL bytes before a row", format: gpulog.FormatQueryCSV,
			in:      "index, memory.used [MiB]\n0, 1 MiB\n\x00\x00\x00\n\x00\x000, 2 MiB\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, ""}, {0, 2 * logMiB, logNA, ""}}, gpus: 1, skipped: 1, kind: "NUL bytes only",
			check: func(t *testing.T, l *gpulog.GPULog) {
				if len(l.Notes) != 2 || !strings.Contains(l.Notes[0], "5 NUL bytes in 2 lines") || l.Timing != gpulog.TimingOrder {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		{name: "header only", format: gpulog.FormatQueryCSV,
			in:  "timestamp, index, memory.used [MiB]\n",
			err: "no readings"},
	})
}

const tableH100 = `Fri Mar  1 10:00:00 2024
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 570.133.20             Driver Version: 570.133.20     CUDA Version: 12.8     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA H100 80GB HBM3          Off |   00000000:AB:00.0 Off |                    0 |
| N/A   33C    P0             73W /  700W |    1000MiB /  81559MiB |     12%      Default |
|                                         |                        |             Disabled |
+-----------------------------------------+------------------------+----------------------+
|   1  NVIDIA H100 80GB HBM3          Off |   00000000:BA:00.0 Off |                    0 |
| N/A   26C    P0             70W /  700W |       0MiB /  81559MiB |      0%      Default |
|                                         |                        |             Disabled |
+-----------------------------------------+------------------------+----------------------+

+-----------------------------------------------------------------------------------------+
| Processes:                                                                              |
|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |
|        ID   ID                                                               Usage      |
|=========================================================================================|
|    0   N/A  N/A          424242      C   python train.py --config a b         990MiB |
|    1   N/A  N/A            4243    C+G   ...e/conda/envs/x/bin/python              N/A  |
+-----------------------------------------------------------------------------------------+
`

const tableWindows = `Fri Mar  1 10:00:05 2024
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 536.40                 Driver Version: 536.40       CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                     TCC/WDDM  | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|                                         |                      |               MIG M. |
|=========================================+======================+======================|
|   0  NVIDIA GeForce RTX 3080      WDDM  | 00000000:04:00.0  On |                  N/A |
| 30%   45C    P8              22W / 320W |   1128MiB / 10240MiB |      3%      Default |
|                                         |                      |                  N/A |
+-----------------------------------------+----------------------+----------------------+
`

const tableMIG = `Fri Mar  1 10:00:10 2024
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 510.47.03    Driver Version: 510.47.03    CUDA Version: 11.6     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|                               |                      |               MIG M. |
|===============================+======================+======================|
|   0  NVIDIA A100-SXM...  Off  | 00000000:00:04.0 Off |                   On |
| N/A   34C    P0    66W / 400W |     38MiB / 40960MiB |     N/A      Default |
|                               |                      |              Enabled |
+-------------------------------+----------------------+----------------------+

+-----------------------------------------------------------------------------+
| MIG devices:                                                                |
+------------------+----------------------+-----------+-----------------------+
| GPU  GI  CI  MIG |         Memory-Usage |        Vol|         Shared        |
|      ID  ID  Dev |           BAR1-Usage | SM     Unc| CE  ENC  DEC  OFA  JPG|
|                  |                      |        ECC|                       |
|==================+======================+===========+=======================|
|  0    1   0   0  |     19MiB / 19968MiB | 42      0 |  3   0    2    0    0 |
|                  |      0MiB / 32767MiB |           |                       |
+------------------+----------------------+-----------+-----------------------+
|  0    2   0   1  |     19MiB / 19968MiB | 42      0 |  3   0    2    0    0 |
|                  |      0MiB / 32767MiB |           |                       |
+------------------+----------------------+-----------+-----------------------+

+-----------------------------------------------------------------------------+
| Processes:                                                                  |
|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |
|        ID   ID                                                   Usage      |
|=============================================================================|
|  No running processes found                                                 |
+-----------------------------------------------------------------------------+
`

func TestReadTable(t *testing.T) {
	runReadCases(t, []readCase{
		{name: "two GPUs and processes", format: gpulog.FormatTable, in: tableH100,
			samples: []sampleWant{{0, 1000 * logMiB, 81559 * logMiB, "2024-03-01T09:00:00Z"}, {1, 0, 81559 * logMiB, ""}}, gpus: 2,
			procs: []gpulog.ProcessSample{
				{GPU: 0, PID: 424242, Name: "python train.py --config a b", UsedMemory: 990 * logMiB},
				{GPU: 1, PID: 4243, Name: "...e/conda/envs/x/bin/python", UsedMemory: logNA}},
			check: func(t *testing.T, l *gpulog.GPULog) {
				s := l.Samples[0]
				if s.UtilizationGPU != 12 || s.PowerW != 73 || l.Driver != "570.133.20" || l.GPUs[1].BusID != "00000000:BA:00.0" {
					t.Errorf("sample %+v driver %q GPUs %+v", s, l.Driver, l.GPUs)
				}
			}},
		{name: "Windows layout", format: gpulog.FormatTable, in: tableWindows,
			samples: []sampleWant{{0, 1128 * logMiB, 10240 * logMiB, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if l.GPUs[0].Name != "NVIDIA GeForce RTX 3080" {
					t.Errorf("name %q", l.GPUs[0].Name)
				}
			}},
		{name: "MIG devices", format: gpulog.FormatTable, in: tableMIG,
			samples: []sampleWant{{0, 38 * logMiB, 40960 * logMiB, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				want := []gpulog.MIGSample{
					{GPU: 0, MIG: 0, GPUInstance: 1, ComputeInstance: 0, MemoryUsed: 19 * logMiB, MemoryTotal: 19968 * logMiB},
					{GPU: 0, MIG: 1, GPUInstance: 2, ComputeInstance: 0, MemoryUsed: 19 * logMiB, MemoryTotal: 19968 * logMiB}}
				if len(l.MIG) != 2 {
					t.Fatalf("MIG %+v", l.MIG)
				}
				for i := range want {
					m := l.MIG[i]
					m.Time = time.Time{}
					if m != want[i] {
						t.Errorf("MIG %d: %+v, want %+v", i, m, want[i])
					}
				}
			}},
		{name: "repeated without date lines", format: gpulog.FormatTable, in: strings.Join(strings.Split(tableWindows, "\n")[1:], "\n") + strings.Join(strings.Split(tableWindows, "\n")[1:], "\n"),
			samples: []sampleWant{{0, 1128 * logMiB, 10240 * logMiB, ""}, {0, 1128 * logMiB, 10240 * logMiB, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if !l.Samples[0].Time.IsZero() {
					t.Errorf("undated table got time %v", l.Samples[0].Time)
				}
			}},
		{name: "table cut after a GPU row", format: gpulog.FormatTable, in: tableWindows + tableH100[:strings.Index(tableH100, "| N/A   33C")],
			samples: []sampleWant{{0, 1128 * logMiB, 10240 * logMiB, "2024-03-01T09:00:05Z"}}, gpus: 1, skipped: 1, kind: "GPU row without its memory line"},
		{name: "date line without a table, junk between tables", format: gpulog.FormatTable,
			in:      tableWindows + "&\nFri Mar  1 10:01:00 2024\nFri Mar  1 10:02:00 2024\n" + tableWindows,
			samples: []sampleWant{{0, 1128 * logMiB, 10240 * logMiB, "2024-03-01T09:00:05Z"}, {0, 1128 * logMiB, 10240 * logMiB, "2024-03-01T09:00:05Z"}}, gpus: 1, skipped: 3,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if l.Problems[0].Line != 13 || l.Problems[1].Line != 14 || l.Problems[2].Line != 15 || l.Problems[1].Reason != "date line without a table" {
					t.Errorf("problems %+v", l.Problems)
				}
			}},
		{name: "another tool's ASCII table between nvidia-smi tables", format: gpulog.FormatTable,
			in:      tableWindows + "epoch 1\n+--------+-------------------+\n| step   | loss              |\n+--------+-------------------+\n" + tableWindows,
			samples: []sampleWant{{0, 1128 * logMiB, 10240 * logMiB, ""}, {0, 1128 * logMiB, 10240 * logMiB, ""}}, gpus: 1, skipped: 4, kind: "not an nvidia-smi line"},
		{name: "table then CSV rows", format: gpulog.FormatTable,
			in:      tableWindows + "index, name, memory.used [MiB], memory.total [MiB]\n0, NVIDIA GeForce RTX 3080, 2000 MiB, 10240 MiB\n0, Tesla V100, 1 MiB, 32768 MiB\n",
			samples: []sampleWant{{0, 1128 * logMiB, 10240 * logMiB, ""}, {0, 2000 * logMiB, 10240 * logMiB, ""}}, gpus: 1, skipped: 1, kind: "row of a different GPU"},
	})
}

func TestReadDmon(t *testing.T) {
	runReadCases(t, []readCase{
		{name: "memory group with date and time, repeated header", format: gpulog.FormatDmon,
			in: "#Date       Time        gpu    fb  bar1  ccpm\n#YYYYMMDD   HH:MM:SS    Idx    MB    MB    MB\n" +
				" 20240301   10:00:00      0  1234     5     0\n 20240301   10:00:00      1     -     5     0\n" +
				"#Date       Time        gpu    fb  bar1  ccpm\n#YYYYMMDD   HH:MM:SS    Idx    MB    MB    MB\n" +
				" 20240301   10:00:01      0  1300     5     0\n",
			samples: []sampleWant{{0, 1234 * logMiB, logNA, "2024-03-01T09:00:00Z"}, {1, logNA, logNA, ""}, {0, 1300 * logMiB, logNA, "2024-03-01T09:00:01Z"}}, gpus: 2},
		{name: "utilization and power groups", format: gpulog.FormatDmon,
			in:      "# gpu   pwr gtemp mtemp    sm   mem   enc   dec\n# Idx     W     C     C     %     %     %     %\n    0    43    33     -    12     3     0     0\n",
			samples: []sampleWant{{0, logNA, logNA, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if s := l.Samples[0]; s.PowerW != 43 || s.UtilizationGPU != 12 || s.UtilizationMemory != 3 || !s.Time.IsZero() {
					t.Errorf("sample %+v", s)
				}
			}},
		{name: "time of day only, across midnight", format: gpulog.FormatDmon,
			in:      "#Time        gpu    fb\n#HH:MM:SS    Idx    MB\n 23:59:59      0     1\n 00:00:01      0     2\n 00:29:00      0     3\n",
			samples: []sampleWant{{0, 1 * logMiB, logNA, "2024-03-01T22:59:59Z"}, {0, 2 * logMiB, logNA, "2024-03-01T23:00:01Z"}, {0, 3 * logMiB, logNA, "2024-03-01T23:29:00Z"}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if len(l.Notes) != 1 || !strings.Contains(l.Notes[0], "modification time") {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		{name: "pmon", format: gpulog.FormatDmon,
			in: "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa     fb   ccpm    command\n" +
				"# Idx           #    C/G      %      %      %      %      %      %     MB     MB    name\n" +
				"    0       1234     C     50     20      -      -      -      -   4000      0    python\n" +
				"    1          -     -      -      -      -      -      -      -      -      -    -\n",
			procs: []gpulog.ProcessSample{{GPU: 0, PID: 1234, Name: "python", UsedMemory: 4000 * logMiB}}, gpus: 1},
		{name: "bad rows", format: gpulog.FormatDmon,
			in:      "    0 1\n# gpu    sm\n# Idx     %\n    0  x\n    0  1  2\n    1  5\n",
			samples: []sampleWant{{1, logNA, logNA, ""}}, gpus: 1, skipped: 3},
	})
}

const xmlDoc = `<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">
<nvidia_smi_log>
	<timestamp>Fri Mar  1 10:00:00 2024</timestamp>
	<driver_version>535.54.03</driver_version>
	<gpu id="00000000:01:00.0">
		<product_name>NVIDIA A100-SXM4-80GB</product_name>
		<uuid>GPU-aaa</uuid>
		<fb_memory_usage><total>81920 MiB</total><reserved>869 MiB</reserved><used>USED0 MiB</used><free>80999 MiB</free></fb_memory_usage>
		<utilization><gpu_util>7 %</gpu_util><memory_util>N/A</memory_util></utilization>
		<gpu_power_readings><instant_power_draw>67.03 W</instant_power_draw></gpu_power_readings>
		<processes><process_info><pid>42</pid><type>C</type><process_name>python</process_name><used_memory>N/A</used_memory></process_info></processes>
	</gpu>
	<gpu id="00000000:02:00.0">
		<product_name>NVIDIA A100-SXM4-80GB</product_name>
		<uuid>UUID1</uuid>
		<fb_memory_usage><total>81920 MiB</total><used>3 MiB</used><free>81917 MiB</free></fb_memory_usage>
	</gpu>
</nvidia_smi_log>
`

func TestReadXML(t *testing.T) {
	doc := func(used, uuid1, stamp string) string {
		s := strings.ReplaceAll(xmlDoc, "USED0", used)
		s = strings.ReplaceAll(s, "UUID1", uuid1)
		return strings.ReplaceAll(s, "Fri Mar  1 10:00:00 2024", stamp)
	}
	runReadCases(t, []readCase{
		{name: "concatenated documents", format: gpulog.FormatXML,
			in: doc("50", "GPU-bbb", "Fri Mar  1 10:00:00 2024") + doc("60", "GPU-bbb", "Fri Mar  1 10:00:05 2024"),
			samples: []sampleWant{{0, 50 * logMiB, 81920 * logMiB, "2024-03-01T09:00:00Z"}, {1, 3 * logMiB, 81920 * logMiB, ""},
				{0, 60 * logMiB, 81920 * logMiB, "2024-03-01T09:00:05Z"}, {1, 3 * logMiB, 81920 * logMiB, ""}},
			procs: []gpulog.ProcessSample{{GPU: 0, UUID: "GPU-aaa", BusID: "00000000:01:00.0", PID: 42, Name: "python", UsedMemory: logNA},
				{GPU: 0, UUID: "GPU-aaa", BusID: "00000000:01:00.0", PID: 42, Name: "python", UsedMemory: logNA}},
			gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				s := l.Samples[0]
				if s.MemoryReserved != 869*logMiB || s.PowerW != 67.03 || s.UtilizationGPU != 7 || !math.IsNaN(s.UtilizationMemory) || l.Driver != "535.54.03" {
					t.Errorf("sample %+v driver %q", s, l.Driver)
				}
			}},
		{name: "broken document between good ones", format: gpulog.FormatXML,
			in:      doc("50", "GPU-bbb", "Fri Mar  1 10:00:00 2024") + strings.Replace(doc("1", "GPU-bbb", "x"), "</gpu>", "</gpx>", 1) + doc("70", "GPU-bbb", "Fri Mar  1 10:00:10 2024"),
			samples: []sampleWant{{0, 50 * logMiB, 81920 * logMiB, ""}, {1, 3 * logMiB, 81920 * logMiB, ""}, {0, 70 * logMiB, 81920 * logMiB, ""}, {1, 3 * logMiB, 81920 * logMiB, ""}},
			procs:   []gpulog.ProcessSample{{GPU: 0, UUID: "GPU-aaa", BusID: "00000000:01:00.0", PID: 42, Name: "python", UsedMemory: logNA}, {GPU: 0, UUID: "GPU-aaa", BusID: "00000000:01:00.0", PID: 42, Name: "python", UsedMemory: logNA}},
			gpus:    2, skipped: 1, kind: "unreadable XML document"},
		{name: "last document cut off", format: gpulog.FormatXML,
			in:      doc("50", "GPU-bbb", "Fri Mar  1 10:00:00 2024") + doc("60", "GPU-bbb", "Fri Mar  1 10:00:05 2024")[:300],
			samples: []sampleWant{{0, 50 * logMiB, 81920 * logMiB, ""}, {1, 3 * logMiB, 81920 * logMiB, ""}},
			procs:   []gpulog.ProcessSample{{GPU: 0, UUID: "GPU-aaa", BusID: "00000000:01:00.0", PID: 42, Name: "python", UsedMemory: logNA}},
			gpus:    2, skipped: 1, kind: "unreadable XML document",
			check: func(t *testing.T, l *gpulog.GPULog) {
				if p := l.Problems[0]; p.Line < 22 || !strings.Contains(p.Reason, "cut off") {
					t.Errorf("problem %+v", p)
				}
			}},
		{name: "another GPU at index 1 in the second document", format: gpulog.FormatXML,
			in:      doc("50", "GPU-bbb", "Fri Mar  1 10:00:00 2024") + doc("60", "GPU-ccc", "Fri Mar  1 10:00:05 2024"),
			samples: []sampleWant{{0, 50 * logMiB, 81920 * logMiB, ""}, {1, 3 * logMiB, 81920 * logMiB, ""}, {0, 60 * logMiB, 81920 * logMiB, ""}},
			procs:   []gpulog.ProcessSample{{GPU: 0, UUID: "GPU-aaa", BusID: "00000000:01:00.0", PID: 42, Name: "python", UsedMemory: logNA}, {GPU: 0, UUID: "GPU-aaa", BusID: "00000000:01:00.0", PID: 42, Name: "python", UsedMemory: logNA}},
			gpus:    2, skipped: 1, kind: "row of a different GPU"},
		{name: "not nvidia-smi XML", format: gpulog.FormatXML, in: "<?xml version=\"1.0\"?>\n<svg></svg>\n", err: "no readings"},
	})
}

func TestReadMemoryStats(t *testing.T) {
	runReadCases(t, []readCase{
		{name: "flat keys, step and Unix time", format: gpulog.FormatMemoryStats,
			in: `{"step": 10, "time": 1709287200.5, "allocated_bytes.all.current": 1024, "reserved_bytes.all.current": 4096, "active_bytes.all.current": 2048, "inactive_split_bytes.all.current": 512, "num_alloc_retries": 1, "num_ooms": 0}` + "\n" +
				`{"step": 20, "time": 1709287260, "allocated_bytes.all.current": 2048, "reserved_bytes.all.current": 4096}` + "\n",
			gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				want := []gpulog.MemoryStatsSample{
					{Step: 10, Time: time.Unix(1709287200, 5e8).UTC(), Rank: input.NoRank, Allocated: 1024, Reserved: 4096, Active: 2048, InactiveSplit: 512, NumAllocRetries: 1, NumOOMs: 0},
					{Step: 20, Time: time.Unix(1709287260, 0).UTC(), Rank: input.NoRank, Allocated: 2048, Reserved: 4096, Active: logNA, InactiveSplit: logNA, NumAllocRetries: logNA, NumOOMs: logNA}}
				if len(l.MemoryStats) != 2 || l.MemoryStats[0] != want[0] || l.MemoryStats[1] != want[1] {
					t.Errorf("got %+v\nwant %+v", l.MemoryStats, want)
				}
			}},
		{name: "nested object, device string, rank, ISO time", format: gpulog.FormatMemoryStats,
			in:   `{"iteration": 3, "rank": 2, "device": "cuda:1", "timestamp": "2024-03-01T10:00:00", "memory_stats": {"allocated_bytes": {"all": {"current": 100}}, "reserved_bytes.all.current": 200}}` + "\n",
			gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				s := l.MemoryStats[0]
				if s.Step != 3 || s.Rank != 2 || s.Device != 1 || s.Allocated != 100 || s.Reserved != 200 || !l.Zoneless ||
					s.Time.UTC().Format(time.RFC3339) != "2024-03-01T09:00:00Z" || l.GPUs[0].Index != 1 {
					t.Errorf("sample %+v GPUs %+v", s, l.GPUs)
				}
			}},
		{name: "device strings name the device type", format: gpulog.FormatMemoryStats,
			in: `{"step": 1, "device": "xpu:1", "allocated_bytes.all.current": 1}` + "\n" + `{"step": 1, "device": "npu:2", "allocated_bytes.all.current": 1}` + "\n" +
				`{"step": 1, "device": "mps", "allocated_bytes.all.current": 1}` + "\n" + `{"step": 1, "device": "cuda:3", "allocated_bytes.all.current": 1}` + "\n" +
				`{"step": 1, "device": "gpu:4", "allocated_bytes.all.current": 1}` + "\n" + `{"step": 1, "device": 5, "allocated_bytes.all.current": 1}` + "\n",
			gpus: 6,
			check: func(t *testing.T, l *gpulog.GPULog) {
				want := []struct {
					dev int
					typ string
				}{{1, "xpu"}, {2, "npu"}, {0, "mps"}, {3, ""}, {4, ""}, {5, ""}}
				for i, w := range want {
					if s := l.MemoryStats[i]; s.Device != w.dev || s.Type != w.typ {
						t.Errorf("line %d: device %d of type %q, want %d, %q", i+1, s.Device, s.Type, w.dev, w.typ)
					}
				}
			}},
		{name: "device UUID and pid for the GPU join", format: gpulog.FormatMemoryStats,
			in:   `{"step": 5, "device": 0, "uuid": " 8a3c0b1e-0000-4000-8000-000000000005 ", "pid": 4242, "allocated_bytes.all.current": 1}` + "\n" + `{"step": 6, "device_uuid": "GPU-1", "pid": -3, "allocated_bytes.all.current": 1}` + "\n",
			gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				a, b := l.MemoryStats[0], l.MemoryStats[1]
				if a.UUID != "8a3c0b1e-0000-4000-8000-000000000005" || a.PID != 4242 || b.UUID != "GPU-1" || b.PID != 0 {
					t.Errorf("got %+v / %+v", a, b)
				}
			}},
		{name: "short keys with units; bad lines", format: gpulog.FormatMemoryStats,
			in:      `{"step": 1, "allocated_mb": 1.5, "memory_reserved": 4194304}` + "\nnot json\n{\"lr\": 0.1}\n[1,2]\n" + `{"step": 2, "allocated_gb": 1}` + "\n",
			gpus:    1,
			skipped: 3,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if len(l.MemoryStats) != 2 || l.MemoryStats[0].Allocated != 1572864 || l.MemoryStats[0].Reserved != 4<<20 || l.MemoryStats[1].Allocated != 1<<30 {
					t.Errorf("got %+v", l.MemoryStats)
				}
			}},
	})
}

// TestSniffLog checks that each format is recognised from its head, and
// that text that merely resembles a log is not claimed.
func TestSniffLog(t *testing.T) {
	tests := []struct {
		name string
		head string
		want gpulog.LogFormat // "" means not claimed
	}{
		{"query csv", "timestamp, index, memory.used [MiB]\n2024/03/01 10:00:00.000, 0, 1 MiB\n", gpulog.FormatQueryCSV},
		{"query csv after NULs and BOM", "\x00\x00\xef\xbb\xbfindex, memory.used [MiB]\n", gpulog.FormatQueryCSV},
		{"compute apps", "used_gpu_memory [MiB]\n1 MiB\n", gpulog.FormatComputeAppsCSV},
		{"noheader row", "2025/02/03 11:58:03.433, NVIDIA GeForce RTX 3080 Ti, 0, 0, 12288, 12043, 2\n", gpulog.FormatQueryCSV},
		{"nvml", "# gpureport record 0.1.0\ntimestamp, index\n", gpulog.FormatNVML},
		{"dmon", "# gpu     sm    mem\n# Idx      %      %\n    0     46     26\n", gpulog.FormatDmon},
		{"dmon -o DT", "#Date       Time        gpu    fb\n#YYYYMMDD   HH:MM:SS    Idx    MB\n", gpulog.FormatDmon},
		{"table", tableH100, gpulog.FormatTable},
		{"table without date", tableH100[strings.Index(tableH100, "\n")+1:], gpulog.FormatTable},
		{"xml", xmlDoc, gpulog.FormatXML},
		{"memory stats", `{"step": 1, "allocated_bytes.all.current": 5}` + "\n", gpulog.FormatMemoryStats},
		{"memory stats short keys", `{"step": 1, "allocated": 5, "reserved": 6}` + "\n", gpulog.FormatMemoryStats},
		{"training stdout", "Epoch 1/10\nstep 100 loss 0.35 lr 3e-4\n", ""},
		{"yaml config", "lr: 3e-4\nbatch_size: 32\n", ""},
		{"readme", "# Results\n\nThe run used 4 GPUs.\n", ""},
		{"metrics csv", "step,loss,accuracy\n1,0.5,0.9\n", ""},
		{"generic name/index csv", "name, index\nfoo, 1\n", ""},
		{"json config", `{"lr": 0.001, "batch_size": 32}` + "\n", ""},
		{"json with step only", `{"step": 1, "loss": 0.3}` + "\n", ""},
		{"dated log line", "Fri Aug  1 15:47:06 2025 training started\nepoch 1\n", ""},
		{"date then text", "Fri Aug  1 15:47:06 2025\nepoch 1\n", ""},
		{"ASCII table of another tool", "+------------+--------+\n| metric     | value  |\n+------------+--------+\n", ""},
		{"date then ASCII table", "Fri Aug  1 15:47:06 2025\n+------------+--------+\n| metric     | value  |\n", ""},
		{"other xml", "<?xml version=\"1.0\"?>\n<project></project>\n", ""},
		{"shell comment", "#!/bin/bash\n# gpu monitor\nnvidia-smi -l 1\n", ""},
		{"numbers csv", "0, 1, 2\n3, 4, 5\n", ""},
		{"empty", "", ""},
		{"only NULs", "\x00\x00\x00", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := gpulog.SniffLog([]byte(tt.head))
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("SniffLog = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}

// utf16 encodes s as UTF-16 with a byte order mark, as PowerShell's
// redirection writes it.
func utf16(s string, bigEndian bool) []byte {
	out := []byte{0xff, 0xfe}
	if bigEndian {
		out = []byte{0xfe, 0xff}
	}
	for _, c := range utf16pkg.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(c>>8), byte(c))
		} else {
			out = append(out, byte(c), byte(c>>8))
		}
	}
	return out
}

func TestReadUTF16(t *testing.T) {
	text := "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\r\n" +
		"2024/03/01 10:00:00.000, GPU-a, 7, python \U0001F680.exe, 5 MiB\r\n"
	for _, big := range []bool{false, true} {
		data := utf16(text, big)
		if f, ok := gpulog.SniffLog(data); !ok || f != gpulog.FormatComputeAppsCSV {
			t.Errorf("big endian %v: SniffLog = %q, %v", big, f, ok)
		}
		l, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatComputeAppsCSV, gpulog.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Processes) != 1 || l.Processes[0].Name != "python \U0001F680.exe" || l.Processes[0].UsedMemory != 5*logMiB {
			t.Errorf("big endian %v: processes %+v", big, l.Processes)
		}
	}
	// A dangling high surrogate and an odd last byte do not stop reading.
	data := append(utf16("index, memory.used [MiB]\n0, 1 MiB\n", false), 0x3d, 0xd8, 0x41)
	l, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
	if err != nil || len(l.Samples) != 1 || l.SkippedLines != 1 {
		t.Errorf("log %+v, error %v", l, err)
	}
}

func TestDecodeLogErrorsNameTheFile(t *testing.T) {
	_, err := gpulog.DecodeLog("/nonexistent/gpu.csv", gpulog.FormatQueryCSV, nil)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/gpu.csv") {
		t.Errorf("error %v does not name the file", err)
	}
	_, err = gpulog.ReadLog(strings.NewReader("timestamp, index, memory.used [MiB]\n"), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
	if !errors.Is(err, gpulog.ErrNoReadings) {
		t.Errorf("error %v, want ErrNoReadings", err)
	}
}

// headerlessRows is n rows of a header-less "index, memory.used,
// memory.total" log of one GPU, used growing 1 MiB a row;
// headerlessWant their readings.
func headerlessRows(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "0, %d MiB, 1000 MiB\n", i)
	}
	return b.String()
}

func headerlessWant(n int) []sampleWant {
	out := make([]sampleWant, n)
	for i := range out {
		out[i] = sampleWant{0, int64(i) * logMiB, 1000 * logMiB, ""}
	}
	return out
}
