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
		// Times of day without seconds are part of the timestamp.
		{"mem_2024-05-01_10-40.pickle", ts("2024-05-01 10:40:00"), OrderTimestamp},
		{"mem_20240501_1040.pickle", ts("2024-05-01 10:40:00"), OrderTimestamp},
		{"mem_2024-05-01T10-40.pickle", ts("2024-05-01 10:40:00"), OrderTimestamp},
		{"mem_2024-05-01_10:40_rank1.pickle", ts("2024-05-01 10:40:00"), OrderTimestamp},
		{"mem_202405011040.pickle", ts("2024-05-01 10:40:00"), OrderTimestamp},
		// Digits after a date that are no hour and minute leave the date.
		{"mem_20240501_123.pickle", ts("2024-05-01 00:00:00"), OrderTimestamp},
		{"mem_20240501_12345.pickle", ts("2024-05-01 00:00:00"), OrderTimestamp},
		{"mem_2024-05-01_7.pickle", ts("2024-05-01 00:00:00"), OrderTimestamp},
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

// TestParseNameAtDates checks date-times whose names carry no year
// (PyTorch's recipe, "%b_%d_%H_%M_%S"): the year is the latest that does
// not put the name more than a day after the file time, so a run across
// New Year keeps its order, and the names order as times, not counters.
func TestParseNameAtDates(t *testing.T) {
	at := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	tests := []struct {
		name string
		mod  time.Time
		want time.Time
	}{
		{"trainer_Sep_30_23_52_00.pickle", at(2025, 9, 30, 23, 52, 3), at(2025, 9, 30, 23, 52, 0)},
		{"gpu-a_Oct_01_00_01_00.pickle", at(2025, 10, 1, 0, 1, 2), at(2025, 10, 1, 0, 1, 0)},
		// Written on Dec 31, copied on Jan 2: last year.
		{"host_Dec_31_23_58_00.pickle", at(2026, 1, 2, 8, 0, 0), at(2025, 12, 31, 23, 58, 0)},
		{"host_Jan_01_00_03_00.pickle", at(2026, 1, 2, 8, 0, 0), at(2026, 1, 1, 0, 3, 0)},
		// A name in a zone ahead of UTC may be hours after its file time.
		{"host_Mar_02_09_00_00.pickle", at(2026, 3, 2, 0, 0, 5), at(2026, 3, 2, 9, 0, 0)},
		{"dump-jul-4_12_00_00.pickle", at(2024, 8, 1, 0, 0, 0), at(2024, 7, 4, 12, 0, 0)},
		// Without seconds ("%b_%d_%H_%M").
		{"host_Sep_30_23_52.pickle", at(2025, 10, 1, 0, 0, 0), at(2025, 9, 30, 23, 52, 0)},
		{"host_May_01_10-40_rank2.pickle", at(2025, 5, 1, 11, 0, 0), at(2025, 5, 1, 10, 40, 0)},
		// Without a file time: noYear.
		{"host_Feb_29_10_00_00.pickle", time.Time{}, at(noYear, 2, 29, 10, 0, 0)},
	}
	for _, tt := range tests {
		n := ParseNameAt(tt.name, tt.mod)
		if n.OrderKind != OrderTimestamp || n.Order != tt.want.UnixNano() || n.Step != input.NoStep {
			t.Errorf("%s: %+v (%v), want the timestamp %v", tt.name, n, time.Unix(0, n.Order).UTC(), tt.want)
		}
	}
	// Words that look like months but are no date-time stay counters.
	for _, name := range []string{"summary_3.pickle", "decoder_12.pickle", "mar_snapshot_5.pickle"} {
		if n := ParseName(name); n.OrderKind != OrderIndex {
			t.Errorf("%s: %+v, want a dump counter", name, n)
		}
	}
}

// TestParseNameEpochsAndCheckpoints checks the epoch a path names (file
// name first, else the nearest folder) and the step of a Hugging Face
// Trainer checkpoint folder.
func TestParseNameEpochsAndCheckpoints(t *testing.T) {
	tests := []struct {
		name        string
		step, epoch int64
	}{
		{"epoch3_step100.pickle", 100, 3},
		{"epoch_02/snapshot_step_200.pickle", 200, 2},
		{"epoch_00/iter_000100.pickle", 100, 0},
		{"ep-1/epoch_4/snap_step_5.pickle", 5, 4},
		{"epoch_1/run_epoch2_step7.pickle", 7, 2},
		{"snapshot_step_100.pickle", 100, NoEpoch},
		{"outputs/checkpoint-500/memory_snapshot.pickle", 500, NoEpoch},
		{"checkpoint-500/global_step120/snap.pickle", 120, NoEpoch},
		{"checkpoint-500/snap_step_7.pickle", 7, NoEpoch},
		// Only the Trainer's folder form is a step.
		{"checkpoint_3.pickle", input.NoStep, NoEpoch},
		{"my-checkpoint-5/snap.pickle", input.NoStep, NoEpoch},
	}
	for _, tt := range tests {
		n := ParseName(tt.name)
		if n.Step != tt.step || n.Epoch != tt.epoch {
			t.Errorf("%s: step %d epoch %d, want %d %d", tt.name, n.Step, n.Epoch, tt.step, tt.epoch)
		}
	}
}

// TestTimelessPath checks that the timestamp a name's order comes from is
// written as one "*", and nothing else is.
func TestTimelessPath(t *testing.T) {
	for in, want := range map[string]string{
		"gpu-a_Sep_28_23_50_00.pickle":           "gpu-a_*.pickle",
		"host/snap_20241105_153012_rank1.pickle": "host/snap_*_rank1.pickle",
		"node-b/snap_2024-11-05.pickle":          "node-b/snap_*.pickle",
		"mem_2024-05-01_10-40.pickle":            "mem_*.pickle",
		"mem_20240501_1040_gpu-a.pickle":         "mem_*_gpu-a.pickle",
		"mem_2024-05-01T10-40.pickle":            "mem_*.pickle",
		"host_Sep_30_23_52.pickle":               "host_*.pickle",
		"mem_20240501_123.pickle":                "mem_*_123.pickle",
		"w3/snap_1700000000123.pickle":           "w3/snap_*.pickle",
		"snapshot_step_100_gpu-node-a.pickle":    "snapshot_step_100_gpu-node-a.pickle",
		`win\mem_3.pkl`:                          "win/mem_3.pkl",
	} {
		if got := TimelessPath(in); got != want {
			t.Errorf("TimelessPath(%q) = %q, want %q", in, got, want)
		}
	}
}
