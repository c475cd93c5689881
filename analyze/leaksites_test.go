package analyze

import (
	"fmt"
	"slices"
	"testing"

	"gpureport/input"
	"gpureport/internal/units"
)

// TestLeakSites: a leak at one line reached through several call paths
// is one suspect per path but one site, leaking at their sum; the
// headline, the top reason, the severity and the verdict's order speak
// of the site. A second, slower site is counted in the headline.
func TestLeakSites(t *testing.T) {
	// 24 MiB per snapshot at train.py:57 in 4 MiB blocks, snapshots 100
	// steps apart; 2 MiB per snapshot at metrics.py:41.
	want := float64(24*mib) / 100
	for _, tc := range []struct {
		callers int
		paths   string // what the headline says of them
	}{
		{callers: 1, paths: ""},
		{callers: 3, paths: " through 3 call paths"},
	} {
		spec := synthSpec{n: 16, seed: 4, leakPerSnap: 24 * mib, leakCallers: tc.callers, leak2PerSnap: 2 * mib, rank: input.NoRank}
		f := Analyze(spec.run(), Options{})
		d := f.Devices[0]
		if len(d.LeakSites) != 2 || d.LeakSites[0].Site != "train.py:57" || d.LeakSites[1].Site != "metrics.py:41" {
			t.Fatalf("callers %d: sites %+v", tc.callers, d.LeakSites)
		}
		ls := &d.LeakSites[0]
		n := max(1, tc.callers)
		if len(ls.Suspects) != n {
			t.Fatalf("callers %d: site holds suspects %v", tc.callers, ls.Suspects)
		}
		tr := ls.Trend
		if tr.Slope < want*0.99 || tr.Slope > want*1.01 || !(tr.Lo <= want && want <= tr.Hi) {
			t.Errorf("callers %d: site slope %v [%v, %v], want %v", tc.callers, tr.Slope, tr.Lo, tr.Hi, want)
		}
		if ls.Projection == nil || ls.Severity == "" {
			t.Fatalf("callers %d: site projection %+v severity %q", tc.callers, ls.Projection, ls.Severity)
		}
		for _, i := range ls.Suspects {
			sp := &d.Suspects[i]
			if n > 1 && !(sp.Trend.Slope < want*0.4) {
				t.Errorf("callers %d: a path's slope %v, want about a third of %v", tc.callers, sp.Trend.Slope, want)
			}
			if n > 1 && !(sp.Projection.Remaining > 2*ls.Projection.Remaining) {
				t.Errorf("callers %d: a path fills the device in %v, the site in %v: the site must be about 3× sooner", tc.callers, sp.Projection.Remaining, ls.Projection.Remaining)
			}
			if has := hasEvidence(sp, EvidencePaths); has != (n > 1) {
				t.Errorf("callers %d: evidence %+v, want a call paths line: %v", tc.callers, sp.Evidence, n > 1)
			}
		}
		all := tr.Slope + d.LeakSites[1].Trend.Slope
		if v := f.Verdict; v.OtherSites != 1 || v.SitesRate != all {
			t.Errorf("callers %d: headline's other sites %d at %v in all, want 1 at %v", tc.callers, v.OtherSites, v.SitesRate, all)
		}
		if r := f.Verdict.Reasons[0]; r.Kind != ReasonLeak || r.Device != d.DeviceKey || d.LeakSites[0].Site != "train.py:57" {
			t.Errorf("callers %d: first reason %+v, top site %q; want the leak at train.py:57", tc.callers, r, d.LeakSites[0].Site)
		}
		// The site's paths come first in the verdict, together.
		if len(f.Verdict.Suspects) != n+1 {
			t.Fatalf("callers %d: verdict suspects %v", tc.callers, f.Verdict.Suspects)
		}
		for k, ref := range f.Verdict.Suspects {
			if got := f.Site(ref); got == nil || (got == ls) != (k < n) {
				t.Errorf("callers %d: verdict suspect %d is at %v", tc.callers, k, got)
			}
		}
	}
}

// TestLeakSiteSumsAccumulatingPaths: the paths of a leak site that are
// no suspect are summed in when their live bytes only accumulate, and
// left out when they fall (churn) or end where they began; groups at
// other sites never are.
func TestLeakSiteSumsAccumulatingPaths(t *testing.T) {
	const n = 12
	series := func(f func(i int) int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	site := Signature{Site: "cache.py:44", Function: "remember", File: "/home/alice/proj/cache.py", Kind: SiteUser}
	other := Signature{Site: "data.py:40", Function: "prefetch", File: "/home/alice/proj/data.py", Kind: SiteUser}
	d := &Device{Groups: []Group{
		{Signature: site, Bytes: series(func(i int) int64 { return int64(i) * 4 * mib })},    // the suspect
		{Signature: site, Bytes: series(func(i int) int64 { return int64(i/4) * 4 * mib })},  // sparse, only accumulates
		{Signature: site, Bytes: series(func(i int) int64 { return int64(i%2) * 64 * mib })}, // churn
		{Signature: site, Bytes: series(func(i int) int64 { return 8 * mib })},               // flat
		{Signature: other, Bytes: series(func(i int) int64 { return int64(i/3) * 2 * mib })}, // another site
	}}
	x := make([]float64, n)
	keep := make([]int, n)
	for i := range x {
		x[i], keep[i] = float64(100*(i+1)), i
	}
	ac := attributionContext{x: x, keep: keep, per: units.PerStep, refLevel: float64(4 * gib), rules: DefaultTrendRules()}
	g := d.Groups[0]
	d.Suspects = []Suspect{{Fingerprint: "aaaaaaaaaaaa", Site: g.Site, Function: g.Function, File: g.File, Group: 0, Bytes: g.Bytes,
		Trend: siteTrend(g.Bytes, ac)}}

	sites := leakSites(d, ac)
	if len(sites) != 1 {
		t.Fatalf("sites %+v", sites)
	}
	ls := sites[0]
	want := series(func(i int) int64 { return int64(i)*4*mib + int64(i/4)*4*mib })
	if ls.Accumulating != 1 || ls.Paths() != 2 || !slices.Equal(ls.Bytes, want) {
		t.Errorf("site: %d accumulating paths, bytes %v; want 1 and %v", ls.Accumulating, ls.Bytes, want)
	}
	if !hasEvidence(&d.Suspects[0], EvidencePaths) || ls.Site != "cache.py:44" || len(ls.Suspects) != 1 || d.Suspects[ls.Suspects[0]].Fingerprint != "aaaaaaaaaaaa" {
		t.Errorf("evidence %+v, site %q of suspects %v: want the call paths to cache.py:44 of suspect aaaaaaaaaaaa", d.Suspects[0].Evidence, ls.Site, ls.Suspects)
	}
	if !(ls.Trend.Slope > d.Suspects[0].Trend.Slope) {
		t.Errorf("site slope %v, the suspect's %v: the sparse path adds to it", ls.Trend.Slope, d.Suspects[0].Trend.Slope)
	}
}

// TestLockstepSites: sites whose block counts rise by the same number at
// every interval grow in lockstep (one object holding them all, such as a
// loss kept with its graph); two such sites, sites at different paces,
// or sites that rarely rise do not.
func TestLockstepSites(t *testing.T) {
	keep := []int{0, 1, 2, 3, 4, 5}
	device := func(blocks ...func(i int) int) *Device {
		d := &Device{}
		for j, f := range blocks {
			b := make([]int, len(keep))
			for i := range b {
				b[i] = f(i)
			}
			d.Suspects = append(d.Suspects, Suspect{Blocks: b})
			d.LeakSites = append(d.LeakSites, LeakSite{Site: fmt.Sprintf("model.py:%d", 80+j), Suspects: []int{j}})
		}
		return d
	}
	perStep := func(n int) func(int) int { return func(i int) int { return n * i } }
	rare := func(i int) int { return i / 4 }
	tests := []struct {
		name string
		d    *Device
		want int
	}{
		{"four sites, one block each per interval", device(perStep(1), perStep(1), perStep(1), perStep(1)), 4},
		{"three in lockstep, one faster", device(perStep(1), perStep(2), perStep(1), perStep(1)), 3},
		{"two in lockstep", device(perStep(1), perStep(1), perStep(2)), 0},
		{"three paces", device(perStep(1), perStep(2), perStep(3)), 0},
		{"three that rise once", device(rare, rare, rare), 0},
	}
	for _, tt := range tests {
		if got := lockstepSites(tt.d, keep); len(got) != tt.want {
			t.Errorf("%s: lockstep %v, want %d sites", tt.name, got, tt.want)
		}
	}
}
