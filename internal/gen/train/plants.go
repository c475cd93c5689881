package train

import (
	"math"

	"gpureport/internal/gen/alloc"
)

// The planted behaviours beyond a leak, a one-time buffer and
// fragmentation: growth that is not a leak (a bounded container of recent
// tensors, generation phases with key/value caches, CUDA graph captures
// into private pools), the two leaks that hide from a byte count (a
// history tensor re-created bigger, a tensor kept from the backward pass
// whose stack has no Python frame) and the habits of long healthy runs
// (gradient accumulation, mixed precision). Each is off when its Spec
// field is zero, so other runs are unchanged.

// Leak sites beyond LeakSites, planted by their own scenarios. Their
// names are what a user sees: the innermost user frame, or for a stack
// without Python frames the autograd node that allocated it.
const (
	// ConcatLeakSite re-creates a history tensor bigger at every step:
	// self.history = torch.cat([self.history, preds]).
	ConcatLeakSite = "metrics.py:55"
	// BackwardLeakSite keeps a gradient made in the backward pass (a
	// hook appending grad to a list): autograd's own thread allocates it,
	// so its stack has C++ frames only, MulBackward0's among them.
	BackwardLeakSite = "MulBackward0 (autograd)"
)

// plantSites are the allocation and free sites of the plants.
type plantSites struct {
	bounded, boundedFree  *site
	kv, kvFree            *site
	graphStatic, graphTmp *site
	cast                  *site
	heavy                 *site
}

// newPlantSites builds the plants' sites for spec's program.
func newPlantSites(c *catalog, spec *Spec) *plantSites {
	ps := &plantSites{}
	m, t := c.proj(modelPy), c.proj(trainPy)
	mainFrames := []pyFrame{{t, 140, "main"}, {t, 152, "<module>"}}
	if b := spec.Bounded; b != nil {
		switch b.Kind {
		case BoundedReplay:
			// self.buffer.append(traj.detach()) in ReplayBuffer.add.
			r := c.proj("replay.py")
			ps.bounded = c.stack(op(kClone.frames()...), append([]pyFrame{{r, 42, "add"}}, c.trainStep(67)...))
			ps.boundedFree = c.stack(withFree(cppPyDealloc()), append([]pyFrame{{r, 44, "add"}}, c.trainStep(67)...))
		case BoundedEvalCache:
			// self.last_outputs.append(model.generate(batch)) in evaluate.
			e := c.proj("eval.py")
			ps.bounded = c.stack(op(kCopy.frames()...), append([]pyFrame{{e, 58, "evaluate"}}, mainFrames...))
			ps.boundedFree = c.stack(withFree(cppPyDealloc()), append([]pyFrame{{e, 60, "evaluate"}}, mainFrames...))
		default:
			// recent.append(logits.detach().clone()), recent a deque.
			ps.bounded = c.stack(op(kClone.frames()...), c.trainStep(66))
			ps.boundedFree = c.stack(withFree(cppPyDealloc()), c.trainStep(66))
		}
	}
	if spec.KV != nil {
		// k = torch.cat([past_k, k], dim=2) in Attention.forward, under
		// GPT.generate called by the evaluation.
		gen := c.chain([]pyFrame{{m, 142, "forward"}}, []pyFrame{{m, 72, "forward"}})
		gen = append(gen, pyFrame{m, 170, "generate"}, pyFrame{c.proj("eval.py"), 31, "generate_samples"})
		gen = append(gen, mainFrames...)
		ps.kv = c.stack(op(kCat.frames()...), gen)
		ps.kvFree = c.stack(withFree(cppPyDealloc()), gen)
	}
	if g := spec.Graph; g != nil {
		var frames []pyFrame
		if g.Compiled {
			ct := c.torch("_inductor/cudagraph_trees.py")
			frames = append([]pyFrame{{ct, 1986, "_record"}, {ct, 1861, "record_function"}, {ct, 1702, "run"},
				{c.torch("_inductor/compile_fx.py"), 1569, "run"}, {c.torch("_dynamo/eval_frame.py"), 655, "_fn"}}, c.trainStep(55)...)
		} else {
			// static_out = model(static_in) under torch.cuda.graph(g).
			frames = append(c.chain(c.linear(), []pyFrame{{m, 115, "forward"}}), pyFrame{t, 128, "capture_graph"}, pyFrame{t, 135, "main"}, pyFrame{t, 152, "<module>"})
		}
		ps.graphStatic = c.stack(op(kLinear.frames()...), frames)
		ps.graphTmp = c.stack(op(kGelu.frames()...), frames)
	}
	if spec.Heavy != nil {
		// gathered = [torch.empty_like(out) for _ in range(world)] on
		// the rank that gathers.
		ps.heavy = c.stack(op(kZerosLike.frames()...), []pyFrame{{t, 133, "<listcomp>"}, {t, 133, "main"}, {t, 152, "<module>"}})
	}
	if spec.AMP {
		// autocast's cached weight casts, made by F.linear in the block.
		ps.cast = c.stack(op(kAutocastCast.frames()...), c.inBlock(72, c.linear(), []pyFrame{{m, 41, "forward"}}))
	}
	return ps
}

// concatLeakSite and backwardLeakSite are the sites of the two hard leaks.
func (p *program) concatLeakSite() *site {
	c := p.c
	return c.stack(op(kCat.frames()...), append([]pyFrame{{c.proj(metricsPy), 55, "update"}}, c.trainStep(58)...))
}

func (p *program) backwardLeakSite() *site {
	c := p.c
	s := c.stack(append(op(kMulBackward.frames()...), cppAutograd()...), nil)
	s.user = BackwardLeakSite
	return s
}

// boundedStep adds the container's tensors when step is one of its
// addition steps and drops the oldest beyond its cap.
func (s *sim) boundedStep(rk *rank, step int) error {
	b := s.spec.Bounded
	if b == nil || step%max(b.Every, 1) != 0 {
		return nil
	}
	ps := s.prog.plants
	for range b.Add {
		n := int64(float64(b.Median) * math.Exp(b.Sigma*s.r.NormFloat64()))
		n = min(max(n, 512), b.Max)
		t, err := s.m(rk, step, n, ps.bounded)
		if err != nil {
			return err
		}
		rk.bounded = append(rk.bounded, t)
	}
	for len(rk.bounded) > b.Cap {
		s.free(rk, rk.bounded[0], ps.boundedFree)
		rk.bounded = rk.bounded[1:]
	}
	return nil
}

// kvStep runs a generation step when step is in a phase: every layer's
// cache is re-created longer and the old one freed; the first step after
// a phase frees the caches.
func (s *sim) kvStep(rk *rank, step int) error {
	kv := s.spec.KV
	if kv == nil {
		return nil
	}
	ps := s.prog.plants
	in := step % kv.Every
	if in >= kv.Len {
		s.freeAll(rk, rk.kv, ps.kvFree)
		rk.kv = nil
		return nil
	}
	if rk.kv == nil {
		rk.kv = make([]tensor, kv.Layers)
	}
	tokens := int64(kv.Prompt + kv.Tokens*(in+1))
	for l := range rk.kv {
		nb, err := s.m(rk, step, tokens*kv.TokenBytes, ps.kv)
		if err != nil {
			return err
		}
		s.free(rk, rk.kv[l], ps.kvFree)
		rk.kv[l] = nb
	}
	return nil
}

// captureStep captures a CUDA graph when step is a capture step: its
// static tensors stay alive in a private pool of its own, and the
// capture's intermediates are freed back into that pool.
func (s *sim) captureStep(rk *rank, step int) error {
	g := s.spec.Graph
	if g == nil {
		return nil
	}
	for i, at := range g.Steps {
		if at != step {
			continue
		}
		ps := s.prog.plants
		pool := alloc.PoolID{0, int64(i + 1)}
		per := g.Bytes / int64(max(g.Blocks, 1))
		var tmps []tensor
		for range g.Blocks {
			tmp, err := s.mIn(rk, step, per, pool, ps.graphTmp)
			if err != nil {
				return err
			}
			tmps = append(tmps, tmp)
			b, err := s.mIn(rk, step, per, pool, ps.graphStatic)
			if err != nil {
				return err
			}
			rk.graphs = append(rk.graphs, b)
		}
		s.freeAll(rk, tmps, s.prog.freeFwd)
	}
	return nil
}

// mIn allocates n bytes at site st in private pool id.
func (s *sim) mIn(rk *rank, step int, n int64, id alloc.PoolID, st *site) (tensor, error) {
	s.tick(rk)
	b, err := rk.a.MallocIn(n, 0, id, s.cat.ctx(st))
	s.noteReserved(rk)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// heavyStep makes the heavy rank's buffers at the first step.
func (s *sim) heavyStep(rk *rank, step int) error {
	h := s.spec.Heavy
	if h == nil || rk.idx != h.Rank || step != 0 {
		return nil
	}
	for range h.Blocks {
		b, err := s.m(rk, step, h.Bytes/int64(h.Blocks), s.prog.plants.heavy)
		if err != nil {
			return err
		}
		rk.heavy = append(rk.heavy, b)
	}
	return nil
}

// casts makes autocast's half-precision copies of one block's four
// weight matrices (AMP), returned to be saved for backward.
func (s *sim) casts(rk *rank, step int) ([]tensor, error) {
	if !s.spec.AMP {
		return nil, nil
	}
	h := int64(s.spec.Hidden)
	var out []tensor
	for _, n := range []int64{3 * h * h, h * h, 4 * h * h, 4 * h * h} {
		b, err := s.m(rk, step, 2*n, s.prog.plants.cast)
		if err != nil {
			return out, err
		}
		out = append(out, b)
	}
	return out, nil
}

// optimizerStep reports whether step ends an accumulation: the optimizer
// steps and gradients are zeroed.
func (s *Spec) optimizerStep(step int) bool {
	return s.Accum <= 1 || (step+1)%s.Accum == 0
}
