package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// copyFixtures copies generated fixtures of testdata/logs into a new run
// folder.
func copyFixtures(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "logs", filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(n)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTrainingLogOnlyRun: a run folder with only a job's stdout holding an
// OOM message and an untimed GPU log reports the OOM (exit 4 with
// --fail-on oom) and the GPU's readings on the reading axis.
func TestTrainingLogOnlyRun(t *testing.T) {
	dir := copyFixtures(t, "train_oom.log", "table_then_query_csv.log")
	code, stdout, stderr := runCmd(t, "-q", "--tz", "UTC", "--fail-on", "oom", dir)
	if code != exitFailOn {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	for _, want := range []string{"2 GPU logs (table, training-log)", "fragmentation OOM on rank 0 · cuda:0: 2.00 GiB requested", "used peak 30.0 GiB of 32.0 GiB"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "gpureport", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Inputs struct {
			GPULogs []struct {
				Format string `json:"format"`
			} `json:"gpu_logs"`
		} `json:"inputs"`
		Devices []struct {
			Axis       string `json:"axis"`
			GPUSamples struct {
				Samples int   `json:"samples"`
				MaxUsed int64 `json:"memory_used_max_bytes"`
			} `json:"gpu_samples"`
		} `json:"devices"`
		OOMs []struct {
			Class     string `json:"class"`
			Requested int64  `json:"requested_bytes"`
		} `json:"ooms"`
		Verdict struct {
			OOM bool `json:"oom"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if !s.Verdict.OOM || len(s.OOMs) != 1 || s.OOMs[0].Class != "fragmentation" || s.OOMs[0].Requested != 2<<30 {
		t.Errorf("verdict oom %v, ooms %+v", s.Verdict.OOM, s.OOMs)
	}
	if len(s.Devices) != 1 || s.Devices[0].Axis != "reading" || s.Devices[0].GPUSamples.Samples != 1237 || s.Devices[0].GPUSamples.MaxUsed != 30716<<20 {
		t.Errorf("devices %+v", s.Devices)
	}
	if len(s.Inputs.GPULogs) != 2 || s.Inputs.GPULogs[0].Format != "table" || s.Inputs.GPULogs[1].Format != "training-log" {
		t.Errorf("gpu_logs %+v", s.Inputs.GPULogs)
	}
}

// TestLostGPUWarning: a GPU log whose rows report a lost GPU gives a
// warning on stderr naming the file, the count and the first line, as
// well as the report's note, even with -q.
func TestLostGPUWarning(t *testing.T) {
	dir := t.TempDir()
	log := "timestamp, index, memory.used [MiB], memory.total [MiB]\n" +
		"2024/05/01 12:00:00.000, 0, 1000 MiB, 81920 MiB\n" +
		"2024/05/01 12:00:05.000, 0, 1200 MiB, 81920 MiB\n" +
		"2024/05/01 12:00:10.000, 0, [GPU is lost], [GPU is lost]\n"
	testutil.WriteFile(t, filepath.Join(dir, "logs", "gpu.csv"), []byte(log))
	code, _, stderr := runCmd(t, "-q", "--tz", "UTC", dir)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	want := "GPU log reports a lost GPU or a failed driver"
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, filepath.Join("logs", "gpu.csv")) || !strings.Contains(stderr, "first_line=4") {
		t.Errorf("stderr %q, want %q with the file and first_line=4", stderr, want)
	}
}
