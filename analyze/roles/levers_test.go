package roles

import (
	"strings"
	"testing"

	"gpureport/snapshot"
)

// breakdownOf makes a breakdown with the given bytes per role, each
// decided by one rule (named rules override the default per role).
func breakdownOf(bytes map[Role]int64, rules map[Role]string) *Breakdown {
	bd := &Breakdown{}
	shares := ruleShares{byRule: map[string]*RuleShare{}}
	for r := range NumRoles {
		n := bytes[r]
		if n == 0 {
			continue
		}
		rule := rules[r]
		if rule == "" {
			rule = "rule for " + r.String()
		}
		bd.add(n, Decision{Role: r, Evidence: ByFrame, Rule: rule}, &shares)
	}
	bd.finish(shares.byRule)
	return bd
}

// checkLeversAddUp checks that each lever frees at most the bytes of the
// role it names (the allocator's lever at most the cached free memory)
// and that together they free at most the allocated plus cached bytes.
func checkLeversAddUp(t *testing.T, bd *Breakdown, in LeverInput, ls []Lever) {
	t.Helper()
	for _, l := range ls {
		limit := bd.Bytes[l.Role]
		if l.Kind == ExpandableSegments {
			limit = in.Inactive
		}
		if l.Bytes <= 0 || l.Bytes > limit {
			t.Errorf("%s frees %d of the %d bytes it draws from", l.Kind, l.Bytes, limit)
		}
		if l.Basis == "" {
			t.Errorf("%s has no basis", l.Kind)
		}
	}
	if most := MostFreed(ls); most > bd.Allocated+in.Inactive {
		t.Errorf("levers free %d together, more than allocated %d plus cached %d", most, bd.Allocated, in.Inactive)
	}
}

func hasLever(ls []Lever, k LeverKind) bool {
	for _, l := range ls {
		if l.Kind == k {
			return true
		}
	}
	return false
}

// TestLeversNeverRecommendWhatIsOn gives breakdowns where a lever is
// already in use (in the settings, or seen by a frame rule) and checks
// that it is not recommended, while the others are, and that the sizes
// add up.
func TestLeversNeverRecommendWhatIsOn(t *testing.T) {
	base := map[Role]int64{Parameters: 9 << 30, Gradients: 9 << 30, OptimizerState: 18 << 30, Activations: 41 << 30, Inputs: 1 << 30, Temporaries: 2 << 30}
	for _, tc := range []struct {
		name   string
		rules  map[Role]string
		in     LeverInput
		absent []LeverKind
		want   []LeverKind
	}{
		{"nothing in use", nil, LeverInput{Ranks: 8, Inactive: 3 << 30, DuringForward: true}, nil,
			[]LeverKind{SmallerMicroBatch, ActivationCheckpointing, EightBitOptimizer, ShardOptimizerState, ShardGradients, ShardParameters, GradientsToNone, ExpandableSegments}},
		{"expandable segments on", nil, LeverInput{Ranks: 8, Inactive: 3 << 30, Settings: snapshot.AllocatorSettings{Present: true, ExpandableSegments: true}},
			[]LeverKind{ExpandableSegments, GradientsToNone}, []LeverKind{EightBitOptimizer, ShardOptimizerState}},
		{"ZeRO in use", map[Role]string{OptimizerState: "ZeRO fp32 partition or optimizer state (DeepSpeed)"}, LeverInput{Ranks: 8},
			[]LeverKind{ShardOptimizerState, ShardGradients, ShardParameters}, []LeverKind{EightBitOptimizer}},
		{"FSDP in use", map[Role]string{Parameters: "FSDP sharded or unsharded parameter"}, LeverInput{Ranks: 8},
			[]LeverKind{ShardOptimizerState, ShardGradients, ShardParameters}, []LeverKind{ActivationCheckpointing}},
		{"8-bit state", map[Role]string{OptimizerState: ruleEightBit}, LeverInput{Ranks: 1},
			[]LeverKind{EightBitOptimizer, ShardOptimizerState}, []LeverKind{SmallerMicroBatch}},
		{"checkpointing in use", map[Role]string{Activations: lifetimeRules.checkpointed}, LeverInput{},
			[]LeverKind{ActivationCheckpointing}, []LeverKind{SmallerMicroBatch}},
		{"checkpointing in use, seen by its recomputation in backward", map[Role]string{Activations: lifetimeRules.recomputed}, LeverInput{},
			[]LeverKind{ActivationCheckpointing}, []LeverKind{SmallerMicroBatch}},
		{"fp32 master weights only: no moments for an 8-bit optimizer to shrink, sharding shards them", map[Role]string{OptimizerState: ruleMasterWeights + " (Megatron)"},
			LeverInput{Ranks: 8}, []LeverKind{EightBitOptimizer}, []LeverKind{ShardOptimizerState}},
		{"foreach step temporaries", map[Role]string{Temporaries: lifetimeRules.optTemp}, LeverInput{},
			nil, []LeverKind{FusedOptimizer}},
		{"other temporaries", nil, LeverInput{}, []LeverKind{FusedOptimizer}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bd := breakdownOf(base, tc.rules)
			ls := Levers(bd, tc.in)
			for _, k := range tc.absent {
				if hasLever(ls, k) {
					t.Errorf("recommends %s, already in use or not applicable", k)
				}
			}
			for _, k := range tc.want {
				if !hasLever(ls, k) {
					t.Errorf("no %s lever", k)
				}
			}
			checkLeversAddUp(t, bd, tc.in, ls)
			for i := 1; i < len(ls); i++ {
				if ls[i].Bytes > ls[i-1].Bytes {
					t.Errorf("levers not largest first: %v", ls)
				}
			}
		})
	}
}

// TestLeverSizes checks the estimates on a breakdown of round numbers,
// and that the sizes add up across a grid of breakdowns.
func TestLeverSizes(t *testing.T) {
	bd := breakdownOf(map[Role]int64{Parameters: 8 << 30, Gradients: 8 << 30, OptimizerState: 16 << 30, Activations: 40 << 30}, nil)
	ls := Levers(bd, LeverInput{Ranks: 4, Inactive: 2 << 30, DuringForward: true})
	want := map[LeverKind]int64{
		SmallerMicroBatch: 20 << 30, ActivationCheckpointing: 40 << 30, EightBitOptimizer: 12 << 30,
		ShardOptimizerState: 12 << 30, ShardGradients: 6 << 30, ShardParameters: 6 << 30,
		GradientsToNone: 8 << 30, ExpandableSegments: 2 << 30,
	}
	for _, l := range ls {
		if w, ok := want[l.Kind]; !ok || l.Bytes != w {
			t.Errorf("%s frees %d, want %d", l.Kind, l.Bytes, w)
		}
		if l.Kind == EightBitOptimizer && !strings.Contains(l.Basis, "twice the parameters") {
			t.Errorf("8-bit basis %q does not name Adam's ratio", l.Basis)
		}
	}
	if len(ls) != len(want) {
		t.Errorf("%d levers, want %d", len(ls), len(want))
	}
	if got := MostFreed(ls); got != 40<<30+12<<30+8<<30+6<<30+2<<30 {
		t.Errorf("most freed %d", got)
	}
	for _, p := range []int64{0, 1 << 20, 3 << 30} {
		for _, a := range []int64{0, 5 << 20, 7 << 30} {
			for _, s := range []int64{0, 1, 2*p + 1} {
				for _, ranks := range []int{0, 2, 3} {
					bd := breakdownOf(map[Role]int64{Parameters: p, Gradients: p, OptimizerState: s, Activations: a, Temporaries: a / 3}, map[Role]string{Temporaries: lifetimeRules.optTemp})
					in := LeverInput{Ranks: ranks, Inactive: a / 7, DuringForward: ranks == 2}
					checkLeversAddUp(t, bd, in, Levers(bd, in))
				}
			}
		}
	}
}

// TestAdamRatio reads Adam in fp32 off the state to parameter ratio, and
// falls back to gradients when the parameters were allocated before
// recording.
func TestAdamRatio(t *testing.T) {
	for _, tt := range []struct {
		params, grads, state int64
		adam, known          bool
	}{
		{100, 100, 200, true, true},
		{100, 0, 215, true, true},
		{0, 100, 190, true, true},
		{100, 100, 100, false, true}, // momentum SGD
		{100, 100, 50, false, true},  // 8-bit Adam
		{0, 0, 200, false, false},
		{100, 100, 0, false, false},
	} {
		bd := breakdownOf(map[Role]int64{Parameters: tt.params, Gradients: tt.grads, OptimizerState: tt.state}, nil)
		r, ok := StateRatio(bd)
		if ok != tt.known || ok && IsAdamFP32(r) != tt.adam {
			t.Errorf("%+v: ratio %.2f %v", tt, r, ok)
		}
	}
}

// TestLeversAtACapacityOOM runs a step with Adam into an OOM in the next
// step's forward and checks the levers the classified roles give.
func TestLeversAtACapacityOOM(t *testing.T) {
	f := newFixtureOf(t, 4<<30)
	f.alloc("w", 512<<20, modelTo, "")
	f.alloc("g", 512<<20, accumulateGrad, "")
	f.alloc("m", 512<<20, adamInit, "")
	f.alloc("v", 512<<20, adamInit, "")
	f.alloc("a1", 600<<20, forwardAt(40), "")
	f.alloc("a2", 600<<20, forwardAt(41), "")
	f.tick()
	if _, err := f.cur.Malloc(2<<30, 0, f.ctx(forwardAt(42), "")); err == nil {
		t.Fatal("no OOM")
	}
	s := f.snapshot()
	sc := SceneOf(s, 0)
	_, bd := Classify(sc)
	if sc.OOMPhase() != "forward" {
		t.Fatalf("OOM phase %q", sc.OOMPhase())
	}
	if r, ok := StateRatio(&bd); !ok || !IsAdamFP32(r) {
		t.Errorf("state ratio %.2f %v, want Adam's 2", r, ok)
	}
	in := LeverInput{Settings: s.Settings, Ranks: 1, DuringForward: true}
	ls := Levers(&bd, in)
	checkLeversAddUp(t, &bd, in, ls)
	got := map[LeverKind]int64{}
	for _, l := range ls {
		got[l.Kind] = l.Bytes
	}
	want := map[LeverKind]int64{ActivationCheckpointing: 1200 << 20, EightBitOptimizer: 768 << 20, SmallerMicroBatch: 600 << 20, GradientsToNone: 512 << 20}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s frees %d, want %d (levers %v)", k, got[k], n, ls)
		}
	}
}
