package roles

import (
	"slices"
	"strconv"
	"strings"

	"gpureport/analyze/frames"
	"gpureport/snapshot"
)

// stack is what the rules read of one allocation stack, computed once per
// interned stack: its Python frames (paths with forward slashes), its C++
// frame names, the autograd nodes among them, and its call site.
type stack struct {
	py    []pyFrame
	cpp   []string
	nodes []string
	fx    []snapshot.FXNode
	// site identifies the operation that allocated (see siteOf).
	site string
	// empty reports a stack without frames.
	empty bool
	// phased and ruled report that ph and rule are set: the stack's
	// phase (phaseOf), and the first frame rule that names its role, nil
	// when none (frameRule).
	phased, ruled bool
	ph            phase
	rule          *rule
	// checked reports that checkpointed is set: a frame of the stack runs
	// in torch/utils/checkpoint.py (inCheckpoint).
	checked, checkpointed bool
}

// inCheckpoint reports whether a frame of the stack runs in
// torch/utils/checkpoint.py, decided once per stack: the forward rule asks
// it of every forward block.
func (s *stack) inCheckpoint() bool {
	if !s.checked {
		s.checkpointed, s.checked = s.inFile("torch/utils/checkpoint.py"), true
	}
	return s.checkpointed
}

// phase returns phaseOf(s), decided once per stack.
func (s *stack) phase() phase {
	if !s.phased {
		s.ph, s.phased = phaseOf(s), true
	}
	return s.ph
}

// frameRule returns the stack's phase and the first of frameRules that
// matches it (nil when none). Both read only the stack, so they are
// decided once per stack, not once per block: many live blocks share a
// stack (a layer's tensors, an optimizer's states), and matching a
// stack's frames against every rule is most of classifying a block.
func (s *stack) frameRule() (phase, *rule) {
	ph := s.phase()
	if !s.ruled {
		for i := range frameRules {
			if frameRules[i].match(s, ph) {
				s.rule = &frameRules[i]
				break
			}
		}
		s.ruled = true
	}
	return ph, s.rule
}

// pyFrame is a Python frame: its file (forward slashes) and function.
type pyFrame struct {
	file, name string
}

// stackCache computes stack values per StackID of one snapshot, from
// memo when one is given (which finds a table's stack it has seen by its
// ID, so the cache's own map is kept only without one).
type stackCache struct {
	st   *snapshot.Stacks
	m    map[snapshot.StackID]*stack // nil with a memo
	memo *frames.StackMemo[*stack]   // nil: none
}

func newStackCache(st *snapshot.Stacks, memo *StackMemo) *stackCache {
	if memo != nil {
		return &stackCache{st: st, memo: memo.m}
	}
	return &stackCache{st: st, m: map[snapshot.StackID]*stack{}}
}

func (c *stackCache) get(id snapshot.StackID) *stack {
	read := func() *stack { return readStack(c.st.StackFrames(id)) }
	if c.memo != nil {
		return c.memo.Get(c.st, id, read)
	}
	if s, ok := c.m[id]; ok {
		return s
	}
	s := read()
	c.m[id] = s
	return s
}

// StackMemo keeps what the rules read of each distinct stack (its frames
// read, its phase, the frame rule that names its role) across the scenes
// classified with it: a run's snapshots mostly share their stacks
// (frames.StackMemo says how one is found). Not safe for concurrent use.
type StackMemo struct {
	m *frames.StackMemo[*stack]
}

// NewStackMemo returns an empty StackMemo.
func NewStackMemo() *StackMemo {
	return &StackMemo{m: frames.NewStackMemo[*stack]()}
}

// readStack builds the stack value of frames (innermost first).
func readStack(fs []snapshot.Frame) *stack {
	s := &stack{empty: len(fs) == 0}
	for _, f := range fs {
		if !f.FX.IsZero() {
			s.fx = append(s.fx, f.FX)
		}
		if frames.IsNative(f) {
			s.cpp = append(s.cpp, f.Name)
			if n, ok := frames.AutogradNode(f); ok {
				s.nodes = append(s.nodes, n)
			}
			continue
		}
		s.py = append(s.py, pyFrame{file: frames.Path(f.File), name: f.Name})
	}
	s.site = siteOf(fs, s)
	return s
}

// siteOf names the operation an allocation belongs to, so that the
// allocations of one operation (an output and its workspace, the pieces
// of a foreach kernel) share it and consecutive operations differ: the
// Python frames with their lines (with stacks="python" that is the whole
// stack; with stacks="all" the C++ frames differ inside one operation),
// else the innermost autograd node (a backward operation on autograd's
// thread), else "" (no Python frames, no node: one site for all of them).
func siteOf(fs []snapshot.Frame, s *stack) string {
	var b strings.Builder
	for _, f := range fs {
		if frames.IsNative(f) {
			continue
		}
		b.WriteString(f.File)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(f.Line))
		b.WriteByte('|')
	}
	if b.Len() > 0 {
		return b.String()
	}
	if len(s.nodes) > 0 {
		return "node:" + s.nodes[0]
	}
	return ""
}

// inFile reports whether some Python frame's file contains one of subs.
func (s *stack) inFile(subs ...string) bool {
	return slices.ContainsFunc(s.py, func(f pyFrame) bool { return containsAny(f.file, subs) })
}

// call reports whether some Python frame in a file containing file runs
// one of the functions names (any function when names is empty).
func (s *stack) call(file string, names ...string) bool {
	return slices.ContainsFunc(s.py, func(f pyFrame) bool {
		return strings.Contains(f.file, file) && (len(names) == 0 || slices.Contains(names, f.name))
	})
}

// callWith reports whether some Python frame in a file containing file
// runs a function whose name contains one of parts.
func (s *stack) callWith(file string, parts ...string) bool {
	return slices.ContainsFunc(s.py, func(f pyFrame) bool {
		return strings.Contains(f.file, file) && containsAny(f.name, parts)
	})
}

// named reports whether some Python frame runs a function named one of
// names.
func (s *stack) named(names ...string) bool {
	return slices.ContainsFunc(s.py, func(f pyFrame) bool { return slices.Contains(names, f.name) })
}

// cppHas reports whether some C++ frame's name contains one of subs.
func (s *stack) cppHas(subs ...string) bool {
	return slices.ContainsFunc(s.cpp, func(c string) bool { return containsAny(c, subs) })
}

// containsAny reports whether x contains one of subs.
func containsAny(x string, subs []string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(x, sub) })
}

// node reports whether an autograd node named n made the allocation.
func (s *stack) node(n string) bool {
	for _, x := range s.nodes {
		if x == n {
			return true
		}
	}
	return false
}
