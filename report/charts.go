package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"gpureport/analyze"
)

// maxChartPoints bounds the points of one chart series; longer series are
// down-sampled with LTTB so a report stays light (a day of one-second
// nvidia-smi readings is 86,400 points).
const maxChartPoints = 1500

// chartView is one chart of a page: a container and the echarts option
// that draws it.
type chartView struct {
	// ID is the container's element id, fixed for reproducible output.
	ID string
	// Height is the container height in pixels.
	Height int
	// Option is the echarts option as a JavaScript object literal, safe to
	// place inside a <script> element (see scriptSafe).
	Option template.JS
}

// xy is a chart point.
type xy struct{ x, y float64 }

// seriesSpec describes one line of a chart.
type seriesSpec struct {
	name   string
	points []xy
	// dashed draws a dashed line; area fills below it (opacity).
	dashed  bool
	area    float64
	symbols bool
	// stack groups series that stack (the projection band).
	stack string
	// hidden draws no line (the band's lower edge).
	hidden bool
	// yAxis is the y axis index (0 left, 1 right).
	yAxis int
	color string
	step  bool
}

// chartSpec is a line chart over a value x axis.
type chartSpec struct {
	id, title    string
	xName, yName string
	y2Name       string
	y2Max        float64
	height       int
	series       []seriesSpec
	zoom         bool
}

// render builds the chart with go-echarts and returns its view. Points
// with NaN or infinite coordinates are dropped (JSON cannot carry them).
func (c chartSpec) render() (chartView, error) {
	line := charts.NewLine()
	global := []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: c.id}),
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom", Type: "scroll"}),
		charts.WithGridOpts(opts.Grid{Left: "64", Right: "64", Top: "40", Bottom: "64", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: c.xName, NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: c.yName, Scale: opts.Bool(false)}),
	}
	if c.title != "" {
		global = append(global, charts.WithTitleOpts(opts.Title{Title: c.title, Left: "center", TitleStyle: &opts.TextStyle{FontSize: 12, FontWeight: "normal"}}))
	}
	if c.zoom {
		global = append(global, charts.WithDataZoomOpts(opts.DataZoom{Type: "inside"}))
	}
	line.SetGlobalOptions(global...)
	if c.y2Name != "" {
		y2 := opts.YAxis{Type: "value", Name: c.y2Name, Min: 0}
		if c.y2Max > 0 {
			y2.Max = c.y2Max
		}
		line.ExtendYAxis(y2)
	}
	for _, s := range c.series {
		data := make([]opts.LineData, 0, len(s.points))
		for _, p := range s.points {
			if !finite(p.x) || !finite(p.y) {
				continue
			}
			data = append(data, opts.LineData{Value: []any{round4(p.x), round4(p.y)}})
		}
		lo := opts.LineChart{ShowSymbol: opts.Bool(s.symbols), YAxisIndex: s.yAxis, Stack: s.stack}
		if s.step {
			lo.Step = "end"
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(lo)}
		ls := opts.LineStyle{Width: 1.5}
		if s.dashed {
			ls.Type = "dashed"
		}
		if s.hidden {
			ls.Opacity = opts.Float(0)
		}
		if s.color != "" {
			ls.Color = s.color
			so = append(so, charts.WithItemStyleOpts(opts.ItemStyle{Color: s.color}))
		}
		so = append(so, charts.WithLineStyleOpts(ls))
		if s.area > 0 {
			as := opts.AreaStyle{Opacity: opts.Float(float32(s.area))}
			if s.color != "" {
				as.Color = s.color
			}
			so = append(so, charts.WithAreaStyleOpts(as))
		}
		line.AddSeries(s.name, data, so...)
	}
	snip := line.RenderSnippet()
	js, err := scriptSafe(snip.Option)
	if err != nil {
		return chartView{}, fmt.Errorf("chart %s: %w", c.id, err)
	}
	h := c.height
	if h == 0 {
		h = 360
	}
	return chartView{ID: c.id, Height: h, Option: js}, nil
}

// scriptSafe turns the JSON option go-echarts rendered into a JavaScript
// literal that cannot end its <script> element or start an HTML comment:
// go-echarts does not escape data strings, and a frame name such as
// "</script><script>alert(1)</script>" would otherwise run. It compacts the
// JSON, rejects anything that is not pure JSON (no JavaScript functions are
// used), and escapes <, >, & and the JavaScript line terminators U+2028 and
// U+2029 as \u sequences, which mean the same inside JSON strings (and
// those characters cannot occur outside strings in JSON).
func scriptSafe(option string) (template.JS, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(option)); err != nil {
		return "", fmt.Errorf("echarts option is not JSON: %w", err)
	}
	var out bytes.Buffer
	out.Grow(buf.Len())
	for _, r := range buf.String() {
		switch r {
		case '<':
			out.WriteString(`\u003c`)
		case '>':
			out.WriteString(`\u003e`)
		case '&':
			out.WriteString(`\u0026`)
		case '\u2028':
			out.WriteString(`\u2028`)
		case '\u2029':
			out.WriteString(`\u2029`)
		default:
			out.WriteRune(r)
		}
	}
	return template.JS(out.String()), nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// round4 rounds to 7 significant digits, which keeps the inline JSON short
// without visible loss.
func round4(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 7, 64), 64)
	return r
}

// downsample returns pts thinned with LTTB to maxChartPoints.
func downsample(pts []xy) []xy {
	if len(pts) <= maxChartPoints {
		return pts
	}
	xs := make([]float64, len(pts))
	ys := make([]float64, len(pts))
	for i, p := range pts {
		xs[i], ys[i] = p.x, p.y
	}
	idx := LTTB(xs, ys, maxChartPoints)
	out := make([]xy, len(idx))
	for i, j := range idx {
		out[i] = pts[j]
	}
	return out
}

// unitFor chooses GiB or MiB (or KiB) for a chart whose largest value is
// maxBytes, and returns the unit name and its size.
func unitFor(maxBytes float64) (string, float64) {
	switch {
	case maxBytes >= 1<<30:
		return "GiB", 1 << 30
	case maxBytes >= 1<<20:
		return "MiB", 1 << 20
	default:
		return "KiB", 1 << 10
	}
}

// axisNames are the x axis titles of a device by its axis; any other axis
// counts steps.
var axisNames = map[analyze.Axis]string{
	analyze.AxisHours:    "hours since first snapshot",
	analyze.AxisReading:  "reading (position in the log)",
	analyze.AxisSnapshot: "snapshot (position in order)",
}

// axisName is the x axis title of a device.
func axisName(a analyze.Axis) string { return cmp.Or(axisNames[a], "step") }

// deviceAxisName is the x axis title of a device's charts: axisName, but
// hours count from the first reading on a device without snapshots.
func deviceAxisName(d *analyze.Device) string {
	if len(d.Points) == 0 && d.Axis == analyze.AxisHours {
		return "hours since first reading"
	}
	return axisName(d.Axis)
}

// Colors of the series, the same in every chart.
const (
	colorAllocated = "#2563eb"
	colorReserved  = "#f59e0b"
	colorUsed      = "#10b981"
	colorFit       = "#dc2626"
	colorCapacity  = "#6b7280"
	colorBand      = "#f87171"
	colorInactive  = "#a855f7"
)

// Colors of the memory_stats lines beside snapshot points: lighter
// shades of allocated and reserved.
const (
	colorStatsAllocated = "#93c5fd"
	colorStatsReserved  = "#fcd34d"
)

// capacityFarAbove is how many times the highest memory line the capacity
// may be and still be drawn on the timeline: above it, the lines would
// use less than half the chart's height and a leak of a few percent of
// the device would look flat.
const capacityFarAbove = 2.0

// timelineChart draws a device's allocated, reserved and nvidia-smi used
// memory, its torch.cuda.memory_stats readings, the fitted allocated trend
// and its projection band up to capacity.
func timelineChart(d *analyze.Device) (chartView, error) {
	var alloc, res, used, msAlloc, msRes []xy
	maxV := 0.0
	for _, p := range d.Points {
		alloc = append(alloc, xy{p.X, float64(p.Usage.Allocated)})
		res = append(res, xy{p.X, float64(p.Usage.Reserved)})
		maxV = max(maxV, float64(p.Usage.Reserved))
	}
	if m := d.MemoryStats; m != nil {
		for i, r := range m.Readings {
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
		id: "timeline-" + deviceAnchor(d.DeviceKey), xName: deviceAxisName(d), yName: unit, zoom: true, height: 380,
	}
	if capFar {
		spec.title = fmt.Sprintf("capacity %s is far above these lines (not drawn, so the y axis fits the data)", Bytes(d.Capacity))
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
		spec.series = append(spec.series,
			seriesSpec{name: "allocated (memory_stats)", points: scale(msAlloc), symbols: len(msAlloc) <= 60, color: ca},
			seriesSpec{name: "reserved (memory_stats)", points: scale(msRes), symbols: len(msRes) <= 60, color: cr})
	}
	if len(used) > 0 {
		spec.series = append(spec.series, seriesSpec{name: "nvidia-smi used", points: scale(used), color: colorUsed})
	}
	x0, x1, haveX := 0.0, 0.0, false
	if n := len(d.Points); n > 0 {
		x0, x1, haveX = d.Points[0].X, d.Points[n-1].X, true
	} else if d.MemoryStats != nil {
		x0, x1, haveX = finiteRange(d.MemoryStats.X)
	}
	if t := d.Trend(analyze.MetricAllocated); t != nil && t.N >= 2 && finite(t.Slope) && haveX {
		from := t.FitX0
		if len(d.Points) > 0 {
			from = d.Points[min(max(t.FitFrom, 0), len(d.Points)-1)].X
		}
		f := func(x float64) float64 { return (t.Intercept + t.Slope*x) / size }
		spec.series = append(spec.series, seriesSpec{name: "fit (allocated)", points: []xy{{from, f(from)}, {x1, f(x1)}}, dashed: true, color: colorFit})
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
			cx1 := max(end, x1)
			spec.series = append(spec.series, seriesSpec{name: "capacity", points: []xy{{x0, float64(d.Capacity) / size}, {cx1, float64(d.Capacity) / size}}, dashed: true, color: colorCapacity})
		}
	} else if d.Capacity > 0 && haveX && !capFar {
		spec.series = append(spec.series, seriesSpec{name: "capacity", points: []xy{{x0, float64(d.Capacity) / size}, {x1, float64(d.Capacity) / size}}, dashed: true, color: colorCapacity})
	}
	return spec.render()
}

// projectionEnd is where the projection band ends on the x axis: where the
// fit reaches capacity, but at most half the run's length past its end, so
// the projection takes at most a third of the chart and the run's own
// points keep the rest (the text says when capacity is reached). Trends
// that do not grow are not projected.
func projectionEnd(t *analyze.Trend, x0, x1 float64) float64 {
	if t.Verdict != "growing" && t.Projection == nil {
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
func fragmentationChart(d *analyze.Device) (chartView, error) {
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
		id: "frag-" + deviceAnchor(d.DeviceKey), xName: axisName(d.Axis), yName: unit, y2Name: "external fragmentation %", y2Max: 100, zoom: true, height: 300,
		series: []seriesSpec{
			{name: "cached free (inactive)", points: scale(inactive), color: colorInactive, area: 0.15},
			{name: "largest free block", points: scale(largest), color: colorAllocated},
			{name: "internal waste", points: scale(waste), color: colorReserved, dashed: true},
			{name: "external fragmentation %", points: downsample(ext), yAxis: 1, color: colorFit},
		},
	}
	return spec.render()
}

// suspectChart draws a suspect's live bytes and its fitted growth.
func suspectChart(id string, d *analyze.Device, s *analyze.Suspect) (chartView, error) {
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
	spec := chartSpec{id: id, xName: axisName(d.Axis), yName: unit, height: 240,
		series: []seriesSpec{{name: "live bytes", points: downsample(pts), symbols: len(pts) <= 60, color: colorAllocated, area: 0.1}},
	}
	t := s.Trend
	if t.N >= 2 && finite(t.Slope) && len(pts) > 0 {
		from := pts[min(max(t.FitFrom, 0), len(pts)-1)].x
		to := pts[len(pts)-1].x
		spec.series = append(spec.series, seriesSpec{name: "fit", points: []xy{{from, (t.Intercept + t.Slope*from) / size}, {to, (t.Intercept + t.Slope*to) / size}}, dashed: true, color: colorFit})
	}
	return spec.render()
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
func processChart(id, xName string, set *analyze.ProcessSet, other bool) (*chartView, error) {
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
		name := p.Label()
		if other {
			name += " on " + otherGPULabel(p)
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
		return nil, nil
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
	c, err := spec.render()
	if err != nil {
		return nil, err
	}
	return &c, nil
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
