package main

import (
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"gpureport/internal/record"
)

const recordUsage = `Usage:
  gpureport record -o DIR [--interval 1s] [--duration D] [--gpus 0,1]

Samples GPU memory (total, used, free, reserved), utilization and power
through NVML, and the memory of each compute process, until stopped
(Ctrl-C or SIGTERM) or for the --duration. It writes two files in DIR:

  gpureport-nvml-HOST-START.csv        one row per GPU per sample, in
                                       nvidia-smi --query-gpu CSV format
  gpureport-nvml-HOST-START-apps.csv   one row per process per sample, in
                                       --query-compute-apps CSV format

Both start with a "# gpureport record" line, by which gpureport recognises
them; times are ISO 8601 with the zone offset. Each sample is written and
flushed at once, so a killed recorder leaves valid files up to its last
sample. Run it beside training, then report the run directory as usual.

Exit codes: 0 done (also when stopped by a signal), 1 usage error,
3 the files could not be written, 5 NVML unavailable (no NVIDIA driver,
or a build without cgo).

Flags:
`

func runRecord(inv *invocation) int {
	var (
		opt  record.Options
		gpus string
	)
	inv.fs.StringVar(&opt.Dir, "o", "", "write the recordings into `DIR` (created if missing; usually the run directory)")
	inv.fs.DurationVar(&opt.Interval, "interval", time.Second, "time between samples, e.g. 500ms, 1s, 1m")
	inv.fs.DurationVar(&opt.Duration, "duration", 0, "stop after this long, e.g. 2h (default: until Ctrl-C or SIGTERM)")
	inv.fs.StringVar(&gpus, "gpus", "", "comma-separated GPU `INDEXES` to record (default: all)")
	pos, code, ok := inv.parse()
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		return usageError(inv.stderr, "record: unexpected argument %q", pos[0])
	case opt.Dir == "":
		return usageError(inv.stderr, "record: -o DIR is required")
	case opt.Interval < 10*time.Millisecond:
		return usageError(inv.stderr, "record: --interval %v is too short (at least 10ms)", opt.Interval)
	case opt.Duration < 0:
		return usageError(inv.stderr, "record: --duration %v is negative", opt.Duration)
	}
	var err error
	if opt.GPUs, err = parseGPUList(gpus); err != nil {
		return usageError(inv.stderr, "record: --gpus: %v", err)
	}
	src, err := record.Open()
	if err != nil {
		fmt.Fprintf(inv.stderr, "gpureport record: %v\n", err)
		return exitUnavailable
	}
	defer src.Close()
	opt.Host = record.HostName()
	opt.Version = version
	opt.Now = time.Now
	opt.Sleep = record.Sleep
	opt.Log = newLogger(inv.stderr, slog.LevelWarn)
	res, err := record.Record(inv.ctx, src, opt, inv.stderr)
	switch {
	case errors.Is(err, record.ErrSelection):
		return usageError(inv.stderr, "record: --gpus: %v", err)
	case err != nil:
		fmt.Fprintf(inv.stderr, "gpureport record: %v\n", err)
		return exitWriteFailed
	}
	fmt.Fprintf(inv.stderr, "gpureport record: %d samples written\n", res.Samples)
	fmt.Fprintln(inv.stdout, res.GPUPath)
	fmt.Fprintln(inv.stdout, res.AppsPath)
	return exitOK
}

// parseGPUList parses "0,1,3"; "" selects every GPU (nil).
func parseGPUList(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a GPU index", strings.TrimSpace(f))
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}
