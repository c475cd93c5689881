package gpulog_test

import (
	"errors"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestOOMErrorForm: the figure-less errors (CUDA's, HIP's and the
// driver's "out of memory", cuBLAS's and cuDNN's ALLOC_FAILED) count
// only where PyTorch's checks print them, as a message; the same words
// in a configuration, a YAML list, an enum listing, a source line shown
// in a traceback, a pytest id or help text are no OOM.
func TestOOMErrorForm(t *testing.T) {
	steps := "step 1 loss 2.31\nstep 2 loss 2.29\n"
	type want struct{ line, rank int }
	cases := []struct {
		name string
		text string
		want []want
	}{
		// Counted: PyTorch's forms, behind any prefix.
		{"cublas create", steps + "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n", []want{{3, input.NoRank}}},
		{"cublasLt, rank prefix", "[rank2]: RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasLtMatmul(ltHandle, computeDesc.descriptor(), ...)`\n", []want{{1, 2}}},
		{"cudnn check", "RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED\n", []want{{1, input.NoRank}}},
		{"cudnn 1.0 file:line", "RuntimeError: /pytorch/aten/src/ATen/cudnn/Descriptors.h:80: CuDNN error: CUDNN_STATUS_ALLOC_FAILED\n", []want{{1, input.NoRank}}},
		{"cudnn frontend", "RuntimeError: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_ALLOC_FAILED\n", []want{{1, input.NoRank}}},
		{"cuda error behind a time and level", "2024-05-01 12:00:03 ERROR CUDA error: out of memory\n", []want{{1, input.NoRank}}},
		{"logging's default format", "ERROR:root:CUDA error: out of memory\n", []want{{1, input.NoRank}}},
		{"retry handler, a recovered OOM", "2024-05-01 12:03:00 WARNING caught RuntimeError: CUDA error: out of memory; halving batch size to 16 and retrying\n", []want{{1, input.NoRank}}},
		{"hip error", "torch.AcceleratorError: HIP error: out of memory\n", []want{{1, input.NoRank}}},
		{"driver error, glog prefix", "E0501 12:00:06.123 139 CUDACachingAllocator.cpp:512] CUDA driver error: out of memory\n", []want{{1, input.NoRank}}},
		{"message alone on its line", "  CUDA error: out of memory\n", []want{{1, input.NoRank}}},
		// Not counted: the words as text.
		{"config list", steps + "Config:\n  retry_on_errors: [CUBLAS_STATUS_ALLOC_FAILED, CUDNN_STATUS_ALLOC_FAILED]\n", nil},
		{"yaml list", "retry:\n  errors:\n  - CUBLAS_STATUS_ALLOC_FAILED\n  - CUDNN_STATUS_ALLOC_FAILED\n", nil},
		{"enum listing", "cudnn status codes: CUDNN_STATUS_SUCCESS=0 CUDNN_STATUS_NOT_INITIALIZED=1 CUDNN_STATUS_ALLOC_FAILED=2\n", nil},
		{"cuda error, other status", "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`\n", nil},
		{"source, double quotes", "Traceback (most recent call last):\n  File \"/home/u/train.py\", line 120, in <module>\n    if \"CUDA error: out of memory\" in str(e):\nKeyError: 'labels'\n", nil},
		{"source, single quotes", "    if 'HIP error: out of memory' in msg or 'CUDA error: out of memory' in msg:\n", nil},
		{"source, quoted cublas form", "    raise RuntimeError(\"CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\")\n", nil},
		{"pytest ids", "tests/test_retry.py::test_is_oom[CUDA error: out of memory] PASSED [ 33%]\ntests/test_retry.py::test_is_oom[HIP error: out of memory] PASSED [ 66%]\n", nil},
		{"help text", "  --skip-oom   skip a batch on CUDA error: out of memory (also HIP error: out of memory, CUBLAS_STATUS_ALLOC_FAILED)\n", nil},
		{"pattern setting", "oom_patterns=CUDA error: out of memory\n", nil},
		// A Python warning is no failure: cuDNN's frontend tries the next
		// plan (PyTorch warns "Plan failed with a cudnnException" from
		// Conv_v8.cpp and goes on).
		{"cudnn plan warning", "/usr/lib/python3/site-packages/torch/nn/modules/conv.py:456: UserWarning: Plan failed with a cudnnException: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_ALLOC_FAILED (Triggered internally at ../aten/src/ATen/native/cudnn/Conv_v8.cpp:919.)\n", nil},
		{"runtime warning", "RuntimeWarning: CUDA error: out of memory while caching a kernel; falling back\n", nil},
		{"pattern list", "retry on: RuntimeError, CUDA error: out of memory\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ooms, err := tryReadOOMs(c.text)
			if err != nil && (len(c.want) > 0 || !errors.Is(err, gpulog.ErrNoReadings)) {
				t.Fatal(err)
			}
			var got []want
			for _, o := range ooms {
				if o.Kind != gpulog.OOMCUDAError {
					t.Errorf("line %d: kind %q, want %q", o.Line, o.Kind, gpulog.OOMCUDAError)
				}
				got = append(got, want{o.Line, o.Rank})
			}
			if len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]) {
				t.Errorf("got (line rank) %v, want %v", got, c.want)
			}
			// Discovery claims a file exactly when it holds a message.
			if sniffed := gpulog.SniffTrainingLog(strings.NewReader(c.text), []byte(c.text)); sniffed != (len(c.want) > 0) {
				t.Errorf("sniffed %v, want %v", sniffed, len(c.want) > 0)
			}
		})
	}
}
