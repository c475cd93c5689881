package main

import (
	"flag"
	"fmt"

	"gpureport/internal/units"
	"gpureport/snapshot"
)

// Flags that several commands share are defined once here, so that their
// name, default and help read the same in every command's --help.

// decodeFlags are the flags of every command that decodes snapshots.
type decodeFlags struct {
	// maxDecompressed is the --max-decompressed text (a size, e.g. 16GiB).
	maxDecompressed string
}

// addDecodeFlags adds the decode flags to fs and returns their values
// (read them after parsing).
func addDecodeFlags(fs *flag.FlagSet) *decodeFlags {
	d := &decodeFlags{}
	fs.StringVar(&d.maxDecompressed, "max-decompressed", "16GiB", "largest decompressed `SIZE` a gzip/zip snapshot may have")
	return d
}

// options returns the decode options the flags ask for, or the flag's
// usage problem.
func (d *decodeFlags) options() (snapshot.DecodeOptions, error) {
	b, err := units.ParseSize(d.maxDecompressed)
	if err != nil {
		return snapshot.DecodeOptions{}, fmt.Errorf("--max-decompressed: %w", err)
	}
	return snapshot.DecodeOptions{MaxDecompressed: b}, nil
}

// quietFlag adds -q, which turns progress output off, to fs.
func quietFlag(fs *flag.FlagSet, quiet *bool) {
	fs.BoolVar(quiet, "q", false, "no progress output")
}
