package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestMemGetInfoTuples: printed torch.cuda.mem_get_info() tuples are
// device readings (total, free, used = total - free) when their line
// names them (mem_get_info, or GPU/CUDA with free and total), on the GPU
// the line names, at its time; a bare tuple, or one whose free exceeds
// its total, is not claimed.
func TestMemGetInfoTuples(t *testing.T) {
	const total = 85024112640
	lines := func(format string) string {
		var b strings.Builder
		for i := range 5 {
			free := int64(64424509440) - int64(i)*(256<<20)
			fmt.Fprintf(&b, format+"\n", i, free, total)
		}
		return b.String()
	}
	tests := []struct {
		name string
		text string
		gpu  int // -1: not claimed
	}{
		{"mem_get_info named", lines("2024-03-01 10:0%d:00 step 100 cuda:0 mem_get_info: (%d, %d)"), 0},
		{"torch call printed", lines("2024-03-01 10:0%d:00 torch.cuda.mem_get_info() = (%d, %d)"), 0},
		{"GPU free/total", lines("2024-03-01 10:0%d:00 GPU 1 free/total: (%d, %d)"), 1},
		{"no GPU named", lines("2024-03-01 10:0%d:00 step 100 free/total: (%d, %d)"), -1},
		{"free above total", lines("2024-03-01 10:0%d:00 mem_get_info: (%[3]d, %[2]d)"), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := gpulog.SniffLog([]byte(tt.text))
			if tt.gpu < 0 {
				if ok {
					t.Fatalf("claimed as %q", f)
				}
				return
			}
			if !ok || f != gpulog.FormatPynvml {
				t.Fatalf("SniffLog = %q, %v", f, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), f, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Samples) != 5 || l.SkippedLines > 0 {
				t.Fatalf("%d samples, %d skipped", len(l.Samples), l.SkippedLines)
			}
			s := l.Samples[4]
			free := int64(64424509440) - 4*(256<<20)
			if s.GPU != tt.gpu || s.MemoryTotal != total || s.MemoryFree != free || s.MemoryUsed != total-free ||
				!s.Time.Equal(time.Date(2024, 3, 1, 10, 4, 0, 0, time.UTC)) {
				t.Errorf("sample %+v", s)
			}
			if !strings.Contains(strings.Join(l.Notes, "\n"), "mem_get_info") {
				t.Errorf("notes %q", l.Notes)
			}
		})
	}
}
