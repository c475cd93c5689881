package analyze

import (
	"cmp"
	"strings"
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
// the window one forward pass instead: no step frees its activation. act,
// when set, is each step's freed allocation instead of the 64 MiB
// activation (a load's temporary, a larger step).
type windowRun struct {
	steps  int
	kept   func(k int) []blk
	before []blk
	inside bool
	act    int64
}

func (wr windowRun) snapshot() *snapshot.Snapshot {
	const t0 = int64(1_709_287_200_000_000)
	act := stackAt("model.py", 88, "forward")
	actSize := cmp.Or(wr.act, 64*mib)
	var keptBlocks []blk
	keptBlocks = append(keptBlocks, wr.before...)
	for k := range wr.steps {
		keptBlocks = append(keptBlocks, wr.kept(k)...)
	}
	b := newSnap()
	b.segment(0, append([]blk{live(1*gib, stackAt("model.py", 10, "__init__"))}, keptBlocks...)...)
	b.segment(0, free(actSize))
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
			b.event(0, snapshot.ActionAlloc, actAddr, actSize, at, act)
		}
		for _, x := range wr.kept(k) {
			b.event(0, snapshot.ActionAlloc, addr, x.size, at+1000, x.frames)
			addr += uint64(x.size)
		}
		if !wr.inside {
			b.event(0, snapshot.ActionFreeRequested, actAddr, actSize, at+2000, act)
			b.event(0, snapshot.ActionFreeCompleted, actAddr, actSize, at+2100, act)
		} else {
			// A temporary within the pass, freed at once.
			b.event(0, snapshot.ActionAlloc, actAddr, 4*mib, at+1500, act)
			b.event(0, snapshot.ActionFreeRequested, actAddr, 4*mib, at+1600, act)
			b.event(0, snapshot.ActionFreeCompleted, actAddr, 4*mib, at+1700, act)
		}
	}
	return b.done()
}

// Optimizer stacks as torch.optim records them (PyTorch 2.6): Adam's
// state made in _init_group, under Optimizer.step's wrapper, called at
// train.py:60; and a hand-written optimizer's step making its own.
var (
	adamInitGroup = []snapshot.Frame{
		cppFrame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc"),
		torchFrame("optim/adam.py", 110, "_init_group"), torchFrame("optim/adam.py", 215, "step"),
		torchFrame("optim/optimizer.py", 485, "_use_grad"), torchFrame("optim/optimizer.py", 493, "wrapper"),
		userFrame("train.py", 60, "train_step"), userFrame("train.py", 120, "main"),
	}
	handOptimStep = []snapshot.Frame{
		cppFrame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc"),
		userFrame("optimizers.py", 82, "step"),
		torchFrame("optim/optimizer.py", 485, "_use_grad"), torchFrame("optim/optimizer.py", 493, "wrapper"),
		userFrame("train.py", 60, "train_step"), userFrame("train.py", 120, "main"),
	}
)

// TestWindowLeak analyses runs of one snapshot whose trace is the only
// evidence. A steady stream of never-freed allocations from one stack
// over the window's steps (PyTorch's recipe: record N iterations, dump
// once) is a candidate, Device.WindowLeak; the model's parameters made at
// the start of the window, a warm-up allocation in the first steps only,
// one forward pass's activations (each layer's from the same stacks, a
// temporary freed between them), a checkpoint loaded shard by shard (each
// shard's temporary freed once copied: no step), and a stream too small
// to matter (scalars) are not, nor is the optimizer's state made at each
// parameter's first step (torch.optim's _init_group). No candidate is a
// leak on its own: one window cannot tell it from a structure that fills
// once (a KV cache filled token by token, a queue filling), so the
// verdict is never a warning nor the leak flag set by it: it stays info,
// and its reason names the candidate.
func TestWindowLeak(t *testing.T) {
	site := stackAt("train.py", 57, "train_step")
	every := func(size int64, s []snapshot.Frame) func(int) []blk {
		return func(int) []blk { return []blk{live(size, s)} }
	}
	tests := []struct {
		name      string
		run       windowRun
		candidate bool
	}{
		{"8 MiB kept at every step", windowRun{steps: 40, kept: every(8*mib, site)}, true},
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
		{"load shard by shard: a temporary copied into each parameter, then freed", windowRun{steps: 40, act: 64 * mib,
			kept: every(64*mib, stackAt("loader.py", 380, "load_model"))}, false},
		{"load shard by shard, fp32 read into bf16 parameters", windowRun{steps: 40, act: 128 * mib,
			kept: every(64*mib, stackAt("loader.py", 380, "load_model"))}, false},
		{"scalar losses kept in a deque, 512 B a step", windowRun{steps: 300, kept: every(512, stackAt("smooth.py", 12, "push"))}, false},
		// Structures that fill once look like a leak in one window: a
		// candidate at most, never a warning.
		{"KV cache filled every 16 tokens of one generation", windowRun{steps: 320, kept: func(k int) []blk {
			if k%16 != 0 {
				return nil
			}
			var out []blk
			for range 8 {
				out = append(out, live(4*mib, stackAt("kv_cache.py", 44, "allocate_block")))
			}
			return out
		}}, true},
		{"a GPU queue filling, 24 MiB a step", windowRun{steps: 100, act: 512 * mib, kept: every(24*mib, stackAt("prefetch.py", 71, "producer"))}, true},
		// A hand-written optimizer's state made in its step: only its
		// lifetime says state, and the same stack would leak in the
		// step: a candidate.
		{"a hand-written optimizer's state made lazily in step", windowRun{steps: 240, kept: func(k int) []blk {
			if k%10 != 0 {
				return nil
			}
			return []blk{live(4*mib, handOptimStep), live(4*mib, handOptimStep)}
		}}, true},
		// Adam's state made lazily by torch.optim's _init_group, one
		// layer's as it is unfrozen every 10 steps: made once a
		// parameter, bounded by the model: no candidate.
		{"Adam state made lazily, one layer every 10 steps", windowRun{steps: 240, kept: func(k int) []blk {
			if k%10 != 0 {
				return nil
			}
			return []blk{live(4*mib, adamInitGroup), live(4*mib, adamInitGroup)}
		}}, false},
		// The same beside a user line that keeps 2 MiB a step (steps of
		// 512 MiB activations): that line is still named.
		{"Adam state made lazily beside a list kept every step", windowRun{steps: 240, act: 512 * mib, kept: func(k int) []blk {
			out := []blk{live(2*mib, site)}
			if k%10 == 0 {
				out = append(out, live(4*mib, adamInitGroup), live(4*mib, adamInitGroup))
			}
			return out
		}}, true},
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
			if got := d.WindowLeak != nil; got != tt.candidate {
				t.Fatalf("window leak %+v, want one: %v (never freed %+v)", d.WindowLeak, tt.candidate, d.TraceWindow.NeverFreed)
			}
			v := fs.Verdict
			if v.Leak || v.Severity != SeverityInfo || len(v.Undecided) != 1 || d.Status != StatusInsufficient {
				t.Errorf("verdict leak %v, severity %s, undecided %v, device %s; want info, no leak flag, the device undecided", v.Leak, v.Severity, v.Undecided, d.Status)
			}
			if got := containsKind(reasonKinds(v), ReasonWindowLeak); got != tt.candidate {
				t.Errorf("reasons %v, want %q: %v", reasonKinds(v), ReasonWindowLeak, tt.candidate)
			}
			if tt.candidate && strings.Contains(tt.name, "beside a list") {
				if g := d.TraceWindow.NeverFreed[d.WindowLeak.Group]; g.Site != "train.py:57" {
					t.Errorf("candidate at %s, want train.py:57 (never freed %+v)", g.Site, d.TraceWindow.NeverFreed)
				}
			}
			if !tt.candidate || !strings.HasPrefix(tt.name, "8 MiB") {
				return
			}
			w := d.WindowLeak
			g := d.TraceWindow.NeverFreed[w.Group]
			if g.Site != "train.py:57" || g.Blocks != 40 || w.Steps != 40 || w.PerStep != float64(8*mib) {
				t.Errorf("leak %+v at %s (%d blocks), want train.py:57, 40 blocks over 40 steps, 8 MiB a step", w, g.Site, g.Blocks)
			}
		})
	}
}

// TestTurnoversCopySource: a fall of the window's memory counts as a step
// only when it frees more than a copy's source of what the group kept
// since the last fall (maxCopyRatio).
func TestTurnoversCopySource(t *testing.T) {
	// cycles of: allocate a temporary of tmp bytes, keep k bytes, free the
	// temporary.
	series := func(n int, tmp, k int64) (alloc, kept []int64) {
		var level int64
		for range n {
			level += tmp
			alloc, kept = append(alloc, level), append(kept, 0)
			level += k
			alloc, kept = append(alloc, level), append(kept, k)
			level -= tmp
			alloc, kept = append(alloc, level), append(kept, 0)
		}
		return alloc, kept
	}
	for _, tt := range []struct {
		name   string
		tmp, k int64
		want   int
	}{
		{"a step's activations, 8 MiB kept of 512 MiB", 512 * mib, 8 * mib, 10},
		{"a copy's source, the parameter's size", 350 * mib, 350 * mib, 0},
		{"a copy's source, fp32 into bf16", 400 * mib, 200 * mib, 0},
		{"a copy's source, fp32 into 8 bits", 400 * mib, 100 * mib, 0},
		{"a step 5 times what it keeps", 500 * mib, 100 * mib, 10},
	} {
		alloc, kept := series(10, tt.tmp, tt.k)
		if got := turnovers(alloc, kept); got != tt.want {
			t.Errorf("%s: %d steps, want %d", tt.name, got, tt.want)
		}
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
