package gpulog_test

import (
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestDeriveUsed: a query log without memory.used gives used memory from
// total, reserved and free as nvidia-smi computes it, or a note saying
// why no device comes of it.
func TestDeriveUsed(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name     string
		log      string
		wantUsed []int64
		note     string
	}{
		{
			name: "free and total",
			log: "timestamp, index, memory.free [MiB], memory.total [MiB]\n" +
				"2024/05/01 12:00:00.000, 0, 80920 MiB, 81920 MiB\n" +
				"2024/05/01 12:00:05.000, 0, 80420 MiB, 81920 MiB\n",
			wantUsed: []int64{1000 * mib, 1500 * mib},
			note:     "used is total - free, which counts the driver's reserved memory",
		},
		{
			name: "free, reserved and total",
			log: "timestamp, index, memory.total [MiB], memory.reserved [MiB], memory.free [MiB]\n" +
				"2024/05/01 12:00:00.123, 0, 81559 MiB, 585 MiB, 79974 MiB\n" +
				"2024/05/01 12:00:01.123, 1, 81559 MiB, 585 MiB, 80974 MiB\n",
			wantUsed: []int64{1000 * mib, 0},
			note:     "used is total - reserved - free",
		},
		{
			name: "used logged: nothing derived, a gap stays a gap",
			log: "timestamp, index, memory.used [MiB], memory.free [MiB], memory.total [MiB]\n" +
				"2024/05/01 12:00:00.000, 0, 7 MiB, 80920 MiB, 81920 MiB\n" +
				"2024/05/01 12:00:05.000, 0, [N/A], [N/A], 81920 MiB\n",
			wantUsed: []int64{7 * mib, gpulog.Unknown},
		},
		{
			name: "free only",
			log: "timestamp, index, memory.free [MiB]\n" +
				"2024/05/01 12:00:00.000, 0, 80920 MiB\n",
			wantUsed: []int64{gpulog.Unknown},
			note:     "1 readings give free memory but no used memory and no total",
		},
		{
			name: "free larger than total",
			log: "timestamp, index, memory.free [MiB], memory.total [MiB]\n" +
				"2024/05/01 12:00:00.000, 0, 90000 MiB, 81920 MiB\n",
			wantUsed: []int64{gpulog.Unknown},
			note:     "no total at least as large",
		},
		{
			name: "total and memory utilization",
			log: "timestamp, index, memory.total [MiB], utilization.memory [%]\n" +
				"2024/05/01 12:00:00.000, 0, 81920 MiB, 40 %\n",
			wantUsed: []int64{gpulog.Unknown},
			note:     "neither used nor free memory (utilization.memory is the share of time",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, s := range l.Samples {
				got = append(got, s.MemoryUsed)
			}
			if len(got) != len(tc.wantUsed) {
				t.Fatalf("used %v, want %v", got, tc.wantUsed)
			}
			for i := range got {
				if got[i] != tc.wantUsed[i] {
					t.Errorf("used %v, want %v", got, tc.wantUsed)
				}
			}
			notes := strings.Join(l.Notes, "\n")
			if tc.note == "" && strings.Contains(notes, "used memory") {
				t.Errorf("notes %q, want none about used memory", l.Notes)
			}
			if tc.note != "" && !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want one with %q", l.Notes, tc.note)
			}
		})
	}
}

// TestNoHeaderAdvice: header-less rows no field order reads are refused
// with advice that names both queries, per-GPU and per-process.
func TestNoHeaderAdvice(t *testing.T) {
	in := "2024/05/01 12:00:00.500, 00000000:07:00.0, 4242, python, 1000 MiB\n" +
		"2024/05/01 12:00:05.500, 00000000:07:00.0, 4242, python, 1500 MiB\n"
	_, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC})
	if err == nil {
		t.Fatal("read, want an error")
	}
	for _, want := range []string{"line 1:", "--query-compute-apps", "gpu_bus_id, pid, process_name, used_memory [MiB]", "--query-gpu"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
