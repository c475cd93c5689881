package placement

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// TestSplitRestarts lays out one script's dumps run twice, one run after
// another (a subfolder with the steps starting over, names with times,
// a ranked series), with blocks made in the test, and checks that each
// run becomes a process of its own with a note; and that one process
// that paused (a checkpoint, an evaluation), one that moved all its
// blocks but carried its growing history on, a job resumed with its
// steps going on, and dumps without a time order stay one series. Each run is
// read as full snapshots and as digests read back from their cache
// entries, which must decide alike.
func TestSplitRestarts(t *testing.T) {
	const t0 = int64(1_714_560_000_000_000)
	const minute = int64(60_000_000)
	first := program{"/home/alice/proj/train.py", 0x7f00_0000_0000, 8, 256 << 20, true}
	// The same script run again: same stacks, blocks reserved elsewhere.
	again := first
	again.base = 0x7e80_0000_0000
	type dump struct {
		path string
		p    program
		// i is the dump's index in its process; min its time in minutes.
		i   int
		min int64
		// bare leaves the dump without segments (a trace alone).
		bare bool
	}
	series := func(pattern string, p program, n int, startMin, everyMin int64, firstN int) []dump {
		var out []dump
		for i := range n {
			out = append(out, dump{path: fmt.Sprintf(pattern, firstN+i), p: p, i: i, min: startMin + int64(i)*everyMin})
		}
		return out
	}
	// stamped are dumps named by their time only (mem_2024-05-01_10-40).
	stamped := func(p program, n int, startMin, everyMin int64) []dump {
		var out []dump
		for i := range n {
			m := startMin + int64(i)*everyMin
			at := time.UnixMicro(t0 + m*minute).UTC()
			out = append(out, dump{path: "mem_" + at.Format("2006-01-02_15-04") + ".pickle", p: p, i: i, min: m})
		}
		return out
	}
	bare := func(ds []dump) []dump {
		for i := range ds {
			ds[i].bare = true
		}
		return ds
	}
	// untimed dumps have no trace (times -1 mark them below).
	untimed := func(ds []dump) []dump {
		for i := range ds {
			ds[i].min = -1
		}
		return ds
	}
	// onFrom numbers ds's dumps in their process from i on (the same
	// process going on, its history as long as it was).
	onFrom := func(i int, ds []dump) []dump {
		for k := range ds {
			ds[k].i = i + k
		}
		return ds
	}
	other := again
	other.file = "/home/bob/bench/infer.py"
	no := input.NoRank
	tests := []struct {
		name  string
		dumps []dump
		ranks []int
		// restarts is how many boundaries the note must name; 0: no note.
		restarts int
		stepBack bool
		// dirs are the run folders whose logs are a run's (nil: none).
		dirs map[string]int
	}{
		{"a run, then the script again in a subfolder, its steps starting over",
			append(series("snapshot_%d00.pickle", first, 5, 0, 5, 1), series("rerun/snapshot_%d00.pickle", again, 4, 120, 5, 1)...),
			[]int{0, 0, 0, 0, 0, 1, 1, 1, 1}, 1, true, map[string]int{"rerun": 1}},
		{"two runs in numbered folders",
			append(series("run1/snapshot_%d00.pickle", first, 3, 0, 5, 1), series("run2/snapshot_%d00.pickle", again, 3, 45, 5, 1)...),
			[]int{0, 0, 0, 1, 1, 1}, 1, true, map[string]int{"run1": 0, "run2": 1}},
		// Two runs of rank 0 in folders of their own (a/rank0_step*, then
		// b/rank0_step*) are parted before this step, by separateRanks's
		// folder rule (restart_test.go).
		{"names with times only, a second run two hours later",
			append(stamped(first, 4, 0, 5), stamped(again, 4, 135, 5)...),
			[]int{0, 0, 0, 0, 1, 1, 1, 1}, 1, false, nil},
		{"three runs",
			slices.Concat(stamped(first, 3, 0, 5), stamped(again, 3, 120, 5), stamped(first, 3, 300, 5)),
			[]int{0, 0, 0, 1, 1, 1, 2, 2, 2}, 2, false, nil},
		{"one process paused an hour (a checkpoint, an evaluation): one run",
			append(series("snapshot_%d00.pickle", first, 4, 0, 5, 1), dump{path: "snapshot_500.pickle", p: first, i: 4, min: 80}, dump{path: "snapshot_600.pickle", p: first, i: 5, min: 85}),
			[]int{no, no, no, no, no, no}, 0, false, nil},
		{"names with times only, one process paused two hours: one run",
			append(stamped(first, 4, 0, 5), dump{path: "mem_pause.pickle", p: first, i: 4, min: 135}),
			nil, 0, false, nil},
		{"a job resumed, its steps going on: one run",
			append(series("snapshot_%d00.pickle", first, 3, 0, 5, 1), series("resumed/snapshot_%d00.pickle", again, 3, 120, 5, 4)...),
			[]int{no, no, no, no, no, no}, 0, false, nil},
		{"a second run a few intervals later with steps going on: one run",
			append(stamped(first, 4, 0, 5), stamped(again, 4, 30, 5)...),
			[]int{no, no, no, no, no, no, no, no}, 0, false, nil},
		{"another program's dumps of the same names after a gap: no run of one script",
			append(series("snapshot_%d00.pickle", first, 3, 0, 5, 1), series("rerun/snapshot_%d00.pickle", other, 3, 120, 5, 1)...),
			nil, 0, false, nil},
		{"dumps of other names after a gap: no run of one script",
			append(series("snapshot_%d00.pickle", first, 3, 0, 5, 1), series("rerun/mem_%d00.pickle", again, 3, 120, 5, 1)...),
			nil, 0, false, nil},
		// One process that offloaded everything to the CPU for a long
		// rollout and loaded it back at new addresses (hunt7
		// r-rollout-offload-timestamped): its growing history (line 57)
		// comes back whole, where a new run starts it empty.
		{"names with times only, everything moved after a long rollout, history carried on: one run",
			append(stamped(first, 4, 0, 5), onFrom(4, stamped(again, 4, 135, 5))...),
			nil, 0, false, nil},
		{"a subfolder after a gap, steps going back, history carried on: one run",
			append(series("snapshot_%d00.pickle", first, 4, 0, 5, 1), onFrom(4, series("stage2/snapshot_%d00.pickle", again, 4, 120, 5, 1))...),
			nil, 0, false, nil},
		{"dumps without blocks (traces alone): no evidence",
			bare(append(series("snapshot_%d00.pickle", first, 3, 0, 5, 1), series("rerun/snapshot_%d00.pickle", again, 3, 120, 5, 1)...)),
			nil, 0, false, nil},
		{"no time on one clock: no order, no evidence",
			untimed(append(series("snapshot_%d00.pickle", first, 3, 0, 5, 1), series("snapshot_%d00.pickle", again, 3, 120, 5, 1)...)),
			nil, 0, false, nil},
	}
	for _, tt := range tests {
		if tt.name == "names with times only, one process paused two hours: one run" {
			// The paused dump is named by its time like the others.
			d := &tt.dumps[len(tt.dumps)-1]
			d.path = "mem_" + time.UnixMicro(t0+d.min*minute).UTC().Format("2006-01-02_15-04") + ".pickle"
			tt.ranks = []int{no, no, no, no, no}
		}
		if tt.ranks == nil {
			tt.ranks = slices.Repeat([]int{no}, len(tt.dumps))
		}
		for _, read := range []string{"full", "cached digest"} {
			t.Run(tt.name+"/"+read, func(t *testing.T) {
				var files []*ingest.SnapshotFile
				for _, d := range tt.dumps {
					n := ingest.ParseName(d.path)
					s := d.p.dump(d.i, 0, t0+d.min*minute)
					if d.bare {
						s.Segments = nil
					}
					if d.min < 0 {
						s.Traces = nil
					}
					if read == "cached digest" {
						b, err := snapshot.EncodeDigest("k", snapshot.ContainerPickle, snapshot.Reduce(s))
						if err != nil {
							t.Fatal(err)
						}
						if _, _, s, err = snapshot.DecodeDigest(b); err != nil {
							t.Fatal(err)
						}
					}
					files = append(files, &ingest.SnapshotFile{Source: input.Source{Path: d.path}, Step: n.Step, Order: n.Order, OrderKind: n.OrderKind,
						Rank: n.Rank, Phase: n.Phase, Epoch: n.Epoch, Snapshot: s})
				}
				notes, _ := separateRanks(files)
				notes = append(notes, joinUnranked(files, notes)...)
				if len(notes) > 0 {
					t.Fatalf("notes before splitRestarts %+v, want none", notes)
				}
				notes, dirs, later := splitRestarts(files)
				if len(later) != tt.restarts {
					t.Errorf("later runs %v, want %d", later, tt.restarts)
				}
				if len(dirs)+len(tt.dirs) > 0 && !maps.Equal(dirs, tt.dirs) {
					t.Errorf("run folders %v, want %v", dirs, tt.dirs)
				}
				var got []int
				for _, f := range files {
					got = append(got, f.Rank)
				}
				if !slices.Equal(got, tt.ranks) {
					t.Errorf("ranks %v, want %v", got, tt.ranks)
				}
				switch {
				case tt.restarts == 0 && len(notes) > 0:
					t.Errorf("notes %+v, want none", notes)
				case tt.restarts > 0 && (len(notes) != 1 || notes[0].Ranks == nil || len(notes[0].Ranks.Restarts) != tt.restarts):
					t.Errorf("notes %+v, want one naming %d restarts", notes, tt.restarts)
				case tt.restarts > 0 && notes[0].Ranks.Restarts[0].StepBack != tt.stepBack:
					t.Errorf("restart %+v, want step back %v", notes[0].Ranks.Restarts[0], tt.stepBack)
				}
			})
		}
	}
}

// TestPlaceLaterRuns: Place numbers a second run of the script as a
// process of its own, says so in a note, reports its number as a later
// run (no rank of the job) and gives it its folder's logs.
func TestPlaceLaterRuns(t *testing.T) {
	const t0 = int64(1_714_560_000_000_000)
	const minute = int64(60_000_000)
	first := program{"/home/alice/proj/train.py", 0x7f00_0000_0000, 8, 256 << 20, true}
	again := first
	again.base = 0x7e80_0000_0000
	run := &ingest.Run{}
	for i := range 6 {
		p, dir, at := first, "", int64(i)*5
		if i >= 3 {
			p, dir, at = again, "rerun/", 120+int64(i-3)*5
		}
		name := fmt.Sprintf("%ssnapshot_%d00.pickle", dir, i%3+1)
		n := ingest.ParseName(name)
		run.Snapshots = append(run.Snapshots, &ingest.SnapshotFile{Source: input.Source{Path: name}, Step: n.Step, Order: n.Order, OrderKind: n.OrderKind,
			Rank: n.Rank, Phase: n.Phase, Epoch: n.Epoch, Snapshot: p.dump(i%3, 0, t0+at*minute)})
	}
	run.Logs = []*gpulog.GPULog{{Source: input.Source{Path: "rerun/train.log"}}}
	placed := Place(run)
	var ranks []int
	for _, f := range placed.Snapshots {
		ranks = append(ranks, f.Rank)
	}
	if want := []int{0, 0, 0, 1, 1, 1}; !slices.Equal(ranks, want) {
		t.Errorf("ranks %v, want %v", ranks, want)
	}
	if placed.LaterRun(0) || !placed.LaterRun(1) {
		t.Errorf("later runs: 0 %v, 1 %v; want 1 alone", placed.LaterRun(0), placed.LaterRun(1))
	}
	if r := placed.LogRank(placed.Logs[0]); r != 1 {
		t.Errorf("rerun/train.log rank %d, want 1", r)
	}
	if len(placed.Notes) != 1 || placed.Notes[0].Ranks == nil || len(placed.Notes[0].Ranks.Restarts) != 1 {
		t.Errorf("notes %+v, want one restart", placed.Notes)
	}
	for _, f := range run.Snapshots {
		if f.Rank != input.NoRank {
			t.Errorf("%s: the run as read was changed (rank %d)", f.Path, f.Rank)
		}
	}
}
