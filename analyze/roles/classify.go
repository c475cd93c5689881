package roles

import (
	"regexp"
	"slices"
	"strconv"

	"gpureport/snapshot"
)

// Block is one live allocation to classify.
type Block struct {
	// Addr and Size are the block's address and size, bytes.
	Addr uint64
	Size int64
	// Stack is its allocation stack.
	Stack snapshot.StackID
	// Pool is the segment_pool_id of its segment.
	Pool [2]int64
	// Alloc is the index of its alloc event in the trace, -1 when it was
	// allocated before the trace's window (or the file has no trace).
	Alloc int
	// Meta is the user_metadata of its alloc event, Notes the annotations
	// put on it since, oldest first.
	Meta  string
	Notes []string
	// Freed is the index of the event that freed it after the moment
	// classified, -1 when it is not freed within the trace; read only
	// when Scene.Future is set.
	Freed int
}

// Scene is one device at one moment: its live blocks, and what is known
// of the moment.
type Scene struct {
	Stacks *snapshot.Stacks
	Blocks []Block
	// Pools gives the kind of the pools the blocks name; a pool missing
	// from it is taken by its id alone.
	Pools map[[2]int64]Pool
	// Trace is the device's trace when at hand (nil for a digest): the
	// lifetime rules read it.
	Trace []snapshot.TraceEntry
	// At is the index in Trace of the moment classified: its last event
	// for a dump.
	At int
	// HasTrace reports that the file recorded events for the device, so
	// a block the trace never saw allocated was allocated before its
	// window.
	HasTrace bool
	// Future reports that the moment is inside the trace and the blocks'
	// Freed say when each was freed after it.
	Future bool
	// OOM is the OOM event the moment is the dump of (the trace ends at
	// it), nil otherwise.
	OOM *snapshot.TraceEntry
	// Memo, when set, shares what the rules read of each stack with the
	// other scenes classified with it (a run's snapshots); nil reads
	// every stack of the scene afresh.
	Memo *StackMemo
}

// Reasons a block's role is unknown.
const (
	whyBeforeWindow = "no frames: allocated before the trace's window (before recording began, or before the ring buffer's oldest event)"
	whyNotRecorded  = "no frames: the trace records no stacks (_record_memory_history without context)"
	whyNoTrace      = "no frames, and no trace to tell when it was allocated"
	ruleNoMatch     = "no rule names this stack"
	ruleCppOnly     = "C++ frames only, outside autograd"
	rulePool        = "CUDA-graph private pool (segment_pool_id)"
)

// classifier holds what Classify reads once per scene.
type classifier struct {
	sc             *Scene
	cache          *stackCache
	tl             *timeline
	stacksRecorded bool
	// byStackAlone is the decision, by stack, of a block that decide
	// reads nothing of but its stack (stackAlone), made for the first
	// such block of the stack (decided says which are): a large model's
	// 161k blocks at a dump are nearly all such, over a few thousand
	// stacks. Empty: every block is decided afresh.
	byStackAlone []Decision
	decided      []bool
	// lastLine is, per caller (stack.caller) of the scene's stacks that
	// a split rule names, the highest line among them: the function's
	// last allocation (splitRule). Nil when the scene has none.
	lastLine map[string]int
	// roleSeen says which roles frame rules without a split give some
	// stack of the scene's blocks (splitRule.lastNeeds).
	roleSeen map[Role]bool
}

// stackAlone reports whether the decision of block b is its stack's
// alone: no label to read (decide reads a block's labels first), in the
// default pool (byStack reads the pool next), and not seen allocated by
// the trace (byLifetime reads the trace only for a block it saw
// allocated; what it decides of the others is its stack's phase).
func stackAlone(b *Block) bool {
	return b.Alloc < 0 && b.Pool == [2]int64{} && b.Meta == "" && len(b.Notes) == 0
}

// Classify decides the role of every block of sc, in order, and returns
// the decisions with their breakdown (which sums to the blocks' bytes).
func Classify(sc *Scene) ([]Decision, Breakdown) {
	out := make([]Decision, len(sc.Blocks))
	bd := classify(sc, out)
	return out, bd
}

// ClassifyBreakdown is Classify without the decisions: the breakdown of
// every snapshot of a run, where only the last one's decisions are read,
// without a list of them (tens of bytes a block) made for each.
func ClassifyBreakdown(sc *Scene) Breakdown {
	return classify(sc, nil)
}

// classify decides the role of every block of sc, in order, into out
// when out is not nil, and returns their breakdown.
func classify(sc *Scene, out []Decision) Breakdown {
	c := newClassifier(sc)
	if sc.Stacks != nil {
		c.byStackAlone = make([]Decision, sc.Stacks.Len())
		c.decided = make([]bool, sc.Stacks.Len())
	}
	return c.run(out)
}

// newClassifier reads what the rules read of scene sc as a whole.
func newClassifier(sc *Scene) *classifier {
	c := &classifier{sc: sc, cache: newStackCache(sc.Stacks, sc.Memo)}
	for i := range sc.Blocks {
		if sc.Blocks[i].Stack != snapshot.NoStack {
			c.stacksRecorded = true
			break
		}
	}
	if !c.stacksRecorded {
		for i := range sc.Trace {
			if sc.Trace[i].Action == snapshot.ActionAlloc && sc.Trace[i].Stack != snapshot.NoStack {
				c.stacksRecorded = true
				break
			}
		}
	}
	if len(sc.Trace) > 0 {
		c.tl = newTimeline(sc.Trace, c.cache, c.stacksRecorded)
	}
	c.lastLine, c.roleSeen = lastLines(sc, c.cache)
	return c
}

// lastLines returns, per caller (stack.caller) of the stacks of sc's
// blocks that a split rule names, the highest line among them (nil when
// none is), and the roles that frame rules without a split give some of
// those blocks' stacks. Each distinct stack is read once (its frame rule is
// decided once per stack anyway).
func lastLines(sc *Scene, cache *stackCache) (map[string]int, map[Role]bool) {
	if sc.Stacks == nil {
		return nil, nil
	}
	var m map[string]int
	seenRole := map[Role]bool{}
	seen := make([]bool, sc.Stacks.Len())
	for i := range sc.Blocks {
		id := sc.Blocks[i].Stack
		if id == snapshot.NoStack || int(id) >= len(seen) || seen[id] {
			continue
		}
		seen[id] = true
		st := cache.get(id)
		if st.empty {
			continue
		}
		_, r := st.frameRule()
		if r != nil && r.split == nil {
			seenRole[r.role] = true
		}
		if r == nil || r.split == nil {
			continue
		}
		if m == nil {
			m = map[string]int{}
		}
		k := st.caller()
		m[k] = max(m[k], st.line)
	}
	return m, seenRole
}

// run decides every block of the scene, in order, into out when out is
// not nil, and returns their breakdown.
func (c *classifier) run(out []Decision) Breakdown {
	sc := c.sc
	var bd Breakdown
	rules := ruleShares{byRule: map[string]*RuleShare{}}
	for i := range sc.Blocks {
		b := &sc.Blocks[i]
		d := c.decide(b)
		if out != nil {
			out[i] = d
		}
		bd.add(b.Size, d, &rules)
	}
	bd.finish(rules.byRule)
	return bd
}

// decide returns block b's role and why (doc.go gives the order).
func (c *classifier) decide(b *Block) Decision {
	if id := int(b.Stack); id < len(c.decided) && stackAlone(b) {
		if !c.decided[id] {
			c.byStackAlone[id], c.decided[id] = c.decideAfresh(b), true
		}
		return c.byStackAlone[id]
	}
	return c.decideAfresh(b)
}

// decideAfresh is decide without byStackAlone.
func (c *classifier) decideAfresh(b *Block) Decision {
	label, d, ok := labelDecision(b)
	if ok {
		return d
	}
	d = c.byStack(b)
	if d.Label == "" {
		d.Label = label
	}
	return d
}

// labelDecision returns the label on b (latest annotation first, then
// the alloc-time user_metadata) and, when one names a role, the decision
// it makes.
func labelDecision(b *Block) (string, Decision, bool) {
	first := ""
	try := func(text, kind string) (Decision, bool) {
		if text == "" {
			return Decision{}, false
		}
		if first == "" {
			first = text
		}
		r, ok := labelRole(text)
		if !ok {
			return Decision{}, false
		}
		return Decision{Role: r, Evidence: ByLabel, Rule: kind + " names " + r.String(), Label: text}, true
	}
	for _, n := range slices.Backward(b.Notes) {
		if d, ok := try(n, "annotation (_annotate_tensor)"); ok {
			return first, d, true
		}
	}
	if d, ok := try(b.Meta, "user_metadata"); ok {
		return first, d, true
	}
	return first, Decision{}, false
}

// byStack decides by pool, frame rules and lifetime.
func (c *classifier) byStack(b *Block) Decision {
	p, ok := c.sc.Pools[b.Pool]
	if !ok {
		p = poolKind(b.Pool, nil, c.cache)
	}
	if p.Kind.Graph() {
		return Decision{Role: GraphPools, Evidence: ByFrame, Rule: rulePool}
	}
	st := c.cache.get(b.Stack)
	if st.empty {
		switch {
		case b.Alloc >= 0 && c.stacksRecorded:
			return c.byLifetime(b, st, backward)
		case b.Alloc >= 0:
			return Decision{Role: Unknown, Evidence: ByNothing, Rule: whyNotRecorded}
		case c.sc.HasTrace:
			return Decision{Role: Unknown, Evidence: ByNothing, Rule: whyBeforeWindow}
		}
		return Decision{Role: Unknown, Evidence: ByNothing, Rule: whyNoTrace}
	}
	ph, r := st.frameRule()
	if r != nil {
		if r.split != nil && st.line < c.lastLine[st.caller()] {
			return Decision{Role: r.split.role, Evidence: ByFrame, Rule: r.split.name}
		}
		if r.split != nil && len(r.split.lastNeeds) > 0 && !slices.ContainsFunc(r.split.lastNeeds, func(n Role) bool { return c.roleSeen[n] }) {
			return Decision{Role: Other, Evidence: ByNothing, Rule: r.split.lastElse}
		}
		return Decision{Role: r.role, Evidence: ByFrame, Rule: r.name}
	}
	if d, ok := st.byFX(ph); ok {
		return d
	}
	if ph == noPhase && len(st.py) == 0 {
		return Decision{Role: Other, Evidence: ByNothing, Rule: ruleCppOnly}
	}
	return c.byLifetime(b, st, ph)
}

// fxFrameRE reads one frame of an FX node's original trace, as Python
// formats a traceback: File "model.py", line 40, in forward.
var fxFrameRE = regexp.MustCompile(`File "([^"]+)", line (\d+), in (\S+)`)

// byFX decides a block allocated by FX-generated code (torch.compile) by
// the model code its FX node was traced from, a label that
// augment_with_fx_traces put on the frame: a frame rule matching that
// code decides, as a user label. Compiled backward code is left to its
// own frames.
func (st *stack) byFX(ph phase) (Decision, bool) {
	if len(st.fx) == 0 || ph == backward {
		return Decision{}, false
	}
	// What the node's trace says reads only the stack: decided once per
	// stack, not once per block (parsing the trace and reading its
	// frames).
	if !st.fxDecided {
		st.fxDecision, st.fxOK = fxDecision(st)
		st.fxDecided = true
	}
	return st.fxDecision, st.fxOK
}

// fxDecision is byFX's decision for a stack with an FX node outside the
// backward phase.
func fxDecision(st *stack) (Decision, bool) {
	fx := st.fx[0]
	label := "FX node " + fx.Name
	if fx.Target != "" {
		label += " (" + fx.Target + ")"
	}
	ost := readStack(fxFrames(fx.Trace))
	if _, r := ost.frameRule(); r != nil {
		return Decision{Role: r.role, Evidence: ByLabel, Rule: "FX node's model code: " + r.name, Label: label}, true
	}
	if r, ok := labelRole(fx.Name + " " + fx.Target); ok {
		return Decision{Role: r, Evidence: ByLabel, Rule: "FX node names " + r.String(), Label: label}, true
	}
	return Decision{}, false
}

// fxFrames reads the frames of an FX node's original trace, innermost
// first (a traceback lists the innermost frame last).
func fxFrames(trace string) []snapshot.Frame {
	var fs []snapshot.Frame
	for _, m := range fxFrameRE.FindAllStringSubmatch(trace, -1) {
		line, _ := strconv.Atoi(m[2])
		fs = append(fs, snapshot.Frame{File: m[1], Line: max(line, 1), Name: m[3]})
	}
	slices.Reverse(fs)
	return fs
}
