package analyze

import (
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"gpureport/analyze/frames"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

func TestFrameClassification(t *testing.T) {
	tests := []struct {
		f                    snapshot.Frame
		native, library, usr bool
	}{
		{snapshot.Frame{File: "/home/u/proj/train.py", Line: 57, Name: "step"}, false, false, true},
		{snapshot.Frame{File: "??", Line: 0, Name: "malloc"}, true, false, false},
		{snapshot.Frame{File: "", Line: 0, Name: "cfunction_call"}, true, false, false},
		{snapshot.Frame{File: "CUDACachingAllocator.cpp", Line: 0, Name: "malloc"}, true, false, false},
		{snapshot.Frame{File: "python_variable_methods.cpp", Line: 12, Name: "x"}, true, false, false},
		{snapshot.Frame{File: "/x/lib/python3.12/site-packages/torch/nn/modules/module.py", Line: 1750, Name: "_call_impl"}, false, true, false},
		{snapshot.Frame{File: "/usr/lib/python3/dist-packages/numpy/core.py", Line: 3, Name: "f"}, false, true, false},
		{snapshot.Frame{File: "/usr/lib/python3.11/threading.py", Line: 975, Name: "run"}, false, true, false},
		{snapshot.Frame{File: "/opt/conda/lib/python3.10/runpy.py", Line: 86, Name: "_run_code"}, false, true, false},
		{snapshot.Frame{File: `C:\Python311\Lib\runpy.py`, Line: 86, Name: "_run_code"}, false, true, false},
		{snapshot.Frame{File: "<frozen runpy>", Line: 88, Name: "_run_code"}, false, true, false},
		{snapshot.Frame{File: "/src/pytorch/torch/optim/adam.py", Line: 400, Name: "_single_tensor_adam"}, false, true, false},
		{snapshot.Frame{File: "/tmp/torchinductor_alice/ab/cabc.py", Line: 40, Name: "call"}, false, true, false},
		{snapshot.Frame{File: "<ipython-input-3-abc>", Line: 4, Name: "<module>"}, false, false, true},
		{snapshot.Frame{File: "/home/u/.venv/lib/python3.12/site-packages/mylib/x.py", Line: 4, Name: "f"}, false, true, false},
		{snapshot.Frame{File: `D:\work\proj\train.py`, Line: 9, Name: "main"}, false, false, true},
	}
	for _, tt := range tests {
		if got := IsNativeFrame(tt.f); got != tt.native {
			t.Errorf("IsNativeFrame(%+v) = %v", tt.f, got)
		}
		if !tt.native {
			if got := IsLibraryFrame(tt.f); got != tt.library {
				t.Errorf("IsLibraryFrame(%+v) = %v", tt.f, got)
			}
		}
		if got := IsUserFrame(tt.f); got != tt.usr {
			t.Errorf("IsUserFrame(%+v) = %v", tt.f, got)
		}
	}
}

func TestSignatureOf(t *testing.T) {
	base := stackAt("model.py", 88, "forward")
	sig := SignatureOf(base)
	if sig.Site != "model.py:88" || sig.Function != "forward" || sig.Kind != SiteUser || sig.File != "/home/alice/proj/model.py" {
		t.Fatalf("signature %+v", sig)
	}
	if !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(sig.Fingerprint) {
		t.Errorf("fingerprint %q is not 12 hex digits", sig.Fingerprint)
	}

	moved := stackAt("model.py", 88, "forward")
	for i := range moved {
		if IsUserFrame(moved[i]) {
			moved[i].File = "/mnt/ci/checkout-77/" + baseName(moved[i].File)
		}
	}
	outerEdit := stackAt("model.py", 88, "forward")
	outerEdit[5].Line = 133 // main's line moved
	siteEdit := stackAt("model.py", 89, "forward")
	otherCaller := stackAt("model.py", 88, "forward")
	otherCaller[5].Name = "evaluate"
	libOnly := []snapshot.Frame{cppFrame("malloc"), torchFrame("optim/adam.py", 400, "_single_tensor_adam"), torchFrame("optim/optimizer.py", 480, "wrapper")}
	nativeOnly := []snapshot.Frame{cppFrame("torch::unwind::unwind()"), cppFrame("at::native::relu"), cppFrame("torch::autograd::Engine::thread_main")}
	// A backward allocation as stacks="all" records it: C++ frames only,
	// in autograd's engine thread.
	backward := []snapshot.Frame{cppFrame("torch::unwind::unwind()"), cppFrame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, CUstream_st*)"),
		cppFrame("at::detail::empty_cuda(c10::ArrayRef<long>, c10::TensorOptions const&)"),
		cppFrame("at::(anonymous namespace)::structured_bmm_out_cuda_functional::set_output_raw_strided(long, c10::ArrayRef<long>)"),
		cppFrame("at::_ops::bmm::redispatch(c10::DispatchKeySet, at::Tensor const&, at::Tensor const&)"),
		cppFrame("at::_ops::bmm::call(at::Tensor const&, at::Tensor const&)"),
		cppFrame("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)"),
		cppFrame("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)")}
	// A forward op reached from C++ without a Python frame (a kernel's
	// workspace): the outermost operator names it.
	op := []snapshot.Frame{cppFrame("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned long)"),
		cppFrame("at::cuda::getNewWorkspace()"), cppFrame("void at::cuda::blas::gemm<float>(char, char, long)"),
		cppFrame("at::_ops::addmm::call(at::Tensor const&, at::Tensor const&)"), cppFrame("at::_ops::linear::call(at::Tensor const&, at::Tensor const&)")}

	tests := []struct {
		name     string
		frames   []snapshot.Frame
		same     bool
		site     string
		kind     SiteKind
		function string
	}{
		{"other path prefix", moved, true, "model.py:88", SiteUser, "forward"},
		{"outer frame line edited", outerEdit, true, "model.py:88", SiteUser, "forward"},
		{"site line differs", siteEdit, false, "model.py:89", SiteUser, "forward"},
		{"different caller", otherCaller, false, "model.py:88", SiteUser, "forward"},
		{"library only", libOnly, false, "adam.py:400", SiteLibrary, "_single_tensor_adam"},
		{"native only", nativeOnly, false, NativeSite, SiteNative, "at::native::relu"},
		{"backward thread", backward, false, "BmmBackward0 (autograd)", SiteNative, "at::(anonymous namespace)::structured_bmm_out_cuda_functional::set_output_raw_strided"},
		{"operator without Python", op, false, "aten::linear", SiteNative, "at::cuda::getNewWorkspace"},
		{"no frames", nil, false, NoStackSite, SiteNone, ""},
	}
	for _, tt := range tests {
		s := SignatureOf(tt.frames)
		if (s.Fingerprint == sig.Fingerprint) != tt.same {
			t.Errorf("%s: fingerprint %s vs base %s, same=%v wanted", tt.name, s.Fingerprint, sig.Fingerprint, tt.same)
		}
		if s.Site != tt.site || s.Kind != tt.kind || s.Function != tt.function {
			t.Errorf("%s: got site %q kind %q function %q", tt.name, s.Site, s.Kind, s.Function)
		}
	}
}

func TestGroupLiveAndDiff(t *testing.T) {
	leak := stackAt("train.py", 57, "train_step")
	act := stackAt("model.py", 88, "forward")
	a := newSnap().
		segment(0, live(4*mib, leak), live(2*mib, act), free(14*mib)).
		segment(0, live(512, nil), free(2*mib-512)).
		segment(1, live(8*mib, act)).
		done()
	b := newSnap().
		segment(0, live(4*mib, leak), live(4*mib, leak), live(6*mib, leak), free(6*mib)).
		segment(0, live(512, nil), free(2*mib-512)).
		done()

	ga := GroupLive(a, 0)
	if len(ga) != 3 || ga[0].Site != "train.py:57" || ga[0].Bytes != 4*mib || ga[1].Site != "model.py:88" || ga[2].Site != NoStackSite {
		t.Fatalf("groups of a: %+v", ga)
	}
	if g := GroupLive(a, 1); len(g) != 1 || g[0].Bytes != 8*mib {
		t.Errorf("device 1 groups %+v", g)
	}
	gb := GroupLive(b, 0)
	if gb[0].Blocks != 3 || gb[0].Bytes != 14*mib || len(gb[0].Stack) != len(leak) || !gb[0].User[3] || gb[0].User[2] {
		t.Errorf("leak group of b: %+v", gb[0])
	}

	d := Diff(ga, gb)
	want := []struct {
		site   string
		delta  int64
		status DiffStatus
	}{
		{"train.py:57", 10 * mib, DiffGrown},
		{"model.py:88", -2 * mib, DiffGone},
		{NoStackSite, 0, DiffSame},
	}
	if len(d) != len(want) {
		t.Fatalf("diff has %d entries: %+v", len(d), d)
	}
	for i, w := range want {
		if d[i].Site != w.site || d[i].Delta != w.delta || d[i].Status != w.status {
			t.Errorf("diff[%d] = %s %d %s, want %+v", i, d[i].Site, d[i].Delta, d[i].Status, w)
		}
	}
	if d := Diff(nil, gb); d[0].Status != DiffNew {
		t.Errorf("diff from nothing: %+v", d[0])
	}
	m := MergeGroups(GroupLive(a, 0), GroupLive(a, 1))
	if m[0].Site != "model.py:88" || m[0].Bytes != 10*mib {
		t.Errorf("merged %+v", m[0])
	}
}

// TestCppShortName: return types and parameter lists go, namespaces and
// template arguments stay.
func TestCppShortName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"at::native::mul(at::Tensor const&, at::Tensor const&)", "at::native::mul"},
		{"void at::cuda::blas::gemm<float>(char, char, long)", "at::cuda::blas::gemm<float>"},
		{"at::TensorBase at::detail::_empty_generic<long>(c10::ArrayRef<long>, c10::Allocator*)", "at::detail::_empty_generic<long>"},
		{"at::(anonymous namespace)::wrapper_CUDA_bmm(at::Tensor const&)", "at::(anonymous namespace)::wrapper_CUDA_bmm"},
		{"std::map<int, std::vector<long> > foo::bar(int)", "foo::bar"},
		{"start_thread", "start_thread"},
		{"(weird", "(weird"},
		{"", ""},
	} {
		if got := cppShortName(tt.in); got != tt.want {
			t.Errorf("cppShortName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRunSignatureMemo signs every stack of the sample run's snapshots
// and of every real snapshot twice: with each snapshot's own cache, and
// through one memo for them all, as Analyze does for a run. The
// signatures must be equal, and the memo must sign each stack the sample's
// snapshots share once.
func TestRunSignatureMemo(t *testing.T) {
	sample, err := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run", "*.pickle"))
	if err != nil || len(sample) < 2 {
		t.Fatalf("sample run snapshots: %v (%d)", err, len(sample))
	}
	memo := frames.NewStackMemo[*Signature]()
	sampleStacks := 0
	for i, f := range append(sample, testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")...) {
		s, _, err := snapshot.DecodeFile(f, snapshot.DecodeOptions{})
		if err != nil {
			continue // the decoder's own tests cover the files it refuses
		}
		alone, run := newSignatureCache(&s.Stacks), newRunSignatureCache(&s.Stacks, memo)
		for id := snapshot.StackID(1); int(id) < s.Stacks.Len(); id++ {
			if a, r := alone.get(id), run.get(id); !reflect.DeepEqual(a, r) {
				t.Errorf("%s stack %d: signed through the run's memo %+v, alone %+v", filepath.Base(f), id, *r, *a)
			}
		}
		if i < len(sample) {
			sampleStacks += s.Stacks.Len() - 1
			if i == len(sample)-1 && memo.Len()*2 > sampleStacks {
				t.Errorf("the memo signed %d stacks for the sample's %d snapshots with %d stacks in all; want each shared stack once", memo.Len(), len(sample), sampleStacks)
			}
		}
	}
}

// TestGroupLiveMergesStacksOfOneSignature: stacks whose frames differ
// only in allocator plumbing have one signature; their blocks, in any
// order, make one group whatever cache signs them (each snapshot's own,
// or a run's memo, which gives each stack its own Signature value), with
// the largest block's stack as its representative, as Survival gives
// them one group.
func TestGroupLiveMergesStacksOfOneSignature(t *testing.T) {
	a := stackAt("train.py", 57, "train_step")
	b := append([]snapshot.Frame{cppFrame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::alloc_found_block")}, a...)
	other := stackAt("model.py", 88, "forward")
	s := newSnap().
		segment(0, live(mib, a), live(3*mib, b), live(2*mib, other), live(mib, a), live(mib, b), free(mib)).
		done()
	sa, sb := newSignatureCache(&s.Stacks), newSignatureCache(&s.Stacks)
	ida, idb := s.Segments[0].Blocks[0].Stack, s.Segments[0].Blocks[1].Stack
	if ida == idb || sa.get(ida).Key != sb.get(idb).Key {
		t.Fatalf("the two stacks: IDs %d and %d, keys %q and %q; want two stacks of one signature", ida, idb, sa.get(ida).Key, sb.get(idb).Key)
	}
	memo := frames.NewStackMemo[*Signature]()
	for name, cache := range map[string]*signatureCache{"own cache": newSignatureCache(&s.Stacks), "run memo": newRunSignatureCache(&s.Stacks, memo)} {
		gs := groupLive(s, 0, cache)
		if len(gs) != 2 {
			t.Fatalf("%s: %d groups, want 2: %v", name, len(gs), gs)
		}
		g := gs[sa.get(ida).Key]
		if g == nil || g.bytes != 6*mib || g.blocks != 4 || g.rep != idb {
			t.Errorf("%s: train.py:57's group %+v; want 6 MiB in 4 blocks, represented by stack %d", name, g, idb)
		}
		sv := newSurvival()
		sv.Observe(s, 0, cache)
		if len(sv.groups) != 2 {
			t.Errorf("%s: survival has %d groups, want 2", name, len(sv.groups))
		}
	}
}

// TestFrozenCacheLeavesTheMemo freezes a run's cache for each real
// snapshot's live blocks, as buildGroups does before the survival fold
// takes the cache to another goroutine: every live block's stack must
// give the memo's own Signature, each other stack an equal one, and the
// memo must not be read or grown after the freeze (the fold reads the
// cache while the next file's groups read the memo).
func TestFrozenCacheLeavesTheMemo(t *testing.T) {
	memo := frames.NewStackMemo[*Signature]()
	live := 0
	for _, f := range testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl") {
		s, _, err := snapshot.DecodeFile(f, snapshot.DecodeOptions{})
		if err != nil {
			continue // the decoder's own tests cover the files it refuses
		}
		for _, dev := range s.Devices() {
			ref := newRunSignatureCache(&s.Stacks, memo)
			c := newRunSignatureCache(&s.Stacks, memo)
			c.freeze(s, dev)
			if c.memo != nil {
				t.Fatalf("%s: a frozen cache keeps the run's memo", filepath.Base(f))
			}
			before := memo.Len()
			for b := range liveBlocks(s, dev) {
				if got, want := c.get(b.Stack), ref.get(b.Stack); got != want && b.Stack != snapshot.NoStack {
					t.Fatalf("%s stack %d: frozen %p, the memo's %p", filepath.Base(f), b.Stack, got, want)
				}
				live++
			}
			for id := snapshot.StackID(1); int(id) < s.Stacks.Len(); id++ {
				if got, want := c.get(id), newSignatureCache(&s.Stacks).get(id); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s stack %d: frozen %+v, signed alone %+v", filepath.Base(f), id, *got, *want)
				}
			}
			if memo.Len() != before {
				t.Fatalf("%s: the memo grew from %d to %d signatures after the freeze", filepath.Base(f), before, memo.Len())
			}
		}
	}
	if live == 0 {
		t.Fatal("no live block was asked for: the test compares nothing")
	}
}
