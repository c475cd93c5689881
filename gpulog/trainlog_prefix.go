package gpulog

import (
	"regexp"
	"strings"
	"time"

	"gpureport/input"
)

// What a training log writes before a message: a time, a rank, a log
// level, in any order and with any of the separators loggers use:
//
//	2025-03-02 08:11:59 [rank6]: torch.OutOfMemoryError: ...     timestamp, then the rank
//	[rank6]:[2025-03-02 08:11:59,123] train.py:88 ...            PyTorch's distributed prefix, then logging's
//	[default3]:RuntimeError: ...                                 torchrun --tee (the local rank)
//	[6] 2025-03-02T08:11:59Z ERROR - ...                         a launcher's bare [N]
//	[1,6]<stderr>:RuntimeError: ...                              mpirun --tag-output
//	3: torch.OutOfMemoryError: ...                               srun --label (the task number)
//	worker-1: [rank9]: torch.OutOfMemoryError: ...              pdsh / DeepSpeed's launcher (the host)
//
// linePrefix reads these tokens from the start of a line until the first
// that is none of them; the rest is the message. A launcher's label comes
// first on the line: srun's task number is the rank when no other token
// gives one (Slurm numbers tasks by SLURM_PROCID, the rank torchrun-less
// jobs use), and a host name is passed over only when a rank or a time
// follows it (else "RuntimeError: ..." would be a host).

// maxPrefixTokens bounds the tokens read before a message: a time, a
// rank, a level and a few separators.
const maxPrefixTokens = 8

var (
	rePrefixTime  = regexp.MustCompile(`^\[?(\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)\]?:?`)
	rePrefixRank  = regexp.MustCompile(`^\[(?i:rank) ?(\d{1,6})\]:?`)
	rePrefixLocal = regexp.MustCompile(`^\[default(\d{1,6})\]:?`)
	rePrefixBare  = regexp.MustCompile(`^\[(\d{1,6})\]:?`)
	rePrefixMPI   = regexp.MustCompile(`^\[\d{1,6},(\d{1,6})\]<std(?:out|err)>:?`)
	rePrefixLevel = regexp.MustCompile(`^\[?(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\]?:?(?:\s|$)`)
	// rePrefixTask is srun --label's "N: "; rePrefixHost pdsh's "host: "
	// (a host name: letters, digits, '-', '_' and '.').
	rePrefixTask = regexp.MustCompile(`^ *(\d{1,6}): `)
	rePrefixHost = regexp.MustCompile(`^[A-Za-z0-9][\w.-]{0,62}: `)
)

// lineHead is what a line's prefix says.
type lineHead struct {
	// stamp is the time as written ("" when none).
	stamp string
	// rank is the rank, input.NoRank when none; local is true when it is
	// torchrun's local rank ("[defaultN]"), task when it is srun's task
	// number.
	rank  int
	local bool
	task  bool
	// label is a launcher's label before the other tokens, as written
	// ("3: ", "worker-1: "); "" when none.
	label string
	// rest is the line after the prefix.
	rest string
}

// readLineHead reads the prefix tokens of line.
func readLineHead(line string) lineHead {
	h := lineHead{rank: input.NoRank}
	h.label = launcherLabel(line)
	s := line[len(h.label):]
	for range maxPrefixTokens {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		if s[0] == '-' || s[0] == '|' || s[0] == ':' {
			s = s[1:]
			continue
		}
		if m := rePrefixTime.FindStringSubmatch(s); m != nil && h.stamp == "" {
			h.stamp = m[1]
			s = s[len(m[0]):]
			continue
		}
		if h.rank == input.NoRank {
			if r, local, rest, ok := rankToken(s); ok {
				h.rank, h.local, s = r, local, rest
				continue
			}
		}
		if m := rePrefixLevel.FindString(s); m != "" {
			s = s[len(m):]
			continue
		}
		break
	}
	h.rest = s
	if m := rePrefixTask.FindStringSubmatch(h.label); m != nil && h.rank == input.NoRank {
		h.rank, _ = atoi(m[1])
		h.task = true
	}
	return h
}

// launcherLabel is the label a launcher wrote at the start of line (see
// above), as written; "" when none.
func launcherLabel(line string) string {
	if m := rePrefixTask.FindString(line); m != "" {
		return m
	}
	if m := rePrefixHost.FindString(line); m != "" {
		rest := strings.TrimLeft(line[len(m):], " ")
		if _, _, _, ok := rankToken(rest); ok || rePrefixTime.MatchString(rest) {
			return m
		}
	}
	return ""
}

// rankToken reads a rank token at the start of s: the rank, whether it
// is torchrun's local rank, and the text after the token.
func rankToken(s string) (rank int, local bool, rest string, ok bool) {
	for _, re := range []*regexp.Regexp{rePrefixMPI, rePrefixRank, rePrefixLocal, rePrefixBare} {
		if m := re.FindStringSubmatch(s); m != nil {
			rank, _ = atoi(m[1])
			return rank, re == rePrefixLocal, s[len(m[0]):], true
		}
	}
	return input.NoRank, false, s, false
}

// lineTimeRank reads the time and rank a training log line's prefix
// gives (readLineHead): zero time and input.NoRank when none.
func (b *logBuilder) lineTimeRank(line string) (t time.Time, rank int) {
	h := readLineHead(line)
	if h.stamp != "" {
		stamp := strings.Replace(strings.Replace(h.stamp, "T", " ", 1), ",", ".", 1)
		if st, zoneless, ok := parseStamp(stamp, b.opt.Location); ok {
			t = st
			if zoneless {
				b.log.Zoneless = true
			}
		}
	}
	if h.local {
		b.note("ranks of OOM messages and memory summaries come from torchrun's \"[defaultN]:\" prefix, which is the local rank on its node")
	}
	if h.task {
		// Whether the label is a rank is known at the end of the file
		// (resolveTaskRanks).
		return t, taskRank(h.rank)
	}
	return t, h.rank
}
