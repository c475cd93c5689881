package gpulog

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// nvitop (github.com/XuehaiPan/nvitop) prints, with -1/--once, its device
// panel as nvidia-smi's table drawn with box-drawing characters:
//
//	Wed Jul 19 07:56:04 2023
//	╒═════════════════════════════════════════════════════════════════════════════╕
//	│ NVITOP 1.3.0       Driver Version: 535.54.03      CUDA Driver Version: 12.2 │
//	├───────────────────────────────┬──────────────────────┬──────────────────────┤
//	│ GPU  Name        Persistence-M│ Bus-Id        Disp.A │ Volatile Uncorr. ECC │
//	│ Fan  Temp  Perf  Pwr:Usage/Cap│         Memory-Usage │ GPU-Util  Compute M. │
//	╞═══════════════════════════════╪══════════════════════╪══════════════════════╡
//	│   0  A100-SXM4-80GB      On   │ 00000000:07:00.0 Off │                    0 │
//	│ N/A   34C    P0    62W / 400W │  4.72GiB / 80.00GiB  │      0%      Default │
//	╘═══════════════════════════════╧══════════════════════╧══════════════════════╛
//
// (nvitop/tui/screens/main/panels/device.py; with -U, or a terminal
// without Unicode, the same in ASCII). Wider output appends bar charts
// ("MEM: ███ 5.9%") as a further cell, which holds no figure read. The
// memory figures are its bytes2human: binary units with their suffix
// (MiB below 20 GiB, GiB to two decimals above, within 5 MiB), so the
// rows are read as nvidia-smi's are, the units as written. nvitopASCII
// turns the box characters into nvidia-smi's ASCII, so that the table
// reader (nvsmi_table.go) reads both, and the NVITOP banner opens a table
// as the NVIDIA-SMI one does. nvitop's host panel and its process panel
// (a table of its own, "Processes:", GPU-MEM in the same human units) are
// not read: the lines are skipped and counted.

// nvitopASCII returns s with nvitop's box-drawing characters as
// nvidia-smi draws its table: "│" as "|", a "╞═╪═╡" rule (the one under
// the header) as "|=+=|", other rules and corners as "+---+". A line that
// does not start with one of them is returned as it is.
func nvitopASCII(s string) string {
	if len(s) < 3 || s[0] != 0xe2 {
		return s
	}
	var first rune
	for _, r := range s {
		first = r
		break
	}
	if !strings.ContainsRune("│╒├╞╘", first) {
		return s
	}
	header := first == '╞'
	return strings.Map(func(r rune) rune {
		switch r {
		case '│':
			return '|'
		case '╞', '╡':
			return '|'
		case '╒', '╕', '├', '┤', '╘', '╛', '╪', '┼', '┬', '┴', '╤', '╧':
			return '+'
		case '═':
			if header {
				return '='
			}
			return '-'
		case '─':
			return '-'
		}
		return r
	}, s)
}

// isTableBanner reports whether s (in ASCII) is a table's banner line:
// nvidia-smi's or nvitop's.
func isTableBanner(s string) bool {
	return strings.HasPrefix(s, "| NVIDIA-SMI ") || strings.HasPrefix(s, "| NVITOP ")
}

// nvitop's ResourceMetricCollector (nvitop/api/collector.py) gives, for
// each collect() or daemonize() interval, a dict of keys
//
//	metrics-daemon/cuda:0 (gpu:3)/memory_used (MiB)/mean
//	metrics-daemon/gpu:1/memory_free (MiB)/max
//	metrics-daemon/host/cpu_percent (%)/mean
//	metrics-daemon/timestamp
//
// (the tag, the device, the metric with its unit, the aggregate), which a
// script writes as CSV rows under those keys (csv.DictWriter).
// nvitopCollectorLayout reads such a header: per device, the mean of
// memory_used, memory_free and gpu_utilization (the interval's min and
// max are passed over: the mean is the interval's reading), and the
// timestamp (Unix seconds). A CudaDevice's "cuda:I (gpu:P)" is the
// process's CUDA device I on physical GPU P (CUDA_VISIBLE_DEVICES): the
// readings are GPU P's, as nvidia-smi numbers it, and a note gives the
// mapping. Host metrics are passed over.

// reNvitopKey matches a collector key: tag, device (cuda and physical
// index, or the physical index alone), metric, unit, aggregate.
var reNvitopKey = regexp.MustCompile(`^(?:.+/)?(?:cuda:(\d{1,3}) \(gpu:(\d{1,3})\)|gpu:(\d{1,3}))/(memory_used|memory_free|memory_total|gpu_utilization) \((MiB|GiB|%)\)/(mean|min|max|last)$`)

// nvitopCollectorLayout is the layout of a ResourceMetricCollector CSV
// header; nil when no column is a device's memory.
func nvitopCollectorLayout(header []string) *csvLayout {
	lay := &csvLayout{format: FormatCSVColumns, header: header, timeCol: -1, gpuCol: -1, nameCol: -1, uuidCol: -1, stepCol: -1, gpuSpecific: true}
	found := false
	mapped := map[int]int{}
	for i, h := range header {
		name := strings.TrimSpace(h)
		c := column{idx: i, name: h, gpu: -1}
		if name == "timestamp" || strings.HasSuffix(name, "/timestamp") {
			c.kind, c.timeScale = colTime, 1
		}
		if m := reNvitopKey.FindStringSubmatch(name); m != nil && m[6] == "mean" {
			if m[1] != "" {
				c.gpu, _ = atoi(m[2])
				cuda, _ := atoi(m[1])
				mapped[cuda] = c.gpu
			} else {
				c.gpu, _ = atoi(m[3])
			}
			switch m[4] {
			case "memory_used":
				c.kind, found = colUsed, true
			case "memory_free":
				c.kind = colFree
			case "memory_total":
				c.kind = colTotal
			case "gpu_utilization":
				c.kind = colUtil
			}
			switch m[5] {
			case "MiB":
				c.unit = mib
			case "GiB":
				c.unit = 1 << 30
			case "%":
				if c.kind != colUtil {
					c.kind = colNone
				}
			}
		}
		lay.add(c)
	}
	if !found {
		return nil
	}
	if len(mapped) > 0 {
		cudas := slices.Sorted(maps.Keys(mapped))
		var parts []string
		for _, cu := range cudas {
			parts = append(parts, fmt.Sprintf("cuda:%d is GPU %d", cu, mapped[cu]))
		}
		lay.note = "nvitop ResourceMetricCollector columns: each device's interval mean is read; the header maps the process's CUDA devices to physical GPUs (" + strings.Join(parts, ", ") + "), and the readings are the physical GPUs'"
	}
	return lay
}
