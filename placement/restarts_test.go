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
		{"rank 3 run twice, its second run in a subfolder",
			append(series("rank3/snapshot_%d00.pickle", first, 3, 0, 5, 1), series("rank3/rerun/snapshot_%d00.pickle", again, 3, 120, 5, 1)...),
			[]int{3, 3, 3, 4, 4, 4}, 1, true, map[string]int{"rank3": 3, "rank3/rerun": 4}},
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
	// labels are the names of the devices the runs' dumps are on (their
	// cuda:0), by test; "cuda:0" for every dump of the others.
	rep := func(label string, n int) []string { return slices.Repeat([]string{label}, n) }
	labels := map[string][]string{
		"a run, then the script again in a subfolder, its steps starting over": append(rep("run 1 · cuda:0", 5), rep("run 2 · cuda:0", 4)...),
		"two runs in numbered folders":                                         append(rep("run1 · cuda:0", 3), rep("run2 · cuda:0", 3)...),
		"rank 3 run twice, its second run in a subfolder":                      append(rep("run 1 · rank 3 · cuda:0", 3), rep("run 2 · rank 3 · cuda:0", 3)...),
		"names with times only, a second run two hours later":                  append(rep("run 1 · cuda:0", 4), rep("run 2 · cuda:0", 4)...),
		"three runs": slices.Concat(rep("run 1 · cuda:0", 3), rep("run 2 · cuda:0", 3), rep("run 3 · cuda:0", 3)),
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
				notes, dirs := splitRestarts(files)
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
				// A run is named as a run, never as a rank its number
				// would read as.
				var names []string
				for _, f := range files {
					names = append(names, DeviceKey{Rank: f.Rank, Run: f.Run}.Name())
				}
				want := labels[tt.name]
				if want == nil {
					want = rep("cuda:0", len(files))
				}
				if !slices.Equal(names, want) {
					t.Errorf("devices %q, want %q", names, want)
				}
				switch {
				case tt.restarts == 0 && len(notes) > 0:
					t.Errorf("notes %+v, want none", notes)
				case tt.restarts > 0 && (len(notes) != 1 || notes[0].Ranks == nil || len(notes[0].Ranks.Restarts) != tt.restarts):
					t.Errorf("notes %+v, want one naming %d restarts", notes, tt.restarts)
				case tt.restarts > 0 && notes[0].Ranks.Restarts[0].StepBack != tt.stepBack:
					t.Errorf("restart %+v, want step back %v", notes[0].Ranks.Restarts[0], tt.stepBack)
				}
				if tt.restarts > 0 && len(notes[0].Ranks.Runs) != len(notes[0].Ranks.Paths) {
					t.Errorf("note runs %+v, want one for each of %q", notes[0].Ranks.Runs, notes[0].Ranks.Paths)
				}
			})
		}
	}
}

// TestPlaceLaterRuns: Place numbers a second run of the script as a
// process of its own, says so in a note, names both as runs of the
// script (no ranks of the job) and gives the second its folder's logs.
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
	// Both runs are runs, numbered in time order, of no rank (the
	// script's paths give none); the number of each is on all its dumps.
	for i, f := range placed.Snapshots {
		want := ingest.ScriptRun{N: 1 + i/3, Rank: input.NoRank}
		if f.Run != want {
			t.Errorf("%s: run %+v, want %+v", f.Path, f.Run, want)
		}
	}
	if got := placed.RunOf(1); got.N != 2 {
		t.Errorf("RunOf(1) %+v, want run 2", got)
	}
	if k := (DeviceKey{Rank: 1, Run: placed.RunOf(1)}); k.Name() != "run 2 · cuda:0" || k.JobRank() != input.NoRank {
		t.Errorf("run 2's device %q of rank %d, want \"run 2 · cuda:0\" of no rank", k.Name(), k.JobRank())
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
