package ingest

import (
	"cmp"
	"fmt"
	"gpureport/internal/natural"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gpureport/input"
)

// Launchers that write one log file per process name it by rank in ways
// of their own:
//
//	nemo_log_globalrank-2_localrank-0.txt              NeMo's exp_manager (global, then local rank)
//	LOG_DIR/<run_id>/attempt_1/0/stderr.log            torchrun --log_dir (restart 1, local rank 0)
//
// RankFromPath reads them (launcherPathRank); rankFromName notes a
// torchelastic attempt folder, which numbers the workers' restarts.

var (
	// globalRankRE is NeMo's "globalrank-N" (also globalrank_N,
	// global_rank-N): the global rank, which a "localrank-M" after it
	// does not override.
	globalRankRE = regexp.MustCompile(`(?i)(?:^|[^a-z])global_?rank[_-]?(\d+)`)
	// attemptRE is torchelastic's attempt folder, attempt_N: the N-th
	// restart of the workers (0 the first start).
	attemptRE = regexp.MustCompile(`^attempt_(\d{1,6})$`)
	// localRankDirRE is the folder torchelastic names by the local rank
	// inside an attempt folder.
	localRankDirRE = regexp.MustCompile(`^\d{1,6}$`)
)

// launcherPathRank reads the rank that one path component (part, at
// index i of parts) names in a launcher's own form; ok false when none.
func launcherPathRank(parts []string, i int) (int, bool) {
	part := parts[i]
	if ms := globalRankRE.FindAllStringSubmatch(part, -1); len(ms) > 0 {
		if n, err := strconv.Atoi(ms[len(ms)-1][1]); err == nil {
			return n, true
		}
	}
	// torchelastic: a folder of digits inside attempt_N, holding the
	// worker's files.
	if i > 0 && i < len(parts)-1 && localRankDirRE.MatchString(part) && attemptRE.MatchString(parts[i-1]) {
		if n, err := strconv.Atoi(part); err == nil {
			return n, true
		}
	}
	return input.NoRank, false
}

// elasticAttempt returns the attempt folder's restart number of a file
// torchelastic wrote (attempt_N/<local rank>/file), and its local rank;
// ok false for any other path.
func elasticAttempt(rel string) (attempt, local int, ok bool) {
	_, attempt, local, ok = elasticWorker(rel)
	return attempt, local, ok
}

// elasticWorker reads the path of a file torchelastic wrote,
// MACHINE/<run_id>/attempt_N/<local rank>/file: the folder the run folder
// lies in (machine: "" when the run folder is at the top of the run), the
// restart number and the local rank; ok false for any other path.
func elasticWorker(rel string) (machine string, attempt, local int, ok bool) {
	parts := strings.Split(strings.ReplaceAll(rel, `\`, "/"), "/")
	if len(parts) < 3 {
		return "", 0, 0, false
	}
	m := attemptRE.FindStringSubmatch(parts[len(parts)-3])
	if m == nil || !localRankDirRE.MatchString(parts[len(parts)-2]) {
		return "", 0, 0, false
	}
	attempt, err1 := strconv.Atoi(m[1])
	local, err2 := strconv.Atoi(parts[len(parts)-2])
	if len(parts) > 4 {
		machine = strings.Join(parts[:len(parts)-4], "/")
	}
	return machine, attempt, local, err1 == nil && err2 == nil
}

// A multi-node torchrun job writes torchelastic's worker logs on every
// node, each numbered by local rank (LOG_DIR/<run_id>/attempt_N/<local
// rank>/), and a user gathers them one folder per node (node0/logs/...,
// node1/logs/...). Read by its path alone, node1's worker 0 is rank 0
// like node0's: the two processes merge into one device. The folder the
// run folder lies in is the machine (the run folder is no part of it:
// torchelastic names it <run_id>_<random> on each node). When the logs
// lie in several such folders, each is a machine of its own, and its
// workers are numbered as torchrun numbers global ranks: machines in the
// natural order of their folders (node2 before node10), each machine's
// local ranks after the ones of the machines before it (the most a
// machine's folder shows, over its attempts, counted from its local-rank
// folders whatever their files hold: the workers whose logs are empty or
// hold nothing read were ranks all the same). A rank the line itself
// gives is kept. One machine's logs keep their local ranks, as before.

// elasticNode is what a torchelastic worker's log path says of its writer
// on a job of several machines (elasticNodeRanks).
type elasticNode struct {
	// Rank is its global rank; Local its local rank on Machine, the folder
	// that holds its machine's run folder.
	Rank, Local int
	Machine     string
	// Machines is how many machines the job's logs name.
	Machines int
	// Named is true when the machines' folders are numbered 0 to
	// Machines-1 (node0, node1): named after their node ranks, whose
	// order the global ranks then follow for certain. Host names
	// (gpu-node-17, gpu-node-09) say nothing of the order torchrun's
	// rendezvous gave the machines.
	Named bool
}

// reTrailingNumber matches the number a folder name ends with.
var reTrailingNumber = regexp.MustCompile(`(\d+)$`)

// nodeRankNamed reports whether the folders of machines (paths, sorted)
// are numbered 0 to len(machines)-1 in their first part that differs,
// in order: node0, node1, ... named after their node ranks.
func nodeRankNamed(machines []string) bool {
	split := make([][]string, len(machines))
	depth := -1
	for i, m := range machines {
		split[i] = strings.Split(m, "/")
	}
	for d := 0; depth < 0; d++ {
		for _, p := range split {
			if d >= len(p) || p[d] != split[0][d] {
				depth = d
				break
			}
		}
	}
	for i, p := range split {
		if depth >= len(p) {
			return false
		}
		m := reTrailingNumber.FindString(p[depth])
		if n, err := strconv.Atoi(m); err != nil || n != i {
			return false
		}
	}
	return true
}

// elasticNodeRanks gives, for each path of rels (every file of the run,
// read or skipped) that torchelastic wrote (elasticWorker) when such
// paths lie in at least two machine folders,
// its writer's global rank and machine (see above); nil when they lie in
// one or none.
func elasticNodeRanks(rels []string) map[string]elasticNode {
	workers := map[string]int{}
	for _, rel := range rels {
		if machine, _, local, ok := elasticWorker(rel); ok {
			workers[machine] = max(workers[machine], local+1)
		}
	}
	worker := elasticWorker
	if _, top := workers[""]; top && len(workers) == 1 {
		if hw := hostFolderWorkers(rels); len(hw) >= 2 {
			workers, worker = hw, hostFolderWorker
		}
	}
	if len(workers) < 2 {
		return nil
	}
	machines := make([]string, 0, len(workers))
	for m := range workers {
		machines = append(machines, m)
	}
	slices.SortFunc(machines, natural.Compare)
	offset, first := map[string]int{}, 0
	for _, m := range machines {
		offset[m] = first
		first += workers[m]
	}
	named := nodeRankNamed(machines)
	out := map[string]elasticNode{}
	for _, rel := range rels {
		if machine, _, local, ok := worker(rel); ok {
			out[rel] = elasticNode{Rank: offset[machine] + local, Local: local, Machine: machine, Machines: len(machines), Named: named}
		}
	}
	return out
}

// Machines gathered without their run folders. A user who copies each
// node's log_dir contents into a folder named after the host
// (gpu-node-09/attempt_0/0/stdout.log, gpu-node-17/attempt_0/0/...)
// leaves no folder above attempt_N's parent: read as above, that parent
// is the run folder, every worker is on one machine "", and the two
// hosts' local rank 0 merge into one device. torchelastic names the run
// folder with tempfile.mkdtemp(prefix=run_id+"_"): the run id, "_" and
// eight characters of [a-z0-9_] (mkdtempName). When every worker path has
// nothing above its attempt_N's parent, those parents differ, and none
// has mkdtemp's shape, the parents are the machines' folders, numbered
// as above (host names: in natural order, which the note calls assumed).
// Two parents of mkdtemp's shape stay one machine: two runs under one
// log_dir look the same as two nodes' run folders, and nothing tells
// them apart.

// mkdtempName matches the name torchelastic gives a run folder: the run
// id, "_", and tempfile's eight random characters.
var mkdtempName = regexp.MustCompile(`_[a-z0-9_]{8}$`)

// hostFolderWorker reads a torchelastic worker's path whose attempt_N
// folder lies in a host's folder at the top of the run
// (HOST/attempt_N/<local rank>/file): that folder is the machine; ok
// false for any other path, or when that folder has the shape of a run
// folder (mkdtempName).
func hostFolderWorker(rel string) (machine string, attempt, local int, ok bool) {
	machine, attempt, local, ok = elasticWorker(rel)
	parts := strings.Split(strings.ReplaceAll(rel, `\`, "/"), "/")
	if !ok || machine != "" || len(parts) != 4 || mkdtempName.MatchString(parts[0]) {
		return "", 0, 0, false
	}
	return parts[0], attempt, local, true
}

// hostFolderWorkers counts each host folder's workers (hostFolderWorker)
// when every torchelastic worker path of rels is a host folder's; nil
// otherwise.
func hostFolderWorkers(rels []string) map[string]int {
	workers := map[string]int{}
	for _, rel := range rels {
		if _, _, _, ok := elasticWorker(rel); !ok {
			continue
		}
		machine, _, local, ok := hostFolderWorker(rel)
		if !ok {
			return nil
		}
		workers[machine] = max(workers[machine], local+1)
	}
	return workers
}

// elasticNote is the note of a log in a torchelastic attempt folder: the
// rank is the local rank, and a later attempt is a restart. node, when
// set, is the writer on a job of several machines (elasticNodeRanks).
func elasticNote(rel string, node *elasticNode) string {
	attempt, local, ok := elasticAttempt(rel)
	if !ok {
		return ""
	}
	s := fmt.Sprintf("written by torchelastic's worker of local rank %d (folder attempt_%d/%d): its rank is the local rank on its node", local, attempt, local)
	if node != nil {
		s = fmt.Sprintf("written by torchelastic's worker of local rank %d (folder attempt_%d/%d) on the machine of folder %s, one of %d machines whose logs the run holds: "+
			"global rank %d, numbering the machines' workers in the order of their folders, as torchrun numbers global ranks node after node",
			local, attempt, local, cmp.Or(node.Machine, "."), node.Machines, node.Rank)
		if !node.Named {
			s += "; the folders are not numbered 0 to " + strconv.Itoa(node.Machines-1) + " after their node ranks (host names), so this order of the machines is assumed: " +
				"torchrun's rendezvous may have numbered them otherwise, and the local rank on its machine is what is certain"
		}
	}
	if attempt > 0 {
		s += fmt.Sprintf("; attempt_%d is restart %d of the job's workers, after a failure of the attempt before it", attempt, attempt)
	}
	return s
}
