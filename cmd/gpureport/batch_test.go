package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"gpureport/ingest/ingesttest"
	"gpureport/report"
)

// tinySnapshot returns the bytes of a small real snapshot pickle (read in
// place from the shared real test data).
func tinySnapshot(t testing.TB) []byte {
	t.Helper()
	files := ingesttest.RealFiles(t, "snapshots", "tiny_2dev_expandable_maxsplit128.pickle")
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeFiles creates files (path -> content) under dir.
func writeFiles(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFindRunDirs(t *testing.T) {
	snap := []byte("\x80\x04\x95 fake pickle head")
	smi := []byte("timestamp, index, memory.used [MiB], memory.total [MiB]\n2024/01/01 00:00:00.000, 0, 1 MiB, 2 MiB\n")
	tests := []struct {
		name  string
		files map[string][]byte
		want  []string
	}{
		{"snapshots beside logs: 3 run folders are 3 runs", map[string][]byte{
			"run1/snapshots/snapshot_step_1.pickle": snap, "run1/logs/nvidia-smi.csv": smi,
			"run2/snapshots/snapshot_step_1.pickle": snap, "run2/logs/nvidia-smi.csv": smi,
			"run3/snapshots/snapshot_step_1.pickle": snap, "run3/logs/nvidia-smi.csv": smi,
		}, []string{"run1", "run2", "run3"}},
		{"per-rank folders of each spelling", map[string][]byte{
			"a/rank0/s_step_1.pickle": snap, "a/rank1/s_step_1.pickle": snap,
			"b/r0/s_step_1.pickle": snap, "b/r1/s_step_1.pickle": snap,
			"c/local_rank_0/s.pickle": snap, "c/local_rank_1/s.pickle": snap,
		}, []string{"a", "b", "c"}},
		{"torchtitan tree", map[string][]byte{
			"llama/outputs/memory_snapshot/iteration_10/rank0_memory_snapshot.pickle":      snap,
			"llama/outputs/memory_snapshot/iteration_10/rank1_memory_snapshot.pickle":      snap,
			"llama/outputs/memory_snapshot/iteration_20_exit/rank0_memory_snapshot.pickle": snap,
			"llama/logs/nvidia-smi.csv": smi,
		}, []string{"llama"}},
		{"marked runs deeper down", map[string][]byte{
			"projA/run7/" + RunMarker:         nil,
			"projA/run7/snapshots/s_1.pickle": snap,
			"projA/run8/" + RunMarker:         nil,
			"projA/run8/rank0/s_1.pickle":     snap,
			"projA/notes/readme.txt":          []byte("hello"),
			"projB/x/y/" + RunMarker:          nil,
			"projB/x/y/z/s.pickle":            snap,
			"projC/" + RunMarker:              nil, // marked: one run, inner marks ignored
			"projC/inner/" + RunMarker:        nil,
			"projC/inner/s.pickle":            snap,
			"plain/deep/er/s.pickle":          snap,
			"empty-marked/" + RunMarker:       nil,
			"nothing/readme.txt":              []byte("no inputs"),
			"nothing/sub/notes.pickle":        []byte("not a pickle"),
			".hidden/snapshot.pickle":         snap,
			"d/gpureport/snapshot.pickle":     snap, // report folder only: no run
			"gpureport-overview/x/s.pickle":   snap, // the overview folder
			"gpureport-overview/index.html":   []byte("<html>"),
			"rep/index.html":                  []byte("<html>"),
			"rep/summary.json":                []byte("{}"),
			"rep/s.pickle":                    snap, // a report folder is not entered
		}, []string{"empty-marked", "plain", "projA/run7", "projA/run8", "projB/x/y", "projC"}},
		{"an empty root has no runs", map[string][]byte{"readme.txt": []byte("hi")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tt.files)
			runs, err := findRunDirs([]string{root}, []string{filepath.Join(root, "gpureport-overview")})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, r.Rel)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("runs %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFindRunDirsRootAndLinks(t *testing.T) {
	snap := []byte("\x80\x04\x95 fake pickle head")
	root := t.TempDir()
	writeFiles(t, root, map[string][]byte{
		"a/snapshot_1.pickle":        snap,
		"a/deeper/snapshot_2.pickle": snap,
		"store/snap_9.pickle":        snap, // linked into g below
		"m/" + RunMarker:             nil,
		"m/sub/snap.pickle":          snap,
	})
	// A run folder whose snapshot is a symbolic link is a run; a dangling
	// link is not an input.
	for _, d := range []string{"g", "h"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "store", "snap_9.pickle"), filepath.Join(root, "g", "snap_9.pickle")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "nowhere.pickle"), filepath.Join(root, "h", "gone.pickle")); err != nil {
		t.Fatal(err)
	}
	runs, err := findRunDirs([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Rel)
	}
	if want := []string{"a", "g", "m", "store"}; !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q", got, want)
	}
	// A root that directly holds an input, or is marked, is one run.
	for _, r := range []string{"a", "m"} {
		runs, err = findRunDirs([]string{filepath.Join(root, r)}, nil)
		if err != nil || len(runs) != 1 || runs[0].Rel != "." {
			t.Errorf("root run %s: %+v, %v", r, runs, err)
		}
	}
	if _, err := findRunDirs([]string{filepath.Join(root, "missing")}, nil); err == nil {
		t.Error("missing root: no error")
	}
}

// TestBatchEmptyRoot checks that a root without runs creates nothing: no
// overview folder, no report folder.
func TestBatchEmptyRoot(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string][]byte{"notes/readme.txt": []byte("hi")})
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
	writeFiles(t, root, files)
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

func TestShard(t *testing.T) {
	tests := []struct {
		in   string
		want shard
		bad  bool
	}{
		{"", shard{0, 1}, false},
		{"0/8", shard{0, 8}, false},
		{"7/8", shard{7, 8}, false},
		{" 3 / 4 ", shard{3, 4}, false},
		{"8/8", shard{}, true},
		{"-1/8", shard{}, true},
		{"1/0", shard{}, true},
		{"1", shard{}, true},
		{"a/b", shard{}, true},
	}
	for _, tt := range tests {
		got, err := parseShard(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("parseShard(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
	// Every run lands in exactly one shard, and the split is fixed (FNV-1a
	// of the relative path), so machines agree.
	counts := make([]int, 4)
	for i := 0; i < 1000; i++ {
		rel := fmt.Sprintf("exp%d/run%d", i%7, i)
		n := 0
		for s := 0; s < 4; s++ {
			if (shard{s, 4}).has(rel) {
				n++
				counts[s]++
			}
		}
		if n != 1 {
			t.Fatalf("%s is in %d shards", rel, n)
		}
	}
	for s, c := range counts {
		if c < 200 || c > 300 {
			t.Errorf("shard %d/4 has %d of 1000 runs: uneven split", s, c)
		}
	}
	if !(shard{1, 4}).has("exp/run1") || (shard{0, 4}).has("exp/run1") {
		t.Error("the split of exp/run1 changed: shards of a running job array would disagree")
	}
}

func TestLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	release, err := acquireLock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acquireLock(dir); !errors.Is(err, errLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("second lock: %v; want errLocked naming this pid", err)
	}
	release()
	release2, err := acquireLock(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	release2()
	if _, err := os.Stat(dir); err == nil {
		t.Error("the folder the lock created is left behind")
	}
	os.MkdirAll(dir, 0o755)

	// A lock file left behind, whatever it says, holds no lock: the
	// kernel dropped its holder's lock when that process ended.
	for _, line := range []string{"1 this-or-other-host 2025-01-01T00:00:00Z\n", "garbage", ""} {
		if err := os.WriteFile(filepath.Join(dir, lockName), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		release3, err := acquireLock(dir)
		if err != nil {
			t.Fatalf("left-over lock file %q not taken over: %v", line, err)
		}
		release3()
	}
}

// TestLockReleasedOnExit: a process that dies holding a lock, without
// releasing it, does not keep the report locked.
func TestLockReleasedOnExit(t *testing.T) {
	if dir := os.Getenv("GPUREPORT_LOCK_HOLDER"); dir != "" {
		// The child: take the lock, say so, and wait to be killed.
		if _, err := acquireLock(dir); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		select {}
	}
	dir := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockReleasedOnExit$")
	cmd.Env = append(os.Environ(), "GPUREPORT_LOCK_HOLDER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("holder process: %q", line)
	}
	_, err = acquireLock(dir)
	if !errors.Is(err, errLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Errorf("lock held by another process: %v; want errLocked naming pid %d", err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	release, err := acquireLock(dir)
	if err != nil {
		t.Fatalf("lock of a killed process: %v", err)
	}
	release()
}

func TestManifest(t *testing.T) {
	run := t.TempDir()
	writeFiles(t, run, map[string][]byte{
		"snap_1.pickle":        []byte("a"),
		"rank0/snap_2.pickle":  []byte("bb"),
		"gpureport/index.html": []byte("report"),
		".cache/x":             []byte("hidden"),
	})
	out := filepath.Join(run, "gpureport")
	m1, err := scanManifest(run, out, "k")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range m1.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"rank0/snap_2.pickle", "snap_1.pickle"}) {
		t.Errorf("manifest files %q", paths)
	}
	if err := writeManifest(out, m1); err != nil {
		t.Fatal(err)
	}
	again, _ := scanManifest(run, out, "k")
	if !again.equal(readManifest(out)) {
		t.Error("unchanged run reads as changed")
	}
	// Writing the report does not change the inputs.
	writeFiles(t, run, map[string][]byte{"gpureport/summary.json": []byte("{}")})
	if again, _ := scanManifest(run, out, "k"); !again.equal(m1) {
		t.Error("a report file counted as input")
	}
	changes := []func(){
		func() { writeFiles(t, run, map[string][]byte{"snap_3.pickle": []byte("c")}) },
		func() { writeFiles(t, run, map[string][]byte{"snap_1.pickle": []byte("longer")}) },
		func() {
			later := time.Now().Add(time.Hour)
			os.Chtimes(filepath.Join(run, "rank0", "snap_2.pickle"), later, later)
		},
		func() { os.Remove(filepath.Join(run, "snap_3.pickle")) },
	}
	prev := m1
	for i, change := range changes {
		change()
		cur, _ := scanManifest(run, out, "k")
		if cur.equal(prev) {
			t.Errorf("change %d not detected", i)
		}
		prev = cur
	}
	if cur, _ := scanManifest(run, out, "other"); cur.equal(prev) {
		t.Error("an options change not detected")
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
		// Runs two levels down are marked (rundirs.go).
		files[fmt.Sprintf("exp%d/run%02d/%s", i%3, i, RunMarker)] = nil
	}
	writeFiles(t, root, files)
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
	writeFiles(t, root, map[string][]byte{"exp1/run01/snapshot_step_300.pickle": tinySnapshot(t)})
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
	release, err := acquireLock(out)
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
	release, err := acquireLock(filepath.Join(runDir, "gpureport"))
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
	writeFiles(b, root, files)
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
	files := ingesttest.RealFiles(t, "snapshots", "cs336_ctx128_forward.pickle", "cs336_ctx512_forward.pickle")
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
	dir := filepath.Join(ingesttest.RepoRoot(t), "testdata", "sample-run")
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
