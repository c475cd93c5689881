package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
	"gpureport/snapshot"
)

// synthSpec describes a small synthetic training run, built in Go so the
// whole analysis can be tested before (and besides) the project's
// generator: parameters, optimizer state created at the first step,
// activations caught at random phases, and whatever the test plants.
type synthSpec struct {
	n    int    // snapshots
	seed uint64 // randomness of phases
	rank int    // input.NoRank for single-process runs

	leakPerSnap  int64 // bytes leaked per snapshot at train.py:57
	leakCallers  int   // when > 1, the leaked blocks take turns among this many call paths to train.py:57
	leak2PerSnap int64 // bytes leaked per snapshot at a second site, metrics.py:41
	leakBurstAt  []int // when set, leak only at these snapshot indexes
	oneTimeAt    int   // index at which a 300 MiB buffer appears at data.py:40 (0: never)
	noPhase      bool  // activations always at the same phase
	outsideRate  int64 // bytes per snapshot that nvidia-smi used grows outside the allocator
	sawTooth     bool  // a 1 GiB free cache segment comes and goes (empty_cache)
	fragment     bool  // a new 200 MiB segment pinned by a 1 MiB block each snapshot
	noStacks     bool  // blocks carry no frames
}

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func (sp synthSpec) stack(b *snapBuilder, frames []snapshot.Frame) []snapshot.Frame {
	if sp.noStacks {
		return nil
	}
	return frames
}

// files builds the run's snapshot files.
func (sp synthSpec) files() []*ingest.SnapshotFile {
	rng := rand.New(rand.NewPCG(sp.seed, 5))
	optim := []snapshot.Frame{cppFrame("malloc"), torchFrame("optim/adam.py", 120, "_init_group"), userFrame("train.py", 70, "train_step")}
	var leaked int64
	var out []*ingest.SnapshotFile
	for i := range sp.n {
		b := newSnap()
		b.segment(0, live(1*gib, sp.stack(b, stackAt("model.py", 20, "__init__"))))
		if i >= 1 {
			b.segment(0, live(2*gib, sp.stack(b, optim)))
		} else {
			b.segment(0, free(2*gib))
		}
		k := 2
		if !sp.noPhase {
			k = rng.IntN(5)
		}
		var acts []blk
		for j := range 4 {
			if j < k {
				acts = append(acts, live(100*mib, sp.stack(b, stackAt("model.py", 88, "forward"))))
			} else {
				acts = append(acts, free(100*mib))
			}
		}
		b.segment(0, acts...)
		switch {
		case len(sp.leakBurstAt) > 0:
			for _, at := range sp.leakBurstAt {
				if at == i {
					leaked += sp.leakPerSnap
				}
			}
		case i > 0:
			leaked += sp.leakPerSnap
		}
		if leaked > 0 {
			var lb []blk
			for k, left := 0, leaked; left > 0; k, left = k+1, left-4*mib {
				lb = append(lb, live(min(left, 4*mib), sp.stack(b, leakPath(k%max(1, sp.leakCallers)))))
			}
			b.segment(0, lb...)
		}
		if sp.leak2PerSnap > 0 && i > 0 {
			b.segment(0, live(int64(i)*sp.leak2PerSnap, sp.stack(b, stackAt("metrics.py", 41, "update"))))
		}
		if sp.oneTimeAt > 0 && i >= sp.oneTimeAt {
			b.segment(0, live(300*mib, sp.stack(b, stackAt("data.py", 40, "prefetch"))))
		}
		if sp.sawTooth && i%2 == 1 {
			b.segment(0, free(1*gib))
		}
		if sp.fragment {
			for range i + 1 {
				b.segment(0, free(99*mib), live(1*mib, sp.stack(b, stackAt("model.py", 120, "cache"))), free(100*mib))
			}
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		b.event(0, snapshot.ActionSnapshot, 0, 0, at.UnixMicro(), nil)
		step := int64(100 * (i + 1))
		path := fmt.Sprintf("snapshot_step_%06d.pickle", step)
		if sp.rank != input.NoRank {
			path = fmt.Sprintf("rank%d/%s", sp.rank, path)
		}
		out = append(out, file(b.done(), path, step, sp.rank))
	}
	return out
}

// leakPath is call path c to the leak at train.py:57: train_step called
// from main (c = 0), or from another function (signatures name outer
// frames by function, not line).
func leakPath(c int) []snapshot.Frame {
	st := stackAt("train.py", 57, "train_step")
	if c > 0 {
		st[5] = userFrame("train.py", 120+c, fmt.Sprintf("run_stage_%d", c))
	}
	return st
}

// log builds an nvidia-smi log for GPU gpu: a reading every 10 s from the
// first snapshot to the last, used = reserved at the latest snapshot +
// 600 MiB + the outside growth.
func (sp synthSpec) log(files []*ingest.SnapshotFile, gpu int) *gpulog.GPULog {
	l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
	end := t0.Add(time.Duration(sp.n-1) * time.Minute)
	for t := t0; !t.After(end); t = t.Add(10 * time.Second) {
		i := int(t.Sub(t0) / time.Minute)
		res := DeviceUsage(files[i].Snapshot, 0).Reserved
		outside := int64(float64(sp.outsideRate) * t.Sub(t0).Minutes())
		l.Samples = append(l.Samples, gpulog.GPUSample{Time: t, GPU: gpu, MemoryUsed: res + 600*mib + outside, MemoryTotal: 80 * gib,
			MemoryFree: gpulog.Unknown, MemoryReserved: gpulog.Unknown})
	}
	return l
}

func (sp synthSpec) run() *ingest.Run {
	fs := sp.files()
	return &ingest.Run{Dir: "synth", Location: time.UTC, Snapshots: fs, Logs: []*gpulog.GPULog{sp.log(fs, 0)}}
}

func TestAnalyzeSyntheticRuns(t *testing.T) {
	tests := []struct {
		name     string
		spec     synthSpec
		want     Flags
		site     string
		fragment bool
	}{
		{"clean", synthSpec{n: 20, seed: 1}, Flags{}, "", false},
		{"clean, fixed phase", synthSpec{n: 12, seed: 2, noPhase: true}, Flags{}, "", false},
		{"one-time buffer", synthSpec{n: 20, seed: 3, oneTimeAt: 9}, Flags{}, "", false},
		{"steady leak", synthSpec{n: 16, seed: 4, leakPerSnap: 24 * mib}, Flags{Leak: true}, "train.py:57", false},
		{"slow leak under phase noise", synthSpec{n: 30, seed: 5, leakPerSnap: 2 * mib}, Flags{Leak: true}, "train.py:57", false},
		{"leak bursts", synthSpec{n: 20, seed: 6, leakPerSnap: 64 * mib, leakBurstAt: []int{4, 9, 15}}, Flags{Leak: true}, "train.py:57", false},
		{"outside-allocator growth", synthSpec{n: 20, seed: 7, outsideRate: 50 * mib}, Flags{OutsideAllocatorLeak: true}, "", false},
		{"saw-tooth", synthSpec{n: 20, seed: 8, sawTooth: true}, Flags{}, "", false},
		{"fragmentation", synthSpec{n: 16, seed: 9, fragment: true}, Flags{Fragmentation: true}, "", true},
		{"leak without stacks", synthSpec{n: 16, seed: 10, leakPerSnap: 64 * mib, noStacks: true, noPhase: true}, Flags{Leak: true}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.rank = input.NoRank
			f := Analyze(tt.spec.run(), Options{})
			CheckProse(t, t.Name(), f)
			r := ResultOf(tt.name, f)
			if r.Got != tt.want {
				t.Errorf("flags %+v, want %+v; reasons: %+v", r.Got, tt.want, f.Verdict.Reasons)
				for _, d := range f.Devices {
					for _, tr := range d.Trends {
						t.Logf("%s: %s %s (%s)", tr.Metric, tr.Status(), tr.Pattern, tr.Why.Rule)
					}
				}
			}
			if r.TopSite != tt.site {
				t.Errorf("top site %q, want %q", r.TopSite, tt.site)
			}
			d := f.Devices[0]
			if d.Fragmentation.Fragmented != tt.fragment {
				t.Errorf("fragmented %v: %+v", d.Fragmentation.Fragmented, d.Fragmentation.Why)
			}
			if tt.spec.sawTooth && !d.Fragmentation.SawTooth {
				t.Errorf("saw-tooth not seen: %+v", d.Fragmentation.Why)
			}
			if d.Capacity != 80*gib || d.CapacitySource != (CapacitySource{}) {
				t.Errorf("capacity %d from %+v", d.Capacity, d.CapacitySource)
			}
			if d.Reconciliation == nil || d.Reconciliation.Matched != tt.spec.n {
				t.Errorf("reconciliation %+v", d.Reconciliation)
			} else if lvl := d.Reconciliation.Level; tt.spec.outsideRate == 0 && (lvl < float64(590*mib) || lvl > float64(610*mib)) {
				t.Errorf("outside level %v, want 600 MiB", lvl)
			}
		})
	}
}

func TestAnalyzeSyntheticLeakDetails(t *testing.T) {
	spec := synthSpec{n: 16, seed: 4, leakPerSnap: 24 * mib, rank: input.NoRank}
	f := Analyze(spec.run(), Options{})
	d := f.Devices[0]
	if len(d.Suspects) != 1 {
		t.Fatalf("%d suspects: %+v", len(d.Suspects), d.Suspects)
	}
	sp := d.Suspects[0]
	// 24 MiB per snapshot, snapshots 100 steps apart: 251658 bytes per step.
	if want := float64(24*mib) / 100; sp.Trend.Slope < want*0.99 || sp.Trend.Slope > want*1.01 || !(sp.Trend.Lo <= want && want <= sp.Trend.Hi) {
		t.Errorf("suspect slope %v [%v, %v], want %v", sp.Trend.Slope, sp.Trend.Lo, sp.Trend.Hi, want)
	}
	if sp.Confidence != "high" || sp.Function != "train_step" || sp.Fingerprint != SignatureOf(stackAt("train.py", 57, "train_step")).Fingerprint {
		t.Errorf("suspect %+v", sp)
	}
	// Every snapshot's roles sum to its allocated bytes, and the suspect's
	// live bytes at the last snapshot have roles.
	for i, p := range d.Points {
		if p.Roles == nil || p.Roles.Allocated != p.Usage.Allocated {
			t.Errorf("point %d: roles %+v of %d allocated", i, p.Roles, p.Usage.Allocated)
		}
	}
	if sr := sp.Roles; sr == nil {
		t.Error("the suspect has no roles")
	} else if sum := func() (s int64) {
		for _, n := range sr.Bytes {
			s += n
		}
		return s
	}(); sum != sp.Bytes[len(sp.Bytes)-1] {
		t.Errorf("suspect roles sum to %d, its live bytes are %d", sum, sp.Bytes[len(sp.Bytes)-1])
	}
	if g := d.Groups[sp.Group]; g.Fingerprint != sp.Fingerprint {
		t.Errorf("suspect group index %d points at %s", sp.Group, g.Site)
	}
	at := d.Trend(MetricAllocated)
	if at.State != StateGrowing || at.Projection == nil || at.Projection.Remaining <= 0 || at.Projection.Hours <= 0 {
		t.Errorf("allocated trend %+v projection %+v", at, at.Projection)
	}
	// The suspect explains the device's growth (the device slope is fitted
	// on the floor of a phase-noisy series, so only roughly).
	if sp.Share < 0.5 || sp.Share > 1.5 {
		t.Errorf("share %v", sp.Share)
	}
	if f.Verdict.Severity != "warning" && f.Verdict.Severity != "critical" {
		t.Errorf("severity %q", f.Verdict.Severity)
	}
	// A user suppression by fingerprint silences the verdict, not the suspect.
	rules, err := ParseSuppressions("supp.txt", []byte(sp.Fingerprint+" # known\n"))
	if err != nil {
		t.Fatal(err)
	}
	g := Analyze(spec.run(), Options{Suppressions: rules})
	if g.Verdict.Leak || len(g.Devices[0].Suspects) != 1 || !strings.HasPrefix(g.Devices[0].Suspects[0].Suppressed, "fingerprint "+sp.Fingerprint) {
		t.Errorf("suppressed: verdict %+v suspects %+v", g.Verdict, g.Devices[0].Suspects)
	}
}

func TestAnalyzeFourRanksOneLeaking(t *testing.T) {
	run := &ingest.Run{Dir: "ranks", Location: time.UTC}
	for r := range 4 {
		spec := synthSpec{n: 15, seed: uint64(20 + r), rank: r}
		if r == 2 {
			spec.leakPerSnap = 16 * mib
		}
		fs := spec.files()
		run.Snapshots = append(run.Snapshots, fs...)
		run.Logs = append(run.Logs, spec.log(fs, r))
	}
	f := Analyze(run, Options{})
	CheckProse(t, t.Name(), f)
	if len(f.Devices) != 4 || !f.Verdict.Leak {
		t.Fatalf("%d devices, verdict %+v", len(f.Devices), f.Verdict)
	}
	r := ResultOf("ranks", f)
	if r.TopSite != "train.py:57" || r.TopRank != 2 {
		t.Errorf("top suspect %s on rank %d", r.TopSite, r.TopRank)
	}
	rc := f.Ranks
	if rc == nil || rc.Outlier != 2 || rc.OutlierSuspect == "" || len(rc.Ranks) != 4 {
		t.Fatalf("rank comparison %+v", rc)
	}
	for _, d := range f.Devices {
		if j := d.GPUJoin; j == nil || j.GPU != d.Rank || j.Method != placement.JoinByRank {
			t.Errorf("rank %d joined %+v", d.Rank, j)
		}
	}
	if !slices.Contains(noteKinds(f.Notes), NoteRankJoin) {
		t.Errorf("notes lack the join guess: %v", f.Notes)
	}
}

// TestAnalyzeClockOffset reads a GPU log written two hours ahead (a
// UTC+2 machine's local time read as UTC): the analysis must say so and
// still reconcile the log with the snapshots.
func TestAnalyzeClockOffset(t *testing.T) {
	spec := synthSpec{n: 20, seed: 11, rank: input.NoRank, sawTooth: true}
	run := spec.run()
	for i := range run.Logs[0].Samples {
		run.Logs[0].Samples[i].Time = run.Logs[0].Samples[i].Time.Add(2 * time.Hour)
	}
	f := Analyze(run, Options{})
	CheckProse(t, t.Name(), f)
	if want := (Note{Kind: NoteClockOffset, Clock: ClockNote{Hours: 2, ReadAs: "UTC", Zone: "+02:00"}}); !slices.Contains(f.Notes, want) {
		t.Errorf("notes %+v lack %+v", f.Notes, want)
	}
	d := f.Devices[0]
	if d.Reconciliation == nil || d.Reconciliation.Matched != spec.n || d.ClockShift != -2 {
		t.Errorf("clock shift %d reconciliation %+v", d.ClockShift, d.Reconciliation)
	}
	if f.Verdict.OutsideAllocatorLeak {
		t.Errorf("outside leak from a shifted clock: %v", f.Verdict.Reasons)
	}
}

// TestAnalyzeDeterministic analyses the same multi-rank run twice: the
// verdict, notes, groups and suspects must come out identical (no
// dependence on map order or timing).
func TestAnalyzeDeterministic(t *testing.T) {
	build := func() *ingest.Run {
		run := &ingest.Run{Dir: "ranks", Location: time.UTC}
		for r := range 3 {
			spec := synthSpec{n: 12, seed: uint64(40 + r), rank: r, leakPerSnap: int64(r) * 8 * mib, fragment: r == 1}
			fs := spec.files()
			run.Snapshots = append(run.Snapshots, fs...)
			run.Logs = append(run.Logs, spec.log(fs, r))
		}
		return run
	}
	digest := func(f *Findings) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%+v\n%+v\n", f.Verdict, f.Notes)
		for _, d := range f.Devices {
			for _, g := range d.Groups {
				fmt.Fprintf(&b, "%s %s %v\n", g.Fingerprint, g.Site, g.Bytes)
			}
			for _, s := range d.Suspects {
				fmt.Fprintf(&b, "%s %s %v %v %s\n", s.Fingerprint, s.Site, s.Trend.Slope, s.Evidence, s.Suppressed)
			}
			fmt.Fprintf(&b, "%+v\n", d.Fragmentation.Why)
		}
		if f.Ranks != nil {
			fmt.Fprintf(&b, "%+v\n", *f.Ranks)
		}
		return b.String()
	}
	a, b := digest(Analyze(build(), Options{})), digest(Analyze(build(), Options{}))
	if a != b {
		t.Errorf("two analyses of the same run differ:\n%s\n---\n%s", a, b)
	}
}

// TestOutsideLeakWithoutTraceTimes: snapshots with no trace times (state
// only, or history recorded without times) but written file times are
// matched to GPU readings at their file times, as the GPU-log join
// matches them, so growth outside the allocator is measured and found.
// Reserved memory grows too (a leak of tensors), so placing the snapshots
// by their steps on an even pace would not do.
func TestOutsideLeakWithoutTraceTimes(t *testing.T) {
	sp := synthSpec{n: 12, seed: 7, rank: input.NoRank, outsideRate: 100 * mib, leakPerSnap: 64 * mib, noPhase: true}
	fs := sp.files()
	l := sp.log(fs, 0)
	for i, f := range fs {
		f.Snapshot.Traces = nil
		f.ModTime = t0.Add(time.Duration(i) * time.Minute)
	}
	f := Analyze(&ingest.Run{Dir: "synth", Location: time.UTC, Snapshots: fs, Logs: []*gpulog.GPULog{l}}, Options{})
	d := f.Devices[0]
	if d.Points[0].Time != (time.Time{}) {
		t.Fatalf("point 0 has trace time %v; the test needs none", d.Points[0].Time)
	}
	if rc := d.Reconciliation; rc == nil || rc.Matched < len(fs)-1 || !f.Verdict.OutsideAllocatorLeak || !f.Verdict.Leak {
		t.Errorf("outside-allocator growth not found from file times: reconciliation %+v; reasons %v", rc, f.Verdict.Reasons)
	}
}
