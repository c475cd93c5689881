package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpureport/ingest/ingesttest"
	"gpureport/input"
)

// TestLoadRunLayouts lays out the runs that common trainers write, with a
// small real snapshot linked (not copied) under each name, and checks
// what Load reads from the names: step, rank, order and phase.
func TestLoadRunLayouts(t *testing.T) {
	real := ingesttest.RealFiles(t, "snapshots", "tiny_2dev_expandable_maxsplit128.pickle")[0]
	type want struct {
		step  int64
		rank  int
		kind  OrderKind
		order int64
		phase Phase
	}
	tests := []struct {
		name  string
		files map[string]want
	}{
		{"torchtitan", map[string]want{
			"outputs/memory_snapshot/iteration_10/rank0_memory_snapshot.pickle":      {10, 0, OrderNone, 0, PhasePeriodic},
			"outputs/memory_snapshot/iteration_10/rank1_memory_snapshot.pickle":      {10, 1, OrderNone, 0, PhasePeriodic},
			"outputs/memory_snapshot/iteration_20/rank0_memory_snapshot.pickle":      {20, 0, OrderNone, 0, PhasePeriodic},
			"outputs/memory_snapshot/iteration_20/rank1_memory_snapshot.pickle":      {20, 1, OrderNone, 0, PhasePeriodic},
			"outputs/memory_snapshot/iteration_24_exit/rank0_memory_snapshot.pickle": {24, 0, OrderNone, 0, PhaseOOM},
			"outputs/memory_snapshot/iteration_24_exit/rank1_memory_snapshot.pickle": {24, 1, OrderNone, 0, PhaseOOM},
		}},
		{"rank folders rankN", map[string]want{
			"rank0/snapshot_step_5.pickle": {5, 0, OrderNone, 0, PhasePeriodic},
			"rank3/snapshot_step_5.pickle": {5, 3, OrderNone, 0, PhasePeriodic},
		}},
		// Local ranks on two nodes: Load numbers the four processes as
		// global ranks (processes.go).
		{"local rank folders on two nodes", map[string]want{
			"node0/rank0/snapshot_step_5.pickle":  {5, 0, OrderNone, 0, PhasePeriodic},
			"node0/rank0/snapshot_step_10.pickle": {10, 0, OrderNone, 0, PhasePeriodic},
			"node0/rank1/snapshot_step_5.pickle":  {5, 1, OrderNone, 0, PhasePeriodic},
			"node0/rank1/snapshot_step_10.pickle": {10, 1, OrderNone, 0, PhasePeriodic},
			"node1/rank0/snapshot_step_5.pickle":  {5, 2, OrderNone, 0, PhasePeriodic},
			"node1/rank0/snapshot_step_10.pickle": {10, 2, OrderNone, 0, PhasePeriodic},
			"node1/rank1/snapshot_step_5.pickle":  {5, 3, OrderNone, 0, PhasePeriodic},
			"node1/rank1/snapshot_step_10.pickle": {10, 3, OrderNone, 0, PhasePeriodic},
		}},
		{"rank folders rN", map[string]want{
			"r0/snapshot_step_5.pickle": {5, 0, OrderNone, 0, PhasePeriodic},
			"r3/snapshot_step_5.pickle": {5, 3, OrderNone, 0, PhasePeriodic},
		}},
		{"rank folders local_rank_N", map[string]want{
			"local_rank_0/snapshot_step_5.pickle": {5, 0, OrderNone, 0, PhasePeriodic},
			"local_rank_3/snapshot_step_5.pickle": {5, 3, OrderNone, 0, PhasePeriodic},
		}},
		{"step in folder names", map[string]want{
			"snapshots/step_100/snap.pickle": {100, input.NoRank, OrderNone, 0, PhasePeriodic},
			"snapshots/iter-200/snap.pickle": {200, input.NoRank, OrderNone, 0, PhasePeriodic},
		}},
		{"index names", map[string]want{
			"mem_snapshot_3.pkl":  {input.NoStep, input.NoRank, OrderIndex, 3, PhasePeriodic},
			"mem_snapshot_10.pkl": {input.NoStep, input.NoRank, OrderIndex, 10, PhasePeriodic},
		}},
		{"epoch names", map[string]want{
			"snapshot_epoch4.pickle": {input.NoStep, input.NoRank, OrderEpoch, 4, PhasePeriodic},
			"snapshot_epoch5.pickle": {input.NoStep, input.NoRank, OrderEpoch, 5, PhasePeriodic},
		}},
		{"timestamp names", map[string]want{
			"snapshot_1700000000.pickle":      {input.NoStep, input.NoRank, OrderTimestamp, 1700000000e9, PhasePeriodic},
			"snapshot_20231114_221320.pickle": {input.NoStep, input.NoRank, OrderTimestamp, 1700000000e9, PhasePeriodic},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(real, p); err != nil {
					t.Fatal(err)
				}
			}
			run, err := Load(context.Background(), dir, LoadOptions{Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Snapshots) != len(tt.files) || len(run.Skipped) != 0 {
				t.Fatalf("%d snapshots, skipped %v; want %d", len(run.Snapshots), run.Skipped, len(tt.files))
			}
			var seen []string
			for _, f := range run.Snapshots {
				w, ok := tt.files[f.Path]
				if !ok {
					t.Errorf("unexpected %s", f.Path)
					continue
				}
				seen = append(seen, f.Path)
				got := want{f.Step, f.Rank, f.OrderKind, f.Order, f.Phase}
				if w.kind == OrderNone {
					got.order = 0
				}
				if got != w {
					t.Errorf("%s: got %+v, want %+v", f.Path, got, w)
				}
			}
			slices.Sort(seen)
			if len(slices.Compact(seen)) != len(tt.files) {
				t.Errorf("read %s", strings.Join(seen, ", "))
			}
		})
	}
}

// FuzzParseName checks that any path parses without panic into a
// consistent NameInfo: steps and ranks are not negative unless absent, an
// order is set only with its kind, and a path without digits has neither
// a step, an order nor a rank. Seeds are the real snapshots' names and
// the trainer layouts above.
func FuzzParseName(f *testing.F) {
	for _, p := range ingesttest.RealFiles(f, "snapshots", "*") {
		f.Add(ingesttest.Rel(f, p))
	}
	for _, s := range []string{
		"outputs/memory_snapshot/iteration_24_exit/rank1_memory_snapshot.pickle",
		"r3/mem_snapshot_3.pkl", "local_rank_2/snapshot_epoch4.pickle",
		"snapshot_20231114_221320.pickle", "snapshot_1700000000123.pickle.gz",
		"step_10/sub/iter_7/snap.pickle", `win\rank2\snap_step_9.pkl`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		n := ParseName(p)
		if n.Step < input.NoStep || n.Rank < input.NoRank {
			t.Errorf("%q: step %d rank %d", p, n.Step, n.Rank)
		}
		if n.OrderKind == OrderNone && n.Order != 0 {
			t.Errorf("%q: order %d without a kind", p, n.Order)
		}
		if !strings.ContainsAny(p, "0123456789") && (n.Step != input.NoStep || n.OrderKind != OrderNone || n.Rank != input.NoRank) {
			t.Errorf("%q: no digits but %+v", p, n)
		}
		if n != ParseName(p) {
			t.Errorf("%q: not deterministic", p)
		}
	})
}
