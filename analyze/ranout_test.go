package analyze

import (
	"time"

	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
)

// TestRanOutReplacesProjection: on a device the run already ran out of
// memory on (an OOM in a snapshot's trace, a training log's OOM message,
// a memory_stats num_ooms rise), no time to capacity is forecast: the
// growing trends, leak suspects and leak sites state that OOM instead.
// The same runs without the OOM keep their projections.
func TestRanOutReplacesProjection(t *testing.T) {
	withMessage := func(run *ingest.Run) *ingest.Run {
		run.Logs = append(run.Logs, &gpulog.GPULog{Source: input.Source{Path: "train.log"},
			OOMs: []gpulog.TrainingOOM{oomMessage(412, input.NoRank, 0, 80*gib)}})
		return run
	}
	// statsRun's num_ooms rises to 1 at step rise (none when 0); the
	// readings go on to step 990.
	statsRun := func(rise int64) *ingest.Run {
		rs := statsSeries(100, func(i int) statsReading {
			r := leakingStats(i)
			r.ooms = 0
			if rise > 0 && int64(10*i) >= rise {
				r.ooms = 1
			}
			return r
		})
		return &ingest.Run{Dir: "stats", Location: t0.Location(), Logs: []*gpulog.GPULog{statsLog("stats.jsonl", rs)}}
	}
	leak := synthSpec{n: 12, seed: 1, rank: input.NoRank, leakPerSnap: 64 * mib}
	tests := []struct {
		name     string
		run      *ingest.Run
		capacity int64
		want     *RanOut // nil: no OOM, the projection stays
		leak     bool    // the device has leak suspects to check
	}{
		{name: "OOM in a snapshot's trace", run: oomRun(20, 64*mib, 4*gib, 100*mib, 0, true), capacity: 80 * gib,
			want: &RanOut{From: RanOutSnapshot, Path: "oom_dump_step_002050.pickle", Step: 2050, Time: t0.Add(20 * 60e9)}, leak: true},
		{name: "no OOM dump", run: oomRun(20, 64*mib, 4*gib, 100*mib, 0, false), capacity: 80 * gib, leak: true},
		{name: "a training log's OOM message", run: withMessage(leak.run()),
			want: &RanOut{From: RanOutTrainingLog, Path: "train.log", Line: 412, Step: input.NoStep}, leak: true},
		{name: "no OOM message", run: leak.run(), leak: true},
		{name: "a num_ooms rise at the last reading", run: statsRun(990), capacity: 80 * gib,
			want: &RanOut{From: RanOutMemoryStats, Path: "stats.jsonl", Step: 990, Time: t0.Add(495e9)}},
		// The process went on from it (MemoryStatsOOM.Handled), as
		// from a training log's caught OOM: no ran-out mark.
		{name: "a num_ooms rise the process went on from", run: statsRun(700), capacity: 80 * gib},
		{name: "num_ooms flat", run: statsRun(0), capacity: 80 * gib},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(tt.run, Options{Capacity: tt.capacity})
			CheckProse(t, t.Name(), f)
			d := f.Devices[0]
			if (d.RanOut == nil) != (tt.want == nil) || d.RanOut != nil && *d.RanOut != *tt.want {
				t.Fatalf("device ran out %+v, want %+v", d.RanOut, tt.want)
			}
			at := d.Trend(MetricAllocated)
			if at == nil || at.State != StateGrowing {
				t.Fatalf("allocated trend %+v, want growing", at)
			}
			if tt.want != nil && (at.Projection != nil || at.RanOut != d.RanOut) {
				t.Errorf("allocated trend: projection %+v, ran out %+v; want the OOM in place of a projection", at.Projection, at.RanOut)
			}
			if tt.want == nil && (at.Projection == nil || at.Projection.Remaining <= 0 || at.RanOut != nil) {
				t.Errorf("allocated trend: projection %+v, ran out %+v; want a projection", at.Projection, at.RanOut)
			}
			for _, r := range f.Verdict.Reasons {
				if r.Kind == ReasonExhaustion && tt.want != nil && !r.WithinRun {
					t.Errorf("reason %+v: exhaustion forecast on a device that ran out", r)
				}
			}
			if !tt.leak {
				return
			}
			if len(d.Suspects) == 0 || len(d.LeakSites) == 0 {
				t.Fatalf("%d suspects, %d leak sites, want some", len(d.Suspects), len(d.LeakSites))
			}
			for _, sp := range d.Suspects {
				if sp.Suppressed != "" {
					continue
				}
				if tt.want != nil && (sp.Projection != nil || sp.RanOut != d.RanOut) || tt.want == nil && (sp.Projection == nil || sp.RanOut != nil) {
					t.Errorf("suspect %s: projection %+v, ran out %+v", sp.Site, sp.Projection, sp.RanOut)
				}
			}
			ls := d.LeakSites[0]
			if tt.want != nil && (ls.Projection != nil || ls.RanOut != d.RanOut) || tt.want == nil && (ls.Projection == nil || ls.RanOut != nil) {
				t.Errorf("leak site %s: projection %+v, ran out %+v", ls.Site, ls.Projection, ls.RanOut)
			}
		})
	}
}

// TestFirstOOM: the OOM a device ran out at is the earliest known by time,
// else by step; one placed by neither only when no other is.
func TestFirstOOM(t *testing.T) {
	d := &Device{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 0}, Points: []Point{{Path: "a.pickle", Step: 300}},
		MemoryStats: &MemoryStatsSeries{Sources: []string{"s.jsonl"}, OOMs: []MemoryStatsOOM{{At: Reading{Step: 200}}}}}
	logOOM := OOM{Path: "train.log", Device: 0, Rank: input.NoRank, Message: &OOMMessage{Line: 5}}
	snapOOM := OOM{Path: "a.pickle", Device: 0, Rank: input.NoRank, Time: t0}
	other := OOM{Path: "b.pickle", Device: 1, Rank: input.NoRank, Time: t0.Add(-3600e9)}
	tests := []struct {
		name string
		ooms []OOM
		want RanOut
	}{
		{"a step before an unplaced message", []OOM{logOOM}, RanOut{From: RanOutMemoryStats, Path: "s.jsonl", Step: 200}},
		{"the earlier step", []OOM{snapOOM, other}, RanOut{From: RanOutMemoryStats, Path: "s.jsonl", Step: 200}},
	}
	for _, tt := range tests {
		if got := firstOOM(tt.ooms, []*Device{d}, d); got == nil || *got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	d.MemoryStats = nil
	if got := firstOOM([]OOM{logOOM, snapOOM, other}, []*Device{d}, d); got == nil || got.From != RanOutSnapshot || got.Step != 300 || !got.Time.Equal(t0) {
		t.Errorf("%+v, want the snapshot's OOM, placed by its step and time", got)
	}
	if got := firstOOM([]OOM{other}, []*Device{d}, d); got != nil {
		t.Errorf("%+v, want none: the OOM is another device's", got)
	}
}

// TestRanOutOnlyWhenThisProcessRanOut: an OOM takes a device's time to
// capacity only when it shows that this device's process ran out. A
// handled OOM (the job went on), an OOM without a rank in a run of two
// processes with that device number (either could have had it), and an
// OOM a log prints before the device's first reading (an earlier launch
// appending to the same log) leave the growing devices their projections
// and the verdict its forecast's exhaustion reason; a device that did run
// out has the OOM in place of a projection, and, leaking, an exhaustion
// reason within the run.
func TestRanOutOnlyWhenThisProcessRanOut(t *testing.T) {
	// A device of rank rank (input.NoRank: none) on CUDA device dev whose
	// memory_stats readings grow 1 MiB per step from 4 GiB, steps 0 to
	// 990 at t0 + step/2 s, without a num_ooms rise.
	stats := func(path string, rank, dev int) *gpulog.GPULog {
		rs := statsSeries(100, func(i int) statsReading {
			r := leakingStats(i)
			r.ooms = 0
			return r
		})
		for i := range rs {
			rs[i].rank, rs[i].device = rank, dev
		}
		return statsLog(path, rs)
	}
	msg := func(rank, gpu int, at time.Time, handled bool) *gpulog.GPULog {
		m := oomMessage(7, rank, gpu, 8*gib)
		m.Time, m.Handled = at, handled
		return &gpulog.GPULog{Source: input.Source{Path: "train.log"}, OOMs: []gpulog.TrainingOOM{m}}
	}
	one := func(m *gpulog.GPULog) []*gpulog.GPULog {
		return []*gpulog.GPULog{stats("stats.jsonl", input.NoRank, 0), m}
	}
	two := func(dev1 int, m *gpulog.GPULog) []*gpulog.GPULog {
		return []*gpulog.GPULog{stats("node0/stats.jsonl", 0, 0), stats("node1/stats.jsonl", 1, dev1), m}
	}
	tests := []struct {
		name string
		logs []*gpulog.GPULog
		// ranOut says, per device in the run's order, whether it ran out.
		ranOut []bool
	}{
		{"an uncaught OOM", one(msg(input.NoRank, 0, time.Time{}, false)), []bool{true}},
		{"an OOM the job caught and went on from", one(msg(input.NoRank, 0, time.Time{}, true)), []bool{false}},
		{"no rank, two processes on cuda:0", two(0, msg(input.NoRank, 0, time.Time{}, false)), []bool{false, false}},
		{"rank 1, two processes on cuda:0", two(0, msg(1, 0, time.Time{}, false)), []bool{false, true}},
		{"no rank, the only process on cuda:1", two(1, msg(input.NoRank, 1, time.Time{}, false)), []bool{false, true}},
		{"before the first reading", one(msg(input.NoRank, 0, t0.Add(-30*time.Minute), false)), []bool{false}},
		{"after the first reading", one(msg(input.NoRank, 0, t0.Add(400*time.Second), false)), []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(&ingest.Run{Dir: "run", Location: t0.Location(), Logs: tt.logs}, Options{Capacity: 8 * gib})
			CheckProse(t, t.Name(), f)
			var devs []*Device
			for _, d := range f.Devices {
				if !d.Host {
					devs = append(devs, d)
				}
			}
			if len(devs) != len(tt.ranOut) {
				t.Fatalf("%d devices, want %d", len(devs), len(tt.ranOut))
			}
			for i, d := range devs {
				at := d.Trend(MetricAllocated)
				if at == nil || at.State != StateGrowing {
					t.Fatalf("%v: allocated trend %+v, want growing", d.DeviceKey, at)
				}
				exhaustion, withinRun := false, false
				for _, r := range f.Verdict.Reasons {
					if r.Kind == ReasonExhaustion && r.Device == d.DeviceKey {
						exhaustion, withinRun = true, r.WithinRun
					}
				}
				if tt.ranOut[i] {
					// A leaking device that ran out: exhaustion within
					// the run, never a forecast.
					if d.RanOut == nil || at.RanOut != d.RanOut || at.Projection != nil || !withinRun {
						t.Errorf("%v: ran out %+v, trend's %+v, projection %+v, exhaustion within the run %v; want the OOM in place of a projection",
							d.DeviceKey, d.RanOut, at.RanOut, at.Projection, withinRun)
					}
					continue
				}
				if d.RanOut != nil || at.RanOut != nil || at.Projection == nil || at.Projection.Remaining <= 0 || !exhaustion || withinRun {
					t.Errorf("%v: ran out %+v, trend's %+v, projection %+v, exhaustion reason %v; want the projection and its reason",
						d.DeviceKey, d.RanOut, at.RanOut, at.Projection, exhaustion)
				}
			}
		})
	}
}

// TestRanOutLeakIsCritical: a leaking device that already ran out of
// memory is critical, with an exhaustion reason within the run; beside an
// OOM the job caught and went on from, the leak is critical by its
// forecast, which the caught OOM leaves standing (an exhaustion reason,
// not within the run); without the leak, a caught OOM alone is a warning.
func TestRanOutLeakIsCritical(t *testing.T) {
	for _, tt := range []struct {
		name          string
		leak, handled bool
		want          Severity
		withinRun     bool
	}{
		{"leak and an uncaught OOM", true, false, SeverityCritical, true},
		{"leak and a caught OOM", true, true, SeverityCritical, false},
		{"a caught OOM alone", false, true, SeverityWarning, false},
	} {
		handled := oomMessage(412, input.NoRank, 0, 80*gib)
		handled.Handled = tt.handled
		t.Run(tt.name, func(t *testing.T) {
			rs := statsSeries(100, func(i int) statsReading {
				r := leakingStats(i)
				r.ooms = 0
				if !tt.leak {
					r.alloc, r.reserved = 4*gib, 5*gib
				}
				return r
			})
			run := &ingest.Run{Dir: "stats", Location: t0.Location(), Logs: []*gpulog.GPULog{statsLog("stats.jsonl", rs),
				{Source: input.Source{Path: "train.log"}, OOMs: []gpulog.TrainingOOM{handled}}}}
			f := Analyze(run, Options{Capacity: 80 * gib})
			CheckProse(t, t.Name(), f)
			v := f.Verdict
			wantHandled := int64(0)
			if tt.handled {
				wantHandled = 1
			}
			if v.Severity != tt.want || v.OOMsHandled != wantHandled || v.Leak != tt.leak {
				t.Fatalf("severity %s, %d of %d OOMs handled, leak %v; want %s, %d handled, leak %v", v.Severity, v.OOMsHandled, v.OOMs, v.Leak, tt.want, wantHandled, tt.leak)
			}
			exhaustion, withinRun := false, false
			for _, r := range v.Reasons {
				if r.Kind == ReasonExhaustion {
					exhaustion, withinRun = true, r.WithinRun
				}
			}
			if exhaustion != tt.leak || withinRun != tt.withinRun {
				t.Errorf("exhaustion reason %v, within the run %v; want %v, %v (reasons %+v)", exhaustion, withinRun, tt.leak, tt.withinRun, v.Reasons)
			}
		})
	}
}

// TestBeforeReadings: an OOM comes before a device's first reading by
// time when both have one, else by step when both have one; never when
// neither places both.
func TestBeforeReadings(t *testing.T) {
	tests := []struct {
		name string
		r    RanOut
		at   time.Time
		step int64
		want bool
	}{
		{"earlier time", RanOut{Time: t0.Add(-time.Minute), Step: 500}, t0, 100, true},
		{"later time decides over an earlier step", RanOut{Time: t0.Add(time.Minute), Step: 50}, t0, 100, false},
		{"same time", RanOut{Time: t0, Step: input.NoStep}, t0, input.NoStep, false},
		{"earlier step, no reading time", RanOut{Time: t0, Step: 50}, time.Time{}, 100, true},
		{"later step", RanOut{Step: 150}, time.Time{}, 100, false},
		{"no time nor step", RanOut{Step: input.NoStep}, t0, 100, false},
		{"a device without times or steps", RanOut{Time: t0, Step: 5}, time.Time{}, input.NoStep, false},
	}
	for _, tt := range tests {
		if got := beforeReadings(tt.r, tt.at, tt.step); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRanklessMessageExplainsStatsOOM: a training log's OOM message
// without a rank, beside one rank's memory_stats readings whose num_ooms
// rises, is that rise's OOM (one OOM, as its capacity already says);
// beside two ranks' readings that both rise it is one OOM of one of them,
// and the rises still count.
func TestRanklessMessageExplainsStatsOOM(t *testing.T) {
	msg := &gpulog.GPULog{Source: input.Source{Path: "slurm-1.out"}, OOMs: []gpulog.TrainingOOM{oomMessage(2, input.NoRank, 0, 80*gib)}}
	rankLog := func(rank int) *gpulog.GPULog {
		rs := statsSeries(100, leakingStats)
		for i := range rs {
			rs[i].rank = rank
		}
		return statsLog("stats.jsonl", rs)
	}
	for _, tt := range []struct {
		name  string
		ranks []int
		want  int64
	}{
		{"one rank", []int{0}, 1},
		{"two ranks", []int{0, 1}, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := &ingest.Run{Dir: "run", Location: t0.Location(), Logs: []*gpulog.GPULog{msg}}
			for _, r := range tt.ranks {
				run.Logs = append(run.Logs, rankLog(r))
			}
			f := Analyze(run, Options{})
			if f.Verdict.OOMs != tt.want {
				t.Errorf("%d OOMs, want %d (findings %d)", f.Verdict.OOMs, tt.want, len(f.OOMs))
			}
		})
	}
}
