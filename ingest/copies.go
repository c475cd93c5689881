package ingest

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"gpureport/internal/natural"
	"io"
	"log/slog"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"gpureport/gpulog"
	"gpureport/input"
)

// Plain copies. A run folder may hold a snapshot or a log twice as two
// files of the same bytes: final.pickle copied from
// snapshot_step_900.pickle, latest.pickle written by shutil.copy, a log
// copied beside itself (train_copy.log, "train (1).log" of a second
// download). Links are found by the file's identity (sameFiles); copies
// only by their bytes. But two files of the same bytes are not always
// one dump: a process whose memory is steady, without an allocator trace
// (whose event times differ in every dump), dumps the same bytes at
// every step; idle processes of one job dump the same bytes side by
// side; data-parallel ranks on identical nodes, in lockstep, write the
// same log to the digit (node-a.log, worker_b.out). Those are
// observations of their own. A copy is made by a person, a tool or a
// script that names it so: the OSes' and tools' copy names ("Copy of
// train.log", "train - Copy.log", "train copy 2.log", "train (1).log",
// train.log~, train.old.log, train_backup.log) or the generic names a
// script copies the last file to (latest, final). So a file is taken as
// a copy only when its name says so (copyName: a copy word or number,
// and else no digit, no step, time, counter or device number, and no
// word of an OOM or exit dump) and the file it copies is in the same
// folder, or both paths name the same rank (rank0/final.pickle,
// rank0/snapshots/snapshot_step_900.pickle). Its bytes are then compared
// with the files of its size, kind and place only: a run of distinct
// snapshots, all named by step, reads no byte more. The original is the
// name that says nothing of a copy (gpu.csv, not "gpu (1).csv").

// compareBlock is how many bytes of each of two files sameBytes holds at
// once (bytes): a 1 GB snapshot is compared in a thousand reads of each
// file, whose system calls cost nothing beside the reading, and the
// memory is nothing beside a snapshot's.
const compareBlock = 1 << 20

// copyName reports whether the path rel (relative to the run folder)
// names a file that may be a copy of another: its file name, without the
// snapshot and compression extensions, says it is a copy (copyMarked),
// carries no digit besides the copy's own number (no step, time, counter
// or device number that could make it an observation of its own), and
// neither it nor its folders say it is an OOM or exit dump.
func copyName(rel string) bool {
	_, base := path.Split(strings.ReplaceAll(rel, `\`, "/"))
	base = trimSnapshotExt(base)
	// The digits first: most names have some, and ParseName is the
	// dearer test.
	unnumbered := reCopyNumber.ReplaceAllString(base, "")
	return !strings.ContainsAny(unnumbered, "0123456789") && copyMarked(base) && ParseName(rel).Phase == PhasePeriodic
}

// reCopyNumber finds the numbers that tools put in a copy's name, which
// count its copies and are no step or device: a browser's or Windows'
// duplicate "train (1).log" and "train - Copy (2).log", old Windows'
// "Copy (2) of train.log", macOS Finder's "train copy 2.log", GNOME's
// "train (3rd copy).log", cp --backup=numbered's "train.log.~1~".
var reCopyNumber = regexp.MustCompile(`(?i) \(\d+\)|copy \(\d+\)|copy \d+|\(\d+(?:st|nd|rd|th) copy\)|\.~\d+~$`)

// copyWords are the words of a name that say it is a copy of a file or a
// generic name given to one: the OSes' and tools' copy words ("Copy of",
// "- Copy", "copy", "(another copy)"; .bak, .old, .orig, .backup of
// editors and admins) and the names a script copies the last file to
// (latest, final). A file of the same bytes as another under a name that
// says neither is taken as an observation of its own: two nodes' logs of
// lockstep ranks, node-a.log and worker_b.out, are byte for byte alike
// (training logs; GPU logs of timed readings are not, see timedCopies).
var copyWords = map[string]bool{"copy": true, "backup": true, "bak": true, "old": true, "orig": true, "latest": true, "final": true}

// copyMarked reports whether a file name (without its snapshot and
// compression extensions) says it is a copy: one of its words (letter
// runs, any case) is a copy word, it carries a copy number
// (reCopyNumber), or it ends in a backup's "~".
func copyMarked(base string) bool {
	if strings.HasSuffix(base, "~") || reCopyNumber.MatchString(base) {
		return true
	}
	words := strings.FieldsFunc(strings.ToLower(base), func(r rune) bool { return r < 'a' || r > 'z' })
	return slices.ContainsFunc(words, func(w string) bool { return copyWords[w] })
}

// place is where a path (relative to the run folder) lies: its folder
// and the rank it names (RankFromPath).
type place struct {
	dir  string
	rank int
}

func pathPlace(rel string) place { return place{path.Dir(rel), RankFromPath(rel)} }

// samePlace reports whether two paths may hold one process's files: the
// same folder and the same rank named in the path (no rank at all counts
// as the same), or the same rank named in folders that differ, unless
// the folders are two instances of one pattern (attempt_0/1 and
// attempt_1/1: torchelastic's restarts of local rank 1; node0 and node1):
// a launcher makes one such folder per attempt or node, each a process
// of its own, which may well write the same bytes.
func samePlace(a, b place) bool {
	if a.rank != b.rank || a.rank == input.NoRank && a.dir != b.dir {
		return false
	}
	return a.dir == b.dir || PathPattern(a.dir) != PathPattern(b.dir)
}

// Timed GPU readings copied under any name. A GPU log whose readings
// carry clock times (nvidia-smi's CSV timestamps, its table's date line,
// dmon -o T) is one machine's observation at those moments: two
// machines, or two processes, never log the same figures at the same
// times to the millisecond. Two such logs of the same bytes are one log
// read twice, whatever their names (nvidia-smi.csv copied to
// gpu_mem.csv), and read twice they double the GPU's readings. Such a log
// is a copy of the first of its bytes in natural path order, in any
// folder, and the skip reason names it. Logs without a clock time (a
// memory.used column alone, a training log's lines) keep the rule above:
// lockstep processes may write them byte for byte alike; an OOM message
// they repeat is counted once downstream (analyze's distinctLoggedOOMs).

// clockTime finds a time of day (hh:mm:ss) in a log's head.
var clockTime = regexp.MustCompile(`(?:^|[^0-9])[0-2]?[0-9]:[0-5][0-9]:[0-5][0-9]`)

// timedHead is how much of a log timedReadings looks at for a clock time
// (bytes): a GPU log's first reading lies in its first lines, and a
// header repeated by an Excel export or a banner is well under this.
const timedHead = 64 << 10

// timedReadings reports whether candidate c is a GPU log of readings with
// clock times: a log format of GPU readings (not a training log's or
// memory_stats lines) whose head holds a time of day.
func timedReadings(c Candidate) bool {
	if c.Kind != KindLog || c.Log == gpulog.FormatTrainingLog || c.Log == gpulog.FormatMemoryStats {
		return false
	}
	f, err := os.Open(c.Path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, min(c.Bytes, timedHead))
	n, _ := io.ReadFull(f, head)
	return clockTime.Match(head[:n])
}

// copies finds the candidates (in walk order) that are plain copies of
// another candidate (see the comment at the top of this file). It
// returns for each candidate the index of the candidate it copies, or -1:
// a copy of a file whose name is no copy's, the last in natural order
// (step_10 after step_9) first; else, among copies, the first in walk
// order; and, for a GPU log of timed readings, the first log of its
// bytes in natural order, whatever the names (timed reports which copies
// were found so). Only snapshots and logs are compared; a file that
// cannot be read again is no copy.
func copies(cands []Candidate) (of []int, timed []bool) {
	of = make([]int, len(cands))
	timed = make([]bool, len(cands))
	for i := range of {
		of[i] = -1
	}
	// Logs of one size and format may be one timed log read twice.
	logSizes := map[group]int{}
	twins := false
	for _, c := range cands {
		if c.Kind == KindLog {
			g := group{c.Bytes, c.Kind, c.Log}
			logSizes[g]++
			twins = twins || logSizes[g] > 1
		}
	}
	// A run whose names all carry a number (snapshot_step_N) has no
	// copy to look for.
	if !twins && !slices.ContainsFunc(cands, func(c Candidate) bool { return copyName(c.Rel) }) {
		return of, timed
	}
	groups := map[group][]int{}
	for i, c := range cands {
		if c.Kind == KindSnapshot || c.Kind == KindLog {
			g := group{c.Bytes, c.Kind, c.Log}
			groups[g] = append(groups[g], i)
		}
	}
	cmpr := contentComparer{cands: cands, samples: map[int][sha256.Size]byte{}}
	// logGroups are the groups of logs, looked at for timed copies after
	// the copies their names tell: those keep their reason, and the
	// original its name.
	var logGroups [][]int
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		if cands[g[0]].Kind == KindLog {
			logGroups = append(logGroups, g)
		}
		var named, unnamed []int
		for _, i := range g {
			if copyName(cands[i].Rel) {
				unnamed = append(unnamed, i)
			} else {
				named = append(named, i)
			}
		}
		if len(unnamed) == 0 {
			continue
		}
		at := make(map[int]place, len(g))
		for _, i := range g {
			at[i] = pathPlace(cands[i].Rel)
		}
		// The last in natural order (step_10 after step_9) first:
		// final.pickle is most likely a copy of the last dump, and the
		// first match ends the search.
		slices.SortFunc(named, func(a, b int) int {
			return cmp.Or(natural.Compare(cands[b].Rel, cands[a].Rel), cmp.Compare(b, a))
		})
		for k, i := range unnamed {
			// First a file whose name places it, then an earlier copy
			// that is none's.
			for _, j := range slices.Concat(named, unnamed[:k]) {
				if of[j] < 0 && samePlace(at[i], at[j]) && cmpr.same(i, j) {
					of[i] = j
					break
				}
			}
		}
	}
	for _, g := range logGroups {
		timedCopies(cands, g, of, timed, &cmpr)
	}
	return of, timed
}

// group is the candidates that may hold the same bytes: one size, kind
// and log format.
type group struct {
	size int64
	kind CandidateKind
	log  gpulog.LogFormat
}

// timedCopies marks each log of g (one size and format) that holds the
// same bytes as an earlier one (names without a copy's marks first, then
// natural path order), both of timed readings, as a copy of it (see
// above); the copies that names tell (of) are left as they are.
func timedCopies(cands []Candidate, g []int, of []int, timed []bool, cmpr *contentComparer) {
	var logs []int
	for _, i := range g {
		if of[i] < 0 && timedReadings(cands[i]) {
			logs = append(logs, i)
		}
	}
	// A name that says nothing of a copy is the original's, then the
	// first in natural order.
	slices.SortFunc(logs, func(a, b int) int {
		ca, cb := copyName(cands[a].Rel), copyName(cands[b].Rel)
		switch {
		case ca && !cb:
			return 1
		case cb && !ca:
			return -1
		}
		return cmp.Or(natural.Compare(cands[a].Rel, cands[b].Rel), cmp.Compare(a, b))
	})
	for k, i := range logs {
		for _, j := range logs[:k] {
			if of[j] < 0 && cmpr.same(i, j) {
				of[i], timed[i] = j, true
				break
			}
		}
	}
}

// timedCopyReason is the skip reason of a timed GPU log of the same bytes
// as the log named orig.
func timedCopyReason(orig string) string {
	return "the same bytes as " + orig + " (GPU readings at the same times to the digit: one log saved twice, not two observations): read once"
}

// copyReason is the skip reason of a copy of the file named orig.
func copyReason(orig string) string {
	return "a copy of " + orig + " (the same bytes, a copy's name without a step or number of its own): read once"
}

// contentComparer compares candidates' bytes, keeping each file's
// sampled blocks' hash once read.
type contentComparer struct {
	cands   []Candidate
	samples map[int][sha256.Size]byte
	// bufs are sameBytes's two blocks, made at the first full compare.
	bufs *[2][]byte
}

// same reports whether candidates i and j hold the same bytes: first
// their sampled blocks (hashSamples: 64 KiB of each file), then, when
// those agree, every byte. An error reading either makes them differ.
func (c *contentComparer) same(i, j int) bool {
	si, erri := c.sample(i)
	sj, errj := c.sample(j)
	if err := errors.Join(erri, errj); err != nil {
		slog.Debug("files not compared", "a", c.cands[i].Rel, "b", c.cands[j].Rel, "err", err)
		return false
	}
	if si != sj {
		return false
	}
	if c.bufs == nil {
		c.bufs = &[2][]byte{make([]byte, compareBlock), make([]byte, compareBlock)}
	}
	ok, err := sameBytes(c.cands[i].Path, c.cands[j].Path, c.bufs[0], c.bufs[1])
	if err != nil {
		slog.Debug("files not compared", "a", c.cands[i].Rel, "b", c.cands[j].Rel, "err", err)
		return false
	}
	return ok
}

// sample is the hash of candidate i's sampled blocks.
func (c *contentComparer) sample(i int) ([sha256.Size]byte, error) {
	if s, ok := c.samples[i]; ok {
		return s, nil
	}
	f, err := os.Open(c.cands[i].Path)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	defer f.Close()
	h := sha256.New()
	if err := hashSamples(h, f, c.cands[i].Bytes); err != nil {
		return [sha256.Size]byte{}, fmt.Errorf("sample %s: %w", c.cands[i].Rel, err)
	}
	var s [sha256.Size]byte
	h.Sum(s[:0])
	c.samples[i] = s
	return s, nil
}

// sameBytes reports whether the files at a and b hold the same bytes,
// reading both a block at a time into ba and bb (of one length) and
// stopping at the first block that differs.
func sameBytes(a, b string, ba, bb []byte) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	for {
		na, erra := io.ReadFull(fa, ba)
		nb, errb := io.ReadFull(fb, bb)
		if !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		endA := erra == io.EOF || erra == io.ErrUnexpectedEOF
		endB := errb == io.EOF || errb == io.ErrUnexpectedEOF
		switch {
		case erra != nil && !endA:
			return false, fmt.Errorf("read %s: %w", a, erra)
		case errb != nil && !endB:
			return false, fmt.Errorf("read %s: %w", b, errb)
		case endA || endB:
			return endA && endB, nil
		}
	}
}
