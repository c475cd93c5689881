package gpulog_test

import (
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestTotalFromTinyShare: a total derived from used bytes and a share of
// it in percent is a device's capacity; a share so small that the
// quotient is no device's (or overflows int64) gives no total, and the
// used bytes are kept as they are. Both readers of W&B's metrics (the
// events file and the CSV export) derive it.
func TestTotalFromTinyShare(t *testing.T) {
	for _, c := range []struct {
		name   string
		format gpulog.LogFormat
		in     string
	}{
		{"events, share overflows", gpulog.FormatWandbEvents,
			`{"system.gpu.0.memoryAllocated": 1e-300, "system.gpu.0.memoryAllocatedBytes": 1073741824, "_timestamp": 1709892001}` + "\n"},
		{"events, share far too small", gpulog.FormatWandbEvents,
			`{"system.gpu.0.memoryAllocated": 0.000001, "system.gpu.0.memoryAllocatedBytes": 1073741824, "_timestamp": 1709892001}` + "\n"},
		{"csv, share overflows", gpulog.FormatWandbCSV,
			"Relative Time (Process),system/gpu.0.memoryAllocatedBytes,system/gpu.0.memoryAllocated\n30.5,1073741824,1e-300\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(c.in), c.format, gpulog.ReadOptions{Location: time.UTC, ModTime: fixtureModTime})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Samples) != 1 {
				t.Fatalf("samples %+v", l.Samples)
			}
			if s := l.Samples[0]; s.MemoryUsed != 1<<30 || s.MemoryTotal != gpulog.Unknown {
				t.Errorf("used %d total %d, want 1 GiB used and no total", s.MemoryUsed, s.MemoryTotal)
			}
		})
	}
}
