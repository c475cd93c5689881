package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/snapshot"
	"gpureport/templates"
)

// Limits that keep a report light on large runs; what is cut is counted
// on the page and complete in report.xlsx and summary.json.
const (
	// maxHTMLSuspects bounds the leak suspect sections.
	maxHTMLSuspects = 30
	// maxStackFrames bounds the frames shown per suspect stack.
	maxStackFrames = 200
	// maxTableRows bounds a device's per-snapshot table.
	maxTableRows = 500
	// maxMapSegments and maxMapBlocks bound the segment map.
	maxMapSegments = 64
	maxMapBlocks   = 160
)

// page is what report.html renders. Every string is plain text that
// html/template escapes; Option fields are pre-escaped script literals.
type page struct {
	Title       string
	Run         string
	GeneratedAt string
	Version     string
	Severity    string
	Headline    string
	Reasons     []string
	Flags       []analyze.Flag
	Figures     Table
	Notes       []string
	Devices     []deviceView
	OOMs        []oomView
	Suspects    []suspectView
	MoreSusp    int
	Suppressed  []suspectView
	Ranks       *rankView
	OtherProcs  *procView
	Prov        provView
	Next        []string
	Methods     []string
	Licenses    []templates.License
	Echarts     template.JS
	Script      template.JS
	CSS         template.CSS
	EchartsVer  string
}

type deviceView struct {
	Label, Anchor  string
	Order, Axis    string
	Capacity       string
	Verdict        string
	Trends         []trendRow
	Timeline       chartView
	Frag           *chartView
	FragReason     string
	Fragmented     bool
	Reconciliation string
	Rows           []snapRow
	RowsOmitted    int
	Map            *segmentMap
	Coverage       string
	Pools          []poolRow
	Groups         []groupRow
	GroupsOmitted  int
	Trace          *traceView
	FragNotes      []string
	AxisNote       string
	Stats          *statsView
	Procs          *procView
}

// statsView is a device's torch.cuda.memory_stats readings.
type statsView struct {
	Summary string
	Trends  []trendRow
	OOMs    []string
	Retries string
}

// procView is a set of processes: a chart (the largest peaks, the rest
// summed) and a table.
type procView struct {
	Axis    string
	Chart   *chartView
	Rows    []procRow
	Omitted int
	Other   bool
}

// procRow is one process in a process table.
type procRow struct {
	Process, GPU, Readings, First, Last, Peak, LastUsed, Trend string
	Growing                                                    bool
}

// groupRow is one stack group in a device's table of top groups.
type groupRow struct {
	Site, Function, Fingerprint, First, Last, Peak, Blocks string
}

// traceView is the within-trace view of a device's last snapshot.
type traceView struct {
	Path, Summary string
	Chart         *chartView
	NeverFreed    []liveRow
}

// liveRow is a signature group's live memory at one moment.
type liveRow struct {
	Site, Function, Fingerprint, Bytes, Blocks string
}

type trendRow struct {
	Metric, Rate, PValue, Method, Verdict, Points, Projection, Reason string
}

// snapRow is one row of a device's per-snapshot table, the text of the
// view model's cells.
type snapRow struct {
	Index, Path, Step, Time                            string
	Allocated, Reserved, Active, Inactive, LargestFree string
	External, Segments, Blocks, Trace                  string
}

type poolRow struct {
	Pool, Reserved, Allocated, Inactive, LargestFree, External string
}

type oomView struct {
	Site, Function, State, Limit               string
	Stack                                      []stackPart
	TopLive                                    []liveRow
	Where, Time, Class, Explanation            string
	Requested, DeviceFree, Reserved, Allocated string
	CachedFree, LargestFree                    string
	Settings                                   string
	Recommendations                            []analyze.Recommendation
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

type rankView struct {
	Rows    []rankRow
	Outlier string
	Reason  string
	Skew    string
}

type rankRow struct {
	Rank, Device, PeakAllocated, PeakReserved, Slope, Growing, Suspects, TopSuspect string
	Outlier                                                                         bool
}

type provView struct {
	Location string
	Inputs   string
	// Capture is view.Capture.
	Capture []string
	Logs    []logRow
	Skipped []skippedRow
	Devices []provDevice
}

type logRow struct {
	Path, Format, Samples, GPUs, SkippedLines string
	Problems                                  []string
	SkipCounts                                []string
	Notes                                     []string
}

// skippedRow is a file the run skipped, and why.
type skippedRow struct {
	Path, Reason string
}

type provDevice struct {
	Label, Order, Axis, Files, Coverage, Overflow, Capacity, GPUJoin string
}

// segmentMap is the last snapshot's segments of a device.
type segmentMap struct {
	Device   string
	Path     string
	Segments []segmentRow
	Omitted  int
	Omitted2 string
}

type segmentRow struct {
	Label string
	// Width is the bar's width, in proportion to the segment's size
	// against the largest segment drawn.
	Width  string
	Blocks []blockCell
}

type blockCell struct {
	Class string
	Width string
	Title string
}

var reportTemplate = templates.Page("report.html", pageFuncs)

// tableTime is a UTC time for a table cell whose header says UTC:
// "2026-03-02 09:00:08", which can wrap between date and time on a narrow
// page (RFC 3339's "T" and "Z" cannot).
func tableTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateTime)
}

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

// HTML renders index.html: one self-contained page (echarts inlined, no
// network) with the verdict, key figures, per device timelines with the
// fitted trend and projection band, fragmentation, OOM explanations, leak
// suspects, the last snapshot's segment map and provenance.
func HTML(f *analyze.Findings, opt Options) ([]byte, error) {
	return htmlOf(buildView(f), opt)
}

// htmlOf renders index.html of a view.
func htmlOf(v *view, opt Options) ([]byte, error) {
	p, err := buildPage(v, opt)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := reportTemplate.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("render index.html: %w", err)
	}
	return buf.Bytes(), nil
}

func buildPage(v *view, opt Options) (*page, error) {
	f := v.f
	p := &page{
		Title:       "gpureport: " + v.Run,
		Run:         v.Run,
		GeneratedAt: Timestamp(opt.GeneratedAt),
		Version:     opt.Version,
		Severity:    v.Severity,
		Headline:    v.Headline,
		Reasons:     v.Reasons,
		Flags:       f.Verdict.Flags(),
		Figures:     v.Figures,
		Notes:       v.Notes,
		Licenses:    templates.Licenses(),
		Echarts:     template.JS(templates.Echarts),
		Script:      template.JS(templates.MustRead("page.js")),
		CSS:         template.CSS(templates.MustRead("style.css")),
		EchartsVer:  templates.EchartsVersion,
	}
	for _, n := range nextSteps(f, v) {
		p.Next = append(p.Next, mdPlain(n))
	}
	for _, fg := range v.Devices {
		dv, err := buildDevice(fg)
		if err != nil {
			return nil, err
		}
		p.Devices = append(p.Devices, dv)
	}
	at := columnsOf(v.OOMs, "File", "Device", "Requested", "Device free", "Reserved", "Allocated", "Cached free", "Largest free")
	for i, o := range f.OOMs {
		c := at(v.OOMs.Rows[i])
		ov := buildOOM(o)
		ov.Where = c[0] + " on " + c[1]
		ov.Requested, ov.DeviceFree, ov.Reserved, ov.Allocated, ov.CachedFree, ov.LargestFree = c[2], c[3], c[4], c[5], c[6], c[7]
		p.OOMs = append(p.OOMs, ov)
	}
	if err := buildSuspects(p, v); err != nil {
		return nil, err
	}
	if r := f.Ranks; r != nil {
		rv := &rankView{Reason: r.Reason}
		if r.Skew > 0 {
			rv.Skew = Bytes(r.Skew)
		}
		if r.Outlier != input.NoRank {
			rv.Outlier = fmt.Sprintf("rank %d", r.Outlier)
		}
		for _, rs := range r.Ranks {
			row := rankRow{
				Rank: fmt.Sprint(rs.Rank), Device: fmt.Sprintf("cuda:%d", rs.Device), PeakAllocated: Bytes(rs.PeakAllocated), PeakReserved: Bytes(rs.PeakReserved),
				Slope: SignedBytes(rs.Slope), Growing: "no", Suspects: fmt.Sprint(rs.Suspects), TopSuspect: rs.TopSuspect,
				Outlier: rs.Rank == r.Outlier && r.Outlier != input.NoRank,
			}
			if rs.Growing {
				row.Growing = "yes"
			}
			rv.Rows = append(rv.Rows, row)
		}
		p.Ranks = rv
	}
	if op := f.OtherProcesses; op != nil {
		pv, err := buildProcs("processes-other", op, v.OtherProcesses, nil)
		if err != nil {
			return nil, err
		}
		pv.Other = true
		p.OtherProcs = pv
	}
	p.Prov = buildProvenance(v)
	p.Methods = methods(f.Thresholds)
	return p, nil
}

func buildDevice(fg deviceFigures) (deviceView, error) {
	d := fg.dev
	dv := deviceView{
		Label: DeviceLabel(d.DeviceKey), Anchor: deviceAnchor(d.DeviceKey),
		Order: orderLabel(d.Order), Axis: axisName(d.Axis), Capacity: "unknown", Verdict: d.Verdict,
		Coverage: Percent(d.Coverage.LiveWithStack),
	}
	if d.Capacity > 0 {
		dv.Capacity = Bytes(d.Capacity) + " (" + d.CapacitySource + ")"
	}
	if len(d.Points) == 0 {
		// No snapshots: say what the series is made of instead.
		dv.Order, dv.Axis, dv.Coverage = "GPU log time", deviceAxisName(d), "n/a (no snapshots)"
		if m := d.MemoryStats; m != nil {
			dv.Order = "memory_stats readings by " + m.Order
		}
	}
	dv.Trends = trendRows(fg.Trends)
	var err error
	if dv.Timeline, err = timelineChart(d); err != nil {
		return dv, err
	}
	if len(d.Points) > 0 {
		fc, err := fragmentationChart(d)
		if err != nil {
			return dv, err
		}
		dv.Frag = &fc
	}
	if fr := d.Fragmentation; fr != nil {
		dv.FragReason, dv.Fragmented = fr.Reason, fr.Fragmented
		if fr.SawTooth {
			dv.FragNotes = append(dv.FragNotes, "Reserved memory repeatedly falls back while allocated is flat (empty_cache or the allocator's garbage collection): churn, not fragmentation.")
		}
		if fr.Trend != nil {
			dv.FragNotes = append(dv.FragNotes, "Cached free (inactive) trend: "+trendText(fr.Trend)+".")
		}
		if fr.SplitTrend != nil {
			dv.FragNotes = append(dv.FragNotes, "Free memory inside segments that also hold live blocks (empty_cache cannot return it): "+trendText(fr.SplitTrend)+".")
		}
	}
	dv.Groups, dv.GroupsOmitted = groupRows(fg)
	if m := d.MemoryStats; m != nil {
		dv.Stats = buildStats(fg, m)
		if len(d.Points) == 0 {
			dv.AxisNote = "No snapshots: allocated and reserved memory come from torch.cuda.memory_stats() readings."
		} else {
			dv.AxisNote = "Lighter lines: torch.cuda.memory_stats() readings, drawn beside the snapshots (the snapshots decide the verdict)."
		}
	}
	if unplacedReadings(d) {
		note := fmt.Sprintf("nvidia-smi memory.used is not drawn: the snapshots carry no usable times (trace times, times in the file names, or file write times) to place its readings on the %s axis; its trend above is over time.", deviceAxisName(d))
		dv.AxisNote = strings.TrimSpace(dv.AxisNote + " " + note)
	}
	if d.Processes != nil {
		pv, err := buildProcs("processes-"+deviceAnchor(d.DeviceKey), d.Processes, fg.Processes, d)
		if err != nil {
			return dv, err
		}
		dv.Procs = pv
	}
	if tw := d.TraceWindow; tw != nil {
		tv, err := buildTraceView(d, tw)
		if err != nil {
			return dv, err
		}
		dv.Trace = tv
	}
	if r := d.Reconciliation; r != nil {
		dv.Reconciliation = r.Reason
		if dv.Reconciliation == "" && r.Matched > 0 {
			dv.Reconciliation = fmt.Sprintf("Memory outside the PyTorch allocator (nvidia-smi used minus reserved): %s median over %d matched snapshots.", BytesF(r.Level), r.Matched)
		}
	}
	dv.Rows = snapRows(fg.Snapshots)
	dv.RowsOmitted = len(d.Points) - len(dv.Rows)
	if n := len(d.Points); n > 0 {
		for _, pu := range d.Points[n-1].Pools {
			dv.Pools = append(dv.Pools, poolRow{
				Pool: pu.Pool, Reserved: Bytes(pu.Reserved), Allocated: Bytes(pu.Allocated), Inactive: Bytes(pu.Inactive),
				LargestFree: Bytes(pu.LargestFree), External: Percent(pu.ExternalFragmentation()),
			})
		}
		dv.Map = buildSegmentMap(d)
	}
	return dv, nil
}

// snapRows lays out a device's per-snapshot table for the page: at most
// maxTableRows rows, evenly thinned, the last one always kept.
func snapRows(t Table) []snapRow {
	step := 1
	if len(t.Rows) > maxTableRows {
		step = (len(t.Rows) + maxTableRows - 1) / maxTableRows
	}
	at := columnsOf(t, "#", "File", "Step", "Time (UTC)", "Allocated", "Reserved", "Active", "Cached free", "Largest free",
		"External fragmentation", "Segments", "Blocks", "Trace entries")
	var rows []snapRow
	for i, r := range t.Rows {
		if i%step != 0 && i != len(t.Rows)-1 {
			continue
		}
		c := at(r)
		rows = append(rows, snapRow{Index: c[0], Path: c[1], Step: c[2], Time: c[3], Allocated: c[4], Reserved: c[5], Active: c[6],
			Inactive: c[7], LargestFree: c[8], External: c[9], Segments: c[10], Blocks: c[11], Trace: c[12]})
	}
	return rows
}

// buildOOM describes an OOM beyond its row of the view's OOM table: its
// time, class, limit, stack, largest live groups and allocator settings.
func buildOOM(o analyze.OOM) oomView {
	v := oomView{
		Time: Timestamp(o.Time), Class: string(o.Class), Explanation: o.Explanation,
		Recommendations: o.Recommendations, Site: o.Site, Function: o.Function,
	}
	if o.Reconstructed {
		v.State = fmt.Sprintf("State at the OOM rebuilt from the trace (the snapshot was taken later; %s were freed in between).", Bytes(o.FreedAfter))
	}
	switch {
	case o.Capacity > 0:
		v.Limit = Bytes(o.Capacity)
	case o.EstimatedCapacity > 0:
		v.Limit = "at least " + Bytes(o.EstimatedCapacity) + " (reserved + free at the OOM)"
	}
	if len(o.Stack) > 0 {
		v.Stack, _ = foldStack(o.Stack, analyze.UserMask(o.Stack))
	}
	for _, g := range o.TopLive {
		v.TopLive = append(v.TopLive, liveRowOf(g))
	}
	if o.Settings.Present {
		var kv []string
		for _, r := range o.Settings.Raw {
			kv = append(kv, r.Key+"="+r.Value)
		}
		v.Settings = strings.Join(kv, ", ")
		if o.Settings.Conf != "" {
			v.Settings = "PYTORCH_CUDA_ALLOC_CONF=" + o.Settings.Conf + "; " + v.Settings
		}
	}
	return v
}

// buildSuspects lists the suspects in the view's order (the verdict's top
// suspects first), the suppressed ones apart.
func buildSuspects(p *page, v *view) error {
	n := 0
	at := columnsOf(v.SuspectTable, "Growth", "p-value", "Method", "Live first", "Live last", "Share of allocated", "Blocks")
	for i, it := range v.Suspects {
		s := it.s
		if s.Suppressed != "" {
			p.Suppressed = append(p.Suppressed, suspectView{Site: s.Site, Function: s.Function, Device: DeviceLabel(it.dev.DeviceKey), Fingerprint: s.Fingerprint,
				Rate: it.Growth, Suppressed: s.Suppressed})
			continue
		}
		n++
		if n > maxHTMLSuspects {
			p.MoreSusp++
			continue
		}
		c := at(v.SuspectTable.Rows[i])
		sv := suspectView{
			N: n, Anchor: fmt.Sprintf("suspect-%d", n), Site: s.Site, Function: s.Function,
			Device: DeviceLabel(it.dev.DeviceKey), Fingerprint: s.Fingerprint,
			Rate: c[0], PValue: c[1], Method: c[2], First: c[3], Last: c[4], Share: c[5], Blocks: c[6],
		}
		if err := describeSuspect(&sv, n, it.dev, s); err != nil {
			return err
		}
		p.Suspects = append(p.Suspects, sv)
	}
	return nil
}

// describeSuspect completes a suspect's section from its table cells:
// the claim in words, confidence, evidence, stack and chart.
func describeSuspect(v *suspectView, n int, d *analyze.Device, s *analyze.Suspect) error {
	site := s.Site
	if s.Function != "" {
		site += " in " + s.Function
	}
	// One pair of parentheses: "+492 KiB/step (95% CI +467 to +516 KiB;
	// p<0.001, Theil-Sen fit over 12 snapshots)".
	detail := fmt.Sprintf("%s, %s fit over %d snapshot%s", v.PValue, cmp.Or(s.Trend.Method, "trend"), s.Trend.N, plural(s.Trend.N))
	rate := v.Rate + " (" + detail + ")"
	if strings.HasSuffix(v.Rate, ")") {
		rate = strings.TrimSuffix(v.Rate, ")") + "; " + detail + ")"
	}
	v.Claim = fmt.Sprintf("The live memory allocated at %s on %s grows by %s.", site, v.Device, rate)
	if v.Last != "" {
		v.Claim += fmt.Sprintf(" It holds %s at the last snapshot", v.Last)
		if v.Share != "" {
			v.Claim += fmt.Sprintf(", %s of allocated memory", v.Share)
		}
		v.Claim += "."
	}
	v.Confidence, v.Evidence = string(s.Confidence), s.Evidence
	if finite(s.Share) && s.Share > 0 {
		v.GrowthShare = Percent(s.Share)
		v.Claim += fmt.Sprintf(" It accounts for %s of the device's allocated growth.", v.GrowthShare)
	}
	v.Stack, v.FramesCut = foldStack(s.Stack, s.User)
	c, err := suspectChart("suspect-chart-"+fmt.Sprint(n), d, s)
	if err != nil {
		return err
	}
	v.Chart = &c
	return nil
}

// foldStack splits a stack (innermost first) into user frames and runs of
// library frames, which the page folds. It keeps at most maxStackFrames
// frames and returns how many it cut.
func foldStack(stack []snapshot.Frame, user []bool) ([]stackPart, int) {
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
			parts[i].Summary = fmt.Sprintf("%d library frame%s", len(parts[i].Frames), plural(len(parts[i].Frames)))
		}
	}
	return parts, cut
}

// counted is a count with its noun in the right number: "1 event",
// "1,000 events".
func counted(n int, noun string) string {
	return Count(int64(n)) + " " + noun + plural(n)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func buildProvenance(v *view) provView {
	f := v.f
	pv := provView{Location: cmp.Or(f.Location, "not recorded"), Inputs: v.Inputs, Capture: v.Capture}
	at := columnsOf(v.GPULogs, "File", "Format", "Samples", "GPUs", "Skipped lines")
	for i, r := range v.GPULogs.Rows {
		c := at(r)
		pv.Logs = append(pv.Logs, logRow{Path: c[0], Format: c[1], Samples: c[2], GPUs: c[3], SkippedLines: c[4],
			Notes: f.Inputs.Logs[i].Notes, Problems: v.Logs[i].Lines, SkipCounts: v.Logs[i].Kinds})
	}
	sk := skippedOf(v.Skipped)
	for _, r := range v.Skipped.Rows {
		c := sk(r)
		pv.Skipped = append(pv.Skipped, skippedRow{Path: c[0], Reason: c[1]})
	}
	for _, d := range f.Devices {
		pd := provDevice{
			Label: DeviceLabel(d.DeviceKey), Order: orderLabel(d.Order), Axis: axisName(d.Axis),
			Files: Count(int64(len(d.Points))), Coverage: coverageText(d.Coverage), Overflow: "no", Capacity: "unknown", GPUJoin: d.GPUJoin,
		}
		if d.Coverage.TraceOverflow {
			pd.Overflow = "yes: the trace ring buffer was full, early events were lost"
			if d.Coverage.TraceEvidence != "" {
				pd.Overflow = "yes: " + d.Coverage.TraceEvidence
			}
		} else if d.Coverage.TraceEvidence != "" {
			pd.Overflow = d.Coverage.TraceEvidence
		}
		if d.Capacity > 0 {
			pd.Capacity = Bytes(d.Capacity) + " from " + d.CapacitySource
		}
		if len(d.Points) == 0 && d.MemoryStats != nil {
			pd.Order = "memory_stats readings by " + d.MemoryStats.Order
		}
		pv.Devices = append(pv.Devices, pd)
	}
	return pv
}

// buildSegmentMap draws the segments of the device's last snapshot
// (Device.Last), when it is still decoded: the largest maxMapSegments
// segments in address order, each a bar of its blocks.
func buildSegmentMap(d *analyze.Device) *segmentMap {
	snap := d.Last
	if len(d.Points) == 0 || snap == nil || snap.Snapshot == nil {
		return nil
	}
	last := d.Points[len(d.Points)-1]
	var segs []*snapshot.Segment
	for i := range snap.Snapshot.Segments {
		if sg := &snap.Snapshot.Segments[i]; sg.Device == d.Device {
			segs = append(segs, sg)
		}
	}
	m := &segmentMap{Device: DeviceLabel(d.DeviceKey), Path: last.Path}
	if len(segs) > maxMapSegments {
		slices.SortStableFunc(segs, func(a, b *snapshot.Segment) int { return cmp.Compare(b.TotalSize, a.TotalSize) })
		var rest int64
		for _, sg := range segs[maxMapSegments:] {
			rest += sg.TotalSize
		}
		m.Omitted, m.Omitted2 = len(segs)-maxMapSegments, Bytes(rest)
		segs = segs[:maxMapSegments]
	}
	slices.SortStableFunc(segs, func(a, b *snapshot.Segment) int { return cmp.Compare(a.Address, b.Address) })
	st := &snap.Snapshot.Stacks
	var largest int64
	for _, sg := range segs {
		largest = max(largest, sg.TotalSize)
	}
	// The blocks of a leak suspect (by fingerprint, or by site when the
	// suspect merges stacks) are marked; each stack is classified once.
	suspect := map[string]string{}
	for i := range d.Suspects {
		s := &d.Suspects[i]
		if s.Suppressed != "" {
			continue
		}
		label := fmt.Sprintf("leak suspect: %s", s.Site)
		if s.Fingerprint != "" {
			suspect["fp:"+s.Fingerprint] = label
		}
		if s.Site != "" {
			suspect["site:"+s.Site] = label
		}
	}
	seen := map[snapshot.StackID]string{}
	suspectOf := func(id snapshot.StackID) string {
		if len(suspect) == 0 || id == snapshot.NoStack {
			return ""
		}
		if l, ok := seen[id]; ok {
			return l
		}
		sig := analyze.StackSignature(st, id)
		l := cmp.Or(suspect["fp:"+sig.Fingerprint], suspect["site:"+sig.Site])
		seen[id] = l
		return l
	}
	for _, sg := range segs {
		row := segmentRow{Label: fmt.Sprintf("0x%x · %s · %s pool · stream %d", sg.Address, Bytes(sg.TotalSize), sg.Pool, sg.Stream)}
		if sg.Expandable {
			row.Label += " · expandable"
		}
		if largest > 0 {
			row.Width = fmt.Sprintf("%.3f%%", 100*float64(sg.TotalSize)/float64(largest))
		}
		row.Blocks = segmentBlocks(sg, st, suspectOf)
		m.Segments = append(m.Segments, row)
	}
	return m
}

// segmentBlocks turns a segment's blocks into cells; tiny neighbours of
// one state are merged so a segment has at most maxMapBlocks cells.
func segmentBlocks(sg *snapshot.Segment, st *snapshot.Stacks, suspectOf func(snapshot.StackID) string) []blockCell {
	if sg.TotalSize <= 0 {
		return nil
	}
	minSize := sg.TotalSize / maxMapBlocks
	type run struct {
		state snapshot.BlockState
		size  int64
		n     int
		first snapshot.Block
		// suspect names the leak suspect the blocks belong to, "" for none.
		suspect string
	}
	var runs []run
	for _, b := range sg.Blocks {
		sus := ""
		if b.State != snapshot.StateInactive {
			sus = suspectOf(b.Stack)
		}
		if k := len(runs); k > 0 && runs[k-1].state == b.State && runs[k-1].suspect == sus && (b.Size < minSize || runs[k-1].size < minSize) {
			runs[k-1].size += b.Size
			runs[k-1].n++
			continue
		}
		runs = append(runs, run{state: b.State, size: b.Size, n: 1, first: b, suspect: sus})
	}
	cells := make([]blockCell, 0, len(runs))
	for _, r := range runs {
		c := blockCell{Class: "b-" + strings.ReplaceAll(r.state.String(), "_", "-"), Width: fmt.Sprintf("%.3f%%", 100*float64(r.size)/float64(sg.TotalSize))}
		if r.n > 1 {
			c.Title = fmt.Sprintf("%d %s blocks, %s", r.n, r.state, Bytes(r.size))
		} else {
			c.Title = fmt.Sprintf("%s block, %s at 0x%x", r.state, Bytes(r.size), r.first.Address)
			if r.first.Stack != snapshot.NoStack {
				if fr := st.StackFrames(r.first.Stack); len(fr) > 0 {
					c.Title += "\n" + frameText(fr[0])
				}
			}
		}
		if r.suspect != "" {
			c.Class += " b-suspect"
			c.Title += "\n" + r.suspect
		}
		cells = append(cells, c)
	}
	return cells
}

// mdPlain strips the Markdown escapes and code ticks of nextSteps' lines
// for the HTML page (html/template escapes the text itself).
func mdPlain(s string) string {
	var b strings.Builder
	esc := false
	for _, r := range s {
		switch {
		case esc:
			b.WriteRune(r)
			esc = false
		case r == '\\':
			esc = true
		case r == '`':
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	out = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(out)
	return out
}

// unplacedReadings reports whether d has GPU readings of which none
// could be placed on its chart's x axis (so the timeline lacks them).
func unplacedReadings(d *analyze.Device) bool {
	if d.GPU == nil || len(d.GPU.Used) == 0 {
		return false
	}
	return !slices.ContainsFunc(d.GPU.X, finite)
}

// coverageText is a device's stack coverage: "92% (full; lowest 85%)".
func coverageText(c analyze.Coverage) string {
	s := Percent(c.LiveWithStack)
	var extra []string
	if c.Level != "" {
		extra = append(extra, c.Level)
	}
	if len(c.PerPoint) > 1 && c.MinLiveWithStack < c.LiveWithStack {
		extra = append(extra, "lowest "+Percent(c.MinLiveWithStack))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, "; ") + ")"
	}
	return s
}

// maxGroupRows bounds a device's table of top stack groups.
const maxGroupRows = 15

// groupRows lays out a device's largest stack groups at the last
// snapshot (at most maxGroupRows of its groups table) and counts the
// rest.
func groupRows(fg deviceFigures) ([]groupRow, int) {
	t := fg.Groups
	if len(fg.dev.Points) == 0 || len(t.Rows) == 0 {
		return nil, 0
	}
	lastCol := t.col("Live last")
	last := func(r Row) float64 {
		if v := r.Cells[lastCol].Value; finite(v) {
			return v
		}
		return 0
	}
	rows := slices.Clone(t.Rows)
	slices.SortStableFunc(rows, func(a, b Row) int { return cmp.Compare(last(b), last(a)) })
	at := columnsOf(t, "Site", "Function", "Fingerprint", "Live first", "Live last", "Peak", "Blocks last")
	var out []groupRow
	for _, r := range rows[:min(len(rows), maxGroupRows)] {
		c := at(r)
		g := groupRow{Site: c[0], Function: c[1], Fingerprint: c[2], First: c[3], Last: c[4], Peak: c[5], Blocks: c[6]}
		if r.Total {
			g.Function, g.Fingerprint = "", ""
		}
		out = append(out, g)
	}
	return out, len(t.Rows) - len(out)
}

func liveRowOf(g analyze.LiveGroup) liveRow {
	return liveRow{Site: g.Site, Function: g.Function, Fingerprint: g.Fingerprint, Bytes: Bytes(g.Bytes), Blocks: Count(int64(g.Blocks))}
}

// buildTraceView shows what the last snapshot's trace says on its own.
func buildTraceView(d *analyze.Device, tw *analyze.TraceWindow) (*traceView, error) {
	tv := &traceView{Path: tw.Path}
	tv.Summary = fmt.Sprintf("%s; peak allocated in the window %s; %s allocated in the window and never freed",
		counted(tw.Entries, "trace event"), Bytes(tw.PeakAllocated), Bytes(tw.NeverFreedBytes))
	if !tw.Start.IsZero() && !tw.End.IsZero() {
		tv.Summary += fmt.Sprintf("; %s to %s", Timestamp(tw.Start), Timestamp(tw.End))
	}
	if tw.UnknownFrees > 0 {
		tv.Summary += fmt.Sprintf("; %s of blocks allocated before the window (the ring buffer dropped older events)", counted(tw.UnknownFrees, "free"))
	}
	tv.Summary += "."
	for i, g := range tw.NeverFreed {
		if i == 20 {
			break
		}
		tv.NeverFreed = append(tv.NeverFreed, liveRowOf(g))
	}
	if len(tw.Timeline) >= 2 {
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
		c, err := chartSpec{id: "trace-" + deviceAnchor(d.DeviceKey), xName: "trace event", yName: unit, height: 260, zoom: true,
			series: []seriesSpec{
				{name: "allocated", points: downsample(alloc), color: colorAllocated, step: true},
				{name: "reserved", points: downsample(res), color: colorReserved, step: true},
			}}.render()
		if err != nil {
			return nil, err
		}
		tv.Chart = &c
	}
	return tv, nil
}

// methodTerms explain, once, the terms the page uses.
var methodTerms = []string{
	"Allocated: memory in live tensors. Reserved: memory the PyTorch caching allocator holds from CUDA (allocated plus cached free). Cached free: reserved but unused, kept for reuse. nvidia-smi used: what the driver reports for the whole GPU, which also counts memory outside the allocator (CUDA context, NCCL buffers, other libraries and processes).",
	"External fragmentation: 1 − largest free block / cached free; high when the free memory is cut into pieces too small for a large request.",
	"Slope: the Theil-Sen estimate, the median of the slopes between every pair of points, which a few outliers do not move; its 95% interval (CI) is where the true growth lies with 95% confidence. p: the Mann-Kendall trend test's probability of seeing this much steady change in a series that does not grow.",
	"Time to capacity: where the fitted line, continued at the run's own pace, reaches the limit: the device's memory less the memory outside the allocator (nvidia-smi used minus reserved), since the allocator cannot use that part.",
	"Stack coverage: the share of live bytes whose allocation stack was recorded; a leak can only be traced to a line of code where stacks exist.",
	"Leak site: the line of your code where a suspect's tensors are allocated. A line reached through several call paths is one suspect per path; the site's rate sums them, with the line's other paths whose live bytes only accumulate, and the headline, the severity and the time to capacity use it. Sites whose live block counts rise by the same number at every snapshot grow in lockstep: one object probably keeps them all alive, such as a loss kept with its autograd graph.",
	"Not a leak: a warm-up (a jump or ramp within the first third of the run), a buffer allocated once (one-time step), growth that stopped for the last third of the run (a bounded cache that filled), and a regular saw-tooth (a buffer filled and flushed). A leak that starts mid-run is fitted from where it starts, so its rate is the rate it grows at.",
}

// methods explains the page's terms and the thresholds the verdict
// applied.
func methods(t analyze.Thresholds) []string {
	out := append([]string{}, methodTerms...)
	if t == (analyze.Thresholds{}) {
		return out
	}
	if t.MinPoints > 0 {
		out = append(out, fmt.Sprintf("A trend verdict needs at least %d snapshots.", t.MinPoints))
	}
	if t.Alpha > 0 {
		out = append(out, fmt.Sprintf("A device series grows when the Mann-Kendall test rejects \"no trend\" at %s and the 95%% interval of the Theil-Sen slope lies above zero.", Number(t.Alpha)))
	}
	if t.SuspectAlpha > 0 {
		out = append(out, fmt.Sprintf("A stack group is a leak suspect at the stricter level %s, since many groups are tested.", Number(t.SuspectAlpha)))
	}
	if t.MinGrowthBytes > 0 || t.MinGrowthShare > 0 {
		out = append(out, fmt.Sprintf("Growth must total at least %s and %s of the steady allocated level to count as a leak.", Bytes(t.MinGrowthBytes), Percent(t.MinGrowthShare)))
	}
	if t.ExtrapolationRuns > 0 {
		out = append(out, fmt.Sprintf("A projection further ahead than %s× the run's length is marked as a long extrapolation.", Number(t.ExtrapolationRuns)))
	}
	return out
}

// maxProcessRows bounds a process table; the rest are counted (every
// process is in report.xlsx and summary.json).
const maxProcessRows = 50

// buildProcs renders a process set: chart and table (t, at most
// maxProcessRows rows). d is the device the processes run on, nil for the
// processes of no device.
func buildProcs(id string, set *analyze.ProcessSet, t Table, d *analyze.Device) (*procView, error) {
	pv := &procView{Axis: processAxisName(set, d)}
	at := columnsOf(t, "Label", "GPU", "Readings", "First (UTC)", "Last (UTC)", "Peak", "Last used", "Trend", "Verdict")
	for i, r := range t.Rows {
		if i == maxProcessRows {
			pv.Omitted = len(t.Rows) - i
			break
		}
		c := at(r)
		row := procRow{Process: c[0], Readings: c[2], First: c[3], Last: c[4], Peak: c[5], LastUsed: c[6], Trend: c[7], Growing: c[8] == analyze.VerdictGrowing}
		if d == nil {
			row.GPU = c[1]
		}
		pv.Rows = append(pv.Rows, row)
	}
	c, err := processChart(id, pv.Axis, set, d == nil)
	if err != nil {
		return nil, err
	}
	if c != nil {
		pv.Chart = c
	}
	return pv, nil
}

// processAxisName is the x axis title of a process chart.
func processAxisName(set *analyze.ProcessSet, d *analyze.Device) string {
	switch {
	case set.OnDeviceAxis && d != nil:
		return deviceAxisName(d)
	case set.Axis == analyze.AxisHours:
		return "hours since first process reading"
	}
	return axisName(analyze.AxisReading)
}

// trendRows lays out a table of trends for the page.
func trendRows(t Table) []trendRow {
	at := columnsOf(t, "Label", "Slope", "p-value", "Method", "Verdict", "Points", "Projection", "Reason")
	var rows []trendRow
	for _, r := range t.Rows {
		c := at(r)
		rows = append(rows, trendRow{Metric: c[0], Rate: c[1], PValue: c[2], Method: c[3], Verdict: c[4], Points: c[5], Projection: c[6], Reason: c[7]})
	}
	return rows
}

// buildStats describes a device's memory_stats readings.
func buildStats(fg deviceFigures, m *analyze.MemoryStatsSeries) *statsView {
	sv := &statsView{}
	alloc := memStatsMax(m, func(r gpulog.MemoryStatsSample) int64 { return r.Allocated })
	res := memStatsMax(m, func(r gpulog.MemoryStatsSample) int64 { return r.Reserved })
	parts := []string{fmt.Sprintf("%s from %s, ordered by %s", counted(len(m.Readings), "reading"), strings.Join(m.Sources, ", "), m.Order)}
	if alloc >= 0 {
		parts = append(parts, "peak allocated "+Bytes(alloc))
	}
	if res >= 0 {
		parts = append(parts, "peak reserved "+Bytes(res))
	}
	if v := memStatsLast(m, func(r gpulog.MemoryStatsSample) int64 { return r.NumOOMs }); v >= 0 {
		parts = append(parts, fmt.Sprintf("num_ooms %d at the last reading", v))
	}
	sv.Summary = strings.Join(parts, "; ") + "."
	sv.Trends = trendRows(fg.StatsTrends)
	for _, o := range m.OOMs {
		sv.OOMs = append(sv.OOMs, statsOOMText(m, o))
	}
	if m.Retries != nil {
		sv.Retries = m.Retries.Reason + "."
	}
	return sv
}
