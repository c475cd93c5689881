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
//
// Only an OOM that ended this process's memory on this device counts
// (ranOutBy): an OOM the job caught and went on from (OOM.Handled) leaves
// the device working and its growth heading for the same wall; an OOM
// that could be another process's device of the same number (no rank, and
// the run has several processes with that device) would take a live
// forecast from a process that never ran out; and an OOM a training log
// prints before the device's first reading happened to an earlier launch
// (a log appended by each), not to the process whose readings grow.

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
		d.RanOut = firstOOM(f.OOMs, f.Devices, d)
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
		t.Projection, t.RanOut, t.Bounded = nil, r, nil
	}
}

// firstOOM is the earliest OOM that shows device d ran out (ooms: the
// run's OOM findings, kept by ranOutBy; and d's memory_stats num_ooms
// rises), nil when there is none. devices are the run's devices.
func firstOOM(ooms []OOM, devices []*Device, d *Device) *RanOut {
	var first *RanOut
	add := func(r RanOut) {
		if first == nil || earlierOOM(&r, first) {
			first = &r
		}
	}
	at, step := firstReading(d)
	for _, o := range ooms {
		if !ranOutBy(o, devices, d) {
			continue
		}
		r := RanOut{From: RanOutSnapshot, Path: o.Path, Step: input.NoStep, Time: o.Time}
		if o.Message != nil {
			r.From, r.Line = RanOutTrainingLog, o.Message.Line
			// A snapshot's trace and a num_ooms rise belong to the
			// device's own readings; a log line may be an earlier
			// launch's.
			if beforeReadings(r, at, step) {
				continue
			}
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
			if o.Handled {
				// The process went on (ranOutBy's handled OOMs).
				continue
			}
			r := RanOut{From: RanOutMemoryStats, Step: o.At.Step, Time: o.At.Time}
			if len(ms.Sources) > 0 {
				r.Path = ms.Sources[0]
			}
			add(r)
		}
	}
	return first
}

// ranOutBy reports whether OOM o shows that device d ran out of memory
// (devices: the run's devices): o is on d, was not caught (a handled OOM
// let the job go on), and is placed on d alone: its rank is d's, or no
// other device of the run has its device number and a rank it may be
// (sameProcess). A message without a rank in a run of two single-GPU
// processes, each on its cuda:0, says nothing of which ran out.
func ranOutBy(o OOM, devices []*Device, d *Device) bool {
	if o.Handled || o.pinnedHost() || d.Host || o.Device != d.Device || o.Type != d.Type || !sameProcess(o.Key(), d.DeviceKey) {
		return false
	}
	if surelySameProcess(o.Key(), d.DeviceKey) {
		return true
	}
	for _, e := range devices {
		if e != d && !e.Host && e.Device == o.Device && e.Type == o.Type && sameProcess(o.Key(), e.DeviceKey) {
			return false
		}
	}
	return true
}

// pinnedHost reports whether the OOM is pinned host memory's
// (OOMMessage.PinnedHost), not its device's.
func (o OOM) pinnedHost() bool {
	return o.Message != nil && o.Message.PinnedHost
}

// firstReading is when device d's readings begin: the earliest time and
// the lowest step of its snapshots, GPU log, used-share and memory_stats
// readings; zero and input.NoStep where no reading has one.
func firstReading(d *Device) (time.Time, int64) {
	var at time.Time
	step := input.NoStep
	add := func(t time.Time, s int64) {
		if !t.IsZero() && (at.IsZero() || t.Before(at)) {
			at = t
		}
		if s != input.NoStep && (step == input.NoStep || s < step) {
			step = s
		}
	}
	for _, p := range d.Points {
		add(p.Time, p.Step)
	}
	if d.GPU != nil {
		for _, t := range d.GPU.Times {
			add(t, input.NoStep)
		}
	}
	if d.UsedShare != nil {
		for _, t := range d.UsedShare.Times {
			add(t, input.NoStep)
		}
	}
	if d.MemoryStats != nil {
		for _, r := range d.MemoryStats.Readings {
			add(r.Time, r.Step)
		}
	}
	return at, step
}

// beforeReadings reports whether OOM r is known to come before a device's
// first reading (at, step: firstReading): by time when both have one, else
// by step when both have one. An OOM neither places is not.
func beforeReadings(r RanOut, at time.Time, step int64) bool {
	switch {
	case !r.Time.IsZero() && !at.IsZero():
		return r.Time.Before(at)
	case r.Step != input.NoStep && step != input.NoStep:
		return r.Step < step
	}
	return false
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
