package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/input"

	"github.com/google/go-cmp/cmp"
)

// kitManifestRank1 is what the capture kit wrote for rank 1 of
// python/tests/make_run.py's run (its torch stand-in on cuda:1, an OOM in
// step 6), host and times as the kit wrote them on a test machine.
const kitManifestRank1 = `{
  "schema": "gpureport-capture/v1",
  "kit": {"name": "gpureport-capture", "version": "0.1.0"},
  "rank": 1, "local_rank": 1, "world_size": 2, "local_world_size": null, "node_rank": null,
  "host": "vm", "pid": 23458,
  "started": "2026-11-27T13:40:33.842+00:00", "stopped": "2026-11-27T13:40:33.896+00:00",
  "utc_offset_seconds": 0, "python": "3.11.7",
  "torch": {"version": "2.4.0", "cuda": "12.1", "hip": null, "allocator_backend": "native"},
  "allocator_settings": {}, "cuda_visible_devices": null,
  "device": {"index": 1, "uuid": "GPU-5eed0001-0000-4000-8000-000000000001",
             "uuid_source": "torch.cuda.get_device_properties", "name": "Fake GPU", "total_memory": 80000000000},
  "settings": {"every": 2, "max_entries": 1000, "stacks": "python", "context": "all", "oom_snapshot": true,
               "max_oom_snapshots": 2, "pinned_host": true, "memory_stats": true, "stats_every": 1,
               "full_stats": false, "gpu_log": null, "gpu_log_interval": 1.0},
  "recording": {"history": "on", "pinned_host_memory": "unsupported", "oom_observer": "attached"},
  "files": {"snapshots": "rank1/snapshot_step_{step:06d}.pickle", "oom_snapshots": "rank1/snapshot_oom_step_{step:06d}.pickle",
            "memory_stats": "rank1/memory_stats.jsonl", "gpu_log_dir": null},
  "dumps": {"count": 3, "bytes": 1974, "last_step": 4, "last_path": "rank1/snapshot_step_000004.pickle", "trace_entries": 1,
            "gather_seconds_max": 2.3e-05, "write_seconds_max": 0.000272,
            "last": {"bytes": 658, "trace_entries": 1, "gather_seconds": 2.3e-05, "write_seconds": 0.000184}},
  "ooms": [{"time": "2026-11-27T13:40:33.894+00:00", "step": 6, "device": 1, "requested_bytes": 100000000000,
            "device_allocated_bytes": 545259520, "device_free_bytes": 79454740480,
            "snapshot": "rank1/snapshot_oom_step_000006.pickle", "bytes": 724, "trace_entries": 2,
            "gather_seconds": 1.5e-05, "write_seconds": 0.000124}],
  "errors": []
}`

// kitManifestGPULog is a local rank 0's manifest as the kit writes it
// with a GPU log, pinned host memory and allocator settings, before the
// device was known (killed before its first step: no "stopped").
const kitManifestGPULog = `{"schema": "gpureport-capture/v1", "kit": {"name": "gpureport-capture", "version": "0.1.0"},
  "rank": 8, "local_rank": 0, "world_size": 16, "local_world_size": 8, "node_rank": 1, "host": "node-1", "pid": 77,
  "started": "2024-05-01T14:00:00.000+02:00", "stopped": null, "utc_offset_seconds": 7200, "python": "3.12.1",
  "torch": {"version": "2.14.0+cu126", "cuda": "12.6", "hip": null, "allocator_backend": "native"},
  "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}, "cuda_visible_devices": "4,5,6,7",
  "device": null,
  "settings": {"every": 100, "max_entries": 100000, "stacks": "all", "context": "all", "oom_snapshot": true,
               "max_oom_snapshots": 2, "pinned_host": true, "memory_stats": true, "stats_every": 1,
               "full_stats": false, "gpu_log": "auto", "gpu_log_interval": 0.5},
  "recording": {"history": "on", "pinned_host_memory": "on", "oom_observer": "attached", "gpu_log": "on"},
  "files": {"snapshots": "rank8/snapshot_step_{step:06d}.pickle", "oom_snapshots": "rank8/snapshot_oom_step_{step:06d}.pickle",
            "memory_stats": "rank8/memory_stats.jsonl", "gpu_log_dir": "gpu_logs/node-1"},
  "gpu_log_commands": [["/usr/bin/nvidia-smi", "--query-gpu=timestamp,index,uuid,name,memory.used,memory.total,utilization.gpu", "--format=csv", "-lms", "500", "-f", "x.csv"]],
  "dumps": {"count": 0, "bytes": 0, "last_step": null, "last_path": null, "trace_entries": null,
            "gather_seconds_max": null, "write_seconds_max": null},
  "ooms": [], "errors": ["dumping rank8/snapshot_step_000100.pickle: [Errno 28] No space left on device"]}`

func TestParseCaptureManifest(t *testing.T) {
	m, err := ParseCaptureManifest([]byte(kitManifestRank1))
	if err != nil {
		t.Fatal(err)
	}
	want := &CaptureManifest{
		KitVersion: "0.1.0", Rank: 1, LocalRank: 1, WorldSize: 2, LocalWorldSize: -1, NodeRank: -1,
		Host: "vm", PID: 23458,
		Started:      time.Date(2026, 11, 27, 13, 40, 33, 842e6, time.UTC),
		Stopped:      time.Date(2026, 11, 27, 13, 40, 33, 896e6, time.UTC),
		HasUTCOffset: true, Python: "3.11.7",
		Torch: CaptureTorch{Version: "2.4.0", CUDA: "12.1", AllocatorBackend: "native"},
		Device: &CaptureDevice{Index: 1, UUID: "GPU-5eed0001-0000-4000-8000-000000000001",
			UUIDSource: "torch.cuda.get_device_properties", Name: "Fake GPU", TotalMemory: 80_000_000_000},
		Settings: CaptureSettings{Every: 2, MaxEntries: 1000, Stacks: "python", Context: "all", OOMSnapshot: true,
			MaxOOMSnapshots: 2, PinnedHost: true, MemoryStats: true, StatsEvery: 1, GPULogInterval: time.Second},
		Recording: map[string]string{"history": "on", "pinned_host_memory": "unsupported", "oom_observer": "attached"},
		Files: CaptureFiles{Snapshots: "rank1/snapshot_step_{step:06d}.pickle", OOMSnapshots: "rank1/snapshot_oom_step_{step:06d}.pickle",
			MemoryStats: "rank1/memory_stats.jsonl"},
		Dumps: CaptureDumps{Count: 3, Bytes: 1974, LastStep: 4, LastPath: "rank1/snapshot_step_000004.pickle", TraceEntries: 1,
			GatherMax: 23 * time.Microsecond, WriteMax: 272 * time.Microsecond},
		OOMs: []CaptureOOM{{Time: time.Date(2026, 11, 27, 13, 40, 33, 894e6, time.UTC), Step: 6, Device: 1,
			Requested: 100_000_000_000, DeviceAllocated: 545259520, DeviceFree: 79454740480,
			Snapshot: "rank1/snapshot_oom_step_000006.pickle"}},
	}
	if d := cmp.Diff(want, m, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); d != "" {
		t.Errorf("manifest (-want +got):\n%s", d)
	}
}

func TestParseCaptureManifestGPULogRank(t *testing.T) {
	m, err := ParseCaptureManifest([]byte(kitManifestGPULog))
	if err != nil {
		t.Fatal(err)
	}
	if m.Device != nil {
		t.Errorf("device %+v, want none before the first step", m.Device)
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"rank, local rank, world", [3]int{m.Rank, m.LocalRank, m.WorldSize}, [3]int{8, 0, 16}},
		{"node", [2]int{m.NodeRank, m.LocalWorldSize}, [2]int{1, 8}},
		{"offset", m.UTCOffset, 2 * time.Hour},
		{"stopped", m.Stopped.IsZero(), true},
		{"visible", [2]any{m.CUDAVisibleDevices, m.VisibleDevicesSet}, [2]any{"4,5,6,7", true}},
		{"alloc conf", m.AllocatorSettings["PYTORCH_CUDA_ALLOC_CONF"], "expandable_segments:True"},
		{"gpu log dir", m.Files.GPULogDir, "gpu_logs/node-1"},
		{"gpu log interval", m.Settings.GPULogInterval, 500 * time.Millisecond},
		{"no dump", [2]int64{m.Dumps.LastStep, m.Dumps.TraceEntries}, [2]int64{input.NoStep, -1}},
		{"errors", len(m.Errors), 1},
		{"problems", len(m.Problems), 0},
	}
	for _, c := range checks {
		if !cmp.Equal(c.got, c.want) {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
}

// Fields of the wrong kind cost the field, with a problem naming it; the
// rest of the manifest is read.
func TestParseCaptureManifestBadFields(t *testing.T) {
	in := `{"schema": "gpureport-capture/v1", "rank": 3, "world_size": "4", "pid": -5,
	  "started": "yesterday", "utc_offset_seconds": 999999,
	  "device": {"index": 0, "uuid": "GPU-1 2", "total_memory": 1.5},
	  "settings": {"every": 10, "stacks": 7, "oom_snapshot": "yes", "gpu_log_interval": -1},
	  "files": {"snapshots": "../elsewhere/x.pickle", "memory_stats": "/abs/m.jsonl", "oom_snapshots": "a\\b"},
	  "ooms": [{"step": 2, "device": 0, "requested_bytes": 5}, 7], "errors": "disk full", "torch": []}`
	m, err := ParseCaptureManifest([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"world_size: not a number",
		"pid: -5 is not a whole number from 1",
		"started: \"yesterday\" is not an RFC 3339 time",
		"utc_offset_seconds: 999999 is not a whole number",
		"torch: not an object",
		"device.total_memory: 1.5 is not a whole number",
		"device.uuid: \"GPU-1 2\" is not a GPU UUID",
		"settings.stacks: not a string",
		"settings.oom_snapshot: not true or false",
		"settings.gpu_log_interval: not a number of seconds",
		"files.snapshots: \"../elsewhere/x.pickle\" is not a path inside the run folder",
		"files.oom_snapshots: \"a\\\\b\" is not a path inside the run folder",
		"files.memory_stats: \"/abs/m.jsonl\" is not a path inside the run folder",
		"ooms[1]: not an object",
		"errors: not a list",
	}
	got := strings.Join(m.Problems, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("problems lack %q; got:\n%s", w, got)
		}
	}
	if len(m.Problems) != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", len(m.Problems), len(want), got)
	}
	if m.Rank != 3 || m.Settings.Every != 10 || m.Device == nil || m.Device.UUID != "" || len(m.OOMs) != 1 || m.OOMs[0].Requested != 5 {
		t.Errorf("the usable fields were not kept: %+v", m)
	}
}

func TestParseCaptureManifestRefused(t *testing.T) {
	cases := []struct {
		name, in, field, msg string
	}{
		{"not json", `gpureport`, "", "not a JSON object"},
		{"array", `[1, 2]`, "", "not a JSON object"},
		{"null", `null`, "", "not a JSON object"},
		{"two values", `{"schema": "gpureport-capture/v1", "rank": 0} {}`, "", "more than one JSON value"},
		{"no schema", `{"rank": 0}`, "schema", "missing"},
		{"other schema", `{"schema": "gpureport-capture/v2", "rank": 0}`, "schema", `"gpureport-capture/v2" is not`},
		{"no rank", `{"schema": "gpureport-capture/v1"}`, "rank", "missing"},
		{"negative rank", `{"schema": "gpureport-capture/v1", "rank": -1}`, "rank", "whole number"},
		{"fractional rank", `{"schema": "gpureport-capture/v1", "rank": 0.5}`, "rank", "whole number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCaptureManifest([]byte(c.in))
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("err %v, want a *ManifestError", err)
			}
			if me.Field != c.field || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err %q (field %q), want field %q saying %q", err, me.Field, c.field, c.msg)
			}
		})
	}
}

func TestReadCaptureManifestErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big", CaptureManifestName)
	bad := filepath.Join(dir, "bad", CaptureManifestName)
	for p, data := range map[string]string{big: `{"x": "` + strings.Repeat("a", maxManifestBytes) + `"}`, bad: `{"schema": 1}`} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ path, msg string }{
		{big, "larger than 1048576 bytes"},
		{bad, "schema: missing or not a string"},
		{filepath.Join(dir, "none", CaptureManifestName), "open"},
	} {
		_, err := ReadCaptureManifest(c.path, "x")
		var fe *input.FileError
		if !errors.As(err, &fe) || fe.Path != c.path || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: err %v, want a FileError naming the file and saying %q", c.path, err, c.msg)
		}
		if strings.Count(err.Error(), c.path) != 1 {
			t.Errorf("%s: the path is not named exactly once: %v", c.path, err)
		}
	}
}

// FuzzParseCaptureManifest: no input panics the reader, and what it
// accepts has a rank in range and only paths inside the run folder.
func FuzzParseCaptureManifest(f *testing.F) {
	for _, s := range []string{kitManifestRank1, kitManifestGPULog, `{"schema": "gpureport-capture/v1", "rank": 0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseCaptureManifest(data)
		if err != nil {
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %v is not a *ManifestError", err)
			}
			return
		}
		if m.Rank < 0 || m.Rank > maxManifestRank {
			t.Fatalf("rank %d out of range", m.Rank)
		}
		for _, p := range []string{m.Files.Snapshots, m.Files.OOMSnapshots, m.Files.MemoryStats, m.Files.GPULogDir, m.Dumps.LastPath} {
			if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "../") || p == ".." {
				t.Fatalf("path %q outside the run folder", p)
			}
		}
		if len(m.OOMs) > maxManifestOOMs {
			t.Fatalf("%d OOMs kept", len(m.OOMs))
		}
	})
}
