package analyze

import (
	"cmp"
	"fmt"
	"slices"

	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// A leak site is the innermost user frame of one or more suspects. A
// suspect's signature holds its filtered stack, so a line of user code
// reached through several call paths (a helper that caches tensors,
// called from many places) gives one suspect per path, each growing at
// its share of the rate. The user fixes the one line, and the device
// fills at the sum: the verdict's headline, its top reason and the
// severity therefore speak of sites. A site's suspects are summed point
// by point and the sum is fitted again with the rules of a suspect.

// LeakSite is a device's unsuppressed suspects at one site, taken
// together.
type LeakSite struct {
	// Site is the innermost user frame as "file:line"; Function its name.
	Site, Function string
	// Suspects are the indices of the site's suspects in Device.Suspects,
	// fastest first: one per call path.
	Suspects []int
	// Accumulating counts the site's other call paths (stack groups that
	// are no suspect) whose live bytes only accumulated: they never fell
	// between periodic snapshots and ended higher. A helper called from
	// many places leaks through paths too sparse to prove one by one.
	Accumulating int
	// Bytes is the live bytes of the suspects and the accumulating paths
	// summed per point of the device series.
	Bytes []int64
	// Trend is the fitted growth of Bytes, bytes per step, hour or
	// snapshot; a lone suspect's own trend.
	Trend Trend
	// Projection is when the device's allocated memory, growing at the
	// site's rate, reaches capacity (nil when capacity is unknown);
	// Severity follows from it as a suspect's does. RanOut replaces the
	// projection as a suspect's does.
	Projection *Projection
	RanOut     *RanOut
	Severity   LeakSeverity
}

// leakSites groups d's unsuppressed suspects by site, fastest site first.
// A site of several suspects gets its summed trend, and each of its
// suspects an evidence line naming the others' total.
func leakSites(d *Device, ac attributionContext) []LeakSite {
	type key struct{ file, site, function string }
	at := map[key]int{}
	var sites []LeakSite
	for i := range d.Suspects {
		sp := &d.Suspects[i]
		if sp.Suppressed != "" {
			continue
		}
		k := key{sp.File, sp.Site, sp.Function}
		j, ok := at[k]
		if !ok {
			j = len(sites)
			at[k] = j
			sites = append(sites, LeakSite{Site: sp.Site, Function: sp.Function, Trend: sp.Trend, Bytes: slices.Clone(sp.Bytes)})
		} else {
			for p := range sites[j].Bytes {
				sites[j].Bytes[p] += sp.Bytes[p]
			}
		}
		sites[j].Suspects = append(sites[j].Suspects, i)
	}
	isSuspect := make([]bool, len(d.Groups))
	for i := range d.Suspects {
		if g := d.Suspects[i].Group; g >= 0 && g < len(isSuspect) {
			isSuspect[g] = true
		}
	}
	for gi := range d.Groups {
		g := &d.Groups[gi]
		j, ok := at[key{g.File, g.Site, g.Function}]
		if isSuspect[gi] || g.Other || g.Kind == SiteNone || !ok || !accumulates(g.Bytes, ac.keep) {
			continue
		}
		for p := range sites[j].Bytes {
			sites[j].Bytes[p] += g.Bytes[p]
		}
		sites[j].Accumulating++
	}
	for j := range sites {
		ls := &sites[j]
		if ls.Paths() < 2 {
			continue
		}
		slices.SortStableFunc(ls.Suspects, func(a, b int) int {
			return cmp.Compare(d.Suspects[b].Trend.Slope, d.Suspects[a].Trend.Slope)
		})
		ls.Trend = siteTrend(ls.Bytes, ac)
		// A path whose live bytes hide what it keeps under transient
		// tensors (nominate.go) makes the sum as noisy: the site then
		// grows at least as fast as its fastest path.
		if fastest := &d.Suspects[ls.Suspects[0]]; ls.Trend.State != StateGrowing && slices.ContainsFunc(ls.Suspects, func(i int) bool {
			return d.Suspects[i].Survival != nil && d.Suspects[i].Survival.Live != nil
		}) {
			ls.Trend = fastest.Trend
		}
		for _, i := range ls.Suspects {
			d.Suspects[i].Evidence = append(d.Suspects[i].Evidence, Evidence{Kind: EvidencePaths})
		}
	}
	slices.SortStableFunc(sites, func(a, b LeakSite) int {
		return cmp.Compare(b.Trend.Slope, a.Trend.Slope)
	})
	return sites
}

// Paths is the number of call paths summed at the site: its suspects and
// its accumulating paths.
func (ls *LeakSite) Paths() int { return len(ls.Suspects) + ls.Accumulating }

// accumulates reports whether live bytes never fell between the
// periodic points keep and ended higher than they began.
func accumulates(bytes []int64, keep []int) bool {
	if len(keep) < 2 {
		return false
	}
	for k := 1; k < len(keep); k++ {
		if bytes[keep[k]] < bytes[keep[k-1]] {
			return false
		}
	}
	return bytes[keep[len(keep)-1]] > bytes[keep[0]]
}

// siteTrend fits a site's summed live bytes by the rules findSuspects
// holds a group to: the device's steady allocated level as the reference,
// and the stricter SuspectAlpha when the sum ever falls.
func siteTrend(bytes []int64, ac attributionContext) Trend {
	all := make([]float64, len(bytes))
	for i, b := range bytes {
		all[i] = float64(b)
	}
	rules := ac.rules
	rules.RefLevel = ac.refLevel
	if y := pick(all, ac.keep); stats.Drops(y, dropTolerance(y)) > 0 {
		rules.Alpha = DefaultSuspectAlpha
	}
	return fitKept("live_bytes", ac.per, ac.x, all, ac.keep, rules)
}

// SiteIndex returns the index in d.LeakSites of the site that holds
// suspect i of d, -1 when none does (a suppressed suspect).
func (d *Device) SiteIndex(i int) int {
	for j := range d.LeakSites {
		if slices.Contains(d.LeakSites[j].Suspects, i) {
			return j
		}
	}
	return -1
}

// SiteOf returns the leak site that holds suspect i of d, nil when none
// does (a suppressed suspect).
func (d *Device) SiteOf(i int) *LeakSite {
	if j := d.SiteIndex(i); j >= 0 {
		return &d.LeakSites[j]
	}
	return nil
}

// siteOrder places suspect i of d in the verdict's order: the slope of
// the site holding it and that site's index in d.LeakSites (the suspect's
// own slope and -1 when no site holds it).
func siteOrder(d *Device, i int) (slope float64, site int) {
	if j := d.SiteIndex(i); j >= 0 {
		return d.LeakSites[j].Trend.Slope, j
	}
	return d.Suspects[i].Trend.Slope, -1
}

// Site returns the leak site that holds the suspect ref points at, nil
// when none does.
func (f *Findings) Site(ref SuspectRef) *LeakSite {
	for _, d := range f.Devices {
		if d.DeviceKey == ref.DeviceKey && ref.Index >= 0 && ref.Index < len(d.Suspects) {
			return d.SiteOf(ref.Index)
		}
	}
	return nil
}

// otherSites counts the distinct sites other than site with unsuppressed
// suspects on any device of f (a site leaking on several ranks counts
// once).
func otherSites(f *Findings, site string) int {
	seen := map[string]bool{site: true}
	for _, d := range f.Devices {
		for _, ls := range d.LeakSites {
			seen[ls.Site] = true
		}
	}
	return len(seen) - 1
}

// leakRate is the summed rate of every leak site of f whose trend is per
// unit per (sites on another axis left out), bytes per step, hour or
// snapshot.
func leakRate(f *Findings, per units.Per) float64 {
	sum := 0.0
	for _, d := range f.Devices {
		for _, ls := range d.LeakSites {
			if ls.Trend.Per == per && ls.Trend.Slope > 0 {
				sum += ls.Trend.Slope
			}
		}
	}
	return sum
}

// Several leak sites whose live block counts rise by the same number at
// every interval between periodic snapshots grow in lockstep: one object
// probably keeps them all alive. The classic case is a loss or an output
// kept with its autograd graph (total_loss += loss instead of
// loss.item()): every step then leaves one activation per layer alive,
// at as many forward-pass lines, and the line to fix is in the training
// loop, not among the allocation sites.

// MinLockstepSites is the fewest sites that count as growing in
// lockstep: two leaks of one tensor per step each agree by chance too
// easily.
const MinLockstepSites = 3

// lockstepSites returns the indices in d.LeakSites of the largest set of
// at least MinLockstepSites sites whose block counts, summed over their
// suspects, rise by the same number at every interval between the
// periodic points keep, and rise in at least half of them; nil when
// there is none.
func lockstepSites(d *Device, keep []int) []int {
	if len(keep) < 3 || len(d.LeakSites) < MinLockstepSites {
		return nil
	}
	by := map[string][]int{}
	var order []string
	for j := range d.LeakSites {
		ls := &d.LeakSites[j]
		deltas := make([]int, len(keep)-1)
		rises := 0
		for k := 1; k < len(keep); k++ {
			for _, i := range ls.Suspects {
				b := d.Suspects[i].Blocks
				deltas[k-1] += b[keep[k]] - b[keep[k-1]]
			}
			if deltas[k-1] > 0 {
				rises++
			}
		}
		if 2*rises < len(deltas) {
			continue
		}
		key := fmt.Sprint(deltas)
		if by[key] == nil {
			order = append(order, key)
		}
		by[key] = append(by[key], j)
	}
	var best []int
	for _, key := range order {
		if g := by[key]; len(g) > len(best) {
			best = g
		}
	}
	if len(best) < MinLockstepSites {
		return nil
	}
	return best
}
