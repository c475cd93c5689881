package gpulog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/internal/testutil"
)

const logMiB = 1 << 20

// realLog is what one real nvidia-smi file must decode to. The values were
// looked up by hand in the files (grep, awk), not taken from the decoder.
type realLog struct {
	path    string
	format  gpulog.LogFormat
	samples int // GPU readings
	procs   int // process readings
	mig     int // MIG device readings
	gpus    int
	skipped int
	// at is the index of a sample whose values are checked: device gpu,
	// memory.used and memory.total in bytes (gpulog.Unknown when the file
	// does not log them) and time (UTC, "" for none).
	at          int
	gpu         int
	used, total int64
	time        string
}

var realLogs = []realLog{
	{"dmon/dmon_s_u_with_jpg_ofa.log", gpulog.FormatDmon, 10, 0, 0, 1, 0, 0, 0, gpulog.Unknown, gpulog.Unknown, ""},
	{"mixed-hostile/v100_table_then_csv_with_NUL_bytes.csv", gpulog.FormatTable, 243, 0, 0, 1, 441, 0, 0, 0, 32510 * logMiB, "2022-01-05 15:09:50"},
	{"query-compute-apps-csv/paddle_used_gpu_memory_l.csv", gpulog.FormatComputeAppsCSV, 0, 46, 0, 0, 0, -1, 0, 0, 0, ""},
	{"query-gpu-csv/4xh200_query_gpu_no_index_column.log", gpulog.FormatQueryCSV, 536, 0, 0, 4, 0, 535, 3, gpulog.Unknown, gpulog.Unknown, "2025-06-19 17:53:18.503"},
	{"query-gpu-csv/h100nvl_query_gpu_truncated_at_8192_bytes.log", gpulog.FormatQueryCSV, 104, 0, 0, 1, 1, 103, 0, 90098 * logMiB, 95830 * logMiB, "2026-02-25 10:06:20.442"},
	{"query-gpu-csv/netdata_tesla-p100_query_gpu.csv", gpulog.FormatQueryCSV, 1, 0, 0, 1, 0, 0, 0, 0, gpulog.Unknown, ""},
	{"query-gpu-csv/power_draw_only_50ms.csv", gpulog.FormatQueryCSV, 73, 0, 0, 1, 0, 0, 0, gpulog.Unknown, gpulog.Unknown, "2024-10-30 18:42:33.189"},
	{"query-gpu-csv/rtx2070_query_gpu_header_repeated_every_row.csv", gpulog.FormatQueryCSV, 224, 0, 0, 1, 0, 0, 0, 841 * logMiB, 8192 * logMiB, "2023-06-22 18:56:56.252"},
	{"query-gpu-csv/rtx2070_query_gpu_single_header.csv", gpulog.FormatQueryCSV, 232, 0, 0, 1, 0, 231, 0, 604 * logMiB, 8192 * logMiB, "2023-06-22 19:00:45.023"},
	{"query-gpu-csv/rtx3080ti_noheader_nounits_one_row.log", gpulog.FormatQueryCSV, 1, 0, 0, 1, 0, 0, 0, 2 * logMiB, 12288 * logMiB, "2025-02-03 11:58:03.433"},
	{"query-gpu-csv/rtx4090_query_gpu_power_draw.csv", gpulog.FormatQueryCSV, 2619, 0, 0, 1, 0, 3, 0, 17304 * logMiB, gpulog.Unknown, "2026-01-03 15:36:56.518"},
	{"query-gpu-csv/v100s_query_gpu_index_temp.csv", gpulog.FormatQueryCSV, 107, 0, 0, 1, 0, 0, 0, 1 * logMiB, 32768 * logMiB, "2025-06-13 00:27:52.195"},
	{"table/2xh100_driver570_single.log", gpulog.FormatTable, 2, 0, 0, 2, 0, 1, 1, 0, 81559 * logMiB, "2025-08-01 15:47:06"},
	{"table/2xv100_driver535_two_samples.log", gpulog.FormatTable, 4, 1, 0, 2, 0, 2, 0, 872 * logMiB, 32768 * logMiB, "2024-12-10 21:13:58"},
	{"table/a100_driver555_four_samples.log", gpulog.FormatTable, 4, 4, 0, 1, 0, 0, 0, 23055 * logMiB, 81920 * logMiB, "2024-06-30 00:23:37"},
	{"table/l40s_driver550_repeated_1575_samples.log", gpulog.FormatTable, 1575, 1412, 0, 1, 0, 1, 0, 11948 * logMiB, 46068 * logMiB, "2024-10-29 19:01:23"},
	{"table/rtx3060laptop_driver530_repeated_1368_samples.log", gpulog.FormatTable, 1368, 1801, 0, 1, 402, 0, 0, 1386 * logMiB, 6144 * logMiB, "2023-06-10 13:48:28"},
	{"xml/netdata_a100-sxm4-mig.xml", gpulog.FormatXML, 1, 0, 2, 1, 0, 0, 0, 38 * logMiB, 40960 * logMiB, "2023-01-27 11:32:31"},
	{"xml/netdata_rtx-2080-win.xml", gpulog.FormatXML, 1, 26, 0, 1, 0, 0, 0, 862 * logMiB, 8192 * logMiB, "2022-09-20 14:07:39"},
	{"xml/netdata_rtx-3060.xml", gpulog.FormatXML, 1, 1, 0, 1, 0, 0, 0, 5 * logMiB, 6144 * logMiB, "2022-09-20 15:21:01"},
	{"xml/netdata_rtx-4090-driver-535.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 2 * logMiB, 24564 * logMiB, "2023-08-07 11:10:06"},
	{"xml/netdata_tesla-p100.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 0, 16384 * logMiB, "2022-09-17 17:06:50"},
	{"xml/telegraf_3090-v13.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 7 * logMiB, 24576 * logMiB, "2025-12-30 10:49:50"},
	{"xml/telegraf_a100-sxm4-v12_4gpu_drv535.xml", gpulog.FormatXML, 1, 0, 4, 1, 0, 0, 0, 50 * logMiB, 81920 * logMiB, "2023-08-04 11:44:30"},
	{"xml/telegraf_a10g_drv515.xml", gpulog.FormatXML, 1, 1, 0, 1, 0, 0, 0, 22 * logMiB, 23028 * logMiB, "2023-04-24 16:11:51"},
	{"xml/telegraf_dual_2070-v13.xml", gpulog.FormatXML, 2, 0, 0, 2, 0, 1, 1, 1 * logMiB, 8192 * logMiB, "2025-12-30 09:49:47"},
	{"xml/telegraf_dual_a5000-v13.xml", gpulog.FormatXML, 2, 2, 0, 2, 0, 1, 1, 17253 * logMiB, 24564 * logMiB, "2025-12-30 09:46:54"},
	{"xml/telegraf_gt-1030.xml", gpulog.FormatXML, 1, 10, 0, 1, 0, 0, 0, 875 * logMiB, 1998 * logMiB, "2021-09-23 17:44:07"},
	{"xml/telegraf_gtx-1070-ti_v10_trimmed.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 42 * logMiB, 4096 * logMiB, ""},
	{"xml/telegraf_gtx-1660-ti_drv418.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 0, 5912 * logMiB, "2019-03-29 19:19:44"},
	{"xml/telegraf_pro-6000-maxq-blackwell-v13.xml", gpulog.FormatXML, 1, 1, 0, 1, 0, 0, 0, 65720 * logMiB, 97887 * logMiB, "2025-12-30 09:49:57"},
	{"xml/telegraf_quadro-p2000-v12_drv525.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 1 * logMiB, 5120 * logMiB, "2023-09-20 09:37:38"},
	{"xml/telegraf_quadro-p400_drv418.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 0, 1998 * logMiB, "2019-03-11 17:03:27"},
	{"xml/telegraf_rtx-3060-v12_drv570.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 116 * logMiB, 12288 * logMiB, "2025-03-02 15:02:02"},
	{"xml/telegraf_rtx-3080-v12_win_drv536.xml", gpulog.FormatXML, 1, 5, 0, 1, 0, 0, 0, 1128 * logMiB, 10240 * logMiB, "2023-07-20 17:00:50"},
	{"xml/telegraf_rtx-3080-v13_drv595.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 9184 * logMiB, 10240 * logMiB, "2026-04-10 10:23:01"},
	{"xml/telegraf_rtx-3090-v12_drv525.xml", gpulog.FormatXML, 1, 0, 0, 1, 0, 0, 0, 1 * logMiB, 24576 * logMiB, "2024-05-03 11:54:37"},
	{"xml/telegraf_rtx-4000-sff-ada-v13_drv595.xml", gpulog.FormatXML, 1, 4, 0, 1, 0, 0, 0, 3534 * logMiB, 20475 * logMiB, "2026-08-06 01:03:40"},
	{"xml/telegraf_tesla-t4_drv515.xml", gpulog.FormatXML, 1, 2, 0, 1, 0, 0, 0, 1032 * logMiB, 15360 * logMiB, "2023-04-24 16:22:39"},
	{"xml/telegraf_tesla_p4.xml", gpulog.FormatXML, 1, 13, 0, 1, 0, 0, 0, 807 * logMiB, 1024 * logMiB, "2022-09-21 10:31:52"},
}

// notLogs are real files under nvidia-smi/ that are no GPU log: discovery
// must not claim them.
var notLogs = []string{"reference/netdata_help-query-gpu.txt"}

func sniffFile(t *testing.T, path string) (gpulog.LogFormat, bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := f.Read(head)
	return gpulog.SniffLog(head[:n])
}

// TestRealGPULogs decodes every real nvidia-smi output: each is recognised
// by content as the right format and gives the counts and values read by
// hand from the file.
func TestRealGPULogs(t *testing.T) {
	dir := testutil.RealDir(t, "nvidia-smi")
	files := testutil.RealFiles(t, "nvidia-smi")
	listed := map[string]bool{}
	for _, tt := range realLogs {
		listed[tt.path] = true
	}
	for _, p := range notLogs {
		listed[p] = true
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		if rel = filepath.ToSlash(rel); !listed[rel] && !strings.HasSuffix(rel, ".md") {
			t.Errorf("real file %s has no expectation in realLogs", rel)
		}
	}
	if len(realLogs)+len(notLogs) != 41 {
		t.Errorf("%d expectations, want the 41 real files", len(realLogs)+len(notLogs))
	}
	for _, tt := range realLogs {
		t.Run(tt.path, func(t *testing.T) {
			path := filepath.Join(dir, filepath.FromSlash(tt.path))
			format, ok := sniffFile(t, path)
			if !ok || format != tt.format {
				t.Fatalf("SniffLog = %q, %v; want %q", format, ok, tt.format)
			}
			l, err := gpulog.DecodeLog(path, format, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Samples) != tt.samples || len(l.Processes) != tt.procs || len(l.MIG) != tt.mig ||
				len(l.GPUs) != tt.gpus || l.SkippedLines != tt.skipped {
				t.Errorf("samples %d, processes %d, MIG %d, GPUs %d, skipped %d; want %d, %d, %d, %d, %d (problems %+v)",
					len(l.Samples), len(l.Processes), len(l.MIG), len(l.GPUs), l.SkippedLines,
					tt.samples, tt.procs, tt.mig, tt.gpus, tt.skipped, l.Problems)
			}
			checkLogInvariants(t, l)
			if tt.at < 0 {
				return
			}
			if tt.at >= len(l.Samples) {
				t.Fatalf("no sample %d", tt.at)
			}
			s := l.Samples[tt.at]
			if s.GPU != tt.gpu || s.MemoryUsed != tt.used || s.MemoryTotal != tt.total {
				t.Errorf("sample %d: GPU %d, used %d, total %d; want %d, %d, %d", tt.at, s.GPU, s.MemoryUsed, s.MemoryTotal, tt.gpu, tt.used, tt.total)
			}
			got := ""
			if !s.Time.IsZero() {
				got = s.Time.UTC().Format("2006-01-02 15:04:05.999")
			}
			if got != tt.time {
				t.Errorf("sample %d: time %q, want %q", tt.at, got, tt.time)
			}
		})
	}
	for _, p := range notLogs {
		if f, ok := sniffFile(t, filepath.Join(dir, filepath.FromSlash(p))); ok {
			t.Errorf("%s sniffed as a %s log; it is documentation", p, f)
		}
	}
}

// checkLogInvariants checks what every decoded log must satisfy.
func checkLogInvariants(t *testing.T, l *gpulog.GPULog) {
	t.Helper()
	if len(l.Problems) > gpulog.MaxProblems || len(l.Problems) > l.SkippedLines {
		t.Errorf("%d problems for %d skipped lines", len(l.Problems), l.SkippedLines)
	}
	n := 0
	for _, c := range l.SkipCounts {
		n += c.Lines
	}
	if n != l.SkippedLines {
		t.Errorf("skip counts sum to %d, skipped %d", n, l.SkippedLines)
	}
	for i := 1; i < len(l.Problems); i++ {
		if l.Problems[i].Line < l.Problems[i-1].Line {
			t.Errorf("problems not in line order: %+v", l.Problems)
			break
		}
	}
	known := map[int]bool{}
	for _, g := range l.GPUs {
		known[g.Index] = true
	}
	for _, s := range l.Samples {
		if !known[s.GPU] {
			t.Fatalf("sample of GPU %d, not in GPUs %+v", s.GPU, l.GPUs)
		}
		for _, b := range []int64{s.MemoryUsed, s.MemoryTotal, s.MemoryFree, s.MemoryReserved} {
			if b < gpulog.Unknown {
				t.Fatalf("negative byte count in %+v", s)
			}
		}
	}
	for _, m := range l.MIG {
		if m.MemoryUsed < gpulog.Unknown || m.MemoryTotal < gpulog.Unknown {
			t.Fatalf("negative byte count in MIG reading %+v", m)
		}
	}
}

// TestRealHostileFile checks why the hostile file's lines were skipped:
// rows of the second GPU writing the same file, and rows garbled where the
// two writers overlapped; its NUL bytes are reported.
func TestRealHostileFile(t *testing.T) {
	path := filepath.Join(testutil.RealDir(t, "nvidia-smi"), "mixed-hostile", "v100_table_then_csv_with_NUL_bytes.csv")
	l, err := gpulog.DecodeLog(path, gpulog.FormatTable, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	want := []gpulog.SkipCount{{Kind: "row of a different GPU", Lines: 437}, {Kind: "unreadable row", Lines: 4}}
	if len(l.SkipCounts) != len(want) || l.SkipCounts[0] != want[0] || l.SkipCounts[1] != want[1] {
		t.Errorf("skip counts %+v, want %+v", l.SkipCounts, want)
	}
	if p := l.Problems[0]; p.Line != 23 || !strings.Contains(p.Reason, "Tesla V100-PCIE-32GB") {
		t.Errorf("first problem %+v, want line 23 naming the other GPU", p)
	}
	if len(l.Notes) != 2 || !strings.Contains(l.Notes[0], "192646 NUL bytes") {
		t.Errorf("notes %q, want the NUL bytes counted", l.Notes)
	}
	// One dated table, then CSV rows without a time: no interval can be
	// inferred from one date, so the rows stay in reading order.
	if l.Timing != gpulog.TimingOrder || len(l.Notes) < 2 || !strings.Contains(l.Notes[1], "242 of 243 readings") {
		t.Errorf("timing %q, notes %q; want reading order, said in a note", l.Timing, l.Notes)
	}
	if g := l.GPUs[0]; g.Name != "Tesla V100-SXM2-32GB" || g.BusID != "00000000:16:00.0" || l.Driver != "495.44" {
		t.Errorf("GPU %+v driver %q", g, l.Driver)
	}
	if !l.Zoneless {
		t.Error("table date read as zoned")
	}
}
