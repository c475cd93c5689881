package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// nvitopCollectorCSV is a ResourceMetricCollector's rows as a script's
// csv.DictWriter writes them: host columns, then per device (its key,
// "cuda:0 (gpu:3)" or "gpu:1") the memory_used mean, min and max and the
// memory_free mean, then the timestamp; used grows by 100 MiB a row.
func nvitopCollectorCSV(devices []string, rows int) string {
	var b strings.Builder
	head := []string{"metrics-daemon/host/cpu_percent (%)/mean", "metrics-daemon/host/memory_percent (%)/mean"}
	for _, d := range devices {
		for _, m := range []string{"memory_used (MiB)/mean", "memory_used (MiB)/min", "memory_used (MiB)/max", "memory_free (MiB)/mean", "gpu_utilization (%)/mean"} {
			head = append(head, "metrics-daemon/"+d+"/"+m)
		}
	}
	head = append(head, "metrics-daemon/duration (s)", "metrics-daemon/timestamp")
	b.WriteString(strings.Join(head, ",") + "\n")
	for i := range rows {
		row := []string{"8.9", "21.3"}
		for j := range devices {
			used := 50000 + 100*i + 1000*j
			row = append(row, fmt.Sprint(used), fmt.Sprint(used-40), fmt.Sprint(used+40), fmt.Sprint(81920-used), "97.5")
		}
		row = append(row, "5.0", fmt.Sprint(1709287200+5*i))
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	return b.String()
}

// TestNvitopCollectorCSV: a ResourceMetricCollector CSV gives each
// device's memory_used mean as its used memory (total from used + free),
// under the physical GPU its key names, the CUDA-to-physical mapping in
// a note; a header of host metrics alone is not claimed.
func TestNvitopCollectorCSV(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name    string
		devices []string
		gpus    []int // physical indices, in key order
		note    string
	}{
		{"one CUDA device on physical GPU 3", []string{"cuda:0 (gpu:3)"}, []int{3}, "cuda:0 is GPU 3"},
		{"two CUDA devices", []string{"cuda:0 (gpu:2)", "cuda:1 (gpu:5)"}, []int{2, 5}, "cuda:0 is GPU 2, cuda:1 is GPU 5"},
		{"physical devices", []string{"gpu:0", "gpu:1"}, []int{0, 1}, ""},
		{"host only", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := nvitopCollectorCSV(tt.devices, 10)
			f, ok := gpulog.SniffLog([]byte(text))
			if len(tt.gpus) == 0 {
				if ok {
					t.Fatalf("claimed as %q", f)
				}
				return
			}
			if !ok || f != gpulog.FormatCSVColumns {
				t.Fatalf("SniffLog = %q, %v", f, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(text), f, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Samples) != 10*len(tt.gpus) || l.SkippedLines > 0 {
				t.Fatalf("%d samples, skipped %d", len(l.Samples), l.SkippedLines)
			}
			for j, g := range tt.gpus {
				var got []gpulog.GPUSample
				for _, s := range l.Samples {
					if s.GPU == g {
						got = append(got, s)
					}
				}
				used := int64(50000+1000*j) * mib
				if len(got) != 10 || got[0].MemoryUsed != used || got[9].MemoryUsed != used+900*mib || got[0].MemoryTotal != 81920*mib ||
					!got[0].Time.Equal(time.Unix(1709287200, 0)) {
					t.Errorf("GPU %d: %d readings, first %+v", g, len(got), got)
				}
			}
			notes := strings.Join(l.Notes, "\n")
			if tt.note != "" && !strings.Contains(notes, tt.note) {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}
