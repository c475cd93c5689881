package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"gpureport/internal/testutil"
)

// TestSampleRunGolden reports the bundled sample run end to end (discover,
// decode, analyse, write) and compares summary.json and summary.md with the
// golden files in testdata/golden/sample-run (SOURCE_DATE_EPOCH pins
// generated_at).
// Regenerate them with `go test ./cmd/gpureport -run SampleRun -update`.
func TestSampleRunGolden(t *testing.T) {
	root := testutil.RepoRoot(t)
	t.Chdir(root)
	t.Setenv("SOURCE_DATE_EPOCH", "1772442000") // 2026-03-02T09:00:00Z
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, "-q", "--tz", "UTC", "-o", out, "testdata/sample-run")
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "report: "+out) {
		t.Errorf("stdout does not say where the report is:\n%s", stdout)
	}
	for _, name := range []string{"index.html", "report.xlsx", "summary.json", "summary.md"} {
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", name, err)
		}
	}
	golden := filepath.Join(root, "testdata", "golden", "sample-run")
	testutil.Golden(t, filepath.Join(golden, "summary.json"), normaliseSummary(t, readFile(t, filepath.Join(out, "summary.json"))))
	testutil.Golden(t, filepath.Join(golden, "summary.md"), readFile(t, filepath.Join(out, "summary.md")))
	testutil.Golden(t, filepath.Join(golden, "stdout.txt"), []byte(strings.ReplaceAll(stdout, out, "OUT")))
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// normaliseSummary checks that summary.json parses with the right schema
// and returns it unchanged for the byte comparison.
func normaliseSummary(t *testing.T, b []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	if m["schema"] != "gpureport/summary/v1" {
		t.Errorf("schema %v", m["schema"])
	}
	return b
}

// TestSuppressAndFailOn checks --fail-on leak on the sample run's planted
// leak (exit 4), and that a suppression file naming its fingerprint turns
// the verdict back to no leak (exit 0), while a malformed one is a usage
// error naming the file and line.
func TestSuppressAndFailOn(t *testing.T) {
	root := testutil.RepoRoot(t)
	t.Chdir(root)
	code, stdout, stderr := runCmd(t, "-q", "--tz", "UTC", "-o", t.TempDir(), "--fail-on", "leak", "testdata/sample-run")
	if code != exitFailOn || !strings.Contains(stderr, "--fail-on met: leak") {
		t.Fatalf("exit %d, stderr %q; want %d", code, stderr, exitFailOn)
	}
	fp := ""
	for _, line := range strings.Split(stdout, "\n") {
		if i := strings.Index(line, "fingerprint "); strings.Contains(line, "suspect 1:") && i >= 0 {
			fp = strings.TrimSpace(line[i+len("fingerprint "):])
		}
	}
	if fp == "" {
		t.Fatalf("no suspect fingerprint in stdout:\n%s", stdout)
	}
	dir := t.TempDir()
	sup := filepath.Join(dir, "suppress.txt")
	if err := os.WriteFile(sup, []byte("# known: debug outputs kept on purpose\nfingerprint "+fp+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, stderr = runCmd(t, "-q", "--tz", "UTC", "-o", out, "--fail-on", "leak", "--suppress", sup, "testdata/sample-run")
	if code != exitOK {
		t.Fatalf("with the suppression: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// Every output says the verdict is OK because a suspect was
	// suppressed, and by which rule.
	wantSup := "1 leak suspect suppressed (not counted in the verdict): 1 by "
	md := string(readFile(t, filepath.Join(out, "summary.md")))
	for name, text := range map[string]string{"stdout": stdout, "summary.md": md} {
		if !strings.Contains(text, wantSup) {
			t.Errorf("%s does not count the suppressed suspect:\n%s", name, text)
		}
	}
	var sum struct {
		Verdict struct {
			Suppressed struct {
				Suspects int `json:"suspects"`
				Rules    []struct {
					Rule     string `json:"rule"`
					Suspects int    `json:"suspects"`
				} `json:"rules"`
			} `json:"suppressed"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "summary.json")), &sum); err != nil {
		t.Fatal(err)
	}
	if s := sum.Verdict.Suppressed; s.Suspects != 1 || len(s.Rules) != 1 || s.Rules[0].Suspects != 1 || s.Rules[0].Rule == "" {
		t.Errorf("summary.json verdict.suppressed = %+v; want 1 suspect by one named rule", s)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("fingerprint "+fp+"\nsite\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCmd(t, "-q", "--suppress", bad, "testdata/sample-run")
	if code != exitUsage || !strings.Contains(stderr, "bad.txt:2:") {
		t.Errorf("malformed suppression file: exit %d, stderr %q", code, stderr)
	}
}

// TestCapacityOverride: --capacity 80GB on a run whose GPU log gives
// memory.total is used, and every output says it is the user's figure, in
// decimal gigabytes, overriding the log's.
func TestCapacityOverride(t *testing.T) {
	root := testutil.RepoRoot(t)
	t.Chdir(root)
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, "-q", "--tz", "UTC", "-o", out, "--capacity", "80GB", "testdata/sample-run")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	want := "74.5 GiB (--capacity 80GB = 80×10^9 bytes, overriding the GPU log's memory.total 22.5 GiB)"
	md := string(readFile(t, filepath.Join(out, "summary.md")))
	for name, text := range map[string]string{"stdout": stdout, "summary.md": md} {
		if !strings.Contains(text, want) {
			t.Errorf("%s does not say %q:\n%s", name, want, text)
		}
	}
	var sum struct {
		Devices []struct {
			Capacity int64 `json:"capacity_bytes"`
		} `json:"devices"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "summary.json")), &sum); err != nil || len(sum.Devices) == 0 || sum.Devices[0].Capacity != 80e9 {
		t.Errorf("summary.json capacity %+v, %v; want 80e9 bytes", sum, err)
	}
}

// TestPprofSourceDateEpoch: --pprof writes the user frame as the leaf and
// takes its time stamp from SOURCE_DATE_EPOCH, as the other outputs do,
// so two builds of the same run give the same bytes.
func TestPprofSourceDateEpoch(t *testing.T) {
	root := testutil.RepoRoot(t)
	t.Chdir(root)
	t.Setenv("SOURCE_DATE_EPOCH", "1772442000")
	path := filepath.Join(t.TempDir(), "leaks.pb.gz")
	if code, _, stderr := runCmd(t, "-q", "--tz", "UTC", "-o", t.TempDir(), "--pprof", path, "testdata/sample-run"); code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(1772442000) * 1e9; p.TimeNanos != want {
		t.Errorf("time_nanos %d, want %d (SOURCE_DATE_EPOCH)", p.TimeNanos, want)
	}
	for _, s := range p.Sample {
		if len(s.Label["suspect"]) > 0 && len(s.Location) > 0 {
			if leaf := s.Location[0].Line[0].Function.Name; leaf != "train_step" {
				t.Errorf("the suspect's leaf frame is %q, want train_step", leaf)
			}
		}
	}
}
