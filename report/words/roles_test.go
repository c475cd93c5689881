package words

import (
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/analyze/roles"
	"gpureport/snapshot"
)

// breakdown is a breakdown of the given role bytes, decided by frame
// rules except unknown, with why it is unknown.
func breakdown(bytes map[roles.Role]int64) *roles.Breakdown {
	bd := &roles.Breakdown{}
	for r, n := range bytes {
		bd.Bytes[r] = n
		bd.Allocated += n
		if r == roles.Unknown {
			bd.ByEvidence[r][roles.ByNothing] = n
			bd.Rules = append(bd.Rules, roles.RuleShare{Rule: "no frames", Role: r, Evidence: roles.ByNothing, Bytes: n})
			continue
		}
		bd.ByEvidence[r][roles.ByFrame] = n
	}
	return bd
}

func TestRolesList(t *testing.T) {
	tests := []struct {
		name  string
		bytes map[roles.Role]int64
		want  string
	}{
		{"none", nil, ""},
		{"largest first", map[roles.Role]int64{roles.Parameters: 9 * gib, roles.Activations: 41 * gib, roles.OptimizerState: 18 * gib},
			"activations 41.0 GiB, optimizer state 18.0 GiB, parameters 9.00 GiB"},
		{"the rest folded", map[roles.Role]int64{roles.Parameters: 9 * gib, roles.Activations: 41 * gib, roles.OptimizerState: 18 * gib,
			roles.Gradients: 9 * gib, roles.Workspace: 100 * mib, roles.Unknown: 200 * mib},
			"activations 41.0 GiB, optimizer state 18.0 GiB, parameters 9.00 GiB, gradients 9.00 GiB, 2 more 300 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RolesList(&breakdown(tt.bytes).Bytes); got != tt.want {
				t.Errorf("RolesList = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestHeld: the one line is about the OOM when there is one, else the
// peak snapshot of its device, and says nothing without roles.
func TestHeld(t *testing.T) {
	bd := breakdown(map[roles.Role]int64{roles.Activations: 41 * gib, roles.Parameters: 9 * gib})
	dev := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: 1, Device: 0}, Points: []analyze.Point{{}, {Roles: bd}}}
	tests := []struct {
		name string
		f    *analyze.Findings
		want string
	}{
		{"no roles", &analyze.Findings{Devices: []*analyze.Device{dev}}, ""},
		{"at the OOM", &analyze.Findings{OOMs: []analyze.OOM{{Rank: 1, Device: 0, Roles: bd}}, Held: &analyze.Held{Device: dev.DeviceKey, OOM: 0, Point: -1}},
			"At the OOM on rank 1 · cuda:0, live memory (50.0 GiB) held: activations 41.0 GiB, parameters 9.00 GiB."},
		{"at the peak", &analyze.Findings{Devices: []*analyze.Device{dev}, Held: &analyze.Held{Device: dev.DeviceKey, OOM: -1, Point: 1}},
			"At the peak snapshot of rank 1 · cuda:0, live memory (50.0 GiB) held: activations 41.0 GiB, parameters 9.00 GiB."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Held(tt.f); got != tt.want {
				t.Errorf("Held = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCertainty(t *testing.T) {
	bd := breakdown(map[roles.Role]int64{roles.Activations: 3 * gib, roles.Unknown: gib})
	bd.ByEvidence[roles.Activations] = [roles.NumEvidence]int64{roles.ByFrame: gib, roles.ByLifetime: 2 * gib}
	contains(t, "certainty", Certainty(bd), []string{"Roles of 3.00 GiB decided: 33.3% by frame rules, 66.7% by lifetimes.", "1.00 GiB unknown (no frames)."}, []string{"user labels"})
	if Certainty(&roles.Breakdown{}) != "" {
		t.Error("an empty breakdown has a certainty")
	}
}

func TestSuspectRole(t *testing.T) {
	sp := &analyze.Suspect{Roles: &analyze.SuspectRoles{Role: roles.Activations, Evidence: roles.ByLifetime}}
	sp.Roles.Bytes[roles.Activations], sp.Roles.Bytes[roles.Unknown] = 4*gib, 100*mib
	contains(t, "suspect role", SuspectRole(sp), []string{"The leak is activations kept across steps", "4.00 GiB of its 4.10 GiB", "decided by lifetime"}, nil)
	sp.Roles = &analyze.SuspectRoles{Role: roles.Other, Evidence: roles.ByNothing}
	sp.Roles.Bytes[roles.Other] = gib
	contains(t, "suspect of no role", SuspectRole(sp), []string{"The leak is memory of no known role", "no rule named a role for its stack"}, []string{"decided by none"})
	if SuspectRole(&analyze.Suspect{}) != "" {
		t.Error("a suspect without roles has one")
	}
}

// TestCapacityLevers: a capacity OOM's explanation names its largest
// roles, and each lever's recommendation says what it would free as an
// estimate, of which role.
func TestCapacityLevers(t *testing.T) {
	bd := breakdown(map[roles.Role]int64{roles.Activations: 40 * gib, roles.OptimizerState: 18 * gib, roles.Parameters: 9 * gib, roles.Gradients: 9 * gib})
	o := &analyze.OOM{Cause: analyze.CauseCapacity, Requested: 2 * gib, DeviceFree: 100 * mib, Missing: 2*gib - 100*mib,
		Allocated: bd.Allocated, Reserved: bd.Allocated + gib, CachedFree: gib, Roles: bd, Phase: "forward", Ranks: 4,
		Settings: snapshot.AllocatorSettings{Present: true, ExpandableSegments: true, MaxSplitSize: -1}}
	o.Levers = roles.Levers(bd, roles.LeverInput{Settings: o.Settings, Ranks: 4, DuringForward: true})
	for _, l := range o.Levers {
		o.Recommendations = append(o.Recommendations, analyze.Recommendation{Kind: analyze.StepLever, Lever: l})
	}
	contains(t, "explanation", Explanation(o), []string{"What held the live memory (the OOM came in forward): activations 40.0 GiB, optimizer state 18.0 GiB, parameters 9.00 GiB, gradients 9.00 GiB.",
		"could free up to about", "estimates"}, nil)
	seen := map[string]bool{}
	for _, r := range o.Recommendations {
		s := Recommendation(o, r).String()
		contains(t, "lever "+r.Lever.Kind.String(), s, []string{"would free about", "(an estimate)", "of " + Role(r.Lever.Role)}, []string{"expandable_segments:True"})
		seen[strings.SplitN(s, ":", 2)[0]] = true
	}
	for _, want := range []string{"activation checkpointing", "an 8-bit optimizer (bitsandbytes.optim.AdamW8bit)", "shard the optimizer state over the 4 ranks (ZeRO-1, FSDP)"} {
		if !seen[want] {
			t.Errorf("no recommendation %q among %v", want, seen)
		}
	}
}

// TestLeverWords pins what each lever asks the user to do: the sharding
// levers name the run's ranks, the others are one fixed instruction, and
// a kind with no words of its own falls back to its name.
func TestLeverWords(t *testing.T) {
	o := &analyze.OOM{Ranks: 8}
	for _, c := range []struct {
		kind roles.LeverKind
		want string
	}{
		{roles.SmallerMicroBatch, "halve the micro-batch and double the gradient-accumulation steps"},
		{roles.ActivationCheckpointing, "activation checkpointing: wrap the largest blocks in torch.utils.checkpoint.checkpoint with use_reentrant=False"},
		{roles.EightBitOptimizer, "an 8-bit optimizer (bitsandbytes.optim.AdamW8bit)"},
		{roles.ShardOptimizerState, "shard the optimizer state over the 8 ranks (ZeRO-1, FSDP)"},
		{roles.FusedOptimizer, "a fused optimizer step (fused=True)"},
		{roles.GradientsToNone, "optimizer.zero_grad(set_to_none=True) before forward"},
		{roles.ShardGradients, "shard the gradients over the 8 ranks (ZeRO-2, FSDP)"},
		{roles.ShardParameters, "shard the parameters over the 8 ranks (ZeRO-3, FSDP)"},
		{roles.ExpandableSegments, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"},
		{roles.ExpandableSegments + 1, "lever"},
	} {
		if got := lever(o, roles.Lever{Kind: c.kind}); got != c.want {
			t.Errorf("lever %d: got %q, want %q", c.kind, got, c.want)
		}
	}
}

// TestEvidenceWords pins how Certainty names each kind of evidence.
func TestEvidenceWords(t *testing.T) {
	want := []string{"user labels", "frame rules", "lifetimes", "no evidence (other)"}
	for e := range roles.NumEvidence {
		bd := &roles.Breakdown{Allocated: 1}
		bd.Bytes[roles.Other] = 1
		bd.ByEvidence[roles.Other][e] = 1
		if got, w := Certainty(bd), "100% by "+want[e]+"."; !strings.Contains(got, w) {
			t.Errorf("evidence %v: got %q, want it to contain %q", e, got, w)
		}
	}
}
