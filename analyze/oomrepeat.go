package analyze

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"time"

	"gpureport/gpulog"
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
//   - the files are no two instances of one file pattern (their paths
//     equal once digit runs are read alike: rank0.log and rank1.log,
//     attempt_0/0/stderr.log and attempt_1/0/stderr.log, node-3.out):
//     a launcher writes one such file per process, attempt or node, so
//     identical messages there are as many processes' (data-parallel
//     ranks on identical nodes print identical figures; a restarted
//     attempt fails again at the same step);
//   - their ranks are equal, or one is unknown and the known one is the
//     only rank whose messages match it: a launcher prefixes the rank on
//     the console and not in its per-process copy, so an unranked copy
//     is that rank's, unless two ranks printed the same figures and the
//     copy could be either's;
//   - their times, when both have one, are within oomCopySkew;
//   - the match says more than the words "out of memory": the message
//     gives a request and another figure, or the ranks or times are
//     known and equal. Figureless messages ("CUDA error: out of memory")
//     of two unknown processes are alike whatever happened.
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

// loggedOOM is one OOM event of the training logs: a message as path
// holds it, with its rank, time and Handled from every copy, and the
// other logs that repeat it.
type loggedOOM struct {
	path    string
	msg     gpulog.TrainingOOM
	repeats []string
	// members are the logs holding it (indices in the logs), patterns
	// their file patterns; order is the first copy's log and message.
	members  []int
	patterns []string
	order    [2]int
}

// reDigits finds the numbers of a path that tell instances of one file
// pattern apart.
var reDigits = regexp.MustCompile(`\d+`)

// filePattern is a path with each digit run read alike.
func filePattern(path string) string {
	return reDigits.ReplaceAllString(path, "#")
}

// oomFigures is a message less what two copies of it may differ in.
func oomFigures(m gpulog.TrainingOOM) gpulog.TrainingOOM {
	m.Line, m.Count, m.Time, m.Message, m.Rank, m.Handled = 0, 0, time.Time{}, "", 0, false
	return m
}

// distinctLoggedOOMs returns the OOM events of the logs' messages in log
// order, a message that copies another file's made one with it (see
// above). Messages with a rank are matched first, so that an unranked
// copy is matched against every rank that could have written it.
func distinctLoggedOOMs(logs []*gpulog.GPULog) []loggedOOM {
	type ref struct{ log, msg int }
	var ranked, unranked []ref
	for i, l := range logs {
		for j, m := range l.OOMs {
			if m.Rank == input.NoRank {
				unranked = append(unranked, ref{i, j})
			} else {
				ranked = append(ranked, ref{i, j})
			}
		}
	}
	var events []*loggedOOM
	for _, r := range append(ranked, unranked...) {
		l, m := logs[r.log], logs[r.log].OOMs[r.msg]
		pat := filePattern(l.Path)
		var match *loggedOOM
		ranks := map[int]bool{}
		for _, e := range events {
			if !copyOf(e, r.log, pat, m) {
				continue
			}
			if e.msg.Rank != input.NoRank {
				ranks[e.msg.Rank] = true
			}
			if match == nil || match.msg.Rank == input.NoRank && e.msg.Rank == m.Rank {
				match = e
			}
		}
		if match != nil && m.Rank == input.NoRank && len(ranks) > 1 {
			// Two ranks printed these figures: which one this copy is
			// cannot be told.
			match = nil
		}
		if match == nil {
			events = append(events, &loggedOOM{path: l.Path, msg: m, members: []int{r.log}, patterns: []string{pat}, order: [2]int{r.log, r.msg}})
			continue
		}
		match.members = append(match.members, r.log)
		match.patterns = append(match.patterns, pat)
		if r.log < match.order[0] || r.log == match.order[0] && r.msg < match.order[1] {
			// The event is shown from the first file that holds it.
			match.repeats = append(match.repeats, match.path)
			match.path, match.order = l.Path, [2]int{r.log, r.msg}
			keep := match.msg
			match.msg = m
			mergeCopy(&match.msg, keep)
		} else {
			match.repeats = append(match.repeats, l.Path)
			mergeCopy(&match.msg, m)
		}
	}
	slices.SortFunc(events, func(a, b *loggedOOM) int {
		return cmp.Or(cmp.Compare(a.order[0], b.order[0]), cmp.Compare(a.order[1], b.order[1]))
	})
	out := make([]loggedOOM, len(events))
	for i, e := range events {
		slices.Sort(e.repeats)
		out[i] = *e
	}
	return out
}

// copyOf reports whether message m of log li (file pattern pat) may be a
// copy of event e.
func copyOf(e *loggedOOM, li int, pat string, m gpulog.TrainingOOM) bool {
	if slices.Contains(e.members, li) || slices.Contains(e.patterns, pat) || oomFigures(e.msg) != oomFigures(m) {
		return false
	}
	if e.msg.Rank != m.Rank && e.msg.Rank != input.NoRank && m.Rank != input.NoRank {
		return false
	}
	timed := !e.msg.Time.IsZero() && !m.Time.IsZero()
	if timed && max(e.msg.Time.Sub(m.Time), m.Time.Sub(e.msg.Time)) > oomCopySkew {
		return false
	}
	figures := m.Requested > 0 && (m.Free >= 0 || m.Reserved >= 0 || m.Allocated >= 0 || m.Capacity >= 0)
	return figures || timed || (m.Rank != input.NoRank && m.Rank == e.msg.Rank)
}

// mergeCopy gives event o what a copy c of it knows besides: a rank or
// time o lacks, and the job's recovery from it.
func mergeCopy(o *gpulog.TrainingOOM, c gpulog.TrainingOOM) {
	if o.Rank == input.NoRank {
		o.Rank = c.Rank
	}
	if o.Time.IsZero() {
		o.Time = c.Time
	}
	o.Handled = o.Handled || c.Handled
}

// repeatedOOMNotes adds a note for each OOM that other files repeat,
// naming them.
func repeatedOOMNotes(f *Findings) {
	for _, o := range f.OOMs {
		if len(o.RepeatedIn) == 0 {
			continue
		}
		f.addNote(Note{Kind: NoteOOMRepeated, Device: DeviceKey{Rank: o.Rank, Device: o.Device}, Paths: [2]string{o.Path},
			Text: strings.Join(o.RepeatedIn, ", ")})
	}
}
