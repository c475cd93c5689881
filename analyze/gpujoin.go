package analyze

import (
	"cmp"
	"slices"
	"time"

	"gpureport/gpulog"
	"gpureport/placement"
)

// What the placement stage needs of analyze's series, and its answers
// for a device. Package placement decides which GPU of the logs holds each
// device (placement.JoinGPUs), finds a whole-hour clock offset between a
// GPU log and a device (placement.DetectClockOffset) and places times on
// a device's axis (placement.Placer); this file gives it the evidence of
// a snapshot series or a memory_stats group, and the placers of their
// axes.

// seriesJoinInput collects the evidence of a snapshot series, with the
// identifiers of its memory_stats group g (nil when none).
func seriesJoinInput(s *Series, g *memStatsGroup) placement.JoinInput {
	in := placement.JoinInput{Key: s.DeviceKey}
	times := s.SnapshotTimes()
	for i, p := range s.Points {
		if t := times[i]; !t.IsZero() {
			in.Reserved = append(in.Reserved, placement.TimedValue{Time: t, Value: p.Usage.Reserved})
		}
		if p.Phase == "" {
			in.Levels = append(in.Levels, p.Usage.Reserved)
		}
	}
	if g != nil {
		addMemStatsIDs(&in, g, len(in.Reserved) == 0)
	}
	return in
}

// memStatsJoinInput collects the evidence of a device known only from
// memory_stats readings.
func memStatsJoinInput(g *memStatsGroup) placement.JoinInput {
	in := placement.JoinInput{Key: g.key}
	addMemStatsIDs(&in, g, true)
	return in
}

// addMemStatsIDs adds the UUIDs and pids a group's readings carry, and
// (when withObs) their timed reserved readings as tracking evidence.
func addMemStatsIDs(in *placement.JoinInput, g *memStatsGroup, withObs bool) {
	for _, r := range g.ms.Readings {
		in.AddUUID(r.UUID)
		in.AddPID(r.PID)
		if withObs && !r.Time.IsZero() && r.Reserved >= 0 {
			in.Reserved = append(in.Reserved, placement.TimedValue{Time: r.Time, Value: r.Reserved})
		}
	}
}

// JoinGPU collects the GPU log readings of one device, in time order, and
// places them on the series axis: hours since Start on AxisHours; on
// AxisStep by linear interpolation of step against trace time between
// snapshots that have both (NaN outside that range or without two such
// snapshots). gpu is the nvidia-smi index of the device.
func JoinGPU(s *Series, logs []*gpulog.GPULog, gpu int) *GPUSeries {
	return placement.GPUReadings(logs, gpu, seriesPlacer(s, 0))
}

// seriesPlacer places times on a snapshot series' axis, as JoinGPU does,
// after moving them back by shift (a GPU log's clock offset).
func seriesPlacer(s *Series, shift time.Duration) placement.Placer {
	p := placement.Placer{Axis: s.Axis, Start: s.Start, Shift: shift}
	if s.Axis == AxisStep || s.Axis == AxisSnapshot {
		for i, t := range s.SnapshotTimes() {
			if !t.IsZero() {
				p.Knots = append(p.Knots, [2]float64{float64(t.UnixNano()) / 1e9, s.Points[i].X})
			}
		}
	}
	return p
}

// memStatsPlacer places times on a memory_stats device's own axis: hours
// since its first reading, or a step interpolated between the readings
// that have both a step and a time.
func memStatsPlacer(g *memStatsGroup, shift time.Duration) placement.Placer {
	p := placement.Placer{Axis: g.axis, Start: g.start, Shift: shift}
	if g.axis == AxisStep {
		for _, r := range g.ms.Readings {
			if !r.Time.IsZero() {
				p.Knots = append(p.Knots, [2]float64{float64(r.Time.UnixNano()) / 1e9, float64(r.Step)})
			}
		}
		slices.SortStableFunc(p.Knots, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
		p.Sorted = true
	}
	return p
}

// detectClockOffset compares the device's snapshots (trace times,
// reserved bytes) with its GPU readings for a whole-hour clock offset
// (placement.DetectClockOffset). Without snapshot times there is nothing
// to compare.
func detectClockOffset(d *Device) (placement.ClockOffset, bool) {
	var snap, gpu []placement.TimedValue
	for _, p := range d.Points {
		if !p.Time.IsZero() {
			snap = append(snap, placement.TimedValue{Time: p.Time, Value: p.Usage.Reserved})
		}
	}
	for i, t := range d.GPU.Times {
		gpu = append(gpu, placement.TimedValue{Time: t, Value: d.GPU.Used[i]})
	}
	return placement.DetectClockOffset(snap, gpu)
}
