package analyze

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gpureport/analyze/stats"
	"gpureport/input"
	"gpureport/internal/units"
)

// The run's notes are the caveats shown under the verdict: what limits the
// evidence (one snapshot, partial stack coverage, an incomplete trace
// window, an uncertain order or axis, unknown capacity, skipped inputs).

// runNotes collects the caveats a reader must see. Per-device caveats are
// folded by kind (foldNotes), so a run of many ranks gets one note per
// kind with the devices it concerns, not one note per device.
func runNotes(f *Findings) []string {
	var dn []deviceNote
	add := func(kind, where, one string, many func(list string, n int) string) {
		dn = append(dn, deviceNote{kind: kind, where: where, one: one, many: many})
	}
	var notes []string
	for _, d := range f.Devices {
		where := deviceName(d.DeviceKey)
		switch {
		case len(d.Points) == 1:
			add("one-snapshot", where, fmt.Sprintf("%s has one snapshot: no trend can be fitted; the trace window is the only evidence of growth", where),
				func(list string, n int) string {
					return fmt.Sprintf("%d devices have one snapshot each (%s): no trend can be fitted; the trace window is the only evidence of growth", n, list)
				})
		case len(d.Points) > 1 && len(d.Points) < f.Thresholds.MinPoints:
			k := len(d.Points)
			add(fmt.Sprintf("few-snapshots-%d", k), where, fmt.Sprintf("%s has %d snapshots: a trend verdict needs at least %d", where, k, f.Thresholds.MinPoints),
				func(list string, n int) string {
					return fmt.Sprintf("%d devices have %d snapshots each (%s): a trend verdict needs at least %d", n, k, list, f.Thresholds.MinPoints)
				})
		}
		if len(d.Points) > 0 && d.Coverage.Level != CoverageFull && d.Coverage.Level != "" {
			level := map[string]string{CoveragePartial: "partial", CoverageLow: "unreliable"}[d.Coverage.Level]
			pct := units.Percent(stats.Median(d.Coverage.PerPoint))
			add("coverage-"+d.Coverage.Level, where+" "+pct,
				fmt.Sprintf("%s: only %s of live bytes carry allocation stacks in a typical snapshot: attribution is %s and suspects have lowered confidence; start torch.cuda.memory._record_memory_history() before the model is built",
					where, pct, level),
				func(list string, n int) string {
					return fmt.Sprintf("allocation stacks cover only part of the live bytes on %d devices (%s, in a typical snapshot): attribution is %s and suspects have lowered confidence; start torch.cuda.memory._record_memory_history() before the model is built", n, list, level)
				})
		}
		if d.Coverage.TraceOverflow {
			add("trace-overflow", where, fmt.Sprintf("%s: trace window incomplete, %s; trace-based evidence (timeline, never-freed allocations, OOM state) covers only its window", where, d.Coverage.TraceEvidence),
				func(list string, n int) string {
					return fmt.Sprintf("trace window incomplete, ring buffer probably full, on %d devices: %s; trace-based evidence (timeline, never-freed allocations, OOM state) covers only its window", n, list)
				})
		}
		if d.Order == OrderTraceTime && d.Axis == AxisHours && len(d.Points) > 1 && !slices.ContainsFunc(d.Points, func(p Point) bool { return p.Step == input.NoStep }) {
			add("steps-not-increasing", where, fmt.Sprintf("%s: the numbers in the snapshot names do not increase with the trace times, so they are not steps: rates are per hour of trace time", where),
				func(list string, n int) string {
					return fmt.Sprintf("the numbers in the snapshot names do not increase with the trace times on %d devices (%s), so they are not steps: rates are per hour of trace time", n, list)
				})
		}
		if len(d.Points) > 1 {
			switch d.Order {
			case OrderModTime:
				add("order-mtime", where, fmt.Sprintf("%s: snapshots were ordered by file modification time (no trace times, no steps in the names): the order may be wrong if files were copied", where),
					func(list string, n int) string {
						return fmt.Sprintf("snapshots were ordered by file modification time on %d devices (%s; no trace times, no steps in the names): the order may be wrong if files were copied", n, list)
					})
			case OrderPath:
				add("order-copied", where, fmt.Sprintf("%s: the snapshots' file modification times are copy times (seconds apart), so they were ordered by file name and placed by their order, not in time", where),
					func(list string, n int) string {
						return fmt.Sprintf("the snapshots' file modification times are copy times (seconds apart) on %d devices (%s), so they were ordered by file name and placed by their order, not in time", n, list)
					})
			case OrderNameEpoch, OrderNameIndex:
				what := map[OrderRule]string{OrderNameEpoch: "epoch", OrderNameIndex: "dump counter"}[d.Order]
				add("order-"+string(d.Order), where, fmt.Sprintf("%s: snapshots were ordered by the %s in their file names, which is not a step: rates are per snapshot or per hour, not per step", where, what),
					func(list string, n int) string {
						return fmt.Sprintf("snapshots were ordered by the %s in their file names on %d devices (%s), which is not a step: rates are per snapshot or per hour, not per step", what, n, list)
					})
			}
			if d.Axis == AxisSnapshot && d.Order != OrderPath {
				add("axis-snapshot", where, fmt.Sprintf("%s: the snapshots have no steps, and their times (trace, file-name or file times) span less than %.0f minutes or are copy times, too little for per-hour rates: they are placed by their order", where, MinHoursAxisSpan*60),
					func(list string, n int) string {
						return fmt.Sprintf("snapshots on %d devices (%s) have no steps, and their times (trace, file-name or file times) span less than %.0f minutes or are copy times, too little for per-hour rates: they are placed by their order", n, list, MinHoursAxisSpan*60)
					})
			}
		}
		if d.Capacity == 0 && (len(d.Points) > 0 || d.MemoryStats != nil) {
			add("capacity", where, "device capacity unknown (no memory.total in GPU logs): pass --capacity (e.g. 80GiB) for time-to-OOM projections",
				func(list string, n int) string {
					return fmt.Sprintf("device capacity unknown on %d devices (%s; no memory.total in GPU logs): pass --capacity (e.g. 80GiB) for time-to-OOM projections", n, list)
				})
		}
		for _, n := range memStatsNotes(d) {
			notes = appendOnce(notes, n)
		}
	}
	notes = append(foldNotes(dn), notes...)
	if n := len(f.Inputs.Skipped); n > 0 {
		notes = append(notes, units.CountOf(n, "input file")+" could not be used (see the inputs table)")
	}
	return notes
}

// deviceNote is one device's caveat before folding: kind groups the notes
// that fold together, where names the device (and any figure of its own)
// in a folded list, one is the note when the kind concerns one device
// only, and many writes the folded note.
type deviceNote struct {
	kind, where, one string
	many             func(list string, n int) string
}

// maxFoldedNames is how many devices a folded note names before it says
// "and N more": 8, one node's GPUs, keeps a note to about two lines.
const maxFoldedNames = 8

// foldNotes turns per-device caveats into one note per kind, in the order
// the kinds first appear: the device's own note when it is alone, else the
// kind's folded note with the count and the devices.
func foldNotes(dn []deviceNote) []string {
	var kinds []string
	byKind := map[string][]deviceNote{}
	for _, n := range dn {
		if _, ok := byKind[n.kind]; !ok {
			kinds = append(kinds, n.kind)
		}
		byKind[n.kind] = append(byKind[n.kind], n)
	}
	out := make([]string, 0, len(kinds))
	for _, k := range kinds {
		g := byKind[k]
		if len(g) == 1 {
			out = append(out, g[0].one)
			continue
		}
		var names []string
		for _, n := range g[:min(len(g), maxFoldedNames)] {
			names = append(names, n.where)
		}
		list := strings.Join(names, ", ")
		if len(g) > maxFoldedNames {
			list += fmt.Sprintf(" and %d more", len(g)-maxFoldedNames)
		}
		out = append(out, g[0].many(list, len(g)))
	}
	return out
}

func appendOnce(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// memStatsNotes are the caveats a device's memory_stats readings call for:
// a num_alloc_retries counter that keeps growing, OOMs before the log.
func memStatsNotes(d *Device) []string {
	ms := d.MemoryStats
	if ms == nil {
		return nil
	}
	where := deviceName(d.DeviceKey)
	var notes []string
	if ms.Retries != nil && ms.Retries.Growing {
		try := "try " + ExpandableSetting + ", or smaller or fixed-size batches"
		if d.Fragmentation != nil && d.Fragmentation.Expandable {
			try = "expandable segments are already on: try smaller or fixed-size batches"
		}
		notes = append(notes, fmt.Sprintf("%s: %s; %s", where, ms.Retries.Reason, try))
	}
	if ms.OOMsBefore > 0 {
		notes = append(notes, fmt.Sprintf("%s: torch.cuda.memory_stats num_ooms is already %d at the first reading: out-of-memory errors happened before the log starts (caught by the training script, or before a restart)", where, ms.OOMsBefore))
	}
	if at, st := d.Trend(MetricAllocated), statsTrend(ms, MetricAllocated); len(d.Points) > 0 && at != nil && at.Verdict == VerdictInsufficient && st != nil && st.Verdict == VerdictGrowing {
		notes = append(notes, fmt.Sprintf("%s: too few snapshots for a trend, but allocated memory in its torch.cuda.memory_stats readings grows %s, %s (the snapshots decide the verdict; dump more of them for one)",
			where, units.RateCI(st.Slope, st.Lo, st.Hi, st.Per), units.PValue(st.PValue)))
	}
	if len(d.Points) > 0 {
		placed := 0
		for _, x := range ms.X {
			if !math.IsNaN(x) {
				placed++
			}
		}
		if placed < len(ms.X) {
			notes = append(notes, fmt.Sprintf("%s: %d of %d torch.cuda.memory_stats readings could not be placed on the snapshots' %s axis (they need a step, or a time within the timed snapshots)", where, len(ms.X)-placed, len(ms.X), d.Axis))
		}
	}
	return notes
}
