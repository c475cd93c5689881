package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestCaptureInEveryWriter: a run captured with the kit fills
// summary.json's capture object, and no output says an OOM was missed
// when its rank has its snapshot (TestKitLinesInEveryOutput checks the
// capture line in every output).
func TestCaptureInEveryWriter(t *testing.T) {
	run, err := ingest.Load(context.Background(), testutil.CaptureKitRun(t), ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := analyze.Analyze(run, analyze.Options{})
	r := renderAll(t, f, run)
	for name, out := range map[string]string{"stdout": r.text, "summary.md": r.md, "index.html": r.html} {
		if strings.Contains(out, "no snapshot taken at it") {
			t.Errorf("%s says an OOM was missed, but rank 1's has its snapshot", name)
		}
	}
	b, err := marshalSummary(BuildSummary(f, fixedOptions))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Capture *SummaryCapture `json:"capture"`
		Missed  json.RawMessage `json:"oom_without_snapshot"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Capture == nil || sum.Capture.Used != (SummaryCaptureUsed{Snapshots: 7, OOMSnapshots: 1, MemoryStatsLogs: 2}) ||
		!cmp.Equal(sum.Capture.Ranks, []int{0, 1}) || sum.Capture.OOMs != 1 || sum.Missed != nil {
		t.Errorf("summary.json capture %+v, oom_without_snapshot %s", sum.Capture, sum.Missed)
	}
}

// TestCaptureTextIsEscaped: what a manifest says reaches every writer
// escaped, as any text from a file does; a path named as code is a safe
// code span.
func TestCaptureTextIsEscaped(t *testing.T) {
	f, _ := fixtureFindings()
	g := *f
	g.Capture = &analyze.Capture{Ranks: []int{0}, KitVersions: []string{"<script>alert(1)</script>"}, TraceEntries: -1,
		Errors: []analyze.CaptureError{{Rank: 0, Message: "*boom* \x1b[31m"}}, ErrorCount: 1}
	g.MissedOOM = &analyze.MissedOOM{Sources: []string{"a`b|c.log"}, Ranks: []int{0}}
	g.NextSteps = append(g.NextSteps, analyze.NextStep{Kind: analyze.StepSnapshotAtOOM, OOM: -1})
	page, err := HTML(&g, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page, []byte("<script>alert(1)")) || !bytes.Contains(page, []byte("&lt;script&gt;alert(1)")) {
		t.Errorf("index.html does not escape the manifest's text")
	}
	md := string(Markdown(&g, fixedOptions))
	if !strings.Contains(md, `\*boom\*`) || strings.Contains(md, "\x1b") {
		t.Errorf("summary.md does not escape the manifest's text")
	}
	if !strings.Contains(md, "`a'b¦c.log`") {
		t.Errorf("summary.md does not make a path from the run a safe code span")
	}
	var text bytes.Buffer
	if err := Text(&text, &g); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "\x1b") {
		t.Errorf("stdout passes an escape sequence through")
	}
	if want := "no OOM snapshot: The out-of-memory error in a`b|c.log has no snapshot taken at it (rank 0): gpureport's capture kit would have caught it.\n"; !strings.Contains(text.String(), want) {
		t.Errorf("stdout lacks %q", want)
	}
}

// TestKitLinesInEveryOutput: the line that says a run was captured with
// the kit, and the next step that says the kit would have caught an OOM
// a training log shows with no snapshot taken at it, are in every
// output: the terminal, index.html, report.xlsx and summary.md say them,
// summary.json holds them as data (its capture object; the missed OOM
// and its next step).
func TestKitLinesInEveryOutput(t *testing.T) {
	const oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.20 GiB is free. " +
		"Including non-PyTorch memory, this process has 77.94 GiB memory in use. Of the allocated memory 75.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n"
	trainLogRun := func(tb testing.TB) string {
		dir := tb.TempDir()
		var csv strings.Builder
		csv.WriteString("timestamp, index, memory.used [MiB], memory.total [MiB]\n")
		for i := range 30 {
			fmt.Fprintf(&csv, "2025/01/02 03:%02d:00.000, 0, %d MiB, 81559 MiB\n", i, 60000+500*i)
		}
		testutil.WriteFiles(tb, dir, map[string][]byte{
			"train.log":      []byte("step 1 loss 2.3\nstep 2 loss 2.2\n" + oom),
			"nvidia-smi.csv": []byte(csv.String()),
		})
		return dir
	}
	const missed = "The out-of-memory error in train.log has no snapshot taken at it: gpureport's capture kit would have caught it."
	for _, tt := range []struct {
		name string
		dir  func(tb testing.TB) string
		want []string
		// json checks summary.json.
		json func(t *testing.T, sum map[string]any, raw string)
	}{
		{"captured with the kit", testutil.CaptureKitRun, []string{
			"Captured with gpureport's capture kit 0.1.0 (torch 2.4.0, CUDA 12.1) on ranks 0, 1 of 2",
			"used 7 snapshots, 1 OOM snapshot, 2 memory_stats logs and 0 GPU logs of its files"},
			func(t *testing.T, sum map[string]any, _ string) {
				if at(t, sum, "capture", "kit_versions", 0) != "0.1.0" || at(t, sum, "capture", "used", "snapshots") != 7.0 ||
					at(t, sum, "capture", "used", "oom_snapshots") != 1.0 || at(t, sum, "capture", "used", "memory_stats_logs") != 2.0 {
					t.Errorf("summary.json capture %v", sum["capture"])
				}
			}},
		{"a training log's OOM without a snapshot", trainLogRun, []string{missed},
			func(t *testing.T, sum map[string]any, raw string) {
				if at(t, sum, "oom_without_snapshot", "sources", 0) != "train.log" || at(t, sum, "oom_without_snapshot", "kit") != false ||
					!strings.Contains(strings.ReplaceAll(raw, "`", ""), missed) {
					t.Errorf("summary.json oom_without_snapshot %v, or no next step that says %q", sum["oom_without_snapshot"], missed)
				}
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, err := ingest.Load(context.Background(), tt.dir(t), ingest.LoadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			f := analyze.Analyze(run, analyze.Options{})
			r := renderAll(t, f, run)
			raw, err := json.Marshal(r.summary)
			if err != nil {
				t.Fatal(err)
			}
			tt.json(t, r.summary, string(raw))
			rows, err := r.xlsx.GetRows("Summary")
			if err != nil {
				t.Fatal(err)
			}
			var cells []string
			for _, row := range rows {
				cells = append(cells, row...)
			}
			tags := regexp.MustCompile(`<[^>]*>`)
			plain := strings.NewReplacer(`\_`, "_", "&#39;", "'", "&#34;", `"`, "`", "")
			for name, out := range map[string]string{
				"stdout": r.text, "index.html": tags.ReplaceAllString(r.html, ""), "report.xlsx": strings.Join(cells, "\n"), "summary.md": r.md,
			} {
				for _, w := range tt.want {
					if !strings.Contains(plain.Replace(out), w) {
						t.Errorf("%s lacks %q", name, w)
					}
				}
			}
		})
	}
}
