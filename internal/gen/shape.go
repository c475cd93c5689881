package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gpureport/internal/gen/train"
)

// cmdShape is `gen shape`: one snapshot of a chosen shape (blocks, trace
// length, distinct stacks, caught OOMs) for the decoder and long-run
// benchmarks, or a run of distinct copies of it (-copies).
func cmdShape(fs *flag.FlagSet) runFunc {
	name := fs.String("shape", "ordinary", "the shape to start from: few (300 tensors, 60k events), ordinary (10k blocks, 10k events, 3 MB) or large (175k blocks, 48 MB); the flags below change it")
	tensors := overrideFlag(fs, "tensors", "`n` tensors alive at the dump (default: the shape's)", parseInt)
	events := overrideFlag(fs, "events", "`n` trace events (default: the shape's)", parseInt)
	stacks := overrideFlag(fs, "stacks", "`n` distinct allocation stacks (default: the shape's)", parseInt)
	depth := overrideFlag(fs, "depth", "`n` nested module calls above each operator (default: the shape's)", parseInt)
	ooms := fs.Int("ooms", 0, "caught OOM events in the last step's trace")
	early := fs.Bool("ooms-early", false, "make the -ooms OOMs early in the trace, with nine tenths of its events after them (a run that recovered from OOMs and kept them in its ring buffer)")
	seed := overrideFlag(fs, "seed", "`seed` of the random draws (default: the shape's)", parseUint64)
	copies := fs.Int("copies", 0, "write this many distinct copies into the folder -o (snapshot_step_000010.pickle, ...), a minute apart, instead of one file")
	return func(out string, stdout io.Writer) error {
		sh, err := shapeNamed(*name)
		if err != nil {
			return err
		}
		tensors.apply(&sh.Tensors)
		events.apply(&sh.Events)
		stacks.apply(&sh.Stacks)
		depth.apply(&sh.PythonDepth)
		seed.apply(&sh.Seed)
		if *ooms < 0 {
			return usageErr("-ooms %d: want 0 or more", *ooms)
		}
		sh.OOMs, sh.OOMsEarly = *ooms, *early
		if *copies < 0 {
			return usageErr("-copies %d: want 0 or more", *copies)
		}
		start := time.Now()
		var buf bytes.Buffer
		res, err := train.WriteShape(&buf, sh)
		if err != nil {
			return err
		}
		if *copies == 0 {
			if err := writeFile(out, buf.Bytes(), time.Time{}); err != nil {
				return err
			}
		} else {
			if int64(*copies) >= int64(res.VariantSize) {
				return usageErr("-copies %d: at most %d distinct copies of this shape", *copies, res.VariantSize-1)
			}
			data := buf.Bytes()
			t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
			for i := range *copies {
				res.SetVariant(data, i)
				p := filepath.Join(out, fmt.Sprintf("snapshot_step_%06d.pickle", (i+1)*10))
				if err := writeFile(p, data, t0.Add(time.Duration(i)*time.Minute)); err != nil {
					return err
				}
			}
			out = fmt.Sprintf("%d copies in %s", *copies, out)
		}
		fmt.Fprintf(stdout, "wrote %s: %d bytes, %d segments, %d blocks, %d trace entries (%d OOM), %d distinct frames, in %.1fs\n",
			out, res.Bytes, res.Segments, res.Blocks, res.Entries, res.OOMs, res.Frames, time.Since(start).Seconds())
		return nil
	}
}

// writeFile writes data to path, making its folder, and sets its
// modification time to mtime unless that is zero.
func writeFile(path string, data []byte, mtime time.Time) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		os.Remove(path)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !mtime.IsZero() {
		return os.Chtimes(path, mtime, mtime)
	}
	return nil
}

// shapeNamed returns the shape the -shape flag names.
func shapeNamed(name string) (train.Shape, error) {
	switch name {
	case "few":
		return train.FewBlocks, nil
	case "ordinary":
		return train.Ordinary, nil
	case "large":
		return train.Large, nil
	}
	return train.Shape{}, usageErr("-shape %q: want few, ordinary or large", name)
}
