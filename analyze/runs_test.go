package analyze

import (
	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
)

// TestRunOOMPlacement: a script run twice, the second run in rerun/
// (placement numbered it 1, run 2: DeviceKey.Run). An OOM message of a
// log in rerun/ is the second run's, on its device key (run and all), a
// line's "rank 0" of the single-process script included; a log at the top
// is the first run's only by the line's rank; and a run of rank 3 takes
// a line of rank 3 in its folder, not one of rank 2.
func TestRunOOMPlacement(t *testing.T) {
	run1 := ingest.ScriptRun{N: 1, Rank: input.NoRank}
	run2 := ingest.ScriptRun{N: 2, Rank: input.NoRank}
	devices := []*Device{
		{DeviceKey: DeviceKey{Rank: 0, Device: 0, Run: run1}, Points: []Point{{}}},
		{DeviceKey: DeviceKey{Rank: 1, Device: 0, Run: run2}, Points: []Point{{}}},
	}
	folders := map[string]int{"rerun": 1}
	logRank := func(l *gpulog.GPULog) int {
		if r, ok := folders[l.Path[:max(0, len(l.Path)-len("/train.log"))]]; ok {
			return r
		}
		return input.NoRank
	}
	for _, tt := range []struct {
		name     string
		path     string
		lineRank int
		want     DeviceKey
	}{
		{"rerun/'s log, no rank on the line", "rerun/train.log", input.NoRank, devices[1].DeviceKey},
		{"rerun/'s log, the script's rank 0", "rerun/train.log", 0, devices[1].DeviceKey},
		{"the top log, rank 0: the first run", "x/train.log", 0, devices[0].DeviceKey},
	} {
		l := &gpulog.GPULog{Source: input.Source{Path: tt.path}, OOMs: []gpulog.TrainingOOM{oomMessage(4, tt.lineRank, 0, 79*gib)}}
		placed := placeLogOOMs([]*gpulog.GPULog{l}, logRank, devices)
		if len(placed) != 1 || placed[0].key != tt.want {
			t.Errorf("%s: placed on %+v, want %s", tt.name, placed, tt.want.Name())
			continue
		}
		if o := trainingOOM(tt.path, *placed[0].m, placed[0].key, 0, false); o.Key() != tt.want {
			t.Errorf("%s: OOM on %s, want %s", tt.name, o.Key().Name(), tt.want.Name())
		}
	}

	for _, tt := range []struct {
		name               string
		lineRank, pathRank int
		pathRun            ingest.ScriptRun
		want               int
	}{
		{"no run: the line's rank", 2, 5, ingest.ScriptRun{}, 2},
		{"no rank on the line: the path's", input.NoRank, 5, ingest.ScriptRun{}, 5},
		{"a run without ranks: its number", 0, 5, run2, 5},
		{"a run of rank 3, a line of rank 3: the run", 3, 5, ingest.ScriptRun{N: 2, Rank: 3}, 5},
		{"a run of rank 3, a line of rank 2: rank 2", 2, 5, ingest.ScriptRun{N: 2, Rank: 3}, 2},
	} {
		if got := processRank(tt.lineRank, tt.pathRank, tt.pathRun); got != tt.want {
			t.Errorf("%s: process %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestJobDevices: the rank comparison and the count of data-parallel
// ranks take the job's ranks alone: a later run, a sweep's experiment and
// a run of a script without ranks are left out; the first run of a rank
// its paths give keeps it.
func TestJobDevices(t *testing.T) {
	devs := []*Device{
		{DeviceKey: DeviceKey{Rank: 0}},
		{DeviceKey: DeviceKey{Rank: 1, Run: ingest.ScriptRun{N: 1, Rank: 1}}},
		{DeviceKey: DeviceKey{Rank: 2, Run: ingest.ScriptRun{N: 2, Rank: 1}}},
		{DeviceKey: DeviceKey{Rank: 3, Run: ingest.ScriptRun{N: 1, Folder: "exp_a", Rank: input.NoRank}}},
		{DeviceKey: DeviceKey{Rank: 4, Run: ingest.ScriptRun{N: 2, Folder: "exp_b", Rank: input.NoRank}}},
	}
	var got []int
	for _, d := range jobDevices(devs) {
		got = append(got, d.Rank)
	}
	if len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("job devices %v, want ranks 0 and 1", got)
	}
}

// TestMissedOOMRunRank: an OOM no snapshot explains on a separate run of
// the script names the job's rank of the run (none for a script without
// ranks, rank 3 for a run of rank 3), never the number placement gave it.
func TestMissedOOMRunRank(t *testing.T) {
	for _, tt := range []struct {
		run  ingest.ScriptRun
		want int
	}{
		{ingest.ScriptRun{N: 2, Rank: input.NoRank}, input.NoRank},
		{ingest.ScriptRun{N: 2, Rank: 3}, 3},
	} {
		f := &Findings{OOMs: []OOM{{Path: "rerun/train.log", Rank: 5, Run: tt.run}}}
		m := missedOOM(&placement.Run{}, f, nil)
		if m == nil || len(m.Ranks) != 1 || m.Ranks[0] != tt.want {
			t.Errorf("%s: missed OOM %+v, want it on rank %d", tt.run.Name(), m, tt.want)
		}
	}
}
