package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestOverviewRiskMixedUnits: the overview compares what is comparable
// across runs and devices, never bytes per step with bytes per hour or
// per reading: a device that ran out first, then the shortest time to
// capacity in hours, then the fastest growth per hour (an hours axis, or a
// step axis at the pace analyze projected with), then the steepest slope
// within one unit. Each case's largest raw number (what the overview
// picked before) is another unit's.
func TestOverviewRiskMixedUnits(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	const mib = 1 << 20
	// step is a per-step trend; with hours > 0 analyze projected it
	// reaching capacity in rem steps and hours hours, at the pace it
	// gives the slope per hour with (rem/hours steps an hour).
	step := func(slope, rem, hours float64) SummaryTrend {
		t := SummaryTrend{Metric: "allocated_bytes", SlopeBytesPerStep: f64(slope)}
		if hours > 0 {
			t.CapacityAt, t.RemainingToCapacity, t.HoursToCapacity = f64(1000+rem), f64(rem), f64(hours)
			t.SlopeBytesPerHour = f64(slope * rem / hours)
		}
		return t
	}
	perHour := func(metric string, slope, hours float64) SummaryTrend {
		t := SummaryTrend{Metric: metric, SlopeBytesPerHour: f64(slope)}
		if hours > 0 {
			t.CapacityAt, t.RemainingToCapacity, t.HoursToCapacity = f64(hours), f64(hours), f64(hours)
		}
		return t
	}
	run := func(dir string, trends ...SummaryTrend) OverviewRun {
		s := &Summary{Run: dir}
		for _, tr := range trends {
			s.Devices = append(s.Devices, SummaryDevice{Trend: tr})
		}
		r := OverviewRunFromSummary(s)
		r.Severity = "warning"
		return r
	}
	ranOut := step(1*mib, 0, 0)
	ranOut.RanOut = &SummaryRanOut{From: "training log", Path: "train.log", Text: "an OOM at step 90"}
	runs := []OverviewRun{
		// Two devices: 1 GiB/hour of nvidia-smi used memory with no
		// capacity, and 10 MiB/step of allocated memory reaching capacity
		// in 2 hours (100 steps): the latter is at risk, at 500 MiB/hour.
		run("within", perHour("gpu_used_bytes", 1024*mib, 0), step(10*mib, 100, 2)),
		run("steps-no-pace", step(500*mib, 0, 0)),
		run("steps-slow", step(100*mib, 0, 0)),
		run("hours-5h", perHour("allocated_bytes", 100*mib, 5)),
		run("per-hour-no-capacity", perHour("gpu_used_bytes", 300*mib, 0)),
		run("readings", SummaryTrend{Metric: "gpu_used_bytes", SlopeBytesPerReading: f64(2048 * mib)}),
		run("ran-out", ranOut),
		run("at-capacity", SummaryTrend{Metric: "allocated_bytes", SlopeBytesPerStep: f64(mib), CapacityAt: f64(10), RemainingToCapacity: f64(0)}),
		run("none"),
	}
	RankRuns(runs)
	var order []string
	for _, r := range runs {
		order = append(order, r.Dir)
	}
	want := "ran-out at-capacity within hours-5h per-hour-no-capacity steps-no-pace steps-slow readings none"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("order\n%s, want\n%s", got, want)
	}
	page, err := OverviewHTML(&Overview{Runs: runs})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`&#43;10.0 MiB/step (&#43;500 MiB/hour)<br><span class="meta">allocated, capacity in 2.00 hours</span>`,
		`&#43;1.00 MiB/step<br><span class="meta">allocated, ran out of memory</span>`,
		`&#43;1.00 MiB/step<br><span class="meta">allocated, at capacity</span>`,
		`&#43;100 MiB/hour<br><span class="meta">allocated, capacity in 5.00 hours</span>`,
		`&#43;300 MiB/hour<br><span class="meta">nvidia-smi used</span>`,
		`&#43;500 MiB/step<br><span class="meta">allocated</span>`,
		`&#43;2.00 GiB/reading<br><span class="meta">nvidia-smi used</span>`,
	} {
		if !strings.Contains(string(page), w) {
			t.Errorf("overview lacks %s", w)
		}
	}
	// The overview parts keep what the ranking needs, for the shards'
	// runs to be ranked alike when merged.
	for _, r := range runs[:3] {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back OverviewRun
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if compareRisk(runRisk(r), runRisk(back)) != 0 || back.RanOut != r.RanOut {
			t.Errorf("%s: %s decodes to another risk", r.Dir, b)
		}
	}
}

// TestOverviewRanksByAnalyzePace: the overview's growth per hour is
// summary.json's trend.slope_bytes_per_hour, the figure analyze decided
// from the axis's pace, never one the overview derives itself: a step
// trend with that figure and no projection is compared by it (above
// every step trend without one), and a projected step trend without it
// (its pace unknown to analyze) gets no growth per hour from its
// remaining steps over its hours.
func TestOverviewRanksByAnalyzePace(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	const mib = 1 << 20
	type trend struct {
		dir                  string
		slopeStep, slopeHour *float64
		rem, hours           *float64
	}
	for _, tc := range []struct {
		name   string
		trends []trend
		// want is the runs in the overview's order; perHour each run's
		// growth per hour after them (nil: none).
		want    string
		perHour []*float64
	}{
		{
			name: "the per-hour figure ranks a step trend without a projection",
			trends: []trend{
				{dir: "steps-fast", slopeStep: f64(900 * mib)},
				{dir: "steps-paced", slopeStep: f64(mib), slopeHour: f64(60 * mib)},
			},
			want:    "steps-paced steps-fast",
			perHour: []*float64{f64(60 * mib), nil},
		},
		{
			name: "two paced step trends compare per hour, not per step",
			trends: []trend{
				{dir: "a-big-steps", slopeStep: f64(100 * mib), slopeHour: f64(10 * mib)},
				{dir: "b-small-steps", slopeStep: f64(mib), slopeHour: f64(300 * mib)},
			},
			want:    "b-small-steps a-big-steps",
			perHour: []*float64{f64(300 * mib), f64(10 * mib)},
		},
		{
			// Two devices at 5 hours to capacity: the tie goes to the
			// faster growth per hour as analyze gave it, though the
			// other's slope × remaining / hours is larger.
			name: "a tie in hours to capacity goes to analyze's growth per hour",
			trends: []trend{
				{dir: "derived-larger", slopeStep: f64(10 * mib), slopeHour: f64(mib), rem: f64(1000), hours: f64(5)},
				{dir: "figure-larger", slopeStep: f64(10 * mib), slopeHour: f64(2 * mib), rem: f64(10), hours: f64(5)},
			},
			want:    "figure-larger derived-larger",
			perHour: []*float64{f64(2 * mib), f64(mib)},
		},
		{
			name: "a projection without the figure derives none",
			trends: []trend{
				{dir: "projected-no-pace", slopeStep: f64(mib), rem: f64(100), hours: f64(3)},
				{dir: "steps", slopeStep: f64(mib)},
			},
			want:    "projected-no-pace steps",
			perHour: []*float64{nil, nil},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []OverviewRun
			for _, tr := range tc.trends {
				st := SummaryTrend{Metric: "allocated_bytes", SlopeBytesPerStep: tr.slopeStep, SlopeBytesPerHour: tr.slopeHour,
					RemainingToCapacity: tr.rem, HoursToCapacity: tr.hours}
				r := OverviewRunFromSummary(&Summary{Run: tr.dir, Devices: []SummaryDevice{{Trend: st}}})
				r.Severity = "warning"
				runs = append(runs, r)
			}
			RankRuns(runs)
			var order []string
			for i, r := range runs {
				order = append(order, r.Dir)
				if got, want := r.SlopePerHour, tc.perHour[i]; (got == nil) != (want == nil) || (got != nil && *got != *want) {
					t.Errorf("%s: slope per hour %v, want %v", r.Dir, deref(got), deref(want))
				}
				if r.SlopePer != "step" {
					t.Errorf("%s: slope per %q, want step (its own unit)", r.Dir, r.SlopePer)
				}
			}
			if got := strings.Join(order, " "); got != tc.want {
				t.Errorf("order %s, want %s", got, tc.want)
			}
		})
	}
}

// TestOverviewFlatNoGrowth: a trend analyze calls flat (a rise that
// stopped: its fitted slope is large and positive) neither ranks a run
// nor shows as its growth, whatever its slope per hour; a growing trend
// beside it does.
func TestOverviewFlatNoGrowth(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	const tib = 1 << 40
	flat := SummaryTrend{Metric: "gpu_used_bytes", SlopeBytesPerHour: f64(4.52 * tib), State: "flat"}
	growing := SummaryTrend{Metric: "allocated_bytes", SlopeBytesPerHour: f64(1 << 30), State: "growing"}
	for _, tt := range []struct {
		name   string
		trends []SummaryTrend
		want   float64 // NaN: no growth shown
	}{
		{"a flat rise alone", []SummaryTrend{flat}, math.NaN()},
		{"a flat rise beside growth", []SummaryTrend{flat, growing}, 1 << 30},
		{"growth alone", []SummaryTrend{growing}, 1 << 30},
	} {
		s := &Summary{Run: "r"}
		for _, tr := range tt.trends {
			s.Devices = append(s.Devices, SummaryDevice{Trend: tr})
		}
		r := OverviewRunFromSummary(s)
		if math.IsNaN(tt.want) != math.IsNaN(r.Slope) || (!math.IsNaN(tt.want) && r.Slope != tt.want) {
			t.Errorf("%s: slope %v, want %v", tt.name, r.Slope, tt.want)
		}
		if math.IsNaN(tt.want) && r.SlopePerHour != nil {
			t.Errorf("%s: per hour %v, want none", tt.name, *r.SlopePerHour)
		}
	}
}
