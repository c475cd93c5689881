package gpulog

import (
	"regexp"
	"strconv"
	"strings"

	"gpureport/input"
)

// A training log may also print torch.cuda.memory_summary(), every few
// steps or after a caught OOM:
//
//	|===========================================================================|
//	|                  PyTorch CUDA memory summary, device ID 0                 |
//	|---------------------------------------------------------------------------|
//	|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |
//	|===========================================================================|
//	|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |
//	|---------------------------------------------------------------------------|
//	| Allocated memory      |  14324 MiB |  14324 MiB |  14324 MiB |      0 B   |
//	|       from large pool |  ...
//	| GPU reserved memory   |  ...
//
// Each table is one memory_stats() reading (MemoryStatsSample) of the
// device it names: the Cur Usage of allocated, active, reserved and
// non-releasable memory, and the OOM and retry counters. PyTorch prints
// binary sizes ("KB" and "MB" in older releases mean KiB and MiB), rounded
// to a whole number of the unit it picks, so a reading is exact to under
// a thousandth. The step is the last "step N" or "iteration N" written in
// the lines before the table, within summaryStepLines; the time and rank
// are the header line's prefix ("2024-05-01 12:00:00,123", "[rank3]:"),
// as for OOM messages.

// summaryStepLines bounds how far before a memory summary a step number is
// looked for: a training loop's own log line is just above the table it
// prints, a step from further up belongs to something else.
const summaryStepLines = 20

var (
	reSummaryHeader = regexp.MustCompile(`PyTorch CUDA memory summary, device ID (\d+)`)
	reSummaryCounts = regexp.MustCompile(`CUDA OOMs:\s*(\d+)\s*\|\s*cudaMalloc retries:\s*(\d+)`)
	reSummaryRow    = regexp.MustCompile(`\|\s*(Allocated memory|Active memory|GPU reserved memory|Reserved memory|Non-releasable memory)\s*\|\s*` +
		sizeRE + `\s*\|`)
	reLogStep = regexp.MustCompile(`(?i)\b(?:global_step|step|iteration|iter)\b\s*[:=#]?\s*(\d+)`)
)

// summaryState follows memory summary tables through a training log.
type summaryState struct {
	// cur is the reading of the table being read; nil outside one.
	cur *MemoryStatsSample
	// step is the last step number written, at line stepLine.
	step     int64
	stepLine int
}

// line reads line n of the log; it returns true when the line belongs to a
// memory summary table.
// summaryHeader matches reSummaryHeader where the line holds its words:
// summaryState.line runs on every line of every text log.
func summaryHeader(line string) []string {
	if !strings.Contains(line, "memory summary") {
		return nil
	}
	return reSummaryHeader.FindStringSubmatch(line)
}

func (s *summaryState) line(b *logBuilder, n int, line string) bool {
	if m := summaryHeader(line); m != nil {
		s.flush(b)
		dev, _ := atoi(m[1])
		r := MemoryStatsSample{Step: input.NoStep, Device: dev, Rank: input.NoRank, Line: n,
			Allocated: Unknown, Reserved: Unknown, Active: Unknown, InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown}
		if s.stepLine > 0 && n-s.stepLine <= summaryStepLines {
			r.Step = s.step
		}
		r.Time, r.Rank = b.lineTimeRank(line)
		s.cur = &r
		return true
	}
	// Every line of a table ends with its right border; a log line
	// written between tables ("step 200 | loss 1.9") does not.
	if s.cur == nil || !strings.HasSuffix(strings.TrimRight(line, " \t\r"), "|") {
		s.flush(b)
		if !mayNameStep(line) {
			return false
		}
		if m := reLogStep.FindAllStringSubmatch(line, -1); m != nil {
			if v, err := strconv.ParseInt(m[len(m)-1][1], 10, 64); err == nil {
				s.step, s.stepLine = v, n
			}
		}
		return false
	}
	r := s.cur
	if m := reSummaryCounts.FindStringSubmatch(line); m != nil {
		r.NumOOMs, _ = strconv.ParseInt(m[1], 10, 64)
		r.NumAllocRetries, _ = strconv.ParseInt(m[2], 10, 64)
	}
	if m := reSummaryRow.FindStringSubmatch(line); m != nil {
		v := parseSize(m[2], m[3])
		switch m[1] {
		case "Allocated memory":
			r.Allocated = v
		case "Active memory":
			r.Active = v
		case "GPU reserved memory", "Reserved memory":
			r.Reserved = v
		case "Non-releasable memory":
			r.InactiveSplit = v
		}
	}
	return true
}

// flush ends the table being read, keeping its reading when it gave
// allocated or reserved memory.
func (s *summaryState) flush(b *logBuilder) {
	if s.cur == nil {
		return
	}
	if s.cur.Allocated >= 0 || s.cur.Reserved >= 0 {
		b.log.MemoryStats = append(b.log.MemoryStats, *s.cur)
	}
	s.cur = nil
}

// mayNameStep is a quick test that rules out the lines reLogStep cannot
// match (most lines of a GPU log, which is read as a training log too):
// those without "step" or "iter" in any case. Both words have a 't' or
// 'T' second, which strings.IndexByte finds faster than a loop over every
// byte.
func mayNameStep(line string) bool {
	for _, t := range [2]byte{'t', 'T'} {
		for i := 1; i < len(line); {
			j := strings.IndexByte(line[i:], t)
			if j < 0 {
				break
			}
			j += i
			if j+3 <= len(line) && line[j+1]|0x20 == 'e' {
				switch line[j-1] | 0x20 {
				case 's':
					if line[j+2]|0x20 == 'p' {
						return true
					}
				case 'i':
					if line[j+2]|0x20 == 'r' {
						return true
					}
				}
			}
			i = j + 1
		}
	}
	return false
}
