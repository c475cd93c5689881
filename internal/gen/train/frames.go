package train

import (
	"fmt"
	"path"
	"strings"

	"gpureport/internal/gen/layout"
)

// Era is a PyTorch release as far as snapshots show it: the keys it
// writes and the line numbers of torch/nn/modules/module.py that appear in
// every stack (the version fingerprint of SOURCES.md).
type Era struct {
	// Version is the PyTorch version ("2.6").
	Version string
	// Python is the interpreter version in site-packages paths.
	Python string
	// CallImpl and WrappedCallImpl are the module.py lines of _call_impl
	// and _wrapped_call_impl (0: no _wrapped_call_impl frame, 2.0).
	CallImpl, WrappedCallImpl int
	// Layout is the snapshot layout this release writes.
	Layout layout.Options
	// CppStacks reports whether C++ frames can be recorded (2.1+).
	CppStacks bool
}

// Eras lists the releases the generator imitates, oldest first.
func Eras() []Era {
	return []Era{
		{Version: "2.0", Python: "3.10", CallImpl: 1501, Layout: layout.Options{Format: layout.History}},
		{Version: "2.1", Python: "3.10", CallImpl: 1527, WrappedCallImpl: 1518, CppStacks: true, Layout: layout.Options{Format: layout.Frames}},
		{Version: "2.2", Python: "3.10", CallImpl: 1520, WrappedCallImpl: 1511, CppStacks: true, Layout: layout.Options{Format: layout.Timed}},
		{Version: "2.3", Python: "3.11", CallImpl: 1541, WrappedCallImpl: 1532, CppStacks: true, Layout: layout.Options{Format: layout.Timed, AllocatorSettings: true}},
		{Version: "2.4", Python: "3.11", CallImpl: 1562, WrappedCallImpl: 1553, CppStacks: true, Layout: layout.Options{Format: layout.Timed, AllocatorSettings: true}},
		{Version: "2.5", Python: "3.11", CallImpl: 1747, WrappedCallImpl: 1736, CppStacks: true, Layout: layout.Options{Format: layout.Timed, AllocatorSettings: true, ExternalAnnotations: true}},
		{Version: "2.6", Python: "3.12", CallImpl: 1750, WrappedCallImpl: 1739, CppStacks: true, Layout: layout.Options{Format: layout.Timed, AllocatorSettings: true, ExternalAnnotations: true}},
		{Version: "2.7", Python: "3.12", CallImpl: 1762, WrappedCallImpl: 1751, CppStacks: true, Layout: layout.Options{Format: layout.Timed, AllocatorSettings: true, ExternalAnnotations: true, CompileContext: true}},
		{Version: "2.8", Python: "3.12", CallImpl: 1784, WrappedCallImpl: 1773, CppStacks: true, Layout: layout.Options{Format: layout.Timed, AllocatorSettings: true, ExternalAnnotations: true, CompileContext: true}},
		{Version: "2.9", Python: "3.13", CallImpl: 1790, WrappedCallImpl: 1779, CppStacks: true, Layout: layout.Options{Format: layout.Timed, AllocatorSettings: true, ExternalAnnotations: true, CompileContext: true, UserMetadata: true, GraphCaptureKey: true}},
	}
}

// EraByVersion returns the era of a version string.
func EraByVersion(v string) (Era, error) {
	for _, e := range Eras() {
		if e.Version == v {
			return e, nil
		}
	}
	return Era{}, fmt.Errorf("unknown PyTorch version %q", v)
}

// Env is where the program's files live.
type Env struct {
	Era Era
	// SitePackages is the site-packages directory holding torch.
	SitePackages string
	// Project is the directory of the user's code (train.py, model.py).
	Project string
	// CppStacks records C++ frames too (_record_memory_history(stacks="all")).
	CppStacks bool
	// Wrappers are module wrappers around the model (DDP, FSDP,
	// checkpoint), outermost first; each adds frames to every forward
	// stack.
	Wrappers []string
}

// catalog owns the run's frames: one *Frame per distinct frame (with
// variants for C++ frames reached from different call sites) and the
// stacks of every allocation and free site.
type catalog struct {
	env    Env
	frames map[frameKey]*layout.Frame
	nextID uint64
}

type frameKey struct {
	name, file    string
	line, variant int
}

func newCatalog(env Env) *catalog {
	return &catalog{env: env, frames: make(map[frameKey]*layout.Frame)}
}

func (c *catalog) f(name, file string, line, variant int) *layout.Frame {
	k := frameKey{name, file, line, variant}
	if fr, ok := c.frames[k]; ok {
		return fr
	}
	fr := &layout.Frame{Name: name, File: file, Line: line}
	c.frames[k] = fr
	return fr
}

// ctx returns a new captured traceback of the site.
func (c *catalog) ctx(s *site) *layout.Context {
	c.nextID++
	return &layout.Context{ID: c.nextID, Frames: s.frames}
}

// site is a place in the program that allocates or frees: its full stack,
// innermost first, and the innermost user frame (basename:line) for
// labels.
type site struct {
	frames []*layout.Frame
	user   string
}

// pyFrame is one Python frame of a stack template.
type pyFrame struct {
	file string // absolute path
	line int
	name string
}

func (c *catalog) torch(rel string) string {
	return path.Join(c.env.SitePackages, "torch", rel)
}

func (c *catalog) proj(rel string) string { return path.Join(c.env.Project, rel) }

// interp returns the C++ interpreter frames that sit between two Python
// frames; the variant tells distinct call sites apart (distinct return
// addresses), as real files have several dicts for _PyEval_EvalFrameDefault.
func (c *catalog) interp(variant int, kind int) []*layout.Frame {
	if !c.env.CppStacks {
		return nil
	}
	switch kind % 3 {
	case 0:
		return []*layout.Frame{c.f("_PyEval_EvalFrameDefault", "??", 0, variant%4)}
	case 1:
		return []*layout.Frame{c.f("_PyEval_EvalFrameDefault", "??", 0, variant%4), c.f("method_vectorcall", "??", 0, 0)}
	default:
		return []*layout.Frame{c.f("_PyEval_EvalFrameDefault", "??", 0, variant%4), c.f("_PyObject_Call_Prepend", "??", 0, 0), c.f("slot_tp_call", "??", 0, 0)}
	}
}

// stack builds a site: C++ frames (innermost), then the Python frames
// innermost first, each followed by interpreter frames, then the process
// entry frames.
func (c *catalog) stack(cpp []string, py []pyFrame) *site {
	var fr []*layout.Frame
	if c.env.CppStacks {
		for _, name := range cpp {
			file := "??"
			if j := strings.IndexByte(name, '|'); j >= 0 {
				file, name = name[:j], name[j+1:]
			}
			fr = append(fr, c.f(name, file, 0, 0))
		}
	}
	user := ""
	for i, p := range py {
		fr = append(fr, c.f(p.name, p.file, p.line, 0))
		if user == "" && !c.isLibrary(p.file) {
			user = fmt.Sprintf("%s:%d", path.Base(p.file), p.line)
		}
		fr = append(fr, c.interp(p.line+i, i)...)
	}
	if c.env.CppStacks && len(py) > 0 {
		for _, n := range []string{"PyEval_EvalCode", "run_eval_code_obj", "run_mod", "pyrun_file", "_PyRun_SimpleFileObject", "_PyRun_AnyFileObject", "pymain_run_file_obj", "Py_RunMain", "Py_BytesMain", "__libc_start_call_main", "__libc_start_main_impl", "_start"} {
			fr = append(fr, c.f(n, "??", 0, 0))
		}
	}
	return &site{frames: fr, user: user}
}

func (c *catalog) isLibrary(file string) bool {
	return strings.HasPrefix(file, c.env.SitePackages)
}

// C++ frame lists (innermost first). "file|name" gives a file; otherwise
// the file is "??".
func cppAlloc() []string {
	return []string{
		"torch::unwind::unwind()",
		"torch::CapturedTraceback::gather(bool, bool, bool)",
		"memory_snapshot.cpp|torch::cuda::(anonymous namespace)::gather_with_cpp()",
		"CUDACachingAllocator.cpp|c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, CUstream_st*)",
		"CUDACachingAllocator.cpp|c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**, signed char, unsigned long, CUstream_st*)",
		"CUDACachingAllocator.cpp|c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned long)",
	}
}

func cppEmpty() []string {
	return []string{
		"at::TensorBase at::detail::_empty_generic<long>(c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, c10::ScalarType, std::optional<c10::MemoryFormat>)",
		"at::detail::empty_generic(c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, c10::ScalarType, std::optional<c10::MemoryFormat>)",
		"at::detail::empty_cuda(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, std::optional<c10::MemoryFormat>)",
		"at::detail::empty_cuda(c10::ArrayRef<long>, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat>)",
	}
}

func cppFree() []string {
	return []string{
		"torch::unwind::unwind()",
		"torch::CapturedTraceback::gather(bool, bool, bool)",
		"memory_snapshot.cpp|torch::cuda::(anonymous namespace)::gather_with_cpp()",
		"CUDACachingAllocator.cpp|c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::free(c10::cuda::CUDACachingAllocator::Native::(anonymous namespace)::Block*)",
		"CUDACachingAllocator.cpp|c10::cuda::CUDACachingAllocator::Native::local_raw_delete(void*)",
		"|c10::StorageImpl::~StorageImpl()",
		"|c10::intrusive_ptr<c10::StorageImpl, c10::detail::intrusive_target_default_null_type<c10::StorageImpl> >::reset_()",
		"c10::TensorImpl::~TensorImpl()",
		"TensorImpl.cpp|c10::TensorImpl::~TensorImpl() [clone .localalias]",
	}
}

func cppPyDealloc() []string {
	return []string{
		"python_variable.cpp|THPVariable_subclass_clear(THPVariable*)",
		"THPVariable_subclass_dealloc(_object*)",
	}
}

func cppAutograd() []string {
	return []string{
		"|torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::GraphTask>&, torch::autograd::Node*, torch::autograd::InputBuffer&, std::shared_ptr<torch::autograd::ReadyQueue> const&)",
		"|torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)",
		"|torch::autograd::Engine::thread_init(int, std::shared_ptr<torch::autograd::ReadyQueue> const&, bool)",
		"|torch::autograd::python::PythonEngine::thread_init(int, std::shared_ptr<torch::autograd::ReadyQueue> const&, bool)",
		"execute_native_thread_routine",
		"start_thread",
		"clone",
	}
}

// op returns the C++ frames of an operator that allocates its output.
func op(kernel ...string) []string {
	out := append([]string{}, cppAlloc()...)
	out = append(out, cppEmpty()...)
	return append(out, kernel...)
}

func kLinear() []string {
	return []string{
		"Blas.cpp|at::native::(anonymous namespace)::addmm_out_cuda_impl(at::Tensor&, at::Tensor const&, at::Tensor const&, at::Tensor const&, c10::Scalar const&, c10::Scalar const&, at::native::(anonymous namespace)::Activation)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::(anonymous namespace)::wrapper_CUDA_addmm(at::Tensor const&, at::Tensor const&, at::Tensor const&, c10::Scalar const&, c10::Scalar const&)",
		"at::_ops::addmm::call(at::Tensor const&, at::Tensor const&, at::Tensor const&, c10::Scalar const&, c10::Scalar const&)",
		"at::native::linear(at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&)",
		"at::_ops::linear::call(at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&)",
		"python_nn_functions.cpp|torch::autograd::THPVariable_linear(_object*, _object*, _object*)",
	}
}

func kMatmul() []string {
	return []string{
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::create_out(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions const&)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::structured_bmm_out_cuda_functional::set_output_raw_strided(long, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions, c10::ArrayRef<at::Dimname>)",
		"at::meta::structured_bmm::meta(at::Tensor const&, at::Tensor const&)",
		"at::_ops::bmm::call(at::Tensor const&, at::Tensor const&)",
		"at::native::matmul(at::Tensor const&, at::Tensor const&)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_matmul(_object*, _object*, _object*)",
	}
}

func kSoftmax() []string {
	return []string{
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::structured_softmax_cuda_out_functional::set_output_raw_strided(long, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions, c10::ArrayRef<at::Dimname>)",
		"at::meta::structured__softmax::meta(at::Tensor const&, long, bool)",
		"at::_ops::_softmax::call(at::Tensor const&, long, bool)",
		"at::native::softmax(at::Tensor const&, long, std::optional<c10::ScalarType>)",
		"python_torch_functions_0.cpp|torch::autograd::THPVariable_softmax(_object*, _object*, _object*)",
	}
}

func kElementwise() []string {
	return []string{
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::create_out(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions const&)",
		"at::TensorIteratorBase::allocate_or_resize_outputs()",
		"at::TensorIteratorBase::build(at::TensorIteratorConfig&)",
		"at::TensorIteratorBase::build_borrowing_binary_op(at::TensorBase const&, at::TensorBase const&, at::TensorBase const&)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::wrapper_CUDA_add_Tensor(at::Tensor const&, at::Tensor const&, c10::Scalar const&)",
		"at::_ops::add_Tensor::call(at::Tensor const&, at::Tensor const&, c10::Scalar const&)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_add(_object*, _object*, _object*)",
	}
}

func kLayerNorm() []string {
	return []string{
		"layer_norm.cpp|at::native::layer_norm_cuda(at::Tensor const&, c10::ArrayRef<long>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::wrapper_CUDA__native_layer_norm(at::Tensor const&, c10::ArrayRef<c10::SymInt>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double)",
		"at::_ops::native_layer_norm::call(at::Tensor const&, c10::ArrayRef<c10::SymInt>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double)",
		"at::native::layer_norm_symint(at::Tensor const&, c10::ArrayRef<c10::SymInt>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double, bool)",
		"python_torch_functions_1.cpp|torch::autograd::THPVariable_layer_norm(_object*, _object*, _object*)",
	}
}

func kGelu() []string {
	return []string{
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::structured_gelu_out_functional::set_output_raw_strided(long, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions, c10::ArrayRef<at::Dimname>)",
		"at::TensorIteratorBase::build(at::TensorIteratorConfig&)",
		"at::_ops::gelu::call(at::Tensor const&, c10::basic_string_view<char>)",
		"python_nn_functions.cpp|torch::autograd::THPVariable_gelu(_object*, _object*, _object*)",
	}
}

func kEmbedding() []string {
	return []string{
		"at::native::index_select_cuda(at::Tensor const&, long, at::Tensor const&)",
		"at::_ops::index_select::call(at::Tensor const&, long, at::Tensor const&)",
		"at::native::embedding_symint(at::Tensor const&, at::Tensor const&, c10::SymInt, bool, bool)",
		"python_torch_functions_1.cpp|torch::autograd::THPVariable_embedding(_object*, _object*, _object*)",
	}
}

// kFloat is x.float(): a conversion of dtype on the same device, through
// THPVariable_to_type and the ScalarType overloads of dispatch_to and
// at::native::to (as PyTorch 2.x's real snapshots record it).
func kFloat() []string {
	return []string{
		"at::native::_to_copy(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::_ops::_to_copy::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::native::to(at::Tensor const&, c10::ScalarType, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::dispatch_to(at::Tensor const&, c10::ScalarType, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_to_type(_object*, c10::ScalarType, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_float(_object*, _object*, _object*)",
	}
}

func kCopy() []string {
	return []string{
		"at::native::_to_copy(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::_ops::_to_copy::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::native::to(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::dispatch_to(at::Tensor const&, c10::Device, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_to(_object*, _object*, _object*)",
	}
}

func kClone() []string {
	return []string{
		"at::native::clone(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"at::_ops::clone::call(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_clone(_object*, _object*, _object*)",
	}
}

func kZerosLike() []string {
	return []string{
		"at::native::empty_like(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat>)",
		"at::native::zeros_like(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat>)",
		"python_torch_functions_2.cpp|torch::autograd::THPVariable_zeros_like(_object*, _object*, _object*)",
	}
}

func kForeach() []string {
	return []string{
		"at::native::foreach_tensor_mul_scalar_kernel_cuda(c10::ArrayRef<at::Tensor>, c10::Scalar const&)",
		"at::_ops::_foreach_mul_Scalar::call(c10::ArrayRef<at::Tensor>, c10::Scalar const&)",
		"python_torch_functions_0.cpp|torch::autograd::THPVariable__foreach_mul(_object*, _object*, _object*)",
	}
}

func kCrossEntropy() []string {
	return []string{
		"at::native::log_softmax_cuda_out(at::Tensor const&, long, bool, at::Tensor const&)",
		"at::_ops::_log_softmax::call(at::Tensor const&, long, bool)",
		"at::native::cross_entropy_loss_symint(at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&, long, c10::SymInt, double)",
		"python_nn_functions.cpp|torch::autograd::THPVariable_cross_entropy_loss(_object*, _object*, _object*)",
	}
}

func kBackwardMM() []string {
	return []string{
		"at::native::mm_out_cuda(at::Tensor const&, at::Tensor const&, at::Tensor&)",
		"at::_ops::mm::call(at::Tensor const&, at::Tensor const&)",
		"FunctionsManual.cpp|torch::autograd::generated::details::mm_mat2_backward(at::Tensor const&, at::Tensor const&, c10::ArrayRef<c10::SymInt>, c10::ArrayRef<c10::SymInt>, c10::Layout, c10::Scalar const&)",
		"Functions.cpp|torch::autograd::generated::AddmmBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
		"|torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
	}
}

func kAccumulateGrad() []string {
	return []string{
		"at::native::clone(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"at::_ops::clone::call(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"|torch::autograd::AccumulateGrad::accumulateGrad<torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)::{lambda(at::Tensor&&)#1}>(at::Tensor const&, at::Tensor&, at::Tensor const&, long, unsigned long, torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)::{lambda(at::Tensor&&)#1} const&)",
		"|torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
		"|torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
	}
}

func kCublasWorkspace() []string {
	return []string{
		"CublasHandlePool.cpp|at::cuda::(anonymous namespace)::getNewWorkspace()",
		"CublasHandlePool.cpp|at::cuda::getCurrentCUDABlasHandle()",
		"CUDABlas.cpp|void at::cuda::blas::gemm<c10::BFloat16>(char, char, long, long, long, at::OpMathType<c10::BFloat16>::type, c10::BFloat16 const*, long, c10::BFloat16 const*, long, at::OpMathType<c10::BFloat16>::type, c10::BFloat16*, long)",
	}
}
