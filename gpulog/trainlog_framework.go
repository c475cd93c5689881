package gpulog

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gpureport/input"
	"gpureport/internal/units"
)

// Training frameworks print the caching allocator's figures on a line of
// their own every few steps. Each such line is one memory_stats reading
// (MemoryStatsSample) of the process's device, current allocated and
// reserved bytes, at the step the line (or the message just above it)
// names; the time and rank are the line's prefix, as for OOM messages.
// The frameworks, and why their units are what they are:
//
//   - Megatron-LM's report_memory (megatron/training/utils.py):
//     "[Rank 0] (after 10 iterations) memory (MB) | allocated: 1234.5 |
//     max allocated: 2345.6 | reserved: 3000.0 | max reserved: 3000.0".
//     It divides torch.cuda.memory_allocated() and memory_reserved() by
//     mega_bytes = 1024.0 * 1024.0, so its "MB" is MiB. Releases before
//     PyTorch 1.4's rename print "cached" and "max cached":
//     torch.cuda.memory_cached() was memory_reserved()'s old name, the
//     whole cache, so it is read as reserved. "max allocated" and "max
//     reserved" (max_memory_allocated() and max_memory_reserved(), never
//     reset: the peaks since the process started) are the reading's
//     PeakAllocated and PeakReserved; some releases printing "max cached"
//     computed it from memory_reserved(), the current figure, which as a
//     peak is never too high. The line has no time of its
//     own; it takes the time of the line just above it when that is the
//     same iteration's log line (" [2024-05-01 12:01:00] iteration 10/
//     500000 | ...", which training_log prints just before it).
//   - DeepSpeed's see_memory_usage (deepspeed/runtime/utils.py):
//     "MA 1.2 GB  Max_MA 3.4 GB  CA 4.0 GB  Max_CA 5 GB". MA is
//     memory_allocated() and CA memory_reserved(), divided by
//     1024 * 1024 * 1024 and rounded to two decimals, so "GB" is GiB (to
//     within 5 MiB); forks that pick "KB" or "MB" divide by 1024 and
//     1024*1024 likewise. Max_MA is max_memory_allocated() in MA's unit
//     and precision, and see_memory_usage resets the peaks after each
//     call: it is the reading's PeakAllocated, the peak since the previous
//     call. Max_CA is not read: it is rounded to a whole GiB, so it can
//     lie up to 512 MiB from the peak reserved memory either way. The
//     message see_memory_usage logs on the line
//     before ("After step 10") gives the step when it names one.
//   - torchtitan's metrics processor: "step: 10  loss: 7.9  memory:
//     31.02GiB(39.21%)  tps: ...". The figure is
//     memory_stats()["reserved_bytes.all.peak"] / 1024**3 (its _to_gib,
//     "GiB (gibibyte) is 1024"), and the peak is reset after every logged
//     step (reset_peak_stats): it is the most reserved memory since the
//     previous logged step. The caching allocator returns reserved memory
//     only at empty_cache() or when an allocation fails, so that peak is
//     the reserved memory at the step unless memory was released in the
//     interval; it is read as reserved, with a note saying so.
//   - print(torch.cuda.memory_stats()) in a training loop: the dict (or,
//     before PyTorch 2.0, the OrderedDict) printed on one line, bytes and
//     counts as memory_stats() returns them; a "step N" before it on the
//     line gives the step, else the nearest line before it that names a
//     step, of the same rank, with no other reading between them
//     (print(f"epoch {e} step {s}") just before the dict). Steps so
//     taken must increase from reading to reading (settleSteps): a count
//     that restarts every epoch ("epoch 3 iter 90/100") gives the global
//     step E*N+i, and steps that neither increase nor compose are
//     dropped, the readings kept in log order.
//
// Lines are recognised by these shapes only: a figure is read with the
// unit its framework prints, never guessed. The vision toolkits' lines,
// which print a peak alone, are read by peakLine (trainlog_peak.go).

var (
	reMegatronMemory = regexp.MustCompile(`\bmemory \((B|KB|MB|GB)\)\s*\|\s*allocated:\s*` + fwNum + `\s*\|\s*max allocated:\s*` + fwNum +
		`\s*\|\s*(?:reserved|cached):\s*` + fwNum + `\s*\|\s*max (?:reserved|cached):\s*` + fwNum)
	reMegatronStep      = regexp.MustCompile(`\(after (\d+) iterations?\)`)
	reMegatronIteration = regexp.MustCompile(`\biteration\s+(\d+)\s*/`)
	reDeepSpeedMemory   = regexp.MustCompile(`\bMA\s+` + fwNum + `\s*(B|KB|MB|GB)\s+Max_MA\s+` + fwNum + `\s*(B|KB|MB|GB)\s+CA\s+` + fwNum +
		`\s*(B|KB|MB|GB)\s+Max_CA\b`)
	reTitanMemory = regexp.MustCompile(`\bstep:\s*(\d[\d,]*)\s.*?\bmemory:\s*` + fwNum + `\s*(GiB|MiB)`)
	reStatsDict   = regexp.MustCompile(`['"](allocated_bytes\.all\.current|reserved_bytes\.all\.current|active_bytes\.all\.current|` +
		`inactive_split_bytes\.all\.current|num_alloc_retries|num_ooms)['"]\s*[:,]\s*(\d+)`)
	// reLoggerName is a logger's name in brackets between a rank and a
	// time ("[rank0]:[titan] 2024-05-01 12:00:00,000 - ...").
	reLoggerName = regexp.MustCompile(`^\s*\[[A-Za-z_][\w.-]{0,40}\]:?\s*`)
)

// fwNum is a figure as the frameworks print it (Python's str of a float,
// or a fixed-point format).
const fwNum = `(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)`

// fwStepLines bounds how far above a DeepSpeed memory line its message
// is: see_memory_usage logs the message, then the figures, so the message
// is the line just before.
const fwStepLines = 1

// frameworkState follows framework memory lines through a training log.
type frameworkState struct {
	// prev is the line before the current one, prevN its number.
	prev  string
	prevN int
	// noted marks the frameworks whose note was added.
	noted map[string]bool
	// flushes sums the allocator cache flushes DeepSpeed's warnings
	// count (cacheFlushes).
	flushes cacheFlushes
	// before is the step line since the last reading (stepBefore).
	before stepLine
	// yolo follows YOLOv5's and Ultralytics' progress lines.
	yolo yoloState
	// hand counts hand-written prints (trainlog_handwritten.go).
	hand handState
	// given are the readings whose step came from the line before them or
	// with an epoch beside it, checked at the end (settleSteps).
	given []givenStep
	// tqdm follows tqdm bars' GPU memory postfixes.
	tqdm tqdmState
}

// givenStep is a reading whose step may not be a step of the run: one
// taken from the line before it (before), or read beside an epoch and a
// per-epoch count ("epoch 3 iter 90/100"); composed is the global step
// that pair gives (epochIterStep), input.NoStep when the line has none.
type givenStep struct {
	i        int // index in the log's MemoryStats
	composed int64
	before   bool
}

// stepLine is the nearest line before a reading that names a step
// ("epoch 0 step 500", printed before print(torch.cuda.memory_stats())),
// with no reading between them: step is its step, rank the rank its
// prefix gives (input.NoRank when none), ok false when there is none.
type stepLine struct {
	step, composed int64
	rank           int
	ok             bool
}

// noteStep keeps line's step as the step before the next reading, when
// it names one.
func (f *frameworkState) noteStep(line string) {
	if !mayNameStep(line) {
		return
	}
	m := reLogStep.FindAllStringSubmatch(line, -1)
	if m == nil {
		// "Epoch [1/10], Step [100/600]": the count in brackets.
		m = reCountOf.FindAllStringSubmatch(line, -1)
	}
	if m != nil {
		if v, err := strconv.ParseInt(m[len(m)-1][1], 10, 64); err == nil {
			f.before = stepLine{step: v, composed: epochIterStep(line), rank: readLineHead(line).rank, ok: true}
		}
	}
}

// cacheFlushes sums DeepSpeed ZeRO-3's (and SageMaker FSDP's) warning
// "N pytorch allocator cache flushes since last step": after each step,
// rank 0 compares memory_stats()["num_alloc_retries"] with its value at
// the previous step and prints the difference when it rose
// (deepspeed/runtime/zero/stage3.py). A retry is a cudaMalloc that failed
// until the allocator freed its whole cache: memory pressure, or cached
// memory too fragmented to serve the request.
type cacheFlushes struct {
	// total is the sum of the flushes (retries) the warnings count;
	// warnings how many warnings, first and last their line numbers.
	total, warnings, first, last int
}

// reCacheFlushes is DeepSpeed's warning; the number is the flushes since
// the previous step.
var reCacheFlushes = regexp.MustCompile(`\b(\d+) pytorch allocator cache flushes since last step\b`)

// mayBeFrameworkLine is a quick test that rules out most lines before
// frameworkState.line looks at them.
func mayBeFrameworkLine(line string) bool {
	return strings.Contains(line, "memory (") || strings.Contains(line, "Max_MA") || strings.Contains(line, "memory:") ||
		strings.Contains(line, "_bytes.all.current") || strings.Contains(line, "allocator cache flushes") || mayBePeakLine(line) ||
		strings.Contains(line, "gb_free")
}

// end notes, at the end of the log, the allocator cache flushes its
// warnings counted.
func (f *frameworkState) end(b *logBuilder) {
	f.settleSteps(b)
	f.hand.end(b)
	f.tqdm.end(b)
	c := f.flushes
	if c.warnings == 0 {
		return
	}
	b.log.CacheFlushes += c.total
	where := fmt.Sprintf("line %d", c.first)
	if c.warnings > 1 {
		where = fmt.Sprintf("lines %d-%d", c.first, c.last)
	}
	flushes := units.Count(int64(c.total)) + " allocator cache flushes"
	if c.total == 1 {
		flushes = "1 allocator cache flush"
	}
	b.note(fmt.Sprintf("DeepSpeed warned of %s in %s (%s): each is a cudaMalloc retried after the allocator freed its whole cache (num_alloc_retries rising on rank 0), a sign of memory pressure or of cached memory too fragmented to serve requests; PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True counters fragmentation, a smaller micro-batch or activation checkpointing the pressure",
		flushes, units.CountOf(c.warnings, "warning"), where))
}

// line reads line n of the log; it returns true when the line is a
// framework memory line that gave a reading.
func (f *frameworkState) line(b *logBuilder, n int, line string) bool {
	prev, prevN := f.prev, f.prevN
	f.prev, f.prevN = line, n
	before := f.before
	if f.yolo.line(b, n, line) || f.tqdm.line(b, line) {
		return true
	}
	if !mayBeFrameworkLine(line) && !mayBeHandLine(line) {
		f.noteStep(line)
		return false
	}
	if strings.IndexByte(line, 0x1b) >= 0 {
		line = visibleText(line)
	}
	if m := reCacheFlushes.FindStringSubmatch(line); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil && v > 0 {
			c := &f.flushes
			if c.warnings == 0 {
				c.first = n
			}
			c.total, c.warnings, c.last = c.total+v, c.warnings+1, n
		}
		return true
	}
	r := MemoryStatsSample{Step: input.NoStep, Rank: input.NoRank, Allocated: Unknown, Reserved: Unknown, Active: Unknown,
		InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown, DeviceAssumed: true}
	var given *givenStep // the step to check at the end (settleSteps)
	framework, note, at, peak := peakLine(&r, line)
	switch {
	case peak:
		r.Time, r.Rank = fwTimeRank(b, line[:at])
	case strings.Contains(line, "gb_free"):
		if !fairseqLine(b, &r, line) {
			return false
		}
		framework = "fairseq"
		note = "fairseq's gb_free (the device's total memory less torch.cuda.max_memory_allocated() over the last step, in GiB to 0.1: fairseq divides by 1024**3 and resets the peak after every step) is read with the total its CUDA environment line gives rank 0's device, as the peak allocated memory of the step, to within 0.05 GiB, on the process's device, assumed to be cuda:0; the lines give no current allocated or reserved memory, and the trend is fitted on these per-step peaks, whose floor a leak raises"
	case reMegatronMemory.MatchString(line):
		m := reMegatronMemory.FindStringSubmatch(line)
		r.Allocated, r.Reserved = fwBytes(m[2], m[1]), fwBytes(m[4], m[1])
		r.PeakAllocated, r.PeakReserved = max(fwBytes(m[3], m[1]), 0), max(fwBytes(m[5], m[1]), 0)
		if s := reMegatronStep.FindStringSubmatch(line); s != nil {
			r.Step = fwStep(s[1])
		}
		r.Time, r.Rank = fwTimeRank(b, line)
		if r.Time.IsZero() && r.Step != input.NoStep && prevN == n-1 {
			if it := reMegatronIteration.FindStringSubmatch(prev); it != nil && fwStep(it[1]) == r.Step {
				r.Time, _ = fwTimeRank(b, prev)
			}
		}
		framework = "megatron"
		note = "Megatron-LM memory lines (\"memory (MB) | allocated: ... | reserved: ...\", MB meaning MiB: Megatron divides by 1024*1024) are read as memory_stats readings (current allocated and reserved, with max allocated and max reserved as their peaks since the process started) of the rank's device, assumed to be cuda:0"
	case reDeepSpeedMemory.MatchString(line):
		m := reDeepSpeedMemory.FindStringSubmatch(line)
		r.Allocated, r.Reserved = fwBytes(m[1], m[2]), fwBytes(m[5], m[6])
		r.PeakAllocated = max(fwBytes(m[3], m[4]), 0)
		if prevN > 0 && n-prevN <= fwStepLines {
			if s := reLogStep.FindAllStringSubmatch(prev, -1); s != nil {
				r.Step = fwStep(s[len(s)-1][1])
			}
		}
		r.Time, r.Rank = fwTimeRank(b, line)
		framework = "deepspeed"
		note = "DeepSpeed see_memory_usage lines (MA is allocated, CA reserved, Max_MA the peak allocated since the previous such line; GB meaning GiB: DeepSpeed divides by 1024**3 and rounds to 0.01) are read as memory_stats readings of the process's device, assumed to be cuda:0; readings taken at different points of a step are one series"
	case reTitanMemory.MatchString(line):
		m := reTitanMemory.FindStringSubmatch(line)
		r.Step = fwStep(strings.ReplaceAll(m[1], ",", ""))
		r.Reserved = fwBytes(m[2], m[3])
		r.Time, r.Rank = fwTimeRank(b, line)
		framework = "torchtitan"
		note = "torchtitan's \"memory:\" figure (GiB) is the peak reserved memory since the previous logged step (torchtitan resets the peak after each); it is read as the reserved memory of the rank's device at the step, assumed to be cuda:0"
	default:
		ms := reStatsDict.FindAllStringSubmatchIndex(line, -1)
		if len(ms) == 0 {
			// Tried last: the lines above name allocated and reserved
			// memory too. Its note is added at the end (handState.end).
			above := ""
			if prevN == n-1 {
				above = prev
			}
			rs, g := f.hand.line(b, r, line, above)
			if len(rs) == 0 {
				f.noteStep(line) // a step line that names GPU memory too
				return false
			}
			for _, x := range rs[:len(rs)-1] {
				// One reading per device a line names.
				f.add(b, x, g)
			}
			r, given = rs[len(rs)-1], g
			framework = "handwritten"
			break
		}
		for _, m := range ms {
			v, err := strconv.ParseInt(line[m[4]:m[5]], 10, 64)
			if err != nil || v > maxMiB*mib {
				continue
			}
			switch line[m[2]:m[3]] {
			case "allocated_bytes.all.current":
				r.Allocated = v
			case "reserved_bytes.all.current":
				r.Reserved = v
			case "active_bytes.all.current":
				r.Active = v
			case "inactive_split_bytes.all.current":
				r.InactiveSplit = v
			case "num_alloc_retries":
				r.NumAllocRetries = v
			case "num_ooms":
				r.NumOOMs = v
			}
		}
		if s := reLogStep.FindAllStringSubmatch(line[:ms[0][0]], -1); s != nil {
			r.Step = fwStep(s[len(s)-1][1])
			if c := epochIterStep(line[:ms[0][0]]); c != input.NoStep {
				given = &givenStep{composed: c}
			}
		} else if before.ok && before.rank == readLineHead(line).rank {
			// A loop that prints its step, then the dict, on lines of
			// their own: the step is the nearest step line before the
			// dict, of the same process (rank), with no reading between.
			r.Step = before.step
			given = &givenStep{composed: before.composed, before: true}
		}
		r.Time, r.Rank = fwTimeRank(b, line)
		framework = "memory_stats"
		note = "torch.cuda.memory_stats() dicts printed in the log are read as memory_stats readings (bytes) of the process's device, assumed to be cuda:0"
	}
	if r.Allocated < 0 && r.Reserved < 0 && r.PeakAllocated <= 0 {
		return false
	}
	f.before = stepLine{}
	if note != "" && !f.noted[framework] {
		if f.noted == nil {
			f.noted = map[string]bool{}
		}
		f.noted[framework] = true
		b.note(note)
	}
	f.add(b, r, given)
	return true
}

// add appends reading r to the log, and its step to those to check when
// given is not nil.
func (f *frameworkState) add(b *logBuilder, r MemoryStatsSample, given *givenStep) {
	b.log.MemoryStats = append(b.log.MemoryStats, r)
	if given != nil && r.Step != input.NoStep {
		g := *given
		g.i = len(b.log.MemoryStats) - 1
		f.given = append(f.given, g)
	}
}

// reEpoch is an epoch number ("epoch 3", "Epoch [3/10]", "epoch: 3").
var reEpoch = regexp.MustCompile(`(?i)\bepoch\b\s*[:=#]?\s*\[?\s*(\d{1,6})\b`)

// reCountOf is a count within its epoch with the epoch's length ("iter
// 90/100", "step [90/100]", "batch 90/100").
var reCountOf = regexp.MustCompile(`(?i)\b(?:step|iteration|iter|batch)\b\s*[:=#]?\s*\[?\s*(\d{1,9})\s*/\s*(\d{1,9})\b`)

// epochIterStep is the global step a line's epoch and its count within the
// epoch give (epoch E, iteration i of N: E*N + i), input.NoStep when the
// line does not print both, with the epoch's length. Whether the count
// restarts each epoch, the line does not say: settleSteps uses this step
// only when the counts alone do not increase.
func epochIterStep(line string) int64 {
	e := reEpoch.FindStringSubmatch(line)
	c := reCountOf.FindAllStringSubmatch(line, -1)
	if e == nil || c == nil {
		return input.NoStep
	}
	m := c[len(c)-1]
	ep, err1 := strconv.ParseInt(e[1], 10, 64)
	i, err2 := strconv.ParseInt(m[1], 10, 64)
	n, err3 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || n <= 0 || i > n {
		return input.NoStep
	}
	// At most 10^6 epochs of 10^9 counts (the patterns' digits): no
	// overflow.
	return ep*n + i
}

// settleSteps checks, per process (rank) and device, the steps of the
// readings that took theirs from the line before them or read them beside
// an epoch: a loop that prints "epoch E iter i/N" before each reading
// gives counts that restart every epoch, so the same few steps repeat
// and the readings would collapse onto them. The counts are kept when
// they increase from reading to reading in the log; else the epochs'
// global steps (epochIterStep) when every such reading has one and they
// increase; else the readings whose step came from the line before lose
// it (they are read in log order), and a note says so.
func (f *frameworkState) settleSteps(b *logBuilder) {
	type key struct{ rank, device int }
	groups := map[key][]givenStep{}
	var order []key
	ms := b.log.MemoryStats
	for _, g := range f.given {
		if g.i >= len(ms) {
			continue
		}
		k := key{ms[g.i].Rank, ms[g.i].Device}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], g)
	}
	var composed, dropped int
	for _, k := range order {
		gs := groups[k]
		increasing := func(step func(givenStep) int64) bool {
			for j := 1; j < len(gs); j++ {
				if step(gs[j]) <= step(gs[j-1]) || step(gs[j]) == input.NoStep {
					return false
				}
			}
			return step(gs[0]) != input.NoStep
		}
		switch {
		case increasing(func(g givenStep) int64 { return ms[g.i].Step }):
		case increasing(func(g givenStep) int64 { return g.composed }):
			for _, g := range gs {
				ms[g.i].Step = g.composed
			}
			composed += len(gs)
		default:
			for _, g := range gs {
				if g.before {
					ms[g.i].Step = input.NoStep
					dropped++
				}
			}
		}
	}
	if composed > 0 {
		b.note(fmt.Sprintf("%s printed with an epoch and a count that restarts every epoch (\"epoch E iter i/N\") are placed at step E*N+i: the counts alone repeat from epoch to epoch", units.CountOf(composed, "memory reading")))
	}
	if dropped > 0 {
		b.note(fmt.Sprintf("%s took a step from the line before them, but those steps do not increase from reading to reading (a count that restarts, or lines that are not this loop's steps): the readings are read in log order", units.CountOf(dropped, "memory reading")))
	}
}

// fwBytes converts a figure in a framework's unit (binary: every
// framework read here divides by powers of 1024) to bytes, rounded;
// Unknown when it is not a size a device holds.
func fwBytes(num, unit string) int64 {
	v, err := strconv.ParseFloat(num, 64)
	u, ok := units.UnitBytes(unit, units.Binary)
	if err != nil || !ok || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || v*float64(u) > float64(maxMiB)*mib {
		return Unknown
	}
	return int64(math.Round(v * float64(u)))
}

// fwStep reads a step number, input.NoStep when it is not one.
func fwStep(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return input.NoStep
	}
	return v
}

// fwTimeRank is lineTimeRank, also past a logger's bracketed name between
// the rank and the time ("[rank0]:[titan] 2024-05-01 12:00:00,000").
func fwTimeRank(b *logBuilder, line string) (time.Time, int) {
	t, rank := b.lineTimeRank(line)
	if !t.IsZero() {
		return t, rank
	}
	h := readLineHead(line)
	if loc := reLoggerName.FindStringIndex(h.rest); loc != nil {
		t2, rank2 := b.lineTimeRank(h.rest[loc[1]:])
		if rank == input.NoRank {
			rank = rank2
		}
		return t2, rank
	}
	return t, rank
}
