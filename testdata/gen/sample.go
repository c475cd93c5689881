package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"gpureport/testdata/gen/train"
)

func cmdSample(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("sample", flag.ContinueOnError)
	out := fs.String("o", "testdata/sample-run", "output run directory (replaced)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected arguments %v", fs.Args())
	}
	res, err := writeSample(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d snapshots, %d nvidia-smi rows, %d bytes\n", *out, len(res.Snapshots), res.SmiSamples, res.Bytes)
	return nil
}

// writeSample regenerates the sample run into dir, removing what was
// there (except a gpureport/ report folder).
func writeSample(dir string) (*train.Result, error) {
	if err := cleanRunDir(dir); err != nil {
		return nil, err
	}
	return train.Run(train.SampleSpec(), dir)
}

// cleanRunDir removes generated files from dir (snapshots, rank folders,
// the nvidia-smi log), leaving other files alone, and creates it.
func cleanRunDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if name == "gpureport" || name == "README.md" {
			continue
		}
		if err := os.RemoveAll(dir + string(os.PathSeparator) + name); err != nil {
			return err
		}
	}
	return os.MkdirAll(dir, 0o755)
}
