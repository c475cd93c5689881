package main

import (
	"os"
	"path/filepath"
)

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
