package main

import (
	"bufio"
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
// benchmarks.
func cmdShape(fs *flag.FlagSet) runFunc {
	name := fs.String("shape", "ordinary", "the shape to start from: few (300 tensors, 60k events), ordinary (10k blocks, 10k events, 3 MB) or large (175k blocks, 48 MB); the flags below change it")
	tensors := fs.Int("tensors", 0, "tensors alive at the dump (0: the shape's)")
	events := fs.Int("events", 0, "trace events (0: the shape's)")
	stacks := fs.Int("stacks", 0, "distinct allocation stacks (0: the shape's)")
	depth := fs.Int("depth", -1, "nested module calls above each operator (-1: the shape's)")
	ooms := fs.Int("ooms", 0, "caught OOM events in the last step's trace")
	seed := fs.Uint64("seed", 0, "random seed (0: the shape's)")
	return func(out string, stdout io.Writer) error {
		sh, err := shapeNamed(*name)
		if err != nil {
			return err
		}
		if *tensors > 0 {
			sh.Tensors = *tensors
		}
		if *events > 0 {
			sh.Events = *events
		}
		if *stacks > 0 {
			sh.Stacks = *stacks
		}
		if *depth >= 0 {
			sh.PythonDepth = *depth
		}
		if *seed > 0 {
			sh.Seed = *seed
		}
		if *ooms < 0 {
			return usageErr("-ooms %d: want 0 or more", *ooms)
		}
		sh.OOMs = *ooms
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		start := time.Now()
		bw := bufio.NewWriterSize(f, 1<<20)
		res, err := train.WriteShape(bw, sh)
		if err == nil {
			err = bw.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(out)
			return fmt.Errorf("write %s: %w", out, err)
		}
		fmt.Fprintf(stdout, "wrote %s: %d bytes, %d segments, %d blocks, %d trace entries (%d OOM), %d distinct frames, in %.1fs\n",
			out, res.Bytes, res.Segments, res.Blocks, res.Entries, res.OOMs, res.Frames, time.Since(start).Seconds())
		return nil
	}
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
