package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hasNVIDIADriver reports whether this machine has a loaded NVIDIA driver.
func hasNVIDIADriver() bool {
	_, err := os.Stat("/proc/driver/nvidia/version")
	return err == nil
}

// TestRecordNoDriver runs the real command on a machine without an
// NVIDIA driver (or in a build without cgo): it must print one line and
// exit with exitUnavailable, creating no file.
func TestRecordNoDriver(t *testing.T) {
	if hasNVIDIADriver() {
		t.Skip("this machine has an NVIDIA driver; the no-driver path cannot be exercised")
	}
	dir := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"record", "-o", dir, "--duration", "1s"}, &stdout, &stderr)
	if code != exitUnavailable {
		t.Fatalf("exit code %d, want %d; stderr %q", code, exitUnavailable, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "gpureport record: NVML ") || stdout.Len() != 0 {
		t.Errorf("stderr %q, stdout %q; want one line on stderr", stderr.String(), stdout.String())
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("record created %s without a driver", dir)
	}
}

func TestRecordUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"record"}, exitUsage, "-o DIR is required"},
		{[]string{"record", "-o", "x", "--gpus", "0,a"}, exitUsage, `"a" is not a GPU index`},
		{[]string{"record", "-o", "x", "--interval", "1ms"}, exitUsage, "too short"},
		{[]string{"record", "-o", "x", "--duration", "-1s"}, exitUsage, "negative"},
		{[]string{"record", "-o", "x", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"record", "--bogus"}, exitUsage, "Run 'gpureport record -h' for usage."},
		{[]string{"record", "-h"}, exitOK, "gpureport record -o DIR"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String()+stderr.String(), tt.out) {
			t.Errorf("%v: exit %d, output %q; want %d and %q", tt.args, code, stdout.String()+stderr.String(), tt.code, tt.out)
		}
	}
}
