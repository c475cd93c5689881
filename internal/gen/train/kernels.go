package train

import "slices"

// kernel is an ATen operator as a snapshot's C++ frames show it: the
// frames between the allocator's empty_cuda and the Python binding (or the
// autograd node) that called it.
type kernel int

// The kernels the simulated program calls.
const (
	// kLinear is F.linear: addmm into a new output.
	kLinear kernel = iota
	// kMatmul is a @ b on batched tensors: bmm.
	kMatmul
	// kSoftmax is torch.softmax.
	kSoftmax
	// kElementwise is a + b: an elementwise binary operator.
	kElementwise
	// kLayerNorm is F.layer_norm.
	kLayerNorm
	// kGelu is F.gelu.
	kGelu
	// kEmbedding is F.embedding: index_select of the table's rows.
	kEmbedding
	// kFloat is x.float(): a conversion of dtype on the same device, through
	// THPVariable_to_type and the ScalarType overloads of dispatch_to and
	// at::native::to (as PyTorch 2.x's real snapshots record it).
	kFloat
	// kCopy is x.to(device): a copy onto the GPU.
	kCopy
	// kClone is x.clone().
	kClone
	// kZerosLike is torch.zeros_like.
	kZerosLike
	// kForeach is torch._foreach_mul: AdamW's multi-tensor step.
	kForeach
	// kCrossEntropy is F.cross_entropy: its log_softmax.
	kCrossEntropy
	// kBackwardMM is the mm of addmm's backward, on the autograd thread.
	kBackwardMM
	// kGeluBackward is GeluBackward0's elementwise gradient, on the autograd thread.
	kGeluBackward
	// kAccumulateGrad is a gradient's first accumulation: AccumulateGrad's clone.
	kAccumulateGrad
	// kCublasWorkspace is cuBLAS's workspace, allocated by the first gemm on a handle.
	kCublasWorkspace
	// kCat is torch.cat.
	kCat
	// kMulBackward is MulBackward0's gradient, on the autograd thread.
	kMulBackward
	// kAutocastCast is autocast's cast of a linear's input to the autocast dtype.
	kAutocastCast

	numKernels
)

// kernelFrames holds each kernel's C++ frames, innermost first, in the
// form of the frame lists of frames.go ("file|name" gives a file). It is
// read through kernel.frames, which copies, and never written.
var kernelFrames = [numKernels][]string{
	kLinear: {
		"Blas.cpp|at::native::(anonymous namespace)::addmm_out_cuda_impl(at::Tensor&, at::Tensor const&, at::Tensor const&, at::Tensor const&, c10::Scalar const&, c10::Scalar const&, at::native::(anonymous namespace)::Activation)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::(anonymous namespace)::wrapper_CUDA_addmm(at::Tensor const&, at::Tensor const&, at::Tensor const&, c10::Scalar const&, c10::Scalar const&)",
		"at::_ops::addmm::call(at::Tensor const&, at::Tensor const&, at::Tensor const&, c10::Scalar const&, c10::Scalar const&)",
		"at::native::linear(at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&)",
		"at::_ops::linear::call(at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&)",
		"python_nn_functions.cpp|torch::autograd::THPVariable_linear(_object*, _object*, _object*)",
	},
	kMatmul: {
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::create_out(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions const&)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::structured_bmm_out_cuda_functional::set_output_raw_strided(long, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions, c10::ArrayRef<at::Dimname>)",
		"at::meta::structured_bmm::meta(at::Tensor const&, at::Tensor const&)",
		"at::_ops::bmm::call(at::Tensor const&, at::Tensor const&)",
		"at::native::matmul(at::Tensor const&, at::Tensor const&)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_matmul(_object*, _object*, _object*)",
	},
	kSoftmax: {
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::structured_softmax_cuda_out_functional::set_output_raw_strided(long, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions, c10::ArrayRef<at::Dimname>)",
		"at::meta::structured__softmax::meta(at::Tensor const&, long, bool)",
		"at::_ops::_softmax::call(at::Tensor const&, long, bool)",
		"at::native::softmax(at::Tensor const&, long, std::optional<c10::ScalarType>)",
		"python_torch_functions_0.cpp|torch::autograd::THPVariable_softmax(_object*, _object*, _object*)",
	},
	kElementwise: {
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::create_out(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions const&)",
		"at::TensorIteratorBase::allocate_or_resize_outputs()",
		"at::TensorIteratorBase::build(at::TensorIteratorConfig&)",
		"at::TensorIteratorBase::build_borrowing_binary_op(at::TensorBase const&, at::TensorBase const&, at::TensorBase const&)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::wrapper_CUDA_add_Tensor(at::Tensor const&, at::Tensor const&, c10::Scalar const&)",
		"at::_ops::add_Tensor::call(at::Tensor const&, at::Tensor const&, c10::Scalar const&)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_add(_object*, _object*, _object*)",
	},
	kLayerNorm: {
		"layer_norm.cpp|at::native::layer_norm_cuda(at::Tensor const&, c10::ArrayRef<long>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double)",
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::wrapper_CUDA__native_layer_norm(at::Tensor const&, c10::ArrayRef<c10::SymInt>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double)",
		"at::_ops::native_layer_norm::call(at::Tensor const&, c10::ArrayRef<c10::SymInt>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double)",
		"at::native::layer_norm_symint(at::Tensor const&, c10::ArrayRef<c10::SymInt>, std::optional<at::Tensor> const&, std::optional<at::Tensor> const&, double, bool)",
		"python_torch_functions_1.cpp|torch::autograd::THPVariable_layer_norm(_object*, _object*, _object*)",
	},
	kGelu: {
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::structured_gelu_out_functional::set_output_raw_strided(long, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions, c10::ArrayRef<at::Dimname>)",
		"at::TensorIteratorBase::build(at::TensorIteratorConfig&)",
		"at::_ops::gelu::call(at::Tensor const&, c10::basic_string_view<char>)",
		"python_nn_functions.cpp|torch::autograd::THPVariable_gelu(_object*, _object*, _object*)",
	},
	kEmbedding: {
		"at::native::index_select_cuda(at::Tensor const&, long, at::Tensor const&)",
		"at::_ops::index_select::call(at::Tensor const&, long, at::Tensor const&)",
		"at::native::embedding_symint(at::Tensor const&, at::Tensor const&, c10::SymInt, bool, bool)",
		"python_torch_functions_1.cpp|torch::autograd::THPVariable_embedding(_object*, _object*, _object*)",
	},
	kFloat: {
		"at::native::_to_copy(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::_ops::_to_copy::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::native::to(at::Tensor const&, c10::ScalarType, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::dispatch_to(at::Tensor const&, c10::ScalarType, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_to_type(_object*, c10::ScalarType, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_float(_object*, _object*, _object*)",
	},
	kCopy: {
		"at::native::_to_copy(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::_ops::_to_copy::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::native::to(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::dispatch_to(at::Tensor const&, c10::Device, bool, bool, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_to(_object*, _object*, _object*)",
	},
	kClone: {
		"at::native::clone(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"at::_ops::clone::call(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"python_variable_methods.cpp|torch::autograd::THPVariable_clone(_object*, _object*, _object*)",
	},
	kZerosLike: {
		"at::native::empty_like(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat>)",
		"at::native::zeros_like(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat>)",
		"python_torch_functions_2.cpp|torch::autograd::THPVariable_zeros_like(_object*, _object*, _object*)",
	},
	kForeach: {
		"at::native::foreach_tensor_mul_scalar_kernel_cuda(c10::ArrayRef<at::Tensor>, c10::Scalar const&)",
		"at::_ops::_foreach_mul_Scalar::call(c10::ArrayRef<at::Tensor>, c10::Scalar const&)",
		"python_torch_functions_0.cpp|torch::autograd::THPVariable__foreach_mul(_object*, _object*, _object*)",
	},
	kCrossEntropy: {
		"at::native::log_softmax_cuda_out(at::Tensor const&, long, bool, at::Tensor const&)",
		"at::_ops::_log_softmax::call(at::Tensor const&, long, bool)",
		"at::native::cross_entropy_loss_symint(at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&, long, c10::SymInt, double)",
		"python_nn_functions.cpp|torch::autograd::THPVariable_cross_entropy_loss(_object*, _object*, _object*)",
	},
	kBackwardMM: {
		"at::native::mm_out_cuda(at::Tensor const&, at::Tensor const&, at::Tensor&)",
		"at::_ops::mm::call(at::Tensor const&, at::Tensor const&)",
		"FunctionsManual.cpp|torch::autograd::generated::details::mm_mat2_backward(at::Tensor const&, at::Tensor const&, c10::ArrayRef<c10::SymInt>, c10::ArrayRef<c10::SymInt>, c10::Layout, c10::Scalar const&)",
		"Functions.cpp|torch::autograd::generated::AddmmBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
		"|torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
	},
	kGeluBackward: {
		"Functions.cpp|torch::autograd::generated::GeluBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
		"|torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
	},
	kAccumulateGrad: {
		"at::native::clone(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"at::_ops::clone::call(at::Tensor const&, std::optional<c10::MemoryFormat>)",
		"|torch::autograd::AccumulateGrad::accumulateGrad<torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)::{lambda(at::Tensor&&)#1}>(at::Tensor const&, at::Tensor&, at::Tensor const&, long, unsigned long, torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)::{lambda(at::Tensor&&)#1} const&)",
		"|torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
		"|torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
	},
	kCublasWorkspace: {
		"CublasHandlePool.cpp|at::cuda::(anonymous namespace)::getNewWorkspace()",
		"CublasHandlePool.cpp|at::cuda::getCurrentCUDABlasHandle()",
		"CUDABlas.cpp|void at::cuda::blas::gemm<c10::BFloat16>(char, char, long, long, long, at::OpMathType<c10::BFloat16>::type, c10::BFloat16 const*, long, c10::BFloat16 const*, long, at::OpMathType<c10::BFloat16>::type, c10::BFloat16*, long)",
	},
	kCat: {
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::structured_cat_out_cuda_functional::set_output_raw_strided(long, c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions, c10::ArrayRef<at::Dimname>)",
		"at::meta::structured_cat::meta(c10::IListRef<at::Tensor> const&, long)",
		"at::_ops::cat::call(c10::IListRef<at::Tensor> const&, long)",
		"python_torch_functions_0.cpp|torch::autograd::THPVariable_cat(_object*, _object*, _object*)",
	},
	kMulBackward: {
		"RegisterCUDA_0.cpp|at::(anonymous namespace)::create_out(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::TensorOptions const&)",
		"at::TensorIteratorBase::build_borrowing_binary_op(at::TensorBase const&, at::TensorBase const&, at::TensorBase const&)",
		"at::_ops::mul_Tensor::call(at::Tensor const&, at::Tensor const&)",
		"FunctionsManual.cpp|torch::autograd::generated::details::mul_tensor_backward(at::Tensor const&, at::Tensor const&, c10::ScalarType)",
		"Functions.cpp|torch::autograd::generated::MulBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
		"|torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
	},
	kAutocastCast: {
		"at::native::_to_copy(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"at::_ops::_to_copy::call(at::Tensor const&, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, std::optional<c10::MemoryFormat>)",
		"autocast_mode.cpp|at::autocast::cached_cast(c10::ScalarType, at::Tensor const&, c10::DeviceType)",
		"autocast_mode.h|at::autocast::WrapFunction_<(at::autocast::CastPolicy)0, (c10::DeviceType)1, at::Tensor (at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&), &at::_ops::linear::call>::call(at::Tensor const&, at::Tensor const&, std::optional<at::Tensor> const&)",
		"python_nn_functions.cpp|torch::autograd::THPVariable_linear(_object*, _object*, _object*)",
	},
}

// frames returns a copy of the kernel's C++ frames, innermost first.
func (k kernel) frames() []string { return slices.Clone(kernelFrames[k]) }
