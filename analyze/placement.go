package analyze

import (
	"cmp"
	"math"
	"slices"
	"time"

	"gpureport/gpulog"
)

// Placement: GPU log readings and memory_stats readings carry wall-clock
// times; a device's series is drawn and fitted on its own axis (steps,
// hours or snapshot order). A placer maps a time onto that axis: hours
// since the series' start, or a step interpolated between the snapshots
// (or readings) that have both a step and a time.

// JoinGPU collects the GPU log readings of one device, in time order, and
// places them on the series axis: hours since Start on AxisHours; on
// AxisStep by linear interpolation of step against trace time between
// snapshots that have both (NaN outside that range or without two such
// snapshots). gpu is the nvidia-smi index of the device.
func JoinGPU(s *Series, logs []*gpulog.GPULog, gpu int) *GPUSeries {
	return joinGPUPlaced(logs, gpu, seriesPlacer(s, 0))
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

// placer places a time on a device axis: hours since start, or a step
// interpolated between knots (unix seconds, step). Times are moved back by
// shift first (a GPU log's clock offset). NaN where it cannot.
type placer struct {
	axis  Axis
	start time.Time
	// knots are in series order, as JoinGPU interpolates them (a linear
	// scan); sorted marks knots sorted by time, searched in O(log n).
	knots  [][2]float64
	sorted bool
	shift  time.Duration
}

func (p placer) at(t time.Time) float64 {
	if t.IsZero() {
		return math.NaN()
	}
	t = t.Add(-p.shift)
	switch {
	case p.axis == AxisHours && !p.start.IsZero():
		return t.Sub(p.start).Hours()
	case (p.axis == AxisStep || p.axis == AxisSnapshot) && len(p.knots) >= 2 && p.sorted:
		return interpolateSorted(p.knots, float64(t.UnixNano())/1e9)
	case (p.axis == AxisStep || p.axis == AxisSnapshot) && len(p.knots) >= 2:
		return interpolate(p.knots, float64(t.UnixNano())/1e9)
	}
	return math.NaN()
}

// interpolateSorted is interpolate by binary search: memory_stats readings
// can give hundreds of thousands of knots.
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

// seriesPlacer places times on a snapshot series' axis, as JoinGPU does.
func seriesPlacer(s *Series, shift time.Duration) placer {
	p := placer{axis: s.Axis, start: s.Start, shift: shift}
	if s.Axis == AxisStep || s.Axis == AxisSnapshot {
		for i, t := range s.SnapshotTimes() {
			if !t.IsZero() {
				p.knots = append(p.knots, [2]float64{float64(t.UnixNano()) / 1e9, s.Points[i].X})
			}
		}
	}
	return p
}

// memStatsPlacer places times on a memory_stats device's own axis: hours
// since its first reading, or a step interpolated between the readings
// that have both a step and a time.
func memStatsPlacer(g *memStatsGroup, shift time.Duration) placer {
	p := placer{axis: g.axis, start: g.start, shift: shift}
	if g.axis == AxisStep {
		for _, r := range g.ms.Readings {
			if !r.Time.IsZero() {
				p.knots = append(p.knots, [2]float64{float64(r.Time.UnixNano()) / 1e9, float64(r.Step)})
			}
		}
		slices.SortStableFunc(p.knots, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
		p.sorted = true
	}
	return p
}

// joinGPUPlaced collects the GPU log readings of GPU index gpu, in time
// order (after p's clock shift), placed on an axis by p.
func joinGPUPlaced(logs []*gpulog.GPULog, gpu int, p placer) *GPUSeries {
	g := &GPUSeries{}
	type reading struct {
		t           time.Time
		used, total int64
	}
	var rs []reading
	for _, l := range logs {
		n := 0
		for _, smp := range l.Samples {
			if smp.GPU != gpu || smp.Time.IsZero() || smp.MemoryUsed < 0 {
				continue
			}
			rs = append(rs, reading{smp.Time.Add(-p.shift), smp.MemoryUsed, smp.MemoryTotal})
			n++
		}
		if n > 0 {
			g.Sources = append(g.Sources, l.Path)
		}
	}
	if len(rs) == 0 {
		return nil
	}
	slices.SortStableFunc(rs, func(a, b reading) int { return a.t.Compare(b.t) })
	q := p
	q.shift = 0 // already applied
	for _, r := range rs {
		g.Times = append(g.Times, r.t)
		g.Used = append(g.Used, r.used)
		g.MaxUsed = max(g.MaxUsed, r.used)
		g.Total = max(g.Total, r.total)
		g.X = append(g.X, q.at(r.t))
	}
	return g
}
