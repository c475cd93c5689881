package analyze

import (
	"slices"
	"testing"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

func TestTraceOverflow(t *testing.T) {
	allocs := func(n int) *snapBuilder {
		b := newSnap().segment(0, live(1*mib, nil))
		for i := range n {
			b.event(0, snapshot.ActionAlloc, uint64(0x1000*(i+1)), 512, 0, nil)
		}
		return b
	}
	tests := []struct {
		name string
		snap *snapshot.Snapshot
		want Overflow // Rule "": complete
	}{
		{"short complete trace", allocs(7).done(), Overflow{}},
		{"round length", allocs(1000).done(), Overflow{Rule: OverflowRoundLength, Entries: 1000}},
		{"power of two", allocs(4096).done(), Overflow{Rule: OverflowRoundLength, Entries: 4096}},
		{"one entry is not a full ring buffer", allocs(1).done(), Overflow{}},
		{"starts with frees", newSnap().segment(0, live(1*mib, nil)).
			event(0, snapshot.ActionFreeRequested, 0x99, 512, 0, nil).
			event(0, snapshot.ActionFreeCompleted, 0x99, 512, 0, nil).
			event(0, snapshot.ActionAlloc, 0x1000, 512, 0, nil).done(), Overflow{Rule: OverflowEarlyFrees, Entries: 3, EarlyFrees: 1}},
		{"no trace", newSnap().segment(0, live(1*mib, nil)).done(), Overflow{}},
	}
	for _, tt := range tests {
		got, over := TraceOverflow(tt.snap, 0)
		if got != tt.want || over != (tt.want.Rule != "") {
			t.Errorf("%s: %+v %v, want %+v", tt.name, got, over, tt.want)
		}
	}
	s := allocs(3).done()
	s.Settings = snapshot.AllocatorSettings{Present: true, Raw: []snapshot.KeyValue{{Key: "trace_alloc_overflowed", Value: "True"}}}
	if got, over := TraceOverflow(s, 0); !over || got.Rule != OverflowFlag {
		t.Errorf("settings flag: %+v %v", got, over)
	}
}

func TestTraceWindow(t *testing.T) {
	kept := stackAt("train.py", 57, "train_step")
	tmp := stackAt("model.py", 88, "forward")
	b := newSnap()
	b.segment(0, live(2*mib, kept), free(18*mib))
	seg := b.s.Segments[0].Address
	b.event(0, snapshot.ActionSegmentAlloc, seg, 20*mib, 10, nil).
		event(0, snapshot.ActionAlloc, seg+2*uint64(mib), 3*mib, 11, tmp).
		event(0, snapshot.ActionAlloc, seg, 2*mib-100, 12, kept). // rounded to 2 MiB
		event(0, snapshot.ActionFreeRequested, seg+2*uint64(mib), 3*mib, 13, tmp).
		event(0, snapshot.ActionFreeCompleted, seg+2*uint64(mib), 3*mib, 14, tmp)
	w := TraceWindowOf(file(b.done(), "s.pickle", 1, input.NoRank), 0, nil)
	if w == nil {
		t.Fatal("no trace window")
	}
	wantAlloc := []int64{0, 3 * mib, 5 * mib, 2 * mib, 2 * mib}
	wantRes := []int64{20 * mib, 20 * mib, 20 * mib, 20 * mib, 20 * mib}
	if len(w.Timeline) != 5 {
		t.Fatalf("timeline %+v", w.Timeline)
	}
	for i, p := range w.Timeline {
		if p.Allocated != wantAlloc[i] || p.Reserved != wantRes[i] || p.TimeUS != int64(10+i) {
			t.Errorf("timeline[%d] = %+v, want allocated %d reserved %d", i, p, wantAlloc[i], wantRes[i])
		}
	}
	if w.PeakAllocated != 5*mib || w.NeverFreedBytes != 2*mib || len(w.NeverFreed) != 1 || w.NeverFreed[0].Site != "train.py:57" || w.UnknownFrees != 0 {
		t.Errorf("window %+v", w)
	}
}

// fragSnapshot is a device whose free memory is cut into holes: two
// 20 MiB segments, 30 MiB free in all, the largest hole 9 MiB. The trace
// ends with an OOM for 16 MiB and, after it, frees and allocs that the
// OOM explanation must undo.
func fragSnapshot() *snapshot.Snapshot {
	a := stackAt("model.py", 30, "forward")
	b := newSnap()
	// Segment 1 as the snapshot sees it: the 2 MiB block at its start
	// was freed after the OOM.
	b.segment(0, free(8*mib), live(2*mib, a), free(6*mib), live(4*mib, a))
	// Segment 2: the 1 MiB block at +1 MiB was allocated after the OOM.
	b.segment(0, live(1*mib, a), live(1*mib, a), free(8*mib), live(1*mib, a), free(9*mib))
	s1, s2 := b.s.Segments[0].Address, b.s.Segments[1].Address
	b.event(0, snapshot.ActionAlloc, s1, 2*mib, 1, a).
		event(0, snapshot.ActionOOM, 2*uint64(mib), 16*mib, 2, stackAt("train.py", 40, "step")).
		event(0, snapshot.ActionFreeRequested, s1, 2*mib, 3, a).
		event(0, snapshot.ActionFreeCompleted, s1, 2*mib, 4, a).
		event(0, snapshot.ActionAlloc, s2+uint64(mib), 1*mib, 5, a)
	return b.done()
}

func TestOOMFragmentationReplay(t *testing.T) {
	run := &ingest.Run{Dir: "frag", Snapshots: []*ingest.SnapshotFile{file(fragSnapshot(), "oom.pickle", 5, input.NoRank)}}
	f := Analyze(run, Options{})
	if len(f.OOMs) != 1 {
		t.Fatalf("%d OOMs", len(f.OOMs))
	}
	o := f.OOMs[0]
	checks := []struct {
		name      string
		got, want int64
	}{
		{"reserved", o.Reserved, 40 * mib},
		{"allocated", o.Allocated, 10 * mib}, // 2+2+4 in segment 1, 1+1 in segment 2
		{"cached free", o.CachedFree, 30 * mib},
		{"largest free", o.LargestFree, 9 * mib},
		{"freed after", o.FreedAfter, 2 * mib},
		{"requested", o.Requested, 16 * mib},
		{"device free", o.DeviceFree, 2 * mib},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if o.Cause != "fragmentation" || !o.Reconstructed || o.Site != "train.py:40" {
		t.Errorf("class %q reconstructed %v site %q", o.Cause, o.Reconstructed, o.Site)
	}
	var kinds []StepKind
	for _, r := range o.Recommendations {
		kinds = append(kinds, r.Kind)
	}
	if want := []StepKind{StepExpandable, StepMaxSplit, StepGCThreshold}; !slices.Equal(kinds, want) {
		t.Errorf("recommendations %v, want %v", kinds, want)
	}
	if !f.Verdict.OOM || !f.Verdict.Fragmentation || f.Verdict.Leak {
		t.Errorf("verdict %+v", f.Verdict)
	}
	// With expandable segments in force, it is not recommended again.
	s := fragSnapshot()
	s.Settings = snapshot.AllocatorSettings{Present: true, ExpandableSegments: true, MaxSplitSize: -1, Conf: "expandable_segments:True"}
	run.Snapshots[0].Snapshot = s
	for _, r := range Analyze(run, Options{}).OOMs[0].Recommendations {
		if r.Kind == StepExpandable {
			t.Errorf("recommended %q although it is set", r.Kind)
		}
	}
}

func TestSplitSuggestion(t *testing.T) {
	tests := []struct{ req, want int64 }{
		{16 * mib, 64}, {300 * mib, 128}, {1 * gib, 512}, {5 * gib, 1024},
	}
	for _, tt := range tests {
		if got := splitSuggestionMiB(tt.req); got != tt.want {
			t.Errorf("splitSuggestionMiB(%d) = %d, want %d", tt.req, got, tt.want)
		}
	}
}

// TestTraceWindowPeak checks the peak of a window walked back from the
// snapshot's blocks, as MemoryViz draws it: blocks alive when the trace
// began count until the trace frees them, a free_completed without its
// free_requested is a free, a trace of frees only has a peak, and a trace
// that leaves alive what the segments do not hold says so instead of
// giving a peak below what it leaves alive. The roles at the peak come
// from the trace's replay.
func TestTraceWindowPeak(t *testing.T) {
	fwd := stackAt("model.py", 88, "forward")
	fwd2 := stackAt("model.py", 89, "forward")
	const old = 0x7f00f0000000 // a block allocated before the trace
	build := func(events func(b *snapBuilder, seg uint64)) *TraceWindow {
		b := newSnap()
		b.segment(0, live(512, fwd), free(2*mib-512))
		events(b, b.s.Segments[0].Address)
		return TraceWindowOf(file(b.done(), "s.pickle", 1, input.NoRank), 0, nil)
	}
	for _, tc := range []struct {
		name   string
		events func(b *snapBuilder, seg uint64)
		peak   int64
		index  int
		lower  bool
		roles  map[string]int64
		// stray are the allocations (count, bytes) the trace leaves alive
		// that the segments do not hold; overFreed is true when the walk
		// back frees more than was allocated.
		stray     [2]int64
		overFreed bool
	}{
		{"a free of a block allocated before the trace, then 256 B", func(b *snapBuilder, seg uint64) {
			b.event(0, snapshot.ActionFreeRequested, old, 90*mib, 10, nil).
				event(0, snapshot.ActionFreeCompleted, old, 90*mib, 11, nil).
				event(0, snapshot.ActionAlloc, seg, 256, 12, fwd)
		}, 90 * mib, -1, false, map[string]int64{"unknown": 90 * mib}, [2]int64{}, false},
		{"a free_completed alone is a free", func(b *snapBuilder, seg uint64) {
			b.event(0, snapshot.ActionFreeCompleted, old, 90*mib, 10, nil).
				event(0, snapshot.ActionAlloc, seg, 256, 12, fwd)
		}, 90 * mib, -1, false, map[string]int64{"unknown": 90 * mib}, [2]int64{}, false},
		{"frees only", func(b *snapBuilder, seg uint64) {
			b.event(0, snapshot.ActionFreeRequested, old, 4*mib, 10, nil).
				event(0, snapshot.ActionFreeRequested, old+4*uint64(mib), 4*mib, 11, nil)
		}, 8*mib + 512, -1, false, map[string]int64{"unknown": 8 * mib, "activations": 512}, [2]int64{}, false},
		{"peak inside the window, with its roles", func(b *snapBuilder, seg uint64) {
			b.event(0, snapshot.ActionAlloc, seg+uint64(mib), 600*kib, 10, fwd).
				event(0, snapshot.ActionAlloc, seg+uint64(mib)+600*uint64(kib), 300*kib, 11, fwd).
				event(0, snapshot.ActionFreeRequested, seg+uint64(mib)+600*uint64(kib), 300*kib, 12, fwd).
				event(0, snapshot.ActionAlloc, seg+uint64(mib)+600*uint64(kib), 100*kib, 13, fwd2).
				event(0, snapshot.ActionFreeRequested, seg+uint64(mib)+600*uint64(kib), 100*kib, 14, fwd2).
				event(0, snapshot.ActionFreeRequested, seg+uint64(mib), 600*kib, 15, fwd).
				event(0, snapshot.ActionAlloc, seg, 256, 16, fwd)
		}, 900 * kib, 1, false, map[string]int64{"activations": 600 * kib, "temporaries": 300 * kib}, [2]int64{}, false},
		{"the trace leaves alive what the segments do not hold", func(b *snapBuilder, seg uint64) {
			b.event(0, snapshot.ActionAlloc, 0x7f00e0000000, 50*mib, 10, fwd).
				event(0, snapshot.ActionAlloc, seg, 256, 11, fwd)
		}, 50*mib + 512, 1, true, nil, [2]int64{1, 50 * mib}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := build(tc.events)
			if w == nil || w.Peak == nil {
				t.Fatal("no trace window or peak")
			}
			p := w.Peak
			if w.PeakAllocated != tc.peak || p.Allocated != tc.peak || p.Index != tc.index || p.LowerBound != tc.lower {
				t.Errorf("peak %d at %d (lower bound %v), window %d; want %d at %d (%v)", p.Allocated, p.Index, p.LowerBound, w.PeakAllocated, tc.peak, tc.index, tc.lower)
			}
			if want := int64(10 + max(tc.index, 0)); !tc.lower && p.Time.UnixMicro() != want {
				t.Errorf("peak time %d, want %d", p.Time.UnixMicro(), want)
			}
			for name, n := range tc.roles {
				r, _ := roles.ParseRole(name)
				if p.Roles.Bytes[r] != n {
					t.Errorf("%s at the peak %d, want %d (roles %v)", name, p.Roles.Bytes[r], n, p.Roles.Bytes)
				}
			}
			if tc.roles != nil && p.Roles.Allocated != tc.peak {
				t.Errorf("roles sum to %d, peak %d", p.Roles.Allocated, tc.peak)
			}
			if got := [2]int64{int64(p.Stray), p.StrayBytes}; got != tc.stray || p.OverFreed != tc.overFreed {
				t.Errorf("stray allocations %v (over-freed %v), want %v (%v)", got, p.OverFreed, tc.stray, tc.overFreed)
			}
		})
	}
}
