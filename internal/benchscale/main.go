// Command benchscale measures reports over long runs, the pre-digest path
// (today: every snapshot decoded and kept, --no-digest) against the digest
// path, in one run:
//
//	go run ./internal/benchscale [-bin B] [-base REV] [-n N] [-entries E] [-extra-ops X] [-python K] [-today2n] [-keep]
//
// It generates one snapshot of about 50 MB (E trace entries, default 350k;
// X extra operators per block, default 300: thousands of distinct stacks)
// with the project's generator and makes runs of N and 2N step-named hard
// links to it (default N = 200). It then times, as child processes with
// their peak RSS from rusage:
//
//   - today: gpureport --no-digest on N links (and 2N with -today2n: it
//     needs about 55 MB of memory per snapshot);
//   - digest, first run: gpureport --no-cache on N and 2N links (every file
//     digested; hard links share one content key, so with the cache on,
//     all but the first link would be cache hits and prove nothing);
//   - digest, re-run after one more snapshot: the N run reported into a
//     fresh cache, then a distinct snapshot added (generated with E+1000
//     entries) and the run reported again;
//   - with -base REV: the first runs on N and 2N links again with the
//     gpureport of git revision REV (built from a copy of its tree), so
//     that one run prints an earlier gpureport's figures beside today's;
//   - CPython: python3 pickle.load of K of the files, scaled to N.
//
// It prints a table and the targets, met or not. Run it from the
// repository root; it needs about 60 MB of disk and minutes of CPU.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"gpureport/internal/benchrun"
)

// Targets for long runs (README, "Long runs").
const (
	maxRSSRatio  = 1.25    // peak RSS at 2N over that at N
	maxRSSBytes  = 1 << 30 // peak RSS at 2N, bytes
	maxRerun     = 0.10    // re-run time over first-run time
	minVsCPython = 16.0    // first run's speedup over CPython pickle.load
)

func main() {
	var (
		bin     = flag.String("bin", "", "gpureport binary (default: build one)")
		n       = flag.Int("n", 200, "snapshots of the smaller run (the larger has twice as many)")
		entries = flag.Int("entries", 350000, "trace entries of the generated snapshot (350k is about 58 MB)")
		extra   = flag.Int("extra-ops", 300, "extra operators per block of the generated snapshot (300: thousands of distinct stacks)")
		pyFiles = flag.Int("python", 3, "files CPython's pickle.load is timed on (scaled to N)")
		today2n = flag.Bool("today2n", false, "also time the pre-digest path on 2N snapshots (memory grows ~55 MB per snapshot)")
		keep    = flag.Bool("keep", false, "keep the working folder")
		base    = flag.String("base", "", "also time the first runs with the gpureport of this git revision (e.g. main), built from a copy of it")
	)
	flag.Parse()
	if err := bench(*bin, *base, max(*n, 2), *entries, *extra, max(*pyFiles, 1), *today2n, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "benchscale:", err)
		os.Exit(1)
	}
}

func bench(bin, base string, n, entries, extraOps, pyFiles int, today2n, keep bool) error {
	dir, cleanup, err := benchrun.WorkDir("benchscale", keep)
	if err != nil {
		return err
	}
	defer cleanup()
	bin, baseBin, err := benchrun.Binaries(bin, base, dir)
	if err != nil {
		return err
	}
	snap := filepath.Join(dir, "snapshot.pickle")
	extra := filepath.Join(dir, "extra.pickle")
	ops := strconv.Itoa(extraOps)
	if err := benchrun.Run("go", "run", "./internal/gen", "big", "-o", snap, "-entries", strconv.Itoa(entries), "-extra-ops", ops); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if err := benchrun.Run("go", "run", "./internal/gen", "big", "-o", extra, "-entries", strconv.Itoa(entries+1000), "-extra-ops", ops); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	st, err := os.Stat(snap)
	if err != nil {
		return err
	}
	small, big := filepath.Join(dir, "run-n"), filepath.Join(dir, "run-2n")
	if err := links(snap, small, n); err != nil {
		return err
	}
	if err := links(snap, big, 2*n); err != nil {
		return err
	}
	report := func(runDir, b string, args ...string) (benchrun.Result, error) {
		out := filepath.Join(dir, "out")
		os.RemoveAll(out)
		return benchrun.Time(b, append(append([]string{"-q", "-o", out}, args...), runDir)...)
	}
	fmt.Printf("snapshot: %.1f MB, %d trace entries, %d extra operators per block; runs of %d and %d hard links; %d CPUs\n\n", float64(st.Size())/1e6, entries, extraOps, n, 2*n, runtime.NumCPU())

	add := func(name, runDir, b string, args ...string) (benchrun.Result, error) {
		r, err := report(runDir, b, args...)
		if err != nil {
			return r, fmt.Errorf("%s: %w", name, err)
		}
		fmt.Printf("%-48s %9.1f s %9.1f s %9.0f MB\n", name, r.Wall.Seconds(), r.CPU.Seconds(), float64(r.RSS)/1e6)
		return r, nil
	}
	fmt.Printf("%-48s %11s %11s %12s\n", "", "wall", "CPU", "peak RSS")
	if _, err := add(fmt.Sprintf("today (--no-digest), %d snapshots", n), small, bin, "--no-digest"); err != nil {
		return err
	}
	if today2n {
		if _, err := add(fmt.Sprintf("today (--no-digest), %d snapshots", 2*n), big, bin, "--no-digest"); err != nil {
			return err
		}
	}
	first, err := add(fmt.Sprintf("digest, first run (--no-cache), %d snapshots", n), small, bin, "--no-cache")
	if err != nil {
		return err
	}
	first2, err := add(fmt.Sprintf("digest, first run (--no-cache), %d snapshots", 2*n), big, bin, "--no-cache")
	if err != nil {
		return err
	}
	if baseBin != "" {
		for _, r := range []struct {
			dir   string
			count int
		}{{small, n}, {big, 2 * n}} {
			name := fmt.Sprintf("at %s: first run (--no-cache), %d snapshots", base, r.count)
			if _, err := add(name, r.dir, baseBin, "--no-cache"); err != nil {
				return err
			}
		}
	}
	cache := filepath.Join(dir, "cache")
	if _, err := add(fmt.Sprintf("digest, into an empty cache, %d snapshots", n), small, bin, "--cache-dir", cache); err != nil {
		return err
	}
	if err := os.Link(extra, filepath.Join(small, fmt.Sprintf("snapshot_step_%06d.pickle", (n+1)*10))); err != nil {
		return err
	}
	rerun, err := add("digest, re-run after one more snapshot", small, bin, "--cache-dir", cache)
	if err != nil {
		return err
	}

	var py, pyCPU time.Duration
	if python, perr := benchrun.Python(); perr == nil {
		for range pyFiles {
			r, err := benchrun.TimePickleLoad(python, snap)
			if err != nil {
				return fmt.Errorf("python3: %w", err)
			}
			py += r.Wall
			pyCPU += r.CPU
		}
		py = py * time.Duration(n) / time.Duration(pyFiles)
		pyCPU = pyCPU * time.Duration(n) / time.Duration(pyFiles)
		fmt.Printf("%-48s %9.1f s %9.1f s   (%d files timed, scaled to %d)\n", "CPython pickle.load, one core", py.Seconds(), pyCPU.Seconds(), pyFiles, n)
	} else {
		fmt.Println("python3 not found: no CPython comparison")
	}

	fmt.Println("\ntargets:")
	ok := true
	check := func(what string, met bool, got string) {
		mark := "met"
		if !met {
			mark, ok = "MISSED", false
		}
		fmt.Printf("  %-58s %-22s %s\n", what, got, mark)
	}
	ratio := float64(first2.RSS) / float64(first.RSS)
	check(fmt.Sprintf("peak RSS %d / %d snapshots <= %.2fx", 2*n, n, maxRSSRatio), ratio <= maxRSSRatio, fmt.Sprintf("%.2fx", ratio))
	check(fmt.Sprintf("peak RSS %d snapshots < 1 GB", 2*n), first2.RSS < maxRSSBytes, fmt.Sprintf("%.0f MB", float64(first2.RSS)/1e6))
	rr := rerun.Wall.Seconds() / first.Wall.Seconds()
	check("re-run after one more snapshot <= 10% of the first run", rr <= maxRerun, fmt.Sprintf("%.1f%%", 100*rr))
	fmt.Printf("  (CPU time: re-run %.1f%% of the first run)\n", 100*rerun.CPU.Seconds()/first.CPU.Seconds())
	if py > 0 {
		sp := py.Seconds() / first.Wall.Seconds()
		check(fmt.Sprintf("first run >= %.0fx CPython pickle.load", minVsCPython), sp >= minVsCPython, fmt.Sprintf("%.1fx", sp))
		fmt.Printf("  (CPU time: CPython %.1f s against %.1f s, %.1fx per core)\n", pyCPU.Seconds(), first.CPU.Seconds(), pyCPU.Seconds()/first.CPU.Seconds())
	}
	if !ok {
		return benchrun.ErrMissed
	}
	return nil
}

// links fills dir with count step-named hard links to file.
func links(file, dir string, count int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := 1; i <= count; i++ {
		if err := os.Link(file, filepath.Join(dir, fmt.Sprintf("snapshot_step_%06d.pickle", i*10))); err != nil {
			return err
		}
	}
	return nil
}
