package roles

import (
	"testing"

	"gpureport/internal/gen/alloc"
	"gpureport/internal/gen/layout"
	"gpureport/snapshot"
)

// TestPoolKinds makes one pool of each kind, as PyTorch numbers and fills
// them, and checks the kind, the evidence and a MemPool's name.
func TestPoolKinds(t *testing.T) {
	f := newFixture(t)
	f.alloc("", 8<<20, forwardAt(40), "")
	f.pool([2]int64{1, 0}) // torch.cuda.graph() without a pool: {graph id, 0}
	f.alloc("", 8<<20, forwardAt(40), "")
	f.pool([2]int64{0, 3}) // torch.compile(mode="reduce-overhead")
	f.alloc("", 8<<20, cudagraphTrees, "")
	f.pool([2]int64{0, 4}) // graph_pool_handle() shared by graph captures
	f.alloc("", 8<<20, stackOf(frames1(py(site+"torch/cuda/graphs.py", 610, "make_graphed_callables")), trainStep), "")
	f.pool([2]int64{0, 5}) // torch.cuda.MemPool, named by its metadata
	f.alloc("", 8<<20, forwardAt(42), `{"pool": "comm-buffers", "step": 3}`)
	f.pool([2]int64{0, 6}) // symmetric memory
	f.alloc("", 8<<20, symmetricMem, "")
	f.pool([2]int64{0, 7}) // an unnamed MemPool
	f.alloc("", 8<<20, forwardAt(43), "step 3")
	s := f.snapshot()
	got := map[[2]int64]Pool{}
	for _, p := range Pools(s, 0) {
		got[p.ID] = p
	}
	for _, w := range []struct {
		id      [2]int64
		kind    PoolKind
		name    string
		decided PoolEvidence
	}{
		{[2]int64{0, 0}, PoolDefault, "", PoolByDefaultID},
		{[2]int64{1, 0}, PoolCUDAGraph, "", PoolByGraphID},
		{[2]int64{0, 3}, PoolCUDAGraphTrees, "", PoolByTreesFrames},
		{[2]int64{0, 4}, PoolCUDAGraph, "", PoolByGraphsFrames},
		{[2]int64{0, 5}, PoolMemPool, "comm-buffers", PoolByNoFrames},
		{[2]int64{0, 6}, PoolSymmetric, "", PoolBySymmetricFrames},
		{[2]int64{0, 7}, PoolMemPool, "", PoolByNoFrames},
	} {
		p, ok := got[w.id]
		if !ok || p.Kind != w.kind || p.Name != w.name || p.Decided != w.decided {
			t.Errorf("pool %v: %+v, want %s named %q decided by %d", w.id, p, w.kind, w.name, w.decided)
		}
	}
	if len(got) != 7 {
		t.Errorf("%d pools, want 7", len(got))
	}
	// The digest keeps what decides a pool's kind and name.
	d := snapshot.Reduce(s)
	for _, p := range Pools(d, 0) {
		if got[p.ID] != p {
			t.Errorf("digest pool %+v, want %+v", p, got[p.ID])
		}
	}
}

// TestHostPinnedInputs classifies pinned host memory: the data loader's
// pin_memory thread makes inputs, a block pinned before recording is
// unknown.
func TestHostPinnedInputs(t *testing.T) {
	pin := stackOf(frames1(py(site+"torch/utils/data/_utils/pin_memory.py", 73, "pin_memory"),
		py(site+"torch/utils/data/_utils/pin_memory.py", 38, "do_one_step"), py(site+"torch/utils/data/_utils/pin_memory.py", 58, "_pin_memory_loop"),
		py("/opt/conda/lib/python3.12/threading.py", 1010, "run")))
	f := newFixture(t)
	f.alloc("", 8<<20, forwardAt(40), "")
	hctx := &layout.Context{ID: 900, Frames: pin}
	f.host = &layout.Host{
		Segments: []layout.HostSegment{
			{Addr: 0x10000000, Size: 1 << 21, Requested: 1500000, Live: true, Ctx: hctx},
			{Addr: 0x10200000, Size: 1 << 22, Requested: 1 << 22, Live: true},
			{Addr: 0x10600000, Size: 1 << 21, Requested: 1 << 21},
		},
		Trace: []alloc.TraceEntry{{Action: alloc.Alloc, Addr: 0x10000000, Size: 1500000, TimeUS: f.now, Ctx: hctx}},
	}
	s := f.snapshot()
	h := s.Host()
	if h == nil {
		t.Fatal("no host memory")
	}
	ds, bd := ClassifySnapshot(h, 0)
	if len(ds) != 2 || ds[0].Role != Inputs || ds[0].Evidence != ByFrame || ds[1].Role != Unknown {
		t.Errorf("host decisions %+v", ds)
	}
	if bd.Bytes[Inputs] != 1<<21 || bd.Bytes[Unknown] != 1<<22 || bd.Allocated != 3<<21 {
		t.Errorf("host breakdown %v of %d", bd.Bytes, bd.Allocated)
	}
}

// TestLabelRole reads roles off labels as users write them.
func TestLabelRole(t *testing.T) {
	for _, tt := range []struct {
		text string
		role Role
		ok   bool
	}{
		{`{"role": "optimizer_state"}`, OptimizerState, true},
		{`{"category": "grads", "step": 3}`, Gradients, true},
		{`{"pool": "comm-buffers"}`, 0, false},
		{`{"phase": "backward"}`, 0, false},
		{"kv cache weights", Parameters, true},
		{"exp_avg_sq of layer 3", OptimizerState, true},
		{"activation saved for backward", Activations, true},
		{"batch 12", Inputs, true},
		{"scratch", Temporaries, true},
		{"step 3", 0, false},
		{"retained_by_autograd", 0, false},
		{"{not json: param", Parameters, true},
		{"", 0, false},
	} {
		r, ok := labelRole(tt.text)
		if ok != tt.ok || ok && r != tt.role {
			t.Errorf("labelRole(%q) = %s, %v; want %s, %v", tt.text, r, ok, tt.role, tt.ok)
		}
	}
}
