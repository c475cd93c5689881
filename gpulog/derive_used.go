package gpulog

import (
	"fmt"
	"math"
	"slices"
)

// nvidia-smi's used memory is what the device's framebuffer holds less what
// the driver keeps for itself: since about driver 510 nvidia-smi prints
// Reserved apart, and used = total - reserved - free (docs/design.md's
// "GPU-log used" is this figure). A log that queried memory.free and
// memory.total but not memory.used (`--query-gpu=...,memory.free,
// memory.total`) gives used by that sum; without memory.reserved the
// driver's reservation is counted as used (a few hundred MiB on a
// data-centre card), and a note says so. A log with free memory and no
// total gives no used memory at all, and a note says why no device comes
// of it, as does one with a total alone.

// deriveUsed fills MemoryUsed of the readings that give total and free
// memory but no used memory, and notes what it did or why it could not.
func (b *logBuilder) deriveUsed() {
	derived, withReserved, freeOnly, totalOnly, used := 0, 0, 0, 0, 0
	for i := range b.log.Samples {
		s := &b.log.Samples[i]
		if s.MemoryUsed >= 0 {
			used++
			continue
		}
		if s.MemoryFree < 0 {
			if s.MemoryTotal >= 0 && !s.HasUsedPercent {
				totalOnly++
			}
			continue
		}
		reserved := max(s.MemoryReserved, 0)
		if s.MemoryTotal < 0 || s.MemoryFree+reserved > s.MemoryTotal {
			freeOnly++
			continue
		}
		s.MemoryUsed = s.MemoryTotal - s.MemoryFree - reserved
		derived++
		if s.MemoryReserved >= 0 {
			withReserved++
		}
	}
	switch {
	case derived > 0 && withReserved == derived:
		b.note(fmt.Sprintf("%d readings give free, reserved and total memory but no used memory: used is total - reserved - free, as nvidia-smi computes it", derived))
	case derived > 0:
		b.note(fmt.Sprintf("%d readings give free and total memory but no used memory: used is total - free, which counts the driver's reserved memory (memory.reserved, not logged) as used", derived))
	}
	if used > 0 || derived > 0 {
		// Some readings give used memory: the others are gaps ([N/A]
		// fields), not a log that lacks the column.
		return
	}
	if freeOnly > 0 {
		b.note(fmt.Sprintf("%d readings give free memory but no used memory and no total at least as large (memory.total): used memory cannot be derived, so no device is shown for them; log memory.used", freeOnly))
	}
	if totalOnly > 0 {
		why := ""
		if slices.ContainsFunc(b.log.Samples, func(s GPUSample) bool { return !math.IsNaN(s.UtilizationMemory) }) {
			why = " (utilization.memory is the share of time memory was read or written, not memory held)"
		}
		b.note(fmt.Sprintf("%d readings give the device's total memory but neither used nor free memory%s: no device is shown for them; log memory.used", totalOnly, why))
	}
}
