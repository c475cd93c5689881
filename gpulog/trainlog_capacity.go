package gpulog

import (
	"regexp"
	"strconv"
	"strings"
)

// torchtitan logs its device's memory once at start (build_device_memory_monitor
// in torchtitan/components/metrics.py):
//
//	CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory
//
// the prefix being the device type in capitals (CUDA, XPU, NPU; "GPU" in
// releases before the rename, which also printed the device index:
// "GPU capacity: NVIDIA H100 80GB HBM3 (0) with 79.11GiB memory"). The
// figure is torch.cuda.get_device_properties(device).total_memory / 1024**3
// to two decimals: the device's total capacity as PyTorch sees it, to
// within 5 MiB, the same figure an OOM message's "total capacity" gives.
// It is kept as a DeviceCapacity; analyze may take it as the capacity of
// the rank's device when no GPU log, capture manifest or OOM message gives
// one.

// fairseq's Trainer prints every worker's device at start
// (CudaEnvironment.pretty_print_cuda_env_list in fairseq/utils.py), on
// rank 0:
//
//	rank   0: capabilities =  8.0  ; total memory = 79.151 GB ; name = NVIDIA A100-SXM4-80GB
//
// "rank N" being the worker's data-parallel rank and the figure
// get_device_properties(current_device).total_memory / 1024 / 1024 / 1024
// to three decimals: GiB, though printed "GB". It is kept as a
// DeviceCapacity of that rank's device (within 0.5 MiB), and gives the
// total the gb_free of fairseq's progress lines is taken from
// (frameworkState.fairseqLine).

// reFairseqCapacity matches fairseq's line: the rank, the GiB figure and
// the name.
var reFairseqCapacity = regexp.MustCompile(`\brank\s+(\d+): capabilities =\s*\d+\.\d+\s*; total memory = (\d+(?:\.\d+)?) GB ; name = (.*?)\s*$`)

// reTitanCapacity matches torchtitan's capacity line: the name, the
// optional device index and the GiB figure.
var reTitanCapacity = regexp.MustCompile(`\b(CUDA|GPU|XPU|NPU|MPS|HPU|MTIA|ROCM|HIP) capacity: (.+?)(?: \((\d+)\))? with (\d+(?:\.\d+)?)\s?GiB memory\b`)

// DeviceCapacity is a device's total memory as a training framework
// printed it at start.
type DeviceCapacity struct {
	// Line is the 1-based line; Rank the rank its prefix gives
	// (input.NoRank when none).
	Line, Rank int
	// Device is the device index the line gives, -1 when it gives none
	// (the rank's current device).
	Device int
	// Name is the device's name as printed.
	Name string
	// Type is the PyTorch device type the line's prefix names ("cuda" for
	// CUDA, for the "GPU" of releases before the rename, which read CUDA
	// devices only, and for ROCm's; "xpu", "npu", "mps", ...).
	Type string
	// Total is the capacity in bytes, rounded as printed; Precision is
	// half the printed figure's last digit, in bytes (5 MiB for
	// torchtitan's 0.01 GiB).
	Total, Precision int64
	// Framework names the printer ("torchtitan", "fairseq").
	Framework string
}

// capacityLine reads a capacity line; it returns true when line n was one.
func capacityLine(b *logBuilder, n int, line string) bool {
	// The quick test leaves out the space reTitanCapacity has before
	// "capacity": a needle that starts with a space is found at every
	// word, several times slower on every line of a log.
	if strings.Contains(line, "total memory = ") {
		return fairseqCapacity(b, n, line)
	}
	if !strings.Contains(line, "capacity: ") {
		return false
	}
	m := reTitanCapacity.FindStringSubmatch(visibleText(line))
	if m == nil {
		return false
	}
	total := fwBytes(m[4], "GiB")
	if total <= 0 {
		return false
	}
	dev := -1
	if m[3] != "" {
		if d, err := strconv.Atoi(m[3]); err == nil {
			dev = d
		}
	}
	_, rank := fwTimeRank(b, line)
	typ := strings.ToLower(m[1])
	switch typ {
	case "gpu", "rocm", "hip":
		typ = "cuda"
	}
	b.log.Capacities = append(b.log.Capacities, DeviceCapacity{Line: n, Rank: rank, Device: dev, Name: strings.TrimSpace(m[2]), Type: typ,
		Total: total, Precision: gibPrecision(m[4]), Framework: "torchtitan"})
	return true
}

// fairseqCapacity reads fairseq's line; it returns true when line n was
// one.
func fairseqCapacity(b *logBuilder, n int, line string) bool {
	m := reFairseqCapacity.FindStringSubmatch(visibleText(line))
	if m == nil {
		return false
	}
	total := fwBytes(m[2], "GiB")
	rank, err := strconv.Atoi(m[1])
	if total <= 0 || err != nil {
		return false
	}
	b.log.Capacities = append(b.log.Capacities, DeviceCapacity{Line: n, Rank: rank, Device: -1, Name: m[3], Type: "cuda",
		Total: total, Precision: gibPrecision(m[2]), Framework: "fairseq"})
	return true
}

// gibPrecision is half the last digit of a GiB figure, in bytes.
func gibPrecision(figure string) int64 {
	prec := int64(1<<30) / 2
	if _, frac, ok := strings.Cut(figure, "."); ok {
		for range frac {
			prec /= 10
		}
	}
	return prec
}
