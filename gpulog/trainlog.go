package gpulog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gpureport/input"
	"gpureport/internal/units"
)

// A training job's own stdout/stderr, read for out-of-memory messages
// and for memory_summary() tables (trainlog_summary.go). The messages:
//
//   - PyTorch 2.x: "torch.OutOfMemoryError: CUDA out of memory. Tried to
//     allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which
//     1.23 GiB is free. [Process N has X memory in use.] Including
//     non-PyTorch memory, this process has 77.85 GiB memory in use. Of the
//     allocated memory 75.10 GiB is allocated by PyTorch, and 1.20 GiB is
//     reserved by PyTorch but unallocated. ..." (2.0 and 2.1 spell
//     "capacty");
//   - before 2.0: "RuntimeError: CUDA out of memory. Tried to allocate
//     20.00 MiB (GPU 0; 15.78 GiB total capacity; 13.2 GiB already
//     allocated; 5.69 MiB free; 14.62 GiB reserved in total by PyTorch)"
//     (older still: "... cached)");
//   - "CUDA error: out of memory" (a kernel launch or cuBLAS/cuDNN
//     workspace failing outside the caching allocator);
//   - NCCL's "Cuda failure 'out of memory'" and "Failed to CUDA calloc N
//     bytes" warnings.
//
// ROCm's "HIP out of memory" is read like CUDA's. A "[rank3]:" prefix
// (PyTorch's distributed error output) or "[default3]:" (torchrun --tee,
// the local rank) gives the rank; a leading date ("2024-05-01
// 12:00:00,123") the time. Identical messages (same rank, kind and
// numbers: a traceback echoed by torchrun's error summary) count once,
// with Count saying how often they were written. A quoted phrase that is
// not followed by the message's numbers (Python source printed in a
// traceback: `if "CUDA out of memory" in str(e)`) is not a message.

// maxTrainingLogScan bounds the bytes discovery reads of a text file to
// find an OOM message: 1 GiB is far beyond a job's stdout (a verbose
// multi-day job writes tens of MB) and keeps a stray text dump from
// stalling discovery (about a second at disk speed).
const maxTrainingLogScan = 1 << 30

// maxOOMMessage bounds TrainingOOM.Message, in bytes.
const maxOOMMessage = 500

var (
	sizeRE       = `(\d+(?:\.\d+)?)\s*(bytes|B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)`
	reOOMPhrase  = regexp.MustCompile(`(?:CUDA|HIP) out of memory`)
	reTried      = regexp.MustCompile(`Tried to allocate ` + sizeRE)
	reNewCap     = regexp.MustCompile(`GPU (\d+) has a total capac\w* of ` + sizeRE + ` of which ` + sizeRE + ` is free`)
	reInUse      = regexp.MustCompile(`this process has ` + sizeRE + ` memory in use`)
	reByPyTorch  = regexp.MustCompile(sizeRE + ` is allocated by PyTorch`)
	reUnalloc    = regexp.MustCompile(sizeRE + ` is reserved by PyTorch but unallocated`)
	reOldGPU     = regexp.MustCompile(`\(GPU (\d+);`)
	reOldCap     = regexp.MustCompile(sizeRE + ` total capacity`)
	reOldAlloc   = regexp.MustCompile(sizeRE + ` already allocated`)
	reOldFree    = regexp.MustCompile(sizeRE + ` free`)
	reOldRes     = regexp.MustCompile(sizeRE + ` reserved in total by PyTorch`)
	reOldCached  = regexp.MustCompile(sizeRE + ` cached\)`)
	reCalloc     = regexp.MustCompile(`Failed to CUDA calloc (\d+) bytes`)
	reRankPrefix = regexp.MustCompile(`^\s*\[(rank|default|RANK |rank )(\d+)\]:?`)
	reDatePrefix = regexp.MustCompile(`^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?`)
)

// classifyOOMLine tells whether a line is an out-of-memory message, and
// of which kind.
func classifyOOMLine(line string) (OOMKind, bool) {
	if !strings.Contains(line, "out of memory") && !strings.Contains(line, "CUDA calloc") {
		return "", false
	}
	if loc := reOOMPhrase.FindStringIndex(line); loc != nil {
		quoted := loc[0] > 0 && (line[loc[0]-1] == '"' || line[loc[0]-1] == '\'')
		if quoted && !strings.Contains(line[loc[1]:], "Tried to allocate") {
			return "", false
		}
		if strings.Contains(line, "(GPU ") && strings.Contains(line, "total capacity") {
			return OOMTorchLegacy, true
		}
		return OOMTorch, true
	}
	switch {
	case strings.Contains(line, "CUDA error: out of memory"):
		return OOMCUDAError, true
	case strings.Contains(line, "Cuda failure 'out of memory'"), strings.Contains(line, "Cuda failure \"out of memory\""),
		strings.Contains(line, "NCCL") && strings.Contains(line, "out of memory"):
		return OOMNCCL, true
	case reCalloc.MatchString(line):
		return OOMNCCL, true
	}
	return "", false
}

// SniffTrainingLog reads a text file (at most maxTrainingLogScan bytes)
// and reports whether some line of it is an out-of-memory message. head
// is the start of the file discovery already read: binary content (NUL
// bytes) is not scanned.
func SniffTrainingLog(r io.Reader, head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 || len(head) == 0 {
		return false
	}
	sc := bufio.NewScanner(io.LimitReader(r, maxTrainingLogScan))
	sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	// Memory summary tables are followed as ReadLog follows them, so that
	// a log is claimed exactly when one gives a reading.
	var sum summaryState
	scratch := newLogBuilder(FormatTrainingLog, ReadOptions{Location: time.UTC})
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		n++
		if sum.cur != nil || reSummaryHeader.Match(line) {
			sum.line(scratch, n, string(line))
			if len(scratch.log.MemoryStats) > 0 {
				return true
			}
		}
		if !bytes.Contains(line, []byte("out of memory")) && !bytes.Contains(line, []byte("CUDA calloc")) {
			continue
		}
		if _, ok := classifyOOMLine(string(line)); ok {
			return true
		}
	}
	sum.flush(scratch)
	return len(scratch.log.MemoryStats) > 0
}

// parseSize reads a regexp's number and unit submatches as bytes; PyTorch
// prints binary units (and "bytes" below 1 KiB).
func parseSize(num, unit string) int64 {
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return Unknown
	}
	u, ok := units.UnitBytes(unit, units.Binary)
	if !ok {
		u = 1
	}
	if f*float64(u) > float64(maxMiB)*mib {
		return Unknown
	}
	return int64(f * float64(u))
}

func sizeOf(re *regexp.Regexp, s string, i int) int64 {
	n, _ := sizeAndSlack(re, s, i)
	return n
}

// sizeAndSlack is sizeOf with how far the true size may be from the
// printed one: half the value of the last printed digit ("793.71 MiB":
// 0.005 MiB, 5,242 bytes; "20 B": 0).
func sizeAndSlack(re *regexp.Regexp, s string, i int) (int64, int64) {
	m := re.FindStringSubmatch(s)
	if m == nil || len(m) < i+2 {
		return Unknown, 0
	}
	n := parseSize(m[i], m[i+1])
	if n < 0 {
		return n, 0
	}
	u, ok := units.UnitBytes(m[i+1], units.Binary)
	if !ok {
		u = 1
	}
	decimals := 0
	if dot := strings.IndexByte(m[i], '.'); dot >= 0 {
		decimals = len(m[i]) - dot - 1
	}
	return n, int64(0.5 * float64(u) / math.Pow10(decimals))
}

// parseOOM reads one message's numbers.
func (b *logBuilder) parseOOM(n int, line string, kind OOMKind) TrainingOOM {
	o := TrainingOOM{Line: n, Count: 1, Kind: kind, Rank: input.NoRank, Device: -1, Requested: Unknown, Capacity: Unknown,
		Free: Unknown, ProcessInUse: Unknown, Allocated: Unknown, Reserved: Unknown, ReservedUnallocated: Unknown}
	msg := line
	o.Time, o.Rank = b.lineTimeRank(msg)
	o.Requested, o.RequestedSlack = sizeAndSlack(reTried, msg, 1)
	switch kind {
	case OOMTorch:
		if m := reNewCap.FindStringSubmatch(msg); m != nil {
			o.Device, _ = atoi(m[1])
			o.Capacity = parseSize(m[2], m[3])
			o.Free = parseSize(m[4], m[5])
		}
		o.ProcessInUse = sizeOf(reInUse, msg, 1)
		o.Allocated = sizeOf(reByPyTorch, msg, 1)
		o.ReservedUnallocated = sizeOf(reUnalloc, msg, 1)
		if o.Allocated >= 0 && o.ReservedUnallocated >= 0 {
			o.Reserved = o.Allocated + o.ReservedUnallocated
		}
	case OOMTorchLegacy:
		if m := reOldGPU.FindStringSubmatch(msg); m != nil {
			o.Device, _ = atoi(m[1])
		}
		o.Capacity = sizeOf(reOldCap, msg, 1)
		o.Allocated = sizeOf(reOldAlloc, msg, 1)
		o.Free = sizeOf(reOldFree, msg, 1)
		o.Reserved = sizeOf(reOldRes, msg, 1)
		if o.Reserved < 0 {
			o.Reserved = sizeOf(reOldCached, msg, 1)
		}
		if o.Reserved >= 0 && o.Allocated >= 0 && o.Reserved >= o.Allocated {
			o.ReservedUnallocated = o.Reserved - o.Allocated
		}
	case OOMNCCL:
		if m := reCalloc.FindStringSubmatch(msg); m != nil {
			o.Requested = parseSize(m[1], "B")
		}
	}
	msg = strings.TrimSpace(msg)
	if len(msg) > maxOOMMessage {
		msg = msg[:maxOOMMessage] + "..."
	}
	o.Message = msg
	return o
}

// lineTimeRank reads the time and rank a training log line's prefix
// gives: a leading date ("2024-05-01 12:00:00,123"), zero when none; a
// "[rank3]:" or torchrun's "[default3]:", input.NoRank when none.
func (b *logBuilder) lineTimeRank(line string) (t time.Time, rank int) {
	rank = input.NoRank
	if m := reDatePrefix.FindStringSubmatch(line); m != nil {
		stamp := m[1]
		if m[2] != "" {
			stamp += "." + m[2]
		}
		if st, zoneless, ok := parseStamp(strings.Replace(stamp, "T", " ", 1), b.opt.Location); ok {
			t = st
			if zoneless {
				b.log.Zoneless = true
			}
		}
	}
	if m := reRankPrefix.FindStringSubmatch(line); m != nil {
		if r, ok := atoi(m[2]); ok {
			rank = r
			if m[1] == "default" {
				b.note("ranks of OOM messages and memory summaries come from torchrun's \"[defaultN]:\" prefix, which is the local rank on its node")
			}
		}
	}
	return t, rank
}

// sameOOM reports whether two messages report the same event: same kind,
// rank, device and numbers.
func sameOOM(a, b TrainingOOM) bool {
	return a.Kind == b.Kind && a.Rank == b.Rank && a.Device == b.Device && a.Requested == b.Requested &&
		a.Capacity == b.Capacity && a.Free == b.Free && a.Allocated == b.Allocated && a.Reserved == b.Reserved &&
		a.ReservedUnallocated == b.ReservedUnallocated && a.ProcessInUse == b.ProcessInUse
}

// oomEchoLines bounds how far apart two identical messages may be to be
// one event written twice (the exception line, then torchrun's error
// summary quoting it): a few hundred lines of traceback and summary.
const oomEchoLines = 400

// ncclEventLines bounds the distance of NCCL warnings that describe one
// failure (its CUDA error line, then the failed allocation, a few lines
// apart).
const ncclEventLines = 10

func readTrainingLog(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	var sum summaryState
	defer sum.flush(b)
	for {
		line, ln, ok := b.nextLine(lr)
		if !ok {
			break
		}
		if sum.line(b, ln, line) {
			continue
		}
		kind, ok := classifyOOMLine(line)
		if !ok {
			continue
		}
		o := b.parseOOM(ln, line, kind)
		if n := len(b.log.OOMs); n > 0 && kind == OOMNCCL {
			// NCCL reports one failure in several WARN lines (the CUDA
			// error, then the allocation that failed): one event.
			if prev := &b.log.OOMs[n-1]; prev.Kind == OOMNCCL && prev.Rank == o.Rank && o.Line-prev.Line <= ncclEventLines {
				if prev.Requested < 0 {
					prev.Requested = o.Requested
				}
				continue
			}
		}
		merged := false
		for i := len(b.log.OOMs) - 1; i >= 0; i-- {
			prev := &b.log.OOMs[i]
			if o.Line-prev.Line > oomEchoLines {
				break
			}
			if sameOOM(*prev, o) {
				prev.Count++
				merged = true
				break
			}
		}
		if !merged {
			b.log.OOMs = append(b.log.OOMs, o)
		}
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}
