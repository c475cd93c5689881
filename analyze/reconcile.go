package analyze

import (
	"math"
	"time"

	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// Reconciliation sets the allocator's reserved memory beside what the
// driver reports as used (nvidia-smi memory.used, NVML). PyTorch's
// allocated ⊂ reserved ⊂ used; the difference used − reserved is memory
// outside the caching allocator: the CUDA context, cuBLAS/cuDNN
// workspaces allocated outside it, NCCL buffers, extensions calling
// cudaMalloc, other processes. Growth of that difference is a leak outside
// PyTorch, and must not be reported as a PyTorch leak (nor hidden).
//
// Each snapshot is matched with the GPU readings on either side of it in
// time, within the readings' match window of it
// (placement.GPUSeries.MatchWindow), among the readings of the busy
// period (busySpan) and at or above reserved memory: the smaller of their
// differences (placement.GPUSeries.GapAt). The difference series, through
// its lower envelope (stats.NeighbourMin), is tested with the device trend
// rules (trend.go), its reference level being the device's reserved
// memory. Without snapshot times the snapshots cannot be matched; then a
// growing nvidia-smi used series beside a reserved series that is not
// growing is reported instead.

// reconcile compares d's GPU readings with its snapshots, taken at times
// (Series.SnapshotTimes; zero where unknown).
func reconcile(d *Device, times []time.Time, x []float64, per units.Per, rules TrendRules, usedTrend *Trend) *Reconciliation {
	if d.GPU == nil || len(d.Points) == 0 {
		return nil
	}
	rc := &Reconciliation{NonPyTorch: make([]float64, len(d.Points))}
	win := d.GPU.MatchWindow()
	rc.Why.Window, rc.Why.MinPoints = win, rules.MinPoints
	lo, hi := busySpan(d.GPU.Used)
	var mx, my []float64
	var reserved []float64
	for i, p := range d.Points {
		rc.NonPyTorch[i] = math.NaN()
		reserved = append(reserved, float64(p.Usage.Reserved))
		if times[i].IsZero() {
			continue
		}
		// Readings from before the process started or after it ended,
		// and readings below reserved memory (impossible at the same
		// moment), are not matches; of the two around the snapshot, the
		// smaller difference (placement.GPUSeries.GapAt).
		v, ok := d.GPU.GapAt(times[i], p.Usage.Reserved, win, lo, hi)
		if !ok {
			continue
		}
		rc.NonPyTorch[i] = v
		mx = append(mx, x[i])
		my = append(my, v)
	}
	estimated := false
	if len(my) < rules.MinPoints && d.Axis == AxisStep {
		if ex, ey, ok := estimatedMatch(d, x); ok {
			for i := range ex {
				rc.NonPyTorch[i] = ey[i]
			}
			mx, my = mx[:0], my[:0]
			for i := range ex {
				if !math.IsNaN(ey[i]) {
					mx = append(mx, ex[i])
					my = append(my, ey[i])
				}
			}
			estimated = true
		}
	}
	rc.Matched = len(my)
	r := rules
	r.RefLevel = stats.Median(reserved)
	if estimated && rc.Matched >= rules.MinPoints {
		// An estimated placement is off by the process's set-up time and
		// pace changes; while reserved memory changes, that error reads as
		// growth or shrinkage outside the allocator. Trust it only over a
		// flat reserved series.
		var rx, ry []float64
		for i, v := range rc.NonPyTorch {
			if !math.IsNaN(v) {
				rx = append(rx, x[i])
				ry = append(ry, float64(d.Points[i].Usage.Reserved))
			}
		}
		if rt := FitTrend(MetricReserved, per, rx, ry, r); rt.State == StateGrowing || rt.Status() == StatusShrinking {
			rc.Why.Rule, rc.Why.ReservedPattern = OutsideUnmatched, rt.Pattern
			rc.Matched = 0
			for i := range rc.NonPyTorch {
				rc.NonPyTorch[i] = math.NaN()
			}
			return rc
		}
	}
	if rc.Matched >= rules.MinPoints {
		rc.Level = stats.Median(my)
		// Used − reserved has no phase excursions (both move together
		// with the cache); its noise is matching error, mostly upward:
		// a segment mapped between a snapshot and both readings around
		// it (a release just before the dump, the next step's growth just
		// after). Such matches come one or two at a time; memory that
		// stays outside the allocator is there at the matches around
		// them too, so the trend is fitted on the lower envelope.
		r.NoEnvelope = true
		t := FitTrend(MetricNonPyTorch, per, mx, stats.NeighbourMin(my), r)
		rc.Trend = &t
		// Used − reserved pairs readings and snapshots taken at slightly
		// different moments: while reserved memory moves, that timing
		// error drifts with it, a bias no test removes. Growth below the
		// practical size (MinGrowthBytes, MinGrowthShare of reserved) is
		// within that error, so only larger growth raises the flag.
		minGrowth := math.Max(r.MinGrowthBytes, r.MinGrowthShare*r.RefLevel)
		if t.State == StateGrowing && t.Growth < minGrowth {
			rc.Why.Rule, rc.Why.MinGrowth = OutsideWithinError, minGrowth
			return rc
		}
		rc.Why.Rule, rc.Why.Estimated = OutsideFlat, estimated
		if t.State == StateGrowing {
			rc.OutsideLeak, rc.Why.Rule = true, OutsideGrows
			rc.attribute(d, times, rules.MinPoints)
		}
		return rc
	}
	// No times to match: compare how much each series grew. Used memory
	// that grows by far more than reserved memory (at least half its own
	// growth, and the minimum growth) grows outside the allocator.
	if usedTrend != nil && usedTrend.State == StateGrowing && len(reserved) >= rules.MinPoints {
		usedGrowth := usedTrend.Growth
		resGrowth := math.Max(0, tailRise(reserved)*1.5) // thirds' medians see 2/3 of a linear rise
		minGrowth := math.Max(rules.MinGrowthBytes, rules.MinGrowthShare*r.RefLevel)
		if out := usedGrowth - resGrowth; out >= minGrowth && out >= 0.5*usedGrowth {
			rc.OutsideLeak = true
			rc.Why.Rule, rc.Why.UsedGrowth, rc.Why.ReservedGrowth = OutsideInferred, usedGrowth, resGrowth
			rc.attribute(d, times, rules.MinPoints)
			return rc
		}
	}
	rc.Why.Rule = OutsideTooFew
	return rc
}

// maxGPUPoints bounds the GPU readings a trend is fitted on: readings are
// binned by time and each bin contributes its median (Theil-Sen is
// quadratic in the number of points).
const maxGPUPoints = 200

// gpuTrend fits the GPU used series on the device axis (hours when the
// axis is steps but readings cannot be placed on it).
func gpuTrend(d *Device, per units.Per, rules TrendRules) *Trend {
	g := d.GPU
	if g == nil || len(g.Used) == 0 {
		return nil
	}
	var x, y []float64
	var ts []time.Time
	for i := range g.Used {
		if !math.IsNaN(g.X[i]) {
			x = append(x, g.X[i])
			y = append(y, float64(g.Used[i]))
			ts = append(ts, g.Times[i])
		}
	}
	onAxis := true
	if len(x) < rules.MinPoints {
		onAxis = false
		x, y, ts, per = x[:0], y[:0], ts[:0], "hour"
		lo, hi := busySpan(g.Used)
		t0 := g.Times[lo]
		// Readings spanning less than MinHoursAxisSpan give no per-hour
		// rate (an hour's rate from seconds of data is an extrapolation):
		// they are placed by their position instead.
		byReading := hi > lo && g.Times[hi-1].Sub(t0).Hours() < MinHoursAxisSpan
		if byReading {
			per = "reading"
		}
		for i := lo; i < hi; i++ {
			if byReading {
				x = append(x, float64(i-lo))
			} else {
				x = append(x, g.Times[i].Sub(t0).Hours())
			}
			y = append(y, float64(g.Used[i]))
			ts = append(ts, g.Times[i])
		}
	}
	// Holes in the readings' times part jobs, and an export's coarse
	// step may blend a short gap (readingjobs.go); found before binning
	// (binMedians keeps x's order, so a hole's x still parts the bins).
	rules.Holes, rules.Binned = readingHoles(ts, func(i int) float64 { return x[i] })
	// A process that started after the log did, beside others that held
	// the GPU steady: the readings before it are the idle GPU for it.
	x, y = binMedians(x, y, maxGPUPoints)
	head := 0
	if onAxis && d.Processes != nil && d.Processes.OnDeviceAxis {
		head = processHead(d.Processes, x, y, rules.MinPoints)
	}
	// A monitor's readings: the idle GPU before and after the job is no
	// part of its trend, and its start-up ramp is told from growth by
	// readingsStoppedAt (trend.go).
	rules.Readings = true
	t := FitTrend(MetricGPUUsed, per, x[head:], y[head:], rules)
	if head > 0 {
		cp := t.ChangePoint
		t.shift(head)
		t.Given += head
		if cp < 0 {
			t.ChangePoint = head
		}
	}
	// Named for a reader ("rocm-smi used"); nvidia-smi's readings are
	// the unnamed default (summary.json omits their source).
	t.Source = g.NamedTool()
	return &t
}

// estimatedMatch places snapshots without times on the GPU log's clock
// by their steps, assuming step 0 at the start of the log's busy period
// (busySpan), the last snapshot's step at its end, and an even pace in
// between; each snapshot is then matched with the median used memory of
// the readings within half a snapshot interval of its estimated time. It
// returns the x and used − reserved of every point (NaN where no reading
// fell in the window), and false when the log or the steps cannot be
// placed.
func estimatedMatch(d *Device, x []float64) ([]float64, []float64, bool) {
	g := d.GPU
	n := len(d.Points)
	if g == nil || len(g.Used) < 2 || n < 2 || x[n-1] <= 0 {
		return nil, nil, false
	}
	lo, hi := busySpan(g.Used)
	if hi-lo < 2 {
		return nil, nil, false
	}
	t0, t1 := g.Times[lo], g.Times[hi-1]
	perStep := t1.Sub(t0).Seconds() / x[n-1]
	gaps := make([]float64, 0, n-1)
	for i := 1; i < n; i++ {
		gaps = append(gaps, x[i]-x[i-1])
	}
	win := time.Duration(math.Max(perStep*stats.Median(gaps)/2, 1) * float64(time.Second))
	ys := make([]float64, n)
	for i, p := range d.Points {
		at := t0.Add(time.Duration(x[i] * perStep * float64(time.Second)))
		var near []float64
		for j := lo; j < hi; j++ {
			if dt := g.Times[j].Sub(at); dt >= -win && dt <= win {
				near = append(near, float64(g.Used[j]))
			}
		}
		ys[i] = math.NaN()
		if len(near) > 0 {
			ys[i] = stats.Median(near) - float64(p.Usage.Reserved)
		}
	}
	return x, ys, true
}

// busySpan returns the range [lo, hi) of readings without the idle
// stretches at either end: logging usually starts before the training
// process and outlives it, and those readings (below half the median) are
// not the run's memory.
func busySpan(used []int64) (int, int) {
	v := make([]float64, len(used))
	for i, u := range used {
		v[i] = float64(u)
	}
	half := stats.Median(v) / 2
	lo, hi := 0, len(used)
	for lo < hi && v[lo] < half {
		lo++
	}
	for hi > lo && v[hi-1] < half {
		hi--
	}
	if hi <= lo {
		return 0, len(used)
	}
	return lo, hi
}

// binMedians reduces sorted (x, y) to at most k points: k equal-count
// bins, each the median of its x and y.
func binMedians(x, y []float64, k int) ([]float64, []float64) {
	n := len(x)
	if n <= k {
		return x, y
	}
	bx, by := make([]float64, 0, k), make([]float64, 0, k)
	for b := range k {
		lo, hi := b*n/k, (b+1)*n/k
		if hi > lo {
			bx = append(bx, stats.Median(x[lo:hi]))
			by = append(by, stats.Median(y[lo:hi]))
		}
	}
	return bx, by
}

// Whose is the growth? Memory outside the allocator, as nvidia-smi's used
// minus reserved measures it, includes every other process on the GPU: an
// evaluation job or a notebook sharing the card grows it as surely as a
// leak in NCCL. Where the GPU logs read each process (compute-apps CSV,
// the table's process rows, XML, pmon), outsideOwners names the processes
// that grow, and which of them is the run's own where one can tell.

// ownSlackBytes and ownSlackShare bound how far a process's used memory
// may read below the allocator's reserved memory and still be the process
// that holds it: a process holds at least what its allocator reserved, but
// a reading and a snapshot are up to a match window apart, while reserved
// memory can move; 64 MiB or 2% of reserved, the larger, as for readings
// of two machines (ingest's host separation).
const (
	ownSlackBytes = 64 << 20
	ownSlackShare = 0.02
)

// ownProcess returns the index in d.Processes.Series of the run's own
// process: the one process whose used memory covers the allocator's
// reserved memory (within the slack above) at every snapshot it can be
// matched with in time, at least minMatched of them. It is -1 when no
// process does, or more than one (a larger neighbour covers it too), so
// that nothing is claimed without the evidence.
func ownProcess(d *Device, times []time.Time, minMatched int) int {
	own := -1
	for i := range d.Processes.Series {
		p := &d.Processes.Series[i]
		g := &GPUSeries{}
		for k, t := range p.Times {
			if !t.IsZero() && k < len(p.Used) && (len(g.Times) == 0 || !t.Before(g.Times[len(g.Times)-1])) {
				g.Times = append(g.Times, t)
				g.Used = append(g.Used, p.Used[k])
			}
		}
		win := g.MatchWindow()
		matched, below := 0, 0
		for j, pt := range d.Points {
			if j >= len(times) || times[j].IsZero() {
				continue
			}
			k := g.Nearest(times[j], win)
			if k < 0 {
				continue
			}
			matched++
			res := float64(pt.Usage.Reserved)
			if float64(g.Used[k]) < res-math.Max(ownSlackBytes, ownSlackShare*res) {
				below++
			}
		}
		if matched < minMatched || below > 0 {
			continue
		}
		if own >= 0 {
			return -1
		}
		own = i
	}
	return own
}

// attribute records for rc, an outside leak of d, whose growth it is,
// when the per-process readings on the device's GPU tell: the run's own
// process (ownProcess), the other processes that grow and those that do
// not, summed up as Owner. Nothing is recorded with fewer than two
// processes there (the one is the run's own), or when none of them
// grows.
func (rc *Reconciliation) attribute(d *Device, times []time.Time, minMatched int) {
	if d.Processes == nil || len(d.Processes.Series) < 2 {
		return
	}
	growing := func(p *ProcessSeries) bool { return p.Trend != nil && p.Trend.State == StateGrowing }
	own := ownProcess(d, times, minMatched)
	var grow, still []int
	for i := range d.Processes.Series {
		p := &d.Processes.Series[i]
		switch {
		case i == own:
		case growing(p):
			grow = append(grow, i)
		case p.Trend != nil:
			still = append(still, i)
		}
	}
	owner := OwnerUnknown
	switch {
	case own >= 0 && growing(&d.Processes.Series[own]):
		owner = OwnerRun
	case own >= 0 && len(grow) > 0:
		owner = OwnerOthers
	case own >= 0 || len(grow) == 0:
		return
	}
	rc.Owner = owner
	rc.Why.Owners = &ProcessOwners{Own: own, Growing: grow, Still: still}
}
