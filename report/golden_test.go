package report

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/input"
)

// xlsxText dumps every sheet of a workbook as text for a golden file: a
// "== sheet ==" line, then one line per row with its cells' raw values
// (numbers as stored, to ten significant digits, not as their format
// shows them) separated by " | ".
// A change of any cell, row or sheet shows as a changed line.
func xlsxText(t *testing.T, b []byte) []byte {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatalf("sheet %s: %v", sheet, err)
		}
		out.WriteString("== " + sheet + " ==\n")
		for _, r := range rows {
			for i, c := range r {
				// Ten significant digits: the last bits of a fitted
				// p-value may differ between platforms.
				if v, err := strconv.ParseFloat(c, 64); err == nil && v != math.Trunc(v) {
					r[i] = strconv.FormatFloat(v, 'g', 10, 64)
				}
			}
			out.WriteString(strings.Join(r, " | ") + "\n")
		}
	}
	return out.Bytes()
}

// TestXLSXGolden pins the cell text of every sheet of report.xlsx for
// the fixture run, a logs-only run with memory_stats readings and one with
// GPU logs only (regenerate with -update).
func TestXLSXGolden(t *testing.T) {
	f, _ := fixtureFindings()
	b, err := XLSX(f, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report.xlsx.txt", xlsxText(t, b))
	for _, tt := range []struct {
		name  string
		stats bool
	}{{"logs-only", true}, {"gpu-logs-only", false}} {
		dir := t.TempDir()
		writeSMILogs(t, dir, tt.stats)
		if tt.stats {
			writeLeakingStats(t, dir)
		}
		f, _ := logsOnlyRun(t, dir, tt.name)
		b, err := XLSX(f, fixedOptions)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, tt.name+"/report.xlsx.txt", xlsxText(t, b))
		if !tt.stats {
			golden(t, tt.name+"/summary.md", Markdown(f, fixedOptions))
		}
	}
}

// TestDiffGolden pins the four outputs of a diff, and its workbook's
// cells (regenerate with -update).
func TestDiffGolden(t *testing.T) {
	d := fixtureDiff()
	// A second device, missing on side A, so the per-device parts show;
	// the two devices split the entries.
	d.Devices[0].Entries = d.Total[2:]
	d.Devices = append(d.Devices, DiffDevice{DeviceKey: analyze.DeviceKey{Rank: input.NoRank, Device: 1}, FileB: "snap.pickle", Entries: d.Total[:2]})
	var text bytes.Buffer
	if err := DiffText(&text, d, 3); err != nil {
		t.Fatal(err)
	}
	golden(t, "diff/stdout.txt", text.Bytes())
	golden(t, "diff/summary.md", DiffMarkdown(d, fixedOptions))
	js, err := DiffJSON(d, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "diff/summary.json", js)
	page, err := DiffHTML(d, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	// The page's body: its head is the shared template and style sheet.
	golden(t, "diff/index.html", page[bytes.Index(page, []byte("<body>")):])
	xl, err := DiffXLSX(d, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "diff/report.xlsx.txt", xlsxText(t, xl))
}

// TestLogProblems: every writer lists a GPU log's problems in the same
// words and order: lines, then kinds (a count with its noun in the right
// number), then the reader's notes.
func TestLogProblems(t *testing.T) {
	f := &analyze.Findings{}
	f.Inputs.Logs = []analyze.LogInfo{{
		Problems:   []gpulog.LineProblem{{Line: 12, Reason: "bad number"}},
		SkipCounts: []gpulog.SkipCount{{Kind: "bad timestamp", Lines: 1}, {Kind: "short row", Lines: 3}},
		Notes:      []string{"zoneless"},
	}}
	v := buildView(f)
	got := v.GPULogs[0].problems()
	want := []string{"line 12: bad number", "bad timestamp: 1 line", "short row: 3 lines", "zoneless"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("log problems (-want +got):\n%s", d)
	}
}
