package snapshot

import (
	"unique"
)

// A digest is a snapshot reduced to what the analysis of a whole run reads
// from every file: the segments and blocks (usage, pools, fragmentation,
// live memory per stack), the stacks those blocks and the OOM events name,
// the allocator settings, and a summary of each device's trace (its
// length, latest time, OOM events, the frees of blocks allocated before
// it, and what it says of the live blocks: which were allocated in it,
// with the user_metadata and annotations put on them, for their roles).
// Pinned host memory is kept the same way: its segments, and a summary of
// its trace. The trace itself, usually 90% or more of a decoded snapshot,
// is dropped. A digest is an ordinary *Snapshot whose Digest field is set,
// so every computation over segments gives the same numbers on both; the
// few that need the trace (the trace window of the last snapshot, the
// state replayed at an OOM) decode the file again with SnapshotFile.Full,
// one file at a time.

// OverflowScan is how many leading trace events are searched for frees of
// blocks the trace never saw allocated (a sign the ring buffer dropped its
// start). 4096 events: a few training steps of a real trace, enough to see
// the steady state's frees, cheap to scan.
const OverflowScan = 4096

// Digest summarises the trace and annotations that Reduce dropped from a
// snapshot.
type Digest struct {
	// LatestUS is the snapshot's LatestTimeUS before reduction
	// (microseconds since the Unix epoch, UTC; 0 when it has no times).
	LatestUS int64
	// Traces summarises each device's trace, indexed like Snapshot.Traces;
	// nil when the file has no device_traces.
	Traces []TraceDigest
	// Host summarises the pinned host allocator's trace (host_traces);
	// nil when the file has none.
	Host *TraceDigest
	// SegmentsUnread says that the devices' segments were not read
	// (DecodeDigestWithoutSegments): Snapshot.Segments is nil whatever
	// the file held.
	SegmentsUnread bool
}

// TraceDigest summarises one device's trace ring buffer.
type TraceDigest struct {
	// Entries is the number of events.
	Entries int
	// UnknownFrees counts, among the first OverflowScan events, frees of
	// addresses not allocated earlier in the trace.
	UnknownFrees int
	// OOMs are the trace's OOM events with their index in the trace.
	OOMs []IndexedEntry
	// LastAlloc is the index of the trace's last event that allocated or
	// mapped memory (alloc, segment_alloc, segment_map), -1 when none:
	// with OOMs it tells whether the trace ends at an OOM.
	LastAlloc int
	// Live is what the trace says of the device's live blocks that were
	// allocated in it (Snapshot.BlockTraces), by address.
	Live []BlockTrace
	// Window is the trace's time range and a sample of its events' keys
	// (TraceWindow), which tells one process's dumps from another's.
	Window TraceWindow
}

// IndexedEntry is a trace event and its index in its device's trace.
type IndexedEntry struct {
	// Index is the event's position in the device's trace, from 0.
	Index int
	TraceEntry
}

// UnknownFrees counts, among the first limit events of tr, frees of
// addresses not allocated earlier in the trace.
func UnknownFrees(tr []TraceEntry, limit int) int {
	// Sized for the events scanned: grown from empty they were rehashed
	// a dozen times for every file's trace.
	scan := min(len(tr), limit)
	seen := make(map[uint64]bool, scan)
	counted := map[uint64]bool{}
	n := 0
	for i := range tr[:scan] {
		e := &tr[i]
		switch e.Action {
		case ActionAlloc:
			seen[e.Addr] = true
		case ActionFreeRequested, ActionFreeCompleted:
			if !seen[e.Addr] && !counted[e.Addr] {
				counted[e.Addr] = true
				n++
			}
		}
	}
	return n
}

// OOMEntries returns device dev's OOM events with their trace indexes,
// from the trace or, for a digest, from its summary.
func (s *Snapshot) OOMEntries(dev int) []IndexedEntry {
	td, tr := s.traceOf(dev)
	if td != nil {
		return td.OOMs
	}
	var out []IndexedEntry
	for i, e := range tr {
		if e.Action == ActionOOM {
			out = append(out, IndexedEntry{Index: i, TraceEntry: e})
		}
	}
	return out
}

// EarlyUnknownFrees is UnknownFrees over the first OverflowScan events of
// device dev's trace, from the trace or the digest.
func (s *Snapshot) EarlyUnknownFrees(dev int) int {
	td, tr := s.traceOf(dev)
	if td != nil {
		return td.UnknownFrees
	}
	return UnknownFrees(tr, OverflowScan)
}

// traceOf returns device dev's trace summary when s is a digest, else its
// trace; both are nil when the device has none.
func (s *Snapshot) traceOf(dev int) (*TraceDigest, []TraceEntry) {
	if s.Digest != nil {
		if dev < 0 || dev >= len(s.Digest.Traces) {
			return nil, nil
		}
		return &s.Digest.Traces[dev], nil
	}
	if dev < 0 || dev >= len(s.Traces) {
		return nil, nil
	}
	return nil, s.Traces[dev]
}

// Reduce returns the digest of s: a new Snapshot with the same generation,
// settings, segments and host segments, only the stacks that the
// segments, blocks and OOM events use (renumbered; frame text interned
// process-wide so that the digests of a run share it), only the
// user_metadata texts the live blocks' BlockTraces name (renumbered), no
// trace and no annotations, and Digest set. s is not modified. Reducing a
// digest returns it.
func Reduce(s *Snapshot) *Snapshot {
	return reduce(s, nil)
}

// reduce is Reduce; with r, its stack table, segments and blocks are
// r's arrays (and its lookups r's maps), which the digest holds until
// Sharer.share copies what it keeps out of them.
func reduce(s *Snapshot, r *reduceArrays) *Snapshot {
	if s.Digest != nil {
		return s
	}
	d := &Snapshot{Generation: s.Generation, Settings: s.Settings, Digest: &Digest{LatestUS: s.LatestTimeUS()}}
	// Empty lists are nil in a digest, as DecodeDigest makes them.
	d.Settings.Raw = nil
	for _, kv := range s.Settings.Raw {
		d.Settings.Raw = append(d.Settings.Raw, KeyValue{Key: intern(kv.Key), Value: intern(kv.Value)})
	}
	d.Settings.Conf = intern(s.Settings.Conf)
	// Stacks and frames are renumbered in the order the segments use
	// them; each distinct frame is interned once (a stack repeats most of
	// its frames in thousands of others).
	remap, frameIDs := r.lookups(s.Stacks.Len(), len(s.Stacks.Frames)) // frameIDs: new ID plus one; 0: not yet
	r.lendStacks(&d.Stacks)
	var frames []FrameID
	stack := func(id StackID) StackID {
		if id == NoStack || int(id) >= len(remap) {
			return NoStack
		}
		if n := remap[id]; n != NoStack {
			return n
		}
		frames = frames[:0]
		for _, f := range s.Stacks.Stack(id) {
			if frameIDs[f] == 0 {
				fr := s.Stacks.Frames[f]
				fx := FXNode{Op: intern(fr.FX.Op), Name: intern(fr.FX.Name), Target: intern(fr.FX.Target), Trace: intern(fr.FX.Trace)}
				frameIDs[f] = d.Stacks.InternFrame(Frame{File: intern(fr.File), Line: fr.Line, Name: intern(fr.Name), FX: fx}) + 1
			}
			frames = append(frames, frameIDs[f]-1)
		}
		// Added without a lookup: s's stacks are distinct frame
		// sequences of distinct frames (every table is interned: the
		// decoder's internStack, InternStack, InternFrame), and its
		// frames map one to one onto d's, so no stack met here can equal
		// one added before. Hashing each into InternStack's index cost a
		// third of a reduction.
		n := d.Stacks.add(frames)
		remap[id] = n
		return n
	}
	// The digest keeps most of the stacks of a skimmed s (a load's: its
	// table holds only the blocks' and OOM events' stacks): sized for all
	// of them, its table is allocated once instead of doubled a dozen
	// times in fresh memory, and trimmed at the end if it kept much less
	// (a full decode's table also holds the trace's stacks); a borrowed
	// table is reserved in r's arrays, and Sharer.share copies it to its
	// size when it keeps it.
	d.Stacks.reserve(s.Stacks.Len()-1, len(s.Stacks.ids))
	d.Segments = reduceSegments(s.Segments, stack, r)
	d.HostSegments = reduceSegments(s.HostSegments, stack, nil)
	var meta metaTable
	metaOf := func(id MetaID) MetaID { return meta.id(s.MetaText(id)) }
	live := func(bts []BlockTrace) []BlockTrace {
		var out []BlockTrace
		for _, bt := range bts {
			bt.Meta = metaOf(bt.Meta)
			notes := bt.Notes
			bt.Notes = nil
			for _, n := range notes {
				bt.Notes = append(bt.Notes, metaOf(n))
			}
			out = append(out, bt)
		}
		return out
	}
	digestOf := func(tr []TraceEntry, segs []*Segment, dev int) TraceDigest {
		td := TraceDigest{Entries: len(tr), UnknownFrees: UnknownFrees(tr, OverflowScan), LastAlloc: lastAlloc(tr), Window: WindowOf(tr)}
		for i, e := range tr {
			if e.Action == ActionOOM {
				e.Stack, e.Meta = stack(e.Stack), metaOf(e.Meta)
				td.OOMs = append(td.OOMs, IndexedEntry{Index: i, TraceEntry: e})
			}
		}
		td.Live = live(liveOf(tr, segs, dev))
		return td
	}
	if s.skimmed != nil {
		// A skim keeps its OOM events, whose stacks and texts are
		// renumbered in the order digestOf does.
		d.Digest.Traces = make([]TraceDigest, len(s.skimmed))
		for dev, td := range s.skimmed {
			ooms := td.OOMs
			td.OOMs = nil
			for _, e := range ooms {
				e.Stack, e.Meta = stack(e.Stack), metaOf(e.Meta)
				td.OOMs = append(td.OOMs, e)
			}
			td.Live = live(td.Live)
			d.Digest.Traces[dev] = td
		}
	} else if s.Traces != nil {
		d.Digest.Traces = make([]TraceDigest, len(s.Traces))
		for dev, tr := range s.Traces {
			d.Digest.Traces[dev] = digestOf(tr, s.Segments, dev)
		}
	}
	if s.HostTrace != nil {
		td := digestOf(s.HostTrace, s.HostSegments, HostDevice)
		d.Digest.Host = &td
	}
	d.Meta = meta.texts
	d.Pools = s.Pools
	for _, n := range s.Notes {
		n.Place, n.Problem, n.Assumed = intern(n.Place), intern(n.Problem), intern(n.Assumed)
		d.Notes = append(d.Notes, n)
	}
	if r != nil {
		r.keepStacks(&d.Stacks)
	} else {
		d.Stacks.trim()
	}
	d.Stacks.Seal()
	return d
}

// reduceSegments copies segs with their stacks renumbered by stack, the
// blocks of all segments in one array (r's arrays when r is not nil);
// nil for none.
func reduceSegments(segs []*Segment, stack func(StackID) StackID, r *reduceArrays) []*Segment {
	if len(segs) == 0 {
		return nil
	}
	nblocks := 0
	for i := range segs {
		nblocks += len(segs[i].Blocks)
	}
	out, blocks := r.segmentArrays(len(segs), nblocks)
	for i := range segs {
		seg := *segs[i]
		seg.Stack = stack(seg.Stack)
		start := len(blocks)
		for _, b := range seg.Blocks {
			b.Stack = stack(b.Stack)
			blocks = append(blocks, b)
		}
		seg.Blocks = nil
		if len(blocks) > start {
			seg.Blocks = blocks[start:len(blocks):len(blocks)]
		}
		out[i] = seg
	}
	return pointers(out)
}

// lastAlloc is the index of tr's last event that allocated or mapped
// memory, -1 when none.
func lastAlloc(tr []TraceEntry) int {
	for i := len(tr) - 1; i >= 0; i-- {
		switch tr[i].Action {
		case ActionAlloc, ActionSegmentAlloc, ActionSegmentMap:
			return i
		}
	}
	return -1
}

// TraceEndsAtOOM reports whether device dev's trace holds an OOM event
// after which nothing was allocated or mapped (only frees as the failed
// step unwound): the file was written by an OOM observer or an except
// handler, in the middle of the failing step. It reads the trace or, for
// a digest, its summary.
func (s *Snapshot) TraceEndsAtOOM(dev int) bool {
	ooms := s.OOMEntries(dev)
	if len(ooms) == 0 {
		return false
	}
	last := -1
	if s.Digest != nil {
		last = s.Digest.Traces[dev].LastAlloc
	} else {
		last = lastAlloc(s.Traces[dev])
	}
	return ooms[len(ooms)-1].Index > last
}

// AllocatesAfter reports whether device dev's trace allocated or mapped
// memory after its event at index idx (LastAlloc, from the trace or, for
// a digest, its summary).
func (s *Snapshot) AllocatesAfter(dev, idx int) bool {
	last := -1
	switch {
	case s.Digest != nil:
		if dev >= 0 && dev < len(s.Digest.Traces) {
			last = s.Digest.Traces[dev].LastAlloc
		}
	case dev >= 0 && dev < len(s.Traces):
		last = lastAlloc(s.Traces[dev])
	}
	return last > idx
}

// intern returns the canonical copy of str: the digests of a run repeat
// the same file and function names thousands of times, and the copy also
// frees the decode buffer the original may point into.
func intern(str string) string {
	if str == "" {
		return ""
	}
	return unique.Make(str).Value()
}
