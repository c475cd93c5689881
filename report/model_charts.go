package report

import (
	"cmp"
	"fmt"
	"slices"

	"gpureport/analyze"
	"gpureport/internal/units"
	"gpureport/report/words"
)

// The charts of the page, as specs the page renders (charts.go): built
// here, from the Findings, with the raw points they draw.

// capacityFarAbove is how many times the highest memory line the capacity
// may be and still be drawn on the timeline: above it, the lines would
// use less than half the chart's height and a leak of a few percent of
// the device would look flat.
const capacityFarAbove = 2.0

// timelineChart draws a device's allocated, reserved and nvidia-smi used
// memory, its torch.cuda.memory_stats readings, the fitted allocated trend
// and its projection band up to capacity.
func timelineChart(d *analyze.Device) chartSpec {
	if d.UsedShare != nil {
		return shareChart(d)
	}
	var alloc, res, used, msAlloc, msRes, msPeak []xy
	maxV := 0.0
	for _, p := range d.Points {
		alloc = append(alloc, xy{p.X, float64(p.Usage.Allocated)})
		res = append(res, xy{p.X, float64(p.Usage.Reserved)})
		maxV = max(maxV, float64(p.Usage.Reserved))
	}
	if m := d.MemoryStats; m != nil {
		for i := range m.Readings {
			r := &m.Readings[i]
			if i >= len(m.X) || !finite(m.X[i]) {
				continue
			}
			if r.Allocated >= 0 {
				msAlloc = append(msAlloc, xy{m.X[i], float64(r.Allocated)})
				maxV = max(maxV, float64(r.Allocated))
			}
			if r.Reserved >= 0 {
				msRes = append(msRes, xy{m.X[i], float64(r.Reserved)})
				maxV = max(maxV, float64(r.Reserved))
			}
			// A printed peak alone (MMEngine's "memory:") is what its
			// trend is fitted on (analyze's peak_allocated_bytes).
			if r.PeakAllocated > 0 && r.Allocated < 0 && r.Reserved < 0 {
				msPeak = append(msPeak, xy{m.X[i], float64(r.PeakAllocated)})
				maxV = max(maxV, float64(r.PeakAllocated))
			}
		}
	}
	if d.GPU != nil {
		for i, u := range d.GPU.Used {
			if i < len(d.GPU.X) && finite(d.GPU.X[i]) {
				used = append(used, xy{d.GPU.X[i], float64(u)})
				maxV = max(maxV, float64(u))
			}
		}
	}
	unit, size, capFar := deviceYAxis(d, maxV)
	scale := func(pts []xy) []xy { return scaled(pts, size) }
	spec := chartSpec{
		id: "timeline-" + deviceAnchor(d.DeviceKey), xName: words.DeviceAxis(d), yName: unit, zoom: true, height: 380,
	}
	if capFar {
		spec.title = fmt.Sprintf("capacity %s is far above these lines (not drawn, so the y axis fits the data)", units.Bytes(d.Capacity))
	}
	if len(d.Points) > 0 {
		spec.series = append(spec.series,
			seriesSpec{name: "allocated", points: scale(alloc), symbols: len(alloc) <= 60, color: colorAllocated},
			seriesSpec{name: "reserved", points: scale(res), symbols: len(res) <= 60, color: colorReserved})
	}
	if d.MemoryStats != nil {
		ca, cr := colorStatsAllocated, colorStatsReserved
		if len(d.Points) == 0 {
			ca, cr = colorAllocated, colorReserved
		}
		// A series the readings do not give (torchtitan's reserved-only
		// figure) is left out, legend entry and all.
		if len(msAlloc) > 0 {
			spec.series = append(spec.series, seriesSpec{name: "allocated (memory_stats)", points: scale(msAlloc), symbols: len(msAlloc) <= 60, color: ca})
		}
		if len(msRes) > 0 {
			spec.series = append(spec.series, seriesSpec{name: "reserved (memory_stats)", points: scale(msRes), symbols: len(msRes) <= 60, color: cr})
		}
		if len(msPeak) > 0 {
			spec.series = append(spec.series, seriesSpec{name: "peak allocated (memory_stats)", points: scale(msPeak), symbols: len(msPeak) <= 60, color: ca})
		}
	}
	if len(used) > 0 {
		spec.series = append(spec.series, seriesSpec{name: words.DeviceUsed(d), points: scale(used), color: colorUsed})
	}
	x0, x1, haveX := 0.0, 0.0, false
	xEnd := 0.0     // the last x drawn, where the capacity line ends at least
	drawFit := true // whether the primary trend's line is drawn
	if n := len(d.Points); n > 0 {
		x0, x1, haveX = d.Points[0].X, d.Points[n-1].X, true
	} else if d.MemoryStats != nil {
		x0, x1, haveX = finiteRange(d.MemoryStats.X)
	} else if d.GPU != nil {
		// A device known from its GPU logs alone: its used-memory trend
		// (and forecast) is fitted on the readings up to its last busy
		// one (FitX1), not an idle tail after the job, so the fit and
		// the projection band end and pivot there.
		x0, x1, haveX = finiteRange(d.GPU.X)
		xEnd = x1
		if t := d.Primary(); t != nil && finite(t.FitX1) && t.FitX1 > x0 && t.FitX1 < x1 {
			x1 = t.FitX1
		}
		// A line through a job's start-up ramp that the trend rules read
		// as flat (warm-up, then flat) is no line the readings follow:
		// only a growing trend's is drawn.
		if t := d.Primary(); t != nil && t.State != analyze.StateGrowing {
			drawFit = false
		}
	}
	xEnd = max(xEnd, x1)
	if t := d.Primary(); t != nil && t.N >= 2 && finite(t.Slope) && haveX && drawFit {
		from := t.FitX0
		if len(d.Points) > 0 {
			from = d.Points[min(max(t.FitFrom, 0), len(d.Points)-1)].X
		}
		f := func(x float64) float64 { return (t.Intercept + t.Slope*x) / size }
		spec.series = append(spec.series, seriesSpec{name: "fit (" + words.TrendMetric(t) + ")", points: []xy{{from, f(from)}, {x1, f(x1)}}, dashed: true, color: colorFit})
		end := projectionEnd(t, x0, x1)
		if end > x1 && finite(t.Lo) && finite(t.Hi) {
			// The band pivots on the fitted value at the last snapshot and
			// opens with the slope's 95% interval. Two dashed edges: echarts
			// cannot stack areas on a value x axis.
			ylast := t.Intercept + t.Slope*x1
			line := func(slope float64) []xy {
				return []xy{{x1, ylast / size}, {end, (ylast + slope*(end-x1)) / size}}
			}
			spec.series = append(spec.series,
				seriesSpec{name: "projection", points: line(t.Slope), dashed: true, color: colorFit},
				// One name for both edges: one legend entry toggles both.
				seriesSpec{name: "95% band", points: line(t.Hi), dashed: true, color: colorBand},
				seriesSpec{name: "95% band", points: line(t.Lo), dashed: true, color: colorBand},
			)
		}
		if d.Capacity > 0 && !capFar {
			cx1 := max(end, xEnd)
			spec.series = append(spec.series, seriesSpec{name: "capacity", points: []xy{{x0, float64(d.Capacity) / size}, {cx1, float64(d.Capacity) / size}}, dashed: true, color: colorCapacity})
		}
	} else if d.Capacity > 0 && haveX && !capFar {
		spec.series = append(spec.series, seriesSpec{name: "capacity", points: []xy{{x0, float64(d.Capacity) / size}, {xEnd, float64(d.Capacity) / size}}, dashed: true, color: colorCapacity})
	}
	return spec
}

// shareChart draws the used memory of a device known only as a percent
// of the device (analyze.ShareSeries) on a 0-100 % axis.
func shareChart(d *analyze.Device) chartSpec {
	s := d.UsedShare
	var pts []xy
	for i, p := range s.Percent {
		if i < len(s.X) && finite(s.X[i]) {
			pts = append(pts, xy{s.X[i], p})
		}
	}
	return chartSpec{
		id: "timeline-" + deviceAnchor(d.DeviceKey), xName: words.DeviceAxis(d), yName: "% of device", yMax: 100, zoom: true, height: 380,
		series: []seriesSpec{{name: "used (% of device)", points: downsample(pts), symbols: len(pts) <= 60, color: colorUsed}},
	}
}

// projectionEnd is where the projection band ends on the x axis: where the
// fit reaches capacity, but at most half the run's length past its end, so
// the projection takes at most a third of the chart and the run's own
// points keep the rest (the text says when capacity is reached). Trends
// that do not grow are not projected, nor those of a device the run
// already ran out of memory on (Trend.RanOut).
func projectionEnd(t *analyze.Trend, x0, x1 float64) float64 {
	if t.State != analyze.StateGrowing && t.Projection == nil || t.RanOut != nil || t.Bounded != nil {
		return x1
	}
	span := x1 - x0
	end := x1 + span/2
	if p := t.Projection; p != nil && finite(p.X) && p.X > x1 {
		end = min(p.X, end)
	}
	return end
}

// fragmentationChart draws a device's cached-free (inactive) bytes, its
// largest free block and the external fragmentation share.
func fragmentationChart(d *analyze.Device) chartSpec {
	var inactive, largest, waste, ext []xy
	maxV := 0.0
	for _, p := range d.Points {
		inactive = append(inactive, xy{p.X, float64(p.Usage.Inactive)})
		largest = append(largest, xy{p.X, float64(p.Usage.LargestFree)})
		waste = append(waste, xy{p.X, float64(p.Usage.InternalWaste)})
		ext = append(ext, xy{p.X, 100 * p.Usage.ExternalFragmentation()})
		maxV = max(maxV, float64(p.Usage.Inactive), float64(p.Usage.InternalWaste))
	}
	unit, size, _ := deviceYAxis(d, maxV)
	scale := func(pts []xy) []xy { return scaled(pts, size) }
	spec := chartSpec{
		id: "frag-" + deviceAnchor(d.DeviceKey), xName: words.Axis(d.Axis), yName: unit, y2Name: "external fragmentation %", y2Max: 100, zoom: true, height: 300,
		series: []seriesSpec{
			{name: "cached free (inactive)", points: scale(inactive), color: colorInactive, area: 0.15},
			{name: "largest free block", points: scale(largest), color: colorAllocated},
			{name: "internal waste", points: scale(waste), color: colorReserved, dashed: true},
			{name: "external fragmentation %", points: downsample(ext), yAxis: 1, color: colorFit},
		},
	}
	return spec
}

// suspectChart draws a suspect's live bytes and its fitted growth; the
// page numbers its id (suspect-chart-N).
func suspectChart(d *analyze.Device, s *analyze.Suspect) chartSpec {
	var pts []xy
	maxV := 0.0
	for i, b := range s.Bytes {
		if i >= len(d.Points) {
			break
		}
		pts = append(pts, xy{d.Points[i].X, float64(b)})
		maxV = max(maxV, float64(b))
	}
	unit, size := unitFor(maxV)
	for i := range pts {
		pts[i].y /= size
	}
	spec := chartSpec{xName: words.Axis(d.Axis), yName: unit, height: 240,
		series: []seriesSpec{{name: "live bytes", points: downsample(pts), symbols: len(pts) <= 60, color: colorAllocated, area: 0.1}},
	}
	t := s.Trend
	if t.N >= 2 && finite(t.Slope) && len(pts) > 0 {
		from := pts[min(max(t.FitFrom, 0), len(pts)-1)].x
		to := pts[len(pts)-1].x
		name := "fit"
		if s.Survival != nil && s.Survival.Live != nil {
			// The trend is of the bytes it keeps, under its live bytes.
			name = "kept bytes (fit)"
		}
		spec.series = append(spec.series, seriesSpec{name: name, points: []xy{{from, (t.Intercept + t.Slope*from) / size}, {to, (t.Intercept + t.Slope*to) / size}}, dashed: true, color: colorFit})
	}
	return spec
}

// finiteRange returns the first and last finite values of x.
func finiteRange(x []float64) (first, last float64, ok bool) {
	for _, v := range x {
		if !finite(v) {
			continue
		}
		if !ok {
			first, ok = v, true
		}
		last = v
	}
	return first, last, ok
}

// maxChartProcesses bounds the lines of a process chart: the largest
// peaks get a line each, the rest one summed line.
const maxChartProcesses = 8

// processChart draws each process's used memory (the largest peaks; the
// rest summed per reading time) on the set's axis; nil when no reading
// can be drawn. other labels each line with its GPU too.
func processChart(id, xName string, set *analyze.ProcessSet, other bool) *chartSpec {
	top, rest := set.Series, []analyze.ProcessSeries(nil)
	if len(top) > maxChartProcesses {
		top, rest = top[:maxChartProcesses-1], top[maxChartProcesses-1:]
	}
	points := func(p *analyze.ProcessSeries) []xy {
		var pts []xy
		for i, u := range p.Used {
			if i < len(p.X) && finite(p.X[i]) {
				pts = append(pts, xy{p.X[i], float64(u)})
			}
		}
		return pts
	}
	type line struct {
		name string
		pts  []xy
	}
	var lines []line
	maxV, n := 0.0, 0
	for i := range top {
		p := &top[i]
		name := words.Process(p)
		if other {
			name += " on " + words.OtherGPU(p)
		}
		pts := points(p)
		lines = append(lines, line{name, pts})
		n += len(pts)
	}
	if len(rest) > 0 {
		sum := map[float64]float64{}
		for i := range rest {
			for _, q := range points(&rest[i]) {
				sum[q.x] += q.y
			}
		}
		var pts []xy
		for x, y := range sum {
			pts = append(pts, xy{x, y})
		}
		slices.SortFunc(pts, func(a, b xy) int { return cmp.Compare(a.x, b.x) })
		lines = append(lines, line{fmt.Sprintf("%d other processes (summed)", len(rest)), pts})
		n += len(pts)
	}
	if n == 0 {
		return nil
	}
	for _, l := range lines {
		for _, q := range l.pts {
			maxV = max(maxV, q.y)
		}
	}
	unit, size := unitFor(maxV)
	spec := chartSpec{id: id, xName: xName, yName: unit, zoom: true, height: 300}
	for _, l := range lines {
		for i := range l.pts {
			l.pts[i].y /= size
		}
		spec.series = append(spec.series, seriesSpec{name: l.name, points: downsample(l.pts), symbols: len(l.pts) <= 60})
	}
	return &spec
}

// deviceYAxis fits a device chart's y axis to data peaking at maxV bytes:
// its unit and the bytes one unit holds. A capacity far above the data (a
// 1.8 GiB leak on a 22 GiB device) would squash every line flat at the
// bottom, so then capFar is true and the chart names it in its title
// instead of drawing it.
func deviceYAxis(d *analyze.Device, maxV float64) (unit string, size float64, capFar bool) {
	capFar = d.Capacity > 0 && maxV > 0 && float64(d.Capacity) > capacityFarAbove*maxV
	if d.Capacity > 0 && !capFar {
		maxV = max(maxV, float64(d.Capacity))
	}
	unit, size = unitFor(maxV)
	return unit, size, capFar
}

// scaled divides the points' y by size and downsamples them.
func scaled(pts []xy, size float64) []xy {
	out := make([]xy, len(pts))
	for i, p := range pts {
		out[i] = xy{p.x, p.y / size}
	}
	return downsample(out)
}

// traceChart draws allocated and reserved memory over the events of a
// snapshot's trace; nil with fewer than two points.
func traceChart(d *analyze.Device, tw *analyze.TraceWindow) *chartSpec {
	if len(tw.Timeline) < 2 {
		return nil
	}
	var alloc, res []xy
	maxV := 0.0
	for _, p := range tw.Timeline {
		alloc = append(alloc, xy{float64(p.Index), float64(p.Allocated)})
		res = append(res, xy{float64(p.Index), float64(p.Reserved)})
		maxV = max(maxV, float64(p.Reserved), float64(p.Allocated))
	}
	unit, size := unitFor(maxV)
	for i := range alloc {
		alloc[i].y /= size
		res[i].y /= size
	}
	return &chartSpec{id: "trace-" + deviceAnchor(d.DeviceKey), xName: "trace event", yName: unit, height: 260, zoom: true,
		series: []seriesSpec{
			{name: "allocated", points: downsample(alloc), color: colorAllocated, step: true},
			{name: "reserved", points: downsample(res), color: colorReserved, step: true},
		}}
}
