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
//
// linePrefix reads these tokens from the start of a line until the first
// that is none of them; the rest is the message.

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
)

// lineHead is what a line's prefix says.
type lineHead struct {
	// stamp is the time as written ("" when none).
	stamp string
	// rank is the rank, input.NoRank when none; local is true when it is
	// torchrun's local rank ("[defaultN]").
	rank  int
	local bool
	// rest is the line after the prefix.
	rest string
}

// readLineHead reads the prefix tokens of line.
func readLineHead(line string) lineHead {
	h := lineHead{rank: input.NoRank}
	s := line
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
	return h
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
	return t, h.rank
}
