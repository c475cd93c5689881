package analyze

import (
	"fmt"

	"gpureport/ingest"
)

// Fragmentation is memory the allocator holds (reserved) but cannot use
// for the requests that come. Per snapshot this file measures, from the
// segments and blocks:
//
//   - inactive bytes (reserved − active) and the largest free block;
//   - external fragmentation, 1 − largest_free / inactive (0: all free
//     memory is one hole; near 1: shattered), overall and per pool;
//   - split inactive bytes: free holes inside segments that also hold live
//     blocks. empty_cache() cannot return them and only requests that fit a
//     hole can use them; free memory in wholly free segments is plain
//     cache, reusable and returnable;
//   - pinned segments: large-pool segments kept alive by a few small live
//     blocks (live bytes at most PinnedLiveShare of the segment);
//   - internal waste (active − requested: rounding inside blocks);
//   - private pools (CUDA graphs, MemPool) apart, since the default pool
//     cannot reuse their memory.
//
// Over the series, a device is called fragmented when the free bytes of
// pinned segments grow (the trend rules of trend.go, against the steady
// reserved level) faster than the live memory, at a cost (reserved or
// cached free memory grows, or is cut back under pressure), while the free
// memory is shattered at the end (external fragmentation at least
// FragExternalMin) and the pinned segments hold a real share of reserved
// memory (at least FragShareMin). Reserved memory that repeatedly falls
// back (empty_cache, garbage collection) while allocated
// memory is flat is reported as saw-tooth churn, not fragmentation.

// PinnedLiveShare is the live share at or below which a large segment
// counts as pinned by a few small blocks.
const PinnedLiveShare = 0.1

// Fragmentation thresholds.
const (
	// FragExternalMin: at the last snapshot, the largest hole is at most
	// half of the free memory.
	FragExternalMin = 0.5
	// FragShareMin: the holes in used segments are at least 10% of
	// reserved memory; below that fragmentation costs little.
	FragShareMin = 0.1
	// sawDropShare: a fall of reserved memory by at least 10% between
	// snapshots counts as a release; two or more make a saw-tooth.
	sawDropShare = 0.1
)

// FragPointOf measures the fragmentation of device dev in snapshot s.
func FragPointOf(s *ingest.Snapshot, dev int) FragPoint {
	var p FragPoint
	u := DeviceUsage(s, dev)
	p.Inactive, p.LargestFree, p.InternalWaste = u.Inactive, u.LargestFree, u.InternalWaste
	p.External = u.ExternalFragmentation()
	for i := range s.Segments {
		seg := &s.Segments[i]
		if seg.Device != dev {
			continue
		}
		var live, active int64
		for j := range seg.Blocks {
			b := &seg.Blocks[j]
			if b.State.Active() {
				active += b.Size
			}
			if b.State == ingest.StateActiveAllocated {
				live += b.Size
			}
		}
		free := seg.TotalSize - active
		if active == 0 {
			p.FreeSegmentBytes += free
		} else {
			p.SplitInactive += free
		}
		if seg.Pool != ingest.PoolSmall && live > 0 && float64(live) <= PinnedLiveShare*float64(seg.TotalSize) {
			p.PinnedSegments++
			p.PinnedBytes += free
		}
		if seg.PrivatePool != [2]int64{} {
			p.PrivatePoolBytes += seg.TotalSize
		}
	}
	for _, pu := range PoolUsages(s, dev) {
		p.Pools = append(p.Pools, PoolFrag{Pool: pu.Pool, Reserved: pu.Reserved, Inactive: pu.Inactive,
			LargestFree: pu.LargestFree, External: pu.ExternalFragmentation()})
	}
	return p
}

// analyzeFragmentation measures every point of a series and decides
// whether the device is fragmented.
func analyzeFragmentation(s *Series, x []float64, per string, rules TrendRules) *Fragmentation {
	fr := &Fragmentation{}
	n := len(s.Files)
	inactive := make([]float64, n)
	split := make([]float64, n)
	pinned := make([]float64, n)
	reserved := make([]float64, n)
	allocated := make([]float64, n)
	for i, f := range s.Files {
		p := FragPointOf(f.Snapshot, s.Device)
		fr.Points = append(fr.Points, p)
		inactive[i] = float64(p.Inactive)
		split[i] = float64(p.SplitInactive)
		pinned[i] = float64(p.PinnedBytes)
		reserved[i] = float64(s.Points[i].Usage.Reserved)
		allocated[i] = float64(s.Points[i].Usage.Allocated)
	}
	if n == 0 {
		return fr
	}
	r := rules
	r.RefLevel = median(reserved)
	it := FitTrend(MetricInactive, per, x, inactive, r)
	fr.Trend = &it
	st := FitTrend("split_inactive_bytes", per, x, split, r)
	fr.SplitTrend = &st
	pt := FitTrend("pinned_free_bytes", per, x, pinned, r)
	fr.PinnedTrend = &pt

	// Saw-tooth: repeated releases of reserved memory.
	releases := 0
	for i := 1; i < n; i++ {
		if reserved[i] < reserved[i-1]*(1-sawDropShare) && allocated[i] > allocated[i-1]-0.5*(reserved[i-1]-reserved[i]) {
			releases++
		}
	}
	fr.SawTooth = releases >= 2

	last := fr.Points[n-1]
	lastReserved := reserved[n-1]
	share := 0.0
	if lastReserved > 0 {
		share = float64(last.PinnedBytes) / lastReserved
	}
	// The harm is memory held by segments that a few small live blocks
	// keep alive (pinned segments): their free bytes must grow, and faster
	// than the live memory. A leak whose tensors are carved from cached
	// segments leaves holes too, but in proportion to what it keeps alive.
	holes := pt
	allocGrowth := 0.0
	if holes.Verdict == VerdictGrowing {
		from := holes.FitFrom
		allocGrowth = TheilSen(x[from:], allocated[from:]).Slope * (x[n-1] - x[from])
	}
	// Holes that grow only because live tensors moved into wholly free
	// cached segments are not fragmentation either: nothing more is
	// reserved. Fragmentation costs memory: reserved (or cached free)
	// memory grows, or is repeatedly cut back (the allocator releasing its
	// cache under pressure, the saw-tooth).
	rt := FitTrend(MetricReserved, per, x, reserved, r)
	costs := it.Verdict == VerdictGrowing || rt.Verdict == VerdictGrowing || releases > 0
	growing := holes.Verdict == VerdictGrowing && allocGrowth < holes.Growth && costs
	switch {
	case n < rules.MinPoints:
		fr.Reason = fmt.Sprintf("%d snapshots: too few to judge fragmentation over time; at the last one %.0f%% of reserved memory sits in pinned segments, external fragmentation %.2f",
			n, 100*share, last.External)
	case growing && last.External >= FragExternalMin && share >= FragShareMin:
		fr.Fragmented = true
		fr.Reason = fmt.Sprintf("free memory in segments pinned by a few small live blocks grows %s per %s (%s) to %s in %d segments, %.0f%% of reserved, while live memory grows only %s; the largest free block is %s of %s free (external fragmentation %.2f)",
			fmtSigned(holes.Slope), per, fmtP(holes.PValue), fmtBytes(last.PinnedBytes), last.PinnedSegments, 100*share, fmtBytes(int64(allocGrowth)), fmtBytes(last.LargestFree), fmtBytes(last.Inactive), last.External)
	case fr.SawTooth:
		fr.Reason = fmt.Sprintf("reserved memory falls back %d times (empty_cache() or garbage collection): churn, not fragmentation", releases)
	case holes.Verdict == VerdictGrowing && !costs:
		fr.Reason = fmt.Sprintf("pinned segments grow %s while reserved and cached free memory do not (%s): live tensors are moving into cached segments, not fragmenting them", fmtBytes(int64(holes.Growth)), rt.Pattern)
	case holes.Verdict == VerdictGrowing && !growing:
		fr.Reason = fmt.Sprintf("pinned segments grow %s, but live memory grows as much (%s): the holes are remainders of segments the live tensors occupy, not fragmentation", fmtBytes(int64(holes.Growth)), fmtBytes(int64(allocGrowth)))
	case growing:
		fr.Reason = fmt.Sprintf("cached free memory grows, but it is not shattered (external fragmentation %.2f, %.0f%% of reserved in holes of used segments)", last.External, 100*share)
	default:
		fr.Reason = fmt.Sprintf("no growth of pinned segments (%s); at the last snapshot %.0f%% of reserved memory sits in pinned segments, external fragmentation %.2f",
			pt.Reason, 100*share, last.External)
	}
	return fr
}
