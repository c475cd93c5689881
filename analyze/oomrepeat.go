package analyze

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
)

// One process's output often lands in several files of a run: nohup's
// train.log and W&B's console capture (wandb/run-*/files/output.log),
// torchrun --tee's console copy and its log_dir's
// attempt_N/R/stderr.log, Ray's driver.log and Tune's error.txt, NeMo's
// per-rank log and nemo_error_log.txt, torchelastic's error.json. Each
// copy holds the same OOM message, byte for byte; it is one OOM
// (distinctLoggedOOMs), shown from the first file, with the others named
// (OOM.RepeatedIn, NoteOOMRepeated).
//
// Messages of two files are one event when:
//
//   - every figure is equal (kind, backend, GPU, request, capacity, free,
//     allocated, reserved, ...: the printed figures to the last digit);
//   - the files are no two instances of one file pattern (twoProcesses:
//     their paths equal once digit runs are read alike, rank0.log and
//     rank1.log, attempt_0/0/stderr.log and attempt_1/0/stderr.log,
//     node-3.out; one file name in two folders, first_try/train.log and
//     resumed/train.log; names of several words, one apart,
//     gpu-host-east.log and gpu-host-west.log): a launcher, a job script
//     or a person writes one such file per process, attempt, node or
//     relaunch, so identical messages there are as many processes'
//     (data-parallel ranks on identical nodes print identical figures; a
//     restarted attempt fails again at the same step), while a tool's
//     copy of a process's output has a name of its own (W&B's
//     output.log, Ray Tune's error.txt, nemo_error_log.txt, a
//     launcher's stderr.log beside the console);
//   - their ranks are equal, or one is unknown and the known one is the
//     only rank whose messages match it: a launcher prefixes the rank on
//     the console and not in its per-process copy, so an unranked copy
//     is that rank's, unless two ranks printed the same figures and the
//     copy could be either's;
//   - their machines (a launcher's pod or host label), when both name
//     one, are equal, and a copy naming none is matched only when one
//     machine printed those figures;
//   - their times, when both have one, are within oomCopySkew;
//   - the match says more than the words "out of memory": the message
//     gives a request and another figure, or the ranks or times are
//     known and equal. Figureless messages ("CUDA error: out of memory")
//     of two unknown processes are alike whatever happened.
//
// Limits: two processes' files under unrelated names in one folder
// (node-a.log and worker_b.out, each node's output redirected by its own
// script) look like one process's output teed to two files (slurm-N.out
// and train.log), and an unranked file of another node beside a ranked
// console (`[rank0]:` and second-node/train.log, when no other rank
// printed the figures) like the console's per-process copy: their
// messages are one when figures (and times) agree. The lines around the
// message do not tell them apart: ranks of one job run one program on one
// image, so their tracebacks name the same files and lines.
//
// A file's own identical messages are told apart by the training-log
// reader (an echo within a few hundred lines is one, a retry later is
// another), so an event takes at most one message of each file.

// oomCopySkew is how far apart two copies' times of one message may be:
// times print to the second (a copy stamped in the next second reads one
// apart), and a collector that stamps lines itself (kubectl
// --timestamps, a container runtime) receives them within a fraction of a
// second; 2 s covers both, and two OOMs of one process are a training
// step or a retry apart, whose figures then differ.
const oomCopySkew = 2 * time.Second

// twoProcesses reports whether the files at paths a and b (relative to
// the run folder, '/'-separated) are two instances of one file pattern,
// which a launcher, job script or person writes once per process,
// attempt, node or relaunch (see the top of this file): their paths equal
// once digit runs are read alike; one file name in two folders; or, in
// one folder, names of one extension whose stems have the same number of
// words, at least two, and differ in one (a host's or node's word:
// gpu-host-east.log, gpu-host-west.log). One word alone (train.log and
// output.log) is no pattern: a tool names its copy so.
func twoProcesses(a, b string) bool {
	if a == b {
		return false
	}
	if ingest.PathPattern(a) == ingest.PathPattern(b) {
		return true
	}
	da, fa := path.Split(a)
	db, fb := path.Split(b)
	if fa == fb {
		return true
	}
	ext := path.Ext(fa)
	if da != db || ext != path.Ext(fb) {
		return false
	}
	isSep := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
	wa := strings.FieldsFunc(strings.TrimSuffix(fa, ext), isSep)
	wb := strings.FieldsFunc(strings.TrimSuffix(fb, ext), isSep)
	if len(wa) < 2 || len(wa) != len(wb) {
		return false
	}
	differ := 0
	for i := range wa {
		if wa[i] != wb[i] {
			differ++
		}
	}
	return differ == 1
}

// oomFigures is a message less what two copies of it may differ in.
func oomFigures(m gpulog.TrainingOOM) gpulog.TrainingOOM {
	m.Line, m.Count, m.Time, m.Message, m.Rank, m.Handled, m.Fatal, m.Machine = 0, 0, time.Time{}, "", 0, false, false, ""
	return m
}

// loggedOOM is one OOM event being gathered: the copy it is shown from
// (its first, in log order) and the logs holding it.
type loggedOOM struct {
	logOOM
	order   int
	members []string
}

// distinctLoggedOOMs returns the placed messages (placeLogOOMs: in log
// order, each with the rank its line or its path gives) less the copies of
// another file's message (see above), each event in its first copy's
// place with the other files in repeats. Messages with a rank are matched
// first, so that an unranked copy is matched against every rank that
// could have written it. The logs' own messages are never changed: an
// event that takes what a copy knows is a copy of the message.
func distinctLoggedOOMs(placed []logOOM) []logOOM {
	var ranked, unranked []int
	for i, p := range placed {
		if p.key.Rank == input.NoRank {
			unranked = append(unranked, i)
		} else {
			ranked = append(ranked, i)
		}
	}
	var events []*loggedOOM
	for _, i := range append(ranked, unranked...) {
		p := placed[i]
		var match *loggedOOM
		ranks, machines := map[int]bool{}, map[string]bool{}
		for _, e := range events {
			if !copyOf(e, p) {
				continue
			}
			if e.key.Rank != input.NoRank {
				ranks[e.key.Rank] = true
			}
			if e.m.Machine != "" {
				machines[e.m.Machine] = true
			}
			if match == nil || match.key.Rank == input.NoRank && e.key.Rank == p.key.Rank {
				match = e
			}
		}
		if match != nil && (p.key.Rank == input.NoRank && len(ranks) > 1 || p.m.Machine == "" && len(machines) > 1) {
			// Two ranks, or two machines, printed these figures: which
			// one this copy is cannot be told.
			match = nil
		}
		if match == nil {
			events = append(events, &loggedOOM{logOOM: p, order: i, members: []string{p.path}})
			continue
		}
		match.members = append(match.members, p.path)
		if match.lines == nil {
			match.lines = map[string]int{}
		}
		match.lines[p.path] = p.m.Line
		if i < match.order {
			// The event is shown from the first file that holds it.
			keep := match.logOOM
			match.repeats = append(keep.repeats, keep.path)
			match.path, match.m, match.key, match.order = p.path, p.m, p.key, i
			mergeCopy(&match.logOOM, keep)
		} else {
			match.repeats = append(match.repeats, p.path)
			mergeCopy(&match.logOOM, p)
		}
	}
	slices.SortFunc(events, func(a, b *loggedOOM) int { return cmp.Compare(a.order, b.order) })
	out := make([]logOOM, len(events))
	for i, e := range events {
		slices.Sort(e.repeats)
		out[i] = e.logOOM
	}
	return out
}

// copyOf reports whether placed message p may be a copy
// of event e.
func copyOf(e *loggedOOM, p logOOM) bool {
	if slices.Contains(e.members, p.path) || slices.ContainsFunc(e.members, func(m string) bool { return twoProcesses(m, p.path) }) || oomFigures(*e.m) != oomFigures(*p.m) {
		return false
	}
	if e.key.Rank != p.key.Rank && e.key.Rank != input.NoRank && p.key.Rank != input.NoRank || e.key.Type != p.key.Type {
		return false
	}
	// Like ranks, machines (a launcher's pod or host label) must agree
	// when both copies name one: a console stream labels its lines, the
	// process's own file does not.
	if e.m.Machine != p.m.Machine && e.m.Machine != "" && p.m.Machine != "" {
		return false
	}
	m := p.m
	timed := !e.m.Time.IsZero() && !m.Time.IsZero()
	if timed && max(e.m.Time.Sub(m.Time), m.Time.Sub(e.m.Time)) > oomCopySkew {
		return false
	}
	figures := m.Requested > 0 && (m.Free >= 0 || m.Reserved >= 0 || m.Allocated >= 0 || m.Capacity >= 0)
	return figures || timed || (p.key.Rank != input.NoRank && p.key.Rank == e.key.Rank)
}

// mergeCopy gives event o what a copy c of it knows besides: a rank (and
// so the device placed with it) or time o lacks, and the job's recovery
// from it or death of it (a death in any copy undoes a recovery). o's
// message becomes a copy before it changes.
func mergeCopy(o *logOOM, c logOOM) {
	if o.key.Rank == input.NoRank && c.key.Rank != input.NoRank {
		o.key = c.key
	}
	if (o.m.Time.IsZero() && !c.m.Time.IsZero()) || (!o.m.Handled && c.m.Handled) || (!o.m.Fatal && c.m.Fatal) || o.m.Rank == input.NoRank && c.m.Rank != input.NoRank || o.m.Machine == "" && c.m.Machine != "" {
		m := *o.m
		if m.Time.IsZero() {
			m.Time = c.m.Time
		}
		if m.Rank == input.NoRank {
			m.Rank = c.m.Rank
		}
		// A copy that shows the process died of it (the console's
		// copy, followed by the launcher's failure report) outweighs
		// one whose recovery line it undid.
		m.Fatal = m.Fatal || c.m.Fatal
		m.Handled = (m.Handled || c.m.Handled) && !m.Fatal
		if m.Machine == "" {
			m.Machine = c.m.Machine
		}
		o.m = &m
	}
}

// repeatedOOMNotes adds a note for the OOMs of each device and file that
// the same other files repeat, naming them, with how many OOMs they are
// (Count): a tee of a log with two OOMs holds both.
func repeatedOOMNotes(f *Findings) {
	for _, o := range f.OOMs {
		if len(o.RepeatedIn) == 0 {
			continue
		}
		n := Note{Kind: NoteOOMRepeated, Device: o.Key(), Paths: [2]string{o.Path},
			Text: strings.Join(o.RepeatedIn, ", ")}
		i := slices.IndexFunc(f.Notes, func(m Note) bool { m.Count = 0; return m == n })
		if i < 0 {
			f.Notes = append(f.Notes, n)
			i = len(f.Notes) - 1
		}
		f.Notes[i].Count++
	}
}
