package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
	"gpureport/report/words"
	"gpureport/templates"
)

// page is what report.html renders: the view laid out for the template.
// Every string is plain text that html/template escapes; Option fields
// are pre-escaped script literals.
type page struct {
	Title       string
	Run         string
	GeneratedAt string
	Version     string
	Severity    string
	Headline    string
	Held        string
	// HasRoles is set when some device's roles are known (the page's
	// "What holds the memory" section).
	HasRoles   bool
	Reasons    []string
	Flags      []analyze.Flag
	Figures    Table
	Notes      []string
	Devices    []deviceView
	OOMs       []oomView
	Suspects   []suspectView
	MoreSusp   int
	Suppressed []suspectView
	Ranks      *rankItem
	OtherProcs *procView
	Prov       provView
	Next       []words.Sentence
	Methods    []string
	Licenses   []templates.License
	Echarts    template.JS
	Script     template.JS
	CSS        template.CSS
	EchartsVer string
}

// deviceView is a device's parts of the page.
type deviceView struct {
	Label, Anchor  string
	Order, Axis    string
	Capacity       string
	Verdict        string
	Trends         []trendView
	Timeline       chartView
	Frag           *chartView
	FragReason     string
	Fragmented     bool
	Reconciliation string
	Rows           []snapView
	RowsOmitted    int
	Map            *segmentMapItem
	Coverage       string
	Pools          []poolRow
	Groups         []groupView
	GroupsOmitted  int
	Trace          *traceView
	FragNotes      []string
	AxisNote       string
	Stats          *statsView
	Procs          *procView
	Roles          *rolesView
}

// rolesView is what holds a device's memory on the page.
type rolesView struct {
	*rolesItem
	Chart chartView
}

// statsView is a device's torch.cuda.memory_stats readings.
type statsView struct {
	Summary string
	Trends  []trendView
	OOMs    []string
	Retries string
}

// procView is a set of processes: a chart (the largest peaks, the rest
// summed) and a table.
type procView struct {
	Axis    string
	Chart   *chartView
	Rows    []procView1
	Omitted int
	Other   bool
}

// procView1 is one process in a process table.
type procView1 struct {
	Process, GPU, Readings, First, Last, Peak, LastUsed, Trend string
	Growing                                                    bool
}

// groupView is one stack group in a device's table of top groups.
type groupView struct {
	Site, Function, Fingerprint, First, Last, Peak, Blocks string
}

// traceView is the within-trace view of a device's last snapshot.
type traceView struct {
	Path, Summary string
	Chart         *chartView
	NeverFreed    []liveRow
}

type trendView struct {
	Metric, Rate, PValue, Method, Verdict, Points, Projection, Reason string
}

// snapView is one row of a device's per-snapshot table.
type snapView struct {
	Index, Path, Step, Time                            string
	Allocated, Reserved, Active, Inactive, LargestFree string
	External, Segments, Blocks, Trace                  string
}

type oomView struct {
	oomItem
	Stack []stackPart
	Class string
}

type suspectView struct {
	N           int
	Anchor      string
	Site        string
	Function    string
	Device      string
	Fingerprint string
	Claim       string
	Rate        string
	PValue      string
	First, Last string
	Blocks      string
	Share       string
	Method      string
	Confidence  string
	Evidence    []string
	GrowthShare string
	Suppressed  string
	Stack       []stackPart
	FramesCut   int
	Chart       *chartView
}

// stackPart is a user frame, or a folded run of library frames.
type stackPart struct {
	User bool
	// Frames are the part's frames, each with its number in the whole
	// stack (1 = innermost), so folded library frames do not restart the
	// count.
	Frames  []stackFrame
	Summary string
}

// stackFrame is one numbered frame of a stack.
type stackFrame struct {
	N    int
	Text string
}

type provView struct {
	Location string
	Inputs   string
	// Capture is view.Capture.
	Capture []string
	Logs    []logView
	Skipped []inputItem
	Devices []provItem
}

type logView struct {
	Path, Format, Samples, GPUs, SkippedLines string
	Problems                                  []string
	SkipCounts                                []string
	Notes                                     []string
}

var reportTemplate = templates.Page("report.html", pageFuncs)

// pageFuncs are the page templates' helpers.
var pageFuncs = template.FuncMap{"breakable": breakable}

// breakable escapes a file or site name for HTML and lets it wrap after
// each '/' and '_' (a <wbr>), so a long path breaks between its parts on
// a narrow page instead of mid-word or off the edge.
func breakable(s string) template.HTML {
	e := template.HTMLEscapeString(s)
	e = strings.ReplaceAll(e, "/", "/<wbr>")
	e = strings.ReplaceAll(e, "_", "_<wbr>")
	return template.HTML(e)
}

// htmlOf renders index.html of a view.
func htmlOf(v *view, opt Options) ([]byte, error) {
	p, err := buildPage(v, opt)
	if err != nil {
		return nil, err
	}
	// The page is mostly echarts (1 MB): room for it and a run's tables
	// and charts at once, where growing by doubling from nothing copied
	// and cleared twice the page.
	var buf bytes.Buffer
	buf.Grow(len(templates.Echarts) + 512<<10)
	if err := reportTemplate.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("render index.html: %w", err)
	}
	return buf.Bytes(), nil
}

// Limits that keep a report light on large runs; what is cut is counted
// on the page and complete in report.xlsx and summary.json.
const (
	// maxHTMLSuspects bounds the leak suspect sections.
	maxHTMLSuspects = 30
	// maxStackFrames bounds the frames shown per suspect stack.
	maxStackFrames = 200
	// maxTableRows bounds a device's per-snapshot table.
	maxTableRows = 500
)

func buildPage(v *view, opt Options) (*page, error) {
	p := &page{
		Title:       "gpureport: " + v.Run,
		Run:         v.Run,
		GeneratedAt: units.Timestamp(opt.GeneratedAt),
		Version:     opt.Version,
		Severity:    v.Severity,
		Headline:    v.Headline,
		Held:        v.Held,
		Reasons:     v.Reasons,
		Flags:       v.Flags,
		Figures:     v.figures(),
		Notes:       v.Notes,
		Next:        v.NextSteps,
		Ranks:       v.Ranks,
		Methods:     v.Methods,
		Licenses:    templates.Licenses(),
		Echarts:     template.JS(templates.Echarts),
		Script:      template.JS(templates.MustRead("page.js")),
		CSS:         template.CSS(templates.MustRead("style.css")),
		EchartsVer:  templates.EchartsVersion,
	}
	for _, d := range v.Devices {
		dv, err := deviceViewOf(d)
		if err != nil {
			return nil, err
		}
		p.Devices = append(p.Devices, dv)
		p.HasRoles = p.HasRoles || dv.Roles != nil
	}
	for _, o := range v.OOMs {
		ov := oomView{oomItem: o, Class: o.Cause}
		if len(o.Stack) > 0 {
			ov.Stack, _ = foldStack(o.Stack, o.User)
		}
		p.OOMs = append(p.OOMs, ov)
	}
	if err := buildSuspects(p, v); err != nil {
		return nil, err
	}
	if op := v.OtherProcesses; op != nil {
		pv, err := procViewOf(op)
		if err != nil {
			return nil, err
		}
		p.OtherProcs = pv
	}
	p.Prov = provOfView(v)
	return p, nil
}

// deviceViewOf lays out a device's parts of the page.
func deviceViewOf(d deviceItem) (deviceView, error) {
	dv := deviceView{
		Label: d.Label, Anchor: d.Anchor, Order: d.Order, Axis: d.Axis, Capacity: d.CapacityText, Verdict: d.Verdict.Text,
		Coverage: d.Coverage, Trends: trendViews(d.Trends), FragReason: d.Frag.Reason, Fragmented: d.Frag.Fragmented,
		FragNotes: d.Frag.Notes, Pools: d.Frag.Pools, Reconciliation: d.Reconciliation, AxisNote: d.AxisNote, Map: d.Map,
	}
	var err error
	if dv.Timeline, err = d.Timeline.render(); err != nil {
		return dv, err
	}
	if c := d.Frag.Chart; c != nil {
		fc, err := c.render()
		if err != nil {
			return dv, err
		}
		dv.Frag = &fc
	}
	dv.Groups, dv.GroupsOmitted = groupViews(d)
	if st := d.Stats; st != nil {
		dv.Stats = &statsView{Summary: st.Summary, Trends: trendViews(st.Trends), OOMs: st.OOMs, Retries: st.Retries}
	}
	if d.Processes != nil {
		pv, err := procViewOf(d.Processes)
		if err != nil {
			return dv, err
		}
		dv.Procs = pv
	}
	if ri := d.Roles; ri != nil {
		c, err := ri.Chart.render()
		if err != nil {
			return dv, err
		}
		dv.Roles = &rolesView{rolesItem: ri, Chart: c}
	}
	if tw := d.Trace; tw != nil {
		tv := &traceView{Path: tw.Path, Summary: tw.Summary, NeverFreed: tw.NeverFreed}
		if tw.Chart != nil {
			c, err := tw.Chart.render()
			if err != nil {
				return dv, err
			}
			tv.Chart = &c
		}
		dv.Trace = tv
	}
	dv.Rows = snapViews(d.Snapshots)
	dv.RowsOmitted = len(d.Snapshots) - len(dv.Rows)
	return dv, nil
}

// snapViews lays out a device's per-snapshot table for the page: at most
// maxTableRows rows, evenly thinned, the last one always kept.
func snapViews(rows []snapshotRow) []snapView {
	step := 1
	if len(rows) > maxTableRows {
		step = (len(rows) + maxTableRows - 1) / maxTableRows
	}
	var out []snapView
	for i, r := range rows {
		if i%step != 0 && i != len(rows)-1 {
			continue
		}
		out = append(out, snapView{Index: r.Index.Text, Path: r.File, Step: r.Step.Text, Time: r.Time.Text, Allocated: r.Allocated.Text,
			Reserved: r.Reserved.Text, Active: r.Active.Text, Inactive: r.CachedFree.Text, LargestFree: r.LargestFree.Text,
			External: r.ExternalFrg.Text, Segments: r.Segments.Text, Blocks: r.Blocks.Text, Trace: r.TraceEntries.Text})
	}
	return out
}

// buildSuspects lists the suspects in the view's order (the verdict's top
// suspects first), the suppressed ones apart.
func buildSuspects(p *page, v *view) error {
	n := 0
	for _, it := range v.Suspects {
		if it.Suppressed != "" {
			p.Suppressed = append(p.Suppressed, suspectView{Site: it.Site, Function: it.Function, Device: it.Device, Fingerprint: it.Fingerprint,
				Rate: it.Growth.Text, Suppressed: it.Suppressed})
			continue
		}
		n++
		if n > maxHTMLSuspects {
			p.MoreSusp++
			continue
		}
		sv := suspectView{
			N: n, Anchor: fmt.Sprintf("suspect-%d", n), Site: it.Site, Function: it.Function,
			Device: it.Device, Fingerprint: it.Fingerprint, Claim: it.Claim, Confidence: it.Confidence, Evidence: it.Evidence,
			Rate: it.Growth.Text, PValue: it.PValue.Text, Method: it.Method, First: it.First.Text, Last: it.Last.Text,
			Share: it.LastShare.Text, Blocks: it.Blocks.Text,
		}
		if finite(it.GrowthShare.Value) && it.GrowthShare.Value > 0 {
			sv.GrowthShare = it.GrowthShare.Text
		}
		sv.Stack, sv.FramesCut = foldStack(it.Stack, it.User)
		spec := it.Chart
		spec.id = fmt.Sprintf("suspect-chart-%d", n)
		c, err := spec.render()
		if err != nil {
			return err
		}
		sv.Chart = &c
		p.Suspects = append(p.Suspects, sv)
	}
	return nil
}

// foldStack splits a stack (innermost first) into user frames and runs of
// library frames, which the page folds. It keeps at most maxStackFrames
// frames and returns how many it cut.
func foldStack(stack []analyze.Frame, user []bool) ([]stackPart, int) {
	cut := 0
	if len(stack) > maxStackFrames {
		cut = len(stack) - maxStackFrames
		stack = stack[:maxStackFrames]
	}
	var parts []stackPart
	for i, fr := range stack {
		isUser := i < len(user) && user[i]
		if isUser || len(parts) == 0 || parts[len(parts)-1].User {
			parts = append(parts, stackPart{User: isUser})
		}
		last := &parts[len(parts)-1]
		last.Frames = append(last.Frames, stackFrame{N: i + 1, Text: frameText(fr)})
	}
	for i := range parts {
		if !parts[i].User {
			parts[i].Summary = units.CountOf(len(parts[i].Frames), "library frame")
		}
	}
	return parts, cut
}

// provOfView lays out the page's provenance.
func provOfView(v *view) provView {
	pv := provView{Location: cmp.Or(v.Location, "not recorded"), Inputs: v.Inputs, Capture: v.Capture, Skipped: v.Skipped}
	for _, l := range v.GPULogs {
		pv.Logs = append(pv.Logs, logView{Path: l.Path, Format: l.Format, Samples: l.Samples.Text, GPUs: l.GPUs.Text, SkippedLines: l.Skipped.Text,
			Notes: l.Notes, Problems: l.Lines, SkipCounts: l.Kinds})
	}
	for _, d := range v.Devices {
		pv.Devices = append(pv.Devices, d.Prov)
	}
	return pv
}

// maxGroupRows bounds a device's table of top stack groups.
const maxGroupRows = 15

// groupViews lays out a device's largest stack groups at the last
// snapshot (at most maxGroupRows of its groups) and counts the rest.
func groupViews(d deviceItem) ([]groupView, int) {
	if d.Kind != kindSnapshots || len(d.Groups) == 0 {
		return nil, 0
	}
	last := func(r groupRow) float64 {
		if v := r.Last.Value; finite(v) {
			return v
		}
		return 0
	}
	rows := slices.Clone(d.Groups)
	slices.SortStableFunc(rows, func(a, b groupRow) int { return cmp.Compare(last(b), last(a)) })
	var out []groupView
	for _, r := range rows[:min(len(rows), maxGroupRows)] {
		g := groupView{Site: r.Site, Function: r.Function, Fingerprint: r.Fingerprint, First: r.First.Text, Last: r.Last.Text, Peak: r.Peak.Text, Blocks: r.Blocks.Text}
		if r.Total {
			g.Function, g.Fingerprint = "", ""
		}
		out = append(out, g)
	}
	return out, len(d.Groups) - len(out)
}

// maxProcessRows bounds a process table; the rest are counted (every
// process is in report.xlsx and summary.json).
const maxProcessRows = 50

// procViewOf lays out a process set: chart and table (at most
// maxProcessRows rows).
func procViewOf(set *processSet) (*procView, error) {
	pv := &procView{Axis: set.Axis, Other: set.Other}
	for i, r := range set.Rows {
		if i == maxProcessRows {
			pv.Omitted = len(set.Rows) - i
			break
		}
		row := procView1{Process: r.Label, Readings: r.Readings.Text, First: r.First.Text, Last: r.Last.Text, Peak: r.Peak.Text,
			LastUsed: r.LastUsed.Text, Trend: r.Trend.Text, Growing: r.Growing}
		if set.Other {
			row.GPU = r.GPU.Text
		}
		pv.Rows = append(pv.Rows, row)
	}
	if set.Chart != nil {
		c, err := set.Chart.render()
		if err != nil {
			return nil, err
		}
		pv.Chart = &c
	}
	return pv, nil
}

// trendViews lays out a table of trends for the page.
func trendViews(rows []trendRow) []trendView {
	var out []trendView
	for _, r := range rows {
		out = append(out, trendView{Metric: r.Label, Rate: r.Slope.Text, PValue: r.PValue.Text, Method: r.Method, Verdict: r.Verdict,
			Points: r.Points.Text, Projection: r.Projection, Reason: r.Reason})
	}
	return out
}
