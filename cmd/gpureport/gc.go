package main

import "runtime/debug"

// gcPercent is the garbage collector's target when GOGC is unset, in
// percent of the live heap (Go's default is 100). gpureport's live heap is
// small, one snapshot's model plus a small digest per snapshot, while
// decoding allocates and drops a snapshot's worth per file: at 100 the
// heap may double the per-snapshot data, so a run's peak memory grows
// twice as fast with its length as the data does. At 50 it grows half as
// fast again (on 400 snapshots of 70 MB: 80 MB against 95 MB of peak RSS)
// for about 6% more CPU.
const gcPercent = 50

// gcFloor is the size of the ballast tuneGC returns, in bytes: a byte
// array that is never written, so the operating system never backs it
// with memory (it takes address space, not RSS), but that the collector
// counts as live heap. Its next target is then gcPercent above the live
// heap plus gcFloor: the heap grows by at least gcFloor/2 (32 MiB) between
// collections, rather than by half of a live heap of tens of megabytes,
// which a single snapshot's decode allocates several times over. A re-run
// after one more snapshot (119 ordinary snapshots cached) spent a quarter
// of its time collecting: with the floor it took 157 ms against 202, and
// its peak RSS went from 52 to 82 MB; a first run of 120 took 1.05 s
// against 1.14 (56 -> 88 MB), of 10 snapshots of a large model 1.09 s
// against 1.20 (184 -> 207 MB). The floor is a constant, not a share of
// the run, so peak memory grows with a run's length no faster than before.
// (Go's runtime has no minimum heap setting; GOMEMLIMIT caps the heap
// instead, and counts the ballast as used, so the ballast is left out when
// it is set.)
const gcFloor = 64 << 20

// tuneGC sets gcPercent unless the user chose with GOGC (getenv reads the
// environment), and returns the percent in force (-1: GOGC=off) and the
// ballast (gcFloor bytes; nil when GOGC or GOMEMLIMIT is set), which the
// caller keeps reachable for as long as the process runs.
func tuneGC(getenv func(string) string) (percent int, ballast []byte) {
	if getenv("GOGC") != "" {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p, nil
	}
	debug.SetGCPercent(gcPercent)
	if getenv("GOMEMLIMIT") == "" {
		ballast = make([]byte, gcFloor)
	}
	return gcPercent, ballast
}
