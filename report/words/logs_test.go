package words

import (
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/placement"
)

// TestLimitWords: a limit OOM says the device had what the allocator
// asked for free, names the cap the message printed, and says what to
// check, each check resting on its figure (issue 28 class 9); a snapshot's
// limit OOM says the same with the settings in force.
func TestLimitWords(t *testing.T) {
	snap := analyze.OOM{Rank: input.NoRank, Requested: 5 * mib, Asked: 20 * mib, DeviceFree: 3 * gib, Reserved: 10 * gib, Allocated: 9 * gib,
		CachedFree: gib, LargestFree: 100 * mib, Cause: analyze.CauseLimit,
		Recommendations: []analyze.Recommendation{{Kind: analyze.StepLimitCap}, {Kind: analyze.StepLimitWDDM}}}
	contains(t, "snapshot limit", Explanation(&snap), []string{
		"This is a limit OOM: the device reported 3.00 GiB free, at least the 20.0 MiB the allocator asked for, yet the allocation failed.",
		"Check for a cap on the process", "Allocator settings in force: not recorded",
	}, []string{"allowed"})
	contains(t, "cap check", Recommendation(&snap, snap.Recommendations[0]).String(),
		[]string{"torch.cuda.get_per_process_memory_fraction()", "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", ": the driver reported 3.00 GiB free against a request of 5.00 MiB"}, nil)
	contains(t, "WDDM check", Recommendation(&snap, snap.Recommendations[1]).String(),
		[]string{"on Windows, WDDM drivers report free memory they do not give", ": the driver reported 3.00 GiB free"}, nil)

	msg := analyze.OOM{Path: "out.log", Rank: input.NoRank, Requested: 4 * gib, Asked: 4 * gib, DeviceFree: 52 * gib, Reserved: 22 * gib, Allocated: 21 * gib,
		CachedFree: gib, LargestFree: -1, Cause: analyze.CauseLimit,
		Message:         &analyze.OOMMessage{Line: 7, Count: 1, GPU: 0, Total: 64 * gib, ProcessInUse: -1, Allowed: 24 * gib, OtherProcesses: 3 * gib, OtherAllocations: -1},
		Recommendations: []analyze.Recommendation{{Kind: analyze.StepLimitFraction}, {Kind: analyze.StepLimitOthers}, {Kind: analyze.StepLimitWDDM}}}
	contains(t, "message limit", Explanation(&msg), []string{
		"PyTorch asked for 4.00 GiB on GPU 0 (64.0 GiB in all)", "other processes had 3.00 GiB in use", "(line 7 of out.log).",
		"This is a limit OOM: the device reported 52.0 GiB free, at least the 4.00 GiB the allocator asked for",
		"the message says 24.0 GiB allowed: set_per_process_memory_fraction caps the process there",
	}, []string{"fragmentation", "lacked"})
	contains(t, "fraction", Recommendation(&msg, msg.Recommendations[0]).String(), []string{
		"raise or remove torch.cuda.set_per_process_memory_fraction",
		": the process was allowed 24.0 GiB and held 22.0 GiB reserved when it asked for 4.00 GiB more",
	}, nil)
	contains(t, "others", Recommendation(&msg, msg.Recommendations[1]).String(), []string{
		"check the other processes on the GPU", ": other processes had 3.00 GiB in use",
	}, nil)
	if got := OOMReason(&msg); !strings.HasPrefix(got, "limit OOM on cuda:0: 4.00 GiB requested, 52.0 GiB free on the device") {
		t.Errorf("reason %q", got)
	}
}

// TestMessageCauseWords: a message's explanation states the shortfall it
// was classified on (missing_bytes), says when free and requested are
// equal as printed, and an MPS message is a capacity OOM against its
// watermark, or of unified memory without one.
func TestMessageCauseWords(t *testing.T) {
	msg := func(cause analyze.OOMCause, free, cached, missing int64, fits bool) analyze.OOM {
		return analyze.OOM{Path: "out.log", Rank: input.NoRank, Requested: 4 * gib, DeviceFree: free, Reserved: 70 * gib, Allocated: 69 * gib,
			CachedFree: cached, LargestFree: -1, Missing: missing, Cause: cause,
			Message: &analyze.OOMMessage{Line: 3, Count: 1, GPU: 1, Total: -1, ProcessInUse: -1, Allowed: -1, OtherProcesses: -1, OtherAllocations: -1, Fits: fits}}
	}
	frag := msg(analyze.CauseFragmentation, gib, 4*gib, 3*gib, true)
	contains(t, "fragmentation", Explanation(&frag), []string{"the request lacked 3.00 GiB of device memory, and the cached free memory would have covered it, but not in one piece: fragmentation"}, nil)
	capa := msg(analyze.CauseCapacity, gib, gib, 3*gib, false)
	contains(t, "capacity", Explanation(&capa), []string{"the request lacked 3.00 GiB of device memory, more than all cached free memory: the job needs more memory than the device has"}, nil)
	equal := msg(analyze.CauseCapacity, 4*gib, 0, 0, false)
	contains(t, "equal as printed", Explanation(&equal), []string{"the free memory equals the request as the message rounds them"}, []string{"lacked"})

	mps := analyze.OOM{Path: "mps.log", Rank: input.NoRank, Type: analyze.MPS, Requested: 512 * mib, DeviceFree: -1, Reserved: -1, Allocated: 8 * gib, CachedFree: -1, LargestFree: -1,
		Missing: 512 * mib, Cause: analyze.CauseCapacity, Recommendations: []analyze.Recommendation{{Kind: analyze.StepMPSWatermark}},
		Message: &analyze.OOMMessage{Line: 2, Count: 1, Kind: analyze.MessageMPS, GPU: -1, Total: -1, ProcessInUse: -1, Allowed: 9 * gib, OtherProcesses: -1, OtherAllocations: gib}}
	contains(t, "MPS watermark", Explanation(&mps), []string{
		"MPS asked for 512 MiB with 8.00 GiB allocated by its allocator and 1.00 GiB by other allocations; the high watermark allows 9.00 GiB, so the request lacked 512 MiB: a capacity OOM against the watermark, ",
		"PYTORCH_MPS_HIGH_WATERMARK_RATIO (1.7 by default) times the memory Metal recommends for the GPU; a ratio set below 1 would make it a cap short of that, a limit (line 2 of mps.log).",
	}, []string{"-1 B", "names no device"})
	contains(t, "MPS watermark step", Recommendation(&mps, mps.Recommendations[0]).String(), []string{
		"PYTORCH_MPS_HIGH_WATERMARK_RATIO", ": 9.00 GiB in use plus 512 MiB requested passes the 9.00 GiB allowed",
	}, nil)
	mps.Message.Allowed, mps.Missing = -1, 0
	mps.Recommendations = []analyze.Recommendation{{Kind: analyze.StepReduceLive}}
	contains(t, "MPS without a watermark", Explanation(&mps), []string{"with the watermark off, Metal could not map the buffer"}, []string{"lacked"})
	contains(t, "MPS reduce live", Recommendation(&mps, mps.Recommendations[0]).String(), []string{": 9.00 GiB in use when 512 MiB more was requested"}, []string{"-1 B"})

	unknown := analyze.OOM{Path: "xpu.log", Rank: input.NoRank, Requested: gib, DeviceFree: -1, Reserved: 10 * gib, Allocated: 9 * gib, CachedFree: gib, LargestFree: -1,
		Cause: analyze.CauseUnknown, Message: &analyze.OOMMessage{Line: 1, Count: 1, GPU: 0, Total: 64 * gib, ProcessInUse: -1, Allowed: -1, OtherProcesses: -1, OtherAllocations: -1}}
	contains(t, "no free memory", Explanation(&unknown), []string{"the message gives no free device memory, so its cause cannot be classified"}, nil)
}

// TestMIGAndShareWords: a MIG device is named by its instance, with its
// join; a GPU known by its used share shows its peak share and says what
// would give bytes and a trend (issue 28 class 10).
func TestMIGAndShareWords(t *testing.T) {
	k := analyze.DeviceKey{Rank: input.NoRank, Device: 0, MIG: "GI 7 CI 0"}
	if got, want := Device(k), "cuda:0 · MIG GI 7 CI 0"; got != want {
		t.Errorf("MIG device %q, want %q", got, want)
	}
	mig := &analyze.Device{DeviceKey: k, GPU: &analyze.GPUSeries{Used: []int64{gib}}, GPUIndex: 0, GPUJoinMethod: placement.JoinByIndex}
	if got, want := GPUJoin(mig), "nvidia-smi GPU 0 MIG GI 7 CI 0"; got != want {
		t.Errorf("MIG join %q, want %q", got, want)
	}
	share := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: input.NoRank, Device: 1}, GPUIndex: 1, GPUJoinMethod: placement.JoinByIndex,
		UsedShare: &analyze.ShareSeries{Percent: []float64{10, 74.8, 50}, MaxPercent: 74.8}}
	if got, want := UsedShare(share.UsedShare), "74.8% of the device"; got != want {
		t.Errorf("share %q, want %q", got, want)
	}
	if got, want := GPUJoin(share), "nvidia-smi GPU 1 (used memory as a percent of the device)"; got != want {
		t.Errorf("share join %q, want %q", got, want)
	}
	f := &analyze.Findings{Devices: []*analyze.Device{share}, Verdict: analyze.Verdict{Severity: analyze.SeverityInfo, Undecided: []analyze.DeviceKey{share.DeviceKey}}}
	contains(t, "share headline", Headline(f), []string{"Not enough data: cuda:1 has 3 readings of used memory as a percent of the device and no total: pass --capacity"}, nil)
}

// TestMessageListedSelfWords: an OOM whose message listed this process as
// "Process N" says so beside the memory the process had in use, and
// names no other processes.
func TestMessageListedSelfWords(t *testing.T) {
	o := analyze.OOM{Path: "train.log", Rank: input.NoRank, Requested: 2 * gib, DeviceFree: gib, Reserved: 77 * gib, Allocated: 74 * gib,
		CachedFree: 3 * gib, LargestFree: -1, Missing: gib, Cause: analyze.CauseFragmentation,
		Message: &analyze.OOMMessage{Line: 8, Count: 1, GPU: 0, Total: 79 * gib, ProcessInUse: 78 * gib, ListedSelfPID: 12345, Allowed: -1,
			OtherProcesses: -1, OtherAllocations: -1, Fits: true}}
	contains(t, "listed self", Explanation(&o), []string{
		"live tensors held 74.0 GiB of the 78.0 GiB the process had in use (the message lists it as Process 12345: with its reserved memory, that entry cannot be another process)",
	}, []string{"other processes"})
}
