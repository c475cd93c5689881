package roles

import (
	"slices"
	"strconv"
	"strings"

	"gpureport/analyze/frames"
	"gpureport/snapshot"
)

// stack is what the rules read of one allocation stack, computed once per
// interned stack: its Python frames (paths with forward slashes), what
// its C++ frame names and Python files answer to the text queries, the
// autograd nodes among its frames, and its call site.
type stack struct {
	py    []pyFrame
	nodes []string
	// text answers the text queries (textmask.go) of the stack's C++
	// frame names and Python files, calls the frame queries of its Python
	// frames.
	text  textMask
	calls frameMask
	fx    []snapshot.FXNode
	// site identifies the operation that allocated (see siteOf).
	site string
	// line is the line of the innermost Python frame (0: none).
	line int
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
	// recompChecked reports that recomp is set: the stack allocates in
	// activation checkpointing's recomputation (recomputed).
	recompChecked, recomp bool
	// fxDecided reports that fxDecision and fxOK are set: what the FX
	// node's trace decides (byFX).
	fxDecided  bool
	fxOK       bool
	fxDecision Decision
}

// inCheckpoint reports whether a frame of the stack runs in
// torch/utils/checkpoint.py, decided once per stack: the forward rule asks
// it of every forward block.
func (s *stack) inCheckpoint() bool {
	if !s.checked {
		s.checkpointed, s.checked = s.has(fileCheckpoint), true
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
// ID, so the cache's own map is kept only without one), reading each of
// the table's frames once (frames).
type stackCache struct {
	st     *snapshot.Stacks
	m      map[snapshot.StackID]*stack // nil with a memo
	memo   *frames.StackMemo[*stack]   // nil: none
	masks  *textMasks
	frames []frameRead // by FrameID of st; a zero entry is not read yet
}

func newStackCache(st *snapshot.Stacks, memo *StackMemo) *stackCache {
	if memo != nil {
		return &stackCache{st: st, memo: memo.m, masks: memo.masks}
	}
	return &stackCache{st: st, m: map[snapshot.StackID]*stack{}, masks: newTextMasks()}
}

func (c *stackCache) get(id snapshot.StackID) *stack {
	read := func() *stack { return c.read(id) }
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

// read builds the stack value of stack id of the cache's table, each
// frame read once for all the stacks that hold it: a snapshot's
// thousands of distinct stacks hold a few hundred distinct frames, each
// tens of times.
func (c *stackCache) read(id snapshot.StackID) *stack {
	ids := c.st.Stack(id)
	if len(c.frames) < len(c.st.Frames) {
		c.frames = slices.Grow(c.frames, len(c.st.Frames)-len(c.frames))[:len(c.st.Frames)]
	}
	return readFrames(len(ids), func(i int) *frameRead {
		r := &c.frames[ids[i]]
		if r.f == nil {
			*r = readFrame(&c.st.Frames[ids[i]], c.masks)
		}
		return r
	})
}

// StackMemo keeps what the rules read of each distinct stack (its frames
// read, its phase, the frame rule that names its role) across the scenes
// classified with it: a run's snapshots mostly share their stacks
// (frames.StackMemo says how one is found), and their frames (textMasks).
// Not safe for concurrent use.
type StackMemo struct {
	m     *frames.StackMemo[*stack]
	masks *textMasks
}

// NewStackMemo returns an empty StackMemo.
func NewStackMemo() *StackMemo {
	return &StackMemo{m: frames.NewStackMemo[*stack](), masks: newTextMasks()}
}

// readStack builds the stack value of frames (innermost first).
func readStack(fs []snapshot.Frame) *stack {
	m := newTextMasks()
	reads := make([]frameRead, len(fs))
	for i := range fs {
		reads[i] = readFrame(&fs[i], m)
	}
	return readFrames(len(reads), func(i int) *frameRead { return &reads[i] })
}

// readTableStack builds the stack value of stack id of tab.
func readTableStack(tab *snapshot.Stacks, id snapshot.StackID) *stack {
	return newStackCache(tab, nil).read(id)
}

// frameRead is what a stack value takes of one frame f: for a C++ frame
// (frames.IsNative) its name's answers to the text queries and the
// autograd node it applies, for a Python frame its file's answers, its
// file and function, and its part of the call site ("file:line|").
type frameRead struct {
	f      *snapshot.Frame
	native bool
	text   textMask
	node   string
	isNode bool
	py     pyFrame
	calls  frameMask
	site   string
	line   int
}

// readFrame reads frame f with the masks of m.
func readFrame(f *snapshot.Frame, m *textMasks) frameRead {
	r := frameRead{f: f, native: frames.IsNative(*f)}
	if r.native {
		c := m.name(f.Name)
		r.text, r.node, r.isNode = c.mask, c.node, c.isNode
		return r
	}
	file := frames.Path(f.File)
	r.py = pyFrame{file: file, name: f.Name}
	r.text = m.file(file)
	r.calls = m.frame(r.py)
	r.site = f.File + ":" + strconv.Itoa(f.Line) + "|"
	r.line = f.Line
	return r
}

// readFrames builds the stack value of the n frames read at(0) ...
// at(n-1), innermost first: its frames, the answers to the text queries
// and its call site (siteOf).
func readFrames(n int, at func(int) *frameRead) *stack {
	s := &stack{empty: n == 0}
	// Sized first: a run reads thousands of stacks of tens of frames.
	py, siteLen := 0, 0
	for i := range n {
		if r := at(i); !r.native {
			py++
			siteLen += len(r.site)
		}
	}
	s.py = make([]pyFrame, 0, py)
	var site strings.Builder
	site.Grow(siteLen)
	for i := range n {
		r := at(i)
		if !r.f.FX.IsZero() {
			s.fx = append(s.fx, r.f.FX)
		}
		s.text |= r.text
		if r.native {
			if r.isNode {
				s.nodes = append(s.nodes, r.node)
			}
			continue
		}
		if len(s.py) == 0 {
			s.line = r.line
		}
		s.py = append(s.py, r.py)
		s.calls |= r.calls
		site.WriteString(r.site)
	}
	s.site = siteOf(site.String(), s)
	return s
}

// caller returns the innermost Python frame's file and function with the
// frames outside it and their lines ("" without Python frames): the
// stacks of one function's allocations reached by one call share it and
// differ by line (splitRule). Made only for the stacks a split rule
// names, not kept.
func (s *stack) caller() string {
	if len(s.py) == 0 {
		return ""
	}
	// site holds the Python frames, "file:line|" each, innermost first.
	_, outer, _ := strings.Cut(s.site, "|")
	return s.py[0].file + ":" + s.py[0].name + "|" + outer
}

// siteOf names the operation an allocation belongs to, so that the
// allocations of one operation (an output and its workspace, the pieces
// of a foreach kernel) share it and consecutive operations differ: the
// Python frames with their lines (with stacks="python" that is the whole
// stack; with stacks="all" the C++ frames differ inside one operation),
// py ("file:line|" for each Python frame, innermost first), else the
// innermost autograd node (a backward operation on autograd's thread),
// else "" (no Python frames, no node: one site for all of them).
func siteOf(py string, s *stack) string {
	if py != "" {
		return py
	}
	if len(s.nodes) > 0 {
		return "node:" + s.nodes[0]
	}
	return ""
}

// call reports whether some Python frame of the stack answers frame query
// q yes (textmask.go).
func (s *stack) call(q frameQuery) bool { return s.calls.has(q) }

// has reports whether the stack answers q yes: some C++ frame's name
// or Python frame's file holds what q looks for.
func (s *stack) has(q textQuery) bool { return s.text.has(q) }

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
