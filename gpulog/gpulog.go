package gpulog

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gpureport/input"
)

// LogFormat names the format of a GPU log, as summary.json's
// inputs.gpu_logs[].format spells it.
type LogFormat string

// GPU log formats.
const (
	// FormatQueryCSV is nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits].
	FormatQueryCSV LogFormat = "query-csv"
	// FormatComputeAppsCSV is nvidia-smi --query-compute-apps=... --format=csv.
	FormatComputeAppsCSV LogFormat = "compute-apps-csv"
	// FormatDmon is nvidia-smi dmon (and pmon) fixed-width output.
	FormatDmon LogFormat = "dmon"
	// FormatTable is the plain nvidia-smi box table, possibly repeated.
	FormatTable LogFormat = "table"
	// FormatXML is nvidia-smi -q -x, possibly several documents.
	FormatXML LogFormat = "xml"
	// FormatNVML is the query-CSV file written by `gpureport record`.
	FormatNVML LogFormat = "nvml"
	// FormatMemoryStats is JSON lines of torch.cuda.memory_stats().
	FormatMemoryStats LogFormat = "memory-stats"
	// FormatCSVColumns is a CSV a script wrote with columns of its own
	// naming (mem_used_mb, memory_used, fb_used, gpu_mem_*, ...), read by
	// the meaning of its column names (gpulog_columns.go).
	FormatCSVColumns LogFormat = "csv-columns"
	// FormatDCGMProm is DCGM exporter Prometheus text (DCGM_FI_DEV_FB_USED,
	// DCGM_FI_DEV_FB_FREE, ...), one or more scrapes.
	FormatDCGMProm LogFormat = "dcgm-prometheus"
	// FormatDCGMDmon is DCGM's `dcgmi dmon` table: "#Entity" and "ID"
	// header lines over "GPU N" rows (dcgm_dmon.go).
	FormatDCGMDmon LogFormat = "dcgmi-dmon"
	// FormatGpustat is gpustat's text output, FormatGpustatJSON its
	// --json output (gpustat.go).
	FormatGpustat     LogFormat = "gpustat"
	FormatGpustatJSON LogFormat = "gpustat-json"
	// FormatQueryText is nvidia-smi -q's human-readable report, one
	// document per sample (nvsmi_query.go).
	FormatQueryText LogFormat = "query-text"
	// FormatWandbCSV is a Weights & Biases system-metrics CSV export
	// (system.gpu.N.memoryAllocatedBytes, _timestamp, _runtime, ...).
	FormatWandbCSV LogFormat = "wandb-csv"
	// FormatLightningCSV is PyTorch Lightning's CSVLogger metrics.csv with
	// DeviceStatsMonitor columns.
	FormatLightningCSV LogFormat = "lightning-csv"
	// FormatPynvml is pynvml's memory struct printed by a script
	// (print(nvmlDeviceGetMemoryInfo(h)): "c_nvmlMemory_t(total: N B,
	// free: N B, used: N B)", or c_nvmlMemory_v2_t), one a line
	// (pynvml_struct.go).
	FormatPynvml LogFormat = "pynvml-memory"
	// FormatTrainingLog is a training job's own stdout/stderr, read for
	// CUDA out-of-memory messages (trainlog.go).
	FormatTrainingLog LogFormat = "training-log"
)

// GPULog is one decoded GPU log file.
type GPULog struct {
	input.Source
	// Format is the format detected from the content.
	Format LogFormat
	// GPUs are the devices the log mentions, in order of first appearance.
	GPUs []GPU
	// Samples are device readings: one GPU at one time.
	Samples []GPUSample
	// Processes are per-process readings (compute-apps CSV, table process
	// rows, XML processes, pmon).
	Processes []ProcessSample
	// MemoryStats are torch.cuda.memory_stats() readings (memory-stats
	// format only).
	MemoryStats []MemoryStatsSample
	// MIG are readings of MIG devices (XML, -q text and table logs of GPUs
	// in MIG mode, DCGM's MIG series); the parent GPU's sample holds the
	// whole GPU's memory.
	MIG []MIGSample
	// Driver is the driver version the log states, "" when it does not.
	Driver string
	// Notes are caveats about the whole file that a reader of the report
	// must see (an assumed field order, dates taken from the file's
	// modification time, ...).
	Notes []string
	// SkippedLines counts lines (or XML documents) that could not be
	// read.
	SkippedLines int
	// SkipCounts splits SkippedLines by kind of problem ("row of a
	// different GPU", "NUL bytes only", ...), most frequent first.
	SkipCounts []SkipCount
	// Problems describes the first skipped lines: where and why, at most
	// MaxProblems of them.
	Problems []LineProblem
	// Zoneless is true when the timestamps carried no zone and were read in
	// the run's assumed location.
	Zoneless bool
	// Timing says how the readings are placed in time (TimingTimes when
	// every reading has its own time).
	Timing Timing
	// OOMs are the out-of-memory messages of a training log, in file
	// order (training-log format only).
	OOMs []TrainingOOM
	// Recoveries are the lines of a training log saying the job caught an
	// OOM and went on that answer none of its OOM messages
	// (trainlog_recovery.go): evidence for an OOM the log shows only
	// through memory_stats' num_ooms counter (analyze). At most
	// maxRecoveries, the first ones; training-log format only.
	Recoveries []Recovery
	// TrainerMemory are Hugging Face Trainer's memory metrics, one entry
	// per stage printed (training-log format only): deltas, not levels,
	// so never Samples or MemoryStats (trainlog_hf.go).
	TrainerMemory []TrainerMemory
	// Capacities are device capacities a training framework printed at
	// start (torchtitan's "CUDA capacity: ... with 79.11GiB memory",
	// fairseq's "rank   0: ... ; total memory = 79.151 GB ;";
	// training-log format only; trainlog_capacity.go).
	Capacities []DeviceCapacity
	// CacheFlushes is the number of allocator cache flushes (cudaMalloc
	// retries after the cache was freed: num_alloc_retries's rises)
	// DeepSpeed's "N pytorch allocator cache flushes since last step"
	// warnings count, summed (training-log format only; 0 when none).
	CacheFlushes int
	// DriverFailures counts the lines that report a GPU lost by the
	// driver or a driver nvidia-smi could not reach ("[GPU is lost]",
	// "No devices were found", ...; driver_failure.go);
	// FirstDriverFailure is the 1-based line of the first, 0 when none.
	DriverFailures     int
	FirstDriverFailure int
	// VisibleDevices are the CUDA_VISIBLE_DEVICES settings a training log
	// printed, in file order (trainlog_visible.go); nil when none.
	VisibleDevices []VisibleDevices
}

// Timing says how a log's readings are placed in time.
type Timing string

// How readings are placed in time.
const (
	// TimingTimes: every reading carries its own time (or the log has
	// none of the kinds below).
	TimingTimes Timing = "timestamps"
	// TimingElapsed: times are elapsed seconds from an unknown start; they
	// were anchored so that the last reading falls at the file's
	// modification time (Notes say so).
	TimingElapsed Timing = "elapsed"
	// TimingInterval: readings without a time were placed after the last
	// dated reading at the sampling interval the file's dated readings
	// show.
	TimingInterval Timing = "interval"
	// TimingOrder: some readings have no time and none could be
	// inferred; readings are placed by their position in the file (the
	// reading index is the axis).
	TimingOrder Timing = "reading-order"
	// TimingSteps: no reading has a time and every one has a training
	// step (GPUSample.Step), which is their axis.
	TimingSteps Timing = "steps"
)

// OOMKind says which message reported an out-of-memory error.
type OOMKind string

// Kinds of out-of-memory messages in training logs.
const (
	// OOMTorch is PyTorch's caching allocator message (torch 2.x:
	// "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate ...
	// GPU 0 has a total capacity of ...").
	OOMTorch OOMKind = "torch"
	// OOMTorchLegacy is the older form ("RuntimeError: CUDA out of
	// memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total
	// capacity; ...)").
	OOMTorchLegacy OOMKind = "torch-legacy"
	// OOMMPS is Apple's MPS allocator ("MPS backend out of memory (MPS
	// allocated: ..., other allocations: ..., max allowed: ...). Tried to
	// allocate ... on private pool").
	OOMMPS OOMKind = "mps"
	// OOMCUDAError is a runtime error without figures: CUDA's or HIP's
	// ("CUDA error: out of memory", "CUDA driver error: out of memory",
	// "HIP error: out of memory"), or cuBLAS's and cuDNN's failed
	// allocation (CUBLAS_STATUS_ALLOC_FAILED, CUDNN_STATUS_ALLOC_FAILED).
	OOMCUDAError OOMKind = "cuda-error"
	// OOMMallocAsync is the cudaMallocAsync backend's message
	// ("Allocation on device 0 would exceed allowed memory. (out of
	// memory)" and its "Currently allocated", "Requested", "Device
	// limit", "Free (according to CUDA)" and "PyTorch limit" lines).
	OOMMallocAsync OOMKind = "cuda-malloc-async"
	// OOMNCCL is an NCCL message about a failed CUDA allocation.
	OOMNCCL OOMKind = "nccl"
)

// TrainingOOM is one out-of-memory message of a training log. Byte fields
// are Unknown when the message does not give them.
type TrainingOOM struct {
	// Line is the 1-based line of the message; Count how many identical
	// messages (same rank and numbers) it stands for, repeats included.
	Line  int
	Count int
	// Kind says which message it was; Backend names the allocator's
	// device kind as the message does ("CUDA", "HIP", "NPU", "XPU",
	// "MPS", ...; "" when it names none).
	Kind    OOMKind
	Backend string
	// Rank is the distributed rank from a "[rank3]:" or "[default3]:"
	// line prefix, NoRank when none; Device is the CUDA device the message
	// names ("GPU 0"), -1 when it names none.
	Rank   int
	Device int
	// Machine is the machine a launcher's label before the line names:
	// kubectl logs --prefix's pod ("pod/NAME"), pdsh's host; "" when
	// none. Messages of two machines are two events.
	Machine string
	// Time is the time a log line prefix gives, zero when none.
	Time time.Time
	// Requested is the allocation that failed (bytes), as printed: PyTorch
	// prints it to two decimals of its unit ("793.71 MiB"), so the true
	// size is within RequestedSlack bytes of it (half the value of the
	// last printed digit; 0 for a count of bytes).
	Requested      int64
	RequestedSlack int64
	// Capacity is the device's total capacity as PyTorch reports it.
	Capacity int64
	// Free is the device memory CUDA reported free, FreeSlack how far the
	// true figure may be from the printed one (as RequestedSlack).
	Free      int64
	FreeSlack int64
	// ProcessInUse is the memory this process has in use, non-PyTorch
	// memory included (torch 2.x form).
	ProcessInUse int64
	// Allocated is the memory allocated by PyTorch (live tensors).
	Allocated int64
	// Reserved is the memory PyTorch's caching allocator holds in total
	// (older form: "reserved in total by PyTorch"; newer form: allocated
	// plus reserved-but-unallocated).
	Reserved int64
	// ReservedUnallocated is memory reserved by PyTorch but not allocated
	// (cached free), the fragmentation evidence. PyTorch before 1.4 called
	// it "cached".
	ReservedUnallocated int64
	// PrivatePools is the part of Allocated in private pools (CUDA graphs,
	// MemPools), from "with X allocated in private pools".
	PrivatePools int64
	// Allowed is a cap on the process: set_per_process_memory_fraction's
	// ("X allowed") or MPS's high watermark ("max allowed: X").
	Allowed int64
	// OtherProcesses is the memory other processes had in use on the
	// device ("Process N has X memory in use", summed), bytes; Unknown
	// when the message lists none besides this process.
	OtherProcesses int64
	// ListedSelfPID is the pid of the "Process N has X memory in use"
	// entry read as this process, 0 when none: PyTorch lists its own
	// process so when it does not recognise its pid (a container), and
	// the figures show that entry cannot be another process's
	// (oomReading.selfListed). Its X is then ProcessInUse.
	ListedSelfPID int
	// OtherCount is how many "Process N has X memory in use" entries are
	// other processes' (OtherProcesses sums them); LargestOtherPID and
	// LargestOther the pid (0 when not printed) and memory in use (bytes)
	// of the largest of them; 0 when there are none.
	OtherCount      int
	LargestOtherPID int
	LargestOther    int64
	// OtherAllocations is MPS's "other allocations": memory of the
	// process that its MPS allocator did not make.
	OtherAllocations int64
	// Message is the message line as written (clipped to 500 bytes).
	Message string
	// Handled is true when the log says the job caught this OOM and went
	// on: a recovery line of the same stream answers it
	// (trainlog_recovery.go).
	Handled bool
	// Fatal is true when the log shows the process died of this OOM: it
	// is the message closest before a fatal end (an uncaught traceback
	// the log ends with, a launcher's report that the worker failed;
	// trainlog_recovery.go). A fatal OOM is never Handled.
	Fatal bool
	// Autotune is true when the OOM was raised while Inductor benchmarked
	// one of its autotuning choices, which it logged and dropped
	// (torch/_inductor/select_algorithm.py: "Runtime error during
	// autotuning: <message>. Ignoring this choice."): a trial
	// allocation of a kernel candidate, caught by construction, so the
	// message is also Handled and never Fatal (trainlog_recovery.go).
	Autotune bool
	// PinnedHost is true when the memory that ran out was page-locked
	// host memory, not the device's: the message closes the traceback of
	// a failure in the DataLoader's pin-memory thread ("Caught
	// RuntimeError in pin memory thread for device 0.", frames of
	// torch/utils/data/_utils/pin_memory.py) or names cudaHostAlloc
	// (trainlog_pinned.go). Device is then the device the memory was
	// pinned for.
	PinnedHost bool
}

// Recovery is a line of a training log saying the job caught an OOM and
// went on (reOOMRecovery).
type Recovery struct {
	// Line is its 1-based line; Time the time its prefix gives (zero when
	// none); Rank the rank its prefix gives, NoRank when none (or when
	// the prefix is a local rank or an srun task number, which need not
	// be the rank).
	Line int
	Time time.Time
	Rank int
}

// DeviceType is the PyTorch device type (torch.device's type) of the
// device whose allocator printed the message, from its Backend: "cuda"
// for CUDA, for HIP (ROCm builds run AMD GPUs as torch.cuda devices) and
// for a message that names no backend (NCCL's, cuBLAS's, a bare "Out of
// memory"); "xpu" for XPU and IPEX 1.x's DPCPP (its device was "xpu"
// too), "npu" (torch_npu), "mlu" (torch_mlu), "musa" (torch_musa), "mps"
// (Apple), "opencl" (c10's name for an OpenCL device).
func (o *TrainingOOM) DeviceType() string {
	switch o.Backend {
	case "XPU", "DPCPP":
		return "xpu"
	case "NPU", "MLU", "MUSA", "MPS", "OpenCL":
		return strings.ToLower(o.Backend)
	}
	return "cuda"
}

// LineProblem is one part of a log that was skipped.
type LineProblem struct {
	// Line is the 1-based line number.
	Line int
	// Reason says what was wrong.
	Reason string
}

// SkipCount is how many lines of a log were skipped for one kind of
// problem.
type SkipCount struct {
	// Kind names the problem.
	Kind string
	// Lines is the number of lines (or XML documents) skipped for it.
	Lines int
}

// MaxProblems bounds GPULog.Problems; SkippedLines keeps the full count.
const MaxProblems = 20

// GPU identifies one device of a log.
type GPU struct {
	// Index is the device index nvidia-smi printed, -1 when not logged.
	Index int
	// UUID and BusID identify the device across logs; empty when not
	// logged. BusID is normalised to nvidia-smi's long form with an
	// 8-digit domain in upper case, e.g. "00000000:01:00.0".
	UUID  string
	BusID string
	// Name is the product name (untrusted text).
	Name string
	// MemoryTotal is the framebuffer size in bytes, 0 when not logged.
	MemoryTotal int64
	// Machine is the machine whose GPU this is when the log holds the
	// lines of several machines, each labelled by a launcher (kubectl
	// logs --prefix's "pod/NAME", pdsh's host: gpulog_machines.go), and
	// MachineIndex its index on that machine, as printed; Index is then
	// numbered across the machines. "" and Index when the log is one
	// machine's.
	Machine      string
	MachineIndex int
}

// Unknown marks a byte count or counter that the log did not record.
const Unknown int64 = -1

// GPUSample is one reading of one GPU. Byte fields are Unknown when the
// log does not have them; percentages are NaN then.
type GPUSample struct {
	// Time is when the reading was taken; zero when the log has no times.
	Time time.Time
	// GPU is the device index (position in GPUs order when the log has no
	// index column).
	GPU int
	// MemoryUsed, MemoryTotal, MemoryFree and MemoryReserved are bytes.
	MemoryUsed     int64
	MemoryTotal    int64
	MemoryFree     int64
	MemoryReserved int64
	// MemoryUsedPercent is used memory as a percent of the device's total,
	// for logs that give the share and neither bytes nor the total (a W&B
	// memoryAllocated export), when HasUsedPercent is set (the zero value
	// is no share). ResolveShares turns it into bytes where a total is
	// known.
	MemoryUsedPercent float64
	HasUsedPercent    bool
	// Step is the training step the reading was taken at, when HasStep
	// is set (a CSV logger's "step" column); the zero value is no step.
	Step    int64
	HasStep bool
	// UtilizationGPU and UtilizationMemory are percent.
	UtilizationGPU    float64
	UtilizationMemory float64
	// PowerW is the power draw in watts.
	PowerW float64
}

// unknownSample is a reading of GPU gpu at t (zero: unknown) before any
// value is read: byte fields Unknown, percentages and power NaN.
func unknownSample(gpu int, t time.Time) GPUSample {
	return GPUSample{Time: t, GPU: gpu, MemoryUsed: Unknown, MemoryTotal: Unknown, MemoryFree: Unknown, MemoryReserved: Unknown,
		UtilizationGPU: math.NaN(), UtilizationMemory: math.NaN(), PowerW: math.NaN()}
}

// ProcessSample is one process's memory on one GPU at one time.
type ProcessSample struct {
	// Time is when the reading was taken; zero when unknown.
	Time time.Time
	// GPU is the device index, -1 when the log does not give it (a
	// compute-apps CSV names the GPU by UUID or bus id only; package
	// placement resolves those from the run's other logs) or the log's
	// identifiers match none.
	GPU int
	// UUID and BusID identify the GPU when the log gives them ("" when
	// not); BusID is normalised like GPU.BusID.
	UUID  string
	BusID string
	// PID is the process id, 0 when not logged.
	PID int
	// Name is the process name (untrusted text).
	Name string
	// UsedMemory is bytes, Unknown when not logged.
	UsedMemory int64
}

// MemoryStatsSample is one torch.cuda.memory_stats() reading. Byte and
// count fields are Unknown when the line does not have them.
type MemoryStatsSample struct {
	// Step is the training step, NoStep when the line has none.
	Step int64
	// Time is when the reading was taken; zero when unknown.
	Time time.Time
	// Device is the device index (0 when the line does not say); Type
	// the PyTorch device type a "device" string names when it is not
	// CUDA ("xpu" for "xpu:0", from torch.xpu.memory_stats; see
	// memStatsDeviceType), "" for CUDA.
	Device int
	Type   string
	// DeviceAssumed is true when the line names no device and Device is
	// the 0 the reader assumed (a framework's memory line, printed by
	// each rank of its own device: Megatron-LM's "[Rank 2] ... memory
	// (MB)"); analysis may then take the device the rank's own OOM
	// message names.
	DeviceAssumed bool
	// Rank is the distributed rank the line gives, NoRank when none.
	Rank int
	// UUID is the device's UUID when the line gives one ("uuid",
	// "device_uuid" or "gpu_uuid", e.g. from
	// torch.cuda.get_device_properties(d).uuid), as written: with or
	// without nvidia-smi's "GPU-" prefix; "" when not given. It maps the CUDA
	// device to the nvidia-smi GPU whatever CUDA_VISIBLE_DEVICES was.
	UUID string
	// PID is the process id the line gives ("pid"), 0 when none; it maps
	// the device to a GPU through compute-apps readings of that process.
	PID int
	// Allocated, Reserved, Active and InactiveSplit are current bytes
	// (allocated_bytes.all.current and so on).
	Allocated     int64
	Reserved      int64
	Active        int64
	InactiveSplit int64
	// PeakAllocated and PeakReserved are the highest allocated and
	// reserved bytes over the span the reading stands for (a profiler
	// step of a torch.profiler trace, whose reading is the step's end);
	// 0 when the reading is one instant, whose own figures are its peak.
	PeakAllocated int64
	PeakReserved  int64
	// PeakSinceStart is true when PeakAllocated is the peak since the
	// process started (the printer never resets it: MMCV 1.x's and
	// torchvision's "memory"/"max mem", detectron2's "max_mem"), so it
	// only ever rises; false when the span ends at the previous reading
	// (MMEngine, fairseq, a profiler step).
	PeakSinceStart bool
	// NumAllocRetries and NumOOMs are cumulative counts.
	NumAllocRetries int64
	NumOOMs         int64
	// Line is the 1-based line of a training log's memory summary table
	// the reading comes from (its header line), to tell which of the
	// log's out-of-memory messages came before it; 0 for other readings.
	Line int
}

// GPUReading is the MIG reading as a reading of a device of its own: the
// MIG device's used and total memory at the reading's time, under its
// parent's index (other fields unknown). The MIG device is told apart by
// its GPU and compute instance ids, which the caller keeps.
func (m MIGSample) GPUReading() GPUSample {
	s := unknownSample(m.GPU, m.Time)
	s.MemoryUsed, s.MemoryTotal = m.MemoryUsed, m.MemoryTotal
	return s
}

// MIGSample is one reading of one MIG device of a GPU in MIG mode.
type MIGSample struct {
	// Time is when the reading was taken; zero when unknown.
	Time time.Time
	// GPU is the parent device index; MIG the MIG device's index on it.
	GPU int
	MIG int
	// GPUInstance and ComputeInstance are the GI and CI ids, -1 when not
	// logged.
	GPUInstance     int
	ComputeInstance int
	// MemoryUsed and MemoryTotal are the MIG device's framebuffer bytes,
	// Unknown when not logged.
	MemoryUsed  int64
	MemoryTotal int64
}

// ResolveShares reads the used-memory shares of logs (MemoryUsedPercent,
// a W&B memoryAllocated export, rocm-smi --showmemuse, MLflow's
// gpu_N_memory_usage_percentage) as bytes where the device's total is
// known: the reading's own MemoryTotal, else capacity when it is not 0
// (--capacity, bytes), else the largest memory total another reading of
// the same GPU index gives, in any of the logs. A share and a used byte
// count of the same GPU at the same time in logs of the same tool (MLflow's
// percentage and megabytes files) give that GPU's total instead
// (pairedTotals): the byte readings get it, and the share readings so
// paired are dropped, being the byte readings again. It returns the logs
// with those readings converted, and a note on each log it changed; a log
// it does not change is returned as it is, and no log is modified in
// place. Readings without a total keep their share.
func ResolveShares(logs []*GPULog, capacity int64) []*GPULog {
	pairTotals, paired := pairedTotals(logs)
	totals := map[int]int64{}
	for _, l := range logs {
		for _, s := range l.Samples {
			totals[s.GPU] = max(totals[s.GPU], s.MemoryTotal)
		}
		for _, g := range l.GPUs {
			if g.Index >= 0 {
				totals[g.Index] = max(totals[g.Index], g.MemoryTotal)
			}
		}
	}
	for k, t := range pairTotals {
		totals[k.gpu] = max(totals[k.gpu], t)
	}
	out := make([]*GPULog, len(logs))
	for i, l := range logs {
		out[i] = l
		tool := l.Format.UsedTool()
		var samples []GPUSample
		n, given, dropped := 0, 0, 0
		src := ""
		for _, s := range l.Samples {
			pk := pairKey{tool, s.GPU}
			switch {
			case s.MemoryUsed >= 0 && s.MemoryTotal < 0 && pairTotals[pk] > 0:
				s.MemoryTotal = pairTotals[pk]
				given++
			case !s.HasUsedPercent || s.MemoryUsed >= 0:
			case paired[pk][s.Time.UnixNano()]:
				dropped++
				continue
			default:
				total := s.MemoryTotal
				switch {
				case total > 0:
					// The reading's own total (rocm-smi's VRAM Total
					// Memory beside its percent in use).
					src = "the reading's own total"
				case capacity > 0:
					total, src = capacity, "--capacity"
				default:
					total, src = totals[s.GPU], "another reading's memory total"
				}
				if total > 0 {
					s.MemoryUsed = int64(s.MemoryUsedPercent / 100 * float64(total))
					s.MemoryTotal = total
					n++
				}
			}
			samples = append(samples, s)
		}
		if n+given+dropped == 0 {
			continue
		}
		c := *l
		c.Samples = samples
		c.Notes = slices.Clip(l.Notes)
		if given > 0 {
			c.GPUs = slices.Clone(l.GPUs)
			for j := range c.GPUs {
				if t := pairTotals[pairKey{tool, c.GPUs[j].Index}]; t > 0 && c.GPUs[j].MemoryTotal <= 0 {
					c.GPUs[j].MemoryTotal = t
				}
			}
			c.Notes = append(c.Notes, fmt.Sprintf("%d readings take the device's total memory from the same GPU's used memory as a percent of the device at the same times, in the %s logs", given, tool))
		}
		if dropped > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("%d readings of used memory as a percent of the device, with the byte counts of the %s logs at the same times, give the device's total memory, and are not kept again as readings", dropped, tool))
		}
		if n > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("%d readings of used memory as a percent of the device read as bytes of the device's total (from %s)", n, src))
		}
		out[i] = &c
	}
	return out
}

// minPairPercent is the smallest share pairedTotals divides a byte count
// by: MLflow rounds its percent to 0.1, so a share of 1% gives the total
// within 5%, and below that the rounding alone makes it unreliable. The
// largest share of a GPU is the one used, precise to 0.1% at 50%.
const minPairPercent = 1.0

// pairKey is one tool's GPU.
type pairKey struct {
	tool string
	gpu  int
}

// pairedTotals returns the device totals that share readings give with
// byte readings of the same GPU at the same time in other logs of the
// same tool (MLflow logs the same used memory as megabytes and as a
// percent of the device, in two files, at the same times): used × 100 /
// percent, from the pair of the largest percent. paired holds, by tool's
// GPU, the times (UnixNano) of the share readings that have a byte
// reading.
func pairedTotals(logs []*GPULog) (totals map[pairKey]int64, paired map[pairKey]map[int64]bool) {
	type at struct {
		pairKey
		t int64
	}
	used := map[at]int64{}
	for _, l := range logs {
		tool := l.Format.UsedTool()
		for _, s := range l.Samples {
			if s.MemoryUsed >= 0 && !s.Time.IsZero() {
				used[at{pairKey{tool, s.GPU}, s.Time.UnixNano()}] = s.MemoryUsed
			}
		}
	}
	if len(used) == 0 {
		return nil, nil
	}
	totals, paired = map[pairKey]int64{}, map[pairKey]map[int64]bool{}
	best := map[pairKey]float64{}
	for _, l := range logs {
		tool := l.Format.UsedTool()
		for _, s := range l.Samples {
			if !s.HasUsedPercent || s.MemoryUsed >= 0 || s.Time.IsZero() {
				continue
			}
			k := at{pairKey{tool, s.GPU}, s.Time.UnixNano()}
			u, ok := used[k]
			if !ok {
				continue
			}
			if paired[k.pairKey] == nil {
				paired[k.pairKey] = map[int64]bool{}
			}
			paired[k.pairKey][k.t] = true
			if p := s.MemoryUsedPercent; p >= minPairPercent && p > best[k.pairKey] {
				best[k.pairKey] = p
				totals[k.pairKey] = int64(float64(u) * 100 / p)
			}
		}
	}
	return totals, paired
}
