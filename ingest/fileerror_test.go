package ingest_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// TestFileErrorNamesThePathOnce: DecodeFile and DecodeLog errors are
// *FileError naming the file exactly once, keep their cause for
// errors.Is, and Load's skipped list gives the reason without the path
// (it prints the path beside it).
func TestFileErrorNamesThePathOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	missing := filepath.Join(dir, "missing.pickle")
	ints := write("ints.pkl", "\x80\x04]\x94(K\x01K\x02e.")
	noReadings := write("gpu.csv", "timestamp, index, memory.used [MiB]\n")
	for _, c := range []struct {
		name string
		path string
		err  func() error
		is   error
	}{
		{"missing snapshot", missing, func() error { _, _, err := snapshot.DecodeFile(missing, snapshot.DecodeOptions{}); return err }, fs.ErrNotExist},
		{"missing log", missing, func() error { _, err := gpulog.DecodeLog(missing, gpulog.FormatQueryCSV, time.UTC); return err }, fs.ErrNotExist},
		{"no snapshot", ints, func() error { _, _, err := snapshot.DecodeFile(ints, snapshot.DecodeOptions{}); return err }, snapshot.ErrNotSnapshot},
		{"no readings", noReadings, func() error { _, err := gpulog.DecodeLog(noReadings, gpulog.FormatQueryCSV, time.UTC); return err }, gpulog.ErrNoReadings},
	} {
		err := c.err()
		var fe *input.FileError
		if !errors.As(err, &fe) || fe.Path != c.path {
			t.Errorf("%s: %v is no *FileError for %s", c.name, err, c.path)
			continue
		}
		if n := strings.Count(err.Error(), c.path); n != 1 {
			t.Errorf("%s: %q names the path %d times, want once", c.name, err, n)
		}
		if strings.Contains(fe.Err.Error(), c.path) {
			t.Errorf("%s: the cause %q repeats the path", c.name, fe.Err)
		}
		if !errors.Is(err, c.is) {
			t.Errorf("%s: %v does not wrap %v", c.name, err, c.is)
		}
	}

	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Skipped) == 0 {
		t.Fatal("nothing skipped")
	}
	for _, sk := range run.Skipped {
		if strings.Contains(sk.Reason, dir) || strings.Contains(sk.Reason, sk.Path) {
			t.Errorf("%s: reason %q repeats the path", sk.Path, sk.Reason)
		}
	}
}
