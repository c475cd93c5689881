package analyze

import (
	"fmt"
	"slices"
	"testing"

	"gpureport/input"
)

// stepKinds lists the kinds of f's next steps, in order.
func stepKinds(f *Findings) []StepKind {
	var out []StepKind
	for _, s := range f.NextSteps {
		out = append(out, s.Kind)
	}
	return out
}

// TestNextStepsLook: the leak's next step looks where its top site points:
// at what the training loop keeps when the site grows in lockstep with
// others, at gradients kept beyond the step for an autograd node, at
// recording Python stacks for a C++ operator, else at the line of user
// code.
func TestNextStepsLook(t *testing.T) {
	for _, tt := range []struct {
		name     string
		site     string
		kind     SiteKind
		lockstep []int
		want     StepKind
	}{
		{"seven in lockstep", "model.py:80", SiteUser, []int{0, 1, 2, 3, 4, 5, 6}, StepLookLockstep},
		{"lockstep without the top site", "model.py:80", SiteUser, []int{1, 2, 3}, StepLookSite},
		{"a line of user code", "model.py:80", SiteUser, nil, StepLookSite},
		{"an autograd node", "MulBackward0" + AutogradSiteSuffix, SiteNative, nil, StepLookAutograd},
		{"an operator", "aten::linear", SiteNative, nil, StepLookNative},
	} {
		d := &Device{DeviceKey: DeviceKey{Rank: input.NoRank}, Lockstep: tt.lockstep}
		for j := range 7 {
			site := fmt.Sprintf("model.py:%d", 80+j)
			if j == 0 {
				site = tt.site
			}
			d.Groups = append(d.Groups, Group{Signature: Signature{Site: site, Function: "forward", Kind: tt.kind}})
			d.Suspects = append(d.Suspects, Suspect{Site: site, Function: "forward", Group: j})
			d.LeakSites = append(d.LeakSites, LeakSite{Site: site, Suspects: []int{j}})
		}
		f := &Findings{Devices: []*Device{d}}
		f.Verdict.Leak = true
		f.Verdict.Suspects = []SuspectRef{{DeviceKey: d.DeviceKey, Index: 0}}
		decideNextSteps(f)
		if got := stepKinds(f); !slices.Equal(got, []StepKind{tt.want}) {
			t.Errorf("%s: next steps %v, want [%s]", tt.name, got, tt.want)
		}
		if s := f.NextSteps[0]; s.Suspect != f.Verdict.Suspects[0] || s.OOM != -1 {
			t.Errorf("%s: step %+v, want it about the top suspect", tt.name, s)
		}
	}
}

// TestNextStepsFragmentation: fragmentation advises expandable segments
// once (not again beside an OOM's recommendation of the same setting),
// and not at all where every fragmented device and OOM already used them:
// there it pads shapes, with the garbage-collection threshold unless an
// OOM advised it.
func TestNextStepsFragmentation(t *testing.T) {
	for _, tt := range []struct {
		name       string
		expandable bool
		oom        []Recommendation
		want       []StepKind
		gc         bool
	}{
		{"an OOM recommends them too", false, []Recommendation{{Kind: StepExpandable}, {Kind: StepGCThreshold}}, []StepKind{StepExpandable, StepGCThreshold}, false},
		{"the flag alone", false, nil, []StepKind{StepTryExpandable}, false},
		{"already on", true, []Recommendation{{Kind: StepGCThreshold}}, []StepKind{StepGCThreshold, StepPadShapes}, false},
		{"already on, no OOM", true, nil, []StepKind{StepPadShapes}, true},
	} {
		d := &Device{DeviceKey: DeviceKey{Rank: input.NoRank}, Fragmentation: &Fragmentation{Fragmented: true, Expandable: tt.expandable}}
		f := &Findings{Devices: []*Device{d}}
		f.Verdict.Fragmentation = true
		if tt.oom != nil {
			f.OOMs = []OOM{{Rank: input.NoRank, Cause: CauseFragmentation, Expandable: tt.expandable, Recommendations: tt.oom}}
		}
		decideNextSteps(f)
		if got := stepKinds(f); !slices.Equal(got, tt.want) {
			t.Errorf("%s: next steps %v, want %v", tt.name, got, tt.want)
		}
		if n := len(f.NextSteps); n > 0 && f.NextSteps[n-1].Kind == StepPadShapes && f.NextSteps[n-1].GCThreshold != tt.gc {
			t.Errorf("%s: pad shapes with the gc threshold %v, want %v", tt.name, f.NextSteps[n-1].GCThreshold, tt.gc)
		}
	}
}

// TestNextStepsOOMOnce: the same change recommended for two OOMs is one
// step, that of the first OOM; two leaks to fix are two.
func TestNextStepsOOMOnce(t *testing.T) {
	f := &Findings{OOMs: []OOM{
		{LeakSite: "a.py:1", Recommendations: []Recommendation{{Kind: StepFixLeak}, {Kind: StepMaxSplit, MaxSplitMiB: 512}}},
		{LeakSite: "a.py:1", Recommendations: []Recommendation{{Kind: StepFixLeak}, {Kind: StepMaxSplit, MaxSplitMiB: 512}}},
		{LeakSite: "b.py:2", Recommendations: []Recommendation{{Kind: StepFixLeak}, {Kind: StepMaxSplit, MaxSplitMiB: 1024}}},
	}}
	decideNextSteps(f)
	var got []string
	for _, s := range f.NextSteps {
		got = append(got, fmt.Sprintf("%s %d %d", s.Kind, s.OOM, s.Recommendation.MaxSplitMiB))
	}
	want := []string{"fix leak 0 0", "max split size 0 512", "fix leak 2 0", "max split size 2 1024"}
	if !slices.Equal(got, want) {
		t.Errorf("next steps %q, want %q", got, want)
	}
}

// TestNextStepsStacklessLeak: a leak without a site says how to record
// the stacks that would name it, and whether some were recorded.
func TestNextStepsStacklessLeak(t *testing.T) {
	for _, tt := range []struct {
		name       string
		withStack  float64
		growing    bool
		withStacks bool
	}{
		{"no stacks at all", 0, true, false},
		{"some stacks", 0.6, true, true},
		{"stackless memory flat", 0.6, false, false},
	} {
		state := StateFlat
		if tt.growing {
			state = StateGrowing
		}
		d := &Device{DeviceKey: DeviceKey{Rank: input.NoRank}, Coverage: Coverage{MinLiveWithStack: tt.withStack, NoStackTrend: &Trend{State: state}}}
		f := &Findings{Devices: []*Device{d}}
		f.Verdict.Leak = tt.growing
		decideNextSteps(f)
		want := []StepKind{StepRecordStacks}
		if !tt.growing {
			want = nil
		}
		if got := stepKinds(f); !slices.Equal(got, want) || (len(want) > 0 && f.NextSteps[0].WithStacks != tt.withStacks) {
			t.Errorf("%s: next steps %+v, want %v with stacks %v", tt.name, f.NextSteps, want, tt.withStacks)
		}
	}
}

// TestNextStepsOutsideOwner: growth outside the allocator that the
// per-process readings put in other processes is not sent to NCCL or
// cuBLAS: the step names the devices whose other processes grow.
func TestNextStepsOutsideOwner(t *testing.T) {
	for _, tt := range []struct {
		owner OutsideOwner
		want  StepKind
	}{
		{OwnerOthers, StepOutsideOthers},
		{OwnerRun, StepOutsideAllocator},
		{OwnerUnknown, StepOutsideAllocator},
	} {
		d := &Device{DeviceKey: DeviceKey{Rank: input.NoRank}, Reconciliation: &Reconciliation{OutsideLeak: true, Owner: tt.owner}}
		f := &Findings{Devices: []*Device{d}}
		f.Verdict.OutsideAllocatorLeak = true
		decideNextSteps(f)
		if got := stepKinds(f); !slices.Equal(got, []StepKind{tt.want}) {
			t.Errorf("owner %q: next steps %v, want [%s]", tt.owner, got, tt.want)
		}
		if tt.want == StepOutsideOthers && !slices.Equal(f.NextSteps[0].Devices, []DeviceKey{d.DeviceKey}) {
			t.Errorf("owner %q: devices %v", tt.owner, f.NextSteps[0].Devices)
		}
	}
}
