package report

import (
	"math"
	"strings"
	"testing"

	"gpureport/analyze"
)

// TestProjectionText: wherever a projection is shown it says the
// wall-clock time left when the run's pace is known, even far beyond the
// run's length (a sample run's leak that fills the device in 45 minutes
// once read "does not reach 22.0 GiB within 10× the run's length"), and
// names the limit it projects against.
func TestProjectionText(t *testing.T) {
	basis := "22.5 GiB device memory (GPU log memory.total) minus 512 MiB outside the allocator"
	cases := []struct {
		name    string
		per     string
		p       analyze.Projection
		want    []string
		mustNot []string
	}{
		{"beyond the horizon, pace known", "step",
			analyze.Projection{Capacity: 22 << 30, Basis: basis, Remaining: 3327, RemainingLo: 3318, RemainingHi: 3335, Hours: 0.7437, HoursLo: 0.742, HoursHi: 0.746, Beyond: true, Horizon: 10},
			[]string{"reaches 22.0 GiB in about 45 min at the run's pace", "3,327 steps at this rate", "long extrapolation", "limit: " + basis},
			[]string{"does not reach", "45 min to 45 min"}},
		{"within the run, hours interval", "step",
			analyze.Projection{Capacity: 40 << 30, Basis: "40.0 GiB --capacity", Remaining: 41567, RemainingLo: 37788, RemainingHi: 46185, Hours: 69.4, HoursLo: 62.9, HoursHi: 77.0, Horizon: 10},
			[]string{"in about 2.89 days at the run's pace (95% CI 2.62 days to 3.21 days; 41,567 steps at this rate)", "limit: 40.0 GiB --capacity"},
			[]string{"extrapolation"}},
		{"pace unknown", "step",
			analyze.Projection{Capacity: 80 << 30, Remaining: 1200, RemainingLo: 1000, RemainingHi: math.Inf(1), Horizon: 10},
			[]string{"reaches 80.0 GiB in about 1,200 steps", "95% CI 1,000 steps to never"},
			[]string{"at the run's pace"}},
		{"hour axis", "hour",
			analyze.Projection{Capacity: 80 << 30, Remaining: 3.5, RemainingLo: 3, RemainingHi: 4, Horizon: 10},
			[]string{"reaches 80.0 GiB in about 3.50 hours", "95% CI 3.00 hours to 4.00 hours"}, nil},
		{"already over", "step",
			analyze.Projection{Capacity: 80 << 30, Basis: basis, Remaining: 0},
			[]string{"already at or over the limit (80.0 GiB); limit: " + basis}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			tr := &analyze.Trend{Per: c.per, Verdict: analyze.VerdictGrowing, Projection: &p}
			got := projectionText(tr, 100)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q\nlacks %q", got, w)
				}
			}
			for _, w := range c.mustNot {
				if strings.Contains(got, w) {
					t.Errorf("%q\nhas %q", got, w)
				}
			}
		})
	}
	if got := projectionText(nil, 0); got != "" {
		t.Errorf("nil trend: %q", got)
	}
}
