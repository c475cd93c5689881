package analyze

import (
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
)

// TestStatsOOMHandled: a rise of num_ooms is a caught OOM (a warning,
// counted in OOMsHandled, no ran-out mark) when the process evidently
// went on: a later reading with the counter not fallen and the same pid,
// or a training log's recovery line between the two readings; a rise at
// the last reading, or followed only by a restarted process's readings
// (the counter back at 0, another pid), is a crash (critical).
func TestStatsOOMHandled(t *testing.T) {
	// 60 flat readings every 10 steps; num_ooms 0 -> 1 at step rise.
	series := func(rise int64, edit func(s *gpulog.MemoryStatsSample)) *gpulog.GPULog {
		l := statsLog("stats.jsonl", statsSeries(60, func(i int) statsReading {
			r := flatStats(i)
			if int64(10*i) >= rise {
				r.ooms = 1
			}
			return r
		}))
		for i := range l.MemoryStats {
			l.MemoryStats[i].PID = 4242
			l.MemoryStats[i].Line = 100 + 10*i
			if edit != nil {
				edit(&l.MemoryStats[i])
			}
		}
		return l
	}
	restart := func(s *gpulog.MemoryStatsSample) {
		if s.Step > 300 {
			s.NumOOMs, s.PID = 0, 5151
		}
	}
	otherPID := func(s *gpulog.MemoryStatsSample) {
		if s.Step > 300 {
			s.PID = 5151
		}
	}
	withRecovery := func(l *gpulog.GPULog, line int, rank int) *gpulog.GPULog {
		l.Recoveries = []gpulog.Recovery{{Line: line, Rank: rank}}
		return l
	}
	tests := []struct {
		name     string
		log      *gpulog.GPULog
		handled  bool
		severity Severity
	}{
		{"readings go on with the counter at 1", series(300, nil), true, SeverityWarning},
		{"the rise at the last reading", series(590, nil), false, SeverityCritical},
		{"the counter falls back: a restarted process", series(300, restart), false, SeverityCritical},
		{"another pid goes on", series(300, otherPID), false, SeverityCritical},
		{"a recovery line between the readings", withRecovery(series(590, nil), 100+10*59-5, input.NoRank), true, SeverityWarning},
		{"a recovery line before the previous reading", withRecovery(series(590, nil), 100+10*58-5, input.NoRank), false, SeverityCritical},
		{"another rank's recovery line", withRecovery(series(590, func(s *gpulog.MemoryStatsSample) { s.Rank = 1 }), 100+10*59-5, 0), false, SeverityCritical},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := &ingest.Run{Dir: "stats", Location: t0.Location(), Logs: []*gpulog.GPULog{tt.log}}
			f := Analyze(run, Options{Capacity: 80 * gib})
			if len(f.Devices) != 1 || f.Devices[0].MemoryStats == nil || len(f.Devices[0].MemoryStats.OOMs) != 1 {
				t.Fatalf("devices %+v", f.Devices)
			}
			d := f.Devices[0]
			o := d.MemoryStats.OOMs[0]
			if o.Handled != tt.handled {
				t.Errorf("handled %v, want %v", o.Handled, tt.handled)
			}
			v := f.Verdict
			wantHandled := int64(0)
			if tt.handled {
				wantHandled = 1
			}
			if !v.OOM || v.OOMs != 1 || v.OOMsHandled != wantHandled || v.Severity != tt.severity {
				t.Errorf("verdict OOM %v, %d OOMs, %d handled, %s; want 1, %d, %s", v.OOM, v.OOMs, v.OOMsHandled, v.Severity, wantHandled, tt.severity)
			}
			if (d.RanOut != nil) == tt.handled {
				t.Errorf("ran out %+v, handled %v", d.RanOut, tt.handled)
			}
		})
	}
}

// TestOneLeakRuleForOOMSources: on a device whose memory_stats readings
// leak (no snapshots), a training log's OOM whose request lacked less
// than the leak added is a leak OOM, as the device's num_ooms rises are;
// one that lacked more is not; on a flat device neither is.
func TestOneLeakRuleForOOMSources(t *testing.T) {
	// leakingStats: +1 MiB a step from 4 GiB over 100 readings to step
	// 990 (about 990 MiB added); no num_ooms rise.
	leaking := func(i int) statsReading {
		r := leakingStats(i)
		r.ooms = 0
		return r
	}
	msg := func(missing int64) gpulog.TrainingOOM {
		m := oomMessage(5000, input.NoRank, 0, 80*gib)
		m.Free = 1 * gib
		m.Requested = m.Free + missing
		// Little cached free: no fragmentation.
		m.ReservedUnallocated, m.Reserved = 16*mib, m.Allocated+16*mib
		return m
	}
	// at places a message at step s (the readings' time of it); caught
	// marks it handled.
	at := func(m gpulog.TrainingOOM, s int64) gpulog.TrainingOOM {
		m.Time = t0.Add(time.Duration(s) * 500 * time.Millisecond)
		return m
	}
	caught := func(m gpulog.TrainingOOM) gpulog.TrainingOOM {
		m.Handled = true
		return m
	}
	tests := []struct {
		name  string
		stats func(int) statsReading
		msg   gpulog.TrainingOOM
		want  OOMCause
	}{
		{"leak covers what the request lacked", leaking, msg(512 * mib), CauseLeak},
		{"the request lacked more than the leak added", leaking, msg(4 * gib), CauseCapacity},
		{"flat device", flatStats, msg(512 * mib), CauseCapacity},
		// The leak's bytes are counted to the OOM: about 500 MiB by step 500.
		{"timed at step 500, lacking 256 MiB", leaking, at(msg(256*mib), 500), CauseLeak},
		{"timed at step 500, lacking 768 MiB", leaking, at(msg(768*mib), 500), CauseCapacity},
		{"timed before the readings", leaking, at(msg(256*mib), -100), CauseCapacity},
		{"caught, of unknown time: the growth may all come after it", leaking, caught(msg(256 * mib)), CauseCapacity},
		{"caught at step 500", leaking, caught(at(msg(256*mib), 500)), CauseLeak},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := statsLog("stats.jsonl", statsSeries(100, tt.stats))
			tl := &gpulog.GPULog{Source: input.Source{Path: "train.log"}, Format: gpulog.FormatTrainingLog, OOMs: []gpulog.TrainingOOM{tt.msg}}
			f := Analyze(&ingest.Run{Dir: "r", Location: t0.Location(), Logs: []*gpulog.GPULog{l, tl}}, Options{})
			if len(f.OOMs) != 1 {
				t.Fatalf("OOMs %+v", f.OOMs)
			}
			if o := f.OOMs[0]; o.Cause != tt.want || tt.want == CauseLeak && (o.LeakedBytes < o.Missing || o.LeakSite != "") {
				t.Errorf("cause %s (leaked %d, missing %d, site %q), want %s", o.Cause, o.LeakedBytes, o.Missing, o.LeakSite, tt.want)
			}
		})
	}
	// The same device's num_ooms rise is a leak OOM by the same fact.
	l := statsLog("stats.jsonl", statsSeries(100, leakingStats))
	f := Analyze(&ingest.Run{Dir: "r", Location: t0.Location(), Logs: []*gpulog.GPULog{l}}, Options{})
	if ms := f.Devices[0].MemoryStats; len(ms.OOMs) != 1 || ms.OOMs[0].Cause != CauseLeak {
		t.Errorf("memory_stats OOMs %+v, want one leak OOM", ms.OOMs)
	}
}

// TestMessageOOMKinds: an OOM Inductor's autotuning dropped is handled
// and raises no fragmentation flag, though its own cause is
// fragmentation; pinned host memory's OOM marks no device as ran out and
// does not stand for the device's num_ooms rises; a request larger than
// the device's known capacity is a capacity OOM without free memory
// figures (ggml's); SGLang's refusal is capacity, like vLLM's.
func TestMessageOOMKinds(t *testing.T) {
	frag := oomMessage(10, input.NoRank, 0, 80*gib)
	frag.Requested, frag.Free, frag.ReservedUnallocated = 4*gib, 3*gib, 5*gib
	frag.Reserved = frag.Allocated + frag.ReservedUnallocated
	autotune := frag
	autotune.Autotune, autotune.Handled = true, true
	pinned := oomMessage(10, input.NoRank, -1, 0)
	pinned.PinnedHost = true
	ggml := gpulog.TrainingOOM{Line: 3, Count: 1, Kind: gpulog.OOMGGML, Backend: "CUDA", Rank: input.NoRank, Device: 0, Requested: 272 * gib,
		Capacity: gpulog.Unknown, Free: gpulog.Unknown, ProcessInUse: gpulog.Unknown, Allocated: gpulog.Unknown, Reserved: gpulog.Unknown,
		ReservedUnallocated: gpulog.Unknown, PrivatePools: gpulog.Unknown, Allowed: gpulog.Unknown, OtherProcesses: gpulog.Unknown, OtherAllocations: gpulog.Unknown}
	sglang := ggml
	sglang.Kind, sglang.Requested, sglang.Allowed, sglang.Backend, sglang.Device, sglang.Rank = gpulog.OOMSGLangKVPool, gpulog.Unknown, 0, "", -1, 2
	tests := []struct {
		name     string
		msg      gpulog.TrainingOOM
		capacity int64
		cause    OOMCause
		frag     bool
		severity Severity
	}{
		{"the job's fragmentation OOM", frag, 0, CauseFragmentation, true, SeverityCritical},
		{"an autotuning choice's", autotune, 0, CauseFragmentation, false, SeverityWarning},
		{"pinned host memory", pinned, 0, CauseUnknown, false, SeverityCritical},
		{"ggml, capacity known", ggml, 80 * gib, CauseCapacity, false, SeverityCritical},
		{"ggml, capacity unknown", ggml, 0, CauseUnknown, false, SeverityCritical},
		{"sglang", sglang, 0, CauseCapacity, false, SeverityCritical},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One flat device whose num_ooms rises at its last reading.
			l := statsLog("stats.jsonl", statsSeries(30, func(i int) statsReading {
				r := flatStats(i)
				if i == 29 {
					r.ooms = 1
				}
				return r
			}))
			tl := &gpulog.GPULog{Source: input.Source{Path: "train.log"}, Format: gpulog.FormatTrainingLog, OOMs: []gpulog.TrainingOOM{tt.msg}}
			f := Analyze(&ingest.Run{Dir: "r", Location: t0.Location(), Logs: []*gpulog.GPULog{l, tl}}, Options{Capacity: tt.capacity})
			if len(f.OOMs) != 1 {
				t.Fatalf("OOMs %+v", f.OOMs)
			}
			o := f.OOMs[0]
			if o.Cause != tt.cause || f.Verdict.Fragmentation != tt.frag || f.Verdict.Severity != tt.severity {
				t.Errorf("cause %s, fragmentation %v, %s; want %s, %v, %s", o.Cause, f.Verdict.Fragmentation, f.Verdict.Severity, tt.cause, tt.frag, tt.severity)
			}
			var d *Device
			for _, e := range f.Devices {
				if e.MemoryStats != nil {
					d = e
				}
			}
			if tt.msg.PinnedHost {
				// The device's own rise stays an OOM of its own: the
				// pinned failure is not it.
				if d == nil || d.RanOut == nil || d.RanOut.From != RanOutMemoryStats || f.Verdict.OOMs != 2 {
					t.Errorf("device ran out %+v, %d OOMs; want the num_ooms rise's, 2 OOMs", d.RanOut, f.Verdict.OOMs)
				}
			}
		})
	}
}
