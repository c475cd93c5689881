package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
)

// The capture kit in words and in summary.json: captureLines says what
// the kit's manifests tell (Findings.Capture), missedOOMStep what a run
// with an OOM but no snapshot at it should do (Findings.MissedOOM). Every
// writer prints these same sentences.

// maxCaptureNames bounds the files or ranks a capture sentence names one
// by one.
const maxCaptureNames = 5

// captureLines says, a sentence each, which capture kit captured the run,
// which of its files were used, which devices its UUIDs joined, and what
// the kit itself recorded (dump costs, OOMs, errors); nil without the kit.
// Plain text: each writer escapes it.
func captureLines(c *analyze.Capture) []string {
	if c == nil {
		return nil
	}
	var out []string
	what := "gpureport's capture kit"
	if len(c.KitVersions) > 0 {
		what += " " + strings.Join(c.KitVersions, ", ")
	}
	var env []string
	if len(c.TorchVersions) > 0 {
		env = append(env, "torch "+strings.Join(c.TorchVersions, ", "))
	}
	if len(c.CUDAVersions) > 0 {
		env = append(env, "CUDA "+strings.Join(c.CUDAVersions, ", "))
	}
	if len(env) > 0 {
		what += " (" + strings.Join(env, ", ") + ")"
	}
	ranks := "rank " + rankList(c.Ranks)
	if len(c.Ranks) > 1 {
		ranks = "ranks " + rankList(c.Ranks)
	}
	if c.WorldSize > 0 {
		ranks += fmt.Sprintf(" of %d", c.WorldSize)
	}
	settings := fmt.Sprintf("snapshots every %s, max_entries %d, stacks=%q", counted(int(c.Every), "step"), c.MaxEntries, c.Stacks)
	if c.Every == 0 {
		settings = fmt.Sprintf("no periodic snapshots, max_entries %d, stacks=%q", c.MaxEntries, c.Stacks)
	}
	out = append(out, fmt.Sprintf("Captured with %s on %s (%s); used %s, %s, %s and %s of its files.", what, ranks, settings,
		counted(c.Snapshots, "snapshot"), counted(c.OOMSnapshots, "OOM snapshot"), counted(c.MemoryStatsLogs, "memory_stats log"),
		counted(c.GPULogs, "GPU log")))
	if len(c.UUIDJoins) > 0 {
		var names []string
		for _, k := range c.UUIDJoins {
			names = append(names, units.Device(k.Rank, k.Device))
		}
		out = append(out, "Joined to their GPU by the UUID in the capture manifest: "+nameList(names)+".")
	}
	if len(c.MissingRanks) > 0 {
		out = append(out, fmt.Sprintf("No capture manifest for %s of the job's %d: those ranks did not run the kit, or wrote elsewhere.",
			plainRanks(c.MissingRanks), c.WorldSize))
	}
	if len(c.Skipped) > 0 {
		out = append(out, "The kit's files that could not be read (see the skipped inputs): "+nameList(c.Skipped)+".")
	}
	if len(c.NoObserver) > 0 {
		out = append(out, fmt.Sprintf("No snapshot would be taken at an OOM on %s: the kit ran with oom_snapshot=False, or on a torch without the OOM observer.", plainRanks(c.NoObserver)))
	}
	if len(c.Unstopped) > 0 {
		out = append(out, fmt.Sprintf("The capture of %s never stopped: the process was killed, or the run is still going.", plainRanks(c.Unstopped)))
	}
	if c.GatherMax > 0 || c.WriteMax > 0 {
		s := fmt.Sprintf("The kit's slowest dump took %s in torch.cuda.memory._snapshot() and %s to write", seconds(c.GatherMax), seconds(c.WriteMax))
		if c.DumpBytes > 0 {
			s += fmt.Sprintf("; a dump is %s on average", units.Bytes(c.DumpBytes))
		}
		if c.TraceEntries >= 0 {
			s += fmt.Sprintf(", with up to %d trace entries", c.TraceEntries)
		}
		out = append(out, s+".")
	}
	if c.OOMs > 0 {
		s := fmt.Sprintf("The kit's OOM observer saw %s", counted(c.OOMs, "out-of-memory error"))
		if c.OOMsWithoutSnapshot > 0 {
			s += fmt.Sprintf(", %d without a snapshot (the kit's limit per process, or a failed dump)", c.OOMsWithoutSnapshot)
		}
		out = append(out, s+".")
	}
	if c.ErrorCount > 0 {
		out = append(out, fmt.Sprintf("The kit recorded %s: %s.", counted(c.ErrorCount, "error"), strings.Join(c.Errors, "; ")))
	}
	if len(c.Problems) > 0 {
		out = append(out, "Capture manifest fields not used: "+nameList(c.Problems)+".")
	}
	return out
}

// missedOOMStep is the next step for OOMs no snapshot was taken at, in
// Markdown as nextSteps' lines are; "" when there are none.
func missedOOMStep(m *analyze.MissedOOM) string {
	if m == nil {
		return ""
	}
	var src []string
	for i, s := range m.Sources {
		if i == maxCaptureNames {
			src = append(src, fmt.Sprintf("%d more", len(m.Sources)-i))
			break
		}
		src = append(src, mdCode(s))
	}
	seen := fmt.Sprintf("The out-of-memory error in %s has no snapshot taken at it", strings.Join(src, ", "))
	if slices.ContainsFunc(m.Ranks, func(r int) bool { return r != input.NoRank }) {
		seen += " (" + mdEscape(plainRanks(m.Ranks)) + ")"
	}
	if !m.Kit {
		return seen + ": gpureport's capture kit would have caught it. `pip install ./python` from a gpureport clone, call " +
			"`gpureport_capture.start(run_dir, every=100)` after `torch.cuda.set_device` and `gpureport_capture.step(step)` at the end of every step: " +
			"each rank then dumps a snapshot when the allocator runs out of memory, before the stack unwinds, and gpureport explains the OOM from it."
	}
	switch m.Reason {
	case analyze.MissedNoManifest:
		return seen + ": that rank has no capture manifest, so it did not run the capture kit. Start the kit on every rank."
	case analyze.MissedObserverOff:
		return seen + ": the capture kit ran with `oom_snapshot=False`, or on a torch without the OOM observer (it needs PyTorch 2.0 or later). Capture with `oom_snapshot=True` on PyTorch 2.1 or later."
	case analyze.MissedNotWritten:
		return seen + ": the capture kit's OOM observer fired but wrote no snapshot, over its limit per process (`max_oom_snapshots`) or because the dump failed (the manifest's errors say)."
	}
	return seen + ": the capture kit's OOM observer was never called, so the memory ran out outside PyTorch's caching allocator (NCCL, a cuBLAS or cuDNN workspace, a raw CUDA call) or in a process that did not run the kit."
}

// missedOOMLine is missedOOMStep's first sentence, in plain text, for the
// terminal; "" when no OOM was missed.
func missedOOMLine(m *analyze.MissedOOM) string {
	s := mdPlain(missedOOMStep(m))
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}

// plainRanks names ranks: "rank 3", "ranks 0, 2, 5 and 2 more"; an
// unknown rank reads "rank unknown".
func plainRanks(ranks []int) string {
	if len(ranks) == 1 {
		return "rank " + rankList(ranks)
	}
	return "ranks " + rankList(ranks)
}

func rankList(ranks []int) string {
	var names []string
	for _, r := range ranks {
		if r == input.NoRank {
			names = append(names, "unknown")
			continue
		}
		names = append(names, fmt.Sprint(r))
	}
	return nameList(names)
}

// nameList joins names, at most maxCaptureNames of them.
func nameList(names []string) string {
	if len(names) > maxCaptureNames {
		return strings.Join(names[:maxCaptureNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxCaptureNames)
	}
	return strings.Join(names, ", ")
}

// seconds prints a duration to three significant digits, in seconds
// from one second up, else in milliseconds.
func seconds(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.3g s", d.Seconds())
	}
	return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
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

func rankRef(r int) *int {
	if r == input.NoRank {
		return nil
	}
	return &r
}

func summaryCapture(c *analyze.Capture) *SummaryCapture {
	if c == nil {
		return nil
	}
	s := &SummaryCapture{
		Manifests: c.Manifests, KitVersions: nonNil(c.KitVersions), TorchVersions: nonNil(c.TorchVersions),
		CUDAVersions: nonNil(c.CUDAVersions), WorldSize: c.WorldSize, Ranks: nonNil(c.Ranks), MissingRanks: nonNil(c.MissingRanks),
		Every: c.Every, MaxEntries: c.MaxEntries, Stacks: c.Stacks,
		Used:    SummaryCaptureUsed{Snapshots: c.Snapshots, OOMSnapshots: c.OOMSnapshots, MemoryStatsLogs: c.MemoryStatsLogs, GPULogs: c.GPULogs},
		Skipped: nonNil(c.Skipped), UUIDJoins: []SummaryDeviceRef{},
		OOMs: c.OOMs, OOMsWithoutSnapshot: c.OOMsWithoutSnapshot,
		NoOOMObserverRanks: nonNil(c.NoObserver), UnstoppedRanks: nonNil(c.Unstopped),
		DumpGatherSecondsMax: c.GatherMax.Seconds(), DumpWriteSecondsMax: c.WriteMax.Seconds(), DumpBytesMean: c.DumpBytes,
		ErrorCount: c.ErrorCount, Errors: nonNil(c.Errors), Problems: nonNil(c.Problems),
	}
	if c.TraceEntries >= 0 {
		n := c.TraceEntries
		s.TraceEntriesMax = &n
	}
	for _, k := range c.UUIDJoins {
		s.UUIDJoins = append(s.UUIDJoins, SummaryDeviceRef{Rank: rankRef(k.Rank), Device: k.Device})
	}
	return s
}

func summaryMissedOOM(m *analyze.MissedOOM) *SummaryMissedOOM {
	if m == nil {
		return nil
	}
	s := &SummaryMissedOOM{Sources: m.Sources, Ranks: []*int{}, Kit: m.Kit, Reason: string(m.Reason)}
	for _, r := range m.Ranks {
		s.Ranks = append(s.Ranks, rankRef(r))
	}
	return s
}

// nonNil is s, or an empty slice for nil: summary.json lists are [],
// never null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
