package placement

import (
	"fmt"
	"reflect"
	"testing"
	"time"

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

// TestSeparateRanksByTime lays out runs of dumps without steps, named by
// a word and a time (PyTorch's recipe host_%b_%d_%H_%M_%S), with traces
// made in the test, and checks that names that alternate in time split
// into processes only when every dump's trace and its nearest dump's of
// the other names cover the same time with no event in common; that
// alternating names the traces cannot tell apart stay one series with a
// note naming them; and that digests group them the same.
func TestSeparateRanksByTime(t *testing.T) {
	const t0 = int64(1_714_560_000_000_000) // 2024-05-01 10:40 UTC
	hostA, hostB := process{t0, 0x7f00_0000_0000}, process{t0 + 137, 0x7e00_0000_0000}
	type dump struct {
		path string
		tr   []snapshot.TraceEntry
	}
	// every is the time between one name's dumps: 3 minutes, far longer
	// than a trace of 2,000 events 1 ms apart.
	const every = 180_000_000
	// at is the time of the i-th dump of a name, sec seconds after the
	// first name's.
	at := func(i int, sec int64) int64 { return t0 + 3_600_000_000 + int64(i)*every + sec*1_000_000 }
	stamp := func(us int64) string { return time.UnixMicro(us).UTC().Format("Jan_02_15_04_05") }
	// named makes n dumps of each word, word w sec[w] seconds after the
	// first, named by pattern (the word, then the time), with traces from
	// trace(w, end).
	named := func(pattern string, words []string, sec []int64, n int, trace func(w int, end int64) []snapshot.TraceEntry) []dump {
		var out []dump
		for i := range n {
			for w, word := range words {
				end := at(i, sec[w])
				out = append(out, dump{fmt.Sprintf(pattern, word, stamp(end)), trace(w, end)})
			}
		}
		return out
	}
	hosts := func(w int, end int64) []snapshot.TraceEntry {
		return []process{hostA, hostB}[w].at(end, 2000, 0)
	}
	untimed := func(w int, end int64) []snapshot.TraceEntry {
		tr := hosts(w, end)
		for k := range tr {
			tr[k].TimeUS = 0
		}
		return tr
	}
	ab := []string{"gpu-a", "gpu-b"}
	type layout struct {
		name  string
		dumps []dump
		// ranks wanted, in dump order; nil: the ranks the names give.
		ranks []int
		// clash is the split note's evidence (when ranks are set);
		// alternate the alternation note's groups and example, nil when
		// none is wanted.
		clash     [2]string
		alternate *NameAlternation
	}
	hostDumps := named("%s_%s.pickle", ab, []int64{0, 1}, 3, hosts)
	tests := []layout{
		{name: "hosts named by time, concurrent disjoint traces", dumps: hostDumps, ranks: []int{0, 1, 0, 1, 0, 1},
			clash: [2]string{"gpu-a_May_01_11_40_00.pickle", "gpu-b_May_01_11_40_01.pickle"}},
		{name: "hosts in folders of their own, stamp first",
			dumps: named("%s/%s_snapshot.pickle", []string{"node-a", "node-b"}, []int64{0, 1}, 3, hosts), ranks: []int{0, 1, 0, 1, 0, 1},
			clash: [2]string{"node-a/May_01_11_40_00_snapshot.pickle", "node-b/May_01_11_40_01_snapshot.pickle"}},
		{name: "hosts without trace times (PyTorch before 2.2)", dumps: named("%s_%s.pickle", ab, []int64{0, 1}, 3, untimed),
			alternate: &NameAlternation{Rank: input.NoRank, Paths: []string{"gpu-a_*.pickle", "gpu-b_*.pickle"},
				Example: [2]string{"gpu-a_May_01_11_40_00.pickle", "gpu-b_May_01_11_40_01.pickle"}, Untimed: true}},
		{name: "hosts, the last dump of gpu-b missing: its nearest is minutes away",
			dumps: hostDumps[:len(hostDumps)-1],
			alternate: &NameAlternation{Rank: input.NoRank, Paths: []string{"gpu-a_*.pickle", "gpu-b_*.pickle"},
				Example: [2]string{"gpu-a_May_01_11_40_00.pickle", "gpu-b_May_01_11_40_01.pickle"}}},
		{name: "hosts with a few events each: too little evidence",
			dumps: named("%s_%s.pickle", ab, []int64{0, 1}, 3, func(w int, end int64) []snapshot.TraceEntry {
				return []process{hostA, hostB}[w].at(end, 2*snapshot.MinOverlapEvidence, 0)
			}),
			alternate: &NameAlternation{Rank: input.NoRank, Paths: []string{"gpu-a_*.pickle", "gpu-b_*.pickle"},
				Example: [2]string{"gpu-a_May_01_11_40_00.pickle", "gpu-b_May_01_11_40_01.pickle"}}},
		{name: "before/after of one process, a second apart, sharing events",
			dumps: named("%s_%s.pickle", []string{"before", "after"}, []int64{0, 1}, 3, func(w int, end int64) []snapshot.TraceEntry {
				return hostA.at(end, 2000, int64(w)*40)
			})},
		{name: "_ema of one process, stamped, sharing events",
			dumps: named("snapshot%[1]s_%[2]s.pickle", []string{"", "_ema"}, []int64{0, 1}, 3, func(w int, end int64) []snapshot.TraceEntry {
				return hostA.at(end, 2000, -int64(w)*250)
			})},
		{name: "one writer, stamps without seconds",
			dumps: func() []dump {
				var out []dump
				for i := range 4 {
					end := at(i, 0)
					out = append(out, dump{"mem_" + time.UnixMicro(end).UTC().Format("2006-01-02_15-04") + ".pickle", hostA.at(end, 2000, 0)})
				}
				return out
			}()},
		{name: "a job resumed on another host: names one after the other",
			dumps: func() []dump {
				var out []dump
				for i := range 4 {
					w := i / 2
					end := at(i, 0)
					out = append(out, dump{ab[w] + "_" + stamp(end) + ".pickle", hosts(w, end)})
				}
				return out
			}()},
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
				var split, alt []Note
				for _, n := range notes {
					switch n.Kind {
					case NoteRanksNumbered:
						split = append(split, n)
					case NoteNamesAlternate:
						alt = append(alt, n)
					default:
						t.Errorf("note %+v", n)
					}
				}
				if len(split) != min(1, len(tt.ranks)) {
					t.Fatalf("split notes %+v, want %d", split, min(1, len(tt.ranks)))
				}
				if len(split) == 1 {
					r := split[0].Ranks
					if !r.ByTrace || !r.ByTime || r.Clash != tt.clash {
						t.Errorf("split note %+v, want by trace and time, clash %q", r, tt.clash)
					}
				}
				switch {
				case tt.alternate == nil && len(alt) > 0:
					t.Errorf("alternation note %+v, want none", alt[0].Alternation)
				case tt.alternate != nil && (len(alt) != 1 || !reflect.DeepEqual(alt[0].Alternation, tt.alternate)):
					t.Errorf("alternation notes %+v, want one: %+v", alt, tt.alternate)
				}
			})
		}
	}
}
