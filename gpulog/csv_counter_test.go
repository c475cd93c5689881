package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestCSVCounterNotTime: in an ML logger's CSV an "epoch" column of small
// whole numbers is the training epoch, and a time column whose whole
// numbers repeat row after row is a counter: neither is read as a time,
// and readings with a step column are placed by their step. A Unix epoch
// column, a fractional or non-repeating elapsed column and dates stay
// times.
func TestCSVCounterNotTime(t *testing.T) {
	rows := func(header string, row func(i int) string, n int) string {
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := range n {
			b.WriteString(row(i) + "\n")
		}
		return b.String()
	}
	cases := []struct {
		name    string
		in      string
		timing  gpulog.Timing
		steps   bool
		counter string // the column a note calls a counter, "" for none
	}{
		{name: "Lightning CSVLogger epoch and step",
			in: rows("epoch,step,train_loss,cuda:0_memory.used (MB),cuda:0_memory.total (MB)",
				func(i int) string { return fmt.Sprintf("%d,%d,2.0,%d,81920", i/10, 50*(i+1), 30000+250*i) }, 30),
			timing: gpulog.TimingSteps, steps: true, counter: "epoch"},
		{name: "Keras epoch without step",
			in:     rows("epoch,loss,gpu_mem_used_mb", func(i int) string { return fmt.Sprintf("%d,1.0,%d", i, 1000+i) }, 6),
			timing: gpulog.TimingOrder, counter: "epoch"},
		{name: "repeating time counter",
			in:     rows("time,step,gpu_mem_used_mb", func(i int) string { return fmt.Sprintf("%d,%d,%d", i/4, i, 1000+i) }, 12),
			timing: gpulog.TimingSteps, steps: true, counter: "time"},
		{name: "Unix epoch seconds",
			in:     rows("epoch,step,gpu_mem_used_mb", func(i int) string { return fmt.Sprintf("%d,%d,%d", 1709287200+60*i, i, 1000+i) }, 6),
			timing: gpulog.TimingTimes, steps: true},
		{name: "elapsed whole seconds that do not repeat",
			in:     rows("time,gpu_mem_used_mb", func(i int) string { return fmt.Sprintf("%d,%d", 5*i, 1000+i) }, 6),
			timing: gpulog.TimingElapsed},
		{name: "dates",
			in:     rows("timestamp,step,gpu_mem_used_mb", func(i int) string { return fmt.Sprintf("2024-03-01 10:%02d:00,%d,%d", i, i, 1000+i) }, 6),
			timing: gpulog.TimingTimes, steps: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(c.in), gpulog.FormatCSVColumns, gpulog.ReadOptions{Location: time.UTC,
				ModTime: time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			if l.Timing != c.timing {
				t.Errorf("timing %q, want %q (notes %q)", l.Timing, c.timing, l.Notes)
			}
			for i, s := range l.Samples {
				if s.HasStep != c.steps {
					t.Fatalf("reading %d: has step %v, want %v", i, s.HasStep, c.steps)
				}
				if c.timing == gpulog.TimingSteps && !s.Time.IsZero() {
					t.Fatalf("reading %d has time %v", i, s.Time)
				}
			}
			if c.steps && c.name == "Lightning CSVLogger epoch and step" {
				if first, last := l.Samples[0], l.Samples[len(l.Samples)-1]; first.Step != 50 || last.Step != 1500 || last.MemoryUsed != 37250*logMiB {
					t.Errorf("steps %d..%d, last used %d", first.Step, last.Step, last.MemoryUsed)
				}
			}
			noted := ""
			for _, n := range l.Notes {
				if strings.Contains(n, "a counter such as the training epoch") {
					noted = n
				}
			}
			if (noted != "") != (c.counter != "") || c.counter != "" && !strings.Contains(noted, fmt.Sprintf("%q", c.counter)) {
				t.Errorf("notes %q, want a counter note on %q", l.Notes, c.counter)
			}
		})
	}
}
