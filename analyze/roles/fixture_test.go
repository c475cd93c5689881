package roles

import (
	"bytes"
	"testing"

	"gpureport/internal/gen/alloc"
	"gpureport/internal/gen/layout"
	"gpureport/snapshot"
)

// Fixtures are made by the project's generator: the simulated caching
// allocator (internal/gen/alloc) runs the allocations of a scenario, and
// the snapshot writer (internal/gen/layout) pickles them in the layout of
// PyTorch 2.16 (user_metadata and pool_id on every event). The stacks are
// written as PyTorch records them: Python frames innermost first with
// site-packages paths and the line numbers of real snapshots
// (../shared/testdata-real), C++ frames as its unwinder names them.

const (
	site = "/opt/conda/lib/python3.12/site-packages/"
	proj = "/home/alice/proj/"
)

// py is a Python frame; cpp a C++ frame ("??" file, line 0).
func py(file string, line int, name string) *layout.Frame {
	return &layout.Frame{File: file, Line: line, Name: name}
}

func cpp(name string) *layout.Frame { return &layout.Frame{File: "??", Name: name} }

// Stack templates, innermost first.
var (
	// The C++ frames of the allocator under every allocation of a
	// stacks="all" recording.
	cppMalloc = []*layout.Frame{
		cpp("torch::unwind::unwind()"),
		cpp("torch::CapturedTraceback::gather(bool, bool, bool)"),
		{File: "memory_snapshot.cpp", Name: "torch::cuda::(anonymous namespace)::gather_with_cpp()"},
		{File: "CUDACachingAllocator.cpp", Name: "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(unsigned long, CUstream_st*)"},
		cpp("at::detail::empty_cuda(c10::ArrayRef<long>, c10::TensorOptions const&)"),
	}
	// cppEngine are the frames of autograd's device thread.
	cppEngine = []*layout.Frame{
		cpp("torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::GraphTask>&, torch::autograd::Node*, torch::autograd::InputBuffer&, std::shared_ptr<torch::autograd::ReadyQueue> const&)"),
		cpp("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)"),
		cpp("torch::autograd::Engine::thread_init(int, std::shared_ptr<torch::autograd::ReadyQueue> const&, bool)"),
		cpp("__clone"),
	}
	// trainStep is the user's training loop calling into the model.
	trainStep = []*layout.Frame{py(proj+"train.py", 57, "train_step"), py(proj+"train.py", 112, "main"), py(proj+"train.py", 130, "<module>")}
	// moduleCall is nn.Module.__call__ of PyTorch 2.6.
	moduleCall = []*layout.Frame{py(site+"torch/nn/modules/module.py", 1750, "_call_impl"), py(site+"torch/nn/modules/module.py", 1739, "_wrapped_call_impl")}
)

// stackOf joins frame lists, innermost first.
func stackOf(parts ...[]*layout.Frame) []*layout.Frame {
	var out []*layout.Frame
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// frames1 wraps single frames as a list, for stackOf.
func frames1(fs ...*layout.Frame) []*layout.Frame { return fs }

// forwardAt is a stacks="python" forward allocation at model.py:line.
func forwardAt(line int) []*layout.Frame {
	return stackOf(frames1(py(proj+"model.py", line, "forward")), moduleCall, trainStep)
}

// fixture runs a scenario through the simulated allocator of one device
// (and, on demand, private pools and the host allocator) and writes its
// snapshot.
type fixture struct {
	t     testing.TB
	dev   *alloc.Allocator
	pools map[[2]int64]*alloc.Allocator
	cur   *alloc.Allocator
	now   int64
	ctxID uint64
	host  *layout.Host
	marks map[string]*alloc.Block
	addrs map[string]uint64
}

func newFixture(t testing.TB) *fixture { return newFixtureOf(t, 80<<30) }

// newFixtureOf is newFixture with a device of capacity bytes.
func newFixtureOf(t testing.TB, capacity int64) *fixture {
	f := &fixture{t: t, pools: map[[2]int64]*alloc.Allocator{}, now: 1772442000000000, marks: map[string]*alloc.Block{}, addrs: map[string]uint64{}}
	f.dev = alloc.New(alloc.Config{Capacity: capacity, MaxEntries: 100000})
	f.cur = f.dev
	return f
}

// ctx makes a new traceback of frames with user_metadata meta.
func (f *fixture) ctx(frames []*layout.Frame, meta string) *layout.Context {
	f.ctxID++
	return &layout.Context{ID: f.ctxID, Frames: frames, Meta: meta}
}

func (f *fixture) tick() {
	f.now += 100
	f.cur.SetTime(f.now)
}

// pool makes the allocations that follow come from private pool id (the
// default pool for (0, 0)).
func (f *fixture) pool(id [2]int64) {
	if id == ([2]int64{}) {
		f.cur = f.dev
		return
	}
	a := f.pools[id]
	if a == nil {
		a = alloc.New(alloc.Config{Capacity: 80 << 30, MaxEntries: 100000, BaseAddress: 0x7f1000000000 + uint64(len(f.pools)+1)<<36})
		f.pools[id] = a
	}
	f.cur = a
}

// record turns stack and trace recording on or off (off: allocations
// before _record_memory_history).
func (f *fixture) record(on bool) { f.cur.SetRecording(on) }

// alloc allocates n bytes with stack frames and metadata meta; name, when
// not empty, marks the block for the checks.
func (f *fixture) alloc(name string, n int64, frames []*layout.Frame, meta string) *alloc.Block {
	f.tick()
	b, err := f.cur.Malloc(n, 0, f.ctx(frames, meta))
	if err != nil {
		f.t.Fatal(err)
	}
	if name != "" {
		f.marks[name] = b
		f.addrs[name] = b.Addr
	}
	return b
}

func (f *fixture) free(b *alloc.Block) {
	f.tick()
	f.cur.Free(b, f.ctx(trainStep, ""))
}

func (f *fixture) annotate(b *alloc.Block, text string) {
	f.tick()
	f.cur.Annotate(b, f.ctx(trainStep, text))
}

// snapshot writes the scenario as a PyTorch 2.16 snapshot and decodes it.
func (f *fixture) snapshot() *snapshot.Snapshot {
	data := f.encode()
	s, _, err := snapshot.Decode(bytes.NewReader(data), int64(len(data)), snapshot.DecodeOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// encode writes the scenario as a PyTorch 2.16 snapshot pickle.
func (f *fixture) encode() []byte {
	devs := []layout.Device{{Alloc: f.dev, Trace: f.dev.Trace()}}
	for id, a := range f.pools {
		devs = append(devs, layout.Device{Alloc: a, Trace: a.Trace(), Pool: id})
	}
	b := layout.NewBuilder(layout.Options{Format: layout.Timed, AllocatorSettings: true, ExternalAnnotations: true,
		CompileContext: true, UserMetadata: true, PoolIDs: true, GraphCaptureKey: true, Devices: 1})
	b.Host = f.host
	data, err := layout.Encode(b.Build(devs, layout.Settings{MaxSplitSize: -1}, nil), layout.FileOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return data
}

// decisions classifies device 0 of s and returns the decision of each
// marked block by name, with the breakdown.
func (f *fixture) decisions(s *snapshot.Snapshot) (map[string]Decision, Breakdown) {
	sc := SceneOf(s, 0)
	ds, bd := Classify(sc)
	byAddr := map[uint64]Decision{}
	for i, b := range sc.Blocks {
		byAddr[b.Addr] = ds[i]
	}
	out := map[string]Decision{}
	for name, addr := range f.addrs {
		if d, ok := byAddr[addr]; ok {
			out[name] = d
		}
	}
	return out, bd
}
