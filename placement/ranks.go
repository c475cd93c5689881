package placement

import (
	"cmp"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
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
// least two dumps each that differ only in folders and numbers (not in
// the words of their file names: step_5_before and step_5_after are two
// dumps of one rank; nor only in an epoch number, nor in time ranges
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
	type rankDumps struct {
		path  string
		files []*ingest.SnapshotFile
	}
	var found []rankDumps
	var clash [2]string
	split := false
	for _, r := range ranks {
		group := byRank[r]
		a, b, ok := firstClash(group)
		if !ok {
			found = append(found, rankDumps{files: group})
			continue
		}
		parts, ok := partByPath(group)
		if !ok {
			found = append(found, rankDumps{files: group})
			continue
		}
		if !split {
			clash = [2]string{a.Path, b.Path}
		}
		split = true
		for p, fs := range parts {
			found = append(found, rankDumps{path: p, files: fs})
		}
	}
	if !split {
		return nil, nil
	}
	for i := range found {
		if found[i].path == "" {
			found[i].path = firstPath(found[i].files)
		}
	}
	slices.SortFunc(found, func(a, b rankDumps) int {
		return cmp.Or(ingest.NaturalCompare(a.path, b.path), cmp.Compare(a.path, b.path))
	})
	paths := make([]string, len(found))
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
	return []Note{{Kind: NoteRanksNumbered, Ranks: &RankNumbering{Clash: clash, Paths: paths}}}, dirRanks
}

// logRanks maps each log under a rank folder of dirRanks (or a folder
// below one) to that folder's rank.
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
// and no two at the same place.
func partByPath(group []*ingest.SnapshotFile) (map[string][]*ingest.SnapshotFile, bool) {
	paths := rankPaths(group)
	parts := map[string][]*ingest.SnapshotFile{}
	for i, f := range group {
		parts[paths[i]] = append(parts[paths[i]], f)
	}
	if len(parts) < 2 {
		return nil, false
	}
	// Ranks differ in folders or numbers; file names that differ in words
	// (step_5_before, step_5_after) are two dumps of one rank.
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
		epochless[ingest.EpochShape(p)] = true
	}
	if len(epochless) == 1 || sequential(parts) {
		return nil, false
	}
	return parts, true
}

// sequential reports whether the parts' dumps follow one another in time,
// each part ending before the next begins: stages of one rank (epochs, a
// job resumed from a checkpoint), not ranks side by side. It is false
// when some dump has no time (trace or file name).
func sequential(parts map[string][]*ingest.SnapshotFile) bool {
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
			if !ok && f.OrderKind == ingest.OrderTimestamp {
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

// firstPath is the first of group's rank paths in natural order.
func firstPath(group []*ingest.SnapshotFile) string {
	paths := rankPaths(group)
	return slices.MinFunc(paths, func(a, b string) int { return cmp.Or(ingest.NaturalCompare(a, b), cmp.Compare(a, b)) })
}
