package placement

import (
	"slices"
	"strings"
	"time"

	"gpureport/gpulog"
	"gpureport/internal/stats"
)

// GPUSeries holds a device's GPU log readings, in time order.
type GPUSeries struct {
	// Times are reading times; X the same on the device's axis where it
	// can be placed (NaN otherwise).
	Times []time.Time
	X     []float64
	// Used is memory.used in bytes per reading.
	Used []int64
	// Total is memory.total in bytes (largest seen), 0 when not logged.
	Total int64
	// MaxUsed is the largest Used.
	MaxUsed int64
	// Sources lists the logs the readings came from.
	Sources []string
	// Tool names the tool of the readings (gpulog.LogFormat.UsedTool):
	// "nvidia-smi", "rocm-smi", "W&B", "MLflow"; the names joined with
	// " + " when the logs of several tools give them.
	Tool string
}

// GPUReadings collects the GPU log readings of GPU index gpu, in time
// order (after p's clock shift), placed on an axis by p; nil when the
// logs have no timed memory.used reading of it.
func GPUReadings(logs []*gpulog.GPULog, gpu int, p Placer) *GPUSeries {
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
			rs = append(rs, reading{smp.Time.Add(-p.Shift), smp.MemoryUsed, smp.MemoryTotal})
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
	g.Tool = ToolOf(logs, g.Sources)
	q := p
	q.Shift = 0 // already applied
	for _, r := range rs {
		g.Times = append(g.Times, r.t)
		g.Used = append(g.Used, r.used)
		g.MaxUsed = max(g.MaxUsed, r.used)
		g.Total = max(g.Total, r.total)
		g.X = append(g.X, q.At(r.t))
	}
	return g
}

// ToolOf is GPUSeries.Tool for readings from the logs of paths: the
// tools of those logs (gpulog.LogFormat.UsedTool), sorted and joined
// with " + ".
func ToolOf(logs []*gpulog.GPULog, paths []string) string {
	var tools []string
	for _, l := range logs {
		if tool := l.Format.UsedTool(); slices.Contains(paths, l.Path) && !slices.Contains(tools, tool) {
			tools = append(tools, tool)
		}
	}
	slices.Sort(tools)
	return strings.Join(tools, " + ")
}

// NamedTool is Tool where it is not nvidia-smi's ("" for nvidia-smi's
// readings and for series built without a tool): what a report names
// beside the used memory it otherwise calls nvidia-smi's.
func (g *GPUSeries) NamedTool() string {
	if g == nil || g.Tool == gpulog.ToolNVIDIASMI {
		return ""
	}
	return g.Tool
}

// MatchWindow bounds how far (in time) a GPU reading may be from a moment
// (a snapshot) to be matched with it: 3 sampling intervals, at least 10 s
// and at most 5 minutes.
func (g *GPUSeries) MatchWindow() time.Duration { return windowOf(g.SampleInterval()) }

// windowOf is MatchWindow for readings every step.
func windowOf(step time.Duration) time.Duration {
	return min(max(3*step, 10*time.Second), 5*time.Minute)
}

// SampleInterval is the median time between g's distinct reading times,
// 0 with fewer than two. Readings at the same instant (a log read twice,
// or two tools sampling together) are not a shorter interval.
func (g *GPUSeries) SampleInterval() time.Duration {
	gaps := make([]float64, 0, len(g.Times))
	for i := 1; i < len(g.Times); i++ {
		if d := g.Times[i].Sub(g.Times[i-1]); d > 0 {
			gaps = append(gaps, d.Seconds())
		}
	}
	if len(gaps) == 0 {
		return 0
	}
	return time.Duration(stats.Median(gaps) * float64(time.Second))
}

// UsedAt estimates memory.used at time t from the readings [lo, hi), in
// bytes: linear interpolation between the readings on either side of t
// when both lie within win of it (sampling every few seconds would
// otherwise add the growth between a reading and the moment as noise),
// else the nearest reading within win. ok is false when no reading is
// close enough.
func (g *GPUSeries) UsedAt(t time.Time, win time.Duration, lo, hi int) (float64, bool) {
	i, _ := slices.BinarySearchFunc(g.Times, t, func(a, b time.Time) int { return a.Compare(b) })
	if i > lo && i < hi && g.Times[i].Sub(t) <= win && t.Sub(g.Times[i-1]) <= win {
		a, b := g.Times[i-1], g.Times[i]
		if span := b.Sub(a); span > 0 {
			f := float64(t.Sub(a)) / float64(span)
			return float64(g.Used[i-1]) + f*float64(g.Used[i]-g.Used[i-1]), true
		}
		return float64(g.Used[i]), true
	}
	j := g.Nearest(t, win)
	if j < lo || j >= hi {
		return 0, false
	}
	return float64(g.Used[j]), true
}

// GapAt estimates memory.used − reserved at time t from the readings
// [lo, hi), where reserved is the caching allocator's reserved memory at
// t (bytes), as the reconciliation of a snapshot with the GPU log needs
// it: a reading at t itself; else, of the last reading before t and the
// first after it, those within win, the smaller difference. A reading
// below reserved (impossible at the same moment) is not taken; ok is
// false when no reading is.
//
// Why the smaller, where UsedAt interpolates: memory outside the
// allocator moves slowly, while reserved memory jumps whenever a segment
// is mapped or released, and a jump between a reading and t moves that
// reading's difference by the jump's size. A periodic dump is taken at a
// step boundary and the next forward pass maps its new segments right
// after, so the reading after a dump is often above it by that pass's
// growth: interpolating added a share of that rise to every match, and a
// rise that grew over the run (a history tensor re-created bigger each
// step) read as memory outside the allocator growing. The side without
// a jump is the lower one whenever the jump is such a rise, or a release
// before the dump; a rise before t (or a release after it) makes the
// smaller difference too small, which can hide growth but never makes
// it. A leak outside the allocator raises both sides alike, so the
// smaller keeps it, lagging by at most one reading interval.
func (g *GPUSeries) GapAt(t time.Time, reserved int64, win time.Duration, lo, hi int) (float64, bool) {
	i, _ := slices.BinarySearchFunc(g.Times, t, func(a, b time.Time) int { return a.Compare(b) })
	gap := func(j int) (float64, bool) {
		if j < max(lo, 0) || j >= min(hi, len(g.Times)) || g.Used[j] < reserved {
			return 0, false
		}
		if d := g.Times[j].Sub(t); d > win || d < -win {
			return 0, false
		}
		return float64(g.Used[j] - reserved), true
	}
	after := i
	if i < len(g.Times) && g.Times[i].Equal(t) {
		if v, ok := gap(i); ok {
			return v, true
		}
		after = i + 1
	}
	a, aok := gap(i - 1)
	b, bok := gap(after)
	switch {
	case aok && bok:
		return min(a, b), true
	case aok:
		return a, true
	}
	return b, bok
}

// Nearest returns the index of the reading nearest t within win, or -1.
func (g *GPUSeries) Nearest(t time.Time, win time.Duration) int {
	i, _ := slices.BinarySearchFunc(g.Times, t, func(a, b time.Time) int { return a.Compare(b) })
	best, bestD := -1, win+1
	for _, j := range []int{i - 1, i} {
		if j < 0 || j >= len(g.Times) {
			continue
		}
		d := g.Times[j].Sub(t)
		if d < 0 {
			d = -d
		}
		if d <= win && d < bestD {
			best, bestD = j, d
		}
	}
	return best
}
