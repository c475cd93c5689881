package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"gpureport/analyze"
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

// diffTotals sums an entry list.
type diffTotals struct {
	a, b                         int64
	grown, shrunk, newN, gone    int
	grownB, shrunkB, newB, goneB int64
}

func totals(es []analyze.DiffEntry) diffTotals {
	var t diffTotals
	for _, e := range es {
		t.a += e.BytesA
		t.b += e.BytesB
		switch e.Status {
		case analyze.DiffGrown:
			t.grown++
			t.grownB += e.Delta
		case analyze.DiffShrunk:
			t.shrunk++
			t.shrunkB += e.Delta
		case analyze.DiffNew:
			t.newN++
			t.newB += e.Delta
		case analyze.DiffGone:
			t.gone++
			t.goneB += e.Delta
		}
	}
	return t
}

// WriteDiff writes index.html, report.xlsx, summary.json and summary.md
// of a diff into dir, each atomically.
func WriteDiff(dir string, d *DiffReport, opt Options) error {
	if err := mkdir(dir); err != nil {
		return err
	}
	page, err := DiffHTML(d, opt)
	if err != nil {
		return err
	}
	xl, err := DiffXLSX(d, opt)
	if err != nil {
		return err
	}
	js, err := DiffJSON(d, opt)
	if err != nil {
		return err
	}
	for _, fl := range []struct {
		name string
		data []byte
	}{{HTMLFile, page}, {XLSXFile, xl}, {MarkdownFile, DiffMarkdown(d, opt)}, {SummaryFile, js}} {
		if err := WriteFileAtomic(filepath.Join(dir, fl.name), fl.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// DiffText writes the stdout table of a diff: the top changes by size.
func DiffText(w io.Writer, d *DiffReport, top int) error {
	bw := bufio.NewWriter(w)
	t := totals(d.Total)
	fmt.Fprintf(bw, "A: %s (%s)\nB: %s (%s)\n", cleanText(d.A.Path), d.A.Kind, cleanText(d.B.Path), d.B.Kind)
	fmt.Fprintf(bw, "live bytes %s -> %s (%s); %d grown, %d shrunk, %d new, %d gone signatures\n",
		Bytes(t.a), Bytes(t.b), SignedBytes(float64(t.b-t.a)), t.grown, t.shrunk, t.newN, t.gone)
	fmt.Fprintf(bw, "%-7s %12s %12s %12s  %-30s %-24s %s\n", "status", "delta", "A", "B", "site", "function", "fingerprint")
	n := 0
	for _, e := range d.Total {
		if e.Status == analyze.DiffSame {
			continue
		}
		if n == top {
			fmt.Fprintf(bw, "... %d more changed signatures (see the report)\n", countChanged(d.Total)-n)
			break
		}
		n++
		fmt.Fprintf(bw, "%-7s %12s %12s %12s  %-30s %-24s %s\n", e.Status, SignedBytes(float64(e.Delta)), Bytes(e.BytesA), Bytes(e.BytesB),
			clip(cleanText(e.Site), 30), clip(cleanText(e.Function), 24), e.Fingerprint)
	}
	if n == 0 {
		fmt.Fprintln(bw, "no signature changed")
	}
	return bw.Flush()
}

func countChanged(es []analyze.DiffEntry) int {
	n := 0
	for _, e := range es {
		if e.Status != analyze.DiffSame {
			n++
		}
	}
	return n
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// diffJSON is a diff's summary.json.
type diffJSON struct {
	Schema      string           `json:"schema"`
	GeneratedAt string           `json:"generated_at"`
	Version     string           `json:"version,omitempty"`
	A           DiffSide         `json:"a"`
	B           DiffSide         `json:"b"`
	Totals      diffTotalsJSON   `json:"totals"`
	Devices     []diffDeviceJSON `json:"devices"`
	Entries     []diffEntryJSON  `json:"entries"`
}

type diffTotalsJSON struct {
	BytesA int64 `json:"bytes_a"`
	BytesB int64 `json:"bytes_b"`
	Delta  int64 `json:"delta_bytes"`
	Grown  int   `json:"grown"`
	Shrunk int   `json:"shrunk"`
	New    int   `json:"new"`
	Gone   int   `json:"gone"`
}

type diffDeviceJSON struct {
	Device  int             `json:"device"`
	Rank    *int            `json:"rank"`
	FileA   string          `json:"file_a"`
	FileB   string          `json:"file_b"`
	Entries []diffEntryJSON `json:"entries"`
}

type diffEntryJSON struct {
	Fingerprint string `json:"fingerprint"`
	Site        string `json:"site"`
	Function    string `json:"function"`
	Status      string `json:"status"`
	BytesA      int64  `json:"bytes_a"`
	BytesB      int64  `json:"bytes_b"`
	Delta       int64  `json:"delta_bytes"`
	BlocksA     int    `json:"blocks_a"`
	BlocksB     int    `json:"blocks_b"`
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
		Totals:  diffTotalsJSON{BytesA: t.a, BytesB: t.b, Delta: t.b - t.a, Grown: t.grown, Shrunk: t.shrunk, New: t.newN, Gone: t.gone},
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

// DiffMarkdown renders a diff's summary.md.
func DiffMarkdown(d *DiffReport, opt Options) []byte {
	var b bytes.Buffer
	t := totals(d.Total)
	fmt.Fprintf(&b, "# gpureport diff\n\n- A (base): %s (%s)\n- B: %s (%s)\n\n", mdCode(d.A.Path), d.A.Kind, mdCode(d.B.Path), d.B.Kind)
	fmt.Fprintf(&b, "Live bytes %s → %s (**%s**): %d grown (%s), %d shrunk (%s), %d new (%s), %d gone (%s) signatures.\n\n",
		Bytes(t.a), Bytes(t.b), SignedBytes(float64(t.b-t.a)), t.grown, SignedBytes(float64(t.grownB)), t.shrunk, SignedBytes(float64(t.shrunkB)),
		t.newN, SignedBytes(float64(t.newB)), t.gone, SignedBytes(float64(t.goneB)))
	b.WriteString("| Status | Delta | A | B | Site | Function | Fingerprint |\n|---|---:|---:|---:|---|---|---|\n")
	n := 0
	for _, e := range d.Total {
		if e.Status == analyze.DiffSame {
			continue
		}
		if n == 20 {
			break
		}
		n++
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", e.Status, SignedBytes(float64(e.Delta)), Bytes(e.BytesA), Bytes(e.BytesB), mdCode(e.Site), mdCode(e.Function), mdCode(e.Fingerprint))
	}
	fmt.Fprintf(&b, "\n_Generated by gpureport %s at %s._\n", mdEscape(opt.Version), Timestamp(opt.GeneratedAt))
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

var diffTemplate = template.Must(template.New("diff.html").Parse(templates.MustRead("diff.html")))

func diffRows(es []analyze.DiffEntry) ([]diffRow, int) {
	var rows []diffRow
	changed := 0
	for _, e := range es {
		if e.Status == analyze.DiffSame {
			continue
		}
		changed++
		if len(rows) == maxDiffRows {
			continue
		}
		r := diffRow{Status: string(e.Status), Delta: SignedBytes(float64(e.Delta)), A: Bytes(e.BytesA), B: Bytes(e.BytesB),
			Site: e.Site, Function: e.Function, Fingerprint: e.Fingerprint, BlocksA: Count(int64(e.BlocksA)), BlocksB: Count(int64(e.BlocksB))}
		r.Stack, _ = foldStack(e.Stack, e.User)
		rows = append(rows, r)
	}
	return rows, changed - len(rows)
}

// DiffHTML renders a diff's index.html: self-contained, no script.
func DiffHTML(d *DiffReport, opt Options) ([]byte, error) {
	t := totals(d.Total)
	p := diffPage{GeneratedAt: Timestamp(opt.GeneratedAt), Version: opt.Version, A: d.A, B: d.B, CSS: template.CSS(templates.MustRead("style.css")),
		Summary: fmt.Sprintf("Live bytes %s → %s (%s): %d grown (%s), %d shrunk (%s), %d new (%s), %d gone (%s) signatures.",
			Bytes(t.a), Bytes(t.b), SignedBytes(float64(t.b-t.a)), t.grown, SignedBytes(float64(t.grownB)), t.shrunk, SignedBytes(float64(t.shrunkB)),
			t.newN, SignedBytes(float64(t.newB)), t.gone, SignedBytes(float64(t.goneB)))}
	rows, omitted := diffRows(d.Total)
	p.Sections = append(p.Sections, diffSection{Title: "All devices", Rows: rows, Omitted: omitted})
	if len(d.Devices) > 1 {
		for _, dv := range d.Devices {
			rows, omitted := diffRows(dv.Entries)
			p.Sections = append(p.Sections, diffSection{Title: DeviceLabel(dv.DeviceKey), Files: fmt.Sprintf("A: %s · B: %s", orDash(dv.FileA), orDash(dv.FileB)), Rows: rows, Omitted: omitted})
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
		for _, e := range es {
			if err := emit([]any{label, string(e.Status), mib(float64(e.Delta)), mib(float64(e.BytesA)), mib(float64(e.BytesB)),
				e.BlocksA, e.BlocksB, e.Site, e.Function, e.Fingerprint, e.Delta}); err != nil {
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
				if err := emitAll(emit, deviceLabelASCII(dv.DeviceKey), dv.Entries); err != nil {
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
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
