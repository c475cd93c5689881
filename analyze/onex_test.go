package analyze

import (
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestFitTrendOneX: points that all sit at one x (readings that all gave
// one step) have no axis to fit a rate on; a significant rise in their
// order is then "insufficient", never "flat". Two x values or more are
// fitted as before.
func TestFitTrendOneX(t *testing.T) {
	rising := make([]float64, 10)
	for i := range rising {
		rising[i] = 20e9 + float64(i)*256e6
	}
	for _, tt := range []struct {
		name string
		x    []float64
		want TrendState
		rule TrendRule
	}{
		{"all at one step", []float64{90, 90, 90, 90, 90, 90, 90, 90, 90, 90}, StateInsufficient, RuleOneX},
		{"increasing steps", []float64{90, 190, 290, 390, 490, 590, 690, 790, 890, 990}, StateGrowing, RuleGrows},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := FitTrend(MetricAllocated, AxisStep, tt.x, rising, DefaultTrendRules())
			if tr.State != tt.want || tr.Why.Rule != tt.rule {
				t.Errorf("state %s rule %q, want %s %q", tr.State, tr.Why.Rule, tt.want, tt.rule)
			}
		})
	}
}

// TestOrderMemStatsOneStep: readings that all give the same step are not
// put on a step axis (one x for all): their times place them when all
// have one, else their order in the log.
func TestOrderMemStatsOneStep(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		steps []int64
		timed bool
		order string
		axis  Axis
	}{
		{"one step, no times", []int64{90, 90, 90}, false, "log order", AxisReading},
		{"one step, times", []int64{90, 90, 90}, true, "time", AxisHours},
		{"steps", []int64{90, 190, 290}, false, "step", AxisStep},
		{"one reading", []int64{90}, false, "step", AxisStep},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := &memStatsGroup{ms: &MemoryStatsSeries{}}
			for i, s := range tt.steps {
				r := gpulog.MemoryStatsSample{Step: s, Rank: input.NoRank, Allocated: int64(i+1) << 30}
				if tt.timed {
					r.Time = t0.Add(time.Duration(i) * time.Minute)
				}
				g.ms.Readings = append(g.ms.Readings, r)
			}
			orderMemStats(g)
			if g.ms.Order != tt.order || g.axis != tt.axis {
				t.Errorf("order %q axis %q, want %q %q", g.ms.Order, g.axis, tt.order, tt.axis)
			}
		})
	}
}
