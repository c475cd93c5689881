package analyze

import (
	"math"
	"time"

	"gpureport/internal/units"
)

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
	// trend is the stackless or memory_stats trend of a leak no stack
	// names (leakedAt places an OOM on it); nil otherwise.
	trend *Trend
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
		return leakFact{kind: leakStackless, leaked: int64(max(t.Growth, 0)), rate: t.Slope, per: t.Per, trend: t}
	}
	if at := d.Trend(MetricAllocated); len(d.Points) == 0 && d.MemoryStats != nil && at != nil && at.Source == SourceMemoryStats && at.State == StateGrowing {
		return leakFact{kind: leakMemoryStats, leaked: int64(max(at.Growth, 0)), rate: at.Slope, per: at.Per, trend: at}
	}
	return leakFact{}
}

// covers reports whether the leak is an OOM's cause: the device leaks,
// and leaked, the bytes it had added by the OOM (leakedAt), cover
// missing, the bytes the request lacked, when that is known (missing <
// 0: unknown).
func (l leakFact) covers(leaked, missing int64) bool {
	if l.kind == leakNone {
		return false
	}
	return missing < 0 || missing > 0 && leaked >= missing
}

// leakedAt is what the leak had added by OOM o of device d, bytes. A
// leak of named sites counts to the last periodic snapshot (leakedBy).
// A leak no stack names is a fitted trend over the device's readings:
// an OOM whose time places it among readings with times counts the
// fitted growth to the last of them at or before it (nothing when it
// came before them all: an earlier launch's, or the start's); one of
// unknown time counts the growth to the last reading when the process
// died of it (its readings end there), and nothing when the job went on
// from it (Handled): the growth may all have come after it, as after a
// batch-size finder's OOM at start.
func (l leakFact) leakedAt(d *Device, o *OOM) int64 {
	t := l.trend
	if l.kind == leakBySuspects || t == nil {
		return l.leaked
	}
	var xs []float64
	var ts []time.Time
	switch l.kind {
	case leakMemoryStats:
		for i, r := range d.MemoryStats.Readings {
			xs, ts = append(xs, d.MemoryStats.X[i]), append(ts, r.Time)
		}
	case leakStackless:
		for _, p := range d.Points {
			xs, ts = append(xs, p.X), append(ts, p.Time)
		}
	}
	timed := false
	x := math.NaN()
	for i := range xs {
		if ts[i].IsZero() || math.IsNaN(xs[i]) || math.IsInf(xs[i], 0) {
			continue
		}
		timed = true
		if !o.Time.IsZero() && !ts[i].After(o.Time) && (math.IsNaN(x) || xs[i] > x) {
			x = xs[i]
		}
	}
	switch {
	case !o.Time.IsZero() && timed:
		if math.IsNaN(x) {
			return 0
		}
		return int64(max(0, min(t.Slope*(min(x, t.FitX1)-t.FitX0), t.Growth)))
	case o.Handled:
		return 0
	}
	return l.leaked
}
