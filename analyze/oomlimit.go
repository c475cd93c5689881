package analyze

import (
	"fmt"

	"gpureport/internal/units"
)

// The OOM cause decided first (docs/design.md): limit. The allocator asks the
// driver for a segment (or, with expandable segments, for pages at the
// end of one); when the driver reported at least that much free and the
// request still failed, neither the cache nor live tensors explain the
// OOM. Something capped the process or took the memory:
//
//   - torch.cuda.set_per_process_memory_fraction: the allocator refuses,
//     without asking the driver, once reserved memory plus the request
//     passes the fraction ("X allowed" in the message);
//   - a MIG instance, or a CUDA MPS client limit
//     (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT): the driver reports the whole
//     GPU's free memory, the instance or client gets less;
//   - Windows WDDM drivers report free memory they then do not give;
//   - another process allocated between the driver's report and the
//     failed allocation.
//
// The figures must show it beyond their rounding: the free bytes a
// message prints, less half its last digit, against the request plus
// half of its own.

// limitRequest is the memory the allocator asked the driver for to serve
// a request of size bytes, as a snapshot's trace records the request (the
// rounded block size): the segment get_allocation_size picks, or with
// expandable segments the request rounded up to whole pages (2 MiB for
// the small pool, 20 MiB for the large one), which is at least what the
// mapping needed.
func limitRequest(size int64, expandable bool) int64 {
	if !expandable {
		return segmentSize(size)
	}
	page := int64(20 << 20) // kLargeBuffer: a large pool's page
	if size <= 1<<20 {
		page = 2 << 20 // kSmallBuffer
	}
	return (size + page - 1) / page * page
}

// limitOOM reports whether free device memory (within freeSlack of the
// printed figure) was at least need (within needSlack): docs/design.md's
// limit cause.
func limitOOM(free, freeSlack, need, needSlack int64) bool {
	return free >= 0 && need > 0 && free-freeSlack >= need+needSlack
}

// limitChecks are the recommendations of a limit OOM: what to check, each
// with the figure that points to it. allowed is the cap the message
// printed (Unknown when none), reserved the allocator's memory at the
// OOM, others the memory other processes had in use (Unknown when not
// known).
func limitChecks(o *OOM, allowed, others int64) []Recommendation {
	var out []Recommendation
	if allowed >= 0 {
		out = append(out, Recommendation{
			Setting:  "raise or remove torch.cuda.set_per_process_memory_fraction: the allocator refuses requests past the fraction without asking the driver",
			Evidence: fmt.Sprintf("the process was allowed %s and held %s reserved when it asked for %s more", units.Bytes(allowed), units.Bytes(max(o.Reserved, 0)), units.Bytes(o.Requested)),
		})
	}
	if others > 0 {
		out = append(out, Recommendation{
			Setting:  "check the other processes on the GPU (nvidia-smi --query-compute-apps=pid,used_memory --format=csv): one may have allocated between the driver's report and the failed allocation",
			Evidence: fmt.Sprintf("other processes had %s in use", units.Bytes(others)),
		})
	}
	free := fmt.Sprintf("the driver reported %s free against a request of %s", units.Bytes(o.DeviceFree), units.Bytes(o.Requested))
	if allowed < 0 {
		out = append(out, Recommendation{
			Setting:  "check for a cap on the process: torch.cuda.get_per_process_memory_fraction(), a MIG instance (nvidia-smi -L lists MIG devices), or a CUDA MPS client limit (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)",
			Evidence: free,
		})
	}
	out = append(out, Recommendation{
		Setting:  "on Windows, WDDM drivers report free memory they do not give: leave headroom or use a TCC-mode GPU",
		Evidence: free,
	})
	return out
}

// limitText is the explanation's sentence for a limit OOM; need is what
// the allocator asked the driver for.
func limitText(o *OOM, need, allowed int64) string {
	s := fmt.Sprintf("This is a limit OOM: the device reported %s free, at least the %s the allocator asked for, yet the allocation failed. Neither cached memory nor live tensors explain it: something capped the process or took the memory",
		units.Bytes(o.DeviceFree), units.Bytes(need))
	if allowed >= 0 {
		s += fmt.Sprintf(" (the message says %s allowed: set_per_process_memory_fraction caps the process there)", units.Bytes(allowed))
	}
	return s + ". Check for a cap on the process (torch.cuda.set_per_process_memory_fraction, a MIG instance, a CUDA MPS client limit), a Windows WDDM driver, and other processes on the GPU."
}
