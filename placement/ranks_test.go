package placement

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// filesAt makes the SnapshotFiles that loading makes of these paths
// (ingest.ParseName), without content.
func filesAt(paths []string) []*ingest.SnapshotFile {
	var out []*ingest.SnapshotFile
	for _, p := range paths {
		n := ingest.ParseName(p)
		out = append(out, &ingest.SnapshotFile{Source: input.Source{Path: p}, Step: n.Step, Order: n.Order, OrderKind: n.OrderKind, Rank: n.Rank, Phase: n.Phase})
	}
	return out
}

// expand writes pattern (with {p} for the rank's number and {s} for the
// step) for ranks 0..ranks-1 and steps 5, 10, 15.
func expand(pattern string, ranks int, rank func(int) string) []string {
	var out []string
	for p := range ranks {
		for _, s := range []int{5, 10, 15} {
			r := strings.NewReplacer("{p}", rank(p), "{s}", fmt.Sprint(s), "{node}", fmt.Sprint(p/2), "{local}", fmt.Sprint(p%2))
			out = append(out, r.Replace(pattern))
		}
	}
	return out
}

func TestSeparateRanks(t *testing.T) {
	num := func(p int) string { return fmt.Sprint(p) }
	tests := []struct {
		name  string
		paths []string
		// ranks are the ranks wanted for the paths, in order; nil means
		// the ranks the paths give, and no note.
		ranks []int
		// pids are the pids wanted for the processes, in rank order; nil:
		// none (the processes are ranks).
		pids []int
	}{
		{"local ranks on two nodes", expand("node{node}/rank{local}/snapshot_step_{s}.pickle", 4, num),
			[]int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}, nil},
		{"host folders", expand("gpu-host-{p}/local_rank_0/step_{s}.pickle", 2, func(p int) string { return []string{"b", "a"}[p] }),
			[]int{1, 1, 1, 0, 0, 0}, nil},
		{"worker folders, dump counters", expand("worker_{p}/snapshot_{s}.pickle", 3, num),
			[]int{0, 0, 0, 1, 1, 1, 2, 2, 2}, nil},
		{"pid in the name", expand("snapshot_pid{p}_step{s}.pickle", 2, func(p int) string { return fmt.Sprint(4100 + 7*p) }),
			[]int{0, 0, 0, 1, 1, 1}, []int{4100, 4107}},
		{"pid= in a folder name", expand("mem-pid={p}/step_{s}.pickle", 2, func(p int) string { return fmt.Sprint(31338 - p) }),
			[]int{1, 1, 1, 0, 0, 0}, []int{31337, 31338}},
		// "rapid" holds "pid" inside a word: no process id.
		{"a word ending in pid", expand("rapid{p}_step{s}.pickle", 2, num), []int{0, 0, 0, 1, 1, 1}, nil},
		{"gpu in the name", expand("gpu{p}_step_{s}.pickle", 2, num), []int{0, 0, 0, 1, 1, 1}, nil},
		// What paths already tell apart, or cannot, stays as it is.
		{"ranks of their own", expand("rank{p}/snapshot_step_{s}.pickle", 3, num), nil, nil},
		{"one rank", expand("snapshot_step_{s}.pickle", 1, num), nil, nil},
		{"an OOM dump at a periodic step", []string{"snapshot_step_5.pickle", "snapshot_step_10.pickle", "oom_step_10.pickle"}, nil, nil},
		{"dumps before and after the optimizer step", append(expand("step_{s}_before.pickle", 1, num), expand("step_{s}_after.pickle", 1, num)...), nil, nil},
		{"a rank with one dump", append(expand("worker_0/snapshot_step_{s}.pickle", 1, num), "worker_1/snapshot_step_5.pickle"), nil, nil},
		// Iterations counted within each epoch repeat, but the epochs are
		// stages of one rank.
		{"iterations within epochs", expand("epoch_{p}_iter_{s}.pickle", 3, num), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := filesAt(tt.paths)
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
			switch {
			case tt.ranks == nil && notes != nil:
				t.Errorf("notes %+v, want none", notes)
			case tt.ranks != nil && (len(notes) != 1 || notes[0].Kind != NoteRanksNumbered || len(notes[0].Ranks.Paths) != slices.Max(want)+1):
				t.Errorf("notes %+v, want one that says how ranks were numbered", notes)
			case tt.ranks != nil && !slices.Equal(notes[0].Ranks.PIDs, tt.pids):
				t.Errorf("note's pids %v, want %v", notes[0].Ranks.PIDs, tt.pids)
			}
			for i, f := range files {
				if want := 0; tt.pids != nil {
					want = tt.pids[f.Rank]
					if f.PID != want {
						t.Errorf("%s: pid %d, want %d", tt.paths[i], f.PID, want)
					}
				} else if f.PID != 0 {
					t.Errorf("%s: pid %d, want none", tt.paths[i], f.PID)
				}
			}
		})
	}
}

// TestLogRanksFollowRankFolders checks that a log in a rank's own folder
// takes the rank placement gave that rank, and that other logs keep the
// rank their paths give.
func TestLogRanksFollowRankFolders(t *testing.T) {
	files := filesAt(expand("node{node}/rank{local}/snapshot_step_{s}.pickle", 4, func(p int) string { return fmt.Sprint(p) }))
	_, dirRanks := separateRanks(files)
	want := map[string]int{"node0/rank0": 0, "node0/rank1": 1, "node1/rank0": 2, "node1/rank1": 3}
	if !maps.Equal(dirRanks, want) {
		t.Fatalf("folder ranks %v, want %v", dirRanks, want)
	}
	logs := []*gpulog.GPULog{
		{Source: input.Source{Path: "node1/rank0/memory_stats.jsonl"}},
		{Source: input.Source{Path: "node1/rank1/logs/stats.jsonl"}},
		{Source: input.Source{Path: "logs/rank5.jsonl"}},
		{Source: input.Source{Path: "gpu.csv"}},
	}
	run := &Run{Run: ingest.Run{Logs: logs}, logRanks: logRanks(logs, dirRanks)}
	for i, w := range []int{2, 3, 5, input.NoRank} {
		if got := run.LogRank(logs[i]); got != w {
			t.Errorf("%s: rank %d, want %d", logs[i].Path, got, w)
		}
	}
}

// TestResumedJobIsOneRank: two folders whose dumps repeat the steps but
// follow one another in time (a job resumed from a checkpoint into a new
// folder) are one rank; the same folders at the same times are two.
func TestResumedJobIsOneRank(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		later time.Duration
		split bool
	}{{"resumed an hour later", time.Hour, false}, {"side by side", time.Second, true}} {
		t.Run(tt.name, func(t *testing.T) {
			files := filesAt(expand("attempt{p}/snapshot_step_{s}.pickle", 2, func(p int) string { return fmt.Sprint(p) }))
			for i, f := range files {
				at := t0.Add(time.Duration(i%3) * time.Minute)
				if i >= 3 {
					at = at.Add(tt.later)
				}
				f.Snapshot = &snapshot.Snapshot{Traces: [][]snapshot.TraceEntry{{{TimeUS: at.UnixMicro()}}}}
			}
			notes, _ := separateRanks(files)
			if split := notes != nil; split != tt.split {
				t.Errorf("split %v, want %v (ranks %d, %d)", split, tt.split, files[0].Rank, files[3].Rank)
			}
		})
	}
}

// TestLogRanksFromMemoryStatsFolders: folders of one pattern (node0/,
// node1/), each holding one rank's memory_stats readings alone, are rank
// folders: a log in one of them that names no rank (a machine's plain
// train.log) is that rank's. The run's own folder, a folder whose readings
// are several ranks', and one rank's readings without a sibling folder of
// another rank (rank 0 alone logging its memory_stats) make none.
func TestLogRanksFromMemoryStatsFolders(t *testing.T) {
	stats := func(path string, ranks ...int) *gpulog.GPULog {
		l := &gpulog.GPULog{Source: input.Source{Path: path}}
		for _, r := range ranks {
			l.MemoryStats = append(l.MemoryStats, gpulog.MemoryStatsSample{Rank: r})
		}
		return l
	}
	tests := []struct {
		name string
		logs []*gpulog.GPULog
		want map[string]int // by path; others input.NoRank
	}{{
		name: "two nodes",
		logs: []*gpulog.GPULog{stats("node0/memstats.jsonl", 0, 0), stats("node1/memstats.jsonl", 1, 1), stats("node1/train.log"), stats("train.log")},
		want: map[string]int{"node0/memstats.jsonl": 0, "node1/memstats.jsonl": 1, "node1/train.log": 1},
	}, {
		name: "deeper logs of a node folder",
		logs: []*gpulog.GPULog{stats("node0/stats/memstats.jsonl", 0), stats("node1/stats/memstats.jsonl", 1), stats("node1/train.log")},
		want: map[string]int{"node0/stats/memstats.jsonl": 0, "node1/stats/memstats.jsonl": 1},
	}, {
		name: "rank 0 alone logs its memory_stats",
		logs: []*gpulog.GPULog{stats("logs/memstats.jsonl", 0), stats("logs/train.log")},
	}, {
		name: "one folder's readings are two ranks'",
		// A machine's folder holds several ranks' readings: node1's
		// train.log may be rank 3's, which logs none.
		logs: []*gpulog.GPULog{stats("node0/memstats.jsonl", 0, 1), stats("node1/memstats.jsonl", 2), stats("node0/train.log"), stats("node1/train.log")},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := &Run{Run: ingest.Run{Logs: tt.logs}, logRanks: logRanks(tt.logs, nil)}
			for _, l := range tt.logs {
				w, ok := tt.want[l.Path]
				if !ok {
					w = input.NoRank
				}
				if got := run.LogRank(l); got != w {
					t.Errorf("%s: rank %d, want %d", l.Path, got, w)
				}
			}
		})
	}
}

// TestPIDDeviceName: a process told apart by its pid is named by it, not
// by the rank placement numbered it with.
func TestPIDDeviceName(t *testing.T) {
	for _, tc := range []struct {
		k    DeviceKey
		want string
	}{
		{DeviceKey{Rank: 1, Device: 0, PID: 4242}, "pid 4242 · cuda:0"},
		{DeviceKey{Rank: 1, Host: true, PID: 4242}, "pid 4242 · pinned host"},
		{DeviceKey{Rank: 1, Device: 0}, "rank 1 · cuda:0"},
	} {
		if got := tc.k.Name(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.k, got, tc.want)
		}
	}
}
