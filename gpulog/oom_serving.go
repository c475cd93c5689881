package gpulog

import (
	"regexp"
	"strings"

	"gpureport/input"
)

// Out-of-memory failures of GPU programs that are not PyTorch's caching
// allocator, and of serving engines at start-up.
//
// llama.cpp's ggml CUDA backend allocates each buffer with cudaMalloc and
// reports a failure, fatal to the model's load or its context
// (ggml/src/ggml-cuda/ggml-cuda.cu, ggml_backend_cuda_buffer_type_alloc_buffer
// and ggml_cuda_device_malloc's callers, in llama.cpp and its forks):
//
//	ggml_backend_cuda_buffer_type_alloc_buffer: allocating 279356.51 MiB on device 0: cudaMalloc failed: out of memory
//
// followed by ggml-alloc.c's "failed to allocate CUDA0 buffer of size N"
// and llama's "failed to allocate compute buffers". The HIP and MUSA
// builds keep the format's "cudaMalloc" (the vendor headers rename the
// call, not the text). It is a TrainingOOM of kind OOMGGML on CUDA device
// N with the request's size (to two decimals of a MiB), and no
// allocator figures. Only "out of memory" counts: another cudaMalloc
// error is no OOM.
//
// SGLang sizes its KV-cache pool at start-up from --mem-fraction-static
// (the share of the GPU for the weights and the pool) and refuses to
// start when nothing is left for the pool
// (python/sglang/srt/model_executor/model_runner.py init_memory_pool, later
// pool_configurator.py):
//
//	RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.
//
// (newer releases append " Current value: mem_fraction_static=0.88"). It
// is vLLM's refusal in SGLang's words (oom_vllm.go): a TrainingOOM of
// kind OOMSGLangKVPool, no allocation tried, nothing available for the
// pool (Allowed 0). As with vLLM's, only the error form counts
// (errorStart). SGLang's scheduler writes the traceback as one logger
// record, its "[time TPn] " prefix on the first line only (configure_logger
// with the tensor-parallel rank): the exception closing a traceback that
// a rank's record opened is that rank's (recordRank).

// OOMGGML is llama.cpp's ggml CUDA backend failing to allocate a buffer
// ("allocating X MiB on device N: cudaMalloc failed: out of memory").
const OOMGGML OOMKind = "ggml-cuda"

// OOMSGLangKVPool is SGLang's refusal to start because no memory is left
// for its KV-cache pool within --mem-fraction-static.
const OOMSGLangKVPool OOMKind = "sglang-kv-pool"

var (
	// reGGMLAlloc matches ggml's failed buffer allocation: the request
	// in MiB and the CUDA device.
	reGGMLAlloc = regexp.MustCompile(`\ballocating (\d+(?:\.\d+)?) MiB on device (\d{1,3}): cudaMalloc failed: out of memory`)
	// reSGLangKVPool finds where SGLang's refusal starts.
	reSGLangKVPool = regexp.MustCompile(`\bNot enough memory\. Please try to increase --mem-fraction-static\b`)
	// reSGLangRank is the rest of SGLang's record prefix after its time:
	// the parallel ranks of the process ("TP2", "DP1 TP2", "TP2 EP2",
	// "PP0 TP2") and the closing bracket.
	reSGLangRank = regexp.MustCompile(`^ ((?:[A-Z]{2,4}\d{1,5} )*)TP(\d{1,5})((?: [A-Z]{2,4}\d{1,5})*)\]:?`)
)

// servingMayBe is mayBeOOMLine's quick test for these messages.
func servingMayBe(line string) bool {
	return strings.Contains(line, "cudaMalloc failed") || strings.Contains(line, "--mem-fraction-static")
}

// ggmlReading reads ggml's request (MiB, to two decimals) and device.
func ggmlReading(msg string) oomReading {
	r := unknownReading()
	if m := reGGMLAlloc.FindStringSubmatch(msg); m != nil {
		r.requested, r.requestedSlack = sizeWithSlack(m[1], "MiB")
		r.device, _ = atoi(m[2])
		r.backend = "CUDA"
	}
	return r
}

// sglangReading: nothing was available for the pool.
func sglangReading() oomReading {
	r := unknownReading()
	r.allowed = 0
	return r
}

// unknownReading is a reading of no figures.
func unknownReading() oomReading {
	return oomReading{requested: Unknown, capacity: Unknown, free: Unknown, allocated: Unknown, cached: Unknown, reserved: Unknown,
		unallocated: Unknown, privatePools: Unknown, allowed: Unknown, processInUse: Unknown, otherProcesses: Unknown,
		otherAllocs: Unknown, device: -1}
}

// sglangRank reads, after a record's "[time" (s: what follows the time),
// SGLang's rank tokens and closing bracket: the tensor-parallel rank,
// which is the process's rank when no data- or pipeline-parallel rank
// beside it numbers its group apart (then input.NoRank, the tokens still
// read as prefix). ok is false when s is no such tail.
func sglangRank(s string) (rank int, rest string, ok bool) {
	m := reSGLangRank.FindStringSubmatch(s)
	if m == nil {
		return input.NoRank, s, false
	}
	rank = input.NoRank
	if others := m[1] + m[3]; !strings.Contains(others, "DP") && !strings.Contains(others, "PP") {
		rank, _ = atoi(m[2])
	}
	return rank, s[len(m[0]):], true
}
