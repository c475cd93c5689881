package placement

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"
)

// TimedValue is one reading of a memory series at an absolute time.
type TimedValue struct {
	// Time is when the reading was taken, as its source states it.
	Time time.Time
	// Value is the reading in bytes.
	Value int64
}

// ClockOffset is a whole-hour disagreement between a GPU log's clock and
// the snapshots' clock, as DetectClockOffset finds it.
type ClockOffset struct {
	// Shift is how far the GPU log's times are ahead of the snapshots'
	// times: +2h means the reading logged at 12:00 was taken when the
	// snapshots' clock said 10:00. A whole number of hours, never zero.
	Shift time.Duration
	// Matched is the number of snapshot points that had a GPU reading near
	// them once the log is moved back by Shift.
	Matched int
	// Cost and ZeroCost are the disagreement of the two series at Shift
	// and at no shift, as fractions of the largest reserved value (see
	// DetectClockOffset); ZeroCost is +Inf when without a shift too few
	// snapshot points have a GPU reading near them.
	Cost, ZeroCost float64
}

// Hours returns Shift in whole hours.
func (o ClockOffset) Hours() int { return int(o.Shift / time.Hour) }

const (
	// maxClockShift bounds the shifts tried, in hours: the span of real
	// time zones.
	maxClockShift = 14
	// minClockMatches is the least number of snapshot points that must
	// meet a GPU reading for a shift to be scored.
	minClockMatches = 3
)

// DetectClockOffset looks for a whole-hour offset between a GPU log and
// the snapshots of the same device, the classic symptom of a zoneless
// nvidia-smi log read in the wrong zone (the report was made on a laptop
// in another zone than the training machine).
//
// snap is the snapshot series: trace times (UTC, exact) and reserved
// bytes. gpu is the GPU log series: reading times as read (in the assumed
// zone) and memory.used bytes. Physically, used >= reserved at every
// moment (used adds the CUDA context and other processes to what the
// caching allocator holds), and used tracks reserved: their difference is
// nearly constant.
//
// Method: for each shift h from -14 to +14 hours, every snapshot point at
// time t is paired with the GPU reading nearest to t+h, if one lies within
// a tolerance (three GPU sampling intervals, at least 5 s, at most 20
// min). A shift needs at least max(3, half the snapshots) pairs to be
// scored. With d = used - reserved over the pairs, R the largest reserved
// value and U the largest used value of the log, its cost is shape +
// level, where
//
//	shape = mean |d - median(d)| / R  +  2 * mean(max(0, -d)) / R
//	level = max(median(d), 0) / U
//
// shape says how badly used fails to track reserved (first term) or falls
// below it, which is impossible at the right alignment (second term): a
// shift that pairs snapshots with readings from before the job started or
// after it ended pays here. level prefers the smallest overhead, since a
// log moved too far ahead pairs each snapshot with later, larger readings;
// it is a share of U, not R, so that a small job whose CUDA context dwarfs
// its reserved memory is not pushed towards shifts with violations. The
// shift of least cost wins (ties: the smaller |h|).
//
// An offset is reported only when it fits and is clearly right: its shape
// is at most 0.25; its cost is at least 0.05 below the zero-shift cost
// (when the series overlap without a shift at all); and every other
// scored shift costs at least 0.02 more. Flat series, short overlaps and
// unrelated logs therefore give no report rather than a guess.
func DetectClockOffset(snap, gpu []TimedValue) (ClockOffset, bool) {
	if len(snap) < minClockMatches || len(gpu) < minClockMatches {
		return ClockOffset{}, false
	}
	g := slices.Clone(gpu)
	slices.SortStableFunc(g, func(a, b TimedValue) int { return a.Time.Compare(b.Time) })
	tol := matchTolerance(g)
	scale := 0.0
	for _, s := range snap {
		scale = max(scale, float64(s.Value))
	}
	scale = max(scale, 1<<20)
	usedScale := scale
	for _, r := range g {
		usedScale = max(usedScale, float64(r.Value))
	}
	need := max(minClockMatches, len(snap)/2)

	const n = 2*maxClockShift + 1
	var costs, shapes [n]float64
	var matched [n]int
	d := make([]float64, 0, len(snap))
	for i := range n {
		shift := time.Duration(i-maxClockShift) * time.Hour
		d = d[:0]
		for _, s := range snap {
			if v, ok := nearest(g, s.Time.Add(shift), tol); ok {
				d = append(d, float64(v-s.Value))
			}
		}
		matched[i] = len(d)
		costs[i], shapes[i] = math.Inf(1), math.Inf(1)
		if len(d) >= need {
			shape, level := clockCost(d, scale, usedScale)
			costs[i], shapes[i] = shape+level, shape
		}
	}
	best := maxClockShift
	for i := range n {
		c, b := costs[i], costs[best]
		if c < b || c == b && abs(i-maxClockShift) < abs(best-maxClockShift) {
			best = i
		}
	}
	cost, zero := costs[best], costs[maxClockShift]
	if best == maxClockShift || math.IsInf(cost, 1) || shapes[best] > 0.25 {
		return ClockOffset{}, false
	}
	if !math.IsInf(zero, 1) && zero-cost < 0.05 {
		return ClockOffset{}, false
	}
	for i := range n {
		if i != best && costs[i]-cost < 0.02 {
			return ClockOffset{}, false
		}
	}
	return ClockOffset{Shift: time.Duration(best-maxClockShift) * time.Hour, Matched: matched[best], Cost: cost, ZeroCost: zero}, true
}

// clockCost scores the differences d = used - reserved of one shift: its
// shape term in units of scale (the largest reserved value) and its level
// term in units of usedScale (the largest used value).
func clockCost(d []float64, scale, usedScale float64) (shape, level float64) {
	s := slices.Clone(d)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	var dev, viol float64
	for _, x := range d {
		dev += math.Abs(x - med)
		viol += max(0, -x)
	}
	k := float64(len(d))
	return dev/k/scale + 2*viol/k/scale, max(med, 0) / usedScale
}

// matchTolerance is how far from a snapshot a GPU reading may be to pair
// with it: three median sampling intervals, within [5 s, 20 min].
func matchTolerance(g []TimedValue) time.Duration {
	var gaps []time.Duration
	for i := 1; i < len(g); i++ {
		if dt := g[i].Time.Sub(g[i-1].Time); dt > 0 {
			gaps = append(gaps, dt)
		}
	}
	if len(gaps) == 0 {
		return 5 * time.Second
	}
	slices.Sort(gaps)
	return min(max(3*gaps[len(gaps)/2], 5*time.Second), 20*time.Minute)
}

// nearest returns the value of the reading of g (sorted by time) closest
// to t, if it lies within tol.
func nearest(g []TimedValue, t time.Time, tol time.Duration) (int64, bool) {
	i := sort.Search(len(g), func(i int) bool { return !g[i].Time.Before(t) })
	best, bestDt := int64(0), time.Duration(math.MaxInt64)
	for _, j := range []int{i - 1, i} {
		if j < 0 || j >= len(g) {
			continue
		}
		dt := g[j].Time.Sub(t)
		if dt < 0 {
			dt = -dt
		}
		if dt < bestDt {
			best, bestDt = g[j].Value, dt
		}
	}
	return best, bestDt <= tol
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// SuggestedZone returns the --tz value that undoes the offset for a log
// that was read in zone assumed, as a fixed offset such as "+02:00" (or
// "UTC"); at is a time of the log, for the zone's offset then (daylight
// saving). It returns "" when the corrected offset is no real zone
// (beyond -12 h or +14 h): then the logging machine's clock was wrong.
func (o ClockOffset) SuggestedZone(assumed *time.Location, at time.Time) string {
	if assumed == nil {
		assumed = time.UTC
	}
	_, off := at.In(assumed).Zone()
	w := off + int(o.Shift/time.Second)
	if w < -12*3600 || w > 14*3600 {
		return ""
	}
	return formatOffset(w)
}

func formatOffset(sec int) string {
	if sec == 0 {
		return "UTC"
	}
	sign := '+'
	if sec < 0 {
		sign, sec = '-', -sec
	}
	return fmt.Sprintf("%c%02d:%02d", sign, sec/3600, sec/60%60)
}

// ClockNote is what a report says of a clock offset: how far the GPU
// log's times are off, the zone they were read in, and the --tz value
// that undoes the offset (package report/words words it).
type ClockNote struct {
	// Hours is how many hours the log's times are ahead of the device's
	// (negative: behind); never 0.
	Hours int
	// ReadAs is the zone the log was read in, as a UTC offset ("UTC",
	// "+04:00").
	ReadAs string
	// Zone is the --tz value that undoes the offset (SuggestedZone); ""
	// when no real zone does: the clock of the machine that wrote the log
	// was wrong.
	Zone string
}

// Explain is the offset as a report states it. assumed is the zone the
// log was read in (the --tz zone), at a time of the log.
func (o ClockOffset) Explain(assumed *time.Location, at time.Time) ClockNote {
	if assumed == nil {
		assumed = time.UTC
	}
	_, off := at.In(assumed).Zone()
	return ClockNote{Hours: o.Hours(), ReadAs: formatOffset(off), Zone: o.SuggestedZone(assumed, at)}
}
