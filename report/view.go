package report

import (
	"cmp"
	"fmt"
	"strings"

	"gpureport/analyze"
	"gpureport/input"
)

// Helpers the writers share to lay out names and untrusted text; the
// words themselves come from package words.

// deviceAnchor is a stable HTML id fragment for a series: "r0-d1", "rx-d0",
// "rx-d0-mig-gi-7" for a MIG device.
func deviceAnchor(k analyze.DeviceKey) string {
	a := fmt.Sprintf("r%d-d%d", k.Rank, k.Device)
	if k.Rank == input.NoRank {
		a = fmt.Sprintf("rx-d%d", k.Device)
	}
	if k.MIG != "" {
		a += "-mig-" + strings.ToLower(strings.ReplaceAll(k.MIG, " ", "-"))
	}
	return a
}

// severity returns the verdict's severity, "ok" when the analysis left
// it empty.
func severity(v analyze.Verdict) string {
	return string(cmp.Or(v.Severity, analyze.SeverityOK))
}

// severityRank orders severities, most severe highest.
func severityRank(s string) int { return analyze.Severity(s).Rank() }

// shortFingerprint shortens a fingerprint for tables: its first 12
// characters.
func shortFingerprint(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// frameText formats a frame as "name (file:line)".
func frameText(fr analyze.Frame) string {
	loc := fr.File
	if fr.Line > 0 {
		loc = fmt.Sprintf("%s:%d", fr.File, fr.Line)
	}
	if loc == "" {
		return fr.Name
	}
	return fmt.Sprintf("%s (%s)", fr.Name, loc)
}

// cleanText makes untrusted text safe for plain-text outputs (terminal,
// Markdown): control characters, including escape sequences, become
// U+FFFD so a frame name cannot move the cursor or hide text.
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			return '\uFFFD'
		}
		return r
	}, s)
}

// procRef is a process and the device it was found on (nil for
// Findings.OtherProcesses).
type procRef struct {
	dev *analyze.Device
	p   *analyze.ProcessSeries
}

// growingProcesses lists the processes whose used memory grows, device by
// device (the largest peak first), then the other processes.
func growingProcesses(f *analyze.Findings) []procRef {
	var out []procRef
	add := func(d *analyze.Device, set *analyze.ProcessSet) {
		if set == nil {
			return
		}
		for i := range set.Series {
			if t := set.Series[i].Trend; t != nil && t.State == analyze.StateGrowing {
				out = append(out, procRef{d, &set.Series[i]})
			}
		}
	}
	for _, d := range f.Devices {
		add(d, d.Processes)
	}
	add(nil, f.OtherProcesses)
	return out
}
