package analyze

import (
	"cmp"
	"math"

	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// The trends stage: a device's trends of allocated and reserved memory
// (its snapshots', else its memory_stats readings'), of its GPU's used
// memory and of the memory outside the caching allocator, and their
// projections against its capacity. The memory_stats readings of a
// snapshot device are placed on its axis and fitted beside the snapshots,
// which stay primary.

// trendFit is what the trends stage measured of a snapshot device, which
// the later stages fit against: the points' positions on its axis, the
// periodic points (an OOM dump is evidence, not a trend point), the level
// growth is compared with, and the memory outside the allocator, in bytes.
type trendFit struct {
	x        []float64
	keep     []int
	per      units.Per
	refLevel float64
	outside  float64
}

// trends fits a device's trends and projects them (stage 3).
func (a *analysis) trends(dr *deviceRun) {
	switch {
	case dr.s != nil:
		dr.fit = a.snapshotTrends(dr.d, dr.s)
		if dr.ms != nil {
			attachMemStats(dr.d, dr.s, dr.ms, a.rules)
		}
	case dr.ms != nil:
		memStatsDeviceTrends(dr.d, dr.ms, a.rules, a.runs)
	default:
		// A GPU known from its logs alone, over hours; one read in
		// reading or step order got its trend per reading or step as
		// it was placed (byReadingDevice).
		if dr.d.Axis == AxisHours {
			if t := gpuTrend(dr.d, "hour", a.rules); t != nil {
				dr.d.Trends = append(dr.d.Trends, *t)
			}
		}
		a.projectGPUUsed(dr.d)
	}
	if t := dr.d.Trend(MetricGPUUsed); t != nil && t.Jobs >= 2 {
		a.f.addNote(Note{Kind: NoteJobs, Device: dr.d.DeviceKey, Trend: t})
	}
}

// projectGPUUsed projects the used-memory trend of a device known from
// GPU logs alone against its capacity (the GPU's total from its log, or
// --capacity), as snapshotTrends projects a snapshot device's, over the
// readings' span on the device's axis (hours; readings in reading order
// have no pace in time). Used memory already counts the CUDA context and
// every other process on the GPU, so nothing is set aside from the
// total: the projection is when the GPU is full. Only a growing trend is
// projected (Project), so a flat, noisy or saw-tooth series gets no
// forecast.
//
// It starts from the last busy reading (busySpan: not the idle readings
// of a log that outlived the job), at the fitted line's level there or
// the reading's own when lower: a line through a ramp that levelled off
// (a server reserving its cache at start) can pass the total while the
// GPU's readings stay below it, and a GPU never full must not read as
// "already at or over the limit".
func (a *analysis) projectGPUUsed(d *Device) {
	t, g := d.Trend(MetricGPUUsed), d.GPU
	// A trend fitted on another axis than the readings' (too few placed
	// readings: gpuTrend) has no last reading to start from.
	if t == nil || g == nil || d.Capacity <= 0 || t.Per != d.Axis || len(g.X) != len(g.Used) {
		return
	}
	x0, x1, ok := finiteRange(g.X)
	if !ok || x1 <= x0 {
		return
	}
	lo, hi := busySpan(g.Used)
	last := -1
	for i := hi - 1; i >= lo; i-- {
		if !math.IsNaN(g.X[i]) && !math.IsInf(g.X[i], 0) {
			last = i
			break
		}
	}
	if last < 0 {
		return
	}
	lastX := g.X[last]
	now := math.Min(t.Intercept+t.Slope*lastX, float64(g.Used[last]))
	if p := projectFrom(t, now, float64(d.Capacity), lastX, x1-x0, d.hoursPerX(t.Per), a.runs); p != nil {
		withinHorizon(p, cmp.Or(a.opt.Horizon, DefaultHorizon))
		t.Projection = p
	}
}

// snapshotTrends fits a snapshot device's trends of allocated, reserved
// and GPU used memory, reconciles used with reserved memory, and projects
// the trends against the device's capacity, less the memory outside the
// allocator for the allocator's own series.
func (a *analysis) snapshotTrends(d *Device, s *Series) trendFit {
	per := s.Axis
	if per == AxisStep {
		d.HoursPerStep, d.PaceSpanHours = snapshotHoursPerStep(s.Points)
	}
	n := len(s.Points)
	x := make([]float64, n)
	alloc := make([]float64, n)
	res := make([]float64, n)
	for i, p := range s.Points {
		x[i] = p.X
		alloc[i] = float64(p.Usage.Allocated)
		res[i] = float64(p.Usage.Reserved)
	}
	// Off-phase snapshots (an OOM dump) are evidence, not trend points.
	keep := s.trendIndex()
	refLevel := stats.Median(pick(alloc, keep))
	dr := a.rules
	dr.RefLevel = refLevel
	at := fitKept(MetricAllocated, per, x, alloc, keep, dr)
	rt := fitKept(MetricReserved, per, x, res, keep, dr)
	d.Trends = append(d.Trends, at, rt)
	ut := gpuTrend(d, per, dr)
	if ut != nil {
		d.Trends = append(d.Trends, *ut)
	}
	d.Reconciliation = reconcile(d, s.SnapshotTimes(), x, per, dr, ut)
	if d.Reconciliation != nil && d.Reconciliation.Trend != nil {
		d.Trends = append(d.Trends, *d.Reconciliation.Trend)
	}

	// Projections against capacity (less memory outside the allocator for
	// the allocator's own series).
	outside := 0.0
	if d.Reconciliation != nil && d.Reconciliation.Matched > 0 && !math.IsNaN(d.Reconciliation.Level) {
		outside = math.Max(0, d.Reconciliation.Level)
	}
	if d.Capacity > 0 && len(keep) > 1 {
		span := x[keep[len(keep)-1]] - x[keep[0]]
		for i := range d.Trends {
			t := &d.Trends[i]
			limit, off := float64(d.Capacity), 0.0
			if (t.Metric == MetricAllocated || t.Metric == MetricReserved) && outside > 0 {
				limit -= outside
				off = outside
			}
			lastX := x[keep[len(keep)-1]]
			if t.Metric == MetricGPUUsed && d.GPU != nil && len(d.GPU.X) > 0 && !math.IsNaN(d.GPU.X[len(d.GPU.X)-1]) {
				lastX = math.Max(lastX, d.GPU.X[len(d.GPU.X)-1])
			}
			if p := Project(t, limit, lastX, span, d.hoursPerX(t.Per), a.runs); p != nil {
				p.Outside = int64(off)
				withinHorizon(p, cmp.Or(a.opt.Horizon, DefaultHorizon))
				t.Projection = p
			}
		}
	}
	return trendFit{x: x, keep: keep, per: per, refLevel: refLevel, outside: outside}
}
