package ingest

import (
	"fmt"
	"regexp"
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
	parts := strings.Split(strings.ReplaceAll(rel, `\`, "/"), "/")
	if len(parts) < 3 {
		return 0, 0, false
	}
	m := attemptRE.FindStringSubmatch(parts[len(parts)-3])
	if m == nil || !localRankDirRE.MatchString(parts[len(parts)-2]) {
		return 0, 0, false
	}
	attempt, err1 := strconv.Atoi(m[1])
	local, err2 := strconv.Atoi(parts[len(parts)-2])
	return attempt, local, err1 == nil && err2 == nil
}

// elasticNote is the note of a log in a torchelastic attempt folder: the
// rank is the local rank, and a later attempt is a restart.
func elasticNote(rel string) string {
	attempt, local, ok := elasticAttempt(rel)
	if !ok {
		return ""
	}
	s := fmt.Sprintf("written by torchelastic's worker of local rank %d (folder attempt_%d/%d): its rank is the local rank on its node", local, attempt, local)
	if attempt > 0 {
		s += fmt.Sprintf("; attempt_%d is restart %d of the job's workers, after a failure of the attempt before it", attempt, attempt)
	}
	return s
}
