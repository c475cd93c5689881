package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/internal/testutil"
)

// Logs-only runs for the end-to-end tests: GPU logs and memory_stats
// lines written to a temporary directory, no snapshots.

// logsStart is when the synthetic logs begin (UTC; read with --tz UTC).
var logsStart = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// evilProcess and evilProcess2 are process names that would run script
// if a writer did not escape them (the second through an HTML tooltip).
const (
	evilProcess  = "</script><script>alert(1)</script>"
	evilProcess2 = "<img src=x onerror=alert(2)>"
)

// smiStamp is nvidia-smi's timestamp format.
func smiStamp(t time.Time) string { return t.Format("2006/01/02 15:04:05.000") }

// writeSMILogs writes nvidia-smi.csv (--query-gpu, GPUs 0 and 1, a
// reading every 10 s for 30 minutes) and apps.csv (--query-compute-apps
// at the same times): on GPU 0, pid 4242 "python" grows by 2 MiB per
// reading (720 MiB per hour) from 2000 MiB and pid 4243 "dataloader"
// holds 500 MiB; on GPU 1, pid 5000 "python" holds 3000 MiB; pid 6000,
// named evilProcess, runs on a GPU no log lists (GPU-zzz). GPU 0's
// memory.used is its processes plus 600 MiB; with stats, it also holds
// the memory_stats run's reserved memory (writeLeakingStats' steps are
// 0.5 s apart).
func writeSMILogs(t testing.TB, dir string, stats bool) {
	t.Helper()
	var gpu, apps strings.Builder
	gpu.WriteString("timestamp, index, uuid, name, memory.used [MiB], memory.total [MiB]\n")
	apps.WriteString("timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\n")
	for i := range 180 {
		ts := smiStamp(logsStart.Add(time.Duration(i) * 10 * time.Second))
		grow := 2000 + 2*i
		used := 600 + grow + 500
		if stats {
			used += 5*1024 + min(20*i, 990)
		}
		fmt.Fprintf(&gpu, "%s, 0, GPU-aaa, NVIDIA H100 80GB HBM3, %d MiB, 81559 MiB\n", ts, used)
		fmt.Fprintf(&gpu, "%s, 1, GPU-bbb, NVIDIA H100 80GB HBM3, %d MiB, 81559 MiB\n", ts, 600+3000)
		fmt.Fprintf(&apps, "%s, GPU-aaa, 4242, python, %d MiB\n", ts, grow)
		fmt.Fprintf(&apps, "%s, GPU-aaa, 4243, dataloader, 500 MiB\n", ts)
		fmt.Fprintf(&apps, "%s, GPU-bbb, 5000, python, 3000 MiB\n", ts)
		fmt.Fprintf(&apps, "%s, GPU-zzz, 6000, %s, 100 MiB\n", ts, evilProcess)
	}
	testutil.WriteFile(t, filepath.Join(dir, "nvidia-smi.csv"), []byte(gpu.String()))
	testutil.WriteFile(t, filepath.Join(dir, "apps.csv"), []byte(apps.String()))
}

// memStatsLine is one torch.cuda.memory_stats() JSON line.
func memStatsLine(step int, at time.Time, alloc, reserved, retries, ooms int64) string {
	return fmt.Sprintf(`{"step": %d, "time": %.3f, "device": 0, "allocated_bytes.all.current": %d, "reserved_bytes.all.current": %d, "active_bytes.all.current": %d, "inactive_split_bytes.all.current": %d, "num_alloc_retries": %d, "num_ooms": %d}`+"\n",
		step, float64(at.UnixMilli())/1000, alloc, reserved, alloc+(1<<20), reserved-alloc-(1<<20), retries, ooms)
}

// writeLeakingStats writes stats.jsonl: 100 readings, one every 10 steps
// (a step every 0.5 s), allocated growing by 1 MiB per step from 4 GiB,
// reserved 1 GiB above it; num_ooms rises from 0 to 1 between steps 690
// and 700 (a caught OOM: the readings go on); num_alloc_retries rises
// every 50 steps.
func writeLeakingStats(t testing.TB, dir string) {
	t.Helper()
	writeLeakingStatsRise(t, dir, 700)
}

// writeLeakingStatsRise is writeLeakingStats with num_ooms rising at step
// rise (990, the last reading: the process died of it).
func writeLeakingStatsRise(t testing.TB, dir string, rise int) {
	t.Helper()
	var b strings.Builder
	for i := range 100 {
		step := 10 * i
		alloc := int64(4<<30) + int64(step)<<20
		ooms := int64(0)
		if step >= rise {
			ooms = 1
		}
		b.WriteString(memStatsLine(step, logsStart.Add(time.Duration(step)*500*time.Millisecond), alloc, alloc+1<<30, int64(step/50), ooms))
	}
	testutil.WriteFile(t, filepath.Join(dir, "stats.jsonl"), []byte(b.String()))
}

// writeFlatStats writes stats.jsonl: 100 flat readings (allocated 4 GiB
// give or take 3 MiB, reserved 6 GiB), no OOM, no retry.
func writeFlatStats(t testing.TB, dir string) {
	t.Helper()
	var b strings.Builder
	for i := range 100 {
		step := 10 * i
		alloc := int64(4<<30) + int64((i*7)%7-3)<<20
		b.WriteString(memStatsLine(step, logsStart.Add(time.Duration(step)*500*time.Millisecond), alloc, 6<<30, 0, 0))
	}
	testutil.WriteFile(t, filepath.Join(dir, "stats.jsonl"), []byte(b.String()))
}
