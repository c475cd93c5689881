package report

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
)

// Sheet names of report.xlsx, in order.
var xlsxSheets = []string{"Summary", "Snapshots", "Trend", "Suspects", "OOMs", "Groups", "Never freed", "Fragmentation", "Roles", "GPU samples",
	"Memory stats", "Processes", "Process samples", "Inputs"}

// maxXLSXRows is the most data rows a sheet gets (Excel's limit is
// 1,048,576 rows including the header).
const maxXLSXRows = 1_048_575

// maxXLSXGPURows bounds the GPU samples rows of one device: longer logs
// (a day of one-second readings is 86,400) are thinned with LTTB, which
// keeps peaks; the Summary sheet says so.
const maxXLSXGPURows = 20_000

// thinRows returns the indexes of the readings (times, used) to write: all
// of them, or limit chosen by LTTB over time, which keeps peaks.
func thinRows(times []time.Time, used []int64, limit int) []int {
	return lttbRows(len(used), limit, func(i int) (x, y float64) {
		x = float64(i)
		if i < len(times) && !times[i].IsZero() {
			x = float64(times[i].UnixMilli())
		}
		return x, float64(used[i])
	})
}

// lttbRows returns the indexes of n rows to write: all of them, or limit
// chosen by LTTB over the points at(i), which keeps peaks.
func lttbRows(n, limit int, at func(i int) (x, y float64)) []int {
	if n <= limit {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	xs := make([]float64, n)
	ys := make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = at(i)
	}
	return LTTB(xs, ys, limit)
}

// maxXLSXCharts bounds the native timeline charts (one per device).
const maxXLSXCharts = 16

// Number formats of report.xlsx columns.
const (
	fmtGiB     = `#,##0.000 "GiB"`
	fmtMiB     = `#,##0.00 "MiB"`
	fmtBytes   = `#,##0`
	fmtPercent = `0.0%`
	fmtTime    = `yyyy-mm-dd hh:mm:ss`
	fmtNum     = `0.####`
	// fmtP shows a p-value to four places, and one below 0.001 as
	// "< 0.001" (four places would print it as 0.0000, which reads as
	// impossible); the cell keeps the exact number for sorting.
	fmtP = `[<0.001]"< 0.001";0.0000`
	// fmtSteps, fmtStepAt and fmtHours label the projection columns, whose
	// unit depends on the device's axis (steps or hours).
	fmtSteps  = `#,##0 "steps"`
	fmtStepAt = `"step "#,##0`
	fmtHours  = `#,##0.00 "h"`
	// fmtWrap is not a number format: it marks a column of sentences
	// (reasons, evidence, projections), wrapped within the column's width
	// in a row made tall enough for them (wrappedLines), so that a long
	// reason reads as a paragraph instead of running across the next
	// columns and off the window.
	fmtWrap = "@wrap"
)

// lineHeight is the height of one line of text in a row, in points: the
// default row height of an 11-point Calibri workbook.
const lineHeight = 15.0

// maxRowLines caps a wrapped row's lines: Excel rows are at most 409
// points tall.
const maxRowLines = 27

// xcol is a column of a data sheet: its header, width and number format.
type xcol struct {
	name  string
	width float64
	fmt   string
}

// xlsxWriter holds the workbook and its styles while it is built.
type xlsxWriter struct {
	// v is the run's view model (nil for a diff's workbook).
	v      *view
	f      *excelize.File
	styles map[string]int
	header int
}

// xlsxOf renders report.xlsx of a view.
func xlsxOf(v *view, opt Options) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	w := &xlsxWriter{v: v, f: f, styles: map[string]int{}}
	var err error
	if w.header, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return nil, err
	}
	if err := f.SetSheetName("Sheet1", xlsxSheets[0]); err != nil {
		return nil, err
	}
	for _, s := range xlsxSheets[1:] {
		if _, err := f.NewSheet(s); err != nil {
			return nil, err
		}
	}
	// The first sheet opens, selected. Set while the sheets are empty:
	// once a stream writer has written one, excelize would parse its
	// XML back to select or unselect it, and write it out again.
	f.SetActiveSheet(0)
	steps := []func() error{w.summary, w.snapshots, w.trend, w.suspects, w.ooms, w.groups, w.neverFreed, w.fragmentation, w.roles, w.gpuSamples,
		w.memoryStats, w.processes, w.processSamples, w.inputs}
	for _, st := range steps {
		if err := st(); err != nil {
			return nil, fmt.Errorf("render %s: %w", XLSXFile, err)
		}
	}
	if err := f.SetDocProps(&excelize.DocProperties{
		Creator: "gpureport " + opt.Version, Title: "gpureport: " + cleanText(v.Run),
		Created: opt.GeneratedAt.UTC().Format(time.RFC3339), Modified: opt.GeneratedAt.UTC().Format(time.RFC3339),
	}); err != nil {
		return nil, err
	}
	return workbookBytes(f)
}

// style returns the id of the cell style of a column of number format
// numFmt ("" for text, fmtWrap for sentences). Cells sit at the top of
// their row, so a row made tall by a wrapped sentence reads from its top.
func (w *xlsxWriter) style(numFmt string) (int, error) {
	if id, ok := w.styles[numFmt]; ok {
		return id, nil
	}
	st := &excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}}
	switch numFmt {
	case "":
	case fmtWrap:
		st.Alignment.WrapText = true
	default:
		nf := numFmt
		st.CustomNumFmt = &nf
	}
	id, err := w.f.NewStyle(st)
	if err != nil {
		return 0, err
	}
	w.styles[numFmt] = id
	return id, nil
}

// wrappedLines estimates the lines text takes wrapped in a column width
// characters wide. Excel's width unit is the width of a digit and
// sentences average a little narrower, so the estimate errs towards a
// spare line rather than cut one.
func wrappedLines(text string, width float64) int {
	n := 0
	for _, line := range strings.Split(text, "\n") {
		n += max(1, int(math.Ceil(float64(utf8.RuneCountInString(line))/max(width, 1))))
	}
	return min(n, maxRowLines)
}

// table streams a data sheet: a bold frozen header, then rows, as an Excel
// table (filter buttons) with per-column number formats. rows yields each
// row's values; nil values leave a cell empty. It returns the number of
// data rows written.
func (w *xlsxWriter) table(sheet, name string, cols []xcol, rows func(emit func([]any) error) error) (int, error) {
	return w.tableThen(sheet, name, cols, rows, nil)
}

// tableThen is table with a hook run after the rows and before the stream
// is flushed, given the number of data rows. Drawings (charts) must be
// added there: excelize's StreamWriter.Flush writes the sheet's XML,
// <drawing r:id> included, from the worksheet as it is at that moment, and
// replaces the sheet with its stream on save, so a chart added after Flush
// keeps its parts and relationships but the sheet never names it, and no
// spreadsheet program shows it.
func (w *xlsxWriter) tableThen(sheet, name string, cols []xcol, rows func(emit func([]any) error) error, then func(n int) error) (int, error) {
	// The stream writes the sheet's properties (fit to page) when it
	// starts, so the print layout is set before it.
	if err := w.printLayout(sheet, cols); err != nil {
		return 0, err
	}
	sw, err := w.f.NewStreamWriter(sheet)
	if err != nil {
		return 0, err
	}
	styles := make([]int, len(cols))
	for i, c := range cols {
		if styles[i], err = w.style(c.fmt); err != nil {
			return 0, err
		}
		if err := sw.SetColWidth(i+1, i+1, widthOf(c)); err != nil {
			return 0, err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return 0, err
	}
	head := make([]any, len(cols))
	for i, c := range cols {
		head[i] = excelize.Cell{Value: c.name, StyleID: w.header}
	}
	if err := sw.SetRow("A1", head); err != nil {
		return 0, err
	}
	n := 0
	emit := func(vals []any) error {
		if n >= maxXLSXRows {
			return nil
		}
		row := make([]any, len(vals))
		lines := 1
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				row[i] = nil
			case float64:
				if !finite(x) {
					row[i] = nil
					continue
				}
				row[i] = excelize.Cell{Value: x, StyleID: styleAt(styles, i)}
			case string:
				row[i] = excelize.Cell{Value: cleanText(x), StyleID: styleAt(styles, i)}
				if i < len(cols) && cols[i].fmt == fmtWrap {
					lines = max(lines, wrappedLines(x, widthOf(cols[i])))
				}
			case excelize.Cell:
				// A cell whose format depends on the row (a unit).
				row[i] = x
			default:
				row[i] = excelize.Cell{Value: x, StyleID: styleAt(styles, i)}
			}
		}
		n++
		cell, _ := excelize.CoordinatesToCellName(1, n+1)
		if lines > 1 {
			return sw.SetRow(cell, row, excelize.RowOpts{Height: lineHeight * float64(lines)})
		}
		return sw.SetRow(cell, row)
	}
	if err := rows(emit); err != nil {
		return 0, err
	}
	if n > 0 {
		last, _ := excelize.CoordinatesToCellName(len(cols), n+1)
		show := true
		if err := sw.AddTable(&excelize.Table{Range: "A1:" + last, Name: name, StyleName: "TableStyleLight9", ShowHeaderRow: &show, ShowRowStripes: &show}); err != nil {
			return 0, err
		}
	}
	if then != nil {
		if err := then(n); err != nil {
			return 0, err
		}
	}
	return n, sw.Flush()
}

// printPageWidth is the printable width of a landscape A4 or Letter page
// at 100 % in column-width units (the width of a digit in the default
// font, as Excel and LibreOffice measure columns): about 26 cm between
// the default margins, at about 0.2 cm a unit.
const printPageWidth = 125.0

// minPrintScale is the smallest scale a sheet is shrunk to so that its
// columns print on one page wide: at half size, 11-point text prints as
// 5.5-point, the smallest a reader can still read on paper. A wider sheet
// prints at 100 % across pages, its columns in page order.
const minPrintScale = 0.5

// printLayout sets how a sheet prints (or converts to PDF): on landscape
// pages, and shrunk to one page wide when its columns fit at no less than
// minPrintScale, so that a row's cells share a page (the Summary sheet's
// field beside its value) instead of each column printing on pages of its
// own. Rows run on over as many pages as they need.
func (w *xlsxWriter) printLayout(sheet string, cols []xcol) error {
	landscape := "landscape"
	total := 0.0
	for _, c := range cols {
		total += widthOf(c)
	}
	lay := &excelize.PageLayoutOptions{Orientation: &landscape}
	if total*minPrintScale > printPageWidth {
		return w.f.SetPageLayout(sheet, lay)
	}
	// FitToHeight 0: as many pages high as the rows need.
	wide, high, fit := 1, 0, true
	lay.FitToWidth, lay.FitToHeight = &wide, &high
	if err := w.f.SetPageLayout(sheet, lay); err != nil {
		return err
	}
	return w.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit})
}

// widthOf is a column's width in characters, 14 when it gives none.
func widthOf(c xcol) float64 {
	if c.width == 0 {
		return 14
	}
	return c.width
}

func styleAt(styles []int, i int) int {
	if i < len(styles) {
		return styles[i]
	}
	return 0
}

// xcolumn is a column of a data sheet of items of type R: its header,
// width and number format, and the item's cell it shows.
type xcolumn[R any] struct {
	xcol
	of func(R) Cell
}

// xc makes an xcolumn.
func xc[R any](name string, width float64, numFmt string, of func(R) Cell) xcolumn[R] {
	return xcolumn[R]{xcol{name, width, numFmt}, of}
}

// xt is an xcolumn of text.
func xt[R any](name string, width float64, of func(R) string) xcolumn[R] {
	return xcolumn[R]{xcol{name, width, ""}, func(r R) Cell { return textCell(of(r)) }}
}

// unitFormats are the number formats of the units whose format does not
// depend on the column: an axis position or amount, whose unit (steps or
// hours) is the row's device's.
var unitFormats = map[Unit]string{UnitStep: fmtStepAt, UnitSteps: fmtSteps, UnitHours: fmtHours}

// itemSheet writes a data sheet of items, a row each, and runs then (a
// tableThen hook) after them. A number cell is written as its raw value
// in the unit of the column's number format (bytes as GiB or MiB, a time
// as an Excel date); a text cell as its text; a cell without a value is
// left empty.
func itemSheet[R any](w *xlsxWriter, sheet, name string, cols []xcolumn[R], items []R, then func(n int) error) error {
	heads := make([]xcol, len(cols))
	for i, c := range cols {
		heads[i] = c.xcol
	}
	_, err := w.tableThen(sheet, name, heads, func(emit func([]any) error) error {
		for _, it := range items {
			vals := make([]any, len(cols))
			for i, c := range cols {
				cell := c.of(it)
				vals[i] = xlsxValue(cell, c.fmt)
				if f, ok := unitFormats[cell.Unit]; ok && vals[i] != nil {
					id, err := w.style(f)
					if err != nil {
						return err
					}
					vals[i] = excelize.Cell{Value: vals[i], StyleID: id}
				}
			}
			if err := emit(vals); err != nil {
				return err
			}
		}
		return nil
	}, then)
	return err
}

// xlsxValue is a Cell as a workbook value in a column of number format
// numFmt: nil for no value, the text of a text cell, else the raw number
// scaled to the format's unit.
func xlsxValue(c Cell, numFmt string) any {
	switch {
	case c.Unit == UnitEmpty:
		return nil
	case c.Unit == UnitNone:
		return c.Text
	case !finite(c.Value):
		return nil
	case c.Unit == UnitTime:
		// Unix milliseconds as an Excel serial date, as xlsxTime.
		return c.Value/86_400_000 + 25569
	}
	switch numFmt {
	case fmtGiB:
		return c.Value / (1 << 30)
	case fmtMiB:
		return c.Value / (1 << 20)
	}
	return c.Value
}

func toGiB(b int64) float64 { return float64(b) / (1 << 30) }
func mib(b float64) float64 { return b / (1 << 20) }
func opt64(v float64) any {
	if !finite(v) {
		return nil
	}
	return v
}

// xlsxTime is t as an Excel serial date (days since 1899-12-30, UTC),
// which the time format displays; nil for the zero time. Writing the
// number directly is several times faster than excelize's time.Time
// conversion on long GPU logs.
func xlsxTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return float64(t.UnixMilli())/86_400_000 + 25569
}

func rankCell(r int) any {
	if r == input.NoRank {
		return nil
	}
	return r
}

// summary writes the Summary sheet: the verdict, each device's key
// figures (their text, and the raw number with its unit where there is
// one), the top suspects, what to try next, notes and growing processes.
func (w *xlsxWriter) summary() error {
	v := w.v
	limit := processRowLimit(countProcesses(v))
	type field struct {
		name string
		c    Cell
	}
	var fields []field
	{
		add := func(name, text string) { fields = append(fields, field{name, textCell(text)}) }
		add("Run", v.Run)
		add("Severity", v.Severity)
		add("Verdict", v.Headline)
		flags := make([]string, len(v.Flags))
		for i, f := range v.Flags {
			flags[i] = string(f)
		}
		add("Flags", strings.Join(flags, ", "))
		add("Inputs", v.Inputs)
		add("Time zone of zoneless logs", v.Location)
		for _, c := range v.Capture {
			add("Capture", c)
		}
		for _, r := range v.Reasons {
			add("Reason", r)
		}
		if v.Suppressed != "" {
			add("Suppressed", v.Suppressed)
		}
		if v.Held != "" {
			add("What holds the memory", v.Held)
		}
		for _, d := range v.Devices {
			names, cells := d.fields()
			for j, c := range cells {
				fields = append(fields, field{names[j], c})
			}
		}
		for i, it := range v.top() {
			add(fmt.Sprintf("Suspect %d", i+1), it.Sentence)
		}
		for _, n := range v.NextSteps {
			add("Next step", n.String())
		}
		for _, n := range v.Notes {
			add("Note", n)
		}
		for _, p := range v.Processes {
			add("Growing process", p.Text())
		}
		for _, d := range v.Devices {
			if d.GPU != nil && len(d.GPU.Used) > maxXLSXGPURows {
				add("Note", fmt.Sprintf("%s: %s GPU readings thinned to %s on the GPU samples sheet (LTTB, peaks kept)",
					d.Label, units.Count(int64(len(d.GPU.Used))), units.Count(maxXLSXGPURows)))
			}
			if s := d.Share; s != nil && len(s.Percent) > maxXLSXGPURows {
				add("Note", fmt.Sprintf("%s: %s readings of used share thinned to %s on the GPU samples sheet (LTTB, peaks kept)",
					d.Label, units.Count(int64(len(s.Percent))), units.Count(maxXLSXGPURows)))
			}
			if m := d.MemoryStats; m != nil && len(m.Readings) > maxXLSXGPURows {
				add("Note", fmt.Sprintf("%s: %s memory_stats readings thinned to %s on the Memory stats sheet (LTTB on allocated, peaks kept)",
					d.Label, units.Count(int64(len(m.Readings))), units.Count(maxXLSXGPURows)))
			}
		}
		_ = eachProcess(v, func(set *processSet, r *processRow, p *analyze.ProcessSeries) error {
			if len(p.Used) > limit {
				add("Note", fmt.Sprintf("%s: %s readings of process %s thinned to %s on the Process samples sheet (LTTB, peaks kept)",
					r.Device, units.Count(int64(len(p.Used))), r.Label, units.Count(int64(limit))))
			}
			return nil
		})
	}
	// The Field column fits its longest name ("rank 0 cuda:0: external
	// fragmentation (last snapshot)"), so that a printed or PDF page does
	// not cut the names; 28 characters at least, 60 at most, past which a
	// name is rare and the Value column matters more.
	fieldWidth := 28.0
	for _, r := range fields {
		fieldWidth = max(fieldWidth, min(60, float64(utf8.RuneCountInString(r.name)+2)))
	}
	cols := []xcol{{"Field", fieldWidth, ""}, {"Value", 90, fmtWrap}, {"Number", 16, fmtNum}, {"Unit", 8, ""}}
	_, err := w.table("Summary", "tSummary", cols, func(emit func([]any) error) error {
		for _, r := range fields {
			var num, unit any
			if finite(r.c.Value) {
				num, unit = r.c.Value, string(r.c.Unit)
			}
			if err := emit([]any{r.name, r.c.Text, num, unit}); err != nil {
				return err
			}
		}
		return nil
	})
	return err
}

// snapshotCols are the Snapshots sheet's columns; timeline charts refer to
// the X (column I), allocated (J) and reserved (K) columns.
var snapshotCols = []xcolumn[snapshotRow]{
	xt("Device", 18, func(r snapshotRow) string { return r.Device }),
	xc("Rank", 6, "", func(r snapshotRow) Cell { return r.Rank }),
	xc("CUDA device", 8, "", func(r snapshotRow) Cell { return r.CUDA }),
	xc("#", 6, "", func(r snapshotRow) Cell { return r.Index }),
	xt("File", 40, func(r snapshotRow) string { return r.File }),
	xc("Step", 10, fmtBytes, func(r snapshotRow) Cell { return r.Step }),
	xc("Time (UTC)", 20, fmtTime, func(r snapshotRow) Cell { return r.Time }),
	xt("Axis", 8, func(r snapshotRow) string { return r.Axis }),
	xc("X", 10, fmtNum, func(r snapshotRow) Cell { return r.X }),
	xc("Allocated", 13, fmtGiB, func(r snapshotRow) Cell { return r.Allocated }),
	xc("Reserved", 13, fmtGiB, func(r snapshotRow) Cell { return r.Reserved }),
	xc("Active", 13, fmtGiB, func(r snapshotRow) Cell { return r.Active }),
	xc("Requested", 13, fmtGiB, func(r snapshotRow) Cell { return r.Requested }),
	xc("Cached free", 13, fmtGiB, func(r snapshotRow) Cell { return r.CachedFree }),
	xc("Largest free", 13, fmtGiB, func(r snapshotRow) Cell { return r.LargestFree }),
	xc("Internal waste", 13, fmtMiB, func(r snapshotRow) Cell { return r.InternalWaste }),
	xc("External fragmentation", 12, fmtPercent, func(r snapshotRow) Cell { return r.ExternalFrg }),
	xc("Segments", 10, fmtBytes, func(r snapshotRow) Cell { return r.Segments }),
	xc("Blocks", 10, fmtBytes, func(r snapshotRow) Cell { return r.Blocks }),
	xc("Trace entries", 12, fmtBytes, func(r snapshotRow) Cell { return r.TraceEntries }),
	xc("allocated_bytes", 16, fmtBytes, func(r snapshotRow) Cell { return r.Allocated }),
	xc("reserved_bytes", 16, fmtBytes, func(r snapshotRow) Cell { return r.Reserved }),
	xc("active_bytes", 16, fmtBytes, func(r snapshotRow) Cell { return r.Active }),
	xc("requested_bytes", 16, fmtBytes, func(r snapshotRow) Cell { return r.Requested }),
	xc("inactive_bytes", 16, fmtBytes, func(r snapshotRow) Cell { return r.CachedFree }),
	xc("largest_free_bytes", 16, fmtBytes, func(r snapshotRow) Cell { return r.LargestFree }),
}

// snapshots writes every device's snapshots.
func (w *xlsxWriter) snapshots() error {
	var rows []snapshotRow
	for _, d := range w.v.Devices {
		rows = append(rows, d.Snapshots...)
	}
	return itemSheet(w, "Snapshots", "tSnapshots", snapshotCols, rows, nil)
}

// trendCols are the Trend sheet's columns.
var trendCols = []xcolumn[trendRow]{
	xt("Device", 18, func(r trendRow) string { return r.Device }),
	xt("Metric", 18, func(r trendRow) string { return r.Metric }),
	xt("Per", 6, func(r trendRow) string { return string(r.Per) }),
	xc("Points", 8, fmtBytes, func(r trendRow) Cell { return r.Points }),
	xc("Slope", 14, fmtMiB, func(r trendRow) Cell { return r.Slope }),
	xc("CI 95% low", 14, fmtMiB, func(r trendRow) Cell { return r.Lo }),
	xc("CI 95% high", 14, fmtMiB, func(r trendRow) Cell { return r.Hi }),
	xc("p-value", 10, fmtP, func(r trendRow) Cell { return r.PValue }),
	xt("Method", 10, func(r trendRow) string { return r.Method }),
	xt("Verdict", 16, func(r trendRow) string { return r.Verdict }),
	xc("Fit from #", 9, fmtBytes, func(r trendRow) Cell { return r.FitFrom }),
	xc("Capacity (limit)", 12, fmtGiB, func(r trendRow) Cell { return r.Limit }),
	xc("Reaches capacity at", 16, fmtNum, func(r trendRow) Cell { return r.ReachesAt }),
	xc("Remaining", 14, fmtNum, func(r trendRow) Cell { return r.Remaining }),
	xc("Time left", 12, fmtHours, func(r trendRow) Cell { return r.TimeLeft }),
	xc("Projection", 60, fmtWrap, func(r trendRow) Cell { return textCell(r.Projection) }),
	xt("Source", 14, func(r trendRow) string { return r.Source }),
}

// trend lists every device's trends (those fitted on memory_stats
// readings beside the snapshots' ones, for comparison), with the
// timeline charts below.
func (w *xlsxWriter) trend() error {
	// The axis units' formats are made first, so their style ids stay
	// where they have always been.
	for _, u := range []Unit{UnitStep, UnitSteps, UnitHours} {
		if _, err := w.style(unitFormats[u]); err != nil {
			return err
		}
	}
	var rows []trendRow
	for _, d := range w.v.Devices {
		rows = append(append(rows, d.Trends...), d.StatsTrends...)
	}
	return itemSheet(w, "Trend", "tTrend", trendCols, rows, w.timelineCharts)
}

// timelineCharts adds one native line chart per device (up to
// maxXLSXCharts) below the Trend table, drawing allocated and reserved GiB
// from the Snapshots sheet against X.
func (w *xlsxWriter) timelineCharts(trendRows int) error {
	row := 2 // first data row of Snapshots
	top := trendRows + 4
	for i, d := range w.v.Devices {
		n := len(d.Snapshots)
		if n == 0 {
			continue
		}
		first, last := row, row+n-1
		row += n
		if i >= maxXLSXCharts || last > maxXLSXRows+1 {
			continue
		}
		ref := func(col string) string { return fmt.Sprintf("'Snapshots'!$%s$%d:$%s$%d", col, first, col, last) }
		chart := &excelize.Chart{
			Type: excelize.Line,
			Series: []excelize.ChartSeries{
				{Name: "'Snapshots'!$J$1", Categories: ref("I"), Values: ref("J")},
				{Name: "'Snapshots'!$K$1", Categories: ref("I"), Values: ref("K")},
			},
			Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Timeline " + d.Label + " (GiB)"}}},
			Legend:    excelize.ChartLegend{Position: "bottom"},
			XAxis:     excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: d.Prov.Axis}}}},
			YAxis:     excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "GiB"}}}},
			Dimension: excelize.ChartDimension{Width: 720, Height: 300},
		}
		cell := fmt.Sprintf("A%d", top)
		if err := w.f.AddChart("Trend", cell, chart); err != nil {
			return err
		}
		top += 17
	}
	return nil
}

// suspectCols are the Suspects sheet's columns.
var suspectCols = []xcolumn[numbered[suspectItem]]{
	xc("#", 5, "", func(n numbered[suspectItem]) Cell { return countCell(n.N, false) }),
	xt("Device", 18, func(n numbered[suspectItem]) string { return n.It.Device }),
	xt("Site", 30, func(n numbered[suspectItem]) string { return n.It.Site }),
	xt("Function", 24, func(n numbered[suspectItem]) string { return n.It.Function }),
	xt("Fingerprint", 20, func(n numbered[suspectItem]) string { return n.It.Fingerprint }),
	xc("Growth", 14, fmtMiB, func(n numbered[suspectItem]) Cell { return n.It.Growth }),
	xc("CI 95% low", 14, fmtMiB, func(n numbered[suspectItem]) Cell { return n.It.Lo }),
	xc("CI 95% high", 14, fmtMiB, func(n numbered[suspectItem]) Cell { return n.It.Hi }),
	xt("Per", 6, func(n numbered[suspectItem]) string { return string(n.It.Per) }),
	xc("p-value", 10, fmtP, func(n numbered[suspectItem]) Cell { return n.It.PValue }),
	xc("Live first", 13, fmtMiB, func(n numbered[suspectItem]) Cell { return n.It.First }),
	xc("Live last", 13, fmtMiB, func(n numbered[suspectItem]) Cell { return n.It.Last }),
	xc("Blocks last", 10, fmtBytes, func(n numbered[suspectItem]) Cell { return n.It.Blocks }),
	xt("Top verdict suspect", 10, func(n numbered[suspectItem]) string { return map[bool]string{true: "yes"}[n.It.Top] }),
	xt("Suppressed by", 16, func(n numbered[suspectItem]) string { return n.It.Suppressed }),
	xt("Confidence", 10, func(n numbered[suspectItem]) string { return n.It.Confidence }),
	xc("Share of allocated growth", 12, fmtPercent, func(n numbered[suspectItem]) Cell { return n.It.GrowthShare }),
	xc("Evidence", 60, fmtWrap, func(n numbered[suspectItem]) Cell { return textCell(strings.Join(n.It.Evidence, "; ")) }),
	xt("Stack (innermost first)", 100, func(n numbered[suspectItem]) string { return stackText(n.It.Stack) }),
}

// maxTableFrames bounds the frames of a suspect's stack on the Suspects
// sheet (a spreadsheet cell holds at most 32,767 characters; 50 frames of
// a deep stack already read as a wall).
const maxTableFrames = 50

// stackText is a stack in one line, innermost first: "f (a.py:1) <- g
// (b.py:2)", at most maxTableFrames frames.
func stackText(stack []analyze.Frame) string {
	var frames []string
	for j, fr := range stack {
		if j == maxTableFrames {
			frames = append(frames, fmt.Sprintf("... %d more", len(stack)-j))
			break
		}
		frames = append(frames, frameText(fr))
	}
	return strings.Join(frames, " <- ")
}

// suspects lists every leak suspect in the view's order.
func (w *xlsxWriter) suspects() error {
	return itemSheet(w, "Suspects", "tSuspects", suspectCols, numberedOf(w.v.Suspects, -1), nil)
}

// oomCols are the OOMs sheet's columns: each explained OOM's figures,
// the cells summary.md's and the page's "Out of memory" sections print
// (oomItem), as numbers in the figures' units.
var oomCols = []xcolumn[numbered[oomItem]]{
	xc("#", 5, "", func(n numbered[oomItem]) Cell { return countCell(n.N, false) }),
	xt("Device", 18, func(n numbered[oomItem]) string { return n.It.Device }),
	xc("Time (UTC)", 20, fmtTime, func(n numbered[oomItem]) Cell { return n.It.At }),
	xt("Class", 14, func(n numbered[oomItem]) string { return n.It.Cause }),
	xt("Handled", 8, func(n numbered[oomItem]) string { return map[bool]string{true: "yes", false: "no"}[n.It.Handled] }),
	xc("Request", 13, fmtMiB, func(n numbered[oomItem]) Cell { return n.It.Requested }),
	xc("Free on the device", 18, fmtMiB, func(n numbered[oomItem]) Cell { return n.It.DeviceFree }),
	xc("Reserved", 13, fmtMiB, func(n numbered[oomItem]) Cell { return n.It.Reserved }),
	xc("Allocated", 13, fmtMiB, func(n numbered[oomItem]) Cell { return n.It.Allocated }),
	xc("Cached free", 13, fmtMiB, func(n numbered[oomItem]) Cell { return n.It.CachedFree }),
	xc("Largest free block", 18, fmtMiB, func(n numbered[oomItem]) Cell { return n.It.LargestFree }),
	xc("Missing", 13, fmtMiB, func(n numbered[oomItem]) Cell { return n.It.Missing }),
	xc("Explanation", 80, fmtWrap, func(n numbered[oomItem]) Cell { return textCell(n.It.Explanation) }),
	xt("Failing allocation", 30, func(n numbered[oomItem]) string { return n.It.Site }),
	xt("File", 50, func(n numbered[oomItem]) string { return n.It.Path }),
}

// ooms lists every explained OOM, as the reports' "Out of memory"
// sections do; a figure the input did not give is left empty.
func (w *xlsxWriter) ooms() error {
	return itemSheet(w, "OOMs", "tOOMs", oomCols, numberedOf(w.v.OOMs, -1), nil)
}

// groupCols are the Groups sheet's columns.
var groupCols = []xcolumn[groupRow]{
	xt("Device", 18, func(r groupRow) string { return r.Device }),
	xt("Site", 30, func(r groupRow) string { return r.Site }),
	xt("Function", 24, func(r groupRow) string { return r.Function }),
	xt("Fingerprint", 16, func(r groupRow) string { return r.Fingerprint }),
	xt("Kind", 8, func(r groupRow) string { return r.Kind }),
	xc("Live first", 13, fmtMiB, func(r groupRow) Cell { return r.First }),
	xc("Live last", 13, fmtMiB, func(r groupRow) Cell { return r.Last }),
	xc("Peak", 13, fmtMiB, func(r groupRow) Cell { return r.Peak }),
	xc("Blocks last", 10, fmtBytes, func(r groupRow) Cell { return r.Blocks }),
	xt("File", 50, func(r groupRow) string { return r.File }),
}

// groups lists every stack group of every device: live bytes first, last
// and peak, for the analyses the suspects do not cover.
func (w *xlsxWriter) groups() error {
	var rows []groupRow
	for _, d := range w.v.Devices {
		rows = append(rows, d.Groups...)
	}
	return itemSheet(w, "Groups", "tGroups", groupCols, rows, nil)
}

// neverFreedCols are the Never freed sheet's columns.
var neverFreedCols = []xcolumn[neverFreedRow]{
	xt("Device", 18, func(r neverFreedRow) string { return r.Device }),
	xt("Site", 30, func(r neverFreedRow) string { return r.Site }),
	xt("Function", 24, func(r neverFreedRow) string { return r.Function }),
	xt("Fingerprint", 16, func(r neverFreedRow) string { return r.Fingerprint }),
	xc("Never freed", 13, fmtMiB, func(r neverFreedRow) Cell { return r.Bytes }),
	xc("Blocks", 10, fmtBytes, func(r neverFreedRow) Cell { return r.Blocks }),
	xc("Steps", 10, fmtBytes, func(r neverFreedRow) Cell { return r.Steps }),
	xt("Possible leak", 64, func(r neverFreedRow) string { return r.Leak }),
	xt("Snapshot", 50, func(r neverFreedRow) string { return r.Path }),
}

// neverFreed lists what each device's trace window allocated and never
// freed, group by group, and the possible leak seen in it.
func (w *xlsxWriter) neverFreed() error {
	return itemSheet(w, "Never freed", "tNeverFreed", neverFreedCols, w.v.NeverFreedRows, nil)
}

// fragmentation lists each snapshot's fragmentation, the device's
// decision on its last row.
func (w *xlsxWriter) fragmentation() error {
	cols := []xcol{
		{"Device", 18, ""}, {"#", 6, ""}, {"File", 40, ""}, {"X", 10, fmtNum},
		{"Cached free", 13, fmtGiB}, {"Largest free", 13, fmtGiB}, {"External fragmentation", 12, fmtPercent},
		{"Internal waste", 13, fmtMiB}, {"Pinned segments", 10, fmtBytes}, {"Pinned free", 13, fmtMiB}, {"Fragmented", 10, ""}, {"Reason", 60, fmtWrap},
	}
	_, err := w.table("Fragmentation", "tFragmentation", cols, func(emit func([]any) error) error {
		for _, d := range w.v.Devices {
			fragmented := ""
			if d.Frag.Fragmented {
				fragmented = "yes"
			}
			for _, r := range d.Frag.Rows {
				if err := emit([]any{r.Device, r.Index, r.File, r.X, toGiB(r.Inactive), toGiB(r.LargestFree), r.External,
					mib(float64(r.InternalWaste)), r.PinnedSegments, mib(float64(r.PinnedBytes)), fragmented, r.Reason}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return err
}

// gpuSamples lists every device's GPU readings (thinned with LTTB past
// maxXLSXGPURows): used bytes, or, for a GPU whose logs give only a
// percent of the device, that percent (Used share) and no bytes.
func (w *xlsxWriter) gpuSamples() error {
	cols := []xcol{{"Device", 18, ""}, {"Time (UTC)", 20, fmtTime}, {"X", 10, fmtNum}, {"Used", 13, fmtGiB}, {"used_bytes", 16, fmtBytes}, {"Total", 13, fmtGiB},
		{"Used share", 11, fmtPercent}}
	_, err := w.table("GPU samples", "tGPUSamples", cols, func(emit func([]any) error) error {
		for _, d := range w.v.Devices {
			if err := shareSamples(d, emit); err != nil {
				return err
			}
			g := d.GPU
			if g == nil {
				continue
			}
			for _, i := range thinRows(g.Times, g.Used, maxXLSXGPURows) {
				u := g.Used[i]
				var t, x any
				if i < len(g.Times) {
					t = xlsxTime(g.Times[i])
				}
				if i < len(g.X) {
					x = opt64(g.X[i])
				}
				var total any
				if g.Total > 0 {
					total = toGiB(g.Total)
				}
				if err := emit([]any{d.Label, t, x, toGiB(u), u, total, nil}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return err
}

// shareSamples emits the GPU samples rows of a device's used shares (its
// readings as a percent of the device, stored as a fraction), thinned
// like its byte readings; nothing when it has none.
func shareSamples(d deviceItem, emit func([]any) error) error {
	s := d.Share
	if s == nil {
		return nil
	}
	for _, i := range shareRows(s) {
		var t, x any
		if i < len(s.Times) {
			t = xlsxTime(s.Times[i])
		}
		if i < len(s.X) {
			x = opt64(s.X[i])
		}
		if err := emit([]any{d.Label, t, x, nil, nil, nil, s.Percent[i] / 100}); err != nil {
			return err
		}
	}
	return nil
}

// shareRows returns the indexes of s's readings to write: all of them, or
// maxXLSXGPURows chosen by LTTB in reading order, which keeps peaks.
func shareRows(s *analyze.ShareSeries) []int {
	return lttbRows(len(s.Percent), maxXLSXGPURows, func(i int) (x, y float64) { return float64(i), s.Percent[i] })
}

// memStatsRows returns the indexes of m's readings to write: all of them,
// or maxXLSXGPURows chosen by LTTB on allocated bytes.
func memStatsRows(m *analyze.MemoryStatsSeries) []int {
	return lttbRows(len(m.Readings), maxXLSXGPURows, func(i int) (x, y float64) {
		return float64(i), float64(max(m.Readings[i].Allocated, 0))
	})
}

// bytesCell is a byte count as a cell, empty when unknown.
func bytesCell(b int64, conv func(int64) float64) any {
	if b < 0 {
		return nil
	}
	if conv != nil {
		return conv(b)
	}
	return b
}

// memoryStats lists the torch.cuda.memory_stats readings of every device.
func (w *xlsxWriter) memoryStats() error {
	cols := []xcol{
		{"Device", 18, ""}, {"Rank", 6, ""}, {"CUDA device", 8, ""}, {"#", 7, ""}, {"Step", 10, fmtBytes}, {"Time (UTC)", 20, fmtTime},
		{"Axis", 8, ""}, {"X", 10, fmtNum},
		{"Allocated", 13, fmtGiB}, {"Reserved", 13, fmtGiB}, {"Active", 13, fmtGiB}, {"Inactive split", 13, fmtMiB},
		{"num_alloc_retries", 12, fmtBytes}, {"num_ooms", 10, fmtBytes},
		{"allocated_bytes", 16, fmtBytes}, {"reserved_bytes", 16, fmtBytes}, {"active_bytes", 16, fmtBytes}, {"inactive_split_bytes", 16, fmtBytes},
	}
	toMiB := func(b int64) float64 { return mib(float64(b)) }
	_, err := w.table("Memory stats", "tMemoryStats", cols, func(emit func([]any) error) error {
		for _, d := range w.v.Devices {
			m := d.MemoryStats
			if m == nil {
				continue
			}
			for _, i := range memStatsRows(m) {
				r := &m.Readings[i]
				var step, x any
				if r.Step != input.NoStep {
					step = r.Step
				}
				if i < len(m.X) {
					x = opt64(m.X[i])
				}
				if err := emit([]any{d.Label, rankCell(d.Key.JobRank()), d.Key.Device, i + 1, step, xlsxTime(r.Time), d.AxisUnit, x,
					bytesCell(r.Allocated, toGiB), bytesCell(r.Reserved, toGiB), bytesCell(r.Active, toGiB), bytesCell(r.InactiveSplit, toMiB),
					bytesCell(r.NumAllocRetries, nil), bytesCell(r.NumOOMs, nil),
					bytesCell(r.Allocated, nil), bytesCell(r.Reserved, nil), bytesCell(r.Active, nil), bytesCell(r.InactiveSplit, nil),
				}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return err
}

// eachProcess calls fn for every process of every device, then for the
// processes of no device.
func eachProcess(v *view, fn func(set *processSet, r *processRow, p *analyze.ProcessSeries) error) error {
	sets := make([]*processSet, 0, len(v.Devices)+1)
	for _, d := range v.Devices {
		sets = append(sets, d.Processes)
	}
	for _, set := range append(sets, v.OtherProcesses) {
		if set == nil {
			continue
		}
		for i := range set.Rows {
			if err := fn(set, &set.Rows[i], &set.Set.Series[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// processCols are the Processes sheet's columns.
var processCols = []xcolumn[processRow]{
	xt("Device", 18, func(r processRow) string { return r.Device }),
	xc("GPU", 6, "", func(r processRow) Cell { return r.GPU }),
	xc("PID", 9, "", func(r processRow) Cell { return r.PID }),
	xt("Process", 30, func(r processRow) string { return r.Process }),
	xc("Readings", 9, fmtBytes, func(r processRow) Cell { return r.Readings }),
	xc("First (UTC)", 20, fmtTime, func(r processRow) Cell { return r.First }),
	xc("Last (UTC)", 20, fmtTime, func(r processRow) Cell { return r.Last }),
	xc("Peak", 13, fmtMiB, func(r processRow) Cell { return r.Peak }),
	xc("Last used", 13, fmtMiB, func(r processRow) Cell { return r.LastUsed }),
	xc("Slope", 14, fmtMiB, func(r processRow) Cell { return r.Slope }),
	xc("CI 95% low", 14, fmtMiB, func(r processRow) Cell { return r.Lo }),
	xc("CI 95% high", 14, fmtMiB, func(r processRow) Cell { return r.Hi }),
	xc("Per", 8, "", func(r processRow) Cell { return r.Per }),
	xc("p-value", 10, fmtP, func(r processRow) Cell { return r.PValue }),
	xc("Verdict", 16, "", func(r processRow) Cell { return r.Verdict }),
	xc("Pattern", 18, "", func(r processRow) Cell { return r.Pattern }),
	xc("used_max_bytes", 16, fmtBytes, func(r processRow) Cell { return r.Peak }),
	xc("used_last_bytes", 16, fmtBytes, func(r processRow) Cell { return r.LastUsed }),
	xt("Logs", 40, func(r processRow) string { return r.Logs }),
}

// processes lists every process: peak, last and the trend of its used
// memory; the processes of each device, then those of no device.
func (w *xlsxWriter) processes() error {
	var rows []processRow
	_ = eachProcess(w.v, func(_ *processSet, r *processRow, _ *analyze.ProcessSeries) error {
		rows = append(rows, *r)
		return nil
	})
	return itemSheet(w, "Processes", "tProcesses", processCols, rows, nil)
}

// maxXLSXProcessRows bounds the Process samples sheet: each process gets
// an equal share (at least a tenth of maxXLSXGPURows), thinned with LTTB.
const maxXLSXProcessRows = 100_000

// processRowLimit is how many readings each of n processes may write.
func processRowLimit(n int) int {
	return max(maxXLSXGPURows/10, maxXLSXProcessRows/max(n, 1))
}

// countProcesses is the number of processes the Process samples sheet
// lists.
func countProcesses(v *view) int {
	n := 0
	_ = eachProcess(v, func(*processSet, *processRow, *analyze.ProcessSeries) error { n++; return nil })
	return n
}

// processSamples lists every process reading (at most processRowLimit
// per process, thinned with LTTB).
func (w *xlsxWriter) processSamples() error {
	limit := processRowLimit(countProcesses(w.v))
	cols := []xcol{
		{"Device", 18, ""}, {"GPU", 6, ""}, {"PID", 9, ""}, {"Process", 30, ""}, {"Time (UTC)", 20, fmtTime},
		{"Axis", 10, ""}, {"X", 10, fmtNum}, {"Used", 13, fmtMiB}, {"used_bytes", 16, fmtBytes},
	}
	_, err := w.table("Process samples", "tProcessSamples", cols, func(emit func([]any) error) error {
		return eachProcess(w.v, func(set *processSet, r *processRow, p *analyze.ProcessSeries) error {
			var gpu any
			if p.GPU >= 0 {
				gpu = p.GPU
			}
			for _, i := range thinRows(p.Times, p.Used, limit) {
				var x any
				if i < len(p.X) {
					x = opt64(p.X[i])
				}
				if err := emit([]any{r.Device, gpu, p.PID, p.Name, xlsxTime(p.Times[i]), string(set.Set.Axis), x, mib(float64(p.Used[i])), p.Used[i]}); err != nil {
					return err
				}
			}
			return nil
		})
	})
	return err
}

// inputRow is one row of the Inputs sheet: a snapshot file, a GPU log or
// a file skipped.
type inputRow struct {
	Kind, File                          string
	Format, Samples, GPUs, SkippedLines Cell
	Reason                              Cell
}

// inputCols are the Inputs sheet's columns.
var inputCols = []xcolumn[inputRow]{
	xt("Kind", 12, func(r inputRow) string { return r.Kind }),
	xt("File", 50, func(r inputRow) string { return r.File }),
	xc("Format", 16, "", func(r inputRow) Cell { return r.Format }),
	xc("Samples", 10, fmtBytes, func(r inputRow) Cell { return r.Samples }),
	xc("GPUs", 6, "", func(r inputRow) Cell { return r.GPUs }),
	xc("Skipped lines", 10, fmtBytes, func(r inputRow) Cell { return r.SkippedLines }),
	xc("Reason / problems", 80, fmtWrap, func(r inputRow) Cell { return r.Reason }),
}

// inputs lists the inputs: snapshot files, GPU logs, skipped files.
func (w *xlsxWriter) inputs() error {
	var rows []inputRow
	none := emptyCell()
	for _, s := range w.v.SnapshotFiles {
		rows = append(rows, inputRow{Kind: "snapshot", File: s.Path, Format: none, Samples: none, GPUs: none, SkippedLines: none, Reason: none})
	}
	for _, l := range w.v.GPULogs {
		rows = append(rows, inputRow{Kind: "gpu log", File: l.Path, Format: textCell(l.Format), Samples: l.Samples, GPUs: l.GPUs, SkippedLines: l.Skipped,
			Reason: textCell(strings.Join(l.problems(), "; "))})
	}
	for _, s := range w.v.Skipped {
		rows = append(rows, inputRow{Kind: "skipped", File: s.Path, Format: none, Samples: none, GPUs: none, SkippedLines: none, Reason: textCell(s.Reason)})
	}
	return itemSheet(w, "Inputs", "tInputs", inputCols, rows, nil)
}
