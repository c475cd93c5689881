package ingest

import "testing"

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
		{"snapshot_epoch3.pt", 3},
		{"snapshot_000120.pickle", 120},
		{"rank2_snapshot_77.pickle", 77},
		{"gpu0_snapshot_5.pkl", 5},
		{"rank_1.pickle", NoStep},
		{"snapshot.pickle", NoStep},
		{"dump_snapshot.pickle", NoStep},
		{"cuda1.pickle", NoStep},
		{"empty_4dev_expandable.pickle", NoStep},
		{"snap_200_4dev.pickle", 200},
		{"snapshot123.pickle", 123},
	}
	for _, tt := range tests {
		if got := StepFromName(tt.name); got != tt.want {
			t.Errorf("StepFromName(%q) = %d, want %d", tt.name, got, tt.want)
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
		{"run/snap_1.pickle", NoRank},
		{"run/cranky1/snap.pickle", NoRank},
		{"rank0/sub/rank1/snap.pickle", 1},
	}
	for _, tt := range tests {
		if got := RankFromPath(tt.path); got != tt.want {
			t.Errorf("RankFromPath(%q) = %d, want %d", tt.path, got, tt.want)
		}
	}
}
