package gpulog

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"gpureport/input"
)

// CSV logs whose columns are found by the meaning of their names: a
// script's own log (csv-columns), a Weights & Biases system-metrics export
// (wandb-csv) and PyTorch Lightning's CSVLogger metrics.csv with
// DeviceStatsMonitor columns (lightning-csv). The file is read with
// encoding/csv (RFC 4180: quoted fields may hold commas, quotes and line
// breaks); '#' lines are comments. The first record is the header;
// a record equal to it later (a logger that restarted) is passed over.
//
// A column name is cut into lower-case words at every non-letter-digit
// character, at lower-to-upper case changes and between letters and
// digits ("memUsedMB" and "mem_used_mb" both give mem, used, mb; "gpu0"
// gives gpu, 0). Its meaning:
//
//   - memory used, total or free: a memory word (mem, memory, fb, vram,
//     framebuffer) with used/usage, total/capacity or free/available;
//     a GPU memory column with no such word (gpu_mem_mb, vram_gb) is read
//     as used memory, and a note says so;
//   - its unit: a unit word in the name (mb, mib, gb, gib, kb, kib,
//     bytes, b, or %, pct, percent: a share of the total), else the unit
//     the values carry ("442 MiB"), else, for a column whose values are
//     all at most maxMiBGuess, MiB (nvidia-smi's unit), and bytes for
//     larger values; a note names the column and the unit assumed;
//   - the time: timestamp, time, date, datetime, ts, wall_time, epoch
//     (values: dates, or numbers read by numericTime), or elapsed,
//     runtime, uptime, relative_time, t (elapsed seconds); a unit word
//     s, ms, us or ns in the name fixes the unit; a time column whose
//     values are a counter (an ML logger's epoch: decideCounters) is no
//     time;
//   - the step: step, global_step, iteration, iter (GPUSample.Step);
//   - a Prometheus series name (METRIC{label="value",...}, a Grafana
//     panel's export): by its DCGM metric and gpu label (grafana_csv.go);
//   - the GPU: gpu, gpu_id, gpu_index, index, device, device_id, cuda
//     (values 0, 1, ... or "cuda:1"), or a number after gpu/cuda/device
//     inside a memory column's name (gpu0_mem_used: GPU 0);
//   - the GPU's name and UUID; utilization (gpu and util words) and power
//     (power, watts) for the readings' extra fields.
//
// A user's ColumnSpec (--gpu-log-columns) names the columns instead and
// wins over the names' meaning.

// maxMiBGuess is the largest value of a unit-less memory column read as
// MiB: 2^24 MiB is 16 TiB, more than any GPU has, so a larger value can
// only be bytes (and a byte count of a working GPU is far above it).
const maxMiBGuess = 1 << 24

// ColumnSpec names the columns of a GPU log CSV that the heuristics cannot
// find, as --gpu-log-columns gives them: time=COL,used=COL,total=COL,
// free=COL,gpu=COL,unit=MiB. Column names match the header exactly or
// case-insensitively; empty fields are not given.
type ColumnSpec struct {
	// Time, Used, Total, Free and GPU are header names.
	Time, Used, Total, Free, GPU string
	// Unit is the memory unit of values without one (bytes per unit), 0
	// when not given; UnitName is as the user spelled it.
	Unit     int64
	UnitName string
}

// ParseColumnSpec parses "time=COL,used=COL,total=COL[,free=COL][,gpu=COL][,unit=MiB]".
// At least one of used, total or free is required.
func ParseColumnSpec(s string) (*ColumnSpec, error) {
	spec := &ColumnSpec{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if !ok || v == "" {
			return nil, fmt.Errorf("%q: want KEY=VALUE (keys time, used, total, free, gpu, unit)", part)
		}
		switch k {
		case "time":
			spec.Time = v
		case "used":
			spec.Used = v
		case "total":
			spec.Total = v
		case "free":
			spec.Free = v
		case "gpu":
			spec.GPU = v
		case "unit":
			u, ok := byteUnit(v)
			if !ok {
				return nil, fmt.Errorf("unit %q: want B, KiB, MiB, GiB or TiB", v)
			}
			spec.Unit, spec.UnitName = u, v
		default:
			return nil, fmt.Errorf("unknown key %q (keys: time, used, total, free, gpu, unit)", k)
		}
	}
	if spec.Used == "" && spec.Total == "" && spec.Free == "" {
		return nil, errors.New("name at least one memory column: used=COL, total=COL or free=COL")
	}
	return spec, nil
}

// String formats the spec as ParseColumnSpec reads it.
func (c *ColumnSpec) String() string {
	var parts []string
	for _, kv := range [][2]string{{"time", c.Time}, {"used", c.Used}, {"total", c.Total}, {"free", c.Free}, {"gpu", c.GPU}, {"unit", c.UnitName}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(parts, ",")
}

// matches reports whether a header holds every column the spec names.
func (c *ColumnSpec) matches(header []string) bool {
	for _, name := range []string{c.Time, c.Used, c.Total, c.Free, c.GPU} {
		if name != "" && findColumn(header, name) < 0 {
			return false
		}
	}
	return true
}

func findColumn(header []string, name string) int {
	for i, h := range header {
		if strings.TrimSpace(h) == name {
			return i
		}
	}
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), name) {
			return i
		}
	}
	return -1
}

// colKind is what a column holds.
type colKind uint8

const (
	colNone colKind = iota
	colTime
	colGPU
	colName
	colUUID
	colStep
	colUsed
	colTotal
	colFree
	colUtil
	colPower
	// torch.cuda.memory_stats() keys (Lightning's DeviceStatsMonitor).
	colAllocated
	colReserved
	colActive
	colInactive
	colRetries
	colOOMs
)

func (k colKind) memory() bool { return k == colUsed || k == colTotal || k == colFree }

// column is one column's meaning.
type column struct {
	idx  int
	name string
	kind colKind
	// gpu is the GPU the column belongs to (a number in its name), -1
	// when the row's GPU column (or GPU 0) decides.
	gpu int
	// unit is bytes per unit of unit-less values, 0 while undecided;
	// pct marks a share of the total in percent.
	unit int64
	pct  bool
	// timeScale is seconds per unit of a numeric time (0: by
	// magnitude); elapsed marks an elapsed-time column.
	timeScale float64
	elapsed   bool
	// guessedUsed marks a memory column read as used memory because its
	// name says nothing else.
	guessedUsed bool
}

// nameWords cuts a column name into lower-case words (see the comment at
// the top of this file).
func nameWords(name string) []string {
	// Binary units keep their case pattern whole ("MiB" is one word, not
	// "Mi" and "B").
	name = iecUnits.Replace(name)
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '%':
			flush()
			words = append(words, "%")
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		default:
			if len(cur) > 0 {
				prev := cur[len(cur)-1]
				lowerToUpper := unicode.IsLower(prev) && unicode.IsUpper(r)
				acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
				digitChange := unicode.IsDigit(prev) != unicode.IsDigit(r)
				if lowerToUpper || acronymEnd || digitChange {
					flush()
				}
			}
			cur = append(cur, r)
		}
	}
	flush()
	var out []string
	for _, w := range words {
		out = append(out, splitGlued(w)...)
	}
	return out
}

// gluedVocabulary are the words a column name may glue together without a
// separator or case change ("memoryused", "gpumemtotal", "vramfree").
var gluedVocabulary = []string{"memory", "mem", "framebuffer", "vram", "fb", "gpu", "used", "usage", "total", "free", "max",
	"available", "capacity", "util", "mib", "gib", "mb", "gb", "bytes"}

// splitGlued splits a lower-case word into words of gluedVocabulary when
// it is made of them entirely (longest first), else returns it whole.
func splitGlued(w string) []string {
	if slices.Contains(gluedVocabulary, w) || len(w) < 5 {
		return []string{w}
	}
	var parts []string
	rest := w
	for rest != "" {
		found := ""
		for _, v := range gluedVocabulary {
			if strings.HasPrefix(rest, v) && len(v) > len(found) {
				found = v
			}
		}
		if found == "" {
			return []string{w}
		}
		parts = append(parts, found)
		rest = rest[len(found):]
	}
	return parts
}

func hasWord(words []string, set ...string) bool {
	for _, w := range words {
		if slices.Contains(set, w) {
			return true
		}
	}
	return false
}

// iecUnits cuts binary unit spellings out of a name as words of their own.
var iecUnits = strings.NewReplacer("KiB", "_kib_", "MiB", "_mib_", "GiB", "_gib_", "TiB", "_tib_")

var (
	memWords      = []string{"mem", "memory", "fb", "vram", "framebuffer"}
	gpuMemWords   = []string{"fb", "vram", "framebuffer"}
	gpuWords      = []string{"gpu", "cuda", "nvidia", "nvml", "dcgm"}
	usedWords     = []string{"used", "usage", "use", "inuse"}
	totalWords    = []string{"total", "capacity", "cap", "size"}
	freeWords     = []string{"free", "available", "avail"}
	notMemWords   = []string{"util", "utilization", "utilisation", "clock", "clk", "temp", "temperature", "bandwidth", "bw", "bus", "reserved", "allocated", "alloc", "peak", "max", "min", "mean", "avg", "host", "cpu", "ram", "swap", "rss", "process", "proc", "ecc", "errors"}
	timeNames     = []string{"timestamp", "time", "date", "datetime", "ts", "walltime", "wall time", "epoch", "unix time", "unix", "time stamp", "when", "logged at", "created at"}
	elapsedNames  = []string{"elapsed", "elapsed time", "time elapsed", "runtime", "run time", "uptime", "relative time", "t", "time since start", "seconds", "secs", "sec"}
	gpuIndexNames = []string{"gpu", "gpu id", "gpu index", "gpu idx", "index", "device", "device id", "device index", "cuda device", "gpu num", "cuda", "idx"}
	timeUnitWords = map[string]float64{"s": 1, "sec": 1, "secs": 1, "seconds": 1, "ms": 1e-3, "millis": 1e-3, "us": 1e-6, "micros": 1e-6, "ns": 1e-9, "nanos": 1e-9}
)

// memUnit reads a unit word: bytes per unit, or pct for a percentage.
func memUnit(words []string) (unit int64, pct, ok bool) {
	for _, w := range words {
		switch w {
		case "%", "pct", "percent", "perc":
			return 0, true, true
		case "bytes", "byte", "b":
			return 1, false, true
		}
		if u, ok := byteUnit(w); ok && len(w) >= 2 {
			return u, false, true
		}
	}
	return 0, false, false
}

// without returns words minus those in drop.
func without(words []string, drop func(string) bool) []string {
	var out []string
	for _, w := range words {
		if !drop(w) {
			out = append(out, w)
		}
	}
	return out
}

// classifyColumn gives a column its meaning from its name alone.
func classifyColumn(i int, name string) column {
	if c, ok := promColumn(i, name); ok {
		// A Prometheus series name (a Grafana panel's export): its
		// metric and labels say what it is (grafana_csv.go).
		return c
	}
	c := column{idx: i, name: name, gpu: -1}
	words := nameWords(name)
	if len(words) == 0 {
		return c
	}
	// Time columns: the name without time-unit words is one of the
	// time names.
	scale := 0.0
	rest := without(words, func(w string) bool {
		if s, ok := timeUnitWords[w]; ok {
			scale = s
			return true
		}
		return false
	})
	joined := strings.Join(rest, " ")
	if len(rest) == 0 && scale != 0 && len(words) == 1 && (words[0] == "seconds" || words[0] == "secs" || words[0] == "sec") {
		joined = words[0]
	}
	switch {
	case slices.Contains(timeNames, joined):
		c.kind, c.timeScale = colTime, scale
		return c
	case slices.Contains(elapsedNames, joined):
		c.kind, c.timeScale, c.elapsed = colTime, cmpOr(scale, 1), true
		return c
	}
	full := strings.Join(words, " ")
	switch {
	case slices.Contains(gpuIndexNames, full):
		c.kind = colGPU
		return c
	case full == "name" || full == "gpu name" || full == "model" || full == "gpu model" || full == "product name":
		c.kind = colName
		return c
	case full == "uuid" || full == "gpu uuid":
		c.kind = colUUID
		return c
	case full == "step" || full == "global step" || full == "iteration" || full == "iter":
		c.kind = colStep
		return c
	}
	// A GPU number inside the name: gpu0_mem_used, gpu_1_fb_used.
	for j := 0; j+1 < len(words); j++ {
		if hasWord(words[j:j+1], "gpu", "cuda", "device", "dev") {
			if n, ok := atoi(words[j+1]); ok && n < maxGPUsPerSample {
				c.gpu = n
			}
		}
	}
	isMem := hasWord(words, memWords...)
	if isMem && memoryMax(words) {
		// "Memory Max", "max_mem_mib": the most the device holds, as a
		// used/max pair writes it; a maximum of used or allocated memory
		// is a peak, not a reading, and is left alone.
		c.kind = colTotal
		if unit, pct, ok := memUnit(words); ok && !pct {
			c.unit = unit
		}
		return c
	}
	if isMem && !hasWord(words, notMemWords...) {
		unit, pct, hasUnit := memUnit(words)
		switch {
		case hasWord(words, totalWords...):
			c.kind = colTotal
		case hasWord(words, freeWords...):
			c.kind = colFree
		case hasWord(words, usedWords...):
			c.kind = colUsed
		case wandbStyleMemory(words):
			// "gpu.0.memory" (W&B, and metric names built like it) is
			// memory-bandwidth utilization, not memory.
		case hasWord(words, gpuWords...) || hasWord(words, gpuMemWords...):
			c.kind, c.guessedUsed = colUsed, true
		}
		if c.kind != colNone && hasUnit {
			c.unit, c.pct = unit, pct
		}
		return c
	}
	switch {
	case hasWord(words, "util", "utilization", "utilisation", "load") && hasWord(words, gpuWords...) && !isMem:
		c.kind = colUtil
	case hasWord(words, "power", "watts", "watt") && !hasWord(words, "limit", "cap", "max", "enforced", "percent", "pct", "%"):
		c.kind = colPower
	}
	return c
}

// memoryMax reports whether a memory column's words name its maximum
// (the device's capacity): "max" with nothing that makes it a peak of a
// measured value, nor a word notMemWords excludes otherwise.
func memoryMax(words []string) bool {
	if !hasWord(words, "max", "maximum") || hasWord(words, usedWords...) || hasWord(words, freeWords...) {
		return false
	}
	rest := without(words, func(w string) bool { return w == "max" || w == "maximum" })
	return !hasWord(rest, notMemWords...)
}

// wandbStyleMemory reports whether words end in "gpu N memory".
func wandbStyleMemory(words []string) bool {
	n := len(words)
	if n < 3 || words[n-1] != "memory" || words[n-3] != "gpu" {
		return false
	}
	_, ok := atoi(words[n-2])
	return ok
}

func cmpOr(a, b float64) float64 {
	if a != 0 {
		return a
	}
	return b
}

// csvLayout is the meaning of a CSV header's columns.
type csvLayout struct {
	format  LogFormat
	header  []string
	cols    []column
	timeCol int
	gpuCol  int
	nameCol int
	uuidCol int
	stepCol int
	// gpuSpecific is true when some column names the GPU (gpu, cuda,
	// fb, vram, ...), which a generic CSV needs to be claimed.
	gpuSpecific bool
	// hook is the Lightning hook whose columns are read ("" otherwise).
	hook string
	// note is what the reading of the header assumed, noted once ("" when
	// nothing).
	note string
}

// has reports whether the layout has a column of kind k.
func (lay *csvLayout) has(k colKind) bool {
	return slices.ContainsFunc(lay.cols, func(c column) bool { return c.kind == k })
}

func (lay *csvLayout) hasMemory() bool {
	return slices.ContainsFunc(lay.cols, func(c column) bool { return c.kind.memory() })
}

// genericLayout reads a header by the meaning of its names.
func genericLayout(header []string) *csvLayout {
	lay := &csvLayout{format: FormatCSVColumns, header: header, timeCol: -1, gpuCol: -1, nameCol: -1, uuidCol: -1, stepCol: -1}
	for i, h := range header {
		c := classifyColumn(i, h)
		words := nameWords(h)
		if hasWord(words, gpuWords...) || hasWord(words, gpuMemWords...) {
			lay.gpuSpecific = true
		}
		// nvidia-smi's own field names ("memory.used [MiB]") among a
		// script's columns name the GPU too.
		if name, _, ok := headerField(h); ok && !genericFields[name] {
			lay.gpuSpecific = true
		}
		lay.add(c)
	}
	if lay.gpuSpecific {
		// A bare memory column ("mem", "Memory (MiB)") of a GPU log is its
		// used memory.
		for i := range lay.cols {
			c := &lay.cols[i]
			if c.kind == colNone && bareMemory(nameWords(c.name)) {
				c.kind, c.guessedUsed = colUsed, true
				if unit, pct, ok := memUnit(nameWords(c.name)); ok {
					c.unit, c.pct = unit, pct
				}
			}
		}
	}
	return lay
}

// bareMemory reports whether a column name is a memory word and at most a
// unit: "mem", "memory", "Memory (MiB)".
func bareMemory(words []string) bool {
	rest := without(words, func(w string) bool { _, _, ok := memUnit([]string{w}); return ok })
	return len(rest) == 1 && (rest[0] == "mem" || rest[0] == "memory")
}

// hostHeader reports whether some column of a header names the host
// (cpu, ram, swap, rss, host): a system monitor's CSV, whose memory
// columns are the host's.
func hostHeader(header []string) bool {
	for _, h := range header {
		if hasWord(nameWords(h), "cpu", "ram", "swap", "rss", "host", "disk", "load") {
			return true
		}
	}
	return false
}

// hasDevicePair reports whether the layout has used memory beside a total
// or free column: what a device's memory log writes, and what no other
// memory log does in the same shape (a host's memory would name ram, rss
// or swap, which are not memory columns here).
func (lay *csvLayout) hasDevicePair() bool {
	return lay.has(colUsed) && (lay.has(colTotal) || lay.has(colFree))
}

// add records a column, keeping the first time, GPU, name, UUID and step
// column.
func (lay *csvLayout) add(c column) {
	first := func(p *int) {
		if *p < 0 {
			*p = c.idx
		}
	}
	switch c.kind {
	case colTime:
		if lay.timeCol >= 0 && !c.elapsed && lay.cols[lay.timeCol].elapsed {
			// An absolute time wins over an elapsed one.
			lay.timeCol = -1
		}
		first(&lay.timeCol)
	case colGPU:
		first(&lay.gpuCol)
	case colName:
		first(&lay.nameCol)
	case colUUID:
		first(&lay.uuidCol)
	case colStep:
		first(&lay.stepCol)
	}
	for len(lay.cols) <= c.idx {
		lay.cols = append(lay.cols, column{idx: len(lay.cols), gpu: -1})
	}
	lay.cols[c.idx] = c
}

// specLayout reads a header with the user's ColumnSpec.
func specLayout(header []string, spec *ColumnSpec) *csvLayout {
	lay := &csvLayout{format: FormatCSVColumns, header: header, timeCol: -1, gpuCol: -1, nameCol: -1, uuidCol: -1, stepCol: -1, gpuSpecific: true}
	for i, h := range header {
		lay.add(column{idx: i, name: h, gpu: -1})
	}
	set := func(name string, k colKind) {
		if name == "" {
			return
		}
		i := findColumn(header, name)
		if i < 0 {
			return
		}
		c := classifyColumn(i, header[i])
		c.kind, c.guessedUsed, c.gpu = k, false, -1
		if k.memory() {
			if unit, pct, ok := memUnit(nameWords(header[i])); ok {
				c.unit, c.pct = unit, pct
			}
			if spec.Unit > 0 {
				c.unit, c.pct = spec.Unit, false
			}
		}
		lay.add(c)
	}
	set(spec.Time, colTime)
	set(spec.Used, colUsed)
	set(spec.Total, colTotal)
	set(spec.Free, colFree)
	set(spec.GPU, colGPU)
	return lay
}

// wandbLayout reads a Weights & Biases system-metrics export, from the API
// (run.history(stream="system")) or a chart's "Export CSV" (columns "RUN -
// system/gpu.N.memoryAllocatedBytes", their __MIN/__MAX companions passed
// over, "Relative Time (Process)" or "Wall Time"):
// [system.|system/]gpu.N.memoryAllocatedBytes (used bytes),
// gpu.N.memoryAllocated (used, percent of total), gpu.N.gpu (utilization
// percent), gpu.N.powerWatts, and _timestamp (Unix seconds) or _runtime
// (elapsed seconds). gpu.N.memory is memory-bandwidth utilization, not
// memory, and gpu.process.N.* repeat the metrics of the GPUs the process
// used: both are passed over. nil when the header has no such column.
func wandbLayout(header []string) *csvLayout {
	lay := &csvLayout{format: FormatWandbCSV, header: header, timeCol: -1, gpuCol: -1, nameCol: -1, uuidCol: -1, stepCol: -1, gpuSpecific: true}
	found := false
	for i, h := range header {
		name := strings.TrimSpace(h)
		c := column{idx: i, name: h, gpu: -1}
		switch name {
		case "_timestamp":
			c.kind, c.timeScale = colTime, 1
		case "_runtime", "Relative Time (Process)", "Relative Time (Wall)":
			c.kind, c.timeScale, c.elapsed = colTime, 1, true
		case "Wall Time":
			c.kind = colTime
		case "_step", "Step":
			c.kind = colStep
		}
		// A chart exported from the W&B UI names columns "RUN - METRIC",
		// with METRIC__MIN and METRIC__MAX beside each.
		metric := name
		if i := strings.LastIndex(metric, " - "); i >= 0 {
			metric = metric[i+3:]
		}
		if strings.HasSuffix(metric, "__MIN") || strings.HasSuffix(metric, "__MAX") {
			lay.add(c)
			continue
		}
		for _, p := range []string{"system.", "system/"} {
			metric = strings.TrimPrefix(metric, p)
		}
		if rest, ok := strings.CutPrefix(metric, "gpu."); ok {
			num, field, ok := strings.Cut(rest, ".")
			n, isNum := atoi(num)
			if ok && isNum && n < maxGPUsPerSample {
				c.gpu = n
				switch field {
				case "memoryAllocatedBytes":
					c.kind, c.unit = colUsed, 1
					found = true
				case "memoryAllocated":
					c.kind, c.pct = colUsed, true
					found = true
				case "gpu":
					c.kind = colUtil
				case "powerWatts":
					c.kind = colPower
				}
			}
		}
		lay.add(c)
	}
	if !found {
		return nil
	}
	return lay
}

// lightningHooks are DeviceStatsMonitor's hooks, in order of preference:
// one reading per step is wanted, and the end of the batch is the
// training step's high-water mark.
var lightningHooks = []string{"on_train_batch_end", "on_train_batch_start", "on_validation_batch_end", "on_validation_batch_start", "on_test_batch_end", "on_test_batch_start"}

// lightningLayout reads PyTorch Lightning's CSVLogger metrics.csv with
// DeviceStatsMonitor columns. Lightning prefixes each device statistic
// with "DeviceStatsMonitor.HOOK/" (before 1.7: "HOOK/"). The statistics
// are torch.cuda.memory_stats() keys on the CUDA accelerator
// ("allocated_bytes.all.current", read into memory_stats readings), or,
// with the nvidia-smi path of Lightning 1.x, "memory.used (MB)" and
// "memory.free (MB)" (GPU readings, total = used + free). Only the
// columns of one hook are read (the first of lightningHooks present), so
// each step gives one reading. The step is the "step" column. nil when
// the header has no DeviceStatsMonitor memory column.
func lightningLayout(header []string) *csvLayout {
	byHook := map[string]*csvLayout{}
	var step = -1
	for i, h := range header {
		name := strings.TrimSpace(h)
		if name == "step" {
			step = i
			continue
		}
		prefix, key, ok := strings.Cut(name, "/")
		if !ok {
			continue
		}
		hook := strings.TrimPrefix(prefix, "DeviceStatsMonitor.")
		if !slices.Contains(lightningHooks, hook) {
			continue
		}
		c := column{idx: i, name: h, gpu: -1}
		switch key {
		case "allocated_bytes.all.current":
			c.kind = colAllocated
		case "reserved_bytes.all.current":
			c.kind = colReserved
		case "active_bytes.all.current":
			c.kind = colActive
		case "inactive_split_bytes.all.current":
			c.kind = colInactive
		case "num_alloc_retries":
			c.kind = colRetries
		case "num_ooms":
			c.kind = colOOMs
		case "memory.used (MB)":
			c.kind, c.unit = colUsed, mib
		case "memory.free (MB)":
			c.kind, c.unit = colFree, mib
		case "utilization.gpu (%)":
			c.kind = colUtil
		default:
			continue
		}
		lay := byHook[hook]
		if lay == nil {
			lay = &csvLayout{format: FormatLightningCSV, header: header, timeCol: -1, gpuCol: -1, nameCol: -1, uuidCol: -1, stepCol: -1, gpuSpecific: true, hook: hook}
			for j := range header {
				lay.add(column{idx: j, name: header[j], gpu: -1})
			}
			byHook[hook] = lay
		}
		lay.add(c)
	}
	for _, hook := range lightningHooks {
		if lay := byHook[hook]; lay != nil {
			if step >= 0 {
				lay.add(column{idx: step, name: "step", kind: colStep, gpu: -1})
			}
			return lay
		}
	}
	return nil
}

// layoutFor chooses how to read a header: the user's spec when it names
// columns the header has, else a W&B export, a Lightning metrics.csv, or a
// generic GPU memory CSV; nil when none applies.
func layoutFor(header []string, spec *ColumnSpec) *csvLayout {
	if spec != nil && spec.matches(header) {
		return specLayout(header, spec)
	}
	if lay := wandbLayout(header); lay != nil {
		return lay
	}
	if lay := lightningLayout(header); lay != nil {
		return lay
	}
	if lay := nvitopCollectorLayout(header); lay != nil {
		return lay
	}
	lay := genericLayout(header)
	if lay.hasMemory() && lay.gpuSpecific || lay.hasDevicePair() && lay.timeCol >= 0 && !hostHeader(header) {
		return lay
	}
	// A GPU log without memory columns (utilization, power): read, and
	// said to have no memory columns.
	if lay.gpuSpecific && lay.timeCol >= 0 && (lay.has(colUtil) || lay.has(colPower)) {
		return lay
	}
	return nil
}

// layoutForFormat is the layout of a header read as the given format:
// the format's own layout when the header fits it, else the generic one.
func layoutForFormat(format LogFormat, header []string, spec *ColumnSpec) *csvLayout {
	if spec != nil && spec.matches(header) {
		return specLayout(header, spec)
	}
	var lay *csvLayout
	switch format {
	case FormatWandbCSV:
		lay = wandbLayout(header)
	case FormatLightningCSV:
		lay = lightningLayout(header)
	case FormatCSVColumns:
		lay = nvitopCollectorLayout(header)
	}
	if lay == nil {
		lay = genericLayout(header)
	}
	lay.format = format
	return lay
}

// sniffColumnsCSV tells whether the head of a file is a CSV whose header
// layoutFor reads, and as which format. The header must be followed by
// records, and most of them (more than half, up to sniffRecords) must
// have its number of fields: a format is decided by most of its lines,
// not its first (a training log's first line with commas in it is no
// header).
func sniffColumnsCSV(head []byte, spec *ColumnSpec) (LogFormat, bool) {
	r := csv.NewReader(strings.NewReader(string(head)))
	r.FieldsPerRecord = -1
	r.Comment = '#'
	header, err := r.Read()
	if err != nil || len(header) < 2 {
		return "", false
	}
	header[0] = strings.TrimPrefix(header[0], "\ufeff")
	if !plausibleHeader(header) {
		return "", false
	}
	lay := layoutFor(header, spec)
	if lay == nil {
		return "", false
	}
	records, fit := 0, 0
	for records < sniffRecords {
		rec, err := r.Read()
		if err != nil {
			// The head may end inside a record: what was read decides.
			break
		}
		records++
		if len(rec) == len(header) {
			fit++
		}
	}
	if records == 0 {
		// A lone header line is no log yet, unless the head ends inside
		// the first record.
		if len(head) < sniffHead || fit > 0 {
			return "", false
		}
		return lay.format, true
	}
	if 2*fit <= records {
		return "", false
	}
	return lay.format, true
}

// sniffRecords is how many records after a CSV header sniffColumnsCSV
// checks: as many as the head of a log holds in the common case, enough
// that a stray line or two does not decide.
const sniffRecords = 24

// maxHeaderWords bounds the words of one header name: column names are a
// few words ("Relative Time (Process)", "memory.used [MiB]"), a field of
// a sentence cut at its commas is many.
const maxHeaderWords = 8

// plausibleHeader rejects a first record that is data or prose: a
// header's names are not numbers, nor sentences.
func plausibleHeader(header []string) bool {
	for _, h := range header {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if _, err := strconv.ParseFloat(h, 64); err == nil {
			return false
		}
		if _, prom := promColumn(0, h); !prom && len(strings.Fields(h)) > maxHeaderWords {
			// (A Prometheus series name is one name, however many
			// labels it lists.)
			return false
		}
	}
	return true
}

// readColumnsCSV reads a csv-columns, wandb-csv or lightning-csv log,
// with the columns ReadOptions.Columns names when given. All records are
// read first, so that a unit-less memory column's unit can be decided from
// all its values.
func readColumnsCSV(r io.Reader, b *logBuilder) error {
	spec := b.opt.Columns
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.Comment = '#'
	var header []string
	var lay *csvLayout
	all, err := readCSVRecords(cr, b)
	if err != nil {
		return err
	}
	var recs []csvRecord
	for _, r := range all {
		rec := r.fields
		if header == nil {
			rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
			header = rec
			lay = layoutForFormat(b.log.Format, header, spec)
			continue
		}
		if slices.Equal(rec, header) {
			continue
		}
		recs = append(recs, r)
	}
	if header == nil {
		return errors.New("no header line")
	}
	fields := recs2fields(recs, func(r csvRecord) []string { return r.fields })
	decideUnits(b, lay, fields)
	decideCounters(b, lay, fields)
	dateClockColumn(b, lay, fields)
	if lay.note != "" {
		b.note(lay.note)
	}
	if lay.hook != "" {
		b.note(fmt.Sprintf("Lightning DeviceStatsMonitor columns of the %s hook are read (one reading per step); the device is the trainer's root device, assumed to be GPU 0", lay.hook))
	}
	for _, rec := range recs {
		lay.readRecord(b, rec.line, rec.fields)
	}
	return nil
}

// dateClockColumn dates a time column that holds times of day alone
// (xpu-smi dump writes "10:00:00.000"): every value that is one, and at
// least one, is given the date of the file's modification time, walking
// back over midnight (datesOfClocks, as dmon -o T is dated), and written
// back in place as a full time; a note says the date is assumed. Without
// a modification time the values are left, and the rows say why.
func dateClockColumn(b *logBuilder, lay *csvLayout, recs [][]string) {
	if lay.timeCol < 0 {
		return
	}
	c := lay.cols[lay.timeCol]
	if c.elapsed || c.timeScale != 0 {
		return
	}
	clocks := make([]time.Duration, len(recs))
	n := 0
	for i, rec := range recs {
		clocks[i] = -1
		if lay.timeCol >= len(rec) || strings.TrimSpace(rec[lay.timeCol]) == "" {
			continue
		}
		d, ok := parseClock(rec[lay.timeCol])
		if !ok {
			return
		}
		clocks[i], n = d, n+1
	}
	if n == 0 {
		return
	}
	times, mt, ok := b.datesOfClocks(clocks)
	if !ok {
		b.note(fmt.Sprintf("column %q holds times of day without a date and the file's modification time is unknown: the rows cannot be dated", c.name))
		return
	}
	for i, rec := range recs {
		if clocks[i] >= 0 {
			rec[lay.timeCol] = times[i].Format("2006-01-02 15:04:05.000000000")
		}
	}
	b.note(fmt.Sprintf("column %q holds times of day without a date: the date is assumed from the file's modification time (%s), a time of day earlier than the one before it being the next day",
		c.name, mt.Format("2006-01-02 15:04")))
}

// csvRecord is one record of a CSV log and the line it starts on.
type csvRecord struct {
	line   int
	fields []string
}

// readCSVRecords reads every record of cr, each its own slice; a record
// the CSV reader rejects (a stray quote) is skipped with its reason and
// reading goes on. The error is a read error of the underlying reader.
func readCSVRecords(cr *csv.Reader, b *logBuilder) ([]csvRecord, error) {
	cr.ReuseRecord = false
	var out []csvRecord
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return out, err
			}
			b.skip(pe.StartLine, kindBadRow, pe.Err.Error())
			continue
		}
		line, _ := cr.FieldPos(0)
		out = append(out, csvRecord{line, rec})
	}
}

func recs2fields[T any](recs []T, f func(T) []string) [][]string {
	out := make([][]string, len(recs))
	for i, r := range recs {
		out[i] = f(r)
	}
	return out
}

// decideUnits gives each unit-less memory column its unit from its values
// and notes the assumption: values that carry a unit keep it; a column
// whose bare values all fit maxMiBGuess is MiB, else bytes.
func decideUnits(b *logBuilder, lay *csvLayout, recs [][]string) {
	for i := range lay.cols {
		c := &lay.cols[i]
		if !c.kind.memory() {
			continue
		}
		if c.guessedUsed {
			b.note(fmt.Sprintf("column %q names GPU memory without saying used, total or free: read as memory used", c.name))
		}
		if c.unit > 0 || c.pct {
			continue
		}
		bare, maxV := 0, 0.0
		for _, rec := range recs {
			if c.idx >= len(rec) {
				continue
			}
			v := strings.TrimSpace(rec[c.idx])
			if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) {
				bare++
				maxV = max(maxV, f)
			}
		}
		if bare == 0 {
			c.unit = mib
			continue
		}
		if maxV > maxMiBGuess {
			c.unit = 1
			b.note(fmt.Sprintf("column %q has no unit in its name or values: read as bytes (values up to %.0f are too large for MiB)", c.name, maxV))
		} else {
			c.unit = mib
			b.note(fmt.Sprintf("column %q has no unit in its name or values: read as MiB (nvidia-smi's unit; values up to %.6g)", c.name, maxV))
		}
	}
}

// decideCounters drops the time columns whose values are a counter, not
// a time: whole numbers far below Unix times (epochMinSeconds) in a
// column named "epoch" (in an ML logger's CSV, Lightning's, Keras's or
// Hugging Face's, the training epoch; the Unix epoch is read by its
// magnitude), or in another time column whose values mostly repeat the
// one before (0, 0, 0, 1, 1, ...: a clock read at its own resolution
// rarely repeats, a counter of epochs repeats on every row but the
// boundaries). The first time column left is the layout's time, else
// none (the readings are placed by their step, or their order).
func decideCounters(b *logBuilder, lay *csvLayout, recs [][]string) {
	if lay.timeCol < 0 {
		return
	}
	dropped := false
	for i := range lay.cols {
		c := &lay.cols[i]
		if c.kind != colTime || c.elapsed || c.timeScale != 0 || !counterColumn(c, recs) {
			continue
		}
		c.kind, dropped = colNone, true
		by := "their order in the file"
		if lay.stepCol >= 0 {
			by = fmt.Sprintf("their step (column %q)", lay.header[lay.stepCol])
		}
		b.note(fmt.Sprintf("column %q holds small whole numbers (a counter such as the training epoch), not times: the readings are placed by %s", c.name, by))
	}
	if !dropped {
		return
	}
	lay.timeCol = -1
	for _, c := range lay.cols {
		if c.kind == colTime && (lay.timeCol < 0 || lay.cols[lay.timeCol].elapsed && !c.elapsed) {
			lay.timeCol = c.idx
		}
	}
}

// counterColumn reports whether a time column's values are a counter
// (see decideCounters); a column with any date, fraction or Unix time in
// it is not.
func counterColumn(c *column, recs [][]string) bool {
	n, repeats := 0, 0
	prev := ""
	for _, rec := range recs {
		if c.idx >= len(rec) {
			continue
		}
		v := strings.TrimSpace(rec[c.idx])
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f >= epochMinSeconds || f != math.Trunc(f) {
			return false
		}
		if n > 0 && v == prev {
			repeats++
		}
		n, prev = n+1, v
	}
	if n == 0 {
		return false
	}
	if strings.Join(nameWords(c.name), " ") == "epoch" {
		return true
	}
	// minCounterRows: a repeat or two among a few rows says nothing.
	const minCounterRows = 4
	return n >= minCounterRows && 2*repeats >= n-1
}

// gpuReading collects one GPU's values from one record.
type gpuReading struct {
	s       GPUSample
	usedPct float64
	any     bool
}

// readRecord turns one record into readings: one GPUSample per GPU whose
// memory columns have values, or one memory_stats reading (Lightning).
func (lay *csvLayout) readRecord(b *logBuilder, line int, rec []string) {
	if len(rec) != len(lay.header) {
		b.skip(line, kindBadRow, fmt.Sprintf("%d fields, the header has %d", len(rec), len(lay.header)))
		return
	}
	get := func(i int) string {
		if i < 0 {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	var t time.Time
	if v := get(lay.timeCol); v != "" {
		c := lay.cols[lay.timeCol]
		var ok bool
		if c.elapsed {
			t, ok = b.stampOrNumber(v, c.timeScale, c.name)
			if ok && !isElapsed(t) {
				ok = false
			}
		} else {
			t, ok = b.stampOrNumber(v, c.timeScale, c.name)
		}
		if !ok {
			why := "is not a time"
			if _, clock := parseClock(v); clock {
				why = "is a time of day without a date, and the file's modification time is unknown"
			}
			b.skip(line, kindBadRow, fmt.Sprintf("%s %q %s", c.name, clip(v), why))
			return
		}
	}
	rowGPU := 0
	if v := get(lay.gpuCol); v != "" {
		n, ok := gpuIndex(v)
		if !ok {
			b.skip(line, kindBadRow, fmt.Sprintf("%s %q is not a GPU index", lay.header[lay.gpuCol], clip(v)))
			return
		}
		rowGPU = n
	}
	if lay.has(colAllocated) || lay.has(colReserved) {
		lay.readStatsRecord(b, line, rec, t)
		return
	}
	step, hasStep := lay.step(rec)
	readings := map[int]*gpuReading{}
	var order []int
	at := func(g int) *gpuReading {
		r := readings[g]
		if r == nil {
			r = &gpuReading{s: unknownSample(g, t), usedPct: math.NaN()}
			r.s.Step, r.s.HasStep = step, hasStep
			readings[g] = r
			order = append(order, g)
		}
		return r
	}
	for _, c := range lay.cols {
		if c.kind == colNone || c.kind == colTime || c.kind == colGPU || c.kind == colName || c.kind == colUUID || c.kind == colStep {
			continue
		}
		v := get(c.idx)
		if v == "" || isNA(v) || strings.EqualFold(v, "nan") || strings.EqualFold(v, "null") || strings.EqualFold(v, "none") {
			continue
		}
		g := c.gpu
		if g < 0 {
			g = rowGPU
		}
		g = b.machineIndex(line, g)
		r := at(g)
		switch {
		case c.kind.memory() && c.pct:
			f, ok := parseNumber(v, "%")
			if !ok || f < 0 || f > 100 {
				b.skip(line, kindBadRow, fmt.Sprintf("%s %q is not a percentage", c.name, clip(v)))
				return
			}
			if c.kind == colUsed {
				r.usedPct, r.any = f, true
			}
		case c.kind.memory():
			n, ok := parseBytes(v, c.unit)
			if !ok {
				b.skip(line, kindBadRow, fmt.Sprintf("%s %q is not a memory size", c.name, clip(v)))
				return
			}
			switch c.kind {
			case colUsed:
				r.s.MemoryUsed = n
			case colTotal:
				r.s.MemoryTotal = n
			case colFree:
				r.s.MemoryFree = n
			}
			r.any = true
		case c.kind == colUtil:
			if f, ok := parseNumber(v, "%"); ok {
				r.s.UtilizationGPU, r.any = f, true
			}
		case c.kind == colPower:
			if f, ok := parseNumber(v, "W"); ok {
				r.s.PowerW, r.any = f, true
			}
		}
	}
	for _, g := range order {
		r := readings[g]
		if !r.any {
			continue
		}
		s := &r.s
		switch {
		case s.MemoryUsed >= 0 && !math.IsNaN(r.usedPct) && r.usedPct > 0 && s.MemoryTotal < 0:
			// W&B: bytes used and the share of the total they are.
			if total, ok := totalFromShare(float64(s.MemoryUsed), r.usedPct); ok {
				s.MemoryTotal = total
				b.note(noteTotalFromShare)
			}
		case s.MemoryUsed < 0 && !math.IsNaN(r.usedPct) && s.MemoryTotal >= 0:
			s.MemoryUsed = int64(r.usedPct / 100 * float64(s.MemoryTotal))
		case s.MemoryUsed < 0 && !math.IsNaN(r.usedPct):
			// A share without a total: kept as the share (ResolveShares).
			s.MemoryUsedPercent, s.HasUsedPercent = r.usedPct, true
		}
		if s.MemoryTotal < 0 && s.MemoryUsed >= 0 && s.MemoryFree >= 0 {
			s.MemoryTotal = s.MemoryUsed + s.MemoryFree
			b.note("memory total taken as used + free (the log has no total column)")
		}
		if s.MemoryUsed < 0 && s.MemoryTotal >= 0 && s.MemoryFree >= 0 && s.MemoryFree <= s.MemoryTotal {
			s.MemoryUsed = s.MemoryTotal - s.MemoryFree
		}
		gpu := GPU{Index: g, Name: get(lay.nameCol), UUID: get(lay.uuidCol)}
		if s.MemoryTotal > 0 {
			gpu.MemoryTotal = s.MemoryTotal
		}
		if why := b.device(gpu); why != "" {
			b.skip(line, kindOtherGPU, why)
			continue
		}
		b.log.Samples = append(b.log.Samples, *s)
	}
}

// readStatsRecord reads a Lightning record of torch.cuda.memory_stats()
// columns into a memory_stats reading. Rows of other metrics (loss,
// learning rate) leave the columns empty and give no reading.
func (lay *csvLayout) readStatsRecord(b *logBuilder, line int, rec []string, t time.Time) {
	s := MemoryStatsSample{Step: input.NoStep, Rank: input.NoRank, Time: t, Allocated: Unknown, Reserved: Unknown, Active: Unknown,
		InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown}
	found := false
	// Where each memory_stats column goes; nil for other kinds.
	fields := [...]*int64{colAllocated: &s.Allocated, colReserved: &s.Reserved, colActive: &s.Active,
		colInactive: &s.InactiveSplit, colRetries: &s.NumAllocRetries, colOOMs: &s.NumOOMs}
	for _, c := range lay.cols {
		if int(c.kind) >= len(fields) || fields[c.kind] == nil {
			continue
		}
		dst := fields[c.kind]
		v := strings.TrimSpace(rec[c.idx])
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || f < 0 || f > float64(maxMiB)*mib {
			b.skip(line, kindBadRow, fmt.Sprintf("%s %q is not a byte count", c.name, clip(v)))
			return
		}
		*dst, found = int64(f), true
	}
	if !found {
		return
	}
	if step, ok := lay.step(rec); ok {
		s.Step = step
	}
	if _, seen := b.byIndex[0]; !seen {
		b.device(GPU{Index: 0})
	}
	b.log.MemoryStats = append(b.log.MemoryStats, s)
}

// step reads a record's step column, false when the layout has none or
// the cell is no step count.
func (lay *csvLayout) step(rec []string) (int64, bool) {
	if lay.stepCol < 0 || lay.stepCol >= len(rec) {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(rec[lay.stepCol]), 64)
	if err != nil || !(f >= 0 && f < 1<<53) {
		return 0, false
	}
	return int64(f), true
}

// gpuIndex reads a GPU index cell: "1", "cuda:1", "GPU 1", "1.0".
func gpuIndex(v string) (int, bool) {
	v = strings.TrimSpace(v)
	if i := strings.LastIndexAny(v, ": "); i >= 0 {
		v = v[i+1:]
	}
	v = strings.TrimSuffix(v, ".0")
	n, ok := atoi(v)
	return n, ok && n < 1<<16
}

// noteTotalFromShare is the note of a log whose memory totals were
// derived by totalFromShare.
const noteTotalFromShare = "memory total derived from used bytes and used percent (used / share); it is exact to the percentage's rounding"

// totalFromShare is the memory total, in bytes, of which used bytes are
// pct percent (W&B logs both), and false when pct is no positive share or
// the quotient is larger than any device (maxMiB): a share rounded to
// nothing gives no total, never an absurd or overflowed one.
func totalFromShare(used, pct float64) (int64, bool) {
	if !(pct > 0) || used < 0 {
		return 0, false
	}
	total := used * 100 / pct
	if !(total <= float64(maxMiB)*mib) {
		return 0, false
	}
	return int64(total), true
}
