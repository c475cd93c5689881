package words

import (
	"cmp"
	"strconv"
	"strings"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/internal/units"
)

// Device names a device: "rank 3 · cuda:0", or "cuda:0" in a run without
// ranks, "cuda:0 · MIG GI 7" for a MIG device (analyze.DeviceKey.Name).
func Device(k analyze.DeviceKey) string { return k.Name() }

// UsedShare is a GPU's peak used memory as a share of the device, for a
// GPU whose logs give only that share: "74.8% of the device".
func UsedShare(s *analyze.ShareSeries) string {
	return units.Percent(s.MaxPercent/100) + " of the device"
}

// Reading names a memory_stats reading: "step 1,200", its time, or
// "reading 12" (its position, from 0).
func Reading(r analyze.Reading) string {
	switch {
	case r.Step != input.NoStep:
		return "step " + units.Count(r.Step)
	case !r.Time.IsZero():
		return units.Timestamp(r.Time)
	}
	return "reading " + strconv.Itoa(r.Index)
}

// Process names a process as the logs give it: "python (pid 4242)",
// "(no name) (pid 7)", "python (pid not logged)", and "(no name or pid
// logged)" when the log gives neither.
func Process(p *analyze.ProcessSeries) string {
	if p.Name == "" && p.PID == 0 {
		return "(no name or pid logged)"
	}
	name := cmp.Or(p.Name, "(no name)")
	if p.PID == 0 {
		return name + " (pid not logged)"
	}
	return name + " (pid " + strconv.Itoa(p.PID) + ")"
}

// OtherGPU says where a process of no device runs: "unknown GPU", "GPU 3
// (no series)", or a GPU the logs name only by UUID or bus id
// (ShortGPUID).
func OtherGPU(p *analyze.ProcessSeries) string {
	if p.GPU < 0 && p.GPUID != "" {
		return ShortGPUID(p.GPUID)
	}
	if p.GPU < 0 {
		return "unknown GPU"
	}
	return "GPU " + strconv.Itoa(p.GPU) + " (no series)"
}

// Metric names a trend's metric for a reader ("allocated", "nvidia-smi
// used"); summary.json and the workbook keep the field names.
func Metric(m string) string {
	switch m {
	case analyze.MetricAllocated:
		return "allocated"
	case analyze.MetricReserved:
		return "reserved"
	case analyze.MetricGPUUsed:
		return "nvidia-smi used"
	case analyze.MetricNonPyTorch:
		return "outside the allocator (used − reserved)"
	case analyze.MetricInactive:
		return "cached free"
	case analyze.MetricPeakAllocated:
		return "peak allocated"
	}
	return strings.ReplaceAll(strings.TrimSuffix(m, "_bytes"), "_", " ")
}

// TrendName names a trend: its metric, marked when it was fitted on
// memory_stats readings ("allocated (memory_stats)"); "" for none.
func TrendName(t *analyze.Trend) string {
	if t == nil {
		return ""
	}
	if t.Source == analyze.SourceMemoryStats {
		return Metric(t.Metric) + " (memory_stats)"
	}
	return TrendMetric(t)
}

// TrendMetric names a trend's metric for a reader as Metric does, with
// the GPU logs' used memory named by the tool that read it ("rocm-smi
// used", "W&B used") when that is not nvidia-smi (Trend.Source).
func TrendMetric(t *analyze.Trend) string {
	if t.Metric == analyze.MetricGPUUsed && t.Source != "" && t.Source != analyze.SourceMemoryStats {
		return UsedBy(t.Source)
	}
	return Metric(t.Metric)
}

// UsedBy names the used memory a tool reports: "nvidia-smi used" for ""
// and gpulog.ToolNVIDIASMI.
func UsedBy(tool string) string {
	if tool == "" {
		tool = gpulog.ToolNVIDIASMI
	}
	return tool + " used"
}

// DeviceUsed names the used memory of a device's GPU log readings
// ("nvidia-smi used", "rocm-smi used").
func DeviceUsed(d *analyze.Device) string {
	if d == nil {
		return UsedBy("")
	}
	return UsedBy(d.GPU.NamedTool())
}

// TrendSource names what a trend was fitted on: "snapshots", "GPU logs"
// (or the tool of other GPU logs than nvidia-smi's, "rocm-smi"),
// "snapshots + GPU logs", "memory_stats".
func TrendSource(t *analyze.Trend) string {
	switch {
	case t.Source != "":
		return t.Source
	case t.Metric == analyze.MetricGPUUsed:
		return "GPU logs"
	case t.Metric == analyze.MetricNonPyTorch:
		return "snapshots + GPU logs"
	}
	return "snapshots"
}

// orders say in plain words how snapshots were put in order; any other
// rule reads as its own name.
var orders = map[analyze.OrderRule]string{
	analyze.OrderTraceTime: "the time of each snapshot's last trace event",
	analyze.OrderStep:      "the step number in each file name",
	analyze.OrderEpochStep: "the epoch, then the step number, in each file name",
	analyze.OrderModTime:   "file modification time",
}

// OrderRule says in plain words how snapshots were put in order.
func OrderRule(o analyze.OrderRule) string { return cmp.Or(orders[o], string(o)) }

// Order says in plain words how a device's series was put in order.
func Order(d *analyze.Device) string {
	switch {
	case len(d.Points) > 0:
		return OrderRule(d.Order)
	case d.MemoryStats != nil:
		return "memory_stats readings by " + d.MemoryStats.Order
	}
	return "GPU log time"
}

// axes are the x axis titles of a device by its axis; any other axis
// counts steps.
var axes = map[analyze.Axis]string{
	analyze.AxisHours:    "hours since first snapshot",
	analyze.AxisReading:  "reading (position in the log)",
	analyze.AxisSnapshot: "snapshot (position in order)",
}

// Axis is the title of an x axis: "step", "hours since first snapshot".
func Axis(a analyze.Axis) string { return cmp.Or(axes[a], "step") }

// DeviceAxis is the title of a device's x axis: Axis, but hours count
// from the first reading on a device without snapshots.
func DeviceAxis(d *analyze.Device) string {
	if len(d.Points) == 0 && d.Axis == analyze.AxisHours {
		return "hours since first reading"
	}
	return Axis(d.Axis)
}

// CapacitySource says where a device's capacity came from: "GPU log
// memory.total", the user's option ("--capacity 80GB = 80×10^9 bytes,
// overriding the GPU log's memory.total 79.6 GiB"), or a capture
// manifest ("the GPU's total memory in the capture manifest
// rank0/gpureport-capture.json"), a training log's OOM message ("the
// total capacity in the out-of-memory message at train.log line 24"), or
// a framework's start-up line ("the device capacity printed at train.log
// line 3 (torchtitan)").
func CapacitySource(d *analyze.Device) string {
	s := d.CapacitySource
	switch {
	case s.Manifest != "":
		return "the GPU's total memory in the capture manifest " + s.Manifest
	case s.OOMMessage != "":
		return "the total capacity in the out-of-memory message at " + s.OOMMessage
	case s.Trace != "":
		return "the device's totalGlobalMem in the profiler trace " + s.Trace
	case s.Framework != "":
		return "the device capacity printed at " + s.Framework
	case s.Option == "":
		return "GPU log memory.total"
	}
	if s.Overrides > 0 {
		return s.Option + ", overriding the GPU log's memory.total " + units.Bytes(s.Overrides)
	}
	return s.Option
}

// Capacity is a device's capacity for a key-figures cell: "22.5 GiB",
// or with its source when the user set it ("74.5 GiB (--capacity 80GB =
// 80×10^9 bytes)"), since a GB the user typed is not the GiB printed;
// "unknown" when unknown.
func Capacity(d *analyze.Device) string {
	switch {
	case d.Capacity <= 0:
		return "unknown"
	case d.CapacitySource.Option != "" || d.CapacitySource.Manifest != "":
		return units.Bytes(d.Capacity) + " (" + CapacitySource(d) + ")"
	}
	return units.Bytes(d.Capacity)
}

// AxisNote says what a device's timeline draws beside its snapshots, or
// cannot draw: memory_stats readings, used memory known only as a
// percent of the device, GPU readings without usable times; "" when
// nothing needs saying.
func AxisNote(d *analyze.Device) string {
	var parts []string
	if d.MemoryStats != nil {
		if len(d.Points) == 0 {
			parts = append(parts, "No snapshots: allocated and reserved memory come from torch.cuda.memory_stats() readings.")
		} else {
			parts = append(parts, "Lighter lines: torch.cuda.memory_stats() readings, drawn beside the snapshots (the snapshots decide the verdict).")
		}
	}
	if s := d.UsedShare; s != nil {
		parts = append(parts, "Used memory as a percent of the device, as "+strings.Join(s.Sources, ", ")+" gives it: no log gives the device's total, so it is not drawn in bytes (pass --capacity to read it as bytes).")
	}
	if unplaced(d) {
		parts = append(parts, "nvidia-smi memory.used is not drawn: the snapshots carry no usable times (trace times, times in the file names, or file write times) to place its readings on the "+DeviceAxis(d)+" axis; its trend above is over time.")
	}
	return strings.Join(parts, " ")
}

// unplaced reports whether d has GPU readings of which none could be
// placed on its chart's x axis.
func unplaced(d *analyze.Device) bool {
	if d.GPU == nil || len(d.GPU.Used) == 0 {
		return false
	}
	for _, x := range d.GPU.X {
		if finite(x) {
			return false
		}
	}
	return true
}

// ShortGPUID names a GPU known only by its UUID or bus id: "GPU 5a6b7c8d"
// for nvidia-smi's "GPU-5a6b7c8d-1111-...", the UUID's first group (8 hex
// digits, what tells a node's GPUs apart in practice), or "GPU at bus
// 00000000:01:00.0".
func ShortGPUID(id string) string {
	if strings.Contains(id, ":") {
		return "GPU at bus " + id
	}
	u := strings.TrimPrefix(strings.TrimPrefix(id, "GPU-"), "MIG-")
	if first, _, ok := strings.Cut(u, "-"); ok && first != "" {
		u = first
	}
	return "GPU " + u
}

// readingKinds name the kinds of readings a log holds
// (analyze.LogInfo.Kinds), after their count: "12 GPU readings".
var readingKinds = map[string]string{
	analyze.ReadingGPU:         "GPU readings",
	analyze.ReadingProcess:     "process rows",
	analyze.ReadingMemoryStats: "memory_stats readings",
	analyze.ReadingMIG:         "MIG readings",
}

// ReadingKind names a kind of reading of a log after its count, the kind
// itself when it has no name.
func ReadingKind(kind string) string { return cmp.Or(readingKinds[kind], kind) }
