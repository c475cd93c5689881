package main

import (
	"errors"
	"fmt"
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

// TestLinkRun checks that a run folder holds links to the files named,
// so that each keeps its own content key, and that making it again keeps
// them.
func TestLinkRun(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 3 {
		f := filepath.Join(dir, fmt.Sprintf("snapshot_step_%06d.pickle", i))
		if err := os.WriteFile(f, []byte{byte(i)}, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	run := filepath.Join(dir, "run")
	for range 2 {
		if err := linkRun(files[:2], run); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := filepath.Glob(filepath.Join(run, "*"))
	if len(got) != 2 {
		t.Fatalf("run folder holds %v", got)
	}
	for i, g := range got {
		a, err1 := os.Stat(g)
		b, err2 := os.Stat(files[i])
		if err1 != nil || err2 != nil || !os.SameFile(a, b) {
			t.Errorf("%s is not %s", g, files[i])
		}
	}
}
