package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// runCmd runs gpureport in-process and returns its exit code and output.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestReportUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no run dir", nil, exitUsage, "missing RUN_DIR"},
		{"unknown flag", []string{"--bogus", dir}, exitUsage, "flag provided but not defined"},
		{"two dirs", []string{dir, dir}, exitUsage, "use --batch"},
		{"bad capacity", []string{"--capacity", "lots", dir}, exitUsage, "--capacity"},
		{"capacity without unit", []string{"--capacity", "80", dir}, exitUsage, "--capacity 80GiB"},
		{"bad zone", []string{"--tz", "Mars/Olympus", dir}, exitUsage, "unknown zone"},
		{"bad gpu-log-columns", []string{"--gpu-log-columns", "time=t", dir}, exitUsage, "--gpu-log-columns"},
		{"bad fail-on", []string{"--fail-on", "leak,gremlins", dir}, exitUsage, "gremlins"},
		{"missing dir", []string{filepath.Join(dir, "nope")}, exitNothingUsable, "nope"},
		{"empty dir", []string{"-q", dir}, exitNothingUsable, "holds no snapshot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

func TestReportNothingUsableNamesFiles(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{
		"garbage.csv":      []byte("\x00\x01\x02 not a log at all\n"),
		"broken.pickle":    []byte("\x80\x04\x95\xff\xff"),
		"weights.pt":       []byte("PK\x03\x04 nonsense"),
		"notes/readme.txt": []byte("hello, see the CUDA out of memory error"),
		"logs/stdout.log":  []byte("step 1 loss 2.0\n"),
	})
	code, _, stderr := runCmd(t, "-q", dir)
	if code != exitNothingUsable {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitNothingUsable, stderr)
	}
	for _, name := range []string{"garbage.csv", "broken.pickle", "weights.pt", "logs/stdout.log", "every input"} {
		if !strings.Contains(stderr, name) {
			t.Errorf("stderr does not name %q:\n%s", name, stderr)
		}
	}
	// Documentation is no input, not even a skipped one.
	if strings.Contains(stderr, "readme.txt") {
		t.Errorf("stderr names the notes' readme.txt:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "gpureport")); err == nil {
		t.Error("a report folder was written for a run with nothing usable")
	}
}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := runCmd(t, "-h")
	if code != exitOK || !strings.Contains(out, "Exit codes:") || !strings.Contains(out, "SOURCE_DATE_EPOCH") || !strings.Contains(out, "--batch") {
		t.Errorf("-h: exit %d, output:\n%s", code, out)
	}
	code, out, _ = runCmd(t, "--version")
	if code != exitOK || !strings.HasPrefix(out, "gpureport ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// TestWriteFailedExitCode: a report that cannot be written (a directory
// stands where index.html goes) exits 3, in a single run and in a batch,
// while a run with nothing usable exits 2: the two are told apart by the
// error's type, not its text.
func TestWriteFailedExitCode(t *testing.T) {
	root := batchRoot(t, 1)
	runDir := filepath.Join(root, "exp0", "run00")
	if err := os.MkdirAll(filepath.Join(runDir, "gpureport", "index.html", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runTB(t, "-q", runDir); code != exitWriteFailed || !strings.Contains(errs, "write report") {
		t.Errorf("single run: exit %d, %s; want %d", code, errs, exitWriteFailed)
	}
	if code, out, errs := runTB(t, "--batch", "-q", "-o", filepath.Join(t.TempDir(), "ov"), root); code != exitWriteFailed {
		t.Errorf("batch: exit %d\n%s\n%s; want %d", code, out, errs, exitWriteFailed)
	}
	if code, _, errs := runTB(t, "-q", t.TempDir()); code != exitNothingUsable {
		t.Errorf("empty run: exit %d, %s; want %d", code, errs, exitNothingUsable)
	}
}

// TestVerboseStageTimes: -v says, in order, how long reading the inputs,
// the analysis and writing the report took (what a slow run is asked
// first), with the counts read, how many digests came from the cache and
// how many of those were read without their segments (their point
// entries made by the run before); without -v none of it is printed.
func TestVerboseStageTimes(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")
	caches := []string{t.TempDir(), t.TempDir(), ""}
	caches[2] = caches[1]
	for i, verbose := range []bool{false, true, true} {
		// The third run reads every digest from the cache the second
		// filled.
		fromCache, cache := 0, caches[i]
		if i == 2 {
			fromCache = 14
		}
		stages := []string{
			fmt.Sprintf(`level=DEBUG msg="inputs read" dir=%s snapshots=14 from_cache=%d without_segments=%d gpu_logs=1 skipped=0 elapsed=`, dir, fromCache, fromCache),
			`level=DEBUG msg=analysed dir=` + dir + ` elapsed=`,
			`level=DEBUG msg="report written" dir=`,
		}
		args := []string{"-q", "--tz", "UTC", "--cache-dir", cache, "-o", filepath.Join(t.TempDir(), "r"), dir}
		if verbose {
			args = append([]string{"-v"}, args...)
		}
		code, out, errs := runTB(t, args...)
		if code != exitOK {
			t.Fatalf("-v %v: exit %d\n%s\n%s", verbose, code, out, errs)
		}
		at := 0
		for _, s := range stages {
			i := strings.Index(errs[at:], s)
			if verbose && i < 0 {
				t.Fatalf("-v: no %q after byte %d of stderr:\n%s", s, at, errs)
			}
			if !verbose && i >= 0 {
				t.Fatalf("without -v: %q printed:\n%s", s, errs)
			}
			if i >= 0 {
				at += i + len(s)
			}
		}
	}
}

// TestCacheWithinItsBoundAfterARun: after a report, the digest cache holds
// at most --cache-size bytes. Trimmed right after the load, the cache lost
// this run's side entries (not yet read, so least recently used), which
// the analysis then made again, and the run ended over the bound.
func TestCacheWithinItsBoundAfterARun(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run")
	cache := t.TempDir()
	size := func() int64 {
		t.Helper()
		var n int64
		err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if ext := filepath.Ext(p); ext == ".digest" || ext == ".side" || ext == ".sides" || ext == ".idx" {
				info, err := d.Info()
				if err != nil {
					return err
				}
				n += info.Size()
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	run := func(extra ...string) {
		t.Helper()
		args := append([]string{"-q", "--tz", "UTC", "--cache-dir", cache, "-o", filepath.Join(t.TempDir(), "r")}, extra...)
		if code, out, errs := runTB(t, append(args, dir)...); code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
	}
	run()
	full := size()
	bound := full / 2
	run("--cache-size", strconv.FormatInt(bound, 10))
	if got := size(); got > bound || got == 0 {
		t.Errorf("after a run bounded to %d bytes (of %d), the cache holds %d", bound, full, got)
	}
}
