package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gpureport/ingest"
	"gpureport/internal/gen/train"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// listFiles returns the generated files under dir (relative, slash
// separated), skipping a report folder and the README.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "gpureport" {
				return fs.SkipDir
			}
			return nil
		}
		if rel != "README.md" {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestSampleRunUpToDate regenerates the sample run and compares it with
// the committed testdata/sample-run byte for byte, so nobody edits it by
// hand. Run with -update to rewrite it.
func TestSampleRunUpToDate(t *testing.T) {
	committed := filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")
	if testutil.Update() {
		if _, err := writeSample(committed); err != nil {
			t.Fatal(err)
		}
	}
	fresh := t.TempDir()
	if _, err := writeSample(fresh); err != nil {
		t.Fatal(err)
	}
	want := listFiles(t, fresh)
	got := listFiles(t, committed)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("testdata/sample-run holds %v, the generator writes %v (run go test ./internal/gen -run TestSampleRunUpToDate -update)", got, want)
	}
	for _, f := range want {
		a, err := os.ReadFile(filepath.Join(fresh, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(committed, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from what the generator writes (run with -update)", f)
		}
	}
}

// TestSampleGroundTruth decodes the sample run with the project's decoder
// and checks what testdata/README.md promises: 14 snapshots on one device,
// and the live bytes allocated at train.py:57 growing by 6 MiB per step.
func TestSampleGroundTruth(t *testing.T) {
	dir := t.TempDir()
	res, err := writeSample(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Snapshots) != 14 {
		t.Fatalf("%d snapshots", len(res.Snapshots))
	}
	var prev int64 = -1
	var steps []int64
	var live []int64
	for _, si := range res.Snapshots {
		s, _, err := snapshot.DecodeFile(filepath.Join(dir, si.Path), snapshot.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n := liveAt(s, "train.py", 57)
		if n != si.LeakLive {
			t.Errorf("%s: decoded %d live bytes at train.py:57, simulator says %d", si.Path, n, si.LeakLive)
		}
		if n <= prev {
			t.Errorf("%s: leak bytes %d did not grow (previous %d)", si.Path, n, prev)
		}
		prev = n
		steps = append(steps, ingest.StepFromName(si.Path))
		live = append(live, n)
	}
	rate := float64(live[len(live)-1]-live[0]) / float64(steps[len(steps)-1]-steps[0])
	if rate < 6<<20 || rate > 6.6*(1<<20) {
		t.Errorf("leak grows %.0f bytes/step, want about 6 MiB", rate)
	}
}

// liveAt sums the active_allocated blocks whose innermost frame in file
// (by base name) is at line.
func liveAt(s *snapshot.Snapshot, file string, line int) int64 {
	var n int64
	for _, seg := range s.Segments {
		for _, b := range seg.Blocks {
			if b.State != snapshot.StateActiveAllocated {
				continue
			}
			for _, f := range s.Stacks.StackFrames(b.Stack) {
				if strings.HasSuffix(f.File, "/proj/"+file) {
					if f.Line == line {
						n += b.Size
					}
					break
				}
			}
		}
	}
	return n
}

func TestSampleDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if _, err := train.Run(train.SampleSpec(), a); err != nil {
		t.Fatal(err)
	}
	if _, err := train.Run(train.SampleSpec(), b); err != nil {
		t.Fatal(err)
	}
	for _, f := range listFiles(t, a) {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs", f)
		}
	}
}

func TestCommandLine(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, &out, &errb); code != 2 {
		t.Errorf("no arguments: exit %d", code)
	}
	if code := run([]string{"nope"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "unknown command") {
		t.Errorf("unknown command: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"sample", "extra"}, &out, &errb); code != 2 {
		t.Errorf("sample with arguments: exit %d", code)
	}
	out.Reset()
	dir := t.TempDir()
	if code := run([]string{"sample", "-o", dir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "14 snapshots") {
		t.Errorf("sample: exit %d, %q %q", code, out.String(), errb.String())
	}
}

// TestShapeCommand runs gen shape: a small shape is written and described,
// and a bad shape or flag is a usage error.
func TestShapeCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.pickle")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-tensors", "50", "-events", "300", "-stacks", "20", "-ooms", "1", "-depth", "0"}, 0, "300 trace entries (1 OOM)"},
		{[]string{"-shape", "few", "-tensors", "10", "-events", "600", "-stacks", "10"}, 0, "600 trace entries (0 OOM)"},
		{[]string{"-shape", "huge"}, 2, `-shape "huge"`},
		{[]string{"-ooms", "-1"}, 2, "-ooms -1"},
		// A given value is used, 0 too: it no longer stands for "the shape's".
		{[]string{"-shape", "few", "-tensors", "0"}, 1, "want at least one tensor"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"shape", "-o", out}, tc.args...), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("shape %v: exit %d, %q %q; want exit %d and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.want)
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	// A run of distinct copies: their own content and modification time.
	dir := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"shape", "-o", dir, "-copies", "3", "-tensors", "50", "-events", "300", "-stacks", "20"}, &stdout, &stderr); code != 0 {
		t.Fatalf("shape -copies 3: exit %d, %s", code, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "snapshot_step_*.pickle"))
	if len(files) != 3 {
		t.Fatalf("-copies 3 wrote %v", files)
	}
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		st, err2 := os.Stat(f)
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		if seen[string(data)] || seen[st.ModTime().String()] {
			t.Errorf("%s repeats another copy's content or modification time", f)
		}
		seen[string(data)], seen[st.ModTime().String()] = true, true
	}
}
