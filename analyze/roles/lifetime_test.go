package roles

import (
	"strings"
	"testing"

	"gpureport/internal/gen/alloc"
	"gpureport/snapshot"
)

// last returns the index of the fixture device's latest trace event.
func (f *fixture) last() int { return len(f.dev.Trace()) - 1 }

// decisionsAt classifies device 0 of s just after trace event at
// (SceneAt) and returns the decisions of the marked blocks alive then.
func (f *fixture) decisionsAt(s *snapshot.Snapshot, at int) (map[string]Decision, Breakdown) {
	sc := SceneAt(s, 0, at)
	if sc == nil {
		f.t.Fatalf("no scene at %d", at)
	}
	ds, bd := Classify(sc)
	out := map[string]Decision{}
	for i, b := range sc.Blocks {
		for name, addr := range f.addrs {
			if addr == b.Addr && f.marks[name] != nil && b.Alloc >= 0 && b.Alloc <= at {
				if cur, ok := out[name]; !ok || cur.Rule == "" {
					out[name] = ds[i]
				}
			}
		}
	}
	return out, bd
}

// TestLifetimeInsideTheTrace replays a training step (stacks="python":
// backward allocations carry no frames) and classifies the live blocks at
// moments inside it, where the trace tells what happens next: a forward
// allocation freed inside its operation is a temporary, one that
// outlives it an activation; a backward allocation freed before backward
// ends is an activation's gradient (a temporary), one that outlives
// backward a gradient; an optimizer-step allocation freed before the step
// ends is a temporary, one kept past it optimizer state.
func TestLifetimeInsideTheTrace(t *testing.T) {
	f := newFixture(t)
	f.alloc("act", 32<<20, forwardAt(40), "")
	tmp := f.alloc("tmp", 16<<20, forwardAt(40), "")
	tForward := f.last()
	f.free(tmp)
	f.alloc("act2", 32<<20, forwardAt(41), "")
	f.alloc("grad", 64<<20, nil, "")
	agrad := f.alloc("agrad", 32<<20, nil, "")
	tBackward := f.last()
	f.free(agrad)
	f.alloc("state", 64<<20, handOptim, "")
	stepTmp := f.alloc("steptmp", 8<<20, stackOf(frames1(py(proj+"optimizers.py", 90, "step")), optimizerWrapper, trainStep), "")
	f.alloc("", 4<<20, stackOf(frames1(py(proj+"optimizers.py", 91, "step")), optimizerWrapper, trainStep), "")
	tStep := f.last()
	f.free(stepTmp)
	f.alloc("next", 32<<20, forwardAt(40), "")
	s := f.snapshot()
	for _, tc := range []struct {
		name  string
		at    int
		wants map[string]want
	}{
		{"forward", tForward, map[string]want{
			"act": {Activations, ByLifetime, "forward allocation alive"},
			"tmp": {Temporaries, ByLifetime, "freed inside the operation"},
		}},
		{"backward", tBackward, map[string]want{
			"grad":  {Gradients, ByLifetime, "a gradient"},
			"agrad": {Temporaries, ByLifetime, "freed before backward ended"},
			"act2":  {Activations, ByLifetime, "forward"},
		}},
		{"optimizer step", tStep, map[string]want{
			"state":   {OptimizerState, ByLifetime, "kept past the step"},
			"steptmp": {Temporaries, ByLifetime, "freed before the step ended"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, bd := f.decisionsAt(s, tc.at)
			for name, w := range tc.wants {
				d, ok := got[name]
				switch {
				case !ok:
					t.Errorf("%s: not alive at %d", name, tc.at)
				case d.Role != w.role || d.Evidence != w.ev || !strings.Contains(d.Rule, w.rule):
					t.Errorf("%s: %s by %s (%q), want %s by %s (%q)", name, d.Role, d.Evidence, d.Rule, w.role, w.ev, w.rule)
				}
			}
			var alive int64
			for _, n := range bd.Bytes {
				alive += n
			}
			if alive != bd.Allocated || alive == 0 {
				t.Errorf("breakdown sums to %d of %d", alive, bd.Allocated)
			}
		})
	}
	// At the dump nothing is known of the future: what is alive has
	// outlived its operation.
	got, _ := f.decisions(s)
	for name, w := range map[string]want{
		"grad":  {Gradients, ByLifetime, "autograd's thread"},
		"state": {OptimizerState, ByLifetime, "kept past"},
		"act":   {Activations, ByLifetime, "forward"},
	} {
		if d := got[name]; d.Role != w.role || !strings.Contains(d.Rule, w.rule) {
			t.Errorf("at the dump %s: %s (%q), want %s", name, d.Role, d.Rule, w.role)
		}
	}
}

// TestInFlightAtOOM runs a forward pass into an OOM: the blocks the
// failing operation had allocated are in flight (temporaries), the
// earlier operations' are activations.
func TestInFlightAtOOM(t *testing.T) {
	f := newFixtureOf(t, 2<<30)
	f.alloc("a1", 300<<20, forwardAt(40), "")
	f.alloc("a2", 300<<20, forwardAt(40), "")
	f.alloc("b1", 200<<20, forwardAt(41), "")
	f.alloc("b2", 200<<20, forwardAt(41), "")
	f.tick()
	if _, err := f.cur.Malloc(1500<<20, 0, f.ctx(forwardAt(41), "")); err == nil {
		t.Fatal("no OOM")
	} else if _, ok := err.(*alloc.OOMError); !ok {
		t.Fatal(err)
	}
	s := f.snapshot()
	if !s.TraceEndsAtOOM(0) {
		t.Fatal("the trace does not end at the OOM")
	}
	got, bd := f.decisions(s)
	for name, w := range map[string]want{
		"a1": {Activations, ByLifetime, "forward"},
		"a2": {Activations, ByLifetime, "forward"},
		"b1": {Temporaries, ByLifetime, "in flight"},
		"b2": {Temporaries, ByLifetime, "in flight"},
	} {
		if d := got[name]; d.Role != w.role || d.Evidence != w.ev || !strings.Contains(d.Rule, w.rule) {
			t.Errorf("%s: %s by %s (%q), want %s (%q)", name, d.Role, d.Evidence, d.Rule, w.role, w.rule)
		}
	}
	if bd.Bytes[Temporaries] != 400<<20 || bd.Bytes[Activations] != 600<<20 {
		t.Errorf("temporaries %d, activations %d", bd.Bytes[Temporaries], bd.Bytes[Activations])
	}
}
