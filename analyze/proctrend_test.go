package analyze

import (
	"os"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// procSeries is a process read every 2 s (an `nvidia-smi -l 2` table's
// process rows), used[i] MiB at reading i, placed on hours since its
// first reading.
func procSeries(used []int64) *ProcessSeries {
	s := &ProcessSeries{PID: 4242, Name: "python", GPU: 0}
	for i, u := range used {
		at := t0.Add(time.Duration(i) * 2 * time.Second)
		s.Times = append(s.Times, at)
		s.Used = append(s.Used, u*mib)
		s.X = append(s.X, at.Sub(t0).Hours())
	}
	return s
}

// levels is n readings at each of the (level MiB, n) pairs, in order.
func levels(pairs ...[2]int64) []int64 {
	var out []int64
	for _, p := range pairs {
		for range p[1] {
			out = append(out, p[0])
		}
	}
	return out
}

// ramp is the readings from a to b MiB (both included) in n even steps.
func ramp(a, b int64, n int) []int64 {
	out := make([]int64, n)
	for i := range n {
		out[i] = a + (b-a)*int64(i)/int64(n-1)
	}
	return out
}

// TestProcessTrendReadings: a process's trend goes through a GPU
// monitor's reading rules (TrendRules.Readings), as its GPU's does: a
// start-up ramp that reaches its working level is flat, growth that goes
// on (steadily or in bursts) still grows, jobs run one after another
// under one process are judged one by one, and a capture too short for
// those rules reads as it did without them.
func TestProcessTrendReadings(t *testing.T) {
	rules := DefaultTrendRules()
	var steady, bursts, shortRise []int64
	for i := range 60 {
		steady = append(steady, 2000+2*int64(i)) // +2 MiB every reading: 3.5 GiB/hour
	}
	for i := range 60 {
		bursts = append(bursts, 2000+64*int64(i/6)) // +64 MiB every 6th reading, to the end
	}
	var leak5 []int64
	for i := range 60 {
		leak5 = append(leak5, 2000+5*int64(i))
	}
	for i := range 6 {
		shortRise = append(shortRise, 1000+50*int64(i))
	}
	tests := []struct {
		name  string
		used  []int64
		state TrendState
		rule  TrendRule
		was   TrendState // the state without the reading rules ("" when the same)
		jobs  int        // Trend.Jobs when the jobs are split
	}{
		// The process maps its context and weights, the allocator fills
		// its cache over a few readings, the first steps add their
		// activations and optimizer state in two steps, then the job
		// holds its level: a line through all of it grows fast.
		{"start-up ramp, then its working level",
			append(append(levels([2]int64{1370, 2}), ramp(1620, 1940, 6)...),
				levels([2]int64{1940, 14}, [2]int64{1976, 6}, [2]int64{2228, 17})...),
			StateFlat, RulePlateau, StateGrowing, 0},
		// The same with 2 MiB of churn (a small-pool segment mapped and
		// released) at the working level.
		{"start-up ramp, then its working level with churn",
			append(append(levels([2]int64{1370, 2}), ramp(1620, 1940, 6)...),
				levels([2]int64{1940, 7}, [2]int64{1942, 7}, [2]int64{1976, 6}, [2]int64{2228, 6}, [2]int64{2230, 4}, [2]int64{2228, 4}, [2]int64{2230, 3})...),
			StateFlat, RulePlateau, StateGrowing, 0},
		// An exponential approach to its level, still creeping up at
		// the end of the capture: the rate levels off.
		{"allocator warm-up levelling off",
			func() []int64 {
				var y []int64
				for i := range 45 {
					y = append(y, 4000-int64(3000*pow(0.9, i)))
				}
				return y
			}(),
			StateFlat, RuleLevelsOff, StateGrowing, 0},
		{"steady growth", steady, StateGrowing, RuleGrows, "", 0},
		{"leak in bursts to the end", bursts, StateGrowing, RuleGrows, "", 0},
		{"start-up, then a leak",
			append(ramp(300, 1900, 5), leak5...), StateGrowing, RuleGrows, "", 0},
		// A notebook's kernel runs three jobs, each flat, each larger,
		// releasing all but its context between them.
		{"three flat jobs under one process",
			levels([2]int64{300, 3}, [2]int64{2048, 15}, [2]int64{300, 3}, [2]int64{4096, 15}, [2]int64{300, 3}, [2]int64{6144, 15}),
			StateFlat, RuleNoGrowth, StateGrowing, 3},
		{"short capture rising", shortRise, StateGrowing, RuleGrows, "", 0},
		{"short capture rising then holding", []int64{1000, 1200, 1400, 1400, 1400, 1400}, "", "", "", 0},
		{"too few readings", []int64{1000, 1200, 1400, 1600}, "", "", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := procSeries(tc.used)
			got := processTrend(s, AxisHours, rules)
			// Today's fit without the reading rules, as processTrend
			// made it before.
			var before *Trend
			if len(tc.used) >= rules.MinPoints {
				b := FitTrend(MetricProcessUsed, AxisHours, s.X, fromMiB(tc.used), rules)
				before = &b
			}
			if before == nil || got == nil {
				if (before == nil) != (got == nil) {
					t.Fatalf("trend %+v, before %+v", got, before)
				}
				return
			}
			if tc.state == "" {
				// Too short for the reading rules: as before.
				if got.State != before.State || got.Why.Rule != before.Why.Rule {
					t.Errorf("state %s (%s), before %s (%s)", got.State, got.Why.Rule, before.State, before.Why.Rule)
				}
				return
			}
			if got.State != tc.state || got.Why.Rule != tc.rule {
				t.Errorf("state %s (%s, %s), want %s (%s)", got.State, got.Why.Rule, got.Pattern, tc.state, tc.rule)
			}
			if got.Jobs != tc.jobs {
				t.Errorf("%d jobs, want %d", got.Jobs, tc.jobs)
			}
			was := tc.was
			if was == "" {
				was = tc.state
			}
			if before.State != was {
				t.Errorf("without the reading rules %s (%s), want %s", before.State, before.Why.Rule, was)
			}
		})
	}
}

func pow(b float64, n int) float64 {
	out := 1.0
	for range n {
		out *= b
	}
	return out
}

func fromMiB(v []int64) []float64 {
	out := make([]float64, len(v))
	for i, u := range v {
		out[i] = float64(u * mib)
	}
	return out
}

// TestRealProcessTrendRTX3060: the real RTX 3060 laptop table, reported
// alone. DeepSpeed runs twice, each process read for about 30 s with
// readings every second (45 and 39 once duplicates are dropped). Both
// start at 1370 MiB, ramp to 1940 MiB within 2 s, hold it (creeping by
// 2 MiB twice), then step to 1976 and 2228 MiB and hold 2228-2232 MiB
// until they exit. Pid 16832's ramp takes 6 readings and its rate levels
// off (the last third's far below the first third's): flat, as the
// device rules read such readings. Pid 21069's ramp takes 4 readings;
// its last third holds 2228-2232 MiB (a rate whose interval reaches 0,
// so not a slower rise) and its flat tail after the 252 MiB step is 11
// readings, under a third of them and shorter than its pause at 1940
// MiB: by the device rules, as for its GPU's own readings of that job
// alone, it is growth in bursts, and stays growing.
func TestRealProcessTrendRTX3060(t *testing.T) {
	path := testutil.RealFiles(t, "nvidia-smi", "rtx3060laptop_driver530_repeated_1368_samples.log")[0]
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	l, err := gpulog.ReadLog(fh, gpulog.FormatTable, gpulog.ReadOptions{Location: time.UTC, Name: "rtx3060.log"})
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	f := Analyze(&ingest.Run{Dir: "logs", Logs: []*gpulog.GPULog{l}, Location: time.UTC}, Options{})
	if len(f.Devices) != 1 || f.Devices[0].Processes == nil {
		t.Fatalf("%d devices, or no processes", len(f.Devices))
	}
	want := map[int]struct {
		n     int
		state TrendState
		rule  TrendRule
	}{
		16832: {45, StateFlat, RuleLevelsOff},
		21069: {39, StateGrowing, RuleGrows},
		1439:  {197, StateFlat, RuleNoGrowth}, // Xorg, 4 MiB throughout
	}
	seen := 0
	for _, p := range f.Devices[0].Processes.Series {
		w, ok := want[p.PID]
		if !ok {
			continue
		}
		seen++
		if len(p.Used) != w.n || p.Trend == nil || p.Trend.State != w.state || p.Trend.Why.Rule != w.rule {
			t.Errorf("pid %d: %d readings, trend %+v; want %d, %s (%s)", p.PID, len(p.Used), p.Trend, w.n, w.state, w.rule)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d processes found", seen, len(want))
	}
}
