package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// tqdmBars is n redraws of a bar of total iterations per bar, bars
// bars, the postfix's GPU memory entry from mem(i), redraws ended by sep.
func tqdmBars(bars, n, total int, sep string, mem func(i int) string) string {
	var b strings.Builder
	k := 0
	for e := range bars {
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "Epoch %d/%d: %3d%%|█| %d/%d [00:15<10:00, 6.6it/s, loss=1.990, %s]%s", e+1, bars, 100*i/n, i*total/n, total, mem(k), sep)
			k++
		}
	}
	return b.String()
}

// TestTqdmGPUMemPostfix: every redraw of a tqdm bar whose postfix names
// GPU memory with a unit is a memory_stats reading at the bars' running
// iteration count: allocated when the key says so, else reserved (noted
// as assumed when the key names no figure); G as 10^9 bytes, noted; a
// postfix without GPU memory, or without a unit, gives nothing.
func TestTqdmGPUMemPostfix(t *testing.T) {
	g := func(i int) string { return fmt.Sprintf("gpu_mem=%.1fG", 30+0.5*float64(i)) }
	tests := []struct {
		name      string
		text      string
		n         int
		allocated bool
		first     int64
		lastStep  int64
		note      string
	}{
		{"carriage returns", tqdmBars(1, 10, 1000, "\r", g), 10, false, 30e9, 1000, "not which figure"},
		{"newlines", tqdmBars(1, 10, 1000, "\n", g), 10, false, 30e9, 1000, "7.4% low"},
		{"two epochs' bars", tqdmBars(2, 5, 500, "\r", g), 10, false, 30e9, 1000, "iteration count"},
		{"allocated GiB", tqdmBars(1, 4, 400, "\r", func(i int) string { return fmt.Sprintf("cuda_mem_allocated=%d.00GiB", 12+i) }), 4, true, 12 << 30, 400, "iteration count"},
		{"an OOM after the bar", tqdmBars(1, 4, 400, "\r", g) + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.00 GiB is free.\n", 4, false, 30e9, 400, "iteration count"},
		{"no GPU memory", tqdmBars(1, 4, 400, "\r", func(i int) string { return "mem=30.2G" }), 0, false, 0, 0, ""},
		{"no unit", tqdmBars(1, 4, 400, "\r", func(i int) string { return "gpu_mem=30.2" }), 0, false, 0, 0, ""},
		{"utilization", tqdmBars(1, 4, 400, "\r", func(i int) string { return "gpu=98%" }), 0, false, 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
			if tt.n == 0 {
				if err == nil {
					t.Fatalf("read %d readings, want none", len(l.MemoryStats))
				}
				if gpulog.SniffTrainingLog(strings.NewReader(tt.text), []byte(tt.text)) {
					t.Error("claimed")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ms := l.MemoryStats
			if len(ms) != tt.n {
				t.Fatalf("%d readings, want %d", len(ms), tt.n)
			}
			if !gpulog.SniffTrainingLog(strings.NewReader(tt.text), []byte(tt.text)) {
				t.Error("not claimed")
			}
			fig := func(r gpulog.MemoryStatsSample) (int64, int64) {
				if tt.allocated {
					return r.Allocated, r.Reserved
				}
				return r.Reserved, r.Allocated
			}
			v, other := fig(ms[0])
			if v != tt.first || other != gpulog.Unknown || ms[len(ms)-1].Step != tt.lastStep || ms[0].Device != 0 {
				t.Errorf("first %+v, last step %d; want %d, last step %d", ms[0], ms[len(ms)-1].Step, tt.first, tt.lastStep)
			}
			for i := 1; i < len(ms); i++ {
				if ms[i].Step <= ms[i-1].Step {
					t.Fatalf("steps %d then %d", ms[i-1].Step, ms[i].Step)
				}
			}
			if oom := strings.Contains(tt.text, "OutOfMemoryError"); oom != (len(l.OOMs) == 1) {
				t.Errorf("%d OOMs", len(l.OOMs))
			}
			if notes := strings.Join(l.Notes, "\n"); !strings.Contains(notes, tt.note) {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}
