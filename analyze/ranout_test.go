package analyze

import (
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
	statsRun := func(ooms bool) *ingest.Run {
		rs := statsSeries(100, func(i int) statsReading {
			r := leakingStats(i)
			if !ooms {
				r.ooms = 0
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
		{name: "a num_ooms rise", run: statsRun(true), capacity: 80 * gib,
			want: &RanOut{From: RanOutMemoryStats, Path: "stats.jsonl", Step: 700, Time: t0.Add(350e9)}},
		{name: "num_ooms flat", run: statsRun(false), capacity: 80 * gib},
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
		if got := firstOOM(tt.ooms, d); got == nil || *got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	d.MemoryStats = nil
	if got := firstOOM([]OOM{logOOM, snapOOM, other}, d); got == nil || got.From != RanOutSnapshot || got.Step != 300 || !got.Time.Equal(t0) {
		t.Errorf("%+v, want the snapshot's OOM, placed by its step and time", got)
	}
	if got := firstOOM([]OOM{other}, d); got != nil {
		t.Errorf("%+v, want none: the OOM is another device's", got)
	}
}

// TestRanOutLeakIsCritical: a leaking device that already ran out of
// memory is critical, with an exhaustion reason within the run, even when
// every OOM of the run is one the job caught and went on from; without
// the leak, a caught OOM alone is a warning.
func TestRanOutLeakIsCritical(t *testing.T) {
	handled := oomMessage(412, input.NoRank, 0, 80*gib)
	handled.Handled = true
	for _, tt := range []struct {
		name string
		leak bool
		want Severity
	}{
		{"leak and a caught OOM", true, SeverityCritical},
		{"a caught OOM alone", false, SeverityWarning},
	} {
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
			if v.Severity != tt.want || v.OOMsHandled != 1 || v.Leak != tt.leak {
				t.Fatalf("severity %s, %d of %d OOMs handled, leak %v; want %s, 1 handled, leak %v", v.Severity, v.OOMsHandled, v.OOMs, v.Leak, tt.want, tt.leak)
			}
			exhaustion := false
			for _, r := range v.Reasons {
				if r.Kind == ReasonExhaustion {
					exhaustion = r.WithinRun
				}
			}
			if exhaustion != tt.leak {
				t.Errorf("exhaustion within the run %v, want %v (reasons %+v)", exhaustion, tt.leak, v.Reasons)
			}
		})
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
