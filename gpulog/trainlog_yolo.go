package gpulog

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"gpureport/input"
)

// YOLOv5's and Ultralytics' trainers print a progress line per batch under
// a header naming its columns, the second of which is the caching
// allocator's reserved memory:
//
//	      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size
//	      1/100      3.21G      1.234      2.345      1.111         31        640: 100%|...
//
// The figure is torch.cuda.memory_reserved() divided by a unit the line
// does not name, printed with "%.3g" and a "G". The unit is the printer's:
//
//   - YOLOv5 (train.py, segment/train.py, classify/train.py since its first
//     release; and ultralytics/yolov3 9.x, the same code) divides by 1E9
//     (the header read "gpu_mem" before August 2022): decimal GB.
//   - Ultralytics' BaseTrainer (ultralytics 8.x, "YOLOv8" and later
//     models) divided by 1E9 until its _get_memory was rewritten in
//     January 2025 (ultralytics PR 18949, fixed by PR 19256 in February
//     2025) to divide by 2**30: GiB from then on. Releases before 8.3.0
//     (September 2024) are older than the change, and releases from
//     8.3.100 (spring 2025) are newer; which 8.3 release between took it
//     is not settled here, so the unit of 8.3.0 to 8.3.99 is ambiguous.
//
// The printer and its release are the banner select_device logs at start
// ("Ultralytics YOLOv8.0.18 🚀 Python-3.9.13 torch-1.13.0 CUDA:0 (NVIDIA
// GeForce RTX 3090, 24576MiB)", "Ultralytics 8.3.40 🚀 ...", "YOLOv5 🚀
// v7.0-1-g... ..."), which also gives the device's total memory in MiB
// (total_memory / (1 << 20), rounded): kept as a DeviceCapacity. A log
// without the banner, or of an ambiguous release, is read in decimal GB,
// the unit of every release but the newest, and a note says the figures
// are 7.4% low if the printer divided by 2**30. GB and GiB differ by a
// constant factor, so the trend's shape and its verdict do not depend on
// the choice; only the figures and the time to capacity do.
//
// The step is the epoch as printed (YOLOv5 counts from 0, Ultralytics
// from 1); the progress bar is redrawn through the epoch, and the epoch's
// last line read stands for it. A figure of 0 is a CPU run's (the
// trainers print 0 without CUDA) and an MPS run's figure is Metal's
// driver memory, not CUDA's reserved memory: neither is read.

var (
	// reYOLOBanner is select_device's banner: Ultralytics' release, or
	// YOLOv5's (or YOLOv3 9.x's) name.
	reUltralyticsBanner = regexp.MustCompile(`\bUltralytics (?:YOLOv)?(\d+)\.(\d+)\.(\d+)\b`)
	reYOLOv5Banner      = regexp.MustCompile(`\bYOLOv[35] (?:🚀 )?(?:v\d|\d{4}-\d)`)
	// reYOLOCapacity is the banner's first CUDA device and its MiB.
	reYOLOCapacity = regexp.MustCompile(`\bCUDA:(\d+) \((.+?), (\d+)MiB\)`)
	// reYOLOHeader is the progress header, GPU_mem its second column.
	reYOLOHeader = regexp.MustCompile(`^\s*Epoch\s+(?:GPU_mem|gpu_mem)\s`)
	// reYOLOProgress is a progress line: the epoch of N and the figure.
	reYOLOProgress = regexp.MustCompile(`^\s*(\d+)/(\d+)\s+(\d+(?:\.\d+)?)G\s`)
)

// yoloUnit is how a GPU_mem figure is read.
type yoloUnit int

const (
	// yoloUnknown: no banner, or a release whose unit is not settled.
	yoloUnknown yoloUnit = iota
	// yoloGB: decimal GB (divided by 1E9).
	yoloGB
	// yoloGiB: GiB (divided by 2**30).
	yoloGiB
)

// yoloState follows YOLOv5's and Ultralytics' output through a log.
type yoloState struct {
	// unit is the banner's unit, printer its name ("YOLOv5", "Ultralytics
	// 8.3.40"); header is true after a progress header.
	unit    yoloUnit
	printer string
	header  bool
	// notCUDA is true when the banner names no CUDA device (CPU, MPS).
	notCUDA bool
	// last is 1 + the index in MemoryStats of the previous reading, 0
	// when none; noted is true once the note was added.
	last  int
	noted bool
}

// ultralyticsUnit is the unit of an Ultralytics release's GPU_mem.
func ultralyticsUnit(major, minor, patch int) yoloUnit {
	switch {
	case major < 8 || major == 8 && minor < 3:
		return yoloGB
	// 8.3.100 and later came out after PR 19256 (February 2025); 8.3.0
	// to 8.3.99 straddle the change.
	case major > 8 || minor > 3 || patch >= 100:
		return yoloGiB
	}
	return yoloUnknown
}

// line reads line n; it returns true when the line gave a reading.
func (y *yoloState) line(b *logBuilder, n int, line string) bool {
	banner := strings.Contains(line, "YOLOv") || strings.Contains(line, "Ultralytics")
	header := strings.Contains(line, "_mem")
	if !banner && !header && (!y.header || y.notCUDA || !strings.Contains(line, "G ")) {
		return false
	}
	if strings.IndexByte(line, 0x1b) >= 0 || strings.IndexByte(line, '\r') >= 0 {
		line = visibleText(line)
	}
	if banner && y.banner(b, n, line) {
		return false
	}
	if header && reYOLOHeader.MatchString(line) {
		y.header = true
		return false
	}
	if !y.header || y.notCUDA {
		return false
	}
	m := reYOLOProgress.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	epoch := fwStep(m[1])
	v, err := strconv.ParseFloat(m[3], 64)
	if err != nil || v <= 0 || epoch == input.NoStep {
		return false
	}
	div := 1e9
	if y.unit == yoloGiB {
		div = 1 << 30
	}
	bytes := v * div
	if bytes > float64(maxMiB)*mib {
		return false
	}
	r := MemoryStatsSample{Step: epoch, Rank: input.NoRank, Allocated: Unknown, Reserved: int64(math.Round(bytes)), Active: Unknown,
		InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown}
	if !y.noted {
		y.noted = true
		b.note(y.note())
	}
	ms := b.log.MemoryStats
	if y.last > 0 && y.last == len(ms) && ms[y.last-1].Step == epoch {
		ms[y.last-1] = r
		return true
	}
	y.last = len(ms) + 1
	b.log.MemoryStats = append(ms, r)
	return true
}

// banner reads select_device's banner; true when line is one.
func (y *yoloState) banner(b *logBuilder, n int, line string) bool {
	if m := reUltralyticsBanner.FindStringSubmatch(line); m != nil {
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		patch, _ := strconv.Atoi(m[3])
		y.unit, y.printer = ultralyticsUnit(major, minor, patch), "Ultralytics "+m[1]+"."+m[2]+"."+m[3]
	} else if reYOLOv5Banner.MatchString(line) {
		y.unit, y.printer = yoloGB, strings.Fields(line[reYOLOv5Banner.FindStringIndex(line)[0]:])[0]
	} else {
		return false
	}
	c := reYOLOCapacity.FindStringSubmatch(line)
	y.notCUDA = c == nil
	if c != nil {
		if total := mibFigure(c[3]); total > 0 {
			b.log.Capacities = append(b.log.Capacities, DeviceCapacity{Line: n, Rank: input.NoRank, Device: -1, Name: c[2], Type: "cuda",
				Total: total, Precision: mib / 2, Framework: "ultralytics"})
		}
	}
	return true
}

// note says how the figures were read.
func (y *yoloState) note() string {
	const what = "YOLOv5/Ultralytics progress lines (\"E/N  X.XXG ...\" under the header \"Epoch GPU_mem ...\") are read as the reserved memory (torch.cuda.memory_reserved()) of the process's device, assumed to be cuda:0, at the end of each epoch, the step being the epoch as printed; "
	switch {
	case y.unit == yoloGiB:
		return what + "the banner names " + y.printer + ", which divides by 2**30, so G is GiB"
	case y.unit == yoloGB && y.printer != "":
		return what + "the banner names " + y.printer + ", which divides by 1E9, so G is decimal GB"
	case y.printer != "":
		return what + "the unit is ambiguous: the banner names " + y.printer + ", and Ultralytics changed GPU_mem from memory_reserved()/1E9 to /2**30 during 8.3 (January-February 2025); it is read as decimal GB, so the figures are 7.4% low if this release divides by 2**30 (the trend's shape does not depend on it, its time to capacity does)"
	}
	return what + "the unit is ambiguous: no banner names the printer, and YOLOv5 and Ultralytics before 8.3 divide by 1E9 while later Ultralytics releases divide by 2**30; it is read as decimal GB, so the figures are 7.4% low if the printer divided by 2**30 (the trend's shape does not depend on it, its time to capacity does)"
}
