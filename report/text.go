package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// maxTextDevices bounds the devices listed on stdout, to keep the summary
// on one screen; the rest are counted.
const maxTextDevices = 8

// maxTextSuspects bounds the suspects listed on stdout.
const maxTextSuspects = 3

// maxTextSkipped bounds the skipped files named on stdout.
const maxTextSkipped = 5

// maxTextProcesses bounds the growing processes listed on stdout.
const maxTextProcesses = 3

// textOf writes the stdout summary of a view.
func textOf(w io.Writer, v *view) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %s\n", cleanText(v.Run), v.Inputs)
	if len(v.Capture) > 0 {
		fmt.Fprintf(bw, "capture: %s\n", cleanText(v.Capture[0]))
	}
	if v.MissedOOM != "" {
		fmt.Fprintf(bw, "no OOM snapshot: %s\n", cleanText(v.MissedOOM))
	}
	eachCapped(bw, v.Devices, maxTextDevices, "devices (see the report)", func(_ int, d deviceItem) {
		var line string
		switch d.Kind {
		case kindMemoryStats:
			// torch.cuda.memory_stats() lines stand in for snapshots.
			line = fmt.Sprintf("  %-16s no snapshots; memory_stats peak reserved %s, allocated %s", d.Label, d.PeakReserved.Text, d.PeakAllocated.Text)
		case kindGPU:
			// A GPU log without snapshots: the driver's view is all there is.
			line = fmt.Sprintf("  %-16s no snapshots; %s peak %s", d.Label, d.UsedName, d.PeakUsed.Text)
		default:
			line = fmt.Sprintf("  %-16s peak reserved %s, allocated %s", d.Label, d.PeakReserved.Text, d.PeakAllocated.Text)
		}
		if d.PeakUsed.Unit == UnitBytes && d.Kind != kindGPU {
			line += ", " + d.UsedName + " " + d.PeakUsed.Text
		}
		if d.Capacity.Unit == UnitBytes {
			line += " of " + d.Capacity.Text
		}
		fmt.Fprintln(bw, line)
		fmt.Fprintf(bw, "  %-16s %s: %s\n", "", strings.TrimSpace(d.Metric+" trend"), d.TrendText)
		if p := d.Projection.Text; p != "n/a" {
			fmt.Fprintf(bw, "  %-16s %s\n", "", p)
		}
	})
	eachCapped(bw, v.Processes, maxTextProcesses, "growing processes (see the report)", func(_ int, p processItem) {
		fmt.Fprintf(bw, "  growing process %s\n", cleanText(p.Text()))
	})
	fmt.Fprintf(bw, "verdict: %s: %s\n", strings.ToUpper(v.Severity), cleanText(v.Headline))
	for _, r := range v.Reasons {
		fmt.Fprintf(bw, "  - %s\n", cleanText(r))
	}
	if v.Suppressed != "" {
		fmt.Fprintf(bw, "  %s\n", cleanText(v.Suppressed))
	}
	eachCapped(bw, v.top(), maxTextSuspects, "suspects", func(i int, it suspectItem) {
		fmt.Fprintf(bw, "  suspect %d: %s\n", i+1, cleanText(it.Short))
	})
	if v.Held != "" {
		fmt.Fprintf(bw, "roles: %s\n", cleanText(v.Held))
	}
	eachCapped(bw, v.Skipped, maxTextSkipped, "skipped files (see summary.md)", func(_ int, r inputItem) {
		what := "skipped"
		if r.noContent {
			what = "not read"
		}
		fmt.Fprintf(bw, "%s %s: %s\n", what, cleanText(r.Path), cleanText(r.Reason))
	})
	if len(v.Notes) > 0 {
		fmt.Fprintf(bw, "notes: %d (see the report)\n", len(v.Notes))
	}
	return bw.Flush()
}

// eachCapped calls line for each of the first limit items (with its
// index from 0) and, when more remain, writes one line counting them
// ("  ... and 4 more suspects"), so that a long list keeps the summary on
// one screen; rest names the items left out and where to find them.
func eachCapped[T any](w io.Writer, items []T, limit int, rest string, line func(i int, it T)) {
	for i, it := range items {
		if i == limit {
			fmt.Fprintf(w, "  ... and %d more %s\n", len(items)-i, rest)
			return
		}
		line(i, it)
	}
}
