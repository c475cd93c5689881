package gpulog

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The plain nvidia-smi table, as `nvidia-smi -l N > log` or a loop of
// `date; nvidia-smi` writes it:
//
//	Fri Aug  1 15:47:06 2025
//	+-----------------------------------------------------------------------------------------+
//	| NVIDIA-SMI 570.133.20             Driver Version: 570.133.20     CUDA Version: 12.8     |
//	|-----------------------------------------+------------------------+----------------------+
//	| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
//	| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
//	|=========================================+========================+======================|
//	|   0  NVIDIA H100 80GB HBM3          Off |   00000000:AB:00.0 Off |                    0 |
//	| N/A   33C    P0             73W /  700W |       0MiB /  81559MiB |      0%      Default |
//	...
//	| Processes:                                                                              |
//	|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |
//	|=========================================================================================|
//	|    0   N/A  N/A   3535531      C   python                                      868MiB |
//
// Column widths changed at drivers ~530 and ~535 and differ on Windows
// (WDDM/TCC instead of On/Off), so cells are found by the '|' separators
// and their content by shape (an index then a name; a bus id; "used /
// total" with MiB; "NW / NW"; "N%"), never by column position. A GPU row
// is followed by its memory row; the process table's rows are GPU, [GI
// CI,] PID, type, name (possibly cut with "..."), memory. The MIG devices
// table, when present, gives MIGSample readings. One sample is one table:
// it starts at the "| NVIDIA-SMI" line and is dated by the date line
// before it (no date line: zero time).

// tableSection is the part of a table the parser is in.
type tableSection uint8

const (
	secNone tableSection = iota
	secGPUs
	secProcs
	secMIG
)

// tableGPU is a GPU row of one table and its memory row.
type tableGPU struct {
	line      int
	index     int
	name, bus string
	haveMem   bool
	used      int64
	total     int64
	util      float64
	power     float64
}

// tableParser reads one table.
type tableParser struct {
	st *textState
	// lines are the line numbers fed, skipped when the table turns out not
	// to be nvidia-smi's (no banner).
	lines      []int
	time       time.Time
	dated      bool
	seenHeader bool
	// nvitop is true when the banner is nvitop's (nvitop.go), whose
	// process rows are not nvidia-smi's and are not read.
	nvitop  bool
	section tableSection
	pending tableSection
	gpus    []tableGPU
	procs   []reading
	mig     []MIGSample
}

func newTableParser(st *textState, line int, t time.Time, dated bool) *tableParser {
	return &tableParser{st: st, time: t, dated: dated}
}

// isTableStart reports whether a line opens an nvidia-smi table: its top
// border or its "| NVIDIA-SMI" banner.
func isTableStart(s string) bool {
	if isTableBanner(s) {
		return true
	}
	if len(s) < 20 || !strings.HasPrefix(s, "+--") || s[len(s)-1] != '+' {
		return false
	}
	return strings.Trim(s, "+-=") == ""
}

// feed reads one line of the table (starting with '|' or '+'); false
// means the line starts another table.
func (tp *tableParser) feed(n int, s string) bool {
	if isTableBanner(s) && tp.seenHeader {
		return false
	}
	tp.lines = append(tp.lines, n)
	if isTableBanner(s) {
		tp.seenHeader = true
		tp.nvitop = strings.HasPrefix(s, "| NVITOP ")
		if _, v, ok := strings.Cut(s, "Driver Version:"); ok {
			if f := strings.Fields(v); len(f) > 0 && tp.st.b.log.Driver == "" {
				tp.st.b.log.Driver = f[0]
			}
		}
		return true
	}
	if s[0] == '+' {
		return true
	}
	if strings.HasPrefix(s, "|=") {
		tp.section, tp.pending = tp.pending, secNone
		return true
	}
	switch {
	case strings.Contains(s, "| Processes:"):
		tp.section, tp.pending = secNone, secProcs
		return true
	case strings.Contains(s, "| MIG devices:"):
		tp.section, tp.pending = secNone, secMIG
		return true
	case strings.Contains(s, "Bus-Id") && strings.Contains(s, "GPU"):
		tp.section, tp.pending = secNone, secGPUs
		return true
	}
	cells := tableCells(s)
	switch tp.section {
	case secGPUs:
		tp.gpuLine(n, cells)
	case secProcs:
		if !tp.nvitop {
			tp.procLine(n, cells)
		}
	case secMIG:
		tp.migLine(cells)
	}
	return true
}

// tableCells splits "| a | b |" into its trimmed cells.
func tableCells(s string) []string {
	s = strings.TrimPrefix(s, "|")
	s = strings.TrimSuffix(s, "|")
	cells := strings.Split(s, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// gpuLine reads a line of the GPU section: a GPU row, its memory row, or
// a continuation line (MIG mode, ECC) that holds nothing needed.
func (tp *tableParser) gpuLine(n int, cells []string) {
	if len(cells) >= 2 {
		f := strings.Fields(cells[0])
		b := strings.Fields(cells[1])
		if len(f) >= 2 && len(b) >= 1 && isBusID(b[0]) {
			if idx, ok := atoi(f[0]); ok {
				name := f[1:]
				if last := name[len(name)-1]; len(name) > 1 && (last == "On" || last == "Off" || last == "WDDM" || last == "TCC") {
					name = name[:len(name)-1]
				}
				tp.gpus = append(tp.gpus, tableGPU{line: n, index: idx, name: strings.Join(name, " "), bus: normBusID(b[0]),
					used: Unknown, total: Unknown, util: math.NaN(), power: math.NaN()})
				return
			}
		}
	}
	if len(tp.gpus) == 0 {
		return
	}
	g := &tp.gpus[len(tp.gpus)-1]
	if g.haveMem {
		return
	}
	for i, c := range cells {
		used, total, ok := strings.Cut(c, "/")
		// nvidia-smi prints MiB; nvitop GiB above 20 GiB.
		if !ok || !strings.Contains(c, "MiB") && !strings.Contains(c, "GiB") && !strings.Contains(c, "N/A") || i == 0 {
			continue
		}
		g.haveMem = true
		if u, ok := parseBytes(used, mib); ok {
			g.used = u
		}
		if t, ok := parseBytes(total, mib); ok {
			g.total = t
		}
		g.power = tablePower(cells[0])
		if i+1 < len(cells) {
			if f := strings.Fields(cells[i+1]); len(f) > 0 && strings.HasSuffix(f[0], "%") {
				if u, ok := parseNumber(f[0], "%"); ok {
					g.util = u
				}
			}
		}
		return
	}
}

// tablePower reads the power draw from "N/A   33C    P0   73W /  700W".
func tablePower(c string) float64 {
	f := strings.Fields(c)
	for j := 1; j < len(f); j++ {
		if f[j] == "/" || strings.HasPrefix(f[j], "/") {
			if w, ok := parseNumber(f[j-1], "W"); ok {
				return w
			}
			return math.NaN()
		}
	}
	return math.NaN()
}

// isProcessType reports whether a token is a process type of the process
// table: C, G, C+G, M, M+C, ...
func isProcessType(s string) bool {
	if s == "" || len(s) > 7 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != 'C' && c != 'G' && c != 'M' && c != '+' {
			return false
		}
	}
	return true
}

// procLine reads a process row.
func (tp *tableParser) procLine(n int, cells []string) {
	if len(cells) == 0 {
		return
	}
	f := strings.Fields(strings.Join(cells, " "))
	if len(f) == 0 || f[0] == "No" {
		return
	}
	gpu, ok := atoi(f[0])
	if !ok {
		tp.st.b.skip(n, kindBadProc, fmt.Sprintf("no GPU index at the start of %q", clip(strings.Join(f, " "))))
		return
	}
	typ := -1
	for j := 2; j < len(f)-1; j++ {
		if _, isPID := atoi(f[j-1]); isPID && isProcessType(f[j]) {
			typ = j
			break
		}
	}
	if typ < 0 {
		tp.st.b.skip(n, kindBadProc, fmt.Sprintf("no PID and type in %q", clip(strings.Join(f, " "))))
		return
	}
	pid, _ := atoi(f[typ-1])
	used, ok := parseBytes(f[len(f)-1], mib)
	if !ok {
		tp.st.b.skip(n, kindBadProc, fmt.Sprintf("memory %q is not a size", clip(f[len(f)-1])))
		return
	}
	name := ""
	if typ+1 < len(f)-1 {
		name = strings.Join(f[typ+1:len(f)-1], " ")
	}
	tp.procs = append(tp.procs, reading{line: n, seq: -1, proc: true, hasIndex: true,
		p: ProcessSample{GPU: gpu, PID: pid, Name: name, UsedMemory: used}})
}

// migLine reads a MIG devices row: "GPU GI CI MIG | used / total | ...".
func (tp *tableParser) migLine(cells []string) {
	if len(cells) < 2 {
		return
	}
	f := strings.Fields(cells[0])
	if len(f) != 4 {
		return
	}
	var v [4]int
	for i := range f {
		n, ok := atoi(f[i])
		if !ok {
			return
		}
		v[i] = n
	}
	m := MIGSample{GPU: v[0], GPUInstance: v[1], ComputeInstance: v[2], MIG: v[3], MemoryUsed: Unknown, MemoryTotal: Unknown}
	if used, total, ok := strings.Cut(cells[1], "/"); ok {
		if u, ok := parseBytes(used, mib); ok {
			m.MemoryUsed = u
		}
		if t, ok := parseBytes(total, mib); ok {
			m.MemoryTotal = t
		}
	}
	tp.mig = append(tp.mig, m)
}

// flush turns the table into readings.
func (tp *tableParser) flush() {
	st := tp.st
	if !tp.seenHeader {
		for _, n := range tp.lines {
			st.b.skip(n, "not an nvidia-smi line", "box-drawn table without the NVIDIA-SMI banner")
		}
		return
	}
	t := time.Time{}
	if tp.dated {
		t = tp.time
	}
	for _, g := range tp.gpus {
		if !g.haveMem {
			st.b.skip(g.line, "GPU row without its memory line", fmt.Sprintf("GPU %d (table cut off?)", g.index))
			continue
		}
		r := reading{line: g.line, seq: -1, hasIndex: true, time: t,
			gpu: GPU{Index: g.index, Name: g.name, BusID: g.bus, MemoryTotal: max(g.total, 0)},
			s: GPUSample{Time: t, GPU: g.index, MemoryUsed: g.used, MemoryTotal: g.total, MemoryFree: Unknown,
				MemoryReserved: Unknown, UtilizationGPU: g.util, UtilizationMemory: math.NaN(), PowerW: g.power}}
		st.rows = append(st.rows, r)
	}
	for _, p := range tp.procs {
		p.p.Time = t
		p.time = t
		st.rows = append(st.rows, p)
	}
	for _, m := range tp.mig {
		m.Time = t
		st.b.log.MIG = append(st.b.log.MIG, m)
	}
}
