package analyze

import (
	"slices"
	"testing"
)

// TestBoundedNoForecast: a growing allocated trend whose growth is a
// bounded container's (its blocks turn over) gets no time to capacity
// beside the verdict of no leak, but Bounded in its place; a leak's
// growth, or growth beside a leak, keeps its forecast.
func TestBoundedNoForecast(t *testing.T) {
	site := stackAt("train.py", 57, "train_step")
	list := make([][]sblock, 16)
	for k := range list {
		for b := 0; b <= k; b++ {
			list[k] = append(list[k], sblock{addr: slot(b), size: 24 * mib, frames: site})
		}
	}
	cache := driftCache(16, 8, 4, stackAt("replay.py", 33, "push"))
	both := make([][]sblock, 16)
	for k := range both {
		both[k] = append(slices.Clone(cache[k]), list[k]...)
	}
	for _, tt := range []struct {
		name    string
		snaps   [][]sblock
		bounded bool
	}{
		{"cache of 8, drifting up", cache, true},
		{"list that keeps its tensors", list, false},
		{"the cache beside the list", both, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(blocksRun(tt.snaps), Options{Capacity: 8 * gib, CapacitySource: "--capacity"})
			CheckProse(t, t.Name(), f)
			at := f.Devices[0].Trend(MetricAllocated)
			if at == nil || at.State != StateGrowing {
				t.Fatalf("allocated %+v", at)
			}
			if f.Verdict.Leak == tt.bounded {
				t.Errorf("leak %v", f.Verdict.Leak)
			}
			if (at.Bounded != nil) != tt.bounded || (at.Projection == nil) != tt.bounded {
				t.Errorf("bounded %+v, projection %+v", at.Bounded, at.Projection)
			}
			if tt.bounded && (at.Bounded.Site != "replay.py:33" || at.Bounded.Containers != 1) {
				t.Errorf("bounded %+v", at.Bounded)
			}
		})
	}
}
