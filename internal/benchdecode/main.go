// Command benchdecode times gpureport's snapshot decoder against CPython's
// pickle.load on the same big snapshot, side by side:
//
//	go run ./internal/benchdecode [-bin B] [-base REV] [-keep] [-file F] [-shape S] [-entries N] [-extra-ops X] [-runs R]
//
// Without -file it generates a snapshot of about 280 MB with N trace
// entries (default 1.4M) and X extra operators per block (default 300:
// 1,654 distinct frame dicts, thousands of distinct stacks), whose frames
// are shared through the pickle memo, using the project's generator (go
// run ./internal/gen big); with -shape, a snapshot of that shape instead
// (go run ./internal/gen shape: few, ordinary or large). It builds
// gpureport (or uses -bin, as make bench-decode does), then runs each of
//
//	gpureport stats F                       (the full decode)
//	gpureport digest -j 1 RUN               (digest-only reading, a fresh cache each time)
//	python3 -c "import pickle; pickle.load(open(F,'rb'))"
//
// R times (alternating) and prints the best and median wall times, the
// best CPU time, MB of file per CPU second, and the peak RSS of each
// (from the child's rusage). Then it times the two decoders alone, in
// process, R times each: this tree's snapshot.DecodeFile in full, and
// pickle.load inside one python3 (perf_counter around each load), so
// that neither process's start counts: gpureport's 10 ms and the
// interpreter's 70 ms are most of the time of a small file (an ordinary
// snapshot, 3.5 MB), and the interpreter's start made gpureport look
// faster than its decoder is. The decoder's target is judged in process.
// Beside them it times pickleop.Walk on the file, a walk over its opcodes
// that executes none: no decoder that reads every opcode is faster, so
// CPython's time over the walk's is the most any such decoder can gain on
// this file, and the decoder's over the walk's is its own work. With -base REV the gpureport of git revision
// REV (built from a copy of its tree) is timed the same way beside it,
// so that one run shows an earlier decoder's figures and today's. The
// targets are a full decode at least 8x faster than
// pickle.load, digest-only reading at least 500 MB/s per core, and a
// full decode's peak RSS at most 1.5x the file size; the exit status is
// 1 when one is missed. Run it from the repository root.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"gpureport/internal/benchrun"
	"gpureport/internal/pickleop"
	"gpureport/snapshot"
)

// Targets for the decoder (README, "Long runs").
const (
	minSpeedup = 8.0
	maxRSSFile = 1.5
	// minDigestMBps is the digest-only target: snapshot bytes
	// read per second of CPU time (one core), in MB (1e6 bytes).
	minDigestMBps = 500.0
)

func main() {
	var (
		bin     = flag.String("bin", "", "gpureport binary to time (default: build one)")
		file    = flag.String("file", "", "time this snapshot instead of generating one")
		shape   = flag.String("shape", "", "generate a snapshot of this shape (gen shape -shape: few, ordinary, large) instead of the big one")
		keep    = flag.Bool("keep", false, "keep the generated snapshot and binary (their folder is printed)")
		entries = flag.Int("entries", 1400000, "trace entries of the generated snapshot")
		extra   = flag.Int("extra-ops", 300, "extra operators per block of the generated snapshot (300: thousands of distinct stacks)")
		runs    = flag.Int("runs", 3, "runs of each decoder; the best and the median are reported")
		base    = flag.String("base", "", "also time the gpureport of this git revision (e.g. main), built from a copy of it")
	)
	flag.Parse()
	if err := bench(*bin, *file, *base, *shape, *keep, *entries, *extra, max(*runs, 1)); err != nil {
		fmt.Fprintln(os.Stderr, "benchdecode:", err)
		os.Exit(1)
	}
}

func bench(bin, file, base, shape string, keep bool, entries, extraOps, runs int) error {
	dir, cleanup, err := benchrun.WorkDir("benchdecode", keep)
	if err != nil {
		return err
	}
	defer cleanup()
	if file == "" {
		if _, err := os.Stat(filepath.Join("internal", "gen")); err != nil {
			return errors.New("internal/gen not found: run from the repository root, or pass -file")
		}
		file = filepath.Join(dir, "big.pickle")
		args := []string{"run", "./internal/gen", "big", "-o", file, "-entries", strconv.Itoa(entries), "-extra-ops", strconv.Itoa(extraOps)}
		if shape != "" {
			args = []string{"run", "./internal/gen", "shape", "-shape", shape, "-o", file}
		}
		fmt.Printf("generating %s...\n", file)
		if err := benchrun.Run("go", args...); err != nil {
			return fmt.Errorf("generator: %w", err)
		}
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	bin, baseBin, err := benchrun.Binaries(bin, base, dir)
	if err != nil {
		return err
	}
	digestRun, err := linkRun(dir, file)
	if err != nil {
		return err
	}
	python, perr := benchrun.Python()
	fmt.Printf("file: %s, %.1f MB\n", file, float64(st.Size())/1e6)

	// The contenders, each run once per round, alternating.
	type contender struct {
		name string
		run  func() (benchrun.Result, error)
		rs   []benchrun.Result
	}
	stats := func(b string) func() (benchrun.Result, error) {
		return func() (benchrun.Result, error) { return benchrun.Time(b, "stats", file) }
	}
	digest := func(b string) func() (benchrun.Result, error) {
		return func() (benchrun.Result, error) {
			// A fresh cache each time: a hit would read no snapshot.
			cache := filepath.Join(dir, "cache")
			if err := os.RemoveAll(cache); err != nil {
				return benchrun.Result{}, err
			}
			return benchrun.Time(b, "digest", "-q", "-j", "1", "--cache-dir", cache, digestRun)
		}
	}
	full := &contender{name: "gpureport stats", run: stats(bin)}
	dig := &contender{name: "gpureport digest -j 1", run: digest(bin)}
	cs := []*contender{full, dig}
	if baseBin != "" {
		cs = append(cs,
			&contender{name: "stats at " + base, run: stats(baseBin)},
			&contender{name: "digest -j 1 at " + base, run: digest(baseBin)})
	}
	var py *contender
	if perr == nil {
		py = &contender{name: "python3 pickle.load", run: func() (benchrun.Result, error) {
			return benchrun.TimePickleLoad(python, file)
		}}
		cs = append(cs, py)
	}
	for i := range runs {
		for _, c := range cs {
			r, err := c.run()
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			c.rs = append(c.rs, r)
		}
		fmt.Printf("run %d/%d done\n", i+1, runs)
	}

	size := float64(st.Size())
	fmt.Printf("\n%-26s %10s %10s %10s %10s %12s %10s\n", "", "best", "median", "best CPU", "MB/s/core", "peak RSS", "RSS/file")
	for _, c := range cs {
		best, med := summarize(c.rs)
		fmt.Printf("%-26s %10s %10s %10s %10.0f %9.0f MB %9.2fx\n", c.name, sec(best.Wall), sec(med.Wall), sec(best.CPU),
			size/1e6/best.CPU.Seconds(), float64(best.RSS)/1e6, float64(best.RSS)/size)
	}
	fBest, fMed := summarize(full.rs)
	dBest, _ := summarize(dig.rs)
	ok := float64(fBest.RSS)/size <= maxRSSFile
	perCore := size / 1e6 / dBest.CPU.Seconds()
	ok = ok && perCore >= minDigestMBps
	if py == nil {
		fmt.Printf("python3 not found (%v): no comparison\n", perr)
	} else {
		pBest, pMed := summarize(py.rs)
		fmt.Printf("\nprocesses: gpureport stats over CPython (best/best): %.1fx (median/median %.1fx)\n",
			pBest.Wall.Seconds()/fBest.Wall.Seconds(), pMed.Wall.Seconds()/fMed.Wall.Seconds())
		// The decoders alone, in process: a process's start (gpureport's
		// 10 ms, the interpreter's 70 ms) is most of a small file's time.
		goIn, err := decodeInProcess(file, runs)
		if err != nil {
			return err
		}
		pyIn, err := benchrun.TimePickleLoadInProcess(python, file, runs)
		if err != nil {
			return fmt.Errorf("python3 pickle.load in process: %w", err)
		}
		gb, gm := bestMedian(goIn)
		pb, pm := bestMedian(pyIn)
		speedup := pb.Seconds() / gb.Seconds()
		fmt.Printf("in process: full decode %s (median %s), pickle.load %s (median %s)\n", sec(gb), sec(gm), sec(pb), sec(pm))
		fmt.Printf("full decode speedup over CPython, in process (best/best): %.1fx (median/median %.1fx); target >= %.0fx\n",
			speedup, pm.Seconds()/gm.Seconds(), minSpeedup)
		if wb, wm, err := walkInProcess(file, runs); err == nil {
			fmt.Printf("opcode walk alone (the floor of a decoder that reads every opcode), in process: %s (median %s);\n"+
				"  CPython over it %.1fx (the most such a decoder can be), the full decode over it %.1fx\n",
				sec(wb), sec(wm), pb.Seconds()/wb.Seconds(), gb.Seconds()/wb.Seconds())
		} else {
			fmt.Printf("opcode walk: %v (the file is not a bare pickle)\n", err)
		}
		ok = ok && speedup >= minSpeedup
	}
	fmt.Printf("digest-only reading: %.0f MB/s per core (file bytes over CPU time); target >= %.0f\n", perCore, minDigestMBps)
	fmt.Printf("gpureport stats peak RSS: %.2fx the file; target <= %.1fx\n", float64(fBest.RSS)/size, maxRSSFile)
	if !ok {
		return benchrun.ErrMissed
	}
	fmt.Println("targets met")
	return nil
}

// summarize returns the best run (least wall time; its RSS the least
// seen) and the median one.
func summarize(rs []benchrun.Result) (best, median benchrun.Result) {
	sp := benchrun.SpreadOf(rs)
	best, median = sp.Fastest, sp.Median
	for _, r := range rs {
		best.RSS = min(best.RSS, r.RSS)
	}
	return best, median
}

// sec formats d in seconds, or in milliseconds under a second: a small
// file's decode and walk take a few.
func sec(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3f s", d.Seconds())
}

// decodeInProcess decodes file in full runs times in this process (this
// tree's decoder, whatever -bin or -base name) and returns each decode's
// wall time, the garbage of the one before collected first.
func decodeInProcess(file string, runs int) ([]time.Duration, error) {
	ds := make([]time.Duration, runs)
	for i := range ds {
		runtime.GC()
		t := time.Now()
		if _, _, err := snapshot.DecodeFile(file, snapshot.DecodeOptions{}); err != nil {
			return nil, fmt.Errorf("decode in process: %w", err)
		}
		ds[i] = time.Since(t)
	}
	return ds, nil
}

// walkInProcess steps over file's opcodes runs times without executing
// them (pickleop.Walk: the least work of a decoder that reads every
// opcode) and returns the best and median times. The file is read before
// the clock starts; a decode's time includes its read, from the page
// cache, which is a small part of it.
func walkInProcess(file string, runs int) (best, median time.Duration, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, err
	}
	ds := make([]time.Duration, runs)
	for i := range ds {
		t := time.Now()
		if _, _, err := pickleop.Walk(data); err != nil {
			return 0, 0, err
		}
		ds[i] = time.Since(t)
	}
	best, median = bestMedian(ds)
	return best, median, nil
}

// bestMedian returns the least and the median of ds.
func bestMedian(ds []time.Duration) (best, median time.Duration) {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[0], s[len(s)/2]
}
