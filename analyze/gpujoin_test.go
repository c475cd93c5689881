package analyze

import (
	"math"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
)

// gpuTrace builds nvidia-smi readings of one GPU every 10 s over n
// minutes, used(i) bytes at minute i.
func gpuTrace(l *gpulog.GPULog, gpu, n int, used func(min float64) int64) {
	end := t0.Add(time.Duration(n-1) * time.Minute)
	for t := t0; !t.After(end); t = t.Add(10 * time.Second) {
		l.Samples = append(l.Samples, gpulog.GPUSample{Time: t, GPU: gpu, MemoryUsed: used(t.Sub(t0).Minutes()),
			MemoryTotal: 80 * gib, MemoryFree: gpulog.Unknown, MemoryReserved: gpulog.Unknown})
	}
}

// TestAnalyzeRemappedGPU runs the whole analysis on a run whose process
// used nvidia-smi GPU 1 as cuda:0, with GPU 0 busy with another job, and
// NCCL-like growth outside the allocator on GPU 1: the outside-allocator
// growth is found on the right GPU, and the report says how it joined.
func TestAnalyzeRemappedGPU(t *testing.T) {
	sp := synthSpec{n: 12, seed: 3, rank: input.NoRank, outsideRate: 100 * mib}
	fs := sp.files()
	right := sp.log(fs, 1)
	other := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}}
	gpuTrace(other, 0, sp.n, func(float64) int64 { return 2 * gib })
	right.Samples = append(right.Samples, other.Samples...)
	run := &ingest.Run{Dir: "synth", Location: time.UTC, Snapshots: fs, Logs: []*gpulog.GPULog{right}}
	f := Analyze(run, Options{})
	if len(f.Devices) == 0 || f.Devices[0].GPU == nil {
		t.Fatalf("no GPU readings joined")
	}
	d := f.Devices[0]
	if j := d.GPUJoin; j == nil || j.GPU != 1 || j.Method != placement.JoinByTracking || j.Track.Tracked == 0 {
		t.Errorf("GPUJoin = %+v, want GPU 1 by tracking", j)
	}
	if !f.Verdict.OutsideAllocatorLeak {
		t.Errorf("outside-allocator growth on the remapped GPU was not flagged; reasons: %v", f.Verdict.Reasons)
	}
}

// TestJoinInputTimes: snapshots without trace times are placed in time by
// a timestamp in their file names, or by their file times when the series
// is ordered by them, so a run of such files can still be joined by
// tracking.
func TestJoinInputTimes(t *testing.T) {
	at := t0.Add(5 * time.Minute)
	named := &ingest.SnapshotFile{Source: input.Source{Path: "snapshot_20260302-090500.pickle"}, Order: at.UnixNano(), OrderKind: ingest.OrderTimestamp}
	plain := &ingest.SnapshotFile{Source: input.Source{Path: "snapshot.pickle", ModTime: at.Add(time.Minute)}}
	pts := []Point{{Usage: Usage{Reserved: gib}}, {Usage: Usage{Reserved: 2 * gib}}}
	for _, tt := range []struct {
		name    string
		order   OrderRule
		written bool // Series.ModTimesWritten
		files   []*ingest.SnapshotFile
		want    []time.Time
	}{
		{"name timestamp", OrderNameTime, false, []*ingest.SnapshotFile{named, named}, []time.Time{at, at}},
		{"file times", OrderModTime, true, []*ingest.SnapshotFile{plain, plain}, []time.Time{at.Add(time.Minute), at.Add(time.Minute)}},
		// Steps in the names order the series; the file times, written at
		// each dump, still place the snapshots in time for the join.
		{"steps in names, file times written", OrderStep, true, []*ingest.SnapshotFile{plain, plain}, []time.Time{at.Add(time.Minute), at.Add(time.Minute)}},
		{"steps in names, copied", OrderStep, false, []*ingest.SnapshotFile{plain, plain}, nil},
		{"copied: no time", OrderPath, false, []*ingest.SnapshotFile{plain, plain}, nil},
	} {
		in := seriesJoinInput(&Series{Order: tt.order, ModTimesWritten: tt.written, Points: pts, Files: tt.files}, nil)
		if len(in.Reserved) != len(tt.want) {
			t.Errorf("%s: %d observations, want %d", tt.name, len(in.Reserved), len(tt.want))
			continue
		}
		for i, o := range in.Reserved {
			if !o.Time.Equal(tt.want[i]) || o.Value != pts[i].Usage.Reserved {
				t.Errorf("%s: observation %d = %v %d", tt.name, i, o.Time, o.Value)
			}
		}
	}
}

// TestTrainingLogLeakOOM: a training log's OOM message on a device whose
// leak suspect had added more than the request lacked is a leak OOM
// (docs/design.md's first cause), even when free plus cached memory would have
// covered the request; without the leak it stays a fragmentation OOM.
func TestTrainingLogLeakOOM(t *testing.T) {
	for _, tt := range []struct {
		name string
		leak int64
		want string
	}{
		{"leaking device", 200 * mib, "leak"},
		{"no leak", 0, "fragmentation"},
	} {
		sp := synthSpec{n: 12, seed: 4, rank: input.NoRank, leakPerSnap: tt.leak}
		run := sp.run()
		run.Logs = append(run.Logs, &gpulog.GPULog{Source: input.Source{Path: "train.log"}, Format: gpulog.FormatTrainingLog,
			OOMs: []gpulog.TrainingOOM{{Line: 40, Count: 1, Rank: input.NoRank, Device: 0, Requested: 2 * gib, Capacity: 80 * gib,
				Free: 1 * gib, ProcessInUse: gpulog.Unknown, Allocated: 70 * gib, Reserved: 79 * gib, ReservedUnallocated: 3 * gib}}})
		f := Analyze(run, Options{})
		CheckProse(t, t.Name(), f)
		var got []string
		for _, o := range f.OOMs {
			if o.Path == "train.log" {
				got = append(got, string(o.Cause))
				if o.Cause == "leak" && (o.LeakSite != "train.py:57" || o.Missing != 1*gib || o.LeakedBytes < o.Missing || o.Message == nil) {
					t.Errorf("%s: leak OOM without its numbers: site %q missing %d leaked %d, message %+v", tt.name, o.LeakSite, o.Missing, o.LeakedBytes, o.Message)
				}
			}
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s: training-log OOM classes %v, want [%s]", tt.name, got, tt.want)
		}
		if tt.want == "leak" && f.Verdict.Fragmentation {
			t.Errorf("%s: a leak OOM raised the fragmentation flag: %v", tt.name, f.Verdict.Reasons)
		}
	}
}

// TestTrainingLogOOMSameRequest: a training log's message for the OOM a
// snapshot already explains is not a second OOM, even when the message
// numbers the GPU differently (same requested bytes).
func TestTrainingLogOOMSameRequest(t *testing.T) {
	known := []OOM{{Path: "oom.pickle", Rank: input.NoRank, Device: 0, Requested: 84934656}}
	logs := []*gpulog.GPULog{{Source: input.Source{Path: "train.log"}, OOMs: []gpulog.TrainingOOM{
		{Rank: input.NoRank, Device: 1, Requested: 84934656, Free: 1, Reserved: 1, Allocated: 1, ReservedUnallocated: 1, Capacity: 1},
		{Rank: input.NoRank, Device: 1, Requested: 4096, Free: 1, Reserved: 1, Allocated: 1, ReservedUnallocated: 1, Capacity: 1},
	}}}
	got := trainingLogOOMs(placeLogOOMs(logs, pathRank, nil), known, nil, 0)
	if len(got) != 1 || got[0].Requested != 4096 {
		t.Errorf("got %d OOMs %+v, want only the 4096-byte one", len(got), got)
	}
}

// TestSameRequest: an OOM message's request, printed to two decimals of
// its unit as PyTorch's format_size does, matches the snapshot's trace
// size whether it prints that block size or the segment PyTorch tried to
// allocate for it, and does not match another request.
func TestSameRequest(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	// printed is what parsing "v unit" gives: the bytes (truncated) and
	// the slack of two decimals.
	printed := func(v float64, unit int64) (int64, int64) { return int64(v * float64(unit)), unit / 200 }
	for _, tt := range []struct {
		name        string
		value       float64
		unit, trace int64
		want        bool
	}{
		{"block size, MiB", 793.71, mib, 832264704, true},        // 793.71 MiB is 832,262,799 bytes
		{"segment size, MiB", 794.00, mib, 832264704, true},      // rounded up to 2 MiB
		{"segment size, GiB", 1.91, gib, 2051063808, true},       // 1,956 MiB
		{"small block, 2 MiB segment", 2.00, mib, 4096, true},    // up to 1 MiB: one 2 MiB segment
		{"mid block, 20 MiB segment", 20.00, mib, 6 << 20, true}, // below 10 MiB: one 20 MiB segment
		{"another request", 100.00, mib, 84934656, false},
		{"next 2 MiB step", 796.00, mib, 832264704, false},
		{"two decimals apart", 793.73, mib, 832264704, false},
	} {
		logged, slack := printed(tt.value, tt.unit)
		if got := sameRequest(logged, slack, tt.trace); got != tt.want {
			t.Errorf("%s: sameRequest(%d ± %d, trace %d) = %v, want %v (segment %d)", tt.name, logged, slack, tt.trace, got, tt.want, segmentSize(tt.trace))
		}
	}
	if sameRequest(gpulog.Unknown, 0, 4096) || sameRequest(4096, 0, gpulog.Unknown) {
		t.Error("an unknown request matched")
	}
}

// TestGPUTrendNoHourlyRateFromSeconds: GPU readings that cannot be placed
// on the device's step axis are fitted per hour only when they span at
// least MinHoursAxisSpan; readings seconds apart are fitted per reading.
func TestGPUTrendNoHourlyRateFromSeconds(t *testing.T) {
	for _, tt := range []struct {
		gap  time.Duration
		want Axis
	}{{time.Second, "reading"}, {10 * time.Minute, "hour"}} {
		g := &GPUSeries{}
		for i := range 12 {
			g.Times = append(g.Times, t0.Add(time.Duration(i)*tt.gap))
			g.Used = append(g.Used, int64(i+1)*gib)
			g.X = append(g.X, math.NaN())
		}
		tr := gpuTrend(&Device{GPU: g}, "step", DefaultTrendRules())
		if tr == nil || tr.Per != tt.want {
			t.Errorf("readings %v apart: trend %+v, want per %s", tt.gap, tr, tt.want)
		}
	}
}

// TestUnjoinedGPUNote: with snapshots of one rank joined to GPU 1, a GPU
// of the logs that no device joined gets a note when its used memory
// grows over hours, and none when it is flat; it becomes no device and
// leaves the verdict alone.
func TestUnjoinedGPUNote(t *testing.T) {
	for _, tt := range []struct {
		name  string
		used  func(min float64) int64
		noted bool
	}{
		{"another GPU grows", func(m float64) int64 { return 2*gib + int64(m*float64(40*mib)) }, true},
		{"another GPU is flat", func(float64) int64 { return 2 * gib }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sp := synthSpec{n: 12, seed: 3, rank: input.NoRank}
			fs := sp.files()
			l := sp.log(fs, 1)
			other := &gpulog.GPULog{}
			gpuTrace(other, 3, sp.n, tt.used)
			l.Samples = append(l.Samples, other.Samples...)
			f := Analyze(&ingest.Run{Dir: "synth", Location: time.UTC, Snapshots: fs, Logs: []*gpulog.GPULog{l}}, Options{})
			if len(f.Devices) != 1 || f.Devices[0].GPUIndex != 1 {
				t.Fatalf("devices %d, the first joined to GPU %d; want one, GPU 1", len(f.Devices), f.Devices[0].GPUIndex)
			}
			var notes []Note
			for _, n := range f.Notes {
				if n.Kind == NoteUnjoinedGPUGrows {
					notes = append(notes, n)
				}
			}
			if got := len(notes) == 1 && notes[0].Device.Device == 3 && notes[0].Trend != nil && notes[0].Trend.State == StateGrowing; got != tt.noted {
				t.Errorf("notes %+v, want one on GPU 3: %v", notes, tt.noted)
			}
			if tt.noted && (f.Verdict.Leak || f.Verdict.OutsideAllocatorLeak) {
				t.Errorf("verdict %+v: an unjoined GPU must not decide it", f.Verdict)
			}
		})
	}
}
