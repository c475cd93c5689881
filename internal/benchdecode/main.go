// Command benchdecode times gpureport's snapshot decoder against CPython's
// pickle.load on the same big snapshot, side by side:
//
//	go run ./internal/benchdecode [-bin B] [-keep] [-file F] [-entries N] [-extra-ops X] [-runs R]
//
// Without -file it generates a snapshot of about 280 MB with N trace
// entries (default 1.4M) and X extra operators per block (default 300:
// 1,654 distinct frame dicts, thousands of distinct stacks), whose frames
// are shared through the pickle memo, using the project's generator (go
// run ./internal/gen big). It builds
// gpureport (or uses -bin, as make bench-decode does), then runs each of
//
//	python3 -c "import pickle; pickle.load(open(F,'rb'))"
//	gpureport stats F
//
// R times (alternating) and prints the best and median wall times, the
// ratio, and the peak RSS of each (from the child's rusage). The targets
// are gpureport at least 8x faster than pickle.load (issue 10; it was 5x)
// and a peak RSS at most 1.5x the file size; the exit status is 1 when one is missed. Run it from
// the repository root.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// Targets from the issues (3, then 10 for the speedup).
const (
	minSpeedup = 8.0
	maxRSSFile = 1.5
)

// result is one timed child process.
type result struct {
	wall time.Duration
	rss  int64 // peak resident set size, bytes
}

func main() {
	var (
		bin     = flag.String("bin", "", "gpureport binary to time (default: build one)")
		file    = flag.String("file", "", "time this snapshot instead of generating one")
		keep    = flag.Bool("keep", false, "keep the generated snapshot and binary (their folder is printed)")
		entries = flag.Int("entries", 1400000, "trace entries of the generated snapshot")
		extra   = flag.Int("extra-ops", 300, "extra operators per block of the generated snapshot (300: thousands of distinct stacks)")
		runs    = flag.Int("runs", 3, "runs of each decoder; the best and the median are reported")
	)
	flag.Parse()
	if err := bench(*bin, *file, *keep, *entries, *extra, max(*runs, 1)); err != nil {
		fmt.Fprintln(os.Stderr, "benchdecode:", err)
		os.Exit(1)
	}
}

func bench(bin, file string, keep bool, entries, extraOps, runs int) error {
	dir, err := os.MkdirTemp("", "benchdecode-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Printf("working folder: %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	if file == "" {
		if _, err := os.Stat(filepath.Join("internal", "gen")); err != nil {
			return errors.New("internal/gen not found: run from the repository root, or pass -file")
		}
		file = filepath.Join(dir, "big.pickle")
		fmt.Printf("generating %s (%d trace entries)...\n", file, entries)
		gen := exec.Command("go", "run", "./internal/gen", "big", "-o", file, "-entries", strconv.Itoa(entries), "-extra-ops", strconv.Itoa(extraOps))
		gen.Stdout, gen.Stderr = os.Stderr, os.Stderr
		if err := gen.Run(); err != nil {
			return fmt.Errorf("generator: %w", err)
		}
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	if bin == "" {
		bin = filepath.Join(dir, "gpureport")
		build := exec.Command("go", "build", "-o", bin, "./cmd/gpureport")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build gpureport: %w", err)
		}
	} else if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("-bin: %w", err)
	}
	python, perr := exec.LookPath("python3")
	fmt.Printf("file: %s, %.1f MB\n", file, float64(st.Size())/1e6)

	var py, gr []result
	for i := range runs {
		r, err := timeRun(bin, "stats", file)
		if err != nil {
			return fmt.Errorf("gpureport stats: %w", err)
		}
		gr = append(gr, r)
		if perr == nil {
			r, err := timeRun(python, "-c", "import pickle,sys; pickle.load(open(sys.argv[1],'rb'))", file)
			if err != nil {
				return fmt.Errorf("python3 pickle.load: %w", err)
			}
			py = append(py, r)
		}
		fmt.Printf("run %d/%d done\n", i+1, runs)
	}

	size := float64(st.Size())
	gBest, gMed := summarize(gr)
	fmt.Printf("\n%-22s %10s %10s %12s %10s\n", "", "best", "median", "peak RSS", "RSS/file")
	fmt.Printf("%-22s %10s %10s %9.0f MB %9.2fx\n", "gpureport stats", sec(gBest.wall), sec(gMed.wall), float64(gBest.rss)/1e6, float64(gBest.rss)/size)
	ok := float64(gBest.rss)/size <= maxRSSFile
	if perr != nil {
		fmt.Printf("python3 not found (%v): no comparison\n", perr)
	} else {
		pBest, pMed := summarize(py)
		fmt.Printf("%-22s %10s %10s %9.0f MB %9.2fx\n", "python3 pickle.load", sec(pBest.wall), sec(pMed.wall), float64(pBest.rss)/1e6, float64(pBest.rss)/size)
		speedup := pBest.wall.Seconds() / gBest.wall.Seconds()
		fmt.Printf("\nspeedup (best/best): %.1fx (median/median %.1fx); target >= %.0fx\n",
			speedup, pMed.wall.Seconds()/gMed.wall.Seconds(), minSpeedup)
		ok = ok && speedup >= minSpeedup
	}
	fmt.Printf("gpureport peak RSS: %.2fx the file; target <= %.1fx\n", float64(gBest.rss)/size, maxRSSFile)
	if !ok {
		return errors.New("a target was missed")
	}
	fmt.Println("targets met")
	return nil
}

// timeRun runs a command with its output discarded and returns its wall
// time and peak RSS.
func timeRun(name string, args ...string) (result, error) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return result{}, err
	}
	return result{wall: wall, rss: maxRSS(cmd.ProcessState)}, nil
}

// summarize returns the best run (least wall time; its RSS the least
// seen) and the median one.
func summarize(rs []result) (best, median result) {
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b result) int { return int(a.wall - b.wall) })
	best, median = s[0], s[len(s)/2]
	for _, r := range rs {
		best.rss = min(best.rss, r.rss)
	}
	return best, median
}

func sec(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
