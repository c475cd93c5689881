package roles

import (
	"slices"
	"strings"

	"gpureport/snapshot"
)

// The frame rules. Each names a pattern of an allocation stack through
// which PyTorch (or a library built on it) allocates for one role only,
// and the role; docs/roles.md gives each rule's source and versions. The
// patterns read Python frames (file and function), C++ frame names
// (recorded with _record_memory_history(stacks="all")) and autograd
// nodes, so most rules hold for both kinds of stacks; the C++-only ones
// say so.
//
// Rules are tried in order; the first that matches decides. A stack that
// no rule matches is given a phase (backward, forward, optimizer step),
// and its lifetime decides (lifetime.go).

// phase is the part of a training step a stack says an allocation was
// made in.
type phase uint8

const (
	noPhase phase = iota
	// forward: a module's forward (nn.Module.__call__), or compiled
	// forward code.
	forward
	// backward: autograd's engine (its thread's C++ frames, an autograd
	// node, a custom Function's backward, loss.backward()).
	backward
	// optimizerStep: an optimizer's step, outside its state
	// initialisation.
	optimizerStep
)

// rule is one frame rule.
type rule struct {
	// name says what the pattern is, as reports show it.
	name string
	role Role
	// match reports whether stack s, of phase ph, is the rule's.
	match func(s *stack, ph phase) bool
	// split, when set, names a function that allocates for two roles
	// in one call, one statement after the other: role and name are
	// its last allocation's (the highest line), split's those of the
	// allocations before it.
	split *splitRule
}

// splitRule is the role of the allocations a function makes before its
// last one, for a rule whose function allocates for two roles: of the
// scene's stacks whose innermost Python frame is that function, reached
// by the same callers (stack.caller), the one at the highest line is the
// last allocation, those at lower lines are earlier ones. Each such
// function makes what its later statements derive from first (a flat
// parameter buffer before the fp32 partition cut from it), so the order
// holds across the versions whose source was read; a function whose
// allocations the scene holds only one of is taken at its last.
type splitRule struct {
	name string
	role Role
	// lastNeeds, when set, are roles one of which a frame rule without a
	// split must give some block of the scene for the last allocation to
	// take the rule's role: other evidence that the last allocation is
	// what the rule says (see lastElse). Without it the last allocation
	// is Other, by lastElse.
	lastNeeds []Role
	// lastElse is the rule (its reason) of a last allocation without
	// lastNeeds's evidence.
	lastElse string
}

// innermostIs reports whether the innermost Python frame of s runs
// function name in a file whose path holds file.
func (s *stack) innermostIs(file, name string) bool {
	return len(s.py) > 0 && s.py[0].name == name && strings.Contains(s.py[0].file, file)
}

// recomputeFuncs are torch/utils/checkpoint.py's functions that re-run a
// checkpointed region's forward during backward: with
// use_reentrant=False the saved-tensor hook's unpack_hook
// (_checkpoint_hook) calls frame.recompute_fn (made in
// _checkpoint_without_reentrant_generator); with use_reentrant=True
// CheckpointFunction.backward re-runs ctx.run_function, then calls
// torch.autograd.backward on what it made.
var recomputeFuncs = []string{"unpack_hook", "recompute_fn", "backward"}

// backwardFuncs name the functions of a backward run nested inside a
// checkpoint's backward (CheckpointFunction.backward's
// torch.autograd.backward, torch.autograd.grad in a recomputed forward).
var backwardFuncs = []string{"backward", "_backward_impl", "_engine_run_backward", "grad", "_make_grads"}

// recomputed reports whether s allocates in activation checkpointing's
// recomputation: reading its Python frames from the innermost out, a
// torch/utils/checkpoint.py frame that recomputes comes before any frame
// of a backward run outside checkpoint.py. Autograd's frames are then
// outside the recomputation (the saved-tensor hook runs inside a
// backward node), and the blocks it makes are the region's activations
// again, made in backward; a backward nested inside the recomputation
// (CheckpointFunction.backward's own torch.autograd.backward) allocates
// gradients as any backward does.
//
// Decided once per stack: the lifetime rules ask it of every forward
// block.
func (s *stack) recomputed() bool {
	if !s.recompChecked {
		s.recomp, s.recompChecked = s.has(fileCheckpoint) && recomputes(s.py), true
	}
	return s.recomp
}

// recomputes is recomputed's answer for the Python frames py of a stack
// with a torch/utils/checkpoint.py frame.
func recomputes(py []pyFrame) bool {
	for _, f := range py {
		if strings.Contains(f.file, "torch/utils/checkpoint.py") {
			if slices.Contains(recomputeFuncs, f.name) {
				return true
			}
			continue
		}
		if slices.Contains(backwardFuncs, f.name) &&
			(f.name != "grad" && f.name != "_make_grads" || strings.Contains(f.file, "torch/autograd/")) {
			return false
		}
	}
	return false
}

// optimizerFiles are where optimizers live: torch.optim and the
// libraries whose optimizers keep their own state (8-bit, fused, ZeRO's
// CPU/fused Adam, Adafactor).
var optimizerFiles = []string{
	"torch/optim/", "torch/distributed/optim/", "bitsandbytes/optim/", "apex/optimizers/",
	"deepspeed/ops/adam/", "deepspeed/ops/lamb/", "deepspeed/ops/lion/", "transformers/optimization.py",
	"torchao/optim/", "timm/optim/", "lion_pytorch/", "pytorch_optimizer/", "torch_optimizer/",
}

// inOptimizer reports whether s runs inside an optimizer: a frame in an
// optimizer's file (torch.optim's Optimizer.step wrapper is on the stack
// of every step of a torch.optim.Optimizer subclass, the user's own
// included), except the learning-rate schedulers, which allocate nothing
// the step keeps.
func (s *stack) inOptimizer() bool {
	return s.has(fileOptimizer)
}

// fsdpFiles are FullyShardedDataParallel's, in its two generations
// (FSDP1 flat parameters, FSDP2 fully_shard).
var fsdpFiles = []string{"torch/distributed/fsdp/", "torch/distributed/_composable/fsdp/"}

// fsdpInner reports whether the innermost Python frame of s is FSDP's
// own code: FSDP wraps the model's forward, so its frames are outside
// every activation's stack too; only what FSDP allocates itself is its.
func (s *stack) fsdpInner() bool {
	if len(s.py) == 0 {
		return false
	}
	for _, f := range fsdpFiles {
		if strings.Contains(s.py[0].file, f) {
			return true
		}
	}
	return false
}

// phaseOf returns the phase stack s names: activation checkpointing's
// recomputation first (forward run again inside backward: its blocks are
// activations, recomputed), then backward (autograd's thread, or a
// backward function: a compiled backward also runs forward-looking
// code), then forward (an optimizer closure's forward is forward; a
// frame of torch/utils/checkpoint.py outside backward runs a
// checkpointed region's forward, its boundary inputs included), then the
// optimizer step.
func phaseOf(s *stack) phase {
	switch {
	case s.recomputed():
		return forward
	case len(s.nodes) > 0, s.has(cppAutogradEngine),
		s.call(callAutogradBackward), s.call(callTensorBackward), s.call(namedBackward):
		return backward
	case s.call(callModuleCall), s.call(namedForward),
		s.has(fileCompiled), s.has(fileCheckpoint):
		return forward
	case s.inOptimizer():
		return optimizerStep
	}
	return noPhase
}

// Rule names the capacity-OOM levers read (levers.go).
const (
	ruleEightBit = "8-bit optimizer state (bitsandbytes)"
	// ruleMasterWeights begins the names of the rules for mixed
	// precision's fp32 master weights: optimizer state, but not what an
	// 8-bit optimizer shrinks.
	ruleMasterWeights = "fp32 master weights"
	rulePrefixZeRO    = "ZeRO "
	rulePrefixFSDP    = "FSDP "
)

// frameRules are the frame rules, in order.
var frameRules = []rule{
	{name: "cuBLAS workspace (CublasHandlePool)", role: Workspace, match: func(s *stack, _ phase) bool {
		return s.has(cppBLASWorkspace)
	}},
	{name: "cuDNN workspace", role: Workspace, match: func(s *stack, _ phase) bool {
		// The v7 API allocates through a Workspace struct, the v8 API
		// inside the plan's execution (run_conv_plan); a convolution's
		// output is allocated outside both.
		return s.has(cppCuDNN) && s.has(cppCuDNNWorkspace)
	}},
	{name: "NCCL / symmetric-memory communication buffer", role: Workspace, match: func(s *stack, _ phase) bool {
		return s.has(cppNCCL) || s.has(fileSymmetricMemory)
	}},
	{name: "CUDA graph capture (cudagraph trees, torch.cuda.graph)", role: GraphPools, match: func(s *stack, _ phase) bool {
		return s.has(fileGraphCapture)
	}},
	{name: "AccumulateGrad (gradient accumulation into .grad)", role: Gradients, match: func(s *stack, _ phase) bool {
		return s.node("AccumulateGrad") || s.has(cppAccumulateGrad)
	}},
	{name: "DDP gradient bucket (c10d::Reducer)", role: Gradients, match: func(s *stack, _ phase) bool {
		return s.has(cppDDPReducer)
	}},
	{name: "FSDP gradient reduce-scatter", role: Gradients, match: func(s *stack, _ phase) bool {
		return s.fsdpInner() && s.call(callFSDPReduce)
	}},
	{name: "FSDP sharded or unsharded parameter", role: Parameters, match: func(s *stack, _ phase) bool {
		return s.fsdpInner()
	}},
	{name: "ZeRO gradient partition or bucket (DeepSpeed)", role: Gradients, match: func(s *stack, _ phase) bool {
		return s.call(callZeROGradients)
	}},
	{name: "ZeRO fp32 partition or optimizer state (DeepSpeed)", role: OptimizerState, match: func(s *stack, _ phase) bool {
		return s.call(callZeROOptimizer)
	}},
	{name: "ZeRO fp32 master partition (DeepSpeedZeroOptimizer.__init__, its last allocation)", role: OptimizerState,
		match: func(s *stack, _ phase) bool {
			// stage_1_and_2.py's __init__ copies its rank's partition
			// of the flat bit16 buffer to fp32 inline
			// (single_partition_of_fp32_groups), after moving that flat
			// buffer, the model's parameters, to the device.
			//
			// With offload_optimizer (cpu_offload) the fp32 partition
			// is made on the CPU, and the last GPU allocation of
			// __init__ is temp_grad_buffer_for_gpu_offload (under `if
			// self.cpu_offload:`), a gradient staging buffer. Its size
			// (the largest parameter's elements) may by chance equal a
			// partition's (the flat buffer's elements x 4 bytes / world
			// size), and the world size is seldom known, so the sizes
			// do not tell the two apart. What does: without offload,
			// the optimizer's state (Adam's exp_avg, exp_avg_sq, made
			// by initialize_optimizer_states or the first step, each
			// as big as the fp32 partition) is on the GPU beside it;
			// with offload it is on the CPU. So the last allocation is
			// the fp32 partition only where the scene holds optimizer
			// state by another frame rule (lastNeeds: torch.optim's
			// state initialisation, ZeRO's initialize_optimizer_states);
			// else it is left Other, with that reason (an
			// optimizer without state, SGD without momentum, leaves
			// its fp32 partition Other too).
			return s.innermostIs("deepspeed/runtime/zero/stage_1_and_2.py", "__init__")
		},
		split: &splitRule{name: "ZeRO flat bit16 parameter buffer (DeepSpeedZeroOptimizer.__init__, before its fp32 partition)", role: Parameters,
			lastNeeds: []Role{OptimizerState},
			lastElse:  "DeepSpeedZeroOptimizer.__init__'s last allocation without optimizer state on the GPU (offload_optimizer's gradient staging buffer, or an fp32 partition of a stateless optimizer)"}},
	{name: "DeepSpeed BF16_Optimizer fp32 gradient buffer (_setup_for_real_optimizer, its last allocation)", role: Gradients,
		match: func(s *stack, _ phase) bool {
			// bf16_optimizer.py's _setup_for_real_optimizer clones the
			// fp32 master partition (fp32_groups_flat_partition), then
			// makes the fp32 gradient buffer (fp32_groups_gradients_flat).
			return s.innermostIs("deepspeed/runtime/bf16_optimizer.py", "_setup_for_real_optimizer")
		},
		split: &splitRule{name: ruleMasterWeights + " (DeepSpeed BF16_Optimizer fp32 partition, before its gradient buffer)", role: OptimizerState}},
	{name: "Megatron gradient buffer (param.main_grad: _ParamAndGradBuffer.__init__, its last allocation)", role: Gradients,
		match: func(s *stack, _ phase) bool {
			// param_and_grad_buffer.py's __init__ makes grad_data, which
			// every parameter's main_grad views, after param_data (made
			// with the distributed optimizer only), which param.data
			// views.
			return s.innermostIs("megatron/core/distributed/param_and_grad_buffer.py", "__init__")
		},
		split: &splitRule{name: "Megatron parameter buffer (param.data: _ParamAndGradBuffer.__init__'s param_data, before grad_data)", role: Parameters}},
	{name: ruleMasterWeights + " (Megatron Float16OptimizerWithFloat16Params, DistributedOptimizer; apex amp)", role: OptimizerState,
		match: func(s *stack, _ phase) bool {
			return s.call(callMegatronMaster) || s.call(callMegatronShardMaster) || s.call(callApexMaster)
		}},
	{name: "ZeRO parameter partition or gather (DeepSpeed)", role: Parameters, match: func(s *stack, _ phase) bool {
		return s.has(fileZeROParameters)
	}},
	{name: ruleEightBit, role: OptimizerState, match: func(s *stack, ph phase) bool {
		return ph != forward && ph != backward && s.has(fileEightBit)
	}},
	{name: "optimizer state initialisation (_init_group, init_state)", role: OptimizerState, match: func(s *stack, ph phase) bool {
		return ph != forward && ph != backward && s.inOptimizer() &&
			s.call(namedOptimizerInit)
	}},
	{name: "module parameters (nn.Module._apply, .to(), .cuda(), initialisation)", role: Parameters, match: func(s *stack, _ phase) bool {
		return s.call(callModuleApply) || s.has(fileParameterInit) || s.call(namedResetParameters) ||
			s.call(callInitWeight) || s.call(callModuleInit) || s.call(callTransformersLoad) ||
			s.call(callAccelerateSetDevice) || s.call(callAccelerateBigModeling)
	}},
	{name: "data loader or batch transfer", role: Inputs, match: func(s *stack, _ phase) bool {
		return s.has(fileDataLoader) ||
			s.call(callTrainerPrepare) || s.call(callMoveToDevice) || s.call(namedTransferBatch)
	}},
	{name: "copy to the device outside the model (.to(), .cuda())", role: Inputs, match: func(s *stack, ph phase) bool {
		return ph == noPhase && len(s.py) > 0 && s.has(cppToCopy) && !dtypeOnly(s)
	}},
}

// FrameRule returns the role that a frame rule gives an allocation stack
// on its own (frames innermost first, as a snapshot records them), and
// the rule's name; ok is false when no frame rule matches (the block's
// lifetime, pool or label would then decide: Classify). It reads the
// stack alone, as a trace window's group carries it.
func FrameRule(frames []snapshot.Frame) (role Role, name string, ok bool) {
	_, r := readStack(frames).frameRule()
	if r == nil {
		return Unknown, "", false
	}
	return r.role, r.name, true
}

// dtypeOnly reports whether a _to_copy is a conversion of dtype on the
// same device (x.float(), x.to(torch.bfloat16)), not a copy to the
// device: the overloads python_variable_methods.cpp's dispatch_to and
// ATen's at::native::to take for a dtype alone, and THPVariable_to_type,
// which .float(), .half(), .long() ... call (frames of the real
// snapshots; a .to(device, dtype) takes the Device overload).
func dtypeOnly(s *stack) bool {
	return s.has(cppDtypeOnly)
}
