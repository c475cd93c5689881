package gpulog

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gpureport/input"
)

// Launchers name the process that failed after its traceback, where the
// traceback itself has no rank prefix:
//
//   - torchelastic's ChildFailedError report (torchrun, accelerate
//     launch): under "Failures:" and "Root Cause (first observed
//     failure):", each failed worker's "  rank      : 1 (local_rank: 1)",
//     the global rank (torch/distributed/elastic/multiprocessing/errors);
//   - Lightning's subprocess launcher, whose observer in the main process
//     prints rank_prefixed_message("Child process with PID P terminated
//     with code C. Forcefully terminating all other processes to avoid
//     zombies", rank=i+1) of the child i that exited: "[rank: 1] Child
//     process with PID 9921 terminated with code 1. ..." (lightning.fabric
//     strategies/launchers/subprocess_script.py). The children are the
//     node's local ranks 1 and up, the global ranks on one node.
//
// A log whose reports name one failed rank, and that holds one OOM
// message without a rank before them, which the job did not recover
// from, gives that message the rank: the process that died is the one
// that printed it. Several rankless messages, or several failed ranks,
// leave the messages rankless (which printed which is unknown).
//
// DeepSpeed's multi-node launcher runs its launcher on each node through
// pdsh, which prefixes every line of a node with "HOST: ". The launcher
// logs "WORLD INFO DICT: {'worker-0': [0, 1], 'worker-1': [0, 1]}" (each
// node's GPUs, in the order global ranks are numbered: the node's ranks
// follow those of the nodes before it) and "nnodes=2,
// num_local_procs=1, node_rank=1" (deepspeed/launcher/launch.py). A
// label is a host when some line gives a time or a rank after it
// (launcherLabel); a message after a known host's label is that
// machine's, and when the machine ran one process its global rank is the
// number of processes on the nodes before it.

var (
	// reLightningChild is Lightning's observer line, the rank of the
	// child that exited.
	reLightningChild = regexp.MustCompile(`\[rank: (\d{1,6})\] Child process with PID \d+ terminated with code -?\d+`)
	// reWorldInfo is DeepSpeed launch.py's world info, a Python dict of
	// host to GPU ids; reWorldHost one entry of it.
	reWorldInfo = regexp.MustCompile(`WORLD INFO DICT: \{(.*)\}`)
	reWorldHost = regexp.MustCompile(`'([^']+)': \[([\d, ]*)\]`)
	// reNodeRank is launch.py's line of the node's place in the job.
	reNodeRank = regexp.MustCompile(`\bnnodes=\d+, num_local_procs=(\d+), node_rank=(\d+)`)
)

// launcherState gathers what launchers say of a training log's processes.
type launcherState struct {
	// failed are the failed ranks the reports name, in order of first
	// mention; firstReport the line of the first report (0: none).
	failed      []int
	firstReport int
	// local is true when a rank came from Lightning's observer (a local
	// rank).
	local bool
	// hosts are the launcher labels ("worker-1: ") a line gave a time or
	// rank after.
	hosts map[string]bool
	// world is DeepSpeed's world info: each host and its process count,
	// in rank order; nodeRank the node rank and process count the
	// launcher logged behind each host's label.
	world    []hostProcs
	nodeRank map[string]hostProcs
}

// hostProcs is a node of DeepSpeed's world: its host, its node rank and
// how many processes it runs.
type hostProcs struct {
	host         string
	rank, nprocs int
}

// maxLabelScan bounds where a launcher's host label may end on a line: a
// host name (at most 63 bytes) and its ": ".
const maxLabelScan = 66

// line reads line n for launcher reports (torchelastic's rank lines are
// read with its report, trainingReader.read, and given to fail).
func (ls *launcherState) line(n int, line string) {
	if strings.Contains(line, "Child process with PID") {
		if m := reLightningChild.FindStringSubmatch(line); m != nil {
			r, _ := atoi(m[1])
			ls.fail(n, r, true)
		}
	}
	if i := strings.Index(line, ": "); i > 0 && i < maxLabelScan && !rePrefixPod.MatchString(line) {
		if lbl := launcherLabel(line); lbl != "" && rePrefixHost.MatchString(lbl) && !rePrefixTask.MatchString(lbl) &&
			!rePrefixLevel.MatchString(strings.TrimSuffix(lbl, " ")) {
			if ls.hosts == nil {
				ls.hosts = map[string]bool{}
			}
			ls.hosts[lbl] = true
		}
	}
	if strings.Contains(line, "WORLD INFO DICT") && ls.world == nil {
		if m := reWorldInfo.FindStringSubmatch(line); m != nil {
			for _, e := range reWorldHost.FindAllStringSubmatch(m[1], -1) {
				ids := strings.FieldsFunc(e[2], func(r rune) bool { return r == ',' || r == ' ' })
				ls.world = append(ls.world, hostProcs{host: e[1], rank: len(ls.world), nprocs: len(ids)})
			}
		}
	}
	if strings.Contains(line, "node_rank=") {
		if m := reNodeRank.FindStringSubmatch(line); m != nil {
			if host := labelMachine(launcherLabel(line)); host != "" {
				p, _ := atoi(m[1])
				k, _ := atoi(m[2])
				if ls.nodeRank == nil {
					ls.nodeRank = map[string]hostProcs{}
				}
				ls.nodeRank[host] = hostProcs{host: host, rank: k, nprocs: p}
			}
		}
	}
}

// fail records a report, at line n, that rank failed.
func (ls *launcherState) fail(n, rank int, local bool) {
	if ls.firstReport == 0 {
		ls.firstReport = n
	}
	if !slices.Contains(ls.failed, rank) {
		ls.failed = append(ls.failed, rank)
	}
	ls.local = ls.local || local
}

// machine is the machine of an OOM message's line when a known host's
// label starts it and the line's own head found none; "" otherwise.
func (ls *launcherState) machine(line string) string {
	lbl := rePrefixHost.FindString(line)
	if lbl == "" || !ls.hosts[lbl] {
		return ""
	}
	return labelMachine(lbl)
}

// hostRank is the global rank of the one process DeepSpeed's launcher ran
// on host, false when the logs do not say or it ran several.
func (ls *launcherState) hostRank(host string) (int, bool) {
	before, k := 0, -1
	for i, h := range ls.world {
		if h.host == host {
			k = i
			break
		}
	}
	if nr, ok := ls.nodeRank[host]; ok && k < 0 && nr.rank < len(ls.world) {
		k = nr.rank
	}
	if k < 0 || ls.world[k].nprocs != 1 {
		return 0, false
	}
	if nr, ok := ls.nodeRank[host]; ok && (nr.rank != k || nr.nprocs != 1) {
		// The node's own line disagrees with the world info.
		return 0, false
	}
	for _, h := range ls.world[:k] {
		before += h.nprocs
	}
	return before, true
}

// attribute gives rankless OOM messages the rank the launchers name (see
// above), noting it in b.
func (ls *launcherState) attribute(b *logBuilder) {
	ooms := b.log.OOMs
	for i := range ooms {
		o := &ooms[i]
		if o.Rank != input.NoRank || o.Machine == "" || strings.HasPrefix(o.Machine, "pod/") {
			continue
		}
		if r, ok := ls.hostRank(o.Machine); ok {
			o.Rank = r
			b.note(fmt.Sprintf("the OOM message at line %d, of host %s, is given global rank %d: DeepSpeed's launcher ran one process there, after %s on the nodes before it (its WORLD INFO DICT)",
				o.Line, o.Machine, r, units1(r, "process")))
		}
	}
	if len(ls.failed) != 1 {
		return
	}
	rankless := -1
	for i := range ooms {
		if ooms[i].Rank != input.NoRank {
			continue
		}
		if rankless >= 0 {
			return
		}
		rankless = i
	}
	if rankless < 0 {
		return
	}
	o := &ooms[rankless]
	if o.Handled || o.Line >= ls.firstReport {
		return
	}
	o.Rank = ls.failed[0]
	what := fmt.Sprintf("torchelastic's ChildFailedError report (line %d)", ls.firstReport)
	if ls.local {
		what = fmt.Sprintf("Lightning's report of the child process that exited (line %d; its rank on the node, the global rank on one node)", ls.firstReport)
	}
	b.note(fmt.Sprintf("the OOM message at line %d names no rank: it is given rank %d, the one failed process that %s names",
		o.Line, o.Rank, what))
}

// units1 is n and noun, plural unless n is 1: "1 process", "2 processes".
func units1(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
