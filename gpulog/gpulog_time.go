package gpulog

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Times of GPU log readings, beyond the date strings parseStamp reads:
//
//   - a number is a Unix time when it is at least epochMinSeconds once
//     read in its unit; the unit is decided by magnitude (seconds below
//     1e11, milliseconds below 1e14, microseconds below 1e17, else
//     nanoseconds), as a logging script's time.time(), time.time()*1000
//     or time.time_ns() writes it;
//   - a smaller number is elapsed seconds from an unknown start. Such
//     times are anchored at the end of the read so that the last reading
//     falls at the file's modification time, and a note says so;
//   - a reading without a time is placed after the dated readings of its
//     GPU at the interval they show, or, failing that, by its position in
//     the file (the reading index is the axis), and a note says which
//     (placeUntimed).

// epochMinSeconds is the smallest number read as a Unix time in seconds:
// 1e8 s is 1973-03-03, and no elapsed-time column of a training run
// reaches it (1e8 s is more than three years).
const epochMinSeconds = 1e8

// elapsedBase is the origin elapsed times are counted from until
// anchorElapsed moves them; times before epochMinSeconds after it can
// only be elapsed times.
var elapsedBase = time.Unix(0, 0).UTC()

// numericTime reads a number as a Unix time or, when small, as elapsed
// seconds (elapsed is true; the time is elapsedBase plus the seconds).
// scale, when not 0, is the seconds per unit the column name gave
// ("timestamp_ms": 1e-3) and overrides the magnitude rule.
func numericTime(s string, scale float64) (t time.Time, elapsed, ok bool) {
	s = strings.TrimSpace(s)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return time.Time{}, false, false
	}
	if scale == 0 {
		switch {
		case f >= 1e17:
			scale = 1e-9
		case f >= 1e14:
			scale = 1e-6
		case f >= 1e11:
			scale = 1e-3
		default:
			scale = 1
		}
	}
	sec := f * scale
	if sec > 1e11 { // past the year 5000: not a time
		return time.Time{}, false, false
	}
	whole, frac := math.Modf(sec)
	// A float64 near 1.7e9 carries about 0.2 µs of noise: keep whole
	// microseconds.
	d := time.Unix(int64(whole), int64(math.Round(frac*1e6))*1e3).UTC()
	return d, sec < epochMinSeconds, true
}

// isElapsed reports whether t is an elapsed time not yet anchored.
func isElapsed(t time.Time) bool {
	return !t.IsZero() && t.Before(elapsedBase.Add(epochMinSeconds*time.Second))
}

// stampOrNumber parses a timestamp cell: a date string (parseStamp) or a
// number (numericTime). It marks the log as holding elapsed times, read
// from the column named col (named in the note).
func (b *logBuilder) stampOrNumber(s string, scale float64, col string) (time.Time, bool) {
	if scale == 0 {
		if t, ok := b.time(s); ok {
			return t, true
		}
	}
	t, elapsed, ok := numericTime(s, scale)
	if !ok {
		return time.Time{}, false
	}
	if elapsed && !b.elapsed {
		b.elapsed, b.elapsedWhere = true, fmt.Sprintf("column %q", col)
	}
	return t, true
}

// anchorElapsed moves elapsed times so that the latest falls at the
// file's modification time (when known), and notes what was assumed.
func (b *logBuilder) anchorElapsed() {
	if !b.elapsed {
		return
	}
	where := b.elapsedWhere
	l := b.log
	var last time.Time
	for _, s := range l.Samples {
		if isElapsed(s.Time) && s.Time.After(last) {
			last = s.Time
		}
	}
	for _, s := range l.MemoryStats {
		if isElapsed(s.Time) && s.Time.After(last) {
			last = s.Time
		}
	}
	l.Timing = TimingElapsed
	if b.opt.ModTime.IsZero() || last.IsZero() {
		b.note(fmt.Sprintf("%s holds elapsed seconds from an unknown start and the file's modification time is unknown: times count from 1970-01-01 00:00 UTC (durations are right, dates are not)", where))
		return
	}
	shift := b.opt.ModTime.Sub(last)
	for i := range l.Samples {
		if isElapsed(l.Samples[i].Time) {
			l.Samples[i].Time = l.Samples[i].Time.Add(shift)
		}
	}
	for i := range l.MemoryStats {
		if isElapsed(l.MemoryStats[i].Time) {
			l.MemoryStats[i].Time = l.MemoryStats[i].Time.Add(shift)
		}
	}
	b.note(fmt.Sprintf("%s holds elapsed seconds from an unknown start: assumed the last reading was written at the file's modification time (%s), so durations are right and dates are estimates",
		where, b.opt.ModTime.UTC().Format(time.RFC3339)))
}

// minInterval and maxInterval bound a sampling interval inferred from
// dated readings (seconds): nvidia-smi -lms goes down to tens of
// milliseconds; a gap of more than a day between readings is no sampling
// interval.
const (
	minInterval = 10 * time.Millisecond
	maxInterval = 24 * time.Hour
)

// placeUntimed decides the timing of the log's GPU readings when some
// have no time: readings after a dated reading of the same GPU are placed
// at the interval the dated readings show (the median gap between
// consecutive distinct times, i.e. nvidia-smi's -l interval); when that
// interval is unknown (fewer than two distinct times) or a reading comes
// before any dated one, the log's readings are left in reading order
// (TimingOrder) and analysis uses the reading index as their axis.
func (b *logBuilder) placeUntimed() {
	l := b.log
	untimed, first, lastLine := 0, -1, -1
	for i, s := range l.Samples {
		if s.Time.IsZero() {
			untimed++
			if first < 0 {
				first = i
			}
			lastLine = i
		}
	}
	if untimed == 0 {
		if l.Timing == "" && len(l.Samples) > 0 {
			l.Timing = TimingTimes
		}
		return
	}
	what := fmt.Sprintf("%d of %d readings (readings %d to %d in file order) have no time", untimed, len(l.Samples), first+1, lastLine+1)
	switch {
	case untimed == 1 && len(l.Samples) == 1:
		what = "the log's one reading has no time"
	case untimed == len(l.Samples):
		what = fmt.Sprintf("none of the %d readings has a time", untimed)
	}
	if untimed == len(l.Samples) && !slices.ContainsFunc(l.Samples, func(s GPUSample) bool { return !s.HasStep }) {
		l.Timing = TimingSteps
		b.note(fmt.Sprintf("%s: every reading has a training step, which is their axis", what))
		return
	}
	interval := datedInterval(l.Samples)
	if interval > 0 {
		last := map[int]time.Time{}
		k := map[int]int{}
		placed := make([]time.Time, len(l.Samples))
		ok := true
		for i, s := range l.Samples {
			if !s.Time.IsZero() {
				last[s.GPU], k[s.GPU] = s.Time, 0
				continue
			}
			t, dated := last[s.GPU]
			if !dated {
				ok = false
				break
			}
			k[s.GPU]++
			placed[i] = t.Add(time.Duration(k[s.GPU]) * interval)
		}
		if ok {
			for i := range l.Samples {
				if !placed[i].IsZero() {
					l.Samples[i].Time = placed[i]
				}
			}
			l.Timing = TimingInterval
			b.note(fmt.Sprintf("%s: each was placed %s after the reading before it (the sampling interval of the file's dated readings)", what, interval))
			return
		}
	}
	l.Timing = TimingOrder
	b.note(fmt.Sprintf("%s: readings are placed in file order and the reading index is their axis (no sampling interval can be inferred)", what))
}

// datedInterval is the median gap between consecutive distinct reading
// times of one GPU, pooled over GPUs; 0 when there are not two distinct
// times or the median is outside [minInterval, maxInterval].
func datedInterval(samples []GPUSample) time.Duration {
	byGPU := map[int][]time.Time{}
	for _, s := range samples {
		if !s.Time.IsZero() {
			byGPU[s.GPU] = append(byGPU[s.GPU], s.Time)
		}
	}
	var gaps []time.Duration
	for _, ts := range byGPU {
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		for i := 1; i < len(ts); i++ {
			if d := ts[i].Sub(ts[i-1]); d > 0 {
				gaps = append(gaps, d)
			}
		}
	}
	if len(gaps) == 0 {
		return 0
	}
	slices.Sort(gaps)
	d := gaps[len(gaps)/2]
	if d < minInterval || d > maxInterval {
		return 0
	}
	return d
}

// noteNoMemory says so when a log's GPU readings carry no memory figure at
// all (a power- or utilization-only log, or one whose memory values are all
// "not available").
func (b *logBuilder) noteNoMemory() {
	l := b.log
	if len(l.Samples) == 0 || len(l.MIG) > 0 {
		return
	}
	for _, s := range l.Samples {
		if s.MemoryUsed >= 0 || s.MemoryTotal >= 0 || s.MemoryFree >= 0 {
			return
		}
	}
	shares := 0
	for _, s := range l.Samples {
		if s.HasUsedPercent {
			shares++
		}
	}
	if shares > 0 {
		b.note(fmt.Sprintf("%d readings give used memory as a percent of the device and no total: read as bytes where --capacity or another log gives the device's total, else shown as a percent", shares))
		return
	}
	// The same words whether the columns are missing (a power- or
	// utilization-only log) or present with only "not available" values
	// ([N/A], Not Supported): unified-memory GPUs such as the GB10 print
	// the latter, and "no memory columns" would misdescribe their logs.
	b.note(fmt.Sprintf("this log gives no memory figures: its %d readings have no used or total memory (no memory columns, or only values such as [N/A] or Not Supported, as unified-memory GPUs like the GB10 print), so no device is shown for them", len(l.Samples)))
}

// reClock is a time of day alone, as loggers without dates write it:
// "10:00:00" (dmon -o T), "10:00:00.007" (xpu-smi dump).
var reClock = regexp.MustCompile(`^(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?$`)

// parseClock reads a time of day alone (reClock), as the time since
// midnight.
func parseClock(s string) (time.Duration, bool) {
	m := reClock.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	d := timeOfDay(m[1:])
	if d >= 24*time.Hour || m[2] >= "60" || m[3] >= "61" {
		return 0, false
	}
	return d, true
}

// datesOfClocks dates times of day (clocks[i] < 0: that row has none) on
// the date the file's modification time gives, in the zone of zoneless
// times: the last time of day is taken to be no later than the
// modification time (beyond a minute's slack, it is the day before), and,
// walking back, a time of day later than the next row's is on the day
// before (the log passed midnight). ok is false, and times nil, when the modification
// time is unknown; mt is it, in the zone. The times are zoneless: the
// caller's log is marked so.
func (b *logBuilder) datesOfClocks(clocks []time.Duration) (times []time.Time, mt time.Time, ok bool) {
	mt = b.opt.ModTime
	if mt.IsZero() {
		return nil, mt, false
	}
	mt = mt.In(b.opt.Location)
	day := time.Date(mt.Year(), mt.Month(), mt.Day(), 0, 0, 0, 0, b.opt.Location)
	mod := mt.Sub(day)
	times = make([]time.Time, len(clocks))
	var last time.Duration = -1
	for i := len(clocks) - 1; i >= 0; i-- {
		c := clocks[i]
		if c < 0 {
			continue
		}
		if last < 0 {
			if c > mod+time.Minute {
				day = day.AddDate(0, 0, -1)
			}
		} else if c > last {
			day = day.AddDate(0, 0, -1)
		}
		last = c
		// The wall clock on that day (not midnight plus c: a day
		// with a DST change).
		times[i] = time.Date(day.Year(), day.Month(), day.Day(), int(c/time.Hour), int(c/time.Minute%60), int(c/time.Second%60), int(c%time.Second), b.opt.Location)
	}
	b.log.Zoneless = true
	return times, mt, true
}
