package analyze

import (
	"cmp"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"gpureport/ingest"
	"gpureport/internal/units"
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
//   - its length is a round number (1, a power of ten, a multiple of
//     1000 with one significant digit, or a power of two from 1024), the
//     kind of max_entries people pass.
func TraceOverflow(s *snapshot.Snapshot, dev int) (bool, string) {
	n := s.TraceEntries(dev)
	if n == 0 {
		return false, ""
	}
	for _, kv := range s.Settings.Raw {
		switch kv.Key {
		case "trace_alloc_overflowed":
			if kv.Value == "True" || kv.Value == "true" || kv.Value == "1" {
				return true, "allocator_settings.trace_alloc_overflowed is set"
			}
		case "trace_alloc_max_entries":
			if m, err := strconv.Atoi(kv.Value); err == nil && m > 0 && n >= m {
				return true, fmt.Sprintf("the trace holds %s, trace_alloc_max_entries", units.CountOf(n, "event"))
			}
		}
	}
	// A digest has the count precomputed over snapshot.OverflowScan events.
	unknown := s.EarlyUnknownFrees(dev)
	switch {
	case unknown > 0:
		return true, fmt.Sprintf("the trace starts with frees of %s allocated before it (its %s are the end of a longer history: the ring buffer was full or recording began late)", units.CountOf(unknown, "block"), units.CountOf(n, "event"))
	case roundLength(n):
		return true, fmt.Sprintf("the trace holds exactly %s, a typical max_entries: the ring buffer is probably full", units.CountOf(n, "event"))
	}
	return false, ""
}

func roundLength(n int) bool {
	if n == 1 {
		return true
	}
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
// state), the allocations never freed within the window, grouped by
// signature, and the frees of blocks older than the window. It returns nil
// when the trace has no allocation events.
func TraceWindowOf(f *ingest.SnapshotFile, dev int) *TraceWindow {
	s, err := f.Full()
	if err != nil {
		slog.Warn("no trace window: the snapshot no longer decodes", "file", f.Path, "err", err)
		return nil
	}
	if dev < 0 || dev >= len(s.Traces) {
		return nil
	}
	tr := s.Traces[dev]
	allocs := 0
	for i := range tr {
		if tr[i].Action == snapshot.ActionAlloc {
			allocs++
		}
	}
	if allocs == 0 {
		return nil
	}
	u := DeviceUsage(s, dev)
	w := &TraceWindow{Path: f.Path, Entries: len(tr)}
	if tr[0].TimeUS > 0 {
		w.Start = time.UnixMicro(tr[0].TimeUS).UTC()
	}
	if tr[len(tr)-1].TimeUS > 0 {
		w.End = time.UnixMicro(tr[len(tr)-1].TimeUS).UTC()
	}

	// Walk back: after[i] is the memory after event i.
	alloc := make([]int64, len(tr))
	res := make([]int64, len(tr))
	a, r := u.Allocated, u.Reserved
	for i := len(tr) - 1; i >= 0; i-- {
		alloc[i], res[i] = a, r
		da, dr := eventDelta(&tr[i])
		a -= da
		r -= dr
	}
	for i := range alloc {
		w.PeakAllocated = max(w.PeakAllocated, alloc[i])
	}
	w.Timeline = downsampleTimeline(tr, alloc, res, MaxTimeline)

	// Walk forward: what was allocated in the window and never freed.
	type live struct {
		size  int64
		stack snapshot.StackID
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
			open[e.Addr] = live{roundUp(e.Size), e.Stack}
		case snapshot.ActionFreeRequested:
			if _, ok := open[e.Addr]; ok {
				delete(open, e.Addr)
			} else {
				w.UnknownFrees++
			}
		}
	}
	cache := newSignatureCache(&s.Stacks)
	accs := map[string]*groupAcc{}
	for _, addr := range order {
		l, ok := open[addr]
		if !ok {
			continue
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
	}
	for _, g := range accs {
		w.NeverFreed = append(w.NeverFreed, g.liveGroup(&s.Stacks))
	}
	sortLiveGroups(w.NeverFreed)
	if len(w.NeverFreed) > maxNeverFreed {
		w.NeverFreed = w.NeverFreed[:maxNeverFreed]
	}
	return w
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

// memState is a device's allocator memory rebuilt at some point of a
// trace: reserved ranges cut into live, pending and free pieces.
type memState struct {
	pieces []piece // sorted by start
}

type pieceState uint8

const (
	pieceFree pieceState = iota
	pieceLive
	piecePending
)

type piece struct {
	start, end uint64
	state      pieceState
	seg        int // segment identity: pieces of different segments never merge
	expandable bool
	large      bool
	stack      snapshot.StackID
}

// stateAt rebuilds device dev's memory just after trace event cut, by
// undoing every later event from the snapshot's state. It also returns
// the bytes freed after cut.
func stateAt(s *snapshot.Snapshot, dev, cut int) (*memState, int64) {
	m := &memState{}
	for i, seg := range deviceSegments(s, dev) {
		for j := range seg.Blocks {
			b := &seg.Blocks[j]
			st := pieceFree
			switch b.State {
			case snapshot.StateActiveAllocated:
				st = pieceLive
			case snapshot.StateActivePendingFree:
				st = piecePending
			}
			m.pieces = append(m.pieces, piece{start: b.Address, end: b.Address + uint64(b.Size), state: st, seg: i,
				expandable: seg.Expandable, large: seg.Pool != snapshot.PoolSmall, stack: b.Stack})
		}
	}
	slices.SortFunc(m.pieces, func(a, b piece) int { return cmp.Compare(a.start, b.start) })
	var freed int64
	tr := s.Traces[dev]
	// The stack of each freed block is its latest alloc's.
	allocStack := map[uint64]snapshot.StackID{}
	freeStack := map[int]snapshot.StackID{}
	for i := range tr {
		e := &tr[i]
		switch e.Action {
		case snapshot.ActionAlloc:
			allocStack[e.Addr] = e.Stack
		case snapshot.ActionFreeRequested:
			if i > cut {
				st, ok := allocStack[e.Addr]
				if !ok {
					st = e.Stack
				}
				freeStack[i] = st
			}
		}
	}
	for i := len(tr) - 1; i > cut; i-- {
		e := &tr[i]
		size := uint64(roundUp(e.Size))
		switch e.Action {
		case snapshot.ActionAlloc:
			m.set(e.Addr, e.Addr+size, pieceFree, snapshot.NoStack)
		case snapshot.ActionFreeRequested:
			freed += int64(size)
			m.set(e.Addr, e.Addr+size, pieceLive, freeStack[i])
		case snapshot.ActionFreeCompleted:
			m.set(e.Addr, e.Addr+size, piecePending, snapshot.NoStack)
		case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
			m.remove(e.Addr, e.Addr+uint64(e.Size))
		case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
			m.add(e.Addr, e.Addr+uint64(e.Size), e.Action == snapshot.ActionSegmentUnmap)
		}
	}
	return m, freed
}

// set gives [lo, hi) the state st (and stack), splitting pieces at the
// ends. Ranges outside every piece are ignored.
func (m *memState) set(lo, hi uint64, st pieceState, stack snapshot.StackID) {
	m.cut(lo, hi, func(q *piece) { q.state, q.stack = st, stack })
}

// remove drops [lo, hi) from the reserved ranges.
func (m *memState) remove(lo, hi uint64) { m.cut(lo, hi, nil) }

// cut splits the pieces that overlap [lo, hi) at its ends; the part
// inside is dropped, or kept as change leaves it when change is not nil.
func (m *memState) cut(lo, hi uint64, change func(*piece)) {
	var out []piece
	for _, p := range m.pieces {
		if p.end <= lo || p.start >= hi {
			out = append(out, p)
			continue
		}
		if p.start < lo {
			q := p
			q.end = lo
			out = append(out, q)
		}
		if change != nil {
			q := p
			q.start, q.end = max(p.start, lo), min(p.end, hi)
			change(&q)
			out = append(out, q)
		}
		if p.end > hi {
			q := p
			q.start = hi
			out = append(out, q)
		}
	}
	m.pieces = out
}

// add reserves [lo, hi) as free memory. A range re-mapped into an
// expandable segment joins the neighbouring segment's identity.
func (m *memState) add(lo, hi uint64, expandable bool) {
	m.remove(lo, hi)
	p := piece{start: lo, end: hi, state: pieceFree, seg: -1 - len(m.pieces), expandable: expandable, large: true}
	i, _ := slices.BinarySearchFunc(m.pieces, lo, func(a piece, t uint64) int { return cmp.Compare(a.start, t) })
	if expandable {
		if i > 0 && m.pieces[i-1].end == lo && m.pieces[i-1].expandable {
			p.seg = m.pieces[i-1].seg
		} else if i < len(m.pieces) && m.pieces[i].start == hi && m.pieces[i].expandable {
			p.seg = m.pieces[i].seg
		}
	}
	m.pieces = slices.Insert(m.pieces, i, p)
}

// totals returns reserved, allocated (live) and active bytes.
func (m *memState) totals() (reserved, allocated, active int64) {
	for _, p := range m.pieces {
		sz := int64(p.end - p.start)
		reserved += sz
		switch p.state {
		case pieceLive:
			allocated += sz
			active += sz
		case piecePending:
			active += sz
		}
	}
	return
}

// largestFree returns the largest contiguous free range, merging adjacent
// free pieces of one segment (or of neighbouring expandable mappings);
// large selects the large pool (requests over 1 MiB) or the small one.
func (m *memState) largestFree(large bool) int64 {
	var best, run int64
	var prev *piece
	for i := range m.pieces {
		p := &m.pieces[i]
		if p.state != pieceFree || p.large != large {
			run, prev = 0, nil
			continue
		}
		if prev != nil && prev.end == p.start && (prev.seg == p.seg || (prev.expandable && p.expandable)) {
			run += int64(p.end - p.start)
		} else {
			run = int64(p.end - p.start)
		}
		best = max(best, run)
		prev = p
	}
	return best
}

// liveGroups groups the live pieces by signature, largest first.
func (m *memState) liveGroups(st *snapshot.Stacks) []LiveGroup {
	cache := newSignatureCache(st)
	accs := map[string]*groupAcc{}
	for _, p := range m.pieces {
		if p.state != pieceLive {
			continue
		}
		sig := cache.get(p.stack)
		g := accs[sig.Key]
		if g == nil {
			g = &groupAcc{sig: sig}
			accs[sig.Key] = g
		}
		g.add(int64(p.end-p.start), p.stack)
	}
	out := make([]LiveGroup, 0, len(accs))
	for _, g := range accs {
		out = append(out, g.liveGroup(st))
	}
	sortLiveGroups(out)
	return out
}
