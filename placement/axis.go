package placement

import (
	"cmp"
	"math"
	"slices"
	"time"

	"gpureport/internal/units"
)

// Where a time lands on a device's axis. GPU log readings, memory_stats
// readings and per-process readings carry wall-clock times; a device's
// series is drawn and fitted on its own axis (steps, hours or snapshot
// order). A Placer maps a time onto that axis: hours since the series'
// start, or a step interpolated between the snapshots (or readings) that
// have both a step and a time.

// Placer places a time on a device axis: hours since Start, or a step
// interpolated between Knots (unix seconds, step). Times are moved back
// by Shift first (a GPU log's clock offset). At gives NaN where it
// cannot.
type Placer struct {
	// Axis is the device's axis: units.PerHour places by Start,
	// units.PerStep and units.PerSnapshot by Knots; any other places
	// nothing.
	Axis units.Per
	// Start is the origin of an hours axis.
	Start time.Time
	// Knots are (unix seconds, x) pairs in series order, interpolated by
	// a linear scan; Sorted marks knots sorted by time, searched in
	// O(log n) (memory_stats readings can give hundreds of thousands).
	Knots  [][2]float64
	Sorted bool
	// Shift is how far the placed times are ahead of the axis' clock.
	Shift time.Duration
}

// At is t's place on the axis (x), NaN when t is zero or cannot be placed.
func (p Placer) At(t time.Time) float64 {
	if t.IsZero() {
		return math.NaN()
	}
	t = t.Add(-p.Shift)
	byKnots := p.Axis == units.PerStep || p.Axis == units.PerSnapshot
	switch {
	case p.Axis == units.PerHour && !p.Start.IsZero():
		return t.Sub(p.Start).Hours()
	case byKnots && len(p.Knots) >= 2 && p.Sorted:
		return interpolateSorted(p.Knots, float64(t.UnixNano())/1e9)
	case byKnots && len(p.Knots) >= 2:
		return interpolate(p.Knots, float64(t.UnixNano())/1e9)
	}
	return math.NaN()
}

// interpolate maps t through the piecewise-linear function given by knots
// (sorted by their first coordinate); NaN outside the knots' range.
func interpolate(knots [][2]float64, t float64) float64 {
	if t < knots[0][0] || t > knots[len(knots)-1][0] {
		return math.NaN()
	}
	for i := 1; i < len(knots); i++ {
		a, b := knots[i-1], knots[i]
		if t <= b[0] {
			if b[0] == a[0] {
				return b[1]
			}
			return a[1] + (t-a[0])/(b[0]-a[0])*(b[1]-a[1])
		}
	}
	return knots[len(knots)-1][1]
}

// interpolateSorted is interpolate by binary search, for knots sorted by
// time.
func interpolateSorted(knots [][2]float64, t float64) float64 {
	n := len(knots)
	if t < knots[0][0] || t > knots[n-1][0] {
		return math.NaN()
	}
	i, _ := slices.BinarySearchFunc(knots, t, func(k [2]float64, t float64) int { return cmp.Compare(k[0], t) })
	if i == 0 {
		return knots[0][1]
	}
	a, b := knots[i-1], knots[min(i, n-1)]
	if b[0] == a[0] {
		return b[1]
	}
	return a[1] + (t-a[0])/(b[0]-a[0])*(b[1]-a[1])
}
