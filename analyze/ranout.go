package analyze

import (
	"time"

	"gpureport/input"
)

// A time to capacity is a forecast: "at this rate the device is full in
// about 3 h". On a device the run already ran out of memory on (an OOM a
// snapshot's trace records, a training log prints, or a memory_stats
// num_ooms rise shows) that forecast would present as future an event
// that has happened. Such a device keeps the OOM that shows it
// (Device.RanOut), and each of its trends, leak suspects and leak sites
// that would have had a projection states that OOM instead (RanOut), so
// every output words the one finding.

// RanOut is the OOM that shows the run already ran out of memory on a
// device: the earliest one known by time, else by step, else the first
// found.
type RanOut struct {
	// From says what shows it.
	From RanOutSource
	// Path is the file that shows it: the snapshot whose trace records
	// the OOM, the training log that prints it (Line its 1-based line),
	// or the first log of the memory_stats readings.
	Path string
	Line int
	// Step is the training step it happened at (a snapshot's file-name
	// step, the memory_stats reading where num_ooms had risen),
	// input.NoStep when unknown; Time when, zero when unknown.
	Step int64
	Time time.Time
}

// ranOut sets Device.RanOut on each device the run's OOMs (f.OOMs, all
// made: the snapshots' and the training logs') and memory_stats num_ooms
// rises show ran out of memory, and puts it in place of the projections
// of the device's trends (trends stage): the leak suspects' and sites'
// are made later (projectLeaks) and follow it there.
func ranOut(f *Findings) {
	for _, d := range f.Devices {
		if d.Host {
			continue
		}
		d.RanOut = firstOOM(f.OOMs, d)
		if d.RanOut == nil {
			continue
		}
		// The trends of memory_stats readings beside snapshots
		// (MemoryStatsSeries.Trends) are never projected.
		for i := range d.Trends {
			d.Trends[i].ranOut(d.RanOut)
		}
	}
}

// ranOut puts r, the OOM the device already had, in place of the trend's
// projection, or of its growth's continuation past the run (a growing
// trend without a capacity to project against); a trend neither projected
// nor growing stays as it is.
func (t *Trend) ranOut(r *RanOut) {
	if t.Projection != nil || t.State == StateGrowing {
		t.Projection, t.RanOut = nil, r
	}
}

// firstOOM is the earliest OOM on device d (ooms: the run's OOM findings;
// and d's memory_stats num_ooms rises), nil when there is none.
func firstOOM(ooms []OOM, d *Device) *RanOut {
	var first *RanOut
	add := func(r RanOut) {
		if first == nil || earlierOOM(&r, first) {
			first = &r
		}
	}
	for _, o := range ooms {
		if o.Device != d.Device || !sameRank(o.Rank, d.Rank) {
			continue
		}
		r := RanOut{From: RanOutSnapshot, Path: o.Path, Step: input.NoStep, Time: o.Time}
		if o.Message != nil {
			r.From, r.Line = RanOutTrainingLog, o.Message.Line
		} else {
			for _, p := range d.Points {
				if p.Path == o.Path {
					r.Step = p.Step
					break
				}
			}
		}
		add(r)
	}
	if ms := d.MemoryStats; ms != nil {
		for _, o := range ms.OOMs {
			r := RanOut{From: RanOutMemoryStats, Step: o.At.Step, Time: o.At.Time}
			if len(ms.Sources) > 0 {
				r.Path = ms.Sources[0]
			}
			add(r)
		}
	}
	return first
}

// earlierOOM reports whether OOM a is known to come before b: by time when
// both have one, else by step when both have one; an OOM placed by either
// comes before one placed by neither, which says less.
func earlierOOM(a, b *RanOut) bool {
	switch {
	case !a.Time.IsZero() && !b.Time.IsZero():
		return a.Time.Before(b.Time)
	case a.Step != input.NoStep && b.Step != input.NoStep:
		return a.Step < b.Step
	}
	return b.Time.IsZero() && b.Step == input.NoStep && (!a.Time.IsZero() || a.Step != input.NoStep)
}
