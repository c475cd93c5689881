package words

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// Headline is the verdict in one line, for banners and stdout: what was
// found ("Leak at train.py:57 (+6.22 MiB/step); 1 OOM (leak)"), or what
// is missing for a verdict ("Not enough data: ...").
func Headline(f *analyze.Findings) string {
	v := &f.Verdict
	var parts []string
	if v.Leak {
		parts = append(parts, leakHeadline(f))
	}
	if v.MemoryGrows && !v.Leak {
		parts = append(parts, memoryGrowsHeadline(f))
	}
	if v.OutsideAllocatorLeak {
		parts = append(parts, "memory outside PyTorch grows")
	}
	if v.Fragmentation {
		parts = append(parts, "fragmentation")
	}
	if v.OOM {
		var causes []string
		for _, c := range v.OOMCauses {
			if !slices.Contains(causes, string(c)) {
				causes = append(causes, string(c))
			}
		}
		text := units.CountOf(int(v.OOMs), "OOM")
		if v.OOMsHandled > 0 && v.OOMsHandled == v.OOMs {
			text += " caught and recovered"
		}
		if len(causes) > 0 {
			text += " (" + strings.Join(causes, ", ") + ")"
		}
		if v.OOMsHandled > 0 && v.OOMsHandled < v.OOMs {
			text += fmt.Sprintf(", %d of them caught and recovered", v.OOMsHandled)
		}
		parts = append(parts, text)
	}
	switch {
	case len(parts) > 0:
		return capitalize(strings.Join(parts, "; "))
	case v.Severity == analyze.SeverityInfo:
		return "Not enough data: " + strings.Join(missing(f), "; ")
	case v.Severity == "":
		return "No verdict"
	}
	return "No leak, fragmentation or OOM found"
}

// memoryGrowsHeadline is the headline's growing memory without a site:
// of a device, or, when only processes of no device grow, of the first
// such process ("memory of process python (pid 24117) grows").
func memoryGrowsHeadline(f *analyze.Findings) string {
	for _, r := range f.Verdict.Reasons {
		if r.Kind == analyze.ReasonMemoryGrows {
			break
		}
		if p := grownProcess(f, r); p != nil {
			return "memory of process " + Process(p) + " grows (no site: no snapshots)"
		}
	}
	return "memory grows (no site: no snapshots)"
}

// grownProcess is the process of a ReasonProcessGrows reason, nil for
// other reasons.
func grownProcess(f *analyze.Findings, r analyze.Reason) *analyze.ProcessSeries {
	op := f.OtherProcesses
	if r.Kind != analyze.ReasonProcessGrows || op == nil || r.Process < 0 || r.Process >= len(op.Series) {
		return nil
	}
	return &op.Series[r.Process]
}

// processGrows is the reason of a process of no device whose used memory
// grows in a run known only from GPU logs: its trend, what its used
// memory is, and its time to capacity when its GPU's capacity is known.
func processGrows(f *analyze.Findings, p *analyze.ProcessSeries) string {
	t := p.Trend
	s := fmt.Sprintf("memory of process %s grows on %s (no site: no snapshots): its used memory (the caching allocator's reserved memory plus its CUDA context) grows %s, %s, %s over the fitted range (%s, nvidia-smi)",
		Process(p), processGPU(p), units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), units.Signed(t.Growth), units.CountOf(len(p.Used), "reading"))
	switch pr := p.Projection; {
	case p.Capacity <= 0:
		s += "; no time to capacity: the GPU's capacity is unknown (pass --capacity)"
	case pr == nil:
	default:
		limit := units.Bytes(p.Capacity) + " GPU memory"
		if pr.Outside > 0 {
			limit += " minus " + units.Bytes(pr.Outside) + " of the GPU's other processes"
		}
		s += fmt.Sprintf("; at this rate it fills the GPU in about %s (95%% CI %s)", units.Hours(pr.Hours), units.AxisRange(pr.RemainingLo, pr.RemainingHi, t.Per))
		if pr.Hours > 0 && pr.Hours <= f.Thresholds.Horizon.Hours() {
			s += ", within " + units.Duration(f.Thresholds.Horizon)
		}
		s += "; limit: " + limit
	}
	return s + "; record snapshots (torch.cuda.memory._record_memory_history() and _dump_snapshot every few hundred steps) to find what grows"
}

// processGPU names the GPU of a process of no device: "GPU 3", "GPU
// 5a6b7c8d" (ShortGPUID), "unknown GPU".
func processGPU(p *analyze.ProcessSeries) string {
	if p.GPU >= 0 {
		return "GPU " + strconv.Itoa(p.GPU)
	}
	return OtherGPU(p)
}

// leakHeadline is the headline's leak: the top suspect's site and rate
// (its site's, summed over its call paths, when it has several), and the
// other sites.
func leakHeadline(f *analyze.Findings) string {
	v := &f.Verdict
	if len(v.Suspects) == 0 || f.Suspect(v.Suspects[0]) == nil {
		if v.NoSite == analyze.NoSiteSnapshots {
			return "leak (no site: no snapshots)"
		}
		return "leak (no site: stacks missing)"
	}
	top := f.Suspect(v.Suspects[0])
	shown := top.Trend
	text := "leak at " + withAside(top.Site, units.Rate(shown.Slope, shown.Per))
	if ls := f.Site(v.Suspects[0]); ls != nil && ls.Paths() > 1 {
		shown = ls.Trend
		text = "leak at " + withAside(ls.Site, fmt.Sprintf("%s through %d call paths", units.Rate(shown.Slope, shown.Per), ls.Paths()))
	}
	if v.OtherSites > 0 {
		text += " and " + units.CountOf(v.OtherSites, "more site")
		if v.SitesRate > shown.Slope {
			text += ", " + units.Rate(v.SitesRate, shown.Per) + " in all"
		}
	}
	return text
}

// missing says what the verdict lacks, device by device.
func missing(f *analyze.Findings) []string {
	var out []string
	for _, k := range f.Verdict.Undecided {
		if d := device(f, k); d != nil {
			out = append(out, undecided(d))
			if d.WindowLeak != nil {
				out = append(out, windowCandidate(d))
			}
		}
	}
	if len(f.Devices) == 0 {
		out = append(out, "no device with snapshots or GPU readings")
	}
	return out
}

// undecided says what a device lacks for a verdict: its primary trend is
// insufficient or inconclusive, or it has too few GPU readings for one,
// or only used shares without the device's total.
func undecided(d *analyze.Device) string {
	where := Device(d.DeviceKey)
	t := d.Primary()
	what := "snapshot"
	switch {
	case d.PrimaryMetric == analyze.MetricReserved, d.PrimaryMetric == analyze.MetricPeakAllocated,
		d.PrimaryMetric == analyze.MetricAllocated && len(d.Points) == 0 && d.MemoryStats != nil:
		what = "memory reading"
	case d.PrimaryMetric != analyze.MetricAllocated:
		what = "GPU reading"
	}
	switch {
	case t == nil && d.GPU == nil && d.UsedShare != nil:
		return fmt.Sprintf("%s has %s of used memory as a percent of the device and no total: pass --capacity (or add an nvidia-smi log of the GPU) to read them as bytes and fit a trend", where, units.CountOf(len(d.UsedShare.Percent), "reading"))
	case t == nil:
		return fmt.Sprintf("%s has %s, too few for a trend", where, units.CountOf(len(d.GPU.Used), "GPU reading"))
	case t.State == analyze.StateInsufficient:
		return fmt.Sprintf("%s has %s usable for a trend; a verdict needs at least %d (%d more)", where, units.CountOf(t.N, what), t.N+t.MoreNeeded, t.MoreNeeded)
	}
	more := "more " + what + "s"
	if t.MoreNeeded > 0 {
		more = "about " + units.CountOf(t.MoreNeeded, "more "+what)
	}
	return fmt.Sprintf("%s: %s grows %s but the evidence is thin (%s); %s would decide it", where, t.Metric, units.Rate(t.Slope, t.Per), units.PValue(t.PValue), more)
}

// Reasons are the reasons behind the verdict, one sentence each, in the
// verdict's order. OOMs whose sentences would read the same (a batch-size
// probe failing twice with the same figures) are one sentence, with how
// many they are, where the first stands.
func Reasons(f *analyze.Findings) []string {
	out := make([]string, 0, len(f.Verdict.Reasons))
	alike := map[string]int{} // an OOM sentence -> its index in out
	var count []int           // the reasons each sentence of out stands for
	for _, r := range f.Verdict.Reasons {
		s := Reason(f, r)
		if s == "" {
			continue
		}
		if r.Kind == analyze.ReasonOOM {
			if i, ok := alike[s]; ok {
				count[i]++
				continue
			}
			alike[s] = len(out)
		}
		out = append(out, s)
		count = append(count, 1)
	}
	for i, n := range count {
		if n > 1 {
			out[i] += "; " + units.CountOf(n, "OOM") + " alike"
		}
	}
	return out
}

// Reason is one reason behind the verdict, with its numbers.
func Reason(f *analyze.Findings, r analyze.Reason) string {
	where := Device(r.Device)
	if r.Kind == analyze.ReasonOOM {
		if r.Index < 0 || r.Index >= len(f.OOMs) {
			return ""
		}
		o := &f.OOMs[r.Index]
		switch {
		case o.Handled && o.Message == nil:
			return OOMReason(o) + "; caught and recovered: " + traceWentOn + " (" + o.Path + ")"
		case o.Handled:
			return OOMReason(o) + "; caught and recovered: the log says the job went on after it (" + o.Path + ")"
		}
		return OOMReason(o)
	}
	if r.Kind == analyze.ReasonProcessGrows {
		if p := grownProcess(f, r); p != nil && p.Trend != nil {
			return processGrows(f, p)
		}
		return ""
	}
	d := device(f, r.Device)
	if d == nil {
		return ""
	}
	switch r.Kind {
	case analyze.ReasonLeak:
		return leakReason(d, r.Suspects)
	case analyze.ReasonStacklessLeak:
		nt := d.Coverage.NoStackTrend
		return fmt.Sprintf("leak on %s without a site: live memory in blocks without stacks grows %s, %s; only %s of live bytes carry stacks",
			where, units.RateCI(nt.Slope, nt.Lo, nt.Hi, nt.Per), units.PValue(nt.PValue), units.Percent(d.Coverage.MinLiveWithStack))
	case analyze.ReasonWindowLeak:
		return windowLeakReason(d)
	case analyze.ReasonStatsLeak:
		at := d.Trend(analyze.MetricAllocated)
		return fmt.Sprintf("leak on %s: allocated memory (torch.cuda.memory_stats) grows %s, %s, %s over the fitted range; no attribution without snapshots: call torch.cuda.memory._record_memory_history() before training and torch.cuda.memory._dump_snapshot(path) every few hundred steps to find the site",
			where, units.RateCI(at.Slope, at.Lo, at.Hi, at.Per), units.PValue(at.PValue), units.Signed(at.Growth))
	case analyze.ReasonStatsOOM:
		return statsOOMReason(d, r.Index)
	case analyze.ReasonExhaustion:
		return exhaustion(f, d, r.WithinRun)
	case analyze.ReasonOutsideLeak:
		return "leak outside the allocator on " + where + ": " + Outside(d)
	case analyze.ReasonFragmentation:
		return "fragmentation on " + where + ": " + Fragmentation(d)
	case analyze.ReasonRetries:
		return "fragmentation on " + where + ": " + Retries(d.MemoryStats.Retries) + " while live memory does not grow: requests fail until the allocator frees its cache"
	case analyze.ReasonMemoryGrows:
		return memoryGrows(d, r.Metric)
	case analyze.ReasonStatsOOMCause:
		o := d.MemoryStats.OOMs[r.Index]
		return fmt.Sprintf("%s OOM on %s (torch.cuda.memory_stats): the cause follows the device's verdict, as memory_stats do not record the failed request", o.Cause, where)
	}
	// A kind without a sentence of its own yet says its name.
	return string(r.Kind) + " on " + where
}

// memoryGrows is the reason of a device without snapshots whose memory
// grows with no site: its trend of metric, the one analyze raised the
// reason on (Reason.Metric), when it reaches the device's capacity (its
// projection) or the OOM it already had, what the readings cannot tell
// and how to find what grows.
func memoryGrows(d *analyze.Device, metric string) string {
	where := Device(d.DeviceKey)
	t := d.Trend(metric)
	if t == nil {
		return "memory grows on " + where + " (no site: no snapshots)"
	}
	what, next := DeviceUsed(d)+" memory", "record snapshots (torch.cuda.memory._record_memory_history() and _dump_snapshot every few hundred steps) to find what grows"
	switch metric {
	case analyze.MetricReserved:
		what, next = "reserved memory", "its memory readings give reserved memory only (as torchtitan's \"memory:\" figure, its peak reserved memory), so a leak cannot be told from a growing cache; log torch.cuda.memory_stats() or record snapshots to find what grows"
	case analyze.MetricPeakAllocated:
		what, next = "peak allocated memory", "its log prints only the peak allocated memory (torch.cuda.max_memory_allocated(), as MMEngine's \"memory:\" or detectron2's \"max_mem:\"), which holds the steady memory and the largest batch, so a leak cannot be told from growing inputs; log torch.cuda.memory_allocated() or record snapshots (torch.cuda.memory._record_memory_history() and _dump_snapshot every few hundred steps) to find what grows"
	}
	// When it runs out, as analyze decided it: the time to capacity, or
	// the OOM the device already had in its place.
	when := ""
	switch p := Projection(d, t); {
	case p == "":
	case t.RanOut != nil:
		when = "; the device " + p
	case t.Bounded != nil:
		when = "; " + p
	case t.Projection.Remaining <= 0:
		when = "; it is " + p
	default:
		when = "; at this rate it " + p
	}
	return fmt.Sprintf("memory grows on %s (no site: no snapshots): %s grows %s, %s, %s over the fitted range%s; %s",
		where, what, units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), units.Signed(t.Growth), when, next)
}

// leakReason is the reason of a device's leak: its top leak site, with
// its severity, and the sites that grow in lockstep with it.
func leakReason(d *analyze.Device, suspects int) string {
	where := Device(d.DeviceKey)
	ls := &d.LeakSites[0]
	t := ls.Trend
	var s string
	if ls.Paths() == 1 {
		top := &d.Suspects[ls.Suspects[0]]
		s = fmt.Sprintf("leak on %s: %s; the top one, %s in %s (fingerprint %s), grows %s, %s, over %d snapshots (%s); %s",
			where, units.CountOf(suspects, "suspect"), top.Site, top.Function, top.Fingerprint, units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), t.N, t.Test, severity(ls.Severity, ls.Projection, ls.RanOut, t.Per))
	} else {
		s = fmt.Sprintf("leak on %s: %s; the top site, %s in %s, grows %s, %s, over %d snapshots (%s) through %d call paths (%s); %s",
			where, units.CountOf(suspects, "suspect"), ls.Site, ls.Function, units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), t.N, t.Test, ls.Paths(), paths(d, ls), severity(ls.Severity, ls.Projection, ls.RanOut, t.Per))
	}
	if slices.Contains(d.Lockstep, 0) {
		s += fmt.Sprintf("; %d of its leak sites grow in lockstep (the same number of new live blocks at every snapshot): one object probably keeps them all alive, such as a loss or output kept with its autograd graph", len(d.Lockstep))
	}
	return s
}

// exhaustion says when a leaking device's allocated memory reaches its
// limit: within the run's own length, or within the critical horizon.
func exhaustion(f *analyze.Findings, d *analyze.Device, withinRun bool) string {
	at := d.Trend(analyze.MetricAllocated)
	if at.RanOut != nil {
		return fmt.Sprintf("%s: allocated memory leaks and the device %s", Device(d.DeviceKey), RanOut(at.RanOut))
	}
	p := at.Projection
	wall := ""
	if p.Hours > 0 {
		wall = "; about " + units.Hours(p.Hours) + " of wall-clock time"
	}
	within := "within " + units.Duration(f.Thresholds.Horizon)
	if withinRun {
		within = "within the run's own length"
	}
	return fmt.Sprintf("%s: at this rate allocated memory reaches %s in about %s (95%% CI %s%s), %s; limit: %s",
		Device(d.DeviceKey), units.Bytes(p.Capacity), units.AxisAmount(p.Remaining, at.Per), units.AxisRange(p.RemainingLo, p.RemainingHi, at.Per), wall, within, Basis(d, p))
}

// device returns the device of key k, nil when there is none.
func device(f *analyze.Findings, k analyze.DeviceKey) *analyze.Device {
	for _, d := range f.Devices {
		if d.DeviceKey == k {
			return d
		}
	}
	return nil
}

// withAside adds aside to name in parentheses, or after a comma when name
// already ends in one (a C++-only site, "MulBackward0 (autograd)"), so
// that parentheses never stand back to back.
func withAside(name, aside string) string {
	if strings.HasSuffix(name, ")") {
		return name + ", " + aside
	}
	return name + " (" + aside + ")"
}

// windowSite is the never-freed group of device d's leak seen in one
// trace (analyze.WindowLeak.Group).
func windowSite(d *analyze.Device) *analyze.LiveGroup {
	return &d.TraceWindow.NeverFreed[d.WindowLeak.Group]
}

// WindowRate is the rate of a possible leak seen in one trace, per step
// of the window, "+8.00 MiB/step over 200 steps", with the rate per
// second of the window.
func WindowRate(w *analyze.WindowLeak) string {
	return fmt.Sprintf("%s/step over %d steps, %s/s", units.Signed(w.PerStep), w.Steps, units.Signed(w.PerSecond()))
}

// windowCandidate is the headline's words for device d's possible leak
// seen in one trace, beside what the device lacks for a verdict: the
// never-freed bytes, the site, the rate per step, and how to confirm it.
func windowCandidate(d *analyze.Device) string {
	w, g := d.WindowLeak, windowSite(d)
	return fmt.Sprintf("the trace shows %s never freed at %s, %s per step over %s: a possible leak; dump snapshots every few hundred steps to confirm",
		units.Bytes(g.Bytes), g.Site, units.Signed(w.PerStep), units.CountOf(w.Steps, "step"))
}

// windowLeakReason says why device d's trace shows a possible leak, and
// why it is no more than that: the stream, its blocks and bytes, the
// window and its steps; what one window cannot tell apart.
func windowLeakReason(d *analyze.Device) string {
	w, tw := d.WindowLeak, d.TraceWindow
	g := windowSite(d)
	return fmt.Sprintf("possible leak on %s at %s (%s), seen in one snapshot's trace (%s): %s in %s allocated steadily over the window's %s (%s) and all still alive at the dump, while the steps around them freed their own memory (%s); "+
		"one window cannot tell a leak from a structure that fills once (a KV cache, optimizer state made layer by layer, a queue filling): snapshots a few hundred steps apart would tell",
		Device(d.DeviceKey), g.Site, g.Function, w.Path, units.Bytes(g.Bytes), units.CountOf(g.Blocks, "block"),
		units.CountOf(w.Steps, "step"), units.Duration(tw.End.Sub(tw.Start)), WindowRate(w))
}
