package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
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

// chartSpec is a line chart over a value x axis, or over a category
// axis when categories is set: echarts stacks series (stack) only on a
// category axis, where it adds them by position; each series then has a
// point per category, and only the points' y is drawn.
type chartSpec struct {
	id, title    string
	xName, yName string
	categories   []string
	y2Name       string
	y2Max        float64
	// yMax, when above 0, fixes the left y axis to [0, yMax] (a percent
	// axis is 0 to 100 whatever the data).
	yMax   float64
	height int
	series []seriesSpec
	zoom   bool
}

// render builds the chart with go-echarts and returns its view.
func (c chartSpec) render() (chartView, error) {
	js, err := scriptSafe(optionOf(c.lineChart()))
	if err != nil {
		return chartView{}, fmt.Errorf("chart %s: %w", c.id, err)
	}
	h := c.height
	if h == 0 {
		h = 360
	}
	return chartView{ID: c.id, Height: h, Option: js}, nil
}

// optionOf returns the echarts option of line as go-echarts'
// RenderSnippet renders it, without also rendering the chart's element
// and script, unused here, which took most of the page's time: the
// chart's JSON with go-echarts' function markers removed (this report
// uses no functions; the snippet escapes the JSON for HTML and unescapes
// it again, which changes nothing). TestOptionOfIsSnippets holds it to
// RenderSnippet.
func optionOf(line *charts.Line) string {
	line.Validate()
	return strings.ReplaceAll(string(line.JSONNotEscaped()), "__f__", "")
}

// lineChart builds the chart with go-echarts. Points with NaN or
// infinite coordinates are dropped (JSON cannot carry them).
func (c chartSpec) lineChart() *charts.Line {
	line := charts.NewLine()
	global := []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: c.id}),
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom", Type: "scroll"}),
		charts.WithGridOpts(opts.Grid{Left: "64", Right: "64", Top: "40", Bottom: "64", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(c.xAxis()),
		charts.WithYAxisOpts(c.yAxis()),
	}
	if c.title != "" {
		global = append(global, charts.WithTitleOpts(opts.Title{Title: c.title, Left: "center", TitleStyle: &opts.TextStyle{FontSize: 12, FontWeight: "normal"}}))
	}
	if c.zoom {
		global = append(global, charts.WithDataZoomOpts(opts.DataZoom{Type: "inside"}))
	}
	line.SetGlobalOptions(global...)
	if c.categories != nil {
		line.SetXAxis(c.categories)
	}
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
			if c.categories != nil {
				data = append(data, opts.LineData{Value: round4(p.y)})
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
	return line
}

// xAxis is the chart's x axis: a value axis, or a category axis without
// gaps at its ends (areas start and end at the first and last category).
func (c chartSpec) xAxis() opts.XAxis {
	if c.categories != nil {
		return opts.XAxis{Type: "category", Name: c.xName, NameLocation: "middle", NameGap: 28, BoundaryGap: opts.Bool(false), Data: c.categories}
	}
	return opts.XAxis{Type: "value", Name: c.xName, NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true)}
}

// yAxis is the chart's left y axis: from 0, up to yMax when set.
func (c chartSpec) yAxis() opts.YAxis {
	y := opts.YAxis{Type: "value", Name: c.yName, Scale: opts.Bool(false)}
	if c.yMax > 0 {
		y.Min, y.Max = 0, c.yMax
	}
	return y
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
