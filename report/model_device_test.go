package report

import (
	"math"
	"testing"
	"time"
)

// TestViewTables: every table of the view model, for runs with
// snapshots, with many devices and with GPU logs only, has one cell per
// column in every row, a text cell holds no number, and the workbook
// finds every column it lays out.
func TestViewTables(t *testing.T) {
	fix, _ := fixtureFindings()
	dir := t.TempDir()
	writeSMILogs(t, dir, true)
	writeLeakingStats(t, dir)
	logs, _ := logsOnlyRun(t, dir, "logs-only")
	for name, v := range map[string]*view{"fixture": buildView(fix), "large": buildView(largeFindings()), "logs-only": buildView(logs)} {
		tables := map[string]Table{
			"figures": v.Figures, "suspects": v.SuspectTable, "ooms": v.OOMs, "snapshot files": v.SnapshotFiles,
			"gpu logs": v.GPULogs, "skipped": v.Skipped, "other processes": v.OtherProcesses,
		}
		rows := 0
		for i, fg := range v.Devices {
			for part, tb := range map[string]Table{"snapshots": fg.Snapshots, "groups": fg.Groups, "processes": fg.Processes, "trends": fg.Trends, "stats trends": fg.StatsTrends} {
				tables[fg.ASCII+" "+part] = tb
			}
			rows += len(fg.Snapshots.Rows)
			if len(fg.Snapshots.Rows) != len(fg.dev.Points) {
				t.Errorf("%s: device %d has %d snapshot rows for %d snapshots", name, i, len(fg.Snapshots.Rows), len(fg.dev.Points))
			}
		}
		if name != "logs-only" && rows == 0 {
			t.Errorf("%s: no snapshot rows", name)
		}
		if len(v.SuspectTable.Rows) != len(v.Suspects) {
			t.Errorf("%s: %d suspect rows for %d suspects", name, len(v.SuspectTable.Rows), len(v.Suspects))
		}
		for tn, tb := range tables {
			for i, r := range tb.Rows {
				if len(r.Cells) != len(tb.Columns) {
					t.Errorf("%s %s row %d: %d cells for %d columns", name, tn, i, len(r.Cells), len(tb.Columns))
				}
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
