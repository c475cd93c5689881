package ingest

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var (
	// rankRE finds a rank in a path: rank3, rank_3, rank-3 (any case),
	// not preceded by a letter (so "cranky1" does not count).
	rankRE = regexp.MustCompile(`(?i)(?:^|[^a-z])rank[_-]?(\d+)`)
	// stepKeywordRE finds an explicit step: step_100, iter-7, iteration100,
	// it_5, global_step=30, batch12, epoch3.
	stepKeywordRE = regexp.MustCompile(`(?i)(?:^|[^a-z])(step|iteration|iter|it|batch|epoch)[_=-]?(\d+)`)
	// numberRE finds runs of digits.
	numberRE = regexp.MustCompile(`\d+`)
	// notStepRE marks numbers that name a device or rank, not a step.
	notStepRE = regexp.MustCompile(`(?i)(?:^|[^a-z])(?:local_rank|rank|gpu|cuda|device|dev|node)[_-]?\d+`)
)

// StepFromName parses a training step from a snapshot file name (the base
// name; directories are ignored). An explicit keyword wins (step, iter,
// iteration, it, batch; epoch only when nothing finer is present);
// otherwise the last number in the name that does not name a rank or device
// is taken, so snapshot_9 sorts before snapshot_10. It returns NoStep when
// the name has no such number.
func StepFromName(p string) int64 {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	for strings.Contains(base, ".") {
		ext := path.Ext(base)
		if !isSnapshotExt(ext) && ext != ".gz" {
			break
		}
		base = strings.TrimSuffix(base, ext)
	}
	best, bestKind := NoStep, ""
	for _, m := range stepKeywordRE.FindAllStringSubmatch(base, -1) {
		kind := strings.ToLower(m[1])
		if bestKind == "" || bestKind == "epoch" {
			if n, err := strconv.ParseInt(m[2], 10, 64); err == nil {
				best, bestKind = n, kind
			}
		}
	}
	if best != NoStep {
		return best
	}
	cleaned := notStepRE.ReplaceAllString(base, "_")
	for _, loc := range slices.Backward(numberRE.FindAllStringIndex(cleaned, -1)) {
		// A number glued to the letters after it is a count or a size
		// (4dev, 8xh100, 128k), not a step.
		if end := loc[1]; end < len(cleaned) && isLetter(cleaned[end]) {
			continue
		}
		n, err := strconv.ParseInt(cleaned[loc[0]:loc[1]], 10, 64)
		if err != nil {
			return NoStep
		}
		return n
	}
	return NoStep
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// RankFromPath parses a distributed rank from any component of a path
// (rank3, rank_3, rank-3), the last one winning; NoRank when none.
func RankFromPath(p string) int {
	ms := rankRE.FindAllStringSubmatch(p, -1)
	if len(ms) == 0 {
		return NoRank
	}
	n, err := strconv.Atoi(ms[len(ms)-1][1])
	if err != nil {
		return NoRank
	}
	return n
}

func isSnapshotExt(ext string) bool {
	switch strings.ToLower(ext) {
	case ".pickle", ".pkl", ".pt", ".pth":
		return true
	}
	return false
}
