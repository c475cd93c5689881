// Package benchrun runs the child processes of the benchmark commands
// (benchdecode, benchscale): it times them (wall and CPU time, peak RSS
// from rusage) and builds the gpureport of an earlier git revision, so
// that one benchmark run prints an earlier gpureport's figures beside
// today's.
package benchrun

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Result is one timed child process.
type Result struct {
	// Wall is the elapsed time.
	Wall time.Duration
	// CPU is the user and system time: steadier than Wall on a busy
	// machine, and the measure of a per-core throughput.
	CPU time.Duration
	// RSS is the peak resident set size in bytes (0 where the platform
	// does not report it).
	RSS int64
}

// Time runs a command with its output discarded (its stderr goes to
// ours) and returns its times and peak RSS.
func Time(name string, args ...string) (Result, error) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return Result{}, err
	}
	ps := cmd.ProcessState
	return Result{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), RSS: maxRSS(ps)}, nil
}

// BuildRevision builds the gpureport of git revision rev (of the
// repository in the working directory) from a copy of its tree exported
// under dir, so that the benchmark can time an earlier decoder beside
// this one without touching the working tree. It returns the binary's
// path.
func BuildRevision(rev, dir string) (string, error) {
	src := filepath.Join(dir, "base-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("git", "archive", "--format=tar", rev)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	archive.Stderr, untar.Stderr = os.Stderr, os.Stderr
	if err := untar.Start(); err != nil {
		return "", fmt.Errorf("tar: %w", err)
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return "", fmt.Errorf("git archive: %w", err)
	}
	if err := untar.Wait(); err != nil {
		return "", fmt.Errorf("tar: %w", err)
	}
	bin, err := filepath.Abs(filepath.Join(dir, "gpureport-base"))
	if err != nil {
		return "", err
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/gpureport")
	build.Dir = src
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	return bin, nil
}
