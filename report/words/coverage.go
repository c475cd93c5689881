package words

import (
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// Coverage is a device's stack coverage: "92% (full; lowest 85%)".
func Coverage(c analyze.Coverage) string {
	s := units.Percent(c.LiveWithStack)
	var extra []string
	if c.Level != "" {
		extra = append(extra, c.Level)
	}
	if len(c.PerPoint) > 1 && c.MinLiveWithStack < c.LiveWithStack {
		extra = append(extra, "lowest "+units.Percent(c.MinLiveWithStack))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, "; ") + ")"
	}
	return s
}

// Overflow says why a trace window looks incomplete:
// "snapshot_step_10.pickle: the trace holds exactly 1,000 events, a
// typical max_entries: the ring buffer is probably full"; "" when it
// does not.
func Overflow(o analyze.Overflow) string {
	var why string
	switch o.Rule {
	case analyze.OverflowFlag:
		why = "allocator_settings.trace_alloc_overflowed is set"
	case analyze.OverflowMaxEntries:
		why = "the trace holds " + units.CountOf(o.Entries, "event") + ", trace_alloc_max_entries"
	case analyze.OverflowEarlyFrees:
		why = "the trace starts with frees of " + units.CountOf(o.EarlyFrees, "block") + " allocated before it (its " + units.CountOf(o.Entries, "event") + " are the end of a longer history: the ring buffer was full or recording began late)"
	case analyze.OverflowRoundLength:
		why = "the trace holds exactly " + units.CountOf(o.Entries, "event") + ", a typical max_entries: the ring buffer is probably full"
	default:
		return ""
	}
	return o.Path + ": " + why
}

// TraceWindow says whether a device's trace window is complete, for the
// page's provenance: "no", or "yes: " and why.
func TraceWindow(c analyze.Coverage) string {
	if !c.TraceOverflow {
		return "no"
	}
	if s := Overflow(c.Overflow); s != "" {
		return "yes: " + s
	}
	return "yes: the trace ring buffer was full, early events were lost"
}

// TraceSummary sums up what a snapshot's trace shows on its own: "50,000
// trace events; peak allocated in the window 21.0 GiB; 96.0 MiB allocated
// in the window and never freed; <start> to <end>; 12 frees of blocks
// allocated before the window (the ring buffer dropped older events)."
func TraceSummary(tw *analyze.TraceWindow) string {
	s := units.CountOf(tw.Entries, "trace event") + "; peak allocated in the window " + units.Bytes(tw.PeakAllocated) + "; " +
		units.Bytes(tw.NeverFreedBytes) + " allocated in the window and never freed"
	if !tw.Start.IsZero() && !tw.End.IsZero() {
		s += "; " + units.Timestamp(tw.Start) + " to " + units.Timestamp(tw.End)
	}
	if tw.UnknownFrees > 0 {
		s += "; " + units.CountOf(tw.UnknownFrees, "free") + " of blocks allocated before the window (the ring buffer dropped older events)"
	}
	for _, n := range TracePeakNotes(tw.Peak) {
		s += "; " + n
	}
	return s + "."
}

// TracePeakNotes say where a trace window's trace and its snapshot's
// segments disagree, which bounds its peak from below (a trimmed or
// edited file); nil when they agree.
func TracePeakNotes(p *analyze.TracePeak) []string {
	if p == nil {
		return nil
	}
	var out []string
	if p.Stray > 0 {
		out = append(out, "the trace leaves "+units.CountOf(p.Stray, "allocation")+" ("+units.Bytes(p.StrayBytes)+
			") alive that the snapshot's segments do not hold: the file was trimmed or is inconsistent, so the window's memory is only known to be at least what the trace leaves alive")
	}
	if p.OverFreed {
		out = append(out, "walked back from the snapshot's blocks, the trace frees more than was allocated: the file was trimmed or is inconsistent")
	}
	return out
}

// maxNeverFreedSites bounds the never-freed sites a line names: the
// largest few say where the window's memory stayed.
const maxNeverFreedSites = 3

// NeverFreed sums up what device d's trace window allocated and never
// freed, for summary.md: "cuda:0, memory_snapshot.pickle's trace (800
// events, <start> to <end>): 1.56 GiB in 200 blocks never freed; largest
// train.py:57 (train_step) 1.56 GiB in 200 blocks over 200 steps", a site
// the optimizer's state made at each parameter's first step said to be
// so (LiveGroup.MadeOnce), and the possible leak seen in it; "" when
// nothing stayed.
func NeverFreed(d *analyze.Device) string {
	tw := d.TraceWindow
	if tw == nil || tw.NeverFreedBytes <= 0 {
		return ""
	}
	s := Device(d.DeviceKey) + ", " + tw.Path + "'s trace (" + units.CountOf(tw.Entries, "event")
	if !tw.Start.IsZero() && !tw.End.IsZero() {
		s += ", " + units.Timestamp(tw.Start) + " to " + units.Timestamp(tw.End)
	}
	s += "): " + units.Bytes(tw.NeverFreedBytes) + " in " + units.CountOf(tw.NeverFreedBlocks, "block") + " allocated in the window and never freed; largest "
	var sites []string
	for _, g := range tw.NeverFreed[:min(len(tw.NeverFreed), maxNeverFreedSites)] {
		site := g.Site + " (" + g.Function + ") " + units.Bytes(g.Bytes) + " in " + units.CountOf(g.Blocks, "block")
		if g.Turnovers > 0 {
			site += " over " + units.CountOf(g.Turnovers, "step")
		}
		if g.MadeOnce() {
			site += " (optimizer state, made once per parameter)"
		}
		sites = append(sites, site)
	}
	s += strings.Join(sites, ", ")
	if w := d.WindowLeak; w != nil {
		s += "; possible leak at " + tw.NeverFreed[w.Group].Site + " (" + WindowRate(w) + ")"
	}
	return s
}
