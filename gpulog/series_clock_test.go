package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// xpuDump is an xpu-smi dump (-m 0,5,18) of n rows from start (a time of
// day), every step, used growing by 60 MiB a row.
func xpuDump(start, step time.Duration, n int) string {
	var b strings.Builder
	b.WriteString("Timestamp, DeviceId, GPU Utilization (%), GPU Memory Utilization (%), GPU Memory Used (MiB)\n")
	for i := range n {
		c := (start + time.Duration(i)*step) % (24 * time.Hour)
		fmt.Fprintf(&b, "%02d:%02d:%02d.%03d,    0, 98.50, 30.52, %d\n", int(c/time.Hour), int(c/time.Minute%60), int(c/time.Second%60), int(c%time.Second/time.Millisecond), 20000+60*i)
	}
	return b.String()
}

// TestClockOnlyCSV: a CSV whose time column holds times of day alone
// (xpu-smi dump) is dated from the file's modification time, walking
// back over midnight, with a note; without a modification time its rows
// are not read and a note says why.
func TestClockOnlyCSV(t *testing.T) {
	const mib = 1 << 20
	day := func(d, h, m int) time.Time { return time.Date(2024, 3, d, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name        string
		text        string
		mod         time.Time
		first, last time.Time // zero: not read
		note        string
	}{{
		name:  "same day",
		text:  xpuDump(10*time.Hour, 10*time.Second, 6),
		mod:   day(1, 10, 5),
		first: day(1, 10, 0), last: day(1, 10, 0).Add(50 * time.Second),
		note: "date is assumed",
	}, {
		name:  "written the day before the modification",
		text:  xpuDump(22*time.Hour, 10*time.Second, 6),
		mod:   day(2, 8, 0),
		first: day(1, 22, 0), last: day(1, 22, 0).Add(50 * time.Second),
		note: "date is assumed",
	}, {
		name:  "over midnight",
		text:  xpuDump(23*time.Hour+59*time.Minute+30*time.Second, 10*time.Second, 6),
		mod:   day(2, 0, 1),
		first: day(1, 23, 59).Add(30 * time.Second), last: day(2, 0, 0).Add(20 * time.Second),
		note: "date is assumed",
	}, {
		name: "no modification time",
		text: xpuDump(10*time.Hour, 10*time.Second, 3),
		note: "modification time is unknown",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(tt.text)); !ok || f != gpulog.FormatCSVColumns {
				t.Fatalf("SniffLog = %q, %v", f, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), gpulog.FormatCSVColumns, gpulog.ReadOptions{Location: time.UTC, ModTime: tt.mod})
			if tt.first.IsZero() {
				if err == nil || !strings.Contains(err.Error(), tt.note) {
					t.Fatalf("error %v, want one saying %q", err, tt.note)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			n := len(l.Samples)
			if n == 0 || !l.Samples[0].Time.Equal(tt.first) || !l.Samples[n-1].Time.Equal(tt.last) || l.Samples[0].MemoryUsed != 20000*mib {
				t.Fatalf("samples %d, first %v %d, last %v; want %v .. %v", n, l.Samples[0].Time, l.Samples[0].MemoryUsed, l.Samples[n-1].Time, tt.first, tt.last)
			}
			if !l.Zoneless || !strings.Contains(strings.Join(l.Notes, "\n"), tt.note) {
				t.Errorf("zoneless %v, notes %q; want a note %q", l.Zoneless, l.Notes, tt.note)
			}
		})
	}
}
