package gpulog_test

import (
	"testing"

	"gpureport/gpulog"
)

// TestReadWandbEvents: wandb-events.jsonl lines are GPU readings: used
// bytes, the total from bytes and percent, a percent alone kept as a
// share; per-process repeats and bandwidth utilization are passed over.
func TestReadWandbEvents(t *testing.T) {
	const total = 80 << 30
	runReadCases(t, []readCase{
		{name: "bytes and percent, two GPUs", format: gpulog.FormatWandbEvents,
			in: `{"system.gpu.0.memoryAllocated": 50.0, "system.gpu.0.memoryAllocatedBytes": 42949672960, "system.gpu.0.memory": 37.1, "system.gpu.0.gpu": 98.0, "system.gpu.process.0.memoryAllocatedBytes": 1, "system.gpu.1.memoryAllocatedBytes": 1073741824, "system.gpu.1.memoryAllocated": 1.25, "system.cpu": 8.1, "_wandb": true, "_timestamp": 1709892001.5, "_runtime": 30.2}` + "\n" +
				`{"system.cpu": 9.0, "_wandb": true, "_timestamp": 1709892016.5}` + "\n" +
				`{"system.gpu.0.memoryAllocated": 75.0, "system.gpu.0.memoryAllocatedBytes": 64424509440, "_wandb": true, "_timestamp": 1709892031.5}` + "\n",
			samples: []sampleWant{{0, 40 << 30, total, "2024-03-08T10:00:01.5Z"}, {1, 1 << 30, total, "2024-03-08T10:00:01.5Z"},
				{0, 60 << 30, total, "2024-03-08T10:00:31.5Z"}}, gpus: 2, skipped: 1, kind: "event without GPU memory metrics",
			check: func(t *testing.T, l *gpulog.GPULog) {
				if s := l.Samples[0]; s.UtilizationGPU != 98 || s.HasUsedPercent {
					t.Errorf("sample %+v", s)
				}
				if !hasNote(l, "memory total derived from used bytes and used percent") {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		{name: "percent alone, runtime only", format: gpulog.FormatWandbEvents,
			in:      `{"system.gpu.0.memoryAllocated": 45.1, "_runtime": 30}` + "\n" + `{"system.gpu.0.memoryAllocated": 48.6, "_runtime": 45}` + "\nnot json\n",
			samples: []sampleWant{{0, logNA, logNA, ""}, {0, logNA, logNA, "2024-03-01T23:30:00Z"}}, gpus: 1, skipped: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if s := l.Samples[0]; !s.HasUsedPercent || s.MemoryUsedPercent != 45.1 || l.Timing != gpulog.TimingElapsed {
					t.Errorf("sample %+v timing %q", s, l.Timing)
				}
				if d := l.Samples[1].Time.Sub(l.Samples[0].Time); d.Seconds() != 15 {
					t.Errorf("interval %v", d)
				}
			}},
		{name: "two objects on a line", format: gpulog.FormatWandbEvents,
			// Two writers' events run together: neither is read as the
			// line (memory_stats lines are read so too).
			in: `{"system.gpu.0.memoryAllocatedBytes": 1073741824, "_timestamp": 1709892001}{"system.gpu.0.memoryAllocatedBytes": 2147483648, "_timestamp": 1709892016}` + "\n" +
				`{"system.gpu.0.memoryAllocatedBytes": 1073741824, "_timestamp": 1709892031}` + "\n",
			samples: []sampleWant{{0, 1 << 30, logNA, "2024-03-08T10:00:31Z"}}, gpus: 1, skipped: 1, kind: "not a JSON object"},
		{name: "no gpu metrics", format: gpulog.FormatWandbEvents, in: `{"system.cpu": 1, "_timestamp": 1709892001}` + "\n", err: "no readings"},
	})
	for _, c := range []struct {
		head string
		want bool
	}{
		{`{"system.gpu.0.memoryAllocated": 45.1, "_wandb": true, "_timestamp": 1709892001.5}`, true},
		{`{"system.gpu.0.memoryAllocated": 45.1}`, false},
		{`{"_wandb": {"runtime": 210}, "train/loss": 2.1, "_step": 120}`, false},
	} {
		f, ok := gpulog.SniffLog([]byte(c.head))
		if got := ok && f == gpulog.FormatWandbEvents; got != c.want {
			t.Errorf("%.50q: sniffed %q %v, want wandb-events %v", c.head, f, ok, c.want)
		}
	}
}
