package analyze

import (
	"math"
	"slices"

	"gpureport/input"
	"gpureport/internal/stats"
)

// The run's notes are the caveats shown under the verdict: what limits the
// evidence (one snapshot, partial stack coverage, an incomplete trace
// window, an uncertain order or axis, unknown capacity, skipped inputs),
// and what the inputs' readers and the GPU join had to assume. Each is a
// Note of a kind with its figures; the reports word them, and fold the
// notes of one kind (and figure) on several devices into one.

// addNote appends n to f.Notes unless an equal note is already there.
func (f *Findings) addNote(n Note) {
	if !slices.Contains(f.Notes, n) {
		f.Notes = append(f.Notes, n)
	}
}

// runNotes adds the caveats a reader must see about each device, then
// those of its memory_stats readings, then the skipped inputs.
func runNotes(f *Findings) {
	for _, d := range f.Devices {
		add := func(kind NoteKind) *Note {
			f.Notes = append(f.Notes, Note{Kind: kind, Device: d.DeviceKey})
			return &f.Notes[len(f.Notes)-1]
		}
		switch {
		case len(d.Points) == 1:
			add(NoteOneSnapshot)
		case len(d.Points) > 1 && len(d.Points) < f.Thresholds.MinPoints:
			add(NoteFewSnapshots).Count = len(d.Points)
		}
		if len(d.Points) > 0 && d.Coverage.Level != CoverageFull && d.Coverage.Level != "" {
			n := add(NoteCoverage)
			n.Level, n.Share = d.Coverage.Level, stats.Median(d.Coverage.PerPoint)
		}
		if d.Coverage.TraceOverflow {
			add(NoteTraceOverflow)
		}
		if d.Order == OrderTraceTime && d.Axis == AxisHours && !d.StepsPerEpoch && len(d.Points) > 1 && !slices.ContainsFunc(d.Points, func(p Point) bool { return p.Step == input.NoStep }) {
			add(NoteStepsNotIncreasing)
		}
		if len(d.Points) > 1 {
			switch d.Order {
			case OrderModTime:
				add(NoteOrderModTime)
			case OrderPath:
				add(NoteOrderCopied)
			case OrderNameEpoch, OrderNameIndex:
				add(NoteOrderName).Order = d.Order
			}
			if d.StepsPerEpoch {
				add(NoteStepsPerEpoch)
			} else if d.Axis == AxisSnapshot && d.Order != OrderPath {
				add(NoteAxisSnapshot)
			}
			stepNotes(d, add)
		}
		if d.Capacity == 0 && (len(d.Points) > 0 || d.MemoryStats != nil) {
			add(NoteCapacity)
		}
	}
	for _, d := range f.Devices {
		memStatsNotes(f, d)
	}
	repeatedOOMNotes(f)
	failed, nothing := 0, 0
	for _, sk := range f.Inputs.Skipped {
		if sk.NoContent {
			nothing++
		} else {
			failed++
		}
	}
	if failed > 0 {
		f.Notes = append(f.Notes, Note{Kind: NoteSkipped, Count: failed})
	}
	if nothing > 0 {
		f.Notes = append(f.Notes, Note{Kind: NoteNoContent, Count: nothing})
	}
}

// stepNotes adds the notes on a device's dumps that the step axis cannot
// place alone: the first two periodic dumps at one step (when the steps do
// not count within epochs, where steps repeat by design), and each
// periodic dump without a step beside dumps that have one.
func stepNotes(d *Device, add func(NoteKind) *Note) {
	seen := map[int64]string{}
	same := false
	for i, p := range d.Points {
		switch {
		case p.Phase == PhaseNoStep:
			n := add(NoteNoStep)
			n.Paths[0], n.Step = p.Path, input.NoStep
			if d.Axis == AxisStep {
				n.Step = int64(p.X)
				// Count 1: placed among the stepped dumps (by time),
				// not after them.
				if slices.ContainsFunc(d.Points[i+1:], func(q Point) bool { return q.Phase == "" }) {
					n.Count = 1
				}
			}
		case p.Phase != "" || p.Step == input.NoStep || d.StepsPerEpoch || same:
		default:
			if q, dup := seen[p.Step]; dup {
				n := add(NoteSameStep)
				n.Paths, n.Step = [2]string{q, p.Path}, p.Step
				same = true
				continue
			}
			seen[p.Step] = p.Path
		}
	}
}

// memStatsNotes adds the caveats a device's memory_stats readings call
// for: a num_alloc_retries counter that keeps growing, OOMs before the
// log, a growing allocated trend beside too few snapshots, readings that
// could not be placed on the snapshots' axis.
func memStatsNotes(f *Findings, d *Device) {
	ms := d.MemoryStats
	if ms == nil {
		return
	}
	add := func(kind NoteKind) *Note {
		f.Notes = append(f.Notes, Note{Kind: kind, Device: d.DeviceKey})
		return &f.Notes[len(f.Notes)-1]
	}
	if ms.Retries != nil && ms.Retries.Growing {
		add(NoteRetries).Expandable = d.Fragmentation != nil && d.Fragmentation.Expandable
	}
	if ms.OOMsBefore > ms.OOMsLogged {
		// OOMs the log itself prints before the reading are no news:
		// only those it does not show happened before it starts.
		n := add(NoteOOMsBefore)
		n.Count, n.Logged = int(ms.OOMsBefore), int(ms.OOMsLogged)
	}
	if at, st := d.Trend(MetricAllocated), statsTrend(ms, MetricAllocated); len(d.Points) > 0 && at != nil && at.State == StateInsufficient && st != nil && st.State == StateGrowing {
		add(NoteStatsGrow)
	}
	if len(d.Points) > 0 {
		placed := 0
		for _, x := range ms.X {
			if !math.IsNaN(x) {
				placed++
			}
		}
		if placed < len(ms.X) {
			add(NoteUnplaced).Count = len(ms.X) - placed
		}
	}
}
