package report

import (
	"math"
	"testing"
	"time"

	"gpureport/analyze"
)

// TestViewItems: the items of the view model, for runs with snapshots,
// with many devices and with GPU logs only: a snapshot row per snapshot,
// every table's text cells hold no number, and the workbook lays out
// every sheet.
func TestViewItems(t *testing.T) {
	fix, _ := fixtureFindings()
	dir := t.TempDir()
	writeSMILogs(t, dir, true)
	writeLeakingStats(t, dir)
	logs, _ := logsOnlyRun(t, dir, "logs-only")
	for name, f := range map[string]*analyze.Findings{"fixture": fix, "large": largeFindings(), "logs-only": logs} {
		v := buildView(f)
		if len(v.Devices) != len(f.Devices) {
			t.Fatalf("%s: %d device items for %d devices", name, len(v.Devices), len(f.Devices))
		}
		rows := 0
		for i, d := range v.Devices {
			rows += len(d.Snapshots)
			if len(d.Snapshots) != len(f.Devices[i].Points) {
				t.Errorf("%s: device %d has %d snapshot rows for %d snapshots", name, i, len(d.Snapshots), len(f.Devices[i].Points))
			}
			checkCells(t, name+" "+d.Label+" snapshots", d.Snapshots, snapshotCols)
			checkCells(t, name+" "+d.Label+" trends", append(d.Trends, d.StatsTrends...), trendCols)
			checkCells(t, name+" "+d.Label+" groups", d.Groups, groupCols)
			if d.Processes != nil {
				checkCells(t, name+" "+d.Label+" processes", d.Processes.Rows, processCols)
			}
		}
		if name != "logs-only" && rows == 0 {
			t.Errorf("%s: no snapshot rows", name)
		}
		checkCells(t, name+" suspects", numberedOf(v.Suspects, -1), suspectCols)
		for tn, tb := range map[string]Table{"figures": v.figures(), "top suspects": v.topTable(-1)} {
			for i, r := range tb.Rows {
				for j, c := range r.Cells {
					if (c.Unit == UnitNone || c.Unit == UnitEmpty) && !math.IsNaN(c.Value) {
						t.Errorf("%s %s row %d column %q: text cell with value %v", name, tn, i, tb.Columns[j].Name, c.Value)
					}
				}
			}
		}
		if _, err := xlsxOf(v, fixedOptions); err != nil {
			t.Errorf("%s: workbook: %v", name, err)
		}
	}
}

// checkCells checks the cells of items in the workbook's columns: a text
// cell holds no number.
func checkCells[R any](t *testing.T, what string, items []R, cols []xcolumn[R]) {
	t.Helper()
	for i, it := range items {
		for _, c := range cols {
			if cell := c.of(it); (cell.Unit == UnitNone || cell.Unit == UnitEmpty) && !math.IsNaN(cell.Value) {
				t.Errorf("%s row %d column %q: text cell with value %v", what, i, c.name, cell.Value)
			}
		}
	}
}

// TestXLSXValue: a cell goes into the workbook as its raw value in the
// unit of the column's number format, its text when it is text, nothing
// when it has no value.
func TestXLSXValue(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		c    Cell
		fmt  string
		want any
	}{
		{"bytes as GiB", byteCell(3 << 30), fmtGiB, 3.0},
		{"bytes as MiB", byteCell(3 << 20), fmtMiB, 3.0},
		{"raw bytes", byteCell(1536), fmtBytes, 1536.0},
		{"rate as MiB", rateCell(2<<20, "step"), fmtMiB, 2.0},
		{"unknown rate", rateCell(math.NaN(), "step"), fmtMiB, nil},
		{"unknown OOM figure", oomByteCell(-1), fmtGiB, nil},
		{"share", shareCell(0.25), fmtPercent, 0.25},
		{"time as an Excel date", timeCell(at, tableTime), fmtTime, float64(at.UnixMilli())/86_400_000 + 25569},
		{"zero time", timeCell(time.Time{}, tableTime), fmtTime, nil},
		{"text", textCell("train.py:57"), "", "train.py:57"},
		{"empty text stays a cell", textCell(""), "", ""},
		{"no value", emptyCell(), "", nil},
		{"count", countCell(1234, true), fmtBytes, 1234.0},
	}
	for _, tc := range cases {
		if got := xlsxValue(tc.c, tc.fmt); got != tc.want {
			t.Errorf("%s: got %v (%T), want %v", tc.name, got, got, tc.want)
		}
	}
	if c := countCell(1234, true); c.Text != "1,234" {
		t.Errorf("count text %q, want 1,234", c.Text)
	}
}

// TestProjectionEndRanOut: the chart draws no projection band past the run
// on a device the run already ran out of memory on; a growing trend
// without one keeps its band.
func TestProjectionEndRanOut(t *testing.T) {
	p := &analyze.Projection{X: 1200}
	for _, tt := range []struct {
		name string
		t    analyze.Trend
		want float64
	}{
		{"projected", analyze.Trend{State: analyze.StateGrowing, Projection: p}, 1200},
		{"growing, no capacity", analyze.Trend{State: analyze.StateGrowing}, 1500},
		{"ran out", analyze.Trend{State: analyze.StateGrowing, RanOut: &analyze.RanOut{}}, 1000},
	} {
		if got := projectionEnd(&tt.t, 0, 1000); got != tt.want {
			t.Errorf("%s: band ends at %g, want %g", tt.name, got, tt.want)
		}
	}
}
