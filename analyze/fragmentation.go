package analyze

import (
	"math"
	"slices"

	"gpureport/internal/stats"
	"gpureport/internal/units"
	"gpureport/snapshot"
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
// Over the series, analyzeFragmentation decides whether the device is
// fragmented (see there).

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
	// FragCacheGrowthShare: for reserved growth at flat live memory to be
	// fragmentation, cached free memory must carry at least half of it
	// (the rest may be live memory drifting within its noise).
	FragCacheGrowthShare = 0.5
	// fragRiseShare: a rise of reserved memory between snapshots counts
	// when it is at least 1% of reserved (a new segment of a size that
	// matters, not rounding).
	fragRiseShare = 0.01
	// fragMinRises: one rise at flat live memory can be the cache's
	// warm-up; two or more mean requests keep missing the cache.
	fragMinRises = 2
	// fragDeviceShare: jumps of reserved memory that add up to less than
	// 3% of what the allocator can reserve on the device (ceiling) are
	// the cache settling to the run's sizes: fragmentation that small
	// costs the job little (the generator's label asks the same of the
	// growth). FragShareMin alone, a share of the first reserved level,
	// let a few hundred MiB on a large device count.
	fragDeviceShare = 0.03
	// sawDropShare: a fall of reserved memory by at least 10% between
	// snapshots counts as a release; two or more make a saw-tooth.
	sawDropShare = 0.1
)

// segmentSums is what the fragmentation of a point sums over one
// device's segments in a snapshot (fragPointOf): frag's segment fields
// (the others are left zero), and whether a segment is marked
// expandable. A point entry keeps it (pointentry.go).
type segmentSums struct {
	frag       FragPoint
	expandable bool
}

// segmentSumsOf sums device dev's segments in snapshot s.
func segmentSumsOf(s *snapshot.Snapshot, dev int) segmentSums {
	var sums segmentSums
	p := &sums.frag
	ms := int64(-1)
	if s.Settings.Present && s.Settings.ExpandableSegments {
		ms = s.Settings.MaxSplitSize
	}
	for i := range s.Segments {
		seg := s.Segments[i]
		if seg.Device != dev {
			continue
		}
		sums.expandable = sums.expandable || seg.Expandable
		var live, active int64
		for j := range seg.Blocks {
			b := &seg.Blocks[j]
			if b.State.Active() {
				active += b.Size
			}
			if b.State == snapshot.StateActiveAllocated {
				live += b.Size
			}
		}
		free := seg.TotalSize - active
		if active == 0 {
			p.FreeSegmentBytes += free
		} else {
			p.SplitInactive += free
		}
		if seg.Expandable && ms > 0 {
			// The last block is the segment's tail, which the allocator
			// grows and uses whatever its size.
			for j := range seg.Blocks[:max(len(seg.Blocks)-1, 0)] {
				if b := &seg.Blocks[j]; b.State == snapshot.StateInactive && b.Size >= ms {
					p.OversizeFree += b.Size
				}
			}
		}
		if seg.PrivatePool != [2]int64{} {
			// A private pool's free memory is its graph's workspace for
			// the next replay, not holes the default pool's requests miss.
			p.PrivatePoolBytes += seg.TotalSize
			p.PrivateAllocated += live
			p.PrivateInactive += free
			continue
		}
		if seg.Pool != snapshot.PoolSmall && live > 0 && float64(live) <= PinnedLiveShare*float64(seg.TotalSize) {
			p.PinnedSegments++
			p.PinnedBytes += free
		}
	}
	return sums
}

// fragPointOf is the fragmentation of a point: the sums over its
// device's segments, with the usage and pools BuildSeries measured (pt).
func fragPointOf(sums *segmentSums, pt *Point) FragPoint {
	p := sums.frag
	u := pt.Usage
	p.Inactive, p.LargestFree, p.InternalWaste = u.Inactive, u.LargestFree, u.InternalWaste
	p.External = u.ExternalFragmentation()
	for _, pu := range pt.Pools {
		p.Pools = append(p.Pools, PoolFrag{Pool: pu.Pool, Reserved: pu.Reserved, Inactive: pu.Inactive,
			LargestFree: pu.LargestFree, External: pu.ExternalFragmentation()})
	}
	return p
}

// ExpandableSetting is the allocator setting that turns expandable
// segments on, as recommendations name it.
const ExpandableSetting = "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"

// GCThresholdSetting is the allocator setting that returns unused cached
// blocks once usage passes 80% of the device, as recommendations name it.
const GCThresholdSetting = "PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.8"

// NoMaxSplitSetting is the advice for max_split_size_mb set beside
// expandable segments: the oversize rule it brings strands free ranges
// inside expandable segments (PyTorch #193400), and expandable segments
// already do what max_split_size_mb was for.
const NoMaxSplitSetting = "remove max_split_size_mb from PYTORCH_CUDA_ALLOC_CONF and keep expandable_segments:True"

// SplitExpandable reports whether f's fragmentation comes from
// max_split_size_mb beside expandable segments: a fragmented device whose
// stranded oversize ranges are large (Fragmentation.SplitExpandable), or
// a fragmentation OOM under both settings.
func (f *Findings) SplitExpandable() bool {
	for _, d := range f.Devices {
		if fr := d.Fragmentation; fr != nil && fr.Fragmented && fr.SplitExpandable {
			return true
		}
	}
	for _, o := range f.OOMs {
		if o.Cause == CauseFragmentation && o.splitExpandable() {
			return true
		}
	}
	return false
}

// splitExpandable reports whether the OOM's allocator had expandable
// segments and max_split_size_mb both on.
func (o *OOM) splitExpandable() bool {
	return o.Expandable && o.Settings.Present && o.Settings.MaxSplitSize > 0
}

// ExpandableAlready reports whether every fragmented device of f (a
// fragmentation verdict, or an OOM caused by fragmentation) already used
// expandable segments, so that advice to turn them on does not apply.
// It is false when f knows of no such device.
func (f *Findings) expandableAlready() bool {
	n := 0
	for _, d := range f.Devices {
		if fr := d.Fragmentation; fr != nil && fr.Fragmented {
			if !fr.Expandable {
				return false
			}
			n++
		}
	}
	for _, o := range f.OOMs {
		if o.Cause == CauseFragmentation {
			if !o.Expandable {
				return false
			}
			n++
		}
	}
	return n > 0
}

// ExpandableInUse reports whether device dev's allocator used expandable
// segments (expandable_segments:True) in snapshot s: its
// allocator_settings say so (recorded since PyTorch 2.3), or a segment of
// the device is marked is_expandable (marked since 2.1, so older runs
// without settings still tell).
func ExpandableInUse(s *snapshot.Snapshot, dev int) bool {
	if s.Settings.ExpandableSegments {
		return true
	}
	for i := range s.Segments {
		if s.Segments[i].Device == dev && s.Segments[i].Expandable {
			return true
		}
	}
	return false
}

// analyzeFragmentation measures every point of a series and decides
// whether the device is fragmented, over the periodic points keep (an
// OOM dump is evidence for its OOM, not a point of the trends).
//
// Two patterns make a device fragmented (docs/design.md: cached-but-free
// memory grows while live memory does not):
//
//   - pinned holes: the free bytes of pinned segments grow faster than
//     live memory, at a cost (reserved or cached free memory grows, or is
//     cut back under pressure), shattered at the end (external
//     fragmentation at least FragExternalMin) and a real share of
//     reserved memory (at least FragShareMin);
//   - cache that does not fit: reserved memory grows (in steps: requests
//     of new shapes that no cached block fits get new segments) while
//     allocated memory does not grow and cached free memory grows, by at
//     least FragCacheGrowthShare of the reserved growth and FragShareMin
//     of the reserved level. Variable batch shapes (heavy-tailed sequence
//     lengths) do this. When the growth stops too soon for a trend, the
//     same shows as jumps: reserved never falls (but where the device is
//     full, see ceiling) and rises at least fragMinRises times between
//     snapshots while live memory does not (its range over the run stays
//     under half the rises), at least once while the cache held more
//     free bytes than the largest new segment (the request would have
//     fitted them as one block), by FragShareMin of the first reserved
//     level and fragDeviceShare of the ceiling in all.
//
// A third pattern is a setting's: with max_split_size_mb and expandable
// segments both on, the free ranges of at least max_split_size inside
// expandable segments (FragPoint.OversizeFree) are stranded, and when
// they hold FragShareMin of reserved memory in the typical snapshot the
// device is fragmented by that setting (SplitExpandable).
//
// Reserved memory that is repeatedly given back (SawTooth: periodic
// empty_cache(), or garbage collection) is churn: it rules out the second
// pattern (its rebuilds look like growth between releases), not the
// first (pinned holes survive every release). Growth that stops is a
// warm-up (the trend rules' persistence rule), and free memory left by a
// leak's pinned segments is the leak's (pinnedByLeak).
//
// ceiling is the most the allocator can reserve on the device, in bytes
// (its memory less what lives outside the allocator), 0 when unknown. A
// fall of reserved memory from where the run's largest request no longer
// fits under it is the allocator freeing its cache to serve a request
// (PyTorch releases cached blocks and retries when cudaMalloc fails):
// pressure, which cached memory that does not fit causes, not a release
// that settles it.
//
// It returns, beside, what it measured of each file for the file's point
// entry (pointentry.go).
func analyzeFragmentation(s *Series, x []float64, keep []int, per units.Per, rules TrendRules, ceiling float64) (*Fragmentation, []pointMeasure) {
	fr := &Fragmentation{}
	n := len(s.Files)
	pms := make([]pointMeasure, n)
	for i, f := range s.Files {
		pms[i].sums = s.segmentSums(i)
		fr.Points = append(fr.Points, fragPointOf(&pms[i].sums, &s.Points[i]))
		fr.Expandable = fr.Expandable || f.Snapshot.Settings.ExpandableSegments || pms[i].sums.expandable
	}
	if n == 0 || len(keep) == 0 {
		return fr, pms
	}
	m := len(keep)
	tx := pick(x, keep)
	inactive := make([]float64, m)
	split := make([]float64, m)
	pinned := make([]float64, m)
	reserved := make([]float64, m)
	allocated := make([]float64, m)
	// The series are the default pool's: private pools (CUDA graphs,
	// MemPool) keep their memory for their own requests by design.
	for j, i := range keep {
		p := fr.Points[i]
		inactive[j] = float64(p.Inactive - p.PrivateInactive)
		split[j] = float64(p.SplitInactive)
		pinned[j] = float64(p.PinnedBytes)
		reserved[j] = float64(s.Points[i].Usage.Reserved - p.PrivatePoolBytes)
		allocated[j] = float64(s.Points[i].Usage.Allocated - p.PrivateAllocated)
	}
	r := rules
	r.RefLevel = stats.Median(reserved)
	it := FitTrend(MetricInactive, per, tx, inactive, r)
	mapTrend(&it, keep)
	fr.Trend = &it
	st := FitTrend("split_inactive_bytes", per, tx, split, r)
	mapTrend(&st, keep)
	fr.SplitTrend = &st
	pt := FitTrend("pinned_free_bytes", per, tx, pinned, r)
	mapTrend(&pt, keep)
	fr.PinnedTrend = &pt

	// Saw-tooth: repeated releases of reserved memory while live memory
	// stays.
	releases := 0
	for i := 1; i < m; i++ {
		if reserved[i] < reserved[i-1]*(1-sawDropShare) && allocated[i] > allocated[i-1]-0.5*(reserved[i-1]-reserved[i]) {
			releases++
		}
	}
	fr.SawTooth = releases >= 2

	last := fr.Points[keep[m-1]]
	lastReserved := reserved[m-1]
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
	if holes.State == StateGrowing {
		from := max(0, slices.Index(keep, holes.FitFrom))
		allocGrowth = stats.TheilSen(tx[from:], allocated[from:]).Slope * (tx[m-1] - tx[from])
	}
	// Holes that grow only because live tensors moved into wholly free
	// cached segments are not fragmentation either: nothing more is
	// reserved. Fragmentation costs memory: reserved (or cached free)
	// memory grows, or is repeatedly cut back (the allocator releasing its
	// cache under pressure, the saw-tooth).
	rt := FitTrend(MetricReserved, per, tx, reserved, r)
	at := FitTrend(MetricAllocated, per, tx, allocated, r)
	costs := it.State == StateGrowing || rt.State == StateGrowing || releases > 0
	growing := holes.State == StateGrowing && allocGrowth < holes.Growth && costs
	// Cache that does not fit: reserved and cached free memory grow
	// together at flat live memory.
	cacheGrowth := math.Max(0, it.Growth)
	cacheGrows := rt.State == StateGrowing && it.State == StateGrowing && at.State != StateGrowing &&
		cacheGrowth >= FragCacheGrowthShare*rt.Growth && cacheGrowth >= FragShareMin*stats.Median(reserved)
	// The same in a few jumps, too few for a trend: reserved memory rises
	// between snapshots while live memory does not, although the cache
	// already held at least as many free bytes as the rise (the requests
	// did not fit it).
	rises, missed, risen := 0, 0, 0.0
	allocTol := dropTolerance(allocated)
	grown := make([]float64, m) // grown[i]: the largest new segment since i−1
	sizes := map[uint64]int64{} // largestNewSegment's, one for the series
	for i := 1; i < m; i++ {
		grown[i] = float64(s.grownSince(sizes, keep[i-1], keep[i], &pms[keep[i]]))
		d := reserved[i] - reserved[i-1]
		if d > math.Max(dropTolerance(reserved), fragRiseShare*reserved[i-1]) && allocated[i] <= allocated[i-1]+allocTol {
			rises++
			risen += d
			// A rise may be several requests, each given its own
			// segment; the largest new segment bounds the largest of
			// them. The cache missed when its free bytes could have held
			// that request, had they been one block.
			need := d
			if grown[i] > 0 {
				need = math.Min(d, grown[i])
			}
			if inactive[i-1] >= need {
				missed++
			}
		}
	}
	// Falls of reserved memory that give the cache back, less those
	// forced at the ceiling (see above).
	givenBack, forced := 0, 0
	largest, resTol := slices.Max(grown), dropTolerance(reserved)
	for i := 1; i < m; i++ {
		switch {
		case reserved[i] >= reserved[i-1]-resTol:
		case ceiling > 0 && largest > 0 && reserved[i-1]+largest > ceiling:
			forced++
		default:
			givenBack++
		}
	}
	// Live memory must not explain the rises: its whole range over the
	// run stays under half of them; and the cache is never given back (a
	// fall of reserved memory is a release: churn, or a warm-up settling),
	// unless the device was full.
	allocRange := slices.Max(allocated) - slices.Min(allocated)
	cacheJumps := rises >= fragMinRises && missed >= 1 && at.State != StateGrowing && risen >= FragShareMin*reserved[0] &&
		risen >= fragDeviceShare*ceiling && allocRange <= 0.5*risen && givenBack == 0
	// max_split_size_mb with expandable segments: free ranges the oversize
	// rule keeps from smaller requests hold a large share of reserved
	// memory in the typical snapshot (docs/design.md: cached free memory
	// that stays large while live memory does not).
	oversize := make([]float64, m)
	for j, i := range keep {
		if reserved[j] > 0 {
			oversize[j] = float64(fr.Points[i].OversizeFree) / reserved[j]
		}
	}
	fr.SplitExpandable = stats.Median(oversize) >= FragShareMin
	fr.Why = FragWhy{Periodic: m, Last: last, PinnedShare: share, AllocGrowth: allocGrowth, CacheGrowth: cacheGrowth,
		Reserved: rt, Allocated: at, Releases: releases, Rises: rises, Missed: missed, Risen: risen, Forced: forced,
		Ceiling: ceiling, LargestNew: largest}
	if fr.SplitExpandable {
		fr.Why.OversizeShare = stats.Median(oversize)
		fr.Why.MaxSplitSize = s.Files[keep[m-1]].Snapshot.Settings.MaxSplitSize
	}
	switch {
	case m < rules.MinPoints:
		fr.Why.Rule = FragTooFew
	case fr.SplitExpandable:
		fr.Fragmented = true
		fr.Why.Rule = FragSplitExpandable
	case growing && last.External >= FragExternalMin && share >= FragShareMin:
		// Pinned holes survive empty_cache() and the allocator's own
		// releases, so a saw-tooth does not excuse them.
		fr.Fragmented, fr.Why.Rule = true, FragPinnedHoles
	case fr.SawTooth:
		fr.Why.Rule = FragSawTooth
	case cacheGrows:
		fr.Fragmented, fr.Why.Rule = true, FragCacheGrows
	case cacheJumps:
		fr.Fragmented, fr.Why.Rule = true, FragCacheJumps
	case holes.State == StateGrowing && !costs:
		fr.Why.Rule = FragMoving
	case holes.State == StateGrowing && !growing:
		fr.Why.Rule = FragRemainders
	case growing:
		fr.Why.Rule = FragNotShattered
	case rt.State == StateGrowing:
		fr.Why.Rule = FragWithLive
	default:
		fr.Why.Rule = FragNone
	}
	return fr, pms
}

// largestNewSegment is the largest growth of one segment of device dev
// from prev to cur, in bytes: the size of a segment that prev does not
// have, or what an expandable segment added in place. A cudaMalloc
// serves one request (rounded up), so this bounds the largest request
// that missed the cache between the two snapshots. 0 when no segment
// grew.
//
// A segment is known by its address and size: the driver hands a freed
// address out again, so a segment of another size at an old address is a
// new one, unless it is expandable (those grow in place).
//
// before is emptied and filled with prev's segment sizes by address: a
// series passes one map from one pair of snapshots to the next, whose
// buckets serve them all, where a new map grew and rehashed thousands of
// times a snapshot.
func largestNewSegment(before map[uint64]int64, prev, cur *snapshot.Snapshot, dev int) int64 {
	if addressOrder(prev, dev) && addressOrder(cur, dev) {
		return largestNewSegmentMerged(prev, cur, dev)
	}
	return largestNewSegmentMapped(before, prev, cur, dev)
}

// largestNewSegmentMapped is largestNewSegment for any two snapshots,
// through before.
func largestNewSegmentMapped(before map[uint64]int64, prev, cur *snapshot.Snapshot, dev int) int64 {
	clear(before)
	for i := range prev.Segments {
		if sg := prev.Segments[i]; sg.Device == dev {
			before[sg.Address] = sg.TotalSize
		}
	}
	var most int64
	for i := range cur.Segments {
		sg := cur.Segments[i]
		if sg.Device != dev || sg.PrivatePool != [2]int64{} {
			continue
		}
		grew := sg.TotalSize
		if had, ok := before[sg.Address]; ok && (had == sg.TotalSize || sg.Expandable) {
			grew -= had
		}
		most = max(most, grew)
	}
	return most
}

// addressOrder reports whether snapshot s lists device dev's segments
// in strictly increasing address order, as PyTorch's snapshots do (the
// allocator sorts them by address).
func addressOrder(s *snapshot.Snapshot, dev int) bool {
	var last uint64
	seen := false
	for _, sg := range s.Segments {
		if sg.Device != dev {
			continue
		}
		if seen && sg.Address <= last {
			return false
		}
		last, seen = sg.Address, true
	}
	return true
}

// largestNewSegmentMerged is largestNewSegment for two snapshots that
// list device dev's segments in address order (addressOrder): a merge
// of the two lists finds each segment's old size, where filling and
// probing a map of thousands of addresses, at every pair of snapshots of
// a series, cost more than the rest of the fragmentation analysis. (A
// file out of order, or with an address listed twice, takes the map,
// which keeps the last size listed.)
func largestNewSegmentMerged(prev, cur *snapshot.Snapshot, dev int) int64 {
	var most int64
	j := 0
	for _, sg := range cur.Segments {
		if sg.Device != dev {
			continue
		}
		for j < len(prev.Segments) && (prev.Segments[j].Device != dev || prev.Segments[j].Address < sg.Address) {
			j++
		}
		if sg.PrivatePool != [2]int64{} {
			continue
		}
		grew := sg.TotalSize
		if j < len(prev.Segments) {
			if had := prev.Segments[j]; had.Address == sg.Address && (had.TotalSize == sg.TotalSize || sg.Expandable) {
				grew -= had.TotalSize
			}
		}
		most = max(most, grew)
	}
	return most
}

// mapTrend maps a trend fitted over the points keep back to the series'
// point indexes (FitFrom, ChangePoint).
func mapTrend(t *Trend, keep []int) {
	if t.FitFrom >= 0 && t.FitFrom < len(keep) {
		t.FitFrom = keep[t.FitFrom]
	}
	if t.ChangePoint >= 0 && t.ChangePoint < len(keep) {
		t.ChangePoint = keep[t.ChangePoint]
	}
}
