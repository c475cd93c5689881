package gpulog_test

import (
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestNoMemoryFigures: a query CSV whose memory columns hold only "not
// available" values (a unified-memory GPU such as the GB10 prints [N/A])
// gives no device memory and is said to give no memory figures, never
// read as 0 B used.
func TestNoMemoryFigures(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"N/A values", "timestamp, index, name, memory.used [MiB], memory.total [MiB], memory.free [MiB]\n" +
			"2025/10/16 19:00:00.000, 0, NVIDIA GB10, [N/A], [N/A], [N/A]\n" +
			"2025/10/16 19:01:00.000, 0, NVIDIA GB10, [N/A], [N/A], [N/A]\n"},
		{"Not Supported values", "timestamp, index, name, memory.used [MiB], memory.total [MiB]\n" +
			"2025/10/16 19:00:00.000, 0, NVIDIA GB10, [Not Supported], [Not Supported]\n" +
			"2025/10/16 19:01:00.000, 0, NVIDIA GB10, [Not Supported], [Not Supported]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.in), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range l.Samples {
				if s.MemoryUsed >= 0 || s.MemoryTotal >= 0 {
					t.Errorf("reading %+v has memory figures, want unknown", s)
				}
			}
			found := false
			for _, n := range l.Notes {
				found = found || strings.Contains(n, "this log gives no memory figures") && strings.Contains(n, "Not Supported")
			}
			if !found {
				t.Errorf("notes %q lack the no-memory-figures note", l.Notes)
			}
		})
	}
}
