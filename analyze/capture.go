package analyze

import (
	"slices"
	"strings"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
)

// The capture kit, and the OOM snapshot a run lacks.
//
// A run captured with gpureport's capture kit (python/) carries one
// manifest per rank (ingest.CaptureManifest). Capture sums them up as
// facts: which kit, torch and CUDA versions, which ranks, with what
// settings, which of the kit's files the analysis read (each manifest
// names its rank's file patterns), which devices found their GPU log by
// the manifest's UUID, what the kit itself recorded of its dumps, OOMs and
// errors.
//
// MissedOOM is the fact that the run shows an out-of-memory error (a
// training log's message, a rise of memory_stats' num_ooms) that no
// snapshot explains, and that no snapshot was dumped at it on its rank:
// the most asked-for capture, which the kit's OOM observer takes. With
// the kit, it says why the kit took none.

// Capture is what the capture kit's manifests say about a run.
type Capture struct {
	// Manifests are the manifests read, relative to the run directory, in
	// rank order.
	Manifests []string
	// KitVersions, TorchVersions and CUDAVersions are the distinct
	// versions the manifests give, sorted ("" left out).
	KitVersions, TorchVersions, CUDAVersions []string
	// WorldSize is the job's number of ranks (the largest a manifest
	// gives; 0 when none does).
	WorldSize int
	// Ranks are the ranks with a manifest; MissingRanks the ranks below
	// WorldSize without one (ranks that did not capture, or wrote
	// elsewhere).
	Ranks, MissingRanks []int
	// Every, MaxEntries and Stacks are the first manifest's settings:
	// steps between dumps, the trace ring buffer's entries, "python" or
	// "all".
	Every, MaxEntries int64
	Stacks            string
	// Snapshots, OOMSnapshots, MemoryStatsLogs and GPULogs count the kit's
	// files the analysis read, by kind (a file is the kit's when a
	// manifest's pattern names it).
	Snapshots, OOMSnapshots, MemoryStatsLogs, GPULogs int
	// Skipped are the kit's files that were found but could not be read
	// (Inputs.Skipped says why).
	Skipped []string
	// UUIDJoins are the devices joined to their GPU by the UUID a manifest
	// gives.
	UUIDJoins []DeviceKey
	// OOMs counts the out-of-memory errors the kit's observer saw, and
	// OOMsWithoutSnapshot those it wrote no dump for (its limit per
	// process, or a failed dump).
	OOMs, OOMsWithoutSnapshot int
	// NoObserver are the ranks whose torch had no OOM observer, or that
	// captured with oom_snapshot off.
	NoObserver []int
	// Unstopped are the ranks whose capture never stopped (the process was
	// killed, or the manifest is from a run still going).
	Unstopped []int
	// GatherMax and WriteMax are the longest torch.cuda.memory._snapshot()
	// call and the longest pickling and writing of one dump over the
	// ranks; TraceEntries the most trace entries of a last dump (-1 when
	// no manifest says); DumpBytes the mean size of a dump, bytes (0 when
	// none).
	GatherMax, WriteMax time.Duration
	TraceEntries        int64
	DumpBytes           int64
	// Errors are the kit's own failures, at most maxCaptureErrors;
	// ErrorCount counts them all.
	Errors     []CaptureError
	ErrorCount int
	// Problems are the manifest fields gpureport could not use,
	// "path: field: why".
	Problems []string
}

// CaptureError is one failure the kit recorded in a rank's manifest.
type CaptureError struct {
	// Rank is the manifest's rank; Message the kit's words.
	Rank    int
	Message string
}

// maxCaptureErrors bounds the kit errors Capture lists: the first say what
// went wrong; the count says how often.
const maxCaptureErrors = 5

// MissedOOM says that out-of-memory errors were seen with no snapshot
// taken at them.
type MissedOOM struct {
	// Sources are the inputs that show them (training logs, memory_stats
	// logs), relative to the run directory.
	Sources []string
	// Ranks are their ranks as the job gave them (DeviceKey.JobRank;
	// input.NoRank when an input gives none, or for a separate run of a
	// script without ranks or a process told apart by its pid).
	Ranks []int
	// Kit is true when the run was captured with the kit; Reason then
	// says why it dumped none.
	Kit    bool
	Reason MissedOOMReason
}

// MissedOOMReason is why the capture kit took no snapshot at an OOM.
type MissedOOMReason string

// Reasons the kit took no OOM snapshot.
const (
	// MissedNoKit: the run was not captured with the kit.
	MissedNoKit MissedOOMReason = ""
	// MissedNoManifest: the OOM's rank has no manifest (it did not capture).
	MissedNoManifest MissedOOMReason = "no-manifest"
	// MissedObserverOff: the rank captured with oom_snapshot off, or its
	// torch had no OOM observer.
	MissedObserverOff MissedOOMReason = "observer-off"
	// MissedNotWritten: the observer fired but wrote no dump (the kit's
	// limit per process, or the dump failed; the manifest's errors say).
	MissedNotWritten MissedOOMReason = "not-written"
	// MissedNotCalled: the observer never fired: the memory ran out
	// outside PyTorch's caching allocator (NCCL, cuBLAS workspaces, a raw
	// CUDA call) or in a process the kit did not run in.
	MissedNotCalled MissedOOMReason = "observer-not-called"
)

// captureFindings sums up the run's manifests (nil when it has none).
func captureFindings(run *placement.Run, f *Findings) *Capture {
	if len(run.Captures) == 0 {
		return nil
	}
	c := &Capture{TraceEntries: -1}
	var dumps, dumpBytes int64
	for _, m := range run.Captures {
		c.Manifests = append(c.Manifests, m.Path)
		c.KitVersions = addSorted(c.KitVersions, m.KitVersion)
		c.TorchVersions = addSorted(c.TorchVersions, m.Torch.Version)
		c.CUDAVersions = addSorted(c.CUDAVersions, m.Torch.CUDA)
		c.WorldSize = max(c.WorldSize, m.WorldSize)
		if !slices.Contains(c.Ranks, m.Rank) {
			c.Ranks = append(c.Ranks, m.Rank)
		}
		if len(c.Manifests) == 1 {
			c.Every, c.MaxEntries, c.Stacks = m.Settings.Every, m.Settings.MaxEntries, m.Settings.Stacks
		}
		for _, o := range m.OOMs {
			c.OOMs++
			if o.Snapshot == "" {
				c.OOMsWithoutSnapshot++
			}
		}
		if !m.Settings.OOMSnapshot || m.Recording["oom_observer"] == "unavailable" {
			c.NoObserver = appendRank(c.NoObserver, m.Rank)
		}
		if m.Stopped.IsZero() {
			c.Unstopped = appendRank(c.Unstopped, m.Rank)
		}
		c.GatherMax = max(c.GatherMax, m.Dumps.GatherMax)
		c.WriteMax = max(c.WriteMax, m.Dumps.WriteMax)
		c.TraceEntries = max(c.TraceEntries, m.Dumps.TraceEntries)
		dumps += m.Dumps.Count
		dumpBytes += m.Dumps.Bytes
		for _, e := range m.Errors {
			c.ErrorCount++
			if len(c.Errors) < maxCaptureErrors {
				c.Errors = append(c.Errors, CaptureError{Rank: m.Rank, Message: e})
			}
		}
		for _, p := range m.Problems {
			c.Problems = append(c.Problems, m.Path+": "+p)
		}
	}
	if dumps > 0 {
		c.DumpBytes = dumpBytes / dumps
	}
	slices.Sort(c.Ranks)
	for r := range c.WorldSize {
		if !slices.Contains(c.Ranks, r) {
			c.MissingRanks = append(c.MissingRanks, r)
		}
	}
	kit := kitPatterns(run.Captures)
	for _, s := range run.Snapshots {
		switch {
		case s.Phase == ingest.PhaseOOM && kit.oomSnapshot(s.Path):
			c.OOMSnapshots++
		case kit.snapshot(s.Path):
			c.Snapshots++
		}
	}
	for _, l := range run.Logs {
		switch {
		case slices.Contains(kit.memoryStats, l.Path):
			c.MemoryStatsLogs++
		case kit.gpuLog(l.Path):
			c.GPULogs++
		}
	}
	for _, sk := range run.Skipped {
		if kit.snapshot(sk.Path) || kit.oomSnapshot(sk.Path) || slices.Contains(kit.memoryStats, sk.Path) || kit.gpuLog(sk.Path) {
			c.Skipped = append(c.Skipped, sk.Path)
		}
	}
	for _, d := range f.Devices {
		if d.GPU != nil && d.GPUJoinMethod == placement.JoinByUUID && slices.ContainsFunc(run.DeviceUUIDs, func(u placement.DeviceUUID) bool {
			return u.Rank == d.Rank && u.Device == d.Device
		}) {
			c.UUIDJoins = append(c.UUIDJoins, d.DeviceKey)
		}
	}
	return c
}

func addSorted(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	list = append(list, s)
	slices.Sort(list)
	return list
}

func appendRank(list []int, r int) []int {
	if slices.Contains(list, r) {
		return list
	}
	list = append(list, r)
	slices.Sort(list)
	return list
}

// kitFiles are the file patterns the manifests name.
type kitFiles struct {
	// snapshots and ooms are [prefix, suffix] pairs around the step.
	snapshots, ooms [][2]string
	memoryStats     []string
	gpuLogDirs      []string
}

// kitPatterns collects the manifests' file patterns.
func kitPatterns(ms []*ingest.CaptureManifest) kitFiles {
	var k kitFiles
	split := func(p string) ([2]string, bool) {
		pre, post, ok := strings.Cut(p, "{step")
		if !ok {
			return [2]string{}, false
		}
		_, suf, ok := strings.Cut(post, "}")
		return [2]string{pre, suf}, ok
	}
	for _, m := range ms {
		if ps, ok := split(m.Files.Snapshots); ok {
			k.snapshots = append(k.snapshots, ps)
		}
		if ps, ok := split(m.Files.OOMSnapshots); ok {
			k.ooms = append(k.ooms, ps)
		}
		if m.Files.MemoryStats != "" {
			k.memoryStats = append(k.memoryStats, m.Files.MemoryStats)
		}
		if m.Files.GPULogDir != "" {
			k.gpuLogDirs = append(k.gpuLogDirs, m.Files.GPULogDir)
		}
	}
	return k
}

// matchStep reports whether p is prefix, a step (digits, and for a
// further OOM dump of one step "_N"), suffix.
func matchStep(p string, pats [][2]string) bool {
	for _, ps := range pats {
		mid, ok := strings.CutPrefix(p, ps[0])
		if !ok {
			continue
		}
		mid, ok = strings.CutSuffix(mid, ps[1])
		if ok && mid != "" && strings.Trim(mid, "0123456789_") == "" && mid[0] != '_' {
			return true
		}
	}
	return false
}

func (k kitFiles) snapshot(p string) bool    { return matchStep(p, k.snapshots) }
func (k kitFiles) oomSnapshot(p string) bool { return matchStep(p, k.ooms) }

func (k kitFiles) gpuLog(p string) bool {
	for _, d := range k.gpuLogDirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// missedOOM finds the OOMs no snapshot was taken at (nil when there are
// none): training-log OOMs and memory_stats OOM rises that no snapshot
// explains, on a rank without an OOM-phase dump.
func missedOOM(run *placement.Run, f *Findings, c *Capture) *MissedOOM {
	isSnapshot := map[string]bool{}
	dumped := map[int]bool{}
	for _, s := range run.Snapshots {
		isSnapshot[s.Path] = true
		if s.Phase == ingest.PhaseOOM {
			dumped[s.Rank] = true
		}
	}
	var m MissedOOM
	// The ranks named are the job's (DeviceKey.JobRank): the number
	// placement gave a separate run of the script, or a process told
	// apart by its pid, is none.
	add := func(src string, k DeviceKey) {
		if dumped[k.Rank] || (k.Rank == input.NoRank && len(dumped) > 0) {
			return
		}
		m.Sources = addSorted(m.Sources, src)
		m.Ranks = appendRank(m.Ranks, k.JobRank())
	}
	for _, o := range f.OOMs {
		// vLLM's and SGLang's startup refusals are no failed
		// allocation, and ggml's is no PyTorch process: the kit's
		// observer has nothing to catch there; nor has it on a device of
		// another type than CUDA (an XPU, NPU or MPS message): the kit
		// dumps CUDA memory snapshots.
		if !isSnapshot[o.Path] && (o.Message == nil || !slices.Contains([]OOMMessageKind{MessageVLLM, MessageSGLang, MessageGGML}, o.Message.Kind)) && o.Type == CUDA {
			add(o.Path, o.Key())
		}
	}
	for _, d := range f.Devices {
		if ms := d.MemoryStats; ms != nil && len(ms.OOMs) > 0 && d.Type == CUDA {
			for _, src := range ms.Sources {
				add(src, d.DeviceKey)
			}
		}
	}
	if len(m.Sources) == 0 {
		return nil
	}
	if c != nil {
		m.Kit = true
		m.Reason = missedReason(run.Captures, m.Ranks)
	}
	return &m
}

// missedReason says why the kit took no OOM snapshot on ranks, from their
// manifests; the first reason that holds for some rank, in the order of
// the constants' strength.
func missedReason(ms []*ingest.CaptureManifest, ranks []int) MissedOOMReason {
	reason := MissedNotCalled
	rank := func(r int) []*ingest.CaptureManifest {
		var out []*ingest.CaptureManifest
		for _, m := range ms {
			if m.Rank == r || r == input.NoRank {
				out = append(out, m)
			}
		}
		return out
	}
	strength := map[MissedOOMReason]int{MissedNotCalled: 0, MissedNotWritten: 1, MissedObserverOff: 2, MissedNoManifest: 3}
	for _, r := range ranks {
		mine := rank(r)
		got := MissedNotCalled
		switch {
		case len(mine) == 0:
			got = MissedNoManifest
		case slices.ContainsFunc(mine, func(m *ingest.CaptureManifest) bool {
			return !m.Settings.OOMSnapshot || m.Recording["oom_observer"] == "unavailable"
		}):
			got = MissedObserverOff
		case slices.ContainsFunc(mine, func(m *ingest.CaptureManifest) bool { return len(m.OOMs) > 0 }):
			got = MissedNotWritten
		}
		if strength[got] > strength[reason] {
			reason = got
		}
	}
	return reason
}
