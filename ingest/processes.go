package ingest

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
)

// One process's dumps form one series: analysis groups a run's snapshots
// by the rank their paths give (RankFromPath) and the CUDA device inside
// them. Paths do not always give each process a rank of its own:
//
//	node0/rank0/…, node1/rank0/…     local ranks on several nodes
//	worker_3/…, proc3_step_5, gpu3_step_5, snapshot_pid4103_step5
//	                                 no rank word, each process on its cuda:0
//
// Grouped by rank alone, such dumps alternate in one series that has every
// step twice, and the trend is fitted to the zigzag between processes.
//
// separateProcesses finds these runs by their evidence: two dumps that
// share a rank and a place in the run (phase and step, or phase and order
// number) cannot come from one process. It then reads each file's process
// from its path with the numbers that place the file set aside (the step
// or order number, and numbers that differ from file to file): what is
// left, its folders and other numbers, is the same for all the dumps of
// one process. When that parts every such pair, into processes of at
// least two dumps each that differ only in folders and numbers (not in
// the words of their file names: step_5_before and step_5_after are two
// dumps of one process; nor only in an epoch number, nor in time ranges
// that follow one another: epochs and a resumed job are stages of one
// process), the processes are numbered as ranks in the
// natural order of those paths (node0/rank1 before node1/rank0:
// torchrun's global ranks, when nodes are numbered by node rank), and a
// note says which path became which rank.

// placeKey is where a dump falls in its process's run.
type placeKey struct {
	phase Phase
	kind  OrderKind
	// step says n is a step; otherwise n is an order number of kind.
	step bool
	n    int64
}

// placeOf returns f's place, and false when its name gives none (its
// order then comes from its content or file time).
func placeOf(f *SnapshotFile) (placeKey, bool) {
	switch {
	case f.Step != input.NoStep:
		return placeKey{phase: f.Phase, step: true, n: f.Step}, true
	case f.OrderKind != OrderNone:
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

// processPaths returns, for each file, its path with the numbers that
// place it among its process's dumps written as "*": within the files of
// one path shape, a digit run that equals the file's step or order number
// in every file, or that differs in every file.
func processPaths(files []*SnapshotFile) []string {
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

// maxProcessNames bounds the processes a note names one by one.
const maxProcessNames = 8

// separateProcesses gives the dumps of processes that share a rank in
// their paths ranks of their own (see above), and returns the note that
// says so (nil when every rank's dumps come from one process) and, for
// each process whose dumps fill a folder of their own, that folder's new
// rank: the logs in it (a rank's memory_stats lines) are that process's.
func separateProcesses(files []*SnapshotFile) (notes []string, dirRanks map[string]int) {
	byRank := map[int][]*SnapshotFile{}
	var ranks []int
	for _, f := range files {
		if _, ok := byRank[f.Rank]; !ok {
			ranks = append(ranks, f.Rank)
		}
		byRank[f.Rank] = append(byRank[f.Rank], f)
	}
	slices.Sort(ranks)
	// A process's path is its files' process path (processPaths); the
	// path of a rank left whole is filled in only when some rank splits,
	// as it is needed only to order the numbering.
	type process struct {
		path  string
		files []*SnapshotFile
	}
	var procs []process
	var clash [2]string
	split := false
	for _, r := range ranks {
		group := byRank[r]
		a, b, ok := firstClash(group)
		if !ok {
			procs = append(procs, process{files: group})
			continue
		}
		parts, ok := partByPath(group)
		if !ok {
			procs = append(procs, process{files: group})
			continue
		}
		if !split {
			clash = [2]string{a.Path, b.Path}
		}
		split = true
		for p, fs := range parts {
			procs = append(procs, process{path: p, files: fs})
		}
	}
	if !split {
		return nil, nil
	}
	for i := range procs {
		if procs[i].path == "" {
			procs[i].path = firstPath(procs[i].files)
		}
	}
	slices.SortFunc(procs, func(a, b process) int { return cmp.Or(NaturalCompare(a.path, b.path), cmp.Compare(a.path, b.path)) })
	var names []string
	dirRanks = map[string]int{}
	dirOwners := map[string]int{}
	for i, p := range procs {
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
		if i < maxProcessNames {
			names = append(names, fmt.Sprintf("rank %d %s", i, p.path))
		}
	}
	if len(procs) > maxProcessNames {
		names = append(names, fmt.Sprintf("and %d more", len(procs)-maxProcessNames))
	}
	for d, n := range dirOwners {
		if n > 1 {
			delete(dirRanks, d)
		}
	}
	return []string{fmt.Sprintf("the snapshot paths do not give each process a rank of its own (%s and %s are dumps of one place in the run): "+
		"the %d processes their paths tell apart are numbered as ranks in path order: %s",
		clash[0], clash[1], len(procs), strings.Join(names, ", "))}, dirRanks
}

// logRanks maps each log under a folder of dirRanks (or a folder below
// one) to that folder's rank.
func logRanks(logs []*gpulog.GPULog, dirRanks map[string]int) map[string]int {
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

// LogRank is the rank the path of log l gives: the rank of the process
// folder it lies in when loading numbered the processes
// (separateProcesses), else RankFromPath; input.NoRank when none.
func (r *Run) LogRank(l *gpulog.GPULog) int {
	if rank, ok := r.logRanks[l.Path]; ok {
		return rank
	}
	return RankFromPath(l.Path)
}

// firstClash returns two files of group at the same place, if any.
func firstClash(group []*SnapshotFile) (a, b *SnapshotFile, ok bool) {
	seen := map[placeKey]*SnapshotFile{}
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

// partByPath parts a rank's files by their process paths, and reports
// whether the parts are processes: at least two, each with at least two
// dumps and no two at the same place.
func partByPath(group []*SnapshotFile) (map[string][]*SnapshotFile, bool) {
	paths := processPaths(group)
	parts := map[string][]*SnapshotFile{}
	for i, f := range group {
		parts[paths[i]] = append(parts[paths[i]], f)
	}
	if len(parts) < 2 {
		return nil, false
	}
	// Processes differ in folders or numbers; file names that differ in
	// words (step_5_before, step_5_after) are two dumps of one process.
	var name string
	// Nor are parts that differ only in an epoch number (epoch_2_iter_100:
	// iterations counted within each epoch).
	epochless := map[string]bool{}
	for p, fs := range parts {
		shape, _ := pathShape(path.Base(p))
		if name == "" {
			name = shape
		} else if shape != name {
			return nil, false
		}
		if len(fs) < 2 {
			return nil, false
		}
		if _, _, clash := firstClash(fs); clash {
			return nil, false
		}
		epochless[epochRE.ReplaceAllStringFunc(p, func(m string) string { return strings.TrimRight(m, "0123456789") + "#" })] = true
	}
	if len(epochless) == 1 || sequential(parts) {
		return nil, false
	}
	return parts, true
}

// sequential reports whether the parts' dumps follow one another in time,
// each part ending before the next begins: stages of one process (epochs,
// a job resumed from a checkpoint), not processes side by side. It is
// false when some dump has no time (trace or file name).
func sequential(parts map[string][]*SnapshotFile) bool {
	type span struct{ lo, hi time.Time }
	var spans []span
	for _, fs := range parts {
		var sp span
		for _, f := range fs {
			var t time.Time
			var ok bool
			if f.Snapshot != nil {
				t, ok = f.Snapshot.LatestTime()
			}
			if !ok && f.OrderKind == OrderTimestamp {
				t, ok = time.Unix(0, f.Order), true
			}
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

func firstPath(group []*SnapshotFile) string {
	paths := processPaths(group)
	return slices.MinFunc(paths, func(a, b string) int { return cmp.Or(NaturalCompare(a, b), cmp.Compare(a, b)) })
}
