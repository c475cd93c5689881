package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"gpureport/analyze"
	"gpureport/internal/units"
	"gpureport/report/words"
	"gpureport/templates"
)

// DiffSchema is the schema name of a diff's summary.json.
const DiffSchema = "gpureport/diff/v1"

// DiffSide describes one side of a diff: a snapshot file or a run.
type DiffSide struct {
	// Path is the snapshot file or run directory as given.
	Path string `json:"path"`
	// Kind is "snapshot" or "run".
	Kind string `json:"kind"`
	// Snapshots counts the snapshot files read; Files lists the ones
	// compared (the last of each device series for a run).
	Snapshots int      `json:"snapshots"`
	Files     []string `json:"files"`
}

// DiffDevice is the comparison of one (rank, device).
type DiffDevice struct {
	analyze.DeviceKey
	// FileA and FileB are the snapshots compared ("" when the device is
	// missing on that side).
	FileA, FileB string
	// Entries are analyze.Diff's entries, largest change first.
	Entries []analyze.DiffEntry
}

// DiffReport is a comparison of two snapshots or runs by stack signature,
// pprof -diff_base style: A is the base, B the new state.
type DiffReport struct {
	A, B DiffSide
	// Devices compares each (rank, device) present on either side.
	Devices []DiffDevice
	// Total compares all devices merged.
	Total []analyze.DiffEntry
}

// diffStatuses are the kinds of change a diff counts, in the order its
// totals list them.
var diffStatuses = []analyze.DiffStatus{analyze.DiffGrown, analyze.DiffShrunk, analyze.DiffNew, analyze.DiffGone}

// diffTotals sums an entry list: live bytes on each side, and per kind of
// change (diffStatuses' order) the signatures and the bytes they moved.
type diffTotals struct {
	a, b  int64
	n     [4]int
	delta [4]int64
}

func totals(es []analyze.DiffEntry) diffTotals {
	var t diffTotals
	for _, e := range es {
		t.a += e.BytesA
		t.b += e.BytesB
		if i := slices.Index(diffStatuses, e.Status); i >= 0 {
			t.n[i]++
			t.delta[i] += e.Delta
		}
	}
	return t
}

// sentence says the totals in words, as the diff's page and summary.md
// head themselves: "Live bytes 1.56 GiB → 3.26 GiB (+1.70 GiB): 1 grown
// (+2.00 GiB), 1 shrunk (-256 MiB), 1 new (+8.00 MiB), 1 gone (-64.0 MiB)
// signatures."
func (t diffTotals) sentence() string {
	return fmt.Sprintf("Live bytes %s → %s (%s): %s signatures.", units.Bytes(t.a), units.Bytes(t.b), units.Signed(float64(t.b-t.a)), t.counts(true))
}

// counts lists the changes by kind: "1 grown, 1 shrunk, 1 new, 1 gone",
// with the bytes each kind moved when withBytes ("1 grown (+2.00 GiB)").
func (t diffTotals) counts(withBytes bool) string {
	parts := make([]string, len(diffStatuses))
	for i, st := range diffStatuses {
		parts[i] = fmt.Sprintf("%d %s", t.n[i], st)
		if withBytes {
			parts[i] += " (" + units.Signed(float64(t.delta[i])) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// diffColumns are the columns of a diff table.
var diffColumns = []Column{
	{Name: "Status"}, {Name: "Delta", Num: true}, {Name: "A", Num: true}, {Name: "B", Num: true},
	{Name: "Blocks A", Num: true}, {Name: "Blocks B", Num: true},
	{Name: "Site", Code: true}, {Name: "Function", Code: true}, {Name: "Fingerprint", Code: true},
}

// Columns of diffColumns the writers pick by position.
const (
	dcStatus = iota
	dcDelta
	dcA
	dcB
	dcBlocksA
	dcBlocksB
	dcSite
	dcFunction
	dcFingerprint
)

// diffTable is a diff's entries as a table, the diff's view model as a
// profile is pprof's: the changed entries (every entry with all), at most
// limit rows (no bound when limit < 0). It returns the entries shown, row
// by row, and how many changed entries were left out.
func diffTable(es []analyze.DiffEntry, all bool, limit int) (Table, []analyze.DiffEntry, int) {
	t := Table{Columns: diffColumns}
	var shown []analyze.DiffEntry
	left := 0
	for _, e := range es {
		if e.Status == analyze.DiffSame && !all {
			continue
		}
		if len(t.Rows) == limit {
			left++
			continue
		}
		count := func(n int) Cell { return Cell{Text: units.Count(int64(n)), Value: float64(n)} }
		t.Rows = append(t.Rows, Row{Cells: []Cell{
			textCell(string(e.Status)), {Text: units.Signed(float64(e.Delta)), Value: float64(e.Delta), Unit: UnitBytes}, byteCell(e.BytesA), byteCell(e.BytesB),
			count(e.BlocksA), count(e.BlocksB), textCell(e.Site), textCell(e.Function), textCell(e.Fingerprint),
		}})
		shown = append(shown, e)
	}
	return t, shown, left
}

// WriteDiff writes index.html, report.xlsx, summary.json and summary.md
// of a diff into dir, each atomically.
func WriteDiff(dir string, d *DiffReport, opt Options) error {
	page, errHTML := DiffHTML(d, opt)
	xl, errXLSX := DiffXLSX(d, opt)
	js, errJSON := DiffJSON(d, opt)
	if err := errors.Join(errHTML, errXLSX, errJSON); err != nil {
		return err
	}
	return writeFiles(dir, page, xl, DiffMarkdown(d, opt), js)
}

// DiffText writes the stdout table of a diff: the top changes by size.
func DiffText(w io.Writer, d *DiffReport, top int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "A: %s (%s)\nB: %s (%s)\n", cleanText(d.A.Path), d.A.Kind, cleanText(d.B.Path), d.B.Kind)
	tt := totals(d.Total)
	fmt.Fprintf(bw, "live bytes %s -> %s (%s); %s signatures\n", units.Bytes(tt.a), units.Bytes(tt.b), units.Signed(float64(tt.b-tt.a)), tt.counts(false))
	fmt.Fprintf(bw, "%-7s %12s %12s %12s  %-30s %-24s %s\n", "status", "delta", "A", "B", "site", "function", "fingerprint")
	t, _, left := diffTable(d.Total, false, top)
	for _, r := range t.Rows {
		c := r.Cells
		fmt.Fprintf(bw, "%-7s %12s %12s %12s  %-30s %-24s %s\n", c[dcStatus].Text, c[dcDelta].Text, c[dcA].Text, c[dcB].Text,
			clip(cleanText(c[dcSite].Text), 30), clip(cleanText(c[dcFunction].Text), 24), cleanText(c[dcFingerprint].Text))
	}
	if left > 0 {
		fmt.Fprintf(bw, "... %d more changed signatures (see the report)\n", left)
	}
	if len(t.Rows) == 0 {
		fmt.Fprintln(bw, "no signature changed")
	}
	return bw.Flush()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// diffJSON is a diff's summary.json (schema DiffSchema).
type diffJSON struct {
	// Schema names the file's format; GeneratedAt is when it was written
	// (RFC 3339, UTC); Version is gpureport's, absent when unknown.
	Schema      string `json:"schema"`
	GeneratedAt string `json:"generated_at"`
	Version     string `json:"version,omitempty"`
	// A is the base side, B the side compared with it.
	A DiffSide `json:"a"`
	B DiffSide `json:"b"`
	// Totals sums Entries: the live bytes on each side and how many
	// signatures changed in each way.
	Totals diffTotalsJSON `json:"totals"`
	// Devices are the comparisons of each (rank, device) present on
	// either side; Entries the comparison of all of them together.
	Devices []diffDeviceJSON `json:"devices"`
	Entries []diffEntryJSON  `json:"entries"`
}

// diffTotalsJSON sums a list of diff entries.
type diffTotalsJSON struct {
	// BytesA and BytesB are the live bytes on each side; Delta is BytesB
	// less BytesA (bytes).
	BytesA int64 `json:"bytes_a"`
	BytesB int64 `json:"bytes_b"`
	Delta  int64 `json:"delta_bytes"`
	// Grown, Shrunk, New and Gone count the signatures whose live bytes
	// rose, fell, appeared or disappeared from A to B.
	Grown  int `json:"grown"`
	Shrunk int `json:"shrunk"`
	New    int `json:"new"`
	Gone   int `json:"gone"`
}

// diffDeviceJSON is the comparison of one (rank, device).
type diffDeviceJSON struct {
	// Device is the CUDA device index; Rank the rank, null when the
	// files do not say.
	Device int  `json:"device"`
	Rank   *int `json:"rank"`
	// FileA and FileB are the snapshot files compared on each side.
	FileA string `json:"file_a"`
	FileB string `json:"file_b"`
	// Entries are the device's changed signatures, the largest change
	// first.
	Entries []diffEntryJSON `json:"entries"`
}

// diffEntryJSON is one signature's change from A to B.
type diffEntryJSON struct {
	// Fingerprint identifies the signature (12 hex digits of its key's
	// SHA-1); Site and Function are its innermost user frame and that
	// frame's function.
	Fingerprint string `json:"fingerprint"`
	Site        string `json:"site"`
	Function    string `json:"function"`
	// Status is "grown", "shrunk", "new", "gone" or "same".
	Status string `json:"status"`
	// BytesA and BytesB are the signature's live bytes on each side (0
	// where absent); Delta is BytesB less BytesA (bytes).
	BytesA int64 `json:"bytes_a"`
	BytesB int64 `json:"bytes_b"`
	Delta  int64 `json:"delta_bytes"`
	// BlocksA and BlocksB are its live blocks on each side.
	BlocksA int `json:"blocks_a"`
	BlocksB int `json:"blocks_b"`
}

func entriesJSON(es []analyze.DiffEntry) []diffEntryJSON {
	out := make([]diffEntryJSON, 0, len(es))
	for _, e := range es {
		out = append(out, diffEntryJSON{Fingerprint: e.Fingerprint, Site: e.Site, Function: e.Function, Status: string(e.Status),
			BytesA: e.BytesA, BytesB: e.BytesB, Delta: e.Delta, BlocksA: e.BlocksA, BlocksB: e.BlocksB})
	}
	return out
}

// DiffJSON renders a diff's summary.json.
func DiffJSON(d *DiffReport, opt Options) ([]byte, error) {
	t := totals(d.Total)
	j := diffJSON{Schema: DiffSchema, GeneratedAt: opt.GeneratedAt.UTC().Format(time.RFC3339), Version: opt.Version, A: d.A, B: d.B,
		Totals:  diffTotalsJSON{BytesA: t.a, BytesB: t.b, Delta: t.b - t.a, Grown: t.n[0], Shrunk: t.n[1], New: t.n[2], Gone: t.n[3]},
		Devices: []diffDeviceJSON{}, Entries: entriesJSON(d.Total)}
	for _, dv := range d.Devices {
		j.Devices = append(j.Devices, diffDeviceJSON{Device: dv.Device, Rank: rankPtr(dv.Rank), FileA: dv.FileA, FileB: dv.FileB, Entries: entriesJSON(dv.Entries)})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(j); err != nil {
		return nil, fmt.Errorf("encode diff summary: %w", err)
	}
	return buf.Bytes(), nil
}

// maxDiffMarkdownRows bounds the changes listed in a diff's summary.md.
const maxDiffMarkdownRows = 20

// DiffMarkdown renders a diff's summary.md.
func DiffMarkdown(d *DiffReport, opt Options) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# gpureport diff\n\n- A (base): %s (%s)\n- B: %s (%s)\n\n", mdCode(d.A.Path), d.A.Kind, mdCode(d.B.Path), d.B.Kind)
	fmt.Fprintf(&b, "%s\n\n", mdEscape(totals(d.Total).sentence()))
	t, _, _ := diffTable(d.Total, false, maxDiffMarkdownRows)
	mdTable(&b, t)
	fmt.Fprintf(&b, "\n_Generated by gpureport %s at %s._\n", mdEscape(opt.Version), units.Timestamp(opt.GeneratedAt))
	return b.Bytes()
}

// maxDiffRows bounds the rows of each HTML diff table.
const maxDiffRows = 100

type diffPage struct {
	GeneratedAt, Version string
	A, B                 DiffSide
	Summary              string
	Sections             []diffSection
	CSS                  template.CSS
}

type diffSection struct {
	Title, Files string
	Rows         []diffRow
	Omitted      int
}

type diffRow struct {
	Status, Delta, A, B, Site, Function, Fingerprint, BlocksA, BlocksB string
	Stack                                                              []stackPart
}

var diffTemplate = templates.Page("diff.html", nil)

// diffRows lays out the changed entries of es (at most maxDiffRows) for
// the page, and counts the ones left out.
func diffRows(es []analyze.DiffEntry) ([]diffRow, int) {
	t, shown, left := diffTable(es, false, maxDiffRows)
	rows := make([]diffRow, len(t.Rows))
	for i, r := range t.Rows {
		c := r.Cells
		rows[i] = diffRow{Status: c[dcStatus].Text, Delta: c[dcDelta].Text, A: c[dcA].Text, B: c[dcB].Text, Site: c[dcSite].Text,
			Function: c[dcFunction].Text, Fingerprint: c[dcFingerprint].Text, BlocksA: c[dcBlocksA].Text, BlocksB: c[dcBlocksB].Text}
		rows[i].Stack, _ = foldStack(shown[i].Stack, shown[i].User)
	}
	return rows, left
}

// DiffHTML renders a diff's index.html: self-contained, no script.
func DiffHTML(d *DiffReport, opt Options) ([]byte, error) {
	p := diffPage{GeneratedAt: units.Timestamp(opt.GeneratedAt), Version: opt.Version, A: d.A, B: d.B, CSS: template.CSS(templates.MustRead("style.css")),
		Summary: totals(d.Total).sentence()}
	rows, omitted := diffRows(d.Total)
	p.Sections = append(p.Sections, diffSection{Title: "All devices", Rows: rows, Omitted: omitted})
	if len(d.Devices) > 1 {
		for _, dv := range d.Devices {
			rows, omitted := diffRows(dv.Entries)
			p.Sections = append(p.Sections, diffSection{Title: words.Device(dv.DeviceKey), Files: fmt.Sprintf("A: %s · B: %s", orDash(dv.FileA), orDash(dv.FileB)), Rows: rows, Omitted: omitted})
		}
	}
	var buf bytes.Buffer
	if err := diffTemplate.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("render diff: %w", err)
	}
	return buf.Bytes(), nil
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// DiffXLSX renders a diff's report.xlsx: sheet Diff (every signature of
// every device, filterable) and Inputs.
func DiffXLSX(d *DiffReport, opt Options) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	w := &xlsxWriter{f: f, styles: map[string]int{}}
	var err error
	if w.header, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return nil, err
	}
	if err := f.SetSheetName("Sheet1", "Diff"); err != nil {
		return nil, err
	}
	if _, err := f.NewSheet("Inputs"); err != nil {
		return nil, err
	}
	cols := []xcol{{"Device", 18, ""}, {"Status", 8, ""}, {"Delta", 13, fmtMiB}, {"A", 13, fmtMiB}, {"B", 13, fmtMiB},
		{"Blocks A", 9, fmtBytes}, {"Blocks B", 9, fmtBytes}, {"Site", 30, ""}, {"Function", 24, ""}, {"Fingerprint", 16, ""}, {"delta_bytes", 16, fmtBytes}}
	emitAll := func(emit func([]any) error, label string, es []analyze.DiffEntry) error {
		t, _, _ := diffTable(es, true, -1)
		for _, r := range t.Rows {
			c := r.Cells
			if err := emit([]any{label, c[dcStatus].Text, mib(c[dcDelta].Value), mib(c[dcA].Value), mib(c[dcB].Value),
				c[dcBlocksA].Value, c[dcBlocksB].Value, c[dcSite].Text, c[dcFunction].Text, c[dcFingerprint].Text, int64(c[dcDelta].Value)}); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := w.table("Diff", "tDiff", cols, func(emit func([]any) error) error {
		if err := emitAll(emit, "all devices", d.Total); err != nil {
			return err
		}
		if len(d.Devices) > 1 {
			for _, dv := range d.Devices {
				if err := emitAll(emit, words.Device(dv.DeviceKey), dv.Entries); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	icols := []xcol{{"Side", 6, ""}, {"Path", 60, ""}, {"Kind", 10, ""}, {"Snapshots", 10, fmtBytes}, {"Compared files", 80, ""}}
	if _, err := w.table("Inputs", "tInputs", icols, func(emit func([]any) error) error {
		for _, s := range []struct {
			n string
			d DiffSide
		}{{"A", d.A}, {"B", d.B}} {
			if err := emit([]any{s.n, s.d.Path, s.d.Kind, s.d.Snapshots, strings.Join(s.d.Files, "; ")}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return workbookBytes(f)
}
