// Package alloc simulates PyTorch's CUDA caching allocator
// (c10/cuda/CUDACachingAllocator.cpp) closely enough that the snapshots
// made from it obey every rule and invariant a real snapshot does: request
// rounding, the small and large pools, segment sizes, best-fit reuse,
// splitting, merging of freed neighbours, max_split_size, empty_cache,
// expandable segments, out-of-memory handling and the trace ring buffer.
//
// The simulator is deterministic: it has no clock of its own (the caller
// sets the time before each call) and no randomness.
package alloc

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
)

// Allocator constants, as in CUDACachingAllocator.cpp. All are bytes.
const (
	// MinBlockSize is kMinBlockSize: requests round up to multiples of it.
	MinBlockSize = 512
	// SmallSize is kSmallSize: rounded requests up to this size use the
	// small pool.
	SmallSize = 1 << 20
	// SmallBuffer is kSmallBuffer: the size of a small-pool segment.
	SmallBuffer = 2 << 20
	// LargeBuffer is kLargeBuffer: the segment size for large requests
	// below MinLargeAlloc, and the slack allowed when an oversize block
	// serves a request.
	LargeBuffer = 20 << 20
	// MinLargeAlloc is kMinLargeAlloc: requests from here up get a
	// segment of their own size rounded up to RoundLarge.
	MinLargeAlloc = 10 << 20
	// RoundLarge is kRoundLarge.
	RoundLarge = 2 << 20
)

// Config sets up an Allocator.
type Config struct {
	// Device is the CUDA device index.
	Device int
	// Capacity is the device memory in bytes (what nvidia-smi calls
	// memory.total).
	Capacity int64
	// MaxSplitSize is max_split_size in bytes; 0 or negative means
	// unlimited (PyTorch's default).
	MaxSplitSize int64
	// RoundupPower2Divisions rounds requests to that many divisions per
	// power of two (roundup_power2_divisions); 0 or 1 disables it.
	RoundupPower2Divisions int
	// Expandable selects expandable_segments:True.
	Expandable bool
	// MaxEntries is the trace ring buffer size (max_entries of
	// _record_memory_history); 0 keeps no trace.
	MaxEntries int
	// History keeps per-block allocation histories (the PyTorch 2.0
	// snapshot layout needs them).
	History bool
	// BaseAddress is where the simulated device address space starts
	// (rounded up to 2 MiB). 0 picks 0x7f0000000000.
	BaseAddress uint64
	// OnTrace, when set, receives every trace event as it is recorded
	// (also while the ring is disabled), for streaming writers.
	OnTrace func(*TraceEntry)
}

// State is a block's allocation state.
type State uint8

// Block states, named as PyTorch names them in snapshots.
const (
	Inactive State = iota
	ActiveAllocated
	ActivePendingFree
)

// String returns PyTorch's name of the state.
func (s State) String() string {
	switch s {
	case ActiveAllocated:
		return "active_allocated"
	case ActivePendingFree:
		return "active_pending_free"
	}
	return "inactive"
}

// Action is the kind of a trace event.
type Action uint8

// Trace actions.
const (
	Alloc Action = iota
	FreeRequested
	FreeCompleted
	SegmentAlloc
	SegmentFree
	SegmentMap
	SegmentUnmap
	Snapshot
	OOM
	// Annotate is torch.cuda.memory._annotate_tensor (PyTorch 2.14+): a
	// note put on a live block after its allocation.
	Annotate
)

var actionNames = [...]string{"alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "segment_map", "segment_unmap", "snapshot", "oom", "annotate"}

// String returns PyTorch's name of the action.
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", a)
}

// Ctx is an allocation or free context: whatever the caller uses to
// describe the stack (the snapshot writer turns it into frames). nil means
// no stack.
type Ctx = any

// TraceEntry is one allocator event.
type TraceEntry struct {
	Action Action
	// Addr is the block or segment address; for OOM the bytes CUDA
	// reported free (device_free).
	Addr uint64
	// Size is in bytes: the unrounded request for Alloc and the frees,
	// the rounded request for OOM, the segment or mapping size for
	// segment events, total active bytes for Snapshot.
	Size int64
	// Stream is the CUDA stream.
	Stream int64
	// TimeUS is microseconds since the Unix epoch (UTC).
	TimeUS int64
	// Ctx is the stack of the event (nil for none).
	Ctx Ctx
}

// Hist is one entry of a block's allocation history (PyTorch 2.0 layout).
type Hist struct {
	// Addr is where the allocation started; RealSize its unrounded size.
	Addr     uint64
	RealSize int64
	Ctx      Ctx
}

// Block is a piece of a segment.
type Block struct {
	// Addr is the device address; Size the block size in bytes.
	Addr uint64
	Size int64
	// Requested is the unrounded size of the last request served by the
	// block (stale once the block is free).
	Requested int64
	State     State
	// Ctx is the allocation context while the block is in use.
	Ctx Ctx
	// Stream is the stream of the block's segment.
	Stream int64
	// History is the allocation history, when Config.History is set.
	History []Hist

	seg        *Segment
	prev, next *Block
	pendingTil int64 // ActivePendingFree: time the free completes
	freeCtx    Ctx
	mapped     bool // expandable: false for unmapped address ranges
}

// Segment is one cudaMalloc (or, for expandable segments, one reserved
// address range of which a prefix is mapped).
type Segment struct {
	// Addr is the start address; Size the bytes it spans (for expandable
	// segments, the mapped bytes).
	Addr uint64
	Size int64
	// Stream is the stream the segment belongs to.
	Stream int64
	// Small reports the small pool.
	Small bool
	// Expandable reports an expandable segment.
	Expandable bool
	// Ctx is the context of the allocation that created the segment.
	Ctx Ctx
	// Pool is segment_pool_id: (0, 0) for the default pool, else the
	// private pool (a CUDA graph's, MallocIn) the segment serves.
	Pool PoolID

	head *Block
}

// PoolID names a private memory pool as snapshots do (segment_pool_id);
// the zero value is the default pool.
type PoolID [2]int64

// OOMError describes an allocation that failed. The allocator state is
// left as PyTorch leaves it (cached blocks released, an oom trace entry).
type OOMError struct {
	// Requested is the unrounded request; Rounded the rounded size; and
	// SegmentSize the size of the segment that could not be created, all
	// in bytes.
	Requested, Rounded, SegmentSize int64
	// DeviceFree is what CUDA reported free; Capacity the device total.
	DeviceFree, Capacity int64
	// Reserved, Allocated and Inactive are the allocator's bytes at the
	// failure (after releasing cached segments); LargestFree the largest
	// inactive block in the request's pool and stream.
	Reserved, Allocated, Inactive, LargestFree int64
}

// Error reads like PyTorch's message.
func (e *OOMError) Error() string {
	return fmt.Sprintf("CUDA out of memory. Tried to allocate %s. GPU has a total capacity of %s of which %s is free. "+
		"Of the allocated memory %s is allocated by PyTorch, and %s is reserved by PyTorch but unallocated (largest free block %s).",
		mib(e.Rounded), gib(e.Capacity), mib(e.DeviceFree), gib(e.Allocated), mib(e.Inactive), mib(e.LargestFree))
}

func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
func gib(n int64) string { return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30)) }

// Allocator is one device's caching allocator.
type Allocator struct {
	cfg      Config
	now      int64
	overhead int64

	segs  []*Segment // sorted by address
	small pool
	large pool

	reserved, allocated, active int64

	recording bool
	ring      []TraceEntry
	ringStart int
	ringLen   int

	pending []*Block

	// expandable: one segment per (pool, stream).
	expSegs map[expKey]*Segment

	// private holds the free blocks of each private pool (MallocIn):
	// small and large, as for the default pool.
	private map[PoolID]*[2]pool

	// retries counts the allocations that needed the whole cache freed
	// first (memory_stats' num_alloc_retries).
	retries int64
}

type expKey struct {
	small  bool
	stream int64
}

// New returns an empty allocator. Recording of the trace is on when
// MaxEntries > 0 (turn it off with SetRecording).
func New(cfg Config) *Allocator {
	if cfg.BaseAddress == 0 {
		cfg.BaseAddress = 0x7f0000000000
	}
	cfg.BaseAddress = alignUp(cfg.BaseAddress, RoundLarge)
	a := &Allocator{cfg: cfg, small: pool{small: true}, recording: true}
	if cfg.MaxEntries > 0 {
		a.ring = make([]TraceEntry, cfg.MaxEntries)
	}
	return a
}

// SetTime sets the clock (microseconds since the Unix epoch) for the
// events that follow. Time never goes backwards: an earlier time is
// ignored.
func (a *Allocator) SetTime(us int64) {
	if us > a.now {
		a.now = us
	}
}

// SetRecording turns stack and trace recording on or off
// (_record_memory_history(enabled=...)). Blocks allocated while it is off
// carry no context.
func (a *Allocator) SetRecording(on bool) { a.recording = on }

// SetOverhead sets the device memory in use outside this allocator (CUDA
// context, NCCL and cuBLAS workspaces, other processes), in bytes. It
// lowers what cudaMalloc can get.
func (a *Allocator) SetOverhead(n int64) { a.overhead = n }

// Config returns the allocator's configuration.
func (a *Allocator) Config() Config { return a.cfg }

// Reserved returns the bytes in segments (mapped bytes for expandable
// segments).
func (a *Allocator) Reserved() int64 { return a.reserved }

// AllocRetries returns how many allocations had to free the whole cache
// and retry cudaMalloc (torch.cuda.memory_stats()'s num_alloc_retries).
func (a *Allocator) AllocRetries() int64 { return a.retries }

// Allocated returns the bytes in active_allocated blocks.
func (a *Allocator) Allocated() int64 { return a.allocated }

// Active returns the bytes in active blocks (allocated or pending free).
func (a *Allocator) Active() int64 { return a.active }

// DeviceFree returns what cudaMemGetInfo would report free, in bytes.
func (a *Allocator) DeviceFree() int64 {
	f := a.cfg.Capacity - a.overhead - a.reserved
	if f < 0 {
		return 0
	}
	return f
}

func (a *Allocator) maxSplit() int64 {
	if a.cfg.MaxSplitSize <= 0 {
		return math.MaxInt64
	}
	return a.cfg.MaxSplitSize
}

// RoundSize is round_size: the block size serving a request of n bytes.
func (a *Allocator) RoundSize(n int64) int64 {
	return RoundSize(n, a.cfg.RoundupPower2Divisions)
}

// RoundSize rounds a request of n bytes as the allocator does with the
// given roundup_power2_divisions (0 or 1 for none).
func RoundSize(n int64, divisions int) int64 {
	if n < MinBlockSize {
		return MinBlockSize
	}
	if divisions > 1 && n > MinBlockSize*int64(divisions) {
		return roundupPower2Division(n, divisions)
	}
	return MinBlockSize * ((n + MinBlockSize - 1) / MinBlockSize)
}

func roundupPower2Division(n int64, divisions int) int64 {
	u := uint64(n)
	if u&(u-1) == 0 {
		return n
	}
	floor := uint64(1) << (bits.Len64(u) - 1)
	div := floor >> (bits.Len64(uint64(divisions)) - 1)
	if div == 0 {
		return int64(floor << 1)
	}
	f := u &^ (div - 1)
	if f == u {
		return n
	}
	return int64(f + div)
}

// IsSmall reports whether a rounded size is served by the small pool.
func IsSmall(rounded int64) bool { return rounded <= SmallSize }

// SegmentSize is get_allocation_size: the size of the segment created for
// a rounded request.
func SegmentSize(rounded int64) int64 {
	switch {
	case rounded <= SmallSize:
		return SmallBuffer
	case rounded < MinLargeAlloc:
		return LargeBuffer
	}
	return RoundLarge * ((rounded + RoundLarge - 1) / RoundLarge)
}

// alignUp rounds x up to a multiple of a.
func alignUp(x, a uint64) uint64 { return (x + a - 1) / a * a }

// pool is the free blocks of one pool, sorted by (stream, size, address)
// like PyTorch's BlockComparatorSize.
type pool struct {
	small bool
	free  []*Block
}

// lowerBound returns the index of the first free block not ordered before
// (stream, size, addr).
func (p *pool) lowerBound(stream, size int64, addr uint64) int {
	return sort.Search(len(p.free), func(i int) bool {
		b := p.free[i]
		if b.Stream != stream {
			return b.Stream > stream
		}
		if b.Size != size {
			return b.Size > size
		}
		return b.Addr >= addr
	})
}

func (p *pool) insert(b *Block) {
	i := p.lowerBound(b.Stream, b.Size, b.Addr)
	p.free = append(p.free, nil)
	copy(p.free[i+1:], p.free[i:])
	p.free[i] = b
}

func (p *pool) remove(b *Block) {
	i := p.lowerBound(b.Stream, b.Size, b.Addr)
	if i >= len(p.free) || p.free[i] != b {
		panic(fmt.Sprintf("alloc: free block %#x/%d missing from its pool", b.Addr, b.Size))
	}
	p.free = append(p.free[:i], p.free[i+1:]...)
}

func (a *Allocator) poolOf(small bool) *pool {
	if small {
		return &a.small
	}
	return &a.large
}

// poolIn returns the free list of private pool id for the size class.
func (a *Allocator) poolIn(id PoolID, small bool) *pool {
	if id == (PoolID{}) {
		return a.poolOf(small)
	}
	if a.private == nil {
		a.private = map[PoolID]*[2]pool{}
	}
	pp := a.private[id]
	if pp == nil {
		pp = &[2]pool{{small: true}, {}}
		a.private[id] = pp
	}
	if small {
		return &pp[0]
	}
	return &pp[1]
}

// MallocIn allocates n bytes on stream in private pool id, as allocations
// during a CUDA graph capture do: the pool's segments serve only its own
// requests, and empty_cache() does not return them (the graph keeps its
// pool). The zero id is Malloc. Private pools never use expandable
// segments.
func (a *Allocator) MallocIn(n int64, stream int64, id PoolID, ctx Ctx) (*Block, error) {
	if id == (PoolID{}) {
		return a.Malloc(n, stream, ctx)
	}
	size, small, ctx, err := a.begin(n, ctx)
	if err != nil {
		return nil, err
	}
	p := a.poolIn(id, small)
	segSize := SegmentSize(size)
	b := a.getFreeBlock(p, stream, size)
	if b == nil {
		if b = a.allocBlock(small, stream, segSize, ctx); b == nil {
			return nil, a.oom(n, size, segSize, p, stream, ctx)
		}
		b.seg.Pool = id
	}
	return a.allocFound(b, p, n, size, ctx), nil
}

// record adds a trace event (when recording).
func (a *Allocator) record(act Action, addr uint64, size, stream int64, ctx Ctx) {
	if !a.recording {
		return
	}
	e := TraceEntry{Action: act, Addr: addr, Size: size, Stream: stream, TimeUS: a.now, Ctx: ctx}
	if a.cfg.OnTrace != nil {
		a.cfg.OnTrace(&e)
	}
	if len(a.ring) == 0 {
		return
	}
	if a.ringLen < len(a.ring) {
		a.ring[(a.ringStart+a.ringLen)%len(a.ring)] = e
		a.ringLen++
		return
	}
	a.ring[a.ringStart] = e
	a.ringStart = (a.ringStart + 1) % len(a.ring)
}

func (a *Allocator) ctxIfRecording(ctx Ctx) Ctx {
	if !a.recording {
		return nil
	}
	return ctx
}

// begin starts a request for n bytes, as every malloc does: it processes
// the events that completed, drops ctx unless history is recorded, and
// returns the rounded size (bytes) and whether it is served from the small
// pool.
func (a *Allocator) begin(n int64, ctx Ctx) (size int64, small bool, _ Ctx, _ error) {
	if n < 0 {
		return 0, false, nil, fmt.Errorf("alloc: negative size %d", n)
	}
	a.processEvents()
	size = a.RoundSize(n)
	return size, IsSmall(size), a.ctxIfRecording(ctx), nil
}

// Malloc allocates n bytes on stream for the context ctx. It returns an
// *OOMError when the device has no room, after releasing cached segments
// and recording an oom event, as PyTorch does.
func (a *Allocator) Malloc(n int64, stream int64, ctx Ctx) (*Block, error) {
	size, small, ctx, err := a.begin(n, ctx)
	if err != nil {
		return nil, err
	}
	p := a.poolOf(small)
	if a.cfg.Expandable {
		return a.mallocExpandable(n, size, small, stream, ctx)
	}
	segSize := SegmentSize(size)
	b := a.getFreeBlock(p, stream, size)
	if b == nil {
		b = a.allocBlock(small, stream, segSize, ctx)
		if b == nil && a.releaseAvailableCachedBlocks(p, stream, size, ctx) {
			b = a.allocBlock(small, stream, segSize, ctx)
		}
		if b == nil {
			// PyTorch's alloc_block counts num_alloc_retries on this,
			// the retry after release_cached_blocks.
			a.releaseCachedBlocks(ctx)
			a.retries++
			b = a.allocBlock(small, stream, segSize, ctx)
		}
		if b == nil {
			return nil, a.oom(n, size, segSize, p, stream, ctx)
		}
	}
	return a.allocFound(b, p, n, size, ctx), nil
}

func (a *Allocator) oom(n, size, segSize int64, p *pool, stream int64, ctx Ctx) error {
	a.record(OOM, uint64(a.DeviceFree()), size, stream, ctx)
	e := &OOMError{
		Requested: n, Rounded: size, SegmentSize: segSize,
		DeviceFree: a.DeviceFree(), Capacity: a.cfg.Capacity,
		Reserved: a.reserved, Allocated: a.allocated, Inactive: a.reserved - a.active,
	}
	for _, b := range p.free {
		if b.Stream == stream && b.Size > e.LargestFree {
			e.LargestFree = b.Size
		}
	}
	return e
}

// getFreeBlock is get_free_block: best fit in the pool and stream.
func (a *Allocator) getFreeBlock(p *pool, stream, size int64) *Block {
	i := p.lowerBound(stream, size, 0)
	if i >= len(p.free) || p.free[i].Stream != stream {
		return nil
	}
	b := p.free[i]
	ms := a.maxSplit()
	// Do not return an oversized block for a small request; allow an
	// oversized block to be rounded up only within LargeBuffer.
	if size < ms && b.Size >= ms {
		return nil
	}
	if size >= ms && b.Size >= size+LargeBuffer {
		return nil
	}
	p.free = append(p.free[:i], p.free[i+1:]...)
	return b
}

// allocBlock is alloc_block: a new segment from cudaMalloc, or nil when
// the device has no room.
func (a *Allocator) allocBlock(small bool, stream, segSize int64, ctx Ctx) *Block {
	if segSize > a.DeviceFree() {
		return nil
	}
	seg := &Segment{Addr: a.findAddress(segSize), Size: segSize, Stream: stream, Small: small, Ctx: ctx}
	b := &Block{Addr: seg.Addr, Size: segSize, Stream: stream, seg: seg, mapped: true}
	seg.head = b
	a.insertSegment(seg)
	a.reserved += segSize
	a.record(SegmentAlloc, seg.Addr, segSize, stream, ctx)
	return b
}

// findAddress returns the lowest 2 MiB-aligned free address range of n
// bytes (first fit), so addresses get reused after segments are freed.
func (a *Allocator) findAddress(n int64) uint64 {
	addr := a.cfg.BaseAddress
	for _, s := range a.segs {
		if s.Addr >= addr+uint64(n) {
			break
		}
		end := alignUp(s.Addr+uint64(a.span(s)), RoundLarge)
		if end > addr {
			addr = end
		}
	}
	return addr
}

// span is the address range a segment occupies (expandable segments
// reserve more than they map).
func (a *Allocator) span(s *Segment) int64 {
	if s.Expandable {
		return expandableReserve
	}
	return s.Size
}

func (a *Allocator) insertSegment(s *Segment) {
	i := sort.Search(len(a.segs), func(i int) bool { return a.segs[i].Addr >= s.Addr })
	a.segs = append(a.segs, nil)
	copy(a.segs[i+1:], a.segs[i:])
	a.segs[i] = s
}

func (a *Allocator) removeSegment(s *Segment) {
	i := sort.Search(len(a.segs), func(i int) bool { return a.segs[i].Addr >= s.Addr })
	if i >= len(a.segs) || a.segs[i] != s {
		panic("alloc: segment missing")
	}
	a.segs = append(a.segs[:i], a.segs[i+1:]...)
}

func (a *Allocator) shouldSplit(b *Block, size int64, small bool) bool {
	rem := b.Size - size
	if small || a.cfg.Expandable {
		return rem >= MinBlockSize
	}
	return size < a.maxSplit() && rem > SmallSize
}

// allocFound is alloc_found_block: split off the front of b when the
// remainder is worth keeping, and mark it allocated.
func (a *Allocator) allocFound(b *Block, p *pool, n, size int64, ctx Ctx) *Block {
	if a.shouldSplit(b, size, p.small) {
		nb := &Block{Addr: b.Addr, Size: size, Stream: b.Stream, seg: b.seg, prev: b.prev, next: b, mapped: true}
		if b.prev != nil {
			b.prev.next = nb
		} else {
			b.seg.head = nb
		}
		b.prev = nb
		b.Addr += uint64(size)
		b.Size -= size
		if a.cfg.History {
			b.History = histWithin(b.History, b.Addr, b.Addr+uint64(b.Size))
		}
		p.insert(b)
		b = nb
	}
	b.State = ActiveAllocated
	b.Requested = n
	b.Ctx = ctx
	if a.cfg.History {
		b.History = []Hist{{Addr: b.Addr, RealSize: n, Ctx: ctx}}
	}
	a.allocated += b.Size
	a.active += b.Size
	a.record(Alloc, b.Addr, n, b.Stream, ctx)
	return b
}

func histWithin(h []Hist, lo, hi uint64) []Hist {
	out := h[:0:0]
	for _, e := range h {
		if e.Addr >= lo && e.Addr < hi {
			out = append(out, e)
		}
	}
	return out
}

// Free releases b (free_requested and free_completed) with the context of
// the free.
func (a *Allocator) Free(b *Block, ctx Ctx) {
	a.FreeAfter(b, ctx, 0)
}

// FreeAfter releases b, but the memory becomes reusable only once the
// clock reaches readyAt (the block was used on another stream:
// record_stream). Until then the block is active_pending_free. A readyAt
// not after the current time frees at once.
func (a *Allocator) FreeAfter(b *Block, ctx Ctx, readyAt int64) {
	if b.State != ActiveAllocated {
		panic(fmt.Sprintf("alloc: free of a %s block at %#x", b.State, b.Addr))
	}
	ctx = a.ctxIfRecording(ctx)
	if ctx == nil {
		ctx = b.Ctx
	}
	a.record(FreeRequested, b.Addr, b.Requested, b.Stream, ctx)
	a.allocated -= b.Size
	if readyAt > a.now {
		b.State = ActivePendingFree
		b.pendingTil = readyAt
		b.freeCtx = ctx
		a.pending = append(a.pending, b)
		return
	}
	a.freeBlock(b, ctx)
}

// ProcessEvents completes pending frees whose time has come (PyTorch does
// this at the start of every malloc and in empty_cache).
func (a *Allocator) ProcessEvents() { a.processEvents() }

func (a *Allocator) processEvents() {
	if len(a.pending) == 0 {
		return
	}
	keep := a.pending[:0]
	var done []*Block
	for _, b := range a.pending {
		if b.pendingTil <= a.now {
			done = append(done, b)
		} else {
			keep = append(keep, b)
		}
	}
	a.pending = keep
	for _, b := range done {
		a.freeBlock(b, b.freeCtx)
	}
}

// freeBlock is free_block: merge with free neighbours and return to the
// pool.
func (a *Allocator) freeBlock(b *Block, ctx Ctx) {
	a.record(FreeCompleted, b.Addr, b.Requested, b.Stream, ctx)
	a.active -= b.Size
	b.State = Inactive
	b.Ctx = nil
	b.freeCtx = nil
	p := a.poolIn(b.seg.Pool, b.seg.Small)
	if b.prev != nil && b.prev.State == Inactive && b.prev.mapped {
		pr := b.prev
		p.remove(pr)
		b.Addr = pr.Addr
		b.Size += pr.Size
		b.prev = pr.prev
		if b.prev != nil {
			b.prev.next = b
		} else {
			b.seg.head = b
		}
		if a.cfg.History {
			b.History = mergeHist(pr.History, b.History)
		}
	}
	if b.next != nil && b.next.State == Inactive && b.next.mapped {
		nx := b.next
		p.remove(nx)
		b.Size += nx.Size
		b.next = nx.next
		if b.next != nil {
			b.next.prev = b
		}
		if a.cfg.History {
			b.History = mergeHist(b.History, nx.History)
		}
	}
	p.insert(b)
}

// maxHist bounds a block's merged history.
const maxHist = 96

func mergeHist(lo, hi []Hist) []Hist {
	out := make([]Hist, 0, len(lo)+len(hi))
	out = append(out, lo...)
	out = append(out, hi...)
	if len(out) > maxHist {
		out = out[len(out)-maxHist:]
	}
	return out
}

// EmptyCache is torch.cuda.empty_cache(): complete pending frees and
// return every whole free segment to CUDA.
func (a *Allocator) EmptyCache(ctx Ctx) {
	for _, b := range a.pending {
		b.pendingTil = a.now
	}
	a.processEvents()
	a.releaseCachedBlocks(a.ctxIfRecording(ctx))
}

// releaseCachedBlocks is release_cached_blocks: free all non-split free
// segments of both pools.
func (a *Allocator) releaseCachedBlocks(ctx Ctx) bool {
	if a.cfg.Expandable {
		a.unmapFree(ctx)
		return true
	}
	for _, p := range []*pool{&a.large, &a.small} {
		var whole []*Block
		for _, b := range p.free {
			if b.prev == nil && b.next == nil {
				whole = append(whole, b)
			}
		}
		for _, b := range whole {
			a.releaseBlock(p, b, ctx)
		}
	}
	return true
}

// releaseAvailableCachedBlocks frees oversize cached segments (only when
// max_split_size is set), as release_available_cached_blocks does.
func (a *Allocator) releaseAvailableCachedBlocks(p *pool, stream, size int64, ctx Ctx) bool {
	ms := a.maxSplit()
	if ms == math.MaxInt64 || a.cfg.Expandable {
		return false
	}
	key := size
	if key < ms {
		key = ms
	}
	i := p.lowerBound(stream, key, 0)
	if i < len(p.free) && p.free[i].Stream == stream {
		a.releaseBlock(p, p.free[i], ctx)
		return true
	}
	if i == 0 {
		return false
	}
	var released int64
	i--
	for released < key && i >= 0 {
		b := p.free[i]
		if b.Size < ms || b.Stream != stream {
			break
		}
		i--
		released += b.Size
		a.releaseBlock(p, b, ctx)
	}
	return released >= key
}

// releaseBlock returns the whole-segment free block b to CUDA.
func (a *Allocator) releaseBlock(p *pool, b *Block, ctx Ctx) {
	if b.prev != nil || b.next != nil {
		panic("alloc: release of a split block")
	}
	p.remove(b)
	s := b.seg
	if ctx == nil {
		ctx = s.Ctx
	}
	a.record(SegmentFree, s.Addr, s.Size, s.Stream, ctx)
	a.removeSegment(s)
	a.reserved -= s.Size
}

// Next returns the block after b in its segment (nil for the last).
func (b *Block) Next() *Block {
	for n := b.next; n != nil; n = n.next {
		if n.mapped {
			return n
		}
	}
	return nil
}

// Prev returns the block before b in its segment (nil for the first).
func (b *Block) Prev() *Block { return b.prev }

// Segments returns the live segments sorted by address (expandable
// segments only while they have mapped memory). The segments belong to the
// allocator and change with it.
func (a *Allocator) Segments() []*Segment {
	out := make([]*Segment, 0, len(a.segs))
	for _, s := range a.segs {
		if s.Size > 0 {
			out = append(out, s)
		}
	}
	return out
}

// Blocks returns the blocks of s in address order (mapped ones only for
// expandable segments).
func (s *Segment) Blocks() []*Block {
	var out []*Block
	for b := s.head; b != nil; b = b.next {
		if b.mapped {
			out = append(out, b)
		}
	}
	return out
}

// Trace returns the trace ring buffer, oldest event first (a copy).
func (a *Allocator) Trace() []TraceEntry {
	out := make([]TraceEntry, a.ringLen)
	for i := range out {
		out[i] = a.ring[(a.ringStart+i)%len(a.ring)]
	}
	return out
}

// RecordSnapshot adds the snapshot event PyTorch records when a snapshot
// is taken (after the trace was copied into it): address 0, size the
// total active bytes.
func (a *Allocator) RecordSnapshot() {
	a.record(Snapshot, 0, a.active, 0, nil)
}

// Annotate records torch.cuda.memory._annotate_tensor on live block b:
// an annotate event at the block's address with the block's size and the
// context of the annotating call (which carries the annotation text for
// the snapshot writer). It changes no allocator state.
func (a *Allocator) Annotate(b *Block, ctx Ctx) {
	a.record(Annotate, b.Addr, b.Size, b.Stream, a.ctxIfRecording(ctx))
}
