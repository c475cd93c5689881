package ingest

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/input"
)

// Phase says at which point of training a snapshot was dumped.
type Phase string

// Snapshot phases. A periodic dump is taken at the same point of every
// N-th step and forms the trend; an OOM (or exit) dump is taken when the
// run failed, mid-step: it is evidence for that event, not a trend point
// (docs/design.md, "Snapshot phase").
const (
	// PhasePeriodic is a regular dump (the default when the name says
	// nothing else).
	PhasePeriodic Phase = ""
	// PhaseOOM is a dump written on an out-of-memory error or at exit:
	// torchtitan's iteration_N_exit folders, or a name that says oom or
	// exit as a word of its own.
	PhaseOOM Phase = "oom"
)

// OrderKind says what kind of number in a file name ordered a snapshot
// that has no step in its name.
type OrderKind string

// Order kinds, from the most to the least trustworthy as an order.
const (
	// OrderNone: the name gives no order.
	OrderNone OrderKind = ""
	// OrderTimestamp: a date-time or a Unix time in the name.
	OrderTimestamp OrderKind = "timestamp"
	// OrderEpoch: an epoch number (epoch3): coarser than a step, not one.
	OrderEpoch OrderKind = "epoch"
	// OrderIndex: a bare trailing number (mem_snapshot_3): a dump counter,
	// which orders the files but says nothing about how many steps lie
	// between them.
	OrderIndex OrderKind = "index"
)

// NameInfo is what a snapshot's path (relative to its run directory)
// says about it.
type NameInfo struct {
	// Step is the training step: an explicit step keyword (step_100,
	// iter-7, iteration100, it_5, global_step=30, batch12) in the file name,
	// else in the nearest folder name that has one (torchtitan's
	// iteration_N); NoStep when none.
	Step int64
	// Order is a number that orders the file among its run's snapshots but
	// is not a step (see OrderKind); meaningful only when OrderKind is set.
	// Timestamps are Unix nanoseconds.
	Order int64
	// OrderKind says what Order is; OrderNone when the name has none.
	OrderKind OrderKind
	// Rank is the distributed rank from the path, NoRank when none.
	Rank int
	// Phase is PhaseOOM for exit and OOM dumps.
	Phase Phase
	// Epoch is the epoch number (epoch3, epoch_3, ep-3) in the file name,
	// else in the nearest folder name that has one; NoEpoch when none.
	// Beside a step it says which epoch the step counts in: a per-epoch
	// step counter restarts every epoch (epoch1_step100 comes after
	// epoch0_step900).
	Epoch int64
}

// NoEpoch is NameInfo.Epoch and SnapshotFile.Epoch of a path that names
// no epoch.
const NoEpoch int64 = -1

var (
	// rankRE finds a rank in a path: rank3, rank_3, rank-3, local_rank_3
	// (any case), not preceded by a letter (so "cranky1" does not count).
	rankRE = regexp.MustCompile(`(?i)(?:^|[^a-z])rank[_-]?(\d+)`)
	// rankDirRE is a folder named only by a short rank: r3, R_3.
	rankDirRE = regexp.MustCompile(`(?i)^r[_-]?(\d+)$`)
	// hfCheckpointRE is a Hugging Face Trainer checkpoint folder,
	// checkpoint-500: the number is the global step the Trainer saved at.
	// Only the Trainer's exact folder form counts (a file
	// checkpoint_3.pickle is more likely a counter).
	hfCheckpointRE = regexp.MustCompile(`^checkpoint-(\d+)$`)
	// monthTimeRE finds a date-time with a month name and no year:
	// Sep_30_23_52_00, the "%b_%d_%H_%M_%S" of PyTorch's "Understanding
	// GPU Memory" recipe (f"{host}_{timestamp}.pickle"), or the same
	// without seconds (Sep_30_23_52). The year comes from the file's
	// modification time (monthTime).
	monthTimeRE = regexp.MustCompile(`(?i)(?:^|[^a-z])(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[_-]?(0?[1-9]|[12]\d|3[01])[_-]([01]\d|2[0-3])[-_:.]?([0-5]\d)(?:[-_:.]?([0-5]\d))?(?:\D|$)`)
	// stepKeywordRE finds an explicit step: step_100, iter-7,
	// iteration100, it_5, global_step=30, batch12. An epoch is not a step.
	stepKeywordRE = regexp.MustCompile(`(?i)(?:^|[^a-z])(step|iteration|iter|it|batch)[_=-]?(\d+)`)
	// epochRE finds an epoch number: epoch3, epoch_3, ep-3.
	epochRE = regexp.MustCompile(`(?i)(?:^|[^a-z])(?:epoch|ep)[_=-]?(\d+)`)
	// dateTimeRE finds a calendar date with an optional time of day, with
	// or without seconds: 20241105, 2024-11-05, 20241105_153012,
	// 2024-11-05T15-30-12, 2024-11-05_15:30:12, 2024-11-05_15-30,
	// 20241105_1530, 202411051530. A time without seconds is part of the
	// timestamp: read as a date alone, every dump of one day would share
	// one place in the run, and its hour and minute would be left in the
	// path as numbers that seem to tell processes apart.
	dateTimeRE = regexp.MustCompile(`(?:^|\D)((?:19|20)\d\d)[-_]?(0[1-9]|1[0-2])[-_]?(0[1-9]|[12]\d|3[01])(?:[T_-]?([01]\d|2[0-3])[-_:.]?([0-5]\d)(?:[-_:.]?([0-5]\d))?)?(?:\D|$)`)
	// numberRE finds runs of digits.
	numberRE = regexp.MustCompile(`\d+`)
	// notStepRE marks numbers that name a device or rank, not a step.
	notStepRE = regexp.MustCompile(`(?i)(?:^|[^a-z])(?:local_rank|rank|gpu|cuda|device|dev|node)[_-]?\d+`)
	// phaseRE finds a word that marks an OOM or exit dump: oom, exit,
	// crash, as a word of its own (iteration_3_exit, oom_snapshot,
	// snapshot-on-crash), not inside another word (zoom, exiting).
	phaseRE = regexp.MustCompile(`(?i)(?:^|[^a-z])(oom|exit|crash|outofmemory|out_of_memory)(?:[^a-z]|$)`)
)

// Unix times in names are told from counters by magnitude: a Unix time in
// seconds after 2001-09-09 has 10 digits (>= 1e9), in milliseconds 13, in
// microseconds 16, in nanoseconds 19. No step or dump counter reaches 1e9,
// so a bare number of 10, 13, 16 or 19 digits is taken as a time.
var unixDigits = map[int]time.Duration{10: time.Second, 13: time.Millisecond, 16: time.Microsecond, 19: time.Nanosecond}

// ParseName reads what a snapshot's path relative to its run directory
// says: step, order, rank, phase and epoch. Only the file name and the
// folders inside the run directory are read (the run directory's own name
// is not part of rel). A date-time without a year in the name (Sep_30_…)
// is placed in noYear; ParseNameAt takes the year from the file's time.
func ParseName(rel string) NameInfo { return ParseNameAt(rel, time.Time{}) }

// ParseNameAt is ParseName for a file modified at mod: a date-time without
// a year in its name (monthTimeRE) is taken in the latest year that does
// not put it more than a day after mod (a file is written after the time
// its name gives, in whatever zone the name was written in), so that
// names across a New Year (Dec_31_23_58, Jan_01_00_03) keep their order.
// A zero mod places such a date-time in noYear.
func ParseNameAt(rel string, mod time.Time) NameInfo {
	rel = strings.ReplaceAll(rel, `\`, "/")
	dir, base := path.Split(rel)
	base = trimSnapshotExt(base)
	info := NameInfo{Step: input.NoStep, Rank: RankFromPath(rel), Epoch: NoEpoch}
	if phaseRE.MatchString(base) || phaseRE.MatchString(dir) {
		info.Phase = PhaseOOM
	}
	parts := strings.Split(strings.Trim(dir, "/"), "/")
	info.Step = keywordStep(base)
	if info.Step == input.NoStep {
		// Steps from folder names, nearest folder first
		// (memory_snapshot/iteration_20/rank0_memory_snapshot.pickle,
		// checkpoint-500/memory_snapshot.pickle).
		for _, p := range slices.Backward(parts) {
			s := keywordStep(p)
			if m := hfCheckpointRE.FindStringSubmatch(p); m != nil && s == input.NoStep {
				s, _ = strconv.ParseInt(m[1], 10, 64)
			}
			if s != input.NoStep {
				info.Step = s
				break
			}
		}
	}
	info.Epoch = lastEpoch(base)
	if info.Epoch == NoEpoch {
		for _, p := range slices.Backward(parts) {
			if e := lastEpoch(p); e != NoEpoch {
				info.Epoch = e
				break
			}
		}
	}
	// The order comes from the numbers that are not the step's.
	info.Order, info.OrderKind = nameOrder(stepKeywordRE.ReplaceAllString(base, "_"), mod)
	return info
}

// noYear is the year ParseName gives a date-time whose name has none and
// whose file time is unknown: a leap year, so that Feb_29 stays itself.
const noYear = 2000

// lastEpoch is the last epoch number in one path component; NoEpoch when
// none.
func lastEpoch(s string) int64 {
	m := epochRE.FindAllStringSubmatch(s, -1)
	if m == nil {
		return NoEpoch
	}
	n, err := strconv.ParseInt(m[len(m)-1][1], 10, 64)
	if err != nil {
		return NoEpoch
	}
	return n
}

// monthTime is the time a monthTimeRE match m gives, in the year described
// at ParseNameAt.
func monthTime(m []string, mod time.Time) time.Time {
	mo := time.Month(1 + strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", strings.ToLower(m[1]))/3)
	var n [4]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[2+i]) // seconds left out: 0
	}
	at := func(y int) time.Time { return time.Date(y, mo, n[0], n[1], n[2], n[3], 0, time.UTC) }
	if mod.IsZero() {
		return at(noYear)
	}
	// A day of slack: the name may be in a zone up to 14 hours off UTC,
	// the file time is UTC.
	y := mod.Year()
	if at(y).After(mod.Add(24 * time.Hour)) {
		y--
	}
	return at(y)
}

// StepFromName parses a training step from a snapshot path: an explicit
// step keyword in the file name, else in a folder name; NoStep when none.
// Epochs, timestamps and bare counters are not steps (see ParseName).
func StepFromName(p string) int64 { return ParseName(p).Step }

// trimSnapshotExt removes snapshot and compression extensions.
func trimSnapshotExt(base string) string {
	for strings.Contains(base, ".") {
		ext := path.Ext(base)
		if !isSnapshotExt(ext) && !isCompressionExt(ext) && ext != ".zip" {
			break
		}
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// keywordStep is the step an explicit keyword gives in one path component,
// the last such keyword winning; NoStep when none.
func keywordStep(s string) int64 {
	best := input.NoStep
	for _, m := range stepKeywordRE.FindAllStringSubmatch(s, -1) {
		if n, err := strconv.ParseInt(m[2], 10, 64); err == nil {
			best = n
		}
	}
	return best
}

// nameOrder finds an ordering number in a file name (without extension)
// that is not a step: a date-time (with a year, or a month name and none:
// monthTime with the file time mod) or Unix time (nameTime), else an
// epoch, else the last bare number that does not name a rank or device.
func nameOrder(base string, mod time.Time) (int64, OrderKind) {
	if t, _, _, ok := nameTime(base, mod); ok {
		return t, OrderTimestamp
	}
	cleaned := notStepRE.ReplaceAllString(base, "_")
	if m := epochRE.FindAllStringSubmatch(base, -1); m != nil {
		if n, err := strconv.ParseInt(m[len(m)-1][1], 10, 64); err == nil {
			return n, OrderEpoch
		}
	}
	for _, loc := range slices.Backward(numberRE.FindAllStringIndex(cleaned, -1)) {
		// A number glued to the letters after it is a count or a size
		// (4dev, 8xh100, 128k), not an order.
		if end := loc[1]; end < len(cleaned) && isLetter(cleaned[end]) {
			continue
		}
		n, err := strconv.ParseInt(cleaned[loc[0]:loc[1]], 10, 64)
		if err != nil {
			return 0, OrderNone
		}
		return n, OrderIndex
	}
	return 0, OrderNone
}

// nameTime finds the timestamp in a file name (without extension): a
// date-time with a month name and no year (monthTimeRE, in the year
// monthTime gives with the file time mod), else a date with an optional
// time of day (dateTimeRE), else the first run of digits of a Unix
// time's length (unixDigits) that names no rank or device. It returns
// the time in Unix nanoseconds and the bytes [lo, hi) of name the
// timestamp spans; ok is false when there is none.
func nameTime(name string, mod time.Time) (t int64, lo, hi int, ok bool) {
	for _, re := range []*regexp.Regexp{monthTimeRE, dateTimeRE} {
		m := re.FindStringSubmatchIndex(name)
		if m == nil {
			continue
		}
		// The span runs from the first group's start to the last
		// matched group's end (the delimiters around it are not part
		// of it).
		lo, hi = m[2], m[3]
		for g := 2; 2*g+1 < len(m); g++ {
			hi = max(hi, m[2*g+1])
		}
		sub := make([]string, len(m)/2)
		for g := range sub {
			if m[2*g] >= 0 {
				sub[g] = name[m[2*g]:m[2*g+1]]
			}
		}
		if re == monthTimeRE {
			return monthTime(sub, mod).UnixNano(), lo, hi, true
		}
		return dateTime(sub).UnixNano(), lo, hi, true
	}
	// Numbers that name a rank or device are blanked at the same
	// offsets, so that the span is name's.
	blanked := notStepRE.ReplaceAllStringFunc(name, func(m string) string { return strings.Repeat("_", len(m)) })
	for _, loc := range numberRE.FindAllStringIndex(blanked, -1) {
		digits := blanked[loc[0]:loc[1]]
		if unit, ok := unixDigits[len(digits)]; ok && digits[0] != '0' {
			if n, err := strconv.ParseInt(digits, 10, 64); err == nil && n <= (1<<63-1)/int64(unit) {
				return n * int64(unit), loc[0], loc[1], true
			}
		}
	}
	return 0, 0, 0, false
}

// dateTime is the time (UTC) a dateTimeRE match m gives; a time of day
// or seconds left out are 0.
func dateTime(m []string) time.Time {
	hms := [3]int{}
	for i := range 3 {
		if m[4+i] != "" {
			hms[i], _ = strconv.Atoi(m[4+i])
		}
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	return time.Date(y, time.Month(mo), d, hms[0], hms[1], hms[2], 0, time.UTC)
}

// TimelessPath is p with the date-time in its file name (the timestamp
// nameOrder reads: a date-time with or without a year, or a Unix time)
// written as one "*": paths that differ only there are dumps of one
// writer at different times. A date-time spans several digit runs
// (Sep_30_23_52_00), which a digit-by-digit comparison of paths would
// take for several numbers, one of them (the day) shared by some files.
func TimelessPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	dir, base := path.Split(p)
	name := trimSnapshotExt(base)
	// Only a name whose order is a time, as nameOrder reads it (steps
	// set aside); the span is then found in the name as it is.
	if _, _, _, ok := nameTime(stepKeywordRE.ReplaceAllString(name, "_"), time.Time{}); !ok {
		return p
	}
	if _, lo, hi, ok := nameTime(name, time.Time{}); ok {
		return dir + base[:lo] + "*" + base[hi:]
	}
	return p
}

// EpochShape is p with the digits of every epoch number in it (epoch3,
// epoch_3, ep-3) written as one "#": paths that differ only there name
// stages of one training process, not processes side by side.
func EpochShape(p string) string {
	return epochRE.ReplaceAllStringFunc(p, func(m string) string { return strings.TrimRight(m, "0123456789") + "#" })
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// RankFromPath parses a distributed rank from any component of a path
// (rank3, rank_3, rank-3, local_rank_3, rank3_memory_snapshot, a folder
// named only r3, or a launcher's form: launcher_paths.go), the last
// component that names one winning; NoRank when none.
func RankFromPath(p string) int {
	parts := strings.Split(strings.ReplaceAll(p, `\`, "/"), "/")
	for i, part := range slices.Backward(parts) {
		if n, ok := launcherPathRank(parts, i); ok {
			return n
		}
		if ms := rankRE.FindAllStringSubmatch(part, -1); len(ms) > 0 {
			if n, err := strconv.Atoi(ms[len(ms)-1][1]); err == nil {
				return n
			}
		}
		// r3 counts only as a folder (a file named r3.pickle is more
		// likely a counter than a rank).
		if i < len(parts)-1 {
			if m := rankDirRE.FindStringSubmatch(part); m != nil {
				if n, err := strconv.Atoi(m[1]); err == nil {
					return n
				}
			}
		}
	}
	return input.NoRank
}

// isCompressionExt reports whether ext names a compression a snapshot
// may be under (read: gzip, bzip2; named in the skip reason: xz, zstd).
func isCompressionExt(ext string) bool {
	switch strings.ToLower(ext) {
	case ".gz", ".bz2", ".xz", ".zst":
		return true
	}
	return false
}

func isSnapshotExt(ext string) bool {
	switch strings.ToLower(ext) {
	case ".pickle", ".pkl", ".pt", ".pth":
		return true
	}
	return false
}

// PathPattern is rel (a path relative to the run folder) with each run of
// digits read alike ("#"): two paths of one pattern (rank0/train.log and
// rank1/train.log, attempt_0/1 and attempt_1/1, node-3.out and
// node-4.out) are the files a launcher, job script or person writes once
// per process, attempt or node.
func PathPattern(rel string) string { return numberRE.ReplaceAllString(rel, "#") }
