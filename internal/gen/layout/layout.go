// Package layout turns simulated allocator state into the Python objects
// PyTorch pickles for a memory snapshot, in each on-disk generation:
// the 2.2+ timed layout (with the optional keys of later releases), the
// 2.1 frames layout without time_us, the 2.0 history layout, and the bare
// segments list of torch.cuda.memory_snapshot(). Key order, value types
// and object sharing follow the real files in ../shared/testdata-real.
//
// Sharing rules (as PyTorch's _snapshot() creates the objects): key
// strings and the action, state and segment-type strings are created once
// per snapshot; each distinct frame is one dict; each captured traceback
// (Context) is one frames list, shared by the block, its alloc and
// segment_alloc events; a free's two events share the free's list; blocks
// without a traceback share one empty list; compile_context strings are
// new for every event.
package layout

import (
	"cmp"
	"fmt"
	"slices"

	"gpureport/internal/gen/alloc"
	"gpureport/internal/gen/pickle"
)

// Frame is one stack frame. Two *Frame values with equal fields are still
// two frames (two dicts in the file), as two C++ return addresses that
// symbolize to the same name are in PyTorch.
type Frame struct {
	// Name is the function name; File the absolute path of a Python
	// source, or "??", "" or a basename for C++ frames; Line the 1-based
	// line (0 for C++).
	Name string
	File string
	Line int
	// FX, when set, is the FX graph node this line of FX-generated code
	// runs, written as the fx_node_* keys that
	// _snapshot(augment_with_fx_traces=True) adds.
	FX *FXNode
}

// FXNode is an FX graph node of a frame (see Frame.FX).
type FXNode struct {
	Op, Name, Target string
	// Trace is the original model code's stack trace, as text.
	Trace string
}

// Context is one captured traceback (an allocation's or a free's stack),
// innermost frame first. Its ID identifies it across two simulations of
// the same run: equal IDs get one frames list in a file.
type Context struct {
	ID     uint64
	Frames []*Frame
	// Meta is the user_metadata of the events with this context (the
	// text _set_memory_metadata had set when the block was allocated, or
	// an annotate event's annotation); written only with
	// Options.UserMetadata.
	Meta string
}

// Format is a snapshot generation's on-disk layout.
type Format string

// Formats, newest first.
const (
	// Timed is PyTorch 2.2 and later: trace entries carry time_us.
	Timed Format = "timed"
	// Frames is PyTorch 2.1: blocks carry address and frames, trace
	// entries no time_us.
	Frames Format = "frames"
	// History is PyTorch 2.0: blocks carry a history list instead of
	// address and frames.
	History Format = "history"
	// SegmentsList is the bare list returned by
	// torch.cuda.memory_snapshot() (segments in the timed layout).
	SegmentsList Format = "segments-list"
)

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Timed, Frames, History, SegmentsList:
		return f, nil
	}
	return "", fmt.Errorf("unknown snapshot format %q (want timed, frames, history or segments-list)", s)
}

// Options choose the keys a snapshot carries.
type Options struct {
	Format Format
	// AllocatorSettings adds the top-level allocator_settings (2.3+).
	AllocatorSettings bool
	// GraphCaptureKey adds graph_capture_record_stream_reuse to the
	// settings (2.9+).
	GraphCaptureKey bool
	// ExternalAnnotations adds the top-level external_annotations (2.5+).
	ExternalAnnotations bool
	// CompileContext adds compile_context ('N/A') to trace entries (2.7+).
	CompileContext bool
	// UserMetadata adds user_metadata to trace entries (2.9+): the
	// event context's Meta, '' when it has none.
	UserMetadata bool
	// PoolIDs adds pool_id, the pair of the event's pool (Device.Pool),
	// to trace entries (2.16+).
	PoolIDs bool
	// Cpp writes the form of PyTorch's C++ pickler
	// (_memory_snapshot_pickled): timed layout with allocator_settings
	// and nothing newer.
	Cpp bool
	// Devices is the number of device_traces lists (visible devices); at
	// least one more than the highest device index.
	Devices int
}

// Settings are the allocator settings written to allocator_settings.
type Settings struct {
	// Conf is PYTORCH_CUDA_ALLOC_CONF.
	Conf string
	// MaxSplitSize in bytes, -1 when unset.
	MaxSplitSize int64
	// GCThreshold is garbage_collection_threshold.
	GCThreshold float64
	// Expandable is expandable_segments.
	Expandable bool
	// RoundupPower2Divisions is the single divisions value in force for
	// every size class (0 when unset).
	RoundupPower2Divisions int
}

// Annotation is one record_function boundary (external_annotations).
type Annotation struct {
	Stage  string // "START" or "END"
	Name   string
	Device int
	TimeUS int64
}

// Device is one device's allocator and its trace as captured.
type Device struct {
	Alloc *alloc.Allocator
	// Trace is the trace ring as captured (Alloc.Trace()).
	Trace []alloc.TraceEntry
	// Pool is the segment_pool_id of the allocator's segments: (0, 0)
	// for the default pool, else a CUDA graph or MemPool private pool.
	// Several Devices of one device index, one per pool, make that
	// device's segments; their traces are merged by time.
	Pool [2]int64
}

// Host is the pinned host memory allocator's state, written as
// host_segments and host_traces (PyTorch 2.14+,
// record_pinned_host_memory=True). The host allocator does not split:
// each segment is one block.
type Host struct {
	Segments []HostSegment
	// Trace is its trace ring, oldest first.
	Trace []alloc.TraceEntry
}

// HostSegment is one pinned host allocation (cudaHostAlloc).
type HostSegment struct {
	Addr uint64
	// Size is the segment (and block) size, a power of two; Requested the
	// size asked for.
	Size, Requested int64
	// Live reports an allocated block, else a cached free one.
	Live bool
	// Ctx is the allocation context.
	Ctx alloc.Ctx
}

// Builder makes the object tree of one snapshot file. It holds the
// per-file shared objects; use a new Builder for every file.
type Builder struct {
	// Host, when set, is written as host_segments and host_traces.
	Host *Host

	opt        Options
	keys       map[string]*pickle.Str
	frameDicts map[*Frame]*pickle.Dict
	frameLists map[uint64]*pickle.List
	empty      *pickle.List
}

// NewBuilder returns a builder for one file.
func NewBuilder(opt Options) *Builder {
	return &Builder{
		opt:        opt,
		keys:       make(map[string]*pickle.Str),
		frameDicts: make(map[*Frame]*pickle.Dict),
		frameLists: make(map[uint64]*pickle.List),
	}
}

// k returns the file's shared str object for s.
func (b *Builder) k(s string) *pickle.Str {
	if p, ok := b.keys[s]; ok {
		return p
	}
	p := pickle.NewStr(s)
	b.keys[s] = p
	return p
}

func (b *Builder) frameDict(f *Frame) *pickle.Dict {
	if d, ok := b.frameDicts[f]; ok {
		return d
	}
	d := pickle.NewDict(3)
	if b.opt.Format == History {
		d.Set(b.k("filename"), f.File)
		d.Set(b.k("name"), f.Name)
	} else {
		d.Set(b.k("name"), f.Name)
		d.Set(b.k("filename"), f.File)
	}
	d.Set(b.k("line"), int64(f.Line))
	if x := f.FX; x != nil {
		d.Set(b.k("fx_node_op"), x.Op)
		d.Set(b.k("fx_node_name"), x.Name)
		d.Set(b.k("fx_node_target"), x.Target)
		if x.Trace != "" {
			d.Set(b.k("fx_original_trace"), x.Trace)
		}
	}
	b.frameDicts[f] = d
	return d
}

// Frames returns the frames list of ctx (the shared empty list for nil).
func (b *Builder) Frames(ctx alloc.Ctx) *pickle.List {
	c, _ := ctx.(*Context)
	if c == nil || len(c.Frames) == 0 {
		if b.empty == nil {
			b.empty = pickle.NewList()
		}
		return b.empty
	}
	if l, ok := b.frameLists[c.ID]; ok {
		return l
	}
	items := make([]any, len(c.Frames))
	for i, f := range c.Frames {
		items[i] = b.frameDict(f)
	}
	l := pickle.NewList(items...)
	b.frameLists[c.ID] = l
	return l
}

func hasFrames(ctx alloc.Ctx) bool {
	c, _ := ctx.(*Context)
	return c != nil && len(c.Frames) > 0
}

// Build returns the snapshot of the devices (in device order) with the
// given settings and annotations.
func (b *Builder) Build(devs []Device, set Settings, anns []Annotation) any {
	segs := b.Segments(devs)
	if b.opt.Format == SegmentsList {
		return segs
	}
	top := pickle.NewDict(4)
	top.Set(b.k("segments"), segs)
	top.Set(b.k("device_traces"), b.Traces(devs))
	if b.opt.AllocatorSettings || b.opt.Cpp {
		top.Set(b.k("allocator_settings"), b.Settings(set))
	}
	if b.opt.ExternalAnnotations && !b.opt.Cpp {
		top.Set(b.k("external_annotations"), b.Annotations(anns))
	}
	if b.Host != nil {
		top.Set(b.k("host_segments"), b.hostSegments())
		l := pickle.NewList()
		for i := range b.Host.Trace {
			l.Append(b.Entry(&b.Host.Trace[i]))
		}
		top.Set(b.k("host_traces"), l)
	}
	return top
}

// hostSegments returns host_segments: one segment dict per host
// allocation, device -1, one block each.
func (b *Builder) hostSegments() *pickle.List {
	out := pickle.NewList()
	for _, hs := range b.Host.Segments {
		x := &alloc.Block{Addr: hs.Addr, Size: hs.Size, Requested: hs.Requested, Ctx: hs.Ctx}
		if hs.Live {
			x.State = alloc.ActiveAllocated
		}
		out.Append(b.segmentDict(-1, hs.Addr, hs.Size, 0, false, false, [2]int64{}, hs.Ctx, []*alloc.Block{x}))
	}
	return out
}

// Segments returns the segments list of all devices.
func (b *Builder) Segments(devs []Device) *pickle.List {
	out := pickle.NewList()
	for _, d := range devs {
		dev := d.Alloc.Config().Device
		for _, s := range d.Alloc.Segments() {
			out.Append(b.segment(dev, d.Pool, s))
		}
	}
	return out
}

func (b *Builder) segment(dev int, pool [2]int64, s *alloc.Segment) *pickle.Dict {
	if pool == ([2]int64{}) {
		// A private pool inside the device's own allocator (MallocIn).
		pool = [2]int64(s.Pool)
	}
	return b.segmentDict(dev, s.Addr, s.Size, s.Stream, s.Small, s.Expandable, pool, s.Ctx, s.Blocks())
}

// segmentDict makes one segment dict of the given fields and blocks.
func (b *Builder) segmentDict(dev int, addr uint64, size, stream int64, small, expandable bool, pool [2]int64, segCtx alloc.Ctx, blocks []*alloc.Block) *pickle.Dict {
	var allocated, active, requested int64
	for _, bl := range blocks {
		switch bl.State {
		case alloc.ActiveAllocated:
			allocated += bl.Size
			active += bl.Size
			requested += bl.Requested
		case alloc.ActivePendingFree:
			active += bl.Size
			requested += bl.Requested
		}
	}
	d := pickle.NewDict(13)
	d.Set(b.k("device"), int64(dev))
	d.Set(b.k("address"), addr)
	d.Set(b.k("total_size"), size)
	d.Set(b.k("allocated_size"), allocated)
	d.Set(b.k("active_size"), active)
	d.Set(b.k("requested_size"), requested)
	d.Set(b.k("stream"), stream)
	if small {
		d.Set(b.k("segment_type"), b.k("small"))
	} else {
		d.Set(b.k("segment_type"), b.k("large"))
	}
	if b.opt.Format == History {
		d.Set(b.k("blocks"), b.historyBlocks(blocks))
		return d
	}
	d.Set(b.k("segment_pool_id"), pickle.Tuple{pool[0], pool[1]})
	d.Set(b.k("is_expandable"), expandable)
	ctx := segCtx
	if expandable {
		ctx = nil
	}
	// PyTorch adds frames at once when there is no traceback and after
	// the blocks when there is one (it symbolizes all tracebacks last).
	if !hasFrames(ctx) {
		d.Set(b.k("frames"), b.Frames(nil))
	}
	bl := pickle.NewList()
	for _, x := range blocks {
		bd := pickle.NewDict(5)
		bd.Set(b.k("address"), x.Addr)
		bd.Set(b.k("size"), x.Size)
		bd.Set(b.k("requested_size"), x.Requested)
		bd.Set(b.k("state"), b.k(x.State.String()))
		bd.Set(b.k("frames"), b.Frames(x.Ctx))
		bl.Append(bd)
	}
	d.Set(b.k("blocks"), bl)
	if hasFrames(ctx) {
		d.Set(b.k("frames"), b.Frames(ctx))
	}
	return d
}

func (b *Builder) historyBlocks(blocks []*alloc.Block) *pickle.List {
	out := pickle.NewList()
	for _, x := range blocks {
		bd := pickle.NewDict(4)
		bd.Set(b.k("size"), x.Size)
		bd.Set(b.k("requested_size"), x.Requested)
		bd.Set(b.k("state"), b.k(x.State.String()))
		h := pickle.NewList()
		for _, e := range x.History {
			hd := pickle.NewDict(3)
			hd.Set(b.k("addr"), e.Addr)
			hd.Set(b.k("real_size"), e.RealSize)
			hd.Set(b.k("frames"), b.Frames(e.Ctx))
			h.Append(hd)
		}
		bd.Set(b.k("history"), h)
		out.Append(bd)
	}
	return out
}

// Traces returns device_traces: one list per visible device.
func (b *Builder) Traces(devs []Device) *pickle.List {
	n := b.opt.Devices
	type pooled struct {
		e    *alloc.TraceEntry
		pool [2]int64
	}
	byDev := map[int][]pooled{}
	for _, d := range devs {
		dev := d.Alloc.Config().Device
		for i := range d.Trace {
			byDev[dev] = append(byDev[dev], pooled{&d.Trace[i], d.Pool})
		}
		if dev+1 > n {
			n = dev + 1
		}
	}
	if n == 0 {
		n = 1
	}
	out := pickle.NewList()
	for dev := 0; dev < n; dev++ {
		// The pools of one device record into one ring: merged by time,
		// each pool's events in their order.
		evs := byDev[dev]
		slices.SortStableFunc(evs, func(a, b pooled) int { return cmp.Compare(a.e.TimeUS, b.e.TimeUS) })
		l := pickle.NewList()
		for _, p := range evs {
			var buf [9]pickle.Item
			d := pickle.NewDict(9)
			d.Items = append(d.Items, b.entryItems(p.e, p.pool, buf[:0])...)
			l.Append(d)
		}
		out.Append(l)
	}
	return out
}

// EntryItems returns the key/value pairs of one trace entry, in PyTorch's
// order.
func (b *Builder) EntryItems(e *alloc.TraceEntry, into []pickle.Item) []pickle.Item {
	return b.entryItems(e, [2]int64{}, into)
}

// entryItems is EntryItems for an event of the given pool.
func (b *Builder) entryItems(e *alloc.TraceEntry, pool [2]int64, into []pickle.Item) []pickle.Item {
	it := into[:0]
	it = append(it, pickle.Item{Key: b.k("action"), Value: b.k(e.Action.String())})
	if e.Action == alloc.OOM {
		it = append(it, pickle.Item{Key: b.k("device_free"), Value: e.Addr})
	} else {
		it = append(it, pickle.Item{Key: b.k("addr"), Value: e.Addr})
	}
	it = append(it, pickle.Item{Key: b.k("size"), Value: e.Size}, pickle.Item{Key: b.k("stream"), Value: e.Stream})
	if b.opt.Format == Timed || b.opt.Format == SegmentsList || b.opt.Cpp {
		it = append(it, pickle.Item{Key: b.k("time_us"), Value: e.TimeUS})
	}
	if !b.opt.Cpp && b.opt.Format == Timed {
		if b.opt.CompileContext {
			it = append(it, pickle.Item{Key: b.k("compile_context"), Value: "N/A"})
		}
		if b.opt.UserMetadata {
			meta := ""
			if c, ok := e.Ctx.(*Context); ok && c != nil {
				meta = c.Meta
			}
			it = append(it, pickle.Item{Key: b.k("user_metadata"), Value: meta})
		}
		if b.opt.PoolIDs {
			it = append(it, pickle.Item{Key: b.k("pool_id"), Value: pickle.Tuple{pool[0], pool[1]}})
		}
	}
	if e.Ctx != nil && e.Action != alloc.Snapshot {
		it = append(it, pickle.Item{Key: b.k("frames"), Value: b.Frames(e.Ctx)})
	}
	return it
}

// WriteEntry streams one trace entry to enc (which must be writing this
// builder's file). Frames lists that no later event can share (an alloc's
// after its alloc event, a free's after free_completed) are dropped from
// the builder and the encoder's memo, so that memory stays bounded however
// long the trace.
func (b *Builder) WriteEntry(enc *pickle.Encoder, e *alloc.TraceEntry) {
	var buf [8]pickle.Item
	items := b.EntryItems(e, buf[:0])
	d := enc.BeginDict(len(items))
	for _, it := range items {
		enc.Value(it.Key)
		enc.Value(it.Value)
		enc.Next(&d)
	}
	enc.End(&d)
	switch e.Action {
	case alloc.SegmentAlloc, alloc.FreeRequested:
		return
	}
	if c, ok := e.Ctx.(*Context); ok && c != nil {
		if l, ok := b.frameLists[c.ID]; ok {
			delete(b.frameLists, c.ID)
			enc.Forget(l)
		}
	}
}

// FrameDicts returns the number of distinct frame dicts made so far.
func (b *Builder) FrameDicts() int { return len(b.frameDicts) }

// Key returns the file's shared str object for a key or value string.
func (b *Builder) Key(s string) *pickle.Str { return b.k(s) }

// Entry returns one trace entry dict.
func (b *Builder) Entry(e *alloc.TraceEntry) *pickle.Dict {
	var buf [8]pickle.Item
	items := b.EntryItems(e, buf[:0])
	d := pickle.NewDict(len(items))
	d.Items = append(d.Items, items...)
	return d
}

// Settings returns allocator_settings as PyTorch 2.3-2.9 write it.
func (b *Builder) Settings(s Settings) *pickle.Dict {
	d := pickle.NewDict(9)
	d.Set(b.k("PYTORCH_CUDA_ALLOC_CONF"), s.Conf)
	ms := s.MaxSplitSize
	if ms <= 0 {
		ms = -1
	}
	d.Set(b.k("max_split_size"), ms)
	d.Set(b.k("garbage_collection_threshold"), s.GCThreshold)
	d.Set(b.k("expandable_segments"), s.Expandable)
	d.Set(b.k("pinned_num_register_threads"), int64(1))
	d.Set(b.k("release_lock_on_cudamalloc"), false)
	d.Set(b.k("pinned_use_cuda_host_register"), false)
	if b.opt.GraphCaptureKey {
		d.Set(b.k("graph_capture_record_stream_reuse"), false)
	}
	r := pickle.NewDict(16)
	for i := 0; i < 16; i++ {
		key := fmt.Sprint(1 << i)
		r.Set(key, int64(s.RoundupPower2Divisions))
	}
	d.Set(b.k("roundup_power2_divisions"), r)
	return d
}

// Annotations returns external_annotations.
func (b *Builder) Annotations(anns []Annotation) *pickle.List {
	out := pickle.NewList()
	for _, a := range anns {
		d := pickle.NewDict(4)
		d.Set(b.k("stage"), b.k(a.Stage))
		d.Set(b.k("name"), a.Name)
		d.Set(b.k("device"), int64(a.Device))
		d.Set(b.k("time_us"), a.TimeUS)
		out.Append(d)
	}
	return out
}
