package main

import (
	"errors"
	"path/filepath"
	"testing"

	"gpureport/internal/benchrun"
)

// TestBenchSmall runs the whole benchmark on a tiny run (2 and 4
// snapshots of a small generated file), so that make bench-scale cannot
// rot unnoticed: every child (generator, gpureport with and without
// digests and cache, python3 when present) must succeed. The targets are
// meaningless at this size, so a missed target (ErrMissed) passes.
func TestBenchSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gpureport and times it: make test runs it, make check (-short) does not")
	}
	t.Chdir(filepath.Join("..", ".."))
	bin := filepath.Join(t.TempDir(), "gpureport")
	if err := benchrun.Run("go", "build", "-o", bin, "./cmd/gpureport"); err != nil {
		t.Fatalf("build gpureport: %v", err)
	}
	if err := bench(bin, "", 2, 2000, 0, 1, true, false); err != nil && !errors.Is(err, benchrun.ErrMissed) {
		t.Fatalf("bench: %v", err)
	}
}
