package roles

import "gpureport/snapshot"

// The lifetime rules. A stack that names a phase but no role (a module's
// forward, an autograd node, an optimizer's step) leaves the role to how
// long the block lived, read from the trace:
//
//   - an operation is a run of consecutive allocations from one call site
//     (siteOf): the allocations of a matmul and its workspace share their
//     Python frames, the next line of the model does not. A block freed
//     before the next allocation from another site died inside its
//     operation: a temporary, in every phase (PyTorch's profiler calls
//     tensors "allocated and freed inside one op" TEMPORARY);
//   - a forward allocation that outlived its operation is an activation
//     (the profiler's ACTIVATION: made in forward and used later, by the
//     forward's next operations or by backward);
//   - a backward allocation that outlived its node is a gradient when it
//     outlives backward too (the engine hands a node's output to
//     AccumulateGrad, which keeps it as .grad without copying when it
//     can), else an activation's gradient on its way through backward,
//     a temporary;
//   - an optimizer-step allocation that outlived its operation is
//     optimizer state when it outlives the step (lazily made state:
//     SGD's momentum buffer, a hand-written Adam's moments), else a
//     temporary of the step;
//   - at an OOM dump, the blocks of the operation that failed (allocated
//     since the last allocation from another site, by the failing
//     allocation's site) are in flight: temporaries.
//
// At a dump nothing is known of the future: a live block has outlived
// its operation (the dump ran between statements, or it is the failing
// operation's) and its phase decides. Backward blocks alive at a dump
// are mostly gradients even during backward: activations' gradients are
// freed as backward consumes them, parameters' gradients accumulate.

// timeline is what the lifetime rules read of a trace: for each alloc
// event, where its operation and its phase end. (Entries of other events
// are unused.)
type timeline struct {
	// nextSite[i] is the index of the first alloc event after alloc
	// event i from another call site; phaseEnd[i] the first after i of
	// another phase; len(trace) when none.
	nextSite, phaseEnd []int32
}

// newTimeline reads trace tr with the stacks of cache. Allocations
// without frames are of phase backward when the trace records stacks
// (they ran on a thread without Python frames: autograd's engine), else
// of no phase.
func newTimeline(tr []snapshot.TraceEntry, cache *stackCache, stacksRecorded bool) *timeline {
	n := len(tr)
	t := &timeline{nextSite: make([]int32, n), phaseEnd: make([]int32, n)}
	next, nextSite, nextPhase := int32(n), "", noPhase
	for i := n - 1; i >= 0; i-- {
		e := &tr[i]
		if e.Action != snapshot.ActionAlloc {
			continue
		}
		st := cache.get(e.Stack)
		ph := st.phase()
		if st.empty && stacksRecorded {
			ph = backward
		}
		switch {
		case next == int32(n):
			t.nextSite[i], t.phaseEnd[i] = int32(n), int32(n)
		default:
			t.nextSite[i] = next
			if st.site == nextSite {
				t.nextSite[i] = t.nextSite[next]
			}
			t.phaseEnd[i] = next
			if ph == nextPhase {
				t.phaseEnd[i] = t.phaseEnd[next]
			}
		}
		next, nextSite, nextPhase = int32(i), st.site, ph
	}
	return t
}

// lifetimeRules names each lifetime rule's decision, by phase.
var lifetimeRules = struct {
	diesInOp, inFlight                             string
	forward, checkpointed, recomputed              string
	backwardGrad, backwardTemp, optState           string
	optTemp, backwardThreadGrad, backwardThreadTmp string
}{
	diesInOp:           "freed inside the operation that made it",
	inFlight:           "in flight in the operation that ran out of memory",
	forward:            "forward allocation alive after its operation",
	checkpointed:       "forward allocation alive after its operation, under activation checkpointing (torch.utils.checkpoint)",
	recomputed:         "forward recomputed in backward by activation checkpointing (torch.utils.checkpoint), alive after its operation: an activation",
	backwardGrad:       "backward output alive after its autograd node: a gradient",
	backwardTemp:       "backward output freed before backward ended: an activation's gradient",
	optState:           "optimizer-step allocation kept past the step",
	optTemp:            "optimizer-step allocation freed before the step ended",
	backwardThreadGrad: "no Python frames, allocated in the trace on autograd's thread, alive after its node: a gradient",
	backwardThreadTmp:  "no Python frames, allocated in the trace on autograd's thread, freed before backward ended",
}

// byLifetime decides the role of block b, whose stack st names phase ph,
// by how long it lived (see the comment above).
func (c *classifier) byLifetime(b *Block, st *stack, ph phase) Decision {
	lt := func(r Role, rule string) Decision { return Decision{Role: r, Evidence: ByLifetime, Rule: rule} }
	sc, tl := c.sc, c.tl
	if tl != nil && b.Alloc >= 0 && b.Alloc < len(sc.Trace) {
		// Allocations without frames share one site, which names no
		// operation: only their phase's end tells.
		end := int(tl.nextSite[b.Alloc])
		if !st.empty && sc.Future && b.Freed >= 0 && b.Freed < end {
			return lt(Temporaries, lifetimeRules.diesInOp)
		}
		if !st.empty && sc.OOM != nil && end > sc.At && st.site == c.cache.get(sc.OOM.Stack).site {
			return lt(Temporaries, lifetimeRules.inFlight)
		}
		freedInPhase := sc.Future && b.Freed >= 0 && b.Freed < int(tl.phaseEnd[b.Alloc])
		switch ph {
		case backward:
			if freedInPhase {
				if st.empty {
					return lt(Temporaries, lifetimeRules.backwardThreadTmp)
				}
				return lt(Temporaries, lifetimeRules.backwardTemp)
			}
		case optimizerStep:
			if freedInPhase {
				return lt(Temporaries, lifetimeRules.optTemp)
			}
		}
	}
	switch ph {
	case forward:
		if st.recomputed() {
			return lt(Activations, lifetimeRules.recomputed)
		}
		if st.inCheckpoint() {
			return lt(Activations, lifetimeRules.checkpointed)
		}
		return lt(Activations, lifetimeRules.forward)
	case backward:
		if st.empty {
			return lt(Gradients, lifetimeRules.backwardThreadGrad)
		}
		return lt(Gradients, lifetimeRules.backwardGrad)
	case optimizerStep:
		return lt(OptimizerState, lifetimeRules.optState)
	}
	return Decision{Role: Other, Evidence: ByNothing, Rule: ruleNoMatch}
}
