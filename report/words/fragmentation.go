package words

import (
	"fmt"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// Fragmentation says why a device is fragmented, or why not, with the
// numbers; "" when its fragmentation was not judged.
func Fragmentation(d *analyze.Device) string {
	fr := d.Fragmentation
	if fr == nil || fr.Why.Rule == "" {
		return ""
	}
	w := &fr.Why
	s := fragRule(d, w)
	for _, p := range w.PinnedBy {
		s += fmt.Sprintf("; the holes are pinned by %s in %s", p.Site, p.Function)
	}
	if w.LeakShare > 0 {
		s = fmt.Sprintf("segments are pinned, but %s of the live bytes pinning them are leaked tensors of %s: a side effect of the leak, not fragmentation of its own; without it: %s",
			units.Percent(w.LeakShare), w.LeakSite, s)
	}
	return s
}

// fragRule words the pattern that decided a device's fragmentation
// (fragmentation.go in analyze).
func fragRule(d *analyze.Device, w *analyze.FragWhy) string {
	last, share := w.Last, units.Percent(w.PinnedShare)
	rt, at, holes := &w.Reserved, &w.Allocated, d.Fragmentation.PinnedTrend
	switch w.Rule {
	case analyze.FragTooFew:
		s := fmt.Sprintf("%d periodic snapshots: too few to judge fragmentation over time; at the last one %s of reserved memory sits in pinned segments, external fragmentation %.2f",
			w.Periodic, share, last.External)
		if d.Fragmentation.SplitExpandable {
			s += "; " + splitExpandable(w)
		}
		return s
	case analyze.FragSplitExpandable:
		return fmt.Sprintf("%s; live memory is %s", splitExpandable(w), at.Status())
	case analyze.FragPinnedHoles:
		return fmt.Sprintf("free memory in segments pinned by a few small live blocks grows %s, %s, to %s in %d segments, %s of reserved, while live memory grows only %s; the largest free block is %s of %s free (external fragmentation %.2f)",
			units.Rate(holes.Slope, holes.Per), units.PValue(holes.PValue), units.Bytes(last.PinnedBytes), last.PinnedSegments, share, units.Bytes(int64(w.AllocGrowth)), units.Bytes(last.LargestFree), units.Bytes(last.Inactive), last.External)
	case analyze.FragSawTooth:
		return fmt.Sprintf("reserved memory falls back %d times while live memory stays (empty_cache() or garbage collection): churn, not fragmentation", w.Releases)
	case analyze.FragCacheGrows:
		return fmt.Sprintf("reserved memory grows %s, %s, while allocated memory does not (%s), and cached free memory grows %s over the run to %s: requests of new sizes find no cached block that fits and get new segments; the largest free block is %s of %s free (external fragmentation %.2f)",
			units.Rate(rt.Slope, rt.Per), units.PValue(rt.PValue), at.Status(), units.Bytes(int64(w.CacheGrowth)), units.Bytes(last.Inactive), units.Bytes(last.LargestFree), units.Bytes(last.Inactive), last.External)
	case analyze.FragCacheJumps:
		s := fmt.Sprintf("reserved memory rose %d times by %s in all while live memory did not (%d times while the cache held more free bytes than the largest new segment): requests of new sizes found no cached block that fits (at the end %s cached free, largest block %s, external fragmentation %.2f)",
			w.Rises, units.Bytes(int64(w.Risen)), w.Missed, units.Bytes(last.Inactive), units.Bytes(last.LargestFree), last.External)
		if w.Forced > 0 {
			s += fmt.Sprintf("; it fell %d times near the device's limit (%s for the allocator, where a %s segment no longer fits): the allocator freeing cache to serve requests, not giving it back", w.Forced, units.Bytes(int64(w.Ceiling)), units.Bytes(int64(w.LargestNew)))
		}
		return s
	case analyze.FragMoving:
		return fmt.Sprintf("pinned segments grow %s while reserved and cached free memory do not (%s): live tensors are moving into cached segments, not fragmenting them", units.Bytes(int64(holes.Growth)), rt.Pattern)
	case analyze.FragRemainders:
		return fmt.Sprintf("pinned segments grow %s, but live memory grows as much (%s): the holes are remainders of segments the live tensors occupy, not fragmentation", units.Bytes(int64(holes.Growth)), units.Bytes(int64(w.AllocGrowth)))
	case analyze.FragNotShattered:
		return fmt.Sprintf("cached free memory grows, but it is not shattered (external fragmentation %.2f, %s of reserved in holes of used segments)", last.External, share)
	case analyze.FragWithLive:
		return fmt.Sprintf("reserved memory grows (%s), but with live memory (%s) or without cached free memory growing as much (%s): not fragmentation", rt.Pattern, at.Status(), units.Bytes(int64(w.CacheGrowth)))
	}
	return fmt.Sprintf("no growth of pinned segments or of cached free memory: %s; at the last snapshot %s of reserved memory sits in pinned segments, external fragmentation %.2f",
		TrendReason(holes), share, last.External)
}

// splitExpandable words the free ranges that max_split_size_mb beside
// expandable segments strands (FragSplitExpandable).
func splitExpandable(w *analyze.FragWhy) string {
	return fmt.Sprintf("max_split_size_mb with expandable segments: in a typical snapshot %s of reserved memory (%s at the last) sits in free ranges of at least max_split_size (%s) inside expandable segments, which the allocator never hands to smaller requests (its oversize rule applies to expandable segments too, PyTorch #193400), so it maps new memory at the segments' ends instead",
		units.Percent(w.OversizeShare), units.Bytes(w.Last.OversizeFree), units.Bytes(w.MaxSplitSize))
}

// FragNotes are the remarks under a device's fragmentation chart: churn,
// and the trends of cached free memory and of the holes inside used
// segments.
func FragNotes(d *analyze.Device) []string {
	fr := d.Fragmentation
	if fr == nil {
		return nil
	}
	var out []string
	if fr.SawTooth {
		out = append(out, "Reserved memory repeatedly falls back while allocated is flat (empty_cache or the allocator's garbage collection): churn, not fragmentation.")
	}
	if fr.Trend != nil {
		out = append(out, "Cached free (inactive) trend: "+Trend(fr.Trend)+".")
	}
	if fr.SplitTrend != nil {
		out = append(out, "Free memory inside segments that also hold live blocks (empty_cache cannot return it): "+Trend(fr.SplitTrend)+".")
	}
	return out
}
