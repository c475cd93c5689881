package main

import (
	"errors"
	"path/filepath"
	"testing"

	"gpureport/internal/benchrun"
)

// TestBenchSmall runs the whole benchmark on a small generated snapshot
// and on an ordinary one of gen shape, so that make bench-decode cannot
// rot unnoticed: the generator, gpureport stats, gpureport digest and
// python3 (when present) must each succeed. The targets are meaningless
// at this size, so a missed target (ErrMissed) passes.
func TestBenchSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gpureport and times it: make test runs it, make check (-short) does not")
	}
	t.Chdir(filepath.Join("..", ".."))
	bin := filepath.Join(t.TempDir(), "gpureport")
	if err := benchrun.Run("go", "build", "-o", bin, "./cmd/gpureport"); err != nil {
		t.Fatalf("build gpureport: %v", err)
	}
	for _, shape := range []string{"", "ordinary"} {
		if err := bench(bin, "", "", shape, false, 2000, 0, 1); err != nil && !errors.Is(err, benchrun.ErrMissed) {
			t.Fatalf("bench (shape %q): %v", shape, err)
		}
	}
}
