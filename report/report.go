// Package report writes a run's Findings as static reports: one
// self-contained HTML file, an XLSX workbook, summary.json and summary.md.
// It formats numbers; it never computes findings.
package report

import (
	"errors"
	"fmt"
	"io"
	"time"

	"gpureport/analyze"
)

// Options tune the written reports.
type Options struct {
	// GeneratedAt is the report time (summary.json generated_at).
	GeneratedAt time.Time
	// Version is gpureport's version string, printed in the reports.
	Version string
}

// Write writes index.html, report.xlsx, summary.json and summary.md into
// dir (created if needed). Each file is written to a temporary file and
// renamed into place, so a crash never leaves a half-written report.
func Write(dir string, f *analyze.Findings, opt Options) error {
	return errors.New("report: not implemented yet")
}

// Text writes the short stdout summary of a report: inputs found, per
// device peak reserved and allocated, the trend slope with its 95%
// interval, and the verdict.
func Text(w io.Writer, f *analyze.Findings) error {
	_, err := fmt.Fprintf(w, "%s: %d snapshots, %d GPU logs, %d skipped\n", f.Run, f.Inputs.Snapshots, len(f.Inputs.Logs), len(f.Inputs.Skipped))
	return err
}
