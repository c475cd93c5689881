package gpulog_test

import (
	"strings"
	"testing"
)

// TestPinnedHostOOM: "CUDA error: out of memory" that closes the
// traceback of the DataLoader's pin-memory thread (the wrapper's "in pin
// memory thread", pin_memory.py frames), with or without rank prefixes,
// or that names cudaHostAlloc, is pinned host memory's; the same error
// after other output, or in an ordinary traceback, is the device's.
func TestPinnedHostOOM(t *testing.T) {
	const outer = "Traceback (most recent call last):\n  File \"/w/train.py\", line 150, in main\n    for batch in loader:\n" +
		"  File \"/torch/utils/data/dataloader.py\", line 1372, in _process_data\n    data.reraise()\n"
	const wrapper = "RuntimeError: Caught RuntimeError in pin memory thread for device 0.\nOriginal Traceback (most recent call last):\n"
	const frames = "  File \"/torch/utils/data/_utils/pin_memory.py\", line 37, in do_one_step\n    data = pin_memory(data, device)\n" +
		"  File \"/torch/utils/data/_utils/pin_memory.py\", line 64, in pin_memory\n    return data.pin_memory(device)\n"
	const oom = "RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call.\n"
	prefixed := func(p, s string) string {
		out := ""
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			out += p + l + "\n"
		}
		return out
	}
	cases := []struct {
		name string
		text string
		want []bool
	}{
		{"pin-memory thread", "step 1500 loss 2.35\n" + outer + wrapper + frames + oom, []bool{true}},
		{"the wrapper without frames (Python 3.11 carets)", outer + "    ^^^^^^^^^^^\n" + wrapper + oom, []bool{true}},
		{"rank prefixes", prefixed("[rank1]: ", outer+wrapper+frames+oom), []bool{true}},
		{"cudaHostAlloc named", "RuntimeError: CUDA error: out of memory (cudaHostAlloc failed in CachingHostAllocator)\n", []bool{true}},
		{"an ordinary traceback", outer + oom, []bool{false}},
		{"pinned failure, training on, then a device OOM", outer + wrapper + frames + "RuntimeError: pin memory thread exited unexpectedly\nstep 1501 loss 2.3\n" + outer + oom, []bool{false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []bool
			for _, o := range readOOMs(t, c.text) {
				got = append(got, o.PinnedHost)
			}
			if len(got) != len(c.want) {
				t.Fatalf("pinned %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("OOM %d: pinned %v, want %v", i, got[i], c.want[i])
				}
			}
		})
	}
}
