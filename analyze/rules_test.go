package analyze

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/units"
	"gpureport/snapshot"
)

// TestTrendStates covers issue 12's failure class 2 and docs/design.md's four
// trend states, one case per shape.
func TestTrendStates(t *testing.T) {
	line := func(n int, base, slope float64, noise []float64) []float64 {
		y := make([]float64, n)
		for i := range y {
			y[i] = base + slope*float64(i)
			if len(noise) > 0 {
				y[i] += noise[i%len(noise)]
			}
		}
		return y
	}
	steps := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i)
		}
		return x
	}
	tests := []struct {
		name     string
		x, y     []float64
		state    TrendState
		moreThan int // MoreNeeded must exceed this (−1: not checked)
	}{
		// +368,640 B per snapshot, perfectly linear over 21 snapshots:
		// under 1% of the 40 GiB level, but certain.
		{"small certain growth", steps(21), line(21, 40*float64(gib), 368640, nil), StateGrowing, -1},
		// +830 KB per step over 5 snapshots with a few KB of noise:
		// Mann-Kendall's normal p is 0.027, the exact one 1/120.
		{"five rising points", steps(5), line(5, 20*float64(gib), 830e3, []float64{0, 9e3, -7e3, 4e3, -2e3}), StateGrowing, -1},
		{"flat noise", steps(20), line(20, 8*float64(gib), 0, []float64{3e6, -5e6, 1e6, 4e6, -2e6, 0, -4e6}), StateFlat, -1},
		{"one step", steps(12), line(12, 8*float64(gib), 0, []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), StateFlat, -1},
		// A rise seen in noisy points, not yet established.
		{"thin growth", steps(8), line(8, float64(gib), 3e6, []float64{0, -6e6, 6e6, -6e6, 6e6, -6e6, 6e6, 0}), StateInconclusive, 0},
		// The same noise at a level where even the interval's upper end
		// is under 1% of it: evidence of no growth that matters.
		{"thin growth, negligible", steps(8), line(8, 8*float64(gib), 3e6, []float64{0, -6e6, 6e6, -6e6, 6e6, -6e6, 6e6, 0}), StateFlat, -1},
		{"three points", steps(3), line(3, 8*float64(gib), 1e6, nil), StateInsufficient, 1},
	}
	// A staircase of leaked tensors: ties pin Theil-Sen, the fallback
	// must still give an interval around its estimate, above 0.
	stairs := make([]float64, 15)
	for i := range stairs {
		stairs[i] = 6*float64(gib) + float64(i/3)*float64(100*mib)
	}
	tests = append(tests, struct {
		name     string
		x, y     []float64
		state    TrendState
		moreThan int
	}{"staircase", steps(15), stairs, StateGrowing, -1})
	for _, tt := range tests {
		tr := FitTrend(MetricAllocated, "step", tt.x, tt.y, DefaultTrendRules())
		if tr.State != tt.state {
			t.Errorf("%s: state %q (%s), want %q", tt.name, tr.State, tr.Why.Rule, tt.state)
			continue
		}
		if tt.moreThan >= 0 && tr.MoreNeeded <= tt.moreThan {
			t.Errorf("%s: MoreNeeded %d, want > %d (%s)", tt.name, tr.MoreNeeded, tt.moreThan, tr.Why.Rule)
		}
		if tt.state == StateInconclusive && tr.Why.Rule != RuleThin {
			t.Errorf("%s: rule %q, want %q, which says what would decide it", tt.name, tr.Why.Rule, RuleThin)
		}
		checkInterval(t, tt.name, &tr)
	}
}

// checkInterval asserts the interval rules every trend obeys: an estimate
// inside its own interval, and a growing trend's interval above 0.
func checkInterval(t *testing.T, what string, tr *Trend) {
	t.Helper()
	if tr.State == StateInsufficient || math.IsNaN(tr.Slope) {
		return
	}
	if !(tr.Lo <= tr.Slope && tr.Slope <= tr.Hi) {
		t.Errorf("%s: estimate %g outside its interval [%g, %g] (%s)", what, tr.Slope, tr.Lo, tr.Hi, tr.Method)
	}
	if tr.State == StateGrowing && !(tr.Lo > 0) {
		t.Errorf("%s: growing with interval [%g, %g] reaching 0", what, tr.Lo, tr.Hi)
	}
}

// oomRun builds a run of periodic snapshots (a 4 GiB model, a 2 GiB free
// cache segment) plus, when dump is set, an OOM dump: a snapshot taken
// mid-step whose trace ends at an OOM for req bytes with deviceFree bytes
// free. leak bytes are kept per snapshot at train.py:57; activations of
// the failing step (model.py:181) appear only in the dump; holes adds a
// segment with that many cached free bytes in holes between live blocks
// (largest hole holes/4).
func oomRun(n int, leak, req, deviceFree, holes int64, dump bool) *ingest.Run {
	var files []*ingest.SnapshotFile
	leakAt := stackAt("train.py", 57, "train_step")
	for i := range n + 1 {
		if i == n && !dump {
			break
		}
		b := newSnap()
		b.segment(0, live(4*gib, stackAt("model.py", 20, "__init__")))
		b.segment(0, free(2*gib))
		if leak > 0 && i > 0 {
			b.segment(0, live(int64(i)*leak, leakAt))
		}
		if holes > 0 {
			q := holes / 4
			b.segment(0, live(mib, stackAt("data.py", 9, "load")), free(q), live(mib, stackAt("data.py", 9, "load")), free(q),
				live(mib, stackAt("data.py", 9, "load")), free(q), live(mib, stackAt("data.py", 9, "load")), free(q))
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		step := int64(100 * (i + 1))
		path := fmt.Sprintf("snapshot_step_%06d.pickle", step)
		if i == n {
			b.segment(0, live(3*gib, stackAt("model.py", 181, "update_nodes")))
			b.event(0, snapshot.ActionAlloc, 0x10, 3*gib, at.UnixMicro()-10, stackAt("model.py", 181, "update_nodes"))
			b.event(0, snapshot.ActionOOM, uint64(deviceFree), req, at.UnixMicro(), stackAt("model.py", 181, "update_nodes"))
			path = fmt.Sprintf("oom_dump_step_%06d.pickle", step-50)
			step -= 50
		} else {
			b.event(0, snapshot.ActionSnapshot, 0, 0, at.UnixMicro(), nil)
		}
		files = append(files, file(b.done(), path, step, input.NoRank))
	}
	return &ingest.Run{Dir: "oom", Location: time.UTC, Snapshots: files}
}

// TestOOMRules covers issue 12's failure classes 1 and 5: a group seen
// only in the OOM dump is no leak, and leak-driven OOMs are leak OOMs
// even with cached free memory; docs/design.md's order decides the rest.
func TestOOMRules(t *testing.T) {
	tests := []struct {
		name    string
		run     *ingest.Run
		class   OOMCause
		leak    bool
		earlier bool
		// capacity is the device's memory, 80 GiB when 0. A capacity
		// OOM's device is about what the process holds (9 GiB reserved)
		// plus what was free and a CUDA context: on an 80 GiB device
		// 70 GiB would be outside the process (oomothers.go).
		capacity int64
	}{
		// Class 1: 0 B for 31 snapshots, then the failing step's
		// activations in a mid-step dump.
		{"activations only in the dump", oomRun(31, 0, 4*gib, 100*mib, 0, true), "capacity", false, false, 10 * gib},
		// Class 5: a leak filled the device; cached holes at the end do
		// not make it a fragmentation OOM.
		{"leak with cached holes", oomRun(20, 200*mib, 2*gib, 300*mib, 3*gib, true), "leak", true, true, 0},
		{"holes and no leak", oomRun(20, 0, 2*gib, 300*mib, 3*gib, true), "fragmentation", false, false, 0},
		{"no room at all", oomRun(20, 0, 8*gib, 300*mib, 0, true), "capacity", false, false, 10 * gib},
		// The same OOM on an 80 GiB device: 70 GiB outside the process
		// that no input accounts for.
		{"no room, outside memory", oomRun(20, 0, 8*gib, 300*mib, 0, true), "capacity", false, false, 0},
		// Issue 28 class 9: the device had more free than the request: a
		// limit OOM, decided before the leak the run also has.
		{"free beyond the request", oomRun(20, 200*mib, 2*gib, 3*gib, 3*gib, true), "limit", true, false, 0},
		// Free beyond the 5 MiB block but short of the 20 MiB segment the
		// allocator asks the driver for: no limit.
		{"free short of the segment", oomRun(20, 0, 5*mib, 10*mib, 0, true), "fragmentation", false, false, 0},
	}
	for _, tt := range tests {
		f := Analyze(tt.run, Options{Capacity: cmp.Or(tt.capacity, 80*gib)})
		CheckProse(t, t.Name(), f)
		if len(f.OOMs) != 1 {
			t.Errorf("%s: %d OOMs, want 1", tt.name, len(f.OOMs))
			continue
		}
		o := f.OOMs[0]
		if tt.name == "no room, outside memory" && (o.Outside < 70*gib || !slices.ContainsFunc(o.Recommendations, func(r Recommendation) bool { return r.Kind == StepOutsideFind })) {
			t.Errorf("%s: outside %s, recommendations %+v: want about 70 GiB outside the process, and to find it", tt.name, units.Bytes(o.Outside), o.Recommendations)
		}
		if o.Cause != tt.class || f.Verdict.Leak != tt.leak || (o.Earlier > 0) != tt.earlier {
			t.Errorf("%s: class %q leak %v earlier %g, want %q %v %v\n%+v", tt.name, o.Cause, f.Verdict.Leak, o.Earlier, tt.class, tt.leak, tt.earlier, f.Verdict.Reasons)
		}
		d := f.Devices[0]
		last := d.Points[len(d.Points)-1]
		if last.Phase == "" {
			t.Errorf("%s: the OOM dump %s is a trend point", tt.name, last.Path)
		}
		if n := d.Trends[0].N; n >= len(d.Points) {
			t.Errorf("%s: allocated trend fitted on %d of %d points: the dump was included", tt.name, n, len(d.Points))
		}
		for i := range d.Suspects {
			checkInterval(t, tt.name+" suspect "+d.Suspects[i].Site, &d.Suspects[i].Trend)
		}
		if tt.class == "leak" {
			if o.LeakSite != "train.py:57" || !(o.Earlier > 0) || len(o.Recommendations) != 1 || o.Recommendations[0].Kind != StepFixLeak {
				t.Errorf("%s: leak site %q, earlier %g, recommendations %+v: want train.py:57 to fix, and how much earlier it would have fit", tt.name, o.LeakSite, o.Earlier, o.Recommendations)
			}
			// 2 GiB requested, 300 MiB free: 1.71 GiB missing at 200 MiB
			// per 100 steps is about 875 steps.
			if want := float64(o.Missing) / (float64(200*mib) / 100); math.Abs(o.Earlier-want) > 0.05*want {
				t.Errorf("%s: earlier %g steps, want about %g", tt.name, o.Earlier, want)
			}
		}
		for _, b := range []int64{o.Requested, o.DeviceFree, o.Reserved, o.Allocated, o.CachedFree, o.LargestFree, o.Missing, o.LeakedBytes, o.FreedAfter} {
			if b < 0 {
				t.Errorf("%s: negative amount in %+v", tt.name, o)
				break
			}
		}
		e := explain(t, &o)
		if negativeAmount.MatchString(e) {
			t.Errorf("%s: negative amount in %s", tt.name, e)
		}
		// Issue 28 point 11: the shortfall the explanation states is
		// summary.json's missing_bytes.
		if want := "lacked " + units.Bytes(o.Missing); (tt.class == "capacity" || tt.class == "leak") && !strings.Contains(e, want) {
			t.Errorf("%s: explanation does not state the %s missing: %s", tt.name, units.Bytes(o.Missing), e)
		}
	}
}

// fragRun builds snapshots whose live memory is flat while reserved
// memory grows: shaped requests leave cached segments no later request
// fits (variable batch shapes). With sawTooth the cache is instead given
// back every third snapshot (empty_cache).
func fragRun(n int, sawTooth bool) *ingest.Run {
	cached := make([]int, n)
	for i := range cached {
		cached[i] = i / 2 // a new cached segment every other snapshot
		if sawTooth {
			cached[i] = i % 3
		}
	}
	return cachedRun(func(j int) int64 { return int64(300+37*j) * mib }, cached)
}

// cacheRun builds snapshots with cached[i] wholly free segments of seg
// bytes each in snapshot i (cachedRun).
func cacheRun(seg int64, cached ...int) *ingest.Run {
	return cachedRun(func(int) int64 { return seg }, cached)
}

// cachedRun builds snapshots with 4 GiB of live memory in one segment and
// cached[i] wholly free segments in snapshot i, the j-th of size(j)
// bytes. Segments keep their addresses from one snapshot to the next (the
// first k are the same segments), as the allocator's do.
func cachedRun(size func(j int) int64, cached []int) *ingest.Run {
	var files []*ingest.SnapshotFile
	for i, k := range cached {
		b := newSnap()
		b.segment(0, live(4*gib, stackAt("model.py", 20, "__init__")))
		for j := range k {
			b.segment(0, free(size(j)))
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		b.event(0, snapshot.ActionSnapshot, 0, 0, at.UnixMicro(), nil)
		step := int64(100 * (i + 1))
		files = append(files, file(b.done(), fmt.Sprintf("snapshot_step_%06d.pickle", step), step, input.NoRank))
	}
	return &ingest.Run{Dir: "cache", Location: time.UTC, Snapshots: files}
}

// TestFragmentationRules covers issue 12's failure classes 3 and 4, and
// the cache that fills the device.
func TestFragmentationRules(t *testing.T) {
	// Reserved memory climbs to the device's memory at flat live memory,
	// then the allocator frees one cached segment and takes one again,
	// over and over: with 15.5 GiB of device memory, where the next
	// 1 GiB segment no longer fits, that is the cache not fitting
	// the requests; at 80 GiB the falls are releases (the cache settling).
	toCeiling := cacheRun(gib, 2, 6, 9, 11, 10, 11, 10, 11, 10, 11, 10, 11)
	tests := []struct {
		name     string
		run      *ingest.Run
		capacity int64
		want     bool
	}{
		{"reserved grows at flat live memory", fragRun(20, false), 0, true},
		{"empty_cache saw-tooth", fragRun(20, true), 0, false},
		// Each rise is several new 300 MiB segments, more in all than
		// the cache held free, but each fits what it held.
		{"rises of several segments, each smaller than the cached free memory", cacheRun(300*mib, 1, 1, 4, 4, 13, 13, 13, 13, 13, 13), 0, true},
		{"the same rises on a 40 GiB device", cacheRun(300*mib, 1, 1, 4, 4, 13, 13, 13, 13, 13, 13), 40 * gib, true},
		// 600 MiB of jumps: 14% of the first reserved level, but under
		// 3% of an 80 GiB device (the cache settling); with the device
		// unknown only the first counts.
		{"small rises on a large device", cacheRun(300*mib, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3), 80 * gib, false},
		{"small rises, device memory unknown", cacheRun(300*mib, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3), 0, true},
		{"cache filling the device, cut back at its ceiling", toCeiling, 15*gib + 512*mib, true},
		{"the same falls far below the device's memory", toCeiling, 80 * gib, false},
		{"the same falls, device memory unknown", toCeiling, 0, false},
	}
	for _, tt := range tests {
		f := Analyze(tt.run, Options{Capacity: tt.capacity})
		CheckProse(t, t.Name(), f)
		w := f.Devices[0].Fragmentation.Why
		if f.Verdict.Fragmentation != tt.want || f.Verdict.Leak {
			t.Errorf("%s: fragmentation %v leak %v, want %v false: %+v", tt.name, f.Verdict.Fragmentation, f.Verdict.Leak, tt.want, w)
		}
		// The reason says why falls did not count as releases.
		forced := w.Rule == FragCacheJumps && w.Forced > 0 && w.Ceiling > 0
		if want := tt.run == toCeiling && tt.want; forced != want {
			t.Errorf("%s: falls forced at the device's limit: %v, want %v: %+v", tt.name, forced, want, w)
		}
	}
}

// TestLogsOnlyVerdicts covers issue 13 item 3: too little evidence is
// "info: not enough data", growing used memory without snapshots a
// warning.
func TestLogsOnlyVerdicts(t *testing.T) {
	logOf := func(used []int64) *gpulog.GPULog {
		l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
		for i, u := range used {
			l.Samples = append(l.Samples, gpulog.GPUSample{Time: t0.Add(time.Duration(i) * time.Minute), GPU: 0, MemoryUsed: u,
				MemoryTotal: 94 * gib, MemoryFree: gpulog.Unknown, MemoryReserved: gpulog.Unknown})
		}
		return l
	}
	climb := make([]int64, 60)
	for i := range climb {
		climb[i] = int64(i) * 1500 * mib
	}
	tests := []struct {
		name      string
		severity  Severity
		grows     bool
		undecided bool
		status    Status
		used      []int64
	}{
		{"one reading", "info", false, true, StatusInsufficient, []int64{10 * gib}},
		{"climbs to 88 GiB", "warning", true, false, StatusGrowing, climb},
	}
	for _, tt := range tests {
		f := Analyze(&ingest.Run{Dir: "logs", Location: time.UTC, Logs: []*gpulog.GPULog{logOf(tt.used)}}, Options{})
		v := f.Verdict
		if v.Severity != tt.severity || v.MemoryGrows != tt.grows || (len(v.Undecided) > 0) != tt.undecided {
			t.Errorf("%s: %s, memory grows %v, undecided %v; want %s %v %v", tt.name, v.Severity, v.MemoryGrows, v.Undecided, tt.severity, tt.grows, tt.undecided)
		}
		// The device's own status says what the verdict says of it.
		if d := f.Devices[0]; d.Status != tt.status || d.PrimaryMetric != MetricGPUUsed && tt.grows {
			t.Errorf("%s: device status %q of %q, want %q of %s", tt.name, d.Status, d.PrimaryMetric, tt.status, MetricGPUUsed)
		}
	}
}

// TestLeakSeverityFromTimeToCapacity: a small certain leak is a leak with
// low severity; one that fills the device within the horizon is critical.
func TestLeakSeverityFromTimeToCapacity(t *testing.T) {
	tests := []struct {
		name     string
		perSnap  int64
		severity Severity
		suspect  LeakSeverity
	}{
		{"small certain leak", 2 * mib, "warning", SeverityLow},
		{"fills the device today", 2 * gib, "critical", SeverityHigh},
	}
	for _, tt := range tests {
		f := Analyze(oomRun(20, tt.perSnap, 0, 0, 0, false), Options{Capacity: 80 * gib})
		if !f.Verdict.Leak || f.Verdict.Severity != tt.severity || len(f.Verdict.Suspects) == 0 {
			t.Errorf("%s: leak %v severity %s, want true %s (%v)", tt.name, f.Verdict.Leak, f.Verdict.Severity, tt.severity, f.Verdict.Reasons)
			continue
		}
		sp := f.Suspect(f.Verdict.Suspects[0])
		if sp.Severity != tt.suspect || sp.Projection == nil {
			t.Errorf("%s: suspect severity %q projection %v, want %q", tt.name, sp.Severity, sp.Projection, tt.suspect)
		}
		if d := f.Devices[0]; d.Status != StatusLeak {
			t.Errorf("%s: device verdict %q beside a leak headline", tt.name, d.Status)
		}
	}
}

// TestLargestNewSegment: a segment is new when its address is new, or
// when an old address comes back with another size (the driver reuses
// freed addresses); an expandable segment grows in place.
func TestLargestNewSegment(t *testing.T) {
	seg := func(addr uint64, size int64, expandable bool) *snapshot.Segment {
		return &snapshot.Segment{Address: addr, TotalSize: size, Expandable: expandable}
	}
	snap := func(segs ...*snapshot.Segment) *snapshot.Snapshot { return &snapshot.Snapshot{Segments: segs} }
	prev := snap(seg(0x1000, gib, false), seg(0x2000, 2*gib, true))
	tests := []struct {
		name string
		cur  *snapshot.Snapshot
		want int64
	}{
		{"nothing changed", snap(seg(0x1000, gib, false), seg(0x2000, 2*gib, true)), 0},
		{"a segment at a new address", snap(seg(0x1000, gib, false), seg(0x2000, 2*gib, true), seg(0x9000, 300*mib, false)), 300 * mib},
		{"an old address with another size", snap(seg(0x1000, 512*mib, false), seg(0x2000, 2*gib, true)), 512 * mib},
		{"an expandable segment grown in place", snap(seg(0x1000, gib, false), seg(0x2000, 3*gib, true)), gib},
	}
	sizes := map[uint64]int64{} // one map for every case, as a series passes it
	for _, tt := range tests {
		if got := largestNewSegment(sizes, prev, tt.cur, 0); got != tt.want {
			t.Errorf("%s: %d bytes, want %d", tt.name, got, tt.want)
		}
	}
}

// TestLargestNewSegmentMerged holds the merge of two address-ordered
// segment lists to the map that serves any two lists, on random pairs:
// segments of two devices interleaved, kept, dropped, added, resized,
// expandable ones grown, private pools; and, out of order or with an
// address listed twice, largestNewSegment must take the map.
func TestLargestNewSegmentMerged(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	sizes := map[uint64]int64{}
	seg := func(dev int, addr uint64) *snapshot.Segment {
		sg := &snapshot.Segment{Device: dev, Address: addr, TotalSize: int64(1+rng.IntN(8)) * 2 * mib, Expandable: rng.IntN(5) == 0}
		if rng.IntN(10) == 0 {
			sg.PrivatePool = [2]int64{1, 2}
		}
		return sg
	}
	merged, mapped := 0, 0
	for round := range 2000 {
		var prev, cur snapshot.Snapshot
		for a := uint64(1); a < uint64(2+rng.IntN(60)); a++ {
			dev := rng.IntN(2)
			addr := a << 21
			in := rng.IntN(4)
			if in != 1 { // in both, or in prev alone
				prev.Segments = append(prev.Segments, seg(dev, addr))
			}
			switch {
			case in == 0 && rng.IntN(3) == 0: // resized, or grown in place
				c := *prev.Segments[len(prev.Segments)-1]
				c.TotalSize += int64(1+rng.IntN(4)) * 2 * mib
				cur.Segments = append(cur.Segments, &c)
			case in == 0:
				cur.Segments = append(cur.Segments, prev.Segments[len(prev.Segments)-1])
			case in == 1: // new in cur
				cur.Segments = append(cur.Segments, seg(dev, addr))
			}
		}
		if round%4 == 3 && len(cur.Segments) > 1 {
			// Out of order, or an address twice.
			i := rng.IntN(len(cur.Segments) - 1)
			if rng.IntN(2) == 0 {
				cur.Segments[i], cur.Segments[i+1] = cur.Segments[i+1], cur.Segments[i]
			} else {
				d := *cur.Segments[i]
				d.TotalSize *= 3
				cur.Segments = slices.Insert(cur.Segments, i+1, &d)
			}
		}
		for dev := range 2 {
			want := largestNewSegmentMapped(sizes, &prev, &cur, dev)
			if got := largestNewSegment(sizes, &prev, &cur, dev); got != want {
				t.Fatalf("round %d device %d: %d bytes, the map says %d\nprev %v\ncur  %v", round, dev, got, want, segList(&prev), segList(&cur))
			}
			if addressOrder(&prev, dev) && addressOrder(&cur, dev) {
				merged++
			} else {
				mapped++
			}
		}
	}
	if merged < 1000 || mapped < 100 {
		t.Fatalf("%d pairs merged and %d mapped: the rounds do not try both", merged, mapped)
	}
}

// segList prints segments as device:address/size for a failure message.
func segList(s *snapshot.Snapshot) string {
	var b strings.Builder
	for _, sg := range s.Segments {
		fmt.Fprintf(&b, "%d:%#x/%d%s ", sg.Device, sg.Address, sg.TotalSize, map[bool]string{true: "e"}[sg.Expandable])
	}
	return b.String()
}

// TestExpandableAdvice: advice to turn expandable segments on is given
// only where the allocator did not use them already, whether the
// snapshots record allocator_settings (PyTorch 2.3 and later) or only
// mark their segments is_expandable (2.1 and 2.2).
func TestExpandableAdvice(t *testing.T) {
	segments := func(r *ingest.Run) {
		for _, f := range r.Snapshots {
			for i := range f.Snapshot.Segments {
				f.Snapshot.Segments[i].Expandable = true
			}
		}
	}
	settings := func(r *ingest.Run) {
		for _, f := range r.Snapshots {
			f.Snapshot.Settings = snapshot.AllocatorSettings{Present: true, Conf: "expandable_segments:True", ExpandableSegments: true, MaxSplitSize: -1}
		}
	}
	splitToo := func(r *ingest.Run) {
		for _, f := range r.Snapshots {
			f.Snapshot.Settings = snapshot.AllocatorSettings{Present: true, Conf: "expandable_segments:True,max_split_size_mb:64", ExpandableSegments: true, MaxSplitSize: 64 * mib}
		}
	}
	for _, tc := range []struct {
		name       string
		mark       func(*ingest.Run)
		expandable bool
	}{
		{"defaults", func(*ingest.Run) {}, false},
		{"segments marked is_expandable, no settings", segments, true},
		{"allocator_settings", settings, true},
		// Both settings (PyTorch #193400): remove max_split_size_mb, and
		// recommend neither setting that is already on.
		{"allocator_settings with max_split_size", splitToo, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A fragmentation OOM: its recommendations.
			r := oomRun(20, 0, 2*gib, 300*mib, 3*gib, true)
			tc.mark(r)
			f := Analyze(r, Options{Capacity: 80 * gib})
			CheckProse(t, t.Name(), f)
			if len(f.OOMs) != 1 || f.OOMs[0].Cause != CauseFragmentation {
				t.Fatalf("want one fragmentation OOM: %+v", f.OOMs)
			}
			o := f.OOMs[0]
			advised := slices.ContainsFunc(o.Recommendations, func(r Recommendation) bool { return r.Kind == StepExpandable })
			if o.Expandable != tc.expandable || advised == tc.expandable || f.expandableAlready() != tc.expandable {
				t.Errorf("OOM: expandable %v, advised %v, expandableAlready %v; want expandable %v\n%+v", o.Expandable, advised, f.expandableAlready(), tc.expandable, o.Recommendations)
			}
			// Settings the snapshot does not record are not taken for the
			// defaults: the OOM says they are not recorded (and the
			// reports say so, package words).
			both := tc.name == "allocator_settings with max_split_size"
			if recorded := o.Settings.Present; recorded != strings.HasPrefix(tc.name, "allocator_settings") {
				t.Errorf("OOM settings recorded %v: %+v", recorded, o.Settings)
			}
			// max_split_size_mb is advised where it is not set, and where
			// it is set beside expandable segments (PyTorch #193400) its
			// removal is.
			split := slices.ContainsFunc(o.Recommendations, func(r Recommendation) bool { return r.Kind == StepMaxSplit && r.MaxSplitMiB > 0 })
			if split == both {
				t.Errorf("max_split_size_mb recommended %v, want %v: %+v", split, !both, o.Recommendations)
			}
			removed := slices.ContainsFunc(o.Recommendations, func(r Recommendation) bool { return r.Kind == StepRemoveMaxSplit && r.MaxSplitMiB == 64 })
			if removed != both || f.SplitExpandable() != both {
				t.Errorf("advice to remove max_split_size_mb %v, SplitExpandable %v; want %v: %+v", removed, f.SplitExpandable(), both, o.Recommendations)
			}

			// A fragmented device without an OOM.
			r = fragRun(20, false)
			tc.mark(r)
			f = Analyze(r, Options{})
			if d := f.Devices[0]; !d.Fragmentation.Fragmented || d.Fragmentation.Expandable != tc.expandable || f.expandableAlready() != tc.expandable {
				t.Errorf("fragmented %v, expandable %v, expandableAlready %v; want true %v %v", d.Fragmentation.Fragmented, d.Fragmentation.Expandable, f.expandableAlready(), tc.expandable, tc.expandable)
			}
		})
	}
}

// TestExpandableInUse: per device, from either record.
func TestExpandableInUse(t *testing.T) {
	s := &snapshot.Snapshot{Segments: []*snapshot.Segment{{Device: 0}, {Device: 1, Expandable: true}}}
	if ExpandableInUse(s, 0) || !ExpandableInUse(s, 1) {
		t.Errorf("segments: device 0 %v, device 1 %v; want false, true", ExpandableInUse(s, 0), ExpandableInUse(s, 1))
	}
	s.Settings.ExpandableSegments = true
	if !ExpandableInUse(s, 0) {
		t.Error("settings: device 0 not expandable")
	}
}
