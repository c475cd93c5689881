package train

import (
	"time"

	"gpureport/internal/gen/layout"
)

// SampleSpec is the bundled sample run (testdata/sample-run): one rank on
// an A10G, 14 snapshots every 10 steps taken at the end of the step, and a
// leak of 6 MiB per step at train.py:57 (debug_outputs.append(...)) from
// step 5 on.
func SampleSpec() *Spec {
	return oneRankRun(&Spec{
		Name: "sample-run",
		Seed: 20260302,
		GPU:  GPU{"NVIDIA A10G", 23028},

		Container:    layout.Plain,
		SitePackages: "/home/user/.venv/lib/python3.12/site-packages",
		Project:      "/home/user/proj",

		MaxEntries: 1000,

		Layers: 4, Hidden: 1024, Heads: 16, Vocab: 32000, Batch: 8,
		SeqMin: 384, SeqMax: 512,

		Snapshots: 14, Interval: 10, FirstDump: 10, TailSteps: 3,
		StepSeconds: 0.8,

		ContextMiB:  512,
		SmiInterval: 2, SmiNoiseMiB: 2, SmiLead: 6, SmiTail: 6,

		Leak: &Leak{Site: "train.py:57", Bytes: 6 << 20, Every: 1, StartStep: 5},
	})
}

// oneRankRun fills in what the sample run and the big benchmark snapshot
// share, and returns s: one rank of a job started 2026-03-02 09:00 UTC on
// PyTorch 2.6, pickled with protocol 4 and recording C++ frames; 2-byte
// activations, 4-byte parameters, gradients set to None; a dump at the end
// of a step, steps 5% apart in length; no process outside the ranks.
func oneRankRun(s *Spec) *Spec {
	s.Start = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s.Ranks = 1
	s.Version, s.Protocol, s.CppStacks = "2.6", 4, true
	s.ActBytes, s.ParamBytes, s.GradsToNone = 2, 4, true
	s.Phase, s.StepJitter, s.OutsideRank = PhaseEnd, 0.05, -1
	return s
}
