package gpulog_test

import (
	"errors"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// TestCacheFlushWarnings: DeepSpeed's "N pytorch allocator cache flushes
// since last step" warnings (each N the rise of num_alloc_retries since
// the step before) are summed into one note naming their lines; the
// warning is no OOM and no memory reading, and a line quoting the phrase
// without a count (a code comment) counts nothing.
func TestCacheFlushWarnings(t *testing.T) {
	warn := func(n string) string {
		return "[2025-10-09 12:01:31,035] [WARNING] [stage3.py:2160:step] " + n + " pytorch allocator cache flushes since last step. this happens when there is high memory pressure and is detrimental to performance. if this is happening frequently consider adjusting settings to reduce memory consumption. If you are unable to make the cache flushes go away consider adding get_accelerator().empty_cache() calls in your training loop to ensure that all ranks flush their caches at the same time\n"
	}
	for _, tc := range []struct {
		name, log string
		want      string // "" for no note
		flushes   int
	}{
		{"three warnings", "step 1\n" + warn("2") + "step 2\n" + warn("3") + "step 3\n" + warn("4"), "DeepSpeed warned of 9 allocator cache flushes in 3 warnings (lines 2-6)", 9},
		{"one flush", warn("1"), "DeepSpeed warned of 1 allocator cache flush in 1 warning (line 1)", 1},
		{"SageMaker FSDP's wording", "[2024-06-28 18:30:50.171: W torch/sagemaker/distributed/fsdp/fully_sharded_data_parallel.py:38] 8 pytorch allocator cache flushes since last step. this happens when there is high memory pressure\n", "DeepSpeed warned of 8 allocator cache flushes in 1 warning (line 1)", 8},
		{"a comment quoting it", "# in case of warning: pytorch allocator cache flushes since last step. \\\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if tc.want == "" {
				// Nothing else in the log: nothing to read.
				if !errors.Is(err, gpulog.ErrNoReadings) {
					t.Errorf("err %v, want ErrNoReadings", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != 0 || len(l.MemoryStats) != 0 {
				t.Errorf("OOMs %v, readings %v: want none", l.OOMs, l.MemoryStats)
			}
			got := ""
			for _, n := range l.Notes {
				if strings.Contains(n, "allocator cache flush") {
					got = n
				}
			}
			if l.CacheFlushes != tc.flushes {
				t.Errorf("CacheFlushes %d, want %d", l.CacheFlushes, tc.flushes)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("note %q, want one containing %q", got, tc.want)
			}
		})
	}
}
