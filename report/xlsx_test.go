package report

import (
	"archive/zip"
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"gpureport/analyze"
)

// TestXLSX reopens the workbook with excelize and checks its sheets,
// headers, values, number formats, frozen panes, tables and charts.
func TestXLSX(t *testing.T) {
	fd, _ := fixtureFindings()
	f := openXLSX(t, fd)
	if got := f.GetSheetList(); !slices.Equal(got, xlsxSheets) {
		t.Fatalf("sheets %v, want %v", got, xlsxSheets)
	}
	cell := func(sheet, ref string) string {
		t.Helper()
		v, err := f.GetCellValue(sheet, ref)
		if err != nil {
			t.Fatalf("%s!%s: %v", sheet, ref, err)
		}
		return v
	}
	// The Summary's Field column is as wide as its longest name, so a
	// printed page does not cut "rank 0 cuda:0: external fragmentation
	// (last snapshot)".
	names, err := f.GetCols("Summary")
	if err != nil || len(names) == 0 {
		t.Fatalf("Summary columns: %v", err)
	}
	longest := 0
	for _, n := range names[0] {
		longest = max(longest, len([]rune(n)))
	}
	if w, err := f.GetColWidth("Summary", "A"); err != nil || w < float64(min(longest, 58)) {
		t.Errorf("Summary field column %.0f characters wide, its longest name %d (%v)", w, longest, err)
	}
	raw := func(sheet, ref string) string {
		t.Helper()
		v, err := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatalf("%s!%s: %v", sheet, ref, err)
		}
		return v
	}
	checks := []struct{ sheet, ref, want string }{
		{"Summary", "A1", "Field"},
		{"Summary", "A2", "Run"},
		{"Summary", "B2", "/data/experiments/run42"},
		{"Summary", "B3", "critical"},
		{"Snapshots", "A1", "Device"},
		{"Snapshots", "J1", "Allocated"},
		{"Snapshots", "I1", "X"},
		{"Snapshots", "A2", "rank 0 · cuda:0"},
		{"Snapshots", "E14", "rank1/snapshot_step_100.pickle"},
		{"Snapshots", "I14", "100"},
		{"Trend", "B2", "allocated_bytes"},
		{"Trend", "J4", "growing"},
		{"Suspects", "C2", "train.py:57"},
		{"Suspects", "E2", "7f3a9c01d2e4b5a6"},
		{"Suspects", "N2", "yes"},
		{"Suspects", "O3", "known: dataset cache"},
		{"GPU samples", "A1", "Device"},
		{"Inputs", "A1", "Kind"},
	}
	for _, c := range checks {
		if got := cell(c.sheet, c.ref); got != c.want {
			t.Errorf("%s!%s = %q, want %q", c.sheet, c.ref, got, c.want)
		}
	}
	// Allocated of rank 1's first snapshot: 20 GiB as a GiB number with a
	// GiB format; the raw byte column holds the exact count.
	if got := raw("Snapshots", "J14"); got != "20" {
		t.Errorf("Snapshots!J14 raw = %q, want 20 (GiB)", got)
	}
	if got := cell("Snapshots", "J14"); got != `20.000 GiB` {
		t.Errorf("Snapshots!J14 formatted = %q", got)
	}
	if got := raw("Snapshots", "U14"); got != "21474836480" {
		t.Errorf("Snapshots!U14 = %q, want 21474836480", got)
	}
	rows, _ := f.GetRows("GPU samples")
	if len(rows) != 1+240 {
		t.Errorf("GPU samples has %d rows, want 241", len(rows))
	}
	rows, _ = f.GetRows("Inputs")
	if len(rows) != 1+24+1+1 || rows[len(rows)-1][0] != "skipped" {
		t.Errorf("Inputs has %d rows, last %v", len(rows), rows[len(rows)-1])
	}
	checkSheets(t, f, "Memory stats", "Processes", "Process samples")
	// The projection columns carry their unit; a p-value below 0.001
	// reads "< 0.001", not 0.0000.
	trows, _ := f.GetRows("Trend")
	units := 0
	for i, r := range trows[1:] {
		if len(r) > 13 && r[12] != "" {
			units++
			if !strings.HasPrefix(r[12], "step ") || !strings.HasSuffix(r[13], " steps") {
				t.Errorf("Trend row %d: reaches capacity at %q, remaining %q; want step units", i+2, r[12], r[13])
			}
		}
		if len(r) > 7 && r[7] == "0.0000" {
			t.Errorf("Trend row %d: p-value shows 0.0000", i+2)
		}
	}
	if units == 0 {
		t.Error("no Trend row has a projection")
	}
	// How "< 0.001" is drawn is checked through LibreOffice
	// (TestXLSXInLibreOffice): excelize's own formatter misreads the
	// quoted literal.
	if got := raw("Trend", "H4"); got != "0.000001" {
		t.Errorf("Trend!H4 p-value raw = %q, want the exact number", got)
	}
	// Native charts: two per device, its timeline on the Trend sheet and
	// its roles on the Roles sheet.
	var charts int
	f.Pkg.Range(func(k, v any) bool {
		if strings.HasPrefix(k.(string), "xl/charts/chart") {
			charts++
		}
		return true
	})
	if charts != 4 {
		t.Errorf("%d charts, want 4 (two per device)", charts)
	}
}

// checkSheets checks that every sheet has its header row frozen and, when
// it has data rows, one filterable table; the sheets named in empty must
// have no data rows (the fixture has nothing for them).
func checkSheets(t *testing.T, f *excelize.File, empty ...string) {
	t.Helper()
	for _, s := range xlsxSheets {
		panes, err := f.GetPanes(s)
		if err != nil || !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("sheet %s: panes %+v, %v; want the header row frozen", s, panes, err)
		}
		rows, err := f.GetRows(s)
		if err != nil || len(rows) == 0 {
			t.Errorf("sheet %s: %d rows, %v; want a header", s, len(rows), err)
			continue
		}
		want := 1
		if slices.Contains(empty, s) {
			want = 0
			if len(rows) != 1 {
				t.Errorf("sheet %s: %d data rows, want none", s, len(rows)-1)
			}
		}
		tables, err := f.GetTables(s)
		if err != nil || len(tables) != want {
			t.Errorf("sheet %s: %d tables, %v; want %d filterable table(s)", s, len(tables), err, want)
		}
	}
}

// TestXLSXHostileText: a frame or file name that looks like a formula
// stays a string.
func TestXLSXHostileText(t *testing.T) {
	fd, _ := fixtureFindings()
	fd.Devices[1].Suspects[0].Site = `=HYPERLINK("http://evil","x")`
	f := openXLSX(t, fd)
	formula, _ := f.GetCellFormula("Suspects", "C2")
	v, _ := f.GetCellValue("Suspects", "C2")
	if formula != "" || v != `=HYPERLINK("http://evil","x")` {
		t.Errorf("formula %q, value %q: want a plain string", formula, v)
	}
}

// TestXLSXWrapsSentences: a long note wraps inside the Summary's Value
// column, in a row tall enough for its lines, with the row's cells at its
// top; a short one keeps the default height.
func TestXLSXWrapsSentences(t *testing.T) {
	fd, _ := fixtureFindings()
	long := "fragmentation on rank 0 cuda:0: " + strings.Repeat("reserved memory rose while live memory did not; ", 8)
	fd.Notes = append(fd.Notes, analyze.Note{Kind: analyze.NoteText, Text: long})
	f := openXLSX(t, fd)
	rows, err := f.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	var longRow, shortRow int
	for i, r := range rows {
		if len(r) > 1 && r[1] == long {
			longRow = i + 1
		}
		if len(r) > 1 && r[0] == "Severity" {
			shortRow = i + 1
		}
	}
	if longRow == 0 || shortRow == 0 {
		t.Fatalf("rows of the long note (%d) or the severity (%d) not found", longRow, shortRow)
	}
	// 400 characters in a 90-character column: 5 lines.
	if h, err := f.GetRowHeight("Summary", longRow); err != nil || h < 5*lineHeight {
		t.Errorf("long note's row is %g points tall (%v), want at least %g", h, err, 5*lineHeight)
	}
	if h, err := f.GetRowHeight("Summary", shortRow); err != nil || h > lineHeight {
		t.Errorf("severity row is %g points tall (%v), want the default", h, err)
	}
	for col, wrap := range map[string]bool{"A": false, "B": true} {
		id, err := f.GetCellStyle("Summary", col+strconv.Itoa(longRow))
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(id)
		if err != nil || st.Alignment == nil {
			t.Fatalf("%s%d: style %d has no alignment (%v)", col, longRow, id, err)
		}
		if st.Alignment.WrapText != wrap || st.Alignment.Vertical != "top" {
			t.Errorf("%s%d: wrap %v vertical %q, want wrap %v at the top", col, longRow, st.Alignment.WrapText, st.Alignment.Vertical, wrap)
		}
	}
}

// openXLSX renders fd's workbook and opens it with excelize, closed when
// the test ends.
func openXLSX(t *testing.T, fd *analyze.Findings) *excelize.File {
	t.Helper()
	b, err := XLSX(fd, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestXLSXOpensOnSummary: the workbook opens on its first sheet, the only
// one whose tab is selected (set before the sheets are streamed, it must
// survive their frozen header rows), every sheet's header row frozen.
func TestXLSXOpensOnSummary(t *testing.T) {
	fd, _ := fixtureFindings()
	b, err := XLSX(fd, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	selected := map[string]bool{}
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		r, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		x, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		selected[zf.Name] = bytes.Contains(x, []byte(`tabSelected="true"`))
	}
	if len(selected) != len(xlsxSheets) {
		t.Fatalf("%d worksheets in the zip, want %d", len(selected), len(xlsxSheets))
	}
	for name, sel := range selected {
		if want := name == "xl/worksheets/sheet1.xml"; sel != want {
			t.Errorf("%s: tab selected %v, want %v", name, sel, want)
		}
	}
	f := openXLSX(t, fd)
	if got := f.GetActiveSheetIndex(); got != 0 {
		t.Errorf("active sheet %d, want 0", got)
	}
	for _, name := range f.GetSheetList() {
		if p, err := f.GetPanes(name); err != nil || !p.Freeze {
			t.Errorf("%s: header row not frozen (panes %+v, %v)", name, p, err)
		}
	}
}
