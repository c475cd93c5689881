package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"gpureport/internal/benchrun"
)

// TestBenchSmall runs the whole benchmark on a tiny shape (runs of 2 and
// 3 snapshots of a few hundred trace events, with and without OOM
// events), so that make bench-scale cannot rot unnoticed: every child
// (generator, gpureport first run and re-run, python3 when present) must
// succeed. The targets are meaningless at this size, so a missed target
// (ErrMissed) passes.
func TestBenchSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gpureport and times it: make test runs it, make check (-short) does not")
	}
	t.Chdir(filepath.Join("..", ".."))
	bin := filepath.Join(t.TempDir(), "gpureport")
	if err := benchrun.Run("go", "build", "-o", bin, "./cmd/gpureport"); err != nil {
		t.Fatalf("build gpureport: %v", err)
	}
	tiny := []string{"-tensors", "30", "-events", "300", "-stacks", "20", "-depth", "0"}
	cfg := config{
		bin: bin, shapes: []string{"ordinary"}, ooms: []int{0, 2},
		ns: []int{2, 3}, pythonMax: 2,
		genArgs: map[string][]string{"ordinary": tiny},
	}
	if err := bench(cfg); err != nil && !errors.Is(err, benchrun.ErrMissed) {
		t.Fatalf("bench: %v", err)
	}
}

// TestCopies checks that the runs are made of distinct files: each copy
// is its own file (not a link to the others) with its own modification
// time, and a run folder holds links to them.
func TestCopies(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.WriteFile(src, []byte("snapshot"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := copies(src, filepath.Join(dir, "pool"), 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var infos []os.FileInfo
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if seen[st.ModTime().String()] {
			t.Errorf("%s: modification time %s repeats", f, st.ModTime())
		}
		seen[st.ModTime().String()] = true
		for _, o := range infos {
			if os.SameFile(st, o) {
				t.Errorf("%s is the same file as %s", f, o.Name())
			}
		}
		infos = append(infos, st)
	}
	run := filepath.Join(dir, "run")
	if err := linkRun(files[:2], run); err != nil {
		t.Fatal(err)
	}
	if got, _ := filepath.Glob(filepath.Join(run, "*")); len(got) != 2 {
		t.Errorf("run folder holds %v", got)
	}
}
