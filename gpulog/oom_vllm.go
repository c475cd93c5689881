package gpulog

import (
	"regexp"
	"strings"
)

// OOMVLLMKVCache is vLLM's refusal to start because the KV cache does not
// fit in the memory its engine may use (oom_vllm.go).
const OOMVLLMKVCache OOMKind = "vllm-kv-cache"

// vLLM profiles a model at startup: the memory left for the KV cache is
// gpu_memory_utilization times the device's memory, less the weights,
// the activations' peak and non-torch memory. When that cannot hold one
// request of the longest sequence it raises a ValueError and the engine
// never starts (vllm/v1/core/kv_cache_utils.py,
// check_enough_kv_cache_memory, and the V0 worker's
// raise_if_cache_size_invalid):
//
//	ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (1.20 GiB). Based on the available memory, ...
//	ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (28000). Try increasing `gpu_memory_utilization` ...
//	ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.
//
// ("models's" in some releases, "model's" in others; the parenthesis
// before the needed size comes and goes). Each is an out-of-memory
// failure: the memory the engine may use is smaller than the model,
// its activations and one request's cache (a TrainingOOM of kind
// OOMVLLMKVCache: Requested is the cache needed, Allowed what was
// available for it, 0 when vLLM printed a negative figure or none is
// left). As with CUDA's figure-less errors, only the error form counts
// (errorStart): the wording quoted in source, documentation or a test's
// expected string is no failure.

var (
	// reVLLMKVCache finds where one of vLLM's messages starts.
	reVLLMKVCache = regexp.MustCompile(`\b(?:To serve at least one request with the models?'s max seq len \(\d+\)|The model's max seq len \(\d+\) is larger than the maximum number of tokens that can be stored in KV cache|No available memory for the cache blocks)`)
	// reVLLMNeeded and reVLLMAvailable read the V1 message's figures
	// from its compact text (compactText).
	reVLLMNeeded    = regexp.MustCompile(`(\d+(?:\.\d+)?)(gib|mib|kib|gb|mb|kb)kvcacheisneeded`)
	reVLLMAvailable = regexp.MustCompile(`availablekvcachememory\((-?)(\d+(?:\.\d+)?)(gib|mib|kib|gb|mb|kb)\)`)
)

// vllmMayBe is mayBeOOMLine's quick test for vLLM's messages: the first
// line of each (a console may wrap the rest onto the next lines).
func vllmMayBe(line string) bool {
	return strings.Contains(line, "max seq len (") || strings.Contains(line, "No available memory for the cache blocks")
}

// vllmUnfinished reports whether a V1 message (compact text) has not
// yet reached its available memory's figure, so that the next line
// continues it.
func vllmUnfinished(c string) bool {
	if !strings.Contains(c, "toserveatleastonerequest") {
		return false
	}
	return !reVLLMAvailable.MatchString(c)
}

// vllmReading reads the cache needed (requested) and the memory
// available for it (allowed) from a message (its text after the line's
// prefix, continuation included); its other figures are unknown.
func vllmReading(msg string) oomReading {
	r := oomReading{requested: Unknown, capacity: Unknown, free: Unknown, allocated: Unknown, cached: Unknown, reserved: Unknown,
		unallocated: Unknown, privatePools: Unknown, allowed: Unknown, processInUse: Unknown, otherProcesses: Unknown,
		otherAllocs: Unknown, device: -1, selfAt: -1}
	c := compactText(msg)
	if m := reVLLMNeeded.FindStringSubmatch(c); m != nil {
		r.requested, r.requestedSlack = sizeWithSlack(m[1], m[2])
	}
	if m := reVLLMAvailable.FindStringSubmatch(c); m != nil {
		r.allowed, _ = sizeWithSlack(m[2], m[3])
		if m[1] == "-" {
			// The weights and activations alone passed the budget.
			r.allowed = 0
		}
	}
	if strings.Contains(c, "noavailablememoryforthecacheblocks") {
		r.allowed = 0
	}
	return r
}
