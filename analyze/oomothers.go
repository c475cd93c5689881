package analyze

import "gpureport/gpulog"

// Memory outside this process (docs/design.md's OOM cause `others`). A
// request that failed with the device's free memory below it, neither a
// leak nor fragmentation explaining it, is a capacity OOM only when this
// process's own memory and the request come near what the device offers.
// When the device's total less its free memory less this process's
// memory in use leaves, outside the process, at least what the request
// lacked, the device was full of memory that is not the job's: another
// job on a shared GPU, an inference server beside a training run, a CUDA
// MPS server. Who holds it decides the cause:
//
//   - the OOM message lists other processes ("Process 4242 has 58.70 GiB
//     memory in use") whose memory is at least what the request lacked:
//     an others OOM, and the advice names the largest;
//   - nothing lists them (the message prints only "this process has",
//     as under CUDA MPS, whose clients NVML does not list, or across
//     containers; a snapshot with a GPU log's total): the cause stays
//     capacity, the device as this process found it having no room, and
//     the explanation and a next step say how much memory outside the
//     process no input accounts for, and what to check. Figures from
//     different sources (a snapshot's reserved memory, a GPU log's total
//     with the driver's reserve) may leave such a gap on their own, and a
//     cause must rest on evidence of who holds the memory.
//
// This process's memory in use is the message's "this process has"
// figure (non-PyTorch memory included) when a log gives it, else the
// allocator's reserved memory plus ownNonPyTorch. The device's total is
// the message's, else the device's capacity (a GPU log's total,
// --capacity, a capture manifest).

const (
	// ownNonPyTorch is the memory a process holds outside PyTorch's
	// caching allocator when no figure gives it: its CUDA context (about
	// 0.5 GiB on an H100), NCCL's buffers and library handles (up to
	// about 1 GiB in large jobs), and a GPU log's total counting the
	// driver's reserve that CUDA's total leaves out (454 MiB on an H100:
	// nvidia-smi's 81559 MiB against CUDA's 81105 MiB). Memory outside
	// the allocator below it may be the process's own.
	ownNonPyTorch = 2 << 30
	// outsideSlack is what a message's "this process has" figure may
	// leave out of the memory outside the process: one CUDA context
	// (512 MiB, as elsewhere in the design), far above the figures'
	// printed rounding (two decimals of their unit).
	outsideSlack = 512 << 20
	// outsideShare is the least share of the device memory outside the
	// process must hold for the device to be called another's: a
	// desktop's display server and browser hold 0.3 to 1.5 GiB, a few
	// percent of a 24 GiB card, which a job at the edge of the device
	// should not be told to blame; a tenth or more is a device the job
	// does not have to itself.
	outsideShare = 10
)

// outsideMemory is the device memory in use at OOM o that was not this
// process's, in bytes, and how much of it may still be the process's own
// (ownNonPyTorch or outsideSlack); ok is false when the figures do not
// give it (no total, free or own memory). This process's memory is the
// message's "this process has" figure, unless the allocator's reserved
// memory (the trace's or the message's, the larger) passes it: figures
// that disagree so (a snapshot and a log of different events) give the
// reserved memory and the larger allowance, so that a misread figure
// never makes memory another's.
func outsideMemory(o *OOM) (outside, allowance int64, ok bool) {
	m := o.Said()
	total := outsideTotal(o)
	if total <= 0 || o.DeviceFree < 0 {
		return 0, 0, false
	}
	own, allowance := o.Reserved, int64(ownNonPyTorch)
	if m != nil && m.Reserved > own {
		own = m.Reserved
	}
	if own < 0 && (m == nil || m.ProcessInUse < 0) {
		return 0, 0, false
	}
	if m != nil && m.ProcessInUse >= 0 && m.ProcessInUse >= own {
		// "this process has" counts the reserved memory and what is
		// outside the allocator: the process's use exactly.
		own, allowance = m.ProcessInUse, outsideSlack
	}
	return max(0, total-o.DeviceFree-own), allowance, true
}

// outsideTotal is the device's total memory at OOM o, in bytes: the
// message's (CUDA's total, of which its free figure is a part), else the
// device's capacity; 0 when unknown.
func outsideTotal(o *OOM) int64 {
	if m := o.Said(); m != nil && m.Total > 0 {
		return m.Total
	}
	return max(o.Capacity, 0)
}

// outsideOOM decides, for an OOM that neither a limit, a leak nor
// fragmentation explains, whether memory outside this process filled the
// device: beyond what may be the process's own, it is at least what the
// request lacked (without it the request would have fit) and a tenth of
// the device. It then sets the cause, Outside and the recommendations,
// and reports true when the message's other processes hold at least what
// the request lacked and fit, as every process's memory does, in the
// device's used memory beside this process's (their entries are then no
// misread copy of this process): an others OOM. Else, with that much
// memory outside the process and no one named, it sets only Outside and
// reports false: the OOM is then capacity, with the outside memory said
// (classifyOOM, trainingOOM).
func outsideOOM(o *OOM) bool {
	outside, allowance, ok := outsideMemory(o)
	total := outsideTotal(o)
	if !ok || o.Missing <= 0 || outside-allowance < o.Missing || outside*outsideShare < total {
		return false
	}
	o.Outside = outside
	if m := o.Said(); m != nil && m.OtherProcesses >= o.Missing && m.OtherProcesses <= outside+outsideSlack {
		o.Cause = CauseOthers
		o.Recommendations = []Recommendation{{Kind: StepOthersFree}}
		return true
	}
	return false
}

// mergeLoggedOOMs gives each OOM a snapshot explains (known) what a
// training log's message of the same OOM says (OOM.Logged) and decides
// its cause again with it: the cap the process was allowed (a limit OOM's
// "39.60 GiB allowed"), the memory other processes and this process had
// in use (an others OOM), which the trace does not record. The message is
// the same OOM when it is on the OOM's device or names its request
// (coveredBy), names its request (sameRequest) and, when it prints free
// memory, the free memory the trace recorded (PyTorch prints the figures
// it records). Several such OOMs (a handler that retries the step fails
// again at the same request, with the same free memory) all take it: the
// message cannot say which it was, and its figures of the process and
// the device hold for each alike, so that equal OOMs get one cause.
func mergeLoggedOOMs(placed []logOOM, known []OOM) {
	for _, p := range placed {
		m := p.m
		for i := range known {
			k := &known[i]
			if k.Logged != nil || k.Message != nil || !coveredBy(p, k) || !sameRequest(m.Requested, m.RequestedSlack, k.Requested) || !sameFree(m, k.DeviceFree) {
				continue
			}
			k.Logged, k.LoggedIn = messageOf(m), p.path
			classifyOOM(k)
		}
	}
}

// sameFree reports whether message m's free memory (as printed, within
// its slack) is free, the bytes a snapshot's OOM event recorded; true when
// either is unknown.
func sameFree(m *gpulog.TrainingOOM, free int64) bool {
	if m.Free < 0 || free < 0 {
		return true
	}
	// +1: parsing "312.00 MiB" truncates to whole bytes.
	return max(m.Free-free, free-m.Free) <= m.FreeSlack+1
}
