package analyze

import (
	"testing"
	"time"

	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// TestReconcileAcrossDumps builds the class of run whose snapshots are
// dumped at step boundaries while nvidia-smi reads every 2 s: each dump
// holds the loop for half a second, the next step then maps new segments
// (more each step: a history tensor re-created bigger), and the step's
// end releases them back to the snapshot's level. Memory outside the
// allocator is 400 MiB throughout, or grows 50 MiB a snapshot. Matching
// each snapshot by interpolating between the readings around it added a
// share of the growing rise after the dump and read as memory outside
// the allocator growing; now only the true growth does. Where the step
// also held its segments until just before the dump (nine of the 32, most
// of them late, the last among them), both readings around it are high,
// more so each time, and those matches alone must not make a trend
// either.
func TestReconcileAcrossDumps(t *testing.T) {
	const n = 32
	// The dumps a release comes just before: irregular, more of them late.
	releaseBefore := map[int]bool{10: true, 12: true, 15: true, 17: true, 20: true, 22: true, 24: true, 27: true, 31: true}
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	snapAt := func(i int) time.Time { return t0.Add(time.Duration(i)*time.Minute + 700*time.Millisecond) }
	reserved := func(i int) int64 { return 8*gib + int64(i)*100*mib }
	tests := []struct {
		name        string
		outsideStep int64 // bytes outside the allocator added at each snapshot
		releases    bool  // some snapshots also have a release just before them (releaseBefore)
		want        bool
	}{
		{"rising after each dump", 0, false, false},
		{"rising after each dump, releasing before some", 0, true, false},
		{"outside growth beside the rises", 50 * mib, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &Device{Axis: AxisStep, Capacity: 80 * gib, GPU: &GPUSeries{}}
			times := make([]time.Time, n)
			x := make([]float64, n)
			for i := range n {
				times[i] = snapAt(i)
				x[i] = float64(10 * i)
				d.Points = append(d.Points, Point{Step: int64(10 * i), X: x[i], Time: times[i], Usage: Usage{Reserved: reserved(i)}})
			}
			end := snapAt(n - 1).Add(30 * time.Second)
			for at := t0.Add(-10 * time.Second); at.Before(end); at = at.Add(2 * time.Second) {
				// The last snapshot at or before the reading; after the
				// dump its step's new segments, released at the step's
				// end to the next snapshot's level.
				k := int(at.Sub(t0) / time.Minute)
				if at.Before(snapAt(k)) {
					k--
				}
				k = min(k, n-1)
				since := at.Sub(snapAt(max(k, 0)))
				used := reserved(max(k, 0)) + 400*mib + int64(max(k, 0))*tt.outsideStep
				switch {
				case k < 0:
				case since > 500*time.Millisecond && since < 50*time.Second:
					used += int64(k) * 300 * mib
				case since >= 50*time.Second && k+1 < n:
					used = reserved(k+1) + 400*mib + int64(k+1)*tt.outsideStep
					if tt.releases && releaseBefore[k+1] {
						// The step's segments held until a release just
						// before the dump.
						used += int64(k) * 300 * mib
					}
				}
				// nvidia-smi's MiB, with a MiB of jitter from one minute to
				// the next.
				used += (at.Unix()/60*7%3 - 1) * mib
				d.GPU.Times = append(d.GPU.Times, at)
				d.GPU.Used = append(d.GPU.Used, used)
			}
			rc := reconcile(d, times, x, units.PerStep, DefaultTrendRules(), nil)
			if rc == nil || rc.Matched != n {
				t.Fatalf("reconciliation %+v, want %d matches", rc, n)
			}
			if rc.OutsideLeak != tt.want {
				t.Errorf("outside leak %v, want %v (%+v, trend %+v, series %v)", rc.OutsideLeak, tt.want, rc.Why, rc.Trend, rc.NonPyTorch)
			}
			if lvl := rc.Level; tt.outsideStep == 0 && (lvl < float64(399*mib) || lvl > float64(401*mib)) {
				t.Errorf("outside level %v MiB, want 400", lvl/float64(mib))
			}
		})
	}
}

// TestOutsideTrendOfLoneMatches fits memory outside the allocator that
// holds at one level but for lone matches far above it, higher each time
// and the last match among them (a step's segments held until a release
// just before some dumps, its next step's growth right after them): the
// lower envelope is flat. Fitted on the matches themselves, the lone
// ones made steady growth.
func TestOutsideTrendOfLoneMatches(t *testing.T) {
	// Matches at steps 1 to 31 but 29, in MiB: 326-328 with lone ones far
	// above (a generated run's, held-out seed 43's leak-concat-004).
	mibs := []int64{327, 326, 327, 326, 326, 327, 327, 327, 326, 3590, 327, 4237, 327, 327, 5205, 327,
		5852, 327, 328, 6819, 326, 7465, 327, 8108, 328, 327, 9077, 326, 327, 10369}
	var xs, ys []float64
	for i, v := range mibs {
		x := i + 1
		if x >= 29 {
			x++
		}
		xs = append(xs, float64(x))
		ys = append(ys, float64(v*mib))
	}
	r := DefaultTrendRules()
	r.NoEnvelope = true
	r.RefLevel = float64(20 * gib)
	if tr := FitTrend(MetricNonPyTorch, units.PerStep, xs, ys, r); tr.State != StateGrowing {
		t.Fatalf("the matches themselves: %s (%s); the case no longer tells the envelope apart", tr.State, tr.Pattern)
	}
	if tr := FitTrend(MetricNonPyTorch, units.PerStep, xs, stats.NeighbourMin(ys), r); tr.State == StateGrowing {
		t.Errorf("the lower envelope grows: %s, %v", tr.Pattern, tr.Growth)
	}
}
