package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestCaptureInEveryWriter: a run captured with the kit says so, with the
// kit's files it used, on stdout, in summary.md, in index.html and in
// summary.json.
func TestCaptureInEveryWriter(t *testing.T) {
	run, err := ingest.Load(context.Background(), testutil.CaptureKitRun(t), ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := analyze.Analyze(run, analyze.Options{})
	const line = "Captured with gpureport's capture kit 0.1.0 (torch 2.4.0, CUDA 12.1) on ranks 0, 1 of 2"
	const used = "used 7 snapshots, 1 OOM snapshot, 2 memory_stats logs and 0 GPU logs of its files"
	var text bytes.Buffer
	if err := Text(&text, f); err != nil {
		t.Fatal(err)
	}
	page, err := HTML(f, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{
		"stdout":     text.String(),
		"summary.md": string(Markdown(f, fixedOptions)),
		"index.html": string(page),
	} {
		plain := strings.NewReplacer(`\_`, "_", "&#39;", "'", "&#34;", `"`).Replace(out)
		if !strings.Contains(plain, line) || !strings.Contains(plain, used) {
			t.Errorf("%s does not say the run was captured with the kit and what it used", name)
		}
		if strings.Contains(plain, "no snapshot taken at it") {
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
