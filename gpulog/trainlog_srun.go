package gpulog

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gpureport/input"
)

// srun --label writes the task number before every line a task prints:
// Slurm's write_labelled_message formats it "%*d: ", the width being the
// digits of the largest task number (ntasks-1), so a 16-task step writes
// " 3: " and "12: " (Slurm before 2.x padded with zeros: "03: "). Task
// numbers run from 0 (SLURM_PROCID), and task 0 is the rank that logs in
// nearly every job. Other text starts lines with "N: " too: a logger's
// "%(process)d: %(message)s" (a process id, never 0: pid 0 is the
// kernel's), a numbered list. A file's "N: " prefixes are therefore read
// as task numbers only when they are task-like:
//
//   - task 0 is among them, or
//   - one of them is zero-padded, or padded with spaces to a width that
//     another one fills (" 3: " and "12: "): a logger prints a process
//     id unpadded, and an indented line alone (" 1: 'dog'" of a printed
//     dict) is no width.
//
// A file of one unpadded task other than 0 (a per-task --output=%t file
// of a job of at most 10 tasks, or a job whose task 0 printed nothing)
// gives no rank: its prefix cannot be told from a process id.
//
// A task is a rank only when it runs one process. srun around torchrun
// (or torch.distributed.launch) runs one task per node, each starting
// several processes: the task number is then the node. The file tells
// when it holds torchrun's own lines (its OMP_NUM_THREADS warning, printed
// only with several processes per node; a torchelastic report or a
// "[defaultN]:" prefix with a local rank above 0), when one task's
// messages name several GPUs, or when a message names a GPU above its
// task number (a task's index among the tasks of its node is at most its
// task number, so one process per GPU never does). Ranks are then left
// unknown where only the task gave them.
//
// The readers take a line's rank as its task number while the file is
// read (taskRank marks it so) and resolveTaskRanks decides at its end.

// taskRankBase marks a rank read from an srun label until the end of the
// file: task t is held as taskRankBase-t, below input.NoRank (-1), so no
// real rank (0 or more) nor NoRank is taken for one.
const taskRankBase = -2

// taskRank is the provisional rank of task t; fromTaskRank reads it back.
func taskRank(t int) int { return taskRankBase - t }

func fromTaskRank(r int) (int, bool) {
	if r > taskRankBase {
		return 0, false
	}
	return taskRankBase - r, true
}

// ompPerProcess is torchrun's (and torch.distributed.launch's) warning
// when it starts more than one process per node.
const ompPerProcess = "OMP_NUM_THREADS environment variable for each process"

// srunTasks is what a file's lines say about srun labels.
type srunTasks struct {
	// ids are the task numbers of the "N: " prefixes seen; padded is
	// true when one was zero-padded ("03: "), spaced the widths that
	// labels were padded to with spaces (" 3: " is 2) and full the widths
	// of labels without padding ("12: " is 2).
	ids    map[int]bool
	padded bool
	spaced map[int]bool
	full   map[int]bool
	// node says why tasks are nodes here ("" when nothing does).
	node string
}

// line notes what line (as a terminal shows it) says, and returns its
// srun label ("3: "; "" when it has none: taskLabel).
func (s *srunTasks) line(line string) (label string) {
	if line == "" {
		return ""
	}
	if c := line[0]; c == ' ' || (c >= '0' && c <= '9') {
		if m := srunLabel(line); m != nil {
			id, _ := atoi(m[1])
			if s.ids == nil {
				s.ids = map[int]bool{}
			}
			s.ids[id] = true
			width := len(m[0]) - len(": ")
			switch {
			case len(m[1]) > 1 && m[1][0] == '0':
				s.padded = true
			case line[0] == ' ':
				if s.spaced == nil {
					s.spaced = map[int]bool{}
				}
				s.spaced[width] = true
			default:
				if s.full == nil {
					s.full = map[int]bool{}
				}
				s.full[width] = true
			}
			label = m[0]
			line = line[len(m[0]):]
		}
	}
	if s.node != "" {
		return label
	}
	switch rest := strings.TrimLeft(line, " \t"); {
	case strings.Contains(line, ompPerProcess):
		s.node = "torchrun's OMP_NUM_THREADS warning shows several processes per task"
	case strings.HasPrefix(rest, "[default"):
		if m := rePrefixLocal.FindStringSubmatch(rest); m != nil && m[1] != "0" {
			s.node = fmt.Sprintf("torchrun's [default%s]: prefix shows several processes per task", m[1])
		}
	case strings.HasPrefix(rest, "rank"):
		if m := reElasticLocal.FindStringSubmatch(line); m != nil && m[1] != "0" {
			s.node = fmt.Sprintf("torchelastic's report names local rank %s, so a task runs several processes", m[1])
		}
	}
	return label
}

// srunLabel is rePrefixTask.FindStringSubmatch(line) ("  3: " and "3"),
// without the regexp: this runs on every line of every text log, and the
// regexp engine is slow to fail on a line of spaces (the blank line after
// each nvidia-smi table is 89 of them).
func srunLabel(line string) []string {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j == i || j-i > 6 || !strings.HasPrefix(line[j:], ": ") {
		return nil
	}
	return []string{line[:j+2], line[i:j]}
}

// reElasticLocal reads the local rank of torchelastic's report line
// ("  rank      : 11 (local_rank: 3)").
var reElasticLocal = regexp.MustCompile(`^\s*rank\s+: \d{1,6} \(local_rank: (\d{1,6})\)`)

// taskLike reports whether the labels seen are srun task numbers (see
// above).
func (s *srunTasks) taskLike() bool {
	if s.ids[0] || s.padded {
		return true
	}
	for w := range s.spaced {
		if s.full[w] {
			return true
		}
	}
	return false
}

// resolveTaskRanks turns the provisional task ranks of the log's OOM
// messages and memory readings into ranks, or into input.NoRank when the
// labels are not task numbers or the tasks are nodes, and notes why.
func (b *logBuilder) resolveTaskRanks() {
	s := &b.tasks
	l := b.log
	// The messages' GPUs: a task naming several, or one above its
	// number, runs several processes.
	devices := map[int]map[int]bool{}
	for _, o := range l.OOMs {
		t, ok := fromTaskRank(o.Rank)
		if !ok || o.Device < 0 {
			continue
		}
		if o.Device > t && s.node == "" {
			s.node = fmt.Sprintf("task %d's message on line %d names GPU %d, above its task number, which one process per GPU never does", t, o.Line, o.Device)
		}
		if devices[t] == nil {
			devices[t] = map[int]bool{}
		}
		devices[t][o.Device] = true
		if len(devices[t]) > 1 && s.node == "" {
			s.node = fmt.Sprintf("task %d's messages name %d GPUs", t, len(devices[t]))
		}
	}
	seen, kept := false, s.taskLike() && s.node == ""
	var nodes []string
	fix := func(r *int, line int) {
		t, ok := fromTaskRank(*r)
		if !ok {
			return
		}
		seen = true
		*r = input.NoRank
		switch {
		case kept:
			*r = t
		case s.taskLike() && line > 0 && len(nodes) < maxNodeNotes:
			nodes = append(nodes, "line "+strconv.Itoa(line)+" node "+strconv.Itoa(t))
		}
	}
	for i := range l.OOMs {
		fix(&l.OOMs[i].Rank, l.OOMs[i].Line)
	}
	for i := range l.MemoryStats {
		fix(&l.MemoryStats[i].Rank, 0)
	}
	if !seen {
		return
	}
	switch {
	case kept:
		b.note("ranks of OOM messages and memory summaries come from srun --label's \"N: \" prefix, the Slurm task number")
	case !s.taskLike():
		ids := make([]int, 0, len(s.ids))
		for id := range s.ids {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		if len(ids) > maxNodeNotes {
			ids = ids[:maxNodeNotes]
		}
		b.note(fmt.Sprintf("the \"N: \" line prefixes (%s) are not read as srun --label's task numbers, which start at 0 and are padded to one width: none is 0 or padded to a common width (a process id, a numbered list); ranks are unknown",
			strings.Trim(fmt.Sprint(ids), "[]")))
	default:
		where := ""
		if len(nodes) > 0 {
			where = " (OOM " + strings.Join(nodes, ", ") + ")"
		}
		b.note(fmt.Sprintf("srun --label's task numbers are nodes here, not ranks: %s; ranks are unknown where only the task number gave one%s", s.node, where))
	}
}

// maxNodeNotes bounds the lines and prefixes a note lists: enough to
// find them, short enough to read.
const maxNodeNotes = 5
