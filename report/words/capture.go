package words

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
)

// maxCaptureNames bounds the files or ranks a capture sentence names one
// by one.
const maxCaptureNames = 5

// Capture says, a sentence each, which capture kit captured the run,
// which of its files were used, which devices its UUIDs joined, and what
// the kit itself recorded (dump costs, OOMs, errors); nil without the kit.
func Capture(c *analyze.Capture) []string {
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
	ranks := RankList(c.Ranks)
	if c.WorldSize > 0 {
		ranks += " of " + strconv.Itoa(c.WorldSize)
	}
	settings := fmt.Sprintf("snapshots every %s, max_entries %d, stacks=%q", units.CountOf(int(c.Every), "step"), c.MaxEntries, c.Stacks)
	if c.Every == 0 {
		settings = fmt.Sprintf("no periodic snapshots, max_entries %d, stacks=%q", c.MaxEntries, c.Stacks)
	}
	out = append(out, fmt.Sprintf("Captured with %s on %s (%s); used %s, %s, %s and %s of its files.", what, ranks, settings,
		units.CountOf(c.Snapshots, "snapshot"), units.CountOf(c.OOMSnapshots, "OOM snapshot"),
		units.CountOf(c.MemoryStatsLogs, "memory_stats log"), units.CountOf(c.GPULogs, "GPU log")))
	if len(c.UUIDJoins) > 0 {
		names := make([]string, len(c.UUIDJoins))
		for i, k := range c.UUIDJoins {
			names[i] = Device(k)
		}
		out = append(out, "Joined to their GPU by the UUID in the capture manifest: "+nameList(names)+".")
	}
	if len(c.MissingRanks) > 0 {
		out = append(out, fmt.Sprintf("No capture manifest for %s of the job's %d: those ranks did not run the kit, or wrote elsewhere.",
			RankList(c.MissingRanks), c.WorldSize))
	}
	if len(c.Skipped) > 0 {
		out = append(out, "The kit's files that could not be read (see the skipped inputs): "+nameList(c.Skipped)+".")
	}
	if len(c.NoObserver) > 0 {
		out = append(out, "No snapshot would be taken at an OOM on "+RankList(c.NoObserver)+": the kit ran with oom_snapshot=False, or on a torch without the OOM observer.")
	}
	if len(c.Unstopped) > 0 {
		out = append(out, "The capture of "+RankList(c.Unstopped)+" never stopped: the process was killed, or the run is still going.")
	}
	if c.GatherMax > 0 || c.WriteMax > 0 {
		s := "The kit's slowest dump took " + seconds(c.GatherMax) + " in torch.cuda.memory._snapshot() and " + seconds(c.WriteMax) + " to write"
		if c.DumpBytes > 0 {
			s += "; a dump is " + units.Bytes(c.DumpBytes) + " on average"
		}
		if c.TraceEntries >= 0 {
			s += ", with up to " + strconv.FormatInt(c.TraceEntries, 10) + " trace entries"
		}
		out = append(out, s+".")
	}
	if c.OOMs > 0 {
		s := "The kit's OOM observer saw " + units.CountOf(c.OOMs, "out-of-memory error")
		if c.OOMsWithoutSnapshot > 0 {
			s += ", " + strconv.Itoa(c.OOMsWithoutSnapshot) + " without a snapshot (the kit's limit per process, or a failed dump)"
		}
		out = append(out, s+".")
	}
	if c.ErrorCount > 0 {
		out = append(out, "The kit recorded "+units.CountOf(c.ErrorCount, "error")+": "+strings.Join(CaptureErrors(c), "; ")+".")
	}
	if len(c.Problems) > 0 {
		out = append(out, "Capture manifest fields not used: "+nameList(c.Problems)+".")
	}
	return out
}

// CaptureErrors are the kit's errors that c lists, each with its rank:
// "rank 2: dump 0 failed".
func CaptureErrors(c *analyze.Capture) []string {
	out := make([]string, len(c.Errors))
	for i, e := range c.Errors {
		out[i] = "rank " + strconv.Itoa(e.Rank) + ": " + e.Message
	}
	return out
}

// LogZone says in which zone a GPU log of the capture kit was read, when
// its manifest gave it: "zoneless times read in UTC+02:00, the UTC offset
// the capture manifest rank0/gpureport-capture.json records for its
// machine (no --tz given)"; "" when the log was read in the run's zone.
func LogZone(l analyze.LogInfo) string {
	if l.Zone == nil {
		return ""
	}
	off := "UTC"
	if l.Zone.Offset != 0 {
		off = time.Unix(0, 0).In(time.FixedZone("", int(l.Zone.Offset/time.Second))).Format("-07:00")
	}
	return "zoneless times read in " + utcZone(off) + ", the UTC offset the capture manifest " + l.Zone.Manifest + " records for its machine (no --tz given)"
}

// MissedOOM says which out-of-memory errors no snapshot was taken at
// (seen), and what to do so that one is (todo): start the capture kit,
// or, with the kit, why it took none; both nil when no OOM was missed.
func MissedOOM(m *analyze.MissedOOM) (seen, todo Sentence) {
	if m == nil {
		return nil, nil
	}
	seen = sentence("The out-of-memory error in ")
	for i, s := range m.Sources {
		if i > 0 {
			seen = append(seen, Part{Text: ", "})
		}
		if i == maxCaptureNames {
			seen = append(seen, Part{Text: strconv.Itoa(len(m.Sources)-i) + " more"})
			break
		}
		seen = append(seen, Part{Text: s, Code: true})
	}
	seen = append(seen, Part{Text: " has no snapshot taken at it"})
	if slices.ContainsFunc(m.Ranks, func(r int) bool { return r != input.NoRank }) {
		seen = append(seen, Part{Text: " (" + RankList(m.Ranks) + ")"})
	}
	if !m.Kit {
		return append(seen, Part{Text: ": gpureport's capture kit would have caught it."}),
			ticks("`pip install ./python` from a gpureport clone, call `gpureport_capture.start(run_dir, every=100)` after `torch.cuda.set_device` and `gpureport_capture.step(step)` at the end of every step: each rank then dumps a snapshot when the allocator runs out of memory, before the stack unwinds, and gpureport explains the OOM from it.")
	}
	switch m.Reason {
	case analyze.MissedNoManifest:
		return append(seen, Part{Text: ": that rank has no capture manifest, so it did not run the capture kit."}),
			sentence("Start the kit on every rank.")
	case analyze.MissedObserverOff:
		return append(seen, ticks(": the capture kit ran with `oom_snapshot=False`, or on a torch without the OOM observer (it needs PyTorch 2.0 or later).")...),
			ticks("Capture with `oom_snapshot=True` on PyTorch 2.1 or later.")
	case analyze.MissedNotWritten:
		return append(seen, ticks(": the capture kit's OOM observer fired but wrote no snapshot, over its limit per process (`max_oom_snapshots`) or because the dump failed (the manifest's errors say).")...), nil
	}
	return append(seen, Part{Text: ": the capture kit's OOM observer was never called, so the memory ran out outside PyTorch's caching allocator (NCCL, a cuBLAS or cuDNN workspace, a raw CUDA call) or in a process that did not run the kit."}), nil
}

// RankList names ranks: "rank 3", "ranks 0, 2, 5, 6, 7 and 2 more"; an
// unknown rank reads "rank unknown".
func RankList(ranks []int) string {
	names := make([]string, len(ranks))
	for i, r := range ranks {
		names[i] = "unknown"
		if r != input.NoRank {
			names[i] = strconv.Itoa(r)
		}
	}
	if len(ranks) == 1 {
		return "rank " + nameList(names)
	}
	return "ranks " + nameList(names)
}

// nameList joins names, at most maxCaptureNames of them.
func nameList(names []string) string {
	if len(names) > maxCaptureNames {
		return strings.Join(names[:maxCaptureNames], ", ") + " and " + strconv.Itoa(len(names)-maxCaptureNames) + " more"
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
