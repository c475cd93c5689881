package analyze

import (
	"fmt"
	"slices"
	"strings"

	"gpureport/internal/units"
)

// The analysis's enumerations. Each is a string type whose value is its
// one spelling, in summary.json, in the workbook and in sentences.

// Flag is one of the verdict's four flags (Verdict.Leak and the rest).
// Its spelling is summary.json's verdict key; --fail-on takes the same
// names.
type Flag string

// The verdict flags, in the order reports list them.
const (
	FlagLeak                 Flag = "leak"
	FlagOutsideAllocatorLeak Flag = "outside_allocator_leak"
	FlagOOM                  Flag = "oom"
	FlagFragmentation        Flag = "fragmentation"
)

// AllFlags returns the four flags in report order.
func AllFlags() []Flag {
	return []Flag{FlagLeak, FlagOutsideAllocatorLeak, FlagOOM, FlagFragmentation}
}

// ParseFlag reads a flag's name, case-insensitive. "outside-leak", the
// name --fail-on used before the flags had one spelling, still reads as
// FlagOutsideAllocatorLeak.
func ParseFlag(s string) (Flag, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "outside-leak" {
		return FlagOutsideAllocatorLeak, nil
	}
	for _, f := range AllFlags() {
		if s == string(f) {
			return f, nil
		}
	}
	names := make([]string, 0, 4)
	for _, f := range AllFlags() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown flag %q (want %s)", s, strings.Join(names, ", "))
}

// Has reports whether the verdict raises flag f.
func (v Verdict) Has(f Flag) bool {
	switch f {
	case FlagLeak:
		return v.Leak
	case FlagOutsideAllocatorLeak:
		return v.OutsideAllocatorLeak
	case FlagOOM:
		return v.OOM
	case FlagFragmentation:
		return v.Fragmentation
	}
	return false
}

// Flags lists the verdict's raised flags in report order.
func (v Verdict) Flags() []Flag {
	var out []Flag
	for _, f := range AllFlags() {
		if v.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// FlagText lists the verdict's raised flags in report order,
// comma-separated: "leak, oom"; "" when none is raised.
func (v Verdict) FlagText() string {
	var b strings.Builder
	for i, f := range v.Flags() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(f))
	}
	return b.String()
}

// Axis is the x axis of a device's series, and the unit of x its growth
// rates are given per: units.Per, so that an axis and a rate on it are
// spelled alike ("hour", not "hours").
type Axis = units.Per

// Axes: steps when every snapshot has a file-name step, else hours since
// the first snapshot. A device without snapshots takes its axis from its
// torch.cuda.memory_stats() readings (steps, else hours since the first
// reading, else AxisReading) or, with GPU log readings only, hours since
// the first reading.
const (
	AxisStep  = units.PerStep
	AxisHours = units.PerHour
	// AxisReading is a reading's position in its log (0, 1, 2, ...), for
	// readings that carry neither a step nor a time.
	AxisReading = units.PerReading
	// AxisSnapshot is a snapshot's position in its series (0, 1, 2, ...),
	// for snapshots with no step whose times are unknown, copy times, or
	// span too little time for a per-hour rate (MinHoursAxisSpan).
	AxisSnapshot = units.PerSnapshot
)

// Severity is the run verdict's severity (Verdict.Severity).
type Severity string

// Run severities, least severe first (see verdict.go for the rules).
const (
	SeverityOK       Severity = "ok"
	SeverityInfo     Severity = "info"
	SeverityWarning  Severity = "warning"
	SeverityCritical Severity = "critical"
)

// Rank orders severities, the most severe highest: ok 0, info 1, warning
// 2, critical 3; an unknown severity ranks as ok.
func (s Severity) Rank() int {
	return max(0, slices.Index([]Severity{SeverityOK, SeverityInfo, SeverityWarning, SeverityCritical}, s))
}

// LeakSeverity is a leak suspect's severity (Suspect.Severity), from its
// time to capacity, not its size.
type LeakSeverity string

// Leak severities.
const (
	// SeverityHigh: projected to exhaust the device within the run's own
	// length or within Thresholds.Horizon.
	SeverityHigh LeakSeverity = "high"
	// SeverityMedium: within Thresholds.ExtrapolationRuns times the run's
	// length.
	SeverityMedium LeakSeverity = "medium"
	// SeverityLow: further than that, or capacity unknown: a small but
	// certain leak.
	SeverityLow LeakSeverity = "low"
)

// Confidence is how far a leak suspect's attribution can be trusted
// (Suspect.Confidence).
type Confidence string

// Confidence levels: lowered by low stack coverage, a trace that
// overflowed, few points, a weak p-value or growth in a few jumps.
const (
	ConfidenceHigh   Confidence = "high"
	ConfidenceMedium Confidence = "medium"
	ConfidenceLow    Confidence = "low"
)

// OutsideOwner says whose memory grows outside the caching allocator on
// a device's GPU, as per-process readings tell (Reconciliation.Owner).
type OutsideOwner string

// Outside owners.
const (
	// OwnerUnknown: no per-process readings, or they cannot tell the run's
	// own process apart.
	OwnerUnknown OutsideOwner = ""
	// OwnerRun: the run's own process grows.
	OwnerRun OutsideOwner = "run"
	// OwnerOthers: only other processes on the GPU grow.
	OwnerOthers OutsideOwner = "others"
)

// OOMCause is an out-of-memory error's cause by docs/design.md's definition
// (OOM.Class, MemoryStatsOOM.Cause).
type OOMCause string

// OOM causes, decided in this order.
const (
	// CauseLimit: the device's own free memory was at least the request,
	// yet the allocation failed: a cap on the process (memory fraction,
	// MIG or MPS limit), a driver that reports memory it will not give
	// (Windows WDDM), or another process that took it in the meantime.
	CauseLimit OOMCause = "limit"
	// CauseLeak: the leak suspects' growth filled the device; without it
	// the request would have fit.
	CauseLeak OOMCause = "leak"
	// CauseFragmentation: device free plus cached free memory was at
	// least the request.
	CauseFragmentation OOMCause = "fragmentation"
	// CauseCapacity: live memory without any leak plus the request
	// exceeds what the device offers.
	CauseCapacity OOMCause = "capacity"
	// CauseUnknown: the message gives too few numbers to decide (a
	// training-log OOM without free or reserved memory).
	CauseUnknown OOMCause = "unknown"
)

// TrendState is docs/design.md's trend state (Trend.State, summary.json
// "state").
type TrendState string

// Trend states.
const (
	// StateGrowing is significant growth whose 95% interval lies above 0.
	StateGrowing TrendState = "growing"
	// StateFlat is evidence of no meaningful growth (a falling series
	// included).
	StateFlat TrendState = "flat"
	// StateInconclusive is growth seen but not established; Trend.Reason
	// says what more data would decide it.
	StateInconclusive TrendState = "inconclusive"
	// StateInsufficient is fewer points than any test needs.
	StateInsufficient TrendState = "insufficient"
)
