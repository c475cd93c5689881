// Package report writes a run's Findings as static reports: one
// self-contained HTML file, an XLSX workbook, summary.json and summary.md;
// the batch overview page; and the leak attribution as a pprof profile.
// It formats numbers; it never computes findings.
//
// Every writer lays out one format-neutral view model (model.go,
// model_device.go), built once from the Findings: the headline, the key
// figures as a Table whose Cells hold a raw value with its unit beside
// the text every format prints, the suspects in one order, suppressions,
// notes and log problems, and the tables more than one writer shows: the
// suspects (rates with their intervals, live bytes, blocks), each
// device's snapshots, stack groups, trends (with memory_stats ones) and
// processes, the processes of no device, the OOMs, and the inputs
// (snapshot files, GPU logs, skipped files). html.go, xlsx.go,
// markdown.go, summary.go and text.go only place it: the page prints a
// Cell's Text, the workbook its raw Value in a number format chosen from
// the column and the Cell's Unit. What one writer alone shows stays
// with it: the charts and segment map of the page, and the workbook's
// sheets of raw readings (fragmentation per snapshot, GPU samples,
// memory_stats readings, process samples). A diff of two snapshots
// (diff.go) becomes the same kind of Table. Numbers become words through
// internal/units alone.
package report

import (
	"fmt"
	"os"
	"path/filepath"
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
	html, err := htmlOf(v, opt)
	if err != nil {
		return err
	}
	xlsx, err := xlsxOf(v, opt)
	if err != nil {
		return err
	}
	sum, err := marshalSummary(summaryFor(v, opt))
	if err != nil {
		return fmt.Errorf("encode %s: %w", SummaryFile, err)
	}
	return writeFiles(dir, html, xlsx, markdownOf(v, opt), sum)
}

// writeFiles writes a report folder's four files (HTMLFile, XLSXFile,
// MarkdownFile, SummaryFile, in that order) into dir, created if needed,
// each to a temporary file, synced and renamed into place.
func writeFiles(dir string, html, xlsx, md, sum []byte) error {
	if err := mkdir(dir); err != nil {
		return err
	}
	for _, fl := range []struct {
		name string
		data []byte
	}{{HTMLFile, html}, {XLSXFile, xlsx}, {MarkdownFile, md}, {SummaryFile, sum}} {
		if err := WriteFileAtomic(filepath.Join(dir, fl.name), fl.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create report folder: %w", err)
	}
	return nil
}
