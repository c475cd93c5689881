package ingest

import (
	"testing"
	"time"

	"gpureport/input"
)

func TestStepFromName(t *testing.T) {
	tests := []struct {
		name string
		want int64
	}{
		{"snapshot_step_100.pickle", 100},
		{"run/rank3/snapshot_step_9.pickle", 9},
		{"mem_iter-42.pkl", 42},
		{"global_step=30.pickle.gz", 30},
		{"snapshot_epoch3_step12.pickle", 12},
		// An epoch is not a step.
		{"snapshot_epoch3.pt", input.NoStep},
		{"snapshot_epoch4", input.NoStep},
		// A bare number is a dump counter, not a step.
		{"snapshot_000120.pickle", input.NoStep},
		{"mem_snapshot_3.pkl", input.NoStep},
		{"rank2_snapshot_77.pickle", input.NoStep},
		{"snapshot123.pickle", input.NoStep},
		// Timestamps are not steps.
		{"snapshot_20241105_153012.pickle", input.NoStep},
		{"snapshot_1700000000.pickle", input.NoStep},
		{"rank_1.pickle", input.NoStep},
		{"snapshot.pickle", input.NoStep},
		{"cuda1.pickle", input.NoStep},
		// Steps from folder names, the nearest folder winning.
		{"memory_snapshot/iteration_20/rank0_memory_snapshot.pickle", 20},
		{"memory_snapshot/iteration_20_exit/rank3_memory_snapshot.pickle", 20},
		{"step_10/sub/iter_7/snap.pickle", 7},
		{"step_10/snap_step_11.pickle", 11},
		{"epoch_2/snap.pickle", input.NoStep},
	}
	for _, tt := range tests {
		if got := StepFromName(tt.name); got != tt.want {
			t.Errorf("StepFromName(%q) = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestParseNameOrder(t *testing.T) {
	ts := func(s string) int64 {
		tm, err := time.Parse("2006-01-02 15:04:05", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixNano()
	}
	tests := []struct {
		name  string
		order int64
		kind  OrderKind
	}{
		{"mem_snapshot_3.pkl", 3, OrderIndex},
		{"snapshot_000120.pickle", 120, OrderIndex},
		{"gpu0_snapshot_5.pkl", 5, OrderIndex},
		{"snap_200_4dev.pickle", 200, OrderIndex},
		{"snapshot_epoch4", 4, OrderEpoch},
		{"snapshot_ep_7.pickle", 7, OrderEpoch},
		{"snapshot_20241105_153012.pickle", ts("2024-11-05 15:30:12"), OrderTimestamp},
		{"snapshot_2024-11-05T15-30-12.pickle", ts("2024-11-05 15:30:12"), OrderTimestamp},
		{"snapshot_20241105.pickle", ts("2024-11-05 00:00:00"), OrderTimestamp},
		{"snapshot_1700000000.pickle", 1700000000 * int64(time.Second), OrderTimestamp},
		{"snapshot_1700000000123.pickle", 1700000000123 * int64(time.Millisecond), OrderTimestamp},
		{"snapshot.pickle", 0, OrderNone},
		{"empty_4dev_expandable.pickle", 0, OrderNone},
		{"rank_1.pickle", 0, OrderNone},
	}
	for _, tt := range tests {
		got := ParseName(tt.name)
		if got.Order != tt.order || got.OrderKind != tt.kind {
			t.Errorf("ParseName(%q) order = %d (%q), want %d (%q)", tt.name, got.Order, got.OrderKind, tt.order, tt.kind)
		}
	}
}

func TestParseNamePhase(t *testing.T) {
	tests := []struct {
		name string
		want Phase
	}{
		{"memory_snapshot/iteration_10/rank0_memory_snapshot.pickle", PhasePeriodic},
		{"memory_snapshot/iteration_10_exit/rank0_memory_snapshot.pickle", PhaseOOM},
		{"oom_snapshot.pickle", PhaseOOM},
		{"snapshot-on-crash.pkl", PhaseOOM},
		{"snapshot_step_5_oom.pickle", PhaseOOM},
		{"zoom_step_5.pickle", PhasePeriodic},
		{"exiting_step_5.pickle", PhasePeriodic},
		{"snapshot_step_5.pickle", PhasePeriodic},
	}
	for _, tt := range tests {
		if got := ParseName(tt.name).Phase; got != tt.want {
			t.Errorf("ParseName(%q).Phase = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestRankFromPath(t *testing.T) {
	tests := []struct {
		path string
		want int
	}{
		{"run/rank3/snap_1.pickle", 3},
		{"run/rank_3/snap_1.pickle", 3},
		{"run/RANK-12/snap_1.pickle", 12},
		{"run/snap_rank7_step3.pickle", 7},
		{"run/local_rank_2/snap.pickle", 2},
		{"run/r3/snap.pickle", 3},
		{"r_5/snap.pickle", 5},
		{"memory_snapshot/iteration_4/rank6_memory_snapshot.pickle", 6},
		{"run/r3.pickle", input.NoRank},
		{"run/ar3/snap.pickle", input.NoRank},
		{"run/snap_1.pickle", input.NoRank},
		{"run/cranky1/snap.pickle", input.NoRank},
		{"rank0/sub/rank1/snap.pickle", 1},
		{"rank0/r1/snap.pickle", 1},
	}
	for _, tt := range tests {
		if got := RankFromPath(tt.path); got != tt.want {
			t.Errorf("RankFromPath(%q) = %d, want %d", tt.path, got, tt.want)
		}
	}
}
