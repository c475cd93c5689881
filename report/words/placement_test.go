package words

import (
	"testing"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/placement"
)

// TestJoinWords: each join rule says its GPU, the device and the evidence
// it saw, from the join's figures alone.
func TestJoinWords(t *testing.T) {
	k := analyze.DeviceKey{Rank: 1, Device: 0}
	tests := []struct {
		name string
		join analyze.Join
		want string
	}{
		{"index", analyze.Join{GPU: 0, Method: placement.JoinByIndex},
			"nvidia-smi GPU 0 = CUDA device 0 (same index)"},
		{"rank, confirmed", analyze.Join{GPU: 1, Method: placement.JoinByRank, Confirmed: true},
			"nvidia-smi GPU 1 = rank 1 (guess: every rank's snapshots are on CUDA device 0); its memory.used tracks this rank's reserved memory"},
		{"manifest UUID", analyze.Join{GPU: 3, Method: placement.JoinByUUID, ID: placement.JoinID{UUID: "abc", Manifest: "rank1/gpureport-capture.json"}},
			"nvidia-smi GPU 3 = rank 1 · cuda:0 (same UUID GPU-abc in the capture manifest rank1/gpureport-capture.json and the GPU log)"},
		{"memory_stats UUID", analyze.Join{GPU: 3, Method: placement.JoinByUUID, ID: placement.JoinID{UUID: "abc"}},
			"nvidia-smi GPU 3 = rank 1 · cuda:0 (same UUID GPU-abc in memory_stats and the GPU log)"},
		{"process id", analyze.Join{GPU: 2, Method: placement.JoinByUUID, ID: placement.JoinID{PID: 4242}},
			"nvidia-smi GPU 2 = rank 1 · cuda:0 (process 4242 of memory_stats runs on it in the compute-apps log)"},
		{"one life", analyze.Join{GPU: 4, Method: placement.JoinByLifetime, Life: placement.LifeEvidence{Peak: 12 * gib}},
			"nvidia-smi GPU 4 = rank 1 · cuda:0 (the snapshots have no usable times; GPU 4 is the only GPU busy for one stretch inside the log, idle before and after it, at this device's reserved memory of up to 12.0 GiB)"},
		{"lives in order", analyze.Join{GPU: 2, Method: placement.JoinByLifetime, Life: placement.LifeEvidence{Peak: gib, InOrder: []int{1, 2}}},
			"nvidia-smi GPU 2 = rank 1 · cuda:0 (the snapshots have no usable times; GPUs 1, 2 are the 2 GPUs busy for one stretch inside the log, idle before and after it, at these 2 devices' reserved memory, and the devices take them in order, as CUDA_VISIBLE_DEVICES lists them)"},
		{"tracking, index GPU below", analyze.Join{GPU: 5, Method: placement.JoinByTracking, Track: placement.Tracking{Tracked: 10, Matched: 10, Above: 500 * mib,
			Lifetime: true, Departures: 3, Followed: 2, Index: placement.IndexOutcome{GPU: 0, Loss: placement.IndexBelow, Below: 9, Matched: 10}}},
			"nvidia-smi GPU 5 = rank 1 · cuda:0 (its memory.used tracks this device's reserved memory at 10 of 10 snapshot times, 500 MiB above it, busy from just before the first snapshot to just after the last, and moved with it at 2 of the 3 snapshots away from its usual level; GPU 0 is below reserved memory at 9 of 10 times)"},
		{"tracking, no room, ambiguous", analyze.Join{GPU: 5, Method: placement.JoinByTracking, Guess: true, Ambiguous: []int{6},
			Track: placement.Tracking{Tracked: 8, Matched: 10, Above: 300 * mib, Index: placement.IndexOutcome{GPU: 0, Loss: placement.IndexNoRoom, Gap: 40 * mib}}},
			"nvidia-smi GPU 5 = rank 1 · cuda:0 (its memory.used tracks this device's reserved memory at 8 of 10 snapshot times, 300 MiB above it; GPU 0 is typically 40.0 MiB below reserved memory, with no room for a CUDA context); ambiguous: GPU 6 tracks it about as well"},
		{"tracking in rank order", analyze.Join{GPU: 1, Method: placement.JoinByTracking, Track: placement.Tracking{Tracked: 4, Matched: 4, Above: mib, InRankOrder: true}},
			"nvidia-smi GPU 1 = rank 1 · cuda:0 (its memory.used tracks this device's reserved memory at 4 of 4 snapshot times, 1.00 MiB above it; one GPU per device, in rank order)"},
		{"tracking, index GPU further", analyze.Join{GPU: 1, Method: placement.JoinByTracking, Track: placement.Tracking{Tracked: 4, Matched: 4, Above: mib,
			Index: placement.IndexOutcome{GPU: 0, Loss: placement.IndexFurther, Gap: 2 * gib}}},
			"nvidia-smi GPU 1 = rank 1 · cuda:0 (its memory.used tracks this device's reserved memory at 4 of 4 snapshot times, 1.00 MiB above it; GPU 0 is further from it, 2.00 GiB above)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Join(k, &tt.join)
			if got != tt.want {
				t.Errorf("\n got %q\nwant %q", got, tt.want)
			}
			if why := flaw(got); why != "" {
				t.Errorf("sentence %s: %q", why, got)
			}
		})
	}
}

// TestPlacementNotes: what placement assumed, and a clock offset, read
// as sentences naming the figures placement decided.
func TestPlacementNotes(t *testing.T) {
	f := &analyze.Findings{}
	paths := []string{"a/0.pickle", "a/1.pickle", "a/2.pickle", "a/3.pickle", "a/4.pickle", "a/5.pickle", "a/6.pickle", "a/7.pickle", "a/8.pickle"}
	tests := []struct {
		name string
		note analyze.Note
		want string
	}{
		{"clock offset, zone", analyze.Note{Kind: analyze.NoteClockOffset, Clock: analyze.ClockNote{Hours: 2, ReadAs: "UTC", Zone: "+02:00"}},
			"GPU log times look 2 h ahead of the snapshots: the log was probably written in UTC+02:00 but read as UTC; rerun with --tz +02:00"},
		{"clock offset to memory_stats, behind", analyze.Note{Kind: analyze.NoteClockOffsetStats, Clock: analyze.ClockNote{Hours: -4, ReadAs: "+04:00", Zone: "UTC"}},
			"GPU log times look 4 h behind the torch.cuda.memory_stats readings: the log was probably written in UTC but read as UTC+04:00; rerun with --tz UTC"},
		{"clock offset, no zone", analyze.Note{Kind: analyze.NoteClockOffset, Clock: analyze.ClockNote{Hours: 14, ReadAs: "+04:00"}},
			"GPU log times look 14 h ahead of the snapshots (read as UTC+04:00); no time zone explains that: check the clock of the machine that wrote the log"},
		{"ranks numbered", analyze.Note{Kind: analyze.NoteRanksNumbered, Place: &analyze.PlaceNote{Kind: placement.NoteRanksNumbered,
			Ranks: &placement.RankNumbering{Clash: [2]string{"a/0.pickle", "b/0.pickle"}, Paths: paths}}},
			"the snapshot paths do not give each process a rank of its own (a/0.pickle and b/0.pickle are dumps of one place in the run): the 9 processes their paths tell apart are numbered as ranks in path order: " +
				"rank 0 a/0.pickle, rank 1 a/1.pickle, rank 2 a/2.pickle, rank 3 a/3.pickle, rank 4 a/4.pickle, rank 5 a/5.pickle, rank 6 a/6.pickle, rank 7 a/7.pickle, and 1 more"},
		{"ranks numbered by names that alternate in time", analyze.Note{Kind: analyze.NoteRanksNumbered, Place: &analyze.PlaceNote{Kind: placement.NoteRanksNumbered,
			Ranks: &placement.RankNumbering{Clash: [2]string{"gpu-a_May_01_12_00_00.pickle", "gpu-b_May_01_12_00_01.pickle"}, Paths: []string{"gpu-a_*.pickle", "gpu-b_*.pickle"}, ByTrace: true, ByTime: true, Ranks: []int{0, 1}}}},
			"the snapshot paths do not give each process a rank of its own (gpu-a_May_01_12_00_00.pickle and gpu-b_May_01_12_00_01.pickle are dumps, nearest in time, of names that alternate whose traces cover the same time with no allocator event in common: two processes): " +
				"a rank their paths name is kept, and the processes found beside it are numbered after the ranks in use: rank 0 gpu-a_*.pickle, rank 1 gpu-b_*.pickle"},
		{"names alternate", analyze.Note{Kind: analyze.NoteNamesAlternate, Place: &analyze.PlaceNote{Kind: placement.NoteNamesAlternate,
			Alternation: &placement.NameAlternation{Rank: input.NoRank, Paths: []string{"gpu-a_*.pickle", "gpu-b_*.pickle"}, Example: [2]string{"gpu-a_Sep_28_23_50_00.pickle", "gpu-b_Sep_28_23_50_01.pickle"}, Untimed: true}}},
			"the snapshot names fall into 2 groups that alternate in time (gpu-a_*.pickle, gpu-b_*.pickle; e.g. gpu-a_Sep_28_23_50_00.pickle and gpu-b_Sep_28_23_50_01.pickle), and their traces have no times (PyTorch before 2.2 writes none) to tell whether these are several processes: " +
				"they are one series, as the dumps of one process; if they are several processes (hosts), give each its own folder or a rank in its name"},
		{"names of rank 3 alternate", analyze.Note{Kind: analyze.NoteNamesAlternate, Place: &analyze.PlaceNote{Kind: placement.NoteNamesAlternate,
			Alternation: &placement.NameAlternation{Rank: 3, Paths: []string{"rank3/a_*.pickle", "rank3/b_*.pickle"}, Example: [2]string{"rank3/a_1.pickle", "rank3/b_2.pickle"}}}},
			"the snapshot names of rank 3 fall into 2 groups that alternate in time (rank3/a_*.pickle, rank3/b_*.pickle; e.g. rank3/a_1.pickle and rank3/b_2.pickle), and their traces cover too little time in common to tell whether these are several processes: " +
				"they are one series, as the dumps of one process; if they are several processes (hosts), give each its own folder or a rank in its name"},
		{"unranked dumps joined", analyze.Note{Kind: analyze.NoteUnrankedJoined, Place: &analyze.PlaceNote{Kind: placement.NoteUnrankedJoined,
			Unranked: &placement.UnrankedDumps{Paths: []string{"s/step_100.pickle", "s/step_200.pickle", "s/step_300.pickle"}, Count: 5, Ranks: []int{0}, Rank: 0}}},
			"5 snapshots without a rank in their names (s/step_100.pickle, s/step_200.pickle, s/step_300.pickle and 2 more) are taken as rank 0's, the only rank the other snapshot names give: " +
				"on its device, nothing shows two processes (no dumps at one step, periodic dumps one after another, no traces of two processes)"},
		{"unranked dump joined by its trace", analyze.Note{Kind: analyze.NoteUnrankedJoined, Place: &analyze.PlaceNote{Kind: placement.NoteUnrankedJoined,
			Unranked: &placement.UnrankedDumps{Paths: []string{"oom_snapshot.pickle"}, Count: 1, Ranks: []int{0, 1}, Rank: 1, ByTrace: true}}},
			"1 snapshot without a rank in its name (oom_snapshot.pickle) is taken as rank 1's, of the ranks 0, 1 the other snapshot names give: its allocator trace shares events with its dumps, one process's ring buffer"},
		{"unranked dump apart", analyze.Note{Kind: analyze.NoteUnrankedApart, Place: &analyze.PlaceNote{Kind: placement.NoteUnrankedApart,
			Unranked: &placement.UnrankedDumps{Paths: []string{"oom_snapshot.pickle"}, Count: 1, Ranks: []int{0, 1}, Rank: input.NoRank}}},
			"1 snapshot without a rank in its name (oom_snapshot.pickle) lies beside the dumps of ranks 0, 1, and nothing says which rank wrote it: it is kept a series of its own (no rank); give each process's dumps a rank in their names"},
		{"unranked dumps apart as processes in turn", analyze.Note{Kind: analyze.NoteUnrankedApart, Place: &analyze.PlaceNote{Kind: placement.NoteUnrankedApart,
			Unranked: &placement.UnrankedDumps{Paths: []string{"snapshot_0.pickle", "snapshot_1.pickle", "snapshot_2.pickle"}, Count: 5, Ranks: []int{0}, Rank: input.NoRank,
				InTurn: &placement.InTurn{Before: "rank0_step_500.pickle", After: "snapshot_0.pickle", GapSeconds: 2400}}}},
			"5 snapshots without a rank in their names (snapshot_0.pickle, snapshot_1.pickle, snapshot_2.pickle and 2 more) are kept a series of their own (no rank), apart from rank 0's dumps: " +
				"rank0_step_500.pickle and snapshot_0.pickle, where the two meet in time (40 min apart), have no live block, segment or allocation stack in common, " +
				"while one process keeps its blocks (its model's parameters) from one dump to the next: two processes, one after the other; if they are one, give its dumps one rank in their names"},
		{"machines numbered", analyze.Note{Kind: analyze.NoteMachinesNumbered, Place: &analyze.PlaceNote{Kind: placement.NoteMachinesNumbered,
			Machines: &placement.MachineNumbering{Machines: 2, Moved: []placement.MovedLog{{Path: "node1/smi.csv", FirstGPU: 8}}, ByReadings: true}}},
			"the GPU logs read 2 machines (logs that read the same GPU number at the same times see different memory): the GPUs of each further machine are numbered after the ones before, as torchrun numbers ranks across nodes: node1/smi.csv as GPUs 8 and up"},
		{"machines told apart by their GPUs", analyze.Note{Kind: analyze.NoteMachinesNumbered, Place: &analyze.PlaceNote{Kind: placement.NoteMachinesNumbered,
			Machines: &placement.MachineNumbering{Machines: 2, Moved: []placement.MovedLog{{Path: "day2/smi.log", FirstGPU: 1}}, ByIdentity: true}}},
			"the GPU logs read 2 machines (logs name different GPUs at one number: another UUID, bus id, product or memory size): the GPUs of each further machine are numbered after the ones before, as torchrun numbers ranks across nodes: day2/smi.log as GPUs 1 and up"},
		{"manifests disagree", analyze.Note{Kind: analyze.NoteManifestsDisagree, Place: &analyze.PlaceNote{Kind: placement.NoteManifestsDisagree,
			Manifests: &placement.ManifestClash{Rank: 4, Device: 0, Paths: [2]string{"a/m.json", "b/m.json"}, UUIDs: [2]string{"GPU-c", "GPU-d"}}}},
			"the capture manifests a/m.json and b/m.json give rank 4 · cuda:0 different GPUs (GPU-c, GPU-d); neither is used to find its GPU log"},
	}
	tests = append(tests, struct {
		name string
		note analyze.Note
		want string
	}{"MIG devices apart", analyze.Note{Kind: analyze.NoteMIGApart, Device: analyze.DeviceKey{Rank: input.NoRank, Device: 1, MIG: "GI 7"}, Count: 2},
		"the GPU logs read 2 MIG devices (cuda:1 · MIG GI 7 first): they are shown as devices of their own, apart from the devices of the snapshots and memory_stats readings, since a process sees its MIG device as cuda:0 and the logs name no MIG device UUID to join them by"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Note(f, tt.note); got != tt.want {
				t.Errorf("\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestTraceSummaryInconsistent: a trace that disagrees with its
// snapshot's segments says so, with the allocations it leaves alive.
func TestTraceSummaryInconsistent(t *testing.T) {
	tw := &analyze.TraceWindow{Entries: 2, PeakAllocated: 50 * mib, Peak: &analyze.TracePeak{Stray: 1, StrayBytes: 50 * mib, OverFreed: true}}
	has(t, "trace summary", TraceSummary(tw), []string{"leaves 1 allocation (50.0 MiB) alive that the snapshot's segments do not hold", "frees more than was allocated"}, nil)
	tw.Peak = &analyze.TracePeak{}
	has(t, "trace summary", TraceSummary(tw), nil, []string{"inconsistent"})
}
