package snapshot

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"unsafe"
)

// Frame is one stack frame as PyTorch records it.
type Frame struct {
	// File is the source file: an absolute path for Python frames; '??', ''
	// or a basename for C++ frames. Untrusted text.
	File string
	// Line is the 1-based line number; 0 for C++ frames.
	Line int
	// Name is the function name. Untrusted text.
	Name string
	// FX is the FX graph node that ran at this line of FX-generated code,
	// as torch.cuda.memory._snapshot(augment_with_fx_traces=True) adds it
	// (fx_node_op, fx_node_name, fx_node_target, fx_original_trace); all
	// empty for other frames.
	FX FXNode
}

// FXNode is an FX graph node named on a frame of FX-generated code
// (fx_generated_*.py). Untrusted text.
type FXNode struct {
	// Op is the node's opcode (call_function, placeholder, ...), Name its
	// name in the graph (mm_3, primals_1, ...) and Target what it calls
	// (aten.mm.default).
	Op, Name, Target string
	// Trace is the stack trace of the model code the node was traced
	// from, as Python formats a traceback (innermost frame last).
	Trace string
}

// IsZero reports whether n names no node.
func (n FXNode) IsZero() bool { return n == FXNode{} }

// FrameID indexes Stacks.Frames.
type FrameID uint32

// StackID names an interned stack in Stacks. NoStack is the empty stack.
type StackID uint32

// NoStack is the StackID of an empty (or missing) stack.
const NoStack StackID = 0

// Stacks interns the frames and stacks of one snapshot: equal frames get
// one FrameID and equal frame sequences one StackID, so the millions of
// frame references of a large trace cost one entry per distinct stack.
// The zero value is ready to use.
type Stacks struct {
	// Frames holds every distinct frame; a FrameID indexes it.
	Frames []Frame
	// off[i]..off[i+1] delimits stack i+1's frame IDs in ids (stack 0 is
	// the empty stack and is not stored).
	off []uint32
	ids []FrameID

	frameIdx map[Frame]FrameID
	stackIdx map[uint64][]StackID
	seed     maphash.Seed
}

// Len returns the number of distinct stacks, counting the empty one.
func (s *Stacks) Len() int { return len(s.off) + 1 }

// Stack returns the frame IDs of stack id, innermost first. The slice
// aliases internal storage and must not be modified.
func (s *Stacks) Stack(id StackID) []FrameID {
	if id == NoStack || int(id) > len(s.off) {
		return nil
	}
	start := uint32(0)
	if id > 1 {
		start = s.off[id-2]
	}
	return s.ids[start:s.off[id-1]:s.off[id-1]]
}

// SameTable reports whether s and o are views of one table: the same
// frames and stacks in the same memory (a Sharer gives equal tables of a
// run's digests one copy), so that a stack ID means the same frames in
// both. Tables equal in content but held apart are not the same.
func (s *Stacks) SameTable(o *Stacks) bool {
	if s == o {
		return true
	}
	if s == nil || o == nil {
		return false
	}
	return sameSlice(s.Frames, o.Frames) && sameSlice(s.off, o.off) && sameSlice(s.ids, o.ids)
}

// sameSlice reports whether a and b are the same memory: the same first
// element and length.
func sameSlice[E any](a, b []E) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// StackFrames returns the frames of stack id, innermost first (a copy).
func (s *Stacks) StackFrames(id StackID) []Frame {
	ids := s.Stack(id)
	out := make([]Frame, len(ids))
	for i, f := range ids {
		out[i] = s.Frames[f]
	}
	return out
}

// InternFrame returns the FrameID of f, adding it when new.
func (s *Stacks) InternFrame(f Frame) FrameID {
	if id, ok := s.frameIdx[f]; ok {
		return id
	}
	if s.frameIdx == nil {
		s.frameIdx = make(map[Frame]FrameID)
	}
	id := FrameID(len(s.Frames))
	s.Frames = append(s.Frames, f)
	s.frameIdx[f] = id
	return id
}

// InternStack returns the StackID of the frame sequence ids (innermost
// first), adding it when new. An empty sequence is NoStack.
func (s *Stacks) InternStack(ids []FrameID) StackID {
	if len(ids) == 0 {
		return NoStack
	}
	if s.stackIdx == nil {
		// Index the stacks already there, added without the index (add:
		// the decoder keeps its own, then the converter may add the
		// stacks of host memory).
		s.stackIdx = make(map[uint64][]StackID)
		s.seed = maphash.MakeSeed()
		for id := StackID(1); int(id) < s.Len(); id++ {
			h := s.hashIDs(s.Stack(id))
			s.stackIdx[h] = append(s.stackIdx[h], id)
		}
	}
	h := s.hashIDs(ids)
	for _, cand := range s.stackIdx[h] {
		if slices.Equal(s.Stack(cand), ids) {
			return cand
		}
	}
	id := s.add(ids)
	s.stackIdx[h] = append(s.stackIdx[h], id)
	return id
}

// add appends ids as a new stack, without looking for an equal one: for
// the decoder, which keeps its own table of the stacks it added.
func (s *Stacks) add(ids []FrameID) StackID {
	if cap(s.ids)-len(s.ids) < len(ids) {
		// Double: append grows a large slice by a quarter, copying the
		// frame IDs of thousands of stacks many times over.
		s.ids = slices.Grow(s.ids, max(len(ids), len(s.ids)))
	}
	s.ids = append(s.ids, ids...)
	s.off = append(s.off, uint32(len(s.ids)))
	return StackID(len(s.off))
}

// reserve makes room for stacks more stacks of ids frame IDs in all.
func (s *Stacks) reserve(stacks, ids int) {
	s.off = slices.Grow(s.off, stacks)
	s.ids = slices.Grow(s.ids, ids)
}

// trim copies the table's frame IDs and offsets to arrays of their own
// size when they fill less than seven eighths of what was reserved: a
// table is kept as long as its snapshot, and what it does not fill is
// memory for nothing.
func (s *Stacks) trim() {
	if len(s.ids) < cap(s.ids)-cap(s.ids)/8 {
		s.ids = slices.Clone(s.ids)
	}
	if len(s.off) < cap(s.off)-cap(s.off)/8 {
		s.off = slices.Clone(s.off)
	}
}

// Seal drops the lookup tables used while interning; the Stacks stay
// readable but can no longer be added to. Decoders call it when done.
func (s *Stacks) Seal() {
	s.frameIdx = nil
	s.stackIdx = nil
	s.ids = s.ids[:len(s.ids):len(s.ids)]
}

// firstRepeat returns the first stack equal to an earlier one, and
// whether there is one: an open-addressed table of stack IDs by hash,
// sized once, in place of the index InternStack keeps (a map of slices,
// an allocation per stack), for a reader that adds a whole table it must
// check.
func (s *Stacks) firstRepeat() (StackID, bool) {
	n := s.Len() - 1
	if n < 2 {
		return 0, false
	}
	size := 1 << bits.Len(uint(2*n))
	table := make([]StackID, size)
	seed := maphash.MakeSeed()
	for id := StackID(1); int(id) <= n; id++ {
		ids := s.Stack(id)
		for i := hashFrameIDs(seed, ids) & uint64(size-1); ; i = (i + 1) & uint64(size-1) {
			if table[i] == NoStack {
				table[i] = id
				break
			}
			if slices.Equal(s.Stack(table[i]), ids) {
				return id, true
			}
		}
	}
	return 0, false
}

// hashIDs hashes the IDs' memory in one call: writing them four bytes at a
// time was most of the cost of interning a million stacks.
func (s *Stacks) hashIDs(ids []FrameID) uint64 { return hashFrameIDs(s.seed, ids) }

// hashFrameIDs hashes the memory of ids with seed.
func hashFrameIDs(seed maphash.Seed, ids []FrameID) uint64 {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ids))), 4*len(ids))
	return maphash.Bytes(seed, b)
}
