package placement

import (
	"fmt"
	"testing"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// process is one process's allocator timeline: its events 1 ms apart
// from startUS, at its own addresses; at(endUS) is its ring buffer of the
// last n events at endUS, each time shifted by shiftUS (PyTorch converts
// the clock anew at every dump).
type process struct {
	startUS int64
	base    uint64
}

func (p process) at(endUS int64, n int, shiftUS int64) []snapshot.TraceEntry {
	var tr []snapshot.TraceEntry
	first := p.startUS
	if skip := (endUS-p.startUS)/1000 - int64(n) + 1; skip > 0 {
		first += skip * 1000
	}
	for t := first; t <= endUS; t += 1000 {
		i := (t - p.startUS) / 1000
		a := snapshot.ActionAlloc
		if i%2 == 1 {
			a = snapshot.ActionFreeRequested
		}
		tr = append(tr, snapshot.TraceEntry{Action: a, Addr: p.base + uint64(i%400)*512, Size: 512, TimeUS: t + shiftUS})
	}
	return tr[max(0, len(tr)-n):]
}

// TestSeparateRanksByTrace lays out runs whose dump names at one step
// differ only in a word, with traces made in the test, and checks that
// only traces that cover the same time with no event in common split
// them into processes, keeping the ranks the names give; and that digests
// (a re-run from the cache) group them the same.
func TestSeparateRanksByTrace(t *testing.T) {
	const t0 = int64(1_714_560_000_000_000)
	hostA, hostB := process{t0, 0x7f00_0000_0000}, process{t0 + 137, 0x7e00_0000_0000}
	type dump struct {
		path string
		tr   []snapshot.TraceEntry
	}
	steps := []int64{100, 200, 300}
	stepEnd := func(i int) int64 { return t0 + int64(i+1)*600_000_000 }
	// perStep makes two dumps at each step named by pattern (the step,
	// then the word), from trace(i, w) for word w at step i.
	perStep := func(pattern string, words [2]string, trace func(i, w int) []snapshot.TraceEntry) []dump {
		var out []dump
		for i, s := range steps {
			for w, word := range words {
				p := fmt.Sprintf(pattern, s, word)
				out = append(out, dump{p, trace(i, w)})
			}
		}
		return out
	}
	hostPat := func(pattern string) []dump {
		var out []dump
		for i, s := range steps {
			for w, p := range []process{hostA, hostB} {
				out = append(out, dump{fmt.Sprintf(pattern, []string{"gpu-node-a", "gpu-node-b"}[w], s), p.at(stepEnd(i), 2000, 0)})
			}
		}
		return out
	}
	type layout struct {
		name  string
		dumps []dump
		// ranks wanted, in dump order; nil: the ranks the names give,
		// and no note.
		ranks []int
	}
	tests := []layout{
		{"hosts at one step, concurrent disjoint traces", hostPat("%s_snapshot_step_%d.pickle"), []int{0, 1, 0, 1, 0, 1}},
		{"host after the step", hostPat("rank3/snapshot_step_%[2]d_%[1]s.pickle"), []int{3, 4, 3, 4, 3, 4}},
		{"_ema of one process, seconds later, sharing events",
			perStep("snapshot_step_%d%s.pickle", [2]string{"", "_ema"}, func(i, w int) []snapshot.TraceEntry {
				return hostA.at(stepEnd(i)+int64(w)*1_000_000, 2000, int64(w)*40)
			}), nil},
		{"before/after of one process, ring buffer mostly turned over",
			perStep("step_%d_%s.pickle", [2]string{"before", "after"}, func(i, w int) []snapshot.TraceEntry {
				return hostA.at(stepEnd(i)+int64(w)*1_900_000, 2000, -int64(w)*250)
			}), nil},
		{"teacher/student of one process, minutes apart: ranges do not overlap",
			perStep("%[2]s_step_%[1]d.pickle", [2]string{"teacher", "student"}, func(i, w int) []snapshot.TraceEntry {
				return hostA.at(stepEnd(i)+int64(w)*120_000_000, 2000, 0)
			}), nil},
		{"hosts without trace times (PyTorch before 2.2)",
			perStep("snapshot_step_%d_%s.pickle", [2]string{"gpu-node-a", "gpu-node-b"}, func(i, w int) []snapshot.TraceEntry {
				tr := []process{hostA, hostB}[w].at(stepEnd(i), 2000, 0)
				for k := range tr {
					tr[k].TimeUS = 0
				}
				return tr
			}), nil},
		{"hosts, rank words kept (rank2 and rank3, each with an _ema)",
			func() []dump {
				var out []dump
				for i, s := range steps {
					for _, r := range []int{2, 3} {
						p := process{t0 + int64(r), uint64(r) << 40}
						for w, suf := range []string{"", "_ema"} {
							out = append(out, dump{fmt.Sprintf("rank%d_step_%d%s.pickle", r, s, suf), p.at(stepEnd(i)+int64(w)*500_000, 2000, 0)})
						}
					}
				}
				return out
			}(), nil},
	}
	for _, tt := range tests {
		for _, digest := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/digest=%v", tt.name, digest), func(t *testing.T) {
				var files []*ingest.SnapshotFile
				for _, d := range tt.dumps {
					n := ingest.ParseName(d.path)
					s := &snapshot.Snapshot{Traces: [][]snapshot.TraceEntry{d.tr}}
					if digest {
						s = snapshot.Reduce(s)
					}
					files = append(files, &ingest.SnapshotFile{Source: input.Source{Path: d.path}, Step: n.Step, Order: n.Order, OrderKind: n.OrderKind, Rank: n.Rank, Phase: n.Phase, Snapshot: s})
				}
				want := tt.ranks
				if want == nil {
					for _, f := range files {
						want = append(want, f.Rank)
					}
				}
				notes, _ := separateRanks(files)
				for i, f := range files {
					if f.Rank != want[i] {
						t.Errorf("%s: rank %d, want %d", f.Path, f.Rank, want[i])
					}
				}
				if split := len(notes) > 0; split != (tt.ranks != nil) {
					t.Errorf("notes %+v, want a note: %v", notes, tt.ranks != nil)
				}
				if len(notes) > 0 && (notes[0].Ranks == nil || !notes[0].Ranks.ByTrace) {
					t.Errorf("note %+v, want one by trace", notes[0])
				}
			})
		}
	}
}
