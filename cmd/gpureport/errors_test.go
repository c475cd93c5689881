package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"gpureport/internal/testutil"
)

// TestWriteFailure: a report that cannot be written says which folder and
// why, in one line, never naming the lock or temporary file that failed
// first, and for a folder the user may not write, what to do.
func TestWriteFailure(t *testing.T) {
	lock := &fs.PathError{Op: "open", Path: "/runs/r1/gpureport/.gpureport.lock", Err: syscall.EACCES}
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("lock /runs/r1/gpureport: %w", lock), "cannot write the report to /runs/r1/gpureport: permission denied; pass -o DIR"},
		{fmt.Errorf("write report: %w", &fs.PathError{Op: "mkdir", Path: "/runs/r1/gpureport", Err: syscall.EROFS}), "cannot write the report to /runs/r1/gpureport: permission denied; pass -o DIR"},
		{&fs.PathError{Op: "mkdir", Path: "/runs/r1/gpureport/x.tmp", Err: syscall.ENOSPC}, "cannot write the report to /runs/r1/gpureport: no space left on device"},
		{errors.New("boom"), "cannot write the report to /runs/r1/gpureport: boom"},
	}
	for _, tt := range tests {
		got := writeFailure("/runs/r1/gpureport", tt.err)
		if got != tt.want {
			t.Errorf("writeFailure(%v) = %q, want %q", tt.err, got, tt.want)
		}
		if strings.Contains(got, ".lock") || strings.Contains(got, ".tmp") {
			t.Errorf("%q names an internal file", got)
		}
	}
}

// TestUnwritableRunDir reports a run whose folder the user may not write:
// one line naming the folder and -o, exit 3. Root may write anywhere, so
// the test needs another user.
func TestUnwritableRunDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which may write any folder; TestWriteFailure covers the message")
	}
	root := testutil.RepoRoot(t)
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if err := os.CopyFS(run, os.DirFS(filepath.Join(root, "testdata", "sample-run"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(run, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(run, 0o755) })
	code, _, stderr := runCmd(t, "-q", run)
	want := "cannot write the report to " + filepath.Join(run, "gpureport") + ": permission denied; pass -o DIR"
	if code != exitWriteFailed || !strings.Contains(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("exit %d, stderr %q; want exit %d and one line %q", code, stderr, exitWriteFailed, want)
	}
}

// TestRunArgumentMistakes: a missing folder is one line; a file passed as
// the run points to `gpureport stats`; `gpureport help CMD` is CMD's help.
func TestRunArgumentMistakes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "snapshot.pickle")
	if err := os.WriteFile(file, []byte("\x80\x04N."), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "nvidia-smi.csv")
	if err := os.WriteFile(logFile, []byte("timestamp, memory.used [MiB]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing folder", []string{filepath.Join(dir, "nope")}, exitNothingUsable, "gpureport: " + filepath.Join(dir, "nope") + ": no such folder\n"},
		{"file as run", []string{file}, exitUsage, "run: gpureport stats " + file + "\n"},
		{"log file as run", []string{logFile}, exitUsage, "pass the folder that holds it: gpureport " + dir + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code || !strings.HasSuffix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and the one line ending %q", code, stderr, tt.code, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "gpureport")); err == nil {
		t.Error("a report folder was created")
	}
	for _, c := range commands() {
		code, out, _ := runCmd(t, "help", c.name)
		if code != exitOK || !strings.Contains(out, "gpureport "+c.name) {
			t.Errorf("help %s: exit %d, output:\n%s", c.name, code, out)
		}
	}
	if code, _, stderr := runCmd(t, "help", "frobnicate"); code != exitUsage || !strings.Contains(stderr, "stats") {
		t.Errorf("help frobnicate: exit %d, %q", code, stderr)
	}
}

// TestDiffWritesBesideInputs: without -o, diff writes gpureport-diff into
// the folder of B (a snapshot) or into B (a run), never the current folder.
func TestDiffWritesBesideInputs(t *testing.T) {
	root := testutil.RepoRoot(t)
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if err := os.CopyFS(run, os.DirFS(filepath.Join(root, "testdata", "sample-run"))); err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	t.Chdir(cwd)
	a, b := filepath.Join(run, "snapshot_step_000010.pickle"), filepath.Join(run, "snapshot_step_000140.pickle")
	if code, _, stderr := runCmd(t, "diff", "-q", a, b); code != exitOK {
		t.Fatalf("diff: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(run, "gpureport-diff", "index.html")); err != nil {
		t.Errorf("no diff report beside B: %v", err)
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Errorf("diff wrote into the current folder: %v", entries)
	}
	out := filepath.Join(dir, "elsewhere")
	if code, _, stderr := runCmd(t, "diff", "-q", "-o", out, a, b); code != exitOK {
		t.Fatalf("diff -o: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("-o ignored: %v", err)
	}
}
