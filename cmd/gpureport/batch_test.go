package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"gpureport/internal/batch"
	"gpureport/internal/testutil"
	"gpureport/report"
)

// tinySnapshot returns the bytes of a small real snapshot pickle (read in
// place from the shared real test data).
func tinySnapshot(t testing.TB) []byte {
	t.Helper()
	files := testutil.RealFiles(t, "snapshots", "tiny_2dev_expandable_maxsplit128.pickle")
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBatchEmptyRoot checks that a root without runs creates nothing: no
// overview folder, no report folder.
func TestBatchEmptyRoot(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string][]byte{"notes/readme.txt": []byte("hi")})
	code, _, errs := runTB(t, "--batch", "-q", root)
	if code != exitNothingUsable || !strings.Contains(errs, "no run directories") {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
	var made []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if p != root && p != filepath.Join(root, "notes") && p != filepath.Join(root, "notes", "readme.txt") {
			made = append(made, p)
		}
		return nil
	})
	if len(made) > 0 {
		t.Errorf("an empty batch root got %q", made)
	}
}

// TestBatchNestedRuns reports 3 run folders with snapshots/ and logs/
// subfolders and checks that they are 3 rows, each reading both.
func TestBatchNestedRuns(t *testing.T) {
	snap := tinySnapshot(t)
	root := t.TempDir()
	files := map[string][]byte{}
	for _, r := range []string{"run1", "run2", "run3"} {
		files[r+"/snapshots/snapshot_step_100.pickle"] = snap
		files[r+"/snapshots/snapshot_step_200.pickle"] = snap
		files[r+"/logs/nvidia-smi.csv"] = []byte("timestamp, index, memory.used [MiB], memory.total [MiB]\n2024/01/01 00:00:00.000, 0, 100 MiB, 24576 MiB\n2024/01/01 00:00:01.000, 0, 110 MiB, 24576 MiB\n")
	}
	testutil.WriteFiles(t, root, files)
	overview := filepath.Join(t.TempDir(), "overview")
	code, out, errs := runTB(t, "--batch", "-q", "-o", overview, root)
	if code != exitOK || !strings.Contains(out, "3 runs (3 reported") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, r := range []string{"run1", "run2", "run3"} {
		s, err := report.ReadSummary(filepath.Join(root, r, "gpureport", report.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(s)
		if !strings.Contains(string(b), "nvidia-smi.csv") || !strings.Contains(string(b), "snapshot_step_200.pickle") {
			t.Errorf("%s: summary does not read both subfolders: %s", r, b)
		}
	}
}

// batchRoot makes a root with n runs of two snapshots each.
func batchRoot(t testing.TB, n int) string {
	t.Helper()
	snap := tinySnapshot(t)
	root := t.TempDir()
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("exp%d/run%02d/snapshot_step_100.pickle", i%3, i)] = snap
		files[fmt.Sprintf("exp%d/run%02d/snapshot_step_200.pickle", i%3, i)] = snap
		// Runs two levels down are marked (internal/batch/rundirs.go).
		files[fmt.Sprintf("exp%d/run%02d/%s", i%3, i, batch.RunMarker)] = nil
	}
	testutil.WriteFiles(t, root, files)
	return root
}

func runTB(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestBatch(t *testing.T) {
	root := batchRoot(t, 4)
	overview := filepath.Join(t.TempDir(), "overview")
	code, out, errs := runTB(t, "--batch", "-q", "-o", overview, root)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "4 runs (4 reported, 0 unchanged") {
		t.Errorf("first pass: %s", out)
	}
	page, err := os.ReadFile(filepath.Join(overview, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), `/gpureport/index.html">`); n != 4 {
		t.Errorf("overview links %d reports, want 4", n)
	}
	report0 := filepath.Join(root, "exp0", "run00", "gpureport")
	st0, err := os.Stat(filepath.Join(report0, "index.html"))
	if err != nil {
		t.Fatal(err)
	}

	// Second pass: nothing changed, nothing is rewritten.
	code, out, _ = runTB(t, "--batch", "-q", "-o", overview, root)
	if code != exitOK || !strings.Contains(out, "4 runs (0 reported, 4 unchanged") {
		t.Errorf("second pass: exit %d, %s", code, out)
	}
	if st, _ := os.Stat(filepath.Join(report0, "index.html")); !st.ModTime().Equal(st0.ModTime()) {
		t.Error("an unchanged run's report was rewritten")
	}

	// A new snapshot in one run: only that run is reported again.
	testutil.WriteFiles(t, root, map[string][]byte{"exp1/run01/snapshot_step_300.pickle": tinySnapshot(t)})
	code, out, _ = runTB(t, "--batch", "-q", "-o", overview, root)
	if code != exitOK || !strings.Contains(out, "4 runs (1 reported, 3 unchanged") {
		t.Errorf("third pass: exit %d, %s", code, out)
	}

	// --fail-on reads unchanged runs' verdicts from their summary.json;
	// a fingerprint seen for the first time is marked new, then not.
	plantLeak(t, filepath.Join(report0, report.SummaryFile), "f00dfeed12345678")
	code, _, errs = runTB(t, "--batch", "-q", "--fail-on", "leak", "-o", overview, root)
	if code != exitFailOn || !strings.Contains(errs, "run00 (leak)") {
		t.Errorf("fail-on: exit %d, stderr %s", code, errs)
	}
	page, _ = os.ReadFile(filepath.Join(overview, "index.html"))
	if !strings.Contains(string(page), `<span class="tag new">new</span>`) {
		t.Error("a first-seen fingerprint is not marked new")
	}
	if i, j := strings.Index(string(page), "run00"), strings.Index(string(page), "run01"); i < 0 || j < 0 || i > j {
		t.Error("the leaking run is not ranked first")
	}
	runTB(t, "--batch", "-q", "-o", overview, root)
	page, _ = os.ReadFile(filepath.Join(overview, "index.html"))
	if strings.Contains(string(page), `<span class="tag new">new</span>`) {
		t.Error("a fingerprint from the previous batch is still marked new")
	}
}

// plantLeak rewrites a summary.json as if the analysis had found a leak.
func plantLeak(t *testing.T, path, fp string) {
	t.Helper()
	s, err := report.ReadSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	g := 1e6
	s.Verdict.Leak, s.Verdict.Severity, s.Verdict.Headline = true, "critical", "Memory leak"
	s.Verdict.LeakSuspects = []report.SummarySuspect{{Site: "train.py:57", Function: "train_step", Fingerprint: fp, GrowthBytesPerStep: &g}}
	b, _ := json.Marshal(s)
	// Keep the size and time the manifest does not look at: only inputs
	// count, and this is an output.
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBatchShards(t *testing.T) {
	root := batchRoot(t, 6)
	overview := filepath.Join(t.TempDir(), "overview")
	total := 0
	for i := 0; i < 3; i++ {
		code, out, errs := runTB(t, "--batch", "-q", "--shard", fmt.Sprintf("%d/3", i), "-o", overview, root)
		if code != exitOK && code != exitNothingUsable {
			t.Fatalf("shard %d: exit %d\n%s\n%s", i, code, out, errs)
		}
		var n int
		fmt.Sscanf(out[strings.Index(out, ": ")+2:], "%d runs", &n)
		total += n
	}
	if total != 6 {
		t.Errorf("shards reported %d runs in all, want 6", total)
	}
	page, _ := os.ReadFile(filepath.Join(overview, "index.html"))
	if n := strings.Count(string(page), `/gpureport/index.html">`); n != 6 {
		t.Errorf("merged overview links %d reports, want 6", n)
	}
	if !strings.Contains(string(page), "2/3") {
		t.Error("overview does not list the shards")
	}
}

func TestBatchLockedRun(t *testing.T) {
	root := batchRoot(t, 2)
	out := filepath.Join(root, "exp0", "run00", "gpureport")
	release, err := batch.Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	code, stdout, _ := runTB(t, "--batch", "-q", "-o", filepath.Join(t.TempDir(), "ov"), root)
	if code != exitOK || !strings.Contains(stdout, "1 reported") || !strings.Contains(stdout, "1 locked") {
		t.Errorf("exit %d, %s", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
		t.Error("a locked run's report was written")
	}
}

func TestSingleRunLocked(t *testing.T) {
	root := batchRoot(t, 1)
	runDir := filepath.Join(root, "exp0", "run00")
	release, err := batch.Lock(filepath.Join(runDir, "gpureport"))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if code, _, errs := runTB(t, "-q", runDir); code != exitLocked || !strings.Contains(errs, "locked") {
		t.Errorf("exit %d, %s; want %d", code, errs, exitLocked)
	}
}

// BenchmarkBatchUnchanged re-checks 100 unchanged runs of 20 files each:
// the nightly cron's cost when nothing happened.
func BenchmarkBatchUnchanged(b *testing.B) {
	snap := tinySnapshot(b)
	root := b.TempDir()
	files := map[string][]byte{}
	for i := 0; i < 100; i++ {
		for k := 0; k < 20; k++ {
			files[fmt.Sprintf("exp%d/run%03d/rank%d/snapshot_step_%d.pickle", i%10, i, k%2, k)] = snap
		}
	}
	testutil.WriteFiles(b, root, files)
	overview := filepath.Join(b.TempDir(), "ov")
	if code, out, errs := runTB(b, "--batch", "-q", "-o", overview, root); code != exitOK {
		b.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b.ResetTimer()
	for b.Loop() {
		code, out, _ := runTB(b, "--batch", "-q", "-o", overview, root)
		if code != exitOK || !strings.Contains(out, "100 unchanged") {
			b.Fatalf("exit %d: %s", code, out)
		}
	}
}

func TestSingleRunPprof(t *testing.T) {
	root := batchRoot(t, 1)
	prof := filepath.Join(t.TempDir(), "leaks.pb.gz")
	code, out, errs := runTB(t, "-q", "--pprof", prof, filepath.Join(root, "exp0", "run00"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	f, err := os.Open(prof)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if p.DefaultSampleType != "growth_bytes" || len(p.SampleType) != 1+2 {
		t.Errorf("sample types %d, default %q; want growth and one per snapshot", len(p.SampleType), p.DefaultSampleType)
	}
}

func TestDiffCommand(t *testing.T) {
	files := testutil.RealFiles(t, "snapshots", "cs336_ctx128_forward.pickle", "cs336_ctx512_forward.pickle")
	if len(files) != 2 {
		t.Skipf("want the two cs336 forward snapshots, found %d", len(files))
	}
	out := filepath.Join(t.TempDir(), "diff")
	code, stdout, errs := runTB(t, "diff", "-q", "-o", out, files[0], files[1])
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	// ctx 128 -> 512: attention memory grows, nothing appears or vanishes.
	if !strings.Contains(stdout, "0 new, 0 gone") || !strings.Contains(stdout, "grown ") {
		t.Errorf("stdout:\n%s", stdout)
	}
	for _, n := range []string{"index.html", "report.xlsx", "summary.json", "summary.md"} {
		if _, err := os.Stat(filepath.Join(out, n)); err != nil {
			t.Error(err)
		}
	}
	// The same file on both sides: nothing changed.
	code, stdout, _ = runTB(t, "diff", "-q", "--no-report", files[0], files[0])
	if code != exitOK || !strings.Contains(stdout, "no signature changed") {
		t.Errorf("self-diff: exit %d\n%s", code, stdout)
	}
	if code, _, _ := runTB(t, "diff", files[0]); code != exitUsage {
		t.Errorf("one argument: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runTB(t, "diff", files[0], filepath.Join(t.TempDir(), "missing")); code != exitNothingUsable {
		t.Errorf("missing B: exit %d, want %d", code, exitNothingUsable)
	}
}

// TestSampleRunReport reports the generated sample run end to end and
// reads the outputs back.
func TestSampleRunReport(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no testdata/sample-run")
	}
	out := filepath.Join(t.TempDir(), "report")
	code, stdout, errs := runTB(t, "-q", "-o", out, dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	s, err := report.ReadSummary(filepath.Join(out, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if s.Inputs.Snapshots != 14 || len(s.Inputs.GPULogs) != 1 || len(s.Devices) == 0 || len(s.Devices[0].Snapshots) != 14 {
		t.Errorf("summary: %d snapshots, %d logs, %d devices", s.Inputs.Snapshots, len(s.Inputs.GPULogs), len(s.Devices))
	}
	if !strings.Contains(stdout, "14 snapshots, 1 GPU log (query-csv)") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestBatchVerbose: -v reaches the batch's diagnostics (it used to be
// dropped in --batch mode), and without it none are printed.
func TestBatchVerbose(t *testing.T) {
	root := batchRoot(t, 2)
	for _, c := range []struct {
		flag string
		want int
	}{{"-q", 0}, {"-v", 2}} {
		code, out, errs := runTB(t, "--batch", "-q", c.flag, "-o", filepath.Join(t.TempDir(), "ov"), root)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", c.flag, code, out, errs)
		}
		if got := strings.Count(errs, "level=DEBUG msg=\"run done\""); got != c.want {
			t.Errorf("%s: %d debug lines per run, want %d:\n%s", c.flag, got, c.want, errs)
		}
	}
}
