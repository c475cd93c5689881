package gpulog

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// FormatWandbEvents is the system-metrics file of a local Weights &
// Biases run folder, wandb/run-*/files/wandb-events.jsonl (wandb_events.go).
const FormatWandbEvents LogFormat = "wandb-events"

// W&B's SDK before 0.17 wrote the system metrics it samples (every 15 s
// by default) to wandb-events.jsonl, one JSON object a line:
//
//	{"system.gpu.0.memoryAllocated": 45.1, "system.gpu.0.memoryAllocatedBytes": 38740605009, "system.gpu.0.gpu": 98.0,
//	 "system.gpu.process.0.memoryAllocated": 45.1, "system.cpu": 8.1, "_wandb": true, "_timestamp": 1709892001.5, "_runtime": 30.2}
//
// The keys are the system metrics W&B documents (gpu.{i}.memoryAllocated:
// the GPU's used memory as a percent of its total; gpu.{i}.memoryAllocatedBytes:
// the same in bytes; gpu.{i}.gpu: utilization; gpu.{i}.powerWatts), read
// from NVML: nvidia-smi's used memory, so each line gives GPU readings
// (GPUSample), not allocator readings. The file's meaning is the CSV
// export's (wandbLayout): bytes are the used memory; a percent beside
// them gives the total (used / share, exact to the percent's rounding,
// with a note); a percent alone is kept as a share of the total, which
// ResolveShares turns into bytes where --capacity or another log gives the
// GPU's total. gpu.process.{i}.* repeat the metrics of the GPUs the
// process used, and gpu.{i}.memory is memory-bandwidth utilization: both
// are passed over. The time is _timestamp (Unix seconds), else _runtime
// (seconds since the run started, anchored at the file's modification
// time). Lines without GPU memory metrics are skipped and counted.

// sniffWandbEvents reports whether a first line is a W&B system-metrics
// event: a JSON object with system.gpu.N keys and W&B's own _wandb,
// _timestamp or _runtime.
func sniffWandbEvents(first string) bool {
	return strings.HasPrefix(first, "{") && strings.Contains(first, `"system.gpu.`) &&
		(strings.Contains(first, `"_wandb"`) || strings.Contains(first, `"_timestamp"`) || strings.Contains(first, `"_runtime"`))
}

// wandbGPU is one GPU's metrics of one event.
type wandbGPU struct {
	used, pct, util, power float64
	hasUsed, hasPct        bool
}

func readWandbEvents(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	derived := 0
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		obj, err := jsonObjectLine(s)
		if err != nil {
			b.skipRow(n, "not a JSON object", clip(s))
			continue
		}
		gpus := map[int]*wandbGPU{}
		for k, v := range obj {
			idx, field, ok := wandbGPUKey(k)
			num, isNum := v.(json.Number)
			if !ok || !isNum {
				continue
			}
			f, err := num.Float64()
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
				continue
			}
			g := gpus[idx]
			if g == nil {
				g = &wandbGPU{util: math.NaN(), power: math.NaN()}
				gpus[idx] = g
			}
			switch field {
			case "memoryAllocatedBytes":
				if f <= float64(maxMiB)*mib {
					g.used, g.hasUsed = f, true
				}
			case "memoryAllocated":
				if f <= 100 {
					g.pct, g.hasPct = f, true
				}
			case "gpu":
				g.util = f
			case "powerWatts":
				g.power = f
			}
		}
		var at time.Time
		if v, ok := obj["_timestamp"].(json.Number); ok {
			t, elapsed, ok := numericTime(string(v), 1)
			if ok && !elapsed {
				at = t
			}
		}
		if v, ok := obj["_runtime"].(json.Number); ok && at.IsZero() {
			if t, _, ok := numericTime(string(v), 1); ok {
				at = t
				if !b.elapsed {
					b.elapsed, b.elapsedWhere = true, `"_runtime"`
				}
			}
		}
		at = b.lineTime(at, n)
		idxs := make([]int, 0, len(gpus))
		for i, g := range gpus {
			if g.hasUsed || g.hasPct {
				idxs = append(idxs, i)
			}
		}
		if len(idxs) == 0 {
			b.skip(n, "event without GPU memory metrics", "no system.gpu.N.memoryAllocatedBytes or memoryAllocated")
			continue
		}
		slices.Sort(idxs)
		for _, i := range idxs {
			g := gpus[i]
			smp := unknownSample(i, at)
			smp.UtilizationGPU, smp.PowerW = g.util, g.power
			switch {
			case g.hasUsed:
				smp.MemoryUsed = int64(g.used)
				if total, ok := totalFromShare(g.used, g.pct); g.hasPct && ok {
					smp.MemoryTotal = total
					derived++
				}
			default:
				smp.MemoryUsedPercent, smp.HasUsedPercent = g.pct, true
			}
			if why := b.device(GPU{Index: i, MemoryTotal: max(smp.MemoryTotal, 0)}); why != "" {
				b.skip(n, kindOtherGPU, why)
				continue
			}
			b.log.Samples = append(b.log.Samples, smp)
		}
	}
	if derived > 0 {
		b.note(noteTotalFromShare)
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}

// wandbGPUKey reads "system.gpu.N.field" (or "gpu.N.field"): the GPU
// index and the field; false for other keys, gpu.process.N.* among them.
func wandbGPUKey(k string) (int, string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(k, "system."), "gpu.")
	if !ok {
		return 0, "", false
	}
	num, field, ok := strings.Cut(rest, ".")
	n, isNum := atoi(num)
	if !ok || !isNum || n >= maxGPUsPerSample {
		return 0, "", false
	}
	return n, field, true
}
