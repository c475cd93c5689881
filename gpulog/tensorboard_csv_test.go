package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// tbCSV is a TensorBoard scalar download: 5 points 100 steps and 60 s
// apart, values from value(i).
func tbCSV(value func(i int) string) string {
	var b strings.Builder
	b.WriteString("Wall time,Step,Value\n")
	for i := range 5 {
		fmt.Fprintf(&b, "%.6f,%d,%s\n", 1709287200.123456+60*float64(i), 100*(i+1), value(i))
	}
	return b.String()
}

// TestTensorBoardScalarCSV: a TensorBoard scalar download is read when
// the tag in its file name names a GPU memory figure (allocated and
// reserved as memory_stats readings, used as a GPU's reading), in the
// tag's unit (decimal units noted as ambiguous; no unit only for byte
// counts), on the device it names, else cuda:0; other tags, peaks and
// names without a tag are listed as skipped with the reason.
func TestTensorBoardScalarCSV(t *testing.T) {
	gb := func(i int) string { return fmt.Sprintf("%.2f", 21.5+0.05*float64(i)) }
	byteCount := func(i int) string { return fmt.Sprint(int64(12<<30) + int64(i)<<20) }
	tests := []struct {
		name, file, text string
		// figure is "allocated", "reserved" or "used"; "" when the file
		// is not claimed, and reason then a part of the skip reason.
		figure string
		device int
		first  int64 // bytes
		note   string
		reason string
	}{
		{name: "allocated in GB", file: "run-version_0-tag-gpu_mem_allocated_GB.csv", text: tbCSV(gb), figure: "allocated", first: 21_500_000_000, note: "7.4% low"},
		{name: "torch name in bytes", file: "run-.-tag-train_memory_reserved.csv", text: tbCSV(byteCount), figure: "reserved", first: 12 << 30, note: "whole byte count"},
		{name: "used on GPU 1 in MiB", file: "run-exp1-tag-gpu1_memory_used_MiB.csv", text: tbCSV(func(i int) string { return fmt.Sprint(40000 + 100*i) }), figure: "used", device: 1, first: 40000 << 20},
		{name: "no unit, decimal values", file: "run-.-tag-gpu_mem_allocated.csv", text: tbCSV(gb), reason: "names no unit"},
		{name: "a peak", file: "run-.-tag-gpu_max_memory_allocated_GB.csv", text: tbCSV(gb), reason: "names a peak"},
		{name: "another tag", file: "run-.-tag-train_loss.csv", text: tbCSV(gb), reason: "names no GPU memory"},
		{name: "no tag in the name", file: "scalars.csv", text: tbCSV(gb), reason: "tag is not in its name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claimed := gpulog.SniffTensorBoardCSV("runs/"+tt.file, []byte(tt.text))
			if _, ok := gpulog.SniffLog([]byte(tt.text)); ok {
				t.Fatal("claimed without its name")
			}
			if tt.figure == "" && tt.reason != "names no unit" {
				reason, ok := gpulog.TensorBoardCSVReason("runs/"+tt.file, []byte(tt.text))
				if claimed || !ok || !strings.Contains(reason, tt.reason) {
					t.Fatalf("claimed %v, reason %q; want %q", claimed, reason, tt.reason)
				}
				return
			}
			if !claimed {
				t.Fatal("not claimed")
			}
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), gpulog.FormatTensorBoardCSV, gpulog.ReadOptions{Location: time.UTC, Name: tt.file})
			if tt.figure == "" {
				if err == nil || !strings.Contains(err.Error(), tt.reason) {
					t.Fatalf("error %v, want %q", err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var first int64
			var at time.Time
			n := len(l.MemoryStats)
			switch tt.figure {
			case "used":
				n = len(l.Samples)
				if n > 0 {
					first, at = l.Samples[0].MemoryUsed, l.Samples[0].Time
					if l.Samples[0].GPU != tt.device {
						t.Errorf("GPU %d, want %d", l.Samples[0].GPU, tt.device)
					}
				}
			default:
				if n > 0 {
					r := l.MemoryStats[0]
					first, at = r.Allocated, r.Time
					other := r.Reserved
					if tt.figure == "reserved" {
						first, other = r.Reserved, r.Allocated
					}
					if other != gpulog.Unknown || r.Step != 100 || r.Device != tt.device {
						t.Errorf("reading %+v", r)
					}
				}
			}
			if n != 5 || first != tt.first || !at.Equal(time.Unix(1709287200, 123456000)) {
				t.Fatalf("%d readings, first %d at %v; want 5, %d", n, first, at, tt.first)
			}
			if notes := strings.Join(l.Notes, "\n"); !strings.Contains(notes, tt.note) {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}

func FuzzTensorBoardCSV(f *testing.F) {
	f.Add("run-.-tag-gpu_mem_allocated_GB.csv", []byte(tbCSV(func(i int) string { return fmt.Sprint(21.5 + float64(i)) })))
	f.Add("run-x-tag-memory_reserved.csv", []byte("Wall time,Step,Value\n1709287200.5,1,12884901888\n,,\n1e30,-1,1e400\n\"a\n"))
	f.Add("run-x-tag-gpu0_memory_used_MiB.csv", []byte("Wall time,Step,Value\n12,1,5\n1709287200,9999999999999999999,40000\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if reason, ok := gpulog.TensorBoardCSVReason(name, data); ok && reason == "" {
			t.Fatal("empty reason")
		}
		l, err := gpulog.ReadLog(strings.NewReader(string(data)), gpulog.FormatTensorBoardCSV, gpulog.ReadOptions{Location: time.UTC, Name: name})
		if err != nil {
			if l != nil {
				t.Fatal("log and error both returned")
			}
			return
		}
		checkLogInvariants(t, l)
	})
}
