package placement

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// Dumps without a rank beside the dumps of one rank. A job of one process
// (no torch.distributed, or a group of one) names its periodic dumps
// without a rank (snapshot_step_100.pickle), while a helper that asks
// torch.distributed for the rank names its own dumps with it: miles/slime's
// and Megatron-style OOM observers write oom_rank-{rank}_snapshot.pickle.
// Grouped by the rank of their paths, such a run is two devices, "cuda:0"
// and "rank 0 · cuda:0", and the OOM dump is cut off from the periodic
// dumps whose leak filled the device.
//
// joinUnranked takes the dumps without a rank as the dumps of the run's
// only rank when they are on a device of it and nothing shows two
// processes. What shows two processes is what tells processes apart
// elsewhere in this package:
//
//   - a dump of each at one place in the run (phase and step, or phase and
//     order number: firstClash), which one process does not write twice;
//   - periodic dumps of each whose time spans overlap (trace times when
//     every dump has them, else the times in their names, else their
//     steps; the clocks never mixed): one process's dumps under two
//     names follow one another, as a resumed job's do (oneAfterAnother),
//     while two processes dump side by side. OOM-phase dumps are events,
//     not a schedule (a job that caught its OOM goes on dumping), and are
//     left out;
//   - traces that cover the same time with no event in common (Disjoint:
//     tracesDisjoint's test), on some pair of dumps;
//   - folders of one shape that differ in a number (node0/, node1/): the
//     folders of two machines or processes;
//   - beside the only rank, dumps adjacent in time that have nothing a
//     process keeps alive in common: no live block, segment or stack
//     (inTurn: two processes one after another, as a trainer's dumps and
//     then an evaluation script's), which a note says.
//
// An event the traces share (one process's ring buffer) makes them one
// process whatever else. Beside the dumps of several ranks, nothing names
// the rank that wrote the dumps without one, unless their traces share
// an event with the dumps of exactly one rank: otherwise they stay a series
// of their own, as docs/design.md keeps an OOM message without a rank
// apart from the ranks that share its device number, and a note says so
// (NoteUnrankedApart). A join is noted too (NoteUnrankedJoined).

// maxUnrankedPaths bounds the paths a note on dumps without a rank keeps:
// a note names a few, and says how many there are.
const maxUnrankedPaths = 3

// joinUnranked gives the dumps without a rank (input.NoRank, after
// separateRanks) the rank of the run's only rank as described above,
// setting each file's Rank, and returns its note; nil when there is
// nothing to decide. alternating are separateRanks' notes of names that
// alternate: dumps without a rank that may already be several processes
// are joined to no rank.
func joinUnranked(files []*ingest.SnapshotFile, alternating []Note) []Note {
	byRank := map[int][]*ingest.SnapshotFile{}
	var ranks []int
	for _, f := range files {
		if _, ok := byRank[f.Rank]; !ok && f.Rank != input.NoRank {
			ranks = append(ranks, f.Rank)
		}
		byRank[f.Rank] = append(byRank[f.Rank], f)
	}
	unranked := byRank[input.NoRank]
	if len(unranked) == 0 || len(ranks) == 0 {
		return nil
	}
	for _, n := range alternating {
		if a := n.Alternation; a != nil && a.Rank == input.NoRank {
			return nil
		}
	}
	slices.Sort(ranks)
	tw := traceWindows{}
	u := &UnrankedDumps{Count: len(unranked), Ranks: ranks}
	for _, f := range unranked[:min(len(unranked), maxUnrankedPaths)] {
		u.Paths = append(u.Paths, f.Path)
	}
	join := func(r int, byTrace bool) []Note {
		for _, f := range unranked {
			f.Rank = r
		}
		u.Rank, u.ByTrace = r, byTrace
		return []Note{{Kind: NoteUnrankedJoined, Unranked: u}}
	}
	if len(ranks) == 1 {
		r := ranks[0]
		shared, two := processEvidence(unranked, byRank[r], tw)
		if shared {
			return join(r, true)
		}
		if two {
			return nil
		}
		// Read last: it may read the blocks of a few files again.
		if it := inTurn(unranked, byRank[r]); it != nil {
			u.Rank, u.InTurn = input.NoRank, it
			return []Note{{Kind: NoteUnrankedApart, Unranked: u}}
		}
		return join(r, false)
	}
	var sharing []int
	for _, r := range ranks {
		if shared, _ := processEvidence(unranked, byRank[r], tw); shared {
			sharing = append(sharing, r)
		}
	}
	if len(sharing) == 1 {
		return join(sharing[0], true)
	}
	u.Rank = input.NoRank
	return []Note{{Kind: NoteUnrankedApart, Unranked: u}}
}

// processEvidence is what the dumps a (without a rank) and b (of one rank)
// say of their processes: shared when some two of their traces share an
// event (one process), two when anything else shows two processes (see
// above), or when a and b have no device in common.
func processEvidence(a, b []*ingest.SnapshotFile, tw traceWindows) (shared, two bool) {
	disjoint := false
	for _, x := range a {
		for _, y := range b {
			switch tw.overlap(x, y) {
			case snapshot.OverlapShared:
				return true, false
			case snapshot.OverlapDisjoint:
				disjoint = true
			}
		}
	}
	return false, disjoint || !commonDevice(a, b) || clashes(a, b) || sideBySide(a, b) || numberedFolders(a, b)
}

// commonDevice reports whether a and b have a device in common (segments
// or trace events, snapshot.Snapshot.Devices), or either has none known
// (files not read, or nothing on any device: no evidence).
func commonDevice(a, b []*ingest.SnapshotFile) bool {
	devs := func(fs []*ingest.SnapshotFile) map[int]bool {
		out := map[int]bool{}
		for _, f := range fs {
			if f.Snapshot != nil {
				for _, d := range f.Snapshot.Devices() {
					out[d] = true
				}
			}
		}
		return out
	}
	da, db := devs(a), devs(b)
	if len(da) == 0 || len(db) == 0 {
		return true
	}
	for d := range da {
		if db[d] {
			return true
		}
	}
	return false
}

// clashes reports whether a dump of a and one of b are at one place in
// the run.
func clashes(a, b []*ingest.SnapshotFile) bool {
	seen := map[placeKey]bool{}
	for _, f := range a {
		if pl, ok := placeOf(f); ok {
			seen[pl] = true
		}
	}
	for _, f := range b {
		if pl, ok := placeOf(f); ok && seen[pl] {
			return true
		}
	}
	return false
}

// sideBySide reports whether the periodic dumps of a and of b overlap in
// time: on the traces' clock when every such dump has trace times, else
// on the clock of the times in their names, else on their steps when
// every one has a step; false when they follow one another or nothing
// places them all.
func sideBySide(a, b []*ingest.SnapshotFile) bool {
	periodic := func(fs []*ingest.SnapshotFile) []*ingest.SnapshotFile {
		var out []*ingest.SnapshotFile
		for _, f := range fs {
			if f.Phase != ingest.PhaseOOM {
				out = append(out, f)
			}
		}
		return out
	}
	pa, pb := periodic(a), periodic(b)
	if len(pa) == 0 || len(pb) == 0 {
		return false
	}
	parts := map[string][]*ingest.SnapshotFile{"a": pa, "b": pb}
	if at, _, ok := dumpTimes(slices.Concat(pa, pb)); ok {
		return !oneAfterAnother(parts, func(f *ingest.SnapshotFile) (time.Time, bool) { t, ok := at[f]; return t, ok })
	}
	return !oneAfterAnother(parts, func(f *ingest.SnapshotFile) (time.Time, bool) {
		// A step stands for a time here: only the order counts.
		return time.Unix(f.Step, 0), f.Step != input.NoStep
	}) && allStepped(pa, pb)
}

// allStepped reports whether every file of the lists has a step.
func allStepped(lists ...[]*ingest.SnapshotFile) bool {
	for _, fs := range lists {
		for _, f := range fs {
			if f.Step == input.NoStep {
				return false
			}
		}
	}
	return true
}

// numberedFolders reports whether a folder of a dump of a and one of a
// dump of b have one shape and differ in a number that is no step, order
// number or epoch of the dump (node0/ and node1/).
func numberedFolders(a, b []*ingest.SnapshotFile) bool {
	type shaped struct {
		shape string
		nums  string
	}
	dirs := func(fs []*ingest.SnapshotFile) map[shaped]bool {
		out := map[shaped]bool{}
		for _, f := range fs {
			s, nums := pathShape(path.Dir(f.Path))
			for i, n := range nums {
				// A step, order or epoch folder (step_100/) places the
				// dump in its process's run: it tells no process apart.
				if v, err := strconv.ParseInt(n, 10, 64); err == nil && (v == f.Step || v == f.Epoch || f.OrderKind != ingest.OrderNone && v == f.Order) {
					nums[i] = "*"
				}
			}
			if len(nums) > 0 {
				out[shaped{s, strings.Join(nums, ",")}] = true
			}
		}
		return out
	}
	da, db := dirs(a), dirs(b)
	for x := range da {
		for y := range db {
			if x.shape == y.shape && x.nums != y.nums {
				return true
			}
		}
	}
	return false
}
