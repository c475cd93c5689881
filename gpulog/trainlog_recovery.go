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
// The evidence is that line alone, paired with the message it answers:
// a handler logs its line either before the traceback it prints
// (dreambooth) or after the message and its memory tables (fairseq), so
// messages and recovery lines of one stream (same launcher label and
// rank) are paired in the order they were written, each with the
// adjacent one of the other kind, within maxRecoveryLines. Training
// lines after the message ("the process kept training") are not taken as
// evidence: a console interleaves several processes' lines, and
// torchelastic restarts its workers after a fatal OOM, so progress after
// it may be another process's, or a new one's.
//
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

// recoveryState collects, while a training log is read, its recovery
// lines and the stream of each OOM message kept (parallel to the log's
// OOMs), for markHandled at the end.
type recoveryState struct {
	lines []streamMark
	ooms  []streamMark
	// lastOOM is the largest line of ooms; prune is the length of lines
	// at which those no message can pair with are dropped.
	lastOOM int
	prune   int
}

// minRecoveryPrune is the fewest recovery lines held before those that
// cannot pair are dropped: a log has a handful of them, and a job that
// logs one every batch without any OOM message holds at most this many.
const minRecoveryPrune = 1024

func markOf(n int, line string) streamMark {
	h := readLineHead(line)
	return streamMark{n: n, label: h.label, rank: h.rank}
}

// line records line n when it says the job recovered from an OOM; line is
// as visibleText shows it, and no OOM message.
func (rs *recoveryState) line(n int, line string) {
	if !recoveryMayBe(line) {
		return
	}
	loc := reOOMRecovery.FindStringIndex(line)
	if loc == nil {
		return
	}
	if loc[0] > 0 && strings.IndexByte("\"'`", line[loc[0]-1]) >= 0 {
		// A quoted phrase: the handler's source line in a traceback.
		return
	}
	if len(rs.lines) >= max(rs.prune, minRecoveryPrune) {
		rs.dropUnpairable(n)
	}
	rs.lines = append(rs.lines, markOf(n, line))
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

// oom records the stream of the OOM message just appended to the log.
func (rs *recoveryState) oom(n int, line string) {
	rs.ooms = append(rs.ooms, markOf(n, line))
	rs.lastOOM = max(rs.lastOOM, n)
}

// markHandled sets Handled on the messages of ooms (parallel to rs.ooms)
// that a recovery line answers. In each stream, messages and recovery
// lines are taken in line order: each pairs with the oldest unpaired one
// of the other kind at most maxRecoveryLines before it, or waits for one.
// So a handler's line before its traceback pairs with the message after
// it, fairseq's after its memory tables with the message before, and two
// processes' messages written before their two recovery lines pair in
// order.
func (rs *recoveryState) markHandled(ooms []TrainingOOM) {
	if len(rs.lines) == 0 || len(rs.ooms) != len(ooms) {
		return
	}
	type event struct {
		streamMark
		oom int // index in ooms, -1 for a recovery line
	}
	var events []event
	for i, m := range rs.ooms {
		events = append(events, event{m, i})
	}
	for _, m := range rs.lines {
		events = append(events, event{m, -1})
	}
	// Line order; a message and a recovery line never share a line.
	slices.SortFunc(events, func(a, b event) int { return a.n - b.n })
	type key struct {
		label string
		rank  int
		line  bool // the waiting events are recovery lines
	}
	waiting := map[key][]event{}
	for _, e := range events {
		k := key{e.label, e.rank, e.oom >= 0}
		q := waiting[k]
		for len(q) > 0 && e.n-q[0].n > maxRecoveryLines {
			q = q[1:]
		}
		if len(q) > 0 {
			ooms[max(q[0].oom, e.oom)].Handled = true
			waiting[k] = q[1:]
			continue
		}
		waiting[k] = q
		k.line = e.oom < 0
		waiting[k] = append(waiting[k], e)
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
