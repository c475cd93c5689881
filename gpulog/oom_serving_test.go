package gpulog_test

import (
	"errors"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestServingOOMs: llama.cpp's ggml "cudaMalloc failed: out of memory"
// is an OOM on the device it names with its request; SGLang's "Not
// enough memory ... --mem-fraction-static" is a KV-pool start-up refusal,
// of the rank its scheduler's record prefix names, also when the
// traceback's lines after that prefix carry none; the words as text, or
// another cudaMalloc error, are none.
func TestServingOOMs(t *testing.T) {
	mib := int64(1 << 20)
	sglangTB := func(prefix string) string {
		return prefix + " Scheduler hit an exception: Traceback (most recent call last):\n" +
			"  File \"/sglang/srt/managers/scheduler.py\", line 1496, in run_scheduler_process\n" +
			"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n" +
			"  File \"/sglang/srt/model_executor/model_runner.py\", line 565, in init_memory_pool\n    raise RuntimeError(\n" +
			"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n\n"
	}
	type want struct {
		kind      gpulog.OOMKind
		line      int
		rank, dev int
		requested int64
		allowed   int64
	}
	cases := []struct {
		name string
		text string
		want []want
	}{
		{"ggml buffer", "llm_load_tensors:      CUDA0 buffer size = 20140.52 MiB\n" +
			"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 279356.51 MiB on device 0: cudaMalloc failed: out of memory\n" +
			"ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 292926534144\n",
			[]want{{gpulog.OOMGGML, 2, input.NoRank, 0, 279356 * mib, gpulog.Unknown}}},
		{"ggml on device 3, with llama-server's time", "0.01.234.567 E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1024.00 MiB on device 3: cudaMalloc failed: out of memory\n",
			[]want{{gpulog.OOMGGML, 1, input.NoRank, 3, 1024 * mib, gpulog.Unknown}}},
		{"sglang TP rank", "[2024-03-01 10:00:00] server_args=ServerArgs(tp_size=4, mem_fraction_static=0.88)\n" + sglangTB("[2024-03-01 10:01:41 TP2]") +
			"[2024-03-01 10:01:41] Received sigquit from a child proces. It usually means the child failed.\n",
			[]want{{gpulog.OOMSGLangKVPool, 7, 2, -1, gpulog.Unknown, 0}}},
		{"sglang newer wording with its value", "[2025-06-01 10:01:41 TP0] RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: mem_fraction_static=0.9\n",
			[]want{{gpulog.OOMSGLangKVPool, 1, 0, -1, gpulog.Unknown, 0}}},
		{"sglang data-parallel rank: the TP rank is no global rank", sglangTB("[2024-03-01 10:01:41 DP1 TP0]"),
			[]want{{gpulog.OOMSGLangKVPool, 6, input.NoRank, -1, gpulog.Unknown, 0}}},
		{"a record's rank ends at the next prefixed line", sglangTB("[2024-03-01 10:01:41 TP2]") + "[2024-03-01 10:01:42] Traceback (most recent call last):\n" +
			"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n",
			[]want{{gpulog.OOMSGLangKVPool, 6, 2, -1, gpulog.Unknown, 0}, {gpulog.OOMSGLangKVPool, 9, input.NoRank, -1, gpulog.Unknown, 0}}},
		// Not counted.
		{"sglang quoted in source", "            raise RuntimeError(\"Not enough memory. Please try to increase --mem-fraction-static.\")\n", nil},
		{"sglang advice in prose", "If it says Not enough memory. Please try to increase --mem-fraction-static, raise it.\n", nil},
		{"another cudaMalloc error", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 10.00 MiB on device 0: cudaMalloc failed: invalid argument\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(c.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				if len(c.want) > 0 || !errors.Is(err, gpulog.ErrNoReadings) {
					t.Fatal(err)
				}
				return
			}
			if len(l.OOMs) != len(c.want) {
				t.Fatalf("OOMs %+v, want %d", l.OOMs, len(c.want))
			}
			for i, w := range c.want {
				o := l.OOMs[i]
				if o.Kind != w.kind || o.Line != w.line || o.Rank != w.rank || o.Device != w.dev || o.Allowed != w.allowed {
					t.Errorf("OOM %d: %+v, want %+v", i, o, w)
				}
				if d := o.Requested - w.requested; d < -mib || d > mib || (w.requested < 0) != (o.Requested < 0) {
					t.Errorf("OOM %d: requested %d, want %d", i, o.Requested, w.requested)
				}
			}
		})
	}
}

// TestAutotuneOOM: an OOM that Inductor's autotuning caught and dropped
// ("Runtime error during autotuning: <message>. Ignoring this choice."),
// with torch._logging's prefix on every line or on the first only, or
// joined on one line, is Handled and Autotune, and never Fatal even when
// the log ends in another failure; an OOM on the same device that no
// opener precedes is the job's own.
func TestAutotuneOOM(t *testing.T) {
	const pre = "W0301 10:01:12.118000 140213 torch/_inductor/select_algorithm.py:1469] [0/0] "
	const oom = "CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 2.93 GiB is free. Of the allocated memory 70.02 GiB is allocated by PyTorch, and 5.51 GiB is reserved by PyTorch but unallocated. "
	const tb = "Traceback (most recent call last):\n  File \"/w/train.py\", line 88, in main\n    loss.backward()\n"
	const own = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 2.93 GiB is free. Of the allocated memory 70.02 GiB is allocated by PyTorch, and 5.51 GiB is reserved by PyTorch but unallocated.\n"
	type got struct{ autotune, handled, fatal bool }
	cases := []struct {
		name string
		text string
		want []got
	}{
		{"prefix on each line", pre + "Runtime error during autotuning: \n" + pre + oom + "\n" + pre + "Ignoring this choice.\nstep 200 loss 2.1\n", []got{{true, true, false}}},
		{"prefix on the first line, error level", "E0301 10:01:12.118000 140213 torch/_inductor/select_algorithm.py:1469] [0/0] Runtime error during autotuning: \n" + oom + "\nIgnoring this choice.\n", []got{{true, true, false}}},
		{"CUDA compilation error", "CUDA compilation error during autotuning: \nCUDA error: out of memory. \nIgnoring this choice.\n", []got{{true, true, false}}},
		{"joined on one line", "Runtime error during autotuning: " + oom + ". Ignoring this choice.\n", []got{{true, true, false}}},
		{"then the job's own fatal OOM", pre + "Runtime error during autotuning: \n" + pre + oom + "\n" + pre + "Ignoring this choice.\nstep 200\n" + tb + own,
			[]got{{true, true, false}, {false, false, true}}},
		{"then an unrelated crash", pre + "Runtime error during autotuning: \n" + pre + oom + "\n" + pre + "Ignoring this choice.\n" + tb + "RuntimeError: NCCL timeout\n",
			[]got{{true, true, false}}},
		{"opener far before: the job's own", "Runtime error during autotuning: \nIgnoring this choice.\nstep 1\nstep 2\n" + tb + own, []got{{false, false, true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var g []got
			for _, o := range readOOMs(t, c.text) {
				g = append(g, got{o.Autotune, o.Handled, o.Fatal})
			}
			if len(g) != len(c.want) {
				t.Fatalf("OOMs %+v, want %+v", g, c.want)
			}
			for i := range g {
				if g[i] != c.want[i] {
					t.Errorf("OOM %d: %+v, want %+v", i, g[i], c.want[i])
				}
			}
		})
	}
}
