package analyze

import (
	"math"
	"slices"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/internal/bykey"
	"gpureport/placement"
)

// A GPU log may give used memory only as a percent of the device (a W&B
// system-metrics export's memoryAllocated). Where the device's total is
// known (--capacity, or another log of the same GPU) the share is read as
// bytes before the analysis (gpulog.ResolveShares) and the GPU is a
// device like any other. Where it is not, the GPU is still a device: its
// readings form a percent series (ShareSeries) with its peak, shown as a
// share of the device; no trend in bytes can be fitted to it, and the
// device's verdict says what would give one.

// ShareSeries is a GPU's used memory as a percent of the device: in time
// order (readings without a time last, in file order) on the hours axis,
// in file order on the reading axis.
type ShareSeries struct {
	// Times are the reading times (zero when a reading has none);
	// Percent the used share of each, 0 to 100.
	Times   []time.Time
	Percent []float64
	// X places each reading on the device's axis, as GPUSeries.X does:
	// hours since the first timed reading on AxisHours (NaN for a reading
	// without a time), the reading's position (0, 1, 2, ...) on
	// AxisReading.
	X []float64
	// MaxPercent is the largest Percent.
	MaxPercent float64
	// Sources lists the logs the readings came from.
	Sources []string
}

// shareDevices makes a device of each GPU whose readings give only a used
// share (no bytes), unless a device in have already shows that GPU.
func shareDevices(logs []*gpulog.GPULog, have []*Device) []*Device {
	shown := map[int]bool{}
	for _, d := range have {
		if d.GPU != nil && d.MIG == "" {
			shown[d.GPUIndex] = true
		}
	}
	series := map[int]*ShareSeries{}
	for _, l := range logs {
		used := map[int]bool{}
		for _, s := range l.Samples {
			if shown[s.GPU] || !s.HasUsedPercent || s.MemoryUsed >= 0 {
				continue
			}
			g := bykey.Entry(series, s.GPU, func() *ShareSeries { return &ShareSeries{} })
			g.Times = append(g.Times, s.Time)
			g.Percent = append(g.Percent, s.MemoryUsedPercent)
			g.MaxPercent = max(g.MaxPercent, s.MemoryUsedPercent)
			if !used[s.GPU] {
				used[s.GPU] = true
				g.Sources = append(g.Sources, l.Path)
			}
		}
	}
	var out []*Device
	for _, gpu := range sortedKeys(series) {
		g := series[gpu]
		axis := AxisHours
		if readingOrder(logs, func(s *gpulog.GPUSample) bool { return s.GPU == gpu && s.HasUsedPercent && s.MemoryUsed < 0 }) {
			axis = AxisReading
		}
		out = append(out, &Device{DeviceKey: DeviceKey{Rank: input.NoRank, Device: gpu}, Axis: axis,
			UsedShare: placeShares(g, axis), GPUIndex: gpu, GPUJoinMethod: placement.JoinByIndex})
	}
	return out
}

// placeShares returns g's readings placed on axis: in file order at their
// positions on AxisReading; on AxisHours in time order (readings without
// a time last, at NaN), at hours since the first.
func placeShares(g *ShareSeries, axis Axis) *ShareSeries {
	s := &ShareSeries{MaxPercent: g.MaxPercent, Sources: g.Sources}
	if axis == AxisReading {
		s.Times, s.Percent = g.Times, g.Percent
		for i := range g.Percent {
			s.X = append(s.X, float64(i))
		}
		return s
	}
	order := make([]int, len(g.Times))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ta, tb := g.Times[a], g.Times[b]
		switch {
		case ta.IsZero() && tb.IsZero():
			return 0
		case ta.IsZero():
			return 1
		case tb.IsZero():
			return -1
		}
		return ta.Compare(tb)
	})
	var start time.Time
	for _, i := range order {
		t := g.Times[i]
		x := math.NaN()
		if !t.IsZero() {
			if start.IsZero() {
				start = t
			}
			x = t.Sub(start).Hours()
		}
		s.Times = append(s.Times, t)
		s.Percent = append(s.Percent, g.Percent[i])
		s.X = append(s.X, x)
	}
	return s
}
