package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
	"gpureport/report/words"
)

// A device's items: its key figures, its tables (snapshots, stack groups,
// trends, processes, fragmentation), the sections of the page (trace
// window, memory_stats readings, segment map, provenance) and its
// charts. A per-device table's rows carry the device's identity, so the
// workbook can stack every device's table on one sheet.

// deviceItem is everything the reports show of one device.
type deviceItem struct {
	// Key identifies it; Label names it in every output ("rank 1 ·
	// cuda:0", words.Device); Anchor is its HTML id fragment.
	Key           analyze.DeviceKey
	Label, Anchor string
	// Kind says what its series is made of.
	Kind deviceKind
	// PeakAllocated ... Verdict are its key figures (figureColumns).
	PeakAllocated, PeakReserved, PeakUsed, Capacity Cell
	Trend, Projection, Fragmentation, Verdict       Cell
	// UsedName names its GPU logs' used memory ("nvidia-smi used",
	// "rocm-smi used": words.DeviceUsed).
	UsedName string
	// Metric names its primary trend ("allocated", "nvidia-smi used"),
	// "" when it has none; TrendText is that trend in words.
	Metric, TrendText string
	// Order, Axis, CapacityText and Coverage describe its series on the
	// page; AxisUnit is its axis' unit ("step", "hour").
	Order, Axis, CapacityText, Coverage string
	AxisUnit                            string
	// Snapshots, Groups, Trends (and StatsTrends, those fitted on its
	// memory_stats readings beside its snapshots) are its tables.
	Snapshots   []snapshotRow
	Groups      []groupRow
	Trends      []trendRow
	StatsTrends []trendRow
	// Processes are the processes on its GPU; nil when none were logged.
	Processes *processSet
	// Frag is its fragmentation; Reconciliation what memory outside the
	// allocator does; AxisNote what its timeline does not draw.
	Frag           fragItem
	Reconciliation string
	AxisNote       string
	// Trace is what its last snapshot's trace shows; Stats its
	// memory_stats readings; Map its last snapshot's segments. Nil when
	// it has none.
	Trace *traceItem
	Stats *statsItem
	Map   *segmentMapItem
	// Timeline is its chart of memory over time.
	Timeline chartSpec
	// Roles is what holds its memory; nil when no snapshot has roles.
	Roles *rolesItem
	// Prov is its line of the page's provenance.
	Prov provItem
	// GPU and MemoryStats are its raw readings, which the workbook lists
	// (nil when it has none).
	GPU         *analyze.GPUSeries
	MemoryStats *analyze.MemoryStatsSeries
	// Share is its used memory as a percent of the device, for a GPU
	// whose logs give no bytes and no total (nil otherwise).
	Share *analyze.ShareSeries
	// json is its entry of summary.json's devices.
	json SummaryDevice
}

// deviceKind says what a device's series is made of.
type deviceKind int

const (
	// kindSnapshots: snapshots.
	kindSnapshots deviceKind = iota
	// kindMemoryStats: torch.cuda.memory_stats readings, no snapshots.
	kindMemoryStats
	// kindGPU: GPU log readings only.
	kindGPU
)

// buildDevice builds device d's item.
func buildDevice(f *analyze.Findings, d *analyze.Device) deviceItem {
	it := deviceItem{
		Key: d.DeviceKey, Label: words.Device(d.DeviceKey), Anchor: deviceAnchor(d.DeviceKey),
		Order: words.Order(d), Axis: words.DeviceAxis(d), AxisUnit: string(d.Axis), CapacityText: "unknown", Coverage: units.Percent(d.Coverage.LiveWithStack),
		Snapshots: snapshotRows(d), Groups: groupRows(d), Trends: trendRows(d, d.Trends, ""),
		Reconciliation: words.Outside(d), AxisNote: words.AxisNote(d), Timeline: timelineChart(d),
		GPU: d.GPU, MemoryStats: d.MemoryStats, Share: d.UsedShare, Prov: provOf(d), Roles: buildRoles(f, d),
	}
	switch {
	case len(d.Points) > 0:
		it.Kind = kindSnapshots
	case d.MemoryStats != nil:
		it.Kind = kindMemoryStats
	default:
		it.Kind = kindGPU
	}
	if d.Capacity > 0 {
		it.CapacityText = units.Bytes(d.Capacity) + " (" + words.CapacitySource(d) + ")"
	}
	if it.Kind != kindSnapshots {
		it.Coverage = "n/a (no snapshots)"
	}
	if m := d.MemoryStats; m != nil && len(d.Points) > 0 {
		it.StatsTrends = trendRows(d, m.Trends, " (memory_stats)")
	}
	if d.Processes != nil {
		it.Processes = buildProcessSet("processes-"+deviceAnchor(d.DeviceKey), d, d.Processes)
	}
	if m := d.MemoryStats; m != nil {
		it.Stats = buildStats(m, it.StatsTrends)
	}
	if tw := d.TraceWindow; tw != nil {
		it.Trace = buildTrace(d, tw)
	}
	it.Frag = buildFrag(d)
	it.Map = buildSegmentMap(d)

	// The key figures. What a device without snapshots lacks reads
	// "n/a": fragmentation always; the allocator's peaks as analyze
	// decided them (unknown, so "n/a", unless memory_stats readings stand
	// in), the figures summary.json and the batch overview give.
	it.PeakAllocated, it.PeakReserved = knownBytesCell(d.PeakAllocated), knownBytesCell(d.PeakReserved)
	it.PeakUsed, it.UsedName = textCell("n/a"), words.DeviceUsed(d)
	switch {
	case d.GPU != nil && len(d.GPU.Used) > 0:
		// A reading of 0 MiB is a reading.
		it.PeakUsed = byteCell(d.GPU.MaxUsed)
		if tool := d.GPU.NamedTool(); tool != "" {
			// The column says nvidia-smi: other tools' readings say
			// whose they are.
			it.PeakUsed.Text += " (" + tool + ")"
		}
	case d.UsedShare != nil:
		it.PeakUsed = Cell{Text: words.UsedShare(d.UsedShare), Value: d.UsedShare.MaxPercent / 100, Unit: UnitShare}
	}
	it.Capacity = textCell(words.Capacity(d))
	if d.Capacity > 0 {
		it.Capacity.Value, it.Capacity.Unit = float64(d.Capacity), UnitBytes
	}
	primary := d.Primary()
	it.Metric, it.TrendText = words.TrendName(primary), words.Trend(primary)
	it.Trend = textCell(it.TrendText)
	if primary != nil {
		it.Trend = textCell(it.Metric + ": " + it.TrendText)
	}
	it.Projection = textCell(cmp.Or(words.Projection(d, primary), "n/a"))
	it.Fragmentation = textCell("n/a (no snapshots)")
	if n := len(d.Points); n > 0 {
		u := d.Points[n-1].Usage
		ext := u.ExternalFragmentation()
		it.Fragmentation = Cell{Text: fmt.Sprintf("%s of %s cached free", units.Percent(ext), units.Bytes(u.Inactive)), Value: ext, Unit: UnitShare}
	}
	it.Verdict = textCell(string(d.Status))
	it.json = summaryDevice(f, d, it)
	return it
}

// fields lists a device's key figures as ("rank 0 cuda:0: peak
// allocated", cell) pairs, for a two-column layout.
func (d deviceItem) fields() (names []string, cells []Cell) {
	for _, c := range figureColumns[1:] {
		names = append(names, d.Label+": "+strings.ToLower(c.Name[:1])+c.Name[1:])
		cells = append(cells, c.Of(d))
	}
	return names, cells
}

// snapshotRow is one snapshot of a device: its usage, fragmentation and
// sizes.
type snapshotRow struct {
	// CUDA is the device's CUDA device index, empty for a rank's pinned
	// host memory (cudaIndexCell).
	Device                                              string
	Rank, CUDA, Index                                   Cell
	File                                                string
	Step, Time                                          Cell
	Axis                                                string
	X                                                   Cell
	Allocated, Reserved, Active, Requested              Cell
	CachedFree, LargestFree, InternalWaste, ExternalFrg Cell
	Segments, Blocks, TraceEntries                      Cell
}

// cudaIndexCell is device k's CUDA device index; empty for a rank's
// pinned host memory, which is on no CUDA device (its Device is the host
// allocator's index, 0, never cuda:0).
func cudaIndexCell(k analyze.DeviceKey) Cell {
	if k.Host {
		return noneCell(UnitCount)
	}
	return countCell(k.Device, false)
}

// snapshotRows are a device's snapshots, in the device's order.
func snapshotRows(d *analyze.Device) []snapshotRow {
	out := make([]snapshotRow, 0, len(d.Points))
	for i, p := range d.Points {
		u := p.Usage
		step := noneCell(UnitCount)
		if p.Step != input.NoStep {
			step = countCell(p.Step, true)
		}
		out = append(out, snapshotRow{
			Device: words.Device(d.DeviceKey), Rank: rankCellOf(d.DeviceKey.JobRank()), CUDA: cudaIndexCell(d.DeviceKey),
			Index: countCell(i+1, false), File: p.Path, Step: step, Time: timeCell(p.Time, tableTime), Axis: string(d.Axis), X: numberCell(p.X),
			Allocated: byteCell(u.Allocated), Reserved: byteCell(u.Reserved), Active: byteCell(u.Active), Requested: byteCell(u.Requested),
			CachedFree: byteCell(u.Inactive), LargestFree: byteCell(u.LargestFree), InternalWaste: byteCell(u.InternalWaste), ExternalFrg: shareCell(u.ExternalFragmentation()),
			Segments: countCell(u.Segments, true), Blocks: countCell(u.Blocks, true), TraceEntries: countCell(u.TraceEntries, true),
		})
	}
	return out
}

// tableTime is a UTC time for a table cell whose header says UTC:
// "2026-03-02 09:00:08", which can wrap between date and time on a narrow
// page (RFC 3339's "T" and "Z" cannot).
func tableTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateTime)
}

// groupRow is one stack group of a device: its live bytes at the first
// and last snapshot and at its peak. Total marks the group that sums the
// groups beyond the analysis' limit, which a short layout shows without
// the identifiers of any one group.
type groupRow struct {
	Device                            string
	Site, Function, Fingerprint, Kind string
	File                              string
	First, Last, Peak, Blocks         Cell
	Total                             bool
}

// groupRows are a device's stack groups, in the analysis' order.
func groupRows(d *analyze.Device) []groupRow {
	out := make([]groupRow, 0, len(d.Groups))
	for i := range d.Groups {
		g := &d.Groups[i]
		r := groupRow{Device: words.Device(d.DeviceKey), Site: g.Site, Function: g.Function, Fingerprint: g.Fingerprint, Kind: string(g.Kind), File: g.File,
			First: noneCell(UnitBytes), Last: noneCell(UnitBytes), Peak: noneCell(UnitBytes), Blocks: noneCell(UnitCount), Total: g.Other}
		if k := len(g.Bytes); k > 0 {
			r.First, r.Last, r.Peak = byteCell(g.Bytes[0]), byteCell(g.Bytes[k-1]), byteCell(slices.Max(g.Bytes))
		}
		if k := len(g.Blocks); k > 0 {
			r.Blocks = countCell(g.Blocks[k-1], true)
		}
		if g.Other {
			r.Site = "(all other groups)"
		}
		out = append(out, r)
	}
	return out
}

// trendRow is one fitted trend of a device: the slope with its interval
// (Slope's text is the rate with its interval), p-value, verdict and the
// projection to capacity.
type trendRow struct {
	Device, Metric, Label string
	Per                   units.Per
	Points                Cell
	Slope, Lo, Hi, PValue Cell
	Method, Verdict       string
	FitFrom               Cell
	Limit, ReachesAt      Cell
	Remaining, TimeLeft   Cell
	Projection, Reason    string
	Source                string
	// json is its entry of summary.json's trends.
	json SummaryTrend
}

// trendRows are a device's trends, a row each; suffix follows each
// metric's label (" (memory_stats)").
func trendRows(d *analyze.Device, trends []analyze.Trend, suffix string) []trendRow {
	out := make([]trendRow, 0, len(trends))
	for i := range trends {
		tr := &trends[i]
		slope, p := rateCell(tr.Slope, tr.Per), pValueCell(tr.PValue)
		slope.Text = words.SlopeText(tr)
		if tr.State == analyze.StateInsufficient {
			// No slope, interval or test (analyze): the row says so
			// as the key figures do, with no p-value beside it.
			slope.Text, p = words.Trend(tr), noneCell(UnitPValue)
		}
		r := trendRow{
			Device: words.Device(d.DeviceKey), Metric: tr.Metric, Label: words.TrendMetric(tr) + suffix, Per: tr.Per, Points: countCell(tr.N, false),
			Slope: slope, Lo: rateCell(tr.Lo, tr.Per), Hi: rateCell(tr.Hi, tr.Per), PValue: p,
			Method: words.Method(tr), Verdict: string(tr.Status()), FitFrom: countCell(tr.FitFrom+1, false),
			Limit: emptyCell(), ReachesAt: emptyCell(), Remaining: emptyCell(), TimeLeft: emptyCell(),
			Projection: words.Projection(d, tr), Reason: words.TrendReason(tr), Source: words.TrendSource(tr),
			json: summaryTrend(tr),
		}
		if p := tr.Projection; p != nil {
			r.Limit, r.ReachesAt, r.Remaining = byteCell(p.Capacity), axisCell(p.X, tr.Per, true), axisCell(p.Remaining, tr.Per, false)
			if p.Hours > 0 {
				r.TimeLeft = Cell{Text: units.Hours(p.Hours), Value: p.Hours, Unit: UnitHours}
			}
		}
		out = append(out, r)
	}
	return out
}

// processSet is a set of processes (of a device's GPU, or of no device):
// a row each, their chart, and the raw readings the workbook lists.
type processSet struct {
	// Axis titles the chart's x axis; Other is true for the processes of
	// no device.
	Axis  string
	Other bool
	Rows  []processRow
	Chart *chartSpec
	// Set is the raw readings.
	Set *analyze.ProcessSet
}

// processRow is one process: readings, peak and last used memory, and the
// trend of its used memory ("too few readings" when none was fitted).
type processRow struct {
	Device, Process, Label, Logs string
	GPU, PID, Readings           Cell
	First, Last, Peak, LastUsed  Cell
	Slope, Lo, Hi, PValue        Cell
	Per, Verdict, Pattern, Trend Cell
	Growing                      bool
	// json is its entry of summary.json.
	json SummaryProcess
}

// buildProcessSet builds a set of processes; d is the device they run
// on, nil for the processes of no device.
func buildProcessSet(id string, d *analyze.Device, set *analyze.ProcessSet) *processSet {
	ps := &processSet{Axis: processAxis(set, d), Other: d == nil, Set: set}
	dev := "(no device)"
	if d != nil {
		dev = words.Device(d.DeviceKey)
	}
	for i := range set.Series {
		p := &set.Series[i]
		gpu := Cell{Text: words.OtherGPU(p), Value: float64(p.GPU), Unit: UnitCount}
		if p.GPU < 0 {
			gpu.Value = nan()
		}
		var first, last time.Time
		if n := len(p.Times); n > 0 {
			first, last = p.Times[0], p.Times[n-1]
		}
		none := emptyCell()
		r := processRow{Device: dev, Process: p.Name, Label: words.Process(p), Logs: strings.Join(p.Sources, ", "),
			GPU: gpu, PID: countCell(p.PID, false), Readings: countCell(len(p.Used), true),
			First: timeCell(first, units.Timestamp), Last: timeCell(last, units.Timestamp), Peak: byteCell(p.Peak), LastUsed: byteCell(p.Last),
			Slope: none, Lo: none, Hi: none, Per: none, PValue: none, Verdict: textCell("too few readings"), Pattern: none, Trend: textCell("too few readings"),
			json: summaryProcess(p)}
		if tr := p.Trend; tr != nil {
			r.Slope, r.Lo, r.Hi, r.Per = rateCell(tr.Slope, tr.Per), rateCell(tr.Lo, tr.Per), rateCell(tr.Hi, tr.Per), textCell(string(tr.Per))
			r.PValue, r.Verdict, r.Pattern, r.Trend = pValueCell(tr.PValue), textCell(string(tr.Status())), textCell(string(tr.Pattern)), textCell(words.Trend(tr))
			r.Growing = tr.State == analyze.StateGrowing
			if tr.State == analyze.StateInsufficient {
				r.PValue = noneCell(UnitPValue) // no test was made (trendRows)
			}
		}
		ps.Rows = append(ps.Rows, r)
	}
	ps.Chart = processChart(id, ps.Axis, set, d == nil)
	return ps
}

// processAxis is the x axis title of a process chart.
func processAxis(set *analyze.ProcessSet, d *analyze.Device) string {
	switch {
	case set.OnDeviceAxis && d != nil:
		return words.DeviceAxis(d)
	case set.Axis == analyze.AxisHours:
		return "hours since first process reading"
	}
	return words.Axis(analyze.AxisReading)
}

// fragItem is a device's fragmentation: the decision in words, remarks,
// the pools at the last snapshot, each snapshot's state and a chart.
type fragItem struct {
	Fragmented bool
	Reason     string
	Notes      []string
	Pools      []poolRow
	Rows       []fragRow
	Chart      *chartSpec
}

// poolRow is one pool at a device's last snapshot.
type poolRow struct {
	Pool, Reserved, Allocated, Inactive, LargestFree, External string
}

// fragRow is one snapshot's fragmentation.
type fragRow struct {
	Device                                            string
	Index                                             int
	File                                              string
	X                                                 float64
	Inactive, LargestFree, InternalWaste, PinnedBytes int64
	External                                          float64
	PinnedSegments                                    int
	// Reason is the device's decision, on its last row only.
	Reason string
}

// buildFrag builds a device's fragmentation item.
func buildFrag(d *analyze.Device) fragItem {
	fi := fragItem{Reason: words.Fragmentation(d), Notes: words.FragNotes(d)}
	fr := d.Fragmentation
	if fr != nil {
		fi.Fragmented = fr.Fragmented
	}
	n := len(d.Points)
	if n == 0 {
		return fi
	}
	fc := fragmentationChart(d)
	fi.Chart = &fc
	for _, pu := range d.Points[n-1].Pools {
		fi.Pools = append(fi.Pools, poolRow{
			Pool: pu.Pool, Reserved: units.Bytes(pu.Reserved), Allocated: units.Bytes(pu.Allocated), Inactive: units.Bytes(pu.Inactive),
			LargestFree: units.Bytes(pu.LargestFree), External: units.Percent(pu.ExternalFragmentation()),
		})
	}
	for i, p := range d.Points {
		r := fragRow{Device: words.Device(d.DeviceKey), Index: i + 1, File: p.Path, X: p.X,
			Inactive: p.Usage.Inactive, LargestFree: p.Usage.LargestFree, External: p.Usage.ExternalFragmentation(), InternalWaste: p.Usage.InternalWaste}
		if fr != nil && i < len(fr.Points) {
			fp := fr.Points[i]
			r.Inactive, r.LargestFree, r.External, r.InternalWaste = fp.Inactive, fp.LargestFree, fp.External, fp.InternalWaste
			r.PinnedSegments, r.PinnedBytes = fp.PinnedSegments, fp.PinnedBytes
		}
		if i == n-1 {
			r.Reason = fi.Reason
		}
		fi.Rows = append(fi.Rows, r)
	}
	return fi
}

// traceItem is what a device's last snapshot's trace shows on its own.
type traceItem struct {
	Path, Summary string
	Chart         *chartSpec
	NeverFreed    []liveRow
}

// maxNeverFreedRows bounds the never-freed groups listed.
const maxNeverFreedRows = 20

// buildTrace builds a device's trace window item.
func buildTrace(d *analyze.Device, tw *analyze.TraceWindow) *traceItem {
	ti := &traceItem{Path: tw.Path, Summary: words.TraceSummary(tw), Chart: traceChart(d, tw)}
	for _, g := range tw.NeverFreed[:min(len(tw.NeverFreed), maxNeverFreedRows)] {
		ti.NeverFreed = append(ti.NeverFreed, liveRowOf(g))
	}
	return ti
}

// statsItem is a device's torch.cuda.memory_stats readings.
type statsItem struct {
	Summary string
	Trends  []trendRow
	OOMs    []string
	Retries string
}

// buildStats builds a device's memory_stats item.
func buildStats(m *analyze.MemoryStatsSeries, trends []trendRow) *statsItem {
	sv := &statsItem{Summary: words.StatsSummary(m), Trends: trends}
	for _, o := range m.OOMs {
		sv.OOMs = append(sv.OOMs, words.StatsOOM(o))
	}
	if m.Retries != nil {
		sv.Retries = words.Retries(m.Retries) + "."
	}
	return sv
}

// provItem is a device's line of the page's provenance.
type provItem struct {
	Label, Order, Axis, Files, Coverage, Overflow, Capacity, GPUJoin string
}

// provOf builds a device's provenance line.
func provOf(d *analyze.Device) provItem {
	pd := provItem{
		Label: words.Device(d.DeviceKey), Order: words.OrderRule(d.Order), Axis: words.Axis(d.Axis),
		Files: units.Count(int64(len(d.Points))), Coverage: words.Coverage(d.Coverage), Overflow: words.TraceWindow(d.Coverage), Capacity: "unknown", GPUJoin: words.GPUJoin(d),
	}
	if d.Capacity > 0 {
		pd.Capacity = units.Bytes(d.Capacity) + " from " + words.CapacitySource(d)
	}
	if len(d.Points) == 0 && d.MemoryStats != nil {
		pd.Order = "memory_stats readings by " + d.MemoryStats.Order
	}
	return pd
}

// knownBytesCell is a byte count's cell, "n/a" for a negative count
// (gpulog.Unknown: nothing read gives the figure), never "0 B".
func knownBytesCell(b int64) Cell {
	if b < 0 {
		return textCell("n/a")
	}
	return byteCell(b)
}

// neverFreedRow is one never-freed group of a device's trace window: its
// site, bytes, blocks, the steps the window shows beside it, and whether
// it is the possible leak seen in the window.
type neverFreedRow struct {
	Device, Path                string
	Site, Function, Fingerprint string
	Bytes, Blocks, Steps        Cell
	Leak                        string
}

// neverFreedRows are device d's trace window's never-freed groups, largest
// first.
func neverFreedRows(d *analyze.Device) []neverFreedRow {
	tw := d.TraceWindow
	out := make([]neverFreedRow, 0, len(tw.NeverFreed))
	for i := range tw.NeverFreed {
		g := &tw.NeverFreed[i]
		r := neverFreedRow{Device: words.Device(d.DeviceKey), Path: tw.Path, Site: g.Site, Function: g.Function, Fingerprint: g.Fingerprint,
			Bytes: byteCell(g.Bytes), Blocks: countCell(g.Blocks, true), Steps: noneCell(UnitCount)}
		if g.Turnovers > 0 {
			r.Steps = countCell(g.Turnovers, true)
		}
		if w := d.WindowLeak; w != nil && w.Group == i {
			r.Leak = "possible leak: " + words.WindowRate(w)
		}
		out = append(out, r)
	}
	return out
}
