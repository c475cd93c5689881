package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/internal/gen/pickle"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// TestStatsJSON runs `gpureport stats --json` in-process on real snapshots
// of several layouts plus a broken file: one JSON line per good file with
// the accounting analyze computes, an error line on stderr naming the
// broken file and the offset, and exit code 2 after printing the rest.
func TestStatsJSON(t *testing.T) {
	files := testutil.RealFiles(t, "snapshots",
		"code_location_expandable_multigpu_oom.pickle", // 3 devices, oom, segment_map
		"flexgen_opt1.3b_oom_snapshot.pickle",          // legacy history layout
		"layoutediting_memory_snapshot_list.pkl",       // segments-only list, device 1
		"empty_1dev.pickle")                            // no segments
	broken := filepath.Join(t.TempDir(), "cut.pickle")
	if err := os.WriteFile(broken, []byte("\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94("), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--json", files[0], broken}, files[1:]...)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), append([]string{"stats"}, args...), &stdout, &stderr); code != exitNothingUsable {
		t.Errorf("exit code %d, want %d", code, exitNothingUsable)
	}
	if e := stderr.String(); !strings.Contains(e, broken+": offset 2: FRAME") || strings.Count(e, "\n") != 1 {
		t.Errorf("stderr %q: want one line naming %s and offset 2", e, broken)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d JSON lines, want %d:\n%s", len(lines), len(files), stdout.String())
	}
	for _, line := range lines {
		var got struct {
			Path    string
			Devices []map[string]any
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		var raw map[string]any
		json.Unmarshal([]byte(line), &raw)
		if len(raw) != 2 {
			t.Errorf("top-level keys %v, want path and devices", raw)
		}
		s, _, err := snapshot.DecodeFile(got.Path, snapshot.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		devs := s.Devices()
		if len(got.Devices) != len(devs) {
			t.Fatalf("%s: %d devices, want %d", got.Path, len(got.Devices), len(devs))
		}
		for i, d := range devs {
			u := analyze.DeviceUsage(s, d)
			cov, _ := analyze.StackCoverage(s, d)
			acts := analyze.ActionCounts(s, d)
			g := got.Devices[i]
			want := map[string]float64{
				"device": float64(d), "reserved_bytes": float64(u.Reserved), "allocated_bytes": float64(u.Allocated),
				"active_bytes": float64(u.Active), "requested_bytes": float64(u.Requested),
				"inactive_bytes": float64(u.Inactive), "largest_free_bytes": float64(u.LargestFree),
				"segments": float64(u.Segments), "blocks": float64(u.Blocks), "trace_entries": float64(u.TraceEntries),
				"stack_coverage": cov,
			}
			for k, v := range want {
				if g[k] != v {
					t.Errorf("%s device %d: %s = %v, want %v", filepath.Base(got.Path), d, k, g[k], v)
				}
			}
			if len(g) != len(want)+1 {
				t.Errorf("device keys %v", g)
			}
			ga, _ := g["actions"].(map[string]any)
			for a, n := range acts {
				if n > 0 && ga[snapshot.Action(a).String()] != float64(n) {
					t.Errorf("%s device %d: actions %v, want %s %d", filepath.Base(got.Path), d, ga, snapshot.Action(a), n)
				}
			}
		}
	}
}

// TestStatsText checks the human-readable output of one multi-device file
// and the usage errors.
func TestStatsText(t *testing.T) {
	f := testutil.RealFiles(t, "snapshots", "code_location_expandable_multigpu_oom.pickle")[0]
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"stats", f}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"pickle, timed layout, 2.50 MiB",
		"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
		"device 0\n    reserved 7.96 GiB  allocated 7.54 GiB",
		"device 1\n",
		"segment_map 40, segment_unmap 6, oom 1",
		"device 2\n",
		"stack coverage 100.0% of 18.8 GiB live",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"stats"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "missing FILE") {
		t.Errorf("no files: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"stats", "-x", f}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "-x") || !strings.Contains(stderr.String(), "stats -h") {
		t.Errorf("bad flag: exit %d, %q", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), []string{"stats", "-h"}, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "--json") || stderr.Len() != 0 {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestStatsNotes: a snapshot whose fields had to be assumed (a block
// without requested_size, a segment_pool_id of the wrong type) decodes,
// and stats prints what was assumed, in text and in --json.
func TestStatsNotes(t *testing.T) {
	block := pickle.NewDict(3)
	block.Set("size", int64(2<<20))
	block.Set("state", "active_allocated")
	seg := pickle.NewDict(6)
	seg.Set("device", int64(0))
	seg.Set("address", int64(1<<40))
	seg.Set("total_size", int64(2<<20))
	seg.Set("segment_type", "large")
	seg.Set("segment_pool_id", "default")
	seg.Set("blocks", pickle.NewList(block))
	top := pickle.NewDict(1)
	top.Set("segments", pickle.NewList(seg))
	data, err := pickle.Marshal(top, pickle.Options{Protocol: 4})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "assumed.pickle")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"stats", path}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "  note: segments[0].") || !strings.Contains(out, "assumed") {
		t.Errorf("text output shows no decode note:\n%s", out)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"stats", "--json", path}, &stdout, &stderr); code != exitOK {
		t.Fatalf("--json exit %d: %s", code, stderr.String())
	}
	var sf struct {
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &sf); err != nil || len(sf.Notes) == 0 {
		t.Errorf("--json notes %v (err %v): %s", sf.Notes, err, stdout.String())
	}
}

// TestStatsJSONSnapshot: stats names a JSON snapshot's container as JSON,
// bare, gzipped or with a key of no snapshot first, and a broken one's
// place as a byte of the JSON text, never "pickle" or a pickle offset
// (issue 28, point 11); a JSON snapshot given as the run folder is
// pointed to stats.
func TestStatsJSONSnapshot(t *testing.T) {
	const doc = `{"segments": [{"device": 0, "address": 4096, "total_size": 2097152, "allocated_size": 1048576, "active_size": 1048576, ` +
		`"requested_size": 1048576, "stream": 0, "segment_type": "small", "blocks": [{"address": 4096, "size": 1048576, "requested_size": 1048576, ` +
		`"state": "active_allocated", "frames": []}, {"address": 1052672, "size": 1048576, "requested_size": 0, "state": "inactive", "frames": []}]}], ` +
		`"device_traces": [[]]}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(doc))
	zw.Close()
	dir := t.TempDir()
	tests := []struct {
		name, data string
		code       int
		// out is what stdout (exit 0) or stderr (otherwise) says.
		out string
	}{
		{"snapshot.json", doc, exitOK, "  JSON, frames layout"},
		{"snapshot.json.gz", gz.String(), exitOK, "  gzip (JSON), frames layout"},
		{"keyed.json", `{"written_by": {"tool": "x", "steps": [1, 2]}, ` + doc[1:], exitOK, "  JSON, frames layout"},
		{"broken.json", `{"written_by": 1, "segments": [{"device": 0, "blocks": 7}]}`, exitNothingUsable, "JSON at byte 31: not a PyTorch memory snapshot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"stats", path}, &stdout, &stderr)
			out := stdout.String()
			if code != exitOK {
				out = stderr.String()
			}
			if code != tt.code || !strings.Contains(out, tt.out) || strings.Contains(out, "pickle") || strings.Contains(out, "offset") {
				t.Errorf("exit %d, want %d with %q:\n%s", code, tt.code, tt.out, out)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	keyed := filepath.Join(dir, "keyed.json")
	if code := run(context.Background(), []string{keyed}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "gpureport stats "+keyed) {
		t.Errorf("a JSON snapshot as the run folder: exit %d, stderr %q; want the stats command", code, stderr.String())
	}
}
