package ingest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestKitGPULogZone: the capture kit's nvidia-smi CSV has zoneless local
// times; without --tz, a log under a manifest's gpu_log_dir is read in
// the UTC offset that manifest records (and the run says so), other logs
// in the run's zone; with --tz, every log in the user's zone.
func TestKitGPULogZone(t *testing.T) {
	const manifest = `{"schema": "gpureport-capture/v1", "rank": 0, "local_rank": 0, "world_size": 1, "host": "node-1",
  "utc_offset_seconds": 7200, "files": {"gpu_log_dir": "gpu_logs/node-1"}}`
	const csv = "timestamp, index, memory.used [MiB], memory.total [MiB]\n" +
		"2025/01/02 12:00:00.000, 0, 1000 MiB, 81559 MiB\n2025/01/02 12:00:01.000, 0, 1100 MiB, 81559 MiB\n"
	dir := t.TempDir()
	// Each log its own last reading: the same timed readings in two
	// files are one log saved twice, read once (copies.go).
	testutil.WriteFiles(t, dir, map[string][]byte{
		"rank0/gpureport-capture.json":       []byte(manifest),
		"gpu_logs/node-1/nvidia-smi-1.csv":   []byte(csv),
		"elsewhere/nvidia-smi-by-hand.csv":   []byte(strings.Replace(csv, "1100 MiB", "1200 MiB", 1)),
		"gpu_logs/node-1-old/nvidia-smi.csv": []byte(strings.Replace(csv, "1100 MiB", "1300 MiB", 1)),
	})
	noon := func(hoursEast int) time.Time {
		return time.Date(2025, 1, 2, 12, 0, 0, 0, time.FixedZone("", hoursEast*3600))
	}
	// Without --tz, the run's zone is the machine's.
	localNoon := time.Date(2025, 1, 2, 12, 0, 0, 0, time.Local)
	for _, tt := range []struct {
		name  string
		tz    *time.Location
		want  map[string]time.Time // each log's first time
		zoned []string             // the logs read in the manifest's zone
	}{
		{"no --tz", nil, map[string]time.Time{"gpu_logs/node-1/nvidia-smi-1.csv": noon(2),
			"elsewhere/nvidia-smi-by-hand.csv": localNoon, "gpu_logs/node-1-old/nvidia-smi.csv": localNoon},
			[]string{"gpu_logs/node-1/nvidia-smi-1.csv"}},
		{"--tz +05:00", time.FixedZone("", 5*3600), map[string]time.Time{"gpu_logs/node-1/nvidia-smi-1.csv": noon(5),
			"elsewhere/nvidia-smi-by-hand.csv": noon(5), "gpu_logs/node-1-old/nvidia-smi.csv": noon(5)}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: tt.tz})
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Logs) != len(tt.want) || len(run.Captures) != 1 {
				t.Fatalf("%d logs, %d manifests; skipped %+v", len(run.Logs), len(run.Captures), run.Skipped)
			}
			for _, l := range run.Logs {
				if got := l.Samples[0].Time; !got.Equal(tt.want[l.Path]) {
					t.Errorf("%s: first reading at %v, want %v", l.Path, got.UTC(), tt.want[l.Path])
				}
			}
			if len(run.LogZones) != len(tt.zoned) {
				t.Errorf("log zones %+v, want %v", run.LogZones, tt.zoned)
			}
			for _, p := range tt.zoned {
				if z := run.LogZones[p]; z != (ingest.LogZone{Offset: 2 * time.Hour, Manifest: "rank0/gpureport-capture.json"}) {
					t.Errorf("%s: zone %+v", p, z)
				}
			}
		})
	}
}
