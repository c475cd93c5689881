package frames

import (
	"testing"

	"gpureport/snapshot"
)

// TestNodesAndOps reads autograd nodes and ATen operators off C++ frames
// as PyTorch's unwinder names them, and nothing off other frames.
func TestNodesAndOps(t *testing.T) {
	for _, tt := range []struct {
		name       string
		node, op   string
		okNode, ok bool
	}{
		{name: "torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)", node: "BmmBackward0", okNode: true},
		{name: "torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)", node: "AccumulateGrad", okNode: true},
		{name: "at::_ops::bmm::call(at::Tensor const&, at::Tensor const&)", op: "bmm", ok: true},
		{name: "at::_ops::bmm::redispatch(c10::DispatchKeySet, at::Tensor const&, at::Tensor const&)"},
		{name: "torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)"},
		{name: "apply"},
	} {
		f := snapshot.Frame{File: "??", Name: tt.name}
		if node, ok := AutogradNode(f); node != tt.node || ok != tt.okNode {
			t.Errorf("AutogradNode(%q) = %q, %v", tt.name, node, ok)
		}
		if op, ok := ATenOp(f); op != tt.op || ok != tt.ok {
			t.Errorf("ATenOp(%q) = %q, %v", tt.name, op, ok)
		}
		if !IsNative(f) || IsUser(f) {
			t.Errorf("%q: a C++ frame", tt.name)
		}
	}
}
