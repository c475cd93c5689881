package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"gpureport/ingest"
	"gpureport/report"
)

// overviewDefaultName is the overview folder made in the first root when
// -o is not given in batch mode.
const overviewDefaultName = "gpureport-overview"

// overviewLockWait bounds how long a batch waits for another shard that is
// writing the overview.
const overviewLockWait = 2 * time.Minute

// batchResult is the outcome of one run of a batch.
type batchResult struct {
	run     runDir
	outDir  string
	status  string
	err     error
	summary *report.Summary
	elapsed time.Duration
	// failOn lists the --fail-on conditions the run's verdict meets.
	failOn []string
	// writeFailed is true when the report could not be written.
	writeFailed bool
}

// runBatch reports every run directory found under roots (see rundirs.go
// for the rule), in parallel (-j runs at once), skipping runs whose inputs
// did not change since their last report, and writes the overview page.
// With --shard i/n it handles only its share of the runs and writes its
// part of the overview (see overviewparts.go).
//
// Exit code: 130 when interrupted; 6 when another batch holds the
// overview's lock; 3 when a report could not be written; 4 when a run's
// verdict meets --fail-on (unchanged runs count too, from their last
// report); 2 when no run could be reported at all; else 0. Diagnostics go
// to log (debug level with -v).
func runBatch(ctx context.Context, roots []string, opt reportOptions, stdout, stderr io.Writer, log *slog.Logger) int {
	sh, err := parseShard(opt.shard)
	if err != nil {
		return usageError(stderr, "--shard: %v", err)
	}
	if opt.pprofPath != "" {
		log.Warn("--pprof applies to single runs; ignored in --batch mode")
	}
	overviewDir := opt.outDir
	if overviewDir == "" {
		overviewDir = filepath.Join(roots[0], overviewDefaultName)
	}
	start := time.Now()
	all, err := findRunDirs(roots, []string{overviewDir})
	if err != nil {
		fmt.Fprintf(stderr, "gpureport: %v\n", err)
		return exitNothingUsable
	}
	if len(all) == 0 {
		// Nothing to report: write nothing, not even an empty overview.
		fmt.Fprintf(stderr, "gpureport: no run directories under %s (a run is a folder directly under the root that holds snapshots or GPU logs, or a folder marked with an empty %s file)\n",
			strings.Join(roots, ", "), RunMarker)
		return exitNothingUsable
	}
	var runs []runDir
	for _, r := range all {
		if sh.has(r.Rel) {
			runs = append(runs, r)
		}
	}
	parts, warns := readParts(overviewDir)
	for _, w := range warns {
		log.Warn("overview part unreadable, ignored", "part", w)
	}
	known := knownFingerprints(parts, start)

	prog := newProgress(stderr, opt.quiet)
	prog.start(batchLabel(sh))
	results := reportRuns(ctx, runs, opt, prog, log)
	prog.finish()
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "gpureport: interrupted")
		return exitInterrupted
	}

	part := &overviewPart{Schema: partSchema, Shard: sh, Started: start.UTC(), Updated: time.Now().UTC()}
	for _, r := range roots {
		part.Roots = append(part.Roots, absOr(r))
	}
	seen := map[string]bool{}
	for k := range known {
		seen[k] = true
	}
	counts := map[string]int{}
	var failOnRuns []string
	code := exitOK
	reported := 0
	for _, res := range results {
		log.Debug("run done", "run", res.run.Path, "status", res.status, "elapsed", res.elapsed.Round(time.Millisecond))
		counts[res.status]++
		row := overviewRow(res, overviewDir)
		for i := range row.Suspects {
			fp := row.Suspects[i].Fingerprint
			row.Suspects[i].New = fp != "" && !known[fp]
			if fp != "" {
				seen[fp] = true
			}
		}
		row.Shard = sh.String()
		part.Runs = append(part.Runs, row)
		if res.summary != nil {
			reported++
		}
		if len(res.failOn) > 0 {
			failOnRuns = append(failOnRuns, fmt.Sprintf("%s (%s)", res.run.Path, strings.Join(res.failOn, ", ")))
		}
		if res.writeFailed {
			code = exitWriteFailed
		}
	}
	part.KnownBefore = sortedKeys(known)
	part.KnownAfter = sortedKeys(seen)

	if lcode := writeOverview(ctx, overviewDir, part, log, stderr); lcode != exitOK {
		return lcode
	}
	fmt.Fprintf(stdout, "%s: %d runs (%d reported, %d unchanged, %d nothing usable, %d locked, %d failed) in %s\n",
		batchLabel(sh), len(results), counts[report.StatusReported], counts[report.StatusUnchanged], counts[report.StatusNothing],
		counts[report.StatusLocked], counts[report.StatusFailed], time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "overview: %s\n", filepath.Join(overviewDir, report.HTMLFile))
	if len(failOnRuns) > 0 {
		fmt.Fprintf(stderr, "gpureport: --fail-on met in %d runs: %s\n", len(failOnRuns), strings.Join(failOnRuns, "; "))
	}
	switch {
	case code != exitOK:
		return code
	case len(failOnRuns) > 0:
		return exitFailOn
	case reported == 0 && len(results) > 0:
		return exitNothingUsable
	}
	return exitOK
}

// reportRuns reports the runs, opt.jobs at once (default: one per CPU),
// and returns their results in the runs' order.
func reportRuns(ctx context.Context, runs []runDir, opt reportOptions, prog *progress, log *slog.Logger) []batchResult {
	jobs := opt.jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = max(1, min(jobs, len(runs)))
	// Share the CPUs and the memory budget among the runs in flight.
	ropt := opt
	ropt.jobs = max(1, runtime.GOMAXPROCS(0)/jobs)
	if ropt.memoryBudget > 0 {
		ropt.memoryBudget = max(ropt.memoryBudget/int64(jobs), 64<<20)
	}
	ropt.pprofPath = ""
	key := optionsKey(opt)

	results := make([]batchResult, len(runs))
	var (
		mu   sync.Mutex
		done int
		g    errgroup.Group
	)
	g.SetLimit(jobs)
	for i := range runs {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			results[i] = reportOneRun(ctx, runs[i], ropt, key, log)
			mu.Lock()
			done++
			prog.step(done, len(runs), runs[i].Path, batchLine(results[i]))
			mu.Unlock()
			return nil
		})
	}
	g.Wait()
	return results
}

// reportOneRun reports one run of a batch under its lock, or finds it
// unchanged since its last report.
func reportOneRun(ctx context.Context, run runDir, opt reportOptions, key string, log *slog.Logger) (res batchResult) {
	t0 := time.Now()
	outDir := filepath.Join(run.Path, ingest.OutputDirName)
	res = batchResult{run: run, outDir: outDir}
	defer func() { res.elapsed = time.Since(t0) }()
	release, err := acquireLock(outDir)
	if err != nil {
		res.status, res.err = report.StatusLocked, err
		if !errors.Is(err, errLocked) {
			res.status, res.writeFailed = report.StatusFailed, true
		}
		return res
	}
	defer release()
	cur, scanErr := scanManifest(run.Path, outDir, key)
	if scanErr == nil && reportComplete(outDir) && cur.equal(readManifest(outDir)) {
		if s, err := report.ReadSummary(filepath.Join(outDir, report.SummaryFile)); err == nil {
			res.status, res.summary = report.StatusUnchanged, s
			res.failOn = failOnMetSummary(s, opt.failOn)
			return res
		}
	}
	opt.outDir = outDir
	runLog := log.With("run", run.Path)
	out, err := reportRun(ctx, run.Path, opt, newProgress(io.Discard, true), runLog)
	switch {
	case errors.Is(err, context.Canceled):
		res.status, res.err = report.StatusFailed, err
		return res
	case errors.Is(err, errNothingUsable):
		res.status, res.err = report.StatusNothing, err
		return res
	case err != nil:
		res.status, res.err = report.StatusFailed, err
		res.writeFailed = isWriteError(err)
		runLog.Error("report failed", "err", err)
		return res
	}
	res.status = report.StatusReported
	res.failOn = failOnMet(out.findings.Verdict, opt.failOn)
	if s, err := report.ReadSummary(filepath.Join(outDir, report.SummaryFile)); err == nil {
		res.summary = s
	}
	if scanErr == nil {
		if err := writeManifest(outDir, cur); err != nil {
			runLog.Warn("cannot record the inputs; the run will be reported again", "err", err)
		}
	}
	return res
}

// failOnMetSummary is failOnMet for a verdict read back from summary.json.
func failOnMetSummary(s *report.Summary, failOn []string) []string {
	return failOnMet(s.Verdict.Flagged(), failOn)
}

// overviewRow makes the run's overview line, linking its report relative
// to the overview folder.
func overviewRow(res batchResult, overviewDir string) report.OverviewRun {
	var row report.OverviewRun
	if res.summary != nil {
		row = report.OverviewRunFromSummary(res.summary)
	} else {
		row = report.OverviewRun{}
		row.Slope = nanValue()
	}
	row.Dir = res.run.Path
	row.Status = res.status
	if res.err != nil {
		row.Error = res.err.Error()
	}
	if res.summary != nil {
		if rel, err := filepath.Rel(absOr(overviewDir), absOr(filepath.Join(res.outDir, report.HTMLFile))); err == nil {
			row.Link = (&url.URL{Path: filepath.ToSlash(rel)}).String()
		}
	}
	return row
}

// writeOverview stores the shard's part and renders index.html from all
// parts, under the overview's lock (waiting up to overviewLockWait for a
// shard that is writing it).
func writeOverview(ctx context.Context, dir string, part *overviewPart, log *slog.Logger, stderr io.Writer) int {
	deadline := time.Now().Add(overviewLockWait)
	var release func()
	for {
		var err error
		release, err = acquireLock(dir)
		if err == nil {
			break
		}
		if !errors.Is(err, errLocked) {
			fmt.Fprintf(stderr, "gpureport: overview: %v\n", err)
			return exitWriteFailed
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(stderr, "gpureport: overview: %v\n", err)
			return exitLocked
		}
		select {
		case <-ctx.Done():
			return exitInterrupted
		case <-time.After(500 * time.Millisecond):
		}
	}
	defer release()
	if err := writePart(dir, part); err != nil {
		fmt.Fprintf(stderr, "gpureport: overview part: %v\n", err)
		return exitWriteFailed
	}
	parts, warns := readParts(dir)
	for _, w := range warns {
		log.Warn("overview part unreadable, ignored", "part", w)
	}
	page, err := report.OverviewHTML(mergeParts(parts, part.Shard.Count, generatedAt()))
	if err == nil {
		err = report.WriteFileAtomic(filepath.Join(dir, report.HTMLFile), page, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gpureport: overview: %v\n", err)
		return exitWriteFailed
	}
	return exitOK
}

// batchLine is the cron-log line of a finished run; "" for unchanged runs,
// which are only counted.
func batchLine(r batchResult) string {
	switch r.status {
	case report.StatusUnchanged:
		return ""
	case report.StatusReported:
		sev, head := "ok", ""
		if r.summary != nil {
			sev, head = r.summary.Verdict.Severity, r.summary.Verdict.Headline
		}
		return fmt.Sprintf("%s: reported in %s: %s: %s", r.run.Path, r.elapsed.Round(time.Millisecond), sev, head)
	default:
		return fmt.Sprintf("%s: %s: %v", r.run.Path, r.status, r.err)
	}
}

// optionsKey identifies what shapes a run's report besides its inputs:
// gpureport's version and the options; a change re-reports every run.
func optionsKey(opt reportOptions) string {
	k := fmt.Sprintf("v=%s capacity=%d", version, opt.capacity)
	if opt.location != nil {
		k += " tz=" + opt.location.String()
	}
	if opt.columns != nil {
		k += " gpu-log-columns=" + opt.columns.String()
	}
	if opt.suppress != "" {
		k += " suppress=" + absOr(opt.suppress)
		if st, err := os.Stat(opt.suppress); err == nil {
			k += fmt.Sprintf(":%d:%d", st.Size(), st.ModTime().UnixNano())
		}
	}
	return k
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func nanValue() float64 { return math.NaN() }

// batchLabel names the batch in progress lines: "batch", or "batch shard
// 2/8" when the runs are split.
func batchLabel(sh shard) string {
	if sh.Count <= 1 {
		return "batch"
	}
	return "batch shard " + sh.String()
}
