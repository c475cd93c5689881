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
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %s\n", cleanText(f.Run), inputsText(f))
	for i, d := range f.Devices {
		if i == maxTextDevices {
			fmt.Fprintf(bw, "  ... and %d more devices (see the report)\n", len(f.Devices)-i)
			break
		}
		fg := deviceFigures(d)
		var line string
		metric, trend := "allocated", fg.trend
		switch {
		case len(d.Points) == 0 && d.MemoryStats != nil:
			// torch.cuda.memory_stats() lines stand in for snapshots.
			line = fmt.Sprintf("  %-16s no snapshots; memory_stats peak reserved %s, allocated %s", deviceLabelASCII(d.DeviceKey), Bytes(fg.peakReserved), Bytes(fg.peakAllocated))
			if fg.peakUsed > 0 {
				line += ", nvidia-smi used " + Bytes(fg.peakUsed)
			}
			metric = "allocated (memory_stats)"
		case len(d.Points) == 0:
			// A GPU log without snapshots: the driver's view is all there is.
			line = fmt.Sprintf("  %-16s no snapshots; nvidia-smi used peak %s", deviceLabelASCII(d.DeviceKey), Bytes(fg.peakUsed))
			metric, trend = "nvidia-smi used", trendOf(d, "gpu_used_bytes")
		default:
			line = fmt.Sprintf("  %-16s peak reserved %s, allocated %s", deviceLabelASCII(d.DeviceKey), Bytes(fg.peakReserved), Bytes(fg.peakAllocated))
			if fg.peakUsed > 0 {
				line += ", nvidia-smi used " + Bytes(fg.peakUsed)
			}
		}
		if fg.capacity > 0 {
			line += " of " + capacityText(d)
		}
		fmt.Fprintln(bw, line)
		fmt.Fprintf(bw, "  %-16s %s trend: %s\n", "", metric, trendText(trend))
		if p := projectionText(trend, lastX(d)); p != "" {
			fmt.Fprintf(bw, "  %-16s %s\n", "", p)
		}
	}
	procs := growingProcesses(f)
	for i, r := range procs {
		if i == maxTextProcesses {
			fmt.Fprintf(bw, "  ... and %d more growing processes (see the report)\n", len(procs)-i)
			break
		}
		t := r.p.Trend
		fmt.Fprintf(bw, "  process %s on %s grows: %s, %s; peak %s\n", cleanText(processLabel(r.p)), r.where(),
			RateCI(t.Slope, t.Lo, t.Hi, t.Per), PValue(t.PValue), Bytes(r.p.Peak))
	}
	sev := severity(f.Verdict)
	fmt.Fprintf(bw, "verdict: %s: %s\n", strings.ToUpper(sev), cleanText(headline(f)))
	for _, r := range f.Verdict.Reasons {
		fmt.Fprintf(bw, "  - %s\n", cleanText(r))
	}
	if sup := suppressedText(f); sup != "" {
		fmt.Fprintf(bw, "  %s\n", cleanText(sup))
	}
	sus := topSuspects(f)
	for i, r := range sus {
		if i == maxTextSuspects {
			fmt.Fprintf(bw, "  ... and %d more suspects\n", len(sus)-i)
			break
		}
		fmt.Fprintf(bw, "  suspect %d: %s %s on %s, %s, fingerprint %s\n", i+1, cleanText(r.s.Site), cleanText(r.s.Function),
			deviceLabelASCII(r.dev.DeviceKey), RateCI(r.s.Trend.Slope, r.s.Trend.Lo, r.s.Trend.Hi, r.s.Trend.Per), shortFingerprint(r.s.Fingerprint))
	}
	for i, s := range f.Inputs.Skipped {
		if i == maxTextSkipped {
			fmt.Fprintf(bw, "  ... and %d more skipped files (see summary.md)\n", len(f.Inputs.Skipped)-i)
			break
		}
		fmt.Fprintf(bw, "skipped %s: %s\n", cleanText(s.Path), cleanText(s.Reason))
	}
	if len(f.Notes) > 0 {
		fmt.Fprintf(bw, "notes: %d (see the report)\n", len(f.Notes))
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
