package placement

import (
	"cmp"
	"gpureport/internal/natural"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// One rank's dumps form one series: analysis groups a run's snapshots by
// the rank their paths give (ingest.RankFromPath) and the CUDA device
// inside them. Paths do not always give each rank a number of its own:
//
//	node0/rank0/…, node1/rank0/…     local ranks on several nodes
//	worker_3/…, proc3_step_5, gpu3_step_5, snapshot_pid4103_step5
//	                                 no rank word, each rank on its cuda:0
//
// Grouped by the rank in their paths alone, such dumps alternate in one
// series that has every step twice, and the trend is fitted to the zigzag
// between ranks.
//
// separateRanks finds these runs by their evidence: two dumps that share
// a path rank and a place in the run (phase and step, or phase and order
// number) cannot come from one rank. It then reads each file's rank path
// (rankPaths): its path with the numbers that place the file set aside
// (the step or order number, and numbers that differ from file to file);
// what is left, its folders and other numbers, is the same for all the
// dumps of one rank. When that parts every such pair, into ranks of at
// least two dumps each that differ in folders and numbers (or in a word
// of their file names only when their traces show two processes,
// tracesDisjoint: step_5_before and step_5_after are two dumps of one
// rank; nor only in an epoch number, nor in time ranges
// that follow one another: epochs and a resumed job are stages of one
// rank), the ranks are numbered in the natural order of those paths
// (node0/rank1 before node1/rank0: torchrun's global ranks, when nodes
// are numbered by node rank), and a note says which path became which
// rank. A folder that holds the dumps of one such rank alone is a rank
// folder: the logs in it (a rank's memory_stats lines) are that rank's
// (Run.LogRank).
//
// Vocabulary: a rank is one training process of the job, the writer of
// one series of dumps; "process" in this package means an operating
// system process, as the GPU logs' per-process readings (PIDs) do.

// placeKey is where a dump falls in its rank's run.
type placeKey struct {
	phase ingest.Phase
	kind  ingest.OrderKind
	// step says n is a step; otherwise n is an order number of kind.
	step bool
	n    int64
}

// placeOf returns f's place, and false when its name gives none (its
// order then comes from its content or file time).
func placeOf(f *ingest.SnapshotFile) (placeKey, bool) {
	switch {
	case f.Step != input.NoStep:
		return placeKey{phase: f.Phase, step: true, n: f.Step}, true
	case f.OrderKind != ingest.OrderNone:
		return placeKey{phase: f.Phase, kind: f.OrderKind, n: f.Order}, true
	}
	return placeKey{}, false
}

// pathShape splits a path into its text with every digit run as "#" and
// the digit runs.
func pathShape(p string) (shape string, nums []string) {
	var b strings.Builder
	for i := 0; i < len(p); {
		j := i
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		if j > i {
			b.WriteByte('#')
			nums = append(nums, p[i:j])
			i = j
			continue
		}
		b.WriteByte(p[i])
		i++
	}
	return b.String(), nums
}

// rankPaths returns, for each file, its path with the numbers that place
// it among its rank's dumps written as "*": within the files of one path
// shape, a digit run that equals the file's step or order number in every
// file, or that differs in every file.
func rankPaths(files []*ingest.SnapshotFile) []string {
	type shaped struct {
		i    int
		nums []string
	}
	byShape := map[string][]shaped{}
	var shapes []string
	for i, f := range files {
		s, nums := pathShape(f.Path)
		if _, ok := byShape[s]; !ok {
			shapes = append(shapes, s)
		}
		byShape[s] = append(byShape[s], shaped{i, nums})
	}
	out := make([]string, len(files))
	for _, s := range shapes {
		group := byShape[s]
		slots := len(group[0].nums)
		placing := make([]bool, slots)
		for j := range slots {
			isPlace, seen := true, map[string]bool{}
			for _, g := range group {
				seen[g.nums[j]] = true
				pl, ok := placeOf(files[g.i])
				n, err := strconv.ParseInt(g.nums[j], 10, 64)
				if !ok || err != nil || n != pl.n {
					isPlace = false
				}
			}
			placing[j] = isPlace || len(seen) == len(group)
		}
		for _, g := range group {
			var b strings.Builder
			j := 0
			for k := 0; k < len(s); k++ {
				if s[k] != '#' {
					b.WriteByte(s[k])
					continue
				}
				if placing[j] {
					b.WriteByte('*')
				} else {
					b.WriteString(g.nums[j])
				}
				j++
			}
			out[g.i] = b.String()
		}
	}
	return out
}

// rankDumps are one process's dumps and its path (rankPaths).
type rankDumps struct {
	path  string
	files []*ingest.SnapshotFile
}

// separateRanks gives the dumps of ranks that share a rank number in
// their paths numbers of their own (see above), setting each file's Rank,
// and returns the note that says so (nil when every path rank's dumps
// come from one rank) and, for each rank whose dumps fill a folder of
// their own, that rank folder's new rank.
func separateRanks(files []*ingest.SnapshotFile) (notes []Note, dirRanks map[string]int) {
	byRank := map[int][]*ingest.SnapshotFile{}
	var ranks []int
	for _, f := range files {
		if _, ok := byRank[f.Rank]; !ok {
			ranks = append(ranks, f.Rank)
		}
		byRank[f.Rank] = append(byRank[f.Rank], f)
	}
	slices.Sort(ranks)
	// A rank's path is its files' rank path (rankPaths); the path of a
	// path rank left whole is filled in only when some path rank splits,
	// as it is needed only to order the numbering.
	var found []rankDumps
	var clash [2]string
	// alternating are the notes on path ranks whose names alternate in
	// time without the traces' evidence of two processes (partByTime).
	var alternating []Note
	split, byNumber, byTrace := false, false, false
	// wordSplits are the parts of path ranks parted by a word alone (see
	// partByPath), by path rank.
	wordSplits := map[int][]rankDumps{}
	byTime, restarts := false, false
	for _, r := range ranks {
		group := byRank[r]
		a, b, ok := firstClash(group)
		if !ok {
			ts := partByTime(group)
			if ts.note != nil {
				ts.note.Rank = r
				alternating = append(alternating, Note{Kind: NoteNamesAlternate, Alternation: ts.note})
			}
			if ts.parts == nil {
				found = append(found, rankDumps{files: group})
				continue
			}
			if !split {
				clash, byTime = ts.pair, true
			}
			split, byTrace = true, true
			for p, fs := range ts.parts {
				found = append(found, rankDumps{path: p, files: fs})
				wordSplits[r] = append(wordSplits[r], rankDumps{path: p, files: fs})
			}
			continue
		}
		parts, byWord, restart, ok := partByPath(group)
		if !ok {
			found = append(found, rankDumps{files: group})
			continue
		}
		if !split {
			clash = [2]string{a.Path, b.Path}
		}
		split = true
		restarts = restarts || restart
		if restart {
			markRuns(parts, r)
		}
		byTrace = byTrace || byWord
		byNumber = byNumber || !byWord
		for p, fs := range parts {
			found = append(found, rankDumps{path: p, files: fs})
			if byWord {
				wordSplits[r] = append(wordSplits[r], rankDumps{path: p, files: fs})
			}
		}
	}
	if !split {
		return alternating, nil
	}
	if !byNumber {
		notes, dirRanks = keepRanks(found, wordSplits, clash, byTime)
		return append(notes, alternating...), dirRanks
	}
	for i := range found {
		if found[i].path == "" {
			found[i].path = firstPath(found[i].files)
		}
	}
	slices.SortFunc(found, func(a, b rankDumps) int {
		return cmp.Or(natural.Compare(a.path, b.path), cmp.Compare(a.path, b.path))
	})
	if restarts {
		runsInTimeOrder(found)
	}
	paths := make([]string, len(found))
	var runs []ingest.ScriptRun
	if restarts {
		runs = make([]ingest.ScriptRun, len(found))
		for i, p := range found {
			runs[i] = p.files[0].Run
		}
	}
	dirRanks = map[string]int{}
	dirOwners := map[string]int{}
	for i, p := range found {
		dirs := map[string]bool{}
		for _, f := range p.files {
			f.Rank = i
			dirs[path.Dir(f.Path)] = true
		}
		for d := range dirs {
			dirOwners[d]++
			if len(dirs) == 1 && d != "." {
				dirRanks[d] = i
			}
		}
		paths[i] = p.path
	}
	for d, n := range dirOwners {
		if n > 1 {
			delete(dirRanks, d)
		}
	}
	return append([]Note{{Kind: NoteRanksNumbered, Ranks: &RankNumbering{Clash: clash, Paths: paths, ByTrace: byTrace, ByTime: byTime, SeparateRuns: restarts, Runs: runs, PIDs: namePIDs(found)}}}, alternating...), dirRanks
}

// runsInTimeOrder reorders, among found (in natural path order), the
// separate runs of each path rank into time order (ingest.ScriptRun.N),
// in the places the path order gave them: runs are numbered in that
// order after, and a rerun/ folder that sorts before the first run's
// dumps is listed after them.
func runsInTimeOrder(found []rankDumps) {
	slots := map[int][]int{}
	var ranks []int
	for i, p := range found {
		if r := p.files[0].Run; r.N > 0 {
			if _, ok := slots[r.Rank]; !ok {
				ranks = append(ranks, r.Rank)
			}
			slots[r.Rank] = append(slots[r.Rank], i)
		}
	}
	for _, r := range ranks {
		at := slots[r]
		parts := make([]rankDumps, len(at))
		for j, i := range at {
			parts[j] = found[i]
		}
		slices.SortStableFunc(parts, func(a, b rankDumps) int { return cmp.Compare(a.files[0].Run.N, b.files[0].Run.N) })
		for j, i := range at {
			found[i] = parts[j]
		}
	}
}

// markRuns names the parts of path rank r that are separate runs
// (restarted: a sweep's experiments) as runs of the script
// (ingest.SnapshotFile.Run): numbered from 1 in time order (each part's
// first dump), named by their folders (runFolders).
func markRuns(parts map[string][]*ingest.SnapshotFile, r int) {
	type run struct {
		path  string
		start time.Time
		files []*ingest.SnapshotFile
	}
	var runs []run
	for p, fs := range parts {
		ru := run{path: p, files: fs}
		for _, f := range fs {
			if t, ok := dumpTime(f); ok && (ru.start.IsZero() || t.Before(ru.start)) {
				ru.start = t
			}
		}
		runs = append(runs, ru)
	}
	slices.SortFunc(runs, func(a, b run) int {
		return cmp.Or(a.start.Compare(b.start), natural.Compare(a.path, b.path), cmp.Compare(a.path, b.path))
	})
	files := make([][]*ingest.SnapshotFile, len(runs))
	for i, ru := range runs {
		files[i] = ru.files
	}
	folders := runFolders(files)
	for i, ru := range runs {
		id := ingest.ScriptRun{N: i + 1, Rank: r}
		if folders != nil {
			id.Folder = folders[i]
		}
		for _, f := range ru.files {
			f.Run = id
		}
	}
}

// pidInPath matches a process id a path names: "pid" and its digits,
// as os.getpid() is written into dump names (snapshot_pid4242_step5,
// mem-pid=4242), not inside a longer word ("rapid3").
var pidInPath = regexp.MustCompile(`(?i)(?:^|[^a-z])pid[-_=]?([0-9]+)`)

// PathPID is the process id path names ("pid" and its digits,
// pidInPath: train_pid4242.log), 0 when it names none or several.
func PathPID(path string) int {
	m := pidInPath.FindAllStringSubmatch(path, -1)
	if len(m) != 1 {
		return 0
	}
	n, err := strconv.Atoi(m[0][1])
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// namePIDs gives the processes found their pids (ingest.SnapshotFile.PID)
// when every one's rank path names one pid of its own, and returns them
// in the order of found; nil, and no pids given, otherwise: then the
// numbers that tell the processes apart are of another kind (a worker or
// a node), and numbering them as ranks is what their paths suggest.
func namePIDs(found []rankDumps) []int {
	pids := make([]int, len(found))
	seen := map[int]bool{}
	for i, p := range found {
		n := PathPID(p.path)
		if n == 0 || seen[n] {
			return nil
		}
		pids[i], seen[n] = n, true
	}
	for i, p := range found {
		for _, f := range p.files {
			f.PID = pids[i]
		}
	}
	return pids
}

// keepRanks numbers the processes when every split is by a word of the
// file name (partByPath's trace evidence), not by folders or numbers: a
// path rank that was not split keeps its rank, and so does the first
// part (in natural path order) of one that was; the other parts get
// ranks above every rank in use, in path order. The rank a path names
// (rank3) is the user's, and renumbering it would put a leak on another
// rank. Rank folders are not looked for: word splits part file names.
func keepRanks(found []rankDumps, wordSplits map[int][]rankDumps, clash [2]string, byTime bool) ([]Note, map[string]int) {
	next := 0
	for _, p := range found {
		next = max(next, p.files[0].Rank+1)
	}
	var split []int
	for r := range wordSplits {
		split = append(split, r)
	}
	slices.Sort(split)
	var paths []string
	var ranks []int
	for _, r := range split {
		parts := wordSplits[r]
		slices.SortFunc(parts, func(a, b rankDumps) int {
			return cmp.Or(natural.Compare(a.path, b.path), cmp.Compare(a.path, b.path))
		})
		for i, p := range parts {
			rank := r
			if i > 0 || r == input.NoRank {
				rank, next = next, next+1
			}
			for _, f := range p.files {
				f.Rank = rank
			}
			paths = append(paths, p.path)
			ranks = append(ranks, rank)
		}
	}
	return []Note{{Kind: NoteRanksNumbered, Ranks: &RankNumbering{Clash: clash, Paths: paths, ByTrace: true, ByTime: byTime, Ranks: ranks}}}, nil
}

// logRanks maps each log under a rank folder of dirRanks (or a folder
// below one) to that folder's rank; without a snapshot's rank folder
// there, under a rank folder of the memory_stats readings
// (memStatsDirRanks).
func logRanks(logs []*gpulog.GPULog, dirRanks map[string]int) map[string]int {
	if stats := memStatsDirRanks(logs); len(stats) > 0 {
		merged := maps.Clone(stats)
		maps.Copy(merged, dirRanks)
		dirRanks = merged
	}
	if len(dirRanks) == 0 {
		return nil
	}
	out := map[string]int{}
	for _, l := range logs {
		for d := path.Dir(l.Path); d != "." && d != "/"; d = path.Dir(d) {
			if r, ok := dirRanks[d]; ok {
				out[l.Path] = r
				break
			}
		}
	}
	return out
}

// A job whose machines each write into a folder of their own (node0/,
// node1/, gathered by the user) may log one rank's memory_stats readings
// there, with the rank on each line, beside a plain train.log with no
// rank anywhere: its OOM message is the folder's rank's, and read without
// one it is on every rank's cuda:0. memStatsDirRanks finds such rank
// folders by their evidence: folders of one pattern (ingest.PathPattern:
// node0 and node1 alike) whose memory_stats readings, with their ranks,
// are each one rank's alone, at least two ranks among them. A folder of
// the pattern whose readings are several ranks' (a machine's ranks log
// into one folder), or a single folder of one rank's readings (rank 0
// alone logs them, whoever wrote the other logs there), makes none.

// memStatsDirRanks maps each rank folder of the logs' memory_stats
// readings (see above) to its rank.
func memStatsDirRanks(logs []*gpulog.GPULog) map[string]int {
	const several = -2
	rankOf := map[string]int{}
	for _, l := range logs {
		d := path.Dir(l.Path)
		for _, r := range l.MemoryStats {
			switch old, seen := rankOf[d]; {
			case r.Rank == input.NoRank || seen && old != r.Rank:
				rankOf[d] = several
			case !seen:
				rankOf[d] = r.Rank
			}
		}
	}
	byPattern := map[string][]string{}
	for d := range rankOf {
		if d != "." {
			byPattern[ingest.PathPattern(d)] = append(byPattern[ingest.PathPattern(d)], d)
		}
	}
	var out map[string]int
	for _, dirs := range byPattern {
		ranks := map[int]bool{}
		for _, d := range dirs {
			ranks[rankOf[d]] = true
		}
		if len(dirs) < 2 || ranks[several] || len(ranks) < 2 {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		for _, d := range dirs {
			out[d] = rankOf[d]
		}
	}
	return out
}

// firstClash returns two files of group at the same place, if any.
func firstClash(group []*ingest.SnapshotFile) (a, b *ingest.SnapshotFile, ok bool) {
	seen := map[placeKey]*ingest.SnapshotFile{}
	for _, f := range group {
		pl, ok := placeOf(f)
		if !ok {
			continue
		}
		if g, dup := seen[pl]; dup {
			return g, f, true
		}
		seen[pl] = f
	}
	return nil, nil, false
}

// partByPath parts a path rank's files by their rank paths, and reports
// whether the parts are ranks: at least two, each with at least two dumps
// and no two at the same place. byWord says the parts' file names differ
// in a word (a host name), not only in folders or numbers. Parts that
// follow one another in time are stages of one process (sequential),
// unless they are runs one after another (restarted): then restart is
// true.
func partByPath(group []*ingest.SnapshotFile) (parts map[string][]*ingest.SnapshotFile, byWord, restart, ok bool) {
	paths := rankPaths(group)
	parts = map[string][]*ingest.SnapshotFile{}
	for i, f := range group {
		parts[paths[i]] = append(parts[paths[i]], f)
	}
	if len(parts) < 2 {
		return nil, false, false, false
	}
	// Ranks differ in folders or numbers. File names that differ in a
	// word are dumps of one rank (step_5_before, step_5_after; _ema,
	// teacher/student) unless their traces show two processes
	// (tracesDisjoint): a word cannot tell a host from a point of the
	// step or a model.
	var name string
	// Nor are parts that differ only in an epoch number (epoch_2_iter_100:
	// iterations counted within each epoch).
	epochless := map[string]bool{}
	for p, fs := range parts {
		shape, _ := pathShape(path.Base(p))
		if name == "" {
			name = shape
		} else if shape != name {
			byWord = true
		}
		if len(fs) < 2 {
			return nil, false, false, false
		}
		if _, _, clash := firstClash(fs); clash {
			return nil, false, false, false
		}
		epochless[ingest.EpochShape(p)] = true
	}
	if len(epochless) == 1 {
		return nil, false, false, false
	}
	if sequential(parts) {
		if byWord || !restarted(parts) {
			return nil, false, false, false
		}
		restart = true
	}
	if byWord && !tracesDisjoint(parts) {
		return nil, false, false, false
	}
	return parts, byWord, restart, true
}

// restarted reports whether parts that follow one another in time
// (sequential) are separate runs, each counting its steps from the
// start, rather than the stages of one process: each part lies in
// folders of its own (an experiment's folder, as a sweep lays them out:
// exp_a/snapshots/step_500.pickle, exp_b/snapshots/step_500.pickle); each
// part's dumps are well ordered, every dump named by a step and its
// time (the trace's latest, else the name's) later at every later step;
// and some step recurs in two parts. Laid on one axis, such parts' steps
// go back at each new run. One process's stages in one folder (epochs,
// a resumed job writing where it wrote before), a job's numbered
// attempts (attempts) and stages that carry one process's blocks on
// (carriedOn) stay one series.
func restarted(parts map[string][]*ingest.SnapshotFile) bool {
	type point struct {
		step int64
		at   time.Time
	}
	folderOf := map[string]string{}
	stepOf := map[int64]string{}
	repeats := false
	for p, fs := range parts {
		pts := make([]point, 0, len(fs))
		for _, f := range fs {
			t, ok := dumpTime(f)
			if f.Step == input.NoStep || !ok {
				return false
			}
			pts = append(pts, point{f.Step, t})
			d := path.Dir(f.Path)
			if q, seen := folderOf[d]; seen && q != p {
				return false
			}
			folderOf[d] = p
			if q, seen := stepOf[f.Step]; seen && q != p {
				repeats = true
			}
			stepOf[f.Step] = p
		}
		slices.SortFunc(pts, func(a, b point) int { return cmp.Compare(a.step, b.step) })
		for i := 1; i < len(pts); i++ {
			if pts[i].step == pts[i-1].step || !pts[i-1].at.Before(pts[i].at) {
				return false
			}
		}
	}
	return repeats && !attempts(parts) && !carriedOn(parts)
}

// carriedOn reports whether some two parts adjacent in time are one
// process going on: the last dump of the earlier and the first of the
// later share a live block (device, address, size) and an allocation
// stack, and the time between them is less than restartGapFactor times
// the parts' median interval between dumps. One process writing each
// stage of a curriculum into a folder of its own, its step counter
// starting again (mem/short_ctx/step_100, mem/long_ctx/step_100), keeps
// its parameters and optimizer state where they were and dumps at its
// usual pace across the change. A new run's blocks are at new addresses
// unless its allocator replays the first run's exactly (the same
// allocations in a fresh process, which a generator or a
// deterministic address space may give): then only a long wait before it
// (a requeued job, a sweep's next experiment a day on) tells it apart
// here; a sweep's next run started at once at the same addresses reads
// as one process. Without blocks or times nothing carries on.
func carriedOn(parts map[string][]*ingest.SnapshotFile) bool {
	var all []*ingest.SnapshotFile
	for _, fs := range parts {
		all = append(all, fs...)
	}
	at, _, ok := dumpTimes(all)
	if !ok {
		return false
	}
	byTime := func(x, y *ingest.SnapshotFile) int {
		return cmp.Or(at[x].Compare(at[y]), cmp.Compare(x.Path, y.Path))
	}
	slices.SortStableFunc(all, byTime)
	cadence := medianInterval(all, at)
	if cadence <= 0 {
		return false
	}
	type span struct{ first, last *ingest.SnapshotFile }
	spans := make([]span, 0, len(parts))
	for _, fs := range parts {
		sp := span{first: slices.MinFunc(fs, byTime), last: slices.MaxFunc(fs, byTime)}
		spans = append(spans, sp)
	}
	slices.SortFunc(spans, func(a, b span) int { return byTime(a.first, b.first) })
	ls := liveSets{}
	for i := 1; i < len(spans); i++ {
		x, y := spans[i-1].last, spans[i].first
		if at[y].Sub(at[x]) >= restartGapFactor*cadence {
			continue
		}
		lx, ly := ls.of(x), ls.of(y)
		if lx.keepsAlive(ly) && sameCode(lx, ly) {
			return true
		}
	}
	return false
}

// attempts reports whether the parts' folders are numbered attempts of
// one job: the folder where their paths first differ has names that
// differ in one number alone (attempt0/, attempt1/; torchrun's
// attempt_N), which grows with the parts' times: a job restarted (from a
// checkpoint or from the start) into a new folder each time. Experiments
// of a sweep differ in their settings' words or several numbers
// (exp_lr1e-3_bs64/, exp_lr3e-4_bs32/).
func attempts(parts map[string][]*ingest.SnapshotFile) bool {
	type part struct {
		dirs  []string
		start time.Time
	}
	var ps []part
	for _, fs := range parts {
		p := part{dirs: strings.Split(path.Dir(fs[0].Path), "/")}
		for _, f := range fs {
			if t, ok := dumpTime(f); ok && (p.start.IsZero() || t.Before(p.start)) {
				p.start = t
			}
		}
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b part) int { return a.start.Compare(b.start) })
	// at is the first folder level where the parts' paths differ.
	at := -1
	for lvl := 0; at < 0; lvl++ {
		for _, p := range ps {
			if lvl >= len(p.dirs) {
				return false
			}
			if p.dirs[lvl] != ps[0].dirs[lvl] {
				at = lvl
			}
		}
	}
	shape, nums := pathShape(ps[0].dirs[at])
	slot := -1
	prev := int64(-1)
	for _, p := range ps {
		sh, ns := pathShape(p.dirs[at])
		if sh != shape {
			return false
		}
		for j := range ns {
			if ns[j] == nums[j] {
				continue
			}
			if slot >= 0 && slot != j {
				return false
			}
			slot = j
		}
	}
	if slot < 0 {
		return false
	}
	for _, p := range ps {
		_, ns := pathShape(p.dirs[at])
		n, err := strconv.ParseInt(ns[slot], 10, 64)
		if err != nil || n <= prev {
			return false
		}
		prev = n
	}
	return true
}

// tracesDisjoint reports whether the parts' traces show them to be the
// dumps of different processes: every two dumps of different parts at
// one place in the run (their clashes) have traces that cover the same
// time with no event in common (snapshot.CompareWindows: Disjoint on some
// device, Shared on none). A dump without trace times (PyTorch before
// 2.2, or no trace), ranges that do not overlap, or a shared event keeps
// the parts one process.
func tracesDisjoint(parts map[string][]*ingest.SnapshotFile) bool {
	part := map[*ingest.SnapshotFile]string{}
	byPlace := map[placeKey][]*ingest.SnapshotFile{}
	var places []placeKey
	for p, fs := range parts {
		for _, f := range fs {
			part[f] = p
			pl, ok := placeOf(f)
			if !ok {
				continue
			}
			if _, seen := byPlace[pl]; !seen {
				places = append(places, pl)
			}
			byPlace[pl] = append(byPlace[pl], f)
		}
	}
	pairs, tw := 0, traceWindows{}
	for _, pl := range places {
		fs := byPlace[pl]
		for i, a := range fs {
			for _, b := range fs[i+1:] {
				if part[a] == part[b] {
					continue
				}
				pairs++
				if tw.overlap(a, b) != snapshot.OverlapDisjoint {
					return false
				}
			}
		}
	}
	return pairs > 0
}

// traceWindows holds each file's trace windows once: a full snapshot's
// are found by hashing every trace event (Snapshot.TraceWindows), and a
// file is compared with several others.
type traceWindows map[*ingest.SnapshotFile][]snapshot.TraceWindow

func (tw traceWindows) of(f *ingest.SnapshotFile) []snapshot.TraceWindow {
	w, ok := tw[f]
	if !ok {
		w = f.Snapshot.TraceWindows()
		tw[f] = w
	}
	return w
}

// overlap is what the traces of a and b say of their processes: Shared
// on some device both have a trace of, else Disjoint on some, else
// Unknown (also when either file was not read).
func (tw traceWindows) overlap(a, b *ingest.SnapshotFile) snapshot.Overlap {
	if a.Snapshot == nil || b.Snapshot == nil {
		return snapshot.OverlapUnknown
	}
	wa, wb := tw.of(a), tw.of(b)
	out := snapshot.OverlapUnknown
	for d := range min(len(wa), len(wb)) {
		switch snapshot.CompareWindows(wa[d], wb[d]) {
		case snapshot.OverlapShared:
			return snapshot.OverlapShared
		case snapshot.OverlapDisjoint:
			out = snapshot.OverlapDisjoint
		}
	}
	return out
}

// sequential reports whether the parts' dumps follow one another in time,
// each part ending before the next begins: stages of one rank (epochs, a
// job resumed from a checkpoint), not ranks side by side. Each dump's
// time is its trace's latest, else the time in its name (the clock may
// differ from dump to dump); it is false when some dump has neither.
func sequential(parts map[string][]*ingest.SnapshotFile) bool {
	return oneAfterAnother(parts, dumpTime)
}

// dumpTime is a dump's time: its trace's latest, else the time in its
// name; false when it has neither.
func dumpTime(f *ingest.SnapshotFile) (time.Time, bool) {
	if f.Snapshot != nil {
		if t, ok := f.Snapshot.LatestTime(); ok {
			return t, true
		}
	}
	if f.OrderKind == ingest.OrderTimestamp {
		return time.Unix(0, f.Order), true
	}
	return time.Time{}, false
}

// oneAfterAnother reports whether the parts' time spans (each part's
// earliest to latest dump, as at times them) follow one another: sorted
// by start, each ends strictly before the next begins, so that no two
// overlap. It is false when at gives some dump no time.
func oneAfterAnother(parts map[string][]*ingest.SnapshotFile, at func(*ingest.SnapshotFile) (time.Time, bool)) bool {
	type span struct{ lo, hi time.Time }
	var spans []span
	for _, fs := range parts {
		var sp span
		for _, f := range fs {
			t, ok := at(f)
			if !ok {
				return false
			}
			if sp.lo.IsZero() || t.Before(sp.lo) {
				sp.lo = t
			}
			if t.After(sp.hi) {
				sp.hi = t
			}
		}
		spans = append(spans, sp)
	}
	slices.SortFunc(spans, func(a, b span) int { return a.lo.Compare(b.lo) })
	for i := 1; i < len(spans); i++ {
		if !spans[i-1].hi.Before(spans[i].lo) {
			return false
		}
	}
	return true
}

// firstPath is the first of group's rank paths in natural order.
func firstPath(group []*ingest.SnapshotFile) string {
	paths := rankPaths(group)
	return slices.MinFunc(paths, func(a, b string) int { return cmp.Or(natural.Compare(a, b), cmp.Compare(a, b)) })
}
