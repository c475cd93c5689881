// Package analyze turns a decoded run (ingest.Run) into Findings: it has
// package placement decide where each input belongs, then builds per
// device series, trend fits, fragmentation, leak attribution,
// reconciliation with GPU logs, OOM explanations, the verdict and what to
// try next. It does no I/O and writes no sentences: every finding is
// data, a kind with its figures (the rule that decided a trend, the cause
// of an OOM, a reason behind the verdict, a note, a next step), which the
// reports word (package report/words). The statistics themselves are in
// internal/stats.
//
// Analyze runs the stages in order (analyze.go lists them); where each
// lives:
//
//	analyze.go        the pipeline: Options, Analyze and its stages
//	findings.go       the Findings model that every report reads
//	enums.go          the typed vocabularies (flags, statuses, rules, kinds...)
//	series.go         stage 1: snapshots into one ordered series per (rank, device), and its axis
//	usage.go          memory accounting of a snapshot: per device and per pool
//	blocks.go         iterators over a device's segments and live blocks
//	devices.go        stage 2: a device per series, memory_stats group and GPU
//	mig.go            MIG devices of the GPU logs, each a device of its own
//	shares.go         GPUs whose logs give used memory only as a share of the device
//	gpujoin.go        a series' evidence for the GPU join, the placers of its axis (package placement)
//	processes.go      per-process GPU memory from the GPU logs
//	memstats.go       torch.cuda.memory_stats() JSON lines: series, trends, OOMs, retries
//	devicetrends.go   stage 3: a device's trends and their projections
//	trend.go          the trend verdict from the statistics; projection to capacity
//	reconcile.go      nvidia-smi used vs reserved: memory outside the allocator
//	coverage.go       how much of the live memory carries allocation stacks
//	signature.go      stack signatures and fingerprints
//	groups.go         live bytes by signature, diff of two groupings
//	survival.go       blocks followed across snapshots: kept or turned over
//	survivalcache.go  the survival fold's checkpoint, kept in the digest cache
//	attribution.go    stage 4: leak suspects across snapshots
//	suppress.go       built-in and user suppressions
//	tracewindow.go    replay of a trace: timeline, never-freed, the peak
//	memstate.go       the allocator's memory rebuilt at a trace event (an OOM)
//	memroles.go       stage 5: what holds the memory, per snapshot, suspect and OOM
//	fragmentation.go  stage 6: fragmentation per snapshot and pool
//	oom.go            stage 7: OOM explanations and recommendations
//	oomlimit.go       the limit cause, decided first, and what to check
//	oomcache.go       an OOM's explanation, kept in the digest cache
//	leaksites.go      stage 8: suspects grouped by site, sites in lockstep
//	segmentmap.go     the last snapshot's segments and blocks, for the segment map
//	trainlog.go       stage 9: OOM messages of training logs; GPU readings without times
//	ranks.go          multi-rank comparison; a rank that holds more
//	capture.go        the capture kit's manifests; OOMs no snapshot was taken at
//	notes.go          the caveats shown under the verdict
//	verdict.go        stage 10: the run verdict
//	nextsteps.go      what to try next
//	sideentry.go      what the analysis keeps beside a file's digest, and how it reads it back
//	pointcache.go     kept in the digest cache: each snapshot's roles and groups, the last one's trace window
//	prepare.go        PrepareNew: a re-run's one new snapshot prepared while the digests load
package analyze

import (
	"time"

	"gpureport/analyze/roles"
	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/units"
	"gpureport/placement"
	"gpureport/snapshot"
)

// Findings is everything the reports show about one run.
type Findings struct {
	// RunDir is the run directory as given (summary.json's "run").
	RunDir string
	// Inputs summarises what was read and skipped.
	Inputs Inputs
	// Location is the zone assumed for zoneless log timestamps.
	Location string
	// Devices holds one entry per (rank, device) that has snapshots or GPU
	// samples, ordered by rank then device.
	Devices []*Device
	// Ranks compares ranks when the run has more than one; nil otherwise.
	Ranks *RankComparison
	// OOMs explains each out-of-memory event found in the snapshots, in
	// time order.
	OOMs []OOM
	// Verdict is the run's overall verdict.
	Verdict Verdict
	// NextSteps are the things to try next, each tied to a finding, most
	// pressing first: the OOMs' recommendations, then one step per flag.
	NextSteps []NextStep
	// Notes are warnings and caveats a reader must see (clock offsets,
	// low stack coverage, trace overflow, guessed GPU joins, ...), in the
	// order the reports list them (notes.go).
	Notes []Note
	// Thresholds are the rules the verdict applied, for the report's
	// methods section.
	Thresholds Thresholds
	// OtherProcesses are the per-process readings of the GPU logs that
	// belong to no device of Devices: processes whose GPU the logs do not
	// identify (gpulog.ProcessSample.GPU -1), or on a GPU no series
	// covers. Listed once, apart; nil when there are none.
	OtherProcesses *ProcessSet
	// Capture is what the capture kit's manifests say (capture.go); nil
	// when the run was not captured with the kit.
	Capture *Capture
	// MissedOOM says that an OOM was seen with no snapshot taken at it;
	// nil when every OOM has one, or there was none.
	MissedOOM *MissedOOM
	// Held is the moment whose roles the reports' one line of roles
	// names (memroles.go); nil when no device's roles are known.
	Held *Held
}

// Held is a moment whose roles the reports sum up in one line: an OOM
// (OOM >= 0, an index in Findings.OOMs) or, without one, the snapshot of
// most allocated memory of the device that allocated most (Point, an index
// in that device's Points).
type Held struct {
	Device DeviceKey
	OOM    int
	Point  int
}

// Note is a caveat a reader must see: its kind, the device it is about
// (for a device's note), and the figures of its kind.
type Note struct {
	// Kind names the caveat.
	Kind NoteKind
	// Device is the device a device's note is about.
	Device DeviceKey
	// Count is a count the kind names: NoteFewSnapshots, the device's
	// snapshots; NoteOOMsBefore, num_ooms at the first reading;
	// NoteUnplaced, the readings not placed; NoteSkipped, the files
	// skipped; NoteNoStep, 1 when the dump was placed among the stepped
	// dumps by its time, 0 when after them.
	Count int
	// Logged is, for NoteOOMsBefore, how many of Count's OOMs the log's
	// own out-of-memory messages before the first reading show.
	Logged int
	// Level and Share are the device's stack coverage level and the
	// share of live bytes with stacks in a typical snapshot
	// (NoteCoverage).
	Level string
	Share float64
	// Order is the file-name number that ordered the snapshots
	// (NoteOrderName).
	Order OrderRule
	// Expandable is true when expandable segments are already on
	// (NoteRetries).
	Expandable bool
	// Clock is a GPU log's clock offset (NoteClockOffset,
	// NoteClockOffsetStats).
	Clock ClockNote
	// Place is what placement assumed (NoteRanksNumbered,
	// NoteMachinesNumbered, NoteManifestsDisagree).
	Place *PlaceNote
	// Text is a note in the words of an input's reader (the snapshot
	// decoder; NoteText).
	Text string
	// Paths are the snapshot files a note names: NoteSameStep, two dumps
	// at one step; NoteNoStep, the dump without a step (Paths[1] "").
	Paths [2]string
	// Step is the step a note names (NoteSameStep; NoteNoStep, the step
	// the dump is shown at, input.NoStep when the axis is not the step).
	Step int64
	// Trend is the trend a note names (NoteUnjoinedGPUGrows: the GPU's
	// used memory over hours).
	Trend *Trend
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
	// Path is the log file, relative to the run directory; Format the
	// format detected from its content.
	Path   string
	Format gpulog.LogFormat
	// Samples counts readings of one GPU (or process) at one time: GPU
	// memory readings, process rows, memory_stats() readings and MIG
	// readings together. Kinds splits it by kind of reading when the log
	// holds more than one kind (nil otherwise).
	Samples int
	Kinds   []ReadingCount
	// GPUs counts the devices the log covers.
	GPUs int
	// SkippedLines counts unreadable lines; Problems says where and why.
	SkippedLines int
	Problems     []gpulog.LineProblem
	// SkipCounts splits SkippedLines by kind of problem, most frequent
	// first.
	SkipCounts []gpulog.SkipCount
	// Notes are the reader's caveats about the whole file (an assumed
	// field order, dates taken from the file's modification time, ...).
	Notes []string
	// Zone is the UTC offset a capture manifest gave the log's zoneless
	// times, which were read in it instead of Findings.Location; nil when
	// they were not.
	Zone *ingest.LogZone
}

// ReadingCount is how many readings of one kind a log holds.
type ReadingCount struct {
	// Kind is ReadingGPU, ReadingProcess, ReadingMemoryStats or
	// ReadingMIG.
	Kind string
	// Readings is their number.
	Readings int
}

// Kinds of readings a log holds (LogInfo.Kinds).
const (
	// ReadingGPU: a GPU's memory at one time.
	ReadingGPU = "gpu"
	// ReadingProcess: one process's memory on a GPU at one time.
	ReadingProcess = "process"
	// ReadingMemoryStats: one torch.cuda.memory_stats() reading.
	ReadingMemoryStats = "memory_stats"
	// ReadingMIG: a MIG device's memory at one time.
	ReadingMIG = "mig"
)

// OrderRule says how a device's snapshots were put in order.
type OrderRule string

// Ordering rules, in docs/design.md's order of preference.
const (
	OrderTraceTime OrderRule = "trace time_us"
	OrderStep      OrderRule = "file-name step"
	// OrderEpochStep orders by the epoch, then the step, in the file
	// names, when the steps count within each epoch (Series.StepsPerEpoch).
	OrderEpochStep OrderRule = "file-name epoch, then step"
	// OrderNameTime, OrderNameEpoch and OrderNameIndex order by a number
	// in the file names that is not a step: a timestamp, an epoch, a dump
	// counter (ingest.OrderKind).
	OrderNameTime  OrderRule = "file-name timestamp"
	OrderNameEpoch OrderRule = "file-name epoch"
	OrderNameIndex OrderRule = "file-name index"
	OrderModTime   OrderRule = "file modification time"
	// OrderPath is the natural sort of the file paths (step_9 before
	// step_10), used when the modification times are copy times.
	OrderPath OrderRule = "file name (file times are copy times)"
)

// DeviceKey identifies a series: one device of one rank, the place
// package placement decides for each input.
type DeviceKey = placement.DeviceKey

// DeviceType is a device's kind as PyTorch names it (DeviceKey.Type);
// CUDA, the zero value, unless a training log's OOM message names another
// backend.
type DeviceType = placement.DeviceType

// Device types besides CUDA's that analysis and the reports tell apart.
const (
	// CUDA is the device type of CUDA devices (placement.CUDA).
	CUDA = placement.CUDA
	// MPS is Apple's MPS backend, which has one device and prints no free
	// memory in its OOM message (mpsOOM).
	MPS DeviceType = "mps"
)

// Join is how a device's GPU of the logs was chosen (Device.GPUJoin):
// package placement decides it.
type Join = placement.Join

// ClockNote is a GPU log's whole-hour clock offset as a note states it
// (Note.Clock).
type ClockNote = placement.ClockNote

// PlaceNote is what placement assumed about the run's inputs (Note.Place).
type PlaceNote = placement.Note

// Trend metrics, as summary.json names them.
const (
	MetricAllocated  = "allocated_bytes"
	MetricReserved   = "reserved_bytes"
	MetricGPUUsed    = "gpu_used_bytes"
	MetricNonPyTorch = "non_pytorch_bytes"
	MetricInactive   = "inactive_bytes"
	// MetricPeakAllocated is the peak allocated memory printed by
	// training logs that give nothing else (peaktrend.go).
	MetricPeakAllocated = "peak_allocated_bytes"
	// MetricProcessUsed is one process's used GPU memory (ProcessSeries).
	MetricProcessUsed = "process_used_bytes"
)

// SourceMemoryStats is Trend.Source for trends fitted on
// torch.cuda.memory_stats() readings instead of snapshots.
const SourceMemoryStats = "memory_stats"

// Device is the analysis of one (rank, device) series.
type Device struct {
	DeviceKey
	// Capacity is the device's memory in bytes (from the --capacity
	// option, GPU logs or a capture manifest); 0 when unknown.
	// CapacitySource says which.
	Capacity       int64
	CapacitySource CapacitySource
	// RanOut is the first OOM that shows the device's process ran out
	// (ranout.go: not handled, on this device alone, not a log's message
	// before its first reading); nil when none. Its trends and leaks state
	// it in place of a time to capacity.
	RanOut *RanOut
	// Order is the rule that ordered the snapshots; Axis the x axis.
	Order OrderRule
	Axis  Axis
	// HoursPerStep is the wall-clock pace of a step axis, in hours per
	// step: the time between the first and last timed snapshots (else
	// memory_stats readings) over their step distance; 0 when the axis is
	// not the step or too few points have times. Every trend per step of
	// the device takes it as its HoursPerX (stampPace) and every
	// projection of the device uses it: the pace is decided here once.
	// PaceSpanHours is the wall-clock span it was measured over, hours:
	// under MinHoursAxisSpan the trends get no per-hour rate
	// (rateHoursPerX), their projections still a time.
	HoursPerStep  float64
	PaceSpanHours float64
	// StepsPerEpoch is true when the file-name steps count within each
	// epoch (Series.StepsPerEpoch): the axis is then not the step.
	StepsPerEpoch bool
	// Points are the device's snapshots in order.
	Points []Point
	// GPU holds the GPU log readings joined to this device; nil if none.
	GPU *GPUSeries
	// UsedShare holds used memory as a percent of the device, for a GPU
	// whose logs give only that share and no total (shares.go); nil
	// otherwise.
	UsedShare *ShareSeries
	// GPUJoin is how the GPU of the logs was chosen for this device: the
	// rule and its evidence (placement.JoinGPUs); nil without GPU
	// readings, and for a device known only from its GPU's readings
	// (GPUJoinMethod JoinByIndex).
	GPUJoin *Join
	// ClockShift is how many hours the GPU log's times were moved to
	// match the device's snapshots (or memory_stats readings) after a
	// whole-hour clock offset (placement.DetectClockOffset); 0 when they were not.
	ClockShift int
	// GPUIndex is the nvidia-smi index of the GPU joined (meaningful only
	// when GPU is not nil); GPUJoinMethod the rule that chose it
	// (placement.JoinGPUs); GPUJoinAmbiguous is true when another GPU tracked
	// the device about as well.
	GPUIndex         int
	GPUJoinMethod    placement.JoinMethod
	GPUJoinAmbiguous bool
	// Trends are the fitted trends, one per metric that has data, in the
	// order allocated, reserved, gpu used, non-PyTorch. Trends[0] (when
	// present) is the primary trend of summary.json: allocated_bytes.
	Trends []Trend
	// Fragmentation is the fragmentation analysis over the snapshots.
	Fragmentation *Fragmentation
	// Groups are the live bytes per stack signature at every point: the
	// leak attribution's raw material (pprof export, Suspects sheet,
	// diff). At most MaxGroups groups, largest peak first; the rest are
	// summed into a last group with Other set.
	Groups []Group
	// Suspects are the leak suspects of this device, most growth first
	// (suppressed ones included, marked, after the others).
	Suspects []Suspect
	// LeakSites are the unsuppressed suspects grouped by site (one
	// suspect per call path), fastest site first (leaksites.go).
	LeakSites []LeakSite
	// Lockstep lists the indices in LeakSites of the sites that grow in
	// lockstep (lockstepSites), nil when fewer than MinLockstepSites do.
	Lockstep []int
	// Coverage says how much of the live memory the stacks explain.
	Coverage Coverage
	// Reconciliation compares nvidia-smi used with reserved; nil without
	// both series.
	Reconciliation *Reconciliation
	// TraceWindow is the within-trace analysis of the last snapshot when
	// its trace has allocation events: secondary evidence, the only kind
	// a single-snapshot run has. Nil otherwise.
	TraceWindow *TraceWindow
	// WindowLeak is a possible leak that TraceWindow shows on its own (a
	// steady stream of never-freed allocations from one stack over the
	// window's steps), on a device with too few snapshots for a trend;
	// nil otherwise (windowleak.go). A candidate only: it sets no flag,
	// and the verdict's "Not enough data" names it.
	WindowLeak *WindowLeak
	// Segments are the segments and blocks of the last snapshot
	// (Points[n-1]), for the report's segment map; nil without snapshots,
	// or when only a digest of the last one was kept.
	Segments *SegmentMap
	// MemoryStats holds the device's torch.cuda.memory_stats() readings;
	// nil when no memory-stats log covers it. Without snapshots they are
	// the device's allocated and reserved series (Trends come from them);
	// with snapshots they are shown beside the snapshot points, and the
	// snapshot analysis stays primary.
	MemoryStats *MemoryStatsSeries
	// Processes are the per-process readings of the GPU logs on this
	// device's GPU (the nvidia-smi index GPUJoin names); nil when the logs
	// have none.
	Processes *ProcessSet
	// PeakAllocated and PeakReserved are the device's peak allocated and
	// reserved bytes: over its snapshots, or over its memory_stats
	// readings when it has no snapshots; gpulog.Unknown (-1) when neither
	// knows (a GPU log alone, or readings of reserved memory only).
	PeakAllocated, PeakReserved int64
	// PrimaryMetric names the device's primary trend (Primary), the one
	// its Status and every report's device row describe: allocated bytes
	// (of its snapshots, else of its memory_stats readings), else, for a
	// device known only from GPU logs, nvidia-smi used bytes; "" when the
	// device has neither.
	PrimaryMetric string
	// Status is the device's decision, set once by the analysis and shown
	// the same way everywhere: StatusLeak when the device has a leak (an
	// unsuppressed suspect, growing stackless live memory, or growing
	// memory_stats allocated memory), else the primary trend's Status;
	// StatusInsufficient without a primary trend.
	Status Status
}

// Primary returns the device's primary trend (PrimaryMetric), nil when it
// has none.
func (d *Device) Primary() *Trend {
	if d.PrimaryMetric == "" {
		return nil
	}
	return d.Trend(d.PrimaryMetric)
}

// StacklessLeak reports whether the device leaks without a site: it has
// no leak site, but the live bytes of its blocks without stacks grow.
func (d *Device) StacklessLeak() bool {
	nt := d.Coverage.NoStackTrend
	return len(d.LeakSites) == 0 && nt != nil && nt.State == StateGrowing
}

// Trend returns the device's trend of metric, nil when it has none.
func (d *Device) Trend(metric string) *Trend {
	for i := range d.Trends {
		if d.Trends[i].Metric == metric {
			return &d.Trends[i]
		}
	}
	return nil
}

// CapacitySource says where a device's capacity came from.
type CapacitySource struct {
	// Option is how the user set it, as Options.CapacitySource words it
	// ("--capacity 80GB = 80×10^9 bytes"); "" when it is a GPU log's
	// memory.total or a capture manifest's (Manifest).
	Option string
	// Overrides is the GPU log's memory.total that Option overrides, in
	// bytes; 0 when the log gives none or the same.
	Overrides int64
	// Manifest is the capture manifest whose device total_memory is the
	// capacity, when neither the user nor a GPU log gave one; "" otherwise.
	Manifest string
	// OOMMessage is where the training-log OOM message whose total
	// capacity is the capacity lies ("logs/train.log line 24"), when
	// neither the user, a GPU log nor a capture manifest gave one; ""
	// otherwise.
	OOMMessage string
	// Trace is the torch.profiler trace whose deviceProperties give the
	// device's totalGlobalMem, the capacity, when neither the user, a GPU
	// log nor a capture manifest gave one; "" otherwise.
	Trace string
	// Framework is where a training framework printed the device's
	// capacity at start ("logs/train.log line 3 (torchtitan)"), when
	// none of the above gave one; "" otherwise.
	Framework string
}

// Point is one snapshot of a device series.
type Point struct {
	// Path is the snapshot file, relative to the run directory.
	Path string
	// Phase is "" for a periodic snapshot, a point of the trend. Otherwise
	// it says why the snapshot was taken at another phase of a step
	// (PhaseExitDump, PhaseOOMDump): such a snapshot is evidence for its
	// event (the OOM explanation), never a point of a trend fit.
	Phase Phase
	// Step is the file-name step, input.NoStep when none.
	Step int64
	// Time is the latest trace time (UTC), zero when the file has none.
	Time time.Time
	// X is the point's position on the device's Axis (step, hours since
	// the series' first snapshot, or position in the snapshot order).
	X float64
	// Usage is the device's memory accounting in this snapshot.
	Usage Usage
	// Pools splits Usage by pool (small/large, private pools apart).
	Pools []PoolUsage
	// Roles is what holds the snapshot's live memory (docs/design.md's
	// roles, decided by package analyze/roles): each role's bytes,
	// summing to Usage.Allocated, with the evidence that decided them;
	// nil where the snapshot could not be classified.
	Roles *roles.Breakdown
}

// GPUSeries holds a device's GPU log readings, in time order, placed on
// its axis by package placement.
type GPUSeries = placement.GPUSeries

// Trend is a fitted trend of one metric against the device's axis.
//
// The slope is the Theil-Sen estimate with Sen's 95% interval; the
// p-value is Mann-Kendall's (see trend.go for how warm-up, steps and
// phase noise are handled, and the rules a "growing" verdict needs).
type Trend struct {
	// Metric is the summary.json name: "allocated_bytes",
	// "reserved_bytes", "gpu_used_bytes", "non_pytorch_bytes",
	// "inactive_bytes", or "live_bytes" for a stack group.
	Metric string
	// Per is the slope's unit of x: step, hour, reading (a position in a
	// log without steps or times) or snapshot (a position in the
	// snapshot order).
	Per units.Per
	// N is the number of points fitted.
	N int
	// Slope is the fitted growth in bytes per step (or hour), with its 95%
	// confidence interval [Lo, Hi].
	Slope, Lo, Hi float64
	// Intercept is the fitted value at x = 0, in bytes, for drawing the line.
	Intercept float64
	// HoursPerX is the wall-clock pace of the trend's axis, in hours per
	// unit of x: 1 per hour; per step, its device's HoursPerStep; 0 when
	// unknown (a snapshot or reading axis, steps without times). One
	// figure for both its uses: the slope per hour (SlopePerHour) and the
	// projection's time left.
	HoursPerX float64
	// PValue is the one-sided Mann-Kendall p-value of no trend against
	// the direction seen (a rise when S > 0) over the fitted points; Test
	// names the test and whether the p-value is exact.
	PValue float64
	Test   string
	// VarFactor is the Hamed-Rao factor by which serial correlation of the
	// fitted points widened the test's variance and the slope's interval
	// (stats.ModifiedMannKendall); 1 for independent-looking points.
	VarFactor float64
	// State is docs/design.md's trend state, the trend's decision:
	// StateGrowing, StateFlat, StateInconclusive or StateInsufficient.
	State TrendState
	// MoreNeeded is, for an inconclusive or insufficient trend, about how
	// many more points at the same pace would decide it (0 when unknown
	// or not needed).
	MoreNeeded int
	// StepPValue is the p-value of growth left once the best single step
	// is set aside (stratified Mann-Kendall); 1 when not computed.
	StepPValue float64
	// Method names the estimator: MethodTheilSen, or MethodLeastSquares
	// where ties pin Theil-Sen to 0 (Tied).
	Method string
	// Tied is true when ties pinned Theil-Sen to 0, so the least-squares
	// slope and its t interval replaced it (chooseSlope).
	Tied bool
	// Given is the number of points given to the fit, before the floor,
	// warm-up and onset were set aside (N counts those fitted); Floor,
	// when not 0, is how many of them were the series' floor (the low
	// points between drops), the points fitted under phase noise.
	Given, Floor int
	// Source names the readings fitted when they are not the metric's
	// usual ones: SourceMemoryStats for allocated and reserved bytes from
	// torch.cuda.memory_stats() lines; for used bytes of GPU logs of
	// another tool than nvidia-smi, that tool (GPUSeries.NamedTool:
	// "rocm-smi", "W&B", "MLflow"); "" otherwise.
	Source string
	// FitFrom is the index of the first point fitted (after warm-up).
	FitFrom int
	// FitX0 and FitX1 are the x range of the fitted points.
	FitX0, FitX1 float64
	// Growth is the fitted growth over the fitted range, Slope·(FitX1 −
	// FitX0), in bytes.
	Growth float64
	// Level is the median of the fitted points, in bytes (the steady level
	// the growth is compared with).
	Level float64
	// R2 is the R² of an ordinary least-squares fit of the same points,
	// for comparison.
	R2 float64
	// Pattern describes the shape of the series (steady growth, a
	// one-time step, a plateau, blocks that turn over, ...). It decides
	// nothing: State is the decision, and Status its one word.
	Pattern Pattern
	// ChangePoint is the index of the best single level change (the first
	// point after it), -1 when none mattered.
	ChangePoint int
	// Why is the rule that decided State, with the figures it compared
	// (trend.go); the reports word it.
	Why TrendWhy
	// Projection forecasts when the metric reaches capacity; nil when
	// capacity is unknown or the metric does not grow, and when the run
	// already ran out of memory on the device (RanOut).
	Projection *Projection
	// RanOut is, in place of a projection, the OOM that shows the run
	// already ran out of memory on the device (Device.RanOut): no time to
	// capacity is forecast for an event that happened. nil otherwise.
	RanOut *RanOut
	// Bounded is, in place of a projection, why a growing trend of the
	// allocator's memory gets none: its growth is that of bounded
	// containers, not a leak (bounded.go). nil otherwise.
	Bounded *Bounded
	// Jobs is, for a GPU monitor's readings that fell back to the idle
	// GPU between jobs run one after another, the number of jobs they
	// split into (each judged alone: jobSpans); 0 when they did not
	// split. Job is the job (1-based) whose trend this is: the last, or
	// the last one that grows (then it ended, and nothing is projected);
	// JobGaps says what parted them.
	Jobs, Job int
	JobGaps   JobGaps
	// onset is true when the fit starts at a growth onset (fitTrend).
	onset bool
}

// TrendWhy is the rule that decided a trend's State and the figures it
// compared: what a reader needs to follow the decision.
type TrendWhy struct {
	// Rule names the rule.
	Rule TrendRule
	// MinPoints is the fewest points a verdict needs (RuleTooFew); Alpha
	// the significance level the test was held to (RuleBounded,
	// RuleThin: the p-value missed it, or the interval reached 0).
	MinPoints int
	Alpha     float64
	// Jump is the level change, in bytes, and At the point after it
	// (RuleStepHolds; RuleOneStep's point is ChangePoint).
	Jump float64
	At   int
	// Observed is what the points after the warm-up rose, and Expected
	// what steady growth would give them, in bytes (RuleStopped).
	Observed, Expected float64
	// Tail is the number of flat points at the end (RulePlateau).
	Tail int
	// RateFirst and RateLast are the Theil-Sen rates of the first and last
	// thirds of the points, in bytes per unit of x (RuleLevelsOff).
	RateFirst, RateLast float64
	// Rises is how many times a running peak (a peak since start)
	// rose, counting its first reading, and RisesExpected how many a
	// steady workload gives it on average (RuleRatchet, and RuleGrows of
	// such a peak; peaktrend.go); RisesP is the chance of at least Rises
	// under a steady workload.
	Rises         int
	RisesExpected float64
	RisesP        float64
	// Bound is the most the slope's 95% interval allows over the fitted
	// range, in bytes (RuleBounded).
	Bound float64
	// UntilOOM is, for a stack group that grew into an OOM, what it grew
	// over the run, in bytes (PatternUntilOOM): that growth, not Rule,
	// made it growing; 0 otherwise.
	UntilOOM float64
}

// Bounded is why a device's growing trend gets no time to capacity: the
// stack groups that grow turn their blocks over (bounded containers of
// recent tensors whose sizes drift, survival.go), and no leak suspect is
// left on the device (bounded.go).
type Bounded struct {
	// Site and Function name the container that grows fastest, "(no
	// stack)" for blocks without frames.
	Site, Function string
	// Containers counts the groups that grow and turn over; Slope is their
	// summed growth, in bytes per unit of the trend's axis.
	Containers int
	Slope      float64
	// Turnover is the longest the fastest container kept a block it let
	// go, in snapshots.
	Turnover int
}

// Projection is a time-to-capacity forecast.
type Projection struct {
	// Capacity is the limit projected against, in bytes: the device's
	// memory (Device.Capacity) less Outside.
	Capacity int64
	// Outside is the memory outside the allocator taken off the device's
	// memory, in bytes; 0 when none was.
	Outside int64
	// X is where the fit reaches Capacity on the device axis, with its
	// interval [XLo, XHi] from the slope interval (XHi is +Inf when the
	// interval's low slope does not grow).
	X, XLo, XHi float64
	// Remaining is X minus the last point's X: steps (or hours) left, with
	// RemainingLo/RemainingHi from the interval.
	Remaining, RemainingLo, RemainingHi float64
	// Hours is the wall-clock estimate of the time left, with its interval
	// [HoursLo, HoursHi]; 0 when the run's pace is unknown.
	Hours, HoursLo, HoursHi float64
	// Beyond is true when the projection lies beyond ExtrapolationRuns
	// times the run's length, where it means little: report "not within
	// ExtrapolationRuns× the run's length".
	Beyond            bool
	ExtrapolationRuns float64
}

// Fragmentation is the fragmentation analysis of a device series.
type Fragmentation struct {
	// Points align with Device.Points.
	Points []FragPoint
	// Trend is the trend of inactive (cached but unused) bytes.
	Trend *Trend
	// SplitTrend is the trend of inactive bytes inside segments that also
	// hold live blocks (the part empty_cache cannot return).
	SplitTrend *Trend
	// PinnedTrend is the trend of the free bytes of pinned segments (large
	// segments kept alive by a few small live blocks): the fragmentation
	// verdict's series.
	PinnedTrend *Trend
	// Fragmented is true when cached-but-unusable memory is large and
	// persistent enough to matter.
	Fragmented bool
	// Expandable is true when the allocator used expandable segments on
	// the device in some snapshot of the series (ExpandableInUse), so
	// advice to turn them on does not apply.
	Expandable bool
	// SawTooth is true when reserved memory repeatedly falls back
	// (empty_cache or the allocator's garbage collection) while allocated
	// memory is flat: churn, not fragmentation.
	SawTooth bool
	// SplitExpandable is true when max_split_size_mb and expandable
	// segments are both set and free ranges the allocator will not reuse
	// for smaller requests hold a large share of reserved memory
	// (FragPoint.OversizeFree): remove max_split_size_mb, keep expandable
	// segments.
	SplitExpandable bool
	// Why is what decided Fragmented, with the figures it compared.
	Why FragWhy
}

// FragWhy is what decided whether a device is fragmented
// (analyzeFragmentation), with the figures the decision compared.
type FragWhy struct {
	// Rule names the pattern found.
	Rule FragRule
	// Periodic is the number of periodic snapshots judged; Last the state
	// of the last of them, and PinnedShare its pinned free bytes as a
	// share of its reserved memory.
	Periodic    int
	Last        FragPoint
	PinnedShare float64
	// AllocGrowth is the growth of live memory over the pinned trend's
	// fitted range, and CacheGrowth that of cached free memory, in bytes.
	AllocGrowth, CacheGrowth float64
	// Reserved and Allocated are the trends of reserved and live memory
	// over the periodic snapshots.
	Reserved, Allocated Trend
	// Releases counts the falls of reserved memory while live memory
	// stays (the saw-tooth).
	Releases int
	// Rises counts the rises of reserved memory at flat live memory,
	// Risen their sum in bytes, and Missed those while the cache held
	// more free bytes than the largest new segment; Forced counts the
	// falls near the device's limit, where Ceiling is the most the
	// allocator can reserve and LargestNew the largest new segment, in
	// bytes (FragCacheJumps).
	Rises, Missed, Forced int
	Risen                 float64
	Ceiling, LargestNew   float64
	// PinnedBy are the leak suspects whose tensors pin the fragmented
	// segments, taken out of the leak verdict (markPinningSuspects).
	PinnedBy []SiteRef
	// LeakShare is, when a leak's tensors pin the segments, their share of
	// the live bytes that pin them, and LeakSite the leak's site: then the
	// holes are the leak's, not fragmentation (pinnedByLeak); 0 otherwise.
	LeakShare float64
	LeakSite  string
	// OversizeShare is the median share of reserved memory in free ranges
	// the oversize rule strands inside expandable segments, and
	// MaxSplitSize max_split_size in bytes (FragSplitExpandable, and
	// beside FragTooFew when SplitExpandable).
	OversizeShare float64
	MaxSplitSize  int64
}

// SiteRef names an allocation site: its innermost user frame
// ("train.py:57") and function.
type SiteRef struct {
	Site, Function string
}

// FragPoint is the fragmentation state of one snapshot.
type FragPoint struct {
	// Inactive is reserved but free bytes; LargestFree the largest hole.
	Inactive, LargestFree int64
	// External is 1 - LargestFree/Inactive.
	External float64
	// InternalWaste is rounding waste in bytes.
	InternalWaste int64
	// SplitInactive is inactive bytes in segments that also hold active
	// blocks (free holes empty_cache cannot return); FreeSegmentBytes is
	// the bytes of wholly free segments (cache it can return).
	SplitInactive, FreeSegmentBytes int64
	// PinnedSegments counts segments kept alive by a few small live blocks
	// (live bytes at most PinnedLiveShare of the segment), and PinnedBytes
	// their free bytes.
	PinnedSegments int
	PinnedBytes    int64
	// PrivatePoolBytes is memory reserved by private pools (CUDA graphs,
	// MemPool), shown apart because the default pool cannot reuse it;
	// PrivateAllocated and PrivateInactive the live and free bytes in
	// them.
	PrivatePoolBytes, PrivateAllocated, PrivateInactive int64
	// OversizeFree is the free bytes inside expandable segments in blocks
	// of at least max_split_size that do not end their segment, when both
	// settings are on: the allocator's oversize rule keeps requests below
	// max_split_size out of them, expandable segments or not (PyTorch
	// #193400), so it maps new memory at a segment's end instead.
	OversizeFree int64
	// Pools gives the fragmentation of each pool (small, large, private).
	Pools []PoolFrag
}

// PoolFrag is the fragmentation of one pool in one snapshot.
type PoolFrag struct {
	// Pool names the pool as PoolUsage does.
	Pool string
	// Reserved, Inactive and LargestFree are bytes.
	Reserved, Inactive, LargestFree int64
	// External is 1 − LargestFree/Inactive.
	External float64
}

// Signature identifies the allocation site of a stack: its innermost user
// frame plus a hash of the user frames around it (see signature.go).
type Signature struct {
	// Key is the normalised signature text the fingerprint hashes.
	Key string
	// Fingerprint is a short hex hash of Key (12 hex digits of SHA-1):
	// identical across runs, machines (absolute path prefixes removed) and
	// addresses for the same allocation site.
	Fingerprint string
	// Site is the innermost user frame as "basename:line" ("train.py:57");
	// "(no stack)" for blocks without frames; for stacks without a user
	// frame, the innermost Python frame; for C++ frames only, the autograd
	// node ("BmmBackward0 (autograd)"), else the outermost ATen operator
	// ("aten::bmm"), else "(native)" (signature.go).
	Site string
	// Function is the site's function name.
	Function string
	// File is the site frame's file as recorded (absolute path).
	File string
	// Kind says what kind of frame Site is.
	Kind SiteKind
}

// Frame is one frame of a stack: its file (untrusted text), line (0
// for C++ frames) and function name (untrusted text), as the snapshot
// decoder reads it.
type Frame = snapshot.Frame

// SiteKind says where a signature's site comes from.
type SiteKind string

// Site kinds.
const (
	// SiteUser is a frame of the user's code.
	SiteUser SiteKind = "user"
	// SiteLibrary is the innermost Python frame when every Python frame is
	// in torch, site-packages or the interpreter.
	SiteLibrary SiteKind = "library"
	// SiteNative is a stack of C++ frames only.
	SiteNative SiteKind = "native"
	// SiteNone is a block without frames.
	SiteNone SiteKind = "none"
)

// Group is one stack signature's live memory across a device series.
type Group struct {
	Signature
	// Stack is a representative full stack (of the group's largest block
	// in the snapshot where the group peaks), innermost first; User marks
	// its user frames.
	Stack []Frame
	User  []bool
	// Bytes and Blocks are the group's live (active_allocated) bytes and
	// block count at each point of the device series.
	Bytes  []int64
	Blocks []int
	// Other marks the group that sums every group beyond MaxGroups.
	Other bool
	// Private marks a group whose live blocks all sit in private pools
	// (CUDA graphs, torch.compile's cudagraph trees, MemPool) where its
	// live bytes peak.
	Private bool
}

// Suspect is a leak suspect: a stack signature whose live bytes grow.
type Suspect struct {
	// Fingerprint is stable across runs and addresses for the same leak.
	Fingerprint string
	// Site is the innermost user frame as "file:line"; Function its name.
	Site     string
	Function string
	// File is the site's file as recorded.
	File string
	// Stack is a representative full stack, innermost first; User marks
	// the frames outside torch, site-packages and the interpreter.
	Stack []Frame
	User  []bool
	// Group is the index of the suspect's group in Device.Groups.
	Group int
	// Bytes and Blocks are the suspect's live bytes and block count per
	// point of the device series.
	Bytes  []int64
	Blocks []int
	// Trend is the fitted growth of Bytes.
	Trend Trend
	// Share is the suspect's fitted growth as a share of the device's
	// allocated growth (0..1, may exceed 1 when other memory shrank); NaN
	// when allocated did not grow.
	Share float64
	// LastShare is the suspect's live bytes at the last snapshot as a
	// share of the device's allocated bytes there (0..1); NaN when
	// unknown.
	LastShare float64
	// Confidence is lowered by low stack coverage, a trace that
	// overflowed, few points or a weak p-value.
	Confidence Confidence
	// Evidence lists the observations behind the claim, each with its
	// figures, in the order found.
	Evidence []Evidence
	// Suppressed names the suppression that matched, "" when none.
	Suppressed string
	// Survival is what following the suspect's blocks across the
	// snapshots shows (survival.go); nil for a suspect found another way
	// (grown until an OOM).
	Survival *SurvivalEvidence
	// Projection is when the device's allocated memory, growing at this
	// suspect's rate, reaches capacity (less the memory outside the
	// allocator); nil when capacity is unknown, and when the run already
	// ran out of memory on the device.
	Projection *Projection
	// RanOut is, in place of a projection, the OOM that shows the run
	// already ran out of memory on the device (Device.RanOut).
	RanOut *RanOut
	// Severity is SeverityHigh, SeverityMedium or SeverityLow, from the
	// time to capacity (not the leak's size).
	Severity LeakSeverity
	// Roles is what the suspect's live blocks hold at the last snapshot
	// (memroles.go); nil when it has none there.
	Roles *SuspectRoles
}

// SuspectRoles is what a leak suspect's live blocks hold at the last
// snapshot: "the leak is activations kept across steps".
type SuspectRoles struct {
	// Bytes are the suspect's live bytes per role.
	Bytes [roles.NumRoles]int64
	// Role is the role holding most of them, and Evidence what decided
	// the role of most of its bytes.
	Role     roles.Role
	Evidence roles.Evidence
}

// Evidence is one observation behind a leak suspect. Kind says which;
// the figures of its kind are set, the rest are zero. Most kinds read
// their figures from the suspect itself (its trend, share, site).
type Evidence struct {
	// Kind names the observation.
	Kind EvidenceKind
	// Bytes and Of: EvidenceShape, the live blocks at the first fitted and
	// the last snapshot; EvidencePinning, the live bytes in pinned
	// segments and all live bytes; EvidenceOOM, the request that failed
	// and the device's free bytes then.
	Bytes, Of int64
	// Share is the median share of live bytes with stacks
	// (EvidenceCoverage).
	Share float64
	// SiteKind is the kind of frame the site is (EvidenceNoUserFrame).
	SiteKind SiteKind
	// Path is the snapshot of the OOM, and Grew what the group grew
	// before it, in bytes (EvidenceOOM).
	Path string
	Grew int64
	// Compile says that torch.compile or CUDA-graph frames are on the
	// stack (EvidenceGraphGrowth); without them only the group's private
	// pool says its memory is a graph's (or a MemPool's).
	Compile bool
}

// SurvivalEvidence is what the survival of a growing group's blocks shows
// (survival.go).
type SurvivalEvidence struct {
	// Form is the verdict: kept, re-created bigger, turned over, unknown.
	Form SurvivalForm
	// Turnover is the longest lifetime, in periodic snapshots, of a block
	// of the group that went away (0 when none did); Deaths counts them.
	Turnover, Deaths int
	// Kept is the trend of the bytes of the blocks alive at the last
	// snapshot that were born by each snapshot, over the snapshots older
	// than Turnover; nil when too few are.
	Kept *Trend
	// Largest is the trend of the group's largest block, set when Form is
	// SurvivalRecreated.
	Largest *Trend
	// Live is the trend of the group's live bytes when they did not grow
	// and the growth of its kept bytes alone made it a suspect
	// (nominate.go): its transient blocks hide what it keeps. The
	// suspect's trend is then Kept. Nil when the live bytes grew.
	Live *Trend
	// Survivors is the bytes at the last periodic snapshot in blocks that
	// were alive at the one before; KeptBytes the bytes of the blocks
	// alive at the last snapshot; Blocks the group's blocks there and Old
	// those born before the last Turnover+1 snapshots.
	Survivors, KeptBytes int64
	Blocks, Old          int
	// LargestFirst and LargestLast are the group's largest block at the
	// first and the last periodic snapshot, in bytes.
	LargestFirst, LargestLast int64
	// Recreated and GrewBeside count the periodic snapshots where the
	// group's largest block grew with the one before it gone, and with it
	// still alive (GroupSurvival).
	Recreated, GrewBeside int
	// Snapshots is the number of periodic snapshots followed.
	Snapshots int
}

// Coverage says how much of the live memory carries allocation stacks.
type Coverage struct {
	// LiveWithStack is the share (0..1) of live bytes in the last snapshot
	// whose blocks carry frames.
	LiveWithStack float64
	// PerPoint is that share at every point.
	PerPoint []float64
	// MinLiveWithStack is the lowest share over the points.
	MinLiveWithStack float64
	// TraceOverflow is true when a trace ring buffer was full, so early
	// events were lost.
	TraceOverflow bool
	// Overflow says why TraceOverflow was set; its Rule is "" otherwise.
	Overflow Overflow
	// Level is "full" (≥ 90% of live bytes have stacks in the median
	// snapshot), "partial" (≥ 50%) or "low"; confidence in attribution
	// drops with it.
	Level string
	// NoStackTrend is the trend of the live bytes whose blocks carry no
	// frames (metric "no_stack_bytes"); when it grows, memory leaks where
	// no stack can name the site. Nil without such bytes.
	NoStackTrend *Trend
}

// Overflow says why a snapshot's trace window looks incomplete
// (TraceOverflow), with the figures that show it.
type Overflow struct {
	// Rule names what shows it.
	Rule OverflowRule
	// Path is the snapshot file; Entries its trace events on the device;
	// EarlyFrees the frees of blocks allocated before the window
	// (OverflowEarlyFrees).
	Path       string
	Entries    int
	EarlyFrees int
}

// Reconciliation compares the device's nvidia-smi used memory with the
// allocator's reserved memory.
type Reconciliation struct {
	// NonPyTorch is used minus reserved at each snapshot with a matching
	// GPU reading, in bytes (NaN where none matched).
	NonPyTorch []float64
	// Matched counts the snapshots with a GPU reading close enough in time.
	Matched int
	// Level is the median of NonPyTorch, in bytes: CUDA context, NCCL,
	// cuBLAS/cuDNN workspaces and other processes.
	Level float64
	// Trend is the trend of NonPyTorch.
	Trend *Trend
	// OutsideLeak is true when memory outside the caching allocator grows.
	OutsideLeak bool
	// Owner says whose that growth is, from the per-process readings on
	// the device's GPU (reconcile.go): the run's own process, only other
	// processes, or OwnerUnknown.
	Owner OutsideOwner
	// Why is what decided OutsideLeak, with the figures it compared.
	Why OutsideWhy
}

// OutsideWhy is what decided whether memory outside the caching allocator
// grows (reconcile.go), with the figures the decision compared beside
// the Reconciliation's own (Level, Matched, Trend).
type OutsideWhy struct {
	// Rule names the case.
	Rule OutsideRule
	// ReservedPattern is the shape of reserved memory that made the
	// estimated matches untrustworthy (OutsideUnmatched).
	ReservedPattern Pattern
	// MinGrowth is the growth, in bytes, that matching snapshots to GPU
	// readings can err by (OutsideWithinError).
	MinGrowth float64
	// UsedGrowth and ReservedGrowth are what nvidia-smi used and reserved
	// memory grew over the run, in bytes (OutsideInferred).
	UsedGrowth, ReservedGrowth float64
	// Window is how far in time a reading may be from a snapshot to
	// match, and MinPoints the fewest matches needed (OutsideTooFew).
	Window    time.Duration
	MinPoints int
	// Estimated is true when the snapshots carry no times and were placed
	// by their step on an even pace over the GPU log's busy period.
	Estimated bool
	// Owners are the per-process readings that tell whose memory grows;
	// nil when they do not tell.
	Owners *ProcessOwners
}

// ProcessOwners sorts the processes on a device's GPU (indexes in
// Device.Processes.Series) by whether their memory grows.
type ProcessOwners struct {
	// Own is the run's own process, the one holding the allocator's
	// reserved memory; -1 when the readings cannot tell it apart.
	Own int
	// Growing are the other processes whose memory grows, Still those
	// whose memory does not.
	Growing, Still []int
}

// RankComparison compares the ranks of a multi-rank run.
type RankComparison struct {
	// Ranks lists each rank's (device's) peak and slope.
	Ranks []RankSummary
	// Outlier is the rank whose growth differs, input.NoRank if none.
	Outlier int
	// OutlierSuspect is the fingerprint of the suspect that differs on the
	// outlier rank, "" when none; OutlierRef points at it.
	OutlierSuspect string
	OutlierRef     *SuspectRef
	// OutlierSlope is the outlier's steepest growth (its top suspect's, or
	// its allocated trend's), in bytes per OutlierPer; Others are the
	// ranks that do not grow, in order.
	OutlierSlope float64
	OutlierPer   units.Per
	Others       []int
	// Skew is the largest minus the smallest peak allocated, in bytes.
	Skew int64
	// Growing counts the ranks with a growing device or a leak suspect,
	// Of all the ranks: no outlier when none grows or at least half do.
	Growing, Of int
	// Heavy lists the series whose peak allocated memory stands clearly
	// above the others' (ranks.go), heaviest first; nil when none does.
	Heavy []RankExcess
}

// RankExcess is a series (a rank's device) whose peak allocated memory
// stands above its peers' by the test of ranks.go.
type RankExcess struct {
	DeviceKey
	// Peak is its peak allocated bytes over its periodic snapshots;
	// PeersMedian the median of the other series' peaks; Excess their
	// difference, in bytes.
	Peak, PeersMedian, Excess int64
	// Z is the peak's robust z-score across the series (above
	// HeavyRankZ).
	Z float64
	// Stacks are the signatures that hold the difference, largest excess
	// first.
	Stacks []StackExcess
	// Roles splits the difference by role of live memory
	// (docs/design.md, "Roles of live memory"), at each series' peak
	// snapshot: the roles whose bytes stand above the median of the other
	// series', by how much, largest first.
	Roles []RoleExcess
}

// StackExcess is one signature's share of a heavy rank's excess.
type StackExcess struct {
	Signature
	// Bytes is its live bytes at the heavy series' peak; PeersBytes the
	// median of its bytes at the other series' peaks; Excess the
	// difference.
	Bytes, PeersBytes, Excess int64
}

// RoleExcess is one role's share of a heavy rank's excess, in bytes.
type RoleExcess struct {
	Role   string
	Excess int64
}

// RankSummary is one rank's line in the rank comparison.
type RankSummary struct {
	// Rank, Device and Type identify the series.
	Rank   int
	Device int
	Type   DeviceType
	// PeakAllocated and PeakReserved are bytes; gpulog.Unknown (-1) when
	// the series does not know them (Device.PeakAllocated).
	PeakAllocated int64
	PeakReserved  int64
	// Slope is the allocated trend's slope in bytes per step (or hour).
	Slope float64
	// Growing is true when the allocated trend is growing.
	Growing bool
	// Suspects counts the rank's unsuppressed leak suspects; TopSuspect is
	// the first one's site.
	Suspects   int
	TopSuspect string
}

// OOM explains one out-of-memory event.
type OOM struct {
	// Path is the snapshot that recorded it; Rank, Device and Type where
	// (Type: CUDA for a snapshot's; a training log's message may name
	// another backend, "XPU out of memory").
	Path   string
	Rank   int
	Device int
	Type   DeviceType
	// PID is the device's DeviceKey.PID: the process id that names a
	// process placement told apart by it alone (Rank is then no rank of
	// the job); 0 otherwise.
	PID int
	// Run is the device's DeviceKey.Run: the separate run of the script
	// the process was (Rank is then no rank of the job); the zero value
	// otherwise.
	Run ingest.ScriptRun
	// Time is when it happened (zero if unknown).
	Time time.Time
	// Requested is the rounded request that failed, in bytes; DeviceFree
	// the bytes CUDA reported free.
	Requested, DeviceFree int64
	// Reserved, Allocated, CachedFree (inactive) and LargestFree describe
	// the allocator at the OOM, in bytes: reconstructed by undoing the
	// trace events after it when the snapshot was taken later
	// (Reconstructed), else the snapshot's own state.
	Reserved, Allocated, CachedFree, LargestFree int64
	// Reconstructed is true when the state was rebuilt from the trace.
	Reconstructed bool
	// FreedAfter is the bytes freed between the OOM and the snapshot (the
	// exception unwinding), in bytes.
	FreedAfter int64
	// Capacity is the device memory in bytes when known (GPU logs,
	// --capacity), else 0; EstimatedCapacity is reserved + device free at
	// the OOM, a lower bound of what the process could reach.
	Capacity, EstimatedCapacity int64
	// Site and Function are the failing allocation's innermost user frame.
	Site, Function string
	// Stack is the failing allocation's stack, innermost first; User
	// marks its user frames.
	Stack []Frame
	User  []bool
	// TopLive are the signature groups holding the most live bytes at the
	// OOM (at most 5), largest first.
	TopLive []LiveGroup
	// Cause is the OOM's cause by docs/design.md's definition (summary.json
	// ooms[].class), decided in this order: CauseLimit (the device had
	// Asked free), CauseLeak (without the LeakedBytes the request would
	// have fit), CauseFragmentation or CauseCapacity; CauseUnknown for a
	// training-log message without the numbers.
	Cause OOMCause
	// Asked is, for a limit OOM, what the allocator asked the driver for,
	// in bytes: the segment (or expandable pages) serving a snapshot's
	// request, a message's printed request; 0 otherwise.
	Asked int64
	// LeakedBytes is what the device's unsuppressed leak suspects had
	// added by the OOM since their trends began, in bytes; LeakRate their
	// summed growth, in bytes per LeakPer (step or hour); LeakSite the
	// site of the largest. Zero when the device has no suspect.
	LeakedBytes int64
	LeakRate    float64
	LeakPer     units.Per
	LeakSite    string
	// Missing is the device memory the request lacked: the request minus
	// the bytes CUDA reported free, at least 0.
	Missing int64
	// Earlier is, for a leak OOM, how many LeakPer units (steps) before
	// the OOM the leak had not yet taken the Missing bytes: without the
	// leak's growth over that stretch the request would have fit.
	Earlier float64
	// Message is what a training log's OOM message said; nil for an OOM
	// a snapshot recorded.
	Message *OOMMessage
	// Logged is, for an OOM a snapshot recorded, what a training log's
	// message of the same OOM said (the same request and free memory,
	// mergeLoggedOOMs), LoggedIn that log; nil and "" otherwise. It holds
	// what the trace does not: the cap the process was allowed, the
	// memory other processes and this process had in use.
	Logged   *OOMMessage
	LoggedIn string
	// Outside is, for an others OOM, or a capacity one whose device held
	// more memory outside this process than the request lacked with no
	// input naming whose, the device memory in use at the OOM that was
	// not this process's, in bytes: the device's total less its free
	// memory less this process's memory in use (oomothers.go); 0
	// otherwise.
	Outside int64
	// Handled is true when the job caught the OOM and went on: the
	// training log says so (gpulog.TrainingOOM.Handled: a recovery line
	// answers the message), or, for an OOM a snapshot recorded, the trace
	// shows the training loop's steps again after it (wentOn in oom.go),
	// unless a training log shows the process died of it
	// (gpulog.TrainingOOM.Fatal). It is no crash, and raises a warning,
	// not a critical verdict.
	Handled bool
	// RepeatedIn are the other training logs that hold the same message,
	// copies of the same process's output (a tee, a tracker's console
	// capture, an error file), sorted; Path is the first that holds it.
	RepeatedIn []string
	// Settings are the allocator settings in force.
	Settings snapshot.AllocatorSettings
	// Expandable is true when the allocator used expandable segments on
	// the device at the OOM (ExpandableInUse): Settings say so, or, where
	// the snapshot records no settings, its segments do.
	Expandable bool
	// Recommendations are the changes to try, each tied to evidence.
	Recommendations []Recommendation
	// Roles are the roles of the live memory at the OOM: the blocks alive
	// at its trace event, rebuilt from the snapshot and its trace
	// (roles.SceneAt) and classified as at a dump; they sum to Allocated
	// to within the allocator's rounding of requests. Nil when the
	// trace cannot rebuild them (an OOM a training log reports).
	Roles *roles.Breakdown
	// Phase is the phase of the training step the failing allocation ran
	// in ("forward", "backward", "optimizer step"), "" when its stack
	// names none.
	Phase string
	// Ranks is the number of ranks of the run, over which the levers that
	// shard would spread a role.
	Ranks int
	// Levers are, for a capacity OOM, the changes of roles.Levers with the
	// bytes each would free (estimates), largest first; nil otherwise.
	// The recommendations name them (StepLever).
	Levers []roles.Lever
}

// Said is what a training log's message said of the OOM: its own
// message (Message), else the message of the same OOM that a snapshot
// recorded (Logged); nil when no log has it.
func (o *OOM) Said() *OOMMessage {
	if o.Message != nil {
		return o.Message
	}
	return o.Logged
}

// Key is the device the OOM happened on.
func (o *OOM) Key() DeviceKey {
	return DeviceKey{Rank: o.Rank, Device: o.Device, Type: o.Type, PID: o.PID, Run: o.Run}
}

// Recommendation is a change to try for one OOM: its kind, and the
// figures of its kind besides the OOM's own, which it rests on.
type Recommendation struct {
	// Kind names the change.
	Kind StepKind
	// MaxSplitMiB is the max_split_size_mb to set (StepMaxSplit), or the
	// one set that should go (StepRemoveMaxSplit).
	MaxSplitMiB int64
	// Lever is the change of one role and what it would free
	// (StepLever).
	Lever roles.Lever
}

// OOMMessage is what a training log's OOM message said (OOM.Message),
// beside the figures the OOM holds.
type OOMMessage struct {
	// Line is the message's line in the log (OOM.Path); Count how many
	// times the log has it.
	Line, Count int
	// Kind says which message it is.
	Kind OOMMessageKind
	// GPU is the GPU number the message names, -1 when it names none.
	GPU int
	// Total is the device's memory the message gives, and ProcessInUse
	// the memory the process had in use, in bytes; gpulog.Unknown when it
	// does not give them.
	Total, ProcessInUse int64
	// ListedSelfPID is the pid of the "Process N" entry the message's
	// figures show to be this process (gpulog.TrainingOOM.ListedSelfPID):
	// its memory is ProcessInUse. 0 when none.
	ListedSelfPID int
	// Allowed is the cap on the process the message prints, in bytes:
	// set_per_process_memory_fraction's "X allowed", or MPS's high
	// watermark ("max allowed"); gpulog.Unknown when it prints none.
	Allowed int64
	// OtherProcesses is the memory other processes had in use on the
	// device, in bytes ("Process N has X memory in use", summed);
	// OtherAllocations MPS's "other allocations", memory of the process
	// its MPS allocator did not make. gpulog.Unknown when not printed.
	OtherProcesses, OtherAllocations int64
	// OtherCount is how many other processes the message lists;
	// LargestOtherPID (0 when not printed) and LargestOther (bytes) name
	// the largest of them; 0 when it lists none.
	OtherCount, LargestOtherPID int
	LargestOther                int64
	// Reserved is the memory PyTorch's allocator held as the message
	// prints it, in bytes; gpulog.Unknown when it does not.
	Reserved int64
	// Fits is true when the device's free memory and PyTorch's cached
	// free memory together were at least the request beyond the printed
	// rounding: the memory was there, not in one piece.
	Fits bool
	// Autotune is true when the OOM was Inductor's benchmark of one of
	// its autotuning choices, which it logged and dropped
	// (gpulog.TrainingOOM.Autotune): the OOM is Handled, and its cause
	// describes a trial allocation, not the job's memory, so a
	// fragmentation cause raises no fragmentation flag of the run.
	Autotune bool
	// PinnedHost is true when the memory that ran out was page-locked
	// host memory (the DataLoader's pin-memory thread, cudaHostAlloc:
	// gpulog.TrainingOOM.PinnedHost), not the device's: the OOM's
	// device is the one the memory was pinned for, and the OOM neither
	// shows that device ran out (ranOutBy) nor stands for its num_ooms
	// rises (hasSnapshotOOM). Its cause is unknown.
	PinnedHost bool
}

// NextStep is one thing to try next for the run, decided from a finding
// (decideNextSteps): its kind and the figures of its kind.
type NextStep struct {
	// Kind names the step.
	Kind StepKind
	// OOM is, for a step an OOM recommends, its index in Findings.OOMs
	// (-1 otherwise), and Recommendation the recommendation.
	OOM            int
	Recommendation Recommendation
	// Suspect is the leak suspect a look at the code is about
	// (StepLookLockstep, StepLookAutograd, StepLookNative, StepLookSite).
	Suspect SuspectRef
	// Devices are the devices where other processes' memory grows
	// (StepOutsideOthers).
	Devices []DeviceKey
	// WithStacks is true when some live bytes carry stacks, so history
	// was recorded, without stacks for some allocations
	// (StepRecordStacks).
	WithStacks bool
	// GCThreshold is true when the garbage-collection threshold is worth
	// trying too, no OOM having suggested it (StepPadShapes).
	GCThreshold bool
}

// TraceWindow is what one snapshot's trace ring buffer shows on its own:
// the allocated and reserved memory over the recorded events, and the
// allocations made inside the window that were never freed.
type TraceWindow struct {
	// Path is the snapshot file.
	Path string
	// Entries is the number of trace events.
	Entries int
	// Start and End are the first and last event times (zero when the
	// trace has no time_us).
	Start, End time.Time
	// Timeline is allocated and reserved memory after events, at most
	// MaxTimeline points (evenly spaced events, plus the extremes).
	Timeline []TimelinePoint
	// PeakAllocated is the largest allocated value over the window,
	// counting the state before its first event, bytes.
	PeakAllocated int64
	// NeverFreed groups the allocations made in the window and still live
	// at its end, by signature, largest first (at most 50).
	NeverFreed []LiveGroup
	// NeverFreedBytes is their total, bytes; NeverFreedBlocks the number
	// of their allocations.
	NeverFreedBytes  int64
	NeverFreedBlocks int
	// UnknownFrees counts frees of blocks allocated before the window
	// (evidence that the ring buffer dropped older events).
	UnknownFrees int
	// Peak is the moment of PeakAllocated and the roles alive then.
	Peak *TracePeak
}

// TimelinePoint is the memory after one trace event.
type TimelinePoint struct {
	// Index is the event's position in the trace.
	Index int
	// TimeUS is the event's time_us (0 when unknown).
	TimeUS int64
	// Allocated and Reserved are bytes after the event.
	Allocated, Reserved int64
}

// Verdict is the run's overall verdict.
type Verdict struct {
	// Leak: PyTorch tensors leak (an unsuppressed suspect, or allocated
	// growth without stacks). OutsideAllocatorLeak: memory outside the
	// caching allocator grows. Fragmentation: cached memory is lost to
	// holes (or an OOM was a fragmentation OOM). OOM: an out-of-memory
	// event was recorded. See verdict.go for the rules.
	Leak                 bool
	OutsideAllocatorLeak bool
	Fragmentation        bool
	OOM                  bool
	// MemoryGrows is set when a device known only from GPU logs (no
	// snapshots, no memory_stats) has growing used memory, or one known
	// from memory_stats readings without allocated memory has growing
	// reserved memory, or, in a run known only from GPU logs, a process
	// of no device has growing used memory (ReasonProcessGrows): a
	// warning with no site, not a leak flag (used memory mixes PyTorch
	// with the rest, reserved memory a leak with a growing cache).
	MemoryGrows bool
	// Severity is SeverityOK, SeverityInfo, SeverityWarning or
	// SeverityCritical.
	Severity Severity
	// Reasons are the findings behind the flags, in the order the
	// reports list them.
	Reasons []Reason
	// Suspects are the top leak suspects across devices, most growth
	// first (unsuppressed only).
	Suspects []SuspectRef
	// OtherSites counts the leak sites besides the top suspect's (a site
	// leaking on several ranks counts once), and SitesRate is the summed
	// rate of every leak site on the top suspect's axis, in bytes per
	// unit: what the headline adds to the top leak.
	OtherSites int
	SitesRate  float64
	// NoSite says why a leak has no site, for a leak without suspects.
	NoSite NoSite
	// OOMs counts the out-of-memory errors: the explained ones and the
	// rises of memory_stats num_ooms that no snapshot explains; OOMCauses
	// lists their causes in that order (unknown ones left out).
	OOMs      int64
	OOMCauses []OOMCause
	// OOMsHandled counts the OOMs of OOMs that the training logs or the
	// snapshots' traces show the job caught and went on from (OOM.Handled).
	OOMsHandled int64
	// Suppressed counts the leak suspects suppressions took out of the
	// verdict, by rule, most suspects first.
	Suppressed []SuppressedRule
	// Undecided are the devices whose primary trend decided nothing
	// (insufficient or inconclusive, or too few GPU readings for one)
	// and that have no leak: what an info verdict lacks.
	Undecided []DeviceKey
}

// SuppressedRule is a suppression rule and how many leak suspects it
// took out of the verdict.
type SuppressedRule struct {
	Rule     string
	Suspects int
}

// Reason is one finding behind the verdict: its kind, the device it is
// on, and where its figures are. Most kinds read them from the device
// (its leak sites, trends, reconciliation, fragmentation, memory_stats
// readings); the fields below hold the rest.
type Reason struct {
	// Kind names the finding.
	Kind ReasonKind
	// Device is the device it is on.
	Device DeviceKey
	// Index is the OOM's index: in the device's MemoryStats.OOMs for
	// ReasonStatsOOM and ReasonStatsOOMCause, in Findings.OOMs for
	// ReasonOOM.
	Index int
	// Suspects counts the device's unsuppressed leak suspects
	// (ReasonLeak).
	Suspects int
	// WithinRun is true when the device fills within the run's own
	// length, false when within Thresholds.CriticalWithin of wall-clock
	// time (ReasonExhaustion).
	WithinRun bool
	// Process is the index in Findings.OtherProcesses.Series of the
	// process whose memory grows (ReasonProcessGrows, whose Device is
	// zero: the process is of no device); 0 for other kinds.
	Process int
	// Metric names the device's trend whose growth raised the reason
	// (ReasonMemoryGrows: its primary trend, MetricReserved or
	// MetricGPUUsed), so every output quotes the trend the verdict was
	// decided on; "" for other kinds.
	Metric string
}

// SuspectRef points at a suspect of one device.
type SuspectRef struct {
	DeviceKey
	// Index is the suspect's position in that Device's Suspects.
	Index int
}

// Suspect returns the suspect ref points at, or nil.
func (f *Findings) Suspect(ref SuspectRef) *Suspect {
	for _, d := range f.Devices {
		if d.DeviceKey == ref.DeviceKey && ref.Index >= 0 && ref.Index < len(d.Suspects) {
			return &d.Suspects[ref.Index]
		}
	}
	return nil
}

// Thresholds are the rules a verdict applies, reported so a reader can
// see what "growing" had to mean.
type Thresholds struct {
	// Alpha is the significance level of the device trend tests.
	Alpha float64
	// SuspectAlpha is the significance level of a stack group's trend
	// (stricter: many groups are tested).
	SuspectAlpha float64
	// MinPoints is the fewest snapshots a trend verdict needs.
	MinPoints int
	// MinGrowthBytes is the smallest fitted growth over the run that can
	// be a leak, bytes; MinGrowthShare the smallest as a share of the
	// device's steady allocated level.
	MinGrowthBytes int64
	MinGrowthShare float64
	// ExtrapolationRuns is how far ahead a projection is read, in lengths
	// of the run (Options.ExtrapolationRuns).
	ExtrapolationRuns float64
	// Horizon is the wall-clock time within which a projected
	// exhaustion makes a leak critical (--horizon).
	Horizon time.Duration
	// InconclusiveP is the one-sided p-value below which growth that is
	// not established is reported as inconclusive rather than flat.
	InconclusiveP float64
}

// MemoryStatsSeries is one (rank, device)'s torch.cuda.memory_stats()
// readings, in order (see memstats.go for how they are grouped, ordered
// and joined to a device).
type MemoryStatsSeries struct {
	// Sources lists the logs the readings came from, relative to the run
	// directory.
	Sources []string
	// Order says how the readings were ordered: "step" when every reading
	// has one, else "time" when every reading has one, else "log order".
	Order string
	// Readings are the readings in Order. Byte and count fields are
	// gpulog.Unknown where a line lacked them.
	Readings []gpulog.MemoryStatsSample
	// X places each reading on the device's axis; NaN where it cannot be
	// placed (a reading without a step on a step axis and no snapshot
	// times to interpolate, ...).
	X []float64
	// Trends are the trends of the readings' allocated and reserved bytes
	// (metrics allocated_bytes and reserved_bytes, Source
	// SourceMemoryStats), in that order, each present when some reading
	// has the metric and a place on the axis. Without snapshots the
	// device's Trends start with the same two; with snapshots these are
	// shown beside the snapshot trends and decide nothing.
	Trends []Trend
	// Max and Last are the largest and the last known value of each field
	// over the readings, gpulog.Unknown where no reading has it.
	Max, Last MemoryStatsFigures
	// OOMs are the rises of num_ooms between consecutive readings.
	OOMs []MemoryStatsOOM
	// OOMsBefore is num_ooms at the first reading that has it: OOMs that
	// happened before that reading (0 when none or not logged).
	OOMsBefore int64
	// OOMsLogged counts the out-of-memory messages of the device that a
	// training log holding its readings prints before its first reading
	// with num_ooms (repeats included): OOMsBefore's OOMs that the log
	// itself shows; the rest happened before the log starts.
	OOMsLogged int64
	// Retries describes num_alloc_retries over the readings; nil when no
	// reading has it.
	Retries *AllocRetries
	// Window is set when the readings are one torch.profiler trace's
	// [memory] events placed by time (no ProfilerStep#N spans): they
	// cover one profiling window, often under a second, in which
	// allocated memory rises and falls within each step, so their trend
	// is one within that window, and its time to capacity is no forecast
	// of the run's hours (decideVerdict).
	Window bool
}

// MemoryStatsFigures are figures of torch.cuda.memory_stats() readings:
// bytes, and the counters num_alloc_retries and num_ooms; gpulog.Unknown
// (-1) where unknown.
type MemoryStatsFigures struct {
	Allocated, Reserved, Active, InactiveSplit int64
	NumAllocRetries, NumOOMs                   int64
}

// Reading names one reading of a MemoryStatsSeries: its position in
// Readings, its step (input.NoStep when it has none) and its time (zero
// when it has none).
type Reading struct {
	Index int
	Step  int64
	Time  time.Time
}

// MemoryStatsOOM is a rise of the cumulative num_ooms counter between two
// consecutive readings of a MemoryStatsSeries.
type MemoryStatsOOM struct {
	// At is the reading where num_ooms had risen, Prev the reading before
	// it that has num_ooms.
	At, Prev Reading
	// Before and After are num_ooms at Prev and at At: After − Before
	// out-of-memory errors happened in between.
	Before, After int64
	// Allocated and Reserved are the bytes at At, gpulog.Unknown where
	// the reading lacks them.
	Allocated, Reserved int64
	// Cause is the OOM's cause as far as the device's verdict tells it
	// without the failed request (memory_stats do not record it):
	// CauseLeak when the device leaks, CauseFragmentation when it is
	// fragmented, CauseCapacity when almost nothing was cached but free at
	// the reading (under FragShareMin of reserved); "" when the readings
	// cannot say.
	Cause OOMCause
	// Handled is true when the process evidently went on after these
	// OOMs (memStatsHandled), with the meaning of OOM.Handled: a later
	// reading of the same process (its counter not fallen below After,
	// its pid, when given, unchanged), or a training log's line saying
	// the job caught an OOM and went on, answering no message of its own
	// (gpulog.GPULog.Recoveries), between Prev and At. Such OOMs are no
	// crash: a warning, not a critical verdict.
	Handled bool
}

// AllocRetries is the cumulative num_alloc_retries counter (cudaMalloc
// calls that failed and were retried after the caching allocator freed its
// cache) over a device's memory_stats readings.
type AllocRetries struct {
	// First and Last are the counts at the first and the last reading
	// that has the counter.
	First, Last int64
	// Rises counts the readings where the count had risen since the
	// previous one.
	Rises int
	// Growing is true when the count keeps growing: at least
	// MinRetryRises rises, some in the last third of the readings and some
	// before it.
	Growing bool
	// Readings counts the readings that have the counter; LastRise is the
	// last reading where it had risen (meaningful when Rises > 0).
	Readings int
	LastRise Reading
}

// ProcessSet is the per-process GPU memory of one device (or the processes
// no device claims), from the per-process readings of the GPU logs
// (compute-apps CSV, table process rows, XML processes, pmon).
type ProcessSet struct {
	// Axis is the x axis of every X below. OnDeviceAxis is true when it is
	// the device's own axis; otherwise most readings could not be placed
	// on it and all are on hours since Start (the first reading), or on
	// their position in the log (AxisReading) when some have no time.
	Axis         Axis
	OnDeviceAxis bool
	Start        time.Time
	// Series holds one entry per process, the largest peak first.
	Series []ProcessSeries
	// Decides is true when these processes are all a run without
	// snapshots or memory_stats readings shows of its memory (processes
	// of no device of such a run): their trends then decide the verdict
	// (ReasonProcessGrows). In a run with its own devices they may be
	// another job's, and stay a list.
	Decides bool
}

// ProcessSeries is one process's used GPU memory over time.
type ProcessSeries struct {
	// PID is the process id, 0 when the log does not give it; Name its
	// name as logged (untrusted text), "" when not logged.
	PID  int
	Name string
	// GPU is the nvidia-smi index of the device, -1 when the logs do not
	// identify it.
	GPU int
	// GPUID is the GPU's UUID as logged ("GPU-5a6b...", else its bus id)
	// when GPU is -1 and the log names the GPU so (a compute-apps CSV
	// without an index): processes of one GPUID share one GPU; "" when
	// the log names none.
	GPUID string
	// Capacity is the GPU's memory in bytes when known (--capacity, or
	// the memory total a GPU log gives for this GPU), 0 when not; only
	// set for the processes of a ProcessSet that Decides.
	Capacity int64
	// Projection is when Used reaches Capacity less the other processes'
	// last memory on the GPU, for a growing process with a Capacity; nil
	// otherwise.
	Projection *Projection
	// Times are the reading times, zero where the log has none; X places
	// them on the set's axis (NaN where a reading cannot be placed).
	Times []time.Time
	X     []float64
	// Used is the process's used GPU memory at each reading, in bytes
	// (readings that did not record it are left out).
	Used []int64
	// Peak and Last are the largest and the last Used, in bytes.
	Peak, Last int64
	// Trend is the trend of Used (metric process_used_bytes), fitted on X
	// when enough readings are placed, else on hours since the first
	// reading, else on the reading's position; nil with fewer readings
	// than a trend verdict needs (Thresholds.MinPoints).
	Trend *Trend
	// Sources lists the logs the readings came from.
	Sources []string
}
