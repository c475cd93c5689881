package analyze

import (
	"cmp"
	"math"
	"slices"
	"time"

	"gpureport/gpulog"
	"gpureport/internal/units"
	"gpureport/placement"
)

// Per-process GPU memory. The GPU logs' per-process readings (compute-apps
// CSV, the table's process rows, XML processes, pmon) are gathered into
// one series per process, identified by GPU index, pid and name, with
// readings in time order (log order when some reading has no time) and
// exact duplicates (the same process, time and bytes in two logs) read
// once. Readings that did not record the process's memory are left out.
//
// A device takes the processes of the GPU its GPU log join names; their
// readings are placed on the device axis as the GPU readings are (with
// the same clock correction), unless most of them fall outside it. Processes whose GPU is unknown, or on a GPU
// no device covers, are listed once, apart (Findings.OtherProcesses).
//
// Each process with at least MinPoints readings gets a trend of its used
// memory, fitted with FitTrend under the device rules (the process's own
// median as the steady level) and a GPU monitor's reading rules
// (TrendRules.Readings), as its GPU's used memory is: the idle head and
// tail set aside, a start-up ramp that reaches its working level and
// growth that levels off read flat, jobs one after another judged one by
// one. On the device axis when enough readings
// are placed there, else on hours since its first reading, else on the
// readings' positions. A process whose memory grows is what a run with
// only nvidia-smi logs can show of a leak.

// procKey identifies a process series.
type procKey struct {
	gpu, pid  int
	name, gid string
}

// collectProcesses gathers the per-process readings of the logs into
// series, by GPU index (-1 for unknown).
func collectProcesses(logs []*gpulog.GPULog) map[int][]*ProcessSeries {
	byKey := map[procKey]*ProcessSeries{}
	var keys []procKey
	for _, l := range logs {
		for _, p := range l.Processes {
			if p.UsedMemory < 0 {
				continue
			}
			k := procKey{gpu: p.GPU, pid: p.PID, name: p.Name}
			if p.GPU < 0 {
				// The GPU is named only by UUID or bus id: one process
				// on two GPUs is two series, as with indexes.
				k.gid = cmp.Or(p.UUID, p.BusID)
			}
			s := byKey[k]
			if s == nil {
				s = &ProcessSeries{PID: p.PID, Name: p.Name, GPU: p.GPU, GPUID: k.gid}
				byKey[k] = s
				keys = append(keys, k)
			}
			if !slices.Contains(s.Sources, l.Path) {
				s.Sources = append(s.Sources, l.Path)
			}
			s.Times = append(s.Times, p.Time)
			s.Used = append(s.Used, p.UsedMemory)
		}
	}
	out := map[int][]*ProcessSeries{}
	for _, k := range keys {
		s := byKey[k]
		orderProcess(s)
		out[k.gpu] = append(out[k.gpu], s)
	}
	return out
}

// orderProcess sorts a process's readings by time when every one has a
// time, and drops exact duplicates (same time and bytes) of timed
// readings.
func orderProcess(s *ProcessSeries) {
	for _, t := range s.Times {
		if t.IsZero() {
			return
		}
	}
	idx := make([]int, len(s.Times))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return s.Times[a].Compare(s.Times[b]) })
	times := make([]time.Time, 0, len(idx))
	used := make([]int64, 0, len(idx))
	for _, i := range idx {
		if n := len(times); n > 0 && times[n-1].Equal(s.Times[i]) && used[n-1] == s.Used[i] {
			continue
		}
		times = append(times, s.Times[i])
		used = append(used, s.Used[i])
	}
	s.Times, s.Used = times, used
}

// minPlacedShare is the share of a GPU's process readings that must be
// placed on the device axis for the processes to be shown on it.
const minPlacedShare = 0.5

// processSet places a GPU's processes on an axis and fits their trends.
// p places times on the device axis (nil for processes of no device);
// when it places less than minPlacedShare of the readings (they lie
// outside the snapshots' or memory_stats readings' time range, or have no
// time), they all go on hours since the first reading instead, or on
// their positions when some reading has no time. The series are copied,
// so that one GPU's processes can be shown on several devices.
func processSet(list []*ProcessSeries, p *placement.Placer, axis Axis, rules TrendRules) *ProcessSet {
	set := &ProcessSet{Axis: axis, OnDeviceAxis: p != nil}
	out := make([]ProcessSeries, len(list))
	placed, total, timed := 0, 0, true
	for i, s := range list {
		out[i] = *s
		c := &out[i]
		c.X = make([]float64, len(c.Times))
		for j, t := range c.Times {
			c.X[j] = math.NaN()
			if p != nil {
				c.X[j] = p.At(t)
			}
			total++
			if !math.IsNaN(c.X[j]) {
				placed++
			}
			if t.IsZero() {
				timed = false
			} else if set.Start.IsZero() || t.Before(set.Start) {
				set.Start = t
			}
		}
	}
	if float64(placed) < minPlacedShare*float64(total) {
		set.OnDeviceAxis = false
		set.Axis = AxisReading
		if timed {
			set.Axis = AxisHours
		}
		for i := range out {
			for j, t := range out[i].Times {
				if timed {
					out[i].X[j] = t.Sub(set.Start).Hours()
				} else {
					out[i].X[j] = float64(j)
				}
			}
		}
	}
	if set.OnDeviceAxis || set.Axis != AxisHours {
		set.Start = time.Time{}
	}
	for i := range out {
		c := &out[i]
		for _, u := range c.Used {
			c.Peak = max(c.Peak, u)
		}
		if n := len(c.Used); n > 0 {
			c.Last = c.Used[n-1]
		}
		c.Trend = processTrend(c, set.Axis, rules)
	}
	slices.SortStableFunc(out, func(a, b ProcessSeries) int {
		return cmp.Or(cmp.Compare(b.Peak, a.Peak), cmp.Compare(a.PID, b.PID), cmp.Compare(a.Name, b.Name), cmp.Compare(a.GPUID, b.GPUID))
	})
	set.Series = out
	return set
}

// processTrend fits a process's used memory: on X (unit per) when at least
// MinPoints readings are placed, else on hours since its first reading
// when enough have times, else on the readings' positions. Nil with fewer
// than MinPoints readings.
func processTrend(s *ProcessSeries, per units.Per, rules TrendRules) *Trend {
	if len(s.Used) < rules.MinPoints {
		return nil
	}
	var x, y []float64
	for i, u := range s.Used {
		if !math.IsNaN(s.X[i]) {
			x, y = append(x, s.X[i]), append(y, float64(u))
		}
	}
	if len(x) < rules.MinPoints {
		x, y, per = x[:0], y[:0], "hour"
		var t0 time.Time
		for i, t := range s.Times {
			if t.IsZero() {
				continue
			}
			if t0.IsZero() {
				t0 = t
			}
			x, y = append(x, t.Sub(t0).Hours()), append(y, float64(s.Used[i]))
		}
	}
	if len(x) < rules.MinPoints {
		x, y, per = x[:0], y[:0], "reading"
		for i, u := range s.Used {
			x, y = append(x, float64(i)), append(y, float64(u))
		}
	}
	type pt struct{ x, y float64 }
	pts := make([]pt, len(x))
	for i := range x {
		pts[i] = pt{x[i], y[i]}
	}
	slices.SortStableFunc(pts, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
	for i, q := range pts {
		x[i], y[i] = q.x, q.y
	}
	x, y = binMedians(x, y, maxGPUPoints)
	r := rules
	r.RefLevel = 0 // the process's own level
	// A monitor's readings of one process, as of its GPU: the readings
	// before its start-up and after its end are set aside, a start-up
	// ramp that reaches its working level is no growth, and jobs run one
	// after another under one process are judged one by one (trend.go,
	// readingjobs.go).
	r.Readings = true
	t := FitTrend(MetricProcessUsed, per, x, y, r)
	return &t
}

// otherProcesses lists the processes of the GPUs no device claimed (and
// of unknown GPUs) as one set; nil when there are none.
func otherProcesses(procs map[int][]*ProcessSeries, claimed map[int]bool, rules TrendRules) *ProcessSet {
	var list []*ProcessSeries
	for _, g := range sortedKeys(procs) {
		if !claimed[g] || g < 0 {
			list = append(list, procs[g]...)
		}
	}
	if len(list) == 0 {
		return nil
	}
	return processSet(list, nil, AxisReading, rules)
}

// sameGPU reports whether two processes run on one GPU: the same index,
// or, both without one, the same UUID or bus id.
func sameGPU(a, b *ProcessSeries) bool {
	if a.GPU >= 0 || b.GPU >= 0 {
		return a.GPU == b.GPU
	}
	return a.GPUID != "" && a.GPUID == b.GPUID
}

// processCapacities gives each process of set the memory of its GPU: the
// user's --capacity, else the largest memory total the logs give for the
// GPU (by index, else by UUID or bus id); 0 when none is known.
func processCapacities(set *ProcessSet, logs []*gpulog.GPULog, opt Options) {
	for i := range set.Series {
		p := &set.Series[i]
		p.Capacity = opt.Capacity
		if p.Capacity > 0 {
			continue
		}
		for _, l := range logs {
			for _, g := range l.GPUs {
				if p.GPU >= 0 && g.Index == p.GPU || p.GPU < 0 && p.GPUID != "" && (g.UUID == p.GPUID || g.BusID == p.GPUID) {
					p.Capacity = max(p.Capacity, g.MemoryTotal)
				}
			}
		}
	}
}

// projectProcess is when process i of set, growing, fills its GPU: its
// used memory, from its last reading at its rate, against the capacity
// less the other processes' last memory on that GPU (their memory is
// taken as it stands). Nil without a capacity or growth, or when the
// set is not on hours (the time left in readings or steps would say
// nothing of the clock, and with no times there is no pace).
func projectProcess(set *ProcessSet, i int, runs float64) *Projection {
	p := &set.Series[i]
	t := p.Trend
	if p.Capacity <= 0 || t == nil || t.State != StateGrowing || t.Per != units.PerHour || len(p.Used) == 0 {
		return nil
	}
	others := int64(0)
	for j := range set.Series {
		if q := &set.Series[j]; j != i && sameGPU(p, q) {
			others += q.Last
		}
	}
	lastX, firstX := math.NaN(), math.NaN()
	for _, x := range p.X {
		if !math.IsNaN(x) {
			if math.IsNaN(firstX) {
				firstX = x
			}
			lastX = x
		}
	}
	if math.IsNaN(lastX) || set.Axis != AxisHours {
		return nil
	}
	tt := *t
	tt.Intercept = float64(p.Last) - tt.Slope*lastX
	pr := Project(&tt, float64(p.Capacity-others), lastX, lastX-firstX, 1, runs)
	if pr != nil {
		pr.Outside = others
	}
	return pr
}
