package gpulog

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// FormatMLflowGPU is an MLflow file-store metric file of a GPU's used
// memory, mlruns/EXP/RUN/metrics/system/gpu_N_memory_usage_megabytes or
// gpu_N_memory_usage_percentage (mlflow_metric.go).
const FormatMLflowGPU LogFormat = "mlflow-gpu-memory"

// MLflow's system metrics (mlflow.start_run(log_system_metrics=True))
// are logged as run metrics named system/gpu_{i}_memory_usage_megabytes;
// the file store keeps each metric in a file of that path under the run's
// metrics folder, one "<timestamp ms> <value> <step>" line per value.
// MLflow's GPUMonitor (mlflow/system_metrics/metrics/gpu_monitor.py)
// logs NVML's used memory divided by 1e6: decimal megabytes of the
// device's used memory, an nvidia-smi-like reading of GPU i, read as
// value × 10^6 bytes. The GPU index is the file name's, so the file is
// claimed by its name and path (SniffMLflowGPU) and the name is needed
// to read it (ReadOptions.Name).
//
// Its companion gpu_{i}_memory_usage_percentage is the same used memory
// as a percent of the device, round(used / total * 100, 1), logged with
// the megabytes at the same times (both averaged over the same sampling
// window). It is read as the reading's share of the device
// (MemoryUsedPercent): beside the megabytes file, each share and the
// byte count at the same time give the device's total, which the
// megabytes file lacks (ResolveShares); alone, it is a share-only reading
// of the GPU, bytes only where --capacity or another log gives the total.

var (
	// reMLflowGPUFile matches the metrics' file names: GPU index, unit.
	reMLflowGPUFile = regexp.MustCompile(`^gpu_(\d{1,4})_memory_usage_(megabytes|percentage)$`)
	// reMLflowLine matches one value line.
	reMLflowLine = regexp.MustCompile(`^(\d{10,16}) ([0-9.eE+-]+) (-?\d+)$`)
)

// SniffMLflowGPU reports whether the file at rel (a path with '/' or the
// OS's separators) whose start is head is an MLflow GPU memory metric
// file: named gpu_N_memory_usage_megabytes in a "system" folder, its
// first line "<ms> <value> <step>"; also its
// gpu_N_memory_usage_percentage.
func SniffMLflowGPU(rel string, head []byte) bool {
	rel = strings.ReplaceAll(rel, `\`, "/")
	if !reMLflowGPUFile.MatchString(path.Base(rel)) || path.Base(path.Dir(rel)) != "system" {
		return false
	}
	lines := headLines(head, 1)
	return len(lines) == 1 && reMLflowLine.MatchString(lines[0])
}

func readMLflowGPU(r io.Reader, b *logBuilder) error {
	m := reMLflowGPUFile.FindStringSubmatch(path.Base(strings.ReplaceAll(b.opt.Name, `\`, "/")))
	if m == nil {
		return fmt.Errorf("%s log: the GPU index comes from the file name gpu_N_memory_usage_megabytes (or _percentage), and this file is named %q", FormatMLflowGPU, b.opt.Name)
	}
	gpu, _ := atoi(m[1])
	percent := m[2] == "percentage"
	lr := b.lines(r)
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		f := reMLflowLine.FindStringSubmatch(s)
		if f == nil {
			b.skipRow(n, kindBadRow, fmt.Sprintf("%q is not \"<timestamp ms> <value> <step>\"", clip(s)))
			continue
		}
		t, elapsed, okT := numericTime(f[1], 1e-3)
		v, err := strconv.ParseFloat(f[2], 64)
		if percent {
			if !okT || elapsed || err != nil || !(v >= 0 && v <= 100) {
				b.skipRow(n, kindBadRow, fmt.Sprintf("%q has no Unix time in ms or no percent", clip(s)))
				continue
			}
		} else if !okT || elapsed || err != nil || !(v >= 0) || v*1e6 > float64(maxMiB)*mib {
			b.skipRow(n, kindBadRow, fmt.Sprintf("%q has no Unix time in ms or no megabytes", clip(s)))
			continue
		}
		smp := unknownSample(gpu, t)
		if percent {
			smp.MemoryUsedPercent, smp.HasUsedPercent = v, true
		} else {
			smp.MemoryUsed = int64(v * 1e6)
		}
		b.device(GPU{Index: gpu})
		b.log.Samples = append(b.log.Samples, smp)
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}
