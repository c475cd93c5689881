package analyze

import (
	"testing"

	"gpureport/analyze/roles"
	"gpureport/snapshot"
)

// capacityBreakdown is the roles of a capacity OOM: Adam in fp32
// (optimizer state twice the parameters), activations filling the rest.
func capacityBreakdown(rules ...roles.RuleShare) *roles.Breakdown {
	bd := &roles.Breakdown{Rules: rules}
	for r, n := range map[roles.Role]int64{roles.Parameters: 8 << 30, roles.Gradients: 8 << 30, roles.OptimizerState: 16 << 30,
		roles.Activations: 40 << 30, roles.Temporaries: 1 << 30, roles.Unknown: 512 << 20} {
		bd.Bytes[r] = n
		bd.Allocated += n
	}
	return bd
}

// TestCapacityOOMLevers: a capacity OOM's recommendations are a lever
// per large role, never a setting or practice already in use; the levers
// on different roles add up to no more than the allocated and cached
// free memory; without roles the advice is to reduce live memory.
func TestCapacityOOMLevers(t *testing.T) {
	tests := []struct {
		name     string
		bd       *roles.Breakdown
		settings snapshot.AllocatorSettings
		ranks    int
		phase    string
		want     []roles.LeverKind
		never    []roles.LeverKind
	}{
		{name: "one rank in backward", bd: capacityBreakdown(), ranks: 1, phase: "backward",
			want:  []roles.LeverKind{roles.ActivationCheckpointing, roles.SmallerMicroBatch, roles.EightBitOptimizer},
			never: []roles.LeverKind{roles.ShardOptimizerState, roles.ShardGradients, roles.ShardParameters, roles.GradientsToNone, roles.ExpandableSegments}},
		{name: "four ranks in forward", bd: capacityBreakdown(), ranks: 4, phase: "forward",
			want: []roles.LeverKind{roles.ActivationCheckpointing, roles.ShardOptimizerState, roles.EightBitOptimizer, roles.GradientsToNone, roles.ShardParameters}},
		{name: "already sharded, 8-bit and checkpointed", ranks: 4, phase: "forward",
			bd: capacityBreakdown(
				roles.RuleShare{Rule: "ZeRO optimizer partition", Role: roles.OptimizerState, Bytes: 1},
				roles.RuleShare{Rule: "8-bit optimizer state (bitsandbytes)", Role: roles.OptimizerState, Bytes: 1},
				roles.RuleShare{Rule: "forward allocation alive after its operation, under activation checkpointing (torch.utils.checkpoint)", Role: roles.Activations, Bytes: 1}),
			want: []roles.LeverKind{roles.SmallerMicroBatch},
			never: []roles.LeverKind{roles.ShardOptimizerState, roles.ShardGradients, roles.ShardParameters,
				roles.EightBitOptimizer, roles.ActivationCheckpointing}},
		{name: "expandable segments on", bd: capacityBreakdown(), ranks: 1, settings: snapshot.AllocatorSettings{Present: true, ExpandableSegments: true},
			want: []roles.LeverKind{roles.ActivationCheckpointing}, never: []roles.LeverKind{roles.ExpandableSegments}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := OOM{Requested: 4 << 30, DeviceFree: 64 << 20, Allocated: tt.bd.Allocated,
				Reserved: tt.bd.Allocated + 1<<30, CachedFree: 1 << 30, LargestFree: 256 << 20,
				Settings: tt.settings, Expandable: tt.settings.ExpandableSegments, Roles: tt.bd, Phase: tt.phase, Ranks: tt.ranks}
			o.Missing = o.Requested - o.DeviceFree
			classifyOOM(&o)
			if o.Cause != CauseCapacity {
				t.Fatalf("cause %s, want capacity", o.Cause)
			}
			got := map[roles.LeverKind]bool{}
			for _, r := range o.Recommendations {
				switch r.Kind {
				case StepLever:
					got[r.Lever.Kind] = true
				case StepExpandable, StepMaxSplit, StepGCThreshold, StepReduceLive:
					t.Errorf("recommends %s at a capacity OOM with roles", r.Kind)
				}
			}
			for _, k := range tt.want {
				if !got[k] {
					t.Errorf("no lever %s among %v", k, o.Levers)
				}
			}
			for _, k := range tt.never {
				if got[k] {
					t.Errorf("lever %s recommended, but it is in use or cannot apply", k)
				}
			}
			if most := roles.MostFreed(o.Levers); most <= 0 || most > o.Allocated+o.CachedFree {
				t.Errorf("levers free %d together, want within (0, %d]", most, o.Allocated+o.CachedFree)
			}
			for _, l := range o.Levers {
				if l.Role != roles.Other && l.Bytes > o.Roles.Bytes[l.Role] {
					t.Errorf("lever %s frees %d, more than its role's %d", l.Kind, l.Bytes, o.Roles.Bytes[l.Role])
				}
			}
		})
	}
	t.Run("without roles", func(t *testing.T) {
		o := OOM{Requested: 4 << 30, DeviceFree: 64 << 20, Allocated: 70 << 30, Reserved: 71 << 30, CachedFree: 1 << 30, LargestFree: 256 << 20}
		o.Missing = o.Requested - o.DeviceFree
		classifyOOM(&o)
		if len(o.Recommendations) != 1 || o.Recommendations[0].Kind != StepReduceLive || o.Levers != nil {
			t.Errorf("recommendations %+v, levers %+v: want reduce live memory alone", o.Recommendations, o.Levers)
		}
	})
}

// TestHeldMoment: the one line of roles is about the first OOM with
// roles, else the peak snapshot of the CUDA device that allocated most,
// the pinned host memory only when no GPU has roles.
func TestHeldMoment(t *testing.T) {
	bd := &roles.Breakdown{Allocated: 1}
	point := func(alloc int64, r *roles.Breakdown) Point { return Point{Usage: Usage{Allocated: alloc}, Roles: r} }
	gpu0 := &Device{DeviceKey: DeviceKey{Rank: 0}, Points: []Point{point(5, bd), point(9, bd), point(7, bd)}}
	gpu1 := &Device{DeviceKey: DeviceKey{Rank: 1}, Points: []Point{point(12, bd), point(3, bd)}}
	bare := &Device{DeviceKey: DeviceKey{Rank: 2}, Points: []Point{point(99, nil)}}
	host := &Device{DeviceKey: DeviceKey{Rank: 0, Host: true}, Points: []Point{point(50, bd)}}
	tests := []struct {
		name string
		f    *Findings
		want *Held
	}{
		{"nothing", &Findings{Devices: []*Device{bare}}, nil},
		{"an OOM with roles", &Findings{Devices: []*Device{gpu0, gpu1}, OOMs: []OOM{{Rank: 1}, {Rank: 0, Device: 0, Roles: bd}}},
			&Held{Device: DeviceKey{Rank: 0}, OOM: 1, Point: -1}},
		{"the peak of the device that allocated most", &Findings{Devices: []*Device{gpu0, gpu1, bare, host}, OOMs: []OOM{{Rank: 1}}},
			&Held{Device: DeviceKey{Rank: 1}, OOM: -1, Point: 0}},
		{"pinned host memory alone", &Findings{Devices: []*Device{bare, host}}, &Held{Device: host.DeviceKey, OOM: -1, Point: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := heldMoment(tt.f)
			if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
				t.Errorf("heldMoment = %+v, want %+v", got, tt.want)
			}
		})
	}
}
