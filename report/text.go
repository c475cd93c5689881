package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"gpureport/analyze"
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

// Text writes the short stdout summary of a report: inputs found, per
// device peak reserved and allocated, the trend slope with its 95%
// interval, processes whose memory grows, and the verdict. It fits one
// screen: at most maxTextDevices devices, maxTextProcesses processes and
// maxTextSuspects suspects are listed.
func Text(w io.Writer, f *analyze.Findings) error {
	v := buildView(f)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %s\n", cleanText(v.Run), v.Inputs)
	if len(v.Capture) > 0 {
		fmt.Fprintf(bw, "capture: %s\n", cleanText(v.Capture[0]))
	}
	if s := missedOOMLine(f.MissedOOM); s != "" {
		fmt.Fprintf(bw, "no OOM snapshot: %s\n", cleanText(s))
	}
	for i, fg := range v.Devices {
		if i == maxTextDevices {
			fmt.Fprintf(bw, "  ... and %d more devices (see the report)\n", len(v.Devices)-i)
			break
		}
		d := fg.dev
		var line string
		metric, trend := "allocated", fg.trend
		switch {
		case len(d.Points) == 0 && d.MemoryStats != nil:
			// torch.cuda.memory_stats() lines stand in for snapshots.
			line = fmt.Sprintf("  %-16s no snapshots; memory_stats peak reserved %s, allocated %s", fg.ASCII, fg.PeakReserved.Text, fg.PeakAllocated.Text)
			metric = "allocated (memory_stats)"
		case len(d.Points) == 0:
			// A GPU log without snapshots: the driver's view is all there is.
			line = fmt.Sprintf("  %-16s no snapshots; nvidia-smi used peak %s", fg.ASCII, fg.PeakUsed.Text)
			metric, trend = "nvidia-smi used", d.Trend(analyze.MetricGPUUsed)
		default:
			line = fmt.Sprintf("  %-16s peak reserved %s, allocated %s", fg.ASCII, fg.PeakReserved.Text, fg.PeakAllocated.Text)
		}
		if fg.PeakUsed.Unit == UnitBytes && (len(d.Points) > 0 || d.MemoryStats != nil) {
			line += ", nvidia-smi used " + fg.PeakUsed.Text
		}
		if fg.Capacity.Unit == UnitBytes {
			line += " of " + fg.Capacity.Text
		}
		fmt.Fprintln(bw, line)
		fmt.Fprintf(bw, "  %-16s %s trend: %s\n", "", metric, trendText(trend))
		if p := projectionText(trend, lastX(d)); p != "" {
			fmt.Fprintf(bw, "  %-16s %s\n", "", p)
		}
	}
	for i, p := range v.Processes {
		if i == maxTextProcesses {
			fmt.Fprintf(bw, "  ... and %d more growing processes (see the report)\n", len(v.Processes)-i)
			break
		}
		fmt.Fprintf(bw, "  growing process %s\n", cleanText(p.Text()))
	}
	fmt.Fprintf(bw, "verdict: %s: %s\n", strings.ToUpper(v.Severity), cleanText(v.Headline))
	for _, r := range v.Reasons {
		fmt.Fprintf(bw, "  - %s\n", cleanText(r))
	}
	if v.Suppressed != "" {
		fmt.Fprintf(bw, "  %s\n", cleanText(v.Suppressed))
	}
	top := v.top()
	for i, it := range top {
		if i == maxTextSuspects {
			fmt.Fprintf(bw, "  ... and %d more suspects\n", len(top)-i)
			break
		}
		fmt.Fprintf(bw, "  suspect %d: %s\n", i+1, cleanText(it.sentence(shortFingerprint(it.s.Fingerprint))))
	}
	at := skippedOf(v.Skipped)
	for i, r := range v.Skipped.Rows {
		if i == maxTextSkipped {
			fmt.Fprintf(bw, "  ... and %d more skipped files (see summary.md)\n", len(v.Skipped.Rows)-i)
			break
		}
		c := at(r)
		fmt.Fprintf(bw, "skipped %s: %s\n", cleanText(c[0]), cleanText(c[1]))
	}
	if len(v.Notes) > 0 {
		fmt.Fprintf(bw, "notes: %d (see the report)\n", len(v.Notes))
	}
	return bw.Flush()
}

// inputsText summarises the inputs: "120 snapshots, 2 GPU logs
// (query-csv, dmon), 1 skipped".
func inputsText(f *analyze.Findings) string {
	s := fmt.Sprintf("%d snapshot%s, %d GPU log%s", f.Inputs.Snapshots, plural(f.Inputs.Snapshots), len(f.Inputs.Logs), plural(len(f.Inputs.Logs)))
	var formats []string
	for _, l := range f.Inputs.Logs {
		if !slices.Contains(formats, string(l.Format)) {
			formats = append(formats, string(l.Format))
		}
	}
	if len(formats) > 0 {
		s += " (" + strings.Join(formats, ", ") + ")"
	}
	lines := 0
	for _, l := range f.Inputs.Logs {
		lines += l.SkippedLines
	}
	if lines > 0 {
		s += fmt.Sprintf(", %s unreadable log line%s skipped", Count(int64(lines)), plural(lines))
	}
	return s + fmt.Sprintf(", %d file%s skipped", len(f.Inputs.Skipped), plural(len(f.Inputs.Skipped)))
}
