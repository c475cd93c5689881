package analyze

import (
	"fmt"
	"slices"
	"strings"

	"gpureport/gpulog"
	"gpureport/internal/units"
	"gpureport/placement"
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
// the first reading (readings without times: their steps when every one
// has a step, else AxisReading).
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

// RanOutSource says what shows that the run ran out of memory on a device
// (RanOut.From).
type RanOutSource string

// What shows an OOM that happened.
const (
	// RanOutSnapshot: a snapshot's trace records the OOM.
	RanOutSnapshot RanOutSource = "snapshot"
	// RanOutTrainingLog: a training log prints the OOM's message.
	RanOutTrainingLog RanOutSource = "training log"
	// RanOutMemoryStats: memory_stats' num_ooms counter rose.
	RanOutMemoryStats RanOutSource = "memory_stats"
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
// (OOM.Cause, MemoryStatsOOM.Cause).
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
	// CauseOthers: other processes' memory on the device (the OOM
	// message's "Process N has X memory in use" entries) was at least
	// what the request lacked: without them it would have fit
	// (oomothers.go).
	CauseOthers OOMCause = "others"
	// CauseCapacity: live memory without any leak plus the request
	// exceeds what the device offers.
	CauseCapacity OOMCause = "capacity"
	// CauseUnknown: the message gives too few numbers to decide (a
	// training-log OOM without free or reserved memory), or memory
	// outside this process that no input accounts for filled the device
	// (OOM.Outside > 0; oomothers.go).
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

// Phase says why a snapshot was taken at another phase of a step than the
// periodic ones (Point.Phase); its spelling is summary.json's "phase".
type Phase string

// Phases of off-phase snapshots.
const (
	// PhaseExitDump: its path marks it as an exit or OOM dump
	// (ingest.PhaseOOM).
	PhaseExitDump Phase = "marked by its path as an exit or OOM dump"
	// PhaseOOMDump: its trace ends at an OOM, only frees after it.
	PhaseOOMDump Phase = "OOM dump: its trace ends at an OOM (only frees after it)"
	// PhaseNoStep: a periodic dump whose name has no step, beside dumps
	// whose names have one (a final_snapshot.pickle, a copy): its place
	// on the step axis is a guess (by its time, else after the last
	// step), so it is shown but is no trend point.
	PhaseNoStep Phase = "no step in its name, beside snapshots that have one"
)

// Status is a series' or a device's decision in one word: summary.json's
// "verdict" of a trend and of a device, and the Verdict column of every
// report. A trend's Status follows its State (Trend.Status); a device's
// is StatusLeak or its primary trend's (Device.Status).
type Status string

// Statuses.
const (
	// StatusLeak: the device has a leak (devices only).
	StatusLeak Status = "leak"
	// StatusGrowing: StateGrowing.
	StatusGrowing Status = "growing"
	// StatusShrinking: StateFlat for a series that falls significantly
	// (PatternDecreasing).
	StatusShrinking Status = "shrinking"
	// StatusFlat: any other StateFlat.
	StatusFlat Status = "flat"
	// StatusInconclusive: StateInconclusive.
	StatusInconclusive Status = "inconclusive"
	// StatusInsufficient: StateInsufficient, or a device without a
	// primary trend.
	StatusInsufficient Status = "insufficient data"
)

// Status is the trend's decision in one word: its State, told apart
// from a flat series when the series falls.
func (t *Trend) Status() Status {
	switch t.State {
	case StateGrowing:
		return StatusGrowing
	case StateInconclusive:
		return StatusInconclusive
	case StateFlat:
		if t.Pattern == PatternDecreasing {
			return StatusShrinking
		}
		return StatusFlat
	}
	return StatusInsufficient
}

// Pattern describes the shape of a series (Trend.Pattern): how it grew,
// or why it is not growing. It decides nothing; its spelling is how every
// report names the shape.
type Pattern string

// Patterns.
const (
	PatternSteady     Pattern = "steady growth"
	PatternBursts     Pattern = "growth in bursts"
	PatternOnset      Pattern = "flat, then growth"
	PatternStep       Pattern = "one-time step"
	PatternWarmUp     Pattern = "warm-up then flat"
	PatternPlateau    Pattern = "growth then plateau"
	PatternFlat       Pattern = "flat"
	PatternNoisy      Pattern = "noisy, no trend"
	PatternDecreasing Pattern = "decreasing"
	PatternTooFew     Pattern = "too few points"
	PatternNotShown   Pattern = "growth not established"
	PatternUntilOOM   Pattern = "grew until the OOM"
	// PatternTurnedOver: growing bytes in blocks that are replaced, a
	// bounded container's (survival.go).
	PatternTurnedOver Pattern = "blocks turn over"
)

// Estimators of a trend's slope (Trend.Method).
const (
	MethodTheilSen     = "Theil-Sen"
	MethodLeastSquares = "least squares"
)

// FragRule names the pattern that decided whether a device is fragmented
// (FragWhy.Rule; analyzeFragmentation states the rules).
type FragRule string

// Fragmentation rules, in the order they are tried.
const (
	// FragTooFew: too few periodic snapshots to judge.
	FragTooFew FragRule = "too few snapshots"
	// FragSplitExpandable: fragmented by max_split_size_mb beside
	// expandable segments: free ranges the oversize rule strands hold a
	// large share of reserved memory (PyTorch #193400).
	FragSplitExpandable FragRule = "max_split_size with expandable segments"
	// FragPinnedHoles: fragmented: pinned segments' free bytes grow.
	FragPinnedHoles FragRule = "pinned holes"
	// FragSawTooth: reserved memory is given back again and again.
	FragSawTooth FragRule = "saw-tooth"
	// FragCacheGrows: fragmented: reserved and cached free memory grow at
	// flat live memory.
	FragCacheGrows FragRule = "cache grows"
	// FragCacheJumps: fragmented: the same in a few jumps.
	FragCacheJumps FragRule = "cache jumps"
	// FragMoving: pinned segments grow, at no cost.
	FragMoving FragRule = "live memory moving"
	// FragRemainders: pinned segments grow with live memory.
	FragRemainders FragRule = "remainders"
	// FragNotShattered: cached free memory grows, not shattered.
	FragNotShattered FragRule = "not shattered"
	// FragWithLive: reserved memory grows with live memory.
	FragWithLive FragRule = "with live memory"
	// FragNone: nothing grows.
	FragNone FragRule = "none"
)

// EvidenceKind names an observation behind a leak suspect (Evidence).
type EvidenceKind string

// Evidence kinds, in the order attribution adds them.
const (
	// EvidenceGrowth: the live bytes' trend.
	EvidenceGrowth EvidenceKind = "growth"
	// EvidenceShape: the trend's pattern, growth and block counts.
	EvidenceShape EvidenceKind = "shape"
	// EvidenceWarmUp: the fit starts after a warm-up step.
	EvidenceWarmUp EvidenceKind = "warm-up"
	// EvidenceShare: the suspect's share of the device's growth.
	EvidenceShare EvidenceKind = "share"
	// EvidenceNoUserFrame: the stack has no user frame.
	EvidenceNoUserFrame EvidenceKind = "no user frame"
	// EvidenceCoverage: low stack coverage.
	EvidenceCoverage EvidenceKind = "coverage"
	// EvidenceOOM: the group grew into an OOM.
	EvidenceOOM EvidenceKind = "oom"
	// EvidencePaths: one of several call paths to a leak site.
	EvidencePaths EvidenceKind = "paths"
	// EvidencePinsSegments: its tensors pin cached segments, the
	// fragmentation seen (the leak's side effect).
	EvidencePinsSegments EvidenceKind = "pins segments"
	// EvidencePinning: most of its live bytes sit in pinned segments.
	EvidencePinning EvidenceKind = "pinning"
	// EvidenceSurvival: what following its blocks across the snapshots
	// shows (Suspect.Survival).
	EvidenceSurvival EvidenceKind = "survival"
	// EvidenceGraphGrowth: CUDA-graph or torch.compile memory whose
	// block count goes on growing: graphs recorded anew for new input
	// shapes without end (GraphGrowth).
	EvidenceGraphGrowth EvidenceKind = "graph growth"
)

// OutsideRule names what decided whether memory outside the caching
// allocator grows (OutsideWhy.Rule; reconcile.go).
type OutsideRule string

// Outside rules.
const (
	// OutsideUnmatched: snapshots without times over a reserved series
	// that changes cannot be matched to readings.
	OutsideUnmatched OutsideRule = "unmatched"
	// OutsideWithinError: it grows, by less than matching can err by.
	OutsideWithinError OutsideRule = "within error"
	// OutsideFlat: the trend of used − reserved does not grow.
	OutsideFlat OutsideRule = "flat"
	// OutsideGrows: the trend of used − reserved grows: a leak outside.
	OutsideGrows OutsideRule = "grows"
	// OutsideInferred: without times, used grows far more than reserved.
	OutsideInferred OutsideRule = "inferred"
	// OutsideTooFew: too few snapshots matched a reading.
	OutsideTooFew OutsideRule = "too few matched"
)

// ReasonKind names a finding behind the verdict (Reason.Kind), in the
// order decideVerdict adds them for a device.
type ReasonKind string

// Reason kinds.
const (
	// ReasonLeak: leak suspects; the device's top leak site (LeakSites[0])
	// leads.
	ReasonLeak ReasonKind = "leak"
	// ReasonStacklessLeak: live memory without stacks grows
	// (Coverage.NoStackTrend).
	ReasonStacklessLeak ReasonKind = "stackless leak"
	// ReasonWindowLeak: a possible leak seen in one snapshot's trace
	// (Device.WindowLeak), on a device with too few snapshots for a
	// trend: a candidate, which sets no flag (the verdict stays info,
	// "Not enough data", and names it).
	ReasonWindowLeak ReasonKind = "possible leak in one trace"
	// ReasonStatsLeak: allocated memory of memory_stats readings grows on
	// a device without snapshots.
	ReasonStatsLeak ReasonKind = "memory_stats leak"
	// ReasonStatsOOM: num_ooms rose between two memory_stats readings.
	ReasonStatsOOM ReasonKind = "memory_stats oom"
	// ReasonExhaustion: a leaking device's allocated memory reaches its
	// capacity soon (the allocated trend's Projection), or already did
	// (the allocated trend's RanOut; WithinRun true).
	ReasonExhaustion ReasonKind = "exhaustion"
	// ReasonOutsideLeak: memory outside the allocator grows
	// (Reconciliation).
	ReasonOutsideLeak ReasonKind = "outside leak"
	// ReasonFragmentation: the device is fragmented (Fragmentation).
	ReasonFragmentation ReasonKind = "fragmentation"
	// ReasonRetries: allocation retries keep rising at flat live memory
	// (MemoryStats.Retries).
	ReasonRetries ReasonKind = "retries"
	// ReasonMemoryGrows: GPU-log used memory grows on a device known only
	// from GPU logs, memory_stats reserved memory on a device whose
	// readings give no allocated memory, or the peak allocated memory of
	// a device whose readings print only that (Verdict.MemoryGrows).
	ReasonMemoryGrows ReasonKind = "memory grows"
	// ReasonProcessGrows: the used memory of a process of no device grows
	// in a run known only from GPU logs (Reason.Process,
	// ProcessSet.Decides; Verdict.MemoryGrows); its forecast, when the
	// GPU's capacity is known, is the process's Projection.
	ReasonProcessGrows ReasonKind = "process memory grows"
	// ReasonStatsOOMCause: the cause given to a memory_stats OOM.
	ReasonStatsOOMCause ReasonKind = "memory_stats oom cause"
	// ReasonOOM: an explained OOM (Findings.OOMs).
	ReasonOOM ReasonKind = "oom"
)

// NoSite says why a leak has no site (Verdict.NoSite).
type NoSite string

// Reasons a leak has no site.
const (
	// NoSiteSnapshots: only memory_stats readings show it.
	NoSiteSnapshots NoSite = "no snapshots"
	// NoSiteStacks: its memory carries no stacks.
	NoSiteStacks NoSite = "stacks missing"
)

// StepKind names a thing to try (NextStep, Recommendation).
type StepKind string

// Steps an OOM recommends.
const (
	// StepFixLeak: fix the leak that filled the device (OOM.LeakSite).
	StepFixLeak StepKind = "fix leak"
	// StepExpandable: turn on expandable segments (ExpandableSetting).
	StepExpandable StepKind = "expandable segments"
	// StepMaxSplit: set max_split_size_mb (Recommendation.MaxSplitMiB).
	StepMaxSplit StepKind = "max split size"
	// StepRemoveMaxSplit: remove max_split_size_mb (Recommendation.
	// MaxSplitMiB, the size set) and keep expandable segments: beside
	// them its oversize rule strands free ranges (PyTorch #193400).
	StepRemoveMaxSplit StepKind = "remove max split size"
	// StepGCThreshold: set the garbage-collection threshold
	// (GCThresholdSetting).
	StepGCThreshold StepKind = "gc threshold"
	// StepReduceLive: reduce live memory (a capacity OOM).
	StepReduceLive StepKind = "reduce live memory"
	// StepKeepExpandable: expandable segments are on; no allocator setting
	// helps a capacity OOM.
	StepKeepExpandable StepKind = "keep expandable segments"
	// StepLever: at a capacity OOM, change what holds one role of the live
	// memory (Recommendation.Lever: activation checkpointing, an 8-bit
	// optimizer, sharding ...), with the bytes it would free.
	StepLever StepKind = "change a role"
	// StepMPSWatermark: reduce live memory or raise MPS's high watermark
	// (an MPS OOM past OOMMessage.Allowed).
	StepMPSWatermark StepKind = "mps watermark"
	// StepVLLMCache: give vLLM's KV cache more room or need less of it (a
	// vLLM engine that could not fit one request's cache, OOMMessage.
	// Allowed the memory left for it).
	StepVLLMCache StepKind = "vllm kv cache"
	// StepSGLangPool: give SGLang's KV-cache pool room within
	// --mem-fraction-static or need less memory for the weights (an
	// SGLang server that found none left for its pool).
	StepSGLangPool StepKind = "sglang kv pool"
	// StepLimitFraction: raise or remove the per-process memory fraction
	// (a limit OOM whose message printed the cap, OOMMessage.Allowed).
	StepLimitFraction StepKind = "raise memory fraction"
	// StepLimitOthers: check the other processes on the GPU (a limit OOM
	// whose message counts their memory, OOMMessage.OtherProcesses).
	StepLimitOthers StepKind = "check other processes"
	// StepLimitCap: check for a cap that prints no figure: the memory
	// fraction, a MIG instance, a CUDA MPS client limit (a limit OOM
	// without a printed cap).
	StepLimitCap StepKind = "check for a cap"
	// StepLimitWDDM: a Windows WDDM driver reports free memory it does
	// not give (every limit OOM).
	StepLimitWDDM StepKind = "check for WDDM"
	// StepOthersFree: stop or move the other processes whose memory
	// filled the device (an others OOM; the message names the largest,
	// OOMMessage.LargestOtherPID).
	StepOthersFree StepKind = "free the GPU of other processes"
	// StepOutsideFind: find what held the device memory outside this
	// process that no input accounts for (an unknown OOM with
	// OOM.Outside): processes the message could not list, or a cap.
	StepOutsideFind StepKind = "find memory outside the process"
)

// Steps the run's flags call for.
const (
	// StepLookLockstep: the top leak site grows in lockstep with others.
	StepLookLockstep StepKind = "look at lockstep sites"
	// StepBucketShapes: the top leak is CUDA-graph or torch.compile
	// memory that goes on growing (EvidenceGraphGrowth): graphs recorded
	// anew for new input shapes.
	StepBucketShapes StepKind = "bucket shapes for graphs"
	// StepLookAutograd: the top leak site is an autograd node.
	StepLookAutograd StepKind = "look at autograd node"
	// StepLookNative: the top leak site has C++ frames only.
	StepLookNative StepKind = "look at native site"
	// StepLookSite: the top leak site is a line of user code.
	StepLookSite StepKind = "look at site"
	// StepRecordStacks: a leak without stacks; record them.
	StepRecordStacks StepKind = "record stacks"
	// StepRecordSnapshots: a leak seen in memory_stats only; record
	// snapshots.
	StepRecordSnapshots StepKind = "record snapshots"
	// StepOutsideOthers: other processes' memory grows on the GPU.
	StepOutsideOthers StepKind = "other processes grow"
	// StepOutsideAllocator: memory outside the allocator grows.
	StepOutsideAllocator StepKind = "outside the allocator grows"
	// StepPadShapes: fragmentation with expandable segments already on.
	StepPadShapes StepKind = "pad shapes"
	// StepTryExpandable: fragmentation; try expandable segments.
	StepTryExpandable StepKind = "try expandable segments"
	// StepSnapshotAtOOM: an OOM with no snapshot taken at it
	// (Findings.MissedOOM); capture one.
	StepSnapshotAtOOM StepKind = "snapshot at OOM"
)

// OOMMessageKind says which message of a training log reported an OOM
// (OOMMessage.Kind): gpulog.OOMKind's spelling.
type OOMMessageKind string

// OOM message kinds.
const (
	// MessageCUDA is a raw CUDA error ("CUDA error: out of memory").
	MessageCUDA = OOMMessageKind(gpulog.OOMCUDAError)
	// MessageNCCL is an NCCL message about a failed CUDA allocation.
	MessageNCCL = OOMMessageKind(gpulog.OOMNCCL)
	// MessageMPS is Apple's MPS allocator message, which gives no free
	// device memory but its high watermark (OOMMessage.Allowed).
	MessageMPS = OOMMessageKind(gpulog.OOMMPS)
	// MessageMallocAsync is the cudaMallocAsync backend's message, which
	// gives no reserved memory (the CUDA memory pool keeps the cache).
	MessageMallocAsync = OOMMessageKind(gpulog.OOMMallocAsync)
	// MessageVLLM is vLLM's startup refusal: its KV cache does not fit in
	// the memory left to it (requested: the cache needed; OOMMessage.
	// Allowed: the memory available for it).
	MessageVLLM = OOMMessageKind(gpulog.OOMVLLMKVCache)
	// MessageSGLang is SGLang's startup refusal: nothing is left for its
	// KV-cache pool within --mem-fraction-static (OOMMessage.Allowed 0).
	MessageSGLang = OOMMessageKind(gpulog.OOMSGLangKVPool)
	// MessageGGML is llama.cpp's ggml CUDA backend failing to allocate a
	// buffer: a request on a device, no allocator figures.
	MessageGGML = OOMMessageKind(gpulog.OOMGGML)
)

// NoteKind names a caveat (Note.Kind).
type NoteKind string

// Notes about a device, which the reports fold when several devices have
// them.
const (
	// NoteOneSnapshot: one snapshot, no trend.
	NoteOneSnapshot NoteKind = "one snapshot"
	// NoteFewSnapshots: fewer snapshots than a trend needs (Count).
	NoteFewSnapshots NoteKind = "few snapshots"
	// NoteCoverage: stacks cover part of the live bytes (Level, Share).
	NoteCoverage NoteKind = "coverage"
	// NoteTraceOverflow: the trace window is incomplete
	// (Coverage.Overflow).
	NoteTraceOverflow NoteKind = "trace overflow"
	// NoteStepsNotIncreasing: the numbers in the names are not steps.
	NoteStepsNotIncreasing NoteKind = "steps not increasing"
	// NoteOrderModTime: ordered by file modification time.
	NoteOrderModTime NoteKind = "ordered by file time"
	// NoteOrderCopied: file times are copy times; ordered by name.
	NoteOrderCopied NoteKind = "copied files"
	// NoteOrderName: ordered by a file-name number that is not a step
	// (Order).
	NoteOrderName NoteKind = "ordered by a name number"
	// NoteAxisSnapshot: placed by their order (no steps, too little
	// time).
	NoteAxisSnapshot NoteKind = "snapshot axis"
	// NoteStepsPerEpoch: the file-name steps count within each epoch
	// (Device.StepsPerEpoch): ordered by epoch, then step, and placed in
	// time or by their order, not per step.
	NoteStepsPerEpoch NoteKind = "steps per epoch"
	// NoteSameStep: two periodic dumps of one device at one step (Paths,
	// Step): copies, or two processes the paths do not tell apart.
	NoteSameStep NoteKind = "two dumps at one step"
	// NoteNoStep: a periodic dump without a step beside dumps with one
	// (Paths[0]; Step, where it is shown): shown, not a trend point.
	NoteNoStep NoteKind = "dump without a step"
	// NoteHeavyRank: the device's peak allocated memory stands above the
	// other ranks' (RankComparison.Heavy).
	NoteHeavyRank NoteKind = "heavy rank"
	// NoteCapacity: the device's capacity is unknown.
	NoteCapacity NoteKind = "capacity unknown"
)

// Notes about a device's memory_stats readings.
const (
	// NoteRetries: num_alloc_retries keeps growing (MemoryStats.Retries).
	NoteRetries NoteKind = "retries"
	// NoteOOMsBefore: num_ooms is above 0 at the first reading (Count).
	NoteOOMsBefore NoteKind = "ooms before the log"
	// NoteStatsGrow: too few snapshots, but memory_stats allocated grows.
	NoteStatsGrow NoteKind = "memory_stats grow"
	// NoteUnplaced: readings not placed on the snapshots' axis (Count).
	NoteUnplaced NoteKind = "unplaced readings"
)

// Notes about the run.
const (
	// NoteSkipped: input files that could not be used (Count).
	NoteSkipped NoteKind = "skipped"
	// NoteOOMRepeated: Count OOM messages of training log Paths[0] on
	// Device are also in the logs Text lists (comma-separated), copies
	// of the same process's output, each counted once (oomrepeat.go).
	NoteOOMRepeated NoteKind = "OOM repeated in other files"
	// NoteNoContent: text logs that hold nothing gpureport reads (Count;
	// ingest.Skipped.NoContent): listed, no failure.
	NoteNoContent NoteKind = "nothing to read"
	// NoteRankJoin: GPU readings joined to ranks by guessing rank r used
	// GPU r (Device is the first device joined so).
	NoteRankJoin NoteKind = "rank join guessed"
	// NoteMIGApart: the GPU logs read Count MIG devices (Device is the
	// first), shown apart from the snapshots' or memory_stats' devices:
	// a process sees its MIG device as cuda:0, and the logs name no MIG
	// device UUID to join them by (mig.go).
	NoteMIGApart NoteKind = "MIG devices shown apart"
	// NoteUnjoinedGPUGrows: a GPU of the GPU logs (Device.Device is its
	// index there) that no device of the snapshots or memory_stats
	// readings joined, whose used memory grows (Trend): a rank that dumped
	// no snapshots, or another job's GPU. A note, not a verdict: the run's
	// own devices decide the verdict.
	NoteUnjoinedGPUGrows NoteKind = "unjoined GPU grows"
	// NoteJobs: a GPU monitor's readings fell back to the idle GPU
	// between jobs run one after another (Trend: Jobs, Job, JobIdle), and
	// each job was judged alone.
	NoteJobs NoteKind = "jobs one after another"
	// NoteJoinAmbiguous: the device's GPU was chosen by tracking among
	// GPUs that follow it about equally well (its Device.GPUJoin).
	NoteJoinAmbiguous NoteKind = "GPU join ambiguous"
	// NoteClockOffset: a GPU log's clock is whole hours off the
	// snapshots' (Clock); NoteClockOffsetStats: off the memory_stats
	// readings' of a device without snapshots.
	NoteClockOffset      NoteKind = "clock offset"
	NoteClockOffsetStats NoteKind = "clock offset to memory_stats"
	// What placement assumed (Place): package placement's note kinds.
	NoteRanksNumbered     = NoteKind(placement.NoteRanksNumbered)
	NoteMachinesNumbered  = NoteKind(placement.NoteMachinesNumbered)
	NoteManifestsDisagree = NoteKind(placement.NoteManifestsDisagree)
	NoteNamesAlternate    = NoteKind(placement.NoteNamesAlternate)
	NoteUnrankedJoined    = NoteKind(placement.NoteUnrankedJoined)
	NoteUnrankedApart     = NoteKind(placement.NoteUnrankedApart)
	// NoteText: the words of an input's reader (Text).
	NoteText NoteKind = "text"
)

// OverflowRule names what shows a trace window incomplete (Overflow).
type OverflowRule string

// Overflow rules, in the order TraceOverflow tries them.
const (
	// OverflowFlag: allocator_settings.trace_alloc_overflowed is set.
	OverflowFlag OverflowRule = "overflowed"
	// OverflowMaxEntries: the trace holds trace_alloc_max_entries events.
	OverflowMaxEntries OverflowRule = "max entries"
	// OverflowEarlyFrees: the trace starts with frees of blocks it never
	// saw allocated.
	OverflowEarlyFrees OverflowRule = "early frees"
	// OverflowRoundLength: its length is a typical max_entries.
	OverflowRoundLength OverflowRule = "round length"
)

// TrendRule names the rule that decided a trend's State (TrendWhy.Rule;
// trend.go states the rules).
type TrendRule string

// Trend rules.
const (
	// RuleNoPoints: the series is empty.
	RuleNoPoints TrendRule = "no points"
	// RuleTooFew: fewer points than TrendWhy.MinPoints.
	RuleTooFew TrendRule = "too few points"
	// RuleOneX: every point at one x (one step): no axis to fit a rate
	// on.
	RuleOneX TrendRule = "one x"
	// RuleFalls: a significant fall (PatternDecreasing).
	RuleFalls TrendRule = "falls"
	// RuleNoGrowth: the test sees no rise.
	RuleNoGrowth TrendRule = "no growth"
	// RuleStepHolds: no significant rise, and one level change holds it.
	RuleStepHolds TrendRule = "a step holds the rise"
	// RuleOneStep: a significant rise that one level change explains.
	RuleOneStep TrendRule = "one step"
	// RuleStopped: the rise ended after a warm-up (persistence).
	RuleStopped TrendRule = "growth stopped"
	// RulePlateau: the rise ended in a long flat tail.
	RulePlateau TrendRule = "plateau"
	// RuleLevelsOff: a GPU monitor's readings whose rate in the last third
	// is far below the first third's (decelerates).
	RuleLevelsOff TrendRule = "levels off"
	// RuleGrows: growing.
	RuleGrows TrendRule = "grows"
	// RuleBounded: growth not established, and too small to matter even
	// at its interval's upper end.
	RuleBounded TrendRule = "bounded"
	// RuleThin: growth seen, not established (inconclusive).
	RuleThin TrendRule = "thin evidence"
	// RuleRatchet: a peak since start rises, but at no more readings
	// than a steady workload's new largest batches would raise it
	// (peaktrend.go).
	RuleRatchet TrendRule = "ratchet"
	// RuleTurnedOver: the bytes grow, but in blocks that are replaced:
	// what the group keeps does not grow (survival.go).
	RuleTurnedOver TrendRule = "turned over"
)

// SurvivalForm is what the survival of a growing stack group's blocks
// shows (survival.go): whether its growth is kept or turned over.
type SurvivalForm string

// Survival forms.
const (
	// SurvivalKept: the bytes in its blocks that outlive every block it
	// freed grow: it keeps tensors (a leak).
	SurvivalKept SurvivalForm = "kept"
	// SurvivalRecreated: its largest block is re-created bigger at every
	// snapshot and never smaller: one tensor rebuilt larger each time
	// (torch.cat onto a history tensor), a leak.
	SurvivalRecreated SurvivalForm = "re-created bigger"
	// SurvivalTurnedOver: it replaces its blocks and what it keeps does
	// not grow: a bounded container of recent tensors, not a leak.
	SurvivalTurnedOver SurvivalForm = "turned over"
	// SurvivalUnknown: too few snapshots outlast the lifetime of the
	// blocks it freed to tell.
	SurvivalUnknown SurvivalForm = "unknown"
)
