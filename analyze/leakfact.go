package analyze

import "gpureport/internal/units"

// Whether a device leaks is decided once, here, for the verdict's leak
// flag (decideVerdict) and for the causes of the device's OOMs, whichever
// source tells of them: a training log's message (blameTrainingLeaks) or
// a rise of memory_stats' num_ooms counter (statsOOMCauses). A device
// leaks when it has unsuppressed leak suspects with sites, or its live
// memory in blocks without stacks grows (Device.StacklessLeak), or,
// without snapshots, the allocated memory of its memory_stats readings
// grows. The bytes it had leaked are those the leak added over its
// fitted range, to its last reading (before the OOM, so the figure
// understates the leak at the OOM): the suspects' growth to the last
// periodic snapshot (leakedBy), else the fitted growth of the
// stackless or memory_stats trend (Trend.Growth).
//
// docs/design.md's leak cause is then one rule for every OOM of the
// device: a leak OOM when the device leaks and the bytes it leaked cover
// what the request lacked; when the OOM's source does not give what it
// lacked (memory_stats record no failed request), that the device leaks
// is all the inputs can say, and it is the cause the design's order
// puts first.

// leakFact is what device d shows of a leak.
type leakFact struct {
	// kind is the evidence: leakBySuspects, leakStackless or
	// leakMemoryStats; leakNone when the device does not leak.
	kind leakKind
	// leaked is what the leak added over its fitted range, bytes; rate
	// its growth per per (step or hour); site the largest suspect's site,
	// "" for a leak no stack names.
	leaked int64
	rate   float64
	per    units.Per
	site   string
}

// leakKind is the evidence of a device's leak.
type leakKind int

const (
	leakNone leakKind = iota
	leakBySuspects
	leakStackless
	leakMemoryStats
)

// deviceLeakFact decides whether device d leaks and by how much.
func deviceLeakFact(d *Device) leakFact {
	n := 0
	for i := range d.Suspects {
		if d.Suspects[i].Suppressed == "" {
			n++
		}
	}
	switch {
	case n > 0 && len(d.LeakSites) > 0:
		last := len(d.Points) - 1
		for last > 0 && d.Points[last].Phase != "" {
			last--
		}
		leaked, rate, per, site := leakedBy(d, last)
		return leakFact{kind: leakBySuspects, leaked: leaked, rate: rate, per: per, site: site}
	case d.StacklessLeak():
		t := d.Coverage.NoStackTrend
		return leakFact{kind: leakStackless, leaked: int64(max(t.Growth, 0)), rate: t.Slope, per: t.Per}
	}
	if at := d.Trend(MetricAllocated); len(d.Points) == 0 && d.MemoryStats != nil && at != nil && at.Source == SourceMemoryStats && at.State == StateGrowing {
		return leakFact{kind: leakMemoryStats, leaked: int64(max(at.Growth, 0)), rate: at.Slope, per: at.Per}
	}
	return leakFact{}
}

// covers reports whether the leak is an OOM's cause: the device leaks,
// and its leaked bytes cover missing, the bytes the request lacked, when
// that is known (missing < 0: unknown).
func (l leakFact) covers(missing int64) bool {
	if l.kind == leakNone {
		return false
	}
	return missing < 0 || missing > 0 && l.leaked >= missing
}
