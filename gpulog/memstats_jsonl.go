package gpulog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"gpureport/input"
)

// JSON lines of torch.cuda.memory_stats(): one object per line, written by
// a training loop such as
//
//	f.write(json.dumps({"step": step, "time": time.time(), **torch.cuda.memory_stats()}) + "\n")
//
// The statistics are read from the object itself or from a nested
// "memory_stats" (or "stats") object, in PyTorch's flat form
// ("allocated_bytes.all.current") or its nested form
// (memory_stats_as_nested_dict: {"allocated_bytes": {"all": {"current":
// ...}}}). Short keys are accepted too: allocated, reserved, active,
// inactive_split (also with a _bytes suffix or a memory_ prefix, as
// torch.cuda.memory_allocated() users name them), and with a unit suffix
// _kb/_kib, _mb/_mib, _gb/_gib, all read as binary units.
//
// The step is "step", "global_step", "iteration", "iter" or "it"; the time
// is "time", "timestamp", "ts", "wall_time" or "walltime": Unix seconds
// (milliseconds or microseconds when the number is that large) or an ISO
// 8601 string (zoneless strings are read in the --tz zone). "device"
// (0, "cuda:0", or another type's "xpu:0") and "rank" are read when
// present. A line that is not a JSON object, or has no memory statistic,
// is skipped with the reason.

// memoryStatsKeys maps PyTorch's flat memory_stats() keys to the fields
// they fill.
var memoryStatsKeys = []struct {
	flat  string
	short string
	field func(*MemoryStatsSample) *int64
}{
	{"allocated_bytes.all.current", "allocated", func(s *MemoryStatsSample) *int64 { return &s.Allocated }},
	{"reserved_bytes.all.current", "reserved", func(s *MemoryStatsSample) *int64 { return &s.Reserved }},
	{"active_bytes.all.current", "active", func(s *MemoryStatsSample) *int64 { return &s.Active }},
	{"inactive_split_bytes.all.current", "inactive_split", func(s *MemoryStatsSample) *int64 { return &s.InactiveSplit }},
	{"num_alloc_retries", "", func(s *MemoryStatsSample) *int64 { return &s.NumAllocRetries }},
	{"num_ooms", "", func(s *MemoryStatsSample) *int64 { return &s.NumOOMs }},
}

var (
	stepKeys = []string{"step", "global_step", "iteration", "iter", "it"}
	timeKeys = []string{"time", "timestamp", "ts", "wall_time", "walltime"}
)

// sniffMemoryStats reports whether a first line is a memory_stats JSON
// line: a JSON object with PyTorch's keys, or with short memory keys and a
// step or time.
func sniffMemoryStats(line string) bool {
	var obj map[string]any
	d := json.NewDecoder(strings.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&obj); err != nil {
		// A line longer than the sniffed head: look for PyTorch's keys.
		return strings.Contains(line, `"allocated_bytes.all.current"`) || strings.Contains(line, `"reserved_bytes.all.current"`)
	}
	s, full, short := memoryStatsFrom(obj)
	if full > 0 {
		return true
	}
	return short > 0 && (s.Step != input.NoStep || hasAny(obj, timeKeys))
}

// errJSONValues is jsonObjectLine's error for a line holding a JSON
// value and more after it.
var errJSONValues = errors.New("more than one JSON value on the line")

// jsonObjectLine decodes a line of a JSON-lines log (memory_stats lines,
// W&B's events): one JSON object, its numbers kept as json.Number. The
// error says why the line is not one: the decoder's, "not an object"
// (null), or errJSONValues.
func jsonObjectLine(s string) (map[string]any, error) {
	var obj map[string]any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, errors.New("not an object")
	}
	if d.More() {
		return nil, errJSONValues
	}
	return obj, nil
}

func hasAny(obj map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

func readMemoryStats(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	devs := map[int]bool{}
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		obj, err := jsonObjectLine(s)
		switch {
		case errors.Is(err, errJSONValues):
			b.skip(n, "not a JSON object", err.Error())
			continue
		case err != nil:
			b.skipRow(n, "not a JSON object", err.Error())
			continue
		}
		smp, full, short := memoryStatsFrom(obj)
		if full+short == 0 {
			b.skip(n, "JSON object without memory_stats keys", "none of allocated_bytes.all.current, reserved_bytes.all.current, allocated, reserved, ...")
			continue
		}
		if v, ok := firstKey(obj, timeKeys); ok {
			t, err := b.statsTime(v)
			if err != nil {
				b.skip(n, "unreadable time", err.Error())
				continue
			}
			smp.Time = t
		}
		smp.Time = b.lineTime(smp.Time, n)
		devs[smp.Device] = true
		if _, seen := b.byIndex[smp.Device]; !seen {
			b.device(GPU{Index: smp.Device})
		}
		b.log.MemoryStats = append(b.log.MemoryStats, smp)
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}

// memoryStatsFrom reads one object; full counts PyTorch's own keys
// found, short the short spellings.
func memoryStatsFrom(obj map[string]any) (s MemoryStatsSample, full, short int) {
	s = MemoryStatsSample{Step: input.NoStep, Rank: input.NoRank, Allocated: Unknown, Reserved: Unknown, Active: Unknown,
		InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown}
	stats := obj
	for _, k := range []string{"memory_stats", "stats", "cuda_memory_stats"} {
		if m, ok := obj[k].(map[string]any); ok {
			stats = m
			break
		}
	}
	for _, k := range memoryStatsKeys {
		if v, ok := statValue(stats, k.flat); ok {
			*k.field(&s) = v
			full++
			continue
		}
		if k.short == "" {
			continue
		}
		if v, ok := shortValue(stats, k.short); ok {
			*k.field(&s) = v
			short++
		}
	}
	if v, ok := firstKey(obj, stepKeys); ok {
		if n, ok := jsonInt(v); ok && n >= 0 {
			s.Step = n
		}
	}
	if v, ok := obj["device"]; ok {
		if n, ok := jsonInt(v); ok && n >= 0 && n < 1<<16 {
			s.Device = int(n)
		} else if str, ok := v.(string); ok {
			typ, d, ok := strings.Cut(str, ":")
			if ok {
				if n, ok := atoi(d); ok && n < 1<<16 {
					s.Device = n
				}
			}
			s.Type = memStatsDeviceType(typ)
		}
	}
	if v, ok := obj["rank"]; ok {
		if n, ok := jsonInt(v); ok && n >= 0 && n < 1<<20 {
			s.Rank = int(n)
		}
	}
	for _, k := range []string{"uuid", "device_uuid", "gpu_uuid"} {
		if str, ok := obj[k].(string); ok && str != "" {
			s.UUID = strings.TrimSpace(str)
			break
		}
	}
	if v, ok := obj["pid"]; ok {
		if n, ok := jsonInt(v); ok && n > 0 && n < 1<<31 {
			s.PID = int(n)
		}
	}
	return s, full, short
}

// memStatsDeviceType is the device type of a memory_stats line's "device"
// string before its index ("xpu" of "xpu:0", or a bare "xpu"): the
// accelerators PyTorch names so (Intel's XPU and Ascend's NPU, whose
// torch.xpu and torch_npu memory_stats() give CUDA's keys; Apple's MPS,
// Cambricon's MLU, Moore Threads' MUSA, Habana's HPU); "" (CUDA) for
// "cuda" and for anything else, which names no device type gpureport
// knows.
func memStatsDeviceType(s string) string {
	switch s = strings.ToLower(strings.TrimSpace(s)); s {
	case "xpu", "npu", "mps", "mlu", "musa", "hpu":
		return s
	}
	return ""
}

// statValue finds a flat key ("allocated_bytes.all.current") in its flat
// or nested form.
func statValue(stats map[string]any, key string) (int64, bool) {
	if v, ok := stats[key]; ok {
		return jsonBytes(v, 1)
	}
	var cur any = stats
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return 0, false
		}
		if cur, ok = m[part]; !ok {
			return 0, false
		}
	}
	return jsonBytes(cur, 1)
}

// shortValue finds a short key in its spellings: allocated,
// allocated_bytes, memory_allocated, allocated_mb, ...
func shortValue(stats map[string]any, name string) (int64, bool) {
	for _, pre := range []string{"", "memory_"} {
		for _, suf := range []struct {
			s    string
			unit int64
		}{{"", 1}, {"_bytes", 1}, {"_kb", 1 << 10}, {"_kib", 1 << 10}, {"_mb", mib}, {"_mib", mib}, {"_gb", 1 << 30}, {"_gib", 1 << 30}} {
			if v, ok := stats[pre+name+suf.s]; ok {
				return jsonBytes(v, suf.unit)
			}
		}
	}
	return 0, false
}

func firstKey(obj map[string]any, keys []string) (any, bool) {
	for _, k := range keys {
		if v, ok := obj[k]; ok && v != nil {
			return v, true
		}
	}
	return nil, false
}

// jsonBytes converts a JSON number of units to bytes.
func jsonBytes(v any, unit int64) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		if i < 0 || i > maxMiB*mib/unit {
			return 0, false
		}
		return i * unit, true
	}
	f, err := n.Float64()
	if err != nil || math.IsNaN(f) || f < 0 || f*float64(unit) > float64(maxMiB)*mib {
		return 0, false
	}
	return int64(f * float64(unit)), true
}

func jsonInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// statsTime reads a time field: Unix seconds (or ms, µs) or a string.
func (b *logBuilder) statsTime(v any) (time.Time, error) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil || math.IsNaN(f) || f <= 0 {
			return time.Time{}, fmt.Errorf("time %q is not a Unix time", clip(string(x)))
		}
		switch {
		case f > 1e17:
			f /= 1e9
		case f > 1e14:
			f /= 1e6
		case f > 1e11:
			f /= 1e3
		}
		if f > 1e11 {
			return time.Time{}, fmt.Errorf("time %q is not a Unix time", clip(string(x)))
		}
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
	case string:
		t, ok := b.time(x)
		if !ok {
			return time.Time{}, fmt.Errorf("time %q is not a time", clip(x))
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("time field is neither a number nor a string")
}
