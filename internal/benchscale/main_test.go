package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestWalkFloor checks that the opcode walk reads every file, and names
// the one that is no pickle.
func TestWalkFloor(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 5 {
		f := filepath.Join(dir, fmt.Sprintf("snapshot_step_%06d.pickle", i))
		if err := os.WriteFile(f, []byte("\x80\x04](K\x01K\x02e."), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if _, err := walkFloor(files, 2); err != nil {
		t.Fatalf("walkFloor over pickles: %v", err)
	}
	if err := os.WriteFile(files[3], []byte("\x80\x04](K\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := walkFloor(files, 2)
	if err == nil || !strings.Contains(err.Error(), files[3]) || !strings.Contains(err.Error(), "without STOP") {
		t.Fatalf("walkFloor over a cut pickle: %v, want an error naming %s", err, files[3])
	}
}
