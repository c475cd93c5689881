package gpulog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gpureport/internal/units"
)

// Hugging Face Trainer's memory metrics (TrainerMemoryTracker in
// transformers/trainer_utils.py) are printed at the end of train(),
// evaluate() and predict(): in the metrics dict the Trainer logs, in
// bytes ({'train_runtime': 62.5, ..., 'train_mem_gpu_alloc_delta':
// 726663168, 'train_mem_gpu_peaked_delta': 7596933120, ...}), and by
// log_metrics in a block, in "MB" that are MiB rounded down (metrics_format
// prints v >> 20):
//
//	***** train metrics *****
//	  before_init_mem_gpu        =      512MB
//	  init_mem_gpu_alloc_delta   =      230MB
//	  train_mem_gpu_alloc_delta  =      693MB
//	  train_mem_gpu_peaked_delta =     7245MB
//
// They are deltas of torch.cuda.memory_allocated(), not levels: for a
// stage (init, train, eval, test), alloc_delta is the allocated memory at
// its end minus at its start, peaked_delta the peak during it (the peak is
// reset when the stage starts) minus the allocated memory at its end. So
// alloc + peaked is how far the stage's peak rose above its start, which
// is exact; the peak itself is that much above a level the metrics do not
// give (before_init_mem_gpu is the level when the Trainer was created,
// not when training started). They are kept as TrainerMemory, never as
// readings, with a note saying what they say.

// reHFMemMetric matches one GPU memory metric, in a dict (quoted key,
// ':' and bytes) or in log_metrics' block (bare key, '=' and MB).
var reHFMemMetric = regexp.MustCompile(`(?:^|[\s{,'"])['"]?(init|train|eval|test|before_init)_mem_gpu(?:_(alloc|peaked)_delta)?['"]?\s*[:=]\s*(-?\d+)(MB)?\b`)

// reHFMetricsHeader is log_metrics' first line: "***** train metrics *****".
var reHFMetricsHeader = regexp.MustCompile(`\*{5} \w+ metrics \*{5}`)

// hfState follows Hugging Face Trainer's memory metrics through a log.
// The figures of one printing are one event: a dict line, or the lines
// of one log_metrics block (from its header to the next header or dict).
// A block printed after the dict of the same stages (the Trainer logs the
// dict, a script then calls log_metrics) says the same in MiB and is
// dropped.
type hfState struct {
	noted bool
	// cur is the event being read; prev the last one kept.
	cur, prev []TrainerMemory
}

// mayBeHFLine rules out most lines before hfState.line looks at them.
func mayBeHFLine(line string) bool {
	// "metrics *****" without the space before it, which every word of a
	// line would stop the search at.
	return strings.Contains(line, "_mem_gpu") || strings.Contains(line, "metrics *****")
}

// line reads the Trainer's GPU memory metrics on line n; it returns true
// when the line held one.
func (h *hfState) line(b *logBuilder, n int, line string) bool {
	if !mayBeHFLine(line) {
		return false
	}
	if reHFMetricsHeader.MatchString(line) {
		h.flush(b)
		return false
	}
	ms := reHFMemMetric.FindAllStringSubmatch(line, -1)
	if len(ms) == 0 {
		return false
	}
	_, rank := fwTimeRank(b, line)
	read, dict := false, false
	for _, m := range ms {
		v, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil || v > maxMiB*mib || v < -maxMiB*mib {
			continue
		}
		unit := int64(1)
		if m[4] == "MB" {
			unit = mib
			if v > maxMiB || v < -maxMiB {
				continue
			}
		}
		stage, kind := m[1], m[2]
		if stage == "before_init" {
			if kind != "" {
				continue
			}
			kind = "begin"
			stage = "init"
		} else if kind == "" {
			continue
		}
		if !read && unit == 1 {
			// A dict: an event of its own.
			dict = true
			h.flush(b)
		}
		h.add(n, rank, stage, kind, v*unit, unit)
		read = true
	}
	if dict {
		h.flush(b)
	}
	if read && !h.noted {
		h.noted = true
		b.note("Hugging Face Trainer memory metrics (deltas of torch.cuda.memory_allocated(), not levels) are kept apart from the readings: a stage's alloc_delta is its end minus its start, peaked_delta its peak minus its end, so their sum is how far the stage's peak rose above its start")
	}
	return read
}

// add records one figure in the current event's entry of the stage.
func (h *hfState) add(n, rank int, stage, kind string, v, unit int64) {
	for i := range h.cur {
		if e := &h.cur[i]; e.Stage == stage && e.Rank == rank {
			*e.field(kind) = v
			return
		}
	}
	e := TrainerMemory{Line: n, Rank: rank, Stage: stage, Begin: Unknown, AllocDelta: Unknown, PeakedDelta: Unknown, Unit: unit}
	*e.field(kind) = v
	h.cur = append(h.cur, e)
}

// flush ends the current event: kept, unless it repeats the last one.
func (h *hfState) flush(b *logBuilder) {
	cur := h.cur
	h.cur = nil
	if len(cur) == 0 {
		return
	}
	if repeats(cur, h.prev) {
		return
	}
	h.prev = cur
	b.log.TrainerMemory = append(b.log.TrainerMemory, cur...)
}

// repeats reports whether every entry of ev says what an entry of prev
// said, to ev's precision.
func repeats(ev, prev []TrainerMemory) bool {
	for _, e := range ev {
		found := false
		for _, p := range prev {
			if p.Stage == e.Stage && p.Rank == e.Rank && sameFigure(p.Begin, e.Begin, e.Unit) &&
				sameFigure(p.AllocDelta, e.AllocDelta, e.Unit) && sameFigure(p.PeakedDelta, e.PeakedDelta, e.Unit) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameFigure reports whether v (in bytes, printed in units of unit bytes
// rounded down as Python's >> does) says what have says; a figure not
// printed says nothing against it.
func sameFigure(have, v, unit int64) bool {
	if v == Unknown {
		return true
	}
	if have == Unknown {
		return false
	}
	if unit <= 1 {
		return have == v
	}
	q := have / unit
	if have < 0 && have%unit != 0 {
		q-- // floor, as Python's >>
	}
	return q*unit == v
}

// TrainerMemory is what Hugging Face Trainer's memory metrics say of one
// stage of one run: deltas of torch.cuda.memory_allocated(), not levels.
// Byte fields are Unknown when not printed.
type TrainerMemory struct {
	// Line is the 1-based line of the first figure; Rank the rank the
	// line's prefix gives (input.NoRank when none).
	Line, Rank int
	// Stage is "init", "train", "eval" or "test".
	Stage string
	// Begin is the allocated memory when the stage began, in bytes (the
	// Trainer prints it for init only: before_init_mem_gpu).
	Begin int64
	// AllocDelta is the allocated memory at the stage's end minus at its
	// start, in bytes (negative when the stage freed memory).
	AllocDelta int64
	// PeakedDelta is the peak allocated memory during the stage minus the
	// allocated memory at its end, in bytes (0 or more).
	PeakedDelta int64
	// Unit is the precision of the figures in bytes: 1 from the metrics
	// dict, 1 MiB from log_metrics' block (rounded down).
	Unit int64
}

// field returns the field for a figure's kind.
func (e *TrainerMemory) field(kind string) *int64 {
	switch kind {
	case "begin":
		return &e.Begin
	case "alloc":
		return &e.AllocDelta
	}
	return &e.PeakedDelta
}

// PeakRise is how far the stage's peak allocated memory rose above the
// allocated memory when the stage began (AllocDelta + PeakedDelta), in
// bytes; Unknown when either is not known.
func (e TrainerMemory) PeakRise() int64 {
	if e.AllocDelta == Unknown || e.PeakedDelta == Unknown {
		return Unknown
	}
	return e.AllocDelta + e.PeakedDelta
}

// PeakAllocated is the stage's peak allocated memory in bytes when the
// metrics give it whole (Begin + PeakRise: init only), else Unknown.
func (e TrainerMemory) PeakAllocated() int64 {
	if e.Begin == Unknown || e.PeakRise() == Unknown {
		return Unknown
	}
	return e.Begin + e.PeakRise()
}

// trainerMemoryNotes says, per stage entry, what the metrics gave.
func trainerMemoryNotes(b *logBuilder) {
	for _, e := range b.log.TrainerMemory {
		var parts []string
		if e.PeakRise() != Unknown {
			parts = append(parts, fmt.Sprintf("its peak allocated memory rose %s above its start", units.Bytes(e.PeakRise())))
		}
		if p := e.PeakAllocated(); p != Unknown {
			parts = append(parts, fmt.Sprintf("to %s", units.Bytes(p)))
		} else if e.Begin != Unknown {
			parts = append(parts, fmt.Sprintf("allocated memory before it %s", units.Bytes(e.Begin)))
		}
		if e.AllocDelta != Unknown && e.PeakRise() == Unknown {
			parts = append(parts, fmt.Sprintf("allocated memory changed by %s over it", units.Signed(float64(e.AllocDelta))))
		}
		if len(parts) == 0 {
			continue
		}
		b.note(fmt.Sprintf("Hugging Face Trainer's %s stage (line %d): %s", e.Stage, e.Line, strings.Join(parts, ", ")))
	}
}
