package analyze

import (
	"cmp"
	"fmt"
	"log/slog"
	"math/bits"
	"slices"
	"strconv"
	"time"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/internal/units"
	"gpureport/snapshot"
)

// An OOM explanation starts from the trace's `oom` entry (the rounded
// request and the bytes CUDA reported free) and the allocator's state at
// that moment. The snapshot is usually dumped later (in an exception
// handler, after the tensors of the failed step were released), so the
// state is rebuilt by undoing the trace events after the OOM (stateAt in
// memstate.go).
//
// Before raising OOM the caching allocator has already returned every
// wholly free cached segment to CUDA, so what remains cached and free at
// the OOM is the holes inside segments that still hold live blocks. The
// cause follows docs/design.md, decided in this order:
//
//   - limit OOM: the device reported at least the memory the allocator
//     asked for free, yet the allocation failed (oomlimit.go);
//   - leak OOM: the device's leak suspects (significant growth, interval
//     above 0) had added, since their trends began, at least the device
//     memory the request lacked (the request minus CUDA's free bytes):
//     without the leaked bytes the request would have fit. This comes
//     first because a leak also leaves cached holes around the tensors
//     it keeps, which would otherwise read as fragmentation; the leak is
//     what the user must fix. The explanation says how many steps of the
//     leak's growth the request lacked: that many steps earlier it would
//     have fit;
//   - fragmentation OOM: device free plus cached free memory was at least
//     the request: the memory existed, not in one piece (expandable
//     segments would have served it);
//   - others OOM (or unknown, when no input says whose it was): the
//     device's total less its free memory less this process's own memory
//     leaves, outside this process, at least the memory the request
//     lacked (oomothers.go);
//   - capacity OOM: otherwise: live tensors (without any leak) plus the
//     request exceed what the device offers; no allocator setting helps.
//     What to change follows from what holds the memory: the roles at the
//     OOM give a lever for each large role, with the bytes it would free
//     (memroles.go, roles.Levers).
//
// Each recommendation names the allocator setting (or code change) and
// the observation it rests on; settings already in force are not
// recommended again.

// maxReplayWork bounds the piece-by-piece replay (memState.replayWork:
// the pieces visited walking back the events after the OOM) so that a
// pathological file cannot stall the analysis; beyond it the totals are
// still exact and the largest free block is the snapshot's.
const maxReplayWork = 50_000_000

// topLiveAtOOM is how many signature groups an OOM lists.
const topLiveAtOOM = 5

// explainOOMs explains every distinct OOM event of a series. The same
// event can appear in the traces of several snapshots (the ring buffer
// keeps it); the first snapshot that holds it is used, as its state is the
// closest. It is Handled when the trace of one that holds it goes on after
// it (wentOn): the first, or else the last later dump whose trace
// allocated after it, which shows the most of what followed. Only that one
// later dump is read for it, and its answer is kept beside its digest
// (sequelSideKind): an OOM that stays in the ring buffers of hundreds of
// dumps costs one decode, once, not one a dump and a run (issue 30).
func explainOOMs(s *Series, capacity int64, ranks int, memo *roles.StackMemo, side string) []OOM {
	type key struct {
		t, size int64
		free    uint64
	}
	type holder struct {
		f   *ingest.SnapshotFile
		idx int
	}
	seen := map[key]int{}     // -> index in out; -1 when not explained
	later := map[int]holder{} // index in out -> its last later dump that allocated after it
	var out []OOM
	for _, f := range s.Files {
		for _, e := range f.Snapshot.OOMEntries(s.Device) {
			k := key{e.TimeUS, e.Size, e.Addr}
			if j, ok := seen[k]; ok {
				// A later dump of the same process whose ring buffer
				// still holds the OOM may show what followed it, where
				// the first was dumped at the OOM (an OOM observer's).
				if j >= 0 && !out[j].Handled && f.Snapshot.AllocatesAfter(s.Device, e.Index) {
					later[j] = holder{f, e.Index}
				}
				continue
			}
			seen[k] = -1
			o, ok := cachedOOM(f, s.DeviceKey, e.Index, side)
			if !ok {
				// A digest holds no trace: the OOM's state is replayed
				// from the file decoded in full.
				snap, err := f.Full()
				if err == nil && (s.Device >= len(snap.Traces) || e.Index >= len(snap.Traces[s.Device]) || snap.Traces[s.Device][e.Index].Action != snapshot.ActionOOM) {
					err = fmt.Errorf("trace event %d of device %d is not the digest's OOM", e.Index, s.Device)
				}
				if err != nil {
					slog.Warn("OOM not explained: the snapshot no longer decodes as digested", "file", f.Path, "err", err)
					continue
				}
				o = explainOOM(snap, s.Device, e.Index, memo)
				cacheOOM(f, s.DeviceKey, e.Index, side, &o)
			}
			o.Path, o.Rank, o.Device, o.PID, o.Run, o.Capacity, o.Ranks = f.Path, s.Rank, s.Device, s.PID, s.Run, capacity, ranks
			classifyOOM(&o)
			seen[k] = len(out)
			out = append(out, o)
		}
	}
	for j, h := range later {
		out[j].Handled = sequelWentOn(h.f, s.DeviceKey, h.idx, side)
	}
	return out
}

// sequelWentOn is wentOnIn for the OOM at trace event idx of device key in
// file f, kept as f's side entry (one byte: 1 when it went on), so a
// re-run does not decode f again for it.
func sequelWentOn(f *ingest.SnapshotFile, key DeviceKey, idx int, version string) bool {
	kind := sideKind("oomsequel", version, key, "e"+strconv.Itoa(idx))
	if b, ok := sideBytes(f, kind); ok && len(b) == 1 && b[0] <= 1 {
		return b[0] == 1
	}
	went := wentOnIn(f, key.Device, idx)
	b := []byte{0}
	if went {
		b[0] = 1
	}
	setSide(f, kind, inBundle, b)
	return went
}

// explainOOM explains the OOM at trace event idx of device dev in the
// full snapshot snap: what the file says of it, a function of the file's
// content, the device and the event alone. The run's fields (path, rank,
// device, capacity, ranks) and what classifyOOM decides are left to the
// caller.
func explainOOM(snap *snapshot.Snapshot, dev, idx int, memo *roles.StackMemo) OOM {
	tr := snap.Traces[dev]
	e := &tr[idx]
	o := OOM{Requested: e.Size, DeviceFree: int64(e.Addr), Settings: snap.Settings, Expandable: ExpandableInUse(snap, dev)}
	if e.TimeUS > 0 {
		o.Time = time.UnixMicro(e.TimeUS).UTC()
	}
	if e.Stack != snapshot.NoStack {
		o.Stack = snap.Stacks.StackFrames(e.Stack)
		o.User = UserMask(o.Stack)
		sig := SignatureOf(o.Stack)
		o.Site, o.Function = sig.Site, sig.Function
	}
	after := len(tr) - 1 - idx
	o.Reconstructed = after > 0
	o.Handled = wentOn(tr, idx)
	large := o.Requested > 1<<20
	if m := newMemState(snap, dev); m.replayWork(after) <= maxReplayWork {
		freed := m.stateAt(snap, dev, idx)
		var active int64
		o.Reserved, o.Allocated, active = m.totals()
		o.CachedFree = o.Reserved - active
		o.LargestFree = m.largestFree(large)
		o.FreedAfter = freed
		o.TopLive = m.liveGroups(&snap.Stacks)
	} else {
		u := DeviceUsage(snap, dev)
		a, r, freed := u.Allocated, u.Reserved, int64(0)
		for i := len(tr) - 1; i > idx; i-- {
			da, dr := eventDelta(&tr[i])
			a -= da
			r -= dr
			if da < 0 {
				freed -= da
			}
		}
		o.Reserved, o.Allocated, o.FreedAfter = r, a, freed
		o.CachedFree = max(0, r-a)
		o.LargestFree = u.LargestFree
		o.TopLive = GroupLive(snap, dev)
	}
	if len(o.TopLive) > topLiveAtOOM {
		o.TopLive = o.TopLive[:topLiveAtOOM]
	}
	o.EstimatedCapacity = o.Reserved + o.DeviceFree
	o.Missing = max(0, o.Requested-o.DeviceFree)
	oomRoles(&o, snap, dev, idx, memo)
	return o
}

// wentOnIn is wentOn for the OOM at trace event idx of device dev in file
// f, decoded in full for its trace; false when it no longer decodes.
func wentOnIn(f *ingest.SnapshotFile, dev, idx int) bool {
	snap, err := f.Full()
	if err != nil || dev >= len(snap.Traces) || idx >= len(snap.Traces[dev]) || snap.Traces[dev][idx].Action != snapshot.ActionOOM {
		slog.Debug("OOM's sequel not read: the snapshot no longer decodes as digested", "file", f.Path, "err", err)
		return false
	}
	return wentOn(snap.Traces[dev], idx)
}

// wentOn reports whether trace tr shows the training loop going on after
// its OOM event at idx, as a process that caught the OOM and recovered
// does. What PyTorch itself does around an OOM is no allocation: before it
// raises, the caching allocator has freed its cached blocks and retried
// (segment_free events before the oom entry); after it, the exception
// unwinds the failed step (frees), an except handler or the OOM observer
// may dump a snapshot (a snapshot event), and a fatal OOM's trace ends
// there. A handler may allocate before it re-raises, and that is no
// recovery: an emergency checkpoint's gathers and copies, a dump, a
// teardown's few tensors, one retry of the failed step that then dies. So
// the process went on only when, on the OOM's stream (other streams'
// threads, a prefetcher or NCCL, run on for a while in a process that is
// about to die), the trace after the OOM shows
//
//   - the loop's own code allocating: stacks that allocated on the stream
//     before the OOM, or the failed request's (a trace that begins at the
//     OOM's step shows no earlier one). A handler's allocations come from
//     its own code (the except block, the checkpoint writer), whose
//     stacks the steps before the OOM did not have;
//   - making and freeing its memory as a step does, at least minStepsAfter
//     times (falls: the loop's live bytes falling by half their range
//     after the OOM, as a step frees its activations): one such cycle is
//     what a single retry of the failed step, or a checkpoint that
//     gathers and frees its shards, leaves;
//   - when the steps before the OOM give a step's length (at least two
//     cycles with times), those cycles spanning at least half of it: a
//     handler's copies run at memory speed (microseconds to
//     milliseconds), steps for as long as steps took before, or half as
//     long at half the batch (a retry at a smaller size). This matters
//     for a trace without stacks, whose handler allocations look like the
//     loop's own.
func wentOn(tr []snapshot.TraceEntry, idx int) bool {
	if idx < 0 || idx >= len(tr) {
		return false
	}
	e := &tr[idx]
	loop := map[snapshot.StackID]bool{e.Stack: true}
	beforeLevel, beforeAt := streamLevel(tr[:idx], e.Stream, func(s snapshot.StackID) bool {
		loop[s] = true
		return true
	})
	afterLevel, afterAt := streamLevel(tr[idx+1:], e.Stream, func(s snapshot.StackID) bool { return loop[s] })
	after := falls(afterLevel, nil)
	if len(after) < minStepsAfter {
		return false
	}
	step := stepLength(tr[:idx], beforeAt, falls(beforeLevel, nil))
	last := tr[idx+1+afterAt[after[len(after)-1]]].TimeUS
	if step > 0 && e.TimeUS > 0 && last > 0 && 2*(last-e.TimeUS) < step {
		return false
	}
	return true
}

// minStepsAfter is how many of the loop's step cycles the trace must show
// after an OOM for the process to have gone on (wentOn): one is what a
// handler leaves that retries the failed step once and then dies, or that
// gathers a checkpoint and frees it; a second is the loop repeating
// itself, which only a process that recovered does.
const minStepsAfter = 2

// streamLevel follows the live bytes, on stream, of the blocks tr
// allocates whose stacks keep accepts (keep sees each allocation's stack
// once per allocation): the level after each change and the index in tr
// of the event that made it. Blocks allocated before tr are not followed,
// so their frees change nothing.
func streamLevel(tr []snapshot.TraceEntry, stream int64, keep func(snapshot.StackID) bool) (level []int64, at []int) {
	live := map[uint64]int64{}
	var sum int64
	for i := range tr {
		a := &tr[i]
		switch a.Action {
		case snapshot.ActionAlloc:
			if a.Stream != stream || !keep(a.Stack) {
				continue
			}
			size := roundUp(a.Size)
			sum += size - live[a.Addr]
			live[a.Addr] = size
		case snapshot.ActionFreeRequested, snapshot.ActionFreeCompleted:
			size, ok := live[a.Addr]
			if !ok {
				continue
			}
			delete(live, a.Addr)
			sum -= size
		default:
			continue
		}
		level = append(level, sum)
		at = append(at, i)
	}
	return level, at
}

// stepLength is the mean time between the step cycles (fall, indexes into
// at, which indexes tr) that the trace before an OOM shows, microseconds;
// 0 when it shows fewer than two or has no times.
func stepLength(tr []snapshot.TraceEntry, at, fall []int) int64 {
	if len(fall) < 2 {
		return 0
	}
	first, last := tr[at[fall[0]]].TimeUS, tr[at[fall[len(fall)-1]]].TimeUS
	if first <= 0 || last <= first {
		return 0
	}
	return (last - first) / int64(len(fall)-1)
}

// blameLeaks sets, for every OOM of device d, the bytes its unsuppressed
// leak suspects had added by the OOM, and classifies the OOM again: with a
// leak that took what the request lacked, its cause is the leak.
func blameLeaks(d *Device, ooms []OOM) {
	for k := range ooms {
		o := &ooms[k]
		if o.Rank != d.Rank || o.Device != d.Device || o.Type != d.Type {
			continue
		}
		at := len(d.Points) - 1
		for i, p := range d.Points {
			if p.Path == o.Path {
				at = i
			}
		}
		o.LeakedBytes, o.LeakRate, o.LeakPer, o.LeakSite = leakedBy(d, at)
		classifyOOM(o)
	}
}

// leakedBy sums what the device's unsuppressed leak suspects had added
// by point at (bytes since each one's fit began), their summed growth rate
// per their axis unit, and the site that added most.
func leakedBy(d *Device, at int) (leaked int64, rate float64, per units.Per, site string) {
	var top float64
	for i := range d.Suspects {
		sp := &d.Suspects[i]
		if sp.Suppressed != "" || at < 0 || at >= len(sp.Bytes) || sp.Trend.FitFrom >= len(sp.Bytes) {
			continue
		}
		add := max(0, sp.Bytes[at]-sp.Bytes[max(0, sp.Trend.FitFrom)])
		leaked += add
		if sp.Trend.Slope > 0 {
			rate += sp.Trend.Slope
			per = sp.Trend.Per
		}
		if float64(add) > top {
			top, site = float64(add), sp.Site
		}
	}
	return leaked, rate, per, site
}

// classifyOOM sets the OOM's Cause, Earlier and Recommendations (each
// with the figures behind it, which the OOM holds: the reports word them).
func classifyOOM(o *OOM) {
	set := o.Settings
	o.Recommendations, o.Earlier, o.Levers, o.Outside = nil, 0, nil, 0
	switch need := limitRequest(o.Requested, o.Expandable); {
	case limitOOM(o.DeviceFree, 0, need, 0):
		o.Cause, o.Asked = CauseLimit, need
		o.Recommendations = limitChecks(o)
	case o.LeakedBytes > 0 && o.Missing > 0 && o.LeakedBytes >= o.Missing:
		o.Cause = CauseLeak
		if o.LeakRate > 0 {
			o.Earlier = float64(o.Missing) / o.LeakRate
		}
		o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepFixLeak})
	case o.DeviceFree+o.CachedFree >= o.Requested:
		o.Cause = CauseFragmentation
		if !o.Expandable {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepExpandable})
		}
		if o.splitExpandable() {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepRemoveMaxSplit, MaxSplitMiB: set.MaxSplitSize >> 20})
		} else if set.MaxSplitSize < 0 || !set.Present {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepMaxSplit, MaxSplitMiB: splitSuggestionMiB(o.Requested)})
		}
		if set.GCThreshold == 0 {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepGCThreshold})
		}
	case outsideOOM(o):
		// Memory outside this process filled the device (oomothers.go).
	default:
		o.Cause = CauseCapacity
		// What holds the memory says what to change: a lever per large
		// role; without roles, the changes that reduce any live memory.
		o.Levers = oomLevers(o)
		for _, l := range o.Levers {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepLever, Lever: l})
		}
		if len(o.Levers) == 0 {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepReduceLive})
		}
		if o.Expandable {
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepKeepExpandable})
		}
		if o.Outside > 0 {
			// Memory outside the process no input names (outsideOOM).
			o.Recommendations = append(o.Recommendations, Recommendation{Kind: StepOutsideFind})
		}
	}
}

// splitSuggestionMiB picks max_split_size_mb: the largest power of two at
// most half the request, between 64 and 1024 MiB, so blocks the size of
// the failed request are never split.
func splitSuggestionMiB(req int64) int64 {
	mb := req / 2 >> 20
	if mb < 64 {
		return 64
	}
	p := int64(1) << (bits.Len64(uint64(mb)) - 1)
	return min(p, 1024)
}

// sortOOMs orders OOMs by time, then rank and device.
func sortOOMs(o []OOM) {
	slices.SortStableFunc(o, func(a, b OOM) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Device, b.Device))
	})
}
