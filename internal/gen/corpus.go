package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gpureport/internal/gen/train"
)

// cmdCorpus is `gen corpus`: the labelled evaluation corpus and its
// labels.json.
func cmdCorpus(fs *flag.FlagSet) runFunc {
	seed := fs.Uint64("seed", 1, "corpus seed")
	n := fs.Int("n", 5, "cases per scenario ("+fmt.Sprint(len(train.Scenarios()))+" scenarios)")
	jobs := fs.Int("j", runtime.NumCPU(), "cases simulated at once (does not change the output)")
	only := fs.String("scenarios", "", "comma-separated scenarios to write (default: all)")
	return func(out string, stdout io.Writer) error {
		if *n < 1 || *jobs < 1 {
			return usageErr("-n and -j must be at least 1")
		}
		var scs []string
		if *only != "" {
			known := map[string]bool{}
			for _, s := range train.Scenarios() {
				known[s] = true
			}
			for _, s := range strings.Split(*only, ",") {
				if !known[s] {
					return usageErr("unknown scenario %q (want %s)", s, strings.Join(train.Scenarios(), ", "))
				}
				scs = append(scs, s)
			}
		}
		start := time.Now()
		labels, err := train.WriteCorpus(out, train.CorpusOptions{Seed: *seed, PerScenario: *n, Jobs: *jobs, Scenarios: scs})
		if err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(out, "labels.json"), labels); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %d cases and labels.json in %.1fs\n", out, len(labels.Cases), time.Since(start).Seconds())
		return nil
	}
}

// writeJSON writes v as indented JSON with a final newline.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
