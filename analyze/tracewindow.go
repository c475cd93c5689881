package analyze

import (
	"log/slog"
	"slices"
	"strconv"
	"time"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// A snapshot's device_traces hold the last events of the caching
// allocator (a ring buffer of max_entries). Read on their own they give
// secondary evidence: the memory over the recorded window, the
// allocations made in it and never freed, and the allocator's state at
// an OOM. The snapshot's segments give the state at the end of the trace;
// undoing events from the end walks back in time exactly, since every
// event after a point is recorded.
//
// Sizes in trace events are the requested (unrounded) sizes; the
// allocator's blocks are rounded up to multiples of 512 bytes (roundUp),
// so replayed totals are exact to within that rounding, and large-pool
// blocks that kept an unsplit remainder of up to 1 MiB are counted at
// their requested size.

// MaxTimeline bounds TraceWindow.Timeline.
const MaxTimeline = 2000

// maxNeverFreed bounds TraceWindow.NeverFreed.
const maxNeverFreed = 50

// roundUp rounds a request to the allocator's 512-byte granularity (at
// least 512 bytes), as CUDACachingAllocator's round_size does without
// roundup_power2_divisions.
func roundUp(size int64) int64 { return snapshot.RoundedSize(size) }

// TraceOverflow reports whether device dev's trace ring buffer of s lost
// events, with the evidence:
//
//   - the settings say so (trace_alloc_overflowed, or as many entries as
//     trace_alloc_max_entries, in files that record them);
//   - the trace starts with frees of blocks it never saw allocated (their
//     alloc events were evicted, or recording began after them);
//   - its length is a round number (a power of ten from 1000, a multiple
//     of 1000 with one significant digit, or a power of two from 1024),
//     the kind of max_entries people pass. A one-event trace is not a
//     full ring buffer: recording with enabled="state" keeps one event,
//     which tells nothing of a history.
func TraceOverflow(s *snapshot.Snapshot, dev int) (Overflow, bool) {
	n := s.TraceEntries(dev)
	if n == 0 {
		return Overflow{}, false
	}
	o := Overflow{Entries: n}
	for _, kv := range s.Settings.Raw {
		switch kv.Key {
		case "trace_alloc_overflowed":
			if kv.Value == "True" || kv.Value == "true" || kv.Value == "1" {
				o.Rule = OverflowFlag
				return o, true
			}
		case "trace_alloc_max_entries":
			if m, err := strconv.Atoi(kv.Value); err == nil && m > 0 && n >= m {
				o.Rule = OverflowMaxEntries
				return o, true
			}
		}
	}
	// A digest has the count precomputed over snapshot.OverflowScan events.
	o.EarlyFrees = s.EarlyUnknownFrees(dev)
	switch {
	case o.EarlyFrees > 0:
		o.Rule = OverflowEarlyFrees
	case roundLength(n):
		o.Rule = OverflowRoundLength
	default:
		return Overflow{}, false
	}
	return o, true
}

func roundLength(n int) bool {
	if n >= 1024 && n&(n-1) == 0 {
		return true
	}
	if n < 1000 {
		return false
	}
	for n%10 == 0 {
		n /= 10
	}
	return n < 10
}

// TraceWindowOf analyses device dev's trace in file f: the allocated and
// reserved memory after each event (walked back from the snapshot's
// state, so blocks alive when the trace began count until the trace
// frees them, as in PyTorch's MemoryViz), the peak with the roles of the
// blocks alive then, the allocations never freed within the window,
// grouped by signature, and the frees of blocks older than the window. It
// returns nil when the trace has no event that allocates or frees. memo,
// when not nil, is the run's readings of its stacks (roles.StackMemo).
func TraceWindowOf(f *ingest.SnapshotFile, dev int, memo *roles.StackMemo) *TraceWindow {
	s, err := f.Full()
	if err != nil {
		slog.Warn("no trace window: the snapshot no longer decodes", "file", f.Path, "err", err)
		return nil
	}
	if dev < 0 || dev >= len(s.Traces) {
		return nil
	}
	tr := s.Traces[dev]
	if !slices.ContainsFunc(tr, func(e snapshot.TraceEntry) bool { a, r := eventDelta(&e); return a != 0 || r != 0 }) {
		return nil
	}
	solo := soloFrees(tr)
	u := DeviceUsage(s, dev)
	w := &TraceWindow{Path: f.Path, Entries: len(tr)}
	if tr[0].TimeUS > 0 {
		w.Start = time.UnixMicro(tr[0].TimeUS).UTC()
	}
	if tr[len(tr)-1].TimeUS > 0 {
		w.End = time.UnixMicro(tr[len(tr)-1].TimeUS).UTC()
	}

	// Walk back: after[i] is the memory after event i; a, after the
	// loop, the memory before the first event.
	alloc := make([]int64, len(tr))
	res := make([]int64, len(tr))
	a, r := u.Allocated, u.Reserved
	negative := false
	for i := len(tr) - 1; i >= 0; i-- {
		alloc[i], res[i] = a, r
		da, dr := eventDelta(&tr[i])
		if solo[i] {
			da = -roundUp(tr[i].Size)
		}
		a -= da
		r -= dr
		negative = negative || a < 0
	}
	peak := &TracePeak{Allocated: a, Index: -1}
	for i := range alloc {
		if alloc[i] > peak.Allocated {
			peak.Allocated, peak.Index = alloc[i], i
		}
	}
	if t := tr[max(peak.Index, 0)].TimeUS; t > 0 {
		peak.Time = time.UnixMicro(t).UTC()
	}
	w.Timeline = downsampleTimeline(tr, alloc, res, MaxTimeline)

	// Walk forward: what was allocated in the window and never freed.
	type live struct {
		size  int64
		stack snapshot.StackID
		at    int // the event that allocated it
	}
	open := map[uint64]live{}
	var order []uint64
	for i := range tr {
		e := &tr[i]
		switch e.Action {
		case snapshot.ActionAlloc:
			if _, ok := open[e.Addr]; !ok {
				order = append(order, e.Addr)
			}
			open[e.Addr] = live{roundUp(e.Size), e.Stack, i}
		case snapshot.ActionFreeRequested, snapshot.ActionFreeCompleted:
			if e.Action == snapshot.ActionFreeCompleted && !solo[i] {
				continue
			}
			if _, ok := open[e.Addr]; ok {
				delete(open, e.Addr)
			} else {
				w.UnknownFrees++
			}
		}
	}
	cache := newSignatureCache(&s.Stacks)
	accs := map[string]*groupAcc{}
	liveAt := map[uint64]bool{}
	for b := range liveBlocks(s, dev) {
		liveAt[b.Address] = true
	}
	var stray []int64
	part := windowParts(tr)
	spreads := map[string][]int64{}
	// made are each group's never-freed allocations: event and bytes.
	type made struct {
		at   int
		size int64
	}
	madeBy := map[string][]made{}
	for _, addr := range order {
		l, ok := open[addr]
		if !ok {
			continue
		}
		if !liveAt[addr] {
			stray = append(stray, l.size)
		}
		delete(open, addr) // an address re-allocated after a free counts once
		sig := cache.get(l.stack)
		g := accs[sig.Key]
		if g == nil {
			g = &groupAcc{sig: sig}
			accs[sig.Key] = g
		}
		g.add(l.size, l.stack)
		w.NeverFreedBytes += l.size
		w.NeverFreedBlocks++
		madeBy[sig.Key] = append(madeBy[sig.Key], made{l.at, l.size})
		sp := spreads[sig.Key]
		if sp == nil {
			sp = make([]int64, WindowParts)
			spreads[sig.Key] = sp
		}
		sp[part(l.at)] += l.size
	}
	for key, g := range accs {
		lg := g.liveGroup(&s.Stacks)
		sp := spreads[key]
		for k := 1; k < len(sp); k++ {
			sp[k] += sp[k-1]
		}
		lg.Spread = sp
		w.NeverFreed = append(w.NeverFreed, lg)
	}
	sortLiveGroups(w.NeverFreed)
	if len(w.NeverFreed) > maxNeverFreed {
		w.NeverFreed = w.NeverFreed[:maxNeverFreed]
	}
	// The steps each stream of a few allocations or more saw go by
	// (turnovers): what tells a stream over steps from one pass's
	// activations (windowleak.go).
	kept := make([]int64, len(tr))
	for i := range w.NeverFreed {
		g := &w.NeverFreed[i]
		ms := madeBy[g.Key]
		if len(ms) < DefaultMinPoints {
			continue
		}
		clear(kept)
		for _, m := range ms {
			kept[m.at] += m.size
		}
		g.Turnovers = turnovers(alloc, kept)
	}
	peak.Stray, peak.OverFreed = len(stray), negative
	for _, b := range stray {
		peak.StrayBytes += b
	}
	if peak.Allocated < w.NeverFreedBytes {
		// The walk back undid allocations the segments never held: the
		// peak is at least what the trace leaves alive.
		peak.Allocated, peak.Index, peak.Time, peak.LowerBound = w.NeverFreedBytes, len(tr)-1, w.End, true
	}
	w.PeakAllocated = peak.Allocated
	if !peak.LowerBound {
		if sc := roles.SceneAt(s, dev, peak.Index); sc != nil {
			sc.Memo = memo
			peak.Roles = roles.ClassifyBreakdown(sc)
		}
	}
	w.Peak = peak
	return w
}

// WindowParts is how many equal parts of a trace window the allocations
// of each never-freed group are counted in (LiveGroup.Spread), the
// points a steady stream is fitted on (windowleak.go). 20: the trend
// rules then see the stream's shape at a twentieth of the window, a
// warm-up prefix (up to a third) in six or seven parts and the "not
// stopped" test's last third in seven, and a steady stream reaches the
// suspects' 0.1% level of Mann-Kendall, which seven strictly rising
// points already do.
const WindowParts = 20

// windowParts returns the part of the window (0 to WindowParts-1) each
// event of tr falls in: by its time when the trace has times that span
// some time, else by its position in the trace.
func windowParts(tr []snapshot.TraceEntry) func(i int) int {
	n := len(tr)
	first, last := tr[0].TimeUS, tr[n-1].TimeUS
	clamp := func(k int) int { return min(max(k, 0), WindowParts-1) }
	if first > 0 && last > first {
		return func(i int) int {
			return clamp(int(float64(tr[i].TimeUS-first) / float64(last-first) * WindowParts))
		}
	}
	return func(i int) int {
		if n < 2 {
			return 0
		}
		return clamp(int(float64(i) / float64(n-1) * WindowParts))
	}
}

// turnovers counts how often the window's memory turns over, the training
// steps it shows: the allocated memory after each event (alloc), less one
// group's never-freed bytes allocated up to it (kept, by event), falls by at
// least half its range over the window from the highest point since the
// last fall. A step's activations and temporaries are made and freed
// within it, so its memory rises and falls once; a window inside one
// step (a forward pass, whose activations stay alive into backward) rises
// without falling back: the other groups' activations pile up beside the
// group's, and only the group's own bytes are taken out. Half the range: a step frees most of what it
// made (the activations, most of a step's memory), while the frees within
// a pass (a temporary here and there) are a small part of the range.
//
// A fall counts as a step only when it frees more than maxCopyRatio times
// the group's bytes kept since the last fall: a fall no larger is the
// source of a copy into the group's blocks being freed (a checkpoint
// loaded shard by shard: each shard read into a temporary, copied into
// its parameter, the temporary freed), not a step whose own memory the
// group's blocks outlive.
func turnovers(alloc, kept []int64) int {
	rest := make([]int64, len(alloc))
	var sum int64
	for i := range alloc {
		sum += kept[i]
		rest[i] = alloc[i] - sum
	}
	return len(falls(rest, kept))
}

// falls returns the indexes at which series level falls by at least half
// its range (highest less lowest) from the highest point since the last
// such fall: the turnovers of a stream's memory (turnovers), each a step
// that made its activations and temporaries and freed them. With kept (the
// stream's bytes kept at each point; nil for none), a fall counts only
// when it frees more than maxCopyRatio times what the stream kept since
// the last fall, so a loader freeing each copy's source is no step.
func falls(level, kept []int64) []int {
	if len(level) == 0 {
		return nil
	}
	lo, hi := slices.Min(level), slices.Max(level)
	half := (hi - lo) / 2
	if half <= 0 {
		return nil
	}
	var at []int
	top := level[0]
	var cycle int64 // the stream's bytes kept since the last fall
	for i, r := range level {
		if kept != nil {
			cycle += kept[i]
		}
		switch {
		case r > top:
			top = r
		case top-r >= half:
			if kept == nil || top-r > maxCopyRatio*cycle {
				at = append(at, i)
			}
			top, cycle = r, 0
		}
	}
	return at
}

// maxCopyRatio bounds what a copy's source is against what it fills
// (turnovers): a loader reads a tensor in its file's dtype and copies it
// into a parameter of the model's, the temporary being the parameter's
// size times the ratio of the two widths, at most 4 (fp32 read into an
// 8-bit parameter); temporaries of a few conversions in a row stay under
// it too (fp32 to bf16: 2 then 1). A training step's activations are
// many times what a leak keeps of each step.
const maxCopyRatio = 4

// TracePeak is the moment of a trace window's peak allocated memory and
// what held it.
type TracePeak struct {
	// Allocated is the allocated memory at the peak, bytes
	// (TraceWindow.PeakAllocated).
	Allocated int64
	// Index is the event after which the peak holds; -1 when the peak is
	// the state before the first event (blocks alive when the trace
	// began, which it then frees).
	Index int
	// Time is that event's time (the first event's for -1); zero when the
	// trace records no time_us.
	Time time.Time
	// LowerBound reports that the trace and the segments disagree and the
	// peak is only known to be at least Allocated (what the trace leaves
	// alive); Roles are then not given.
	LowerBound bool
	// Roles are the roles of the blocks alive at the peak, replayed from
	// the trace (roles.SceneAt); they sum to Allocated to within the
	// allocator's rounding of requests in large-pool blocks.
	Roles roles.Breakdown
	// Stray and StrayBytes are the allocations the trace leaves alive
	// that are no live block of the snapshot's segments (count, bytes),
	// and OverFreed is true when, walked back from the segments' blocks,
	// the trace frees more than was allocated: either says the file was
	// trimmed or edited. All are zero when the trace and segments agree.
	Stray      int
	StrayBytes int64
	OverFreed  bool
}

// soloFrees marks the free_completed events of tr that free an
// allocation by themselves: those without a free_requested of their
// address before them since its last alloc (the ring buffer dropped it).
func soloFrees(tr []snapshot.TraceEntry) []bool {
	solo := make([]bool, len(tr))
	requested := map[uint64]bool{}
	for i := range tr {
		e := &tr[i]
		switch e.Action {
		case snapshot.ActionFreeRequested:
			requested[e.Addr] = true
		case snapshot.ActionFreeCompleted:
			if requested[e.Addr] {
				delete(requested, e.Addr)
			} else {
				solo[i] = true
			}
		case snapshot.ActionAlloc:
			delete(requested, e.Addr)
		}
	}
	return solo
}

// eventDelta is the change an event makes to allocated and reserved
// bytes.
func eventDelta(e *snapshot.TraceEntry) (alloc, reserved int64) {
	switch e.Action {
	case snapshot.ActionAlloc:
		return roundUp(e.Size), 0
	case snapshot.ActionFreeRequested:
		return -roundUp(e.Size), 0
	case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
		return 0, e.Size
	case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
		return 0, -e.Size
	}
	return 0, 0
}

// downsampleTimeline keeps at most maxPoints+1 points: the trace is cut
// into maxPoints/2 buckets and each keeps its lowest and highest allocated
// point, so peaks and troughs survive, and the last event is always kept.
func downsampleTimeline(tr []snapshot.TraceEntry, alloc, res []int64, maxPoints int) []TimelinePoint {
	n := len(tr)
	pt := func(i int) TimelinePoint {
		return TimelinePoint{Index: i, TimeUS: tr[i].TimeUS, Allocated: alloc[i], Reserved: res[i]}
	}
	if n <= maxPoints {
		out := make([]TimelinePoint, n)
		for i := range out {
			out[i] = pt(i)
		}
		return out
	}
	buckets := maxPoints / 2
	out := make([]TimelinePoint, 0, maxPoints)
	for b := range buckets {
		lo, hi := b*n/buckets, (b+1)*n/buckets
		mi, ma := lo, lo
		for i := lo; i < hi; i++ {
			if alloc[i] < alloc[mi] {
				mi = i
			}
			if alloc[i] > alloc[ma] {
				ma = i
			}
		}
		out = append(out, pt(min(mi, ma)))
		if mi != ma {
			out = append(out, pt(max(mi, ma)))
		}
	}
	if out[len(out)-1].Index != n-1 {
		out = append(out, pt(n-1)) // the end is the snapshot's own state
	}
	return out
}

// valid reports whether a trace window read back from a cache is one its
// readers can use: no negative count or size, the peak's roles valid (they
// index tables by role), and each never-freed group's user marks one a
// frame.
func (w *TraceWindow) valid() bool {
	if w.Entries < 0 || w.UnknownFrees < 0 || w.NeverFreedBytes < 0 || w.NeverFreedBlocks < 0 {
		return false
	}
	if p := w.Peak; p != nil && (!p.Roles.Valid() || p.Index < -1 || p.Index >= w.Entries || p.Stray < 0) {
		return false
	}
	for _, g := range w.NeverFreed {
		if g.Bytes < 0 || g.Blocks < 0 || g.User != nil && len(g.User) != len(g.Stack) || g.Turnovers < 0 ||
			g.Spread != nil && len(g.Spread) != WindowParts {
			return false
		}
	}
	return true
}
