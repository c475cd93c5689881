package placement

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"gpureport/gpulog"
	"gpureport/internal/natural"
)

// A multi-node run leaves one GPU log per node (node0/gpu.csv,
// node1/gpu.csv), and every node numbers its GPUs from 0. Read as one
// machine's, node1's GPU 0 and node0's GPU 0 were one GPU: their readings
// merged into a zigzag, and ranks joined the wrong node's GPUs.
//
// separateHosts finds such logs by their evidence: two logs that read the
// same GPU index at the same times (within hostMatchWindow) but see
// different used memory cannot be reading one GPU. Logs are taken in the
// natural order of their paths (node2 before node10); each joins the
// first host whose logs it agrees with or cannot be compared with, else it
// starts a host of its own. The hosts' GPUs are then numbered one host
// after another, hosts in the natural order of their first logs' paths,
// by the rule a labelled log's machines are numbered with in package
// gpulog (natural.Consecutive): the second host's GPU 0 becomes GPU N, N
// the first host's GPU count, and so on, which is also how torchrun
// numbers global ranks across nodes, so "GPU r for rank r" still holds. A
// note names each renumbered log and its offset.
//
// Readings need the logs to overlap in time. Logs of different times (a
// folder gathering nvidia-smi outputs of several machines, one a day)
// are told apart by what they say of the GPU at an index instead: a
// different UUID, bus id or product name, or a framebuffer size that
// differs by more than ECC can change it, is another GPU
// (identityDiffers). Logs that say nothing of their GPUs, or the same,
// stay one machine, as two days' logs of one machine are.

// hostMatchWindow is how close in time two readings must be to be
// compared: sampling intervals are a second or more, and two loggers on
// one machine read within a fraction of one.
const hostMatchWindow = 2 * time.Second

// hostMinPairs is the fewest compared reading pairs that decide whether
// two logs read the same GPUs: one or two could be a coincidence of idle
// GPUs on two hosts.
const hostMinPairs = 3

// hostSameSlack is how far apart two readings of one GPU may be, in bytes:
// loggers sample a moment apart while a training step allocates and
// frees, and round to MiB. Used memory of two different GPUs running the
// same job differs by the CUDA context and the ranks' data, usually far
// more; the relative slack is hostSameFraction of the larger reading.
const (
	hostSameSlack    = 64 << 20
	hostSameFraction = 0.02
)

// machineWide are the formats whose used memory is the whole GPU's, as
// the driver counts it (NVML, nvidia-smi, DCGM, gpustat): two of them
// reading one GPU at one time agree. A CSV of a script's own columns may
// log PyTorch's allocated memory under a "used" name, which differs from
// the driver's on the same GPU; such logs never start a machine of their
// own and keep their GPU numbers.
var machineWide = map[gpulog.LogFormat]bool{
	gpulog.FormatQueryCSV: true, gpulog.FormatTable: true, gpulog.FormatXML: true, gpulog.FormatDmon: true,
	gpulog.FormatNVML: true, gpulog.FormatDCGMProm: true, gpulog.FormatPromJSON: true, gpulog.FormatDCGMDmon: true,
	gpulog.FormatGpustat: true, gpulog.FormatGpustatJSON: true, gpulog.FormatQueryText: true,
}

// reading is one timed memory.used reading, bytes.
type reading struct {
	t    time.Time
	used int64
}

// logReadings indexes a log's timed memory.used readings by GPU index,
// each GPU's in time order.
func logReadings(l *gpulog.GPULog) map[int][]reading {
	out := map[int][]reading{}
	for _, s := range l.Samples {
		if !s.Time.IsZero() && s.MemoryUsed >= 0 {
			out[s.GPU] = append(out[s.GPU], reading{s.Time, s.MemoryUsed})
		}
	}
	for _, rs := range out {
		slices.SortStableFunc(rs, func(a, b reading) int { return a.t.Compare(b.t) })
	}
	return out
}

// sameGPUs compares two logs' readings of the GPU indexes they share at
// matching times: agree or differ, or neither when too few pairs match.
func sameGPUs(a, b map[int][]reading) (agree, differ bool) {
	var same, diff int
	for idx, ra := range a {
		rb := b[idx]
		for _, r := range ra {
			// The reading of b nearest in time, if within the window.
			j, _ := slices.BinarySearchFunc(rb, r.t, func(x reading, t time.Time) int { return x.t.Compare(t) })
			best := -1
			for _, k := range []int{j - 1, j} {
				if k >= 0 && k < len(rb) && rb[k].t.Sub(r.t).Abs() <= hostMatchWindow &&
					(best < 0 || rb[k].t.Sub(r.t).Abs() < rb[best].t.Sub(r.t).Abs()) {
					best = k
				}
			}
			if best < 0 {
				continue
			}
			d := r.used - rb[best].used
			if d < 0 {
				d = -d
			}
			if d <= max(hostSameSlack, int64(hostSameFraction*float64(max(r.used, rb[best].used)))) {
				same++
			} else {
				diff++
			}
		}
	}
	if same+diff < hostMinPairs {
		return false, false
	}
	// Most pairs decide: a few disagreements are readings taken across
	// a step's allocation, a few agreements idle moments of two GPUs.
	return 3*same >= 2*(same+diff), 3*diff >= 2*(same+diff)
}

// separateHosts renumbers the GPUs of logs that read other machines'
// GPUs (see above) and returns the note that says so; nil when the logs
// read one machine.
func separateHosts(logs []*gpulog.GPULog) []Note {
	type host struct {
		logs     []*gpulog.GPULog
		readings []map[int][]reading
		maxIndex int
	}
	var hosts []*host
	var byReadings, byIdentity bool
	ordered := slices.Clone(logs)
	slices.SortStableFunc(ordered, func(a, b *gpulog.GPULog) int {
		return cmp.Or(natural.Compare(a.Path, b.Path), cmp.Compare(a.Path, b.Path))
	})
	for _, l := range ordered {
		if len(l.Samples) == 0 || !machineWide[l.Format] {
			continue
		}
		r := logReadings(l)
		placed := false
		for _, h := range hosts {
			differs := false
			for i, hr := range h.readings {
				if _, d := sameGPUs(r, hr); d {
					differs, byReadings = true, true
					break
				}
				if identityDiffers(l, h.logs[i]) {
					differs, byIdentity = true, true
					break
				}
			}
			if !differs {
				h.logs = append(h.logs, l)
				h.readings = append(h.readings, r)
				h.maxIndex = max(h.maxIndex, maxGPUIndex(l))
				placed = true
				break
			}
		}
		if !placed {
			hosts = append(hosts, &host{logs: []*gpulog.GPULog{l}, readings: []map[int][]reading{r}, maxIndex: maxGPUIndex(l)})
		}
	}
	if len(hosts) < 2 {
		return nil
	}
	names, sizes := make([]string, len(hosts)), make([]int, len(hosts))
	for i, h := range hosts {
		names[i], sizes[i] = h.logs[0].Path, h.maxIndex+1
	}
	first, order := natural.Consecutive(names, sizes)
	var moved []MovedLog
	for _, i := range order[1:] { // the first host keeps its numbers
		for _, l := range hosts[i].logs {
			shiftGPUs(l, first[i])
			moved = append(moved, MovedLog{Path: l.Path, FirstGPU: first[i]})
		}
	}
	return []Note{{Kind: NoteMachinesNumbered, Machines: &MachineNumbering{Machines: len(hosts), Moved: moved, ByReadings: byReadings, ByIdentity: byIdentity}}}
}

// eccTotalFraction is how far apart two logs' framebuffer sizes of one
// GPU may be: turning ECC on takes up to a sixteenth (6.25%) of a GDDR
// card's memory, and drivers round the size a little differently; two
// products' sizes differ by more (16, 24, 32, 40, 48, 80, 94 GB).
const eccTotalFraction = 0.10

// identityDiffers reports whether logs a and b say different things of
// the GPU at some index both list: a different UUID, bus id or product
// name, or framebuffer sizes apart by more than eccTotalFraction. The
// first fact both logs state decides, in that order: the UUID is the
// GPU, a bus id its slot, a name only its product (two machines of one
// product and slot are not told apart).
func identityDiffers(a, b *gpulog.GPULog) bool {
	byIndex := map[int]gpulog.GPU{}
	for _, g := range b.GPUs {
		if g.Index >= 0 {
			byIndex[g.Index] = g
		}
	}
	for _, g := range a.GPUs {
		h, ok := byIndex[g.Index]
		if g.Index < 0 || !ok {
			continue
		}
		switch {
		case g.UUID != "" && h.UUID != "":
			if !strings.EqualFold(g.UUID, h.UUID) {
				return true
			}
		case g.BusID != "" && h.BusID != "":
			if !strings.EqualFold(g.BusID, h.BusID) {
				return true
			}
			fallthrough
		default:
			if gn, hn := productName(g.Name), productName(h.Name); gn != "" && hn != "" &&
				!strings.HasPrefix(gn, hn) && !strings.HasPrefix(hn, gn) {
				return true
			}
			if g.MemoryTotal > 0 && h.MemoryTotal > 0 &&
				float64(abs64(g.MemoryTotal-h.MemoryTotal)) > eccTotalFraction*float64(max(g.MemoryTotal, h.MemoryTotal)) {
				return true
			}
		}
	}
	return false
}

// productName is a GPU product name compared across logs: lower case,
// runs of spaces as one, without the trailing "..." a table may cut it
// with, and without the "NVIDIA " drivers from R510 put before the names
// older ones print bare ("A100-SXM4-80GB", "GeForce RTX 3090"): a driver
// upgrade between two days' logs renames no GPU. A table cuts long names to its column ("NVIDIA GeForce RTX 3060
// L"), so identityDiffers takes a name that begins another as the same.
func productName(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimPrefix(strings.TrimRight(s, ". "), "nvidia ")
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// maxGPUIndex is the highest GPU index a log reads (0 when none).
func maxGPUIndex(l *gpulog.GPULog) int {
	m := 0
	for _, g := range l.GPUs {
		m = max(m, g.Index)
	}
	return m
}

// shiftGPUs renumbers every GPU of log l by offset. It writes new
// slices: l is placement's own copy of a log, whose slices are still the
// log as read.
func shiftGPUs(l *gpulog.GPULog, offset int) {
	l.GPUs, l.Samples = slices.Clone(l.GPUs), slices.Clone(l.Samples)
	l.Processes, l.MIG = slices.Clone(l.Processes), slices.Clone(l.MIG)
	for i := range l.GPUs {
		if l.GPUs[i].Index >= 0 {
			l.GPUs[i].Index += offset
		}
	}
	for i := range l.Samples {
		l.Samples[i].GPU += offset
	}
	for i := range l.Processes {
		if l.Processes[i].GPU >= 0 {
			l.Processes[i].GPU += offset
		}
	}
	for i := range l.MIG {
		l.MIG[i].GPU += offset
	}
}
