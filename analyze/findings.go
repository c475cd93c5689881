// Package analyze turns a decoded run (ingest.Run) into Findings: per
// device series, trend fits, fragmentation, leak attribution,
// reconciliation with GPU logs, OOM explanations and the verdict. Every
// function here is pure: no I/O, no formatting.
package analyze

import (
	"time"

	"gpureport/ingest"
)

// Findings is everything the reports show about one run.
type Findings struct {
	// Run is the run directory as given.
	Run string
	// Inputs summarises what was read and skipped.
	Inputs Inputs
	// Location is the zone assumed for zoneless log timestamps.
	Location string
	// Devices holds one entry per (rank, device) that has snapshots or GPU
	// samples, ordered by rank then device.
	Devices []*Device
	// Ranks compares ranks when the run has more than one; nil otherwise.
	Ranks *RankComparison
	// OOMs explains each out-of-memory event found in the snapshots.
	OOMs []OOM
	// Verdict is the run's overall verdict.
	Verdict Verdict
	// Notes are warnings and caveats a reader must see (clock offsets,
	// low stack coverage, trace overflow, ...).
	Notes []string
}

// Inputs summarises the run's input files.
type Inputs struct {
	// Snapshots is the number of snapshot files decoded.
	Snapshots int
	// Logs describes each GPU log read.
	Logs []LogInfo
	// Skipped lists the files that could not be used.
	Skipped []ingest.Skipped
}

// LogInfo describes one GPU log (summary.json inputs.gpu_logs[]).
type LogInfo struct {
	Path   string
	Format ingest.LogFormat
	// Samples counts readings of one GPU (or process) at one time.
	Samples int
	// GPUs counts the devices the log covers.
	GPUs int
	// SkippedLines counts unreadable lines; Problems says where and why.
	SkippedLines int
	Problems     []ingest.LineProblem
}

// OrderRule says how a device's snapshots were put in order.
type OrderRule string

// Ordering rules, in design.md's order of preference.
const (
	OrderTraceTime OrderRule = "trace time_us"
	OrderStep      OrderRule = "file-name step"
	OrderModTime   OrderRule = "file modification time"
)

// Axis is the x axis of a device's series.
type Axis string

// Axes: steps when every snapshot has a file-name step, else hours since
// the first snapshot.
const (
	AxisStep  Axis = "step"
	AxisHours Axis = "hours"
)

// DeviceKey identifies a series: one device of one rank.
type DeviceKey struct {
	// Rank is the distributed rank, ingest.NoRank when the paths give none.
	Rank int
	// Device is the CUDA device index.
	Device int
}

// Device is the analysis of one (rank, device) series.
type Device struct {
	DeviceKey
	// Capacity is the device's memory in bytes (from GPU logs or the
	// --capacity option); 0 when unknown. CapacitySource says which.
	Capacity       int64
	CapacitySource string
	// Order is the rule that ordered the snapshots; Axis the x axis.
	Order OrderRule
	Axis  Axis
	// Points are the device's snapshots in order.
	Points []Point
	// GPU holds the GPU log readings joined to this device; nil if none.
	GPU *GPUSeries
	// Trends are the fitted trends, one per metric (allocated, reserved,
	// gpu used, non-PyTorch) that has data.
	Trends []Trend
	// Fragmentation is the fragmentation analysis over the snapshots.
	Fragmentation *Fragmentation
	// Suspects are the leak suspects of this device, most growth first.
	Suspects []Suspect
	// Coverage says how much of the live memory the stacks explain.
	Coverage Coverage
	// Reconciliation compares nvidia-smi used with reserved; nil without
	// both series.
	Reconciliation *Reconciliation
	// Verdict is the series verdict: "growing", "flat" or
	// "insufficient data".
	Verdict string
}

// Point is one snapshot of a device series.
type Point struct {
	// Path is the snapshot file, relative to the run directory.
	Path string
	// Step is the file-name step, ingest.NoStep when none.
	Step int64
	// Time is the latest trace time (UTC), zero when the file has none.
	Time time.Time
	// X is the point's position on the device's Axis (step, or hours
	// since the series' first snapshot).
	X float64
	// Usage is the device's memory accounting in this snapshot.
	Usage Usage
	// Pools splits Usage by pool (small/large, private pools apart).
	Pools []PoolUsage
}

// PoolUsage is the Usage of one pool of a device in one snapshot.
type PoolUsage struct {
	// Pool is "small", "large", or "private (a, b)" for a CUDA graph or
	// MemPool private pool.
	Pool string
	Usage
}

// GPUSeries holds a device's GPU log readings, in time order.
type GPUSeries struct {
	// Times are reading times; X the same on the device's axis where it
	// can be placed (NaN otherwise).
	Times []time.Time
	X     []float64
	// Used is memory.used in bytes per reading.
	Used []int64
	// Total is memory.total in bytes (largest seen), 0 when not logged.
	Total int64
	// MaxUsed is the largest Used.
	MaxUsed int64
	// Sources lists the logs the readings came from.
	Sources []string
}

// Trend is a fitted trend of one metric against the device's axis.
type Trend struct {
	// Metric is the summary.json name: "allocated_bytes",
	// "reserved_bytes", "gpu_used_bytes" or "non_pytorch_bytes".
	Metric string
	// Per is the slope's unit of x: "step" or "hour".
	Per string
	// N is the number of points fitted.
	N int
	// Slope is the fitted growth in bytes per step (or hour), with its 95%
	// confidence interval [Lo, Hi].
	Slope, Lo, Hi float64
	// Intercept is the fitted value at x = 0, in bytes, for drawing the line.
	Intercept float64
	// PValue is the p-value of the trend test (no trend as null hypothesis).
	PValue float64
	// Method names the estimator, e.g. "OLS" or "Theil-Sen".
	Method string
	// FitFrom is the index of the first point fitted (after warm-up).
	FitFrom int
	// Verdict is "growing", "shrinking", "flat" or "insufficient data".
	Verdict string
	// Projection forecasts when the metric reaches capacity; nil when
	// capacity is unknown or the metric does not grow.
	Projection *Projection
}

// Projection is a time-to-capacity forecast.
type Projection struct {
	// Capacity is the limit projected against, in bytes.
	Capacity int64
	// X is where the fit reaches Capacity on the device axis, with its
	// interval [XLo, XHi] from the slope interval (XHi is +Inf when the
	// interval's low slope does not grow).
	X, XLo, XHi float64
	// Remaining is X minus the last point's X: steps (or hours) left.
	Remaining float64
	// Hours is the wall-clock estimate of the time left, 0 when unknown.
	Hours float64
	// Beyond is true when the projection lies beyond Horizon times the run's
	// length, where it means little.
	Beyond  bool
	Horizon float64
}

// Fragmentation is the fragmentation analysis of a device series.
type Fragmentation struct {
	// Points align with Device.Points.
	Points []FragPoint
	// Trend is the trend of inactive (cached but unused) bytes.
	Trend *Trend
	// Fragmented is true when cached-but-unusable memory is large and
	// persistent enough to matter.
	Fragmented bool
	// Reason explains Fragmented with numbers.
	Reason string
}

// FragPoint is the fragmentation state of one snapshot.
type FragPoint struct {
	// Inactive is reserved but free bytes; LargestFree the largest hole.
	Inactive, LargestFree int64
	// External is 1 - LargestFree/Inactive.
	External float64
	// InternalWaste is rounding waste in bytes.
	InternalWaste int64
	// PinnedSegments counts segments kept alive by a few small live blocks,
	// and PinnedBytes their free bytes.
	PinnedSegments int
	PinnedBytes    int64
}

// Suspect is a leak suspect: a stack signature whose live bytes grow.
type Suspect struct {
	// Fingerprint is stable across runs and addresses for the same leak.
	Fingerprint string
	// Site is the innermost user frame as "file:line"; Function its name.
	Site     string
	Function string
	// Stack is a representative full stack, innermost first; User marks
	// the frames outside torch, site-packages and the interpreter.
	Stack []ingest.Frame
	User  []bool
	// Bytes and Blocks are the suspect's live bytes and block count per
	// point of the device series.
	Bytes  []int64
	Blocks []int
	// Trend is the fitted growth of Bytes.
	Trend Trend
	// Suppressed names the suppression that matched, "" when none.
	Suppressed string
}

// Coverage says how much of the live memory carries allocation stacks.
type Coverage struct {
	// LiveWithStack is the share (0..1) of live bytes in the last snapshot
	// whose blocks carry frames.
	LiveWithStack float64
	// TraceOverflow is true when a trace ring buffer was full, so early
	// events were lost.
	TraceOverflow bool
}

// Reconciliation compares the device's nvidia-smi used memory with the
// allocator's reserved memory.
type Reconciliation struct {
	// NonPyTorch is used minus reserved at each snapshot with a matching
	// GPU reading, in bytes (NaN where none matched).
	NonPyTorch []float64
	// Trend is the trend of NonPyTorch.
	Trend *Trend
	// OutsideLeak is true when memory outside the caching allocator grows.
	OutsideLeak bool
	// Reason explains OutsideLeak with numbers.
	Reason string
}

// RankComparison compares the ranks of a multi-rank run.
type RankComparison struct {
	// Ranks lists each rank's peak and slope.
	Ranks []RankSummary
	// Outlier is the rank whose growth differs, ingest.NoRank if none.
	Outlier int
	// Reason says why, with the suspect that differs.
	Reason string
}

// RankSummary is one rank's line in the rank comparison.
type RankSummary struct {
	Rank          int
	PeakAllocated int64
	PeakReserved  int64
	Slope         float64
}

// OOM explains one out-of-memory event.
type OOM struct {
	// Path is the snapshot that recorded it; Rank and Device where.
	Path   string
	Rank   int
	Device int
	// Time is when it happened (zero if unknown).
	Time time.Time
	// Requested is the rounded request that failed, in bytes; DeviceFree
	// the bytes CUDA reported free.
	Requested, DeviceFree int64
	// Reserved, Allocated, CachedFree (inactive) and LargestFree describe
	// the allocator at the OOM (from the snapshot), in bytes.
	Reserved, Allocated, CachedFree, LargestFree int64
	// Class is "capacity" or "fragmentation".
	Class string
	// Explanation says, in a sentence, why the request failed.
	Explanation string
	// Settings are the allocator settings in force.
	Settings ingest.AllocatorSettings
	// Recommendations are the changes to try, each tied to evidence.
	Recommendations []Recommendation
}

// Recommendation is a change to try and the evidence for it.
type Recommendation struct {
	// Setting is what to change, e.g. "expandable_segments:True".
	Setting string
	// Evidence is the observation that motivates it.
	Evidence string
}

// Verdict is the run's overall verdict.
type Verdict struct {
	Leak                 bool
	OutsideAllocatorLeak bool
	Fragmentation        bool
	OOM                  bool
	// Severity is "ok", "info", "warning" or "critical".
	Severity string
	// Headline is a one-line summary for banners and stdout.
	Headline string
	// Reasons give the numbers behind each flag.
	Reasons []string
	// Suspects are the top leak suspects across devices.
	Suspects []SuspectRef
}

// SuspectRef points at a suspect of one device.
type SuspectRef struct {
	DeviceKey
	// Index is the suspect's position in that Device's Suspects.
	Index int
}
