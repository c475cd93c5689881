package placement

import (
	"fmt"
	"testing"

	"gpureport/input"
	"gpureport/snapshot"
)

// program is a process's memory as its dumps show it: params blocks it
// keeps alive from its start (its model), at base, of paramSize bytes
// each, and one more block per dump (a leak), each allocated at a line
// of file; stacked false leaves the blocks without stacks (history not
// recorded).
type program struct {
	file      string
	base      uint64
	params    int
	paramSize int64
	stacked   bool
}

// dump is the program's memory at its i-th dump (from 0) on device dev,
// with a short trace ending at endUS.
func (p program) dump(i, dev int, endUS int64) *snapshot.Snapshot {
	s := &snapshot.Snapshot{}
	stack := func(line int) snapshot.StackID {
		if !p.stacked {
			return snapshot.NoStack
		}
		return s.Stacks.InternStack([]snapshot.FrameID{
			s.Stacks.InternFrame(snapshot.Frame{File: p.file, Line: line, Name: "step"}),
			s.Stacks.InternFrame(snapshot.Frame{File: p.file, Line: 200, Name: "main"}),
		})
	}
	addr := p.base
	add := func(size int64, line int) {
		s.Segments = append(s.Segments, &snapshot.Segment{Device: dev, Address: addr, TotalSize: size, Pool: snapshot.PoolLarge,
			Blocks: []snapshot.Block{{Address: addr, Size: size, RequestedSize: size, State: snapshot.StateActiveAllocated, Stack: stack(line)}}})
		addr += uint64(size)
	}
	for range p.params {
		add(p.paramSize, 30)
	}
	for range i + 1 {
		add(32<<20, 57)
	}
	traces := make([][]snapshot.TraceEntry, dev+1)
	traces[dev] = []snapshot.TraceEntry{
		{Action: snapshot.ActionAlloc, Addr: addr, Size: 512, TimeUS: endUS - 2000},
		{Action: snapshot.ActionFreeRequested, Addr: addr, Size: 512, TimeUS: endUS},
	}
	s.Traces = traces
	return s
}

// TestUnrankedInTurn lays out dumps without a rank beside one rank's
// dumps, with blocks made in the test, and checks that two processes one
// after another (nothing a process keeps alive in common where their
// dumps meet in time) are kept apart with a note saying why, that an OOM
// observer's dump holding the model's blocks and a job resumed with the
// same code join, and that without stacks or without a dump showing what
// its process keeps, the dumps join as before. Each run is read as full
// snapshots, as digests (Reduce) and as digests read back from their
// cache entries, which must decide alike.
func TestUnrankedInTurn(t *testing.T) {
	const t0 = int64(1_714_560_000_000_000)
	const minute = int64(60_000_000)
	trainer := program{"/home/alice/proj/train.py", 0x7f00_0000_0000, 8, 256 << 20, true}
	// The evaluation's first block is at the trainer's first address (a
	// fresh process on one GPU), with another size.
	eval := program{"/home/alice/proj/eval.py", 0x7f00_0000_0000, 10, 1 << 30, true}
	resumed := trainer
	resumed.base = 0x7e00_0000_0000
	unstacked, unstackedEval := trainer, eval
	unstacked.stacked, unstackedEval.stacked = false, false
	type dump struct {
		path string
		p    program
		// i is the dump's index in its process; min its time in minutes.
		i   int
		min int64
	}
	series := func(pattern string, p program, n int, startMin, everyMin int64, first int) []dump {
		var out []dump
		for i := range n {
			out = append(out, dump{fmt.Sprintf(pattern, first+i), p, i, startMin + int64(i)*everyMin})
		}
		return out
	}
	no := input.NoRank
	tests := []struct {
		name  string
		dumps []dump
		ranks []int
		// inTurn is whether a note must say the dumps were kept apart as
		// processes in turn; joined whether they must be joined.
		inTurn, joined bool
	}{
		{"a trainer's dumps, then an evaluation's: two processes",
			append(series("rank0_step_%d00.pickle", trainer, 5, 0, 5, 1), series("snapshot_%d.pickle", eval, 5, 60, 2, 0)...),
			[]int{0, 0, 0, 0, 0, no, no, no, no, no}, true, false},
		{"an evaluation's dumps, then a trainer's: two processes",
			append(series("snapshot_%d.pickle", eval, 3, 0, 2, 0), series("rank0_step_%d00.pickle", trainer, 3, 30, 5, 1)...),
			[]int{no, no, no, 0, 0, 0}, true, false},
		{"an OOM observer's dump holding the model's blocks: one process",
			append(series("snapshots/snapshot_step_%d00.pickle", trainer, 5, 0, 5, 1), dump{"snapshots/oom_rank-0_snapshot.pickle", trainer, 5, 40}),
			[]int{0, 0, 0, 0, 0, 0}, false, true},
		{"an OOM observer's dump of another program: two processes",
			append(series("snapshots/snapshot_step_%d00.pickle", trainer, 5, 0, 5, 1), dump{"snapshots/oom_rank-0_snapshot.pickle", eval, 0, 40}),
			[]int{no, no, no, no, no, 0}, true, false},
		{"OOM dumps of another program between the rank's dumps: two processes",
			append(series("rank0_step_%d00.pickle", trainer, 5, 0, 5, 1), dump{"oom_snapshot_1.pickle", eval, 0, 7}, dump{"oom_snapshot_2.pickle", eval, 1, 17}),
			[]int{0, 0, 0, 0, 0, no, no}, true, false},
		{"periodic dumps interleaved in time: two processes",
			append(series("rank0_step_%d00.pickle", trainer, 3, 0, 5, 1), series("snapshot_%d.pickle", eval, 3, 2, 5, 0)...),
			[]int{0, 0, 0, no, no, no}, false, false},
		{"a job resumed with the same code: one process",
			append(series("rank0_step_%d00.pickle", trainer, 3, 0, 5, 1), series("snapshot_step_%d00.pickle", resumed, 3, 30, 5, 4)...),
			[]int{0, 0, 0, 0, 0, 0}, false, true},
		{"no stacks recorded: no evidence, joined",
			append(series("rank0_step_%d00.pickle", unstacked, 3, 0, 5, 1), series("snapshot_%d.pickle", unstackedEval, 3, 60, 2, 0)...),
			[]int{0, 0, 0, 0, 0, 0}, false, true},
		{"one dump of each: nothing shows what a process keeps, joined",
			[]dump{{"rank0_step_100.pickle", trainer, 0, 0}, {"snapshot_0.pickle", eval, 0, 60}},
			[]int{0, 0}, false, true},
	}
	for _, tt := range tests {
		for _, read := range []string{"full", "digest", "cached digest"} {
			t.Run(tt.name+"/"+read, func(t *testing.T) {
				var dumps []laidOut
				for _, d := range tt.dumps {
					s := d.p.dump(d.i, 0, t0+d.min*minute)
					switch read {
					case "digest":
						s = snapshot.Reduce(s)
					case "cached digest":
						b, err := snapshot.EncodeDigest("k", snapshot.ContainerPickle, snapshot.Reduce(s))
						if err != nil {
							t.Fatal(err)
						}
						if _, _, s, err = snapshot.DecodeDigest(b); err != nil {
							t.Fatal(err)
						}
					}
					dumps = append(dumps, laidOut{d.path, s})
				}
				notes := joinLaidOut(t, dumps, tt.ranks)
				var u *UnrankedDumps
				if len(notes) == 1 {
					u = notes[0].Unranked
				}
				switch {
				case tt.inTurn && (u == nil || notes[0].Kind != NoteUnrankedApart || u.InTurn == nil || u.InTurn.GapSeconds <= 0):
					t.Errorf("notes %+v, want one that the dumps were kept apart as processes in turn", notes)
				case tt.joined && (u == nil || notes[0].Kind != NoteUnrankedJoined):
					t.Errorf("notes %+v, want one that the dumps were joined", notes)
				case !tt.inTurn && !tt.joined && len(notes) > 0:
					t.Errorf("notes %+v, want none", notes)
				}
			})
		}
	}
}
