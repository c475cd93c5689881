package placement

import (
	"cmp"
	"gpureport/internal/natural"
	"slices"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// Dumps without steps have no place in the run that two processes could
// share: PyTorch's own recipe names a dump by host and time
// (f"{socket.gethostname()}_{time.strftime('%b_%d_%H_%M_%S')}.pickle"),
// so two hosts' dumps never clash (firstClash) and would alternate in
// one series, gpu-a, gpu-b, gpu-a..., whose trend zigzags between the
// hosts and hides a leak on one of them. Such a path rank is parted by
// its file names with the time set aside (ingest.TimelessPath): names
// that alternate in time are two processes only on the traces' evidence,
// as for names that differ in a word at one step (tracesDisjoint), with
// each dump's nearest dump in time of the other names standing for its
// dump at the same step.

// timeSplit is what the file names and traces of a path rank without
// clashes say of the names that alternate in it (partByTime).
type timeSplit struct {
	// parts are the processes, by timeless path (ingest.TimelessPath),
	// when the traces showed them; nil otherwise.
	parts map[string][]*ingest.SnapshotFile
	// pair are the first two dumps compared: the evidence of a split, or
	// an example of the alternation.
	pair [2]string
	// note is set when the names alternate in time but the traces could
	// not tell whether they are two processes (a note says so).
	note *NameAlternation
}

// partByTime parts a path rank's files that have no step by their
// timeless paths (ingest.TimelessPath), and reports whether the parts are
// processes: at least two parts of at least two dumps each, whose dumps
// interleave in time (neither part ends before another begins, unlike
// epochs or a resumed job), and where every dump and the nearest dump in
// time of every other part have traces that cover the same time with no
// event in common (traceWindows.overlap). When the parts interleave and the
// traces cannot tell (no trace times, too little overlap), the result
// carries a note; when some pair shares an event (one process's ring
// buffer: before_<time> and after_<time>), neither.
func partByTime(group []*ingest.SnapshotFile) timeSplit {
	parts := map[string][]*ingest.SnapshotFile{}
	for _, f := range group {
		if f.Step != input.NoStep || f.OrderKind != ingest.OrderTimestamp {
			return timeSplit{}
		}
		k := ingest.TimelessPath(f.Path)
		parts[k] = append(parts[k], f)
	}
	if len(parts) < 2 {
		return timeSplit{}
	}
	epochless := map[string]bool{}
	for p, fs := range parts {
		if len(fs) < 2 {
			return timeSplit{}
		}
		epochless[ingest.EpochShape(p)] = true
	}
	if len(epochless) == 1 {
		return timeSplit{}
	}
	at, traced, ok := dumpTimes(group)
	if !ok {
		return timeSplit{}
	}
	keys := make([]string, 0, len(parts))
	for p, fs := range parts {
		keys = append(keys, p)
		slices.SortFunc(fs, func(a, b *ingest.SnapshotFile) int { return cmp.Or(at[a].Compare(at[b]), cmp.Compare(a.Path, b.Path)) })
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(natural.Compare(a, b), cmp.Compare(a, b)) })
	// Parts one after another are stages of one process (a job resumed
	// under new names); processes interleave.
	if oneAfterAnother(parts, func(f *ingest.SnapshotFile) (time.Time, bool) { t, ok := at[f]; return t, ok }) {
		return timeSplit{}
	}
	var first [2]string
	pairs, disjoint, tw := 0, true, traceWindows{}
	for _, p := range keys {
		for _, a := range parts[p] {
			for _, q := range keys {
				if q == p {
					continue
				}
				b := nearestDump(parts[q], at[a], at)
				if pairs == 0 {
					first = [2]string{a.Path, b.Path}
				}
				pairs++
				switch tw.overlap(a, b) {
				case snapshot.OverlapShared:
					return timeSplit{}
				case snapshot.OverlapUnknown:
					disjoint = false
				}
			}
		}
	}
	if disjoint {
		return timeSplit{parts: parts, pair: first}
	}
	return timeSplit{pair: first, note: &NameAlternation{Paths: keys, Example: first, Untimed: !traced}}
}

// dumpTimes gives every file its time from one clock: the latest trace
// time when every file has one, else the time in its name (as the name
// gives it, which may be local time: the two clocks are never mixed);
// traced says the times are the traces'; ok is false when neither is
// there for every file.
func dumpTimes(group []*ingest.SnapshotFile) (at map[*ingest.SnapshotFile]time.Time, traced, ok bool) {
	at = map[*ingest.SnapshotFile]time.Time{}
	for _, f := range group {
		if f.Snapshot == nil {
			break
		}
		t, ok := f.Snapshot.LatestTime()
		if !ok {
			break
		}
		at[f] = t
	}
	if len(at) == len(group) {
		return at, true, true
	}
	for _, f := range group {
		if f.OrderKind != ingest.OrderTimestamp {
			return nil, false, false
		}
		at[f] = time.Unix(0, f.Order)
	}
	return at, false, true
}

// nearestDump is the dump of fs (sorted by time) nearest in time to t, the
// earlier one on a tie.
func nearestDump(fs []*ingest.SnapshotFile, t time.Time, at map[*ingest.SnapshotFile]time.Time) *ingest.SnapshotFile {
	best := fs[0]
	for _, f := range fs[1:] {
		if at[f].Sub(t).Abs() < at[best].Sub(t).Abs() {
			best = f
		}
	}
	return best
}
