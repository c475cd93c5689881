package gpulog_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// Issue 28: logs as people paste them into issue threads. One test per
// failure class, each reading the fixture internal/gen writes for it
// (testdata/logs, see its README) and stating what the reader must make
// of it; the report-level outcome is tested in cmd/gpureport.

// oneOOM reads a training-log fixture that holds one message.
func oneOOM(t *testing.T, name string) gpulog.TrainingOOM {
	t.Helper()
	l := readFixture(t, name, nil)
	if l.Format != gpulog.FormatTrainingLog || len(l.OOMs) != 1 {
		t.Fatalf("format %s, OOMs %+v", l.Format, l.OOMs)
	}
	return l.OOMs[0]
}

// gibF and mibF are variables so that printed sizes convert at run time,
// truncating as the reader does.
var gibF, mibF = float64(1 << 30), float64(1 << 20)

// TestPastedCachedWording (class 1): before 1.4, "cached" was the cache
// less what is allocated; reserved is allocated plus it.
func TestPastedCachedWording(t *testing.T) {
	o := oneOOM(t, "train_oom_cached.log")
	alloc, cached := int64(10.52*gibF), int64(301.40*mibF)
	if o.Allocated != alloc || o.ReservedUnallocated != cached || o.Reserved != alloc+cached || o.Free != int64(61.19*mibF) ||
		o.Requested != 128<<20 || o.Capacity != int64(11.17*gibF) || o.Device != 0 {
		t.Errorf("%+v", o)
	}
}

// TestPastedFirstLineMessage (class 2): an OOM message with commas as the
// log's first line is no CSV header; the file is a training log.
func TestPastedFirstLineMessage(t *testing.T) {
	o := oneOOM(t, "train_oom_first_line.log")
	if o.Line != 1 || o.Requested != int64(1.50*gibF) || o.PrivatePools != 2<<30 || o.Allocated != int64(74.88*gibF) ||
		o.ReservedUnallocated != int64(2.81*gibF) {
		t.Errorf("%+v", o)
	}
}

// TestPastedHeaderlessOneGPU (class 3): 2,000 header-less rows of one GPU,
// with neither a time nor an index, are one GPU.
func TestPastedHeaderlessOneGPU(t *testing.T) {
	l := readFixture(t, "query_noheader_one_gpu.csv", nil)
	if len(l.GPUs) != 1 || len(l.Samples) != 2000 || l.SkippedLines != 0 {
		t.Fatalf("%d GPUs, %d readings, %d skipped", len(l.GPUs), len(l.Samples), l.SkippedLines)
	}
	for _, s := range l.Samples {
		if s.GPU != 0 || s.MemoryUsed < 400<<20 || s.MemoryUsed > 628<<20 {
			t.Fatalf("reading %+v", s)
		}
	}
}

// TestRowPeriodSplitsOnlyOnAPattern: index-less rows split into GPUs only
// when their identifying values repeat with a fixed period.
func TestRowPeriodSplitsOnlyOnAPattern(t *testing.T) {
	for _, tt := range []struct {
		name string
		rows []string
		gpus int
	}{
		{"one GPU, no identifying column", []string{"12 MiB", "14 MiB", "16 MiB", "18 MiB", "20 MiB", "22 MiB"}, 1},
		{"two GPUs told apart by name and total", []string{"A100, 40960 MiB, 100 MiB", "H100, 81559 MiB, 200 MiB", "A100, 40960 MiB, 110 MiB", "H100, 81559 MiB, 210 MiB",
			"A100, 40960 MiB, 120 MiB", "H100, 81559 MiB, 220 MiB"}, 2},
		{"alike GPUs cannot be told apart", []string{"A100, 40960 MiB, 100 MiB", "A100, 40960 MiB, 200 MiB", "A100, 40960 MiB, 110 MiB", "A100, 40960 MiB, 210 MiB"}, 1},
	} {
		header := "memory.used [MiB]"
		if strings.Count(tt.rows[0], ",") == 2 {
			header = "name, memory.total [MiB], memory.used [MiB]"
		}
		l, err := gpulog.ReadLog(strings.NewReader(header+"\n"+strings.Join(tt.rows, "\n")+"\n"), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(l.GPUs) != tt.gpus {
			t.Errorf("%s: %d GPUs, want %d", tt.name, len(l.GPUs), tt.gpus)
		}
	}
}

// TestPastedNoDeviceIndex (class 4): "GPU  has a total capacity" keeps its
// figures; the device is unknown.
func TestPastedNoDeviceIndex(t *testing.T) {
	o := oneOOM(t, "train_oom_no_index.log")
	if o.Device != -1 || o.Capacity != int64(39.39*gibF) || o.Free != int64(96.44*mibF) || o.Requested != 128<<20 || o.Rank != 0 {
		t.Errorf("%+v", o)
	}
}

// TestPastedNCCLDevice (class 5): NCCL's "host:pid:tid [2]" is the CUDA
// device of the failure.
func TestPastedNCCLDevice(t *testing.T) {
	o := oneOOM(t, "train_nccl_device.err")
	if o.Kind != gpulog.OOMNCCL || o.Device != 2 || o.Requested != 8388608 {
		t.Errorf("%+v", o)
	}
}

// TestPastedRankAfterTime (class 6): a rank prefix after a timestamp gives
// the rank and the time.
func TestPastedRankAfterTime(t *testing.T) {
	o := oneOOM(t, "train_oom_time_rank.log")
	want := time.Date(2025, 3, 2, 8, 11, 59, 0, time.UTC)
	if o.Rank != 6 || !o.Time.Equal(want) || o.Device != 6 {
		t.Errorf("rank %d time %v device %d", o.Rank, o.Time, o.Device)
	}
}

// TestPastedDateLoop (class 7): a shell loop's date lines (en_US date(1)
// inside ==== markers) and tables are the tables, each at its date line's
// time; the echoed line before them is skipped and counted.
func TestPastedDateLoop(t *testing.T) {
	l := readFixture(t, "table_date_loop.log", nil)
	if l.Format != gpulog.FormatTable || len(l.Samples) != 3 || l.SkippedLines != 1 {
		t.Fatalf("format %s, %d readings, %d skipped %v", l.Format, len(l.Samples), l.SkippedLines, l.Problems)
	}
	start := time.Date(2025, 11, 26, 20, 31, 15, 0, time.UTC)
	for i, s := range l.Samples {
		if !s.Time.Equal(start.Add(time.Duration(i)*time.Minute)) || s.MemoryTotal != 40960<<20 {
			t.Errorf("reading %d: %+v", i, s)
		}
	}
}

// TestDateLines reads date(1)'s forms and script markers as date lines, and
// nothing else.
func TestDateLines(t *testing.T) {
	at := time.Date(2025, 3, 2, 8, 11, 59, 0, time.UTC)
	for _, s := range []string{"Sun Mar  2 08:11:59 UTC 2025", "Sun 02 Mar 2025 08:11:59 AM UTC", "Sun, 02 Mar 2025 08:11:59 +0000",
		"==== Sun Mar  2 08:11:59 UTC 2025 ====", "[2025-03-02 08:11:59]", "### 2025-03-02T08:11:59Z ###", "Sunday, March 2, 2025 08:11:59 UTC"} {
		doc := s + "\n" + tableWithoutDate()
		l, err := gpulog.ReadLog(strings.NewReader(doc), gpulog.FormatTable, gpulog.ReadOptions{Location: time.UTC})
		if err != nil || len(l.Samples) == 0 {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if !l.Samples[0].Time.Equal(at) {
			t.Errorf("%q: time %v, want %v", s, l.Samples[0].Time, at)
		}
	}
	for _, s := range []string{"step 12 at 08:11:59", "Sun Mar 2 08:11:59 2025 loss 0.31", "==== 2 08:11:59 2025 ===="} {
		l, err := gpulog.ReadLog(strings.NewReader(s+"\n"+tableWithoutDate()), gpulog.FormatTable, gpulog.ReadOptions{Location: time.UTC})
		if err != nil || len(l.Samples) == 0 {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if !l.Samples[0].Time.IsZero() {
			t.Errorf("%q read as a date line", s)
		}
	}
}

// tableWithoutDate is tableH100 without its date line.
func tableWithoutDate() string {
	_, rest, _ := strings.Cut(tableH100, "\n")
	return rest
}

// TestPastedMemoryUsedMax (class 8): "Memory Used" and "Memory Max" are
// used and total memory, with the units of the cells.
func TestPastedMemoryUsedMax(t *testing.T) {
	l := readFixture(t, "memory_used_max.csv", nil)
	if l.Format != gpulog.FormatCSVColumns || len(l.Samples) != 8 {
		t.Fatalf("format %s, %d readings", l.Format, len(l.Samples))
	}
	if s := l.Samples[7]; s.MemoryTotal != 24564<<20 || s.MemoryUsed < 17000<<20 {
		t.Errorf("%+v", s)
	}
}

// TestColumnNamesByMeaning: more names for memory, any case and spacing.
func TestColumnNamesByMeaning(t *testing.T) {
	for _, tt := range []struct {
		header, row        string
		used, total        int64
		notClaimedNoHeader bool
	}{
		{"time,gpu,mem", "2025-01-01 00:00:00,0,612 MiB", 612 << 20, gpulog.Unknown, false},
		{"timestamp,GPU_MEM", "2025-01-01 00:00:00,1.5 GiB", 3 << 29, gpulog.Unknown, false},
		{"Timestamp,VRAM (MiB)", "2025-01-01 00:00:00,700", 700 << 20, gpulog.Unknown, false},
		{"time, memoryused, memorymax", "2025-01-01 00:00:00,7 GiB,16 GiB", 7 << 30, 16 << 30, false},
		{"TIME,MEMORY_USED,MEMORY_TOTAL", "2025-01-01 00:00:00,100,200", 100 << 20, 200 << 20, false},
	} {
		in := tt.header + "\n" + tt.row + "\n" + tt.row + "\n"
		f, ok := gpulog.SniffLog([]byte(in))
		if !ok {
			t.Errorf("%s: not claimed", tt.header)
			continue
		}
		l, err := gpulog.ReadLog(strings.NewReader(in), f, gpulog.ReadOptions{Location: time.UTC})
		if err != nil {
			t.Errorf("%s: %v", tt.header, err)
			continue
		}
		if s := l.Samples[0]; s.MemoryUsed != tt.used || s.MemoryTotal != tt.total {
			t.Errorf("%s: used %d total %d, want %d %d", tt.header, s.MemoryUsed, s.MemoryTotal, tt.used, tt.total)
		}
	}
	// A host's memory log is no GPU log.
	for _, in := range []string{"timestamp,cpu_pct,mem_used,mem_total\n1,2,3,4\n", "time,ram_used,ram_total\n1,2,3\n"} {
		if f, ok := gpulog.SniffLog([]byte(in)); ok {
			t.Errorf("%q sniffed as %s", in, f)
		}
	}
}

// TestPastedROCmLimit (class 9): the HIP message's figures (the cause is
// decided in analyze).
func TestPastedROCmLimit(t *testing.T) {
	o := oneOOM(t, "train_oom_rocm_limit.log")
	if o.Backend != "HIP" || o.Free != 612<<20 || o.Requested != 100<<20 || o.Free-o.FreeSlack < o.Requested+o.RequestedSlack {
		t.Errorf("%+v", o)
	}
}

// TestPastedWandbPercent (class 10): a W&B chart export's memoryAllocated
// is a share of the device, kept as such until a total is known.
func TestPastedWandbPercent(t *testing.T) {
	l := readFixture(t, "wandb_chart_percent.csv", nil)
	if l.Format != gpulog.FormatWandbCSV || len(l.Samples) != 12 {
		t.Fatalf("format %s, %d readings", l.Format, len(l.Samples))
	}
	s := l.Samples[11]
	if s.MemoryUsed != gpulog.Unknown || math.Abs(s.MemoryUsedPercent-100*61016/81559.0) > 0.01 {
		t.Errorf("%+v", s)
	}
	if hasNote(l, "no memory columns") || !hasNote(l, "percent of the device") {
		t.Errorf("notes %q", l.Notes)
	}
	resolved := gpulog.ResolveShares([]*gpulog.GPULog{l}, 81559<<20)
	if r := resolved[0].Samples[11]; r.MemoryUsed != int64(s.MemoryUsedPercent/100*float64(81559<<20)) || r.MemoryTotal != 81559<<20 {
		t.Errorf("resolved %+v", r)
	}
	if l.Samples[11].MemoryUsed != gpulog.Unknown {
		t.Error("ResolveShares changed its input")
	}
	if got := gpulog.ResolveShares([]*gpulog.GPULog{l}, 0); got[0] != l {
		t.Error("without a total the log must be returned as it is")
	}
}

// TestPastedDCGMMIG (class 10): DCGM's MIG instances are readings of their
// own (GPU and instance id), none dropped.
func TestPastedDCGMMIG(t *testing.T) {
	l := readFixture(t, "dcgm_mig_metrics.txt", nil)
	if len(l.MIG) != 12 || len(l.Samples) != 0 {
		t.Fatalf("%d MIG readings, %d GPU readings", len(l.MIG), len(l.Samples))
	}
	for _, m := range l.MIG {
		if m.GPU != 0 || (m.GPUInstance != 1 && m.GPUInstance != 2) || m.MemoryTotal != 19968<<20 || m.MemoryUsed < 300<<20 {
			t.Fatalf("%+v", m)
		}
	}
	// A scrape without framebuffer fields says why it gives no reading.
	_, err := gpulog.ReadLog(strings.NewReader("# TYPE DCGM_FI_DEV_GPU_TEMP gauge\nDCGM_FI_DEV_GPU_TEMP{gpu=\"0\",GPU_I_ID=\"1\"} 40\n"), gpulog.FormatDCGMProm, gpulog.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "DCGM_FI_DEV_FB_USED") {
		t.Errorf("error %v, want one naming the missing framebuffer fields", err)
	}
}

// TestPastedComposerMemoryMonitor (class 10): Composer's MemoryMonitor
// metrics are memory_stats readings, in gigabytes of 10^9 bytes, at the
// batch's step.
func TestPastedComposerMemoryMonitor(t *testing.T) {
	l := readFixture(t, "composer_memory_monitor.log", nil)
	if l.Format != gpulog.FormatTrainingLog || len(l.MemoryStats) != 8 {
		t.Fatalf("format %s, %d readings", l.Format, len(l.MemoryStats))
	}
	r := l.MemoryStats[7]
	// 4096 MiB is 4.294967296 GB, printed to five significant digits.
	if r.Step != 80 || r.Reserved != 4_295_000_000 || r.Allocated < 1_600_000_000 || r.Allocated > 1_700_000_000 || r.NumAllocRetries != 0 {
		t.Errorf("%+v", r)
	}
}
