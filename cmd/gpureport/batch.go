package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/batch"
	"gpureport/report"
)

// runBatch reports every run under roots through package batch and maps
// its outcome to output and an exit code.
//
// Exit code: 130 when interrupted; 6 when another batch holds the
// overview's lock; 3 when a report could not be written; 4 when a run's
// verdict meets --fail-on (unchanged runs count too, from their last
// report); 2 when no run could be reported at all; else 0. Diagnostics go
// to log (debug level with -v).
func runBatch(ctx context.Context, roots []string, opt reportOptions, stdout, stderr io.Writer, log *slog.Logger) int {
	sh, err := batch.ParseShard(opt.shard)
	if err != nil {
		return usageError(stderr, "--shard: %v", err)
	}
	if opt.pprofPath != "" {
		log.Warn("--pprof applies to single runs; ignored in --batch mode")
	}
	prog := newProgress(stderr, opt.quiet)
	res, err := batch.Run(ctx, batch.Options{
		Roots:       roots,
		OverviewDir: opt.outDir,
		Shard:       sh,
		Jobs:        opt.jobs,
		Key:         optionsKey(opt),
		Version:     version,
		Now:         generatedAt,
		FailOn:      func(v analyze.Verdict) []string { return failOnMet(v, opt.failOn) },
		Report:      batchReporter(opt),
		Progress:    batchProgress{prog},
		Log:         log,
	})
	var oe *batch.OverviewError
	switch {
	case errors.As(err, &oe) && errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &oe):
		fmt.Fprintf(stderr, "gpureport: %v\n", err)
		if errors.Is(err, batch.ErrLocked) {
			return exitLocked
		}
		return exitWriteFailed
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "gpureport: interrupted")
		return exitInterrupted
	case err != nil:
		fmt.Fprintf(stderr, "gpureport: %v\n", err)
		return exitNothingUsable
	}
	c := res.Counts
	fmt.Fprintf(stdout, "%s: %d runs (%d reported, %d unchanged, %d nothing usable, %d locked, %d failed) in %s\n",
		res.Label, res.Runs, c[report.StatusReported], c[report.StatusUnchanged], c[report.StatusNothing],
		c[report.StatusLocked], c[report.StatusFailed], res.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(stdout, "overview: %s\n", filepath.Join(res.OverviewDir, report.HTMLFile))
	if len(res.FailOn) > 0 {
		fmt.Fprintf(stderr, "gpureport: --fail-on met in %d runs: %s\n", len(res.FailOn), strings.Join(res.FailOn, "; "))
	}
	switch {
	case res.WriteFailed:
		return exitWriteFailed
	case len(res.FailOn) > 0:
		return exitFailOn
	case res.Reported == 0 && res.Runs > 0:
		return exitNothingUsable
	}
	return exitOK
}

// batchReporter reports one run of a batch with opt, sharing the CPUs and
// the memory budget among the runs in flight.
func batchReporter(opt reportOptions) batch.ReportFunc {
	return func(ctx context.Context, job batch.Job) (analyze.Verdict, error) {
		ropt := opt
		ropt.jobs = max(1, runtime.GOMAXPROCS(0)/job.InFlight)
		if ropt.memoryBudget > 0 {
			ropt.memoryBudget = max(ropt.memoryBudget/int64(job.InFlight), 64<<20)
		}
		ropt.pprofPath = ""
		ropt.outDir = job.OutDir
		out, err := reportRun(ctx, job.Run.Path, ropt, newProgress(io.Discard, true), job.Log)
		switch {
		case errors.Is(err, errNothingUsable):
			return analyze.Verdict{}, &batch.RunError{NothingUsable: true, Err: err}
		case isWriteError(err):
			return analyze.Verdict{}, &batch.RunError{WriteFailed: true, Err: err}
		case err != nil:
			return analyze.Verdict{}, err
		}
		return out.findings.Verdict, nil
	}
}

// batchProgress shows a batch's progress on the command's reporter.
type batchProgress struct{ p *progress }

func (b batchProgress) Start(label string)                      { b.p.start(label) }
func (b batchProgress) Step(done, total int, item, line string) { b.p.step(done, total, item, line) }
func (b batchProgress) Finish()                                 { b.p.finish() }

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
		abs, err := filepath.Abs(opt.suppress)
		if err != nil {
			abs = opt.suppress
		}
		k += " suppress=" + abs
		if st, err := os.Stat(opt.suppress); err == nil {
			k += fmt.Sprintf(":%d:%d", st.Size(), st.ModTime().UnixNano())
		}
	}
	return k
}

// lockReport takes the lock of a single run's report folder (outDir, or
// RUN_DIR/gpureport). It returns a release func and exitOK, or the exit
// code to stop with: exitLocked when another gpureport writes the same
// report. A run directory that does not exist is left for reportRun to
// report, rather than created here.
func lockReport(runDir, outDir string, stderr io.Writer) (func(), int) {
	if outDir == "" {
		if st, err := os.Stat(runDir); err != nil || !st.IsDir() {
			return func() {}, exitOK
		}
	}
	outDir = reportDir(runDir, outDir)
	release, err := batch.LockReport(outDir)
	switch {
	case errors.Is(err, batch.ErrLocked):
		fmt.Fprintf(stderr, "gpureport: %v\n", err)
		return nil, exitLocked
	case err != nil:
		fmt.Fprintf(stderr, "gpureport: %s\n", writeFailure(outDir, err))
		return nil, exitWriteFailed
	}
	return release, exitOK
}

// reportDir is the folder a single run's report goes to: -o, or
// RUN_DIR/gpureport.
func reportDir(runDir, outDir string) string {
	if outDir != "" {
		return outDir
	}
	return filepath.Join(runDir, ingest.OutputDirName)
}
