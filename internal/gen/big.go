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

// cmdBig is `gen big`: one large protocol-4 snapshot for decoder
// benchmarks.
func cmdBig(fs *flag.FlagSet) runFunc {
	entries := fs.Int("entries", 1400000, "trace entries of device 0")
	extraOps := fs.Int("extra-ops", train.BigSpec().ExtraOps, "extra operators per block: about 10 distinct frame dicts each, so 300 makes thousands of distinct stacks")
	return func(out string, stdout io.Writer) error {
		if *entries < 1 {
			return usageErr("-entries %d: want at least 1", *entries)
		}
		if *extraOps < 0 {
			return usageErr("-extra-ops %d: want 0 or more", *extraOps)
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		start := time.Now()
		bw := bufio.NewWriterSize(f, 1<<20)
		spec := train.BigSpec()
		spec.ExtraOps = *extraOps
		res, err := train.WriteBigSpec(bw, spec, *entries)
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
		fmt.Fprintf(stdout, "wrote %s: %d bytes, %d trace entries (of %d events in %d steps), %d segments, %d blocks, %d distinct frames, stacks up to %d frames, in %.1fs\n",
			out, res.Bytes, res.Entries, res.Events, res.Steps, res.Segments, res.Blocks, res.Frames, res.MaxDepth, time.Since(start).Seconds())
		return nil
	}
}
