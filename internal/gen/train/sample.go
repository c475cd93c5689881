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
	return &Spec{
		Name:  "sample-run",
		Seed:  20260302,
		Start: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC),
		GPU:   GPU{"NVIDIA A10G", 23028},
		Ranks: 1,

		Version:      "2.6",
		Protocol:     4,
		Container:    layout.Plain,
		SitePackages: "/home/user/.venv/lib/python3.12/site-packages",
		Project:      "/home/user/proj",
		CppStacks:    true,

		MaxEntries: 1000,

		Layers: 4, Hidden: 1024, Heads: 16, Vocab: 32000, Batch: 8,
		SeqMin: 384, SeqMax: 512, ActBytes: 2, ParamBytes: 4,
		GradsToNone: true,

		Snapshots: 14, Interval: 10, FirstDump: 10, TailSteps: 3,
		Phase:       PhaseEnd,
		StepSeconds: 0.8, StepJitter: 0.05,

		ContextMiB: 512, OutsideRank: -1,
		SmiInterval: 2, SmiNoiseMiB: 2, SmiLead: 6, SmiTail: 6,

		Leak: &Leak{Site: "train.py:57", Bytes: 6 << 20, Every: 1, StartStep: 5},
	}
}
