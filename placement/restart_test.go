package placement

import (
	"fmt"
	"testing"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// TestSeparateRanksRestartedRuns lays out folders whose dumps follow one
// another in time (traces made in the test) and checks that folders
// each counting their steps from the start, each well ordered, are kept
// apart as separate runs with a note, while the stages of one process
// (steps that go on, a folder whose steps go back in time, one folder, or
// stages that carry one process's blocks on at its usual pace) stay one
// series.
func TestSeparateRanksRestartedRuns(t *testing.T) {
	const day = int64(86_400_000_000)
	const t0 = int64(1_714_560_000_000_000)
	// dump is a file at path whose trace ends at endUS; with p, its
	// blocks are p's at its i-th dump (inturn_test.go), else it has none.
	type dump struct {
		path  string
		endUS int64
		p     *program
		i     int
	}
	// run lays out a run's dumps at steps, in folder dir, starting at
	// startUS, one step's dump a minute after the one before.
	run := func(dir string, startUS int64, steps ...int) []dump {
		var out []dump
		for i, s := range steps {
			out = append(out, dump{path: fmt.Sprintf("%s/step_%d.pickle", dir, s), endUS: startUS + int64(i+1)*60_000_000})
		}
		return out
	}
	// of gives ds the blocks of p, its i-th dump the i-th from first.
	of := func(p program, first int, ds []dump) []dump {
		for i := range ds {
			ds[i].p, ds[i].i = &p, first+i
		}
		return ds
	}
	model := program{"/home/alice/proj/train.py", 0x7f00_0000_0000, 8, 256 << 20, true}
	// The same script in a fresh process: its blocks reserved elsewhere.
	fresh := model
	fresh.base = 0x7e80_0000_0000
	cat := func(ds ...[]dump) []dump {
		var out []dump
		for _, d := range ds {
			out = append(out, d...)
		}
		return out
	}
	no := input.NoRank
	tests := []struct {
		name  string
		dumps []dump
		// ranks are the numbers the two folders' dumps get (no: both
		// stay one series), labels the names of their devices (a run
		// named by its folder, a rank by its number); restarts says
		// the note calls them separate runs.
		ranks    [2]int
		labels   [2]string
		restarts bool
	}{
		{"two experiments a day apart, steps repeat", cat(run("exp_lr1e-3_bs64/snapshots", t0, 500, 1000, 1500), run("exp_lr3e-4_bs32/snapshots", t0+day, 500, 1000, 1500)),
			[2]int{0, 1}, [2]string{"exp_lr1e-3_bs64 · cuda:0", "exp_lr3e-4_bs32 · cuda:0"}, true},
		{"two experiments, partly the same steps", cat(run("sweep/a", t0, 100, 200, 300), run("sweep/b", t0+day, 200, 300, 400)),
			[2]int{0, 1}, [2]string{"a · cuda:0", "b · cuda:0"}, true},
		{"two workers side by side, as before", cat(run("worker_0", t0, 500, 1000, 1500), run("worker_1", t0+1000, 500, 1000, 1500)),
			[2]int{0, 1}, [2]string{"rank 0 · cuda:0", "rank 1 · cuda:0"}, false},
		{"numbered attempts of one job", cat(run("job/attempt_0", t0, 500, 1000, 1500), run("job/attempt_1", t0+day, 500, 1000, 1500)),
			[2]int{no, no}, [2]string{"cuda:0", "cuda:0"}, false},
		// Runs are numbered in time order, whatever their names say.
		{"numbers that do not follow the times", cat(run("run_1", t0+day, 500, 1000, 1500), run("run_2", t0, 500, 1000, 1500)),
			[2]int{1, 0}, [2]string{"run_1 · cuda:0", "run_2 · cuda:0"}, true},
		{"runs in folders named by digits alone are numbered", cat(run("sweep/7", t0, 500, 1000, 1500), run("sweep/3", t0+day, 500, 1000, 1500)),
			[2]int{0, 1}, [2]string{"run 1 · cuda:0", "run 2 · cuda:0"}, true},
		{"a resumed job whose steps go on", cat(run("first_try", t0, 100, 200, 300), run("resumed", t0+day, 400, 500, 600)),
			[2]int{no, no}, [2]string{"cuda:0", "cuda:0"}, false},
		// One process, a stage of a curriculum a folder, its step
		// counter starting again (hunt7 r-curriculum-stage-folders): its
		// model's blocks stay where they were, dumped at its pace.
		{"curriculum stages of one process, blocks carried on", cat(of(model, 0, run("mem/short_ctx", t0, 100, 200, 300)), of(model, 3, run("mem/long_ctx", t0+3*60_000_000, 100, 200, 300))),
			[2]int{no, no}, [2]string{"cuda:0", "cuda:0"}, false},
		// Experiments whose blocks are at new addresses, one run at once
		// after the other; and a day apart at the same addresses (an
		// allocator that replays the first run's): separate runs.
		{"two experiments back to back, new addresses", cat(of(model, 0, run("exp_a/snapshots", t0, 500, 1000, 1500)), of(fresh, 0, run("exp_b/snapshots", t0+3*60_000_000, 500, 1000, 1500))),
			[2]int{0, 1}, [2]string{"exp_a · cuda:0", "exp_b · cuda:0"}, true},
		{"two experiments a day apart, same addresses", cat(of(model, 0, run("exp_a/snapshots", t0, 500, 1000, 1500)), of(model, 0, run("exp_b/snapshots", t0+day, 500, 1000, 1500))),
			[2]int{0, 1}, [2]string{"exp_a · cuda:0", "exp_b · cuda:0"}, true},
		// Stages at the same pace whose blocks are unknown (traces
		// alone): nothing carries on, so separate runs as before.
		{"stages at one pace, no blocks", cat(run("mem/a_short", t0, 100, 200, 300), run("mem/b_long", t0+3*60_000_000, 100, 200, 300)),
			[2]int{0, 1}, [2]string{"a_short · cuda:0", "b_long · cuda:0"}, true},
		{"a folder whose steps go back in time", cat(run("exp_a", t0, 500, 1000, 1500), []dump{{path: "exp_b/step_500.pickle", endUS: t0 + day + 3e8}, {path: "exp_b/step_1000.pickle", endUS: t0 + day + 2e8}, {path: "exp_b/step_1500.pickle", endUS: t0 + day + 1e8}}),
			[2]int{no, no}, [2]string{"cuda:0", "cuda:0"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []*ingest.SnapshotFile
			for _, d := range tt.dumps {
				n := ingest.ParseName(d.path)
				s := &snapshot.Snapshot{Traces: [][]snapshot.TraceEntry{{
					{Action: snapshot.ActionAlloc, Addr: 0x7f00_0000_0000, Size: 512, TimeUS: d.endUS - 1000},
					{Action: snapshot.ActionFreeRequested, Addr: 0x7f00_0000_0000, Size: 512, TimeUS: d.endUS}}}}
				if d.p != nil {
					s = d.p.dump(d.i, 0, d.endUS)
				}
				files = append(files, &ingest.SnapshotFile{Source: input.Source{Path: d.path}, Step: n.Step, Order: n.Order, OrderKind: n.OrderKind, Rank: n.Rank, Phase: n.Phase, Snapshot: s})
			}
			notes, _ := separateRanks(files)
			for i, f := range files {
				if f.Rank != tt.ranks[i/3] {
					t.Errorf("%s: rank %d, want %d", f.Path, f.Rank, tt.ranks[i/3])
				}
				if got := (DeviceKey{Rank: f.Rank, Run: f.Run}).Name(); got != tt.labels[i/3] {
					t.Errorf("%s: device %q, want %q", f.Path, got, tt.labels[i/3])
				}
			}
			split := tt.ranks[0] != input.NoRank
			switch {
			case !split && notes != nil:
				t.Errorf("notes %+v, want none", notes)
			case split && (len(notes) != 1 || notes[0].Ranks == nil || notes[0].Ranks.SeparateRuns != tt.restarts || len(notes[0].Ranks.Paths) != 2):
				t.Errorf("notes %+v, want one that numbers the folders (restarts %v)", notes, tt.restarts)
			case split && tt.restarts != (len(notes[0].Ranks.Runs) == 2):
				t.Errorf("note runs %+v, want runs %v", notes[0].Ranks.Runs, tt.restarts)
			}
		})
	}
}
