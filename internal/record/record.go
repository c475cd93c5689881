// Package record samples GPU memory through NVML into CSV logs that
// gpureport's GPU-log readers (their nvml format) read back:
// `gpureport record` is its command. NVML is reached through cgo
// (go-nvml, nvml.go); builds without cgo or not for Linux get a Source
// that says so (nvml_stub.go). It knows nothing of reports.
package record

import (
	"bytes"
	"context"
	"errors"
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

// DeviceInfo identifies one GPU for the whole recording.
type DeviceInfo struct {
	// Index is the NVML (and nvidia-smi) device index.
	Index int
	// Name, UUID and BusID are as nvidia-smi prints them.
	Name, UUID, BusID string
}

// DeviceReading is one sample of one GPU. Byte fields are bytes, -1 when
// NVML does not report them; percentages and PowerW (watts) are NaN then.
type DeviceReading struct {
	Total, Used, Free, Reserved int64
	UtilGPU, UtilMem            float64
	PowerW                      float64
}

// ProcReading is one compute process on one GPU; Used is bytes, -1 when
// not reported (Windows WDDM).
type ProcReading struct {
	PID  int
	Name string
	Used int64
}

// Source is what the recorder samples: NVML (nvml.go), or a fake
// in tests.
type Source interface {
	// Driver is the driver version, "" when unknown.
	Driver() string
	// Devices lists the GPUs.
	Devices() ([]DeviceInfo, error)
	// Read samples one GPU's memory, utilization and power.
	Read(index int) (DeviceReading, error)
	// Processes lists the compute processes on one GPU.
	Processes(index int) ([]ProcReading, error)
	// Close releases the source.
	Close() error
}

// UnavailableError means NVML cannot be used here: no driver, or a build
// without NVML. Its message is the one line record prints.
type UnavailableError struct{ Msg string }

func (e *UnavailableError) Error() string { return e.Msg }

// Options are the recorder's settings.
type Options struct {
	// Dir receives the files.
	Dir string
	// Interval is the time between samples; Duration, when positive, stops
	// the recording after that long.
	Interval, Duration time.Duration
	// GPUs selects device indexes; nil records every GPU.
	GPUs []int
	// Host names the machine in the file names and the first line.
	Host string
	// Version is gpureport's version, written in the first line.
	Version string
	// Now and Sleep are the clock: time.Now and Sleep in production, a fake
	// clock in tests. Sleep returns early with the context's error when it
	// is cancelled.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Log receives warnings (a GPU that cannot be read).
	Log *slog.Logger
}

// Result says what a recording wrote.
type Result struct {
	// GPUPath and AppsPath are the two files written.
	GPUPath, AppsPath string
	// Samples is the number of samples written.
	Samples int
}

// ErrSelection marks a --gpus selection that names no GPU of this machine.
var ErrSelection = errors.New("GPU selection")

// HostName is the machine's name, reduced to characters safe in a file
// name.
func HostName() string {
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

// Sleep waits d, or until ctx is cancelled (returning its error).
func Sleep(ctx context.Context, d time.Duration) error {
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

// timeLayout is the recorder's timestamp: ISO 8601 with
// milliseconds and the zone offset, so that the times are absolute.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// Header lines of the two files. The GPU file is nvidia-smi --query-gpu
// CSV; the process file is --query-compute-apps CSV plus an "index"
// column (an extension that gpureport's reader understands) so that each
// process maps to its GPU without a join.
const (
	gpuHeader  = "timestamp, index, name, uuid, pci.bus_id, memory.total [MiB], memory.used [MiB], memory.free [MiB], memory.reserved [MiB], utilization.gpu [%], utilization.memory [%], power.draw [W]\n"
	appsHeader = "timestamp, index, gpu_uuid, gpu_bus_id, pid, process_name, used_gpu_memory [MiB]\n"
)

// Record samples src into two new files in opt.Dir until ctx is cancelled
// or opt.Duration has passed. Each sample is written with one write per
// file, so the files are valid up to the last complete sample at any time.
func Record(ctx context.Context, src Source, opt Options, stderr io.Writer) (Result, error) {
	var res Result
	all, err := src.Devices()
	if err != nil {
		return res, fmt.Errorf("list GPUs: %w", err)
	}
	devs, err := selectDevices(all, opt.GPUs)
	if err != nil {
		return res, err
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return res, err
	}
	start := opt.Now()
	base := filepath.Join(opt.Dir, fmt.Sprintf("gpureport-nvml-%s-%s", opt.Host, start.Format("20060102-150405")))
	res.GPUPath, res.AppsPath = base+".csv", base+"-apps.csv"
	magic := fmt.Sprintf("# gpureport record %s host=%s start=%s interval=%s driver=%s\n",
		opt.Version, opt.Host, start.Format(timeLayout), opt.Interval, cleanField(src.Driver()))
	gf, err := createLog(res.GPUPath, magic+gpuHeader)
	if err != nil {
		return res, err
	}
	defer gf.Close()
	af, err := createLog(res.AppsPath, magic+appsHeader)
	if err != nil {
		return res, err
	}
	defer af.Close()
	var idx []string
	for _, d := range devs {
		idx = append(idx, strconv.Itoa(d.Index))
	}
	msg := "until Ctrl-C"
	if opt.Duration > 0 {
		msg = "for " + opt.Duration.String()
	}
	fmt.Fprintf(stderr, "gpureport record: GPUs %s every %s %s into %s\n", strings.Join(idx, ","), opt.Interval, msg, res.GPUPath)

	failed := map[int]bool{}
	var gbuf, abuf bytes.Buffer
	next := start
	for {
		t := opt.Now()
		gbuf.Reset()
		abuf.Reset()
		stamp := t.Format(timeLayout)
		for _, d := range devs {
			r, err := src.Read(d.Index)
			if err != nil {
				r = DeviceReading{Total: -1, Used: -1, Free: -1, Reserved: -1, UtilGPU: math.NaN(), UtilMem: math.NaN(), PowerW: math.NaN()}
				if !failed[d.Index] {
					opt.Log.Warn("cannot read GPU; writing [N/A] until it answers", "gpu", d.Index, "err", err)
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
			return res, fmt.Errorf("write %s: %w", res.GPUPath, err)
		}
		if abuf.Len() > 0 {
			if _, err := af.Write(abuf.Bytes()); err != nil {
				return res, fmt.Errorf("write %s: %w", res.AppsPath, err)
			}
		}
		res.Samples++
		// Samples stay on the grid start + k*interval; slots missed while
		// sampling took too long are skipped, not caught up.
		now := opt.Now()
		next = next.Add(opt.Interval)
		for !next.After(now) {
			next = next.Add(opt.Interval)
		}
		if opt.Duration > 0 && !next.Before(start.Add(opt.Duration)) {
			break
		}
		if opt.Sleep(ctx, next.Sub(now)) != nil {
			break
		}
	}
	if err := gf.Close(); err != nil {
		return res, fmt.Errorf("close %s: %w", res.GPUPath, err)
	}
	if err := af.Close(); err != nil {
		return res, fmt.Errorf("close %s: %w", res.AppsPath, err)
	}
	return res, nil
}

// selectDevices picks the devices of the --gpus list, in its order.
func selectDevices(all []DeviceInfo, want []int) ([]DeviceInfo, error) {
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: NVML lists no GPU", ErrSelection)
	}
	if want == nil {
		return all, nil
	}
	var out []DeviceInfo
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
			return nil, fmt.Errorf("%w: no GPU %d on this machine (it has %s)", ErrSelection, w, strings.Join(have, ", "))
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
