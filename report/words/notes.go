package words

import (
	"fmt"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// maxFoldedNames is how many devices a folded note names before it says
// "and N more": 8, one node's GPUs, keeps a note to about two lines.
const maxFoldedNames = 8

// Notes are the run's notes, one sentence each, in the analysis' order.
// The device notes of one kind (and figure) on several devices are
// folded into one sentence that names the devices, where the first of
// them stood.
func Notes(f *analyze.Findings) []string {
	type group struct {
		first int
		notes []analyze.Note
	}
	var out []string
	groups := map[foldKey]*group{}
	var order []foldKey
	for _, n := range f.Notes {
		k, ok := foldOf(n)
		if !ok {
			out = append(out, Note(f, n))
			continue
		}
		g := groups[k]
		if g == nil {
			g = &group{first: len(out)}
			groups[k] = g
			order = append(order, k)
			out = append(out, "") // its place
		}
		g.notes = append(g.notes, n)
	}
	for _, k := range order {
		g := groups[k]
		if len(g.notes) == 1 {
			out[g.first] = Note(f, g.notes[0])
			continue
		}
		out[g.first] = folded(f, g.notes)
	}
	return out
}

// foldKey groups the notes that fold together: one kind, and the figure
// the folded sentence states once.
type foldKey struct {
	kind  analyze.NoteKind
	count int
	level string
	order analyze.OrderRule
}

// foldOf returns the key of a note that folds, false for one that does
// not.
func foldOf(n analyze.Note) (foldKey, bool) {
	switch n.Kind {
	case analyze.NoteOneSnapshot, analyze.NoteTraceOverflow, analyze.NoteStepsNotIncreasing, analyze.NoteOrderModTime,
		analyze.NoteOrderCopied, analyze.NoteAxisSnapshot, analyze.NoteCapacity:
		return foldKey{kind: n.Kind}, true
	case analyze.NoteFewSnapshots:
		return foldKey{kind: n.Kind, count: n.Count}, true
	case analyze.NoteCoverage:
		return foldKey{kind: n.Kind, level: n.Level}, true
	case analyze.NoteOrderName:
		return foldKey{kind: n.Kind, order: n.Order}, true
	}
	return foldKey{}, false
}

// Note is one note about one device (or the run), in a sentence.
func Note(f *analyze.Findings, n analyze.Note) string {
	where := Device(n.Device)
	d := device(f, n.Device)
	switch n.Kind {
	case analyze.NoteOneSnapshot:
		return where + " has one snapshot: no trend can be fitted; the trace window is the only evidence of growth"
	case analyze.NoteFewSnapshots:
		return fmt.Sprintf("%s has %d snapshots: a trend verdict needs at least %d", where, n.Count, f.Thresholds.MinPoints)
	case analyze.NoteCoverage:
		return fmt.Sprintf("%s: only %s of live bytes carry allocation stacks in a typical snapshot: attribution is %s and suspects have lowered confidence; start torch.cuda.memory._record_memory_history() before the model is built",
			where, units.Percent(n.Share), coverageLevel(n.Level))
	case analyze.NoteTraceOverflow:
		return fmt.Sprintf("%s: trace window incomplete, %s; trace-based evidence (timeline, never-freed allocations, OOM state) covers only its window", where, overflowOf(d))
	case analyze.NoteStepsNotIncreasing:
		return where + ": the numbers in the snapshot names do not increase with the trace times, so they are not steps: rates are per hour of trace time"
	case analyze.NoteOrderModTime:
		return where + ": snapshots were ordered by file modification time (no trace times, no steps in the names): the order may be wrong if files were copied"
	case analyze.NoteOrderCopied:
		return where + ": the snapshots' file modification times are copy times (seconds apart), so they were ordered by file name and placed by their order, not in time"
	case analyze.NoteOrderName:
		return fmt.Sprintf("%s: snapshots were ordered by the %s in their file names, which is not a step: rates are per snapshot or per hour, not per step", where, nameNumber(n.Order))
	case analyze.NoteAxisSnapshot:
		return fmt.Sprintf("%s: the snapshots have no steps, and their times (trace, file-name or file times) span less than %.0f minutes or are copy times, too little for per-hour rates: they are placed by their order", where, analyze.MinHoursAxisSpan*60)
	case analyze.NoteStepsPerEpoch:
		ordered := "by epoch, then step"
		if d != nil && d.Order == analyze.OrderTraceTime {
			ordered = "by their trace times"
		}
		return fmt.Sprintf("%s: the steps in the snapshot names count within each epoch (they restart when the epoch changes): the snapshots were ordered %s and are placed %s, not per step", where, ordered, placedBy(d))
	case analyze.NoteSameStep:
		return fmt.Sprintf("%s: %s and %s are both dumps at step %d (copies, or two processes their paths do not tell apart): both are trend points; if they are two processes, give each its own folder or a rank in its name", where, n.Paths[0], n.Paths[1], n.Step)
	case analyze.NoteNoStep:
		at := "shown in order"
		switch {
		case n.Step >= 0 && n.Count == 1:
			at = fmt.Sprintf("shown at step %d, where its file time places it", n.Step)
		case n.Step >= 0:
			at = fmt.Sprintf("shown after the last step, at step %d", n.Step)
		}
		return fmt.Sprintf("%s: %s has no step in its name, beside snapshots that have one: %s, it is not a trend point", where, n.Paths[0], at)
	case analyze.NoteHeavyRank:
		return heavyRank(f, n.Device)
	case analyze.NoteCapacity:
		return "device capacity unknown (no memory.total in GPU logs): pass --capacity (e.g. 80GiB) for time-to-OOM projections"
	case analyze.NoteRetries:
		try := "try " + analyze.ExpandableSetting + ", or smaller or fixed-size batches"
		if n.Expandable {
			try = "expandable segments are already on: try smaller or fixed-size batches"
		}
		return where + ": " + Retries(d.MemoryStats.Retries) + "; " + try
	case analyze.NoteOOMsBefore:
		if n.Logged > 0 {
			return fmt.Sprintf("%s: torch.cuda.memory_stats num_ooms is already %d at the first reading, but the log prints only %s before it: the other %d happened before the log starts (caught by the training script, or before a restart)",
				where, n.Count, units.CountOf(n.Logged, "out-of-memory error"), n.Count-n.Logged)
		}
		return fmt.Sprintf("%s: torch.cuda.memory_stats num_ooms is already %d at the first reading: out-of-memory errors happened before the log starts (caught by the training script, or before a restart)", where, n.Count)
	case analyze.NoteStatsGrow:
		st := statsTrend(d.MemoryStats, analyze.MetricAllocated)
		return fmt.Sprintf("%s: too few snapshots for a trend, but allocated memory in its torch.cuda.memory_stats readings grows %s, %s (the snapshots decide the verdict; dump more of them for one)",
			where, units.RateCI(st.Slope, st.Lo, st.Hi, st.Per), units.PValue(st.PValue))
	case analyze.NoteUnplaced:
		return fmt.Sprintf("%s: %d of %d torch.cuda.memory_stats readings could not be placed on the snapshots' %s axis (they need a step, or a time within the timed snapshots)", where, n.Count, len(d.MemoryStats.X), d.Axis)
	case analyze.NoteSkipped:
		return units.CountOf(n.Count, "input file") + " could not be used (see the inputs table)"
	case analyze.NoteOOMRepeated:
		what := "the OOM on %s in %s is"
		if n.Count > 1 {
			what = fmt.Sprintf("the %d OOMs on %%s in %%s are", n.Count)
		}
		return fmt.Sprintf(what+" repeated in %s, with every figure the same: copies of the same process's output (a tee, a tracker's console capture, an error file), counted once",
			where, n.Paths[0], n.Text)
	case analyze.NoteNoContent:
		return units.CountOf(n.Count, "text log") + " held nothing gpureport reads: no GPU readings and no out-of-memory message (a job's output without them; listed in the inputs table)"
	case analyze.NoteRankJoin:
		what := "snapshots"
		if d != nil && len(d.Points) == 0 {
			what = "memory_stats readings"
		}
		return "GPU log readings were joined to ranks by assuming rank r used GPU r (every rank's " + what + " are on the same CUDA device, as with torchrun and one GPU per process); check the joins if that is wrong"
	case analyze.NoteUnjoinedGPUGrows:
		return fmt.Sprintf("GPU %d of the GPU logs is joined to no device of the snapshots, and its used memory grows %s: a rank that dumped no snapshots, or another job's GPU; dump snapshots on every rank to see what grows there",
			n.Device.Device, Trend(n.Trend))
	case analyze.NoteJobs:
		if n.Trend == nil {
			break
		}
		s := fmt.Sprintf("%d jobs ran on GPU %d one after another (%s); each is judged alone",
			n.Trend.Jobs, n.Device.Device, jobGaps(n.Trend.JobGaps))
		if n.Trend.Job < n.Trend.Jobs {
			s += fmt.Sprintf(": the trend is job %d's, the last that grows; it ended, so nothing is forecast", n.Trend.Job)
		}
		return s
	case analyze.NoteMIGApart:
		return fmt.Sprintf("the GPU logs read %s (%s first): they are shown as devices of their own, apart from the devices of the snapshots and memory_stats readings, "+
			"since a process sees its MIG device as cuda:0 and the logs name no MIG device UUID to join them by", units.CountOf(n.Count, "MIG device"), where)
	case analyze.NoteJoinAmbiguous:
		if d != nil && d.GPUJoin != nil && len(d.GPUJoin.Ambiguous) > 0 {
			return joinAmbiguous(d)
		}
	case analyze.NoteClockOffset:
		return clockOffset(n.Clock, "the snapshots")
	case analyze.NoteClockOffsetStats:
		return clockOffset(n.Clock, "the torch.cuda.memory_stats readings")
	case analyze.NoteRanksNumbered, analyze.NoteMachinesNumbered, analyze.NoteManifestsDisagree, analyze.NoteNamesAlternate,
		analyze.NoteUnrankedJoined, analyze.NoteUnrankedApart:
		if n.Place != nil {
			return placeNote(n.Place)
		}
	}
	if n.Kind != analyze.NoteText && n.Text == "" {
		// A kind without a sentence of its own yet says its name.
		return where + ": " + string(n.Kind)
	}
	return n.Text
}

// folded is the one sentence for notes of one kind on several devices.
func folded(f *analyze.Findings, ns []analyze.Note) string {
	names := make([]string, 0, min(len(ns), maxFoldedNames))
	for _, n := range ns[:min(len(ns), maxFoldedNames)] {
		name := Device(n.Device)
		if n.Kind == analyze.NoteCoverage {
			name += " " + units.Percent(n.Share)
		}
		names = append(names, name)
	}
	list := strings.Join(names, ", ")
	if len(ns) > maxFoldedNames {
		list += fmt.Sprintf(" and %d more", len(ns)-maxFoldedNames)
	}
	n, count := ns[0], len(ns)
	switch n.Kind {
	case analyze.NoteOneSnapshot:
		return fmt.Sprintf("%d devices have one snapshot each (%s): no trend can be fitted; the trace window is the only evidence of growth", count, list)
	case analyze.NoteFewSnapshots:
		return fmt.Sprintf("%d devices have %d snapshots each (%s): a trend verdict needs at least %d", count, n.Count, list, f.Thresholds.MinPoints)
	case analyze.NoteCoverage:
		return fmt.Sprintf("allocation stacks cover only part of the live bytes on %d devices (%s, in a typical snapshot): attribution is %s and suspects have lowered confidence; start torch.cuda.memory._record_memory_history() before the model is built", count, list, coverageLevel(n.Level))
	case analyze.NoteTraceOverflow:
		return fmt.Sprintf("trace window incomplete, ring buffer probably full, on %d devices: %s; trace-based evidence (timeline, never-freed allocations, OOM state) covers only its window", count, list)
	case analyze.NoteStepsNotIncreasing:
		return fmt.Sprintf("the numbers in the snapshot names do not increase with the trace times on %d devices (%s), so they are not steps: rates are per hour of trace time", count, list)
	case analyze.NoteOrderModTime:
		return fmt.Sprintf("snapshots were ordered by file modification time on %d devices (%s; no trace times, no steps in the names): the order may be wrong if files were copied", count, list)
	case analyze.NoteOrderCopied:
		return fmt.Sprintf("the snapshots' file modification times are copy times (seconds apart) on %d devices (%s), so they were ordered by file name and placed by their order, not in time", count, list)
	case analyze.NoteOrderName:
		return fmt.Sprintf("snapshots were ordered by the %s in their file names on %d devices (%s), which is not a step: rates are per snapshot or per hour, not per step", nameNumber(n.Order), count, list)
	case analyze.NoteAxisSnapshot:
		return fmt.Sprintf("snapshots on %d devices (%s) have no steps, and their times (trace, file-name or file times) span less than %.0f minutes or are copy times, too little for per-hour rates: they are placed by their order", count, list, analyze.MinHoursAxisSpan*60)
	case analyze.NoteCapacity:
		return fmt.Sprintf("device capacity unknown on %d devices (%s; no memory.total in GPU logs): pass --capacity (e.g. 80GiB) for time-to-OOM projections", count, list)
	}
	return Note(f, n)
}

// coverageLevel says what a coverage level makes the attribution.
func coverageLevel(level string) string {
	if level == analyze.CoverageLow {
		return "unreliable"
	}
	return "partial"
}

// placedBy says what places a device's snapshots on its axis when that is
// not the step.
func placedBy(d *analyze.Device) string {
	if d != nil && d.Axis == analyze.AxisHours {
		return "in time (per-hour rates)"
	}
	return "by their order (per-snapshot rates)"
}

// nameNumber names the file-name number that ordered snapshots.
func nameNumber(o analyze.OrderRule) string {
	if o == analyze.OrderNameEpoch {
		return "epoch"
	}
	return "dump counter"
}

// overflowOf is why a device's trace window is incomplete.
func overflowOf(d *analyze.Device) string {
	if d == nil {
		return ""
	}
	return Overflow(d.Coverage.Overflow)
}

// statsTrend returns the memory_stats trend of metric, nil when none.
func statsTrend(ms *analyze.MemoryStatsSeries, metric string) *analyze.Trend {
	for i := range ms.Trends {
		if ms.Trends[i].Metric == metric {
			return &ms.Trends[i]
		}
	}
	return nil
}

// jobGaps says what parted a GPU's readings into jobs: the idle returns,
// a binned export's blended gaps (memory did not return to idle there: a
// reading dipped), the holes in the readings' times.
func jobGaps(g analyze.JobGaps) string {
	var parts []string
	if g.Returns > 0 {
		parts = append(parts, "used memory returned to "+units.Bytes(int64(g.Idle))+" between them")
	}
	if g.Blended > 0 {
		parts = append(parts, fmt.Sprintf("the binned log's readings dipped to %s between them, a gap shorter than a bin averaged with the jobs around it (the idle GPU reads %s)",
			units.Bytes(int64(g.BlendLow)), units.Bytes(int64(g.Idle))))
	}
	if g.Holes > 0 {
		parts = append(parts, "the readings stop for "+units.Hours(g.HoleHours)+" between them")
	}
	return strings.Join(parts, "; ")
}
