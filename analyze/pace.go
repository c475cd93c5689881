package analyze

import (
	"math"

	"gpureport/internal/units"
)

// The pace of a device's axis in wall-clock time: how many hours a unit
// of x takes. It is decided once per device (Device.HoursPerStep, in the
// trends stage) and read by everything that turns x into hours: the
// projections' time left and each trend's slope per hour
// (Trend.HoursPerX, stampPace), which summary.json and the batch
// overview read.

// hoursPerX is the device's pace for an axis per: 1 per hour, its
// HoursPerStep per step on a step axis, 0 (unknown) otherwise. The
// projections' time to capacity uses it.
func (d *Device) hoursPerX(per units.Per) float64 {
	switch {
	case per == AxisHours:
		return 1
	case per == AxisStep && d.Axis == AxisStep:
		return d.HoursPerStep
	}
	return 0
}

// rateHoursPerX is hoursPerX for a trend's slope per hour (stampPace). A
// step pace measured over less than MinHoursAxisSpan of wall-clock time
// (a profiler trace's few steps of milliseconds, a burst of dumps) gives
// no per-hour rate (0): an hour's growth from seconds of data
// extrapolates hundreds of times past what was seen, and a run whose
// memory fills in seconds never grows for an hour (a trace's 4 ms steps
// read as 22 TiB/hour). It is the bound an hours axis asks of its times,
// for the same reason. The time to capacity, a span of the size
// observed, keeps the pace (hoursPerX).
func (d *Device) rateHoursPerX(per units.Per) float64 {
	if per == AxisStep && d.PaceSpanHours < MinHoursAxisSpan {
		return 0
	}
	return d.hoursPerX(per)
}

// SlopePerHour is the trend's slope in bytes per hour at its axis's pace
// (HoursPerX); false when the pace or the slope is unknown.
func (t *Trend) SlopePerHour() (float64, bool) {
	if !(t.HoursPerX > 0) || math.IsNaN(t.Slope) || math.IsInf(t.Slope, 0) {
		return 0, false
	}
	return t.Slope / t.HoursPerX, true
}

// stampPace gives every trend of a device its axis's pace (HoursPerX),
// once all are fitted (the run stage): its trends, its memory_stats
// readings', the memory outside the allocator's, its fragmentation's and
// stackless memory's, its leak suspects' and sites', and its processes'
// on its own axis. A trend on another axis than the device's (hours since
// a process's first reading, a reading's position) keeps what its fit
// gave it: 1 per hour, else 0.
func stampPace(d *Device) {
	stamp := func(t *Trend) {
		if t != nil {
			t.HoursPerX = d.rateHoursPerX(t.Per)
		}
	}
	for i := range d.Trends {
		stamp(&d.Trends[i])
	}
	if ms := d.MemoryStats; ms != nil {
		for i := range ms.Trends {
			stamp(&ms.Trends[i])
		}
	}
	if rc := d.Reconciliation; rc != nil {
		stamp(rc.Trend)
	}
	if fr := d.Fragmentation; fr != nil {
		stamp(fr.Trend)
		stamp(fr.SplitTrend)
		stamp(fr.PinnedTrend)
	}
	stamp(d.Coverage.NoStackTrend)
	for i := range d.Suspects {
		stamp(&d.Suspects[i].Trend)
	}
	for i := range d.LeakSites {
		stamp(&d.LeakSites[i].Trend)
	}
	if ps := d.Processes; ps != nil && ps.OnDeviceAxis {
		for i := range ps.Series {
			stamp(ps.Series[i].Trend)
		}
	}
}

// memStatsHoursPerStep is the pace of a memory_stats device's step axis:
// the time between its first and last timed readings over their step
// distance; 0 when fewer than two timed readings span a step. span is
// that time, in hours.
func memStatsHoursPerStep(ms *MemoryStatsSeries) (pace, span float64) {
	first, last := -1, -1
	for i := range ms.Readings {
		if !ms.Readings[i].Time.IsZero() {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, 0
	}
	a, b := ms.Readings[first], ms.Readings[last]
	if b.Step <= a.Step {
		return 0, 0
	}
	span = b.Time.Sub(a.Time).Hours()
	return span / float64(b.Step-a.Step), span
}

// snapshotHoursPerStep is the pace of a snapshot device's step axis: the
// time between its first and last timed snapshots over their step
// distance; 0 when fewer than two timed snapshots span a step. (The
// snapshot axis, chosen when the times span less than MinHoursAxisSpan or
// are copy times, has no pace to trust.) span is that time, in hours.
func snapshotHoursPerStep(pts []Point) (pace, span float64) {
	first, last := -1, -1
	for i := range pts {
		if !pts[i].Time.IsZero() {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || last <= first {
		return 0, 0
	}
	a, b := pts[first], pts[last]
	if b.X <= a.X {
		return 0, 0
	}
	span = b.Time.Sub(a.Time).Hours()
	return span / (b.X - a.X), span
}
