package placement

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"

	"gpureport/ingest"
	"gpureport/input"
)

// Runs of one script one after another. A script run twice writes two
// series of dumps of the same names and stacks: the first run's
// snapshot_N.pickle, then, after the job was fixed or requeued, the
// second run's in a subfolder (rerun/snapshot_N.pickle) or under names
// with a time in them. One path rank's dumps that follow one another in
// time are stages of one process to separateRanks (a job resumed from a
// checkpoint), and joined into one series the second run's fresh start
// reads as a drop in the first run's memory, which hides the first run's
// growth and fits one trend across two processes.
//
// splitRestarts looks, in each rank's dumps (after ranks are decided),
// for a boundary between two dumps adjacent in time where a new process
// started the same work again. Both dumps are the same script's: their
// file names have one shape (digits aside: snapshot_500.pickle and
// rerun/snapshot_100.pickle), and their live blocks share an allocation
// stack when both have stacks (unrelated programs' dumps gathered in one
// folder are no runs of one script); and
//
//   - the two dumps have nothing a process keeps alive in common: no
//     live block and no segment (device, address, size); a process that
//     merely paused (a checkpoint written, an evaluation run) keeps its
//     model's blocks where they were. As in inTurn, this says something
//     only when both dumps have live blocks and a neighbour on one side
//     shows that the process keeps blocks alive from dump to dump;
//   - and the dump after does not carry on what the process had built up
//     (carriesOn): an allocation stack whose live bytes grew from the
//     run's first dump to the dump before has at least those bytes after
//     (a process that offloaded everything to the CPU and loaded it back
//     at new addresses brings its histories back; a new run starts them
//     empty);
//   - and the run starts over: its step counter goes back (the dump after
//     has a lower step than the one before: a resumed job continues its
//     steps, and is left one series as before), or, without steps on both
//     sides, the time between them is at least restartGapFactor times the
//     rank's usual interval between dumps. A dump counter
//     (snapshot_N.pickle) or an epoch counts as a step here.
//
// Each run after the first becomes a process of its own, numbered above
// every rank in use (the first keeps its rank; dumps without a rank are
// all numbered), and each run of the rank is named as a run
// (ingest.ScriptRun: "run 2", or its folder), no rank of the job; a note
// names the boundaries. Dumps with
// no time on one clock (trace times, else times in their names) have no
// order to find a boundary in, and stay as they are. A re-run whose
// allocator gives its blocks the same addresses as the first run's
// shares them by this test, and is not found.

// restartGapFactor is how many times a rank's median interval between
// dumps the gap before a fresh start without steps must last: a run's own
// rhythm varies by an evaluation or a slow step, and a dump interval or
// two of delay is no restart; five intervals leave that margin while a
// job requeued or re-run later is hours, not minutes, after its last dump.
const restartGapFactor = 5

// Restart is a boundary where a rank's dumps start over as a new run
// (restarts.go).
type Restart struct {
	// Before and After are the dumps either side of it, After the later.
	Before, After string
	// GapSeconds is the time from Before to After, in seconds.
	GapSeconds float64
	// StepBack is true when After's step is below Before's.
	StepBack bool
}

// splitRestarts gives each run after the first of a rank's dumps a rank
// of its own (see above), setting each file's Rank and Run (the runs of
// a rank numbered from 1, named by their folders when each has one of
// its own: runFolders), and returns the note that says so (nil when no
// rank starts over) and, for each run whose dumps fill a folder of their
// own, that folder's new rank. A rank's dumps that are already a
// separate run (a sweep's experiment, ranks.go) keep their run, and the
// runs found after it are numbered after every run in use.
func splitRestarts(files []*ingest.SnapshotFile) ([]Note, map[string]int) {
	byRank := map[int][]*ingest.SnapshotFile{}
	var ranks []int
	next, nextRun := 0, 1
	for _, f := range files {
		if _, ok := byRank[f.Rank]; !ok {
			ranks = append(ranks, f.Rank)
		}
		byRank[f.Rank] = append(byRank[f.Rank], f)
		next = max(next, f.Rank+1)
		nextRun = max(nextRun, f.Run.N+1)
	}
	slices.Sort(ranks)
	var num *RankNumbering
	var dirRanks map[string]int
	for _, r := range ranks {
		runs, restarts := restartRuns(byRank[r])
		if restarts == nil {
			continue
		}
		if num == nil {
			num = &RankNumbering{Clash: [2]string{restarts[0].Before, restarts[0].After}}
			dirRanks = map[string]int{}
		}
		num.Restarts = append(num.Restarts, restarts...)
		dirOwners := map[string]int{}
		newRanks := make([]int, len(runs))
		parent := byRank[r][0].Run
		folders := runFolders(runs)
		for i, run := range runs {
			rank := r
			if i > 0 || r == input.NoRank {
				rank, next = next, next+1
			}
			newRanks[i] = rank
			id := ingest.ScriptRun{N: i + 1, Rank: r}
			switch {
			case parent.N > 0 && i == 0:
				id = parent
			case parent.N > 0:
				id = ingest.ScriptRun{N: nextRun, Rank: parent.Rank}
				nextRun++
			case folders != nil:
				id.Folder = folders[i]
			}
			dirs := map[string]bool{}
			for _, f := range run {
				f.Rank, f.Run = rank, id
				dirs[path.Dir(f.Path)] = true
			}
			for d := range dirs {
				dirOwners[d]++
			}
			num.Paths = append(num.Paths, run[0].Path)
			num.Ranks = append(num.Ranks, rank)
			num.Runs = append(num.Runs, id)
		}
		for i, run := range runs {
			d := path.Dir(run[0].Path)
			if d != "." && dirOwners[d] == 1 && !slices.ContainsFunc(run, func(f *ingest.SnapshotFile) bool { return path.Dir(f.Path) != d }) {
				dirRanks[d] = newRanks[i]
			}
		}
	}
	if num == nil {
		return nil, nil
	}
	return []Note{{Kind: NoteRanksNumbered, Ranks: num}}, dirRanks
}

// runFolders names each of runs (the dumps of separate runs of a script)
// by the folder that holds its dumps alone: the folder, at the level
// where the runs' folders first part, that holds all of a run's dumps
// (exp_lr1e-3_bs64 of exp_lr1e-3_bs64/snapshots/). nil when some run has
// no such folder (its dumps lie at the top, or in a folder above
// another run's), or when the names are not distinct words (a folder
// named by digits alone says less than "run 2"): the runs are then named
// by their numbers.
func runFolders(runs [][]*ingest.SnapshotFile) []string {
	common := make([][]string, len(runs))
	for i, run := range runs {
		for j, f := range run {
			d := path.Dir(f.Path)
			if d == "." || d == "/" {
				return nil
			}
			parts := strings.Split(d, "/")
			if j == 0 {
				common[i] = parts
				continue
			}
			n := 0
			for n < len(parts) && n < len(common[i]) && parts[n] == common[i][n] {
				n++
			}
			common[i] = common[i][:n]
		}
		if len(common[i]) == 0 {
			return nil
		}
	}
	at := -1
	for lvl := 0; at < 0; lvl++ {
		for _, c := range common {
			if lvl >= len(c) {
				return nil
			}
			if c[lvl] != common[0][lvl] {
				at = lvl
			}
		}
	}
	names := make([]string, len(runs))
	seen := map[string]bool{}
	for i, c := range common {
		n := c[at]
		if seen[n] || !strings.ContainsFunc(n, unicode.IsLetter) {
			return nil
		}
		seen[n], names[i] = true, n
	}
	return names
}

// restartRuns parts one rank's dumps into runs one after another at the
// boundaries where a new process started over (see above), in time
// order, with those boundaries; nil, nil when there is none.
func restartRuns(group []*ingest.SnapshotFile) ([][]*ingest.SnapshotFile, []Restart) {
	if len(group) < 4 {
		// Two runs of two dumps at least: one of them shows that its
		// process keeps blocks alive.
		return nil, nil
	}
	at, _, ok := dumpTimes(group)
	if !ok {
		return nil, nil
	}
	all := slices.Clone(group)
	slices.SortStableFunc(all, func(x, y *ingest.SnapshotFile) int {
		return cmp.Or(at[x].Compare(at[y]), cmp.Compare(x.Path, y.Path))
	})
	cadence := medianInterval(all, at)
	ls := liveSets{}
	var runs [][]*ingest.SnapshotFile
	var restarts []Restart
	start := 0
	for i := 1; i < len(all); i++ {
		x, y := all[i-1], all[i]
		gap := at[y].Sub(at[x])
		cx, okx := runCounter(x)
		cy, oky := runCounter(y)
		stepped := okx && oky && x.Phase == ingest.PhasePeriodic && y.Phase == ingest.PhasePeriodic
		stepBack := stepped && cy < cx
		longGap := !stepped && cadence > 0 && gap >= restartGapFactor*cadence
		if !stepBack && !longGap {
			continue
		}
		if baseShape(x.Path) != baseShape(y.Path) {
			continue
		}
		lx, ly := ls.of(x), ls.of(y)
		if lx == nil || ly == nil || len(lx.blocks) == 0 || len(ly.blocks) == 0 || sharesBlockOrSegment(lx, ly) || !sameCode(lx, ly) {
			continue
		}
		keeps := i >= 2 && ls.of(all[i-2]).keepsAlive(lx) || i+1 < len(all) && ly.keepsAlive(ls.of(all[i+1]))
		if !keeps || carriesOn(ls.of(all[start]), lx, ly) {
			continue
		}
		runs = append(runs, all[start:i])
		restarts = append(restarts, Restart{Before: x.Path, After: y.Path, GapSeconds: gap.Seconds(), StepBack: stepBack})
		start = i
	}
	if restarts == nil {
		return nil, nil
	}
	return append(runs, all[start:]), restarts
}

// runCounter is the number f's name counts its run's dumps by: its step,
// else its dump counter or epoch (ingest.OrderIndex, OrderEpoch); false
// when it has neither (a time is no counter: it never goes back).
func runCounter(f *ingest.SnapshotFile) (int64, bool) {
	switch {
	case f.Step != input.NoStep:
		return f.Step, true
	case f.OrderKind == ingest.OrderIndex || f.OrderKind == ingest.OrderEpoch:
		return f.Order, true
	}
	return 0, false
}

// carriesOn reports whether the dump after a boundary (after) holds what
// the process before it had built up since the first dump of its run
// (first) up to the dump before (before): some allocation stack whose
// live bytes grew from first to before has at least as many after. A
// process that moved all its blocks (offloaded to the CPU for a rollout
// and loaded back, every block at a new address) brings back what it
// held, its histories and leaks included; a new run of the script starts
// where the first run started, its histories empty, each stack's bytes
// at their level of a fresh start. Without stacks, or where no stack grew
// before the boundary (nothing built up to carry), it says nothing. (A
// new run that restores such a history from a checkpoint reads as the
// same process.)
func carriesOn(first, before, after *liveSet) bool {
	if first == nil || !before.stacked() || !after.stacked() {
		return false
	}
	for k, b := range before.stackBytes {
		if b > first.stackBytes[k] && after.stackBytes[k] >= b {
			return true
		}
	}
	return false
}

// baseShape is a path's file name with its digit runs as "#".
func baseShape(p string) string {
	s, _ := pathShape(path.Base(p))
	return s
}

// sameCode reports whether l and o may be dumps of one script: they
// share a live block's allocation stack, or either has none (history not
// recorded: the names alone say so).
func sameCode(l, o *liveSet) bool {
	if !l.stacked() || !o.stacked() {
		return true
	}
	for k := range l.stacks {
		if o.stacks[k] {
			return true
		}
	}
	return false
}

// sharesBlockOrSegment reports whether l and o share a live block or a
// segment (device, address, size).
func sharesBlockOrSegment(l, o *liveSet) bool {
	if l.keepsAlive(o) {
		return true
	}
	for k := range l.segs {
		if o.segs[k] {
			return true
		}
	}
	return false
}

// medianInterval is the median time between consecutive periodic dumps
// of fs (sorted by at); 0 with fewer than three such dumps, whose one
// interval could be the gap itself.
func medianInterval(fs []*ingest.SnapshotFile, at map[*ingest.SnapshotFile]time.Time) time.Duration {
	var prev *ingest.SnapshotFile
	var gaps []time.Duration
	for _, f := range fs {
		if f.Phase != ingest.PhasePeriodic {
			continue
		}
		if prev != nil {
			gaps = append(gaps, at[f].Sub(at[prev]))
		}
		prev = f
	}
	if len(gaps) < 2 {
		return 0
	}
	slices.Sort(gaps)
	return gaps[len(gaps)/2]
}
