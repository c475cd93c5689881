package roles

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"gpureport/internal/bykey"
	"gpureport/snapshot"
)

// A segment's segment_pool_id says which pool serves it; the snapshot
// says nothing else about the pool, so its kind is read from the id and
// from the stacks of what was allocated in it, as PyTorch makes ids:
//
//   - (0, 0) is the default pool;
//   - (N, 0) is a CUDA graph's own private pool: CUDAGraph::capture_begin
//     without a pool argument takes {graph id, 0}
//     (aten/src/ATen/cuda/CUDAGraph.cpp);
//   - (0, N) comes from graph_pool_handle() or torch.cuda.MemPool, which
//     both number {0, uid}: it is a cudagraph-trees pool when
//     torch/_inductor/cudagraph_trees.py allocated in it
//     (torch.compile(mode="reduce-overhead")), a symmetric-memory pool when
//     torch.distributed._symmetric_memory or NCCL's symmetric allocator
//     did, a CUDA graph's shared pool when torch.cuda.graphs did
//     (make_graphed_callables, graph(pool=...)), else a MemPool;
//   - any other pair is taken as a MemPool.
//
// A MemPool is named by the user_metadata of its allocations when that is
// a JSON object with a "pool" or "name" field
// (_set_memory_metadata({"pool": "comm-buffers"})), as oomscope reads
// it; a snapshot never names a pool itself.

// PoolKind is the kind of a memory pool.
type PoolKind uint8

// Pool kinds, as docs/design.md names them.
const (
	PoolDefault PoolKind = iota
	PoolCUDAGraph
	PoolCUDAGraphTrees
	PoolMemPool
	PoolSymmetric
)

var poolKindNames = [...]string{"default", "cuda_graph", "cudagraph_trees", "mempool", "symmetric"}

// String returns the kind's name ("cudagraph_trees").
func (k PoolKind) String() string {
	if int(k) < len(poolKindNames) {
		return poolKindNames[k]
	}
	return "mempool"
}

// Graph reports whether the pool holds CUDA-graph memory (a graph's own
// pool or cudagraph trees'): its blocks are GraphPools.
func (k PoolKind) Graph() bool { return k == PoolCUDAGraph || k == PoolCUDAGraphTrees }

// Pool is one pool of a device and what decided its kind.
type Pool struct {
	ID   [2]int64
	Kind PoolKind
	// Name is a MemPool's name from its allocations' user_metadata, ""
	// when none names it.
	Name string
	// Decided says what decided the kind.
	Decided PoolEvidence
}

// PoolEvidence says what decided a pool's kind: its id alone, or the
// frames of the stacks allocated in it.
type PoolEvidence uint8

const (
	// PoolByDefaultID: the id is (0, 0), the default pool.
	PoolByDefaultID PoolEvidence = iota + 1
	// PoolByGraphID: the id's second half is 0, which only a CUDA graph's
	// own pool has (graph pools count up the first half).
	PoolByGraphID
	// PoolByTreesFrames: allocated by torch/_inductor/cudagraph_trees.py.
	PoolByTreesFrames
	// PoolBySymmetricFrames: allocated by symmetric memory
	// (torch.distributed._symmetric_memory, NCCL's ncclMemAlloc).
	PoolBySymmetricFrames
	// PoolByGraphsFrames: allocated under torch/cuda/graphs.py, a graph
	// pool shared by several graphs.
	PoolByGraphsFrames
	// PoolByNoFrames: a private pool with none of the frames above, which
	// leaves a torch.cuda.MemPool.
	PoolByNoFrames
)

// Pools returns the pools of device dev's segments in s, by id (the
// default pool first).
func Pools(s *snapshot.Snapshot, dev int) []Pool {
	type acc struct {
		stacks []snapshot.StackID
		addrs  []uint64
	}
	byID := map[[2]int64]*acc{}
	// The pool of the segment before: segments of one pool come in runs,
	// and a lookup a segment was most of the time on thousands.
	var lastID [2]int64
	var last *acc
	for i := range s.Segments {
		seg := s.Segments[i]
		if seg.Device != dev {
			continue
		}
		a := last
		if a == nil || seg.PrivatePool != lastID {
			a = bykey.Entry(byID, seg.PrivatePool, func() *acc { return &acc{} })
			lastID, last = seg.PrivatePool, a
		}
		if !byFrames(seg.PrivatePool) {
			// Decided by its id alone: its blocks (all of them, for the
			// default pool) need not be gathered.
			continue
		}
		a.stacks = append(a.stacks, seg.Stack)
		for _, b := range seg.Blocks {
			a.stacks = append(a.stacks, b.Stack)
			if b.State == snapshot.StateActiveAllocated {
				a.addrs = append(a.addrs, b.Address)
			}
		}
	}
	bts := s.BlockTraces(dev)
	cache := newStackCache(&s.Stacks, nil)
	out := make([]Pool, 0, len(byID))
	for id, a := range byID {
		p := poolKind(id, a.stacks, cache)
		if p.Kind == PoolMemPool || p.Kind == PoolSymmetric {
			p.Name = poolName(s, bts, a.addrs)
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Pool) int {
		return cmp.Or(cmp.Compare(a.ID[0], b.ID[0]), cmp.Compare(a.ID[1], b.ID[1]))
	})
	return out
}

// poolKind decides the kind of pool id from the stacks allocated in it.
func poolKind(id [2]int64, stacks []snapshot.StackID, cache *stackCache) Pool {
	p := Pool{ID: id}
	switch {
	case id == [2]int64{}:
		p.Kind, p.Decided = PoolDefault, PoolByDefaultID
		return p
	case id[1] == 0:
		p.Kind, p.Decided = PoolCUDAGraph, PoolByGraphID
		return p
	}
	// What follows reads the frames: byFrames(id) holds.
	var trees, symmetric, graphs bool
	for _, st := range stacks {
		s := cache.get(st)
		trees = trees || s.has(fileCUDAGraphTrees)
		symmetric = symmetric || s.has(fileSymmetricMemory) || s.has(cppSymmetricPool)
		graphs = graphs || s.has(fileCUDAGraphs)
	}
	switch {
	case trees:
		p.Kind, p.Decided = PoolCUDAGraphTrees, PoolByTreesFrames
	case symmetric:
		p.Kind, p.Decided = PoolSymmetric, PoolBySymmetricFrames
	case graphs:
		p.Kind, p.Decided = PoolCUDAGraph, PoolByGraphsFrames
	default:
		p.Kind, p.Decided = PoolMemPool, PoolByNoFrames
	}
	return p
}

// byFrames reports whether the kind of the pool with id is decided by its
// blocks' frames (poolKind), not by the id alone.
func byFrames(id [2]int64) bool { return id != [2]int64{} && id[1] != 0 }

// poolName returns the name the user_metadata of the live blocks at addrs
// give their pool: a JSON object's "pool" or "name" field, the first
// found; "" when none.
func poolName(s *snapshot.Snapshot, bts []snapshot.BlockTrace, addrs []uint64) string {
	for _, a := range addrs {
		bt, ok := snapshot.BlockTraceAt(bts, a)
		if !ok {
			continue
		}
		if n := jsonName(s.MetaText(bt.Meta)); n != "" {
			return n
		}
	}
	return ""
}

// jsonName returns the "pool" or "name" field of a JSON object text.
func jsonName(text string) string {
	if !strings.HasPrefix(strings.TrimSpace(text), "{") {
		return ""
	}
	var obj map[string]any
	if json.Unmarshal([]byte(text), &obj) != nil {
		return ""
	}
	for _, f := range []string{"pool", "name"} {
		if v, ok := obj[f].(string); ok && v != "" {
			return v
		}
	}
	return ""
}
