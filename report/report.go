// Package report writes a run's Findings as static reports: one
// self-contained HTML file, an XLSX workbook, summary.json and summary.md;
// the batch overview page; and the leak attribution as a pprof profile.
// It formats numbers; it never computes findings.
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
// dir (created if needed). Each file is written to a temporary file,
// synced and renamed into place, so a crash never leaves a half-written
// report; summary.json, which batch mode reads back, is renamed last.
func Write(dir string, f *analyze.Findings, opt Options) error {
	if err := mkdir(dir); err != nil {
		return err
	}
	html, err := HTML(f, opt)
	if err != nil {
		return err
	}
	xlsx, err := XLSX(f, opt)
	if err != nil {
		return err
	}
	sum, err := marshalSummary(BuildSummary(f, opt))
	if err != nil {
		return fmt.Errorf("encode %s: %w", SummaryFile, err)
	}
	files := []struct {
		name string
		data []byte
	}{
		{HTMLFile, html},
		{XLSXFile, xlsx},
		{MarkdownFile, Markdown(f, opt)},
		{SummaryFile, sum},
	}
	for _, fl := range files {
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
