package analyze

import (
	"math"
	"testing"

	"gpureport/input"
)

// TestPaceDecidedOnce: a snapshot device's step axis has one pace,
// measured from its snapshots' times (100 steps a minute in the synthetic
// run), and every trend per step of the device, its leak suspects' and
// sites' too, takes it: their slope per hour is their slope at that pace,
// and each projection's hours are its remaining steps at that pace.
func TestPaceDecidedOnce(t *testing.T) {
	spec := synthSpec{n: 16, seed: 4, leakPerSnap: 24 * mib, rank: input.NoRank}
	f := Analyze(spec.run(), Options{})
	d := f.Devices[0]
	const want = 1.0 / 6000 // hours per step: 100 steps a minute
	if d.Axis != AxisStep || math.Abs(d.HoursPerStep-want) > 1e-12 {
		t.Fatalf("axis %s, %v hours per step, want step and %v", d.Axis, d.HoursPerStep, want)
	}
	check := func(name string, tr *Trend, p *Projection) {
		t.Helper()
		if tr.Per != AxisStep {
			t.Errorf("%s: per %s, want step", name, tr.Per)
			return
		}
		if tr.HoursPerX != d.HoursPerStep {
			t.Errorf("%s: %v hours per x, the device's are %v", name, tr.HoursPerX, d.HoursPerStep)
		}
		if h, ok := tr.SlopePerHour(); !ok || math.Abs(h-tr.Slope*6000) > 1e-6*math.Abs(tr.Slope*6000)+1e-9 {
			t.Errorf("%s: slope per hour %v (%v), want %v", name, h, ok, tr.Slope*6000)
		}
		if p != nil && p.Hours > 0 && math.Abs(p.Hours-p.Remaining*d.HoursPerStep) > 1e-9*p.Hours {
			t.Errorf("%s: %v hours to capacity for %v steps, want them at the device's pace", name, p.Hours, p.Remaining)
		}
	}
	n := 0
	for i := range d.Trends {
		if tr := &d.Trends[i]; tr.Per == AxisStep {
			check(tr.Metric, tr, tr.Projection)
			n++
		}
	}
	for i := range d.Suspects {
		check("suspect "+d.Suspects[i].Site, &d.Suspects[i].Trend, d.Suspects[i].Projection)
		n++
	}
	for i := range d.LeakSites {
		check("site "+d.LeakSites[i].Site, &d.LeakSites[i].Trend, d.LeakSites[i].Projection)
		n++
	}
	if n < 4 || len(d.Suspects) == 0 || len(d.LeakSites) == 0 {
		t.Errorf("checked %d trends (%d suspects, %d sites): the run lost its leak", n, len(d.Suspects), len(d.LeakSites))
	}
	if at := d.Trend(MetricAllocated); at == nil || at.Projection == nil || at.Projection.Hours <= 0 {
		t.Errorf("the allocated trend has no time to capacity: %+v", at)
	}
}

// TestPerHourNeedsSpan: a step axis's per-hour rate needs its pace
// measured over MinHoursAxisSpan of wall-clock time: a profiler trace's
// five 4 ms steps, or a burst of dumps seconds apart, give no per-hour
// rate (a leak of 640 MiB per step would read 22 TiB/hour), while the
// same pace over hours does; an hours axis is its own pace. The time to
// capacity keeps the pace either way.
func TestPerHourNeedsSpan(t *testing.T) {
	for _, tt := range []struct {
		name      string
		per       Axis
		axis      Axis
		pace      float64 // hours per step
		span      float64 // hours the pace was measured over
		wantPerHr bool
	}{
		{"profiler trace: 5 steps of 4 ms", AxisStep, AxisStep, 0.004 / 3600, 0.02 / 3600, false},
		{"dumps 10 s apart for 50 s", AxisStep, AxisStep, 10.0 / 3600 / 100, 50.0 / 3600, false},
		{"a training run's snapshots over 2 hours", AxisStep, AxisStep, 1.0 / 6000, 2, true},
		{"exactly MinHoursAxisSpan", AxisStep, AxisStep, 1.0 / 6000, MinHoursAxisSpan, true},
		{"an hours axis", AxisHours, AxisHours, 0, 0, true},
	} {
		d := &Device{Axis: tt.axis, HoursPerStep: tt.pace, PaceSpanHours: tt.span}
		tr := Trend{Per: tt.per, Slope: 640 * fmib}
		tr.HoursPerX = d.rateHoursPerX(tt.per)
		if _, ok := tr.SlopePerHour(); ok != tt.wantPerHr {
			t.Errorf("%s: per-hour rate %v, want %v", tt.name, ok, tt.wantPerHr)
		}
		if got := d.hoursPerX(tt.per); tt.per == AxisStep && got != tt.pace {
			t.Errorf("%s: the projection's pace %v, want %v", tt.name, got, tt.pace)
		}
	}
}
