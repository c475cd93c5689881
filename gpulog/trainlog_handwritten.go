package gpulog

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gpureport/input"
	"gpureport/internal/units"
)

// A training script's own print of the caching allocator's figures:
//
//	2024-05-01 12:00:00 step 100 GPU memory allocated: 12.50 GB, reserved: 14.00 GB
//	[rank1] step 7 torch.cuda.memory_allocated: 13421772800
//
// is read only when the line leaves nothing to guess but the unit's
// meaning: each figure's subject, the last one named before it, is GPU or
// CUDA memory ("GPU", "CUDA", "cuda:1", "GPU0", "torch.cuda."), not the
// host's or storage's ("gpu util 97% | cpu mem allocated: 30.8 GB",
// "dataset cached: 120.5 GB ... GPU memory"; handSubject), it names the
// figure (allocated; reserved, or "cached", the name of
// memory_reserved() before PyTorch 1.4) followed by ":" or "=", and the
// line, or the line just above it when that is no such print, gives a
// step (reLogStep; a script logs its step, then its memory), or the line
// a time, to place the reading. A line
// naming a peak ("max allocated", "peak reserved") keeps it beside a
// current figure as its reading's peak; a peak alone is not read, since
// whether the script reset it between lines is unknowable. A line naming
// several devices gives one reading per device, from the figures after
// each name (handParts).
//
// The unit is read as written. GiB, MiB, KiB and bytes are exact. A bare
// integer is bytes only under the name of the torch.cuda function that
// returns bytes ("memory_allocated: 13421772800"), and only when it is a
// multiple of 512 of at least 1 MiB (or 0): the allocator rounds every
// block to 512 bytes, and a MiB figure of 1 MiB or more would be a
// TiB-sized device, so a count divided before printing is not read as
// bytes. GB, MB and KB are read as powers of 1000, as written, and a note
// says the ambiguity: scripts divide by 1e9 and by 1024**3 alike and print
// "GB" for both, so the figures may be 7.4% (GB), 4.9% (MB) or 2.4% (KB)
// low; the factor is constant, so the trend's verdict does not depend on
// it, its time to capacity does. A bare decimal figure (12.5) has no unit
// and is not read.
//
// Lines of the frameworks read elsewhere (trainlog_framework.go,
// trainlog_peak.go) and out-of-memory messages, which also name
// allocated and reserved memory, are left to their readers: this reading
// is tried last.

var (
	// reHandGPU is a line's naming of GPU memory ("GPU", "cuda:1",
	// "GPU0", "torch.cuda.memory_allocated"): the word between
	// non-letters.
	reHandGPU = regexp.MustCompile(`(?i)(?:^|[^a-z])(?:gpu|cuda|vram)(?:[^a-z]|$)`)
	// reHandOther is a subject of memory other than the GPU's: the host's
	// (psutil's RSS, "cpu mem", "RAM", the page cache, pinned host
	// memory) and storage's ("dataset cached: 120 GB on local NVMe").
	reHandOther = regexp.MustCompile(`(?i)(?:^|[^a-z])(?:cpu|ram|host|rss|vms|uss|pss|swap|shm|system|sys|virtual|pinned|disk|nvme|ssd|dataset|page[ _-]?cache|psutil)(?:[^a-z]|$)`)
	// reHandFigure is one named figure: an optional peak, the name (with
	// torch.cuda's "memory_" spellings), an optional unit in parentheses,
	// ":" or "=", the number and its unit.
	reHandFigure = regexp.MustCompile(`(?i)\b(max|peak)?[ _]?(memory[ _])?(allocated|reserved|cached)((?:[ _]memory)?(?:\(\))?)\s*(?:\(\s*(bytes|B|[KMG]i?B)\s*\))?\s*[:=]\s*` +
		`(\d+(?:\.\d+)?)\s*(bytes|B|[KMG]i?B)?(?:[^\w.]|$)`)
	// reHandDevice is the device a line names ("cuda:1", "GPU 1", "GPU0").
	reHandDevice = regexp.MustCompile(`\b(?:cuda:|GPU\s?#?)(\d{1,3})(?:[^\d.]|$)`)
)

// handState counts hand-written prints through a log.
type handState struct {
	// read and decimal count the lines read and those with a decimal
	// unit; unplaced those passed over for want of a step or time.
	read, decimal, unplaced int
	// units are the decimal units seen, for the note.
	units map[string]bool
}

// mayBeHandLine rules out most lines before handLine looks at them.
func mayBeHandLine(line string) bool {
	return (strings.Contains(line, "allocated") || strings.Contains(line, "reserved") || strings.Contains(line, "cached") ||
		strings.Contains(line, "Allocated") || strings.Contains(line, "Reserved")) && reHandGPU.MatchString(line)
}

// handPart is the part of a line that one device's figures are in: from
// start to end, device the device it names (0 when none).
type handPart struct {
	start, end, device int
}

// handParts splits a line at each device it names ("cuda:0 allocated: 20
// GiB, reserved: 24 GiB; cuda:1 allocated: ..."), one part per device;
// the first part starts at the line's start. A line naming one device (or
// none) is one part. ok is false when a device's part holds no figure
// (figs are the figures' match indexes): "GPU 0 and GPU 1 allocated:
// 12 GiB" does not say whose the figure is.
func handParts(line string, figs [][]int) (parts []handPart, ok bool) {
	ds := reHandDevice.FindAllStringSubmatchIndex(line, -1)
	for _, d := range ds {
		dev, _ := strconv.Atoi(line[d[2]:d[3]])
		if len(parts) > 0 && parts[len(parts)-1].device == dev {
			continue // the same device named again ("GPU 0 (cuda:0)")
		}
		start := d[0]
		if len(parts) == 0 {
			start = 0
		} else {
			parts[len(parts)-1].end = start
		}
		parts = append(parts, handPart{start: start, end: len(line), device: dev})
	}
	if len(parts) == 0 {
		return []handPart{{0, len(line), 0}}, true
	}
	if len(parts) == 1 {
		return parts, true
	}
	for _, p := range parts {
		has := false
		for _, m := range figs {
			has = has || m[0] >= p.start && m[0] < p.end
		}
		if !has {
			return nil, false
		}
	}
	return parts, true
}

// handSubject reports whether the figure whose label starts at at, in the
// part p of line, is GPU memory. Its subject is the last subject word
// before its label within the part ("gpu util 97% | cpu mem allocated:
// 30.8 GB" is the host's; "GPU memory allocated: 12 GiB, reserved: 14
// GiB" is the GPU's twice); a figure with no subject before it is the
// GPU's when the line names the GPU and no other subject at all.
func handSubject(line string, p handPart, at int) bool {
	before := line[p.start:at]
	g := reHandGPU.FindAllStringIndex(before, -1)
	o := reHandOther.FindAllStringIndex(before, -1)
	switch {
	case len(g) > 0 && len(o) > 0:
		return g[len(g)-1][1] > o[len(o)-1][1]
	case len(g) > 0:
		return true
	case len(o) > 0:
		return false
	}
	return reHandGPU.MatchString(line) && !reHandOther.MatchString(line)
}

// line reads a hand-written print into readings of base (whose figures
// are Unknown), one per device the line names; none when the line is no
// such print, or gives no figure a reading holds. given, when not nil,
// says how the step was read, for the step check at the end
// (frameworkState.settleSteps).
//
// prev is the line just above, "" when none: a script that logs its step
// and then its memory prints the step on the line before.
func (h *handState) line(b *logBuilder, base MemoryStatsSample, line, prev string) (rs []MemoryStatsSample, given *givenStep) {
	if mayBeOOMLine(line) {
		return nil, nil
	}
	ms := reHandFigure.FindAllStringSubmatchIndex(line, -1)
	if len(ms) == 0 {
		return nil, nil
	}
	parts, ok := handParts(line, ms)
	if !ok {
		return nil, nil
	}
	var dec []string
	for _, p := range parts {
		r := base
		for _, m := range ms {
			if m[0] < p.start || m[0] >= p.end || !handSubject(line, p, m[0]) {
				continue
			}
			peak, name, fn := group(line, m, 1) != "", strings.ToLower(group(line, m, 3)), group(line, m, 2) != "" || group(line, m, 4) != ""
			unit := group(line, m, 7)
			if unit == "" {
				unit = group(line, m, 5)
			}
			v := handBytes(group(line, m, 6), unit, fn)
			if v < 0 {
				continue
			}
			switch {
			case name == "allocated" && peak:
				r.PeakAllocated = v
			case name == "allocated":
				r.Allocated = v
			case peak:
				r.PeakReserved = v
			default:
				r.Reserved = v
			}
			if u := strings.ToUpper(unit); u == "KB" || u == "MB" || u == "GB" {
				dec = append(dec, u)
			}
		}
		if r.Allocated < 0 && r.Reserved < 0 {
			continue
		}
		r.PeakAllocated, r.PeakReserved = max(r.PeakAllocated, 0), max(r.PeakReserved, 0)
		r.Device = p.device
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	step := input.NoStep
	if s := reLogStep.FindAllStringSubmatch(line[:ms[0][0]], -1); s != nil {
		step = fwStep(s[len(s)-1][1])
		if c := epochIterStep(line[:ms[0][0]]); c != input.NoStep {
			given = &givenStep{composed: c}
		}
	} else if s := reLogStep.FindAllStringSubmatch(prev, -1); s != nil && !reHandFigure.MatchString(prev) {
		// The line above is the step's own line, not another print.
		step = fwStep(s[len(s)-1][1])
		given = &givenStep{composed: epochIterStep(prev), before: true}
	}
	t, rank := fwTimeRank(b, line)
	if step == input.NoStep && t.IsZero() {
		h.unplaced++
		return nil, nil
	}
	for i := range rs {
		rs[i].Step, rs[i].Time, rs[i].Rank = step, t, rank
	}
	h.read++
	if len(dec) > 0 {
		h.decimal++
		if h.units == nil {
			h.units = map[string]bool{}
		}
		for _, u := range dec {
			h.units[u] = true
		}
	}
	return rs, given
}

// handBytes is a figure in bytes, Unknown when the line does not settle
// it: a bare integer is bytes under a torch.cuda function's name (fn)
// only, and only as the allocator could give it.
func handBytes(num, unit string, fn bool) int64 {
	if unit == "" {
		v, err := strconv.ParseInt(num, 10, 64)
		// 512: the allocator's block rounding; 1 MiB: below it, a count
		// of MiB or more would name a device of a TiB or more.
		if err != nil || !fn || v%512 != 0 || v != 0 && v < mib || v > maxMiB*mib {
			return Unknown
		}
		return v
	}
	v, err := strconv.ParseFloat(num, 64)
	u, ok := units.UnitBytes(unit, units.SI)
	if err != nil || !ok || math.IsNaN(v) || v*float64(u) > float64(maxMiB)*mib {
		return Unknown
	}
	return int64(math.Round(v * float64(u)))
}

// end notes, at the end of the log, how the prints were read.
func (h *handState) end(b *logBuilder) {
	if h.read > 0 {
		n := "hand-written GPU memory prints (\"GPU memory allocated: X GiB\", \"torch.cuda.memory_allocated: N\") are read as memory_stats readings (allocated and reserved memory, with a peak beside them as its peak) of the device they name, else cuda:0, at the step or time of their line (or the step of the line just above)"
		if h.decimal > 0 {
			var us []string
			for _, u := range []string{"GB", "MB", "KB"} {
				if h.units[u] {
					us = append(us, u)
				}
			}
			n += fmt.Sprintf("; in %s the unit is ambiguous: %s read as written, as powers of 1000, but scripts that divide by 1024**3 print \"GB\" too, and then the figures are 7.4%% low (4.9%% for MB): the trend's verdict does not depend on it, its time to capacity does; print GiB (x / 2**30) or bytes to settle it",
				units.CountOf(h.decimal, "line"), strings.Join(us, " and "))
		}
		b.note(n)
	}
	if h.unplaced > 0 {
		b.note(fmt.Sprintf("%s of hand-written GPU memory figures gave no step or time (\"step N\" or a timestamp on the line) and are not read: a reading must be placed on the run's axis", units.CountOf(h.unplaced, "line")))
	}
}

// A tqdm progress bar whose postfix a script sets to its GPU memory,
// pbar.set_postfix(loss=..., gpu_mem=f"{torch.cuda.memory_reserved()/1e9:.1f}G"):
//
//	Epoch 1/1:   2%|▏  | 100/4000 [00:15<10:00, 6.6it/s, loss=1.990, gpu_mem=30.2G]
//
// redrawn with carriage returns, so that one line of the file holds every
// redraw: each redraw is read (tqdmState.line). The postfix key must name
// GPU memory (gpu_mem, cuda_memory, gpu_mem_allocated, gpu_reserved) and
// its value carry a unit; the step is the bar's counter, counted on
// across bars (a bar that restarts below its last count is the next
// epoch's, which follows the previous bar's total). A key naming
// allocated memory is allocated; one naming reserved or cached memory,
// or no figure (gpu_mem), is reserved, and for the latter a note says it
// is assumed: a bar's memory figure is commonly memory_reserved(), as
// YOLO's GPU_mem is, and reserved memory bounds allocated from above. The
// units as the hand-written prints read them: "G" and "GB" as 10^9 bytes
// with the same note, GiB and MiB exactly. The device is cuda:0.

var (
	// reTqdmBar is a tqdm bar's counter ("100/4000" or "100it"), its
	// elapsed and remaining time and rate, and the postfix after them.
	reTqdmBar = regexp.MustCompile(`(\d+)(?:/(\d+)|it) \[[\d:]+(?:<[\d:?]+)?, [^,\]]*((?:, [^\]]*)?)\]`)
	// reTqdmMem is a postfix entry naming GPU memory: the key's figure
	// (allocated, reserved, cached, or none), the number and its unit.
	reTqdmMem = regexp.MustCompile(`(?i)(?:^|[ ,])(?:gpu|cuda)_?(?:mem|memory)?_?(allocated|alloc|reserved|cached)?=(\d+(?:\.\d+)?) ?(GiB|MiB|GB|MB|G|M)(?:,|$)`)
)

// tqdmState follows tqdm bars' GPU memory postfixes through a log.
type tqdmState struct {
	// last is the last bar counter read, offset the steps of the bars
	// before the current one, total the current bar's total.
	last, offset, total int64
	// read, decimal and assumed count the readings, those in a decimal
	// unit, and those whose key named no figure.
	read, decimal, assumed int
}

// line reads every redraw of line (carriage returns kept) that is a
// tqdm bar with a GPU memory postfix; true when one gave a reading.
func (q *tqdmState) line(b *logBuilder, line string) bool {
	if !strings.Contains(line, "it/s") && !strings.Contains(line, "s/it") || !strings.Contains(line, "=") {
		return false
	}
	got := false
	for _, seg := range strings.Split(line, "\r") {
		if strings.IndexByte(seg, 0x1b) >= 0 {
			seg = visibleText(seg)
		}
		m := reTqdmBar.FindStringSubmatch(seg)
		if m == nil || m[3] == "" {
			continue
		}
		f := reTqdmMem.FindStringSubmatch(m[3])
		if f == nil {
			continue
		}
		unit := f[3]
		switch strings.ToUpper(unit) {
		case "G":
			unit = "GB"
		case "M":
			unit = "MB"
		}
		v := handBytes(f[2], unit, false)
		n, err := strconv.ParseInt(m[1], 10, 64)
		if v < 0 || err != nil {
			continue
		}
		if n < q.last {
			q.offset += max(q.total, q.last)
		}
		q.last = n
		if t, err := strconv.ParseInt(m[2], 10, 64); err == nil {
			q.total = t
		}
		r := MemoryStatsSample{Step: q.offset + n, Rank: input.NoRank, Allocated: Unknown, Reserved: Unknown, Active: Unknown,
			InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown, DeviceAssumed: true}
		switch strings.ToLower(f[1]) {
		case "allocated", "alloc":
			r.Allocated = v
		case "":
			q.assumed++
			r.Reserved = v
		default:
			r.Reserved = v
		}
		if unit == "GB" || unit == "MB" || unit == "gb" || unit == "mb" {
			q.decimal++
		}
		q.read++
		b.log.MemoryStats = append(b.log.MemoryStats, r)
		got = true
	}
	return got
}

// end notes, at the end of the log, how the bars were read.
func (q *tqdmState) end(b *logBuilder) {
	if q.read == 0 {
		return
	}
	n := fmt.Sprintf("%s of tqdm progress bars with a GPU memory postfix (\"gpu_mem=30.2G\") are read as memory_stats readings of cuda:0 (assumed), the step being the bars' iteration count", units.CountOf(q.read, "redraw"))
	if q.assumed > 0 {
		n += "; the key names GPU memory but not which figure: read as reserved memory (torch.cuda.memory_reserved(), what such bars commonly print; if it is allocated memory, the trend is allocated memory's)"
	}
	if q.decimal > 0 {
		n += "; G and GB are read as powers of 1000, but scripts that divide by 1024**3 print them too, and then the figures are 7.4% low: the trend's verdict does not depend on it, its time to capacity does"
	}
	b.note(n)
}
