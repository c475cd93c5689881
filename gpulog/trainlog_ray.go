package gpulog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gpureport/input"
)

// Ray Train's TorchTrainer logs its workers when it starts them
// (ray/train/_internal/backend_executor.py), each line behind the
// trainer actor's prefix:
//
//	(TorchTrainer pid=1138, ip=10.244.4.193) Started distributed worker processes:
//	(TorchTrainer pid=1138, ip=10.244.4.193) - (node_id=3ea8..., ip=10.244.5.17, pid=877) world_rank=1, local_rank=0, node_rank=1
//
// the worker's process id and its global rank. A worker's own output is
// forwarded to the driver behind "(RayTrainWorker pid=877, ip=...)", and
// a worker's exception reaches the driver as a RayTaskError chain whose
// last link names the failed actor: "ray.exceptions.RayTaskError(
// OutOfMemoryError): ray::_RayTrainWorker__execute.get_next() (pid=877,
// ip=..., actor_id=..., repr=<...RayTrainWorker object ...>)", the
// worker's traceback and its exception following. An OOM message behind
// a worker's prefix, or in the traceback of such a chain (the chain's
// worker link within rayChainLines above it), is that worker's: its rank
// is the world_rank the table gives the pid, on the same host (the ip,
// when both give one: process ids repeat across machines). A pid the
// table does not list leaves the rank unknown.

var (
	// reRayWorker is a worker line of the table: ip, pid and world rank.
	reRayWorker = regexp.MustCompile(`\(node_id=[0-9a-f]+, ip=([0-9a-fA-F.:]+), pid=(\d+)\) world_rank=(\d+)\b`)
	// reRayPrefix is a worker's forwarded output: pid and ip.
	reRayPrefix = regexp.MustCompile(`^\s*\(RayTrainWorker pid=(\d+)(?:, ip=([0-9a-fA-F.:]+))?\)`)
	// reRayChain is a RayTaskError link naming a Ray Train worker actor.
	reRayChain = regexp.MustCompile(`RayTaskError\(\w+\).*?\(pid=(\d+)(?:, ip=([0-9a-fA-F.:]+))?,.*RayTrainWorker`)
)

// rayChainLines bounds how far below a RayTaskError link its worker's
// exception is: the link, then the worker's traceback frames (two lines
// each, a training script's stack tens of calls deep); farther, the
// message is taken to be another failure's.
const rayChainLines = 60

// rayProc is a process as Ray names it.
type rayProc struct {
	pid int
	ip  string
}

// rayState follows a Ray Train driver log.
type rayState struct {
	// ranks maps a worker to its world rank.
	ranks map[rayProc]int
	// chain is the worker of the last RayTaskError link, at line chainN.
	chain  rayProc
	chainN int
	noted  bool
}

// observe reads line n for the table and the chain's links.
func (r *rayState) observe(n int, line string) {
	if !strings.Contains(line, "pid=") {
		return
	}
	if m := reRayWorker.FindStringSubmatch(line); m != nil {
		pid, _ := strconv.Atoi(m[2])
		rank, err := strconv.Atoi(m[3])
		if err == nil {
			if r.ranks == nil {
				r.ranks = map[rayProc]int{}
			}
			r.ranks[rayProc{pid, m[1]}] = rank
		}
		return
	}
	if m := reRayChain.FindStringSubmatch(line); m != nil {
		pid, _ := strconv.Atoi(m[1])
		r.chain, r.chainN = rayProc{pid, m[2]}, n
	}
}

// rank is the world rank of the worker whose OOM message starts at line
// n (first), input.NoRank when the log does not say.
func (r *rayState) rank(n int, first string) (int, rayProc) {
	if len(r.ranks) == 0 {
		return input.NoRank, rayProc{}
	}
	var p rayProc
	if m := reRayPrefix.FindStringSubmatch(first); m != nil {
		p.pid, _ = strconv.Atoi(m[1])
		p.ip = m[2]
	} else if r.chainN > 0 && n-r.chainN <= rayChainLines {
		p = r.chain
	} else {
		return input.NoRank, rayProc{}
	}
	rank, found := input.NoRank, 0
	for q, k := range r.ranks {
		if q.pid == p.pid && (p.ip == "" || q.ip == p.ip) {
			rank, found = k, found+1
		}
	}
	if found != 1 {
		// Not listed, or the same pid on several hosts without an ip.
		return input.NoRank, rayProc{}
	}
	return rank, p
}

// note says, once, how a rank was found.
func (r *rayState) note(b *logBuilder, rank int, p rayProc) {
	if r.noted {
		return
	}
	r.noted = true
	b.note(fmt.Sprintf("Ray Train: an out-of-memory message of worker pid %d is given world rank %d, as the TorchTrainer's table of its workers (\"(node_id=..., ip=..., pid=N) world_rank=R\") lists it; the message is the worker's by its (RayTrainWorker pid=N) prefix or the RayTaskError link naming it above the traceback", p.pid, rank))
}
