package analyze

import (
	"math"
	"slices"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
)

// statsReading is one memory_stats line for statsLog: allocated and
// reserved bytes and the two counters at a step (time: t0 + step/2 s).
type statsReading struct {
	step                     int64
	alloc, reserved          int64
	retries, ooms            int64
	noStep, noTime           bool
	rank                     int
	device                   int
	allocUnknown, resUnknown bool
}

// statsLog builds a memory-stats GPU log from readings.
func statsLog(path string, rs []statsReading) *gpulog.GPULog {
	l := &gpulog.GPULog{Source: input.Source{Path: path}, Format: gpulog.FormatMemoryStats}
	for _, r := range rs {
		s := gpulog.MemoryStatsSample{Step: r.step, Time: t0.Add(time.Duration(r.step) * 500 * time.Millisecond),
			Device: r.device, Rank: r.rank, Allocated: r.alloc, Reserved: r.reserved, Active: r.alloc, InactiveSplit: r.reserved - r.alloc,
			NumAllocRetries: r.retries, NumOOMs: r.ooms}
		if r.noStep {
			s.Step = input.NoStep
		}
		if r.noTime {
			s.Time = time.Time{}
		}
		if r.allocUnknown {
			s.Allocated = gpulog.Unknown
		}
		if r.resUnknown {
			s.Reserved = gpulog.Unknown
		}
		l.MemoryStats = append(l.MemoryStats, s)
	}
	return l
}

// statsSeries makes n readings every 10 steps from f(i).
func statsSeries(n int, f func(i int) statsReading) []statsReading {
	out := make([]statsReading, n)
	for i := range out {
		out[i] = f(i)
		out[i].step = int64(10 * i)
		if out[i].rank == 0 {
			out[i].rank = input.NoRank
		}
	}
	return out
}

// leakingStats: allocated grows 1 MiB per step from 4 GiB, reserved 1 GiB
// above it; num_ooms rises 0 -> 1 between steps 690 and 700; retries rise
// every 50 steps.
func leakingStats(i int) statsReading {
	step := int64(10 * i)
	r := statsReading{alloc: 4*gib + step*mib, retries: step / 50}
	r.reserved = r.alloc + gib
	if step >= 700 {
		r.ooms = 1
	}
	return r
}

// flatStats: allocated 4 GiB ± 3 MiB, reserved 6 GiB, no OOM, no retry.
func flatStats(i int) statsReading {
	return statsReading{alloc: 4*gib + int64(i%7-3)*mib, reserved: 6 * gib}
}

func TestMemoryStatsWithoutSnapshots(t *testing.T) {
	tests := []struct {
		name      string
		readings  []statsReading
		capacity  int64
		leak, oom bool
		severity  Severity
		axis      Axis
		per       Axis
		slope     float64 // allocated bytes per unit; NaN: not checked
		verdict   Status
		reasons   []ReasonKind // in order
		notes     []NoteKind   // kinds some note has
		noNotes   []NoteKind   // kinds no note may have
	}{
		{name: "leak and OOM", readings: statsSeries(100, leakingStats), capacity: 80 * gib,
			leak: true, oom: true, severity: "critical", axis: AxisStep, per: "step", slope: float64(mib), verdict: StatusGrowing,
			reasons: []ReasonKind{ReasonStatsLeak, ReasonStatsOOM},
			notes:   []NoteKind{NoteRetries}},
		{name: "flat", readings: statsSeries(100, flatStats), capacity: 80 * gib,
			severity: "ok", axis: AxisStep, per: "step", slope: 0, verdict: StatusFlat,
			noNotes: []NoteKind{NoteRetries, NoteOOMsBefore}},
		{name: "few retries early: no note", readings: statsSeries(60, func(i int) statsReading {
			r := flatStats(i)
			r.retries = int64(min(i, 3))
			return r
		}), severity: "ok", axis: AxisStep, per: "step", slope: 0, verdict: StatusFlat,
			notes: []NoteKind{NoteCapacity}, noNotes: []NoteKind{NoteRetries}},
		{name: "OOMs before the log, counter reset", readings: statsSeries(30, func(i int) statsReading {
			r := flatStats(i)
			r.ooms = 2
			if i >= 10 {
				r.ooms = 0 // a new process
			}
			return r
		}), capacity: 16 * gib, severity: "ok", axis: AxisStep, per: "step", slope: 0, verdict: StatusFlat,
			notes: []NoteKind{NoteOOMsBefore}},
		{name: "times only: hours axis", readings: statsSeries(40, func(i int) statsReading {
			r := leakingStats(i)
			r.noStep, r.ooms, r.retries = true, 0, 0
			return r
		}), capacity: 80 * gib, leak: true, severity: "critical" /* full in about 11 h, within the 24 h horizon */, axis: AxisHours, per: "hour", slope: float64(mib * 7200), verdict: StatusGrowing,
			reasons: []ReasonKind{ReasonStatsLeak}},
		{name: "neither step nor time: reading axis", readings: statsSeries(40, func(i int) statsReading {
			r := leakingStats(i)
			r.noStep, r.noTime, r.ooms, r.retries = true, true, 0, 0
			return r
		}), leak: true, severity: "warning", axis: AxisReading, per: "reading", slope: float64(10 * mib), verdict: StatusGrowing},
		{name: "four readings: insufficient", readings: statsSeries(4, leakingStats),
			severity: "info", axis: AxisStep, per: "step", slope: math.NaN(), verdict: StatusInsufficient},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := &ingest.Run{Dir: "stats", Location: time.UTC, Logs: []*gpulog.GPULog{statsLog("stats.jsonl", tc.readings)}}
			f := Analyze(run, Options{Capacity: tc.capacity})
			CheckProse(t, t.Name(), f)
			if len(f.Devices) != 1 {
				t.Fatalf("%d devices, want 1", len(f.Devices))
			}
			d := f.Devices[0]
			if d.DeviceKey != (DeviceKey{Rank: input.NoRank, Device: 0}) || d.Axis != tc.axis || d.MemoryStats == nil || len(d.Points) != 0 {
				t.Fatalf("device %+v axis %q memory stats %v points %d", d.DeviceKey, d.Axis, d.MemoryStats != nil, len(d.Points))
			}
			at := d.Trend(MetricAllocated)
			wantDev := tc.verdict
			if tc.leak {
				wantDev = StatusLeak // one decision: the device shows its leak
			}
			if at == nil || at.Source != SourceMemoryStats || at.Per != tc.per || at.Status() != tc.verdict || d.Status != wantDev {
				t.Fatalf("allocated trend %+v, device verdict %q", at, d.Status)
			}
			if rt := d.Trend(MetricReserved); rt == nil || rt.Source != SourceMemoryStats {
				t.Errorf("reserved trend %+v", rt)
			}
			if !math.IsNaN(tc.slope) && math.Abs(at.Slope-tc.slope) > 1e-6*math.Max(1, tc.slope) {
				t.Errorf("allocated slope %g, want %g", at.Slope, tc.slope)
			}
			v := f.Verdict
			if v.Leak != tc.leak || v.OOM != tc.oom || v.Fragmentation || v.OutsideAllocatorLeak || v.Severity != tc.severity {
				t.Errorf("verdict %+v, want leak %v oom %v severity %s", v, tc.leak, tc.oom, tc.severity)
			}
			checkInOrder(t, "reasons", reasonKinds(v), tc.reasons)
			kinds := noteKinds(f.Notes)
			for _, n := range tc.notes {
				if !slices.Contains(kinds, n) {
					t.Errorf("no note %q: %v", n, kinds)
				}
			}
			for _, n := range tc.noNotes {
				if slices.Contains(kinds, n) {
					t.Errorf("a note %q: %v", n, kinds)
				}
			}
			if tc.leak && (v.NoSite != NoSiteSnapshots || len(v.Suspects) != 0) {
				t.Errorf("leak without a site %q, %d suspects; want no site: no snapshots", v.NoSite, len(v.Suspects))
			}
			if tc.oom && v.OOMs != 1 {
				t.Errorf("%d OOMs, want 1", v.OOMs)
			}
			if tc.name == "leak and OOM" {
				o := d.MemoryStats.OOMs[0]
				if o.Prev.Step != 690 || o.At.Step != 700 || o.Before != 0 || o.After != 1 || o.Allocated != 4*gib+700*mib || o.Reserved != 5*gib+700*mib {
					t.Errorf("memory_stats OOM %+v, want num_ooms 0 → 1 between steps 690 and 700 at 4 GiB + 700 MiB allocated", o)
				}
				if r := d.MemoryStats.Retries; r == nil || !r.Growing || r.First != 0 || r.Last != 19 || r.Readings != 100 || r.Rises != 19 || r.LastRise.Step != 950 {
					t.Errorf("retries %+v, want growing from 0 to 19 over 100 readings, rising at 19, the last at step 950", r)
				}
			}
		})
	}
}

// checkInOrder checks that each of want is a substring of some element of
// got, in order.
func checkInOrder[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	j := 0
	for _, g := range got {
		for j < len(want) && g == want[j] {
			j++
		}
	}
	if j < len(want) {
		t.Errorf("%s lack %v (in order): %v", what, want[j], got)
	}
}

// TestMemoryStatsProjection: a device without snapshots projects its
// allocated growth against the capacity; critical when it runs out within
// the run's own length again.
func TestMemoryStatsProjection(t *testing.T) {
	rs := statsSeries(100, func(i int) statsReading {
		r := leakingStats(i)
		r.ooms = 0
		return r
	})
	run := &ingest.Run{Dir: "stats", Location: time.UTC, Logs: []*gpulog.GPULog{statsLog("stats.jsonl", rs)}}
	f := Analyze(run, Options{Capacity: 5 * gib})
	at := f.Devices[0].Trend(MetricAllocated)
	p := at.Projection
	// At step 990 allocated is 4 GiB + 990 MiB: 34 MiB short of 5 GiB.
	if p == nil || math.Abs(p.Remaining-34) > 0.5 || p.Hours <= 0 {
		t.Fatalf("projection %+v, want ~34 steps left with a wall-clock estimate", p)
	}
	if f.Verdict.Severity != "critical" {
		t.Errorf("severity %q: the device runs out within the run's length", f.Verdict.Severity)
	}
}

// TestMemoryStatsBesideSnapshots: with snapshots, memory_stats readings
// are placed on the snapshot axis and fitted beside the snapshots, which
// stay primary: growing memory_stats do not raise a leak over flat
// snapshots, but a num_ooms rise still raises the OOM flag (a caught
// one: the readings go on after it).
func TestMemoryStatsBesideSnapshots(t *testing.T) {
	sp := synthSpec{n: 12, seed: 3, rank: input.NoRank, noPhase: true}
	run := sp.run()
	// Snapshots are at steps 100..1200; readings every 10 steps from 0.
	rs := statsSeries(130, leakingStats)
	// Reading 5 has no step: its time (25 s after the first snapshot, at
	// step 100; the second is at step 200 a minute later) places it at
	// step 141.7. Reading 6 has neither: it cannot be placed.
	rs[5].noStep = true
	rs[6].noStep, rs[6].noTime = true, true
	run.Logs = append(run.Logs, statsLog("stats.jsonl", rs))
	f := Analyze(run, Options{})
	if len(f.Devices) != 1 {
		t.Fatalf("%d devices", len(f.Devices))
	}
	d := f.Devices[0]
	if d.MemoryStats == nil || len(d.Points) != 12 {
		t.Fatalf("memory stats %v, %d points", d.MemoryStats != nil, len(d.Points))
	}
	if at := d.Trend(MetricAllocated); at.Source != "" || at.Status() != StatusFlat {
		t.Errorf("primary allocated trend %+v: want the snapshots' flat trend", at)
	}
	m := d.MemoryStats
	if m.X[3] != 30 || math.Abs(m.X[5]-(100+25.0/60*100)) > 1e-9 || !math.IsNaN(m.X[6]) || m.X[129] != 1290 {
		t.Errorf("X = %v ... : want the readings' steps, the time-placed step, NaN", m.X[:8])
	}
	if len(m.Trends) != 2 || m.Trends[0].State != StateGrowing || m.Trends[0].Source != SourceMemoryStats || m.Trends[0].N != 129 {
		t.Errorf("memory_stats trends %+v", m.Trends)
	}
	v := f.Verdict
	// The readings go on for 590 steps after the rise with num_ooms
	// still 1: the process caught the OOM (a warning).
	if v.Leak || !v.OOM || v.Severity != "warning" || v.OOMsHandled != 1 {
		t.Errorf("verdict %+v: want no leak (snapshots decide) and the caught OOM", v)
	}
	checkInOrder(t, "reasons", reasonKinds(v), []ReasonKind{ReasonStatsOOM})
	if o := m.OOMs[0]; o.Prev.Step != 690 || o.At.Step != 700 {
		t.Errorf("memory_stats OOM %+v, want between steps 690 and 700", o)
	}
	if !slices.Contains(f.Notes, Note{Kind: NoteUnplaced, Device: d.DeviceKey, Count: 1}) {
		t.Errorf("notes %+v, want 1 reading not placed", f.Notes)
	}
}

func TestMatchMemoryStats(t *testing.T) {
	key := func(r, d int) DeviceKey { return DeviceKey{Rank: r, Device: d} }
	series := func(keys ...DeviceKey) []*Series {
		var out []*Series
		for _, k := range keys {
			out = append(out, &Series{DeviceKey: k})
		}
		return out
	}
	group := func(k DeviceKey) *memStatsGroup { return &memStatsGroup{key: k} }
	none := input.NoRank
	tests := []struct {
		name      string
		series    []*Series
		groups    []DeviceKey
		want      []int // per group: the series it joins, -1 for none
		unmatched int
	}{
		{"exact", series(key(0, 0), key(1, 0)), []DeviceKey{key(1, 0), key(0, 0)}, []int{1, 0}, 0},
		{"rankless group, one series of its device", series(key(3, 0)), []DeviceKey{key(none, 0)}, []int{0}, 0},
		{"rankless group, two series of its device", series(key(0, 0), key(1, 0)), []DeviceKey{key(none, 0)}, []int{-1}, 1},
		{"ranked group, rankless series", series(key(none, 1)), []DeviceKey{key(2, 1)}, []int{0}, 0},
		{"other device", series(key(none, 0)), []DeviceKey{key(none, 1)}, []int{-1}, 1},
		{"other rank", series(key(0, 0)), []DeviceKey{key(1, 0)}, []int{-1}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var gs []*memStatsGroup
			for _, k := range tc.groups {
				gs = append(gs, group(k))
			}
			by, un := matchMemStats(tc.series, gs)
			for gi, g := range gs {
				got := -1
				for i, x := range by {
					if x == g {
						got = i
					}
				}
				if got != tc.want[gi] {
					t.Errorf("group %+v joins series %d, want %d", g.key, got, tc.want[gi])
				}
			}
			if len(un) != tc.unmatched {
				t.Errorf("%d unmatched, want %d", len(un), tc.unmatched)
			}
		})
	}
}

// TestMemoryStatsRanks: readings are grouped by the line's rank, else the
// rank in the log's path; each rank without snapshots is a device, and the
// rank comparison uses their memory_stats peaks.
func TestMemoryStatsRanks(t *testing.T) {
	flat := statsSeries(40, flatStats)
	leak := statsSeries(40, func(i int) statsReading { r := leakingStats(i); r.ooms = 0; return r })
	ranked := statsSeries(40, func(i int) statsReading { r := flatStats(i); r.rank = 2; return r })
	run := &ingest.Run{Dir: "ranks", Location: time.UTC, Logs: []*gpulog.GPULog{
		statsLog("rank0/stats.jsonl", flat), statsLog("rank1/stats.jsonl", leak), statsLog("all.jsonl", ranked),
	}}
	f := Analyze(run, Options{})
	var keys []DeviceKey
	for _, d := range f.Devices {
		keys = append(keys, d.DeviceKey)
	}
	if len(keys) != 3 || keys[0].Rank != 0 || keys[1].Rank != 1 || keys[2].Rank != 2 {
		t.Fatalf("devices %v, want ranks 0, 1, 2", keys)
	}
	if !f.Verdict.Leak || !slices.Contains(f.Verdict.Reasons, Reason{Kind: ReasonStatsLeak, Device: DeviceKey{Rank: 1, Device: 0}}) {
		t.Errorf("verdict %+v, want the leak on rank 1", f.Verdict)
	}
	rc := f.Ranks
	if rc == nil || rc.Outlier != 1 || rc.Ranks[1].PeakAllocated != 4*gib+390*mib {
		t.Errorf("rank comparison %+v", rc)
	}
}

// TestMemoryStatsFewSnapshots: with too few snapshots for a trend the
// snapshots still decide (no leak), but a note says that the memory_stats
// readings grow.
func TestMemoryStatsFewSnapshots(t *testing.T) {
	run := synthSpec{n: 3, seed: 3, rank: input.NoRank, noPhase: true}.run()
	run.Logs = append(run.Logs, statsLog("stats.jsonl", statsSeries(40, func(i int) statsReading { r := leakingStats(i); r.ooms = 0; return r })))
	f := Analyze(run, Options{})
	CheckProse(t, t.Name(), f)
	if f.Verdict.Leak || f.Devices[0].Status != StatusInsufficient {
		t.Errorf("verdict %+v, device %q", f.Verdict, f.Devices[0].Status)
	}
	if !slices.Contains(noteKinds(f.Notes), NoteStatsGrow) {
		t.Errorf("notes %+v, want that the memory_stats readings grow", f.Notes)
	}
}

// FuzzLogsOnlyAnalysis builds memory_stats readings and process readings
// from arbitrary bytes (steps and times missing, repeated or out of order,
// counters falling, unknown fields, several ranks, devices and GPUs) and
// checks that the analysis never panics and keeps its invariants: every
// reading is kept and has an X, every OOM event is a rise of num_ooms, and
// every process lands on one device or apart, once.
func FuzzLogsOnlyAnalysis(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})
	f.Add([]byte("memory_stats and processes, fuzzed: \x00\xff\x80\x7f"))
	f.Add(make([]byte, 96))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		stats := &gpulog.GPULog{Source: input.Source{Path: "rank1/stats.jsonl"}, Format: gpulog.FormatMemoryStats}
		apps := &gpulog.GPULog{Source: input.Source{Path: "apps.csv"}, Format: gpulog.FormatComputeAppsCSV}
		smi := gpuLog(0, 20)
		field := func(b byte, unit int64) int64 {
			if b == 0xff {
				return gpulog.Unknown
			}
			return int64(b) * unit
		}
		procs := 0
		type reading struct {
			gpu, pid int
			name     string
			t        time.Time
			used     int64
		}
		distinct := map[reading]bool{}
		for i := 0; i+6 <= len(data); i += 6 {
			b := data[i : i+6]
			if b[0]&1 == 0 {
				s := gpulog.MemoryStatsSample{Step: int64(b[1]) * 10, Time: t0.Add(time.Duration(b[2]) * time.Second), Device: int(b[0]>>1) % 2,
					Rank: input.NoRank, Allocated: field(b[3], mib), Reserved: field(b[4], mib), Active: gpulog.Unknown, InactiveSplit: gpulog.Unknown,
					NumAllocRetries: field(b[5]%8, 1), NumOOMs: field(b[5]>>4, 1)}
				switch b[0] >> 3 % 4 {
				case 1:
					s.Step = input.NoStep
				case 2:
					s.Time = time.Time{}
				case 3:
					s.Rank = int(b[1] % 3)
				}
				stats.MemoryStats = append(stats.MemoryStats, s)
				continue
			}
			p := gpulog.ProcessSample{Time: t0.Add(time.Duration(b[2]) * 10 * time.Second), GPU: int(b[1]%3) - 1, PID: int(b[3] % 4), Name: string(rune('a' + b[4]%3)), UsedMemory: field(b[5], mib)}
			if b[0]&2 != 0 {
				p.Time = time.Time{}
			}
			if p.UsedMemory >= 0 {
				procs++
				distinct[reading{p.GPU, p.PID, p.Name, p.Time, p.UsedMemory}] = true
			}
			apps.Processes = append(apps.Processes, p)
		}
		var snaps []*ingest.SnapshotFile
		if len(data) > 0 && data[0]&4 != 0 {
			snaps = synthSpec{n: 6, seed: 1, rank: input.NoRank, noPhase: true}.files()
		}
		run := &ingest.Run{Dir: "fuzz", Location: time.UTC, Snapshots: snaps, Logs: []*gpulog.GPULog{apps, smi, stats}}
		f := Analyze(run, Options{Capacity: 16 * gib})
		readings, placedProcs := 0, 0
		count := func(set *ProcessSet) {
			if set == nil {
				return
			}
			for _, p := range set.Series {
				placedProcs += len(p.Used)
				if len(p.X) != len(p.Used) || len(p.Times) != len(p.Used) || (p.Trend != nil && len(p.Used) < f.Thresholds.MinPoints) {
					t.Fatalf("process %+v", p)
				}
			}
		}
		for _, d := range f.Devices {
			count(d.Processes)
			m := d.MemoryStats
			if m == nil {
				continue
			}
			readings += len(m.Readings)
			if len(m.X) != len(m.Readings) {
				t.Fatalf("%d X for %d readings", len(m.X), len(m.Readings))
			}
			for _, o := range m.OOMs {
				if o.Prev.Index >= o.At.Index || o.After <= o.Before || m.Readings[o.At.Index].NumOOMs != o.After || m.Readings[o.Prev.Index].NumOOMs != o.Before {
					t.Fatalf("OOM event %+v", o)
				}
			}
		}
		count(f.OtherProcesses)
		if readings != len(stats.MemoryStats) {
			t.Fatalf("%d of %d memory_stats readings kept", readings, len(stats.MemoryStats))
		}
		// Duplicated readings (same process, time and bytes) are read once;
		// no other reading is lost or shown twice.
		if placedProcs > procs || placedProcs < len(distinct) {
			t.Fatalf("%d process readings shown, %d logged, %d distinct", placedProcs, procs, len(distinct))
		}
	})
}

// TestRetriesNoteExpandable: growing allocation retries advise expandable
// segments unless the device's snapshots show them on already.
func TestRetriesNoteExpandable(t *testing.T) {
	for _, expandable := range []bool{false, true} {
		d := &Device{DeviceKey: DeviceKey{Rank: input.NoRank}, Fragmentation: &Fragmentation{Expandable: expandable},
			MemoryStats: &MemoryStatsSeries{Retries: &AllocRetries{First: 0, Last: 40, Rises: 9, Growing: true}}}
		f := &Findings{Devices: []*Device{d}}
		memStatsNotes(f, d)
		if len(f.Notes) != 1 || f.Notes[0].Kind != NoteRetries || f.Notes[0].Expandable != expandable {
			t.Errorf("expandable %v: notes %+v, want a retries note that says whether expandable segments are on", expandable, f.Notes)
		}
	}
}

// TestMemoryStatsReservedOnly: readings that give reserved memory only
// (torchtitan's peak reserved) make the device's trend a reserved one,
// and its verdict follows it: growing reserved memory is "memory grows"
// (a leak cannot be told from a growing cache), never a leak, and never
// "insufficient data" beside a growing reserved trend.
func TestMemoryStatsReservedOnly(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reading func(i int) statsReading
		n       int
		status  Status
		grows   bool
		sev     Severity
		slope   float64 // reserved bytes per step
	}{
		{"reserved grows 50 MiB per 10 steps", func(i int) statsReading {
			return statsReading{allocUnknown: true, reserved: 31*gib + int64(i)*50*mib}
		}, 10, StatusGrowing, true, "warning", 5 << 20},
		{"reserved flat", func(i int) statsReading {
			return statsReading{allocUnknown: true, reserved: 31*gib + int64(i%3)*mib}
		}, 30, StatusFlat, false, "ok", 0},
		{"four readings", func(i int) statsReading {
			return statsReading{allocUnknown: true, reserved: 31*gib + int64(i)*50*mib}
		}, 4, StatusInsufficient, false, "info", math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &ingest.Run{Dir: "stats", Location: time.UTC, Logs: []*gpulog.GPULog{statsLog("train.log", statsSeries(tc.n, tc.reading))}}
			f := Analyze(run, Options{Capacity: 80 * gib})
			CheckProse(t, t.Name(), f)
			if len(f.Devices) != 1 {
				t.Fatalf("%d devices, want 1", len(f.Devices))
			}
			d := f.Devices[0]
			rt := d.Primary()
			if d.PrimaryMetric != MetricReserved || rt == nil || rt.Source != SourceMemoryStats || d.Trend(MetricAllocated) != nil {
				t.Fatalf("primary %q %+v, allocated trend %+v", d.PrimaryMetric, rt, d.Trend(MetricAllocated))
			}
			if d.Status != tc.status || rt.Status() != tc.status {
				t.Errorf("device %q, reserved trend %q, want %q", d.Status, rt.Status(), tc.status)
			}
			if !math.IsNaN(tc.slope) && math.Abs(rt.Slope-tc.slope) > 1e-6*math.Max(1, tc.slope) {
				t.Errorf("reserved slope %g, want %g", rt.Slope, tc.slope)
			}
			v := f.Verdict
			if v.Leak || v.MemoryGrows != tc.grows || v.Severity != tc.sev {
				t.Errorf("leak %v memory grows %v severity %q, want false %v %q", v.Leak, v.MemoryGrows, v.Severity, tc.grows, tc.sev)
			}
			wantReasons := []ReasonKind{}
			if tc.grows {
				wantReasons = []ReasonKind{ReasonMemoryGrows}
			}
			if got := reasonKinds(v); len(got) != len(wantReasons) {
				t.Errorf("reasons %v, want %v", got, wantReasons)
			}
		})
	}
}
