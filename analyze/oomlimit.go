package analyze

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

// limitChecks are the recommendations of a limit OOM: what to check,
// each resting on a figure the OOM holds. A cap the message printed
// (OOMMessage.Allowed) points to the memory fraction; memory that other
// processes had in use (OOMMessage.OtherProcesses) to them; without a
// printed cap, the caps that print none (fraction, MIG, MPS); and always
// a Windows WDDM driver.
func limitChecks(o *OOM) []Recommendation {
	allowed, others := int64(-1), int64(-1)
	if m := o.Said(); m != nil {
		allowed, others = m.Allowed, m.OtherProcesses
	}
	var out []Recommendation
	if allowed >= 0 {
		out = append(out, Recommendation{Kind: StepLimitFraction})
	}
	if others > 0 {
		out = append(out, Recommendation{Kind: StepLimitOthers})
	}
	if allowed < 0 {
		out = append(out, Recommendation{Kind: StepLimitCap})
	}
	return append(out, Recommendation{Kind: StepLimitWDDM})
}
