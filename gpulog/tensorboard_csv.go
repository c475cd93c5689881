package gpulog

import (
	"encoding/csv"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gpureport/input"
)

// FormatTensorBoardCSV is a TensorBoard scalar's CSV download of a tag
// that names GPU memory (tensorboard_csv.go).
const FormatTensorBoardCSV LogFormat = "tensorboard-scalar-csv"

// TensorBoard's scalars dashboard downloads one tag of one run as CSV
// (tensorboard/plugins/scalar/http_api.md, scalars?run=..&tag=..&format=csv):
//
//	Wall time,Step,Value
//	1709287200.123456,100,21.5
//
// saved as run-<run>-tag-<tag>.csv. The value's meaning is only in the
// tag, which is only in the file name: a file is claimed (SniffTensorBoardCSV)
// when its header is TensorBoard's and its name's tag names GPU memory
// as a script logs it, writer.add_scalar("gpu_mem_allocated_GB",
// torch.cuda.memory_allocated()/1e9, step):
//
//   - GPU memory: a word gpu, cuda or vram, or torch.cuda's
//     memory_allocated / memory_reserved (memory_cached) names;
//   - which figure: allocated (a memory_stats reading's allocated),
//     reserved or cached (its reserved), used (a GPU reading's used
//     memory); a peak (max, peak) is not read, as a peak alone is not
//     elsewhere (whether the script reset it is unknowable);
//   - its unit as the tag says it: GiB, MiB, KiB, bytes exactly; GB, MB,
//     KB as powers of 1000, with the note the hand-written prints get
//     (scripts divide by 1024**3 and print GB too); a tag without a unit
//     is read as bytes only when every value is a whole number of bytes
//     as the allocator gives them (see handBytes), else the file is not
//     read and says why.
//
// The device is the number after gpu or cuda in the tag, else cuda:0
// (DeviceAssumed). A file of TensorBoard's header whose tag is no GPU
// memory is listed as skipped with the reason (TensorBoardCSVReason):
// --gpu-log-columns cannot name its column, which is only "Value".

var (
	// reTBHeader is TensorBoard's header.
	reTBHeader = regexp.MustCompile(`^\s*Wall time,\s*Step,\s*Value\s*$`)
	// reTBName is a download's file name: the run, then the tag.
	reTBName = regexp.MustCompile(`(?i)^run[-_].*?-tag-(.+)\.csv$`)
	// reTBUnit is a unit word at the end of the tag, or in parentheses.
	reTBUnit = regexp.MustCompile(`(?i)(?:^|[_\-./ (\[])(bytes|[KMG]i?B)\)?\]?$`)
	// reTBDevice is the device a tag names (gpu0, gpu_1, cuda:1).
	reTBDevice = regexp.MustCompile(`(?i)(?:gpu|cuda)[_:.\-/]?(\d{1,3})(?:\D|$)`)
)

// tbTag is what a tag says of its values.
type tbTag struct {
	tag string
	// figure is "allocated", "reserved" or "used"; "" when the tag names
	// no GPU memory figure read; why says why then.
	figure, why string
	// unit is the unit the tag names ("" when none); device the device it
	// names, -1 when none.
	unit   string
	device int
}

// tensorBoardTag reads the tag of a download's file name (base name).
func tensorBoardTag(name string) (tbTag, bool) {
	m := reTBName.FindStringSubmatch(name)
	if m == nil {
		return tbTag{}, false
	}
	t := tbTag{tag: m[1], device: -1}
	lower := strings.ToLower(t.tag)
	// The tag's words, a device number run into one dropped ("gpu0").
	words := strings.FieldsFunc(lower, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	for i, w := range words {
		words[i] = strings.TrimRight(w, "0123456789")
	}
	has := func(ws ...string) bool {
		for _, x := range ws {
			if slices.Contains(words, x) {
				return true
			}
		}
		return false
	}
	torchName := strings.Contains(lower, "memory_allocated") || strings.Contains(lower, "memory_reserved") || strings.Contains(lower, "memory_cached")
	gpu := has("gpu", "cuda", "vram") || torchName
	mem := has("mem", "memory", "vram") || torchName
	switch {
	case !gpu || !mem:
		t.why = "its tag names no GPU memory"
	case has("max", "peak"):
		t.why = "its tag names a peak, which alone is not read (whether the script reset it is unknowable)"
	case has("allocated", "alloc"):
		t.figure = "allocated"
	case has("reserved", "cached"):
		t.figure = "reserved"
	case has("used"):
		t.figure = "used"
	default:
		t.why = "its tag does not say which figure (allocated, reserved or used)"
	}
	if u := reTBUnit.FindStringSubmatch(t.tag); u != nil {
		t.unit = u[1]
	}
	if d := reTBDevice.FindStringSubmatch(t.tag); d != nil {
		t.device, _ = strconv.Atoi(d[1])
	}
	return t, true
}

// SniffTensorBoardCSV reports whether the file at rel whose start is head
// is a TensorBoard scalar download of a GPU memory tag gpulog reads.
func SniffTensorBoardCSV(rel string, head []byte) bool {
	t, ok := tensorBoardTag(path.Base(strings.ReplaceAll(rel, `\`, "/")))
	lines := headLines(head, 1)
	return ok && t.figure != "" && len(lines) == 1 && reTBHeader.MatchString(strings.TrimPrefix(lines[0], "\ufeff"))
}

// TensorBoardCSVReason is the reason a TensorBoard scalar download that
// SniffTensorBoardCSV does not claim is skipped with; false when the file
// is none (its header is not TensorBoard's).
func TensorBoardCSVReason(rel string, head []byte) (string, bool) {
	lines := headLines(head, 1)
	if len(lines) != 1 || !reTBHeader.MatchString(strings.TrimPrefix(lines[0], "\ufeff")) {
		return "", false
	}
	base := path.Base(strings.ReplaceAll(rel, `\`, "/"))
	t, ok := tensorBoardTag(base)
	if !ok {
		return "a TensorBoard scalar download (Wall time, Step, Value) whose tag is not in its name (TensorBoard names it run-<run>-tag-<tag>.csv): what Value measures is unknown, and --gpu-log-columns cannot say it; keep the downloaded name", true
	}
	return fmt.Sprintf("a TensorBoard scalar download of tag %q: %s, so Value is not read as GPU memory (--gpu-log-columns cannot say what Value measures)", t.tag, t.why), true
}

func readTensorBoardCSV(r io.Reader, b *logBuilder) error {
	t, ok := tensorBoardTag(path.Base(strings.ReplaceAll(b.opt.Name, `\`, "/")))
	if !ok || t.figure == "" {
		why := "its name is not run-<run>-tag-<tag>.csv"
		if ok {
			why = t.why
		}
		return fmt.Errorf("%s log %q: the value's meaning comes from the tag in the file name, and %s", FormatTensorBoardCSV, b.opt.Name, why)
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	all, err := readCSVRecords(cr, b)
	if err != nil {
		return err
	}
	var rows [][]string
	var lines []int
	for i, r := range all {
		if i == 0 {
			continue // the header
		}
		rows, lines = append(rows, r.fields), append(lines, r.line)
	}
	// The unit: the tag's, else bytes when every value is a byte count
	// as the allocator gives it.
	unit := t.unit
	if unit == "" {
		for _, rec := range rows {
			if len(rec) == 3 && handBytes(strings.TrimSpace(rec[2]), "", true) < 0 {
				return fmt.Errorf("%s log: tag %q names no unit and its values are not whole byte counts (e.g. %q): name the unit in the tag (gpu_mem_allocated_GiB)", FormatTensorBoardCSV, t.tag, clip(rec[2]))
			}
		}
	}
	read := 0
	for i, rec := range rows {
		n := lines[i]
		if len(rec) != 3 {
			b.skip(n, kindBadRow, fmt.Sprintf("%d fields, the header has 3", len(rec)))
			continue
		}
		tm, elapsed, okT := numericTime(rec[0], 1)
		step, errS := strconv.ParseInt(strings.TrimSpace(rec[1]), 10, 64)
		v := handBytes(strings.TrimSpace(rec[2]), unit, true)
		if !okT || elapsed || errS != nil || step < 0 || v < 0 {
			b.skip(n, kindBadRow, fmt.Sprintf("%q is not a Unix time, a step and a memory figure", clip(strings.Join(rec, ","))))
			continue
		}
		read++
		if t.figure == "used" {
			s := unknownSample(max(t.device, 0), tm)
			s.MemoryUsed = v
			b.device(GPU{Index: max(t.device, 0)})
			b.log.Samples = append(b.log.Samples, s)
			continue
		}
		ms := MemoryStatsSample{Step: step, Time: tm, Device: max(t.device, 0), DeviceAssumed: t.device < 0, Rank: input.NoRank,
			Allocated: Unknown, Reserved: Unknown, Active: Unknown, InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown}
		if t.figure == "allocated" {
			ms.Allocated = v
		} else {
			ms.Reserved = v
		}
		b.log.MemoryStats = append(b.log.MemoryStats, ms)
	}
	if read == 0 {
		return nil
	}
	dev := "cuda:0 (the tag names no device)"
	if t.device >= 0 {
		dev = fmt.Sprintf("device %d", t.device)
	}
	what := "memory_stats readings' " + t.figure + " memory"
	if t.figure == "used" {
		what = "the GPU's used memory"
	}
	n := fmt.Sprintf("TensorBoard scalar download of tag %q: Value is read as %s of %s, at its step and wall time", t.tag, what, dev)
	switch u := strings.ToUpper(unit); u {
	case "":
		n += "; the tag names no unit and every value is a whole byte count: read as bytes"
	case "GB", "MB", "KB":
		n += fmt.Sprintf("; the unit %s is read as written, as powers of 1000, but scripts that divide by 1024**3 name it GB too, and then the figures are %s low: the trend's verdict does not depend on it, its time to capacity does", u, map[string]string{"GB": "7.4%", "MB": "4.9%", "KB": "2.4%"}[u])
	}
	b.note(n)
	return nil
}
