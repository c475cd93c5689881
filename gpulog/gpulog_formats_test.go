package gpulog_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
)

// The generated fixtures in testdata/logs (go run ./internal/gen logs):
// each is recognised by content as its format and decodes to the readings
// the generator wrote. Values were worked out from the generator's curve
// (usedCurve: base, a ramp over 4 readings to the plateau, plus 0, 8 or
// 16 MiB by reading index mod 3).

// fixtureModTime is the modification time the tests give the fixtures,
// so that elapsed-seconds logs anchor at a known time.
var fixtureModTime = time.Date(2025, 11, 26, 21, 0, 0, 0, time.UTC)

func fixturePath(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(testutil.RepoRoot(t), "testdata", "logs", filepath.FromSlash(name))
}

func readFixture(t *testing.T, name string, spec *gpulog.ColumnSpec) *gpulog.GPULog {
	t.Helper()
	p := fixturePath(t, name)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	head := data[:min(len(data), 8<<10)]
	format, ok := gpulog.SniffLogWith(head, spec)
	if !ok {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if !gpulog.SniffTrainingLog(f, head) {
			t.Fatalf("%s: not recognised", name)
		}
		format = gpulog.FormatTrainingLog
	}
	l, err := gpulog.ReadLog(strings.NewReader(string(data)), format, gpulog.ReadOptions{Location: time.UTC, ModTime: fixtureModTime, Columns: spec})
	if err != nil {
		t.Fatal(err)
	}
	checkLogInvariants(t, l)
	return l
}

func hasNote(l *gpulog.GPULog, parts ...string) bool {
	for _, n := range l.Notes {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(n, p)
		}
		if all {
			return true
		}
	}
	return false
}

type fixtureWant struct {
	name    string
	spec    string
	format  gpulog.LogFormat
	samples int
	gpus    int
	timing  gpulog.Timing
	// sample at index at: GPU, used, total (bytes) and time ("" none).
	at          int
	gpu         int
	used, total int64
	time        string
	// maxUsed is the largest used memory of GPU gpu; notes are substrings
	// that some note must hold, each list one note.
	maxUsed int64
	notes   [][]string
}

func TestLogFixtures(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []fixtureWant{
		// Item 4: Unix seconds, no units: MiB assumed and said.
		{name: "epoch_seconds_nounits.csv", format: gpulog.FormatQueryCSV, samples: 12, gpus: 1, timing: gpulog.TimingTimes,
			at: 0, gpu: 0, used: 442 * logMiB, total: 24576 * logMiB, time: "2025-11-26T20:31:15Z", maxUsed: 18016 * logMiB,
			notes: [][]string{{`"memory.used"`, "no unit", "MiB"}}},
		// Milliseconds by magnitude; GiB from the column names; two GPUs.
		{name: "epoch_millis.csv", format: gpulog.FormatCSVColumns, samples: 12, gpus: 2, timing: gpulog.TimingTimes,
			at: 1, gpu: 1, used: 1 * gib, total: gibs(79.65), time: "2025-11-26T20:31:15Z"},
		// Item 5: elapsed seconds anchored at the modification time; the
		// quoted note with a newline is one field.
		{name: "elapsed_own_columns.csv", format: gpulog.FormatCSVColumns, samples: 10, gpus: 1, timing: gpulog.TimingElapsed,
			at: 9, gpu: 0, used: 20000 * logMiB, total: 24564 * logMiB, time: "2025-11-26T21:00:00Z", maxUsed: 20016 * logMiB,
			notes: [][]string{{`column "elapsed_sec"`, "elapsed seconds", "modification time"}}},
		// Item 6: one table, then 1,236 CSV rows without a time: every
		// reading kept, in reading order.
		{name: "table_then_query_csv.log", format: gpulog.FormatTable, samples: 1237, gpus: 1, timing: gpulog.TimingOrder,
			at: 0, gpu: 0, used: 0, total: 32768 * logMiB, time: "2025-11-26T20:31:15Z", maxUsed: 30716 * logMiB,
			notes: [][]string{{"1236 of 1237 readings", "reading index"}}},
		// Item 7: no time at all, one reading each.
		{name: "xml_no_timestamp.xml", format: gpulog.FormatXML, samples: 1, gpus: 1, timing: gpulog.TimingOrder,
			at: 0, gpu: 0, used: 17250 * logMiB, total: 23034 * logMiB, maxUsed: 17250 * logMiB, notes: [][]string{{"one reading has no time"}}},
		{name: "query_no_timestamp.csv", format: gpulog.FormatQueryCSV, samples: 1, gpus: 1, timing: gpulog.TimingOrder,
			at: 0, gpu: 0, used: 38211 * logMiB, total: 40960 * logMiB, maxUsed: 38211 * logMiB},
		// No memory columns: read, and said.
		{name: "power_only_gpu.csv", format: gpulog.FormatCSVColumns, samples: 5, gpus: 1, timing: gpulog.TimingTimes,
			at: 0, gpu: 0, used: gpulog.Unknown, total: gpulog.Unknown, time: "2025-11-26T20:31:15Z", maxUsed: gpulog.Unknown,
			notes: [][]string{{"this log gives no memory figures", "no memory columns"}}},
		// --gpu-log-columns for names no heuristic reads.
		{name: "custom_columns.csv", spec: "time=when,used=x_used,total=x_cap,unit=GiB", format: gpulog.FormatCSVColumns, samples: 6, gpus: 1,
			timing: gpulog.TimingTimes, at: 0, gpu: 0, used: 1 * gib, total: gibs(79.6), time: "2025-11-26T20:31:15Z"},
		// Lightning 1.x nvidia-smi keys: used + free = total; no times.
		{name: "lightning_nvsmi/metrics.csv", format: gpulog.FormatLightningCSV, samples: 6, gpus: 1, timing: gpulog.TimingSteps,
			at: 0, gpu: 0, used: 900 * logMiB, total: 16160 * logMiB, maxUsed: 14016 * logMiB,
			notes: [][]string{{"on_train_batch_start", "GPU 0"}, {"used + free"}}},
		// W&B: used bytes; total from used / percent; two GPUs, Unix
		// seconds.
		{name: "wandb_system.csv", format: gpulog.FormatWandbCSV, samples: 16, gpus: 2, timing: gpulog.TimingTimes,
			at: 0, gpu: 0, used: 800 * logMiB, total: 80 * gib, time: "2025-11-26T20:31:30.2Z",
			notes: [][]string{{"derived from used bytes and used percent"}}},
		// DCGM: four dated scrapes of two GPUs; total = used + free +
		// reserved.
		{name: "dcgm_metrics.txt", format: gpulog.FormatDCGMProm, samples: 8, gpus: 2, timing: gpulog.TimingTimes,
			at: 1, gpu: 1, used: 600 * logMiB, total: (81050 + 519) * logMiB, time: "2025-11-26T20:31:15Z"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var spec *gpulog.ColumnSpec
			if tt.spec != "" {
				var err error
				if spec, err = gpulog.ParseColumnSpec(tt.spec); err != nil {
					t.Fatal(err)
				}
			}
			l := readFixture(t, tt.name, spec)
			if l.Format != tt.format || len(l.Samples) != tt.samples || len(l.GPUs) != tt.gpus || l.Timing != tt.timing {
				t.Fatalf("format %s, %d samples, %d GPUs, timing %s; want %s, %d, %d, %s (notes %q, problems %+v)",
					l.Format, len(l.Samples), len(l.GPUs), l.Timing, tt.format, tt.samples, tt.gpus, tt.timing, l.Notes, l.Problems)
			}
			if l.SkippedLines != 0 {
				t.Errorf("%d lines skipped: %+v", l.SkippedLines, l.Problems)
			}
			s := l.Samples[tt.at]
			if s.GPU != tt.gpu || !near(s.MemoryUsed, tt.used) || !near(s.MemoryTotal, tt.total) {
				t.Errorf("sample %d: GPU %d used %d total %d; want %d, %d, %d", tt.at, s.GPU, s.MemoryUsed, s.MemoryTotal, tt.gpu, tt.used, tt.total)
			}
			got := ""
			if !s.Time.IsZero() {
				got = s.Time.UTC().Format(time.RFC3339Nano)
			}
			if got != tt.time {
				t.Errorf("sample %d time %q, want %q", tt.at, got, tt.time)
			}
			if tt.maxUsed != 0 {
				m := gpulog.Unknown
				for _, s := range l.Samples {
					if s.GPU == tt.gpu {
						m = max(m, s.MemoryUsed)
					}
				}
				if m != tt.maxUsed {
					t.Errorf("max used %d, want %d", m, tt.maxUsed)
				}
			}
			for _, n := range tt.notes {
				if !hasNote(l, n...) {
					t.Errorf("no note with %q in %q", n, l.Notes)
				}
			}
		})
	}
}

// near compares byte counts derived from fractional values (GiB, percent)
// to within a MiB.
func near(a, b int64) bool {
	d := a - b
	return d >= -logMiB && d <= logMiB
}

// TestLightningTorchStats reads DeviceStatsMonitor's memory_stats columns
// of one hook into memory_stats readings with their steps; loss rows give
// none.
func TestLightningTorchStats(t *testing.T) {
	l := readFixture(t, "lightning_torch/metrics.csv", nil)
	if l.Format != gpulog.FormatLightningCSV || len(l.MemoryStats) != 8 || len(l.Samples) != 0 {
		t.Fatalf("format %s, %d memory_stats, %d samples", l.Format, len(l.MemoryStats), len(l.Samples))
	}
	m := l.MemoryStats[7]
	if m.Step != 7 || m.Allocated != 2408*logMiB || m.Reserved != 3072*logMiB || m.NumOOMs != 0 {
		t.Errorf("reading 7: %+v", m)
	}
	if !hasNote(l, "on_train_batch_end") {
		t.Errorf("notes %q", l.Notes)
	}
}

// TestMemoryStats2026 reads JSON lines with the newer memory_stats keys
// (requested_bytes, oversize_*, num_device_alloc, max_split_size -1)
// without tripping on them.
func TestMemoryStats2026(t *testing.T) {
	l := readFixture(t, "memory_stats_2026.jsonl", nil)
	if l.Format != gpulog.FormatMemoryStats || len(l.MemoryStats) != 6 || l.SkippedLines != 0 {
		t.Fatalf("format %s, %d readings, %d skipped", l.Format, len(l.MemoryStats), l.SkippedLines)
	}
	if m := l.MemoryStats[5]; m.Step != 500 || m.Allocated != 5216*logMiB || m.Reserved != 6144*logMiB {
		t.Errorf("reading 5: %+v", m)
	}
}

// TestTrainingLogOOMs reads every OOM message form with its numbers.
func TestTrainingLogOOMs(t *testing.T) {
	const gib, mb = float64(1 << 30), float64(1 << 20)
	b := func(f float64) int64 { return int64(f) }
	for _, tt := range []struct {
		name string
		want []gpulog.TrainingOOM
	}{
		{"train_oom.log", []gpulog.TrainingOOM{{Line: 11, Count: 2, Kind: gpulog.OOMTorch, Backend: "CUDA", Rank: 0, Device: 0,
			// "2.00 GiB": the true size is within 0.005 GiB.
			Requested: b(2 * gib), RequestedSlack: 5368709, Capacity: b(79.10 * gib), Free: b(1.23 * gib), FreeSlack: 5368709, ProcessInUse: b(77.85 * gib),
			Allocated: b(75.10 * gib), ReservedUnallocated: b(1.20 * gib), Reserved: b(75.10*gib) + b(1.20*gib),
			PrivatePools: gpulog.Unknown, Allowed: gpulog.Unknown, OtherProcesses: gpulog.Unknown, OtherAllocations: gpulog.Unknown,
			// torchelastic reports the worker failed after it.
			Fatal: true}}},
		{"train_oom_legacy.log", []gpulog.TrainingOOM{{Line: 5, Count: 1, Kind: gpulog.OOMTorchLegacy, Backend: "CUDA", Rank: input.NoRank, Device: 0,
			Requested: b(20 * mb), RequestedSlack: 5242, Capacity: b(15.78 * gib), Allocated: b(13.2 * gib), Free: b(5.69 * mb), FreeSlack: 5242, Reserved: b(14.62 * gib),
			ReservedUnallocated: b(14.62*gib) - b(13.2*gib), ProcessInUse: gpulog.Unknown,
			PrivatePools: gpulog.Unknown, Allowed: gpulog.Unknown, OtherProcesses: gpulog.Unknown, OtherAllocations: gpulog.Unknown,
			// Its uncaught traceback ends the log.
			Fatal: true}}},
		// Two WARN lines of one NCCL failure: one event with the size, on
		// the CUDA device of NCCL's "host:pid:tid [0]".
		{"train_nccl_oom.err", []gpulog.TrainingOOM{
			{Line: 2, Count: 1, Kind: gpulog.OOMNCCL, Rank: input.NoRank, Device: 0, Requested: 6291456, Capacity: gpulog.Unknown, Free: gpulog.Unknown,
				ProcessInUse: gpulog.Unknown, Allocated: gpulog.Unknown, Reserved: gpulog.Unknown, ReservedUnallocated: gpulog.Unknown,
				PrivatePools: gpulog.Unknown, Allowed: gpulog.Unknown, OtherProcesses: gpulog.Unknown, OtherAllocations: gpulog.Unknown}}},
		{"train_cuda_error.out", []gpulog.TrainingOOM{{Line: 2, Count: 1, Kind: gpulog.OOMCUDAError, Rank: input.NoRank, Device: -1,
			Requested: gpulog.Unknown, Capacity: gpulog.Unknown, Free: gpulog.Unknown, ProcessInUse: gpulog.Unknown, Allocated: gpulog.Unknown,
			Reserved: gpulog.Unknown, ReservedUnallocated: gpulog.Unknown,
			PrivatePools: gpulog.Unknown, Allowed: gpulog.Unknown, OtherProcesses: gpulog.Unknown, OtherAllocations: gpulog.Unknown}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := readFixture(t, tt.name, nil)
			if l.Format != gpulog.FormatTrainingLog || len(l.OOMs) != len(tt.want) {
				t.Fatalf("format %s, OOMs %+v", l.Format, l.OOMs)
			}
			for i, w := range tt.want {
				g := l.OOMs[i]
				g.Message, g.Time = "", time.Time{}
				if g != w {
					t.Errorf("OOM %d:\n got %+v\nwant %+v", i, g, w)
				}
			}
		})
	}
}

// TestTrainingLogNotClaimed: text that quotes the phrase (source code, a
// README) or has no OOM is no training log.
func TestTrainingLogNotClaimed(t *testing.T) {
	for _, in := range []string{
		"step 1 loss 2.0\nstep 2 loss 1.9\n",
		"    if \"CUDA out of memory\" in str(e):\n        retry()\n",
		"    if \"CUBLAS_STATUS_ALLOC_FAILED\" in str(e) or 'CUDNN_STATUS_ALLOC_FAILED' in str(e):\n        retry()\n",
		"cudnn_status: CUDNN_STATUS_NOT_SUPPORTED\n",
		"we ran out of memory on the host\n",
		"\x00\x01binary out of memory",
	} {
		if gpulog.SniffTrainingLog(strings.NewReader(in), []byte(in)) {
			t.Errorf("%q claimed as a training log", in)
		}
	}
}

// TestNumericTimestamps decides the unit of a numeric time by magnitude.
func TestNumericTimestamps(t *testing.T) {
	for _, tt := range []struct {
		stamp string
		want  string
	}{
		{"1764189075", "2025-11-26T20:31:15Z"},
		{"1764189075.25", "2025-11-26T20:31:15.25Z"},
		{"1764189075250", "2025-11-26T20:31:15.25Z"},
		{"1764189075250000", "2025-11-26T20:31:15.25Z"},
		{"1764189075250000000", "2025-11-26T20:31:15.25Z"},
		{"12.5", "2025-11-26T21:00:00Z"}, // elapsed: anchored at the mtime
	} {
		in := "timestamp, index, memory.used [MiB]\n" + tt.stamp + ", 0, 5 MiB\n"
		l, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC, ModTime: fixtureModTime})
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Samples[0].Time.UTC().Format(time.RFC3339Nano); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.stamp, got, tt.want)
		}
	}
}

// TestUntimedAtInterval places readings without a time after the dated
// ones at the interval the dated readings show.
func TestUntimedAtInterval(t *testing.T) {
	in := "timestamp, index, memory.used [MiB]\n" +
		"2024/03/01 10:00:00.000, 0, 1 MiB\n2024/03/01 10:00:05.000, 0, 2 MiB\n" +
		"index, memory.used [MiB]\n0, 3 MiB\n0, 4 MiB\n"
	l, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if l.Timing != gpulog.TimingInterval || len(l.Samples) != 4 {
		t.Fatalf("timing %s, %d samples, notes %q", l.Timing, len(l.Samples), l.Notes)
	}
	if got := l.Samples[3].Time.Format("15:04:05"); got != "10:00:15" {
		t.Errorf("last reading at %s, want 10:00:15", got)
	}
}

// TestColumnMeaning names columns by meaning.
func TestColumnMeaning(t *testing.T) {
	for _, tt := range []struct {
		header string
		row    string
		used   int64
		total  int64
		free   int64
	}{
		{"time,memory_used,memory_total,gpu_util", "2025-01-01 00:00:00,100,200,5", 100 * logMiB, 200 * logMiB, gpulog.Unknown},
		{"ts,fb_used,fb_free", "1764189075,100,50", 100 * logMiB, 150 * logMiB, 50 * logMiB},
		{"timestamp,gpu_mem_used_bytes,gpu_mem_total_bytes", "1764189075,1048576,2097152", logMiB, 2 * logMiB, gpulog.Unknown},
		{"timestamp,gpuMemUsedGB,gpuMemTotalGB", "1764189075,1.5,2", 3 << 29, 2 << 30, gpulog.Unknown},
		{"timestamp,gpu0_mem_used,gpu0_mem_total", "1764189075,42949672960,85899345920", 40 << 30, 80 << 30, gpulog.Unknown},
		{"timestamp,vram_used_pct,vram_total_mib", "1764189075,50 %,1000", 500 * logMiB, 1000 * logMiB, gpulog.Unknown},
		{"timestamp,gpu_mem,gpu_mem_total", "1764189075,\"1,5\",4 GiB", -2, 4 << 30, gpulog.Unknown},
		{"Timestamp,GPU Memory Used (MiB),GPU Memory Total (MiB)", "1764189075,7,9", 7 * logMiB, 9 * logMiB, gpulog.Unknown},
		{"timestamp,memory.used [MiB],memory.total [MiB],step", "1764189075,7 MiB,9 MiB,3", 7 * logMiB, 9 * logMiB, gpulog.Unknown},
	} {
		in := tt.header + "\n" + tt.row + "\n"
		f, ok := gpulog.SniffLog([]byte(in))
		if !ok || f != gpulog.FormatCSVColumns {
			t.Errorf("%s: sniffed %q %v", tt.header, f, ok)
			continue
		}
		l, err := gpulog.ReadLog(strings.NewReader(in), f, gpulog.ReadOptions{Location: time.UTC})
		if tt.used == -2 {
			if err == nil {
				t.Errorf("%s: %q read", tt.header, tt.row)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.header, err)
			continue
		}
		s := l.Samples[0]
		if s.MemoryUsed != tt.used || s.MemoryTotal != tt.total || s.MemoryFree != tt.free {
			t.Errorf("%s: used %d total %d free %d; want %d, %d, %d", tt.header, s.MemoryUsed, s.MemoryTotal, s.MemoryFree, tt.used, tt.total, tt.free)
		}
	}
	// Not GPU logs: a host monitor, a loss curve.
	for _, in := range []string{"timestamp,cpu,memory\n1,2,3\n", "step,loss,lr\n1,2,3\n", "epoch,train_time,val_acc\n1,2,3\n",
		"_timestamp,system.gpu.0.memory\n1764189075,38\n"} {
		if f, ok := gpulog.SniffLog([]byte(in)); ok {
			t.Errorf("%q sniffed as %s", in, f)
		}
	}
}

// TestParseColumnSpec checks the flag's syntax and its errors.
func TestParseColumnSpec(t *testing.T) {
	s, err := gpulog.ParseColumnSpec("time=t, used=Mem Used ,total=cap,unit=GiB")
	if err != nil || s.Time != "t" || s.Used != "Mem Used" || s.Total != "cap" || s.Unit != 1<<30 || s.String() != "time=t,used=Mem Used,total=cap,unit=GiB" {
		t.Errorf("%+v, %v", s, err)
	}
	for _, bad := range []string{"", "time=t", "used", "used=a,unit=parsecs", "used=a,color=red"} {
		if _, err := gpulog.ParseColumnSpec(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// gibs converts GiB to bytes as the readers do (truncating).
func gibs(f float64) int64 { return int64(f * (1 << 30)) }

// TestLoadWithColumnSpec: with --gpu-log-columns, discovery claims the CSV
// that names those columns and the reader uses them.
func TestLoadWithColumnSpec(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(fixturePath(t, "custom_columns.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "custom_columns.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := gpulog.ParseColumnSpec("time=when,used=x_used,total=x_cap,unit=GiB")
	if err != nil {
		t.Fatal(err)
	}
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Columns: spec})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Logs) != 1 || len(run.Skipped) != 0 || run.Logs[0].Format != gpulog.FormatCSVColumns || len(run.Logs[0].Samples) != 6 {
		t.Fatalf("logs %+v, skipped %+v", run.Logs, run.Skipped)
	}
	if s := run.Logs[0].Samples[5]; s.MemoryTotal != gibs(79.6) || s.MemoryUsed != gibs(39.08) {
		t.Errorf("last sample %+v", s)
	}
}

// TestUntimedAfterTables: CSV rows without a time after dated tables are
// placed at the tables' -l interval, per GPU.
func TestUntimedAfterTables(t *testing.T) {
	in := tableH100 + strings.Replace(tableH100, "10:00:00", "10:00:05", 1) +
		"index, memory.used [MiB]\n0, 3 MiB\n1, 4 MiB\n0, 5 MiB\n1, 6 MiB\n"
	l, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatTable, gpulog.ReadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if l.Timing != gpulog.TimingInterval || len(l.Samples) != 8 || !hasNote(l, "4 of 8 readings", "5s after") {
		t.Fatalf("timing %s, %d samples, notes %q", l.Timing, len(l.Samples), l.Notes)
	}
	for i, want := range []string{"10:00:10", "10:00:10", "10:00:15", "10:00:15"} {
		s := l.Samples[4+i]
		if got := s.Time.Format("15:04:05"); got != want || s.GPU != i%2 {
			t.Errorf("reading %d: GPU %d at %s, want GPU %d at %s", 4+i, s.GPU, got, i%2, want)
		}
	}
}

// TestWandbChartExport reads a W&B chart's CSV export: "RUN - metric"
// columns with __MIN/__MAX companions, elapsed "Relative Time (Process)".
func TestWandbChartExport(t *testing.T) {
	in := "Relative Time (Process),run-7 - system/gpu.0.memoryAllocatedBytes,run-7 - system/gpu.0.memoryAllocatedBytes__MIN,run-7 - system/gpu.0.memoryAllocatedBytes__MAX\n" +
		"30.5,1073741824,1073741824,1073741824\n60.5,2147483648,2147483648,2147483648\n"
	f, ok := gpulog.SniffLog([]byte(in))
	if !ok || f != gpulog.FormatWandbCSV {
		t.Fatalf("sniffed %q %v", f, ok)
	}
	l, err := gpulog.ReadLog(strings.NewReader(in), f, gpulog.ReadOptions{Location: time.UTC, ModTime: fixtureModTime})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Samples) != 2 || l.Samples[1].MemoryUsed != 2<<30 || l.Timing != gpulog.TimingElapsed || !l.Samples[1].Time.Equal(fixtureModTime) {
		t.Errorf("samples %+v, timing %s", l.Samples, l.Timing)
	}
}
