package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"gpureport/internal/gen/layout"
	"gpureport/internal/gen/train"
)

// cmdRun is `gen run`: one run with chosen shapes and behaviour, and its
// labels on stdout.
func cmdRun(fs *flag.FlagSet) runFunc {
	scenario := fs.String("scenario", train.ScClean, "scenario: "+strings.Join(train.Scenarios(), ", "))
	seed := fs.Uint64("seed", 1, "seed of the draw (labels.json's seed reproduces a corpus case)")
	format := fs.String("format", "", "snapshot layout: timed, frames, history or segments-list (default: the drawn PyTorch version's)")
	version := fs.String("torch", "", "PyTorch version imitated, 2.0-2.9 (default: drawn)")
	protocol := overrideFlag(fs, "protocol", "pickle protocol `n`: 2, 4 or 5 (default: drawn)", parseInt)
	cpp := fs.Bool("cpp", false, "write the C++ pickler form (_memory_snapshot_pickled: protocol 2, BINPUT memo)")
	gz := fs.Bool("gzip", false, "gzip the snapshots (.pickle.gz)")
	zp := fs.Bool("zip", false, "write torch.save zip archives (.pt)")
	plain := fs.Bool("plain", false, "write bare pickles (.pickle)")
	snapshots := overrideFlag(fs, "snapshots", "`n` snapshots (default: drawn)", parseInt)
	entries := overrideFlag(fs, "max-entries", "a trace ring of `n` entries, 0 for state only (default: drawn)", parseInt)
	ranks := overrideFlag(fs, "ranks", "`n` ranks (default: drawn)", parseInt)
	naming := fs.String("naming", "", "file names: step, index, epoch, timestamp or torchtitan (default: drawn)")
	fileTimes := fs.String("file-times", "", "file modification times: dump or copied (default: drawn)")
	oomDump := fs.String("oom-dump", "", "OOM dump: observer, exit or none (default: drawn)")
	return func(out string, stdout io.Writer) error {
		sp, err := train.Draw(*scenario, *seed)
		if err != nil {
			return usageErr("%v", err)
		}
		if *version != "" {
			if _, err := train.EraByVersion(*version); err != nil {
				return usageErr("%v", err)
			}
			sp.Version = *version
		}
		if *format != "" {
			f, err := layout.ParseFormat(*format)
			if err != nil {
				return usageErr("%v", err)
			}
			sp.Format = f
		}
		protocol.apply(&sp.Protocol)
		n := 0
		for _, b := range []bool{*gz, *zp, *plain} {
			if b {
				n++
			}
		}
		switch {
		case n > 1:
			return usageErr("-gzip, -zip and -plain exclude each other")
		case *gz:
			sp.Container = layout.Gzip
		case *zp:
			sp.Container = layout.Zip
		case *plain:
			sp.Container = layout.Plain
		}
		if *cpp {
			sp.Cpp, sp.Protocol = true, 2
			if sp.Container == layout.Zip {
				sp.Container = layout.Plain
			}
		}
		snapshots.apply(&sp.Snapshots)
		entries.apply(&sp.MaxEntries)
		if ranks.given {
			sp.Ranks = ranks.value
			if sp.LeakRank >= sp.Ranks {
				sp.LeakRank = sp.Ranks - 1
			}
			// The drawn GPU map was for the drawn ranks: use GPUs 0..ranks-1.
			sp.Knobs.GPUMap = nil
			sp.Knobs.NodeGPUs = max(sp.Knobs.NodeGPUs, sp.Ranks)
			sp.Knobs.VisibleGPUs = max(sp.Knobs.VisibleGPUs, sp.Ranks)
		}
		if *naming != "" {
			sp.Knobs.Naming = train.Naming(*naming)
		}
		if *fileTimes != "" {
			sp.Knobs.FileTimes = train.FileTimes(*fileTimes)
		}
		if *oomDump != "" {
			sp.Knobs.OOMDump = train.OOMDump(*oomDump)
		}
		if err := sp.Validate(); err != nil {
			return usageErr("%v", err)
		}
		if err := cleanRunDir(out); err != nil {
			return err
		}
		res, err := train.Run(sp, out)
		if err != nil {
			return err
		}
		lab, err := train.Judge(*scenario, sp, res)
		if err != nil {
			// Overrides can change what happens; say so but keep the files.
			fmt.Fprintf(stdout, "note: this run does not show what %s plants (%v)\n", *scenario, err)
		}
		lab.Name = *scenario
		b, _ := json.MarshalIndent(lab, "", "  ")
		fmt.Fprintf(stdout, "wrote %s: %d files, %d bytes\n%s\n", out, len(res.Files), res.Bytes, b)
		return nil
	}
}
