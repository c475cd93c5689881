package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/gpulog"
	"gpureport/internal/testutil"
)

// TestDiscoverKeepsWalkOrder classifies a folder of many files of every
// kind (snapshots in nested folders, GPU logs, files whose extension
// promises a snapshot they do not hold, files of no interest, a link to a
// snapshot, a previous report) and compares what discover finds, sniffing
// several files at once, with the walk classified one file at a time:
// the candidates and the skipped files must be the same, in the same
// order.
func TestDiscoverKeepsWalkOrder(t *testing.T) {
	root := testutil.RepoRoot(t)
	snap := testutil.SampleSnapshots(t, 1)[0]
	log := filepath.Join(root, "testdata", "sample-run", "nvidia-smi.csv")
	dir := t.TempDir()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 24 {
		sub := filepath.Join(dir, fmt.Sprintf("rank_%d", i%3))
		switch i % 4 {
		case 0:
			testutil.CopyFile(t, snap, filepath.Join(sub, fmt.Sprintf("snapshot_step_%d.pickle", i)), at)
		case 1:
			// Each log its own readings: the same timed readings in two
			// files are one log saved twice (copies.go).
			b, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(sub, fmt.Sprintf("gpu_%d.csv", i))
			testutil.WriteFile(t, p, bytes.Replace(b, []byte("08:59:41.230"), fmt.Appendf(nil, "08:59:41.%03d", i), 1))
			if err := os.Chtimes(p, at, at); err != nil {
				t.Fatal(err)
			}
		case 2:
			testutil.WriteFile(t, filepath.Join(sub, fmt.Sprintf("broken_%d.pkl", i)), []byte(fmt.Sprintf("not a pickle %d", i)))
		default:
			testutil.WriteFile(t, filepath.Join(sub, fmt.Sprintf("params_%d.txt", i)), []byte("lr 3e-4\n"))
		}
	}
	testutil.WriteFile(t, filepath.Join(dir, "empty.pkl"), nil)
	testutil.CopyFile(t, snap, filepath.Join(dir, OutputDirName, "old.pickle"), at)
	if err := os.Symlink(filepath.Join(dir, "rank_0", "snapshot_step_0.pickle"), filepath.Join(dir, "linked.pickle")); err != nil {
		t.Fatal(err)
	}

	cands, skipped, err := discover(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same walk, one file at a time.
	var wantCands []Candidate
	var wantSkipped []Skipped
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && isReportDir(p, d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		rel := relPath(dir, p)
		c, reason, ok := classify(p, rel, nil)
		switch {
		case rel == "linked.pickle":
			// A link to a snapshot of the run is read once, as its
			// target.
			wantSkipped = append(wantSkipped, Skipped{Path: rel, Reason: "the same file as rank_0/snapshot_step_0.pickle (a symbolic or hard link to it): read once"})
		case ok:
			wantCands = append(wantCands, c)
		case reason != "":
			wantSkipped = append(wantSkipped, skippedFile(rel, reason))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(wantCands) != 12 || len(wantSkipped) != 14 {
		t.Fatalf("the one-at-a-time walk found %d candidates and %d skipped files, want 12 and 14", len(wantCands), len(wantSkipped))
	}
	if diff := cmp.Diff(wantCands, cands, cmp.AllowUnexported(Candidate{})); diff != "" {
		t.Errorf("candidates differ from the walk's, one file at a time (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
		t.Errorf("skipped files differ from the walk's, one file at a time (-want +got):\n%s", diff)
	}
}

// TestDiscoverReadsLinksOnce lays out paths that name one file (symbolic
// links such as latest.pickle, hard links) and checks which path of each
// file is read: a path that is no symbolic link, then one with a step,
// then the first in walk order; the others are skipped with the path read.
func TestDiscoverReadsLinksOnce(t *testing.T) {
	snap := testutil.SampleSnapshots(t, 1)[0]
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		// files are copies of a snapshot; links map a new path to the
		// file it links (hard: a hard link).
		files []string
		links [][2]string
		hard  bool
		read  []string
	}{
		{"latest.pickle to the last step", []string{"snapshot_step_1.pickle", "snapshot_step_2.pickle"},
			[][2]string{{"latest.pickle", "snapshot_step_2.pickle"}}, false, []string{"snapshot_step_1.pickle", "snapshot_step_2.pickle"}},
		{"a link that sorts first in a folder of its own", []string{"z/snapshot_step_1.pickle"},
			[][2]string{{"a/snapshot_step_9.pickle", "z/snapshot_step_1.pickle"}}, false, []string{"z/snapshot_step_1.pickle"}},
		{"a hard link without a step", []string{"snapshot_step_3.pickle"},
			[][2]string{{"a_final.pickle", "snapshot_step_3.pickle"}}, true, []string{"snapshot_step_3.pickle"}},
		{"hard links both with steps: the first", []string{"b/snapshot_step_4.pickle"},
			[][2]string{{"a/snapshot_step_4.pickle", "b/snapshot_step_4.pickle"}}, true, []string{"a/snapshot_step_4.pickle"}},
		{"copies are not links", []string{"snapshot_step_5.pickle", "backup/snapshot_step_5.pickle"}, nil, false,
			[]string{"backup/snapshot_step_5.pickle", "snapshot_step_5.pickle"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				testutil.CopyFile(t, snap, filepath.Join(dir, f), at)
			}
			for _, l := range tt.links {
				link, target := filepath.Join(dir, l[0]), filepath.Join(dir, l[1])
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
					t.Fatal(err)
				}
				mk := os.Symlink
				if tt.hard {
					mk = os.Link
				}
				if err := mk(target, link); err != nil {
					t.Skipf("cannot link here: %v", err)
				}
			}
			cands, skipped, err := discover(dir, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var read []string
			for _, c := range cands {
				read = append(read, c.Rel)
			}
			if diff := cmp.Diff(tt.read, read); diff != "" {
				t.Errorf("files read (-want +got):\n%s", diff)
			}
			if len(skipped) != len(tt.links) {
				t.Fatalf("skipped %+v, want %d", skipped, len(tt.links))
			}
			for _, s := range skipped {
				if !strings.HasPrefix(s.Reason, "the same file as ") || !strings.Contains(s.Reason, "read once") {
					t.Errorf("%s: reason %q", s.Path, s.Reason)
				}
			}
		})
	}
}

// TestDiscoverTrainingLogEncodings: a job's log holding an OOM message is
// a training log when written as UTF-16 with a byte order mark (Windows
// PowerShell's redirection), as JSON-lines logger records (train.jsonl),
// or as torchelastic's error.json; a JSON-lines data set or a JSON
// configuration quoting the message is not.
func TestDiscoverTrainingLogEncodings(t *testing.T) {
	const msg = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
		"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated."
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "step 1 loss 2.3\r\n" + msg + "\r\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	escaped := strings.ReplaceAll(msg, `"`, `\"`)
	files := map[string]string{
		"win/train.log":                  string(utf16),
		"json/train.jsonl":               `{"ts": "2024-05-01T12:00:00Z", "level": "INFO", "msg": "step 0"}` + "\n" + `{"level": "ERROR", "msg": "failed", "exc_info": "Traceback (most recent call last):\n` + escaped + `"}` + "\n",
		"elastic/attempt_0/3/error.json": `{"message": {"message": "` + escaped + `", "extraInfo": {"py_callstack": "Traceback", "timestamp": "1714564806"}}}`,
		"data/corpus.jsonl":              `{"text": "` + escaped + `"}` + "\n",
		"conf/config.json":               `{"level": "debug", "message": "` + escaped + `"}`,
	}
	want := map[string]bool{"win/train.log": true, "json/train.jsonl": true, "elastic/attempt_0/3/error.json": true}
	dir := t.TempDir()
	for rel, content := range files {
		testutil.WriteFile(t, filepath.Join(dir, rel), []byte(content))
	}
	cands, _, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range cands {
		if c.Kind == KindLog && c.Log == gpulog.FormatTrainingLog {
			got[c.Rel] = true
		}
	}
	for rel := range files {
		if got[rel] != want[rel] {
			t.Errorf("%s: training log %v, want %v", rel, got[rel], want[rel])
		}
	}
	run, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range run.Logs {
		if len(l.OOMs) != 1 || l.OOMs[0].Requested != 2<<30 || l.OOMs[0].Free != 1320702443 {
			t.Errorf("%s: OOMs %+v, want the one message", l.Path, l.OOMs)
		}
	}
}

// TestDiscoverMLflowGPUMetric: an MLflow GPU memory metric file (in
// megabytes or percent), which has no extension and whose lines are
// numbers alone, is claimed by its name in a metrics/system folder; the
// same lines under another name are not.
func TestDiscoverMLflowGPUMetric(t *testing.T) {
	dir := t.TempDir()
	lines := []byte("1709892000000 40000.0 0\n1709892010000 42048.0 1\n")
	testutil.WriteFile(t, filepath.Join(dir, "mlruns", "0", "r1", "metrics", "system", "gpu_0_memory_usage_megabytes"), lines)
	testutil.WriteFile(t, filepath.Join(dir, "mlruns", "0", "r1", "metrics", "loss"), lines)
	pct := []byte("1709892000000 49.0 0\n1709892010000 51.5 1\n")
	testutil.WriteFile(t, filepath.Join(dir, "mlruns", "0", "r1", "metrics", "system", "gpu_0_memory_usage_percentage"), pct)
	testutil.WriteFile(t, filepath.Join(dir, "mlruns", "0", "r1", "metrics", "system", "gpu_0_utilization_percentage"), pct)
	cands, _, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 2 || cands[0].Log != gpulog.FormatMLflowGPU || !strings.HasSuffix(cands[0].Rel, "gpu_0_memory_usage_megabytes") ||
		cands[1].Log != gpulog.FormatMLflowGPU || !strings.HasSuffix(cands[1].Rel, "gpu_0_memory_usage_percentage") {
		t.Fatalf("candidates %+v", cands)
	}
}

// TestDiscoverUnreadJSON: a profiler's memory timeline export, JSON or
// HTML, is listed as skipped with what it is and why it is not read; a
// configuration JSON and another HTML page are not listed.
func TestDiscoverUnreadJSON(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, "memory_timeline.json"), []byte("[[1709892001000000, 1709892001020000], [[0, 1, 2], [0, 3, 4]]]"))
	testutil.WriteFile(t, filepath.Join(dir, "config.json"), []byte(`{"lr": 0.1, "batch_size": 32}`))
	testutil.WriteFile(t, filepath.Join(dir, "mt.html"), []byte("<html>\n<head><meta charset=\"utf-8\" /><title>GPU Memory Timeline HTML</title></head>\n<body>\n  <img src='data:image/png;base64,iVBO'>\n</body>\n</html>"))
	testutil.WriteFile(t, filepath.Join(dir, "page.html"), []byte("<html><title>notes</title></html>"))
	cands, skipped, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 0 || len(skipped) != 2 || skipped[0].Path != "memory_timeline.json" || !strings.Contains(skipped[0].Reason, "names no device") ||
		skipped[1].Path != "mt.html" || !strings.Contains(skipped[1].Reason, "a PNG of the plot") {
		t.Fatalf("candidates %+v skipped %+v", cands, skipped)
	}
}

// TestDiscoverSacctTRES: a Slurm sacct listing with GPU memory TRES is
// listed as skipped with its figures and why it gives no series, not as
// a text log holding nothing.
func TestDiscoverSacctTRES(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, "sacct.txt"), []byte("JobID|State|TRESUsageInMax\n7.batch|OUT_OF_MEMORY|cpu=00:01:00,gres/gpumem=78912M,mem=60G\n"))
	cands, skipped, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 0 || len(skipped) != 1 || skipped[0].NoContent || !strings.Contains(skipped[0].Reason, "gres/gpumem=78912M") ||
		!strings.Contains(skipped[0].Reason, "not a GPU out-of-memory error") {
		t.Fatalf("candidates %+v skipped %+v", cands, skipped)
	}
}

// TestDiscoverGrafanaCSV: a Grafana panel CSV whose series do not say
// their metric is skipped with what it lacks, not with the
// --gpu-log-columns hint, which cannot name one column per GPU.
func TestDiscoverGrafanaCSV(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, "grafana_data_export.csv"), []byte("\"Time\",\"node GPU 0\",\"node GPU 1\"\n2024-03-01 10:00:00,30000,30000\n2024-03-01 10:02:00,30200,30000\n"))
	cands, skipped, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Reason, "Grafana panel CSV") || strings.Contains(skipped[0].Reason, "--gpu-log-columns") {
		t.Fatalf("candidates %+v skipped %+v", cands, skipped)
	}
}

// TestDiscoverGPUMetricJSON: a JSON file that names GPU memory metrics in
// a layout no reader claims (a dashboard's queries, an exporter's dump)
// is listed as skipped with the metric it names, never passed over as
// configuration; a Prometheus API response of DCGM metrics is a GPU log.
func TestDiscoverGPUMetricJSON(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, "dashboard.json"), []byte(`{"panels": [{"targets": [{"expr": "DCGM_FI_DEV_FB_USED{gpu=\"0\"}"}]}]}`))
	testutil.WriteFile(t, filepath.Join(dir, "smi.json"), []byte(`[{"gpu": 0, "memory.used": "1000 MiB"}]`))
	testutil.WriteFile(t, filepath.Join(dir, "prom.json"), []byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"DCGM_FI_DEV_FB_USED","gpu":"0"},"values":[[1709287200,"1000"]]}]}}`))
	testutil.WriteFile(t, filepath.Join(dir, "config.json"), []byte(`{"gpu_memory_utilization": 0.9}`))
	cands, skipped, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 1 || cands[0].Log != gpulog.FormatPromJSON {
		t.Fatalf("candidates %+v", cands)
	}
	reasons := map[string]string{}
	for _, s := range skipped {
		reasons[s.Path] = s.Reason
	}
	if len(skipped) != 2 || !strings.Contains(reasons["dashboard.json"], "DCGM_FI_DEV_FB_USED") || !strings.Contains(reasons["smi.json"], "memory.used") {
		t.Fatalf("skipped %+v", skipped)
	}
}

// TestDiscoverTensorBoardCSV: a TensorBoard scalar download is claimed by
// the tag in its name when the tag names GPU memory; another tag, or the
// same lines under a name without a tag, is listed as skipped with what
// the name lacks, not with the --gpu-log-columns hint alone.
func TestDiscoverTensorBoardCSV(t *testing.T) {
	dir := t.TempDir()
	lines := []byte("Wall time,Step,Value\n1709287200.5,100,21.5\n1709287260.5,200,21.55\n")
	testutil.WriteFile(t, filepath.Join(dir, "run-version_0-tag-gpu_mem_allocated_GB.csv"), lines)
	testutil.WriteFile(t, filepath.Join(dir, "run-version_0-tag-train_loss.csv"), lines)
	testutil.WriteFile(t, filepath.Join(dir, "scalars.csv"), lines)
	cands, skipped, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 1 || cands[0].Log != gpulog.FormatTensorBoardCSV || len(skipped) != 2 ||
		skipped[0].Path != "run-version_0-tag-train_loss.csv" || !strings.Contains(skipped[0].Reason, "names no GPU memory") ||
		skipped[1].Path != "scalars.csv" || !strings.Contains(skipped[1].Reason, "tag is not in its name") {
		t.Fatalf("candidates %+v skipped %+v", cands, skipped)
	}
}
