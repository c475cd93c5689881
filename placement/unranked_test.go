package placement

import (
	"fmt"
	"testing"

	"gpureport/input"
	"gpureport/snapshot"
)

// TestJoinUnranked lays out runs of dumps whose paths give no rank beside
// dumps whose paths give one, with devices and traces made in the test,
// and checks that the dumps without a rank join the run's only rank
// unless something shows two processes, and that beside several ranks
// they stay apart with a note, unless their traces share events with one
// rank's dumps alone.
func TestJoinUnranked(t *testing.T) {
	const t0 = int64(1_714_560_000_000_000)
	const minute = int64(60_000_000)
	procA, procB := process{t0, 0x7f00_0000_0000}, process{t0 + 137, 0x7e00_0000_0000}
	type dump struct {
		path string
		dev  int
		// tr is the trace on dev; nil for a dump without one.
		tr []snapshot.TraceEntry
	}
	// short is a dump's trace of three events at endUS of process p, too
	// few to tell processes by (as PyTorch's dumps with a small ring
	// buffer, or those of the tester's runs).
	short := func(p process, endUS int64) []snapshot.TraceEntry { return p.at(endUS, 3, 0) }
	steps := func(pattern string, dev int, p process, n int, startMin int64) []dump {
		var out []dump
		for i := range n {
			out = append(out, dump{fmt.Sprintf(pattern, (i+1)*100), dev, short(p, t0+(startMin+int64(i)*5)*minute)})
		}
		return out
	}
	tests := []struct {
		name  string
		dumps []dump
		// ranks wanted, in dump order.
		ranks []int
		// note is the note kind wanted; "" for none.
		note NoteKind
	}{
		{"periodic dumps without a rank, an OOM observer's oom_rank-0 dump after them",
			append(steps("snapshots/snapshot_step_%d.pickle", 0, procA, 5, 0),
				dump{"snapshots/oom_rank-0_snapshot.pickle", 0, short(procA, t0+40*minute)}),
			[]int{0, 0, 0, 0, 0, 0}, NoteUnrankedJoined},
		{"rank 0's periodic dumps, an oom_snapshot.pickle without a rank",
			append(steps("rank0_step%d.pickle", 0, procA, 5, 0), dump{"oom_snapshot.pickle", 0, short(procA, t0+40*minute)}),
			[]int{0, 0, 0, 0, 0, 0}, NoteUnrankedJoined},
		{"no traces, no times: nothing shows two processes",
			[]dump{{"snapshot_step_100.pickle", 0, nil}, {"snapshot_step_200.pickle", 0, nil}, {"oom_rank-0_snapshot.pickle", 0, nil}},
			[]int{0, 0, 0}, NoteUnrankedJoined},
		{"a dump of each at one step: two processes",
			append(steps("snapshot_step_%d.pickle", 0, procA, 3, 0), steps("rank0_step%d.pickle", 0, procB, 3, 0)...),
			[]int{input.NoRank, input.NoRank, input.NoRank, 0, 0, 0}, ""},
		{"periodic dumps side by side in time: two processes",
			append(steps("snapshot_step_%d.pickle", 0, procA, 3, 0), steps("rank0_step%d.pickle", 0, procB, 3, 2)...),
			[]int{input.NoRank, input.NoRank, input.NoRank, 0, 0, 0}, ""},
		{"periodic dumps one after another: a resumed job",
			append(steps("snapshot_step_%d.pickle", 0, procA, 3, 0), dump{"rank0_step400.pickle", 0, short(procA, t0+30*minute)}),
			[]int{0, 0, 0, 0}, NoteUnrankedJoined},
		{"traces of one time without an event in common: two processes",
			[]dump{{"snapshot_step_100.pickle", 0, procA.at(t0+5*minute, 2000, 0)}, {"oom_rank-0_snapshot.pickle", 0, procB.at(t0+5*minute+500_000, 2000, 0)}},
			[]int{input.NoRank, 0}, ""},
		{"traces that share events join even dumps at one step",
			[]dump{{"snapshot_step_100.pickle", 0, procA.at(t0+5*minute, 2000, 0)}, {"rank0_step100.pickle", 0, procA.at(t0+5*minute+300_000, 2000, 40)}},
			[]int{0, 0}, NoteUnrankedJoined},
		{"on another device: two processes",
			append(steps("snapshot_step_%d.pickle", 1, procA, 3, 0), dump{"oom_rank-0_snapshot.pickle", 0, short(procB, t0+40*minute)}),
			[]int{input.NoRank, input.NoRank, input.NoRank, 0}, ""},
		{"folders of two nodes: two processes",
			append(steps("node1/snapshot_step_%d.pickle", 0, procA, 3, 0), dump{"node0/oom_rank-0_snapshot.pickle", 0, short(procB, t0+40*minute)}),
			[]int{input.NoRank, input.NoRank, input.NoRank, 0}, ""},
		{"step folders tell no process apart",
			[]dump{{"step_100/snapshot.pickle", 0, nil}, {"step_200/snapshot.pickle", 0, nil}, {"step_300/oom_rank-0.pickle", 0, nil}},
			[]int{0, 0, 0}, NoteUnrankedJoined},
		{"beside two ranks: ambiguous, kept apart",
			append(append(steps("rank0_step%d.pickle", 0, procA, 3, 0), steps("rank1_step%d.pickle", 1, procB, 3, 0)...),
				dump{"oom_snapshot.pickle", 0, short(procA, t0+40*minute)}),
			[]int{0, 0, 0, 1, 1, 1, input.NoRank}, NoteUnrankedApart},
		{"beside two ranks, sharing events with rank 1's last dump",
			append(append(steps("rank0_step%d.pickle", 0, procA, 2, 0), dump{"rank1_step100.pickle", 0, procB.at(t0+5*minute, 2000, 0)}),
				dump{"oom_snapshot.pickle", 0, procB.at(t0+5*minute+200_000, 2000, 25)}),
			[]int{0, 0, 1, 1}, NoteUnrankedJoined},
	}
	for _, tt := range tests {
		for _, digest := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/digest=%v", tt.name, digest), func(t *testing.T) {
				var dumps []laidOut
				for _, d := range tt.dumps {
					traces := make([][]snapshot.TraceEntry, d.dev+1)
					traces[d.dev] = d.tr
					s := &snapshot.Snapshot{Traces: traces, Segments: []*snapshot.Segment{{Device: d.dev, TotalSize: 2 << 20}}}
					if digest {
						s = snapshot.Reduce(s)
					}
					dumps = append(dumps, laidOut{d.path, s})
				}
				notes := joinLaidOut(t, dumps, tt.ranks)
				switch {
				case tt.note == "" && len(notes) > 0:
					t.Errorf("notes %+v, want none", notes)
				case tt.note != "" && (len(notes) != 1 || notes[0].Kind != tt.note || notes[0].Unranked == nil):
					t.Errorf("notes %+v, want one %q", notes, tt.note)
				case tt.note == NoteUnrankedApart && (notes[0].Unranked.Rank != input.NoRank || len(notes[0].Unranked.Ranks) != 2):
					t.Errorf("note %+v, want no rank beside ranks 0 and 1", notes[0].Unranked)
				}
			})
		}
	}
}
