package words

import (
	"fmt"
	"strconv"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// traceWentOn says why a snapshot's OOM is handled (analyze's wentOn).
const traceWentOn = "its trace shows the training loop's steps again after it, as only a process that caught the OOM does"

// Explanation says, in a few sentences, why an OOM's request failed: the
// allocator's state at the OOM and its cause (docs/design.md's order: limit,
// leak, fragmentation, capacity), with the settings in force.
func Explanation(o *analyze.OOM) string {
	if o.Message != nil {
		return messageExplanation(o)
	}
	where := Device(o.Key())
	when := ""
	if !o.Time.IsZero() {
		when = " at " + o.Time.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	site := ""
	if o.Site != "" {
		site = fmt.Sprintf(", allocated at %s in %s,", o.Site, o.Function)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Out of memory on %s%s: a request for %s (%d bytes)%s failed with %s free on the device. ",
		where, when, units.Bytes(o.Requested), o.Requested, site, units.Bytes(o.DeviceFree))
	state := "At that moment"
	if o.Reconstructed {
		state = "At that moment (rebuilt from the trace events after it)"
	}
	fmt.Fprintf(&b, "%s PyTorch held %s reserved, %s of it in live tensors; %s was cached but free, the largest free block %s. ",
		state, units.Bytes(o.Reserved), units.Bytes(o.Allocated), units.Bytes(o.CachedFree), units.Bytes(o.LargestFree))
	conf := settings(o)
	switch o.Cause {
	case analyze.CauseLimit:
		fmt.Fprintf(&b, "%s Allocator settings in force: %s.", limitText(o), conf)
	case analyze.CauseLeak:
		fmt.Fprintf(&b, "This is a leak OOM: the leak at %s had added %s of live tensors by then, and the request lacked %s of device memory (%s requested, %s free), so without the leaked bytes the request would have fit.",
			o.LeakSite, units.Bytes(o.LeakedBytes), units.Bytes(o.Missing), units.Bytes(o.Requested), units.Bytes(o.DeviceFree))
		if o.Earlier > 0 {
			fmt.Fprintf(&b, " At the leak's pace of %s it took those %s over its last %s: about %s earlier, the OOM would not have happened.",
				units.Rate(o.LeakRate, o.LeakPer), units.Bytes(o.Missing), units.AxisAmount(o.Earlier, o.LeakPer), units.AxisAmount(o.Earlier, o.LeakPer))
		}
		if o.CachedFree > 0 {
			fmt.Fprintf(&b, " The %s cached but free at the OOM (largest block %s) is not the cause: the leak must be fixed first.", units.Bytes(o.CachedFree), units.Bytes(o.LargestFree))
		}
		fmt.Fprintf(&b, " Allocator settings in force: %s.", conf)
	case analyze.CauseFragmentation:
		fmt.Fprintf(&b, "This is a fragmentation OOM: %s free on the device plus %s cached but free is %s, at least the %s requested, but no free block was large enough (largest cached block %s); the free memory is split into holes between live blocks. Allocator settings in force: %s.",
			units.Bytes(o.DeviceFree), units.Bytes(o.CachedFree), units.Bytes(o.DeviceFree+o.CachedFree), units.Bytes(o.Requested), units.Bytes(o.LargestFree), conf)
	case analyze.CauseOthers:
		fmt.Fprintf(&b, "%s Allocator settings in force: %s.", othersText(o), conf)
	case analyze.CauseCapacity:
		capText := fmt.Sprintf("about %s, reserved + free at the OOM", units.Bytes(o.EstimatedCapacity))
		if o.Capacity > 0 {
			capText = units.Bytes(o.Capacity)
		}
		if o.Outside > 0 {
			fmt.Fprintf(&b, "This is a capacity OOM as this process found the device: the request lacked %s of device memory (%s requested, %s free), more than the %s cached but free, so no allocator setting can make room. %s",
				units.Bytes(o.Missing), units.Bytes(o.Requested), units.Bytes(o.DeviceFree), units.Bytes(o.CachedFree), unaccountedText(o))
		} else {
			fmt.Fprintf(&b, "This is a capacity OOM: live tensors filled the device (%s of %s); the request lacked %s of device memory (%s requested, %s free), more than the %s cached but free, so no allocator setting can make room.",
				units.Bytes(o.Allocated), capText, units.Bytes(o.Missing), units.Bytes(o.Requested), units.Bytes(o.DeviceFree), units.Bytes(o.CachedFree))
		}
		if o.LeakedBytes > 0 {
			fmt.Fprintf(&b, " The leak at %s had added %s by then, less than the %s of device memory the request lacked: without it live memory (%s) plus the request (%s) still exceeds what the device offers.",
				o.LeakSite, units.Bytes(o.LeakedBytes), units.Bytes(o.Missing), units.Bytes(o.Allocated-o.LeakedBytes), units.Bytes(o.Requested))
		}
		if r := CapacityRoles(o); r != "" {
			b.WriteString(" " + r)
		}
		fmt.Fprintf(&b, " Allocator settings in force: %s.", conf)
		switch {
		case o.FreedAfter > 0 && o.Handled:
			// The trace went on past the failed step: its frees are
			// the later steps' too.
			fmt.Fprintf(&b, " %s was freed in the trace after the OOM, as the failed step unwound and the job went on.", units.Bytes(o.FreedAfter))
		case o.FreedAfter > 0:
			fmt.Fprintf(&b, " %s was freed right after the OOM as the failed step unwound: mostly transient tensors (activations) of that step.", units.Bytes(o.FreedAfter))
		}
	default:
		// A cause without sentences of its own yet says its name.
		fmt.Fprintf(&b, "Its cause: %s. Allocator settings in force: %s.", o.Cause, conf)
	}
	if o.Handled {
		b.WriteString(" The job caught it and went on: " + traceWentOn + ".")
	}
	return b.String()
}

// settings names the allocator settings in force at an OOM.
func settings(o *analyze.OOM) string {
	set := o.Settings
	switch {
	case set.Present:
		split := "unset"
		if set.MaxSplitSize >= 0 {
			split = units.Bytes(set.MaxSplitSize)
		}
		return fmt.Sprintf("PYTORCH_CUDA_ALLOC_CONF=%q (expandable_segments %v, max_split_size %s, garbage_collection_threshold %g)",
			set.Conf, set.ExpandableSegments, split, set.GCThreshold)
	case o.Expandable:
		return "not recorded, but the segments are expandable, so expandable_segments:True"
	}
	return "not recorded in the snapshot (PyTorch records allocator_settings from 2.3 on)"
}

// Settings lists the allocator settings an OOM's snapshot records:
// "PYTORCH_CUDA_ALLOC_CONF=...; key=value, ..."; "" when it records none.
func Settings(o *analyze.OOM) string {
	set := o.Settings
	if !set.Present {
		return ""
	}
	kv := make([]string, 0, len(set.Raw))
	for _, r := range set.Raw {
		kv = append(kv, r.Key+"="+r.Value)
	}
	s := strings.Join(kv, ", ")
	if set.Conf != "" {
		s = "PYTORCH_CUDA_ALLOC_CONF=" + set.Conf + "; " + s
	}
	return s
}

// messageExplanation explains an OOM a training log's message reports,
// with the numbers the message gives.
func messageExplanation(o *analyze.OOM) string {
	m := o.Message
	where := fmt.Sprintf("line %d of %s", m.Line, o.Path)
	if m.Count > 1 {
		where += fmt.Sprintf(" (written %d times)", m.Count)
	}
	if len(o.RepeatedIn) > 0 {
		where += "; the same message is also in " + strings.Join(o.RepeatedIn, ", ") + ", counted once"
	}
	if o.Handled {
		where += "; the job caught it and went on, as the log's recovery line says"
	}
	dev := Device(o.Key())
	switch {
	case o.Type == analyze.MPS:
		// Apple's MPS backend has one device, which no message numbers.
	case m.GPU < 0 && o.Device == 0:
		where += "; the message names no device, so it is shown on device 0"
	case m.GPU < 0:
		where += "; the message names no device, and the run has one: " + dev
	case m.GPU != o.Device:
		where += fmt.Sprintf("; its GPU %d is the run's %s", m.GPU, dev)
	}
	if m.Kind == analyze.MessageMPS && o.Cause != analyze.CauseUnknown {
		return mpsExplanation(o) + " (" + where + ")."
	}
	if m.Kind == analyze.MessageVLLM {
		return vllmExplanation(o) + " (" + where + ")."
	}
	if m.PinnedHost {
		return "page-locked (pinned) host memory ran out, not " + dev + "'s memory: the DataLoader's pin-memory thread could not pin a batch (cudaHostAlloc failed), says " + where +
			"; lower the host memory pinned (fewer workers or a smaller prefetch_factor, smaller batches, pin_memory=False) or check the host's free and locked memory (ulimit -l, a container's memory limit)."
	}
	if m.Kind == analyze.MessageSGLang {
		return "the SGLang server did not start: no memory was left for its KV-cache pool after the weights within --mem-fraction-static, a capacity OOM (" + where + ")."
	}
	if m.Kind == analyze.MessageGGML && o.Cause == analyze.CauseCapacity {
		return fmt.Sprintf("llama.cpp's ggml CUDA backend asked cudaMalloc for %s, more than the device's %s in all: the request alone exceeds the device, a capacity OOM (%s).",
			units.Bytes(o.Requested), units.Bytes(o.Capacity), where)
	}
	if m.Kind != analyze.MessageMPS && o.Cause == analyze.CauseCapacity && o.DeviceFree < 0 && o.Capacity > 0 && o.Requested > o.Capacity {
		return fmt.Sprintf("%s was requested, more than the device's %s in all: the request alone exceeds the device, a capacity OOM (%s).",
			units.Bytes(o.Requested), units.Bytes(o.Capacity), where)
	}
	if o.Cause == analyze.CauseUnknown {
		what := "the job ran out of device memory"
		switch m.Kind {
		case analyze.MessageNCCL:
			what = "NCCL could not allocate device memory"
		case analyze.MessageCUDA:
			what = "a CUDA call ran out of device memory (outside PyTorch's caching allocator, e.g. a kernel launch or a library workspace)"
		case analyze.MessageMallocAsync:
			what = "the cudaMallocAsync allocator ran out of device memory"
		case analyze.MessageGGML:
			what = "llama.cpp's ggml CUDA backend could not allocate a buffer (cudaMalloc failed: out of memory)"
		}
		if o.Requested >= 0 {
			what += " (" + units.Bytes(o.Requested) + " requested)"
		}
		gives := "the message gives no free or reserved memory"
		switch {
		case o.Requested == 0:
			gives = "the message says 0 bytes were requested, which is not the size that failed (allocation paths that do not pass the failed size print 0)"
		case o.DeviceFree < 0 && (m.Total >= 0 || o.CachedFree >= 0):
			gives = "the message gives no free device memory"
		case m.Kind == analyze.MessageMallocAsync && o.DeviceFree >= 0:
			gives = "its message gives no reserved memory (the CUDA memory pool keeps its own cache), which tells fragmentation from a full device"
		case o.DeviceFree >= 0 && o.CachedFree < 0:
			gives = "the message is cut short before its reserved memory, which tells fragmentation from a full device"
		}
		s := what + ", says " + where + "; " + gives + ", so its cause cannot be classified."
		if o.Type == analyze.CUDA && m.Kind != analyze.MessageGGML {
			// Snapshots, which gpureport reads, are CUDA's (and
			// PyTorch's: llama.cpp records none).
			s += " Record snapshots (torch.cuda.memory._record_memory_history) to explain the next one."
		}
		return s
	}
	gpu := "the GPU"
	switch {
	case o.Type != analyze.CUDA:
		// "NPU 0" and XPU's "GPU 0" are the device as PyTorch names it.
		gpu = units.TypedDevice(o.Type.String(), -1, max(m.GPU, 0))
	case m.GPU >= 0:
		gpu = "GPU " + strconv.Itoa(m.GPU)
	}
	parts := []string{"PyTorch asked for " + units.Bytes(o.Requested) + " on " + gpu}
	if m.Total > 0 {
		parts[0] += " (" + units.Bytes(m.Total) + " in all)"
	}
	state := units.Bytes(o.DeviceFree) + " was free on the device"
	if o.CachedFree >= 0 {
		state += fmt.Sprintf(" and %s was reserved by PyTorch but unallocated (%s together)", units.Bytes(o.CachedFree), units.Bytes(o.DeviceFree+o.CachedFree))
	}
	parts = append(parts, state)
	if o.Allocated >= 0 {
		live := "live tensors held " + units.Bytes(o.Allocated)
		if m.ProcessInUse >= 0 {
			live += " of the " + units.Bytes(m.ProcessInUse) + " the process had in use"
			if m.ListedSelfPID > 0 {
				// PyTorch did not recognise its own pid (a container).
				live += fmt.Sprintf(" (the message lists it as Process %d: with its reserved memory, that entry cannot be another process)", m.ListedSelfPID)
			}
		}
		parts = append(parts, live)
	}
	if m.OtherProcesses > 0 {
		parts = append(parts, "other processes had "+units.Bytes(m.OtherProcesses)+" in use")
	}
	switch {
	case o.Cause == analyze.CauseLimit, o.Cause == analyze.CauseOthers, o.Cause == analyze.CauseUnknown:
		// The limit's and the outside memory's sentences follow the
		// message's figures.
	case m.Fits:
		parts = append(parts, "the request lacked "+units.Bytes(o.Missing)+" of device memory, and the cached free memory would have covered it, but not in one piece: fragmentation")
	case o.Missing == 0:
		parts = append(parts, "the free memory equals the request as the message rounds them, so the device was full to within that rounding: the job needs more memory than the device has")
	default:
		parts = append(parts, "the request lacked "+units.Bytes(o.Missing)+" of device memory, more than all cached free memory: the job needs more memory than the device has")
	}
	s := strings.Join(parts, "; ") + " (" + where + ")."
	switch o.Cause {
	case analyze.CauseLimit:
		s += " " + limitText(o)
	case analyze.CauseOthers:
		s += " " + othersText(o)
	case analyze.CauseCapacity:
		if o.Outside > 0 {
			s += " " + unaccountedText(o)
		}
	}
	if o.Cause == analyze.CauseLeak {
		s += fmt.Sprintf(" %s had added %s of live tensors %s, more than the %s the request lacked (%s requested, %s free): without the leak the request would have fit, so this is a leak OOM; the cached free memory is not the cause.",
			capitalize(leakName(o)), units.Bytes(o.LeakedBytes), leakBy(o), units.Bytes(o.Missing), units.Bytes(o.Requested), units.Bytes(o.DeviceFree))
		if o.Earlier > 0 {
			s += " About " + units.AxisAmount(o.Earlier, o.LeakPer) + " earlier, the OOM would not have happened."
		}
	}
	return s
}

// limitText says why an OOM is a limit OOM, and what to check: the
// device had at least what the allocator asked for free, so something
// capped the process (the cap the message printed, when it did) or took
// the memory.
func limitText(o *analyze.OOM) string {
	s := fmt.Sprintf("This is a limit OOM: the device reported %s free, at least the %s the allocator asked for, yet the allocation failed. Neither cached memory nor live tensors explain it: something capped the process or took the memory",
		units.Bytes(o.DeviceFree), units.Bytes(o.Asked))
	if m := o.Said(); m != nil && m.Allowed >= 0 {
		s += " (" + saidBy(o) + " says " + units.Bytes(m.Allowed) + " allowed: set_per_process_memory_fraction caps the process there)"
	}
	return s + ". Check for a cap on the process (torch.cuda.set_per_process_memory_fraction, a MIG instance, a CUDA MPS client limit), a Windows WDDM driver, and other processes on the GPU."
}

// saidBy names the message that says what an OOM's Said holds: "the
// message" of a training log's OOM, the log's line for a snapshot's OOM
// that a log's message also reports.
func saidBy(o *analyze.OOM) string {
	if o.Message == nil && o.Logged != nil {
		return fmt.Sprintf("the OOM message at line %d of %s", o.Logged.Line, o.LoggedIn)
	}
	return "the message"
}

// outsideFigures are the figures of an OOM that memory outside the
// process explains (analyze's outsideMemory): the device's total, this
// process's memory and what that figure is.
func outsideFigures(o *analyze.OOM) (total, own int64, ownWhat string) {
	total = o.Capacity
	m := o.Said()
	if m != nil && m.Total > 0 {
		total = m.Total
	}
	if m != nil && m.ProcessInUse >= 0 {
		return total, m.ProcessInUse, "in use (non-PyTorch memory included)"
	}
	return total, o.Reserved, "reserved by PyTorch (with its CUDA context and other non-PyTorch memory, up to about 2 GiB more)"
}

// outsideSentence says how much memory was outside the process at an OOM
// that memory outside the process explains, and why that is not a
// capacity OOM.
func outsideSentence(o *analyze.OOM) string {
	total, own, _ := outsideFigures(o)
	return fmt.Sprintf("%s; that is at least the %s the request lacked, so without it the %s request would have fit. This process's memory plus the request (%s) is well below the device's %s, so it is not a capacity OOM",
		outsideFactsText(o), units.Bytes(o.Missing), units.Bytes(o.Requested), units.Bytes(own+o.Requested), units.Bytes(total))
}

// outsideFactsText says how much of the device was in use outside the
// process at OOM o, and what the process had.
func outsideFactsText(o *analyze.OOM) string {
	total, own, ownWhat := outsideFigures(o)
	return fmt.Sprintf("the device's %s less the %s free leaves %s in use outside this process, which had %s %s",
		units.Bytes(total), units.Bytes(o.DeviceFree), units.Bytes(o.Outside), units.Bytes(own), ownWhat)
}

// othersText says why an OOM is an others OOM: the processes the message
// lists held the memory the request lacked.
func othersText(o *analyze.OOM) string {
	m := o.Said()
	s := "This is an OOM caused by other processes: " + outsideSentence(o) + ". "
	if m.OtherCount > 1 {
		s += fmt.Sprintf("%s lists %d other processes with %s in use together, the largest %s", capitalize(saidBy(o)), m.OtherCount, units.Bytes(m.OtherProcesses), largestOther(m))
	} else {
		s += fmt.Sprintf("%s lists one other process: %s", capitalize(saidBy(o)), largestOther(m))
	}
	return s + "."
}

// largestOther names the largest other process an OOM message lists.
func largestOther(m *analyze.OOMMessage) string {
	if m.LargestOtherPID > 0 {
		return fmt.Sprintf("Process %d with %s in use", m.LargestOtherPID, units.Bytes(m.LargestOther))
	}
	return "one with " + units.Bytes(m.LargestOther) + " in use"
}

// unaccountedText says why an OOM that memory outside the process
// explains has no known cause: no input says whose that memory was.
func unaccountedText(o *analyze.OOM) string {
	s := "Yet not all of the device was this process's: " + outsideFactsText(o) + fmt.Sprintf(", at least the %s the request lacked. No input says whose it was", units.Bytes(o.Missing))
	switch m := o.Said(); {
	case m == nil:
		s += " (no training log's OOM message lists the processes on the GPU)"
	case m.OtherProcesses > 0:
		s += fmt.Sprintf(" (%s lists other processes with only %s)", saidBy(o), units.Bytes(m.OtherProcesses))
	default:
		s += fmt.Sprintf(" (%s lists no other process)", saidBy(o))
	}
	s += ": processes this one cannot see (another container's, CUDA MPS clients behind their server), a cap on the process (a CUDA MPS client limit, a MIG instance)"
	if m := o.Said(); m == nil || m.ProcessInUse < 0 || m.ProcessInUse < max(o.Reserved, m.Reserved) {
		// No "this process has" figure bounds the process's memory
		// outside PyTorch's allocator.
		s += ", this process's own memory outside PyTorch's allocator (another library's: CuPy, TensorRT, NCCL, a second framework)"
	}
	return s + ", or figures of different sources that disagree may hold the rest."
}

// mpsExplanation explains an MPS message's OOM, a capacity OOM against
// the high watermark, or, with the watermark off, of unified memory. The
// watermark ("max allowed") is PYTORCH_MPS_HIGH_WATERMARK_RATIO times
// Metal's recommended working set (recommendedMaxWorkingSetSize, the
// memory the GPU may use without slowing the system), 1.7 by default: by
// default above what the device should give, which makes the OOM
// capacity; a ratio set below 1 makes it a cap on the process short of
// that, what docs/design.md calls a limit, which the message cannot show
// (it prints no free memory), so the sentence says what to check.
func mpsExplanation(o *analyze.OOM) string {
	m := o.Message
	s := fmt.Sprintf("MPS asked for %s with %s allocated by its allocator and %s by other allocations",
		units.Bytes(o.Requested), units.Bytes(o.Allocated), units.Bytes(max(m.OtherAllocations, 0)))
	if m.Allowed > 0 {
		return s + fmt.Sprintf("; the high watermark allows %s, so the request lacked %s: a capacity OOM against the watermark, "+
			"PYTORCH_MPS_HIGH_WATERMARK_RATIO (1.7 by default) times the memory Metal recommends for the GPU; "+
			"a ratio set below 1 would make it a cap short of that, a limit", units.Bytes(m.Allowed), units.Bytes(o.Missing))
	}
	return s + "; with the watermark off, Metal could not map the buffer: the device's unified memory is full, a capacity OOM"
}

// vllmExplanation explains vLLM's startup refusal for lack of KV cache
// memory, with the figures its message gives.
func vllmExplanation(o *analyze.OOM) string {
	m := o.Message
	switch {
	case o.Requested >= 0 && m.Allowed >= 0:
		return fmt.Sprintf("the vLLM engine did not start: one request at the maximum model length needs %s of KV cache, and only %s was left for it after the weights and activations within gpu_memory_utilization, %s short: a capacity OOM",
			units.Bytes(o.Requested), units.Bytes(m.Allowed), units.Bytes(o.Missing))
	case m.Allowed == 0:
		return "the vLLM engine did not start: no memory was left for the KV cache after the weights and activations within gpu_memory_utilization, a capacity OOM"
	}
	return "the vLLM engine did not start: its KV cache cannot hold one request at the maximum model length in the memory left after the weights and activations, a capacity OOM"
}

// mpsInUse is the memory an MPS process had in use at its OOM: its MPS
// allocations and its other allocations.
func mpsInUse(o *analyze.OOM) int64 {
	return o.Allocated + max(o.Message.OtherAllocations, 0)
}

// OOMReason is the verdict's line for an OOM, leaving out figures the
// OOM does not know (a training log's message has no largest free
// block), and for a leak OOM what the leak had added.
func OOMReason(o *analyze.OOM) string {
	s := fmt.Sprintf("%s OOM on %s", o.Cause, Device(o.Key()))
	var parts []string
	if o.Requested >= 0 {
		parts = append(parts, units.Bytes(o.Requested)+" requested")
	}
	if o.DeviceFree >= 0 {
		parts = append(parts, units.Bytes(o.DeviceFree)+" free on the device")
	}
	if o.LargestFree >= 0 {
		parts = append(parts, "largest cached free block "+units.Bytes(o.LargestFree))
	} else if o.CachedFree >= 0 {
		parts = append(parts, units.Bytes(o.CachedFree)+" cached free")
	}
	if len(parts) == 0 {
		s += " (" + o.Path + ")"
	} else {
		s += ": " + strings.Join(parts, ", ")
	}
	switch m := o.Said(); {
	case o.Cause == analyze.CauseOthers:
		s += fmt.Sprintf("; other processes had %s in use (the largest %s), more than the %s the request lacked", units.Bytes(m.OtherProcesses), largestOther(m), units.Bytes(o.Missing))
	case o.Cause == analyze.CauseCapacity && o.Outside > 0:
		s += fmt.Sprintf("; %s in use outside this process, more than the %s the request lacked, and no input says whose", units.Bytes(o.Outside), units.Bytes(o.Missing))
	}
	if o.Cause == analyze.CauseLeak {
		s += fmt.Sprintf("; %s had added %s, more than the %s the request lacked", leakName(o), units.Bytes(o.LeakedBytes), units.Bytes(o.Missing))
		if o.Earlier > 0 {
			s += ": about " + units.AxisAmount(o.Earlier, o.LeakPer) + " earlier the request would have fit"
		}
	}
	return s
}

// expandableSetting is the setting that turns expandable segments on for
// the allocator of device type t: torch_npu reads PYTORCH_NPU_ALLOC_CONF;
// XPU's allocator has them only in recent releases (added late 2025),
// through the shared PYTORCH_ALLOC_CONF; CUDA's (ROCm's too) through
// PYTORCH_CUDA_ALLOC_CONF.
func expandableSetting(t analyze.DeviceType) string {
	switch t {
	case "npu":
		return "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True"
	case "xpu":
		return "PYTORCH_ALLOC_CONF=expandable_segments:True"
	}
	return analyze.ExpandableSetting
}

// Recommendation words a change to try for an OOM: the setting, then the
// observation it rests on. An allocator setting is code, as the user
// types it; a change described in words (free the GPU, reduce live
// memory, a lever) is prose, its commands within it as written.
func Recommendation(o *analyze.OOM, r analyze.Recommendation) Sentence {
	switch r.Kind {
	case analyze.StepExpandable, analyze.StepMaxSplit, analyze.StepRemoveMaxSplit, analyze.StepGCThreshold:
		return sentence(code(setting(o, r)), ": "+because(o, r))
	}
	return sentence(setting(o, r) + ": " + because(o, r))
}

// setting is what a recommendation changes, as the user would type it (or
// the change to make in the code).
func setting(o *analyze.OOM, r analyze.Recommendation) string {
	switch r.Kind {
	case analyze.StepFixLeak:
		if o.LeakSite == "" {
			return "find and fix the leak (record snapshots with torch.cuda.memory._record_memory_history to name its site): release the tensors it keeps, e.g. store loss.item() or detach() instead of the tensor"
		}
		return "fix the leak at " + o.LeakSite + " (see the leak suspects): release the tensors it keeps, e.g. store loss.item() or detach() instead of the tensor"
	case analyze.StepExpandable:
		return expandableSetting(o.Type)
	case analyze.StepMaxSplit:
		return "PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:" + strconv.FormatInt(r.MaxSplitMiB, 10)
	case analyze.StepRemoveMaxSplit:
		return analyze.NoMaxSplitSetting
	case analyze.StepGCThreshold:
		return analyze.GCThresholdSetting
	case analyze.StepReduceLive:
		return "reduce live memory: a smaller batch or sequence length, activation checkpointing (torch.utils.checkpoint), lower precision (bf16/fp16), or sharding the model"
	case analyze.StepLever:
		return lever(o, r.Lever)
	case analyze.StepKeepExpandable:
		return "keep expandable_segments:True (already set); max_split_size_mb and garbage_collection_threshold will not help"
	case analyze.StepMPSWatermark:
		return "reduce live memory (a smaller batch, lower precision), or raise PYTORCH_MPS_HIGH_WATERMARK_RATIO (0.0 removes the cap and may make the system unstable)"
	case analyze.StepVLLMCache:
		return "raise gpu_memory_utilization, lower max_model_len, quantize the weights or the KV cache (kv_cache_dtype=fp8), or shard the model over more GPUs (tensor_parallel_size)"
	case analyze.StepSGLangPool:
		return "raise --mem-fraction-static if the GPU has room beyond it, quantize the weights (--quantization) or the KV cache (--kv-cache-dtype fp8_e5m2), or shard the model over more GPUs (--tp-size)"
	case analyze.StepLimitFraction:
		return "raise or remove torch.cuda.set_per_process_memory_fraction: the allocator refuses requests past the fraction without asking the driver"
	case analyze.StepLimitOthers:
		return "check the other processes on the GPU (nvidia-smi --query-compute-apps=pid,used_memory --format=csv): one may have allocated between the driver's report and the failed allocation"
	case analyze.StepLimitCap:
		return "check for a cap on the process: torch.cuda.get_per_process_memory_fraction(), a MIG instance (nvidia-smi -L lists MIG devices), or a CUDA MPS client limit (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)"
	case analyze.StepLimitWDDM:
		return "on Windows, WDDM drivers report free memory they do not give: leave headroom or use a TCC-mode GPU"
	case analyze.StepOthersFree:
		who, them := "the other processes on the GPU", "them"
		if m := o.Said(); m != nil && m.LargestOtherPID > 0 {
			who, them = "process "+strconv.Itoa(m.LargestOtherPID), "it"
			if m.OtherCount > 1 {
				who, them = who+" and the other processes on the GPU", "them"
			}
		}
		return "free the GPU of " + who + " (stop or move " + them + "; nvidia-smi --query-compute-apps=pid,used_memory --format=csv lists them), or run the job on a GPU of its own"
	case analyze.StepOutsideFind:
		return "find what holds the GPU's memory outside this process: nvidia-smi --query-compute-apps=pid,used_memory --format=csv on the host (it lists other containers' processes), a CUDA MPS server (nvidia-cuda-mps-control), or a MIG instance (nvidia-smi -L)"
	}
	return string(r.Kind)
}

// because is the observation a recommendation rests on.
func because(o *analyze.OOM, r analyze.Recommendation) string {
	switch r.Kind {
	case analyze.StepFixLeak:
		by := "by the OOM"
		if o.Message != nil {
			by = leakBy(o)
		}
		return fmt.Sprintf("it had added %s %s, more than the %s the request lacked", units.Bytes(o.LeakedBytes), by, units.Bytes(o.Missing))
	case analyze.StepExpandable:
		if o.Message != nil {
			return fmt.Sprintf("%s reserved but unallocated at the OOM, with %s free, covered the %s request", units.Bytes(max(o.CachedFree, 0)), units.Bytes(o.DeviceFree), units.Bytes(o.Requested))
		}
		return fmt.Sprintf("%s sat in holes while the request needed %s in one piece (largest hole %s); expandable segments grow one segment by mapping pages at its end, so a large request no longer needs a contiguous free block", units.Bytes(o.CachedFree), units.Bytes(o.Requested), units.Bytes(o.LargestFree))
	case analyze.StepMaxSplit:
		unset := "max_split_size is unset, so"
		if !o.Settings.Present {
			unset = "the snapshot does not record max_split_size; unset (the default),"
		}
		return fmt.Sprintf("%s large cached blocks are split for small requests and the pieces pin them; blocks above %d MiB would then stay whole for requests like this one (%s)", unset, r.MaxSplitMiB, units.Bytes(o.Requested))
	case analyze.StepRemoveMaxSplit:
		return fmt.Sprintf("expandable segments are on and max_split_size is %d MiB: the allocator does not hand free ranges of that size or more to smaller requests even inside expandable segments (PyTorch #193400), so %s cached free did not serve this one", r.MaxSplitMiB, units.Bytes(o.CachedFree))
	case analyze.StepGCThreshold:
		return fmt.Sprintf("%s of the %s reserved was cached but unused at the OOM; with a threshold the allocator returns unused cached blocks once usage passes 80%% of the device, before a request fails", units.Bytes(o.CachedFree), units.Bytes(o.Reserved))
	case analyze.StepReduceLive:
		if o.Message != nil && o.Message.Kind == analyze.MessageMPS {
			return fmt.Sprintf("%s in use when %s more was requested", units.Bytes(mpsInUse(o)), units.Bytes(o.Requested))
		}
		s := fmt.Sprintf("live tensors held %s when %s more was requested and only %s was free or cached", units.Bytes(o.Allocated), units.Bytes(o.Requested), units.Bytes(o.CachedFree+o.DeviceFree))
		if len(o.TopLive) > 0 {
			var tops []string
			for _, g := range o.TopLive[:min(3, len(o.TopLive))] {
				tops = append(tops, fmt.Sprintf("%s %s (%s)", g.Site, g.Function, units.Bytes(g.Bytes)))
			}
			s += "; the largest holders: " + strings.Join(tops, ", ")
		}
		return s
	case analyze.StepLever:
		return leverBecause(o, r.Lever)
	case analyze.StepKeepExpandable:
		return fmt.Sprintf("only %s was cached but free at the OOM, so the allocator had nothing to reorganise", units.Bytes(o.CachedFree))
	case analyze.StepMPSWatermark:
		return fmt.Sprintf("%s in use plus %s requested passes the %s allowed", units.Bytes(mpsInUse(o)), units.Bytes(o.Requested), units.Bytes(o.Message.Allowed))
	case analyze.StepVLLMCache:
		if o.Requested >= 0 && o.Message != nil && o.Message.Allowed >= 0 {
			return fmt.Sprintf("one request's KV cache needs %s and %s was available for it", units.Bytes(o.Requested), units.Bytes(o.Message.Allowed))
		}
		return "vLLM found too little memory for its KV cache at startup"
	case analyze.StepSGLangPool:
		return "SGLang found no memory left for its KV-cache pool at startup"
	case analyze.StepLimitFraction:
		return fmt.Sprintf("the process was allowed %s and held %s reserved when it asked for %s more", units.Bytes(o.Said().Allowed), units.Bytes(max(o.Reserved, 0)), units.Bytes(o.Requested))
	case analyze.StepLimitOthers:
		return "other processes had " + units.Bytes(o.Said().OtherProcesses) + " in use"
	case analyze.StepOthersFree:
		m := o.Said()
		return fmt.Sprintf("other processes had %s in use at the OOM (the largest %s), more than the %s the request lacked; this process's memory plus the request would have fit without them", units.Bytes(m.OtherProcesses), largestOther(m), units.Bytes(o.Missing))
	case analyze.StepOutsideFind:
		return fmt.Sprintf("%s of the device was in use outside this process at the OOM, more than the %s the request lacked, and no input says whose", units.Bytes(o.Outside), units.Bytes(o.Missing))
	case analyze.StepLimitCap, analyze.StepLimitWDDM:
		return fmt.Sprintf("the driver reported %s free against a request of %s", units.Bytes(o.DeviceFree), units.Bytes(o.Requested))
	}
	return ""
}

// leakName names the leak an OOM is blamed on: "the leak at SITE", or,
// for a leak no stack names (memory_stats readings, stackless blocks),
// "the leak (no stack names its site)".
func leakName(o *analyze.OOM) string {
	if o.LeakSite == "" {
		return "the leak (no stack names its site)"
	}
	return "the leak at " + o.LeakSite
}

// leakBy says up to when a training-log OOM's leaked bytes are counted:
// the last periodic snapshot for a leak of named sites, the device's last
// reading otherwise.
func leakBy(o *analyze.OOM) string {
	if o.LeakSite == "" {
		return "by the last reading"
	}
	return "by the last snapshot"
}
