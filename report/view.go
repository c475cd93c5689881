package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/internal/units"
	"gpureport/snapshot"
)

// Helpers that turn Findings into the words and figures every writer
// shows, so the HTML, Markdown, XLSX and stdout say the same thing.

// DeviceLabel names a series for a reader: "rank 3 · cuda:0", or "cuda:0"
// when the run has no ranks.
func DeviceLabel(k analyze.DeviceKey) string { return k.Name() }

// deviceLabelASCII is DeviceLabel for plain-text outputs.
func deviceLabelASCII(k analyze.DeviceKey) string {
	return strings.ReplaceAll(DeviceLabel(k), " · ", " ")
}

// deviceAnchor is a stable HTML id fragment for a series: "r0-d1", "rx-d0".
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

// severity returns the verdict's severity, deriving one from its flags
// when the analysis left it empty.
func severity(v analyze.Verdict) string {
	return string(cmp.Or(v.Severity, analyze.SeverityOK))
}

// severityRank orders severities, most severe highest.
func severityRank(s string) int { return analyze.Severity(s).Rank() }

// headline returns the verdict's headline.
func headline(f *analyze.Findings) string {
	return cmp.Or(f.Verdict.Headline, "No verdict")
}

// capacityText is a device's capacity for a key-figures cell: "22.5 GiB",
// or with its source when the user set it ("74.5 GiB (--capacity 80GB =
// 80×10^9 bytes)"), since a GB the user typed is not the GiB printed.
func capacityText(d *analyze.Device) string {
	if d.Capacity <= 0 {
		return ""
	}
	if strings.HasPrefix(d.CapacitySource, "--capacity") {
		return Bytes(d.Capacity) + " (" + d.CapacitySource + ")"
	}
	return Bytes(d.Capacity)
}

// suppressedRule is a suppression rule and how many suspects it matched.
type suppressedRule struct {
	Rule     string
	Suspects int
}

// suppressedRules counts the suspects that suppressions took out of the
// verdict, by rule, most suspects first.
func suppressedRules(f *analyze.Findings) (total int, rules []suppressedRule) {
	idx := map[string]int{}
	for _, d := range f.Devices {
		for i := range d.Suspects {
			r := d.Suspects[i].Suppressed
			if r == "" {
				continue
			}
			total++
			if j, ok := idx[r]; ok {
				rules[j].Suspects++
				continue
			}
			idx[r] = len(rules)
			rules = append(rules, suppressedRule{Rule: r, Suspects: 1})
		}
	}
	slices.SortStableFunc(rules, func(a, b suppressedRule) int {
		return cmp.Or(cmp.Compare(b.Suspects, a.Suspects), cmp.Compare(a.Rule, b.Rule))
	})
	return total, rules
}

// suppressedText says how many suspects were suppressed and by which
// rules: "2 leak suspects suppressed: 1 by known: dataset cache, 1 by
// built-in: optimizer state"; "" when none were.
func suppressedText(f *analyze.Findings) string {
	total, rules := suppressedRules(f)
	if total == 0 {
		return ""
	}
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = fmt.Sprintf("%d by %s", r.Suspects, r.Rule)
	}
	return fmt.Sprintf("%d leak suspect%s suppressed (not counted in the verdict): %s", total, plural(total), strings.Join(parts, ", "))
}

// trendText is a trend in words: "+12.3 MiB/step (95% CI ...), p<0.001,
// growing".
func trendText(t *analyze.Trend) string {
	if t == nil {
		return "no trend fitted"
	}
	if t.Verdict == analyze.VerdictInsufficient {
		return fmt.Sprintf("insufficient data (%d point%s)", t.N, plural(t.N))
	}
	s := fmt.Sprintf("%s, %s, %s", RateCI(t.Slope, t.Lo, t.Hi, t.Per), PValue(t.PValue), t.Verdict)
	if t.Pattern != "" && t.Pattern != t.Verdict {
		s += " (" + t.Pattern + ")"
	}
	return s
}

// projectionText says when a trend reaches its limit, wall-clock time
// first: "reaches 22.0 GiB in about 45 min at the run's pace (3,327
// steps at this rate); limit: 22.5 GiB device memory (nvidia-smi)
// minus 512 MiB outside the allocator", or "" when there is no
// projection. A projection further ahead than the horizon times the run's
// length still says when (the run's own pace is what a user plans by) and
// adds that it is a long extrapolation.
func projectionText(t *analyze.Trend, lastX float64) string {
	if t == nil || t.Projection == nil {
		return ""
	}
	p := t.Projection
	limit := ""
	if p.Basis != "" {
		limit = "; limit: " + p.Basis
	}
	if math.IsNaN(p.Remaining) {
		return ""
	}
	if p.Remaining <= 0 {
		return fmt.Sprintf("already at or over the limit (%s)%s", Bytes(p.Capacity), limit)
	}
	lo, hi := p.RemainingLo, p.RemainingHi
	if lo == 0 && hi == 0 && (p.XLo != 0 || p.XHi != 0) {
		lo, hi = max(p.XLo-lastX, 0), p.XHi-lastX
	}
	ci := ""
	if lo > 0 || hi > 0 {
		ci = "95% CI " + units.AxisRange(lo, hi, t.Per)
	}
	var s string
	var extra []string
	switch {
	case t.Per == units.PerHour:
		s = fmt.Sprintf("reaches %s in about %s", Bytes(p.Capacity), Hours(p.Remaining))
	case p.Hours > 0:
		s = fmt.Sprintf("reaches %s in about %s at the run's pace", Bytes(p.Capacity), Hours(p.Hours))
		// An interval whose ends read the same ("45 min to 45 min") says
		// nothing the estimate does not.
		if p.HoursLo > 0 && Hours(p.HoursLo) != Hours(p.HoursHi) {
			extra = append(extra, "95% CI "+units.AxisRange(p.HoursLo, p.HoursHi, units.PerHour))
		}
		extra = append(extra, AxisAmount(p.Remaining, t.Per)+" at this rate")
		ci = ""
	default:
		s = fmt.Sprintf("reaches %s in about %s", Bytes(p.Capacity), AxisAmount(p.Remaining, t.Per))
	}
	if ci != "" {
		extra = append(extra, ci)
	}
	if t.Per != units.PerHour && p.Hours <= 0 {
		// One pair of parentheses: "(95% CI 8.0 to 11 snapshots; the
		// run's pace in time is unknown)".
		extra = append(extra, "the run's pace in time is unknown")
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, "; ") + ")"
	}
	if p.Beyond {
		s += fmt.Sprintf(", more than %s× the run's length ahead, so a long extrapolation", Number(p.ExtrapolationRuns))
	}
	return s + limit
}

func lastX(d *analyze.Device) float64 {
	if n := len(d.Points); n > 0 {
		return d.Points[n-1].X
	}
	if d.MemoryStats != nil {
		if _, x1, ok := finiteRange(d.MemoryStats.X); ok {
			return x1
		}
	}
	return 0
}

// shortFingerprint shortens a fingerprint for tables: its first 12
// characters.
func shortFingerprint(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// frameText formats a frame as "name (file:line)".
func frameText(fr snapshot.Frame) string {
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

// otherGPULabel says where a process of Findings.OtherProcesses runs.
func otherGPULabel(p *analyze.ProcessSeries) string {
	if p.GPU < 0 {
		return "unknown GPU"
	}
	return fmt.Sprintf("GPU %d (no series)", p.GPU)
}

// procRef is a process and the device it was found on (nil for
// Findings.OtherProcesses).
type procRef struct {
	dev *analyze.Device
	p   *analyze.ProcessSeries
}

// where names a process's device for a sentence: "cuda:0", "unknown GPU".
func (r procRef) where() string {
	if r.dev == nil {
		return otherGPULabel(r.p)
	}
	return deviceLabelASCII(r.dev.DeviceKey)
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
			if t := set.Series[i].Trend; t != nil && t.Verdict == analyze.VerdictGrowing {
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

// memStatsLast returns the last known value of a memory_stats field,
// gpulog.Unknown when no reading has it.
func memStatsLast(m *analyze.MemoryStatsSeries, get func(gpulog.MemoryStatsSample) int64) int64 {
	for i := len(m.Readings) - 1; i >= 0; i-- {
		if v := get(m.Readings[i]); v >= 0 {
			return v
		}
	}
	return gpulog.Unknown
}

// memStatsMax returns the largest known value of a memory_stats field,
// gpulog.Unknown when no reading has it.
func memStatsMax(m *analyze.MemoryStatsSeries, get func(gpulog.MemoryStatsSample) int64) int64 {
	v := gpulog.Unknown
	for _, r := range m.Readings {
		v = max(v, get(r))
	}
	return v
}

// readingText names a memory_stats reading: "step 700", a timestamp, or
// "reading 12".
func readingText(r gpulog.MemoryStatsSample, i int) string {
	switch {
	case r.Step != input.NoStep:
		return "step " + Count(r.Step)
	case !r.Time.IsZero():
		return Timestamp(r.Time)
	}
	return fmt.Sprintf("reading %d", i)
}

// statsOOMText describes a rise of num_ooms: "num_ooms 0 → 1 between step
// 690 and step 700 (allocated 4.68 GiB, reserved 5.68 GiB)".
func statsOOMText(m *analyze.MemoryStatsSeries, o analyze.MemoryStatsOOM) string {
	r, p := m.Readings[o.Index], m.Readings[o.Prev]
	s := fmt.Sprintf("num_ooms %d → %d between %s and %s", o.Before, o.After, readingText(p, o.Prev), readingText(r, o.Index))
	var at []string
	if r.Allocated >= 0 {
		at = append(at, "allocated "+Bytes(r.Allocated))
	}
	if r.Reserved >= 0 {
		at = append(at, "reserved "+Bytes(r.Reserved))
	}
	if len(at) > 0 {
		s += " (" + strings.Join(at, ", ") + ")"
	}
	return s
}

// metricLabel names a trend's metric for a reader; summary.json and the
// workbook keep the field names.
func metricLabel(m string) string {
	switch m {
	case analyze.MetricAllocated:
		return "allocated"
	case analyze.MetricReserved:
		return "reserved"
	case "gpu_used_bytes":
		return "nvidia-smi used"
	case "non_pytorch_bytes":
		return "outside the allocator (used − reserved)"
	case "inactive_bytes":
		return "cached free"
	}
	return strings.ReplaceAll(strings.TrimSuffix(m, "_bytes"), "_", " ")
}

// orderLabels say in plain words how snapshots were put in order; any
// other rule reads as its own name.
var orderLabels = map[analyze.OrderRule]string{
	analyze.OrderTraceTime: "the time of each snapshot's last trace event",
	analyze.OrderStep:      "the step number in each file name",
	analyze.OrderModTime:   "file modification time",
}

// orderLabel says in plain words how snapshots were put in order.
func orderLabel(o analyze.OrderRule) string { return cmp.Or(orderLabels[o], string(o)) }
