package gpulog

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FormatRocmSMI is AMD's `rocm-smi --showmeminfo vram` (and
// --showmemuse) output in any of its three forms, alone or repeated by a
// shell loop with `date` lines between (rocm_smi.go).
const FormatRocmSMI LogFormat = "rocm-smi"

// ToolNVIDIASMI is UsedTool of the logs of nvidia-smi and the tools that
// read the same NVML figure as it does (DCGM, gpustat, pynvml, ...).
const ToolNVIDIASMI = "nvidia-smi"

// UsedTool names the tool whose used-memory readings a log of format f
// holds, as a report names them ("rocm-smi used"): rocm-smi's VRAM used,
// W&B's and MLflow's system metrics (NVML's used memory read by their
// agents), else ToolNVIDIASMI.
func (f LogFormat) UsedTool() string {
	switch f {
	case FormatRocmSMI:
		return "rocm-smi"
	case FormatWandbEvents, FormatWandbCSV:
		return "W&B"
	case FormatMLflowGPU:
		return "MLflow"
	}
	return ToolNVIDIASMI
}

// AMD's rocm-smi (ROCm's rocm_smi.py) prints device memory in bytes:
//
//   - text, one "GPU[N]<tabs>: <field>: <value>" line per field, inside
//     its "ROCm System Management Interface" and "End of ROCm SMI Log"
//     rules:
//
//     GPU[0]		: VRAM Total Memory (B): 68702699520
//     GPU[0]		: VRAM Total Used Memory (B): 10957766656
//
//     (ROCm 5 and before spell the field "vram Total Memory (B)");
//
//   - --csv: a "device,VRAM Total Memory (B),VRAM Total Used Memory (B)"
//     header over one "card0,68702699520,10957766656" row per device;
//
//   - --json: one object keyed by card ({"card0": {"VRAM Total Memory
//     (B)": "68702699520", "VRAM Total Used Memory (B)": "10957766656"}}),
//     the values strings of bytes, possibly with a "system" entry.
//
// `rocm-smi --showmemuse` gives the VRAM in use as a whole percent of
// the device's VRAM instead, "GPU[0]		: GPU Memory Allocated (VRAM%): 45"
// (a "device,...,GPU Memory Allocated (VRAM%)" --csv column, a "GPU
// Memory Allocated (VRAM%)": "45" --json field; ROCm 6's rocm_smi.py
// showMemUse, and the scripts that parse its output). It is read as the
// reading's share of the device (MemoryUsedPercent), made bytes where a
// total is known: the same report's VRAM Total Memory (B) when
// --showmeminfo vram is asked too, else as ResolveShares says; without
// one the GPU's used memory is known as a share only. Its "GPU Memory
// Read/Write Activity (%)", and the "GPU memory use (%)" that
// --showmemuse printed before (rsmi_dev_memory_busy_percent_get: how busy
// the memory is), are bandwidth, not memory in use, and are not read.
//
// GPU[N] and cardN are the same device number (rocm_smi.py names the
// JSON and CSV entries 'card' + its device index), so a reading is of GPU
// N as an nvidia-smi reading of index N is, and joins the run's devices
// and HIP out-of-memory messages the same way (HIP_VISIBLE_DEVICES
// renumbers devices as CUDA_VISIBLE_DEVICES does). Only the VRAM fields
// are read: VIS_VRAM (the CPU-visible window) and GTT (system memory
// mapped for the GPU) are no device memory use; "GPU use (%)" is read
// as utilization. A `date` line times the readings after it; without
// any, readings are placed in reading order (placeUntimed). Other lines
// (rocm-smi's warnings, a script's echo) are skipped and counted.

var (
	// reRocmField matches one text field line: device, field, value.
	reRocmField = regexp.MustCompile(`^GPU\[(\d{1,4})\]\s*:\s*(.+?):\s*(\S+)\s*$`)
	// reRocmCard matches a CSV or JSON device name.
	reRocmCard = regexp.MustCompile(`^card(\d{1,4})$`)
)

// rocm-smi's field names, lower case.
const (
	rocmTotal = "vram total memory (b)"
	rocmUsed  = "vram total used memory (b)"
	rocmUse   = "gpu use (%)"
	// rocmAllocPct is --showmemuse's VRAM in use, percent of the VRAM.
	rocmAllocPct = "gpu memory allocated (vram%)"
	// rocmBanner is the rule over every text report, rocmEnd the one
	// under it.
	rocmBanner = "ROCm System Management Interface"
	rocmEnd    = "End of ROCm SMI Log"
)

// maxRocmJSON bounds one JSON document of a rocm-smi log: rocm-smi's
// --json for every field of 16 devices is some tens of KiB; beyond 1 MiB
// it is no rocm-smi document.
const maxRocmJSON = 1 << 20

// sniffRocmSMI reports whether the first lines of a log are rocm-smi's:
// its banner or a VRAM field line (after a `date` line too), a --csv
// header with a VRAM column, or a --json object of cards.
func sniffRocmSMI(head []byte, lines []string) bool {
	for _, l := range lines {
		if strings.Contains(l, rocmBanner) {
			return true
		}
		if m := reRocmField.FindStringSubmatch(l); m != nil && rocmVRAMField(m[2]) {
			return true
		}
	}
	first := lines[0]
	if h, ok := rocmCSVHeader(first); ok {
		return slices.Contains(h, rocmTotal) || slices.Contains(h, rocmUsed) || slices.Contains(h, rocmAllocPct)
	}
	if strings.HasPrefix(first, "{") {
		s := string(head)
		return strings.Contains(s, `"card`) && (strings.Contains(s, `"VRAM Total Memory (B)"`) || strings.Contains(s, `"VRAM Total Used Memory (B)"`) ||
			strings.Contains(s, `"GPU Memory Allocated (VRAM%)"`))
	}
	return false
}

// rocmVRAMField reports whether a text field is one of the VRAM fields
// (bytes, or the percent in use).
func rocmVRAMField(f string) bool {
	f = strings.ToLower(strings.TrimSpace(f))
	return f == rocmTotal || f == rocmUsed || f == rocmAllocPct
}

// rocmCSVHeader reads a rocm-smi --csv header: "device" first, the
// field names after it, lower case.
func rocmCSVHeader(line string) ([]string, bool) {
	f := strings.Split(line, ",")
	if len(f) < 2 || strings.TrimSpace(f[0]) != "device" {
		return nil, false
	}
	for i := range f {
		f[i] = strings.ToLower(strings.TrimSpace(f[i]))
	}
	return f, true
}

// rocmReader is the state of one rocm-smi log's read.
type rocmReader struct {
	b *logBuilder
	// at is the time of the last `date` line, zero before any.
	at time.Time
	// block holds the readings of the text report being read, by GPU,
	// in order of first appearance.
	block []GPUSample
	// header is the --csv header in force, nil when none.
	header []string
}

func readRocmSMI(r io.Reader, b *logBuilder) error {
	rr := &rocmReader{b: b}
	lr := b.lines(r)
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		switch {
		case strings.HasPrefix(s, "{"):
			rr.flush()
			doc, last, err := rocmJSONDocument(b, lr, s)
			if err != nil {
				b.skipRow(n, "unreadable rocm-smi JSON", fmt.Sprintf("lines %d-%d: %v", n, last, err))
				continue
			}
			rr.json(n, doc)
		case strings.HasPrefix(s, "GPU["):
			rr.field(n, s)
		case strings.Contains(s, rocmBanner) || strings.Contains(s, rocmEnd):
			// The banner and the closing rule bound one report.
			rr.flush()
		case strings.HasPrefix(s, "="):
			// rocm_smi.py's spacers open and close each section of a
			// report (printLogSpacer): the fields of --showmemuse and
			// --showmeminfo vram are one reading, in two sections.
		default:
			if t, zoneless, ok := parseDateLine(s, b.opt.Location); ok {
				rr.flush()
				rr.at = t
				b.log.Zoneless = b.log.Zoneless || zoneless
				continue
			}
			if h, ok := rocmCSVHeader(s); ok {
				rr.flush()
				rr.header = h
				continue
			}
			if rr.header != nil && strings.HasPrefix(s, "card") {
				rr.csvRow(n, s)
				continue
			}
			b.skip(n, "not a rocm-smi line", fmt.Sprintf("%q", clip(s)))
		}
	}
	rr.flush()
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}

// sample returns the reading of GPU gpu in the text report being read,
// starting one when the report has none, or a new report when field was
// already read for it (a report without rules between).
func (rr *rocmReader) sample(gpu int, field string, seen func(GPUSample) bool) *GPUSample {
	for i := range rr.block {
		if rr.block[i].GPU != gpu {
			continue
		}
		if !seen(rr.block[i]) {
			return &rr.block[i]
		}
		rr.flush()
		break
	}
	rr.block = append(rr.block, unknownSample(gpu, rr.at))
	return &rr.block[len(rr.block)-1]
}

// field reads one "GPU[N] : field: value" line.
func (rr *rocmReader) field(n int, s string) {
	m := reRocmField.FindStringSubmatch(s)
	if m == nil {
		rr.b.skip(n, "not a rocm-smi line", fmt.Sprintf("%q", clip(s)))
		return
	}
	gpu, _ := atoi(m[1])
	name := strings.ToLower(strings.TrimSpace(m[2]))
	switch name {
	case rocmTotal, rocmUsed:
		v, ok := rocmBytes(m[3])
		if !ok {
			rr.b.skip(n, kindBadRow, fmt.Sprintf("%s %q is not a count of bytes", m[2], clip(m[3])))
			return
		}
		if name == rocmTotal {
			smp := rr.sample(gpu, name, func(x GPUSample) bool { return x.MemoryTotal >= 0 })
			smp.MemoryTotal = v
		} else {
			smp := rr.sample(gpu, name, func(x GPUSample) bool { return x.MemoryUsed >= 0 })
			smp.MemoryUsed = v
		}
	case rocmUse:
		if f, ok := parseNumber(m[3], "%"); ok {
			smp := rr.sample(gpu, name, func(x GPUSample) bool { return !math.IsNaN(x.UtilizationGPU) })
			smp.UtilizationGPU = f
		}
	case rocmAllocPct:
		f, ok := rocmPercent(m[3])
		if !ok {
			rr.b.skip(n, kindBadRow, fmt.Sprintf("%s %q is not a percent", m[2], clip(m[3])))
			return
		}
		if !math.IsNaN(f) {
			smp := rr.sample(gpu, name, func(x GPUSample) bool { return x.HasUsedPercent })
			smp.MemoryUsedPercent, smp.HasUsedPercent = f, true
		}
	}
	// Other fields (VIS_VRAM, GTT, temperatures, clocks) are not memory
	// this report reads.
}

// flush keeps the readings of the text report read so far.
func (rr *rocmReader) flush() {
	for _, s := range rr.block {
		rr.add(0, s)
	}
	rr.block = rr.block[:0]
}

// add keeps one reading when it has memory figures.
func (rr *rocmReader) add(n int, s GPUSample) {
	if s.MemoryUsed < 0 && s.MemoryTotal < 0 && !s.HasUsedPercent {
		return
	}
	if s.MemoryUsed >= 0 {
		// The byte count says all the share would.
		s.MemoryUsedPercent, s.HasUsedPercent = 0, false
	}
	if why := rr.b.device(GPU{Index: s.GPU, MemoryTotal: max(s.MemoryTotal, 0)}); why != "" {
		rr.b.skip(n, kindOtherGPU, why)
		return
	}
	rr.b.log.Samples = append(rr.b.log.Samples, s)
}

// csvRow reads one --csv row under the header in force.
func (rr *rocmReader) csvRow(n int, s string) {
	f := strings.Split(s, ",")
	if len(f) != len(rr.header) {
		rr.b.skipRow(n, kindBadRow, fmt.Sprintf("%d fields under a header of %d", len(f), len(rr.header)))
		return
	}
	m := reRocmCard.FindStringSubmatch(strings.TrimSpace(f[0]))
	if m == nil {
		rr.b.skip(n, kindBadRow, fmt.Sprintf("device %q is not cardN", clip(f[0])))
		return
	}
	gpu, _ := atoi(m[1])
	fields := map[string]string{}
	for i, h := range rr.header[1:] {
		fields[h] = f[i+1]
	}
	rr.fields(n, gpu, fields)
}

// fields reads one device's fields (--csv row or --json entry).
func (rr *rocmReader) fields(n, gpu int, fields map[string]string) {
	s := unknownSample(gpu, rr.at)
	for k, v := range fields {
		switch strings.ToLower(strings.TrimSpace(k)) {
		case rocmTotal:
			if b, ok := rocmBytes(v); ok {
				s.MemoryTotal = b
			}
		case rocmUsed:
			if b, ok := rocmBytes(v); ok {
				s.MemoryUsed = b
			}
		case rocmUse:
			if f, ok := parseNumber(v, "%"); ok {
				s.UtilizationGPU = f
			}
		case rocmAllocPct:
			if f, ok := rocmPercent(v); ok && !math.IsNaN(f) {
				s.MemoryUsedPercent, s.HasUsedPercent = f, true
			}
		}
	}
	if s.MemoryUsed < 0 && s.MemoryTotal < 0 && !s.HasUsedPercent {
		rr.b.skip(n, kindBadRow, fmt.Sprintf("card%d has no VRAM byte count or percent", gpu))
		return
	}
	rr.add(n, s)
}

// json reads one --json document that starts on line n.
func (rr *rocmReader) json(n int, doc map[string]any) {
	cards := make([]int, 0, len(doc))
	entries := map[int]map[string]any{}
	for k, v := range doc {
		m := reRocmCard.FindStringSubmatch(k)
		e, ok := v.(map[string]any)
		if m == nil || !ok {
			continue // "system": the driver version
		}
		gpu, _ := atoi(m[1])
		cards = append(cards, gpu)
		entries[gpu] = e
	}
	if len(cards) == 0 {
		rr.b.skip(n, "rocm-smi JSON without cards", "no \"cardN\" object")
		return
	}
	slices.Sort(cards)
	for _, gpu := range cards {
		fields := map[string]string{}
		for k, v := range entries[gpu] {
			switch x := v.(type) {
			case string:
				fields[k] = x
			case json.Number:
				fields[k] = string(x)
			}
		}
		rr.fields(n, gpu, fields)
	}
}

// rocmJSONDocument reads the JSON document that starts with line first:
// rocm-smi prints it on one line, `| python -m json.tool` over many; it
// ends where its braces close. last is the number of its last line.
func rocmJSONDocument(b *logBuilder, lr *lineReader, first string) (doc map[string]any, last int, err error) {
	var text strings.Builder
	depth, inString, escaped := 0, false, false
	line := first
	last = lr.n
	for {
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case c == '"':
				inString = !inString
			case !inString && c == '{':
				depth++
			case !inString && c == '}':
				depth--
			}
		}
		text.WriteString(line)
		text.WriteByte('\n')
		if depth <= 0 {
			break
		}
		if text.Len() > maxRocmJSON {
			return nil, last, fmt.Errorf("more than %d bytes without its braces closing", maxRocmJSON)
		}
		l, n, ok := b.nextLine(lr)
		if !ok {
			return nil, last, fmt.Errorf("the input ends inside the document")
		}
		line, last = l, n
	}
	d := json.NewDecoder(strings.NewReader(text.String()))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, last, err
	}
	return doc, last, nil
}

// rocmPercent reads --showmemuse's percent ("45", "45%"): 0 to 100, NaN
// for "N/A".
func rocmPercent(s string) (float64, bool) {
	f, ok := parseNumber(s, "%")
	if !ok || !math.IsNaN(f) && (f < 0 || f > 100) {
		return 0, false
	}
	return f, true
}

// rocmBytes reads a rocm-smi byte count ("68702699520").
func rocmBytes(s string) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < 0 || v > maxMiB*mib {
		return 0, false
	}
	return v, true
}
