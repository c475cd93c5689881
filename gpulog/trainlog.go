package gpulog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"gpureport/input"
)

// A training job's own stdout/stderr, read for out-of-memory messages
// and for memory_summary() tables (trainlog_summary.go). The messages:
//
//   - the caching allocator's, of every PyTorch version since 1.0 and of
//     the backends that print its shape (HIP/ROCm, NPU, XPU, MLU, MUSA,
//     and Apple's MPS), read by meaning (oom_message.go;
//     docs/oom-messages.md lists the wordings);
//   - "CUDA error: out of memory" and 1.0's "cuda runtime error (2) : out
//     of memory" (a kernel launch or cuBLAS/cuDNN workspace failing
//     outside the caching allocator);
//   - NCCL's "Cuda failure 'out of memory'" and "Failed to CUDA calloc N
//     bytes" warnings, whose "host:pid:tid [N]" names the CUDA device.
//
// A line is read as a terminal shows it (visibleText: colour codes
// removed, a progress bar redrawn with carriage returns passed over). Its
// prefix gives the time and rank, in either order (trainlog_prefix.go). A
// message that a console wrapped continues on the lines after it until
// the message is whole (oomUnfinished) or a line starts something else.
// Identical messages (same rank, kind and numbers: a traceback echoed by
// torchrun's error summary) count once, with Count saying how often they
// were written. A quoted phrase that is not followed by the message's
// numbers (Python source printed in a traceback: `if "CUDA out of
// memory" in str(e)`) is not a message.

// maxTrainingLogScan bounds the bytes discovery reads of a text file to
// find an OOM message: 1 GiB is far beyond a job's stdout (a verbose
// multi-day job writes tens of MB) and keeps a stray text dump from
// stalling discovery (about a second at disk speed).
const maxTrainingLogScan = 1 << 30

// maxOOMMessage bounds TrainingOOM.Message, in bytes.
const maxOOMMessage = 500

// maxOOMContinuation bounds the lines a wrapped message continues on: the
// longest message (2.x, with other processes and its advice) is about
// 700 characters, nine lines at 80 columns.
const maxOOMContinuation = 9

var (
	sizeRE        = `(\d+(?:\.\d+)?)\s*(bytes|B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)`
	reCUDARuntime = regexp.MustCompile(`cuda runtime error \(2\) : out of memory`)
	reCalloc      = regexp.MustCompile(`Failed to CUDA [cm]alloc(?: async)? (\d+) bytes`)
	// reRawOOM matches the runtime errors that say out of memory without
	// figures: CUDA's and HIP's runtime errors and the driver API's
	// (cuMemCreate with expandable segments). PyTorch's checks print
	// them as the whole of an exception's message: c10/cuda's
	// C10_CUDA_CHECK ("CUDA error: " + cudaGetErrorString),
	// AT_CUDA_DRIVER_CHECK ("CUDA driver error: " + cuGetErrorString),
	// the same macros hipified for ROCm ("HIP error: "). Only a match
	// that starts a message counts (errorStart).
	reRawOOM = regexp.MustCompile(`\b(?:CUDA|HIP) (?:driver )?error: out of memory`)
	// reLibAllocFailed matches cuBLAS's and cuDNN's failed workspace or
	// handle allocation in the forms PyTorch raises it, the status name
	// behind the label of the check that failed:
	//   - aten/src/ATen/cuda/Exceptions.h, TORCH_CUDABLAS_CHECK:
	//     "CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`";
	//   - the same file, AT_CUDNN_CHECK: "cuDNN error: CUDNN_STATUS_ALLOC_FAILED"
	//     (aten/src/ATen/cudnn/Exceptions.h of 1.0 wrote "CuDNN error: ");
	//   - cudnn_frontend's failed descriptor, raised as a RuntimeError
	//     (its cudnnException's text, the descriptor first, the status
	//     appended): "CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR:
	//     cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_ALLOC_FAILED".
	// The bare name is no message: a configuration's list of errors to
	// retry on, a YAML list or a printed enum names it too. Like the
	// runtime errors, the label must start a message (errorStart).
	reLibAllocFailed = regexp.MustCompile(`\b(?:(?i:CUDA|cuDNN) error: (?:CUBLAS|CUDNN)_STATUS_ALLOC_FAILED|CUDNN_BACKEND_\w+: [^"'\x60]*\bcudnn_status: CUDNN_STATUS_ALLOC_FAILED)`)
	// rePythonWarning matches a Python warning's category before its
	// message ("UserWarning: ", "RuntimeWarning: "), which the warnings
	// module prints after the file and line; a logger's level
	// ("WARNING:") is upper case and does not match.
	rePythonWarning = regexp.MustCompile(`\b[A-Z][A-Za-z]*Warning:(?: |$)`)
	// reRecordStart matches a line that starts something other than a
	// message's continuation: a Python traceback, a source line quoted in
	// one, an exception, another message.
	// reElasticRank is the rank line of torchelastic's ChildFailedError
	// report ("  rank      : 1 (local_rank: 1)"), for the failure whose
	// traceback follows; reElasticEnd its closing rule of '='.
	reElasticRank = regexp.MustCompile(`^\s+rank\s+: (\d{1,6}) \(local_rank: \d{1,6}\)`)
	reElasticEnd  = regexp.MustCompile(`^={20,}\s*$`)
	reRecordStart = regexp.MustCompile(`^(?:Traceback |During handling|The above exception|File "|\w[\w.]*(?:Error|Exception|Warning):|\|)`)
)

// classifyOOMLine tells whether a line (as visibleText shows it) is an
// out-of-memory message, and of which kind.
func classifyOOMLine(line string) (OOMKind, bool) {
	if !mayBeOOMLine(line) {
		return "", false
	}
	if loc := reOOMMessageStart.FindStringIndex(line); loc != nil {
		quoted := loc[0] > 0 && (line[loc[0]-1] == '"' || line[loc[0]-1] == '\'')
		if quoted && !strings.Contains(line[loc[1]:], "Tried to allocate") {
			return "", false
		}
		switch {
		case strings.Contains(line[loc[0]:], "MPS backend"):
			return OOMMPS, true
		case strings.Contains(line, "total capacity;"):
			return OOMTorchLegacy, true
		}
		return OOMTorch, true
	}
	switch {
	case strings.Contains(line, "would exceed allowed memory. (out of memory)"):
		return OOMMallocAsync, true
	case errorStart(line, reRawOOM), reCUDARuntime.MatchString(line), errorStart(line, reLibAllocFailed):
		return OOMCUDAError, true
	case errorStart(line, reVLLMKVCache):
		return OOMVLLMKVCache, true
	case errorStart(line, reSGLangKVPool):
		return OOMSGLangKVPool, true
	case reGGMLAlloc.MatchString(line):
		return OOMGGML, true
	case strings.Contains(line, "Cuda failure 'out of memory'"), strings.Contains(line, "Cuda failure \"out of memory\""),
		strings.Contains(line, "NCCL") && strings.Contains(line, "out of memory"):
		return OOMNCCL, true
	case reCalloc.MatchString(line):
		return OOMNCCL, true
	}
	return "", false
}

// errorStart reports whether re matches line where an error message
// starts: after the line's prefix (readLineHead: time, rank, level) and
// after nothing but separators, an exception's name and colon
// ("RuntimeError: CUDA error: out of memory", also in a retry handler's
// "caught RuntimeError: ...", a real OOM that was recovered from), a
// logger's field ("ERROR:root:", "- ERROR - ", glog's "file.cc:12] ")
// or a number. The same words after a letter (help text: "skip a batch
// on CUDA error: out of memory"), an opening quote (a source line shown
// in a traceback: `if "CUDA error: out of memory" in str(e)`), bracket
// or parenthesis (pytest's test id "test_is_oom[CUDA error: out of
// memory]"), a comma or '=' (a list or setting of patterns) are text
// about the error, not the error.
func errorStart(line string, re *regexp.Regexp) bool {
	locs := re.FindAllStringIndex(line, -1)
	if locs == nil {
		return false
	}
	rest := readLineHead(line).rest
	off := len(line) - len(rest)
	for _, loc := range locs {
		if loc[0] < off {
			continue
		}
		before := strings.TrimRight(rest[:loc[0]-off], " \t")
		if before == "" {
			return true
		}
		if rePythonWarning.MatchString(before) {
			// A Python warning is no raised error: cuDNN's frontend
			// warns "UserWarning: Plan failed with a cudnnException:
			// ... CUDNN_STATUS_ALLOC_FAILED" and tries its next plan.
			continue
		}
		c := before[len(before)-1]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= 0x80:
		case strings.IndexByte("\"'`([{<,=", c) >= 0:
		default:
			return true
		}
	}
	return false
}

// SniffTrainingLog reads a text file (at most maxTrainingLogScan bytes)
// and reports whether some line of it is an out-of-memory message, or a
// line ReadLog reads as memory (a memory summary, a framework's memory
// line, Hugging Face Trainer's memory metrics). head
// is the start of the file discovery already read: binary content (NUL
// bytes) is not scanned; UTF-16 text with a byte order mark is read as
// its UTF-8 text, r from the start of the file (the mark included).
func SniffTrainingLog(r io.Reader, head []byte) bool {
	if order := utf16Order(head); order != 0 {
		// Windows PowerShell's redirection (python train.py > train.log)
		// writes UTF-16; ReadLog reads it as its UTF-8 text, and so is
		// it sniffed.
		head = utf16ToUTF8(head[2:], order)
		r = maybeUTF16(r)
	}
	// gpu reads the GPU readings (nvidia-smi tables and query CSV blocks)
	// of a log inside a notebook or a log export: a cell's !nvidia-smi
	// output, which the GPU sniff of the document's head cannot see, is
	// read by the training log's GPU reading (trainlog_side.go), so such
	// a document is claimed when it holds one.
	var gpu *textState
	if w := SniffWrapper(head); w != WrapperNone {
		// A log inside a JSON container is scanned as ReadLog reads it
		// (unwrap.go).
		ur, _, _ := unwrapped(bufio.NewReaderSize(r, 64<<10), w, 0)
		br := bufio.NewReaderSize(ur, 64<<10)
		head, _ = br.Peek(sniffHead)
		r = br
		if w != WrapperDocker {
			gpu = &textState{b: newLogBuilder(FormatTable, ReadOptions{Location: time.UTC})}
		}
	}
	if bytes.IndexByte(head, 0) >= 0 || len(head) == 0 {
		return false
	}
	// Lines are read as ReadLog reads them: one longer than maxLineBytes
	// (a tqdm bar redrawn with carriage returns for hours, written to a
	// file) is passed over, and the lines after it are read.
	lr := newLineReader(io.LimitReader(r, maxTrainingLogScan))
	if gpu != nil {
		gpu.lr, gpu.b.lr = lr, lr
	}
	// Memory summary tables are followed as ReadLog follows them, so that
	// a log is claimed exactly when one gives a reading.
	var sum summaryState
	var comp composerState
	var fw frameworkState
	var hf hfState
	scratch := newLogBuilder(FormatTrainingLog, ReadOptions{Location: time.UTC})
	for {
		line, more := lr.next()
		if !more {
			break
		}
		if lr.long {
			continue
		}
		if gpu != nil {
			gpu.feed(line)
			if len(gpu.b.log.Samples) > 0 {
				return true
			}
		}
		n := lr.n
		if sum.cur != nil || reSummaryHeader.MatchString(line) {
			sum.line(scratch, n, line)
			if len(scratch.log.MemoryStats) > 0 {
				return true
			}
		}
		if strings.Contains(line, "memory/") || strings.Contains(line, "[batch=") {
			comp.line(scratch, line)
			if len(scratch.log.MemoryStats) > 0 {
				return true
			}
		}
		// fairseq's device lines give the total its gb_free is read
		// against.
		capacityLine(scratch, n, line)
		if fw.line(scratch, n, line) || hf.line(scratch, n, line) {
			return true
		}
		if !mayBeOOMLine(line) {
			continue
		}
		if _, ok := classifyOOMLine(visibleText(line)); ok {
			return true
		}
	}
	sum.flush(scratch)
	comp.flush(scratch)
	if gpu != nil && gpu.end() == nil && len(gpu.b.log.Samples) > 0 {
		return true
	}
	return len(scratch.log.MemoryStats) > 0
}

// mayBeOOMLine is a quick test that rules out most lines before
// classifyOOMLine looks at them.
func mayBeOOMLine(line string) bool {
	return strings.Contains(line, "out of memory") || strings.Contains(line, "Out of memory") ||
		strings.Contains(line, "CUDA calloc") || strings.Contains(line, "CUDA malloc") ||
		strings.Contains(line, "_STATUS_ALLOC_FAILED") || vllmMayBe(line) || servingMayBe(line)
}

// parseOOM reads one message: its line n as visibleText shows it, with
// the text of its continuation lines (cont, may be "").
func (b *logBuilder) parseOOM(n int, line, cont string, kind OOMKind) TrainingOOM {
	o := TrainingOOM{Line: n, Count: 1, Kind: kind, Rank: input.NoRank, Device: -1, Requested: Unknown, Capacity: Unknown,
		Free: Unknown, ProcessInUse: Unknown, Allocated: Unknown, Reserved: Unknown, ReservedUnallocated: Unknown,
		Allowed: Unknown, PrivatePools: Unknown, OtherProcesses: Unknown, OtherAllocations: Unknown}
	o.Time, o.Rank = b.lineTimeRank(line)
	head := readLineHead(line)
	o.Machine = labelMachine(head.label)
	msg := head.rest + cont
	r := readOOMMessage(msg)
	switch kind {
	case OOMVLLMKVCache:
		r = vllmReading(msg)
	case OOMSGLangKVPool:
		r = sglangReading()
	case OOMGGML:
		r = ggmlReading(msg)
	}
	o.Backend, o.Device = r.backend, r.device
	if kind == OOMTorch && r.legacy {
		o.Kind = OOMTorchLegacy
	}
	if kind == OOMMallocAsync {
		// The cudaMallocAsync backend exists for CUDA only.
		o.Backend = "CUDA"
	}
	o.Requested, o.RequestedSlack = r.requested, r.requestedSlack
	o.Capacity, o.Free, o.FreeSlack = r.capacity, r.free, r.freeSlack
	// reservedSlack is how far Reserved may be from the truth, as the
	// printed figures it is made of allow.
	var reservedSlack int64
	switch {
	case r.cached >= 0:
		// Before 1.4 "cached" was the allocator's cache less what is
		// allocated: reserved but unallocated.
		o.ReservedUnallocated = r.cached
		if r.allocated >= 0 {
			o.Reserved = r.allocated + r.cached
			reservedSlack = r.slack[fieldAllocated] + r.slack[fieldCached]
		}
	case r.reserved >= 0:
		o.Reserved, reservedSlack = r.reserved, r.slack[fieldReserved]
		if r.allocated >= 0 && r.reserved >= r.allocated {
			o.ReservedUnallocated = r.reserved - r.allocated
		}
	case r.unallocated >= 0:
		o.ReservedUnallocated = r.unallocated
		if r.allocated >= 0 {
			o.Reserved = r.allocated + r.unallocated
			reservedSlack = r.slack[fieldAllocated] + r.slack[fieldUnallocated]
		}
	}
	r.selfListed(o.Reserved, reservedSlack)
	o.Allocated, o.ProcessInUse, o.Allowed = r.allocated, r.processInUse, r.allowed
	o.PrivatePools, o.OtherProcesses, o.OtherAllocations = r.privatePools, r.otherProcesses, r.otherAllocs
	o.ListedSelfPID = r.selfPID
	if top, n := r.largestOther(); n > 0 {
		o.LargestOtherPID, o.LargestOther, o.OtherCount = top.pid, top.bytes, n
	}
	if o.Allowed >= 0 && o.Capacity >= 0 && o.Allowed >= o.Capacity {
		// A cap at the device's capacity caps nothing: cudaMallocAsync
		// prints its "PyTorch limit" whether or not a memory fraction
		// was set, as the capacity when none was.
		o.Allowed = Unknown
	}
	msg = strings.TrimSpace(msg)
	if len(msg) > maxOOMMessage {
		msg = msg[:maxOOMMessage] + "..."
	}
	o.Message = msg
	return o
}

// oomUnfinished reports whether a message (compact text, as readOOMMessage
// matches it) lacks its end, so that the next line continues it: a
// parenthesis still open ("(GPU 0; ..." before 2.1, "(MPS allocated:
// ..."), a request whose size or whose device clause has not come yet, or
// a 2.1+ message that has not reached "... reserved by PyTorch but
// unallocated".
func oomUnfinished(c string, kind OOMKind) bool {
	if kind == OOMMallocAsync {
		// Its figures follow on lines of their own, the last one the
		// memory fraction's limit.
		_, after, ok := strings.Cut(c, "memoryfraction):")
		return !ok || !reQuantity.MatchString(after)
	}
	if kind == OOMVLLMKVCache {
		return vllmUnfinished(c)
	}
	if kind != OOMTorch && kind != OOMTorchLegacy && kind != OOMMPS {
		return false
	}
	start := strings.Index(c, "outofmemory")
	if start < 0 {
		start = 0
	}
	rest := c[start:]
	if strings.Count(rest, "(") > strings.Count(rest, ")") {
		return true
	}
	tried := strings.Index(rest, "triedtoallocate")
	if tried < 0 {
		// Every allocator message names its request: it has not come yet.
		return true
	}
	after := rest[tried+len("triedtoallocate"):]
	if !reQuantity.MatchString(after) {
		return true
	}
	switch {
	case kind == OOMMPS:
		return !strings.Contains(after, "pool")
	case strings.Contains(after, "totalcapacity;"):
		// Before 2.1 the figures are in parentheses, closed by now.
		return false
	case strings.Contains(after, "capac"):
		return !strings.Contains(after, "unallocated")
	}
	// The device clause has not come yet.
	return true
}

// sameOOM reports whether two messages report the same event: same kind,
// rank, device and numbers.
func sameOOM(a, b TrainingOOM) bool {
	a.Line, a.Count, a.Time, a.Message, a.Handled, a.Fatal = 0, 0, time.Time{}, "", false, false
	b.Line, b.Count, b.Time, b.Message, b.Handled, b.Fatal = 0, 0, time.Time{}, "", false, false
	return a == b
}

// oomEchoLines bounds how far apart two identical messages may be to be
// one event written twice (the exception line, then torchrun's error
// summary quoting it): a few hundred lines of traceback and summary.
const oomEchoLines = 400

// ncclEventLines bounds the distance of NCCL warnings that describe one
// failure (its CUDA error line, then the failed allocation, a few lines
// apart).
const ncclEventLines = 10

// trainingReader reads a training log's lines as they are handed to it
// (line), one at a time, as a terminal shows them: the main reading of a
// training log and the side reading of a GPU log (trainlog_side.go) are
// the same reader. A message wrapped over several lines is gathered as
// its lines come (pending).
type trainingReader struct {
	b   *logBuilder
	sum summaryState
	// comp and fw read Composer's MemoryMonitor lines and the memory
	// lines of the other frameworks.
	comp composerState
	fw   frameworkState
	// hf reads Hugging Face Trainer's memory metrics (trainlog_hf.go).
	hf hfState
	// ray follows Ray Train's worker table (trainlog_ray.go).
	ray rayState
	// elasticRank is the rank of the failure torchelastic's
	// ChildFailedError report is describing (its traceback quotes the
	// rank's exception without the rank's prefix), input.NoRank outside
	// one.
	elasticRank int
	// recordRank is the rank of the logger record whose traceback is
	// being read: a line with a rank prefix that opens a traceback
	// ("[... TP2] Scheduler hit an exception: Traceback (most recent call
	// last):") writes the rest of the record without one, so a message
	// without a rank in it is that rank's; input.NoRank outside one
	// (ended by a line with a prefix of its own).
	recordRank int
	// pinned is the line of the latest evidence of a failure in pinned
	// host memory, 0 when none (trainlog_pinned.go).
	pinned int
	// pending is the out-of-memory message whose continuation lines are
	// being gathered, nil when none.
	pending *pendingOOM
	// rec gathers the lines saying the job recovered from an OOM, and
	// each kept message's stream, for markHandled at the end.
	rec recoveryState
	// launch gathers what launchers say of the log's processes
	// (trainlog_launcher.go).
	launch launcherState
	// visible follows the log's CUDA_VISIBLE_DEVICES settings
	// (trainlog_visible.go).
	visible visibleState
}

// pendingOOM is an out-of-memory message read up to its first line (line
// n) and the continuation lines gathered so far.
type pendingOOM struct {
	n     int
	first string
	kind  OOMKind
	head  lineHead
	cont  strings.Builder
	// lines counts the continuation lines gathered.
	lines int
}

func newTrainingReader(b *logBuilder) *trainingReader {
	return &trainingReader{b: b, elasticRank: input.NoRank, recordRank: input.NoRank}
}

// readTrainingLog reads a training log's messages and memory readings
// into b, their ranks from srun labels decided at its end
// (resolveTaskRanks).
func readTrainingLog(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	tr := newTrainingReader(b)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		tr.line(line)
	}
	return tr.end()
}

// line reads the next line, b.lr's.
func (tr *trainingReader) line(raw string) {
	b, lr := tr.b, tr.b.lr
	if lr.long {
		b.skip(lr.n, kindLong, fmt.Sprintf("more than %d bytes", maxLineBytes))
		return
	}
	if tr.pending != nil && tr.continues(raw) {
		return
	}
	tr.read(raw, lr.n)
}

// end ends the input (its error in b.lr.err): the message and the
// memory summary being read are finished, and the srun labels decided.
func (tr *trainingReader) end() error {
	b, lr := tr.b, tr.b.lr
	tr.endOOM()
	tr.dropPaired(tr.rec.markHandled(b.log.OOMs))
	tr.launch.attribute(b)
	var err error
	if lr.err != nil {
		err = fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	tr.comp.flush(b)
	tr.sum.flush(b)
	tr.fw.end(b)
	tr.hf.flush(b)
	trainerMemoryNotes(b)
	b.resolveTaskRanks()
	b.noteRanklessMachines()
	return err
}

// read reads line ln, which continues no message.
func (tr *trainingReader) read(raw string, ln int) {
	b := tr.b
	line := raw
	if strings.IndexByte(raw, '\r') >= 0 || strings.IndexByte(raw, 0x1b) >= 0 {
		line = visibleText(raw)
	}
	if body := line[len(b.tasks.line(line)):]; strings.HasPrefix(body, " ") || strings.HasPrefix(body, "=") {
		var m []string
		// The regexp is slow to fail on a line of spaces (nvidia-smi's
		// blank line after each table): only a line naming a rank is
		// given to it.
		if strings.Contains(body, "rank") {
			m = reElasticRank.FindStringSubmatch(body)
		}
		switch {
		case m != nil:
			tr.elasticRank, _ = atoi(m[1])
			tr.launch.fail(ln, tr.elasticRank, false)
		case tr.elasticRank != input.NoRank && reElasticEnd.MatchString(body):
			tr.elasticRank = input.NoRank
		}
	}
	if tr.fw.tqdm.line(b, raw) && reTqdmBar.MatchString(line) {
		// Every redraw of a bar read, and the line ends in one: it is
		// nothing more. (Text after the last redraw, a traceback, is
		// read on.)
		return
	}
	tr.launch.line(ln, line)
	tr.rec.observe(ln, line)
	tr.ray.observe(ln, line)
	tr.followRecord(line)
	tr.followPinned(ln, line)
	if strings.Contains(line, "during autotuning") {
		tr.rec.autotuneLine(ln, visibleText(line))
	}
	if recoveryMayBe(line) {
		v := visibleText(line)
		if _, isOOM := classifyOOMLine(v); !isOOM && tr.rec.line(ln, v) {
			tr.recovery(ln, v)
		}
	}
	tr.visible.line(b, ln, line)
	if tr.sum.line(b, ln, line) || tr.comp.line(b, line) || tr.fw.line(b, ln, line) || tr.hf.line(b, ln, line) || capacityLine(b, ln, line) {
		return
	}
	if !mayBeOOMLine(line) {
		return
	}
	line = visibleText(line)
	kind, ok := classifyOOMLine(line)
	if !ok {
		return
	}
	p := &pendingOOM{n: ln, first: line, kind: kind, head: readLineHead(line)}
	tr.pending = p
	if !p.unfinished() {
		tr.endOOM()
	}
}

// followRecord follows the logger record a line belongs to (recordRank):
// a line with a rank prefix that opens a traceback starts a record of
// that rank; a line with a prefix of its own (a time, a rank, a label)
// starts another.
func (tr *trainingReader) followRecord(line string) {
	if tr.recordRank == input.NoRank && !strings.Contains(line, "Traceback (most recent call last)") {
		return
	}
	h := readLineHead(line)
	if h.stamp == "" && h.rank == input.NoRank && h.label == "" {
		return
	}
	tr.recordRank = input.NoRank
	if h.rank != input.NoRank && strings.HasSuffix(strings.TrimSpace(h.rest), "Traceback (most recent call last):") {
		tr.recordRank = h.rank
	}
}

// unfinished reports whether the message may continue on the next line.
func (p *pendingOOM) unfinished() bool {
	return p.lines < maxOOMContinuation && oomUnfinished(compactText(p.head.rest+p.cont.String()), p.kind)
}

// continues adds line to the pending message when it continues it, and
// reports whether it did; when it does not, the message is finished.
func (tr *trainingReader) continues(line string) bool {
	p := tr.pending
	if rest, ok := p.continuation(line); ok {
		p.cont.WriteString(rest)
		p.lines++
		if !p.unfinished() {
			tr.endOOM()
		}
		return true
	}
	tr.endOOM()
	return false
}

// continuation returns the text line adds to the message, and false when
// the line is no continuation of it (the message ended before it).
func (p *pendingOOM) continuation(line string) (string, bool) {
	head := p.head
	v := visibleText(line)
	if strings.TrimSpace(v) == "" {
		return "", false
	}
	// A launcher labels every line: the same label goes before the
	// continuation, another starts a new record.
	if head.label != "" {
		if !strings.HasPrefix(v, head.label) {
			return "", false
		}
		v = v[len(head.label):]
	}
	// A collector that prefixes every line writes the same rank before
	// the continuation; another rank or a time starts a new record.
	rest := v
	if r, _, after, ok := rankToken(strings.TrimLeft(v, " \t")); ok {
		if r != head.rank {
			return "", false
		}
		rest = after
	}
	if readLineHead(rest).stamp != "" || reRecordStart.MatchString(strings.TrimLeft(rest, " ")) || mayBeOOMLine(rest) {
		return "", false
	}
	return rest, true
}

// endOOM adds the pending message, if any, to the log: as an event of
// its own, or as one more count of the same event written again.
func (tr *trainingReader) endOOM() {
	p := tr.pending
	if p == nil {
		return
	}
	tr.pending = nil
	b, kind := tr.b, p.kind
	o := b.parseOOM(p.n, p.first, p.cont.String(), kind)
	if o.Machine == "" {
		// pdsh's host label before a line with no time or rank after
		// it, known from the host's other lines.
		o.Machine = tr.launch.machine(p.first)
	}
	if o.Rank == input.NoRank && tr.recordRank != input.NoRank {
		o.Rank = tr.recordRank
	}
	if _, task := fromTaskRank(o.Rank); tr.elasticRank != input.NoRank && (o.Rank == input.NoRank || task) {
		// The report's rank is the global rank; srun's label
		// before it is only the task that ran torchrun.
		o.Rank = tr.elasticRank
	}
	if o.Rank == input.NoRank {
		if r, proc := tr.ray.rank(p.n, p.first); r != input.NoRank {
			o.Rank = r
			tr.ray.note(b, r, proc)
		}
	}
	if n := len(b.log.OOMs); n > 0 && kind == OOMNCCL {
		// NCCL reports one failure in several WARN lines (the CUDA
		// error, then the allocation that failed): one event.
		if prev := &b.log.OOMs[n-1]; prev.Kind == OOMNCCL && prev.Rank == o.Rank && o.Line-prev.Line <= ncclEventLines && ncclProcess(prev.Message) == ncclProcess(o.Message) {
			if prev.Requested < 0 {
				prev.Requested = o.Requested
			}
			if prev.Device < 0 {
				prev.Device = o.Device
			}
			return
		}
	}
	if kind == OOMNCCL {
		// The error PyTorch raises quotes NCCL's last WARN: the failure
		// already counted, which it may give a rank.
		if i, reraise := ncclReraise(b.log.OOMs, o.Line, p.first, o.Rank); reraise {
			if i >= 0 {
				b.log.OOMs[i].Rank = o.Rank
			}
			return
		}
	}
	// An autotuning choice's OOM is no echo of the job's own, nor the
	// other way round (sameOOM compares Autotune).
	o.Autotune = tr.rec.autotuned(p.n, p.first, p.first+p.cont.String())
	o.PinnedHost = tr.pinnedHost(p.n, p.first+p.cont.String())
	for i := len(b.log.OOMs) - 1; i >= 0; i-- {
		prev := &b.log.OOMs[i]
		if o.Line-prev.Line > oomEchoLines {
			break
		}
		if sameOOM(*prev, o) {
			prev.Count++
			return
		}
	}
	b.log.OOMs = append(b.log.OOMs, o)
	tr.rec.oom(p.n, p.first)
}
