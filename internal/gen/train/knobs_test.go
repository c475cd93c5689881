package train

import (
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/internal/gen/layout"
)

// TestKnobsVary draws many cases and checks that every value of every
// knob occurs (the knobs are drawn per case, not fixed per scenario) and
// that every draw is a valid spec.
func TestKnobsVary(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 300; i++ {
		sc := []string{ScClean, ScLeakSteady, ScOutside, ScMultiRank}[i%4]
		sp, err := Draw(sc, CaseSeed(99, sc, i))
		if err != nil {
			t.Fatalf("%s %d: %v", sc, i, err)
		}
		k := sp.Knobs
		seen["seq="+string(k.SeqDist)] = true
		seen["naming="+string(k.Naming)] = true
		seen["times="+string(k.FileTimes)] = true
		seen["oom="+string(k.OOMDump)] = true
		switch {
		case len(k.GPUMap) > 0:
			seen["gpus=remapped"] = true
			if k.GPUMap[0] != 0 {
				seen["gpus=cuda0 is not GPU 0"] = true
			}
		case k.VisibleGPUs > sp.Ranks:
			seen["gpus=extra visible"] = true
		case k.NodeGPUs == sp.Ranks:
			seen["gpus=own"] = true
		}
		if sp.EmptyCacheEvery > 0 {
			seen["empty_cache"] = true
		}
		if k.MemStats {
			seen["memory_stats"] = true
		}
		if k.SmiUUID {
			seen["uuid"] = true
		}
	}
	for i := 0; i < 12; i++ {
		sp, err := Draw(ScSeqTail, CaseSeed(99, ScSeqTail, i))
		if err != nil {
			t.Fatal(err)
		}
		seen["seq="+string(sp.Knobs.SeqDist)] = true
		if !sp.Knobs.SeqDist.heavy() || sp.SeqMin*4 > sp.SeqMax {
			t.Errorf("seq-heavy-tail draw %s %d..%d", sp.Knobs.SeqDist, sp.SeqMin, sp.SeqMax)
		}
	}
	for _, want := range []string{"seq=uniform", "seq=fixed", "seq=lognormal", "seq=pareto",
		"naming=step", "naming=index", "naming=epoch", "naming=timestamp", "naming=torchtitan",
		"times=dump", "times=copied", "oom=observer", "oom=exit", "oom=none",
		"gpus=remapped", "gpus=cuda0 is not GPU 0", "gpus=extra visible", "gpus=own",
		"empty_cache", "memory_stats", "uuid"} {
		if !seen[want] {
			t.Errorf("no draw with %s", want)
		}
	}
}

// TestSnapshotPath checks each naming scheme, and that only the step and
// torchtitan schemes give the decoder a step.
func TestSnapshotPath(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 15, 2, 123456789, time.UTC).UnixMicro()
	for _, tc := range []struct {
		naming     Naming
		ranks      int
		oom        bool
		want       string
		stepInName bool
	}{
		{NameStep, 1, false, "snapshot_step_000120.pickle", true},
		{NameStep, 2, true, "rank1/snapshot_step_000120_oom.pickle", true},
		{NameIndex, 1, false, "mem_snapshot_3.pkl", false},
		{NameIndex, 1, true, "mem_snapshot_oom.pkl", false},
		{NameEpoch, 2, false, "rank1/snapshot_epoch4.pickle", false},
		{NameTimestamp, 1, false, "snapshot_20260302-091502-123.pickle", false},
		{NameTimestamp, 1, true, "oom_snapshot_20260302-091502-123.pickle", false},
		{NameTorchtitan, 2, false, "memory_snapshot/iteration_120/rank1_memory_snapshot.pickle", true},
		{NameTorchtitan, 2, true, "memory_snapshot/iteration_120_exit/rank1_memory_snapshot.pickle", true},
	} {
		sp := &Spec{Ranks: tc.ranks, Container: layout.Plain, Knobs: Knobs{Naming: tc.naming}}
		rank := tc.ranks - 1
		got := sp.snapshotPath(rank, 120, 3, at, tc.oom)
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.naming, got, tc.want)
		}
		if tc.naming.StepInName() != tc.stepInName {
			t.Errorf("%s: StepInName %v", tc.naming, tc.naming.StepInName())
		}
		if r := ingest.RankFromPath(got); tc.ranks > 1 && r != rank {
			t.Errorf("%s: rank %d from the path, want %d", got, r, rank)
		}
	}
}

// TestOOMDumpModes runs one leak-to-OOM draw in each dump mode and checks
// the files each leaves (see checkOOM), and that the cause does not
// depend on how the OOM was dumped.
func TestOOMDumpModes(t *testing.T) {
	var seed uint64
	var base *Spec
	for i := 0; base == nil && i < 20; i++ {
		seed = CaseSeed(5, ScGrowthOOM, i) & (1<<53 - 1)
		sp, err := Draw(ScGrowthOOM, seed)
		if err == nil && sp.Ranks == 1 {
			base = sp
		}
	}
	if base == nil {
		t.Fatal("no usable draw")
	}
	causes := map[string]bool{}
	for _, mode := range []OOMDump{OOMObserver, OOMExit, OOMNone} {
		t.Run(string(mode), func(t *testing.T) {
			sp := *base
			sp.Knobs.OOMDump = mode
			sp.Knobs.MemStats = mode == OOMNone
			sp.MaxEntries = max(sp.MaxEntries, 3000)
			dir := t.TempDir()
			res, err := Run(&sp, dir)
			if err != nil {
				t.Fatal(err)
			}
			lab, err := Judge(ScGrowthOOM, &sp, res)
			if err != nil {
				t.Skipf("draw not usable in mode %s: %v", mode, err)
			}
			causes[lab.Expect.OOMCause] = true
			var oomRun *decodedRun
			for _, r := range decodeRun(t, dir, lab.Truth.Files) {
				if r.oom {
					oomRun = &r
				}
			}
			checkOOM(t, dir, lab, oomRun)
			if mode == OOMExit && oomRun != nil {
				// The exit dump holds less live memory than the failing
				// step had: the step's temporaries were freed.
				var live int64
				for _, seg := range oomRun.snap.Segments {
					live += seg.AllocatedSize
				}
				if live >= res.OOM.Allocated {
					t.Errorf("exit dump holds %d live bytes, %d at the failure", live, res.OOM.Allocated)
				}
			}
			if (lab.Truth.OOMDumpPath == "") != (mode == OOMNone) {
				t.Errorf("mode %s: dump path %q", mode, lab.Truth.OOMDumpPath)
			}
		})
	}
	if len(causes) > 1 {
		t.Errorf("cause depends on the dump mode: %v", causes)
	}
}
