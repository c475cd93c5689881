package analyze

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
	"gpureport/internal/units"
)

// gpuLog builds a query-CSV log: GPU gpu every 10 s for n readings from
// t0, used = 8 GiB, total 80 GiB.
func gpuLog(gpu, n int) *gpulog.GPULog {
	l := &gpulog.GPULog{Source: input.Source{Path: "nvidia-smi.csv"}, Format: gpulog.FormatQueryCSV}
	for i := range n {
		l.Samples = append(l.Samples, gpulog.GPUSample{Time: t0.Add(time.Duration(i) * 10 * time.Second), GPU: gpu,
			MemoryUsed: 8 * gib, MemoryTotal: 80 * gib, MemoryFree: gpulog.Unknown, MemoryReserved: gpulog.Unknown})
	}
	return l
}

// procLog builds a compute-apps log of one process: n readings every 10 s
// from t0 (no times when untimed), used(i) bytes at reading i.
func procLog(path string, gpu, pid int, name string, n int, untimed bool, used func(i int) int64) *gpulog.GPULog {
	l := &gpulog.GPULog{Source: input.Source{Path: path}, Format: gpulog.FormatComputeAppsCSV}
	for i := range n {
		at := t0.Add(time.Duration(i) * 10 * time.Second)
		if untimed {
			at = time.Time{}
		}
		l.Processes = append(l.Processes, gpulog.ProcessSample{Time: at, GPU: gpu, PID: pid, Name: name, UsedMemory: used(i)})
	}
	return l
}

func growing(i int) int64 { return 2000*mib + int64(i)*2*mib } // 720 MiB per hour at one reading per 10 s
func flatUse(int) int64   { return 500 * mib }

func TestProcesses(t *testing.T) {
	const evil = "</script><script>alert(1)</script>"
	tests := []struct {
		name  string
		run   func() *ingest.Run
		check func(t *testing.T, f *Findings)
	}{
		{"GPU log only: growing process, flat one, unknown GPU apart", func() *ingest.Run {
			return &ingest.Run{Dir: "logs", Logs: []*gpulog.GPULog{
				gpuLog(0, 180),
				procLog("apps.csv", 0, 4242, "python", 180, false, growing),
				procLog("apps2.csv", 0, 4243, "dataloader", 180, false, flatUse),
				procLog("apps3.csv", -1, 6000, evil, 180, false, func(int) int64 { return 100 * mib }),
			}}
		}, func(t *testing.T, f *Findings) {
			if len(f.Devices) != 1 || f.Devices[0].Processes == nil {
				t.Fatalf("devices %d, want one with processes", len(f.Devices))
			}
			ps := f.Devices[0].Processes
			if !ps.OnDeviceAxis || ps.Axis != AxisHours || len(ps.Series) != 2 {
				t.Fatalf("process set %+v", ps)
			}
			p := ps.Series[0]
			if p.PID != 4242 || p.Name != "python" || p.GPU != 0 || len(p.Used) != 180 || p.Peak != 2358*mib || p.Last != 2358*mib || p.X[6] != 1.0/60 {
				t.Errorf("first process %+v", p)
			}
			if p.Trend == nil || p.Trend.State != StateGrowing || p.Trend.Per != "hour" || p.Trend.Metric != MetricProcessUsed || math.Abs(p.Trend.Slope-720*float64(mib)) > 1 {
				t.Errorf("growing process trend %+v, want +720 MiB per hour", p.Trend)
			}
			if q := ps.Series[1]; q.PID != 4243 || q.Trend == nil || q.Trend.Status() != StatusFlat {
				t.Errorf("second process %+v", q)
			}
			op := f.OtherProcesses
			if op == nil || len(op.Series) != 1 || op.Series[0].Name != evil || op.Series[0].GPU != -1 || op.OnDeviceAxis || op.Axis != AxisHours || !op.Start.Equal(t0) {
				t.Errorf("other processes %+v", op)
			}
			if f.Verdict.Leak || f.Verdict.OOM {
				t.Errorf("verdict %+v: a growing process raises no flag", f.Verdict)
			}
		}},
		{"same readings in two logs are read once; fewer than MinPoints: no trend", func() *ingest.Run {
			return &ingest.Run{Dir: "logs", Logs: []*gpulog.GPULog{
				gpuLog(0, 4),
				procLog("a.csv", 0, 7, "python", 4, false, growing),
				procLog("b.csv", 0, 7, "python", 4, false, growing),
			}}
		}, func(t *testing.T, f *Findings) {
			p := f.Devices[0].Processes.Series
			if len(p) != 1 || len(p[0].Used) != 4 || p[0].Trend != nil || len(p[0].Sources) != 2 {
				t.Errorf("processes %+v", p)
			}
		}},
		{"untimed readings: reading axis", func() *ingest.Run {
			return &ingest.Run{Dir: "logs", Logs: []*gpulog.GPULog{procLog("apps.csv", -1, 0, "", 46, true, growing)}}
		}, func(t *testing.T, f *Findings) {
			op := f.OtherProcesses
			if len(f.Devices) != 0 || op == nil || op.Axis != AxisReading || op.Series[0].X[45] != 45 {
				t.Fatalf("devices %d, other processes %+v", len(f.Devices), op)
			}
			if tr := op.Series[0].Trend; tr == nil || tr.Per != "reading" || tr.Slope != 2*float64(mib) || tr.State != StateGrowing {
				t.Errorf("trend %+v, want +2 MiB per reading", tr)
			}
		}},
		{"snapshots: processes on the step axis; another GPU's apart", func() *ingest.Run {
			run := synthSpec{n: 12, seed: 3, rank: input.NoRank, noPhase: true}.run()
			run.Logs = append(run.Logs, procLog("apps.csv", 0, 4242, "python", 60, false, growing),
				procLog("apps1.csv", 1, 99, "other-job", 60, false, flatUse))
			return run
		}, func(t *testing.T, f *Findings) {
			ps := f.Devices[0].Processes
			// Snapshots at t0 + i min are steps 100 (i + 1): the reading at
			// 30 s is at step 150; readings before t0 cannot be placed.
			if ps == nil || !ps.OnDeviceAxis || ps.Axis != AxisStep || math.Abs(ps.Series[0].X[3]-150) > 1e-9 {
				t.Fatalf("process set %+v", ps)
			}
			if tr := ps.Series[0].Trend; tr == nil || tr.Per != "step" || math.Abs(tr.Slope-0.12*float64(mib)) > 1 {
				t.Errorf("trend %+v, want +0.12 MiB per step (12 MiB a minute, 100 steps a minute)", tr)
			}
			if op := f.OtherProcesses; op == nil || len(op.Series) != 1 || op.Series[0].GPU != 1 {
				t.Errorf("other processes %+v: want GPU 1's process apart", op)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := tc.run()
			run.Location = time.UTC
			tc.check(t, Analyze(run, Options{}))
		})
	}
}

// TestRealComputeAppsLogsOnly reads the real compute-apps CSV (one
// used_gpu_memory column: no pid, name, time or GPU) as a logs-only run:
// its 46 readings are one process of no device, on the reading axis, and
// its growth from 1 MiB to 898 MiB is found.
func TestRealComputeAppsLogsOnly(t *testing.T) {
	path := testutil.RealFiles(t, "nvidia-smi", "paddle_used_gpu_memory_l.csv")[0]
	// The file is alone in its folder: load that folder in place.
	run, err := ingest.Load(context.Background(), filepath.Dir(path), ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Logs) != 1 || len(run.Snapshots) != 0 {
		t.Fatalf("%d logs, %d snapshots", len(run.Logs), len(run.Snapshots))
	}
	f := Analyze(run, Options{})
	op := f.OtherProcesses
	if len(f.Devices) != 0 || op == nil || len(op.Series) != 1 || op.Axis != AxisReading {
		t.Fatalf("devices %d, other processes %+v", len(f.Devices), op)
	}
	p := op.Series[0]
	if p.PID != 0 || p.Name != "" || p.GPU != -1 || len(p.Used) != 46 || p.Peak != 898*mib || p.Last != 898*mib || p.Used[0] != mib {
		t.Errorf("process %+v", p)
	}
	if p.Trend == nil || p.Trend.State != StateGrowing || p.Trend.Per != "reading" {
		t.Errorf("trend %+v, want growing per reading", p.Trend)
	}
}

// TestOutsideOwners: growth outside the allocator is put in the processes
// that grow, and the run's own process is the one whose used memory
// covers reserved memory at every snapshot, when exactly one does.
func TestOutsideOwners(t *testing.T) {
	const n = 10
	times := make([]time.Time, n)
	var points []Point
	for i := range n {
		times[i] = t0.Add(time.Duration(i) * time.Minute)
		points = append(points, Point{Time: times[i], Usage: Usage{Reserved: 3 * gib}})
	}
	// proc logs one reading a minute: base + slope·i bytes.
	proc := func(pid int, name string, base, slope int64) ProcessSeries {
		p := ProcessSeries{PID: pid, Name: name, GPU: 0}
		var y []float64
		var x []float64
		for i := range n {
			p.Times = append(p.Times, times[i].Add(2*time.Second))
			p.Used = append(p.Used, base+int64(i)*slope)
			x = append(x, float64(i))
			y = append(y, float64(base+int64(i)*slope))
		}
		tr := FitTrend(MetricProcessUsed, units.PerStep, x, y, DefaultTrendRules())
		p.Trend = &tr
		return p
	}
	train := proc(1111, "python train.py", 3*gib+500*mib, 0)
	eval := proc(2222, "python eval.py", gib, 40*mib)
	evalFlat := proc(2222, "python eval.py", gib, 0)
	trainGrows := proc(1111, "python train.py", 3*gib+500*mib, 40*mib)
	big := proc(3333, "python serve.py", 20*gib, 40*mib)
	below := proc(1111, "python train.py", 3*gib+500*mib, 0)
	below.Used[4] = 2 * gib // once below reserved: not the process holding it
	tests := []struct {
		name  string
		procs []ProcessSeries
		own   int
		owner OutsideOwner
		want  *ProcessOwners // nil: the readings do not tell
	}{
		{"another process grows", []ProcessSeries{train, eval}, 0, OwnerOthers, &ProcessOwners{Own: 0, Growing: []int{1}}},
		{"the run's process grows", []ProcessSeries{trainGrows, evalFlat}, 0, OwnerRun, &ProcessOwners{Own: 0, Still: []int{1}}},
		{"a larger neighbour covers reserved too", []ProcessSeries{big, train}, -1, OwnerUnknown, &ProcessOwners{Own: -1, Growing: []int{0}, Still: []int{1}}},
		{"below reserved once", []ProcessSeries{below, eval}, -1, OwnerUnknown, &ProcessOwners{Own: -1, Growing: []int{1}, Still: []int{0}}},
		{"one process", []ProcessSeries{trainGrows}, 0, OwnerUnknown, nil},
		{"none grows", []ProcessSeries{train, evalFlat}, 0, OwnerUnknown, nil},
	}
	for _, tt := range tests {
		d := &Device{Points: points, Processes: &ProcessSet{Series: tt.procs}}
		if own := ownProcess(d, times, 5); own != tt.own {
			t.Errorf("%s: own process %d, want %d", tt.name, own, tt.own)
		}
		rc := &Reconciliation{}
		rc.attribute(d, times, 5)
		if rc.Owner != tt.owner {
			t.Errorf("%s: owner %q, want %q", tt.name, rc.Owner, tt.owner)
		}
		if fmt.Sprint(rc.Why.Owners) != fmt.Sprint(tt.want) {
			t.Errorf("%s: owners %+v, want %+v", tt.name, rc.Why.Owners, tt.want)
		}
	}
}

// uuidLog is procLog for a compute-apps CSV that names the GPU by UUID
// only (no index).
func uuidLog(path, uuid string, pid int, n int, used func(i int) int64) *gpulog.GPULog {
	l := procLog(path, -1, pid, "python", n, false, used)
	for i := range l.Processes {
		l.Processes[i].UUID = uuid
	}
	return l
}

// TestProcessVerdict: in a run known only from GPU logs, processes of no
// device decide the verdict: a growing one is a memory-grows warning
// (a warning still when a known capacity is reached within the horizon), flat
// ones an OK verdict; beside snapshots they stay a list.
func TestProcessVerdict(t *testing.T) {
	const u0, u1 = "GPU-5a6b7c8d-1111-2222-3333-444455556666", "GPU-99887766-1111-2222-3333-444455556666"
	tests := []struct {
		name     string
		logs     []*gpulog.GPULog
		opt      Options
		snaps    bool
		severity Severity
		grows    int     // ReasonProcessGrows reasons
		hours    float64 // the growing process's time to capacity, 0: none
	}{
		{"uuid only, no capacity: warning, no forecast",
			[]*gpulog.GPULog{uuidLog("a.csv", u0, 24117, 180, growing), uuidLog("b.csv", u0, 3301, 180, flatUse)},
			Options{}, false, SeverityWarning, 1, 0},
		// 4096 MiB less the other process's 500 MiB less the last 2358
		// MiB is 1238 MiB left at 720 MiB/hour: 1.72 hours.
		{"capacity known: forecast against it less the other processes, still a warning",
			[]*gpulog.GPULog{uuidLog("a.csv", u0, 24117, 180, growing), uuidLog("b.csv", u0, 3301, 180, flatUse)},
			Options{Capacity: 4 * gib}, false, SeverityWarning, 1, 1238.0 / 720},
		// The other process is on another GPU: 4096 - 2358 MiB left.
		{"another GPU's process is not taken off",
			[]*gpulog.GPULog{uuidLog("a.csv", u0, 24117, 180, growing), uuidLog("b.csv", u1, 3301, 180, flatUse)},
			Options{Capacity: 4 * gib}, false, SeverityWarning, 1, 1738.0 / 720},
		{"flat processes decide: ok",
			[]*gpulog.GPULog{uuidLog("a.csv", u0, 24117, 180, flatUse), procLog("p.log", 1, 7, "python", 180, false, flatUse)},
			Options{}, false, SeverityOK, 0, 0},
		{"too few readings: not enough data",
			[]*gpulog.GPULog{uuidLog("a.csv", u0, 24117, 3, growing)},
			Options{}, false, SeverityInfo, 0, 0},
		{"beside snapshots: a list, not the verdict",
			[]*gpulog.GPULog{uuidLog("a.csv", u0, 24117, 60, growing)},
			Options{}, true, "", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := &ingest.Run{Dir: "logs"}
			if tc.snaps {
				run = synthSpec{n: 12, seed: 3, rank: input.NoRank, noPhase: true}.run()
			}
			run.Logs = append(run.Logs, tc.logs...)
			run.Location = time.UTC
			f := Analyze(run, tc.opt)
			n := 0
			for _, r := range f.Verdict.Reasons {
				if r.Kind == ReasonProcessGrows {
					n++
					p := f.OtherProcesses.Series[r.Process]
					if p.PID != 24117 || p.GPUID != u0 {
						t.Errorf("growing process %+v", p)
					}
					got := 0.0
					if p.Projection != nil {
						got = p.Projection.Hours
					}
					if math.Abs(got-tc.hours) > 0.01 {
						t.Errorf("time to capacity %v h, want %v", got, tc.hours)
					}
				}
			}
			if n != tc.grows || f.Verdict.MemoryGrows != (tc.grows > 0) {
				t.Errorf("%d process reasons, memory grows %v; want %d", n, f.Verdict.MemoryGrows, tc.grows)
			}
			if tc.severity != "" && f.Verdict.Severity != tc.severity {
				t.Errorf("severity %s, want %s", f.Verdict.Severity, tc.severity)
			}
			if op := f.OtherProcesses; op != nil && op.Decides == tc.snaps {
				t.Errorf("decides %v with snapshots %v", op.Decides, tc.snaps)
			}
		})
	}
}
