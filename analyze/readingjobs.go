package analyze

import (
	"math"
	"slices"
	"time"

	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// Jobs one after another, and growth that levels off, in a GPU monitor's
// readings of used memory (trend.go's rules apply to each job).

// jobContextBytes is how far above the idle GPU's level a reading may be
// and still be the idle GPU: a CUDA context, the least a running job
// holds, is about 300 to 500 MiB with lazy module loading (the default
// since CUDA 12.2), so a reading within 512 MiB of the idle level holds at
// most one context starting up or tearing down, no job's weights or data;
// and other processes' memory (a display server, a monitoring agent)
// wobbles by far less than that.
const jobContextBytes = 512 << 20

// jobSpans splits a GPU monitor's readings of used memory (y, at x on
// the fit's axis) into jobs run one after another, at the idle GPU's
// level and at holes in the readings' times (r.Holes). A job's processes
// end and free everything, context included, so used memory falls back
// to what other processes hold. The idle level is the lowest reading; it
// is the idle GPU's when the log starts at it (the monitor started before
// the first job) or when it is no more than one context (nothing of a
// job's own can be there). A job is a maximal run of readings above that
// level by more than one context (jobContextBytes), and a gap between two
// jobs starts with a fall larger than the idle level (the job's memory
// released, more than remains, as idleTail asks). A binned export's gap
// may show as one or two readings between (blendedGaps, r.Binned only).
// A hole in the times (the monitor stopped: a job a day later, logs that
// never read idle) parts the readings around it too, when each side holds
// r.MinPoints readings (a few stray readings say nothing of a job). It
// returns the jobs' [lo, hi) ranges and what parted them; nil when the
// readings hold fewer than two jobs.
func jobSpans(x, y []float64, r TrendRules) ([][2]int, JobGaps) {
	gaps := JobGaps{Idle: math.NaN()}
	if len(y) < 3 {
		return nil, gaps
	}
	jobs, idle, ok := levelSpans(y, r.Binned)
	if ok {
		gaps.Idle = idle
		for j := 1; j < len(jobs); j++ {
			if slices.ContainsFunc(y[jobs[j-1][1]:jobs[j][0]], func(v float64) bool { return v <= idle+jobContextBytes }) {
				gaps.Returns++
				continue
			}
			gaps.Blended++
			low := slices.Min(y[jobs[j-1][1]:jobs[j][0]])
			if gaps.Blended == 1 || low < gaps.BlendLow {
				gaps.BlendLow = low
			}
		}
	} else {
		jobs = [][2]int{{0, len(y)}}
	}
	for _, h := range r.Holes {
		k, _ := slices.BinarySearch(x, h.X)
		for j, jb := range jobs {
			if k-jb[0] < r.MinPoints || jb[1]-k < r.MinPoints {
				continue
			}
			jobs = slices.Insert(jobs, j+1, [2]int{k, jb[1]})
			jobs[j][1] = k
			gaps.Holes++
			gaps.HoleHours = max(gaps.HoleHours, h.Hours)
			break
		}
	}
	if len(jobs) < 2 {
		return nil, gaps
	}
	return jobs, gaps
}

// levelSpans is jobSpans at the idle level alone: the jobs (however
// many) and the idle level, ok false when the readings read no idle GPU.
// blended allows gaps blended by binning (blendedGaps).
func levelSpans(y []float64, blended bool) ([][2]int, float64, bool) {
	idle := slices.Min(y)
	near := func(i int) bool { return y[i] <= idle+jobContextBytes }
	if !near(0) && idle > jobContextBytes {
		return nil, 0, false
	}
	blend := make([]bool, len(y))
	if blended {
		blend = blendedGaps(y, idle)
	}
	isIdle := func(i int) bool { return near(i) || blend[i] }
	var jobs [][2]int
	for i := 0; i < len(y); {
		if isIdle(i) {
			i++
			continue
		}
		lo := i
		for i < len(y) && !isIdle(i) {
			i++
		}
		if len(jobs) > 0 && !(y[jobs[len(jobs)-1][1]-1]-y[jobs[len(jobs)-1][1]] > idle) {
			// Not a whole job's memory released: the same job.
			jobs[len(jobs)-1][1] = i
			continue
		}
		jobs = append(jobs, [2]int{lo, i})
	}
	return jobs, idle, true
}

// JobGaps says what parted a GPU monitor's readings into jobs
// (jobSpans).
type JobGaps struct {
	// Idle is the idle GPU's level, in bytes; NaN when the readings read
	// none.
	Idle float64
	// Returns counts the boundaries where used memory fell back to Idle;
	// Blended those where a binned export blended a short gap into
	// readings between, the lowest BlendLow bytes; Holes those at holes
	// in the readings' times, the longest HoleHours hours.
	Returns, Blended, Holes int
	BlendLow, HoleHours     float64
}

// TimeHole is a hole in a GPU monitor's readings' times: X is the first
// reading after it on the fit's axis, Hours its length.
type TimeHole struct {
	X, Hours float64
}

// Holes in the readings' times. A monitor samples at a steady interval;
// a stretch without readings hundreds of intervals long, and over an
// hour, is the monitor stopped and started again: with the job (a job
// the next day, logged to the same file), a job boundary whatever the
// levels around it.
const (
	// holeIntervals: a hole of over 100 median intervals is no missed
	// sample or a stall of the logger (a few intervals) nor a pause
	// inside a job (an evaluation or checkpoint writes take minutes,
	// tens of 1-60 s intervals).
	holeIntervals = 100
	// holeMin: and over an hour, longer than a job's evaluation or
	// checkpoint pause, so that a 1 s monitor's 2-minute stall is no
	// boundary.
	holeMin = time.Hour
	// binnedStep: a median interval of 5 minutes or more is an export
	// binned to a coarse step (a day's Grafana panel or query_range of
	// a few hundred points steps by about 5 minutes), where a short gap
	// can blend with the jobs around it; a monitor logging live samples
	// every 1 to 60 s (nvidia-smi -l, dcgm-exporter's scrape) reads a
	// job's own dip (empty_cache after an evaluation) as it is.
	binnedStep = 5 * time.Minute
)

// readingHoles returns the holes in times (in order) and whether their
// median interval is an export's coarse step (binnedStep). at gives each
// reading's x on the fit's axis.
func readingHoles(times []time.Time, at func(i int) float64) ([]TimeHole, bool) {
	if len(times) < 3 {
		return nil, false
	}
	d := make([]float64, 0, len(times)-1)
	for i := 1; i < len(times); i++ {
		d = append(d, times[i].Sub(times[i-1]).Seconds())
	}
	med := stats.Median(d)
	var out []TimeHole
	for i, v := range d {
		if v > holeIntervals*med && v > holeMin.Seconds() {
			out = append(out, TimeHole{X: at(i + 1), Hours: v / 3600})
		}
	}
	return out, med >= binnedStep.Seconds()
}

// Binned readings. A monitor's export binned to a coarse step (a Grafana
// panel or a Prometheus query_range of a few hundred points) averages a
// gap between two jobs that is shorter than a bin with the jobs around
// it: the gap shows as one or two readings between the idle level and
// the jobs' levels, none near idle.
const (
	// maxBlendReadings: a gap shorter than one bin straddles at most two
	// bins; a longer run at a level between is a job of its own.
	maxBlendReadings = 2
	// blendShare: a blended reading below the midpoint between the idle
	// level and the lower of the readings around it spent more than half
	// its bin at idle, nothing running on the GPU, whatever the jobs'
	// levels (each at least that lower one): clear evidence of a gap. A
	// job's own dip (memory released after an evaluation, its weights
	// and context kept) stays above that in most jobs, and a log that
	// never reads idle has no idle level to measure from.
	blendShare = 0.5
)

// blendedGaps marks the readings of y that are a gap between two jobs
// blended with them by binning: a run of at most maxBlendReadings
// readings, each below the readings right before and after it by a fall
// larger than idle (the level a job's end returns to), and below
// blendShare of the way from idle to the lower of those two readings.
func blendedGaps(y []float64, idle float64) []bool {
	out := make([]bool, len(y))
	for a := 1; a < len(y)-1; a++ {
		for b := a + 1; b <= min(a+maxBlendReadings, len(y)-1); b++ {
			// [a, b) is the run; y[a-1] and y[b] the readings around it.
			low := min(y[a-1], y[b])
			top := slices.Max(y[a:b])
			if top-idle >= blendShare*(low-idle) || y[a-1]-top <= idle || y[b]-top <= idle || low-idle <= jobContextBytes {
				continue
			}
			for i := a; i < b; i++ {
				out[i] = true
			}
			break
		}
	}
	return out
}

// fitJobs judges each job of a GPU monitor's readings alone (jobSpans).
// The last job decides: its trend is the readings' trend, and projected
// when it grows; a trend across jobs would read a sweep of flat jobs of
// rising sizes as growth. When the last job does not grow but an earlier
// one does, that job's growth is the trend (a job that grows still
// grows), with no projection: it ended (Trend.Job < Trend.Jobs).
func fitJobs(metric string, per units.Per, x, y []float64, r TrendRules, jobs [][2]int, gaps JobGaps) Trend {
	n := min(len(x), len(y))
	var pick Trend
	for j := len(jobs) - 1; j >= 0; j-- {
		lo, hi := jobs[j][0], min(jobs[j][1], n)
		t := fitWhole(metric, per, x[lo:hi], y[lo:hi], r)
		t.shift(lo)
		t.Job = j + 1
		if j == len(jobs)-1 {
			pick = t
		}
		if t.State == StateGrowing {
			pick = t
			break
		}
	}
	pick.Given, pick.Jobs, pick.JobGaps = n, len(jobs), gaps
	return pick
}

// shift moves the point indices of a trend fitted on the points from lo
// on to the whole series' (FitFrom, ChangePoint, a step's point).
func (t *Trend) shift(lo int) {
	t.FitFrom += lo
	if t.ChangePoint >= 0 {
		t.ChangePoint += lo
	}
	if t.Why.Rule == RuleStepHolds {
		t.Why.At += lo
	}
}

// processHead returns how many of a GPU's first readings (x, y, on the
// device's axis) come before a job's process started, when the GPU's
// per-process readings (ps) show one: a process first read after the
// log's first reading, by at least onsetMinHead readings, with the GPU's
// used memory before it steady (within one CUDA context, jobContextBytes:
// the processes already there held it) and above that level by more than
// a context after it (the process mapped at least its own), leaving at
// least minPoints readings. The other processes' level is the idle GPU for
// that job, whatever it is (idleHead asks the rise to exceed it, which a
// smaller job beside a bigger one does not). The earliest such start
// counts; 0 when none.
func processHead(ps *ProcessSet, x, y []float64, minPoints int) int {
	if len(x) == 0 {
		return 0
	}
	var starts []float64
	for _, s := range ps.Series {
		for _, v := range s.X {
			if !math.IsNaN(v) {
				if v > x[0] {
					starts = append(starts, v)
				}
				break
			}
		}
	}
	slices.Sort(starts)
	for _, at := range starts {
		k, _ := slices.BinarySearch(x, at)
		if k < onsetMinHead || len(y)-k < minPoints {
			continue
		}
		lo, hi := slices.Min(y[:k]), slices.Max(y[:k])
		if hi-lo > jobContextBytes {
			// Not steady before it: another start-up, or jobs coming
			// and going, already there.
			return 0
		}
		if slices.Max(y[k:]) > hi+jobContextBytes {
			return k
		}
	}
	return 0
}

// decelerates reports whether growth levels off: the Theil-Sen rate of
// the last third of the points, at the upper end of its 95% interval, is
// below share (PersistShare: the persistence rule's quarter, here of a
// rate) of the first third's at the lower end of its interval, while
// the last third still rises (its interval above 0). Noise around steady
// growth leaves the two thirds' intervals overlapping; an exponential
// approach to a working level (the caching allocator filling its cache,
// a start-up ending) slows by far more, and still creeps up. A last
// third whose interval reaches 0 is a pause or a plateau, not a slower
// rise: a leak in bursts pauses, and readingsStoppedAt tells its pauses
// from a plateau by their lengths. Each third
// holds at least 3 points, the fewest with a spread of slopes. It
// returns the two rates, in bytes per unit of x.
func decelerates(x, y []float64, share float64) (first, last float64, ok bool) {
	n := min(len(x), len(y))
	k := (n + 2) / 3
	if k < 3 || 2*k > n {
		return 0, 0, false
	}
	f := thirdSlope(x[:k], y[:k])
	l := thirdSlope(x[n-k:n], y[n-k:n])
	if !(f.Lo > 0) || !(l.Lo > 0) || !(l.Hi < share*f.Lo) {
		return 0, 0, false
	}
	return f.Slope, l.Slope, true
}

// thirdSlope is the Theil-Sen fit of a third of the points, its interval
// widened for serial correlation as the trend's is (a leak's bursts make
// neighbouring readings alike).
func thirdSlope(x, y []float64) stats.TheilSenFit {
	return stats.TheilSenCorrected(x, y, stats.ModifiedMannKendall(x, y).VarFactor)
}
