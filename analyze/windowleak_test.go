package analyze

import (
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// windowRun is one snapshot whose trace records steps of training, PyTorch's
// recipe for a leak: each step 500 ms apart makes a 64 MiB activation and
// frees it; kept(k) are the never-freed allocations of step k (size and
// stack, each still live at the dump); before are allocations made at the
// very start of the window and kept (the model's parameters). inside makes
// the window one forward pass instead: no step frees its activation.
type windowRun struct {
	steps  int
	kept   func(k int) []blk
	before []blk
	inside bool
}

func (wr windowRun) snapshot() *snapshot.Snapshot {
	const t0 = int64(1_709_287_200_000_000)
	act := stackAt("model.py", 88, "forward")
	var keptBlocks []blk
	keptBlocks = append(keptBlocks, wr.before...)
	for k := range wr.steps {
		keptBlocks = append(keptBlocks, wr.kept(k)...)
	}
	b := newSnap()
	b.segment(0, append([]blk{live(1*gib, stackAt("model.py", 10, "__init__"))}, keptBlocks...)...)
	b.segment(0, free(64*mib))
	base, actAddr := b.s.Segments[0].Address+uint64(gib), b.s.Segments[1].Address
	addr, at := base, t0
	for _, x := range wr.before {
		b.event(0, snapshot.ActionAlloc, addr, x.size, at, x.frames)
		addr += uint64(x.size)
		at += 100
	}
	for k := range wr.steps {
		at = t0 + int64(k+1)*500_000
		if !wr.inside {
			b.event(0, snapshot.ActionAlloc, actAddr, 64*mib, at, act)
		}
		for _, x := range wr.kept(k) {
			b.event(0, snapshot.ActionAlloc, addr, x.size, at+1000, x.frames)
			addr += uint64(x.size)
		}
		if !wr.inside {
			b.event(0, snapshot.ActionFreeRequested, actAddr, 64*mib, at+2000, act)
			b.event(0, snapshot.ActionFreeCompleted, actAddr, 64*mib, at+2100, act)
		} else {
			// A temporary within the pass, freed at once.
			b.event(0, snapshot.ActionAlloc, actAddr, 4*mib, at+1500, act)
			b.event(0, snapshot.ActionFreeRequested, actAddr, 4*mib, at+1600, act)
			b.event(0, snapshot.ActionFreeCompleted, actAddr, 4*mib, at+1700, act)
		}
	}
	return b.done()
}

// TestWindowLeak analyses runs of one snapshot whose trace is the only
// evidence: a steady stream of never-freed allocations from one stack
// over the window's steps is a possible leak (a warning, the leak flag,
// its site in the headline and summary), while the model's parameters
// made at the start of the window, a warm-up allocation in the first
// steps only, and one forward pass's activations (each layer's from the
// same stacks, a temporary freed between them) are not.
func TestWindowLeak(t *testing.T) {
	site := stackAt("train.py", 57, "train_step")
	tests := []struct {
		name string
		run  windowRun
		leak bool
	}{
		{"8 MiB kept at every step", windowRun{steps: 40, kept: func(int) []blk { return []blk{live(8*mib, site)} }}, true},
		{"parameters at the start of the window, steps keep nothing", windowRun{steps: 40, kept: func(int) []blk { return nil },
			before: func() []blk {
				var out []blk
				for range 50 {
					out = append(out, live(16*mib, stackAt("model.py", 12, "__init__")))
				}
				return out
			}()}, false},
		{"warm-up: kept in the first 6 steps only", windowRun{steps: 40, kept: func(k int) []blk {
			if k < 6 {
				return []blk{live(8*mib, stackAt("train.py", 40, "warmup"))}
			}
			return nil
		}}, false},
		{"one forward pass: 40 layers' activations, alive into backward", windowRun{steps: 40, inside: true,
			kept: func(int) []blk {
				return []blk{live(8*mib, stackAt("model.py", 95, "forward")), live(8*mib, stackAt("model.py", 96, "forward"))}
			}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := file(tt.run.snapshot(), "memory_snapshot.pickle", input.NoStep, input.NoRank)
			f.OrderKind = ingest.OrderNone
			fs := Analyze(&ingest.Run{Dir: "window", Location: time.UTC, Snapshots: []*ingest.SnapshotFile{f}}, Options{})
			if len(fs.Devices) != 1 {
				t.Fatalf("%d devices", len(fs.Devices))
			}
			d := fs.Devices[0]
			if d.TraceWindow == nil {
				t.Fatal("no trace window")
			}
			if got := d.WindowLeak != nil; got != tt.leak {
				t.Fatalf("window leak %+v, want one: %v (never freed %+v)", d.WindowLeak, tt.leak, d.TraceWindow.NeverFreed)
			}
			if fs.Verdict.Leak != tt.leak {
				t.Errorf("verdict leak %v, want %v", fs.Verdict.Leak, tt.leak)
			}
			if !tt.leak {
				if fs.Verdict.Severity != SeverityInfo {
					t.Errorf("severity %s, want info", fs.Verdict.Severity)
				}
				return
			}
			w := d.WindowLeak
			g := d.TraceWindow.NeverFreed[w.Group]
			if g.Site != "train.py:57" || g.Blocks != 40 || w.Steps != 40 || w.PerStep != float64(8*mib) {
				t.Errorf("leak %+v at %s (%d blocks), want train.py:57, 40 blocks over 40 steps, 8 MiB a step", w, g.Site, g.Blocks)
			}
			if fs.Verdict.Severity != SeverityWarning || fs.Verdict.NoSite != NoSiteWindow || fs.Verdict.Window != d.DeviceKey {
				t.Errorf("verdict %+v, want a warning naming the window's leak", fs.Verdict)
			}
			if !containsKind(reasonKinds(fs.Verdict), ReasonWindowLeak) {
				t.Errorf("reasons %v, want %q", reasonKinds(fs.Verdict), ReasonWindowLeak)
			}
		})
	}
}

func containsKind(ks []ReasonKind, k ReasonKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// TestWindowLeakNeedsFewSnapshots: a device whose snapshots give a trend
// verdict keeps it; its last trace's stream decides nothing.
func TestWindowLeakNeedsFewSnapshots(t *testing.T) {
	site := stackAt("train.py", 57, "train_step")
	f := file(windowRun{steps: 40, kept: func(int) []blk { return []blk{live(8*mib, site)} }}.snapshot(), "s.pickle", 1, input.NoRank)
	w := TraceWindowOf(f, 0, nil)
	for _, state := range []TrendState{StateFlat, StateGrowing, StateInconclusive} {
		d := &Device{TraceWindow: w, Points: []Point{{}}, Trends: []Trend{{Metric: MetricAllocated, State: state}}}
		if got := windowLeak(d, DefaultTrendRules(), nil, true); got != nil {
			t.Errorf("allocated trend %s: window leak %+v, want none", state, got)
		}
	}
	d := &Device{TraceWindow: w, Points: []Point{{}}, Trends: []Trend{{Metric: MetricAllocated, State: StateInsufficient}}}
	if windowLeak(d, DefaultTrendRules(), nil, true) == nil {
		t.Error("insufficient trend: no window leak")
	}
	if got := windowLeak(d, DefaultTrendRules(), []Suppression{{Kind: SuppressSite, Pattern: "train.py:57"}}, true); got != nil {
		t.Errorf("suppressed site: window leak %+v", got)
	}
}
