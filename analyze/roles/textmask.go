package roles

import (
	"slices"
	"strings"

	"gpureport/analyze/frames"
	"gpureport/snapshot"
)

// textQuery is a question the rules ask of a stack's frames: does some C++
// frame's name (the cpp* queries) or some Python frame's file (the file*
// queries) contain one of a few substrings. A stack's answers to all of
// them are found once, when the stack is read, as a bit mask (stack.text)
// made from the masks of its names and files, and each distinct name or
// file is searched once for every query (textMasks): a run's thousands of
// stacks share their frames, and searching each stack's frames again for
// each query was most of classifying a run's distinct stacks.
type textQuery uint8

// The queries, each a bit of stack.text; textQueries says what each looks
// for.
const (
	cppAutogradEngine textQuery = iota
	cppBLASWorkspace
	cppCuDNN
	cppCuDNNWorkspace
	cppNCCL
	cppAccumulateGrad
	cppDDPReducer
	cppToCopy
	cppDtypeOnly
	cppSymmetricPool
	fileCompiled
	fileSymmetricMemory
	fileGraphCapture
	fileCUDAGraphTrees
	fileCUDAGraphs
	fileZeROParameters
	fileEightBit
	fileParameterInit
	fileDataLoader
	fileCheckpoint
	fileOptimizer
	numTextQueries
)

// textQuerySpec is what a textQuery looks for: a C++ frame's name (cpp) or
// a Python frame's file holding one of subs, except a string holding
// except (when not empty).
type textQuerySpec struct {
	cpp    bool
	subs   []string
	except string
}

// textQueries says what each textQuery looks for.
var textQueries = [numTextQueries]textQuerySpec{
	cppAutogradEngine: {cpp: true, subs: []string{"torch::autograd::Engine::"}},
	cppBLASWorkspace:  {cpp: true, subs: []string{"getNewWorkspace", "getCUDABlasLtWorkspace", "CublasHandlePool", "cublasLtWorkspace"}},
	cppCuDNN:          {cpp: true, subs: []string{"cudnn", "Cudnn", "CUDNN"}},
	cppCuDNNWorkspace: {cpp: true, subs: []string{"Workspace::Workspace", "orkspace", "run_conv_plan", "run_single_conv"}},
	cppNCCL:           {cpp: true, subs: []string{"ProcessGroupNCCL", "ncclMemAlloc", "NCCLComm"}},
	cppAccumulateGrad: {cpp: true, subs: []string{"torch::autograd::AccumulateGrad::"}},
	cppDDPReducer:     {cpp: true, subs: []string{"c10d::Reducer::"}},
	cppToCopy:         {cpp: true, subs: []string{"at::native::_to_copy(", "THPVariable_to(", "THPVariable_cuda("}},
	cppDtypeOnly: {cpp: true, subs: []string{"dispatch_to(at::Tensor const&, c10::ScalarType,",
		"at::native::to(at::Tensor const&, c10::ScalarType,", "THPVariable_to_type("}},
	cppSymmetricPool:    {cpp: true, subs: []string{"ncclMemAlloc", "symmetric", "Symmetric"}},
	fileCompiled:        {subs: []string{"torch/_dynamo/", "torch/_functorch/", "/torchinductor_", "fx_generated_"}},
	fileSymmetricMemory: {subs: []string{"torch/distributed/_symmetric_memory"}},
	fileGraphCapture:    {subs: []string{"torch/_inductor/cudagraph_trees.py", "torch/cuda/graphs.py"}},
	fileCUDAGraphTrees:  {subs: []string{"torch/_inductor/cudagraph_trees.py"}},
	fileCUDAGraphs:      {subs: []string{"torch/cuda/graphs.py"}},
	fileZeROParameters: {subs: []string{"deepspeed/runtime/zero/partition_parameters.py",
		"deepspeed/runtime/zero/partitioned_param_coordinator.py"}},
	fileEightBit: {subs: []string{"bitsandbytes/optim/"}},
	fileParameterInit: {subs: []string{"torch/nn/parameter.py", "torch/nn/init.py", "torch/nn/parallel/replicate.py",
		"bitsandbytes/nn/"}},
	fileDataLoader: {subs: []string{"torch/utils/data/", "accelerate/utils/operations.py", "accelerate/data_loader.py",
		"torch/nn/parallel/scatter_gather.py", "torch_geometric/data/", "torchtnt/utils/device.py"}},
	fileCheckpoint: {subs: []string{"torch/utils/checkpoint.py"}},
	// An optimizer's file, but not the learning-rate schedulers', which
	// allocate nothing the step keeps (inOptimizer).
	fileOptimizer: {subs: optimizerFiles, except: "torch/optim/lr_scheduler.py"},
}

// textMask holds one bit per textQuery.
type textMask uint32

// has reports whether m answers q yes.
func (m textMask) has(q textQuery) bool { return m&(1<<q) != 0 }

// textMasks keeps the mask of each distinct C++ frame name and Python
// file it was asked about: what each query answers of that one string;
// and of each C++ frame name, the autograd node it applies. Not safe for
// concurrent use.
type textMasks struct {
	cpp    map[string]cppName
	files  map[string]textMask
	frames map[pyFrame]frameMask
}

// cppName is what the rules read of one C++ frame name: its mask, and
// the autograd node whose apply it is (frames.AutogradNode; a regular
// expression a frame, most of reading a run's distinct stacks before it
// was kept by name).
type cppName struct {
	mask   textMask
	node   string
	isNode bool
}

func newTextMasks() *textMasks {
	return &textMasks{cpp: map[string]cppName{}, files: map[string]textMask{}, frames: map[pyFrame]frameMask{}}
}

// name returns what the rules read of C++ frame name s.
func (m *textMasks) name(s string) cppName {
	if v, ok := m.cpp[s]; ok {
		return v
	}
	v := cppName{mask: maskOf(s, true)}
	v.node, v.isNode = frames.AutogradNode(snapshot.Frame{Name: s})
	m.cpp[s] = v
	return v
}

// file returns the mask of Python file s (forward slashes).
func (m *textMasks) file(s string) textMask {
	if v, ok := m.files[s]; ok {
		return v
	}
	v := maskOf(s, false)
	m.files[s] = v
	return v
}

// frame returns the frame queries' answers of Python frame f.
func (m *textMasks) frame(f pyFrame) frameMask {
	if v, ok := m.frames[f]; ok {
		return v
	}
	v := frameMaskOf(f)
	m.frames[f] = v
	return v
}

// maskOf answers every query of a C++ frame name (cpp) or a Python file.
func maskOf(s string, cpp bool) textMask {
	var v textMask
	for q, spec := range textQueries {
		if spec.cpp == cpp && containsAny(s, spec.subs) && (spec.except == "" || !strings.Contains(s, spec.except)) {
			v |= 1 << q
		}
	}
	return v
}

// frameQuery is a question the rules ask of a stack's Python frames that
// one frame answers with its file and its function together: does some
// frame in a file holding one of a few paths run one of a few functions
// (or a function whose name holds one of a few parts, or any function).
// A stack's answers are found once, when the stack is read, as a bit mask
// (stack.calls) made from the masks of its frames, and each distinct frame
// is asked each query once (textMasks.frame): the rules asked them of
// every frame of every new stack, scanning its frames again for each, a
// quarter of classifying a re-run's new snapshot.
type frameQuery uint8

// The frame queries, each a bit of stack.calls; frameQueries says what
// each looks for.
const (
	callAutogradBackward frameQuery = iota
	callTensorBackward
	namedBackward
	callModuleCall
	namedForward
	callFSDPReduce
	callZeROGradients
	callZeROOptimizer
	namedOptimizerInit
	callModuleApply
	namedResetParameters
	callInitWeight
	callModuleInit
	callTransformersLoad
	callAccelerateSetDevice
	callAccelerateBigModeling
	callTrainerPrepare
	callMoveToDevice
	namedTransferBatch
	callMegatronMaster
	callMegatronShardMaster
	callApexMaster
	numFrameQueries
)

// frameQuerySpec is what a frameQuery looks for: a Python frame whose file
// holds one of files (any file when files is nil) and whose function is
// one of names or holds one of parts (any function when both are nil).
type frameQuerySpec struct {
	files, names, parts []string
}

// frameQueries says what each frameQuery looks for.
var frameQueries = [numFrameQueries]frameQuerySpec{
	callAutogradBackward: {files: []string{"torch/autograd/__init__.py"}, names: []string{"backward", "_make_grads", "_engine_run_backward"}},
	callTensorBackward:   {files: []string{"torch/_tensor.py"}, names: []string{"backward"}},
	namedBackward:        {names: []string{"backward", "_backward_impl"}},
	callModuleCall:       {files: []string{"torch/nn/modules/module.py"}, names: []string{"_call_impl", "_wrapped_call_impl", "__call__"}},
	namedForward:         {names: []string{"forward"}},
	callFSDPReduce:       {files: fsdpFiles, parts: []string{"reduce", "post_backward", "grad"}},
	callZeROGradients:    {files: []string{"deepspeed/runtime/zero/"}, parts: []string{"grad", "reduce", "bucket"}},
	callZeROOptimizer:    {files: []string{"deepspeed/runtime/"}, parts: []string{"fp32", "optimizer_state", "initialize_optimizer"}},
	namedOptimizerInit:   {names: []string{"_init_group", "_init_state", "init_state", "_init_states", "_lazy_init", "__init__"}},
	callModuleApply: {files: []string{"torch/nn/modules/module.py"},
		names: []string{"_apply", "to", "cuda", "to_empty", "_load_from_state_dict", "load_state_dict"}},
	namedResetParameters: {names: []string{"reset_parameters"}},
	callInitWeight:       {parts: []string{"init_weight"}},
	callModuleInit:       {files: []string{"torch/nn/modules/"}, names: []string{"__init__"}},
	callTransformersLoad: {files: []string{"transformers/modeling_utils.py"}, names: []string{"from_pretrained", "_load_pretrained_model",
		"_load_state_dict_into_meta_model", "load_state_dict", "_load_state_dict_into_model", "to", "cuda", "tie_weights",
		"resize_token_embeddings", "post_init"}},
	callAccelerateSetDevice:   {files: []string{"accelerate/utils/modeling.py"}, names: []string{"set_module_tensor_to_device"}},
	callAccelerateBigModeling: {files: []string{"accelerate/big_modeling.py"}},
	callTrainerPrepare:        {files: []string{"transformers/trainer.py"}, names: []string{"_prepare_input", "_prepare_inputs"}},
	callMoveToDevice:          {files: []string{"apply_func.py"}, parts: []string{"move_data_to_device", "apply_to_collection"}},
	namedTransferBatch:        {names: []string{"transfer_batch_to_device"}},
	// Mixed precision's fp32 master weights: Megatron's
	// Float16OptimizerWithFloat16Params.__init__ (main_param =
	// param.detach().clone().float(); megatron/optimizer/ before
	// megatron.core), its DistributedOptimizer's
	// _build_model_and_main_param_groups (shard_main_param =
	// shard_model_param.clone().float()), apex amp's
	// lazy_init_with_master_weights (master_param =
	// param.detach().clone().float()).
	callMegatronMaster: {files: []string{"megatron/core/optimizer/optimizer.py", "megatron/optimizer/optimizer.py"},
		names: []string{"__init__"}},
	callMegatronShardMaster: {files: []string{"megatron/core/optimizer/distrib_optimizer.py", "megatron/optimizer/distrib_optimizer.py"},
		names: []string{"_build_model_and_main_param_groups"}},
	callApexMaster: {files: []string{"apex/amp/_process_optimizer.py"}, names: []string{"lazy_init_with_master_weights"}},
}

// frameMask holds one bit per frameQuery.
type frameMask uint32

// has reports whether m answers q yes.
func (m frameMask) has(q frameQuery) bool { return m&(1<<q) != 0 }

// answers reports whether Python frame f answers spec yes.
func (spec *frameQuerySpec) answers(f pyFrame) bool {
	if spec.names != nil || spec.parts != nil {
		if !slices.Contains(spec.names, f.name) && !containsAny(f.name, spec.parts) {
			return false
		}
	}
	return spec.files == nil || containsAny(f.file, spec.files)
}

// frameMaskOf answers every frame query of Python frame f.
func frameMaskOf(f pyFrame) frameMask {
	var m frameMask
	for q := range frameQueries {
		if frameQueries[q].answers(f) {
			m |= 1 << q
		}
	}
	return m
}
