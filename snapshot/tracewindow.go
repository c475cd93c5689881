package snapshot

import "slices"

// A device's trace is the caching allocator's ring buffer of one process:
// its last events, in order. Two dumps of one process therefore hold the
// same events over the time both cover (the later dump lost only what the
// ring buffer dropped since the earlier one), while the dumps of two
// processes cover the same time with events of their own. A TraceWindow
// keeps what it takes to tell these apart from a digest, without the
// trace: the time range and a sample of the events' keys, each with its
// time.
//
// The key is an event's action, address, size and stream, without its
// time: PyTorch converts the ring buffer's clock ticks to time_us anew at
// every dump (CUDACachingAllocator's snapshot() makes a converter from the
// clock's rate measured since the allocator started), so one event's
// time_us differs by a little between two dumps of one process. The sample
// is consistent: an event is kept when its key hash has Level low zero
// bits, so the same event is kept by every dump that holds it (at the
// coarser of two levels).

// TraceSampleCap is the most events a TraceWindow samples. 256: a dump's
// overlap with another of the same step then still holds dozens of
// sampled events when it covers a tenth of the trace, in 4 KB of digest.
const TraceSampleCap = 256

// TraceWindow is one device trace's time range and key sample.
type TraceWindow struct {
	// FirstUS and LastUS are the earliest and latest time_us of the
	// trace's events (microseconds since the Unix epoch); both 0 when the
	// trace has no timed events (PyTorch before 2.2 writes none).
	FirstUS, LastUS int64
	// Level is the sample's level: it holds every timed event whose key
	// hash has Level low zero bits.
	Level uint8
	// Sample are the sampled events in trace order.
	Sample []KeyedTime
}

// KeyedTime is a sampled trace event: its key hash and time.
type KeyedTime struct {
	// Key hashes the event's action, address, size and stream (EventKey).
	Key uint64
	// TimeUS is its time_us (microseconds since the Unix epoch).
	TimeUS int64
}

// Timed reports whether the trace has times.
func (w *TraceWindow) Timed() bool { return w.LastUS != 0 }

// EventKey hashes what identifies a trace event apart from its time: its
// action, address, size and stream (splitmix64 finalisers, chained).
func EventKey(e *TraceEntry) uint64 {
	h := mix64(uint64(e.Action) + 0x9e3779b97f4a7c15)
	h = mix64(h ^ e.Addr)
	h = mix64(h ^ uint64(e.Size))
	return mix64(h ^ uint64(e.Stream))
}

func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// sampled reports whether key k is in a sample of level l.
func sampled(k uint64, l uint8) bool { return l >= 64 || k&(1<<l-1) == 0 }

// add adds the next event of the trace.
func (w *TraceWindow) add(e *TraceEntry) {
	if e.TimeUS == 0 {
		return
	}
	if w.LastUS == 0 || e.TimeUS < w.FirstUS {
		w.FirstUS = e.TimeUS
	}
	w.LastUS = max(w.LastUS, e.TimeUS)
	k := EventKey(e)
	if !sampled(k, w.Level) {
		return
	}
	w.Sample = append(w.Sample, KeyedTime{Key: k, TimeUS: e.TimeUS})
	for len(w.Sample) > TraceSampleCap && w.Level < 64 {
		w.Level++
		w.Sample = slices.DeleteFunc(w.Sample, func(s KeyedTime) bool { return !sampled(s.Key, w.Level) })
	}
}

// WindowOf is the TraceWindow of trace tr.
func WindowOf(tr []TraceEntry) TraceWindow {
	var w TraceWindow
	for i := range tr {
		w.add(&tr[i])
	}
	return w
}

// TraceWindows returns each device's TraceWindow, indexed like Traces,
// from the trace or, for a digest, from its summary; nil when the file has
// no device_traces.
func (s *Snapshot) TraceWindows() []TraceWindow {
	var out []TraceWindow
	switch {
	case s.Digest != nil:
		for i := range s.Digest.Traces {
			out = append(out, s.Digest.Traces[i].Window)
		}
	case s.skimmed != nil:
		for i := range s.skimmed {
			out = append(out, s.skimmed[i].Window)
		}
	default:
		for _, tr := range s.Traces {
			out = append(out, WindowOf(tr))
		}
	}
	return out
}

// Overlap is what the traces of two dumps say of whether one process
// wrote both.
type Overlap int

const (
	// OverlapUnknown: the traces cannot tell (a trace without times, time
	// ranges that do not overlap, or too few sampled events where they
	// do).
	OverlapUnknown Overlap = iota
	// OverlapShared: over the time both cover, the dumps hold the same
	// events: one process's ring buffer.
	OverlapShared
	// OverlapDisjoint: the dumps cover the same time with no event in
	// common: two processes.
	OverlapDisjoint
)

// MinOverlapEvidence is the fewest sampled events each of two dumps must
// hold inside the middle of the time both cover before they count as
// disjoint. 8: one shared event would show a single process; eight on
// each side with none in common is no accident of sampling.
const MinOverlapEvidence = 8

// CompareWindows tells whether two dumps' traces of one device come from
// one process. The time both cover is their ranges' intersection; its
// first and last quarters are left out, so that the small shift of one
// event's time between two dumps of one process (see TraceWindow) cannot
// take its counterpart out of the other dump's range. Each dump's sampled
// events in the middle half are looked up by key in the other's whole
// sample (at the coarser level): any found makes the dumps Shared; none
// found, with MinOverlapEvidence events on each side, Disjoint.
func CompareWindows(a, b TraceWindow) Overlap {
	if !a.Timed() || !b.Timed() {
		return OverlapUnknown
	}
	lo, hi := max(a.FirstUS, b.FirstUS), min(a.LastUS, b.LastUS)
	if lo > hi {
		return OverlapUnknown
	}
	q := (hi - lo) / 4
	lo, hi = lo+q, hi-q
	l := max(a.Level, b.Level)
	keys := func(w TraceWindow) map[uint64]bool {
		m := make(map[uint64]bool, len(w.Sample))
		for _, s := range w.Sample {
			if sampled(s.Key, l) {
				m[s.Key] = true
			}
		}
		return m
	}
	ka, kb := keys(a), keys(b)
	inside := func(w TraceWindow, other map[uint64]bool) (n int, shared bool) {
		for _, s := range w.Sample {
			if s.TimeUS < lo || s.TimeUS > hi || !sampled(s.Key, l) {
				continue
			}
			n++
			if other[s.Key] {
				return n, true
			}
		}
		return n, false
	}
	na, sa := inside(a, kb)
	nb, sb := inside(b, ka)
	switch {
	case sa || sb:
		return OverlapShared
	case na >= MinOverlapEvidence && nb >= MinOverlapEvidence:
		return OverlapDisjoint
	}
	return OverlapUnknown
}
