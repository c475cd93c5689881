package gpulog

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// nvidia-smi dmon and pmon: whitespace-separated columns under two '#'
// header lines, the names and the units, repeated every screenful:
//
//	# gpu     sm    mem    enc    dec    jpg    ofa
//	# Idx      %      %      %      %      %      %
//	    0     46     26      0      1      0      0
//
// Columns are found by name, so any -s group selection reads: "fb"
// (framebuffer used, MB meaning MiB) gives MemoryUsed, "sm" and "mem" the
// utilizations, "pwr" the power. -o D and -o T prepend "Date" (YYYYMMDD)
// and "Time" (HH:MM:SS) columns, in the zone of the machine that ran
// dmon. A log with the time of day but no date is dated from the file's
// modification time (the last row is taken to be no later than it; a time
// of day that goes backwards is the next day), and says so in Notes; a
// date without a time of day (-o D alone) leaves the rows undated. "-"
// means not available.
//
// pmon (columns gpu, pid, type, ..., command) gives ProcessSample
// readings, "fb" giving the process's memory; rows with pid "-" (no
// process on that GPU) are not readings.

// dmonHeader is the column layout of a dmon or pmon log.
type dmonHeader struct {
	names []string
	col   map[string]int
	pmon  bool
}

// isDmonHeader reports whether a '#' line names dmon/pmon columns.
func isDmonHeader(s string) bool {
	f := strings.Fields(strings.ToLower(strings.TrimLeft(s, "#")))
	for _, x := range f {
		if x == "gpu" {
			return len(f) >= 2
		}
	}
	return false
}

// isDmonUnits reports whether a '#' line is dmon's units line ("# Idx
// %  % ...", or "#YYYYMMDD HH:MM:SS Idx ...").
func isDmonUnits(s string) bool {
	if !strings.HasPrefix(s, "#") {
		return false
	}
	for _, x := range strings.Fields(strings.TrimLeft(s, "#")) {
		if x == "Idx" {
			return true
		}
	}
	return false
}

func parseDmonHeader(s string) *dmonHeader {
	h := &dmonHeader{col: map[string]int{}}
	for i, x := range strings.Fields(strings.ToLower(strings.TrimLeft(s, "#"))) {
		h.names = append(h.names, x)
		if _, dup := h.col[x]; !dup {
			h.col[x] = i
		}
	}
	_, h.pmon = h.col["pid"]
	return h
}

// dmonRow is one parsed data row, dated later.
type dmonRow struct {
	line int
	// clock is the time of day when the log has a Time column but no
	// Date column; zero otherwise.
	clock    time.Duration
	hasClock bool
	s        GPUSample
	p        ProcessSample
	proc     bool
}

func readDmon(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	var h *dmonHeader
	var rows []dmonRow
	clockOnly := false
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		if strings.HasPrefix(s, "#") {
			if isDmonUnits(s) {
				continue
			}
			if isDmonHeader(s) {
				h = parseDmonHeader(s)
				continue
			}
			b.skip(n, "comment line", "a '#' line that is no dmon header")
			continue
		}
		if h == nil {
			b.skip(n, kindNoHeader, "data row before any dmon header line")
			continue
		}
		row, err := h.parseRow(b, s)
		if err != nil {
			b.skipRow(n, kindBadRow, err.Error())
			continue
		}
		if row == nil {
			continue
		}
		row.line = n
		if row.hasClock {
			clockOnly = true
		}
		rows = append(rows, *row)
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	if clockOnly {
		dateFromModTime(rows, b)
	}
	for _, r := range rows {
		if r.proc {
			r.p.GPU = b.machineIndex(r.line, r.p.GPU)
			b.device(GPU{Index: r.p.GPU})
			r.p.Time = b.lineTime(r.p.Time, r.line)
			b.log.Processes = append(b.log.Processes, r.p)
			continue
		}
		r.s.GPU = b.machineIndex(r.line, r.s.GPU)
		b.device(GPU{Index: r.s.GPU})
		r.s.Time = b.lineTime(r.s.Time, r.line)
		b.log.Samples = append(b.log.Samples, r.s)
	}
	return nil
}

// parseRow reads one data row; nil (and no error) for a pmon row without
// a process.
func (h *dmonHeader) parseRow(b *logBuilder, s string) (*dmonRow, error) {
	f := strings.Fields(s)
	if h.pmon && len(f) > len(h.names) {
		// The command may hold spaces: join the tail.
		c := h.col["command"]
		if c == len(h.names)-1 {
			f = append(f[:c], strings.Join(f[c:], " "))
		}
	}
	if len(f) != len(h.names) {
		return nil, fmt.Errorf("%d columns, the header has %d", len(f), len(h.names))
	}
	get := func(k string) (string, bool) {
		c, ok := h.col[k]
		if !ok {
			return "", false
		}
		return f[c], true
	}
	row := &dmonRow{}
	gpu := 0
	if v, ok := get("gpu"); ok {
		n, ok := atoi(v)
		if !ok {
			return nil, fmt.Errorf("gpu %q is not a GPU index", clip(v))
		}
		gpu = n
	}
	var t time.Time
	d, hasDate := get("date")
	c, hasTime := get("time")
	switch {
	case hasDate && hasTime:
		var err error
		t, err = time.ParseInLocation("20060102 15:04:05", d+" "+c, b.opt.Location)
		if err != nil {
			return nil, fmt.Errorf("date and time %q are not a time", clip(d+" "+c))
		}
		b.log.Zoneless = true
	case hasTime:
		tod, err := time.Parse("15:04:05", c)
		if err != nil {
			return nil, fmt.Errorf("time %q is not a time of day", clip(c))
		}
		row.clock = time.Duration(tod.Hour())*time.Hour + time.Duration(tod.Minute())*time.Minute + time.Duration(tod.Second())*time.Second
		row.hasClock = true
	}
	num := func(k, unit string) (float64, error) {
		v, ok := get(k)
		if !ok {
			return math.NaN(), nil
		}
		x, ok := parseNumber(v, unit)
		if !ok {
			return 0, fmt.Errorf("%s %q is not a number", k, clip(v))
		}
		return x, nil
	}
	fb := func() (int64, error) {
		v, ok := get("fb")
		if !ok {
			return Unknown, nil
		}
		x, ok := parseBytes(v, mib)
		if !ok {
			return 0, fmt.Errorf("fb %q is not a memory size", clip(v))
		}
		return x, nil
	}
	var err error
	if h.pmon {
		pid, _ := get("pid")
		if pid == "-" {
			return nil, nil
		}
		p := &row.p
		row.proc = true
		p.GPU, p.Time = gpu, t
		n, ok := atoi(pid)
		if !ok {
			return nil, fmt.Errorf("pid %q is not a process id", clip(pid))
		}
		p.PID = n
		if v, ok := get("command"); ok && v != "-" {
			p.Name = v
		}
		if p.UsedMemory, err = fb(); err != nil {
			return nil, err
		}
		return row, nil
	}
	sm := &row.s
	sm.GPU, sm.Time = gpu, t
	sm.MemoryTotal, sm.MemoryFree, sm.MemoryReserved = Unknown, Unknown, Unknown
	if sm.MemoryUsed, err = fb(); err != nil {
		return nil, err
	}
	if sm.UtilizationGPU, err = num("sm", ""); err != nil {
		return nil, err
	}
	if sm.UtilizationMemory, err = num("mem", ""); err != nil {
		return nil, err
	}
	if sm.PowerW, err = num("pwr", ""); err != nil {
		return nil, err
	}
	return row, nil
}

// dateFromModTime dates rows that carry only a time of day, walking back
// from the file's modification time (datesOfClocks).
func dateFromModTime(rows []dmonRow, b *logBuilder) {
	clocks := make([]time.Duration, len(rows))
	for i, r := range rows {
		clocks[i] = -1
		if r.hasClock {
			clocks[i] = r.clock
		}
	}
	times, mt, ok := b.datesOfClocks(clocks)
	if !ok {
		b.note("dmon -o T log without dates and without a modification time: rows are undated")
		return
	}
	for i := range rows {
		r := &rows[i]
		if !r.hasClock {
			continue
		}
		if r.proc {
			r.p.Time = times[i]
		} else {
			r.s.Time = times[i]
		}
	}
	b.note("dmon log with times of day only (-o T): dates taken from the file's modification time " + mt.Format("2006-01-02 15:04"))
}
