package batch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/report"
)

// DefaultOverviewName is the overview folder made in the first root when
// the command is given no overview folder.
const DefaultOverviewName = "gpureport-overview"

// overviewLockWait bounds how long a batch waits for another shard that is
// writing the overview.
const overviewLockWait = 2 * time.Minute

// Progress shows a batch's progress; the command's terminal bar or cron
// log lines.
type Progress interface {
	// Start begins the batch with a label such as "batch shard 2/8".
	Start(label string)
	// Step says done of total runs are finished, the latest being item;
	// line is its log line, "" for one that is only counted.
	Step(done, total int, item, line string)
	// Finish ends the batch's progress output.
	Finish()
}

// Job is one run for a ReportFunc to report.
type Job struct {
	// Run is the run folder; OutDir the folder its report goes to.
	Run    RunDir
	OutDir string
	// InFlight is how many runs are reported at once (at least 1), so
	// that each can take its share of the CPUs and the memory budget.
	InFlight int
	// Log carries the run's path.
	Log *slog.Logger
}

// ReportFunc writes the report of one run and returns its verdict. An
// error that is a *RunError says how the run failed; any other error is a
// failure to read or analyse it (context.Canceled when interrupted).
type ReportFunc func(ctx context.Context, job Job) (analyze.Verdict, error)

// RunError is a run a ReportFunc could not report, with how it failed.
type RunError struct {
	// NothingUsable is true when the run has no usable input: the run is
	// listed as such, not as failed.
	NothingUsable bool
	// WriteFailed is true when the report could not be written.
	WriteFailed bool
	// Err is the failure; its text is shown in the overview.
	Err error
}

func (e *RunError) Error() string { return e.Err.Error() }

func (e *RunError) Unwrap() error { return e.Err }

// OverviewError is a failure to write the overview: its lock (wrapping
// ErrLocked when another batch held it too long, or the context's error
// when interrupted while waiting), the shard's part, or the page.
type OverviewError struct {
	// What names the piece: "overview" or "overview part".
	What string
	Err  error
}

func (e *OverviewError) Error() string { return e.What + ": " + e.Err.Error() }

func (e *OverviewError) Unwrap() error { return e.Err }

// Options configure a batch.
type Options struct {
	// Roots are the batch roots (at least one).
	Roots []string
	// OverviewDir is the overview folder; "" means DefaultOverviewName in
	// the first root.
	OverviewDir string
	// Shard is this process's share of the runs; the zero value is all.
	Shard Shard
	// Jobs bounds the runs reported at once; <= 0 means one per CPU.
	Jobs int
	// Key identifies what shapes a report besides its inputs (gpureport's
	// version and options); a change re-reports every run.
	Key string
	// Version is gpureport's version, shown on the overview.
	Version string
	// Now is the overview's generation time (time.Now when nil).
	Now func() time.Time
	// FailOn returns the --fail-on conditions a verdict meets (none when
	// nil).
	FailOn func(analyze.Verdict) []string
	// Report reports one run.
	Report ReportFunc
	// Progress shows the batch's progress (none when nil).
	Progress Progress
	// Log receives the diagnostics (run done at debug level, unreadable
	// parts and failed runs); slog.Default when nil.
	Log *slog.Logger
}

// Result is the outcome of a batch whose overview was written.
type Result struct {
	// Label names the batch: "batch" or "batch shard 2/8".
	Label string
	// Runs is how many runs the shard held; Counts counts them by status
	// (report.StatusReported, ...); Reported is how many have a report,
	// new or unchanged.
	Runs     int
	Counts   map[string]int
	Reported int
	// FailOn lists the runs whose verdict meets a --fail-on condition,
	// each as "path (conditions)"; unchanged runs count from their last
	// report.
	FailOn []string
	// WriteFailed is true when a run's report could not be written.
	WriteFailed bool
	// OverviewDir is the overview folder.
	OverviewDir string
	// Elapsed is the batch's wall time.
	Elapsed time.Duration
}

// result is the outcome of one run of a batch.
type result struct {
	run     RunDir
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

// Run reports every run directory found under the roots (see rundirs.go
// for the rule), in parallel (Jobs runs at once), skipping runs whose
// inputs did not change since their last report, and writes the overview
// page. With a Shard it handles only its share of the runs and writes its
// part of the overview (see overviewparts.go).
//
// Errors: the context's error when interrupted while reporting; an
// *OverviewError when the overview could not be written; otherwise an
// error naming the roots when they cannot be read or hold no run.
func Run(ctx context.Context, opt Options) (*Result, error) {
	if opt.Shard.Count == 0 {
		opt.Shard = Shard{0, 1}
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	sh, log := opt.Shard, opt.Log
	overviewDir := opt.OverviewDir
	if overviewDir == "" {
		overviewDir = filepath.Join(opt.Roots[0], DefaultOverviewName)
	}
	start := time.Now()
	all, err := FindRunDirs(opt.Roots, []string{overviewDir})
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		// Nothing to report: write nothing, not even an empty overview.
		return nil, fmt.Errorf("no run directories under %s (a run is a folder directly under the root that holds snapshots or GPU logs, or a folder marked with an empty %s file)",
			strings.Join(opt.Roots, ", "), RunMarker)
	}
	var runs []RunDir
	for _, r := range all {
		if sh.Has(r.Rel) {
			runs = append(runs, r)
		}
	}
	parts, warns := readParts(overviewDir)
	for _, w := range warns {
		log.Warn("overview part unreadable, ignored", "part", w)
	}
	known := knownFingerprints(parts, start)

	res := &Result{Label: label(sh), Counts: map[string]int{}, OverviewDir: overviewDir}
	if opt.Progress != nil {
		opt.Progress.Start(res.Label)
	}
	results := reportRuns(ctx, runs, opt)
	if opt.Progress != nil {
		opt.Progress.Finish()
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	part := &overviewPart{Schema: partSchema, Shard: sh, Started: start.UTC(), Updated: time.Now().UTC()}
	for _, r := range opt.Roots {
		part.Roots = append(part.Roots, absOr(r))
	}
	seen := map[string]bool{}
	for k := range known {
		seen[k] = true
	}
	for _, r := range results {
		log.Debug("run done", "run", r.run.Path, "status", r.status, "elapsed", r.elapsed.Round(time.Millisecond))
		res.Counts[r.status]++
		row := overviewRow(r, overviewDir)
		for i := range row.Suspects {
			fp := row.Suspects[i].Fingerprint
			row.Suspects[i].New = fp != "" && !known[fp]
			if fp != "" {
				seen[fp] = true
			}
		}
		row.Shard = sh.String()
		part.Runs = append(part.Runs, row)
		if r.summary != nil {
			res.Reported++
		}
		if len(r.failOn) > 0 {
			res.FailOn = append(res.FailOn, fmt.Sprintf("%s (%s)", r.run.Path, strings.Join(r.failOn, ", ")))
		}
		res.WriteFailed = res.WriteFailed || r.writeFailed
	}
	part.KnownBefore = sortedKeys(known)
	part.KnownAfter = sortedKeys(seen)

	if err := writeOverview(ctx, overviewDir, part, opt); err != nil {
		return nil, err
	}
	res.Runs = len(results)
	res.Elapsed = time.Since(start)
	return res, nil
}

// reportRuns reports the runs, opt.Jobs at once (default: one per CPU),
// and returns their results in the runs' order.
func reportRuns(ctx context.Context, runs []RunDir, opt Options) []result {
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = max(1, min(jobs, len(runs)))
	results := make([]result, len(runs))
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
			results[i] = reportOneRun(ctx, runs[i], jobs, opt)
			mu.Lock()
			done++
			if opt.Progress != nil {
				opt.Progress.Step(done, len(runs), runs[i].Path, batchLine(results[i]))
			}
			mu.Unlock()
			return nil
		})
	}
	g.Wait()
	return results
}

// reportOneRun reports one run of a batch under its lock, or finds it
// unchanged since its last report; inFlight runs are reported at once.
func reportOneRun(ctx context.Context, run RunDir, inFlight int, opt Options) (res result) {
	t0 := time.Now()
	outDir := filepath.Join(run.Path, ingest.OutputDirName)
	res = result{run: run, outDir: outDir}
	defer func() { res.elapsed = time.Since(t0) }()
	release, err := Lock(outDir)
	if err != nil {
		res.status, res.err = report.StatusLocked, err
		if !errors.Is(err, ErrLocked) {
			res.status, res.writeFailed = report.StatusFailed, true
		}
		return res
	}
	defer release()
	cur, scanErr := scanManifest(run.Path, outDir, opt.Key)
	if scanErr == nil && reportComplete(outDir) && cur.equal(readManifest(outDir)) {
		if s, err := report.ReadSummary(filepath.Join(outDir, report.SummaryFile)); err == nil {
			res.status, res.summary = report.StatusUnchanged, s
			res.failOn = failOn(opt, s.Verdict.Flagged())
			return res
		}
	}
	runLog := opt.Log.With("run", run.Path)
	verdict, err := opt.Report(ctx, Job{Run: run, OutDir: outDir, InFlight: inFlight, Log: runLog})
	var re *RunError
	switch {
	case errors.Is(err, context.Canceled):
		res.status, res.err = report.StatusFailed, err
		return res
	case errors.As(err, &re) && re.NothingUsable:
		res.status, res.err = report.StatusNothing, err
		return res
	case err != nil:
		res.status, res.err = report.StatusFailed, err
		res.writeFailed = re != nil && re.WriteFailed
		runLog.Error("report failed", "err", err)
		return res
	}
	res.status = report.StatusReported
	res.failOn = failOn(opt, verdict)
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

// failOn returns the --fail-on conditions verdict v meets.
func failOn(opt Options, v analyze.Verdict) []string {
	if opt.FailOn == nil {
		return nil
	}
	return opt.FailOn(v)
}

// overviewRow makes the run's overview line, linking its report relative
// to the overview folder.
func overviewRow(res result, overviewDir string) report.OverviewRun {
	var row report.OverviewRun
	if res.summary != nil {
		row = report.OverviewRunFromSummary(res.summary)
	} else {
		row = report.OverviewRun{}
		row.Slope = math.NaN()
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
func writeOverview(ctx context.Context, dir string, part *overviewPart, opt Options) error {
	deadline := time.Now().Add(overviewLockWait)
	var release func()
	for {
		var err error
		release, err = Lock(dir)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrLocked) || time.Now().After(deadline) {
			return &OverviewError{"overview", err}
		}
		select {
		case <-ctx.Done():
			return &OverviewError{"overview", ctx.Err()}
		case <-time.After(500 * time.Millisecond):
		}
	}
	defer release()
	if err := writePart(dir, part); err != nil {
		return &OverviewError{"overview part", err}
	}
	parts, warns := readParts(dir)
	for _, w := range warns {
		opt.Log.Warn("overview part unreadable, ignored", "part", w)
	}
	page, err := report.OverviewHTML(mergeParts(parts, part.Shard.Count, opt.Now(), opt.Version))
	if err == nil {
		err = report.WriteFileAtomic(filepath.Join(dir, report.HTMLFile), page, 0o644)
	}
	if err != nil {
		return &OverviewError{"overview", err}
	}
	return nil
}

// batchLine is the cron-log line of a finished run; "" for unchanged runs,
// which are only counted.
func batchLine(r result) string {
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

// absOr returns p made absolute, or p when that fails.
func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// label names the batch in progress lines: "batch", or "batch shard 2/8"
// when the runs are split.
func label(sh Shard) string {
	if sh.Count <= 1 {
		return "batch"
	}
	return "batch shard " + sh.String()
}
