package gpulog

import (
	"regexp"
	"slices"
	"strings"

	"gpureport/input"
)

// OOMs a job caught and went on from, and NCCL failures raised again.
//
// Some training loops catch an out-of-memory error, log it and go on:
// fairseq's trainer logs the message (with torch.cuda.memory_summary()
// of every device) and then "attempting to recover from OOM in
// forward/backward pass" and skips the batch (fairseq2: "Attempting to
// recover from OOM on R0"); sd_dreambooth_extension's batch-size finder
// prints "OOM Detected, reducing batch/grad size to 12/1." and then the
// caught traceback; Lightning's BatchSizeFinder says "Batch size 16
// failed, trying batch size 8"; ParlAI "Ran out of memory, skipping
// batch". A message answered by such a line is Handled: the job said it
// went on.
//
// The evidence is that line, paired with the message it answers. A
// handler logs its line either after the message and its memory tables
// (fairseq, Lightning, ParlAI: these print no traceback) or just before
// the caught traceback it prints (dreambooth), so messages and recovery
// lines of one stream (same launcher label and rank) are paired in the
// order they were written, each with the adjacent one of the other kind,
// within maxRecoveryLines; a line before a message pairs with it only
// when the message closes the traceback that starts right after the
// line. A line followed by 20 lines of training and then an OOM belongs
// to an OOM it did not print (Lightning's finder, ParlAI catch theirs
// silently). Training lines after the message ("the process kept
// training") are not taken as evidence: a console interleaves several
// processes' lines, and torchelastic restarts its workers after a fatal
// OOM, so progress after it may be another process's, or a new one's.
//
// A job that ends in a fatal error did not recover from the OOM just
// before it, whatever line answered it: a finder that catches its OOMs
// and then gives up (accelerate's "No executable batch size found,
// reached zero."), a caught OOM followed by an uncaught one. The fatal
// ends of a log are the exceptions closing its last tracebacks, when
// nothing but traceback lines, blank lines and launcher failure reports
// follow them to the end of the file, and a launcher's report that a
// worker failed anywhere (torchelastic's ChildFailedError and "failed
// (exitcode: N)", srun's "exited with exit code", the shell's "Killed").
// The message closest before a fatal end, in its stream (in the file
// when the end names none), within maxRecoveryLines, is not Handled but
// Fatal: the process died of it (an OOM a snapshot's trace also records
// is then fatal whatever the trace shows after it: analyze). The
// exception of a traceback that a handler printed after its line is no
// fatal end, though the file ends with it: it was caught.

// Inductor's autotuning (max-autotune) benchmarks candidate kernels in
// the training process; a choice whose benchmark raises is logged and
// dropped, and the compilation goes on with the others
// (torch/_inductor/select_algorithm.py, benchmark_in_current_process
// and later benchmark_choices):
//
//	log.error("Runtime error during autotuning: \n%s. \nIgnoring this choice.", msg)
//	log.error("CUDA compilation error during autotuning: \n%s. \nIgnoring this choice.", e)
//
// (log.warning in some releases, log.debug for CUTLASS choices; torch_npu
// writes "NPU compilation error"; torch._logging's glog prefix "W0301
// 10:01:12.118000 PID file.py:1469] [0/0] " on each line of the record,
// or on the first only). The exception's text is the record's middle: an
// OOM message that starts on the line of the opener ("... error during
// autotuning:") or on the line after it, in the same stream, or whose
// own text says "Ignoring this choice" after the opener (a collector
// that joined the record's lines), was caught by that handler
// (TrainingOOM.Autotune): it is Handled and never Fatal.

// reAutotuneOpener matches the first line of Inductor's record of a
// dropped autotuning choice.
var reAutotuneOpener = regexp.MustCompile(`\b(?:Runtime|[A-Z]{2,5} compilation) error during autotuning:`)

// NCCL's WARN lines name a failed CUDA allocation ("Cuda failure 'out of
// memory'", "Failed to CUDA calloc N bytes") on the process's device; the
// error PyTorch then raises (ncclUnhandledCudaError's "Last error:
// Cuda failure 'out of memory'", with the rank's prefix) quotes NCCL's
// last WARN, the same failure: it is no second OOM (ncclReraise).

// reOOMRecovery matches a line saying that the job caught an OOM and goes
// on (the sources above). Each alternative names the OOM or the failed
// batch size, so that a line about something else is not read as one.
var reOOMRecovery = regexp.MustCompile(`(?i)(?:\b(?:attempting to |trying to )?recover(?:ed|ing)? from (?:an? |the )?(?:CUDA )?(?:OOM|out[- ]of[- ]memory)\b|\bOOM detected, reducing batch|\bbatch size \d+ failed, trying batch size \d+|\b(?:OOM|out of memory)\b[^.]{0,40}\b(?:skipping|retrying) (?:this |the )?batch\b|\bcuda OOM - batch removed)`)

// reNCCLProcess matches the start of an NCCL debug line, "host:pid:tid
// [dev]": its host and pid name the process.
var reNCCLProcess = regexp.MustCompile(`^(\S+:\d+):\d+ \[\d+\] `)

// ncclProcess is the "host:pid" of an NCCL debug line's text, "" when it
// is none: NCCL's WARN lines of one failure are one process's, and
// another process's WARN lines a few lines on are its own failure.
func ncclProcess(msg string) string {
	if m := reNCCLProcess.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}

// maxRecoveryLines bounds how far a recovery line may be from the message
// it answers: fairseq writes torch.cuda.memory_summary() of every visible
// device between them (about 33 lines a device, up to 16 devices on a
// node: some 530 lines), and a handler that writes its line first prints
// the traceback after it (a deep stack is a few hundred lines).
const maxRecoveryLines = 600

// recoveryMayBe is a quick test that rules out most lines before
// reOOMRecovery looks at them.
func recoveryMayBe(line string) bool {
	// The batch-size needles start at their comma, a byte rarer than the
	// space or the letter before it (strings.Contains stops at every
	// occurrence of a needle's first byte); the words before the comma
	// are left to reOOMRecovery.
	return strings.Contains(line, "OOM") || strings.Contains(line, "out of memory") ||
		strings.Contains(line, ", skipping") || strings.Contains(line, ", trying batch size")
}

// streamMark is a line of a training log and the stream it belongs to:
// its launcher label and rank prefix as written.
type streamMark struct {
	n     int
	label string
	rank  int
}

// streamKey is a stream: a launcher label and rank prefix.
type streamKey struct {
	label string
	rank  int
}

func (m streamMark) key() streamKey { return streamKey{m.label, m.rank} }

// oomMark is the stream of an OOM message kept, and the line just before
// the traceback the message closes (the last non-blank line before its
// "Traceback (most recent call last):"), 0 when it closes none.
type oomMark struct {
	streamMark
	after int
}

// openTraceback is a traceback being written in a stream: the line of
// its "Traceback (most recent call last):", the last non-blank line
// before it, and the line of the exception that closed it (0 while
// open).
type openTraceback struct {
	start, after, exc int
}

// recoveryState collects, while a training log is read, its recovery
// lines, the stream of each OOM message kept (parallel to the log's
// OOMs) and the fatal ends, for markHandled at the end.
type recoveryState struct {
	lines []streamMark
	ooms  []oomMark
	// fatal holds the launcher failure reports read; tail the
	// exceptions closing tracebacks since the last line that is no
	// traceback, blank line or launcher report (the fatal ends when the
	// file ends there).
	fatal []streamMark
	tail  []streamMark
	// tracebacks are the tracebacks being written, by stream, since the
	// last line that is none of those; lastText is the last non-blank
	// line read.
	tracebacks map[streamKey]openTraceback
	lastText   int
	// lastOOM is the largest line of ooms; prune is the length of lines
	// at which those no message can pair with are dropped.
	lastOOM int
	prune   int
	// autotune is, by stream, the line of the last opener of Inductor's
	// record of a dropped autotuning choice (reAutotuneOpener).
	autotune map[streamKey]int
}

// minRecoveryPrune is the fewest recovery lines held before those that
// cannot pair are dropped: a log has a handful of them, and a job that
// logs one every batch without any OOM message holds at most this many.
const minRecoveryPrune = 1024

func markOf(n int, line string) streamMark {
	h := readLineHead(line)
	return streamMark{n: n, label: h.label, rank: h.rank}
}

// line records line n when it says the job recovered from an OOM, and
// reports whether it does; line is as visibleText shows it, and no OOM
// message.
func (rs *recoveryState) line(n int, line string) bool {
	if !recoveryMayBe(line) {
		return false
	}
	loc := reOOMRecovery.FindStringIndex(line)
	if loc == nil {
		return false
	}
	if loc[0] > 0 && strings.IndexByte("\"'`", line[loc[0]-1]) >= 0 {
		// A quoted phrase: the handler's source line in a traceback.
		return false
	}
	if len(rs.lines) >= max(rs.prune, minRecoveryPrune) {
		rs.dropUnpairable(n)
	}
	rs.lines = append(rs.lines, markOf(n, line))
	return true
}

// maxRecoveries bounds GPULog.Recoveries: a job that logs a skipped
// batch at every step writes one per step; the first 10,000 (400 KB)
// cover the num_ooms rises of any log a person reads, and a log with
// more is one whose counter rises are answered many times over.
const maxRecoveries = 10000

// recovery keeps recovery line n (line as visibleText shows it) in the
// log's Recoveries.
func (tr *trainingReader) recovery(n int, line string) {
	b := tr.b
	if len(b.log.Recoveries) >= maxRecoveries {
		return
	}
	h := readLineHead(line)
	r := Recovery{Line: n, Rank: input.NoRank}
	if !h.local && !h.task {
		r.Rank = h.rank
	}
	if h.stamp != "" {
		stamp := strings.Replace(strings.Replace(h.stamp, "T", " ", 1), ",", ".", 1)
		if st, _, ok := parseStamp(stamp, b.opt.Location); ok {
			r.Time = st
		}
	}
	b.log.Recoveries = append(b.log.Recoveries, r)
}

// dropPaired leaves out of the log's Recoveries the lines that answered
// one of its messages (paired, by line): those are the messages'
// evidence.
func (tr *trainingReader) dropPaired(paired map[int]bool) {
	rs := tr.b.log.Recoveries[:0]
	for _, r := range tr.b.log.Recoveries {
		if !paired[r.Line] {
			rs = append(rs, r)
		}
	}
	tr.b.log.Recoveries = rs
}

// dropUnpairable drops, at line n, the recovery lines no message can
// pair with: none was kept within maxRecoveryLines before or after it,
// and any message still to come is further on (a message is kept when
// its last continuation line is read, maxOOMContinuation lines after its
// first at most; twice maxRecoveryLines leaves room for that). Such a
// line never pairs nor stands in a pair's way (markHandled), so what is
// marked is unchanged, and the lines held are bounded by the messages'.
func (rs *recoveryState) dropUnpairable(n int) {
	kept := rs.lines[:0]
	for _, m := range rs.lines {
		if n-m.n <= 2*maxRecoveryLines || len(rs.ooms) > 0 && rs.lastOOM >= m.n-maxRecoveryLines {
			kept = append(kept, m)
		}
	}
	rs.lines = kept
	rs.prune = 2 * len(kept)
}

// autotuneLine records line n (as visibleText shows it) when it opens
// Inductor's record of a dropped autotuning choice.
func (rs *recoveryState) autotuneLine(n int, line string) {
	if !reAutotuneOpener.MatchString(line) {
		return
	}
	if rs.autotune == nil {
		rs.autotune = map[streamKey]int{}
	}
	rs.autotune[markOf(n, line).key()] = n
}

// autotuned reports whether the OOM message whose first line is n (first
// as visibleText shows it; text with its continuation) is the exception
// of Inductor's record of a dropped autotuning choice: it starts on the
// opener's line or the next one, in the opener's stream.
func (rs *recoveryState) autotuned(n int, first, text string) bool {
	if at, ok := rs.autotune[markOf(n, first).key()]; ok && (at == n || at == n-1) {
		return true
	}
	// A record whose lines a collector joined: opener, message, "Ignoring
	// this choice" on one line.
	loc := reAutotuneOpener.FindStringIndex(text)
	return loc != nil && strings.Contains(text[loc[1]:], "Ignoring this choice")
}

// oom records the stream of the OOM message just appended to the log,
// whose first line (n) was given to observe last.
func (rs *recoveryState) oom(n int, line string) {
	m := oomMark{streamMark: markOf(n, line)}
	if tb, ok := rs.tracebacks[m.key()]; ok && tb.start < n && (tb.exc == 0 || tb.exc == n) {
		m.after = tb.after
	}
	rs.ooms = append(rs.ooms, m)
	rs.lastOOM = max(rs.lastOOM, n)
}

var (
	// reExceptionLine matches the exception line that closes a Python
	// traceback (after the line's prefix): a dotted name ending in
	// Error, Exception, Interrupt or Exit, then a colon or the end.
	reExceptionLine = regexp.MustCompile(`^[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit)(?::|$)`)
	// reLauncherFailed matches a launcher's report that a worker failed
	// with a nonzero status: torchelastic's "failed (exitcode: 1)" and
	// its summary's "exitcode  : 1", srun's "error: host: task 0:
	// Exited with exit code 1".
	reLauncherFailed = regexp.MustCompile(`(?i)\bfailed \(exitcode: -?[1-9]|^\s*exitcode\s*: -?[1-9]|\bexited with exit code [1-9]`)
)

// tracebackMayBe is a quick test that rules out most lines that cannot
// start a traceback or be an exception or launcher failure report,
// before observe reads their prefix. Inside a traceback, or after one,
// every line is read: a frame's source line, torchelastic's report and
// CUDA's hints name none of these words.
func tracebackMayBe(line string) bool {
	for _, w := range []string{"Traceback", "Error", "Exception", "Interrupt", "Exit", "Killed", "xit code", "exitcode", "No executable batch size"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// errorHints are lines PyTorch prints after a CUDA error's message: part
// of the exception, not output after it.
var errorHints = []string{"CUDA kernel errors might be asynchronously reported", "For debugging consider passing CUDA_LAUNCH_BLOCKING",
	"Compile with `TORCH_USE_CUDA_DSA`", "Device-side assertion"}

// observe reads line n (as visibleText shows it) for the tracebacks and
// fatal ends: every line the reader reads that continues no message.
func (rs *recoveryState) observe(n int, line string) {
	if strings.TrimSpace(line) == "" {
		return
	}
	text := rs.lastText
	rs.lastText = n
	if len(rs.tracebacks) == 0 && len(rs.tail) == 0 && !tracebackMayBe(line) {
		rs.other()
		return
	}
	h := readLineHead(line)
	rest := h.rest
	// readLineHead drops the spaces before rest: a frame's source line
	// is indented by more than the one space after a prefix.
	prefix := line[:len(line)-len(rest)]
	ws := len(prefix) - len(strings.TrimRight(prefix, " \t"))
	indented := ws >= 2 || (ws == 1 && len(prefix) == 1)
	m := streamMark{n: n, label: h.label, rank: h.rank}
	if rs.tracebacks == nil {
		rs.tracebacks = map[streamKey]openTraceback{}
	}
	tb, inTB := rs.tracebacks[m.key()]
	switch {
	case strings.TrimSpace(rest) == "":
	case strings.HasPrefix(rest, "Traceback (most recent call last)"):
		rs.tracebacks[m.key()] = openTraceback{start: n, after: text}
	case reExceptionLine.MatchString(rest):
		if strings.Contains(rest, "No executable batch size found") || strings.Contains(rest, "ChildFailedError") {
			// The finder gave up; torchelastic's worker failed.
			rs.fatal = append(rs.fatal, m)
		}
		if !inTB {
			rs.other()
			return
		}
		if tb.exc == 0 {
			tb.exc = n
			rs.tracebacks[m.key()] = tb
			rs.tail = append(rs.tail, m)
		}
	case reLauncherFailed.MatchString(rest), strings.TrimSpace(rest) == "Killed":
		rs.fatal = append(rs.fatal, m)
	case indented, strings.HasPrefix(rest, "File \""), strings.HasPrefix(rest, "^"),
		strings.HasPrefix(rest, "During handling of the above exception"), strings.HasPrefix(rest, "The above exception was"),
		strings.HasPrefix(rest, "===="), strings.HasPrefix(rest, "----"), strings.HasSuffix(strings.TrimSpace(rest), " FAILED"), strings.HasPrefix(rest, "Failures:"), strings.HasPrefix(rest, "Root Cause"),
		strings.Contains(rest, "NO_OTHER_FAILURES"), strings.HasPrefix(rest, "[") && strings.HasSuffix(strings.TrimSpace(rest), "]:"):
		// A traceback's frames and chaining, torchelastic's report.
	default:
		for _, hint := range errorHints {
			if strings.HasPrefix(rest, hint) {
				return
			}
		}
		rs.other()
	}
}

// other records a line that is no traceback line, launcher report or
// blank line: the tracebacks before it are over, and the file does not
// end with their exceptions.
func (rs *recoveryState) other() {
	rs.tail = rs.tail[:0]
	clear(rs.tracebacks)
}

// markHandled sets Handled on the messages of ooms (parallel to rs.ooms)
// that a recovery line answers and no fatal end follows, and Fatal on
// those a fatal end follows (markFatal). In each stream,
// messages and recovery lines are taken in line order: a recovery line
// pairs with the oldest unpaired message at most maxRecoveryLines before
// it, or, when it is the line just before the traceback a message
// closes, with that message. So fairseq's line after its memory tables
// pairs with the message before, a handler's line before its traceback
// with the message after it, and two processes' messages written before
// their two recovery lines pair in order.
func (rs *recoveryState) markHandled(ooms []TrainingOOM) (paired map[int]bool) {
	paired = map[int]bool{}
	if len(rs.ooms) != len(ooms) {
		return paired
	}
	defer func() {
		for i := range ooms {
			if ooms[i].Autotune {
				// Inductor's handler caught it by construction.
				ooms[i].Handled, ooms[i].Fatal = true, false
			}
		}
	}()
	if len(rs.lines) == 0 {
		// Nothing says the job went on; the fatal ends still say which
		// OOM it died of.
		rs.markFatal(ooms, nil)
		return paired
	}
	type event struct {
		oomMark
		oom int // index in ooms, -1 for a recovery line
	}
	var events []event
	before := map[streamMark]bool{} // recovery lines just before a message's traceback
	for i, m := range rs.ooms {
		events = append(events, event{m, i})
		if m.after > 0 {
			before[streamMark{m.after, m.label, m.rank}] = true
		}
	}
	for _, m := range rs.lines {
		events = append(events, event{oomMark{streamMark: m}, -1})
	}
	// Line order; a message and a recovery line never share a line.
	slices.SortFunc(events, func(a, b event) int { return a.n - b.n })
	waiting := map[streamKey][]event{} // messages not answered yet
	ahead := map[streamMark]bool{}     // recovery lines before a traceback, not paired yet
	printed := map[int]bool{}          // lines of messages whose handler printed their traceback
	for _, e := range events {
		k := e.key()
		if e.oom >= 0 {
			r := streamMark{e.after, e.label, e.rank}
			if e.after > 0 && ahead[r] {
				ooms[e.oom].Handled = true
				paired[r.n] = true
				delete(ahead, r)
				printed[e.n] = true
				continue
			}
			waiting[k] = append(waiting[k], e)
			continue
		}
		if before[e.streamMark] {
			ahead[e.streamMark] = true
			continue
		}
		q := waiting[k]
		for len(q) > 0 && e.n-q[0].n > maxRecoveryLines {
			q = q[1:]
		}
		if len(q) > 0 {
			ooms[q[0].oom].Handled = true
			paired[e.n] = true
			q = q[1:]
		}
		waiting[k] = q
	}
	rs.markFatal(ooms, printed)
	return paired
}

// markFatal marks Fatal, and clears Handled on, the message closest before
// each fatal end, in the end's stream (in the file when the end names
// none), at most maxRecoveryLines before it: the job did not go on from
// it, it died of it. The bound is
// a recovery line's: within it lie a traceback and memory tables; a
// message further back was followed by more of the run's own output.
// The exception of a traceback that a handler printed after its line
// (printed, by line) is no fatal end, though the file ends with it: the
// handler caught it.
func (rs *recoveryState) markFatal(ooms []TrainingOOM, printed map[int]bool) {
	for _, f := range slices.Concat(rs.fatal, rs.tail) {
		if printed[f.n] && !slices.Contains(rs.fatal, f) {
			continue
		}
		wholeFile := f.label == "" && f.rank == input.NoRank
		for i := len(rs.ooms) - 1; i >= 0; i-- {
			m := rs.ooms[i]
			if m.n > f.n || (!wholeFile && m.key() != f.key()) || ooms[i].Autotune {
				// A dropped autotuning choice's OOM is no cause of
				// death: the message before it may be.
				continue
			}
			if f.n-m.n <= maxRecoveryLines {
				ooms[i].Handled, ooms[i].Fatal = false, true
			}
			break
		}
	}
}

// ncclReraise reports whether an NCCL-kind message on line n (as
// visibleText shows it, of rank rank) is the error PyTorch raised for a
// failure whose NCCL WARN lines the log already holds: it is no WARN line
// itself, and an NCCL OOM read from a WARN line, of no rank or of this
// rank, is at most oomEchoLines before it. idx is that OOM when the quote
// gives it its rank: it is the only such OOM without a rank, and none has
// this rank already (-1 otherwise: several processes' WARNs leave the
// quote's process unknown, and an OOM of this rank has had its quote).
func ncclReraise(ooms []TrainingOOM, n int, line string, rank int) (idx int, reraise bool) {
	if strings.Contains(line, "NCCL WARN") {
		return -1, false
	}
	idx = -1
	unranked := 0
	for i := len(ooms) - 1; i >= 0; i-- {
		p := &ooms[i]
		if n-p.Line > oomEchoLines {
			break
		}
		if p.Kind != OOMNCCL || !strings.Contains(p.Message, "NCCL WARN") {
			continue
		}
		switch {
		case p.Rank == input.NoRank:
			unranked++
			idx = i
			reraise = true
		case p.Rank == rank:
			return -1, true
		}
	}
	if unranked != 1 || rank == input.NoRank {
		return -1, reraise
	}
	return idx, true
}
