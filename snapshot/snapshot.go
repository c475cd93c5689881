package snapshot

import (
	"slices"
	"time"
)

// Snapshot is one decoded PyTorch CUDA caching-allocator snapshot: the
// allocator state (segments and blocks) of every device at the moment
// torch.cuda.memory._snapshot() ran, the recent allocator events
// (device_traces) and whatever settings the file carries.
//
// A Snapshot is read-only once decoded. Frames and whole stacks are interned
// in Stacks, so a stack shared by a million trace entries is stored once.
type Snapshot struct {
	// Generation names the on-disk layout that was detected, from the keys
	// found (never from a version number, which snapshots do not record).
	Generation Generation
	// Segments are the allocator segments of all devices, in file order
	// (PyTorch sorts them by address). They are pointers so that the
	// digests of a run can share the segments that did not change from
	// one snapshot to the next (Sharer): a segment is never modified once
	// its snapshot is decoded.
	Segments []*Segment
	// Traces holds the trace ring buffer of each device: Traces[d] are the
	// events of device d, oldest first. It is nil when the file has no
	// device_traces (a segments-only list); devices without events have an
	// empty slice.
	Traces [][]TraceEntry
	// Settings are the allocator settings in force (allocator_settings),
	// with Present false when the file has none.
	Settings AllocatorSettings
	// Annotations are the record_function ranges (external_annotations).
	Annotations []Annotation
	// Stacks interns every frame and stack of the snapshot.
	Stacks Stacks
	// Digest is set when this is a digest (see Reduce): Traces and
	// Annotations are then nil and summarised here.
	Digest *Digest
	// Notes list the fields the decoder could not make sense of and what
	// it assumed instead, and segments whose blocks do not add up to their
	// own totals; nil for a file that reads as the format says.
	Notes []DecodeNote
	// Meta holds the distinct user_metadata texts of the trace events
	// (TraceEntry.Meta and BlockTrace index it). Meta[0] is "", no
	// metadata; Meta is nil when no event carries any.
	Meta []string
	// Pools holds the distinct pool_id pairs of the trace events
	// (PyTorch 2.16 and later stamp one on every event): TraceEntry.Pool
	// is one more than an index into it, 0 when the event has none.
	Pools [][2]int64
	// HostSegments are the segments of the pinned host memory allocator
	// (host_segments: PyTorch 2.14 and later, recording with
	// record_pinned_host_memory=True), their Device set to HostDevice;
	// nil when the file has none. Host returns them as a snapshot.
	HostSegments []*Segment
	// HostTrace is the pinned host allocator's trace ring buffer
	// (host_traces), oldest first; nil when the file has none.
	HostTrace []TraceEntry
	// skimmed summarises the traces of a snapshot decoded with
	// DecodeOptions.SkimTrace, which keeps no trace events (Traces is
	// nil); skimmedLatestUS is their latest time_us. Reduce reads them.
	skimmed         []TraceDigest
	skimmedLatestUS int64
}

// Generation identifies a snapshot layout (see docs/snapshot-format.md).
type Generation string

// Snapshot generations, oldest first.
const (
	// GenSegmentsList is a bare list of segments (torch.cuda.memory_snapshot()).
	GenSegmentsList Generation = "segments-list"
	// GenHistory is the PyTorch 1.13-2.0 layout: blocks carry a history list
	// instead of address and frames.
	GenHistory Generation = "history"
	// GenFrames is PyTorch 2.1: blocks carry address and frames; trace
	// entries have no time_us.
	GenFrames Generation = "frames"
	// GenTimed is PyTorch 2.2 and later: trace entries carry time_us.
	GenTimed Generation = "timed"
)

// Segment is one cudaMalloc'd region (or one contiguous mapped range of an
// expandable segment) and the blocks it is split into.
type Segment struct {
	// Device is the CUDA device index.
	Device int
	// Address is the device address of the first byte.
	Address uint64
	// TotalSize is the segment size in bytes (reserved memory).
	TotalSize int64
	// AllocatedSize, ActiveSize and RequestedSize are the totals PyTorch
	// recorded for the segment, in bytes. Analysis recomputes them from
	// Blocks; these are kept to check the file against itself.
	AllocatedSize int64
	ActiveSize    int64
	RequestedSize int64
	// Stream is the CUDA stream the segment belongs to (0 = default stream).
	Stream int64
	// PrivatePool is segment_pool_id: (0, 0) for the default pool, anything
	// else for a CUDA graph or MemPool private pool.
	PrivatePool [2]int64
	// Stack is the stack of the cudaMalloc that created the segment (often
	// empty).
	Stack StackID
	// Pool is the size class the segment serves. (The narrow fields sit
	// together: a run holds a Segment per segment of every digest.)
	Pool Pool
	// Expandable reports is_expandable (expandable_segments:True).
	Expandable bool
	// Blocks split the segment, contiguous by address from Address.
	Blocks []Block
}

// Pool is the allocator pool a segment serves: small (<= 1 MiB requests,
// 2 MiB segments) or large.
type Pool uint8

// Pools.
const (
	PoolUnknown Pool = iota
	PoolSmall
	PoolLarge
)

// String returns "small", "large" or "unknown".
func (p Pool) String() string {
	switch p {
	case PoolSmall:
		return "small"
	case PoolLarge:
		return "large"
	}
	return "unknown"
}

// Block is one piece of a segment: live, waiting to be freed, or free.
type Block struct {
	// Address is the device address of the block. Old files do not store
	// it; the decoder computes it from the segment start and the sizes of
	// the preceding blocks.
	Address uint64
	// Size is the block size in bytes, after the allocator's rounding.
	Size int64
	// RequestedSize is the size the program asked for, in bytes. It is
	// stale for inactive blocks and must be ignored there.
	RequestedSize int64
	// State says whether the block is in use.
	State BlockState
	// Stack is the allocation stack (or the first history entry's stack in
	// the legacy layout); NoStack when the file has no frames for it.
	Stack StackID
}

// BlockState is a block's allocation state.
type BlockState uint8

// Block states as PyTorch names them.
const (
	// StateInactive is a free block, cached by the allocator.
	StateInactive BlockState = iota
	// StateActiveAllocated is a block in use by a tensor.
	StateActiveAllocated
	// StateActivePendingFree is a freed block still waiting on stream events.
	StateActivePendingFree
	// StateUnknown is a state string this decoder does not know.
	StateUnknown
)

// String returns PyTorch's name for the state.
func (s BlockState) String() string {
	switch s {
	case StateInactive:
		return "inactive"
	case StateActiveAllocated:
		return "active_allocated"
	case StateActivePendingFree:
		return "active_pending_free"
	}
	return "unknown"
}

// Active reports whether the block counts as active memory (allocated or
// pending free).
func (s BlockState) Active() bool {
	return s == StateActiveAllocated || s == StateActivePendingFree
}

// ParseBlockState maps PyTorch's state name to a BlockState.
func ParseBlockState(s string) BlockState {
	switch s {
	case "inactive":
		return StateInactive
	case "active_allocated":
		return StateActiveAllocated
	case "active_pending_free":
		return StateActivePendingFree
	}
	return StateUnknown
}

// TraceEntry is one allocator event from a device's trace ring buffer.
type TraceEntry struct {
	// Addr is the block or segment address. For ActionOOM it holds
	// device_free instead: the bytes CUDA reported free at the OOM.
	Addr uint64
	// Size is in bytes: the unrounded request for ActionAlloc, the rounded
	// request for ActionOOM, total active bytes for ActionSnapshot.
	Size int64
	// Stream is the CUDA stream of the event.
	Stream int64
	// TimeUS is the event time in microseconds since the Unix epoch (UTC);
	// 0 when the file records no time_us.
	TimeUS int64
	// Stack is the stack of the event, NoStack when it has none.
	Stack StackID
	// Meta is the event's user_metadata (Snapshot.Meta indexes it): the
	// text torch.cuda.memory._set_memory_metadata set on the allocating
	// thread (PyTorch 2.9 and later), or for ActionAnnotate the
	// annotation torch.cuda.memory._annotate_tensor put on the block at
	// Addr (2.14 and later). NoMeta when none.
	Meta MetaID
	// Action is what happened.
	Action Action
	// Pool is one more than the index of the event's pool_id in
	// Snapshot.Pools (PyTorch 2.16 and later); 0 when it has none.
	Pool uint16
}

// MetaID indexes Snapshot.Meta.
type MetaID uint32

// NoMeta is the MetaID of an event without user_metadata.
const NoMeta MetaID = 0

// MetaText returns the text of id ("" for NoMeta or an id out of range).
func (s *Snapshot) MetaText(id MetaID) string {
	if int(id) < len(s.Meta) {
		return s.Meta[id]
	}
	return ""
}

// PoolOf returns the pool_id of event e, and false when it has none.
func (s *Snapshot) PoolOf(e *TraceEntry) ([2]int64, bool) {
	if e.Pool == 0 || int(e.Pool) > len(s.Pools) {
		return [2]int64{}, false
	}
	return s.Pools[e.Pool-1], true
}

// Action is the kind of a trace event.
type Action uint8

// Trace actions as PyTorch names them.
const (
	ActionOther Action = iota
	ActionAlloc
	ActionFreeRequested
	ActionFreeCompleted
	ActionSegmentAlloc
	ActionSegmentFree
	ActionSegmentMap
	ActionSegmentUnmap
	ActionSnapshot
	ActionOOM
	ActionAnnotate
	numActions
)

var actionNames = [numActions]string{
	ActionOther:         "other",
	ActionAlloc:         "alloc",
	ActionFreeRequested: "free_requested",
	ActionFreeCompleted: "free_completed",
	ActionSegmentAlloc:  "segment_alloc",
	ActionSegmentFree:   "segment_free",
	ActionSegmentMap:    "segment_map",
	ActionSegmentUnmap:  "segment_unmap",
	ActionSnapshot:      "snapshot",
	ActionOOM:           "oom",
	ActionAnnotate:      "annotate",
}

// NumActions is the number of Action values, for tables indexed by Action.
const NumActions = int(numActions)

// String returns PyTorch's name of the action ("other" for unknown ones).
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "other"
}

// ParseAction maps PyTorch's action name to an Action (ActionOther when
// unknown).
func ParseAction(s string) Action {
	for i, n := range actionNames {
		if n == s && i != int(ActionOther) {
			return Action(i)
		}
	}
	return ActionOther
}

// AllocatorSettings are the caching allocator's settings recorded in the
// snapshot (PyTorch 2.3 and later).
type AllocatorSettings struct {
	// Present is false when the file has no allocator_settings.
	Present bool
	// Conf is PYTORCH_CUDA_ALLOC_CONF as the process saw it.
	Conf string
	// MaxSplitSize is max_split_size in bytes; -1 when unset (unlimited).
	MaxSplitSize int64
	// GCThreshold is garbage_collection_threshold, a fraction of the
	// device's memory; 0 when off, or when the value is none PyTorch
	// accepts (NaN, below 0, above 1: Raw keeps it as written).
	GCThreshold float64
	// ExpandableSegments reports expandable_segments.
	ExpandableSegments bool
	// Raw lists every scalar setting as key and printed value, in file
	// order, for display.
	Raw []KeyValue
}

// KeyValue is a setting name and its value as text.
type KeyValue struct {
	Key, Value string
}

// Annotation is one record_function boundary from external_annotations.
type Annotation struct {
	// Stage is "START" or "END".
	Stage string
	// Name is the record_function name.
	Name string
	// Device is the CUDA device index.
	Device int
	// TimeUS is microseconds since the Unix epoch (UTC).
	TimeUS int64
}

// LatestTimeUS returns the latest time_us of any trace event or annotation
// (microseconds since the Unix epoch, UTC), or 0 when the file has none.
func (s *Snapshot) LatestTimeUS() int64 {
	if s.Digest != nil {
		return s.Digest.LatestUS
	}
	t := s.skimmedLatestUS
	for _, tr := range s.Traces {
		for i := range tr {
			if tr[i].TimeUS > t {
				t = tr[i].TimeUS
			}
		}
	}
	for _, a := range s.Annotations {
		if a.TimeUS > t {
			t = a.TimeUS
		}
	}
	return t
}

// LatestTime is LatestTimeUS as a time, and false when the file has no
// times.
func (s *Snapshot) LatestTime() (time.Time, bool) {
	us := s.LatestTimeUS()
	if us == 0 {
		return time.Time{}, false
	}
	return time.UnixMicro(us).UTC(), true
}

// Devices returns the device indexes that have segments or trace events,
// ascending.
func (s *Snapshot) Devices() []int {
	seen := map[int]bool{}
	for i := range s.Segments {
		seen[s.Segments[i].Device] = true
	}
	for d, tr := range s.Traces {
		if len(tr) > 0 {
			seen[d] = true
		}
	}
	if s.Digest != nil {
		for d, tr := range s.Digest.Traces {
			if tr.Entries > 0 {
				seen[d] = true
			}
		}
	}
	for d, tr := range s.skimmed {
		if tr.Entries > 0 {
			seen[d] = true
		}
	}
	out := make([]int, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// TraceEntries returns the number of trace events of device d (0 when the
// device has none).
func (s *Snapshot) TraceEntries(d int) int {
	td, tr := s.traceOf(d)
	if td != nil {
		return td.Entries
	}
	return len(tr)
}

// pointers returns a pointer to each segment of segs, in order, nil for
// nil: a Snapshot lists its segments by pointer, so that digests can
// share a segment that did not change (Sharer), and a decoder or reader
// keeps them in one array of its own.
func pointers(segs []Segment) []*Segment {
	if segs == nil {
		return nil
	}
	out := make([]*Segment, len(segs))
	for i := range segs {
		out[i] = &segs[i]
	}
	return out
}
