package train

import (
	"fmt"
	"testing"
)

// TestFragmentationLabelIsTheRuns: the fragmentation flag is the run's,
// so a rank other than the leaking one that fragments its cache sets it;
// growth by the first optimizer step is warm-up.
func TestFragmentationLabelIsTheRuns(t *testing.T) {
	const gib = int64(1) << 30
	sp := &Spec{GPU: GPU{"NVIDIA A100-SXM4-40GB", 40960}}
	// series gives one rank's periodic dumps from step first on: 3 GiB
	// allocated throughout, reserved from 6 GiB up by the given GiB steps,
	// the rise held as cached free memory.
	series := func(rank, first int, rises ...int64) []SnapInfo {
		reserved := 6 * gib
		var out []SnapInfo
		for i := range 8 {
			if i < len(rises) {
				reserved += rises[i] * gib
			}
			out = append(out, SnapInfo{Rank: rank, Step: first + i, Allocated: 3 * gib, Reserved: reserved, Inactive: reserved - 3*gib})
		}
		return out
	}
	flat, grows := series(0, 1), series(1, 1, 0, 2, 0, 2)
	tests := []struct {
		name  string
		snaps []SnapInfo
		want  bool
	}{
		{"flat rank", flat, false},
		{"growing rank", grows, true},
		{"a flat rank beside a growing one", append(append([]SnapInfo{}, flat...), grows...), true},
		// From step 0 on, 5 GiB in two rises; from step 1 on, 1 GiB.
		{"warm-up at the first step", series(0, 0, 0, 4, 0, 1), false},
		{"the same growth after the first step", series(0, 1, 0, 4, 0, 1), true},
	}
	for _, tt := range tests {
		if got := anyRankFragGrowth(sp, &Result{Spec: sp, Snapshots: tt.snaps}); got != tt.want {
			t.Errorf("%s: fragmentation %v, want %v", tt.name, got, tt.want)
		}
	}
	// The leaking rank alone, as the label used to judge it, misses it.
	if fragGrowth(sp, flat) {
		t.Errorf("the flat rank alone reads as fragmentation")
	}
}

// TestLeakLabelWantsRepeatedGrowth: a planted leak is labelled a leak
// only when the periodic snapshots see its bytes rise at least twice; a
// single rise (pieces so large that the device runs out at the third) is
// a one-time step, and the draw is rejected for a leak scenario.
func TestLeakLabelWantsRepeatedGrowth(t *testing.T) {
	const gib = int64(1) << 30
	tests := []struct {
		name  string
		live  []int64 // the leak's live GiB at each periodic snapshot
		rises int
		leak  bool
	}{
		{"flat", []int64{1, 1, 1, 1, 1}, 0, false},
		{"one step", []int64{7, 7, 7, 14, 14, 14}, 1, false},
		{"two steps", []int64{7, 7, 14, 14, 21, 21}, 2, true},
		{"every snapshot", []int64{1, 2, 3, 4, 5}, 4, true},
		{"freed and made again", []int64{2, 0, 2, 2, 2}, 1, false},
	}
	for _, tt := range tests {
		var snaps []SnapInfo
		for i, l := range tt.live {
			snaps = append(snaps, SnapInfo{Path: fmt.Sprintf("snapshot_%d.pickle", i), Step: 10 * i, Allocated: 20 * gib, Reserved: 22 * gib, LeakLive: l * gib})
		}
		if got := leakRises(snaps); got != tt.rises {
			t.Errorf("%s: %d rises, want %d", tt.name, got, tt.rises)
		}
		sp, err := Draw(ScLeakSteady, 1)
		if err != nil {
			t.Fatal(err)
		}
		lab, err := Judge(ScLeakSteady, sp, &Result{Spec: sp, Snapshots: snaps, LeakSite: "train.py:57"})
		if lab.Expect.Leak != tt.leak {
			t.Errorf("%s: leak label %v, want %v", tt.name, lab.Expect.Leak, tt.leak)
		}
		if (err == nil) != tt.leak {
			t.Errorf("%s: the leak scenario's draw accepted %v (err %v), want %v", tt.name, err == nil, err, tt.leak)
		}
	}
}
