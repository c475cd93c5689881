package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/units"
	"gpureport/report"
	"gpureport/snapshot"
)

// version is printed by --version and in the reports.
const version = "0.1.0"

// buildSideVersion names this build for the analysis's side entries in
// the digest cache (analyze.Options.SideVersion): the VCS revision it was
// built from when its tree was clean, else a release's module version,
// else (a build without VCS stamps: -buildvcs=false, changed sources) the
// executable file itself, by its size and modification time, so that
// every rebuild reads only its own entries; "" (no side entries) when
// none of these is known.
func buildSideVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if v := sideVersionOf(bi); v != "" {
		return v
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return exeSideVersion(st.Size(), st.ModTime())
}

// exeSideVersion names an executable of size bytes modified at mtime.
func exeSideVersion(size int64, mtime time.Time) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d %d", size, mtime.UnixNano()))
	return "exe-" + hex.EncodeToString(h[:8])
}

// sideVersionOf is the VCS revision of a clean tree or the release
// version that bi names, as a side entry kind's characters; "" for
// neither.
func sideVersionOf(bi *debug.BuildInfo) string {
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified {
		return ""
	}
	v := rev
	if v == "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return '-'
	}, v)
}

// reportOptions are the options of one run's report, shared by the single
// run and batch modes.
type reportOptions struct {
	// outDir is where the report goes; "" means <run>/gpureport.
	outDir string
	// capacity is the device memory in bytes when logs do not say (0: unknown).
	capacity int64
	// capacitySource is how the user wrote capacity, for the report.
	capacitySource string
	// location is the zone for zoneless nvidia-smi timestamps.
	location *time.Location
	// suppress is the user suppression file, "" for none; suppressions are
	// its parsed rules.
	suppress     string
	suppressions []analyze.Suppression
	// noBuiltinSuppressions turns off the built-in benign patterns.
	noBuiltinSuppressions bool
	// horizon is --horizon: a leak projected to fill the device within it
	// is critical.
	horizon time.Duration
	// failOn lists the verdict flags that make the exit code exitFailOn.
	failOn []string
	// pprofPath, when set, receives the leak attribution as a pprof profile.
	pprofPath string
	// jobs bounds parallel decoding (and parallel runs in batch mode).
	jobs int
	// memoryBudget bounds decode memory in flight, bytes.
	memoryBudget int64
	// decode are the snapshot decoder's options (--max-decompressed).
	decode snapshot.DecodeOptions
	// quiet silences progress output.
	quiet bool
	// shard is --shard "i/n": in batch mode, report only this share of the
	// runs ("" for all).
	shard string
	// columns names GPU log CSV columns the heuristics cannot read
	// (--gpu-log-columns); nil when not given.
	columns *gpulog.ColumnSpec
	// cache holds the digest cache options (--no-cache, --cache-dir,
	// --cache-size, --no-digest).
	cache cacheOptions
	// sideVersion names this build for the analysis's entries in the
	// digest cache (buildSideVersion).
	sideVersion string
}

// errNothingUsable means the run had no usable input at all.
var errNothingUsable = errors.New("nothing usable")

// runResult is the outcome of reporting one run.
type runResult struct {
	findings *analyze.Findings
	outDir   string
}

// reportRun loads, analyses and writes the report of the run in dir.
func reportRun(ctx context.Context, dir string, opt reportOptions, prog *progress, log *slog.Logger) (*runResult, error) {
	outDir := opt.outDir
	if outDir == "" {
		outDir = filepath.Join(dir, ingest.OutputDirName)
	}
	cache, err := opt.cache.open()
	if err != nil {
		log.Warn("digest cache unavailable; every snapshot is decoded", "err", err)
	}
	prog.start("reading " + dir)
	began := time.Now()
	cached := 0 // snapshots whose digest came from the cache
	run, err := ingest.Load(ctx, dir, ingest.LoadOptions{
		Decode:        opt.decode,
		Location:      opt.location,
		Jobs:          opt.jobs,
		MemoryBudget:  opt.memoryBudget,
		Exclude:       []string{outDir},
		Columns:       opt.columns,
		Digest:        !opt.cache.noDigest,
		Cache:         cache,
		ProgressBytes: func(p ingest.LoadProgress) { cached = p.Cached; prog.updateLoad(p) },
		Fresh:         func(f *ingest.SnapshotFile) { analyze.PrepareNew(f, opt.sideVersion) },
		PointKind:     analyze.PointKind(opt.sideVersion),
	})
	prog.finish()
	if err != nil {
		return nil, err
	}
	// Stage times under -v: where a slow run spent its time, without a
	// profiler (milliseconds, rounded).
	loaded := time.Now()
	// Of those from the cache, how many were read without their segments
	// (their point entries standing for them): a re-run that reads few
	// so is reading most digests whole.
	unread := 0
	for _, f := range run.Snapshots {
		if f.SegmentsUnread() {
			unread++
		}
	}
	log.Debug("inputs read", "dir", dir, "snapshots", len(run.Snapshots), "from_cache", cached, "without_segments", unread,
		"gpu_logs", len(run.Logs), "skipped", len(run.Skipped), "elapsed", loaded.Sub(began).Round(time.Millisecond))
	for _, s := range run.Skipped {
		if s.NoContent {
			// A job's output without GPU content: no failure.
			log.Debug("input holds nothing to read", "file", filepath.Join(dir, filepath.FromSlash(s.Path)), "reason", s.Reason)
			continue
		}
		log.Warn("skipped input", "file", filepath.Join(dir, filepath.FromSlash(s.Path)), "reason", s.Reason)
	}
	for _, l := range run.Logs {
		if l.DriverFailures > 0 {
			log.Warn("GPU log reports a lost GPU or a failed driver", "file", filepath.Join(dir, filepath.FromSlash(l.Path)),
				"lines", l.DriverFailures, "first_line", l.FirstDriverFailure)
		}
	}
	if len(run.Snapshots) == 0 && len(run.Logs) == 0 {
		if len(run.Skipped) == 0 {
			return nil, fmt.Errorf("%w: %s holds no snapshot (pickle, JSON, gzip, torch.save) and no GPU log", errNothingUsable, dir)
		}
		return nil, fmt.Errorf("%w: every input in %s was skipped (%s)", errNothingUsable, dir, skippedSummary(run.Skipped))
	}
	f := analyze.Analyze(run, analyze.Options{
		Capacity:              opt.capacity,
		CapacitySource:        opt.capacitySource,
		Suppressions:          opt.suppressions,
		NoBuiltinSuppressions: opt.noBuiltinSuppressions,
		Horizon:               opt.horizon,
		SideVersion:           opt.sideVersion,
		SidesLater:            true,
	})
	analysed := time.Now()
	log.Debug("analysed", "dir", dir, "elapsed", analysed.Sub(loaded).Round(time.Millisecond))
	// The cache is trimmed to its bound once the analysis has read and
	// made this run's entries (each read or written marks it used), so the
	// least recently used are other runs': trimmed after the load, as it
	// was, it removed this run's side entries before the analysis read
	// them, which made them again and left the cache over its bound. The
	// trim reads nothing the report does: it runs beside the report,
	// after the files' side bundles are written, which the analysis left
	// to run there too.
	var trimmed sync.WaitGroup
	if cache != nil {
		trimmed.Go(func() {
			run.WriteSides()
			if _, err := cache.Evict(); err != nil {
				log.Warn("digest cache not trimmed", "dir", cache.Dir, "err", err)
			}
		})
	}
	err = report.Write(outDir, f, report.Options{GeneratedAt: generatedAt(), Version: version})
	trimmed.Wait()
	if err != nil {
		return nil, &writeError{err}
	}
	log.Debug("report written", "dir", outDir, "elapsed", time.Since(analysed).Round(time.Millisecond))
	return &runResult{findings: f, outDir: outDir}, nil
}

// generatedAt is the report time: now, or SOURCE_DATE_EPOCH (seconds since
// the Unix epoch) when set, the reproducible-builds convention, so that
// reports of the same inputs can be byte-identical.
func generatedAt() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Now()
}

// skippedSummary names the first of the files skipped for a failure and
// of the text logs that held nothing to read (ingest.Skipped.NoContent),
// with their counts, for the "nothing usable" error.
func skippedSummary(skipped []ingest.Skipped) string {
	var failed, nothing []ingest.Skipped
	for _, s := range skipped {
		if s.NoContent {
			nothing = append(nothing, s)
		} else {
			failed = append(failed, s)
		}
	}
	var parts []string
	if len(failed) > 0 {
		more := ""
		if n := len(failed) - 1; n > 0 {
			more = fmt.Sprintf(", and %d more", n)
		}
		parts = append(parts, fmt.Sprintf("%s: %s: %s%s", units.CountOf(len(failed), "file"), failed[0].Path, failed[0].Reason, more))
	}
	if len(nothing) > 0 {
		more := ""
		if n := len(nothing) - 1; n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		parts = append(parts, fmt.Sprintf("%s with nothing gpureport reads: %s%s", units.CountOf(len(nothing), "text log"), nothing[0].Path, more))
	}
	return strings.Join(parts, "; ")
}
