package analyze

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/units"
)

// mmengineLine and d2Line are progress lines as MMEngine and detectron2
// print them, with the interval's (MMEngine) or the run's (detectron2)
// peak allocated memory in MiB.
func mmengineLine(i, mibs int) string {
	t := time.Date(2024, 3, 1, 10, 0, 30*(i+1), 0, time.UTC)
	return fmt.Sprintf("%s - mmengine - INFO - Epoch(train)  [1][%d/7517]  lr: 1.000e-02  eta: 4:44:04  time: 0.593  data_time: 0.031  memory: %d  loss: 0.4606",
		t.Format("2006/01/02 15:04:05"), 50*(i+1), mibs)
}

func d2Line(i, mibs int) string {
	return fmt.Sprintf("[03/01 10:%02d:%02d d2.utils.events]: eta: 8:05:12  iter: %d  total_loss: 1.012  loss_cls: 0.714  time: 0.3322  data_time: 0.0334  lr: 0.010000  max_mem: %dM",
		i/10, 6*(i%10), 20*i+19, mibs)
}

// TestPeakTrend: progress lines that print only a peak allocated figure,
// read and analysed whole. A peak per interval (MMEngine) is fitted under
// the trend rules: a floor that rises under the interval's largest batch
// grows, the same excursions over a steady floor do not. A peak since
// start (detectron2) grows when it rises at every line, and a ratchet of
// four jumps that grow rarer (a steady workload's new largest batches) is
// no growth. A growing peak is a memory_grows warning with no site, its
// time to capacity projected when the capacity is known.
func TestPeakTrend(t *testing.T) {
	const n = 30
	// excursion is the interval's largest batch on top of the steady
	// memory: 0 to 400 MiB, drawn once per test.
	rng := rand.New(rand.NewPCG(7, 11))
	excursion := make([]int, n)
	for i := range excursion {
		excursion[i] = rng.IntN(400)
	}
	lines := func(f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i) + "\n")
		}
		return b.String()
	}
	// ratchet is a running peak with jumps at the lines at, each smaller
	// than the one before.
	ratchet := func(i int, at ...int) int {
		v := 3961
		for k, j := range at {
			if i >= j {
				v += 120 - 15*k
			}
		}
		return v
	}
	tests := []struct {
		name     string
		log      string
		capacity int64
		state    TrendState
		rule     TrendRule
		// slope is the expected rate in MiB per step (0: not checked).
		slope   float64
		grows   bool
		project bool
	}{
		{
			name:     "mmengine: the floor under each interval's largest batch rises",
			log:      lines(func(i int) string { return mmengineLine(i, 6000+40*i+excursion[i]) }),
			capacity: 24 * gib,
			state:    StateGrowing, rule: RuleGrows, slope: 40.0 / 50, grows: true, project: true,
		},
		{
			name:     "mmengine: steady memory, noisy peaks",
			log:      lines(func(i int) string { return mmengineLine(i, 6000+excursion[i]) }),
			capacity: 24 * gib,
			state:    StateFlat,
		},
		{
			name:  "detectron2: a peak since start that rises at every line",
			log:   lines(func(i int) string { return d2Line(i, 3961+50*i) }),
			state: StateGrowing, rule: RuleGrows, slope: 50.0 / 20, grows: true,
		},
		{
			// The trend rules alone hold this one: one step explains it.
			name:  "detectron2: a ratchet of four rarer jumps, a steady workload's new largest batches",
			log:   lines(func(i int) string { return d2Line(i, ratchet(i, 1, 3, 8, 18)) }),
			state: StateFlat,
		},
		{
			// The trend rules alone call this one growing (in bursts,
			// p<0.001); 7 rises where a steady workload gives 4.0 on
			// average (p=0.06) is no evidence of growth.
			name:  "detectron2: a ratchet of six rarer jumps",
			log:   lines(func(i int) string { return d2Line(i, ratchet(i, 1, 2, 4, 7, 12, 20)) }),
			state: StateFlat, rule: RuleRatchet,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			l.Path = "train.log"
			if len(l.MemoryStats) != n {
				t.Fatalf("%d readings, want %d", len(l.MemoryStats), n)
			}
			run := &ingest.Run{Dir: "peaks", Location: time.UTC, Logs: []*gpulog.GPULog{l}}
			f := Analyze(run, Options{Capacity: tc.capacity})
			CheckProse(t, t.Name(), f)
			if len(f.Devices) != 1 {
				t.Fatalf("%d devices, want 1", len(f.Devices))
			}
			d := f.Devices[0]
			if d.PrimaryMetric != MetricPeakAllocated {
				t.Fatalf("primary %q, want %q", d.PrimaryMetric, MetricPeakAllocated)
			}
			if d.Trend(MetricAllocated) != nil || d.PeakReserved != gpulog.Unknown {
				t.Errorf("allocated trend %v, peak reserved %d: a peak alone gives neither", d.Trend(MetricAllocated), d.PeakReserved)
			}
			pt := d.Primary()
			if pt.State != tc.state || (tc.rule != "" && pt.Why.Rule != tc.rule) {
				t.Errorf("state %s (rule %s, pattern %s, p=%g), want %s %s", pt.State, pt.Why.Rule, pt.Pattern, pt.PValue, tc.state, tc.rule)
			}
			if tc.slope > 0 {
				if got := pt.Slope / float64(mib); math.Abs(got-tc.slope) > 0.1*tc.slope {
					t.Errorf("slope %.3g MiB/step, want %.3g", got, tc.slope)
				}
			}
			v := f.Verdict
			if v.MemoryGrows != tc.grows || v.Leak {
				t.Errorf("memory grows %v, leak %v; want grows %v and no leak (no current allocated memory)", v.MemoryGrows, v.Leak, tc.grows)
			}
			wantSev := SeverityOK
			if tc.grows {
				wantSev = SeverityWarning
			}
			if v.Severity != wantSev {
				t.Errorf("severity %s, want %s", v.Severity, wantSev)
			}
			if tc.grows {
				r := v.Reasons[0]
				if r.Kind != ReasonMemoryGrows || r.Metric != MetricPeakAllocated {
					t.Errorf("reason %+v, want memory grows on %s", r, MetricPeakAllocated)
				}
			}
			if got := pt.Projection != nil; got != tc.project {
				t.Errorf("projection %+v, want one: %v", pt.Projection, tc.project)
			}
		})
	}
}

// TestPeakTrendFairseqCapacity: fairseq's gb_free is a per-step peak
// against the total its CUDA environment line printed, which is also the
// device's capacity, so a growing peak gets a time to capacity without
// --capacity.
func TestPeakTrendFairseqCapacity(t *testing.T) {
	var b strings.Builder
	b.WriteString("2021-05-04 12:00:00 | INFO | fairseq.utils | rank   0: capabilities =  7.0  ; total memory = 31.749 GB ; name = Tesla V100-SXM2-32GB\n")
	for i := range 20 {
		fmt.Fprintf(&b, "2021-05-04 12:%02d:00 | INFO | train_inner | epoch 001:    %d / 4000 loss=9.1, num_updates=%d, lr=1e-05, gb_free=%.1f, wall=%d\n",
			i+1, 100*(i+1), 100*(i+1), 20.0-0.3*float64(i), 60*(i+1))
	}
	l, err := gpulog.ReadLog(strings.NewReader(b.String()), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	l.Path = "train.log"
	f := Analyze(&ingest.Run{Dir: "fairseq", Location: time.UTC, Logs: []*gpulog.GPULog{l}}, Options{})
	CheckProse(t, t.Name(), f)
	if len(f.Devices) != 1 {
		t.Fatalf("%d devices, want 1", len(f.Devices))
	}
	d := f.Devices[0]
	pt := d.Primary()
	if pt == nil || pt.Metric != MetricPeakAllocated || pt.State != StateGrowing {
		t.Fatalf("primary trend %+v, want growing %s", pt, MetricPeakAllocated)
	}
	if d.Capacity <= 0 || pt.Projection == nil || !(pt.Projection.Hours > 0) {
		t.Fatalf("capacity %d, projection %+v: want a time to capacity in hours", d.Capacity, pt.Projection)
	}
	// 0.3 GiB a minute from about 11.8 GiB free: about 39 minutes.
	if h := pt.Projection.Hours; h < 0.5 || h > 0.8 {
		t.Errorf("time to capacity %.2f h, want about 0.65", h)
	}
	if !f.Verdict.MemoryGrows || f.Verdict.Severity != SeverityWarning {
		t.Errorf("memory grows %v, severity %s: want a warning", f.Verdict.MemoryGrows, f.Verdict.Severity)
	}
}

// TestPeakTrendRunningMax measures the record test on many series: the
// running maximum of a stationary workload's interval peaks (normal, 200
// MiB spread) is called growing at most at about Alpha's rate, where the
// trend rules alone call it growing in about a fifth of them; a leak of
// half the spread per interval is found in nearly all.
func TestPeakTrendRunningMax(t *testing.T) {
	if testing.Short() {
		t.Skip("many fits")
	}
	for _, n := range []int{30, 100} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i)
		}
		const series = 200
		var stationary, leak int
		for s := range series {
			rng := rand.New(rand.NewPCG(uint64(s), uint64(n)))
			run := func(rate float64) *Trend {
				ms := &MemoryStatsSeries{X: x}
				top := 0.0
				for i := range n {
					top = max(top, 4000+rate*float64(i)+math.Round(200*rng.NormFloat64()))
					ms.Readings = append(ms.Readings, gpulog.MemoryStatsSample{Step: int64(i), Rank: input.NoRank,
						Allocated: gpulog.Unknown, Reserved: gpulog.Unknown, PeakAllocated: int64(top) * mib, PeakSinceStart: true})
				}
				return peakTrend(ms, units.Per("step"), DefaultTrendRules())
			}
			if run(0).State == StateGrowing {
				stationary++
			}
			if run(100).State == StateGrowing {
				leak++
			}
		}
		t.Logf("n=%d: stationary called growing %d/%d, leak found %d/%d", n, stationary, series, leak, series)
		// Alpha is 1%: 2% of 200 series leaves room for chance.
		if stationary > series/50 {
			t.Errorf("n=%d: %d of %d stationary running peaks called growing", n, stationary, series)
		}
		if leak < series*9/10 {
			t.Errorf("n=%d: a leak of half the spread per interval found in %d of %d", n, leak, series)
		}
	}
}

// TestRecordsPValue: the exact chance of at least k new largest values
// among independent readings, and the Chernoff bound above it.
func TestRecordsPValue(t *testing.T) {
	probs := []float64{1, 1.0 / 2, 1.0 / 3}
	tests := []struct {
		k    int
		want float64
	}{{0, 1}, {1, 1}, {2, 1 - 1.0/2*2.0/3}, {3, 1.0 / 6}, {4, 0}}
	for _, tc := range tests {
		if got := recordsPValue(probs, tc.k); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("P(R >= %d) = %g, want %g", tc.k, got, tc.want)
		}
	}
	// Past maxRecordsCells the bound answers, never below the exact chance.
	long := make([]float64, 5000)
	mu := 0.0
	for i := range long {
		long[i] = 1 / float64(i+1)
		mu += long[i]
	}
	for _, k := range []int{5, 12, 15, 20, 40} {
		exact, bound := recordsPValue(long, k), recordsBound(mu, k)
		if !(bound >= exact) || bound > 1 {
			t.Errorf("k=%d: bound %g below the exact chance %g", k, bound, exact)
		}
	}
	if got, want := recordsPValue(long, maxRecordsCells/len(long)+1), recordsBound(mu, maxRecordsCells/len(long)+1); got != want {
		t.Errorf("past the cells: %g, want the bound %g", got, want)
	}
	rises, expected, _ := recordsTest([]float64{4 * float64(gib), 5 * float64(gib), 5 * float64(gib), 1 * float64(gib), 2 * float64(gib)})
	if rises != 4 || math.Abs(expected-(1+0.5+1.0/3+1+0.5)) > 1e-12 {
		t.Errorf("rises %d expected %g: a fall starts the count over", rises, expected)
	}
}
