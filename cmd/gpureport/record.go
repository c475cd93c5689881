package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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

// deviceInfo identifies one GPU for the whole recording.
type deviceInfo struct {
	// Index is the NVML (and nvidia-smi) device index.
	Index int
	// Name, UUID and BusID are as nvidia-smi prints them.
	Name, UUID, BusID string
}

// deviceReading is one sample of one GPU. Byte fields are bytes, -1 when
// NVML does not report them; percentages and PowerW (watts) are NaN then.
type deviceReading struct {
	Total, Used, Free, Reserved int64
	UtilGPU, UtilMem            float64
	PowerW                      float64
}

// procReading is one compute process on one GPU; Used is bytes, -1 when
// not reported (Windows WDDM).
type procReading struct {
	PID  int
	Name string
	Used int64
}

// gpuSource is what the recorder samples: NVML (record_nvml.go), or a fake
// in tests.
type gpuSource interface {
	// Driver is the driver version, "" when unknown.
	Driver() string
	// Devices lists the GPUs.
	Devices() ([]deviceInfo, error)
	// Read samples one GPU's memory, utilization and power.
	Read(index int) (deviceReading, error)
	// Processes lists the compute processes on one GPU.
	Processes(index int) ([]procReading, error)
	// Close releases the source.
	Close() error
}

// unavailableError means NVML cannot be used here: no driver, or a build
// without NVML. Its message is the one line record prints.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }

// recordOptions are the recorder's settings.
type recordOptions struct {
	// dir receives the files.
	dir string
	// interval is the time between samples; duration, when positive, stops
	// the recording after that long.
	interval, duration time.Duration
	// gpus selects device indexes; nil records every GPU.
	gpus []int
	// host names the machine in the file names and the first line.
	host string
	// now and sleep are the clock: time.Now and a context-aware sleep in
	// production, a fake clock in tests. sleep returns early with the
	// context's error when it is cancelled.
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
	// log receives warnings (a GPU that cannot be read).
	log *slog.Logger
}

// recordResult says what a recording wrote.
type recordResult struct {
	gpuPath, appsPath string
	samples           int
}

// errSelection marks a --gpus selection that names no GPU of this machine.
var errSelection = errors.New("GPU selection")

func runRecord(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gpureport record", flag.ContinueOnError)
	var (
		opt  recordOptions
		gpus string
	)
	fs.StringVar(&opt.dir, "o", "", "write the recordings into `DIR` (created if missing; usually the run directory)")
	fs.DurationVar(&opt.interval, "interval", time.Second, "time between samples, e.g. 500ms, 1s, 1m")
	fs.DurationVar(&opt.duration, "duration", 0, "stop after this long, e.g. 2h (default: until Ctrl-C or SIGTERM)")
	fs.StringVar(&gpus, "gpus", "", "comma-separated GPU `INDEXES` to record (default: all)")
	pos, code, ok := parseArgs(fs, args, recordUsage, stdout, stderr)
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		return usageError(stderr, "record: unexpected argument %q", pos[0])
	case opt.dir == "":
		return usageError(stderr, "record: -o DIR is required")
	case opt.interval < 10*time.Millisecond:
		return usageError(stderr, "record: --interval %v is too short (at least 10ms)", opt.interval)
	case opt.duration < 0:
		return usageError(stderr, "record: --duration %v is negative", opt.duration)
	}
	var err error
	if opt.gpus, err = parseGPUList(gpus); err != nil {
		return usageError(stderr, "record: --gpus: %v", err)
	}
	src, err := openNVML()
	if err != nil {
		fmt.Fprintf(stderr, "gpureport record: %v\n", err)
		return exitUnavailable
	}
	defer src.Close()
	opt.host = hostName()
	opt.now = time.Now
	opt.sleep = sleepCtx
	opt.log = newLogger(stderr, slog.LevelWarn)
	res, err := record(ctx, src, opt, stderr)
	switch {
	case errors.Is(err, errSelection):
		return usageError(stderr, "record: --gpus: %v", err)
	case err != nil:
		fmt.Fprintf(stderr, "gpureport record: %v\n", err)
		return exitWriteFailed
	}
	fmt.Fprintf(stderr, "gpureport record: %d samples written\n", res.samples)
	fmt.Fprintln(stdout, res.gpuPath)
	fmt.Fprintln(stdout, res.appsPath)
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

// hostName is the machine's name, reduced to characters safe in a file
// name.
func hostName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' {
			return r
		}
		return '_'
	}, h)
}

// sleepCtx waits d, or until ctx is cancelled (returning its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// recordTimeLayout is the recorder's timestamp: ISO 8601 with
// milliseconds and the zone offset, so that the times are absolute.
const recordTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Header lines of the two files. The GPU file is nvidia-smi --query-gpu
// CSV; the process file is --query-compute-apps CSV plus an "index"
// column (an extension that gpureport's reader understands) so that each
// process maps to its GPU without a join.
const (
	recordGPUHeader  = "timestamp, index, name, uuid, pci.bus_id, memory.total [MiB], memory.used [MiB], memory.free [MiB], memory.reserved [MiB], utilization.gpu [%], utilization.memory [%], power.draw [W]\n"
	recordAppsHeader = "timestamp, index, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]\n"
)

// record samples src into two new files in opt.dir until ctx is cancelled
// or opt.duration has passed. Each sample is written with one write per
// file, so the files are valid up to the last complete sample at any time.
func record(ctx context.Context, src gpuSource, opt recordOptions, stderr io.Writer) (recordResult, error) {
	var res recordResult
	all, err := src.Devices()
	if err != nil {
		return res, fmt.Errorf("list GPUs: %w", err)
	}
	devs, err := selectDevices(all, opt.gpus)
	if err != nil {
		return res, err
	}
	if err := os.MkdirAll(opt.dir, 0o755); err != nil {
		return res, err
	}
	start := opt.now()
	base := filepath.Join(opt.dir, fmt.Sprintf("gpureport-nvml-%s-%s", opt.host, start.Format("20060102-150405")))
	res.gpuPath, res.appsPath = base+".csv", base+"-apps.csv"
	magic := fmt.Sprintf("# gpureport record %s host=%s start=%s interval=%s driver=%s\n",
		version, opt.host, start.Format(recordTimeLayout), opt.interval, cleanField(src.Driver()))
	gf, err := createLog(res.gpuPath, magic+recordGPUHeader)
	if err != nil {
		return res, err
	}
	defer gf.Close()
	af, err := createLog(res.appsPath, magic+recordAppsHeader)
	if err != nil {
		return res, err
	}
	defer af.Close()
	var idx []string
	for _, d := range devs {
		idx = append(idx, strconv.Itoa(d.Index))
	}
	msg := "until Ctrl-C"
	if opt.duration > 0 {
		msg = "for " + opt.duration.String()
	}
	fmt.Fprintf(stderr, "gpureport record: GPUs %s every %s %s into %s\n", strings.Join(idx, ","), opt.interval, msg, res.gpuPath)

	failed := map[int]bool{}
	var gbuf, abuf bytes.Buffer
	next := start
	for {
		t := opt.now()
		gbuf.Reset()
		abuf.Reset()
		stamp := t.Format(recordTimeLayout)
		for _, d := range devs {
			r, err := src.Read(d.Index)
			if err != nil {
				r = deviceReading{Total: -1, Used: -1, Free: -1, Reserved: -1, UtilGPU: math.NaN(), UtilMem: math.NaN(), PowerW: math.NaN()}
				if !failed[d.Index] {
					opt.log.Warn("cannot read GPU; writing [N/A] until it answers", "gpu", d.Index, "err", err)
					failed[d.Index] = true
				}
			} else {
				failed[d.Index] = false
			}
			fmt.Fprintf(&gbuf, "%s, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s\n", stamp, d.Index, cleanField(d.Name), cleanField(d.UUID), cleanField(d.BusID),
				mibField(r.Total), mibField(r.Used), mibField(r.Free), mibField(r.Reserved),
				numField(r.UtilGPU, "%.0f %%"), numField(r.UtilMem, "%.0f %%"), numField(r.PowerW, "%.2f W"))
			procs, err := src.Processes(d.Index)
			if err != nil {
				continue
			}
			for _, p := range procs {
				fmt.Fprintf(&abuf, "%s, %d, %s, %s, %d, %s, %s\n", stamp, d.Index, cleanField(d.UUID), cleanField(d.BusID), p.PID,
					strings.NewReplacer("\n", " ", "\r", " ").Replace(p.Name), mibField(p.Used))
			}
		}
		if _, err := gf.Write(gbuf.Bytes()); err != nil {
			return res, fmt.Errorf("write %s: %w", res.gpuPath, err)
		}
		if abuf.Len() > 0 {
			if _, err := af.Write(abuf.Bytes()); err != nil {
				return res, fmt.Errorf("write %s: %w", res.appsPath, err)
			}
		}
		res.samples++
		// Samples stay on the grid start + k*interval; slots missed while
		// sampling took too long are skipped, not caught up.
		now := opt.now()
		next = next.Add(opt.interval)
		for !next.After(now) {
			next = next.Add(opt.interval)
		}
		if opt.duration > 0 && !next.Before(start.Add(opt.duration)) {
			break
		}
		if opt.sleep(ctx, next.Sub(now)) != nil {
			break
		}
	}
	if err := gf.Close(); err != nil {
		return res, fmt.Errorf("close %s: %w", res.gpuPath, err)
	}
	if err := af.Close(); err != nil {
		return res, fmt.Errorf("close %s: %w", res.appsPath, err)
	}
	return res, nil
}

// selectDevices picks the devices of the --gpus list, in its order.
func selectDevices(all []deviceInfo, want []int) ([]deviceInfo, error) {
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: NVML lists no GPU", errSelection)
	}
	if want == nil {
		return all, nil
	}
	var out []deviceInfo
	for _, w := range want {
		found := false
		for _, d := range all {
			if d.Index == w {
				out = append(out, d)
				found = true
				break
			}
		}
		if !found {
			var have []string
			for _, d := range all {
				have = append(have, strconv.Itoa(d.Index))
			}
			return nil, fmt.Errorf("%w: no GPU %d on this machine (it has %s)", errSelection, w, strings.Join(have, ", "))
		}
	}
	return out, nil
}

// createLog creates a new recording file (never overwriting one) with its
// first lines.
func createLog(path, head string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString(head); err != nil {
		f.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return f, nil
}

// cleanField keeps a text value on its line and in its column.
func cleanField(s string) string {
	if s == "" {
		return "[N/A]"
	}
	return strings.NewReplacer(",", " ", "\n", " ", "\r", " ").Replace(s)
}

// mibField formats bytes as nvidia-smi does: whole MiB, "[N/A]" when
// unknown.
func mibField(b int64) string {
	if b < 0 {
		return "[N/A]"
	}
	return strconv.FormatInt(b>>20, 10) + " MiB"
}

func numField(v float64, format string) string {
	if math.IsNaN(v) {
		return "[N/A]"
	}
	return fmt.Sprintf(format, v)
}
