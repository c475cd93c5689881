package testutil

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// CaptureKitRun writes a run folder with the capture kit (python/) against
// its torch stand-in, by running python/tests/make_run.py into a fresh
// temporary folder, and returns the folder: two ranks on cuda:0 and
// cuda:1, snapshots every 2 steps, rank 0 leaking 4 MiB per step at
// train.py:57 for 8 steps, rank 1 running out of memory in step 6, each
// with its memory_stats lines and manifest (see the script). The test is
// skipped, saying why, when python3 is not installed.
func CaptureKitRun(tb testing.TB) string {
	tb.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		tb.Skipf("python3 not found (%v): the capture kit's run cannot be made", err)
	}
	dir := tb.TempDir()
	script := filepath.Join(RepoRoot(tb), "python", "tests", "make_run.py")
	cmd := exec.Command(py, script, dir)
	cmd.Env = append(cmd.Environ(), "GPUREPORT_CAPTURE=1", "PYTHONDONTWRITEBYTECODE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("%s %s: %v\n%s", py, script, err, out)
	}
	return dir
}
