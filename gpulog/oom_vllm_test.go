package gpulog_test

import (
	"errors"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// TestVLLMKVCacheOOM: vLLM's startup failures for lack of KV cache
// memory are out-of-memory messages in their error form, with the cache
// needed as the request and the memory available as the cap; the same
// words quoted in source, docs or test strings are none.
func TestVLLMKVCacheOOM(t *testing.T) {
	gib := int64(1 << 30)
	const v1 = "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (1.20 GiB). Based on the available memory, the estimated maximum model length is 9808. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
	type want struct {
		line              int
		requested, allowd int64
	}
	cases := []struct {
		name string
		text string
		want []want
	}{
		{"v1 behind vLLM's logger prefix", "INFO 03-08 10:00:41 [kv_cache_utils.py:634] GPU KV cache size: 9,808 tokens\n" +
			"ERROR 03-08 10:00:41 [core.py:396] EngineCore failed to start.\nERROR 03-08 10:00:41 [core.py:396] " + v1 + "\n",
			[]want{{3, 16 * gib, gib * 120 / 100}}},
		{"model's, no parenthesis, wrapped", "ValueError: To serve at least one request with the model's max seq len (16384),\n0.19 GiB KV cache is needed, which is larger than the available KV cache memory (0.18 GiB).\n",
			[]want{{1, gib * 19 / 100, gib * 18 / 100}}},
		{"negative available", "(EngineCore_DP0 pid=263) ValueError: To serve at least one request with the model's max seq len (8192), (1.00 GiB KV cache is needed, which is larger than the available KV cache memory (-2.50 GiB).\n",
			[]want{{1, gib, 0}}},
		{"no cache blocks", "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n",
			[]want{{1, gpulog.Unknown, 0}}},
		{"v0 tokens", "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (28000). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n",
			[]want{{1, gpulog.Unknown, gpulog.Unknown}}},
		{"engine log echoes it", "ERROR [core.py:396] " + v1 + "\nRuntimeError: Engine core initialization failed. See root cause above.\nERROR [core.py:396] " + v1 + "\n",
			[]want{{1, 16 * gib, gib * 120 / 100}}},
		// Not counted: the words as text.
		{"quoted in source", "    raise RuntimeError(\"To serve at least one request with the models's max seq len (65536), (7.0 GiB KV cache is needed, which is larger than the available KV cache memory (2.39 GiB).\")\n", nil},
		{"docs prose", "If vLLM says To serve at least one request with the model's max seq len (8192), raise gpu_memory_utilization.\n", nil},
		{"grep pattern", "grep -E 'No available memory for the cache blocks|KV cache is needed' vllm.log\n", nil},
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
				if o.Kind != gpulog.OOMVLLMKVCache || o.Line != w.line || o.Device != -1 {
					t.Errorf("OOM %d: %+v", i, o)
				}
				if o.Requested != w.requested && (w.requested < 0 || o.Requested < w.requested-o.RequestedSlack || o.Requested > w.requested+o.RequestedSlack) {
					t.Errorf("OOM %d: requested %d (slack %d), want %d", i, o.Requested, o.RequestedSlack, w.requested)
				}
				if d := o.Allowed - w.allowd; d < -gib/100 || d > gib/100 || (w.allowd < 0) != (o.Allowed < 0) {
					t.Errorf("OOM %d: allowed %d, want %d", i, o.Allowed, w.allowd)
				}
			}
			if c.name == "engine log echoes it" && l.OOMs[0].Count != 2 {
				t.Errorf("count %d, want 2", l.OOMs[0].Count)
			}
		})
	}
}
