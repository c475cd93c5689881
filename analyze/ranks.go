package analyze

import (
	"cmp"
	"math"
	"slices"

	"gpureport/analyze/roles"
	"gpureport/internal/stats"

	"gpureport/input"
)

// Ranks of a data-parallel job run the same code on the same shapes, so
// their memory should match; a rank that differs is where to look. The
// comparison lists every (rank, device) series with its peaks, its
// allocated slope and its suspects, and names an outlier rank when the
// leak evidence sits on a minority of ranks: exactly the ranks with
// unsuppressed suspects (or a growing allocated trend) when they are fewer
// than half. The suspect that differs is the outlier's top suspect whose
// fingerprint is not a suspect on any other rank.

// jobDevices are the devices of devs that are the job's ranks: a
// separate run of the script (DeviceKey.Run) is left out, a later run
// having run after the job's ranks and a sweep's experiments being no
// ranks of one job, except the first run of a rank its paths give, which
// keeps that rank's number (placement/restarts.go).
func jobDevices(devs []*Device) []*Device {
	out := make([]*Device, 0, len(devs))
	for _, d := range devs {
		if d.Run.N == 0 || d.Run.Rank >= 0 && d.Run.Rank == d.Rank {
			out = append(out, d)
		}
	}
	return out
}

// compareRanks compares the ranks of a run; nil with fewer than two ranks.
func compareRanks(all []*Device) *RankComparison {
	// Ranks are compared by their CUDA devices; pinned host memory is no
	// rank's device memory, and processes told apart only by their pids
	// (DeviceKey.PID) are no ranks of one job that we know of.
	var devs []*Device
	for _, d := range all {
		if !d.Host && d.PID == 0 {
			devs = append(devs, d)
		}
	}
	ranks := map[int]bool{}
	for _, d := range devs {
		ranks[d.Rank] = true
	}
	if len(ranks) < 2 {
		return nil
	}
	rc := &RankComparison{Outlier: input.NoRank}
	var minPeak, maxPeak int64 = math.MaxInt64, 0
	suspectRanks := map[int][]*Device{}
	fpRanks := map[string]map[int]bool{}
	for _, d := range devs {
		s := RankSummary{Rank: d.Rank, Device: d.Device, Type: d.Type, Slope: math.NaN()}
		s.PeakAllocated, s.PeakReserved = d.PeakAllocated, d.PeakReserved
		if t := d.Trend(MetricAllocated); t != nil {
			s.Slope = t.Slope
			s.Growing = t.State == StateGrowing
		}
		for _, sp := range d.Suspects {
			if sp.Suppressed != "" {
				continue
			}
			s.Suspects++
			if s.TopSuspect == "" {
				s.TopSuspect = sp.Site
			}
			if fpRanks[sp.Fingerprint] == nil {
				fpRanks[sp.Fingerprint] = map[int]bool{}
			}
			fpRanks[sp.Fingerprint][d.Rank] = true
		}
		if s.Suspects > 0 || s.Growing {
			suspectRanks[d.Rank] = append(suspectRanks[d.Rank], d)
		}
		if s.PeakAllocated >= 0 { // an unknown peak is no part of the skew
			minPeak, maxPeak = min(minPeak, s.PeakAllocated), max(maxPeak, s.PeakAllocated)
		}
		rc.Ranks = append(rc.Ranks, s)
	}
	if minPeak <= maxPeak {
		rc.Skew = maxPeak - minPeak
	}
	rc.Growing, rc.Of = len(suspectRanks), len(ranks)
	rc.Heavy = heavyRanks(devs)
	if n := len(suspectRanks); n == 0 || 2*n >= len(ranks) {
		return rc
	}
	// The outlier: the suspect rank with the steepest top suspect (or
	// allocated slope when it has no suspect).
	best, bestSlope := input.NoRank, math.Inf(-1)
	var bestDev *Device
	for r, ds := range suspectRanks {
		for _, d := range ds {
			slope := math.Inf(-1)
			if t := d.Trend(MetricAllocated); t != nil && !math.IsNaN(t.Slope) {
				slope = t.Slope
			}
			for _, sp := range d.Suspects {
				if sp.Suppressed == "" {
					slope = math.Max(slope, sp.Trend.Slope)
					break
				}
			}
			if slope > bestSlope || (slope == bestSlope && r < best) {
				best, bestSlope, bestDev = r, slope, d
			}
		}
	}
	rc.Outlier, rc.OutlierSlope, rc.OutlierPer = best, bestSlope, bestDev.Axis
	for _, r := range sortedKeys(ranks) {
		if len(suspectRanks[r]) == 0 {
			rc.Others = append(rc.Others, r)
		}
	}
	for i, sp := range bestDev.Suspects {
		if sp.Suppressed == "" && len(fpRanks[sp.Fingerprint]) == 1 {
			rc.OutlierSuspect = sp.Fingerprint
			rc.OutlierRef = &SuspectRef{bestDev.DeviceKey, i}
			return rc
		}
	}
	return rc
}

// One rank using more than the others. The ranks of a data-parallel job
// run the same code on batches alike, so their peaks of allocated memory
// should agree up to the noise of the batches; a rank whose peak stands
// clearly above its peers' holds something they do not (rank 0's logging
// or evaluation buffers, a gather onto one rank, a leak).
//
// The test is a robust outlier test across the ranks' peaks (Iglewicz and
// Hoaglin's modified z-score): a series' score is its peak minus the
// median peak of all series, over a scale, and a score above
// HeavyRankZ is an outlier. The scale is the largest of
//
//   - the spread of the peaks across series, 1.4826 × their median
//     absolute deviation (a standard deviation for normal data, which one
//     outlier does not move);
//   - the noise of a peak within a series: the median over the series of
//     1.4826 × the median absolute deviation of its periodic points (a
//     peak is one of those points, so a difference within that noise is
//     not clear);
//   - allocator rounding, 0.1% of the median peak (as dropTolerance).
//
// With two series the across-rank spread alone keeps either from scoring
// above 1: which of two is the odd one cannot be told. The stacks that
// hold the difference are the signatures whose live bytes at the heavy
// series' peak exceed the median of the same signature's bytes at the
// other series' own peaks, largest excess first.

// HeavyRankZ is the modified z-score above which a series' peak stands
// clearly above the others': Iglewicz and Hoaglin's recommended cutoff
// for outliers, 3.5.
const HeavyRankZ = 3.5

// maxHeavyStacks bounds the stacks named for a heavy rank.
const maxHeavyStacks = 5

// heavyRanks finds the series of devs whose peak allocated memory stands
// above the others' (see above), heaviest first.
func heavyRanks(devs []*Device) []RankExcess {
	type member struct {
		d    *Device
		peak int64
		at   int // the peak's point index
	}
	var ms []member
	var peaks, noise []float64
	for _, d := range devs {
		keep := trendIndexOf(d.Points)
		if len(keep) == 0 {
			continue
		}
		m := member{d: d, at: -1}
		ys := make([]float64, len(keep))
		for j, i := range keep {
			a := d.Points[i].Usage.Allocated
			ys[j] = float64(a)
			if m.at < 0 || a > m.peak {
				m.peak, m.at = a, i
			}
		}
		ms = append(ms, m)
		peaks = append(peaks, float64(m.peak))
		noise = append(noise, 1.4826*mad(ys))
	}
	if len(ms) < 2 {
		return nil
	}
	med := stats.Median(peaks)
	scale := math.Max(math.Max(1.4826*mad(peaks), stats.Median(noise)), 0.001*med)
	if !(scale > 0) {
		return nil
	}
	var out []RankExcess
	for k, m := range ms {
		z := (float64(m.peak) - med) / scale
		if !(z > HeavyRankZ) {
			continue
		}
		var peers []float64
		for j, o := range ms {
			if j != k {
				peers = append(peers, float64(o.peak))
			}
		}
		ex := RankExcess{DeviceKey: m.d.DeviceKey, Peak: m.peak, PeersMedian: int64(stats.Median(peers)), Z: z}
		ex.Excess = ex.Peak - ex.PeersMedian
		ex.Stacks = heavyStacks(m.d, m.at, func(yield func(*Device, int) bool) {
			for j, o := range ms {
				if j != k && !yield(o.d, o.at) {
					return
				}
			}
		})
		out = append(out, ex)
	}
	slices.SortFunc(out, func(a, b RankExcess) int { return cmp.Compare(b.Z, a.Z) })
	return out
}

// heavyStacks returns the signatures whose bytes at point at of d exceed
// the median of their bytes at the peers' peaks (peers yields each peer
// device and its peak point), largest excess first, at most
// maxHeavyStacks.
func heavyStacks(d *Device, at int, peers func(func(*Device, int) bool)) []StackExcess {
	others := map[string][]float64{}
	n := 0
	for p, i := range peers {
		n++
		for _, g := range p.Groups {
			if !g.Other && i < len(g.Bytes) {
				others[g.Key] = append(others[g.Key], float64(g.Bytes[i]))
			}
		}
	}
	var out []StackExcess
	for _, g := range d.Groups {
		if g.Other || at >= len(g.Bytes) {
			continue
		}
		vals := others[g.Key]
		for len(vals) < n {
			vals = append(vals, 0) // peers without the signature
		}
		peer := int64(stats.Median(vals))
		if ex := g.Bytes[at] - peer; ex > 0 {
			out = append(out, StackExcess{Signature: g.Signature, Bytes: g.Bytes[at], PeersBytes: peer, Excess: ex})
		}
	}
	slices.SortFunc(out, func(a, b StackExcess) int {
		return cmp.Or(cmp.Compare(b.Excess, a.Excess), cmp.Compare(a.Fingerprint, b.Fingerprint))
	})
	return out[:min(len(out), maxHeavyStacks)]
}

// mad is the median absolute deviation of v from its median.
func mad(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	m := stats.Median(v)
	dev := make([]float64, len(v))
	for i, x := range v {
		dev[i] = math.Abs(x - m)
	}
	return stats.Median(dev)
}

// heavyRoles splits each heavy series' excess by role of live memory:
// the roles of its snapshot at its peak against the median of the same
// role in the other series' snapshots at theirs (the roles stage has
// classified every snapshot: Point.Roles). Roles above the peers' are
// kept, largest excess first.
func heavyRoles(rc *RankComparison, devs []*deviceRun) {
	if rc == nil || len(rc.Heavy) == 0 {
		return
	}
	type atPeak struct {
		key   DeviceKey
		bytes [roles.NumRoles]int64
	}
	var peaks []atPeak
	for _, dr := range devs {
		if dr.s == nil || len(dr.s.Files) != len(dr.d.Points) {
			continue
		}
		at := -1
		for _, i := range trendIndexOf(dr.d.Points) {
			if at < 0 || dr.d.Points[i].Usage.Allocated > dr.d.Points[at].Usage.Allocated {
				at = i
			}
		}
		if at < 0 || dr.d.Points[at].Roles == nil {
			continue
		}
		peaks = append(peaks, atPeak{dr.d.DeviceKey, dr.d.Points[at].Roles.Bytes})
	}
	for h := range rc.Heavy {
		ex := &rc.Heavy[h]
		k := slices.IndexFunc(peaks, func(p atPeak) bool { return p.key == ex.DeviceKey })
		if k < 0 {
			continue
		}
		for r := range roles.NumRoles {
			var others []float64
			for j, p := range peaks {
				if j != k {
					others = append(others, float64(p.bytes[r]))
				}
			}
			if d := peaks[k].bytes[r] - int64(stats.Median(others)); d > 0 {
				ex.Roles = append(ex.Roles, RoleExcess{Role: r.String(), Excess: d})
			}
		}
		slices.SortStableFunc(ex.Roles, func(a, b RoleExcess) int { return cmp.Compare(b.Excess, a.Excess) })
	}
}

// heavyOf returns the heavy series of rc, nil when rc is nil.
func heavyOf(rc *RankComparison) []RankExcess {
	if rc == nil {
		return nil
	}
	return rc.Heavy
}
