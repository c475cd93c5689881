package analyze

import (
	"cmp"
	"slices"

	"gpureport/snapshot"
)

// LiveGroup is the live memory of one stack signature at one moment (a
// snapshot, or the state rebuilt at an OOM).
type LiveGroup struct {
	Signature
	// Bytes and Blocks are the live (active_allocated) bytes and blocks
	// with this signature.
	Bytes  int64
	Blocks int
	// Stack is a representative full stack (the group's largest block),
	// innermost first; User marks its user frames.
	Stack []snapshot.Frame
	User  []bool
	// Spread is, for a never-freed group of a trace window
	// (TraceWindow.NeverFreed), its bytes allocated by the end of each of
	// WindowParts equal parts of the window (by time, else by event
	// index), cumulative: when in the window its blocks were made. Nil
	// for the groups of a snapshot.
	Spread []int64
	// Turnovers is, for a never-freed group of at least DefaultMinPoints
	// blocks, how many training steps its window shows beside it: how
	// often the window's memory less the group's own falls by half its
	// range (turnovers in tracewindow.go); 0 otherwise.
	Turnovers int
}

// groupAcc accumulates one signature's blocks before frames are copied
// out.
type groupAcc struct {
	sig *Signature
	// first is the stack of the group's first block, whose signature
	// sig is (how a cached group names its signature: pointcache.go).
	first    snapshot.StackID
	bytes    int64
	blocks   int
	rep      snapshot.StackID
	repBytes int64
	// private is the bytes in private pools (segment_pool_id not (0, 0)).
	private int64
}

func (a *groupAcc) add(size int64, stack snapshot.StackID) {
	a.bytes += size
	a.blocks++
	if size > a.repBytes || a.blocks == 1 {
		a.rep, a.repBytes = stack, size
	}
}

// groupLive sums device dev's live blocks by signature key.
func groupLive(s *snapshot.Snapshot, dev int, cache *signatureCache) map[string]*groupAcc {
	out := map[string]*groupAcc{}
	// Each signature found is looked up by its pointer, not hashed by
	// its key, a string of tens to hundreds of bytes, at every change
	// of stack; stacks of one key (different frames, same signature)
	// still share the key's accumulator.
	bySig := map[*Signature]*groupAcc{}
	var last snapshot.StackID
	var lastAcc *groupAcc
	for _, seg := range deviceSegments(s, dev) {
		private := seg.PrivatePool != [2]int64{}
		for j := range seg.Blocks {
			b := &seg.Blocks[j]
			if b.State != snapshot.StateActiveAllocated {
				continue
			}
			// Neighbouring blocks often share a stack: skip the lookups.
			if lastAcc == nil || b.Stack != last {
				sig := cache.get(b.Stack)
				acc := bySig[sig]
				if acc == nil {
					if acc = out[sig.Key]; acc == nil {
						acc = &groupAcc{sig: sig, first: b.Stack}
						out[sig.Key] = acc
					}
					bySig[sig] = acc
				}
				last, lastAcc = b.Stack, acc
			}
			lastAcc.add(b.Size, b.Stack)
			if private {
				lastAcc.private += b.Size
			}
		}
	}
	return out
}

// GroupLive returns device dev's live memory in snapshot s grouped by
// stack signature, largest first (ties by fingerprint). Blocks without
// frames form the NoStackSite group.
func GroupLive(s *snapshot.Snapshot, dev int) []LiveGroup {
	cache := newSignatureCache(&s.Stacks)
	accs := groupLive(s, dev, cache)
	out := make([]LiveGroup, 0, len(accs))
	for _, a := range accs {
		out = append(out, a.liveGroup(&s.Stacks))
	}
	sortLiveGroups(out)
	return out
}

func (a *groupAcc) liveGroup(st *snapshot.Stacks) LiveGroup {
	g := LiveGroup{Signature: *a.sig, Bytes: a.bytes, Blocks: a.blocks}
	if a.rep != snapshot.NoStack {
		g.Stack = st.StackFrames(a.rep)
		g.User = UserMask(g.Stack)
	}
	return g
}

func sortLiveGroups(gs []LiveGroup) {
	slices.SortFunc(gs, func(a, b LiveGroup) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Fingerprint, b.Fingerprint))
	})
}

// MergeGroups sums several groupings (devices of a run, say) by signature,
// largest first. The representative stack is the first one seen.
func MergeGroups(groupings ...[]LiveGroup) []LiveGroup {
	idx := map[string]int{}
	var out []LiveGroup
	for _, gs := range groupings {
		for _, g := range gs {
			if i, ok := idx[g.Key]; ok {
				out[i].Bytes += g.Bytes
				out[i].Blocks += g.Blocks
				continue
			}
			idx[g.Key] = len(out)
			out = append(out, g)
		}
	}
	sortLiveGroups(out)
	return out
}

// DiffStatus says how a signature changed between two groupings.
type DiffStatus string

// Diff statuses.
const (
	DiffNew    DiffStatus = "new"    // only in B
	DiffGone   DiffStatus = "gone"   // only in A
	DiffGrown  DiffStatus = "grown"  // more bytes in B
	DiffShrunk DiffStatus = "shrunk" // fewer bytes in B
	DiffSame   DiffStatus = "same"   // equal bytes
)

// DiffEntry is one signature's change from grouping A (the base) to B.
type DiffEntry struct {
	Signature
	// Stack is a representative stack (from B when present, else A);
	// User marks its user frames.
	Stack []snapshot.Frame
	User  []bool
	// BytesA, BytesB, BlocksA and BlocksB are the live bytes and blocks on
	// each side (0 when absent).
	BytesA, BytesB   int64
	BlocksA, BlocksB int
	// Delta is BytesB − BytesA, in bytes.
	Delta int64
	// Status classifies the change.
	Status DiffStatus
}

// Diff compares two groupings by signature, pprof -diff_base style: A is
// the base, B the new state. Entries are sorted by the size of the change
// (largest |Delta| first), then by fingerprint.
func Diff(a, b []LiveGroup) []DiffEntry {
	idx := map[string]int{}
	var out []DiffEntry
	for _, g := range MergeGroups(a) {
		idx[g.Key] = len(out)
		out = append(out, DiffEntry{Signature: g.Signature, Stack: g.Stack, User: g.User, BytesA: g.Bytes, BlocksA: g.Blocks})
	}
	for _, g := range b {
		i, ok := idx[g.Key]
		if !ok {
			i = len(out)
			idx[g.Key] = i
			out = append(out, DiffEntry{Signature: g.Signature})
		}
		e := &out[i]
		e.BytesB += g.Bytes
		e.BlocksB += g.Blocks
		if g.Stack != nil {
			e.Stack, e.User = g.Stack, g.User
		}
	}
	for i := range out {
		e := &out[i]
		e.Delta = e.BytesB - e.BytesA
		switch {
		case e.BlocksA == 0 && e.BytesA == 0:
			e.Status = DiffNew
		case e.BlocksB == 0 && e.BytesB == 0:
			e.Status = DiffGone
		case e.Delta > 0:
			e.Status = DiffGrown
		case e.Delta < 0:
			e.Status = DiffShrunk
		default:
			e.Status = DiffSame
		}
	}
	slices.SortFunc(out, func(x, y DiffEntry) int {
		return cmp.Or(cmp.Compare(abs64(y.Delta), abs64(x.Delta)), cmp.Compare(x.Fingerprint, y.Fingerprint))
	})
	return out
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
