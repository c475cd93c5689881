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
