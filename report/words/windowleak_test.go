package words

import (
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/snapshot"
)

// TestWindowCandidateWords: a possible leak seen in one snapshot's trace
// (PyTorch's recipe: 200 iterations recorded, 8 MiB a step never freed at
// train.py:57) is no leak on its own: the headline stays "Not enough
// data", names the candidate and how to confirm it, and the reason says
// what one window cannot tell apart.
func TestWindowCandidateWords(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	d := &analyze.Device{
		DeviceKey:     analyze.DeviceKey{Rank: input.NoRank, Device: 0},
		PrimaryMetric: analyze.MetricAllocated,
		Trends:        []analyze.Trend{{Metric: analyze.MetricAllocated, State: analyze.StateInsufficient, N: 1, MoreNeeded: 4}},
		TraceWindow: &analyze.TraceWindow{Path: "memory_snapshot.pickle", Start: t0, End: t0.Add(100 * time.Second),
			NeverFreed: []analyze.LiveGroup{{Signature: analyze.Signature{Site: "train.py:57", Function: "train_step"}, Bytes: 200 * 8 * mib, Blocks: 200, Turnovers: 200}}},
		WindowLeak: &analyze.WindowLeak{Path: "memory_snapshot.pickle", Steps: 200, PerStep: float64(8 * mib),
			Trend: analyze.Trend{Slope: float64(16*mib) * 3600}},
	}
	f := &analyze.Findings{Devices: []*analyze.Device{d}, Verdict: analyze.Verdict{Severity: analyze.SeverityInfo, Undecided: []analyze.DeviceKey{d.DeviceKey},
		Reasons: []analyze.Reason{{Kind: analyze.ReasonWindowLeak, Device: d.DeviceKey}}}}
	contains(t, "headline", Headline(f), []string{
		"Not enough data: cuda:0 has 1 snapshot usable for a trend; a verdict needs at least 5 (4 more); " +
			"the trace shows 1.56 GiB never freed at train.py:57, +8.00 MiB per step over 200 steps: a possible leak; dump snapshots every few hundred steps to confirm"},
		[]string{"Possible leak at", "Leak at"})
	reasons := Reasons(f)
	if len(reasons) != 1 {
		t.Fatalf("reasons %q, want one", reasons)
	}
	contains(t, "reason", reasons[0], []string{"possible leak on cuda:0 at train.py:57 (train_step)", "1.56 GiB in 200 blocks", "+8.00 MiB/step over 200 steps",
		"one window cannot tell a leak from a structure that fills once"}, nil)
}

// TestNeverFreedOptimizerState: the never-freed line says which site is
// the optimizer's state made at each parameter's first step (Adam's
// _init_group under Optimizer.step), and leaves a user line's as it is.
func TestNeverFreedOptimizerState(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	adam := []snapshot.Frame{
		{File: "/opt/conda/lib/python3.11/site-packages/torch/optim/adam.py", Line: 110, Name: "_init_group"},
		{File: "/opt/conda/lib/python3.11/site-packages/torch/optim/adam.py", Line: 215, Name: "step"},
		{File: "/opt/conda/lib/python3.11/site-packages/torch/optim/optimizer.py", Line: 493, Name: "wrapper"},
		{File: "/home/alice/proj/train.py", Line: 60, Name: "train_step"},
	}
	user := []snapshot.Frame{{File: "/home/alice/proj/train.py", Line: 77, Name: "train_step"}}
	d := &analyze.Device{
		DeviceKey: analyze.DeviceKey{Rank: input.NoRank, Device: 0},
		TraceWindow: &analyze.TraceWindow{Path: "memory_snapshot.pickle", Start: t0, End: t0.Add(100 * time.Second), Entries: 800,
			NeverFreedBytes: 3*gib + 600*mib, NeverFreedBlocks: 348,
			NeverFreed: []analyze.LiveGroup{
				{Signature: analyze.Signature{Site: "train.py:60", Function: "train_step"}, Bytes: 3 * gib, Blocks: 48, Stack: adam, Turnovers: 240},
				{Signature: analyze.Signature{Site: "train.py:77", Function: "train_step"}, Bytes: 600 * mib, Blocks: 300, Stack: user, Turnovers: 300},
			}},
	}
	contains(t, "never freed", NeverFreed(d), []string{
		"largest train.py:60 (train_step) 3.00 GiB in 48 blocks over 240 steps (optimizer state, made once per parameter), " +
			"train.py:77 (train_step) 600 MiB in 300 blocks over 300 steps"}, []string{"77 (train_step) 600 MiB in 300 blocks over 300 steps (optimizer"})
}
