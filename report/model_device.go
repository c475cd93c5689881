package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
)

// The tables of the view model that more than one writer shows, built
// once by buildView: per device its snapshots, stack groups, trends and
// processes (the page shows a readable cut, the workbook every row), and
// for the run its suspects, OOMs and inputs (also in summary.md and on
// stdout). A per-device Table has a Device column (the snapshot and
// group tables also Rank and CUDA device), so the workbook can stack the
// devices' tables on one sheet; each writer picks the columns it shows by
// name.

// More units of Cell values, for the per-device tables.
const (
	// UnitCount is a whole number (a count, an index, a step).
	UnitCount Unit = "count"
	// UnitNumber is a plain number: a position on a device's axis.
	UnitNumber Unit = "number"
	// UnitTime is a moment in Unix milliseconds (UTC).
	UnitTime Unit = "time"
	// UnitPValue is a p-value, 0..1.
	UnitPValue Unit = "p-value"
	// UnitStep is a step number on a device's axis ("step 3,467");
	// UnitSteps an amount of steps ("3,327 steps"). A device counted in
	// readings or snapshots uses them too.
	UnitStep  Unit = "step"
	UnitSteps Unit = "steps"
	// UnitHours is an amount of hours.
	UnitHours Unit = "hours"
	// UnitEmpty marks a cell with no value at all, blank in every
	// format (where UnitNone is text, possibly empty).
	UnitEmpty Unit = "empty"
)

// countCell is a whole number, its text plain ("1234") or with
// thousands separators (Count).
func countCell[N int | int64](n N, sep bool) Cell {
	s := fmt.Sprint(n)
	if sep {
		s = Count(int64(n))
	}
	return Cell{Text: s, Value: float64(n), Unit: UnitCount}
}

// shareCell is a fraction 0..1, printed as a percentage.
func shareCell(x float64) Cell { return Cell{Text: Percent(x), Value: x, Unit: UnitShare} }

// numberCell is a position on a device's axis.
func numberCell(x float64) Cell { return Cell{Text: Number(x), Value: x, Unit: UnitNumber} }

// timeCell is a moment, its text as the table prints it (text(t)); the
// zero time has no value.
func timeCell(t time.Time, text func(time.Time) string) Cell {
	if t.IsZero() {
		return Cell{Value: math.NaN(), Unit: UnitTime}
	}
	return Cell{Text: text(t), Value: float64(t.UnixMilli()), Unit: UnitTime}
}

// emptyCell is a cell with no value.
func emptyCell() Cell { return Cell{Value: math.NaN(), Unit: UnitEmpty} }

// rankCellOf is a device's rank, empty when the run has no ranks.
func rankCellOf(r int) Cell {
	if r == input.NoRank {
		return Cell{Value: math.NaN(), Unit: UnitCount}
	}
	return countCell(r, false)
}

// col returns the index of the column named name, -1 when there is none.
func (t Table) col(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// columnsOf returns a function that picks the texts of the named columns
// of a row of t, in the order named. A table with rows that lacks a name
// is a programming error, caught by every test that renders a page; a
// table without rows (a zero Table) has no rows to pick from.
func columnsOf(t Table, names ...string) func(Row) []string {
	idx := make([]int, len(names))
	for i, n := range names {
		if idx[i] = t.col(n); idx[i] < 0 && len(t.Rows) > 0 {
			panic("report: the view model has no column " + n)
		}
	}
	return func(r Row) []string {
		out := make([]string, len(idx))
		for i, j := range idx {
			out[i] = r.Cells[j].Text
		}
		return out
	}
}

// deviceColumns head every per-device table: the device's identity.
var deviceColumns = []Column{{Name: "Device"}, {Name: "Rank", Num: true}, {Name: "CUDA device", Num: true}}

// deviceCells are a device's identity cells, in deviceColumns' order.
func deviceCells(d *analyze.Device) []Cell {
	return []Cell{textCell(deviceLabelASCII(d.DeviceKey)), rankCellOf(d.Rank), countCell(d.Device, false)}
}

// snapshotColumns are the columns of a device's per-snapshot table:
// its identity, then one row per snapshot.
var snapshotColumns = append(append([]Column{}, deviceColumns...), []Column{
	{Name: "#", Num: true}, {Name: "File", Code: true}, {Name: "Step", Num: true}, {Name: "Time (UTC)"}, {Name: "Axis"}, {Name: "X", Num: true},
	{Name: "Allocated", Num: true}, {Name: "Reserved", Num: true}, {Name: "Active", Num: true}, {Name: "Requested", Num: true},
	{Name: "Cached free", Num: true}, {Name: "Largest free", Num: true}, {Name: "Internal waste", Num: true}, {Name: "External fragmentation", Num: true},
	{Name: "Segments", Num: true}, {Name: "Blocks", Num: true}, {Name: "Trace entries", Num: true},
}...)

// snapshotTable is a device's per-snapshot table: usage, fragmentation
// and sizes of each snapshot, in the device's order.
func snapshotTable(d *analyze.Device) Table {
	t := Table{Columns: snapshotColumns}
	id := deviceCells(d)
	for i, p := range d.Points {
		u := p.Usage
		step := Cell{Value: math.NaN(), Unit: UnitCount}
		if p.Step != input.NoStep {
			step = countCell(p.Step, true)
		}
		t.Rows = append(t.Rows, Row{Cells: append(append([]Cell{}, id...),
			countCell(i+1, false), textCell(p.Path), step, timeCell(p.Time, tableTime), textCell(string(d.Axis)), numberCell(p.X),
			byteCell(u.Allocated), byteCell(u.Reserved), byteCell(u.Active), byteCell(u.Requested),
			byteCell(u.Inactive), byteCell(u.LargestFree), byteCell(u.InternalWaste), shareCell(u.ExternalFragmentation()),
			countCell(u.Segments, true), countCell(u.Blocks, true), countCell(u.TraceEntries, true),
		)})
	}
	return t
}

// groupColumns are the columns of a device's stack groups table.
var groupColumns = append(append([]Column{}, deviceColumns...), []Column{
	{Name: "Site", Code: true}, {Name: "Function", Code: true}, {Name: "Fingerprint", Code: true}, {Name: "Kind"},
	{Name: "Live first", Num: true}, {Name: "Live last", Num: true}, {Name: "Peak", Num: true}, {Name: "Blocks last", Num: true}, {Name: "File", Code: true},
}...)

// groupTable is a device's stack groups, in the analysis' order: live
// bytes at the first and last snapshot and at their peak. The group that
// sums the groups beyond the analysis' limit is a Total row.
func groupTable(d *analyze.Device) Table {
	t := Table{Columns: groupColumns}
	id := deviceCells(d)
	none := Cell{Value: math.NaN(), Unit: UnitBytes}
	for i := range d.Groups {
		g := &d.Groups[i]
		first, last, peak, blocks := none, none, none, Cell{Value: math.NaN(), Unit: UnitCount}
		if k := len(g.Bytes); k > 0 {
			first, last, peak = byteCell(g.Bytes[0]), byteCell(g.Bytes[k-1]), byteCell(slices.Max(g.Bytes))
		}
		if k := len(g.Blocks); k > 0 {
			blocks = countCell(g.Blocks[k-1], true)
		}
		site := g.Site
		if g.Other {
			site = "(all other groups)"
		}
		t.Rows = append(t.Rows, Row{Total: g.Other, Cells: append(append([]Cell{}, id...),
			textCell(site), textCell(g.Function), textCell(g.Fingerprint), textCell(string(g.Kind)), first, last, peak, blocks, textCell(g.File))})
	}
	return t
}

// processColumns are the columns of a table of processes. Process is the
// logged name, Label the name with its pid as the page prints it.
var processColumns = []Column{
	{Name: "Device"}, {Name: "GPU", Num: true}, {Name: "PID", Num: true}, {Name: "Process", Code: true}, {Name: "Label", Code: true},
	{Name: "Readings", Num: true}, {Name: "First (UTC)"}, {Name: "Last (UTC)"}, {Name: "Peak", Num: true}, {Name: "Last used", Num: true},
	{Name: "Slope", Num: true}, {Name: "CI 95% low", Num: true}, {Name: "CI 95% high", Num: true}, {Name: "Per"}, {Name: "p-value", Num: true},
	{Name: "Verdict"}, {Name: "Pattern"}, {Name: "Trend"}, {Name: "Logs", Code: true},
}

// processTable is a set of processes, one row each: readings, peak and
// last used memory, and the trend of used memory ("too few readings"
// when none was fitted). d is the device they run on, nil for the
// processes of no device.
func processTable(set *analyze.ProcessSet, d *analyze.Device) Table {
	t := Table{Columns: processColumns}
	dev := "(no device)"
	if d != nil {
		dev = deviceLabelASCII(d.DeviceKey)
	}
	for i := range set.Series {
		p := &set.Series[i]
		gpu := Cell{Text: otherGPULabel(p), Value: math.NaN(), Unit: UnitCount}
		if p.GPU >= 0 {
			gpu.Value = float64(p.GPU)
		}
		var first, last time.Time
		if n := len(p.Times); n > 0 {
			first, last = p.Times[0], p.Times[n-1]
		}
		none := emptyCell()
		slope, lo, hi, per, pv, verdict, pattern, trend := none, none, none, none, none, textCell("too few readings"), none, textCell("too few readings")
		if tr := p.Trend; tr != nil {
			u := string(tr.Per)
			slope, lo, hi, per = rateCell(tr.Slope, u), rateCell(tr.Lo, u), rateCell(tr.Hi, u), textCell(u)
			pv, verdict, pattern, trend = pValueCell(tr.PValue), textCell(tr.Verdict), textCell(tr.Pattern), textCell(trendText(tr))
		}
		t.Rows = append(t.Rows, Row{Cells: []Cell{
			textCell(dev), gpu, countCell(p.PID, false), textCell(p.Name), textCell(p.Label()),
			countCell(len(p.Used), true), timeCell(first, Timestamp), timeCell(last, Timestamp), byteCell(p.Peak), byteCell(p.Last),
			slope, lo, hi, per, pv, verdict, pattern, trend, textCell(strings.Join(p.Sources, ", ")),
		}})
	}
	return t
}

// pValueCell is a p-value: "p=0.032", "p<0.001".
func pValueCell(p float64) Cell { return Cell{Text: PValue(p), Value: p, Unit: UnitPValue} }

// suspectTableColumns are the columns of the table of every leak
// suspect.
var suspectTableColumns = []Column{
	{Name: "#", Num: true}, {Name: "Device"}, {Name: "Site", Code: true}, {Name: "Function", Code: true}, {Name: "Fingerprint", Code: true},
	{Name: "Growth"}, {Name: "CI 95% low", Num: true}, {Name: "CI 95% high", Num: true}, {Name: "Per"}, {Name: "p-value", Num: true}, {Name: "Method"},
	{Name: "Live first", Num: true}, {Name: "Live last", Num: true}, {Name: "Share of allocated", Num: true}, {Name: "Blocks", Num: true},
	{Name: "Top verdict suspect"}, {Name: "Suppressed by"}, {Name: "Confidence"}, {Name: "Share of allocated growth", Num: true},
	{Name: "Evidence"}, {Name: "Stack (innermost first)", Code: true},
}

// maxTableFrames bounds the frames of a suspect's stack in the suspects
// table (a spreadsheet cell holds at most 32,767 characters; 50 frames
// of a deep stack already read as a wall).
const maxTableFrames = 50

// suspectTable is every suspect in the view's order, a row each (row i
// is items[i]): growth with its interval and p-value, live bytes at the
// first and last snapshot (and as a share of allocated memory there),
// blocks ("first to last", the value the last), suppression, confidence,
// evidence and the stack.
func suspectTable(items []suspectItem) Table {
	t := Table{Columns: suspectTableColumns}
	for n, it := range items {
		s, d := it.s, it.dev
		per := string(s.Trend.Per)
		growth := rateCell(s.Trend.Slope, per)
		growth.Text = it.Growth
		none := Cell{Value: math.NaN(), Unit: UnitBytes}
		first, last, share, blocks := none, none, Cell{Value: math.NaN(), Unit: UnitShare}, Cell{Value: math.NaN(), Unit: UnitCount}
		if k := len(s.Bytes); k > 0 {
			first, last = byteCell(s.Bytes[0]), byteCell(s.Bytes[k-1])
			if len(d.Points) >= k && d.Points[k-1].Usage.Allocated > 0 {
				share = shareCell(float64(s.Bytes[k-1]) / float64(d.Points[k-1].Usage.Allocated))
			}
		}
		if k := len(s.Blocks); k > 0 {
			blocks = Cell{Text: fmt.Sprintf("%s to %s", Count(int64(s.Blocks[0])), Count(int64(s.Blocks[k-1]))), Value: float64(s.Blocks[k-1]), Unit: UnitCount}
		}
		var frames []string
		for j, fr := range s.Stack {
			if j == maxTableFrames {
				frames = append(frames, fmt.Sprintf("... %d more", len(s.Stack)-j))
				break
			}
			frames = append(frames, frameText(fr))
		}
		top := ""
		if it.Top {
			top = "yes"
		}
		t.Rows = append(t.Rows, Row{Cells: []Cell{
			countCell(n+1, false), textCell(deviceLabelASCII(d.DeviceKey)), textCell(s.Site), textCell(s.Function), textCell(s.Fingerprint),
			growth, rateCell(s.Trend.Lo, per), rateCell(s.Trend.Hi, per), textCell(per), pValueCell(s.Trend.PValue), textCell(s.Trend.Method),
			first, last, share, blocks,
			textCell(top), textCell(s.Suppressed), textCell(string(s.Confidence)), shareCell(s.Share),
			textCell(strings.Join(s.Evidence, "; ")), textCell(strings.Join(frames, " <- ")),
		}})
	}
	return t
}

// inputColumns are the columns of the tables of inputs: snapshot files,
// GPU logs and skipped files.
var inputColumns = []Column{
	{Name: "Kind"}, {Name: "File", Code: true}, {Name: "Format"}, {Name: "Samples", Num: true}, {Name: "GPUs", Num: true},
	{Name: "Skipped lines", Num: true}, {Name: "Reason / problems"},
}

// skippedOf picks a skipped file's path and reason from a row of the
// skipped table t.
func skippedOf(t Table) func(Row) []string { return columnsOf(t, "File", "Reason / problems") }

// inputTables are the run's inputs as three tables of inputColumns: the
// snapshot files (each once, in the devices' order), the GPU logs with
// their problems (lines, kinds, then the reader's notes) and the files
// skipped with the reason.
func inputTables(f *analyze.Findings, logs []logProblems) (snapshots, gpuLogs, skipped Table) {
	snapshots, gpuLogs, skipped = Table{Columns: inputColumns}, Table{Columns: inputColumns}, Table{Columns: inputColumns}
	none := emptyCell()
	seen := map[string]bool{}
	for _, d := range f.Devices {
		for _, p := range d.Points {
			if !seen[p.Path] {
				seen[p.Path] = true
				snapshots.Rows = append(snapshots.Rows, Row{Cells: []Cell{textCell("snapshot"), textCell(p.Path), none, none, none, none, none}})
			}
		}
	}
	for i, l := range f.Inputs.Logs {
		gpuLogs.Rows = append(gpuLogs.Rows, Row{Cells: []Cell{textCell("gpu log"), textCell(l.Path), textCell(string(l.Format)),
			countCell(l.Samples, true), countCell(l.GPUs, false), countCell(l.SkippedLines, true), textCell(strings.Join(logs[i].all(l.Notes), "; "))}})
	}
	for _, sk := range f.Inputs.Skipped {
		skipped.Rows = append(skipped.Rows, Row{Cells: []Cell{textCell("skipped"), textCell(sk.Path), none, none, none, none, textCell(sk.Reason)}})
	}
	return snapshots, gpuLogs, skipped
}

// trendColumns are the columns of a device's table of trends. Metric is
// the series' name, Label as the page names it.
var trendColumns = []Column{
	{Name: "Device"}, {Name: "Metric"}, {Name: "Label"}, {Name: "Per"}, {Name: "Points", Num: true},
	{Name: "Slope"}, {Name: "CI 95% low", Num: true}, {Name: "CI 95% high", Num: true}, {Name: "p-value", Num: true},
	{Name: "Method"}, {Name: "Verdict"}, {Name: "Fit from #", Num: true},
	{Name: "Capacity (limit)", Num: true}, {Name: "Reaches capacity at", Num: true}, {Name: "Remaining", Num: true}, {Name: "Time left", Num: true},
	{Name: "Projection"}, {Name: "Reason"}, {Name: "Source"},
}

// trendTable is a table of a device's trends, a row each: the fitted
// slope with its interval ("Slope"'s text is the rate with its
// interval), p-value, verdict and the projection to capacity. suffix
// follows each metric's label (" (memory_stats)").
func trendTable(d *analyze.Device, trends []analyze.Trend, suffix string) Table {
	t := Table{Columns: trendColumns}
	lx := lastX(d)
	for i := range trends {
		tr := &trends[i]
		per := string(tr.Per)
		slope := rateCell(tr.Slope, per)
		slope.Text = RateCI(tr.Slope, tr.Lo, tr.Hi, tr.Per)
		capacity, at, remaining, left := emptyCell(), emptyCell(), emptyCell(), emptyCell()
		if p := tr.Projection; p != nil {
			capacity, at, remaining = byteCell(p.Capacity), axisCell(p.X, tr.Per, true), axisCell(p.Remaining, tr.Per, false)
			if p.Hours > 0 {
				left = Cell{Text: Hours(p.Hours), Value: p.Hours, Unit: UnitHours}
			}
		}
		t.Rows = append(t.Rows, Row{Cells: []Cell{
			textCell(deviceLabelASCII(d.DeviceKey)), textCell(tr.Metric), textCell(metricLabel(tr.Metric) + suffix), textCell(per), countCell(tr.N, false),
			slope, rateCell(tr.Lo, per), rateCell(tr.Hi, per), pValueCell(tr.PValue),
			textCell(tr.Method), textCell(tr.Verdict), countCell(tr.FitFrom+1, false),
			capacity, at, remaining, left,
			textCell(projectionText(tr, lx)), textCell(tr.Reason), textCell(trendSource(tr)),
		}})
	}
	return t
}

// axisCell is an amount of x on a device's axis, or the position x when
// at: hours on an hour axis, else steps.
func axisCell(x float64, per units.Per, at bool) Cell {
	c := Cell{Text: AxisAmount(x, per), Value: x, Unit: UnitSteps}
	switch {
	case !finite(x):
		return Cell{Value: math.NaN(), Unit: UnitEmpty}
	case per == units.PerHour:
		c.Unit = UnitHours
	case at:
		c.Unit = UnitStep
	}
	return c
}

// oomColumns are the columns of the table of out-of-memory errors.
var oomColumns = []Column{
	{Name: "File", Code: true}, {Name: "Device"}, {Name: "Explanation"}, {Name: "Requested", Num: true}, {Name: "Device free", Num: true},
	{Name: "Reserved", Num: true}, {Name: "Allocated", Num: true}, {Name: "Cached free", Num: true}, {Name: "Largest free", Num: true},
}

// oomTable is the run's out-of-memory errors, a row each, in
// Findings.OOMs' order: the allocator's state at the error ("unknown"
// for a figure the input did not give).
func oomTable(ooms []analyze.OOM) Table {
	t := Table{Columns: oomColumns}
	for _, o := range ooms {
		t.Rows = append(t.Rows, Row{Cells: []Cell{
			textCell(o.Path), textCell(DeviceLabel(analyze.DeviceKey{Rank: o.Rank, Device: o.Device})), textCell(o.Explanation),
			oomByteCell(o.Requested), oomByteCell(o.DeviceFree), oomByteCell(o.Reserved), oomByteCell(o.Allocated),
			oomByteCell(o.CachedFree), oomByteCell(o.LargestFree),
		}})
	}
	return t
}
