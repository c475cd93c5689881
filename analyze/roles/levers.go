package roles

import (
	"cmp"
	"slices"
	"strings"

	"gpureport/snapshot"
)

// At a capacity OOM the live tensors fill the card; what to change
// depends on which roles hold it. Levers gives, for each large role, the
// changes that shrink it and an estimate of the bytes each would free on
// the device, from the role's bytes at the OOM:
//
//   - activations (and the batch) scale with the micro-batch: halving it,
//     with twice the gradient-accumulation steps to keep the batch, frees
//     about half of them (the estimate leaves the inputs' half out, to
//     count only the role it names); activation checkpointing keeps only each
//     checkpointed block's inputs and recomputes the rest in backward,
//     freeing up to all of them;
//   - optimizer state: an 8-bit optimizer (bitsandbytes) keeps Adam's two
//     fp32 moments in one byte each, freeing three quarters; sharding it
//     over N data-parallel ranks (ZeRO-1, FSDP) frees (N-1)/N; a fused
//     optimizer (fused=True) frees the step's foreach temporaries. A ratio
//     of optimizer state to parameters (or, when the parameters were
//     allocated before recording, to gradients, which have their sizes)
//     near 2 says Adam or AdamW in fp32;
//   - gradients: set to None (zero_grad(set_to_none=True) before
//     forward) they are not held through forward; sharded (ZeRO-2, FSDP)
//     they shrink to 1/N;
//   - parameters: sharded (ZeRO-3, FSDP) they shrink to 1/N;
//   - the allocator: expandable_segments lets the cached free memory
//     serve the request.
//
// A lever already in use is never given: the allocator settings the
// snapshot records, and the frame rules that saw ZeRO, FSDP,
// bitsandbytes or activation checkpointing at work. Estimates of levers
// on one role are alternatives (the largest is what the role can give);
// levers on different roles add up, and the sum never exceeds the
// allocated bytes plus the cached free bytes.

// LeverKind is a change that frees memory at a capacity OOM.
type LeverKind uint8

// Levers, by the role they act on.
const (
	// SmallerMicroBatch halves the micro-batch (with gradient
	// accumulation keeping the batch): activations and inputs.
	SmallerMicroBatch LeverKind = iota
	// ActivationCheckpointing recomputes activations in backward.
	ActivationCheckpointing
	// EightBitOptimizer keeps optimizer state in 8 bits.
	EightBitOptimizer
	// ShardOptimizerState shards optimizer state over the ranks.
	ShardOptimizerState
	// FusedOptimizer runs the step in fused kernels, without foreach
	// temporaries.
	FusedOptimizer
	// GradientsToNone frees gradients between steps
	// (zero_grad(set_to_none=True) before forward).
	GradientsToNone
	// ShardGradients shards gradients over the ranks.
	ShardGradients
	// ShardParameters shards parameters over the ranks.
	ShardParameters
	// ExpandableSegments turns on expandable_segments.
	ExpandableSegments
)

var leverNames = [...]string{
	"smaller micro-batch", "activation checkpointing", "8-bit optimizer", "shard optimizer state",
	"fused optimizer", "zero_grad(set_to_none=True)", "shard gradients", "shard parameters", "expandable_segments:True",
}

// String names the lever.
func (k LeverKind) String() string {
	if int(k) < len(leverNames) {
		return leverNames[k]
	}
	return "lever"
}

// Lever is one change and what it would free.
type Lever struct {
	Kind LeverKind
	// Role is the role it shrinks (Other for the allocator's lever, which
	// frees cached memory, not live memory).
	Role Role
	// Bytes is the estimated memory freed on the device, bytes.
	Bytes int64
	// Basis says how Bytes was estimated.
	Basis string
}

// LeverInput is what Levers reads besides the roles.
type LeverInput struct {
	// Settings are the allocator settings in force at the OOM.
	Settings snapshot.AllocatorSettings
	// Ranks is the number of data-parallel ranks of the run (0 or 1:
	// one, and nothing to shard over).
	Ranks int
	// Inactive is the device's cached free memory at the OOM (reserved
	// minus active), bytes.
	Inactive int64
	// DuringForward reports that the OOM happened in forward, where
	// gradients held since the last step are not yet needed.
	DuringForward bool
}

// AdamRatio is the optimizer state to parameter ratio of Adam and AdamW
// in fp32 (two moments per parameter); ratios within AdamRatioTolerance
// of it are taken as Adam.
const (
	AdamRatio = 2.0
	// AdamRatioTolerance: the state also holds step counters and the odd
	// buffer, and parameters may include buffers without state: 15%
	// either side still tells two moments per parameter from one
	// (momentum SGD, ratio 1) and from 8-bit state (about 0.5).
	AdamRatioTolerance = 0.15
)

// StateRatio returns optimizer state over parameters (over gradients
// when no parameter bytes were identified), and false when neither is
// known or there is no optimizer state.
func StateRatio(bd *Breakdown) (float64, bool) {
	s := bd.Bytes[OptimizerState]
	base := bd.Bytes[Parameters]
	if base == 0 {
		base = bd.Bytes[Gradients]
	}
	if s == 0 || base == 0 {
		return 0, false
	}
	return float64(s) / float64(base), true
}

// IsAdamFP32 reports whether ratio (StateRatio) says Adam in fp32.
func IsAdamFP32(ratio float64) bool {
	return ratio >= AdamRatio*(1-AdamRatioTolerance) && ratio <= AdamRatio*(1+AdamRatioTolerance)
}

// Levers returns the levers for breakdown bd (the roles at a capacity
// OOM), largest estimate first, leaving out those already in use.
func Levers(bd *Breakdown, in LeverInput) []Lever {
	used := func(pred func(r RuleShare) bool) bool { return slices.ContainsFunc(bd.Rules, pred) }
	sharded := used(func(r RuleShare) bool {
		return r.Bytes > 0 && (strings.HasPrefix(r.Rule, rulePrefixZeRO) || strings.HasPrefix(r.Rule, rulePrefixFSDP))
	})
	eightBit := used(func(r RuleShare) bool { return r.Bytes > 0 && r.Rule == ruleEightBit })
	checkpointing := used(func(r RuleShare) bool {
		return r.Bytes > 0 && (r.Rule == lifetimeRules.checkpointed || r.Rule == lifetimeRules.recomputed)
	})
	var stepTemps, masters int64
	for _, r := range bd.Rules {
		switch {
		case r.Rule == lifetimeRules.optTemp:
			stepTemps += r.Bytes
		case r.Role == OptimizerState && strings.HasPrefix(r.Rule, ruleMasterWeights):
			masters += r.Bytes
		}
	}
	var out []Lever
	add := func(k LeverKind, r Role, n int64, basis string) {
		if n > 0 {
			out = append(out, Lever{Kind: k, Role: r, Bytes: n, Basis: basis})
		}
	}
	act := bd.Bytes[Activations]
	add(SmallerMicroBatch, Activations, act/2,
		"activations scale with the micro-batch: halving it (and doubling gradient-accumulation steps to keep the batch) frees about half of them, and half of the batch's inputs besides")
	if !checkpointing {
		add(ActivationCheckpointing, Activations, act,
			"checkpointing keeps only each checkpointed block's inputs and recomputes the rest in backward: up to all of the activations, less those inputs")
	}
	state := bd.Bytes[OptimizerState]
	if !eightBit {
		basis := "an 8-bit optimizer keeps each fp32 moment in one byte: three quarters of the state"
		if ratio, ok := StateRatio(bd); ok && IsAdamFP32(ratio) {
			basis = "optimizer state is about twice the parameters, Adam's two fp32 moments; " + basis
		}
		if masters > 0 {
			// An 8-bit optimizer quantises the moments; mixed
			// precision's fp32 master weights stay fp32.
			basis += " (of the moments: the fp32 master weights stay)"
		}
		add(EightBitOptimizer, OptimizerState, (state-masters)*3/4, basis)
	}
	n := int64(in.Ranks)
	if n >= 2 && !sharded {
		add(ShardOptimizerState, OptimizerState, state*(n-1)/n, "sharding optimizer state over the run's data-parallel ranks (ZeRO-1, FSDP) keeps 1/N of it on each")
		add(ShardGradients, Gradients, bd.Bytes[Gradients]*(n-1)/n, "sharding gradients over the run's data-parallel ranks (ZeRO-2, FSDP) keeps 1/N of them on each")
		add(ShardParameters, Parameters, bd.Bytes[Parameters]*(n-1)/n, "sharding parameters over the run's data-parallel ranks (ZeRO-3, FSDP) keeps 1/N of them on each, gathered layer by layer")
	}
	add(FusedOptimizer, Temporaries, stepTemps, "a fused optimizer step (fused=True) makes no foreach temporaries: the step's temporaries at the OOM")
	if in.DuringForward {
		add(GradientsToNone, Gradients, bd.Bytes[Gradients],
			"gradients held from the last step are not needed in forward: zero_grad(set_to_none=True) before forward frees them until backward makes them again")
	}
	if !in.Settings.ExpandableSegments {
		add(ExpandableSegments, Other, in.Inactive,
			"the allocator's cached free memory; with expandable_segments:True a segment grows in place instead of needing one free piece as large as the request")
	}
	slices.SortStableFunc(out, func(a, b Lever) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out
}

// MostFreed returns the most the levers can free together: per role the
// largest estimate (levers on one role are alternatives), summed over
// roles.
func MostFreed(ls []Lever) int64 {
	var best [NumRoles]int64
	for _, l := range ls {
		best[l.Role] = max(best[l.Role], l.Bytes)
	}
	var sum int64
	for _, b := range best {
		sum += b
	}
	return sum
}
