package gpulog

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"gpureport/input"
)

// MosaicML Composer's MemoryMonitor callback logs torch.cuda.memory_stats()
// after every training batch, and its console logger prints each batch's
// metrics under a "[batch=N/M]:" line:
//
//	[batch=10/20]:
//		 Train memory/current_allocated_mem: 1.6253
//		 Train memory/current_active_mem: 1.6253
//		 Train memory/current_inactive_mem: 1.0674
//		 Train memory/current_reserved_mem: 4.0538
//		 Train memory/peak_allocated_mem: 3.8172
//		 Train memory/alloc_retries: 0
//
// Sizes are in gigabytes: Composer divides bytes by 1e9 and keeps five
// significant digits, so a reading is exact to within 0.005%. Releases
// before 0.14 log active_mem, inactive_mem and reserved_mem (current
// values, also in gigabytes) and allocated_mem, which was the cumulative
// bytes ever allocated, not a current value, and is not read. The
// memory/ lines of one batch are one memory_stats reading
// (MemoryStatsSample) of the process's device, at the batch's step; the
// rank and time are those of the lines' prefix, when they have one.

var (
	reComposerBatch  = regexp.MustCompile(`\[batch=(\d+)(?:/\d+)?\]`)
	reComposerMemory = regexp.MustCompile(`(?:^|\s)memory/(current_allocated_mem|current_active_mem|current_inactive_mem|current_reserved_mem|active_mem|inactive_mem|reserved_mem|alloc_retries):\s*([0-9.eE+-]+)\s*$`)
)

// composerGB is Composer's gigabyte: bytes divided by 1e9.
const composerGB = 1e9

// composerState follows Composer's metric lines through a training log.
type composerState struct {
	// cur is the reading of the batch being read; nil outside one.
	cur *MemoryStatsSample
	// seen marks the metrics cur has; one seen again starts the next
	// batch (a logger that prints no batch line).
	seen map[string]bool
	// step is the last "[batch=N" seen (hasStep false before one).
	step    int64
	hasStep bool
}

// line reads a line; it returns true when the line is one of Composer's
// memory metrics.
func (c *composerState) line(b *logBuilder, line string) bool {
	if !strings.Contains(line, "memory/") && !strings.Contains(line, "[batch=") {
		return false
	}
	if m := reComposerBatch.FindStringSubmatch(line); m != nil {
		c.flush(b)
		if v, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			c.step, c.hasStep = v, true
		}
		return false
	}
	m := reComposerMemory.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	v, err := strconv.ParseFloat(m[2], 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || v*composerGB > float64(maxMiB)*mib {
		return true
	}
	if c.seen[m[1]] {
		c.flush(b)
	}
	if c.cur == nil {
		r := MemoryStatsSample{Step: input.NoStep, Rank: input.NoRank, Allocated: Unknown, Reserved: Unknown, Active: Unknown, InactiveSplit: Unknown,
			NumAllocRetries: Unknown, NumOOMs: Unknown}
		if c.hasStep {
			r.Step = c.step
		}
		r.Time, r.Rank = b.lineTimeRank(line)
		c.cur = &r
		c.seen = map[string]bool{}
	}
	c.seen[m[1]] = true
	r := c.cur
	bytes := int64(math.Round(v * composerGB))
	switch m[1] {
	case "current_allocated_mem":
		r.Allocated = bytes
	case "current_active_mem", "active_mem":
		r.Active = bytes
	case "current_inactive_mem", "inactive_mem":
		r.InactiveSplit = bytes
	case "current_reserved_mem", "reserved_mem":
		r.Reserved = bytes
	case "alloc_retries":
		r.NumAllocRetries = int64(v)
	}
	return true
}

// flush ends the batch being read, keeping its reading when it gave
// allocated or reserved memory.
func (c *composerState) flush(b *logBuilder) {
	if c.cur == nil {
		return
	}
	if c.cur.Allocated >= 0 || c.cur.Reserved >= 0 {
		if len(b.log.MemoryStats) == 0 {
			b.note("Composer MemoryMonitor metrics (memory/current_*_mem, in gigabytes of 10^9 bytes) are read as memory_stats readings of the process's device, assumed to be cuda:0")
		}
		b.log.MemoryStats = append(b.log.MemoryStats, *c.cur)
	}
	c.cur = nil
}
