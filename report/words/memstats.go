package words

import (
	"fmt"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// statsOOMReason is the verdict's reason for a rise of num_ooms between
// two memory_stats readings of device d (its MemoryStats.OOMs[i]).
func statsOOMReason(d *analyze.Device, i int) string {
	o := d.MemoryStats.OOMs[i]
	s := fmt.Sprintf("OOM on %s (torch.cuda.memory_stats): num_ooms rose from %d to %d between %s and %s",
		Device(d.DeviceKey), o.Before, o.After, Reading(o.Prev), Reading(o.At))
	var at []string
	if o.Allocated >= 0 {
		at = append(at, "allocated "+units.Bytes(o.Allocated))
	}
	if o.Reserved >= 0 {
		at = append(at, "reserved "+units.Bytes(o.Reserved))
	}
	if d.Capacity > 0 {
		at = append(at, "device "+units.Bytes(d.Capacity))
	}
	if len(at) > 0 {
		s += "; at " + Reading(o.At) + ": " + strings.Join(at, ", ")
	}
	if o.Handled {
		s += "; caught: the process went on after it"
	}
	return s
}

// StatsOOM describes a rise of num_ooms for a list of OOMs: "num_ooms 0 →
// 1 between step 690 and step 700 (allocated 4.68 GiB, reserved 5.68
// GiB)".
func StatsOOM(o analyze.MemoryStatsOOM) string {
	s := fmt.Sprintf("num_ooms %d → %d between %s and %s", o.Before, o.After, Reading(o.Prev), Reading(o.At))
	var at []string
	if o.Allocated >= 0 {
		at = append(at, "allocated "+units.Bytes(o.Allocated))
	}
	if o.Reserved >= 0 {
		at = append(at, "reserved "+units.Bytes(o.Reserved))
	}
	if len(at) > 0 {
		s += " (" + strings.Join(at, ", ") + ")"
	}
	if o.Handled {
		s += ", caught: the process went on after it"
	}
	return s
}

// Retries says what the num_alloc_retries counter did, with the numbers.
func Retries(r *analyze.AllocRetries) string {
	switch {
	case r.Rises == 0:
		return fmt.Sprintf("num_alloc_retries stays at %d over %d readings", r.Last, r.Readings)
	case r.Growing:
		return fmt.Sprintf("num_alloc_retries keeps growing: from %d to %d over %d readings, rising at %d of them, the last at %s: cudaMalloc failed and the caching allocator had to free its cache to satisfy requests (fragmentation or memory pressure; each retry also synchronizes the device)",
			r.First, r.Last, r.Readings, r.Rises, Reading(r.LastRise))
	}
	return fmt.Sprintf("num_alloc_retries rose from %d to %d at %d of %d readings, the last at %s, and does not keep growing",
		r.First, r.Last, r.Rises, r.Readings, Reading(r.LastRise))
}

// StatsSummary sums up a device's memory_stats readings: "720 readings
// from stats.jsonl, ordered by step; peak allocated 4.68 GiB; peak
// reserved 5.68 GiB; num_ooms 1 at the last reading."
func StatsSummary(m *analyze.MemoryStatsSeries) string {
	parts := []string{fmt.Sprintf("%s from %s, ordered by %s", units.CountOf(len(m.Readings), "reading"), strings.Join(m.Sources, ", "), m.Order)}
	if m.Max.Allocated >= 0 {
		parts = append(parts, "peak allocated "+units.Bytes(m.Max.Allocated))
	}
	if m.Max.Reserved >= 0 {
		parts = append(parts, "peak reserved "+units.Bytes(m.Max.Reserved))
	}
	if m.Last.NumOOMs >= 0 {
		parts = append(parts, fmt.Sprintf("num_ooms %d at the last reading", m.Last.NumOOMs))
	}
	return strings.Join(parts, "; ") + "."
}
