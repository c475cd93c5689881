package gpulog_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/internal/testutil"
)

// oomWording is one out-of-memory message as an allocator prints it, in
// the row of docs/oom-messages.md named id, with the figures it must read
// to. Sizes are written as the message prints them ("20.00 MiB") and
// converted by printedSize, independently of the reader.
type oomWording struct {
	id  string
	msg string
	// want holds the printed sizes by field; absent fields are unknown.
	want map[string]string
	// device is the device the message names, -1 for none; backend the
	// allocator's device kind.
	device  int
	backend string
	// short marks one-line messages (NCCL, raw CUDA errors) that are not
	// wrapped across lines by the mutations (see oomMutations).
	short bool
}

// oomWordings are every wording docs/oom-messages.md lists.
var oomWordings = []oomWording{
	{id: "thc-cached", device: 0, backend: "CUDA",
		msg:  "RuntimeError: CUDA out of memory. Tried to allocate 1024.00 KiB (GPU 0; 11.17 GiB total capacity; 10.90 GiB already allocated; 576.00 KiB free; 30.96 MiB cached)",
		want: map[string]string{"requested": "1024.00 KiB", "capacity": "11.17 GiB", "allocated": "10.90 GiB", "free": "576.00 KiB", "unallocated": "30.96 MiB", "reserved": "10.90 GiB + 30.96 MiB"}},
	{id: "lms-inactive", device: 1, backend: "CUDA",
		msg:  "RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 1; 15.75 GiB total capacity; 14.20 GiB already allocated; 120.44 MiB free; 980.00 MiB cached; 2.10 GiB inactive)",
		want: map[string]string{"requested": "256.00 MiB", "capacity": "15.75 GiB", "allocated": "14.20 GiB", "free": "120.44 MiB", "unallocated": "980.00 MiB", "reserved": "14.20 GiB + 980.00 MiB"}},
	{id: "c10-reserved", device: 0, backend: "CUDA",
		msg:  "RuntimeError: CUDA out of memory. Tried to allocate 384.00 MiB (GPU 0; 14.76 GiB total capacity; 11.04 GiB already allocated; 259.75 MiB free; 11.10 GiB reserved in total by PyTorch)",
		want: map[string]string{"requested": "384.00 MiB", "capacity": "14.76 GiB", "allocated": "11.04 GiB", "free": "259.75 MiB", "reserved": "11.10 GiB", "unallocated": "11.10 GiB - 11.04 GiB"}},
	{id: "c10-allowed", device: 2, backend: "CUDA",
		msg:  "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 2; 39.59 GiB total capacity; 9.10 GiB already allocated; 29.80 GiB free; 10.00 GiB allowed; 9.60 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
		want: map[string]string{"requested": "2.00 GiB", "capacity": "39.59 GiB", "allocated": "9.10 GiB", "free": "29.80 GiB", "allowed": "10.00 GiB", "reserved": "9.60 GiB", "unallocated": "9.60 GiB - 9.10 GiB"}},
	{id: "c10-advice", device: 0, backend: "CUDA",
		msg:  "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 13.20 GiB already allocated; 5.69 MiB free; 14.62 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
		want: map[string]string{"requested": "20.00 MiB", "capacity": "15.78 GiB", "allocated": "13.20 GiB", "free": "5.69 MiB", "reserved": "14.62 GiB", "unallocated": "14.62 GiB - 13.20 GiB"}},
	{id: "capacty", device: 0, backend: "CUDA",
		msg: "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacty of 23.65 GiB of which 5.06 MiB is free. Process 3340 has 1.20 GiB memory in use. Including non-PyTorch memory, this process has 22.41 GiB memory in use. Of the allocated memory 21.86 GiB is allocated by PyTorch, and 99.06 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
		want: map[string]string{"requested": "20.00 MiB", "capacity": "23.65 GiB", "free": "5.06 MiB", "others": "1.20 GiB", "inuse": "22.41 GiB",
			"allocated": "21.86 GiB", "unallocated": "99.06 MiB", "reserved": "21.86 GiB + 99.06 MiB"}},
	{id: "capacity", device: 0, backend: "CUDA",
		msg: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.23 GiB is free. Including non-PyTorch memory, this process has 77.85 GiB memory in use. Of the allocated memory 75.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
		want: map[string]string{"requested": "2.00 GiB", "capacity": "79.10 GiB", "free": "1.23 GiB", "inuse": "77.85 GiB",
			"allocated": "75.10 GiB", "unallocated": "1.20 GiB", "reserved": "75.10 GiB + 1.20 GiB"}},
	{id: "no-index", device: -1, backend: "CUDA",
		msg: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU  has a total capacity of 39.39 GiB of which 96.44 MiB is free. Including non-PyTorch memory, this process has 39.29 GiB memory in use. Of the allocated memory 37.90 GiB is allocated by PyTorch, and 880.43 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
		want: map[string]string{"requested": "64.00 MiB", "capacity": "39.39 GiB", "free": "96.44 MiB", "inuse": "39.29 GiB",
			"allocated": "37.90 GiB", "unallocated": "880.43 MiB", "reserved": "37.90 GiB + 880.43 MiB"}},
	{id: "fraction", device: 1, backend: "CUDA",
		msg: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which 52.31 GiB is free. 24.00 GiB allowed; Of the allocated memory 21.50 GiB is allocated by PyTorch, and 1.10 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
		want: map[string]string{"requested": "4.00 GiB", "capacity": "79.10 GiB", "free": "52.31 GiB", "allowed": "24.00 GiB",
			"allocated": "21.50 GiB", "unallocated": "1.10 GiB", "reserved": "21.50 GiB + 1.10 GiB"}},
	{id: "private-pools", device: 3, backend: "CUDA",
		msg: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 3 has a total capacity of 79.44 GiB of which 211.94 MiB is free. Process 1884 has 2.10 GiB memory in use. Process 1902 has 512.00 MiB memory in use. Including non-PyTorch memory, this process has 77.12 GiB memory in use. Of the allocated memory 74.01 GiB is allocated by PyTorch, with 1.50 GiB allocated in private pools (e.g., CUDA Graphs), and 2.61 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)",
		want: map[string]string{"requested": "512.00 MiB", "capacity": "79.44 GiB", "free": "211.94 MiB", "others": "2.10 GiB + 512.00 MiB", "inuse": "77.12 GiB",
			"allocated": "74.01 GiB", "pools": "1.50 GiB", "unallocated": "2.61 GiB", "reserved": "74.01 GiB + 2.61 GiB"}},
	{id: "device-neutral", device: 0, backend: "",
		msg:  "torch.OutOfMemoryError: Out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 23.99 GiB of which 410.00 MiB is free. Of the allocated memory 22.80 GiB is allocated by PyTorch, and 310.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_ALLOC_CONF=expandable_segments:True to avoid fragmentation.",
		want: map[string]string{"requested": "1.00 GiB", "capacity": "23.99 GiB", "free": "410.00 MiB", "allocated": "22.80 GiB", "unallocated": "310.00 MiB", "reserved": "22.80 GiB + 310.00 MiB"}},
	{id: "hip-legacy", device: 0, backend: "HIP",
		msg:  "RuntimeError: HIP out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.98 GiB total capacity; 15.40 GiB already allocated; 12.00 MiB free; 15.60 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_HIP_ALLOC_CONF",
		want: map[string]string{"requested": "20.00 MiB", "capacity": "15.98 GiB", "allocated": "15.40 GiB", "free": "12.00 MiB", "reserved": "15.60 GiB", "unallocated": "15.60 GiB - 15.40 GiB"}},
	{id: "hip", device: 0, backend: "HIP",
		msg:  "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 100.00 MiB. GPU 0 has a total capacity of 63.98 GiB of which 612.00 MiB is free. Of the allocated memory 62.10 GiB is allocated by PyTorch, and 890.12 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
		want: map[string]string{"requested": "100.00 MiB", "capacity": "63.98 GiB", "free": "612.00 MiB", "allocated": "62.10 GiB", "unallocated": "890.12 MiB", "reserved": "62.10 GiB + 890.12 MiB"}},
	{id: "npu", device: 0, backend: "NPU",
		msg:  "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total capacity; 26.10 GiB already allocated; 26.10 GiB current active; 1.20 GiB free; 27.90 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.",
		want: map[string]string{"requested": "2.00 GiB", "capacity": "29.50 GiB", "allocated": "26.10 GiB", "free": "1.20 GiB", "reserved": "27.90 GiB", "unallocated": "27.90 GiB - 26.10 GiB"}},
	{id: "dpcpp", device: 0, backend: "DPCPP",
		msg:  "RuntimeError: DPCPP out of memory. Tried to allocate 1.00 GiB (GPU 0; 15.11 GiB total capacity; 13.80 GiB already allocated; 14.31 GiB reserved in total by PyTorch)",
		want: map[string]string{"requested": "1.00 GiB", "capacity": "15.11 GiB", "allocated": "13.80 GiB", "reserved": "14.31 GiB", "unallocated": "14.31 GiB - 13.80 GiB"}},
	{id: "xpu-nofree", device: 0, backend: "XPU",
		msg:  "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 15.11 GiB. Of the allocated memory 13.80 GiB is allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but unallocated. Please use `empty_cache` to release all unoccupied cached memory.",
		want: map[string]string{"requested": "1.00 GiB", "capacity": "15.11 GiB", "allocated": "13.80 GiB", "unallocated": "512.00 MiB", "reserved": "13.80 GiB + 512.00 MiB"}},
	{id: "xpu", device: 0, backend: "XPU",
		msg:  "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 15.11 GiB of which 300.00 MiB is free. Of the allocated memory 13.80 GiB is allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but unallocated. Please use `empty_cache` to release all unoccupied cached memory.",
		want: map[string]string{"requested": "1.00 GiB", "capacity": "15.11 GiB", "free": "300.00 MiB", "allocated": "13.80 GiB", "unallocated": "512.00 MiB", "reserved": "13.80 GiB + 512.00 MiB"}},
	{id: "mlu", device: 0, backend: "MLU",
		msg:  "torch.OutOfMemoryError: MLU out of memory. Tried to allocate 256.00 MiB. MLU 0 has a total capacity of 47.98 GiB of which 120.00 MiBis free. Of the allocated memory 46.20 GiB is allocated by PyTorch, and 1.10 GiB is reserved by PyTorch but unallocated.",
		want: map[string]string{"requested": "256.00 MiB", "capacity": "47.98 GiB", "free": "120.00 MiB", "allocated": "46.20 GiB", "unallocated": "1.10 GiB", "reserved": "46.20 GiB + 1.10 GiB"}},
	{id: "mps", device: -1, backend: "MPS",
		msg:  "RuntimeError: MPS backend out of memory (MPS allocated: 8.00 GB, other allocations: 1.20 GB, max allowed: 9.07 GB). Tried to allocate 512.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).",
		want: map[string]string{"requested": "512.00 MB", "allocated": "8.00 GB", "otherallocs": "1.20 GB", "allowed": "9.07 GB"}},
	{id: "mps-nolimit", device: -1, backend: "MPS",
		msg:  "RuntimeError: MPS backend out of memory (MPS allocated: 17.20 GB, other allocations: 1.10 GB). Tried to allocate 2.00 GB on shared pool.",
		want: map[string]string{"requested": "2.00 GB", "allocated": "17.20 GB", "otherallocs": "1.10 GB"}},
	{id: "cuda-error", device: -1, short: true, msg: "RuntimeError: CUDA error: out of memory", want: map[string]string{}},
	{id: "cuda-driver-error", device: -1, short: true, msg: "RuntimeError: CUDA driver error: out of memory", want: map[string]string{}},
	{id: "hip-error", device: -1, short: true, msg: "RuntimeError: HIP error: out of memory", want: map[string]string{}},
	{id: "cublas-alloc", device: -1, short: true, msg: "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`", want: map[string]string{}},
	{id: "cudnn-alloc", device: -1, short: true, msg: "RuntimeError: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_ALLOC_FAILED", want: map[string]string{}},
	// The figures are on lines of their own; a "PyTorch limit" at the
	// capacity (no memory fraction) caps nothing and is not kept. Its
	// lines are short but the first (91 columns): wrapped at 80 it loses
	// "(out of memory)", which tells it, so it is not wrapped (short).
	{id: "malloc-async", device: 0, backend: "CUDA", short: true,
		msg: "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\nCurrently allocated     : 76.50 GiB\nRequested               : 2.00 GiB\n" +
			"Device limit            : 79.15 GiB\nFree (according to CUDA): 1.23 GiB\nPyTorch limit (set by user-supplied memory fraction)\n                        : 79.15 GiB",
		want: map[string]string{"requested": "2.00 GiB", "capacity": "79.15 GiB", "free": "1.23 GiB", "allocated": "76.50 GiB"}},
	{id: "malloc-async-fraction", device: 3, backend: "CUDA", short: true,
		msg: "torch.OutOfMemoryError: Allocation on device 3 would exceed allowed memory. (out of memory)\nCurrently allocated     : 38.10 GiB\nRequested               : 4.00 GiB\n" +
			"Device limit            : 79.15 GiB\nFree (according to CUDA): 40.50 GiB\nPyTorch limit (set by user-supplied memory fraction)\n                        : 40.00 GiB",
		want: map[string]string{"requested": "4.00 GiB", "capacity": "79.15 GiB", "free": "40.50 GiB", "allocated": "38.10 GiB", "allowed": "40.00 GiB"}},
	{id: "thc-runtime", device: -1, short: true, msg: "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58", want: map[string]string{}},
	{id: "nccl", device: 2, short: true, msg: "node7:4711:4790 [2] include/alloc.h:114 NCCL WARN Failed to CUDA calloc 8388608 bytes", want: map[string]string{"requested": "8388608 bytes"}},
}

// printedSize converts sizes as a message prints them, joined by " + "
// or " - ", to bytes: binary units, "KB", "MB" and "GB" included, each
// size truncated to whole bytes as the reader does.
func printedSize(t testing.TB, s string) int64 {
	t.Helper()
	sign, total := int64(1), int64(0)
	for _, tok := range strings.Split(s, " ") {
		switch tok {
		case "+":
			sign = 1
			continue
		case "-":
			sign = -1
			continue
		}
		if tok == "" {
			continue
		}
		num, err := strconv.ParseFloat(tok, 64)
		if err == nil {
			total += sign * int64(num)
			continue
		}
		t.Fatalf("size %q: %q is neither a number nor an operator", s, tok)
	}
	return total
}

// parseWant turns "10.90 GiB + 30.96 MiB" into "11703772545 + 32464650"
// and then bytes.
func parseWant(t testing.TB, s string) int64 {
	t.Helper()
	units := map[string]float64{"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}
	f := strings.Fields(s)
	var out []string
	for i := 0; i < len(f); i++ {
		if f[i] == "+" || f[i] == "-" {
			out = append(out, f[i])
			continue
		}
		if i+1 >= len(f) {
			t.Fatalf("size %q: a number without its unit", s)
		}
		v, err := strconv.ParseFloat(f[i], 64)
		u, ok := units[f[i+1]]
		if err != nil || !ok {
			t.Fatalf("size %q: %q %q", s, f[i], f[i+1])
		}
		out = append(out, strconv.FormatInt(int64(v*u), 10))
		i++
	}
	return printedSize(t, strings.Join(out, " "))
}

// oomFigures are the figures of a message that every variant must read
// the same.
type oomFigures struct {
	Device                                          int
	Backend                                         string
	Requested, Capacity, Free, Allocated, Reserved  int64
	ReservedUnallocated, ProcessInUse, PrivatePools int64
	Allowed, OtherProcesses, OtherAllocations       int64
}

func figuresOf(o gpulog.TrainingOOM) oomFigures {
	return oomFigures{Device: o.Device, Backend: o.Backend, Requested: o.Requested, Capacity: o.Capacity, Free: o.Free,
		Allocated: o.Allocated, Reserved: o.Reserved, ReservedUnallocated: o.ReservedUnallocated, ProcessInUse: o.ProcessInUse,
		PrivatePools: o.PrivatePools, Allowed: o.Allowed, OtherProcesses: o.OtherProcesses, OtherAllocations: o.OtherAllocations}
}

// wantFigures are a wording's figures as its table row states them.
func (w oomWording) wantFigures(t testing.TB) oomFigures {
	get := func(k string) int64 {
		if s, ok := w.want[k]; ok {
			return parseWant(t, s)
		}
		return gpulog.Unknown
	}
	return oomFigures{Device: w.device, Backend: w.backend, Requested: get("requested"), Capacity: get("capacity"), Free: get("free"),
		Allocated: get("allocated"), Reserved: get("reserved"), ReservedUnallocated: get("unallocated"), ProcessInUse: get("inuse"),
		PrivatePools: get("pools"), Allowed: get("allowed"), OtherProcesses: get("others"), OtherAllocations: get("otherallocs")}
}

// readOOMs reads a training log's text and returns its messages.
func readOOMs(t *testing.T, text string) []gpulog.TrainingOOM {
	t.Helper()
	ooms, err := tryReadOOMs(text)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, text)
	}
	return ooms
}

func tryReadOOMs(text string) ([]gpulog.TrainingOOM, error) {
	l, err := gpulog.ReadLog(strings.NewReader(text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
	if err != nil {
		return nil, err
	}
	return l.OOMs, nil
}

// TestOOMWordings reads every wording of docs/oom-messages.md, as printed,
// into the figures its row states.
func TestOOMWordings(t *testing.T) {
	for _, w := range oomWordings {
		t.Run(w.id, func(t *testing.T) {
			ooms := readOOMs(t, w.msg+"\n")
			if len(ooms) != 1 {
				t.Fatalf("%d messages, want 1: %+v", len(ooms), ooms)
			}
			if got, want := figuresOf(ooms[0]), w.wantFigures(t); got != want {
				t.Errorf("figures\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestOOMWordingsDocumented: every wording has its row in
// docs/oom-messages.md, and every row there is a wording read here.
func TestOOMWordingsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "docs", "oom-messages.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "## The wordings")
	if !ok {
		t.Fatal(`docs/oom-messages.md has no "## The wordings" section`)
	}
	table, _, _ = strings.Cut(table, "\n## ")
	rows := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| `") {
			id, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			rows[id] = true
		}
	}
	for _, w := range oomWordings {
		if !rows[w.id] {
			t.Errorf("wording %q has no row in docs/oom-messages.md", w.id)
		}
		delete(rows, w.id)
	}
	for id := range rows {
		t.Errorf("docs/oom-messages.md lists %q, which no test reads", id)
	}
}

// oomVariant is a message rewritten as logs carry it.
type oomVariant struct {
	name string
	// text is the whole log.
	text string
	// rank is the rank the variant's prefix gives (input.NoRank: none);
	// timed is true when the prefix gives a time.
	rank  int
	timed bool
	// cut marks a message cut short: its figures are those of the whole
	// message or unknown.
	cut bool
}

// wrapAt breaks s into lines of width columns, as a terminal wraps a long
// line (cutting words and numbers).
func wrapAt(s string, width int) string {
	var b strings.Builder
	for len(s) > width {
		b.WriteString(s[:width])
		b.WriteByte('\n')
		s = s[width:]
	}
	b.WriteString(s)
	return b.String()
}

// foldAt breaks s at spaces into lines of at most width columns, as fold
// -s and text viewers wrap.
func foldAt(s string, width int) string {
	var b strings.Builder
	col := 0
	for i, word := range strings.Split(s, " ") {
		if i > 0 {
			if col+1+len(word) > width {
				b.WriteByte('\n')
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}

// oomMutations rewrites a message as training logs carry it: with a
// timestamp and a rank prefix in either order, in the [rankN]:, [N],
// [defaultN]: and mpirun forms, in terminal colours, after a progress bar
// redrawn on the same line, wrapped by a console at 80 columns (cut
// anywhere, or at spaces), cut short, and as the first or only line of a
// log. Short one-line messages are not wrapped.
func oomMutations(w oomWording) []oomVariant {
	const before = "step 120 | loss 1.873, lr 3.0e-04, grad_norm 0.91\nstep 130 | loss 1.861, lr 3.0e-04, grad_norm 0.88\n"
	const after = "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    loss.backward()\n"
	msg := w.msg
	in := func(line string) string { return before + line + "\n" + after }
	vs := []oomVariant{
		{name: "plain", text: in(msg), rank: input.NoRank},
		{name: "time-rank", text: in("2025-03-02 08:11:59 [rank6]: " + msg), rank: 6, timed: true},
		{name: "rank-time", text: in("[rank6]:[2025-03-02 08:11:59,120] " + msg), rank: 6, timed: true},
		{name: "rank-space-time-level", text: in("[rank6]: 2025-03-02 08:11:59,120 - ERROR - " + msg), rank: 6, timed: true},
		{name: "bare-rank", text: in("[6] " + msg), rank: 6},
		{name: "bare-rank-colon-time", text: in("[6]: 2025-03-02T08:11:59.120Z " + msg), rank: 6, timed: true},
		{name: "iso-time-rank", text: in("2025-03-02T08:11:59Z [rank 6] " + msg), rank: 6, timed: true},
		{name: "local-rank", text: in("[default6]:" + msg), rank: 6},
		{name: "mpirun", text: in("[1,6]<stderr>:" + msg), rank: 6},
		{name: "ansi", text: in("\x1b[1;31m" + msg + "\x1b[0m"), rank: input.NoRank},
		{name: "ansi-inside", text: in(strings.Replace(msg, ": ", "\x1b[0m: \x1b[33m", 1) + "\x1b[0m"), rank: input.NoRank},
		{name: "ansi-pasted", text: in("[31m" + msg + "[0m"), rank: input.NoRank},
		{name: "progress-before", text: before + "Epoch 3:  41%|####      | 204/500 [01:12<01:45,  2.81it/s]\rEpoch 3:  42%|####      | 205/500 [01:12<01:44,  2.81it/s]\r" + msg + "\n" + after, rank: input.NoRank},
		{name: "first-line", text: msg + "\n" + before + after, rank: input.NoRank},
		{name: "only-line", text: msg + "\n", rank: input.NoRank},
		{name: "only-line-no-newline", text: msg, rank: input.NoRank},
	}
	if !strings.Contains(msg, "\n") {
		// A progress bar redrawn over a message's last line hides that
		// line, as on a terminal: only one-line messages keep it.
		vs = append(vs, oomVariant{name: "progress-after", text: before + msg + "\r 43%|####      | 206/500 [01:13<01:44,  2.80it/s]\n" + after, rank: input.NoRank})
	}
	if !w.short {
		for _, p := range []struct {
			name, prefix string
			rank         int
			timed        bool
		}{{"", "", input.NoRank, false}, {"-time-rank", "2025-03-02 08:11:59 [rank6]: ", 6, true}} {
			vs = append(vs,
				oomVariant{name: "wrap80" + p.name, text: in(wrapAt(p.prefix+msg, 80)), rank: p.rank, timed: p.timed},
				oomVariant{name: "fold80" + p.name, text: in(foldAt(p.prefix+msg, 80)), rank: p.rank, timed: p.timed},
				oomVariant{name: "wrap80-first-line" + p.name, text: wrapAt(p.prefix+msg, 80) + "\n" + before, rank: p.rank, timed: p.timed})
		}
	}
	// Cut short: at every 13th byte after the phrase, the rest lost (the
	// paste ended) or followed by the next log line.
	start := strings.Index(strings.ToLower(msg), "out of memory")
	if start < 0 {
		start = strings.Index(msg, "calloc")
	}
	for i := start + len("out of memory") + 1; i < len(msg); i += 13 {
		vs = append(vs,
			oomVariant{name: fmt.Sprintf("cut%d", i), text: before + msg[:i], rank: input.NoRank, cut: true},
			oomVariant{name: fmt.Sprintf("cut%d-then-log", i), text: before + msg[:i] + "\n" + before, rank: input.NoRank, cut: true})
	}
	return vs
}

// TestOOMMutations reads every variant of every wording (oomMutations):
// each yields the one message with the figures of the plain message (a
// message cut short: the same or unknown), and the rank and time its
// prefix gives.
func TestOOMMutations(t *testing.T) {
	for _, w := range oomWordings {
		want := w.wantFigures(t)
		for _, v := range oomMutations(w) {
			t.Run(w.id+"/"+v.name, func(t *testing.T) {
				ooms, err := tryReadOOMs(v.text)
				if v.cut && errors.Is(err, gpulog.ErrNoReadings) {
					return // cut before the message could be told
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(ooms) != 1 {
					t.Fatalf("%d messages, want 1: %+v\nlog:\n%q", len(ooms), ooms, v.text)
				}
				o := ooms[0]
				got := figuresOf(o)
				if v.cut {
					if bad := notPartOf(got, want); bad != "" {
						t.Errorf("cut message reads %s\n got %+v\nwant %+v or unknown\nlog: %q", bad, got, want, v.text)
					}
					return
				}
				if got != want {
					t.Errorf("figures\n got %+v\nwant %+v\nlog: %q", got, want, v.text)
				}
				if o.Rank != v.rank || o.Time.IsZero() == v.timed {
					t.Errorf("rank %d time %v, want rank %d, timed %v", o.Rank, o.Time, v.rank, v.timed)
				}
			})
		}
	}
}

// notPartOf names the first figure of got that is neither want's nor
// unknown ("" when none).
func notPartOf(got, want oomFigures) string {
	g := []int64{got.Requested, got.Capacity, got.Free, got.Allocated, got.Reserved, got.ReservedUnallocated, got.ProcessInUse,
		got.PrivatePools, got.Allowed, got.OtherProcesses, got.OtherAllocations}
	w := []int64{want.Requested, want.Capacity, want.Free, want.Allocated, want.Reserved, want.ReservedUnallocated, want.ProcessInUse,
		want.PrivatePools, want.Allowed, want.OtherProcesses, want.OtherAllocations}
	names := []string{"requested", "capacity", "free", "allocated", "reserved", "unallocated", "in use", "private pools", "allowed",
		"other processes", "other allocations"}
	for i := range g {
		// Other processes add up: a cut message has fewer of them.
		if g[i] != w[i] && g[i] != gpulog.Unknown && !(names[i] == "other processes" && g[i] < w[i]) {
			return names[i]
		}
	}
	if got.Device != want.Device && got.Device != -1 {
		return "device"
	}
	return ""
}

// TestOOMMutationsSniffed: as the first or only line of a file, every
// wording makes the file a training log, never a GPU log (a message with
// commas is no CSV header).
func TestOOMMutationsSniffed(t *testing.T) {
	for _, w := range oomWordings {
		for _, v := range oomMutations(w) {
			if !strings.HasPrefix(v.name, "first-line") && !strings.HasPrefix(v.name, "only-line") && !strings.HasPrefix(v.name, "wrap80-first") {
				continue
			}
			t.Run(w.id+"/"+v.name, func(t *testing.T) {
				head := []byte(v.text)
				if f, ok := gpulog.SniffLog(head); ok {
					t.Errorf("claimed as a %s GPU log", f)
				}
				if !gpulog.SniffTrainingLog(strings.NewReader(v.text), head) {
					t.Error("not recognised as a training log")
				}
			})
		}
	}
}

// TestOOMDeviceType: each wording's device type is the one PyTorch names
// the device of its backend: ROCm's HIP and the messages that name no
// backend are CUDA's, IPEX's DPCPP is an xpu device.
func TestOOMDeviceType(t *testing.T) {
	want := map[string]string{"": "cuda", "CUDA": "cuda", "HIP": "cuda", "NPU": "npu", "DPCPP": "xpu", "XPU": "xpu", "MLU": "mlu", "MPS": "mps"}
	for _, w := range oomWordings {
		l, err := gpulog.ReadLog(strings.NewReader(w.msg+"\n"), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", w.id, err)
		}
		if len(l.OOMs) != 1 {
			t.Fatalf("%s: %d OOMs, want 1", w.id, len(l.OOMs))
		}
		typ, ok := want[w.backend]
		if !ok {
			t.Fatalf("%s: backend %q has no expected type", w.id, w.backend)
		}
		if got := l.OOMs[0].DeviceType(); got != typ {
			t.Errorf("%s: device type %q, want %q", w.id, got, typ)
		}
	}
}
