package analyze

import (
	"math"

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

// compareRanks compares the ranks of a run; nil with fewer than two ranks.
func compareRanks(devs []*Device) *RankComparison {
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
		s := RankSummary{Rank: d.Rank, Device: d.Device, Slope: math.NaN()}
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
		minPeak, maxPeak = min(minPeak, s.PeakAllocated), max(maxPeak, s.PeakAllocated)
		rc.Ranks = append(rc.Ranks, s)
	}
	rc.Skew = maxPeak - minPeak
	rc.Growing, rc.Of = len(suspectRanks), len(ranks)
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
