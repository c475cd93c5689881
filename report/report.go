// Package report writes a run's Findings as static reports: one
// self-contained HTML file, an XLSX workbook, summary.json and summary.md,
// the short stdout summary; the batch overview page; and the leak
// attribution as a pprof profile. It lays out what the analysis decided
// in the words of package report/words; it never decides anything.
//
// Every run report is laid out from one view model, built once from the
// Findings (buildView), as pprof's report.TextItems: typed items whose
// values are Cells, each held raw with its unit and as the text every
// format prints. A writer reaches a value by the item's field, and a
// table's columns say which field each header shows, so renaming a header
// breaks nothing. Only the model files read the Findings; the writers
// read the view (TestWritersReadTheView).
//
//	report.go         the API: Write, HTML, XLSX, Markdown, Text, BuildSummary
//	model.go          the view: verdict, suspects, processes, OOMs, ranks, inputs
//	model_device.go   a device's items: key figures, snapshots, groups, trends, processes, fragmentation
//	model_charts.go   the page's charts as specs, with their points
//	model_segments.go the segment map of a device's last snapshot
//	model_summary.go  summary.json's model
//	table.go          Cell, its units, and tables laid out from items by columns
//	html.go           index.html (templates/report.html), charts.go renders the chart specs
//	xlsx.go           report.xlsx, a sheet per table and the raw readings; xlsx_bytes.go its bytes
//	markdown.go       summary.md
//	summary.go        summary.json's schema
//	text.go           the stdout summary
//	view.go           helpers the writers share (untrusted text, frames)
//	diff.go           the diff of two snapshots, its own model and writers
//	overview.go       the batch overview page from summary.json files
//	pprof.go          the leak attribution as a pprof profile
//	atomic.go         files written atomically
//	lttb.go           down-sampling of long series for charts and sheets
//
// Numbers become words through internal/units alone.
package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"gpureport/analyze"
)

// Report file names inside a report folder.
const (
	HTMLFile     = "index.html"
	XLSXFile     = "report.xlsx"
	SummaryFile  = "summary.json"
	MarkdownFile = "summary.md"
)

// Options tune the written reports.
type Options struct {
	// GeneratedAt is the report time (summary.json generated_at).
	GeneratedAt time.Time
	// Version is gpureport's version string, printed in the reports.
	Version string
}

// Write writes index.html, report.xlsx, summary.json and summary.md into
// dir (created if needed), all four laid out from one view model. Each file is written to a temporary file,
// synced and renamed into place, so a crash never leaves a half-written
// report; summary.json, which batch mode reads back, is renamed last.
func Write(dir string, f *analyze.Findings, opt Options) error {
	v := buildView(f)
	// The page and the workbook only read the view: each is made on a
	// core of its own (the workbook, excelize's sheets and their
	// compression, is the longer; the page and the summaries share the
	// other).
	var (
		html, sum, md []byte
		errHTML       error
		errSum        error
	)
	var wg sync.WaitGroup
	wg.Go(func() {
		html, errHTML = htmlOf(v, opt)
		sum, errSum = marshalSummary(summaryFor(v, opt))
		md = markdownOf(v, opt)
	})
	xlsx, errXLSX := xlsxOf(v, opt)
	wg.Wait()
	if errHTML != nil {
		return errHTML
	}
	if errXLSX != nil {
		return errXLSX
	}
	if errSum != nil {
		return fmt.Errorf("encode %s: %w", SummaryFile, errSum)
	}
	return writeFiles(dir, html, xlsx, md, sum)
}

// writeFiles writes a report folder's four files (HTMLFile, XLSXFile,
// MarkdownFile, SummaryFile) into dir, created if needed, each to a
// temporary file, synced and renamed into place. The first three are
// written side by side (each waits for its own sync); SummaryFile, which a
// watcher may take for the sign of a finished report, is written last.
func writeFiles(dir string, html, xlsx, md, sum []byte) error {
	if err := mkdir(dir); err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{{HTMLFile, html}, {XLSXFile, xlsx}, {MarkdownFile, md}}
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, fl := range files {
		wg.Go(func() { errs[i] = WriteFileAtomic(filepath.Join(dir, fl.name), fl.data, 0o644) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return WriteFileAtomic(filepath.Join(dir, SummaryFile), sum, 0o644)
}

func mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create report folder: %w", err)
	}
	return nil
}

// HTML renders index.html: one self-contained page (echarts inlined, no
// network) with the verdict, key figures, per device timelines with the
// fitted trend and projection band, fragmentation, OOM explanations, leak
// suspects, the last snapshot's segment map and provenance.
func HTML(f *analyze.Findings, opt Options) ([]byte, error) {
	return htmlOf(buildView(f), opt)
}

// Markdown renders summary.md: a short digest to paste into a ticket with
// the verdict, key figures, top suspects with fingerprints and what to try
// next. Untrusted text (paths, frames) is escaped so it renders as text.
func Markdown(f *analyze.Findings, opt Options) []byte { return markdownOf(buildView(f), opt) }

// Text writes the short stdout summary of a report: inputs found, per
// device peak reserved and allocated, its primary trend's slope with its
// 95% interval, processes whose memory grows, and the verdict. It fits
// one screen: at most maxTextDevices devices, maxTextProcesses processes
// and maxTextSuspects suspects are listed.
func Text(w io.Writer, f *analyze.Findings) error { return textOf(w, buildView(f)) }

// XLSX renders report.xlsx: sheets Summary, Snapshots, Trend, Suspects,
// Groups, Fragmentation, GPU samples, Memory stats (torch.cuda.memory_stats
// readings), Processes (one row per process), Process samples (their
// readings) and Inputs, each a filterable table with a frozen header (a
// sheet without rows keeps its header only); byte columns are numbers in
// GiB or MiB with a unit format (raw byte counts follow), and the Trend
// sheet has a native line chart of each device's timeline.
func XLSX(fd *analyze.Findings, opt Options) ([]byte, error) { return xlsxOf(buildView(fd), opt) }

// BuildSummary converts Findings to summary.json's structure.
func BuildSummary(f *analyze.Findings, opt Options) *Summary { return summaryFor(buildView(f), opt) }
