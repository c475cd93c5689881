package train

import "fmt"

// program holds the allocation and free sites of the simulated training
// script: a small GPT trained with AdamW by train.py, with model.py,
// data.py and metrics.py beside it.
type program struct {
	c *catalog

	paramInit, data, embed, ln, qkv, scores, softmax, attnOut, proj, resid *site
	fc1, gelu, fc2, lmHead, xent, loss                                     *site
	bwdMM, bwdElem, accGrad, cublas                                        *site
	optInit, optTemp                                                       *site

	freeFwd, freeBwd, freeStepEnd, freeZeroGrad, freeOpt, emptyCache *site

	leak, oneTime, fragBig, fragPin, fragFree *site

	// plants are the sites of the other planted behaviours (plants.go).
	plants *plantSites

	// extra are additional element-wise operators in every block (more
	// distinct frames and events, for the big snapshot).
	extra []*site
}

// extraOpNames returns ATen operators used for the extra sites.
func extraOpNames() []string {
	return []string{
		"mul", "div", "rsqrt", "pow", "mean", "cat", "transpose", "contiguous", "silu", "sigmoid",
		"tanh", "exp", "neg", "sub", "where", "masked_fill", "native_dropout", "addcmul", "index_select", "gather",
		"scatter", "cumsum", "argmax", "topk", "sort", "repeat", "expand", "clone", "reshape", "split_with_sizes",
		"stack", "flip", "roll", "clamp", "abs", "sqrt", "log", "baddbmm", "einsum", "_fused_rms_norm",
		"group_norm", "conv1d", "avg_pool1d", "amax", "amin", "sum", "prod", "var", "std", "linspace",
		"arange", "full", "empty_like", "randn_like", "bernoulli", "multinomial", "log_softmax", "_softmax_backward_data", "gelu_backward", "silu_backward",
	}
}

// extraSites returns n operator sites in a Mixer module called from both
// halves of every block.
func (c *catalog) extraSites(n int) []*site {
	m := c.proj(modelPy)
	names := extraOpNames()
	var out []*site
	for i := 0; i < n; i++ {
		name := names[i%len(names)]
		if i >= len(names) {
			name = fmt.Sprintf("%s_%d", name, i/len(names))
		}
		kernel := []string{
			fmt.Sprintf("at::native::%s_out_cuda(at::Tensor const&, at::Tensor&)", name),
			fmt.Sprintf("RegisterCUDA_0.cpp|at::(anonymous namespace)::wrapper_CUDA_%s(at::Tensor const&)", name),
			fmt.Sprintf("at::_ops::%s::call(at::Tensor const&)", name),
			fmt.Sprintf("python_variable_methods.cpp|torch::autograd::THPVariable_%s(_object*, _object*, _object*)", name),
		}
		blockLine := 72 + i%2
		out = append(out, c.stack(op(kernel...), c.inBlock(blockLine, []pyFrame{{m, 200 + i, "forward"}})))
	}
	return out
}

// Line numbers of the user's code. LeakSites lists the planted leak
// templates by their innermost user frame.
const (
	trainPy   = "train.py"
	modelPy   = "model.py"
	dataPy    = "data.py"
	metricsPy = "metrics.py"
	emaPy     = "ema.py"
)

// LeakSites are the leak templates the generator can plant, by their
// innermost user frame (basename:line): what labels.json's leak_sites
// holds.
func LeakSites() []string {
	return []string{"train.py:57", "model.py:88", "metrics.py:41", "data.py:64"}
}

// OneTimeSites are the one-off allocations (not leaks).
func OneTimeSites() []string {
	return []string{"ema.py:31", "train.py:137"}
}

func (c *catalog) modulePair() []pyFrame {
	e := c.env.Era
	mod := c.torch("nn/modules/module.py")
	if e.WrappedCallImpl == 0 {
		return []pyFrame{{mod, e.CallImpl, "_call_impl"}}
	}
	return []pyFrame{{mod, e.CallImpl, "_call_impl"}, {mod, e.WrappedCallImpl, "_wrapped_call_impl"}}
}

func (c *catalog) newer(v string) bool { return c.env.Era.Version >= v }

// trainStep returns the frames from train_step out to <module>.
func (c *catalog) trainStep(line int) []pyFrame {
	t := c.proj(trainPy)
	return []pyFrame{{t, line, "train_step"}, {t, 140, "main"}, {t, 152, "<module>"}}
}

// chain returns the frames of nested nn.Module calls: each level is the
// frames of one module's forward (innermost first), followed by the
// module-call machinery (_call_impl, _wrapped_call_impl).
func (c *catalog) chain(levels ...[]pyFrame) []pyFrame {
	var out []pyFrame
	for _, l := range levels {
		out = append(out, l...)
		out = append(out, c.modulePair()...)
	}
	return out
}

// inGPT returns the frames of code running in GPT.forward at line, inside
// the inner module levels, called through the wrappers from train_step.
func (c *catalog) inGPT(line int, inner ...[]pyFrame) []pyFrame {
	levels := append(append([][]pyFrame{}, inner...), []pyFrame{{c.proj(modelPy), line, "forward"}})
	for i := len(c.env.Wrappers) - 1; i >= 0; i-- {
		levels = append(levels, c.wrapper(c.env.Wrappers[i]))
	}
	return append(c.chain(levels...), c.trainStep(55)...)
}

// inBlock returns the frames of code running in Block.forward at line
// (72: attention half, 73: MLP half), inside the inner module levels.
func (c *catalog) inBlock(line int, inner ...[]pyFrame) []pyFrame {
	levels := append(append([][]pyFrame{}, inner...), []pyFrame{{c.proj(modelPy), line, "forward"}})
	return c.inGPT(113, levels...)
}

func (c *catalog) wrapper(name string) []pyFrame {
	switch name {
	case "ddp":
		d := c.torch("nn/parallel/distributed.py")
		return []pyFrame{{d, 1475, "_run_ddp_forward"}, {d, 1648, "forward"}}
	case "fsdp":
		f := c.torch("distributed/fsdp/fully_sharded_data_parallel.py")
		return []pyFrame{{f, 863, "forward"}}
	case "checkpoint":
		ck := c.torch("utils/checkpoint.py")
		return []pyFrame{{ck, 1590, "_checkpoint_without_reentrant_generator"}, {ck, 496, "checkpoint"}, {c.torch("_compile.py"), 32, "inner"}, {c.torch("_dynamo/eval_frame.py"), 751, "_fn"}}
	}
	return nil
}

// linear is the frame of nn.Linear.forward.
func (c *catalog) linear() []pyFrame {
	line := 116
	if c.newer("2.5") {
		line = 125
	}
	return []pyFrame{{c.torch("nn/modules/linear.py"), line, "forward"}}
}

// layerNorm is F.layer_norm called from nn.LayerNorm.forward.
func (c *catalog) layerNorm() []pyFrame {
	fl, nl := 2546, 201
	if c.newer("2.5") {
		fl, nl = 2910, 217
	}
	return []pyFrame{{c.torch("nn/functional.py"), fl, "layer_norm"}, {c.torch("nn/modules/normalization.py"), nl, "forward"}}
}

func (c *catalog) optimPy(inner pyFrame) []pyFrame {
	a := c.torch("optim/adamw.py")
	o := c.torch("optim/optimizer.py")
	out := []pyFrame{inner, {a, 330, "adamw"}, {a, 227, "step"}, {o, 79, "_use_grad"}, {o, 487, "wrapper"}}
	return append(out, c.trainStep(62)...)
}

func withFree(prefix []string, more ...string) []string {
	out := append([]string{}, cppFree()...)
	out = append(out, prefix...)
	return append(out, more...)
}

func newProgram(c *catalog, leakSite, oneTimeSite string, extraOps int) (*program, error) {
	p := &program{c: c, extra: c.extraSites(extraOps)}
	m := c.proj(modelPy)
	t := c.proj(trainPy)
	fn := c.torch("nn/functional.py")
	at := func(line int) []pyFrame { return []pyFrame{{m, line, "forward"}} }
	mod := c.torch("nn/modules/module.py")
	p.paramInit = c.stack(op(kCopy.frames()...), []pyFrame{{mod, 1341, "convert"}, {mod, 942, "_apply"}, {mod, 915, "_apply"}, {mod, 915, "_apply"}, {mod, 1355, "to"}, {t, 131, "main"}, {t, 152, "<module>"}})
	p.data = c.stack(op(kCopy.frames()...), c.trainStep(52))
	sp, fe, xl := 163, 2233, 3059
	if c.newer("2.5") {
		sp, fe, xl = 190, 2551, 3494
	}
	p.embed = c.stack(op(kEmbedding.frames()...), c.inGPT(110, []pyFrame{{fn, fe, "embedding"}, {c.torch("nn/modules/sparse.py"), sp, "forward"}}))
	p.ln = c.stack(op(kLayerNorm.frames()...), c.inBlock(72, c.layerNorm()))
	p.qkv = c.stack(op(kLinear.frames()...), c.inBlock(72, c.linear(), at(41)))
	p.scores = c.stack(op(kMatmul.frames()...), c.inBlock(72, at(44)))
	p.softmax = c.stack(op(kSoftmax.frames()...), c.inBlock(72, at(45)))
	p.attnOut = c.stack(op(kMatmul.frames()...), c.inBlock(72, at(46)))
	p.proj = c.stack(op(kLinear.frames()...), c.inBlock(72, c.linear(), at(47)))
	p.resid = c.stack(op(kElementwise.frames()...), c.inBlock(72))
	p.fc1 = c.stack(op(kLinear.frames()...), c.inBlock(73, c.linear(), at(61)))
	p.gelu = c.stack(op(kGelu.frames()...), c.inBlock(73, at(62)))
	p.fc2 = c.stack(op(kLinear.frames()...), c.inBlock(73, c.linear(), at(63)))
	p.lmHead = c.stack(op(kLinear.frames()...), c.inGPT(115, c.linear()))
	p.xent = c.stack(op(kCrossEntropy.frames()...), append([]pyFrame{{fn, xl, "cross_entropy"}}, c.trainStep(56)...))
	p.loss = p.xent
	autogradAlloc := func(k kernel) *site {
		return c.stack(append(op(k.frames()...), cppAutograd()...), nil)
	}
	p.bwdMM = autogradAlloc(kBackwardMM)
	p.bwdElem = autogradAlloc(kGeluBackward)
	p.accGrad = autogradAlloc(kAccumulateGrad)
	p.cublas = c.stack(op(kCublasWorkspace.frames()...), c.inBlock(72, c.linear(), at(41)))
	a := c.torch("optim/adamw.py")
	p.optInit = c.stack(op(kZerosLike.frames()...), c.optimPy(pyFrame{a, 156, "_init_group"}))
	p.optTemp = c.stack(op(kForeach.frames()...), c.optimPy(pyFrame{a, 585, "_multi_tensor_adamw"}))

	p.freeFwd = c.stack(withFree(cppPyDealloc()), c.inBlock(72, at(45)))
	p.freeBwd = c.stack(append(withFree(nil, "|torch::autograd::SavedVariable::reset_data()", "Functions.h|torch::autograd::generated::AddmmBackward0::release_variables()", "|torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)"), cppAutograd()...), nil)
	p.freeStepEnd = c.stack(withFree(cppPyDealloc()), []pyFrame{{t, 140, "main"}, {t, 152, "<module>"}})
	o := c.torch("optim/optimizer.py")
	p.freeZeroGrad = c.stack(withFree(cppPyDealloc()), append([]pyFrame{{o, 972, "zero_grad"}, {c.torch("_compile.py"), 32, "inner"}}, c.trainStep(63)...))
	p.freeOpt = c.stack(withFree(nil), c.optimPy(pyFrame{a, 601, "_multi_tensor_adamw"}))
	p.emptyCache = c.stack([]string{"torch::unwind::unwind()", "torch::CapturedTraceback::gather(bool, bool, bool)", "memory_snapshot.cpp|torch::cuda::(anonymous namespace)::gather_with_cpp()", "CUDACachingAllocator.cpp|c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::emptyCache()", "Module.cpp|THCPModule_emptyCache(_object*, _object*)"},
		[]pyFrame{{c.torch("cuda/memory.py"), 222, "empty_cache"}, {t, 146, "main"}, {t, 152, "<module>"}})

	var err error
	if p.leak, err = p.leakSite(leakSite); err != nil {
		return nil, err
	}
	if p.oneTime, err = p.oneTimeSite(oneTimeSite); err != nil {
		return nil, err
	}
	d := c.proj(dataPy)
	p.fragBig = c.stack(op(kCopy.frames()...), append([]pyFrame{{d, 118, "pack_batch"}, {d, 131, "__next__"}}, c.trainStep(51)...))
	p.fragPin = c.stack(op(kClone.frames()...), append([]pyFrame{{d, 124, "pack_batch"}, {d, 131, "__next__"}}, c.trainStep(51)...))
	p.fragFree = c.stack(withFree(cppPyDealloc()), append([]pyFrame{{d, 127, "pack_batch"}, {d, 131, "__next__"}}, c.trainStep(51)...))
	return p, nil
}

func (p *program) leakSite(name string) (*site, error) {
	c := p.c
	switch name {
	case "":
		return nil, nil
	case "train.py:57":
		// debug_outputs.append(logits.float())
		return c.stack(op(kFloat.frames()...), c.trainStep(57)), nil
	case "model.py:88":
		// self._cache[key] = h.detach().clone()
		m := c.proj(modelPy)
		return c.stack(op(kClone.frames()...), c.inBlock(72, []pyFrame{{m, 88, "forward"}})), nil
	case "metrics.py:41":
		// self.preds.append(logits.softmax(-1))
		return c.stack(op(kSoftmax.frames()...), append([]pyFrame{{c.proj(metricsPy), 41, "update"}}, c.trainStep(58)...)), nil
	case "data.py:64":
		// self._pinned.append(batch.cuda(non_blocking=True))
		d := c.proj(dataPy)
		return c.stack(op(kCopy.frames()...), append([]pyFrame{{d, 64, "__next__"}}, c.trainStep(50)...)), nil
	case ConcatLeakSite:
		return p.concatLeakSite(), nil
	case BackwardLeakSite:
		return p.backwardLeakSite(), nil
	}
	return nil, fmt.Errorf("unknown leak site %q (want one of %v)", name, LeakSites())
}

func (p *program) oneTimeSite(name string) (*site, error) {
	c := p.c
	t := c.proj(trainPy)
	switch name {
	case "":
		return nil, nil
	case "ema.py:31":
		// self.shadow = {k: v.detach().clone() for k, v in ...}
		e := c.proj(emaPy)
		return c.stack(op(kClone.frames()...), []pyFrame{{e, 31, "<dictcomp>"}, {e, 31, "__init__"}, {t, 137, "main"}, {t, 152, "<module>"}}), nil
	case "train.py:137":
		// eval_buffer = torch.empty(...)
		return c.stack(op(), []pyFrame{{t, 137, "main"}, {t, 152, "<module>"}}), nil
	}
	return nil, fmt.Errorf("unknown one-time site %q (want one of %v)", name, OneTimeSites())
}

// leakUser returns the planted leak's innermost user frame, "" for none.
func (c *catalog) leakUser(p *program) string {
	if p.leak == nil {
		return ""
	}
	return p.leak.user
}
