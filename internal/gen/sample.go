package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gpureport/internal/gen/train"
)

// cmdSample is `gen sample`: the bundled sample run.
func cmdSample(*flag.FlagSet) runFunc {
	return func(out string, stdout io.Writer) error {
		res, err := writeSample(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %d snapshots, %d nvidia-smi rows, %d bytes\n", out, len(res.Snapshots), res.SmiSamples, res.Bytes)
		return nil
	}
}

// writeSample regenerates the sample run into dir, replacing the files a
// previous run of the generator left there.
func writeSample(dir string) (*train.Result, error) {
	if err := cleanRunDir(dir); err != nil {
		return nil, err
	}
	return train.Run(train.SampleSpec(), dir)
}

// cleanRunDir removes what the generator writes in a run directory
// (snapshot files, rank folders, the nvidia-smi log) from dir, leaving
// anything else alone, and creates dir.
func cleanRunDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		generated := name == train.SmiFile || strings.HasPrefix(name, "snapshot_step_") ||
			e.IsDir() && strings.HasPrefix(name, "rank") && strings.Trim(name[4:], "0123456789") == "" && len(name) > 4
		if !generated {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return os.MkdirAll(dir, 0o755)
}
