package report

import (
	"cmp"
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// The view model: what a report shows, built once from the Findings
// (buildView) and laid out by each writer (HTML, Markdown, XLSX, stdout),
// as pprof's report.TextItems or x/perf's benchtab.Table. Each value is
// held both raw, with its unit, for the workbook's number cells, and as
// the text every writer prints, so the writers cannot drift apart.

// Unit says what a Cell's raw Value counts.
type Unit string

// Units of Cell values.
const (
	// UnitNone marks a cell with no number (text only).
	UnitNone Unit = ""
	// UnitBytes counts bytes.
	UnitBytes Unit = "bytes"
	// UnitShare is a fraction, 0..1 (printed as a percentage).
	UnitShare Unit = "share"
)

// Cell is one value of a Table: Text is how every writer prints it
// (formatted by internal/units, "n/a" where the value does not exist);
// Value is the raw number in Unit, NaN for a text-only or missing value.
type Cell struct {
	Text  string
	Value float64
	Unit  Unit
}

// textCell is a cell of text only.
func textCell(s string) Cell { return Cell{Text: s, Value: math.NaN()} }

// byteCell is a byte count.
func byteCell(n int64) Cell { return Cell{Text: Bytes(n), Value: float64(n), Unit: UnitBytes} }

// rateCell is a growth rate in bytes per unit of per ("step", "hour"):
// "+12.3 MiB/step", "n/a" (and no value) when unknown.
func rateCell(bytesPer float64, per string) Cell {
	c := Cell{Text: "n/a", Value: math.NaN(), Unit: Unit("bytes/" + per)}
	if finite(bytesPer) {
		c.Text, c.Value = Rate(bytesPer, units.Per(per)), bytesPer
	}
	return c
}

// Column heads a Table column.
type Column struct {
	// Name is the column's header.
	Name string
	// Num right-aligns the column (figures); Code marks untrusted
	// identifiers (sites, functions, fingerprints) that Markdown shows as
	// code spans.
	Num, Code bool
}

// Row is one row of a Table; Anchor, when set, is the HTML id fragment
// its first cell links to. Total marks a row that sums other rows (the
// stack groups beyond the analysis' limit), which a short layout shows
// without the identifiers of any one of them.
type Row struct {
	Anchor string
	Total  bool
	Cells  []Cell
}

// Table is a format-neutral table: its columns and rows, each row with
// one Cell per column.
type Table struct {
	Columns []Column
	Rows    []Row
}

// figureColumns are the key figures' columns, one per device row.
var figureColumns = []Column{
	{Name: "Device"}, {Name: "Peak allocated", Num: true}, {Name: "Peak reserved", Num: true},
	{Name: "Peak used (nvidia-smi)", Num: true}, {Name: "Capacity", Num: true}, {Name: "Allocated trend (95% CI)"},
	{Name: "Time to capacity"}, {Name: "External fragmentation (last snapshot)"}, {Name: "Verdict"},
}

// suspectColumns are the columns of the verdict's top suspects.
var suspectColumns = []Column{
	{Name: "#", Num: true}, {Name: "Site", Code: true}, {Name: "Function", Code: true}, {Name: "Device"},
	{Name: "Growth"}, {Name: "Live at end", Num: true}, {Name: "Fingerprint", Code: true},
}

// view is the format-neutral model of one run's report.
type view struct {
	// f is the Findings the view shows, for what the writers lay out
	// on their own (charts, sheets of raw readings, OOMs).
	f *analyze.Findings
	// Run, Severity ("ok" ... "critical") and Headline head every report;
	// Reasons back the verdict and Suppressed says which suspects
	// suppressions took out of it ("" when none).
	Run, Severity, Headline string
	Reasons                 []string
	Suppressed              string
	// Inputs summarises the inputs read ("24 snapshots, 1 GPU log ...").
	Inputs string
	// Capture says what the capture kit's manifests tell, a sentence each
	// (captureLines); nil when the run was not captured with the kit.
	Capture []string
	// Figures are the key figures, a row per device.
	Figures Table
	// Devices are the devices' figures, in Figures' order.
	Devices []deviceFigures
	// Suspects are every leak suspect in one order: the verdict's top
	// suspects first, then the others device by device.
	Suspects []suspectItem
	// SuspectTable is the suspects as a table, row i for Suspects[i].
	SuspectTable Table
	// Processes are the processes whose used memory grows.
	Processes []processItem
	// OtherProcesses is the table of the processes of no device (no rows
	// when there are none).
	OtherProcesses Table
	// Notes are the analysis' notes.
	Notes []string
	// Logs are the problems of each GPU log, in Findings.Inputs.Logs'
	// order.
	Logs []logProblems
	// OOMs are the out-of-memory errors, row i for Findings.OOMs[i].
	OOMs Table
	// SnapshotFiles, GPULogs and Skipped are the inputs as tables: the
	// snapshot files read, the GPU logs (row i for Logs[i]) and the
	// files skipped with the reason.
	SnapshotFiles, GPULogs, Skipped Table
}

// logProblems are one GPU log's problems in words, as every writer lists
// them.
type logProblems struct {
	// Lines are the problems at a line: "line 12: bad number".
	Lines []string
	// Kinds are the skipped lines by kind: "bad timestamp: 3 lines".
	Kinds []string
}

// all lists the lines, then the kinds, then the reader's notes.
func (p logProblems) all(notes []string) []string {
	return append(append(append([]string{}, p.Lines...), p.Kinds...), notes...)
}

// deviceFigures are one device's key figures.
type deviceFigures struct {
	dev *analyze.Device
	// Label names the device ("rank 1 · cuda:0"), ASCII for plain text.
	Label, ASCII string
	// PeakAllocated ... Fragmentation are the device's cells of Figures.
	PeakAllocated, PeakReserved, PeakUsed, Capacity Cell
	Trend, Projection, Fragmentation                Cell
	// trend is the allocated trend the cells describe, nil when none.
	trend *analyze.Trend
	// Snapshots is the device's per-snapshot table; Groups its stack
	// groups; Processes its processes (no rows when none were logged);
	// Trends its fitted trends, and StatsTrends those fitted on its
	// memory_stats readings beside its snapshots (no rows without both).
	Snapshots, Groups, Processes, Trends, StatsTrends Table
}

// suspectItem is one leak suspect of a device.
type suspectItem struct {
	dev *analyze.Device
	s   *analyze.Suspect
	// index is the suspect's position in dev.Suspects.
	index int
	// Top is true for the verdict's top suspects.
	Top bool
	// Growth is the suspect's rate with its interval; PValue its p.
	Growth, PValue string
	// Live is the suspect's live bytes at the last snapshot.
	Live Cell
}

// processItem is a process whose used memory grows, in words every
// writer prints as "<Label><Rest>": "python (pid 4242)" and " on cuda:0:
// +720 MiB/hour (95% CI ...), p<0.001; peak 2.30 GiB, last 2.30 GiB (180
// readings, nvidia-smi)".
type processItem struct {
	procRef
	Label, Rest string
}

// Text is the whole sentence.
func (p processItem) Text() string { return p.Label + p.Rest }

// buildView builds the view model of f.
func buildView(f *analyze.Findings) *view {
	v := &view{
		f: f, Run: f.RunDir, Severity: severity(f.Verdict), Headline: headline(f), Reasons: f.Verdict.Reasons,
		Suppressed: suppressedText(f), Inputs: inputsText(f), Capture: captureLines(f.Capture), Notes: f.Notes,
		Figures: Table{Columns: figureColumns},
	}
	for _, d := range f.Devices {
		fg := buildFigures(d)
		v.Devices = append(v.Devices, fg)
		v.Figures.Rows = append(v.Figures.Rows, Row{Anchor: deviceAnchor(d.DeviceKey), Cells: []Cell{
			textCell(fg.Label), fg.PeakAllocated, fg.PeakReserved, fg.PeakUsed, fg.Capacity, fg.Trend, fg.Projection, fg.Fragmentation, textCell(d.Verdict),
		}})
	}
	v.Suspects = suspectOrder(f)
	v.SuspectTable = suspectTable(v.Suspects)
	if op := f.OtherProcesses; op != nil {
		v.OtherProcesses = processTable(op, nil)
	}
	for _, l := range f.Inputs.Logs {
		var lp logProblems
		for _, pr := range l.Problems {
			lp.Lines = append(lp.Lines, fmt.Sprintf("line %d: %s", pr.Line, pr.Reason))
		}
		for _, c := range l.SkipCounts {
			lp.Kinds = append(lp.Kinds, fmt.Sprintf("%s: %s", c.Kind, counted(c.Lines, "line")))
		}
		v.Logs = append(v.Logs, lp)
	}
	v.SnapshotFiles, v.GPULogs, v.Skipped = inputTables(f, v.Logs)
	v.OOMs = oomTable(f.OOMs)
	for _, r := range growingProcesses(f) {
		t := r.p.Trend
		v.Processes = append(v.Processes, processItem{procRef: r, Label: r.p.Label(), Rest: fmt.Sprintf(" on %s: %s, %s; peak %s, last %s (%s, nvidia-smi)",
			r.where(), RateCI(t.Slope, t.Lo, t.Hi, t.Per), PValue(t.PValue), Bytes(r.p.Peak), Bytes(r.p.Last), counted(len(r.p.Used), "reading"))})
	}
	return v
}

// buildFigures computes a device's key figures. What a device without
// snapshots lacks reads "n/a": fragmentation always, the allocator's
// peaks too unless memory_stats readings stand in.
func buildFigures(d *analyze.Device) deviceFigures {
	fg := deviceFigures{dev: d, Label: DeviceLabel(d.DeviceKey), ASCII: deviceLabelASCII(d.DeviceKey), trend: d.Trend(analyze.MetricAllocated),
		Snapshots: snapshotTable(d), Groups: groupTable(d)}
	if d.Processes != nil {
		fg.Processes = processTable(d.Processes, d)
	}
	fg.Trends = trendTable(d, d.Trends, "")
	if m := d.MemoryStats; m != nil && len(d.Points) > 0 {
		fg.StatsTrends = trendTable(d, m.Trends, " (memory_stats)")
	}
	alloc, res := d.Peaks()
	fg.PeakAllocated, fg.PeakReserved = byteCell(alloc), byteCell(res)
	if len(d.Points) == 0 && d.MemoryStats == nil {
		fg.PeakAllocated, fg.PeakReserved = textCell("n/a"), textCell("n/a")
	}
	fg.PeakUsed = textCell("n/a")
	switch {
	case d.GPU != nil && len(d.GPU.Used) > 0:
		// A reading of 0 MiB is a reading.
		fg.PeakUsed = byteCell(d.GPU.MaxUsed)
	case d.UsedShare != nil:
		fg.PeakUsed = textCell(fmt.Sprintf("%.1f%% of the device", d.UsedShare.MaxPercent))
	}
	fg.Capacity = textCell("unknown")
	if d.Capacity > 0 {
		fg.Capacity = Cell{Text: capacityText(d), Value: float64(d.Capacity), Unit: UnitBytes}
	}
	fg.Trend = textCell(trendText(fg.trend))
	fg.Projection = textCell(cmp.Or(projectionText(fg.trend, lastX(d)), "n/a"))
	fg.Fragmentation = textCell("n/a (no snapshots)")
	if n := len(d.Points); n > 0 {
		u := d.Points[n-1].Usage
		ext := u.ExternalFragmentation()
		fg.Fragmentation = Cell{Text: fmt.Sprintf("%s of %s cached free", Percent(ext), Bytes(u.Inactive)), Value: ext, Unit: UnitShare}
	}
	return fg
}

// suspectOrder lists every suspect once: the verdict's top suspects in
// the verdict's order (dangling references skipped), then the other
// suspects device by device.
func suspectOrder(f *analyze.Findings) []suspectItem {
	type key struct {
		d *analyze.Device
		i int
	}
	var out []suspectItem
	seen := map[key]bool{}
	add := func(d *analyze.Device, i int, top bool) {
		if seen[key{d, i}] {
			return
		}
		seen[key{d, i}] = true
		s := &d.Suspects[i]
		it := suspectItem{dev: d, s: s, index: i, Top: top, Growth: RateCI(s.Trend.Slope, s.Trend.Lo, s.Trend.Hi, s.Trend.Per), PValue: PValue(s.Trend.PValue), Live: byteCell(0)}
		if n := len(s.Bytes); n > 0 {
			it.Live = byteCell(s.Bytes[n-1])
		}
		out = append(out, it)
	}
	for _, ref := range f.Verdict.Suspects {
		if d, s := lookupSuspect(f, ref); s != nil {
			add(d, ref.Index, true)
		}
	}
	for _, d := range f.Devices {
		for i := range d.Suspects {
			add(d, i, false)
		}
	}
	return out
}

// top returns the verdict's top suspects.
func (v *view) top() []suspectItem {
	n := 0
	for n < len(v.Suspects) && v.Suspects[n].Top {
		n++
	}
	return v.Suspects[:n]
}

// topTable is the verdict's top suspects as a table, at most limit rows.
func (v *view) topTable(limit int) Table {
	t := Table{Columns: suspectColumns}
	for i, it := range v.top() {
		if i == limit {
			break
		}
		s := it.s
		t.Rows = append(t.Rows, Row{Cells: []Cell{
			{Text: fmt.Sprint(i + 1), Value: float64(i + 1)}, textCell(s.Site), textCell(s.Function), textCell(DeviceLabel(it.dev.DeviceKey)),
			textCell(it.Growth + ", " + it.PValue), it.Live, textCell(s.Fingerprint),
		}})
	}
	return t
}

// siteKind is the kind of frame the suspect's site is (its group's), ""
// when the group is not known.
func (it suspectItem) siteKind() analyze.SiteKind {
	if g := it.s.Group; g >= 0 && g < len(it.dev.Groups) {
		return it.dev.Groups[g].Kind
	}
	return ""
}

// sentence is the suspect in one line of plain text: "train.py:57
// train_step on rank 1 cuda:0, +492 KiB/step (95% CI ...), fingerprint
// 7f3a9c01d2e4b5a6" (fp is the fingerprint as the writer shows it).
func (it suspectItem) sentence(fp string) string {
	return fmt.Sprintf("%s %s on %s, %s, fingerprint %s", it.s.Site, it.s.Function, deviceLabelASCII(it.dev.DeviceKey), it.Growth, fp)
}

// fieldName is a column's name inside a "device: field" label: its first
// letter lower-cased ("peak allocated").
func fieldName(c Column) string {
	r, n := utf8.DecodeRuneInString(c.Name)
	return string(unicode.ToLower(r)) + c.Name[n:]
}

// deviceFields lists a device's key figures as ("rank 0 cuda:0: peak
// allocated", cell) pairs, for a two-column layout.
func (v *view) deviceFields(i int) (names []string, cells []Cell) {
	row := v.Figures.Rows[i]
	for j, c := range v.Figures.Columns {
		if j == 0 {
			continue
		}
		names = append(names, v.Devices[i].ASCII+": "+fieldName(c))
		cells = append(cells, row.Cells[j])
	}
	return names, cells
}
