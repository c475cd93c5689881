package report

import (
	"bytes"
	"encoding/json"
	"math"
	"time"

	"gpureport/input"
	"gpureport/internal/units"
)

// SummarySchema is the schema name of summary.json.
const SummarySchema = "gpureport/summary/v1"

// Summary is summary.json, as docs/design.md specifies it. Field names are a
// contract with cron jobs and dashboards: fields are added, never renamed.
// Byte fields are bytes; slopes are bytes per step (or per hour); nullable
// fields are pointers.
type Summary struct {
	Schema      string          `json:"schema"`
	Run         string          `json:"run"`
	GeneratedAt string          `json:"generated_at"`
	Version     string          `json:"version,omitempty"`
	Location    string          `json:"location,omitempty"`
	Inputs      SummaryInputs   `json:"inputs"`
	Devices     []SummaryDevice `json:"devices"`
	Verdict     SummaryVerdict  `json:"verdict"`
	OOMs        []SummaryOOM    `json:"ooms"`
	Notes       []string        `json:"notes"`
	// NextSteps are what to try next, each tied to a finding, in the
	// reports' words; absent when there is nothing to try.
	NextSteps []string `json:"next_steps,omitempty"`
	// OtherProcesses are the processes of the GPU logs on no device of
	// devices (GPU unknown, or a GPU no series covers); absent when none.
	OtherProcesses []SummaryProcess `json:"other_processes,omitempty"`
	// Capture is what the capture kit's manifests say; absent when the
	// run was not captured with the kit. OOMWithoutSnapshot lists OOMs no
	// snapshot was taken at; absent when none.
	Capture            *SummaryCapture   `json:"capture,omitempty"`
	OOMWithoutSnapshot *SummaryMissedOOM `json:"oom_without_snapshot,omitempty"`
	// RolesHeld is the reports' one line of roles: what held the live
	// memory at the first OOM, or without one at the peak snapshot;
	// absent when no roles are known.
	RolesHeld string `json:"roles_held,omitempty"`
}

// SummaryInputs is summary.json's inputs.
type SummaryInputs struct {
	// Snapshots is the number of snapshot files decoded.
	Snapshots int              `json:"snapshots"`
	GPULogs   []SummaryLog     `json:"gpu_logs"`
	Skipped   []SummarySkipped `json:"skipped"`
}

// SummaryLog is one GPU log in inputs.gpu_logs.
type SummaryLog struct {
	Path   string `json:"path"`
	Format string `json:"format"`
	// Samples counts readings of one GPU (or process) at one time;
	// SampleKinds splits it by kind ("gpu", "process", "memory_stats",
	// "mig") when the log holds more than one kind, absent otherwise.
	Samples      int            `json:"samples"`
	SampleKinds  map[string]int `json:"sample_kinds,omitempty"`
	GPUs         int            `json:"gpus"`
	SkippedLines int            `json:"skipped_lines"`
	// SkipCounts splits skipped_lines by kind of problem; Notes are the
	// reader's caveats about the file. Both absent when empty.
	SkipCounts []SummarySkipCount `json:"skip_counts,omitempty"`
	Notes      []string           `json:"notes,omitempty"`
}

// SummarySkipCount is how many lines of a log were skipped for one kind
// of problem.
type SummarySkipCount struct {
	Kind  string `json:"kind"`
	Lines int    `json:"lines"`
}

// SummarySkipped is one unusable input in inputs.skipped.
type SummarySkipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// SummaryDeviceID is a device's identity in summary.json: every entry
// that names a device (devices, leak_suspects, leak_sites, ooms) embeds
// it, filled by one function from the device's key, so that a leak on a
// rank's pinned host memory reads as host memory wherever it is named.
type SummaryDeviceID struct {
	// Device is the device index; DeviceType its kind as PyTorch names it
	// ("cuda", "xpu", "npu", "mps", ...; docs/design.md), and "host" for a
	// rank's pinned host memory, which is no device of PyTorch's (its
	// tensors' device is the CPU) and whose Device is 0, the index of the
	// host allocator. A summary.json written before device types were
	// kept lacks it: its devices are CUDA devices, and ParseSummary reads
	// it so.
	Device     int    `json:"device"`
	DeviceType string `json:"device_type"`
	Rank       *int   `json:"rank"`
	// PID is the process id that tells the device's process apart when
	// its snapshot paths name a pid and no rank (rank is then null: the
	// job gave it none); absent otherwise.
	PID int `json:"pid,omitempty"`
	// Run numbers the separate run of the script the device's process
	// was, from 1 in time order (a run started over, a sweep's
	// experiment: ingest.ScriptRun), rank then being the job's rank its
	// paths give, null when none; RunFolder names the folder that holds
	// the run's dumps alone, when each run has one. Both absent
	// otherwise.
	Run       int    `json:"run,omitempty"`
	RunFolder string `json:"run_folder,omitempty"`
	// MIG names the MIG device of GPU Device this device is ("GI 7 CI
	// 0"); absent for a whole GPU or a CUDA device.
	MIG string `json:"mig,omitempty"`
	// Kind is "host_pinned" for a rank's pinned host memory (docs/design.md),
	// absent for a GPU.
	Kind string `json:"kind,omitempty"`
	// Name is the device's name as every report writes it ("rank 1 ·
	// cuda:0", "pinned host"); absent in a summary.json written before
	// it was kept (Label rebuilds it).
	Name string `json:"name,omitempty"`
}

// HostDeviceType is SummaryDeviceID.DeviceType of a rank's pinned host
// memory.
const HostDeviceType = "host"

// Label is the device's name as the reports write it: Name, else (a
// summary.json from before it) the name of Key.
func (id SummaryDeviceID) Label() string {
	if id.Name != "" {
		return id.Name
	}
	return id.Key().Name()
}

// SummaryDevice is one (rank, device) series in devices.
type SummaryDevice struct {
	SummaryDeviceID
	CapacityBytes *int64 `json:"capacity_bytes"`
	// PeakAllocatedBytes and PeakReservedBytes are the device's peaks as
	// analyze decided them (analyze.Device.PeakAllocated): over its
	// snapshots, else over its memory_stats readings; null when nothing
	// reads the figure (a GPU log alone; readings of reserved memory
	// only), as every view shows "n/a". Bytes. A summary.json written
	// before these fields existed lacks them: ParseSummary fills them.
	PeakAllocatedBytes *int64             `json:"peak_allocated_bytes"`
	PeakReservedBytes  *int64             `json:"peak_reserved_bytes"`
	Order              string             `json:"order,omitempty"`
	Axis               string             `json:"axis,omitempty"`
	Snapshots          []SummarySnapshot  `json:"snapshots"`
	GPUSamples         *SummaryGPUSamples `json:"gpu_samples"`
	// GPUShare summarises the readings of a GPU whose logs give its used
	// memory only as a percent of the device, with no total to read it
	// in bytes (a W&B export); absent otherwise.
	GPUShare *SummaryGPUShare `json:"gpu_share,omitempty"`
	Trend    SummaryTrend     `json:"trend"`
	// Trends lists every fitted metric (Trend is the allocated_bytes one).
	Trends []SummaryTrend `json:"trends"`
	// Fragmented and StackCoverage are additions to docs/design.md's schema.
	Fragmented    bool    `json:"fragmented"`
	StackCoverage float64 `json:"stack_coverage"`
	Verdict       string  `json:"verdict"`
	// MemoryStats summarises the device's torch.cuda.memory_stats()
	// readings; absent when it has none.
	MemoryStats *SummaryMemoryStats `json:"memory_stats,omitempty"`
	// TraceWindow is the peak of the last snapshot's trace window, with
	// the roles at it; absent without a trace.
	TraceWindow *SummaryTraceWindow `json:"trace_window,omitempty"`
}

// SummaryMemoryStats is a device's torch.cuda.memory_stats() readings.
// Primary is true when the device has no snapshots, so that its trend and
// trends come from these readings. Byte fields are null when no reading
// has them; num_alloc_retries and num_ooms are the last readings'.
type SummaryMemoryStats struct {
	Samples                int               `json:"samples"`
	Sources                []string          `json:"sources"`
	Order                  string            `json:"order"`
	Primary                bool              `json:"primary"`
	AllocatedMaxBytes      *int64            `json:"allocated_max_bytes"`
	AllocatedLastBytes     *int64            `json:"allocated_last_bytes"`
	ReservedMaxBytes       *int64            `json:"reserved_max_bytes"`
	ReservedLastBytes      *int64            `json:"reserved_last_bytes"`
	ActiveMaxBytes         *int64            `json:"active_max_bytes"`
	InactiveSplitMaxBytes  *int64            `json:"inactive_split_max_bytes"`
	InactiveSplitLastBytes *int64            `json:"inactive_split_last_bytes"`
	NumAllocRetries        *int64            `json:"num_alloc_retries"`
	NumOOMs                *int64            `json:"num_ooms"`
	AllocRetriesGrowing    bool              `json:"alloc_retries_growing"`
	AllocRetries           string            `json:"alloc_retries,omitempty"`
	Trends                 []SummaryTrend    `json:"trends"`
	OOMs                   []SummaryStatsOOM `json:"ooms"`
}

// SummaryStatsOOM is a rise of num_ooms between two memory_stats
// readings: num_ooms_after − num_ooms_before OOMs happened between the
// previous reading and this one.
type SummaryStatsOOM struct {
	Step           *int64  `json:"step"`
	Time           *string `json:"time"`
	PreviousStep   *int64  `json:"previous_step"`
	PreviousTime   *string `json:"previous_time"`
	NumOOMsBefore  int64   `json:"num_ooms_before"`
	NumOOMsAfter   int64   `json:"num_ooms_after"`
	AllocatedBytes *int64  `json:"allocated_bytes"`
	ReservedBytes  *int64  `json:"reserved_bytes"`
	// Handled is true when the process evidently went on after these
	// OOMs (a later reading of it, a recovery line between the
	// readings): caught, as ooms[].handled.
	Handled bool `json:"handled,omitempty"`
}

// SummaryProcess is one process's GPU memory from the per-process
// readings of the GPU logs. GPU is the nvidia-smi index (null when the
// logs do not identify it); pid is 0 when not logged; trend is null with
// too few readings for a verdict.
type SummaryProcess struct {
	PID  int    `json:"pid"`
	Name string `json:"name"`
	GPU  *int   `json:"gpu"`
	// GPUID is the GPU's UUID (else bus id) when the logs name it so and
	// give no index; absent otherwise.
	GPUID         string        `json:"gpu_id,omitempty"`
	Samples       int           `json:"samples"`
	UsedMaxBytes  int64         `json:"used_max_bytes"`
	UsedLastBytes int64         `json:"used_last_bytes"`
	FirstTime     *string       `json:"first_time"`
	LastTime      *string       `json:"last_time"`
	Growing       bool          `json:"growing"`
	Trend         *SummaryTrend `json:"trend"`
	Sources       []string      `json:"sources"`
	// HoursToCapacity is when a growing process, whose memory decides the
	// verdict of a run known only from GPU logs, fills its GPU (its
	// capacity less the GPU's other processes), in hours; absent when its
	// GPU's capacity is unknown or it does not grow.
	HoursToCapacity *float64 `json:"hours_to_capacity,omitempty"`
}

// SummarySnapshot is one snapshot of a device series.
type SummarySnapshot struct {
	Path string  `json:"path"`
	Step *int64  `json:"step"`
	Time *string `json:"time"`
	// Phase is set for a snapshot taken at another phase than the
	// periodic ones (an OOM dump): evidence for its event, not a trend
	// point.
	Phase string `json:"phase,omitempty"`
	SummaryUsage
	// RolesBytes is what holds the allocated bytes, {role: bytes} with
	// every role present, summing to allocated_bytes; RolesEvidence splits
	// each role's bytes by what decided them, and RolesCertainty says it in
	// a sentence. Absent when the snapshot could not be classified.
	RolesBytes     map[string]int64            `json:"roles_bytes,omitempty"`
	RolesEvidence  map[string]map[string]int64 `json:"roles_evidence,omitempty"`
	RolesCertainty string                      `json:"roles_certainty,omitempty"`
	// Pools splits the snapshot by pool (docs/design.md's pools).
	Pools []SummaryPool `json:"pools,omitempty"`
}

// SummaryUsage is a device's memory accounting in one snapshot, with
// docs/design.md's summary.json names; `gpureport stats --json` prints the same
// fields. Bytes are bytes.
type SummaryUsage struct {
	ReservedBytes    int64 `json:"reserved_bytes"`
	AllocatedBytes   int64 `json:"allocated_bytes"`
	ActiveBytes      int64 `json:"active_bytes"`
	RequestedBytes   int64 `json:"requested_bytes"`
	InactiveBytes    int64 `json:"inactive_bytes"`
	LargestFreeBytes int64 `json:"largest_free_bytes"`
	Segments         int   `json:"segments"`
	Blocks           int   `json:"blocks"`
	TraceEntries     int   `json:"trace_entries"`
}

// SummaryGPUShare summarises a GPU's readings of used memory as a
// percent of the device: how many there are and the largest, 0 to 100,
// and the logs they came from.
type SummaryGPUShare struct {
	Samples              int      `json:"samples"`
	MemoryUsedMaxPercent float64  `json:"memory_used_max_percent"`
	Sources              []string `json:"sources"`
}

// SummaryGPUSamples summarises a device's GPU log readings.
type SummaryGPUSamples struct {
	Samples            int   `json:"samples"`
	MemoryUsedMaxBytes int64 `json:"memory_used_max_bytes"`
	MemoryTotalBytes   int64 `json:"memory_total_bytes"`
	// Processes are the per-process readings on this GPU, the largest
	// peak first; absent when the logs have none. (A device with process
	// readings but no GPU readings has gpu_samples with samples 0.)
	Processes []SummaryProcess `json:"processes,omitempty"`
	// GPU is the nvidia-smi index of the GPU whose readings these are, and
	// Join the rule that mapped the device to it: "uuid" (an input named
	// its UUID or process), "tracking" (its memory.used follows reserved
	// memory), "lifetime" (snapshots without usable times: the one GPU
	// busy for a single stretch inside the log at the device's reserved
	// memory, or for the ranks of one job exactly as many such GPUs as
	// ranks, in order), "index" (same index as the CUDA device) or "rank"
	// (GPU r for rank r, a guess). JoinAmbiguous is true when another GPU
	// tracked the device about as well. Absent without GPU readings.
	GPU           *int   `json:"gpu,omitempty"`
	Join          string `json:"join,omitempty"`
	JoinAmbiguous bool   `json:"join_ambiguous,omitempty"`
}

// SummaryTrend is a fitted trend. Slopes are bytes per step or per hour
// (the other one is null); CI95 is the slope's 95% interval.
type SummaryTrend struct {
	Metric string `json:"metric"`
	// SlopeBytesPerStep is the slope of a trend on the step axis, bytes
	// per step. SlopeBytesPerHour is the growth in bytes per hour wherever
	// analyze knows the axis's pace (analyze.Trend.SlopePerHour): the
	// slope of an hours axis, or a step axis's slope at its device's hours
	// per step (both fields set then); null when the pace is unknown or
	// measured over less than analyze.MinHoursAxisSpan. The slopes are
	// the fitted line's whatever the state: for a flat trend (a rise that
	// stopped, levelled off or one level change) they are no growth rate,
	// and State says whether memory grows.
	SlopeBytesPerStep *float64 `json:"slope_bytes_per_step"`
	SlopeBytesPerHour *float64 `json:"slope_bytes_per_hour"`
	// SlopeBytesPerReading is set instead of both for readings with
	// neither steps nor times (slope per position in the log).
	SlopeBytesPerReading *float64 `json:"slope_bytes_per_reading,omitempty"`
	// SlopeBytesPerSnapshot is set instead of both for snapshots with no
	// step and no usable time (slope per position in the snapshot order).
	SlopeBytesPerSnapshot *float64 `json:"slope_bytes_per_snapshot,omitempty"`
	// Source is "memory_stats" for a trend fitted on torch.cuda.memory_stats()
	// readings; for a gpu_used_bytes trend of GPU logs of another tool than
	// nvidia-smi, that tool ("rocm-smi", "W&B", "MLflow"); absent for
	// snapshots and nvidia-smi's logs.
	Source  string     `json:"source,omitempty"`
	CI95    []*float64 `json:"ci95"`
	PValue  *float64   `json:"p_value"`
	Verdict string     `json:"verdict"`
	Method  string     `json:"method,omitempty"`
	Points  int        `json:"points"`
	Pattern string     `json:"pattern,omitempty"`
	Reason  string     `json:"reason,omitempty"`
	// State is docs/design.md's trend state (growing, flat, inconclusive,
	// insufficient); Test the test behind p_value; MoreNeeded about how
	// many more points would decide an inconclusive or insufficient trend.
	State      string `json:"state,omitempty"`
	Test       string `json:"test,omitempty"`
	MoreNeeded int    `json:"more_needed,omitempty"`
	// Projection fields: where the fit reaches capacity.
	CapacityAt          *float64 `json:"capacity_at,omitempty"`
	RemainingToCapacity *float64 `json:"remaining_to_capacity,omitempty"`
	HoursToCapacity     *float64 `json:"hours_to_capacity,omitempty"`
	// RanOut replaces the projection fields on a device the run already
	// ran out of memory on: the OOM that shows it.
	RanOut *SummaryRanOut `json:"ran_out,omitempty"`
	// Bounded replaces the projection fields of a growing trend whose
	// growth is bounded containers' (analyze.Bounded): why no time to
	// capacity is forecast.
	Bounded *SummaryBounded `json:"bounded,omitempty"`
}

// SummaryBounded says why a growing trend has no time to capacity: its
// growth is that of bounded containers (analyze.Bounded).
type SummaryBounded struct {
	// Site and Function name the fastest container; Containers counts
	// them; SlopeBytes is their summed growth per unit of the trend's
	// axis; Turnover the longest the fastest kept a block it let go, in
	// snapshots; Text the sentence the other outputs print.
	Site       string  `json:"site"`
	Function   string  `json:"function,omitempty"`
	Containers int     `json:"containers"`
	SlopeBytes float64 `json:"slope_bytes"`
	Turnover   int     `json:"turnover_snapshots"`
	Text       string  `json:"text"`
}

// SummaryRanOut is the OOM that shows the run already ran out of memory on
// a device (analyze.RanOut), in place of a time to capacity.
type SummaryRanOut struct {
	// From is what shows it: "snapshot", "training log" or
	// "memory_stats"; Path the file, Line its line in a training log.
	From string `json:"from"`
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
	// Step and Time place it, null when unknown.
	Step *int64  `json:"step"`
	Time *string `json:"time"`
	// Text words it as the reports do.
	Text string `json:"text"`
}

// SummaryVerdict is the run's verdict.
type SummaryVerdict struct {
	Leak                 bool `json:"leak"`
	OutsideAllocatorLeak bool `json:"outside_allocator_leak"`
	Fragmentation        bool `json:"fragmentation"`
	OOM                  bool `json:"oom"`
	// OOMsHandled counts the OOMs the training logs or the snapshots'
	// traces show the job caught and went on from (ooms[].handled);
	// absent when none.
	OOMsHandled int64 `json:"ooms_handled,omitempty"`
	// MemoryGrows: GPU-log used memory grows on a device without
	// snapshots, or memory_stats reserved memory on one whose readings
	// give no allocated memory (a warning with no site, not a leak flag).
	MemoryGrows  bool             `json:"memory_grows,omitempty"`
	LeakSuspects []SummarySuspect `json:"leak_suspects"`
	// LeakSites are the leak suspects of each device grouped by site (one
	// suspect per call path), in leak_suspects' order, each with the
	// trend of their summed live bytes: how fast the site leaks.
	LeakSites []SummaryLeakSite `json:"leak_sites"`
	Severity  string            `json:"severity"`
	Headline  string            `json:"headline"`
	Reasons   []string          `json:"reasons"`
	// Suppressed counts the leak suspects that suppression rules took out
	// of the verdict.
	Suppressed SummarySuppressed `json:"suppressed"`
}

// SummarySuppressed counts suppressed leak suspects, in all and by rule.
type SummarySuppressed struct {
	Suspects int                 `json:"suspects"`
	Rules    []SummarySuppressor `json:"rules"`
}

// SummarySuppressor is one suppression rule and the number of suspects it
// matched.
type SummarySuppressor struct {
	Rule     string `json:"rule"`
	Suspects int    `json:"suspects"`
}

// SummaryLeakSite is one site of leak_sites: its suspects' fingerprints,
// how many of its other call paths only accumulate, and the trend of the
// live bytes of both summed, with the site's time to capacity in its
// projection fields and its severity.
type SummaryLeakSite struct {
	Site     string `json:"site"`
	Function string `json:"function"`
	// SummaryDeviceID is its device, as SummaryDevice's.
	SummaryDeviceID
	Fingerprints      []string     `json:"fingerprints"`
	AccumulatingPaths int          `json:"accumulating_paths"`
	Severity          string       `json:"severity"`
	Trend             SummaryTrend `json:"trend"`
	// Lockstep is true when the site grows in lockstep with at least two
	// other sites of its device (one object probably holds them all).
	Lockstep bool `json:"lockstep,omitempty"`
}

// SummarySuspect is a top leak suspect.
type SummarySuspect struct {
	Site        string `json:"site"`
	Function    string `json:"function"`
	Fingerprint string `json:"fingerprint"`
	// SummaryDeviceID is its device, as SummaryDevice's.
	SummaryDeviceID
	GrowthBytesPerStep *float64 `json:"growth_bytes_per_step"`
	GrowthBytesPerHour *float64 `json:"growth_bytes_per_hour,omitempty"`
	// GrowthBytesPerSnapshot is set instead of both on a snapshot-order
	// axis (no steps, no usable times).
	GrowthBytesPerSnapshot *float64   `json:"growth_bytes_per_snapshot,omitempty"`
	CI95                   []*float64 `json:"ci95"`
	PValue                 *float64   `json:"p_value"`
	LastBytes              int64      `json:"last_bytes"`
	Confidence             string     `json:"confidence,omitempty"`
	Evidence               []string   `json:"evidence,omitempty"`
	// Points, State and Test are the numbers the claim rests on besides
	// the slope, interval and p-value; Severity comes from the time to
	// capacity, HoursToCapacity and RemainingToCapacity (in steps or
	// hours) when known.
	Points              int      `json:"points"`
	State               string   `json:"state,omitempty"`
	Test                string   `json:"test,omitempty"`
	Severity            string   `json:"severity,omitempty"`
	RemainingToCapacity *float64 `json:"remaining_to_capacity,omitempty"`
	HoursToCapacity     *float64 `json:"hours_to_capacity,omitempty"`
	// RanOut replaces RemainingToCapacity and HoursToCapacity on a device
	// the run already ran out of memory on.
	RanOut *SummaryRanOut `json:"ran_out,omitempty"`
	// Role is the role of most of the suspect's live bytes at the last
	// snapshot, and RolesBytes all of them by role; absent when unknown.
	Role       string           `json:"role,omitempty"`
	RolesBytes map[string]int64 `json:"roles_bytes,omitempty"`
}

// SummaryOOM is one explained out-of-memory event.
type SummaryOOM struct {
	Path string `json:"path"`
	// SummaryDeviceID is the device it happened on, as SummaryDevice's:
	// a training log's message names its backend ("XPU out of memory":
	// "xpu").
	SummaryDeviceID
	Time             *string `json:"time"`
	RequestedBytes   int64   `json:"requested_bytes"`
	DeviceFreeBytes  int64   `json:"device_free_bytes"`
	ReservedBytes    int64   `json:"reserved_bytes"`
	AllocatedBytes   int64   `json:"allocated_bytes"`
	CachedFreeBytes  int64   `json:"cached_free_bytes"`
	LargestFreeBytes int64   `json:"largest_free_bytes"`
	Class            string  `json:"class"`
	Explanation      string  `json:"explanation"`
	// Handled is true when the job caught the OOM and went on (a training
	// log's recovery line answers the message, or a snapshot's trace
	// shows the training loop's steps again after it): no crash.
	Handled bool `json:"handled,omitempty"`
	// Memory is "host_pinned" when the memory that ran out was
	// page-locked host memory (the DataLoader's pin-memory thread), not
	// the device's (Device is then the device it was pinned for); absent
	// for device memory.
	Memory string `json:"memory,omitempty"`
	// RepeatedIn are the other files holding the same OOM message (copies
	// of the same process's output), counted once; absent when none.
	RepeatedIn []string `json:"repeated_in,omitempty"`
	// MissingBytes is the device memory the request lacked (requested
	// minus device free); LeakedBytes what the leak suspects had added by
	// the OOM; for a leak OOM, Earlier is how many steps (or hours) before
	// the OOM the request would have fit without the leak's growth.
	MissingBytes int64 `json:"missing_bytes"`
	// OutsideBytes is, for an "others" OOM, or a "capacity" one whose
	// device held memory outside the process that no input names, the
	// device memory in use at
	// the OOM that was not this process's; OtherProcessesBytes what the
	// OOM message's other processes had in use, OtherPID the largest's
	// pid. Absent otherwise.
	OutsideBytes        int64    `json:"outside_bytes,omitempty"`
	OtherProcessesBytes int64    `json:"other_processes_bytes,omitempty"`
	OtherPID            int      `json:"other_pid,omitempty"`
	LeakedBytes         int64    `json:"leaked_bytes,omitempty"`
	LeakSite            string   `json:"leak_site,omitempty"`
	Earlier             *float64 `json:"earlier,omitempty"`
	EarlierPer          string   `json:"earlier_per,omitempty"`
	// RolesBytes is what held the live memory at the OOM, {role: bytes};
	// Phase the step's phase the failing allocation ran in; Levers, for a
	// capacity OOM, the changes that would shrink its roles with the
	// bytes each would free (estimates), largest first, and
	// LeversMostFreedBytes the most they free together (per role the
	// largest, summed). Absent when the roles are unknown.
	RolesBytes           map[string]int64 `json:"roles_bytes,omitempty"`
	Phase                string           `json:"phase,omitempty"`
	Levers               []SummaryLever   `json:"levers,omitempty"`
	LeversMostFreedBytes int64            `json:"levers_most_freed_bytes,omitempty"`
}

// summaryFor is the view's summary.json, written at opt's time by opt's
// version.
func summaryFor(v *view, opt Options) *Summary {
	s := *v.summary
	s.GeneratedAt = opt.GeneratedAt.UTC().Format(time.RFC3339)
	s.Version = opt.Version
	return &s
}

// num returns a pointer to v, nil for NaN and infinities (JSON null).
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func round6(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return math.Round(v*1e6) / 1e6
}

func rankPtr(r int) *int {
	if r == input.NoRank {
		return nil
	}
	return &r
}

func timePtr(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := units.Timestamp(t)
	return &s
}

// marshalSummary encodes the summary as indented JSON with a final
// newline, without HTML escaping (the file is JSON, not HTML).
func marshalSummary(s *Summary) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SummaryCapture is summary.json's capture: what the capture kit's
// manifests say (analyze.Capture); absent without the kit.
type SummaryCapture struct {
	Manifests     []string `json:"manifests"`
	KitVersions   []string `json:"kit_versions"`
	TorchVersions []string `json:"torch_versions"`
	CUDAVersions  []string `json:"cuda_versions"`
	WorldSize     int      `json:"world_size"`
	Ranks         []int    `json:"ranks"`
	MissingRanks  []int    `json:"missing_ranks"`
	// Every is steps between dumps; MaxEntries the trace ring buffer's
	// entries; Stacks "python" or "all".
	Every      int64  `json:"every"`
	MaxEntries int64  `json:"max_entries"`
	Stacks     string `json:"stacks"`
	// Used counts the kit's files read, by kind; Skipped lists those that
	// could not be read.
	Used    SummaryCaptureUsed `json:"used"`
	Skipped []string           `json:"skipped"`
	// UUIDJoins are the devices joined to their GPU by a manifest's UUID.
	UUIDJoins []SummaryDeviceRef `json:"uuid_joins"`
	// OOMs the kit's observer saw, and those it wrote no snapshot for.
	OOMs                int `json:"ooms"`
	OOMsWithoutSnapshot int `json:"ooms_without_snapshot"`
	// NoOOMObserverRanks are the ranks that would take no OOM snapshot;
	// UnstoppedRanks those whose capture never stopped.
	NoOOMObserverRanks []int `json:"no_oom_observer_ranks"`
	UnstoppedRanks     []int `json:"unstopped_ranks"`
	// Dump costs: the slowest snapshot gather and write, seconds; the most
	// trace entries of a dump (null when unknown); a dump's mean bytes.
	DumpGatherSecondsMax float64  `json:"dump_gather_seconds_max"`
	DumpWriteSecondsMax  float64  `json:"dump_write_seconds_max"`
	TraceEntriesMax      *int64   `json:"trace_entries_max"`
	DumpBytesMean        int64    `json:"dump_bytes_mean"`
	ErrorCount           int      `json:"error_count"`
	Errors               []string `json:"errors"`
	Problems             []string `json:"problems"`
}

// SummaryCaptureUsed counts the capture kit's files read, by kind.
type SummaryCaptureUsed struct {
	Snapshots       int `json:"snapshots"`
	OOMSnapshots    int `json:"oom_snapshots"`
	MemoryStatsLogs int `json:"memory_stats_logs"`
	GPULogs         int `json:"gpu_logs"`
}

// SummaryDeviceRef names one device: its rank (null when none) and CUDA
// device index.
type SummaryDeviceRef struct {
	Rank   *int `json:"rank"`
	Device int  `json:"device"`
}

// SummaryMissedOOM is summary.json's oom_without_snapshot: OOMs seen with
// no snapshot taken at them (analyze.MissedOOM); absent when none.
type SummaryMissedOOM struct {
	Sources []string `json:"sources"`
	Ranks   []*int   `json:"ranks"`
	// Kit is true when the run was captured with the kit; Reason then
	// says why it dumped none: no-manifest, observer-off, not-written or
	// observer-not-called ("" without the kit).
	Kit    bool   `json:"kit"`
	Reason string `json:"reason"`
}
