package placement_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
	"gpureport/placement"
)

// TestUnrankedInTurnFromCache writes a trainer's rank0_step_N dumps and,
// 40 minutes after them, an evaluation script's snapshot_N dumps (JSON
// snapshots made in the test, no block or stack in common), and checks
// that Place keeps them apart as two processes on a run without a cache,
// on a first run through a digest cache and on a re-run, which reads the
// cached digests without their segments (the analysis' point entries
// stand for them), so that placement reads the blocks it compares again.
func TestUnrankedInTurnFromCache(t *testing.T) {
	dir := t.TempDir()
	const t0 = int64(1_709_287_200_000_000) // 2024-03-01 10:00 UTC, microseconds
	const minute = int64(60_000_000)
	write := func(name, file string, params int, paramSize int64, leaks int, endUS int64) {
		var segs []map[string]any
		addr := int64(0x7f00_0000_0000)
		add := func(size int64, line int) {
			frames := []map[string]any{{"filename": file, "line": line, "name": "step"}, {"filename": file, "line": 200, "name": "main"}}
			segs = append(segs, map[string]any{"device": 0, "address": addr, "total_size": size, "allocated_size": size, "active_size": size,
				"requested_size": size, "stream": 0, "segment_type": "large", "segment_pool_id": []int{0, 0},
				"blocks": []map[string]any{{"address": addr, "size": size, "requested_size": size, "state": "active_allocated", "frames": frames}}})
			addr += size
		}
		for range params {
			add(paramSize, 30)
		}
		for range leaks {
			add(32<<20, 57)
		}
		trace := []map[string]any{
			{"action": "alloc", "addr": addr, "size": 512, "stream": 0, "time_us": endUS - 2000, "frames": []any{}},
			{"action": "free_requested", "addr": addr, "size": 512, "stream": 0, "time_us": endUS, "frames": []any{}},
		}
		b, err := json.Marshal(map[string]any{"segments": segs, "device_traces": [][]map[string]any{trace}})
		if err != nil {
			t.Fatal(err)
		}
		testutil.WriteFile(t, filepath.Join(dir, name), b)
	}
	for i := range 5 {
		write(fmt.Sprintf("rank0_step_%d00.json", i+1), "/proj/train.py", 8, 256<<20, i+1, t0+int64(i)*5*minute)
	}
	for i := range 5 {
		write(fmt.Sprintf("snapshot_%d.json", i), "/proj/eval.py", 10, 1<<30, 0, t0+(60+int64(i)*2)*minute)
	}
	const version = "test-1"
	cache := &ingest.DigestCache{Dir: t.TempDir()}
	for _, run := range []string{"no cache", "first", "re-run"} {
		t.Run(run, func(t *testing.T) {
			opt := ingest.LoadOptions{Location: time.UTC, Jobs: 1, Digest: true}
			if run != "no cache" {
				opt.Cache, opt.PointKind = cache, analyze.PointKind(version)
			}
			read, err := ingest.Load(context.Background(), dir, opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(read.Snapshots) != 10 {
				t.Fatalf("%d snapshots, skipped %+v; want 10", len(read.Snapshots), read.Skipped)
			}
			unread := 0
			for _, f := range read.Snapshots {
				if f.SegmentsUnread() {
					unread++
				}
			}
			if run == "re-run" && unread == 0 {
				t.Fatal("the re-run read every cached digest with its segments: the test does not reach that path")
			}
			placed := placement.Place(read)
			for _, f := range placed.Snapshots {
				want := 0
				if f.Path[:4] == "snap" {
					want = input.NoRank
				}
				if f.Rank != want {
					t.Errorf("%s: rank %d, want %d", f.Path, f.Rank, want)
				}
			}
			apart := false
			for _, n := range placed.Notes {
				apart = apart || n.Kind == placement.NoteUnrankedApart && n.Unranked.InTurn != nil
			}
			if !apart {
				t.Errorf("notes %+v: want the unranked dumps kept apart as processes in turn", placed.Notes)
			}
			// The analysis writes the point entries the re-run reads.
			analyze.Analyze(read, analyze.Options{SideVersion: version})
		})
	}
}
