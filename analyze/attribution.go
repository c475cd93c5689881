package analyze

import (
	"cmp"
	"math"
	"slices"

	"gpureport/analyze/frames"
	"gpureport/ingest"
	"gpureport/internal/stats"
	"gpureport/internal/units"
	"gpureport/snapshot"
)

// Leak attribution joins the snapshots of a device series by stack
// signature: in every snapshot the live (active_allocated) bytes are
// summed per signature (groups.go), giving each allocation site a series
// of live bytes over the run. Addresses are never matched across files:
// they differ between runs and are reused within one.
//
// Each group's series is tested with the same trend rules as the device
// (trend.go), with two differences:
//
//   - the reference level for the minimum effect is the device's steady
//     allocated memory, not the group's own (a group growing from nothing
//     has no level of its own);
//   - groups are many, so a group whose live bytes ever fall between
//     snapshots (phase noise, churn) is held to SuspectAlpha (0.1%),
//     while a group that only accumulates (never falls: what a leak
//     looks like) is held to Alpha (1%). Accumulation without a single
//     fall is itself strong evidence: under no trend it is as unlikely as
//     a perfectly sorted sample.
//
// A growing group is a leak suspect. Suspects are ranked by slope. Blocks
// without frames form the "(no stack)" group: it is reported for
// coverage, never as a suspect site.

// MaxGroups bounds Device.Groups: the suspects and then the groups with
// the largest peak are kept, the rest summed into one "(other)" group.
const MaxGroups = 300

// OtherSite is the Site of the group summing the groups beyond MaxGroups.
const OtherSite = "(other)"

// Coverage levels.
const (
	CoverageFull    = "full"
	CoveragePartial = "partial"
	CoverageLow     = "low"
)

// Coverage thresholds: with at least 90% of live bytes carrying frames,
// attribution explains nearly everything; below 50% most memory is
// unexplained and suspects are named from a minority of it.
const (
	coverageFullShare    = 0.9
	coveragePartialShare = 0.5
)

// seriesGroups is the grouping of a whole series before it becomes
// Device.Groups.
type seriesGroups struct {
	groups  []Group
	noStack []int64 // live bytes without frames per point
	liveAll []int64 // all live bytes per point
	// survival follows the blocks over the periodic points (survival.go).
	survival *Survival
}

// groupsAhead is how many files' groups buildGroups finds ahead of its
// sums: enough that neither half waits on the other's uneven files, few
// enough to hold little (a large model's file's groups are 3,000).
const groupsAhead = 4

// buildGroups sums each point's live blocks by signature; trend is the
// series' periodic points (Series.trendIndex).
func buildGroups(s *Series, trend []int, memo *frames.StackMemo[*Signature], version string) *seriesGroups {
	n := len(s.Files)
	sg := &seriesGroups{noStack: make([]int64, n), liveAll: make([]int64, n)}
	// The sums start from the checkpoint of the longest run of first
	// files that has one (groupscache.go); done counts those files.
	gck := newGroupsCheckpoint(s.Files, s.DeviceKey, version)
	sums, done := gck.resume(memo, sg)
	byKey, bySig, order := sums.byKey, sums.bySig, sums.order
	periodic := make([]bool, n)
	trendFiles := make([]*ingest.SnapshotFile, len(trend))
	for k, i := range trend {
		periodic[i] = true
		trendFiles[k] = s.Files[i]
	}
	// The survival fold resumes from the checkpoint of the longest run of
	// first periodic files that has one (survivalcache.go); observed
	// counts the periodic files met.
	ck := newSurvivalCheckpoint(trendFiles, s.DeviceKey, version)
	sv, resumed := ck.resume()
	sg.survival = sv
	// Each file's groups, and the signatures of the blocks the survival
	// fold follows, are found on a goroutine of their own, the only one
	// to read the run's memo, a few files ahead of the fold and the sums
	// below. The two halves take about the same time on a large model's
	// snapshots, where this path was the analysis's longest (2.2 s of
	// 200 snapshots' 2.3, the roles' path done at 1.6-1.9 s); over 60 of
	// them the analysis went from 728-874 to 688-718 ms.
	type found struct {
		gs    map[string]*groupAcc
		cache *signatureCache // frozen for the fold; nil when it skips the file
		// blocks is the file's digest with its segments, for the fold
		blocks *snapshot.Snapshot
	}
	ahead := make(chan found, groupsAhead)
	go func() {
		observed := 0
		for i, f := range s.Files {
			cache := newRunSignatureCache(&f.Snapshot.Stacks, memo)
			// The blocks of a file read without its segments are read
			// again only where the groups' entry or the survival
			// checkpoint leaves them to be read.
			var blocks *snapshot.Snapshot
			var gs map[string]*groupAcc
			if i >= done {
				var ok bool
				if gs, ok = cachedGroups(f, s.DeviceKey, version, cache); !ok {
					blocks = blocksOf(f)
					gs = groupLive(blocks, s.Device, cache)
					cacheGroups(f, s.DeviceKey, version, gs)
				}
			}
			var fold *signatureCache
			if periodic[i] {
				if observed >= resumed {
					if blocks == nil {
						blocks = blocksOf(f)
					}
					cache.freeze(blocks, s.Device)
					fold = cache
				}
				observed++
			}
			ahead <- found{gs, fold, blocks}
		}
		close(ahead)
	}()
	for i := range s.Files {
		fd := <-ahead
		gs := fd.gs
		if fd.cache != nil {
			sv.Observe(fd.blocks, s.Device, fd.cache)
		}
		if i < done {
			continue // summed in the checkpoint
		}
		add := func(a *groupSeries, g *groupAcc) {
			a.bytes[i] = g.bytes
			a.blocks[i] = g.blocks
			if g.bytes > a.peak || a.peakAt < 0 {
				a.peak, a.peakAt, a.at = g.bytes, i, g
			}
			sg.liveAll[i] += g.bytes
			if g.sig.Kind == SiteNone {
				sg.noStack[i] += g.bytes
			}
		}
		// A group seen before is found by its signature's pointer (a
		// run's memo gives one pointer to each stack), by its key only
		// the first time; only the groups new in this snapshot are
		// sorted, to add them in a deterministic order of first
		// appearance. (Sorting every snapshot's thousands of keys and
		// hashing each was most of a re-run's attribution.)
		var fresh []string
		for k, g := range gs {
			a := bySig[g.sig]
			if a == nil {
				if a = byKey[k]; a == nil {
					fresh = append(fresh, k)
					continue
				}
				bySig[g.sig] = a
			}
			add(a, g)
		}
		slices.Sort(fresh)
		for _, k := range fresh {
			g := gs[k]
			a := &groupSeries{sig: *g.sig, bytes: make([]int64, n), blocks: make([]int, n), peakAt: -1,
				firstFile: i, firstStack: g.first}
			byKey[k], bySig[g.sig] = a, a
			order = append(order, k)
			add(a, g)
		}
	}
	ck.save(sv, resumed)
	gck.save(groupSums{byKey: byKey, order: order}, sg, done)
	for _, k := range order {
		a := byKey[k]
		g := Group{Signature: a.sig, Bytes: a.bytes, Blocks: a.blocks}
		if a.peakAt >= 0 {
			if r := a.at; r.rep != snapshot.NoStack {
				g.Stack = s.Files[a.peakAt].Snapshot.Stacks.StackFrames(r.rep)
				g.User = UserMask(g.Stack)
			}
			if r := a.at; r.bytes > 0 && r.private == r.bytes {
				g.Private = true
			}
		}
		sg.groups = append(sg.groups, g)
	}
	return sg
}

// attributionContext carries what the suspect tests need from the device.
type attributionContext struct {
	x        []float64
	keep     []int // the periodic points, which form the trends
	per      units.Per
	refLevel float64 // the device's steady allocated level, bytes
	allocTr  *Trend  // the device's allocated trend
	coverage Coverage
	survival *Survival // the series' blocks followed (survival.go)
	rules    TrendRules
	suppress []Suppression
	builtins bool
}

// findSuspects tests every group and returns the suspects, ranked, and
// the groups capped to MaxGroups with suspect indexes resolved.
func findSuspects(sg *seriesGroups, ac attributionContext) ([]Group, []Suspect, []container) {
	type cand struct {
		g     int
		trend Trend
		surv  *SurvivalEvidence
	}
	var cands []cand
	var later map[int32]bool // the groups keptNominee follows, found once
	var turned []container   // the groups that grow and turn over
	for gi := range sg.groups {
		g := &sg.groups[gi]
		if g.Kind == SiteNone {
			continue
		}
		all := make([]float64, len(g.Bytes))
		for i, b := range g.Bytes {
			all[i] = float64(b)
		}
		// Only the periodic points count: a group that appears in an
		// OOM dump (the failing step's activations) did not grow.
		y := pick(all, ac.keep)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range y {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		// Cheap pre-filter: a group that never changed cannot grow.
		rules := ac.rules
		rules.RefLevel = ac.refLevel
		if !(hi-lo > 0) {
			continue
		}
		if stats.Drops(y, dropTolerance(y)) > 0 {
			rules.Alpha = DefaultSuspectAlpha
		}
		tr := fitKept("live_bytes", ac.per, ac.x, all, ac.keep, rules)
		if tr.State != StateGrowing {
			// What it keeps may grow under its noise (nominate.go).
			if later == nil && sg.survival != nil {
				later = sg.survival.laterBirths()
			}
			if ev := keptNominee(sg.survival, later, g.Key, &tr, ac); ev != nil {
				cands = append(cands, cand{gi, *ev.Kept, ev})
			}
			continue
		}
		// Growing bytes are a leak only if they survive (survival.go):
		// a group that replaces its blocks is a bounded container.
		ev := survivalEvidence(sg.survival.Group(g.Key), &tr, ac)
		if ev.Form == SurvivalTurnedOver {
			turned = append(turned, container{site: g.Site, function: g.Function, slope: tr.Slope, turnover: ev.Turnover})
			continue
		}
		cands = append(cands, cand{gi, tr, ev})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.trend.Slope, a.trend.Slope), cmp.Compare(sg.groups[a.g].Fingerprint, sg.groups[b.g].Fingerprint))
	})

	// Keep suspects first, then the largest groups by peak.
	keep := make([]bool, len(sg.groups))
	for _, c := range cands {
		keep[c.g] = true
	}
	rest := make([]int, 0, len(sg.groups))
	for gi := range sg.groups {
		if !keep[gi] {
			rest = append(rest, gi)
		}
	}
	slices.SortStableFunc(rest, func(a, b int) int {
		return cmp.Or(cmp.Compare(peak(sg.groups[b].Bytes), peak(sg.groups[a].Bytes)), cmp.Compare(sg.groups[a].Fingerprint, sg.groups[b].Fingerprint))
	})
	room := MaxGroups - len(cands)
	var other *Group
	for i, gi := range rest {
		if i < room {
			keep[gi] = true
			continue
		}
		g := &sg.groups[gi]
		if other == nil {
			other = &Group{Signature: finishSignature(Signature{Site: OtherSite, Kind: SiteNone}, "other"), Other: true,
				Bytes: make([]int64, len(g.Bytes)), Blocks: make([]int, len(g.Blocks))}
		}
		for j := range g.Bytes {
			other.Bytes[j] += g.Bytes[j]
			other.Blocks[j] += g.Blocks[j]
		}
	}
	var groups []Group
	newIndex := make([]int, len(sg.groups))
	for gi := range sg.groups {
		newIndex[gi] = -1
		if keep[gi] {
			newIndex[gi] = len(groups)
			groups = append(groups, sg.groups[gi])
		}
	}
	// Largest peak first, for the reports.
	perm := make([]int, len(groups))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		return cmp.Or(cmp.Compare(peak(groups[b].Bytes), peak(groups[a].Bytes)), cmp.Compare(groups[a].Fingerprint, groups[b].Fingerprint))
	})
	sorted := make([]Group, len(groups))
	pos := make([]int, len(groups))
	for i, p := range perm {
		sorted[i] = groups[p]
		pos[p] = i
	}
	if other != nil {
		sorted = append(sorted, *other)
	}

	suspects := make([]Suspect, 0, len(cands))
	for _, c := range cands {
		g := &sg.groups[c.g]
		sp := Suspect{
			Fingerprint: g.Fingerprint, Site: g.Site, Function: g.Function, File: g.File,
			Stack: g.Stack, User: g.User, Group: pos[newIndex[c.g]],
			Bytes: g.Bytes, Blocks: g.Blocks, Trend: c.trend, Share: math.NaN(), Survival: c.surv,
		}
		if ac.allocTr != nil && ac.allocTr.Slope > 0 {
			sp.Share = c.trend.Slope / ac.allocTr.Slope
		}
		sp.Confidence, sp.Evidence = suspectConfidence(&sp, g, ac)
		sp.Suppressed = suppressedBy(g, ac)
		if e := GraphGrowth(g); e != nil && sp.Suppressed == "" {
			sp.Evidence = append(sp.Evidence, *e)
		}
		suspects = append(suspects, sp)
	}
	// Suppressed suspects go after the others, order otherwise kept.
	slices.SortStableFunc(suspects, func(a, b Suspect) int {
		return cmp.Compare(boolInt(a.Suppressed != ""), boolInt(b.Suppressed != ""))
	})
	return sorted, suspects, turned
}

// suppressedBy names the suppression a suspect of group g matches: the
// first user rule, else a built-in pattern unless they are off; "" when
// none.
func suppressedBy(g *Group, ac attributionContext) string {
	if r := matchSuppression(ac.suppress, g.Signature, g.Stack); r != "" {
		return r
	}
	if ac.builtins {
		if b := BuiltinSuppression(g); b != "" {
			return "built-in: " + b
		}
	}
	return ""
}

// suspectConfidence grades a suspect and lists the numbers behind it.
func suspectConfidence(sp *Suspect, g *Group, ac attributionContext) (Confidence, []Evidence) {
	tr := &sp.Trend
	ev := []Evidence{
		{Kind: EvidenceGrowth},
		{Kind: EvidenceShape, Bytes: int64(g.Blocks[tr.FitFrom]), Of: int64(g.Blocks[len(g.Blocks)-1])},
	}
	if tr.FitFrom > 0 {
		ev = append(ev, Evidence{Kind: EvidenceWarmUp})
	}
	if sp.Survival != nil && sp.Survival.Snapshots > 0 {
		ev = append(ev, Evidence{Kind: EvidenceSurvival})
	}
	if !math.IsNaN(sp.Share) {
		ev = append(ev, Evidence{Kind: EvidenceShare})
	}
	if g.Kind != SiteUser {
		ev = append(ev, Evidence{Kind: EvidenceNoUserFrame, SiteKind: g.Kind})
	}
	level := ConfidenceHigh
	switch {
	case ac.coverage.Level == CoverageLow || tr.N < 8 || g.Kind == SiteNative:
		level = ConfidenceLow
	case ac.coverage.Level == CoveragePartial || tr.PValue > 1e-4 || g.Kind != SiteUser:
		level = ConfidenceMedium
	}
	if ac.coverage.Level != CoverageFull {
		ev = append(ev, Evidence{Kind: EvidenceCoverage, Share: stats.Median(ac.coverage.PerPoint)})
	}
	return level, ev
}

func peak(v []int64) int64 {
	var m int64
	for _, b := range v {
		m = max(m, b)
	}
	return m
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// coverageOf summarises stack coverage over a series.
func coverageOf(sg *seriesGroups, files []*ingest.SnapshotFile, dev int) Coverage {
	c := Coverage{MinLiveWithStack: 1}
	for i := range sg.liveAll {
		share := 1.0
		if sg.liveAll[i] > 0 {
			share = 1 - float64(sg.noStack[i])/float64(sg.liveAll[i])
		}
		c.PerPoint = append(c.PerPoint, share)
		c.MinLiveWithStack = math.Min(c.MinLiveWithStack, share)
	}
	if len(c.PerPoint) > 0 {
		c.LiveWithStack = c.PerPoint[len(c.PerPoint)-1]
	}
	// The level follows the typical snapshot (the median share): the
	// first snapshots of a run often hold little besides parameters
	// allocated before recording began.
	typical := stats.Median(c.PerPoint)
	switch {
	case len(c.PerPoint) == 0 || typical >= coverageFullShare:
		c.Level = CoverageFull
	case typical >= coveragePartialShare:
		c.Level = CoveragePartial
	default:
		c.Level = CoverageLow
	}
	for _, f := range files {
		if o, over := TraceOverflow(f.Snapshot, dev); over {
			c.TraceOverflow = true
			c.Overflow = o
			c.Overflow.Path = f.Path
			break
		}
	}
	return c
}

// A leak that fires rarely (a large tensor kept every few hundred steps)
// shows only a few jumps before it exhausts the device, which the trend
// rules can take for one step or a warm-up. An OOM supplies the missing
// evidence: when a device runs out of memory, a stack group that only
// ever accumulated over the periodic snapshots (its live bytes and blocks
// never fell) and whose growth is still significant by itself (the
// one-sided test at Alpha, the slope's 95% interval above 0) is what
// filled the device. Such a group becomes a suspect with the pattern
// "grew until the OOM". When none of the group's blocks ever went away
// between the periodic snapshots (survival.go), what the OOM's dump
// holds of it is what it kept, not the failing step's tensors: the dump
// is then its last observation and joins the test, which a leak that
// ran the device out after four periodic snapshots needs (no four points
// reach p < 1%). A group without that support is not one, however
// large it is in the OOM dump: the dump holds the failing step's
// activations. Then each OOM's cause is decided (blameLeaks).

// oomSuspects adds the groups that grew into an OOM of d to its suspects
// (or adds the evidence to an existing suspect), then decides the OOMs'
// causes.
func oomSuspects(d *Device, ooms []OOM, ac attributionContext) {
	defer blameLeaks(d, ooms)
	for _, o := range ooms {
		if o.Rank != d.Rank || o.Device != d.Device || o.Type != d.Type {
			continue
		}
		at := -1 // the OOM's dump among the points
		for i, p := range d.Points {
			if p.Path == o.Path && p.Phase != "" {
				at = i
			}
		}
		best, bestGrowth := -1, 0.0
		var bestTrend Trend
		for gi := range d.Groups {
			g := &d.Groups[gi]
			if g.Other || g.Kind == SiteNone || len(ac.keep) < 2 {
				continue
			}
			all := make([]float64, len(g.Bytes))
			for i, b := range g.Bytes {
				all[i] = float64(b)
			}
			keep := ac.keep
			if at > keep[len(keep)-1] && ac.survival != nil && ac.survival.kept(g.Key) {
				keep = append(slices.Clone(keep), at)
			}
			y := pick(all, keep)
			first, last := keep[0], keep[len(keep)-1]
			growth := y[len(y)-1] - y[0]
			if stats.Drops(y, 0) > 0 || g.Blocks[last] <= g.Blocks[first] || !(growth > bestGrowth) {
				continue
			}
			rules := ac.rules
			rules.RefLevel = ac.refLevel
			tr := fitKept("live_bytes", ac.per, ac.x, all, keep, rules)
			if !(tr.PValue < rules.Alpha) || !(tr.Lo > 0) || !(tr.Slope > 0) {
				continue
			}
			best, bestGrowth, bestTrend = gi, growth, tr
		}
		if best < 0 {
			continue
		}
		g := &d.Groups[best]
		ev := Evidence{Kind: EvidenceOOM, Path: o.Path, Bytes: o.Requested, Of: o.DeviceFree, Grew: int64(bestGrowth)}
		found := false
		for i := range d.Suspects {
			if d.Suspects[i].Fingerprint == g.Fingerprint {
				d.Suspects[i].Evidence = append(d.Suspects[i].Evidence, ev)
				found = true
			}
		}
		if found {
			continue
		}
		tr := bestTrend
		tr.State, tr.Pattern = StateGrowing, PatternUntilOOM
		tr.Why.UntilOOM = bestGrowth
		sp := Suspect{
			Fingerprint: g.Fingerprint, Site: g.Site, Function: g.Function, File: g.File,
			Stack: g.Stack, User: g.User, Group: best, Bytes: g.Bytes, Blocks: g.Blocks, Trend: tr, Share: math.NaN(),
		}
		sp.Confidence, sp.Evidence = suspectConfidence(&sp, g, ac)
		if sp.Confidence == ConfidenceHigh {
			sp.Confidence = ConfidenceMedium // a few jumps, not a steady trend
		}
		sp.Evidence = append(sp.Evidence, ev)
		sp.Suppressed = suppressedBy(g, ac)
		if e := GraphGrowth(g); e != nil && sp.Suppressed == "" {
			sp.Evidence = append(sp.Evidence, *e)
		}
		// Unsuppressed suspects first, then by slope.
		d.Suspects = append(d.Suspects, sp)
		slices.SortStableFunc(d.Suspects, func(a, b Suspect) int {
			return cmp.Or(cmp.Compare(boolInt(a.Suppressed != ""), boolInt(b.Suppressed != "")), cmp.Compare(b.Trend.Slope, a.Trend.Slope))
		})
	}
}

// A small long-lived tensor carved from the remainder of a large
// temporary's segment keeps the whole segment reserved after the
// temporary is freed: it pins the segment. A run that keeps such tensors
// (a few per curriculum stage, say) grows their stack group slowly while
// reserved memory grows by whole segments: the harm is fragmentation, and
// the group is its cause. On a fragmented device, a suspect whose live
// bytes sit mostly (PinningShare) in pinned large-pool segments (live
// bytes at most PinnedLiveShare of the segment) is therefore reported as
// the fragmentation's cause and does not make the verdict a leak.

// PinningShare is the share of a suspect's live bytes in pinned segments
// at which it is taken for the cause of fragmentation.
const PinningShare = 0.5

// pinnedBySignature sums, per signature key, the live bytes of device
// dev's pinned segments in snapshot s.
func pinnedBySignature(s *snapshot.Snapshot, dev int) map[string]int64 {
	cache := newSignatureCache(&s.Stacks)
	out := map[string]int64{}
	for i := range s.Segments {
		seg := s.Segments[i]
		if seg.Device != dev || seg.Pool == snapshot.PoolSmall {
			continue
		}
		var live int64
		for j := range seg.Blocks {
			if seg.Blocks[j].State == snapshot.StateActiveAllocated {
				live += seg.Blocks[j].Size
			}
		}
		if live == 0 || float64(live) > PinnedLiveShare*float64(seg.TotalSize) {
			continue
		}
		for j := range seg.Blocks {
			if b := &seg.Blocks[j]; b.State == snapshot.StateActiveAllocated {
				out[cache.get(b.Stack).Key] += b.Size
			}
		}
	}
	return out
}

// markPinningSuspects marks the suspects of a fragmented device that pin
// its segments, and names them in the fragmentation reason.
func markPinningSuspects(d *Device, last *ingest.SnapshotFile) {
	pinned := pinnedBySignature(last.Snapshot, d.Device)
	changed := false
	for i := range d.Suspects {
		sp := &d.Suspects[i]
		if sp.Suppressed != "" || len(sp.Bytes) == 0 {
			continue
		}
		key := d.Groups[sp.Group].Key
		lastBytes := sp.Bytes[len(sp.Bytes)-1]
		if lastBytes <= 0 || float64(pinned[key]) < PinningShare*float64(lastBytes) {
			continue
		}
		sp.Suppressed = "built-in: pins fragmented segments (the fragmentation's cause, not a leak)"
		sp.Evidence = append(sp.Evidence, Evidence{Kind: EvidencePinning, Bytes: pinned[key], Of: lastBytes})
		if d.Fragmentation != nil {
			d.Fragmentation.Why.PinnedBy = append(d.Fragmentation.Why.PinnedBy, SiteRef{sp.Site, sp.Function})
		}
		changed = true
	}
	if changed {
		slices.SortStableFunc(d.Suspects, func(a, b Suspect) int {
			return cmp.Compare(boolInt(a.Suppressed != ""), boolInt(b.Suppressed != ""))
		})
	}
}

// pinnedByLeak reports whether most of the live bytes that pin device
// d's segments at the last snapshot belong to its unsuppressed leak
// suspects (leaked tensors carved from cached segments keep them
// reserved): then the fragmentation is the leak's side effect, reported
// with the leak rather than as fragmentation of its own. It returns the
// share and the suspect holding the most.
func pinnedByLeak(d *Device, last *ingest.SnapshotFile) (float64, *Suspect) {
	pinned := pinnedBySignature(last.Snapshot, d.Device)
	var total, byLeak, best int64
	var top *Suspect
	for _, b := range pinned {
		total += b
	}
	for i := range d.Suspects {
		sp := &d.Suspects[i]
		if sp.Suppressed != "" {
			continue
		}
		b := pinned[d.Groups[sp.Group].Key]
		byLeak += b
		if b > best {
			best, top = b, sp
		}
	}
	if total == 0 {
		return 0, nil
	}
	return float64(byLeak) / float64(total), top
}
