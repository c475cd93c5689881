package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/internal/batch"
	"gpureport/internal/units"
	"gpureport/report"
)

const reportUsage = `Usage:
  gpureport [flags] RUN_DIR            report one training run
  gpureport --batch [flags] ROOT...    report every run under the roots
  gpureport stats [--json] FILE...     memory accounting of snapshot files
  gpureport record -o DIR [flags]      log GPU memory through NVML
  gpureport diff [flags] A B           compare two snapshots or runs
  gpureport eval CORPUS_DIR            score verdicts on a labelled corpus
  gpureport digest [--shard I/N] RUN_DIR...  digest snapshots into the cache

gpureport finds, recursively, PyTorch CUDA memory snapshots (pickle, .pkl,
gzip, bzip2, torch.save, JSON) and GPU logs (nvidia-smi CSV, also re-saved
with ';' separators, dmon, tables (also nvitop -1's), -q text and XML, NVML recordings, pynvml
prints, DCGM, gpustat, AMD rocm-smi --showmeminfo vram and --showmemuse
text, CSV and JSON, memory_stats JSON lines, torch.profiler traces with
profile_memory, W&B wandb-events.jsonl, MLflow gpu_N_memory_usage_megabytes
and _percentage, watch nvidia-smi captured with script or tee; gzip or
bzip2, with or without a log
collector's line prefix) and training logs (OOM messages, vLLM's KV cache
startup failures; Megatron, DeepSpeed, torchtitan and Composer memory
lines; YOLOv5's and Ultralytics' GPU_mem; a script's own prints of
allocated and reserved GPU memory with a step or time; torchtitan's device capacity; Hugging Face Trainer memory metrics,
noted as deltas), also inside Docker json-file logs, Jupyter notebooks'
outputs (.ipynb) and log exports (gcloud logging read --format=json, aws
logs filter-log-events), in RUN_DIR, and writes
RUN_DIR/gpureport/{index.html,report.xlsx,summary.json,summary.md}.
READMEs, notes and Markdown pages are never read as inputs.
Ranks come from folder or file names (rank3, r3, local_rank_3, NeMo's
globalrank-2, torchrun --log_dir's attempt_N/<local rank>/), from line
prefixes ([rank3]:, [default3]:, mpirun's and SageMaker's tags, also behind
kubectl logs --prefix's [pod/NAME/CONTAINER]), or, when
paths give processes no rank of their own (node0/rank0 and node1/rank0),
from the order of their paths, or from the snapshots' traces when names
differ by a host name; steps only from step keywords in file or folder names
(step_100, iter_7, checkpoint-500, torchtitan's memory_snapshot/iteration_N/);
epochs, then steps, order the files; timestamps and bare counters only order
them.

With --batch, a run is a folder directly under a ROOT that holds inputs
anywhere below it, or any folder marked with an empty .gpureport-run file;
its subfolders (snapshots/, logs/, rank folders) belong to it.

Flags:
`

const exitCodesHelp = `
Exit codes:
  0    report written
  1    usage error (bad flag or argument)
  2    nothing usable (empty directory, or every input skipped)
  3    a report could not be written
  4    a --fail-on condition was met
  5    record: NVML unavailable (no NVIDIA driver, or a build without cgo)
  6    another gpureport is writing the same report (lock held)
  130  interrupted

Environment:
  SOURCE_DATE_EPOCH  report time in seconds since 1970 instead of now: two reports
                     of the same run are then byte-identical
  GOGC               garbage collector target (default here 50, not Go's 100)
`

// runReport is the default command: report one run (or many with --batch).
func runReport(inv *invocation) int {
	var (
		opt         reportOptions
		tz          string
		capacity    string
		columns     string
		memory      string
		failOn      string
		batchMode   bool
		showVersion bool
		verbose     bool
	)
	inv.fs.StringVar(&opt.outDir, "o", "", "write the report to `DIR` (default RUN_DIR/gpureport)")
	inv.fs.StringVar(&tz, "tz", "", "time `ZONE` of zoneless nvidia-smi timestamps, e.g. Europe/Berlin or UTC (default: this machine's zone)")
	inv.fs.StringVar(&columns, "gpu-log-columns", "", "read GPU log CSVs whose column names cannot be guessed by these `COLUMNS`: time=COL,used=COL,total=COL[,free=COL][,gpu=COL][,unit=MiB] (header names; the unit is for values without one)")
	inv.fs.StringVar(&capacity, "capacity", "", "device memory `SIZE` with a unit: 80GiB (80×2^30 bytes) or 80GB (80×10^9 bytes); overrides the GPU logs' memory.total")
	inv.fs.DurationVar(&opt.horizon, "horizon", analyze.DefaultHorizon, "a leak projected to fill the device within `DURATION` (or within the run's own length) makes the verdict critical")
	inv.fs.StringVar(&opt.suppress, "suppress", "", "suppression `FILE`: leak fingerprints or site, function and frame patterns to ignore (see the README)")
	inv.fs.BoolVar(&opt.noBuiltinSuppressions, "no-builtin-suppressions", false, "also report benign patterns (optimizer state, cuDNN/cuBLAS workspaces, CUDA-graph pools, allocator warm-up)")
	inv.fs.StringVar(&failOn, "fail-on", "", "exit with code 4 when the verdict has any of these comma-separated `FLAGS`: leak, outside_allocator_leak, oom (any OOM, those the job caught and recovered from included), fragmentation, or any")
	inv.fs.StringVar(&opt.pprofPath, "pprof", "", "also write the leak attribution as a pprof profile to `FILE`")
	inv.fs.IntVar(&opt.jobs, "j", 0, "decode `N` files at once (default: one per CPU); in --batch mode, N runs at once")
	inv.fs.StringVar(&memory, "memory", "2GiB", "bound on decoder memory in flight, `SIZE`")
	dec := addDecodeFlags(inv.fs)
	inv.fs.BoolVar(&batchMode, "batch", false, "treat the arguments as roots holding many runs: a run is a folder directly under a root that holds snapshots or GPU logs anywhere below it, or any folder marked with an empty "+batch.RunMarker+" file; its subfolders (snapshots/, logs/, rank folders) belong to it; -o is then the overview folder (default ROOT/gpureport-overview)")
	inv.fs.StringVar(&opt.shard, "shard", "", "with --batch, report only share `I/N` of the runs (0 <= I < N), split by a hash of each run's path under its root")
	opt.cache.register(inv.fs)
	quietFlag(inv.fs, &opt.quiet)
	inv.fs.BoolVar(&verbose, "v", false, "verbose diagnostics on stderr, among them how long reading the inputs, the analysis and writing the report took")
	inv.fs.BoolVar(&showVersion, "version", false, "print the version and exit")
	positional, code, ok := inv.parse()
	if !ok {
		if code == exitOK {
			fmt.Fprint(inv.stdout, exitCodesHelp)
		}
		return code
	}
	var err error
	if showVersion {
		fmt.Fprintln(inv.stdout, "gpureport", version)
		return exitOK
	}
	if len(positional) == 0 {
		return usageError(inv.stderr, "missing RUN_DIR")
	}
	if opt.location, err = parseZone(tz); err != nil {
		return usageError(inv.stderr, "--tz: %v", err)
	}
	if capacity != "" {
		var desc string
		if opt.capacity, desc, err = units.ParseSizeUnit(capacity); err != nil {
			return usageError(inv.stderr, "--capacity: %v; for example: gpureport --capacity 80GiB RUN_DIR", err)
		}
		opt.capacitySource = "--capacity " + desc
	}
	if columns != "" {
		if opt.columns, err = gpulog.ParseColumnSpec(columns); err != nil {
			return usageError(inv.stderr, "--gpu-log-columns: %v", err)
		}
	}
	if opt.memoryBudget, err = units.ParseSize(memory); err != nil {
		return usageError(inv.stderr, "--memory: %v", err)
	}
	if opt.decode, err = dec.options(); err != nil {
		return usageError(inv.stderr, "%v", err)
	}
	opt.sideVersion = buildSideVersion()
	if err := opt.cache.parse(); err != nil {
		return usageError(inv.stderr, "--cache-size: %v", err)
	}
	if opt.failOn, err = parseFailOn(failOn); err != nil {
		return usageError(inv.stderr, "--fail-on: %v", err)
	}
	if opt.suppress != "" {
		data, err := os.ReadFile(opt.suppress)
		if err != nil {
			return usageError(inv.stderr, "--suppress: %v", err)
		}
		if opt.suppressions, err = analyze.ParseSuppressions(opt.suppress, data); err != nil {
			return usageError(inv.stderr, "--suppress: %v", err)
		}
	}
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelDebug
	}
	log := newLogger(inv.stderr, level)
	if batchMode {
		return runBatch(inv.ctx, positional, opt, inv.stdout, inv.stderr, log)
	}
	if len(positional) > 1 {
		return usageError(inv.stderr, "one RUN_DIR expected, got %d (use --batch for many)", len(positional))
	}
	if msg, code, ok := checkRunDir(positional[0]); !ok {
		fmt.Fprintf(inv.stderr, "gpureport: %s\n", msg)
		return code
	}
	release, code := lockReport(positional[0], opt.outDir, inv.stderr)
	if code != exitOK {
		return code
	}
	defer release()
	res, err := reportRun(inv.ctx, positional[0], opt, newProgress(inv.stderr, opt.quiet), log)
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(inv.stderr, "gpureport: interrupted")
		return exitInterrupted
	case errors.Is(err, errNothingUsable):
		fmt.Fprintf(inv.stderr, "gpureport: %v\n", err)
		return exitNothingUsable
	case isWriteError(err):
		fmt.Fprintf(inv.stderr, "gpureport: %s\n", writeFailure(reportDir(positional[0], opt.outDir), err))
		return exitWriteFailed
	case err != nil:
		fmt.Fprintf(inv.stderr, "gpureport: %v\n", err)
		return exitNothingUsable
	}
	if opt.pprofPath != "" {
		if err := report.WritePprof(opt.pprofPath, res.findings, report.Options{GeneratedAt: generatedAt(), Version: version}); err != nil {
			fmt.Fprintf(inv.stderr, "gpureport: %s\n", writeFailure(opt.pprofPath, err))
			return exitWriteFailed
		}
	}
	if err := report.Text(inv.stdout, res.findings); err != nil {
		return exitWriteFailed
	}
	fmt.Fprintf(inv.stdout, "report: %s\n", res.outDir)
	if failed := failOnMet(res.findings.Verdict, opt.failOn); len(failed) > 0 {
		fmt.Fprintf(inv.stderr, "gpureport: --fail-on met: %s\n", strings.Join(failed, ", "))
		return exitFailOn
	}
	return exitOK
}

// parseZone parses --tz: "" is the local zone; otherwise an IANA name
// (Europe/Berlin), "UTC", "Local", or a fixed offset such as +02:00 or
// UTC-5.
func parseZone(s string) (*time.Location, error) {
	switch strings.ToLower(s) {
	case "":
		return time.Local, nil
	case "local":
		return time.Local, nil
	case "utc", "z", "gmt":
		return time.UTC, nil
	}
	off := strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(s), "UTC"), "GMT")
	if off != "" && (off[0] == '+' || off[0] == '-') {
		sign := 1
		if off[0] == '-' {
			sign = -1
		}
		var h, m int
		if _, err := fmt.Sscanf(strings.ReplaceAll(off[1:], ":", " "), "%d %d", &h, &m); err != nil {
			if _, err := fmt.Sscanf(off[1:], "%d", &h); err != nil {
				return nil, fmt.Errorf("invalid offset %q", s)
			}
		}
		if h > 14 || m > 59 {
			return nil, fmt.Errorf("invalid offset %q", s)
		}
		return time.FixedZone(s, sign*(h*3600+m*60)), nil
	}
	loc, err := time.LoadLocation(s)
	if err != nil {
		return nil, fmt.Errorf("unknown zone %q (use an IANA name such as Europe/Berlin, UTC, or an offset such as +02:00)", s)
	}
	return loc, nil
}
