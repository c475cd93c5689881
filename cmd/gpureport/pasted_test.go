package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pastedSummary is the part of summary.json the issue 28 tests read.
type pastedSummary struct {
	Inputs struct {
		GPULogs []struct {
			Format       string   `json:"format"`
			Samples      int      `json:"samples"`
			GPUs         int      `json:"gpus"`
			SkippedLines int      `json:"skipped_lines"`
			Notes        []string `json:"notes"`
		} `json:"gpu_logs"`
		Skipped []struct {
			Path, Reason string
		} `json:"skipped"`
	} `json:"inputs"`
	Devices []struct {
		Device        int    `json:"device"`
		Rank          *int   `json:"rank"`
		MIG           string `json:"mig"`
		CapacityBytes *int64 `json:"capacity_bytes"`
		GPUSamples    *struct {
			Samples int   `json:"samples"`
			MaxUsed int64 `json:"memory_used_max_bytes"`
		} `json:"gpu_samples"`
	} `json:"devices"`
	OOMs []struct {
		Device      int    `json:"device"`
		Rank        *int   `json:"rank"`
		Class       string `json:"class"`
		Requested   int64  `json:"requested_bytes"`
		Free        int64  `json:"device_free_bytes"`
		Reserved    int64  `json:"reserved_bytes"`
		CachedFree  int64  `json:"cached_free_bytes"`
		Missing     int64  `json:"missing_bytes"`
		Explanation string `json:"explanation"`
	} `json:"ooms"`
	Verdict struct {
		Reasons []string `json:"reasons"`
	} `json:"verdict"`
}

// reportFixtures reports a run folder holding the named fixtures (with
// extra arguments) and returns its stdout and summary.json.
func reportFixtures(t *testing.T, args []string, names ...string) (string, pastedSummary) {
	t.Helper()
	dir := copyFixtures(t, names...)
	code, stdout, stderr := runCmd(t, append(append([]string{"-q", "--tz", "UTC"}, args...), dir)...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "gpureport", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s pastedSummary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return stdout, s
}

// TestPastedRuns reports each issue 28 fixture alone and checks what the
// report says of it: one line per failure class.
func TestPastedRuns(t *testing.T) {
	gib, mib := float64(1<<30), float64(1<<20)
	tests := []struct {
		class, fixture string
		args           []string
		check          func(t *testing.T, stdout string, s pastedSummary)
	}{
		{"1 cached wording", "train_oom_cached.log", nil, func(t *testing.T, _ string, s pastedSummary) {
			// Reserved is allocated plus cached (10.8 GiB), and free plus
			// cached covers the 128 MiB request.
			if len(s.OOMs) != 1 || s.OOMs[0].Class != "fragmentation" || s.OOMs[0].Reserved != int64(10.52*gib)+int64(301.40*mib) {
				t.Errorf("%+v", s.OOMs)
			}
		}},
		{"2 message on the first line", "train_oom_first_line.log", nil, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.Inputs.GPULogs) != 1 || s.Inputs.GPULogs[0].Format != "training-log" || len(s.OOMs) != 1 || s.OOMs[0].Requested != int64(1.5*gib) {
				t.Errorf("logs %+v, OOMs %+v", s.Inputs.GPULogs, s.OOMs)
			}
		}},
		{"3 header-less CSV of one GPU", "query_noheader_one_gpu.csv", nil, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.Devices) != 1 || s.Devices[0].GPUSamples == nil || s.Devices[0].GPUSamples.Samples != 2000 || s.Inputs.GPULogs[0].GPUs != 1 {
				t.Errorf("devices %+v, logs %+v", s.Devices, s.Inputs.GPULogs)
			}
		}},
		{"4 no device index", "train_oom_no_index.log", nil, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.OOMs) != 1 || s.OOMs[0].Free != int64(96.44*mib) || s.OOMs[0].Class != "fragmentation" ||
				strings.Contains(s.OOMs[0].Explanation, "gives no") || !strings.Contains(s.OOMs[0].Explanation, "39.4 GiB in all") {
				t.Errorf("%+v", s.OOMs)
			}
		}},
		{"5 NCCL device", "train_nccl_device.err", nil, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.OOMs) != 1 || s.OOMs[0].Device != 2 || s.OOMs[0].Requested != 8388608 {
				t.Errorf("%+v", s.OOMs)
			}
		}},
		{"6 rank after a timestamp", "train_oom_time_rank.log", nil, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.OOMs) != 1 || s.OOMs[0].Rank == nil || *s.OOMs[0].Rank != 6 {
				t.Errorf("%+v", s.OOMs)
			}
		}},
		{"7 date lines and tables", "table_date_loop.log", nil, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.Inputs.Skipped) != 0 || len(s.Inputs.GPULogs) != 1 || s.Inputs.GPULogs[0].Format != "table" || s.Inputs.GPULogs[0].Samples != 3 ||
				s.Inputs.GPULogs[0].SkippedLines != 1 || len(s.Devices) != 1 {
				t.Errorf("skipped %+v, logs %+v, devices %+v", s.Inputs.Skipped, s.Inputs.GPULogs, s.Devices)
			}
		}},
		{"8 Memory Used, Memory Max", "memory_used_max.csv", nil, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.Inputs.Skipped) != 0 || len(s.Devices) != 1 || s.Devices[0].CapacityBytes == nil || *s.Devices[0].CapacityBytes != 24564<<20 {
				t.Errorf("skipped %+v, devices %+v", s.Inputs.Skipped, s.Devices)
			}
		}},
		{"9 free beyond the request", "train_oom_rocm_limit.log", nil, func(t *testing.T, stdout string, s pastedSummary) {
			if len(s.OOMs) != 1 || s.OOMs[0].Class != "limit" || s.OOMs[0].Missing != 0 || !strings.Contains(s.OOMs[0].Explanation, "set_per_process_memory_fraction") {
				t.Errorf("%+v", s.OOMs)
			}
			if !strings.Contains(stdout, "limit OOM on cuda:0") {
				t.Errorf("stdout:\n%s", stdout)
			}
		}},
		{"10 W&B percent, no total", "wandb_chart_percent.csv", nil, func(t *testing.T, stdout string, s pastedSummary) {
			if len(s.Devices) != 1 || s.Inputs.GPULogs[0].Samples != 12 || !strings.Contains(stdout, "used peak 74.8% of the device") ||
				!strings.Contains(stdout, "pass --capacity") {
				t.Errorf("devices %+v, logs %+v\n%s", s.Devices, s.Inputs.GPULogs, stdout)
			}
		}},
		{"10 W&B percent with --capacity", "wandb_chart_percent.csv", []string{"--capacity", "81559MiB"}, func(t *testing.T, _ string, s pastedSummary) {
			if len(s.Devices) != 1 || s.Devices[0].GPUSamples == nil || s.Devices[0].GPUSamples.Samples != 12 ||
				s.Devices[0].GPUSamples.MaxUsed < 59000<<20 || s.Devices[0].GPUSamples.MaxUsed > 61100<<20 {
				t.Errorf("devices %+v", s.Devices)
			}
		}},
		{"10 DCGM MIG", "dcgm_mig_metrics.txt", nil, func(t *testing.T, _ string, s pastedSummary) {
			if s.Inputs.GPULogs[0].Samples != 12 || len(s.Devices) != 2 || s.Devices[0].MIG != "GI 1" || s.Devices[1].MIG != "GI 2" ||
				s.Devices[0].CapacityBytes == nil || *s.Devices[0].CapacityBytes != 19968<<20 {
				t.Errorf("logs %+v, devices %+v", s.Inputs.GPULogs, s.Devices)
			}
		}},
		{"10 Composer MemoryMonitor", "composer_memory_monitor.log", nil, func(t *testing.T, stdout string, s pastedSummary) {
			if len(s.Devices) != 1 || s.Inputs.GPULogs[0].Samples != 8 || !strings.Contains(stdout, "memory_stats peak reserved 4.00 GiB") {
				t.Errorf("devices %+v, logs %+v\n%s", s.Devices, s.Inputs.GPULogs, stdout)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			stdout, s := reportFixtures(t, tt.args, tt.fixture)
			tt.check(t, stdout, s)
		})
	}
}

// TestPastedZeroUsedPeak (issue 28, point 11): an idle GPU's readings of
// 0 MiB are readings: the used peak is 0 B, not "n/a".
func TestPastedZeroUsedPeak(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("timestamp, index, memory.used [MiB], memory.total [MiB]\n")
	for i := 0; i < 6; i++ {
		b.WriteString("2025/03/02 08:11:5" + string(rune('0'+i)) + ".000, 0, 0 MiB, 81559 MiB\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "gpu.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "-q", "--tz", "UTC", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "used peak 0 B of 79.6 GiB") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
