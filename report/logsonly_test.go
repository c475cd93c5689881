package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// Runs with GPU logs and no snapshots, end to end: files written to a
// temporary directory (or a real log read in place), ingest.Load,
// analyze.Analyze and every writer.

// logsOnlyRun loads and analyses dir; the Findings' Run is renamed to
// name so that outputs do not depend on the temporary path.
func logsOnlyRun(t *testing.T, dir, name string) (*analyze.Findings, *ingest.Run) {
	t.Helper()
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Snapshots) != 0 {
		t.Fatalf("%d snapshots in a logs-only run", len(run.Snapshots))
	}
	f := analyze.Analyze(run, analyze.Options{})
	f.RunDir = name
	return f, run
}

// rendered is every output of one run.
type rendered struct {
	summary  map[string]any
	md, text string
	html     string
	xlsx     *excelize.File
}

func renderAll(t *testing.T, f *analyze.Findings, run *ingest.Run) rendered {
	t.Helper()
	opt := fixedOptions
	var r rendered
	sum, err := marshalSummary(BuildSummary(f, opt))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sum, &r.summary); err != nil {
		t.Fatal(err)
	}
	r.md = string(Markdown(f, opt))
	var text bytes.Buffer
	if err := Text(&text, f); err != nil {
		t.Fatal(err)
	}
	r.text = text.String()
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	r.html = string(page)
	b, err := XLSX(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.xlsx, err = excelize.OpenReader(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.xlsx.Close() })
	return r
}

// at walks a decoded JSON value: at(v, "devices", 0, "trend", "metric").
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, k)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("%v: no element %d", path, k)
			}
			v = a[k]
		}
	}
	return v
}

// sheetRows is the number of data rows of an XLSX sheet.
func sheetRows(t *testing.T, f *excelize.File, sheet string) int {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	return len(rows) - 1
}

func TestLogsOnlyRuns(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name  string
		write func(t testing.TB, dir string) // nil: the real compute-apps log
		check func(t *testing.T, r rendered)
	}{
		{"nvidia-smi with per-process readings", func(t testing.TB, dir string) { writeSMILogs(t, dir, false) }, func(t *testing.T, r rendered) {
			s := r.summary
			if n := len(at(t, s, "devices").([]any)); n != 2 {
				t.Fatalf("%d devices, want GPUs 0 and 1", n)
			}
			p := at(t, s, "devices", 0, "gpu_samples", "processes", 0)
			if at(t, p, "pid") != 4242.0 || at(t, p, "name") != "python" || at(t, p, "gpu") != 0.0 || at(t, p, "samples") != 180.0 ||
				at(t, p, "used_max_bytes") != float64(2358*mib) || at(t, p, "used_last_bytes") != float64(2358*mib) || at(t, p, "growing") != true ||
				at(t, p, "first_time") != "2026-03-02T09:00:00Z" {
				t.Errorf("growing process %v", p)
			}
			if got := at(t, p, "trend", "slope_bytes_per_hour"); got != float64(720*mib) || at(t, p, "trend", "metric") != "process_used_bytes" {
				t.Errorf("growing process trend %v, want +720 MiB per hour", at(t, p, "trend"))
			}
			if q := at(t, s, "devices", 0, "gpu_samples", "processes", 1); at(t, q, "name") != "dataloader" || at(t, q, "growing") != false {
				t.Errorf("flat process %v", q)
			}
			if q := at(t, s, "devices", 1, "gpu_samples", "processes", 0); at(t, q, "pid") != 5000.0 {
				t.Errorf("GPU 1's process %v", q)
			}
			o := at(t, s, "other_processes", 0)
			if at(t, o, "name") != evilProcess || at(t, o, "gpu") != nil || at(t, o, "samples") != 180.0 {
				t.Errorf("other process %v", o)
			}
			if at(t, s, "verdict", "leak") != false || at(t, s, "verdict", "oom") != false {
				t.Errorf("verdict %v", at(t, s, "verdict"))
			}
			for _, want := range []string{"## Processes whose GPU memory grows",
				"- `python (pid 4242)` on cuda:0: +720 MiB/hour (95% CI +720 to +720 MiB), p<0.001; peak 2.30 GiB, last 2.30 GiB (180 readings, nvidia-smi)"} {
				if !strings.Contains(r.md, want) {
					t.Errorf("summary.md lacks %q:\n%s", want, r.md)
				}
			}
			if strings.Count(r.md, "(pid ") != 1 {
				t.Errorf("summary.md lists more than the growing process:\n%s", r.md)
			}
			if want := "  growing process python (pid 4242) on cuda:0: +720 MiB/hour"; !strings.Contains(r.text, want) {
				t.Errorf("stdout lacks %q:\n%s", want, r.text)
			}
			if n := sheetRows(t, r.xlsx, "Processes"); n != 4 {
				t.Errorf("Processes sheet: %d rows, want 4", n)
			}
			if n := sheetRows(t, r.xlsx, "Process samples"); n != 4*180 {
				t.Errorf("Process samples sheet: %d rows, want 720", n)
			}
			if v, _ := r.xlsx.GetCellValue("Processes", "D2"); v != "python" {
				t.Errorf("Processes!D2 = %q", v)
			}
			if v, _ := r.xlsx.GetCellValue("Processes", "H2"); v != "2,358.00 MiB" {
				t.Errorf("Processes!H2 = %q, want the peak in MiB", v)
			}
			if v, _ := r.xlsx.GetCellValue("Processes", "D5"); v != evilProcess {
				t.Errorf("Processes!D5 = %q", v)
			}
			for _, id := range []string{`id="processes-rx-d0"`, `id="processes-rx-d1"`, `id="processes-other"`, `href="#processes"`} {
				if !strings.Contains(r.html, id) {
					t.Errorf("index.html lacks %s", id)
				}
			}
		}},
		{"memory_stats leak with an OOM", func(t testing.TB, dir string) { writeSMILogs(t, dir, true); writeLeakingStats(t, dir) }, func(t *testing.T, r rendered) {
			s := r.summary
			d := at(t, s, "devices", 0)
			tr := at(t, d, "trend")
			if at(t, tr, "metric") != "allocated_bytes" || at(t, tr, "source") != "memory_stats" || at(t, tr, "slope_bytes_per_step") != float64(mib) ||
				at(t, tr, "verdict") != "growing" || at(t, d, "verdict") != "leak" || at(t, d, "axis") != "step" {
				t.Errorf("device trend %v", tr)
			}
			ms := at(t, d, "memory_stats")
			if at(t, ms, "primary") != true || at(t, ms, "samples") != 100.0 || at(t, ms, "order") != "step" || at(t, ms, "alloc_retries_growing") != true ||
				at(t, ms, "allocated_max_bytes") != float64(4<<30+990*mib) || at(t, ms, "num_ooms") != 1.0 || at(t, ms, "num_alloc_retries") != 19.0 {
				t.Errorf("memory_stats %v", ms)
			}
			o := at(t, ms, "ooms", 0)
			if at(t, o, "step") != 700.0 || at(t, o, "previous_step") != 690.0 || at(t, o, "num_ooms_before") != 0.0 || at(t, o, "num_ooms_after") != 1.0 ||
				at(t, o, "allocated_bytes") != float64(4<<30+700*mib) || at(t, o, "time") != "2026-03-02T09:05:50Z" {
				t.Errorf("memory_stats OOM %v", o)
			}
			v := at(t, s, "verdict")
			// The readings go on after num_ooms rose: a caught OOM; the
			// leak's forecast within the horizon is critical.
			if at(t, v, "leak") != true || at(t, v, "oom") != true || at(t, v, "severity") != "critical" || at(t, v, "ooms_handled") != 1.0 ||
				at(t, v, "headline") != "Leak (no site: no snapshots); 1 OOM caught and recovered (leak)" {
				t.Errorf("verdict %v", v)
			}
			// Most process readings lie after the last memory_stats reading,
			// outside the step axis: the processes are on hours instead.
			if p := at(t, d, "gpu_samples", "processes", 0); at(t, p, "growing") != true || at(t, p, "trend", "slope_bytes_per_hour") != float64(720*mib) {
				t.Errorf("process: %v", p)
			}
			for _, want := range []string{"## Out of memory", "- cuda:0 (torch.cuda.memory_stats): num_ooms 0 → 1 between step 690 and step 700 (allocated 4.68 GiB, reserved 5.68 GiB)",
				"record snapshots to find the site", "num_alloc_retries keeps growing"} {
				if !strings.Contains(r.md, want) {
					t.Errorf("summary.md lacks %q:\n%s", want, r.md)
				}
			}
			if want := "  cuda:0           no snapshots; memory_stats peak reserved 5.97 GiB, allocated 4.97 GiB"; !strings.Contains(r.text, want) {
				t.Errorf("stdout lacks %q:\n%s", want, r.text)
			}
			if n := sheetRows(t, r.xlsx, "Memory stats"); n != 100 {
				t.Errorf("Memory stats sheet: %d rows, want 100", n)
			}
			if v, _ := r.xlsx.GetCellValue("Memory stats", "N72"); v != "1" {
				t.Errorf("Memory stats!N72 (num_ooms at step 700) = %q", v)
			}
			if v, _ := r.xlsx.GetCellValue("Trend", "Q2"); v != "memory_stats" {
				t.Errorf("Trend!Q2 = %q, want the source", v)
			}
			for _, want := range []string{"allocated (memory_stats)", "torch.cuda.memory_stats readings", "num_ooms 0 → 1 between step 690 and step 700"} {
				if !strings.Contains(r.html, want) {
					t.Errorf("index.html lacks %q", want)
				}
			}
		}},
		// The training log prints the OOM that num_ooms counts: the verdict
		// counts one OOM, and no output lists the rise as another.
		{"memory_stats leak with its OOM's message", func(t testing.TB, dir string) {
			writeLeakingStats(t, dir)
			testutil.WriteFile(t, filepath.Join(dir, "train.log"), []byte("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. "+
				"Including non-PyTorch memory, this process has 77.91 GiB memory in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.\n"))
		}, func(t *testing.T, r rendered) {
			if n := len(at(t, r.summary, "ooms").([]any)); n != 1 || !strings.Contains(r.text, "; 1 OOM") {
				t.Errorf("summary.json: %d OOMs; stdout:\n%s\nwant one OOM", n, r.text)
			}
			_, section, _ := strings.Cut(r.md, "## Out of memory\n\n")
			section, _, _ = strings.Cut(section, "\n\n")
			if n := strings.Count(section, "\n") + 1; n != 1 || strings.Contains(section, "num_ooms") {
				t.Errorf("summary.md's Out of memory lists %d items, want the message alone:\n%s", n, section)
			}
		}},
		{"memory_stats flat", func(t testing.TB, dir string) { writeFlatStats(t, dir) }, func(t *testing.T, r rendered) {
			v := at(t, r.summary, "verdict")
			if at(t, v, "leak") != false || at(t, v, "oom") != false || at(t, v, "fragmentation") != false || at(t, v, "outside_allocator_leak") != false ||
				at(t, v, "severity") != "ok" || len(at(t, v, "reasons").([]any)) != 0 {
				t.Errorf("verdict %v", v)
			}
			ms := at(t, r.summary, "devices", 0, "memory_stats")
			if at(t, ms, "alloc_retries_growing") != false || len(at(t, ms, "ooms").([]any)) != 0 || at(t, r.summary, "devices", 0, "trend", "verdict") != "flat" {
				t.Errorf("memory_stats %v", ms)
			}
			if strings.Contains(r.md, "## Out of memory") || strings.Contains(r.md, "grows") {
				t.Errorf("summary.md:\n%s", r.md)
			}
		}},
		{"torchtitan readings of reserved memory only", writeTitanLog, func(t *testing.T, r rendered) {
			// "memory: X GiB(P%)" is the peak reserved memory: no reading
			// gives allocated memory, so its peak is unknown, never 0 B.
			ms := at(t, r.summary, "devices", 0, "memory_stats")
			if at(t, ms, "allocated_max_bytes") != nil || at(t, ms, "reserved_max_bytes") != 38139309588.0 { // 35.52 GiB

				t.Errorf("memory_stats %v", ms)
			}
			if want := "| rank 0 · cuda:0 | n/a | 35.5 GiB | n/a |"; !strings.Contains(r.md, want) {
				t.Errorf("summary.md lacks %q:\n%s", want, r.md)
			}
			if want := "memory_stats peak reserved 35.5 GiB, allocated n/a"; !strings.Contains(r.text, want) {
				t.Errorf("stdout lacks %q:\n%s", want, r.text)
			}
			if strings.Contains(r.md, "| 0 B |") || strings.Contains(r.text, "allocated 0 B") {
				t.Errorf("an unknown peak reads 0 B:\n%s\n%s", r.md, r.text)
			}
			// The timeline draws the reserved readings alone: no empty
			// allocated series in its legend.
			if !strings.Contains(r.html, "reserved (memory_stats)") || strings.Contains(r.html, "allocated (memory_stats)") {
				t.Errorf("timeline series: reserved drawn %v, empty allocated drawn %v",
					strings.Contains(r.html, "reserved (memory_stats)"), strings.Contains(r.html, "allocated (memory_stats)"))
			}
			rows, err := r.xlsx.GetRows("Summary")
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]string{"rank 0 · cuda:0: peak allocated": {"n/a"}, "rank 0 · cuda:0: peak reserved": {"35.5 GiB", "38139309588", "bytes"}}
			for _, row := range rows {
				if w, ok := want[row[0]]; ok {
					if strings.Join(row[1:], "|") != strings.Join(w, "|") {
						t.Errorf("Summary row %q, want %q", row, w)
					}
					delete(want, row[0])
				}
			}
			if len(want) > 0 {
				t.Errorf("Summary sheet lacks %v", want)
			}
		}},
		{"a GPU log's notes in summary.md", func(t testing.TB, dir string) {
			testutil.WriteFile(t, filepath.Join(dir, "gpu.csv"), []byte("timestamp, index, memory.used [MiB], memory.total [MiB]\n"+
				"2024/05/01 12:00:00.000, 0, 1000 MiB, 81920 MiB\n"+
				"2024/05/01 12:00:01.000, 0, 1500 MiB, 81920 MiB\n"+
				"2024/05/01 12:00:02.000, 0, [GPU is lost], [GPU is lost]\n"))
		}, func(t *testing.T, r rendered) {
			// The note index.html shows beside the log, under Notes, so a
			// summary.md pasted alone says that the GPU was lost.
			want := "- GPU log `gpu.csv`:\n" +
				"  - gpu.csv: 1 line reports a GPU lost by the driver or a driver nvidia-smi could not reach, the first at line 4 " +
				"(\"2024/05/01 12:00:02.000, 0, \\[GPU is lost], \\[GPU is lost]\"): the GPU's readings end there; " +
				"a GPU that fell off the bus (Xid 79 in the kernel log) needs a reset or a reboot\n"
			i := strings.Index(r.md, "## Notes\n")
			if i < 0 || !strings.Contains(r.md[i:], want) {
				t.Errorf("summary.md's notes lack\n%s\n%s", want, r.md)
			}
			if at(t, r.summary, "inputs", "gpu_logs", 0, "samples") != 2.0 {
				t.Errorf("inputs.gpu_logs[0].samples %v, want the 2 readings", at(t, r.summary, "inputs", "gpu_logs", 0, "samples"))
			}
		}},
		{"real compute-apps log, read in place", nil, func(t *testing.T, r rendered) {
			o := at(t, r.summary, "other_processes", 0)
			if at(t, o, "pid") != 0.0 || at(t, o, "gpu") != nil || at(t, o, "samples") != 46.0 || at(t, o, "used_max_bytes") != float64(898*mib) ||
				at(t, o, "growing") != true || at(t, o, "trend", "slope_bytes_per_reading") == nil || at(t, o, "first_time") != nil {
				t.Errorf("process %v", o)
			}
			if !strings.Contains(r.md, "- `(no name or pid logged)` on unknown GPU: +") {
				t.Errorf("summary.md:\n%s", r.md)
			}
			if n := sheetRows(t, r.xlsx, "Process samples"); n != 46 {
				t.Errorf("Process samples: %d rows", n)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.write != nil {
				tc.write(t, dir)
			} else {
				dir = filepath.Dir(testutil.RealFiles(t, "nvidia-smi", "paddle_used_gpu_memory_l.csv")[0])
			}
			f, run := logsOnlyRun(t, dir, "logs-only")
			r := renderAll(t, f, run)
			tc.check(t, r)
			// Untrusted text is escaped everywhere.
			for _, bad := range []string{evilProcess, "<img src=x"} {
				if strings.Contains(r.html, bad) {
					t.Errorf("index.html holds %q unescaped", bad)
				}
				if strings.Contains(r.md, bad) {
					t.Errorf("summary.md holds %q unescaped", bad)
				}
			}
		})
	}
}

// TestLogsOnlyGolden pins the three text outputs of a logs-only run with
// processes and memory_stats readings (regenerate with -update).
func TestLogsOnlyGolden(t *testing.T) {
	dir := t.TempDir()
	writeSMILogs(t, dir, true)
	writeLeakingStats(t, dir)
	f, run := logsOnlyRun(t, dir, "logs-only")
	opt := fixedOptions
	sum, err := marshalSummary(BuildSummary(f, opt))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "logs-only/summary.json", sum)
	// The same run analysed again writes the same bytes (no map order leaks).
	again, err := marshalSummary(BuildSummary(analyze.Analyze(run, analyze.Options{}), opt))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.Replace(again, []byte(`"run": "`+run.Dir+`"`), []byte(`"run": "logs-only"`), 1), sum) {
		t.Error("a second analysis of the run gives another summary.json")
	}
	golden(t, "logs-only/summary.md", Markdown(f, opt))
	var text bytes.Buffer
	if err := Text(&text, f); err != nil {
		t.Fatal(err)
	}
	golden(t, "logs-only/stdout.txt", text.Bytes())
}

// TestLogsOnlyAgrees: a run with GPU logs only, where GPU 0's used memory
// grows, says the same of cuda:0 everywhere: the verdict's reason, the
// device's row of key figures (page, summary.md, stdout, workbook) and
// summary.json name its state ("growing") and its rate (+720 MiB/hour),
// the one decision the analysis made (its primary trend, nvidia-smi used
// memory); cuda:1's flat memory is flat everywhere.
func TestLogsOnlyAgrees(t *testing.T) {
	dir := t.TempDir()
	writeSMILogs(t, dir, false)
	f, run := logsOnlyRun(t, dir, "gpu-logs-only")
	r := renderAll(t, f, run)
	const rate = "+720 MiB/hour"
	for _, tc := range []struct {
		dev           int
		state, metric string
		rate          string
	}{{0, "growing", "nvidia-smi used", rate}, {1, "flat", "nvidia-smi used", "0 B/hour"}} {
		d := f.Devices[tc.dev]
		if d.PrimaryMetric != analyze.MetricGPUUsed || string(d.Status) != tc.state {
			t.Fatalf("cuda:%d: primary %q status %q, want %s %s", tc.dev, d.PrimaryMetric, d.Status, analyze.MetricGPUUsed, tc.state)
		}
		row := fmt.Sprintf("| cuda:%d | n/a | n/a |", tc.dev)
		line := ""
		for _, l := range strings.Split(r.md, "\n") {
			if strings.HasPrefix(l, row) {
				line = l
			}
		}
		if !strings.Contains(line, tc.metric+": "+tc.rate) || !strings.HasSuffix(line, "| "+tc.state+" |") {
			t.Errorf("summary.md row of cuda:%d %q, want %s %s and %s", tc.dev, line, tc.metric, tc.rate, tc.state)
		}
		// The device's trend in summary.json is its primary trend.
		if m, v := at(t, r.summary, "devices", tc.dev, "trend", "metric"), at(t, r.summary, "devices", tc.dev, "trend", "verdict"); m != analyze.MetricGPUUsed || v != tc.state {
			t.Errorf("summary.json cuda:%d trend %v %v, want %s %s", tc.dev, m, v, analyze.MetricGPUUsed, tc.state)
		}
		if v := at(t, r.summary, "devices", tc.dev, "verdict"); v != tc.state {
			t.Errorf("summary.json cuda:%d verdict %v, want %s", tc.dev, v, tc.state)
		}
		fields := map[string]string{}
		rows, err := r.xlsx.GetRows("Summary")
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			if len(row) > 1 {
				fields[row[0]] = row[1]
			}
		}
		if v := fields[fmt.Sprintf("cuda:%d: verdict", tc.dev)]; v != tc.state {
			t.Errorf("workbook cuda:%d verdict %q, want %s", tc.dev, v, tc.state)
		}
		if v := fields[fmt.Sprintf("cuda:%d: trend (95%% CI)", tc.dev)]; !strings.HasPrefix(v, tc.metric+": "+tc.rate) {
			t.Errorf("workbook cuda:%d trend %q, want %s %s", tc.dev, v, tc.metric, tc.rate)
		}
		if !strings.Contains(r.text, tc.metric+" trend: "+tc.rate) {
			t.Errorf("stdout lacks cuda:%d's %s trend %s:\n%s", tc.dev, tc.metric, tc.rate, r.text)
		}
		if !strings.Contains(r.html, tc.metric+": "+strings.ReplaceAll(tc.rate, "+", "&#43;")) {
			t.Errorf("page lacks cuda:%d's %s trend %s", tc.dev, tc.metric, tc.rate)
		}
	}
	// The verdict says the same of cuda:0.
	reasons := at(t, r.summary, "verdict", "reasons").([]any)
	if len(reasons) != 1 || !strings.Contains(reasons[0].(string), "memory grows on cuda:0") || !strings.Contains(reasons[0].(string), "grows "+rate) {
		t.Errorf("verdict reasons %v, want that cuda:0's memory grows %s", reasons, rate)
	}
	if s := at(t, r.summary, "verdict", "severity"); s != "warning" {
		t.Errorf("severity %v, want warning", s)
	}
}

// writeTitanLog writes a torchtitan training log whose "memory:" figures
// (peak reserved memory) rise 0.5 GiB every 10 steps, 31.02 to 35.52 GiB.
func writeTitanLog(t testing.TB, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("[rank0]:[titan] 2024-05-01 12:00:00,000 - root - INFO - CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory\n")
	for i := range 10 {
		fmt.Fprintf(&b, "[rank0]:[titan] 2024-05-01 12:%02d:00,000 - root - INFO - step: %d  loss:  7.9000  memory: %.2fGiB(%.2f%%)  tps: 5,123  mfu: 25.29%%\n",
			i, 10*(i+1), 31.02+0.5*float64(i), (31.02+0.5*float64(i))/79.11*100)
	}
	testutil.WriteFile(t, filepath.Join(dir, "train.log"), []byte(b.String()))
}

// TestOOMsBeforeFirstReading: torch.cuda.memory_summary()'s "CUDA OOMs"
// counts the OOMs the same log printed before it; only those it does not
// show happened before the log starts, and only they get the note.
func TestOOMsBeforeFirstReading(t *testing.T) {
	const oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
		"Including non-PyTorch memory, this process has 77.91 GiB memory in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.\n"
	summary := func(ooms int) string {
		return "|===========================================================================|\n" +
			"|                  PyTorch CUDA memory summary, device ID 0                 |\n" +
			"|---------------------------------------------------------------------------|\n" +
			fmt.Sprintf("|            CUDA OOMs: %d            |        cudaMalloc retries: 0         |\n", ooms) +
			"|===========================================================================|\n" +
			"|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n" +
			"|---------------------------------------------------------------------------|\n" +
			"| Allocated memory      |   1024 MiB |   2048 MiB |  10240 MiB |   9216 MiB |\n" +
			"| GPU reserved memory   |   3072 MiB |   3072 MiB |   3072 MiB |      0 B   |\n" +
			"|===========================================================================|\n"
	}
	const note = "cuda:0: torch.cuda.memory_stats num_ooms is already "
	for _, tt := range []struct {
		name, log, want string
	}{
		{"the log's own OOM, then the summary", oom + summary(1), ""},
		{"the summary, then the OOM", summary(1) + oom, note + "1 at the first reading: out-of-memory errors happened before the log starts"},
		{"one OOM printed of three counted", oom + summary(3),
			note + "3 at the first reading, but the log prints only 1 out-of-memory error before it: the other 2 happened before the log starts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testutil.WriteFile(t, filepath.Join(dir, "train.log"), []byte(tt.log))
			f, run := logsOnlyRun(t, dir, "logs-only")
			r := renderAll(t, f, run)
			got := ""
			for _, line := range strings.Split(r.md, "\n") {
				if strings.Contains(line, "num_ooms is already") {
					got = line
				}
			}
			if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, "- "+tt.want) {
				t.Errorf("note %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRanOutEverywhere: the memory_stats device of the logs-only run hit
// an OOM (num_ooms rose at its last reading, step 990) while its memory grows: every output
// states that OOM where the time to capacity stood, none forecasts one
// (issue: "would run out in 10.6 hours" beside the OOM).
func TestRanOutEverywhere(t *testing.T) {
	dir := t.TempDir()
	writeSMILogs(t, dir, true)
	// num_ooms rises at the last reading: the process died of it (a
	// rise the readings go on from is a caught OOM, no ran-out mark).
	writeLeakingStatsRise(t, dir, 990)
	f, run := logsOnlyRun(t, dir, "logs-only")
	r := renderAll(t, f, run)
	const said = "already ran out of memory: an OOM by step 990"
	trend := at(t, r.summary, "devices", 0, "trend")
	if ro, ok := trend.(map[string]any)["ran_out"].(map[string]any); !ok || ro["step"] != 990.0 || ro["from"] != "memory_stats" {
		t.Errorf("summary.json devices[0].trend %v: want ran_out at step 990 from memory_stats", trend)
	}
	for _, k := range []string{"capacity_at", "remaining_to_capacity", "hours_to_capacity"} {
		if v, ok := trend.(map[string]any)[k]; ok {
			t.Errorf("summary.json devices[0].trend.%s = %v beside the OOM", k, v)
		}
	}
	var sheets strings.Builder
	for _, sh := range r.xlsx.GetSheetList() {
		rows, err := r.xlsx.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			sheets.WriteString(strings.Join(row, " | ") + "\n")
		}
	}
	for name, out := range map[string]string{"summary.md": r.md, "stdout": r.text, "index.html": r.html, "report.xlsx": sheets.String()} {
		if !strings.Contains(out, said) {
			t.Errorf("%s does not say %q", name, said)
		}
		if strings.Contains(out, "reaches 79.6 GiB") {
			t.Errorf("%s forecasts the capacity the run already ran out of", name)
		}
	}
}
