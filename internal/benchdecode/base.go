package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// buildRevision builds the gpureport of git revision rev (of the
// repository in the working directory) from a copy of its tree exported
// under dir, so that the benchmark can time an earlier decoder beside
// this one without touching the working tree. It returns the binary's
// path.
func buildRevision(rev, dir string) (string, error) {
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

// linkRun makes a run folder under dir holding file as its one snapshot
// (a hard link, else a copy: the digest command reads run folders) and
// returns the folder.
func linkRun(dir, file string) (string, error) {
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		return "", err
	}
	dst := filepath.Join(run, "snapshot_step_000001"+filepath.Ext(file))
	if err := os.Link(file, dst); err == nil {
		return run, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	return run, os.WriteFile(dst, data, 0o644)
}
