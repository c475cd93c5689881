// Package testutil holds what the tests of several packages share: where
// their inputs are (the real-world files in ../shared/testdata-real, read
// in place and never copied into this repository, and the project's own
// generated testdata: realdata.go), golden files compared whole or
// rewritten with -update, and files written into a test's folder
// (files.go), and the capture kit's run made by its own script
// (capturekit.go). Only tests import it.
package testutil

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// RepoRoot returns the directory holding go.mod, found by walking up from
// the test's working directory.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// RealDir returns ../shared/testdata-real/<sub> beside the repository (or
// $GPUREPORT_REAL_DATA/<sub>). When it is missing the test is skipped, except
// under CI (CI=true), where the data must be present and the test fails.
func RealDir(tb testing.TB, sub string) string {
	tb.Helper()
	base := os.Getenv("GPUREPORT_REAL_DATA")
	if base == "" {
		base = filepath.Join(RepoRoot(tb), "..", "shared", "testdata-real")
	}
	dir := filepath.Join(base, sub)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("real test data missing under CI: %v", err)
		}
		tb.Skipf("real test data not found (%v); set GPUREPORT_REAL_DATA", err)
	}
	return dir
}

// RealFiles returns the regular files under RealDir(sub) whose names match
// one of the glob patterns (all files when none), sorted, as paths.
func RealFiles(tb testing.TB, sub string, patterns ...string) []string {
	tb.Helper()
	dir := RealDir(tb, sub)
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if len(patterns) == 0 {
			out = append(out, p)
			return nil
		}
		for _, pat := range patterns {
			if ok, _ := filepath.Match(pat, d.Name()); ok {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(out)
	if len(out) == 0 {
		tb.Fatalf("no files matching %v under %s", patterns, dir)
	}
	return out
}

// Rel returns p relative to the real-data root, for test names.
func Rel(tb testing.TB, p string) string {
	tb.Helper()
	base := filepath.Dir(RealDir(tb, "."))
	if r, err := filepath.Rel(filepath.Join(base, "testdata-real"), p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}
