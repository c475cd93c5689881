package gpulog

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// The line-oriented nvidia-smi reader: query-gpu CSV, compute-apps CSV,
// NVML recordings and plain tables, in any mix within one file. Each line
// is one of: blank; NUL bytes only (skipped); a table line (while a table
// is open, or a "+---" border / "| NVIDIA-SMI" line opening one); a date
// line, which dates the table that follows it; a CSV header; a CSV row
// under the latest header; the recorder's "# gpureport record" line.
// Anything else is skipped with the reason.
//
// Readings are collected in file order and emitted at the end, so that
// rows without an index column can be given one (see assignIndexes), and
// every GPU row is checked against the device first seen at its index: a
// row that names a different GPU (another UUID, bus id or model) is
// skipped, since it comes from another machine or logger writing the same
// file. The first device seen at an index wins.

// nvmlMagic starts the first line of a `gpureport record` CSV.
const nvmlMagic = "# gpureport record"

// reading is one GPU or process row of a text log, before emission.
type reading struct {
	line int
	// seq is the CSV header segment, -1 for table readings.
	seq int
	// proc marks a process reading (p); otherwise a GPU reading (s, gpu).
	proc     bool
	hasIndex bool
	time     time.Time
	gpu      GPU
	s        GPUSample
	p        ProcessSample
}

// textState is readText's state between lines.
type textState struct {
	b  *logBuilder
	lr *lineReader
	// hdr is the current CSV header, nil before the first.
	hdr  *csvHeader
	seqs int
	// noHeader is the known order header-less rows are read with.
	noHeader *knownOrder
	// headerless counts rows seen with no header and no known order;
	// headerlessLine is the first such row and headerlessN its number of
	// fields.
	headerless     int
	headerlessLine int
	headerlessN    int
	// pending are header-less rows of no known order, held until
	// inferRows of them (or another kind of line, or the end) let
	// inferHeaderless read their columns from their values.
	pending []pendingRow
	// table is the open table, nil when none.
	table *tableParser
	// pendingDate is a date line waiting for its table (line 0: none).
	pendingDate     time.Time
	pendingDateLine int
	pendingZoneless bool
	// dates are the date lines read so far, in line order: each times the
	// header-less rows under it (dateline_rows.go).
	dates []rowDate
	rows  []reading
}

func readText(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	st := &textState{b: b, lr: lr}
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		st.feed(line)
	}
	return st.end()
}

// end ends the input (its error in lr.err) and emits the readings.
func (st *textState) end() error {
	b, lr := st.b, st.lr
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	st.closeTable()
	st.dropPendingDate()
	st.resolvePending()
	if len(st.rows) == 0 && st.headerless > 0 && len(b.log.MIG) == 0 {
		return noHeaderError(st.headerlessLine, st.headerlessN)
	}
	st.emit()
	return nil
}

// feed handles one line.
func (st *textState) feed(line string) {
	b, lr := st.b, st.lr
	n := lr.n
	if lr.long {
		if strings.TrimSpace(line) == "" && lr.nuls > 0 {
			b.skip(n, kindNUL, nulReason(lr.nuls))
		} else {
			b.skip(n, kindLong, fmt.Sprintf("more than %d bytes", maxLineBytes))
		}
		return
	}
	trimmed := nvitopASCII(strings.TrimSpace(stripTermControl(line)))
	if trimmed == "" {
		if lr.nuls > 0 {
			b.skip(n, kindNUL, nulReason(lr.nuls))
		}
		return
	}
	if st.table != nil {
		if trimmed[0] == '|' || trimmed[0] == '+' {
			if !st.table.feed(n, trimmed) {
				st.closeTable()
				st.openTable(n, time.Time{}, false)
				st.table.feed(n, trimmed)
			}
			return
		}
		st.closeTable()
	}
	if isTableStart(trimmed) {
		st.resolvePending()
		t, dated := st.pendingDate, st.pendingDateLine > 0
		if dated && st.pendingZoneless {
			b.log.Zoneless = true
		}
		st.pendingDateLine = 0
		if len(st.dates) > 0 {
			// The date was the table's: rows after the table are not
			// under it.
			st.dates = append(st.dates, rowDate{line: n})
		}
		st.openTable(n, t, dated)
		st.table.feed(n, trimmed)
		return
	}
	if st.pendingDateLine > 0 && strings.Contains(trimmed, ",") && !strings.HasPrefix(trimmed, "#") {
		// CSV rows (or their header) under the date line: the date is
		// theirs, not a table's.
		st.pendingDateLine = 0
	}
	st.dropPendingDate()
	if t, zoneless, ok := parseLoopDate(trimmed, b.opt.Location); ok {
		st.pendingDate, st.pendingDateLine, st.pendingZoneless = t, n, zoneless
		st.dates = append(st.dates, rowDate{n, t, zoneless})
		return
	}
	if strings.HasPrefix(trimmed, "#") {
		if n == 1 && strings.HasPrefix(trimmed, nvmlMagic) {
			return
		}
		st.skipWithNUL(n, "comment line", "")
		return
	}
	if h, ok := parseCSVHeader(trimmed); ok {
		st.resolvePending()
		st.seqs++
		h.seq = st.seqs
		st.hdr = h
		return
	}
	if st.hdr == nil {
		st.headerlessRow(n, trimmed)
		return
	}
	st.csvRow(n, st.hdr, trimmed)
}

// skipWithNUL skips a line, mentioning the NUL bytes it held.
func (st *textState) skipWithNUL(n int, kind, detail string) {
	if st.lr.nuls > 0 {
		if detail != "" {
			detail += "; "
		}
		detail += "after " + nulReason(st.lr.nuls)
	}
	st.b.skip(n, kind, detail)
}

// csvRow parses one row under header h.
func (st *textState) csvRow(n int, h *csvHeader, line string) {
	fields, err := h.splitRow(line)
	if err == nil {
		var r reading
		r, err = h.parseRow(st.b, fields)
		if err == nil && st.lr.unterminated && h.lastUnit && endsInDigit(fields[len(fields)-1]) {
			err = fmt.Errorf("value %q lacks its unit", fields[len(fields)-1])
		}
		if err == nil {
			r.line = n
			if d, ok := dateFor(st.dates, n); ok && !r.proc && r.time.IsZero() && r.s.Time.IsZero() {
				r.time, r.s.Time = d.t, d.t
				if d.zoneless {
					st.b.log.Zoneless = true
				}
			} else if ok && r.proc && r.p.Time.IsZero() {
				r.time, r.p.Time = d.t, d.t
				if d.zoneless {
					st.b.log.Zoneless = true
				}
			}
			st.rows = append(st.rows, r)
			h.lastUnit = !endsInDigit(fields[len(fields)-1])
			return
		}
	}
	if st.lr.unterminated {
		st.b.skip(n, kindCut, err.Error())
		return
	}
	st.skipWithNUL(n, kindBadRow, err.Error())
}

func endsInDigit(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// headerlessRow handles a row seen before any header: the first one must
// fit a known field order (csv,noheader logs), which then reads the rest.
func (st *textState) headerlessRow(n int, line string) {
	fields := strings.Split(line, ",")
	if st.noHeader == nil && st.headerless == 0 && len(fields) > 1 {
		if h, o, ok := matchKnownOrder(fields); ok {
			st.noHeader = o
			st.seqs++
			h.seq = st.seqs
			st.hdr = h
			st.b.note(fmt.Sprintf("no header line: columns read as %s (%s)", strings.Join(o.fields, ", "), o.name))
			st.csvRow(n, h, line)
			return
		}
	}
	if len(fields) > 1 && st.lr.nuls == 0 {
		st.pending = append(st.pending, pendingRow{n, line})
		if len(st.pending) == inferRows {
			st.resolvePending()
		}
		return
	}
	st.unknownOrder(n, line)
}

// unknownOrder skips a header-less row that no field order reads.
func (st *textState) unknownOrder(n int, line string) {
	fields := strings.Split(line, ",")
	if st.headerless == 0 {
		st.headerlessLine, st.headerlessN = n, len(fields)
	}
	st.headerless++
	if len(fields) > 1 {
		st.skipWithNUL(n, kindNoHeader, "csv,noheader row with an unknown field order")
		return
	}
	st.skipWithNUL(n, "not an nvidia-smi line", fmt.Sprintf("no table, CSV header or CSV row: %q", clip(line)))
}

// resolvePending reads the pending header-less rows with the header
// their values imply, or skips them when they imply none.
func (st *textState) resolvePending() {
	rows := st.pending
	st.pending = nil
	if len(rows) == 0 {
		return
	}
	h, ok := inferHeaderless(rows)
	if !ok {
		for _, r := range rows {
			st.unknownOrder(r.n, r.line)
		}
		return
	}
	st.seqs++
	h.seq = st.seqs
	st.hdr = h
	st.b.note(fmt.Sprintf("no header line: columns read as %s from their values; a header line (--format=csv) would make it certain", strings.Join(h.keys, ", ")))
	for _, r := range rows {
		st.csvRow(r.n, h, r.line)
	}
}

func (st *textState) openTable(n int, t time.Time, dated bool) {
	st.table = newTableParser(st, n, t, dated)
}

func (st *textState) closeTable() {
	if st.table != nil {
		st.table.flush()
		st.table = nil
	}
}

// dropPendingDate skips a date line that no table followed.
func (st *textState) dropPendingDate() {
	if st.pendingDateLine > 0 {
		st.b.skip(st.pendingDateLine, "date line without a table", "")
		st.pendingDateLine = 0
	}
}

// emit assigns indexes to index-less GPU rows, checks device identity
// and appends the readings to the log.
func (st *textState) emit() {
	assignIndexes(st.rows)
	b := st.b
	for i := range st.rows {
		r := &st.rows[i]
		if r.proc {
			r.p.GPU = b.machineIndex(r.line, r.p.GPU)
			g := GPU{Index: r.p.GPU, UUID: r.p.UUID, BusID: r.p.BusID, Name: r.gpu.Name}
			if why := b.device(g); why != "" {
				b.skip(r.line, kindOtherGPU, why)
				continue
			}
			r.p.Time = b.lineTime(r.p.Time, r.line)
			b.log.Processes = append(b.log.Processes, r.p)
			continue
		}
		r.gpu.Index = b.machineIndex(r.line, r.gpu.Index)
		if why := b.device(r.gpu); why != "" {
			b.skip(r.line, kindOtherGPU, why)
			continue
		}
		r.s.GPU = r.gpu.Index
		r.s.Time = b.lineTime(r.s.Time, r.line)
		b.log.Samples = append(b.log.Samples, r.s)
	}
}

// maxGPUsPerSample bounds the GPUs per sample that assignIndexes infers.
const maxGPUsPerSample = 64

// assignIndexes gives GPU rows without an index column their device
// index. nvidia-smi prints one row per GPU per sample, in index order, so
// the index is the row's position within its sample. Samples are found
// from the timestamps when the rows have them (rows of one sample are
// milliseconds apart, samples an interval apart: see samplePeriod), else
// from repeated headers (each sample printed its own header), else from a
// pattern of the rows' identifying values (name, memory total, UUID, bus
// id) that repeats with a fixed period (rowPeriod). Failing all, every
// row is GPU 0: one GPU read again and again is one GPU.
func assignIndexes(rows []reading) {
	var idx []int
	for i := range rows {
		if !rows[i].proc && !rows[i].hasIndex {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	timed := true
	for _, i := range idx {
		if rows[i].time.IsZero() {
			timed = false
			break
		}
	}
	if timed {
		times := make([]time.Time, len(idx))
		for j, i := range idx {
			times[j] = rows[i].time
		}
		k, thr := samplePeriod(times)
		pos := 0
		for j, i := range idx {
			if j > 0 {
				if pos+1 >= k || times[j].Sub(times[j-1]) > thr {
					pos = 0
				} else {
					pos++
				}
			}
			rows[i].gpu.Index = pos
		}
		return
	}
	// Header segments: more than one means the header was printed before
	// each sample.
	segments := 0
	for j, i := range idx {
		if j == 0 || rows[i].seq != rows[idx[j-1]].seq {
			segments++
		}
	}
	if segments > 1 {
		pos := 0
		for j, i := range idx {
			if j > 0 && rows[i].seq == rows[idx[j-1]].seq {
				pos++
			} else {
				pos = 0
			}
			if pos >= maxGPUsPerSample {
				pos = 0
			}
			rows[i].gpu.Index = pos
		}
		return
	}
	keys := make([]string, len(idx))
	for j, i := range idx {
		g := rows[i].gpu
		keys[j] = fmt.Sprintf("%s|%d|%s|%s", g.Name, g.MemoryTotal, g.UUID, g.BusID)
	}
	k := rowPeriod(keys)
	for j, i := range idx {
		rows[i].gpu.Index = j % k
	}
}

// rowPeriod is the number of GPUs a series of index-less rows cycles
// through: the smallest k (up to maxGPUsPerSample) with which every row's
// identifying key equals the key k rows before, over at least two full
// periods; 1 when the keys do not repeat that way (every row alike, or no
// pattern), so rows are never split without evidence.
func rowPeriod(keys []string) int {
	n := len(keys)
	for k := 2; k <= min(maxGPUsPerSample, n/2); k++ {
		ok := true
		for i := k; i < n && ok; i++ {
			ok = keys[i] == keys[i-k]
		}
		if !ok {
			continue
		}
		// A period of alike keys is k = 1 repeated: no evidence of k GPUs.
		distinct := false
		for i := 1; i < k && !distinct; i++ {
			distinct = keys[i] != keys[0]
		}
		if distinct {
			return k
		}
		return 1
	}
	return 1
}

// samplePeriod finds k, the number of rows per sample, in a series of row
// times, and the time gap that separates samples. A candidate k is
// accepted when, for at least 90% of the blocks of k consecutive rows, the
// spread of times within the block is less than half the gap to the next
// block; the largest accepted k (up to maxGPUsPerSample) wins, k = 1 when
// none. The returned threshold is halfway between the typical spread
// within a sample and the typical gap between samples.
func samplePeriod(times []time.Time) (int, time.Duration) {
	n := len(times)
	best := 1
	for k := 2; k <= min(maxGPUsPerSample, n/2); k++ {
		valid, total := 0, 0
		for s := 0; s+k < n; s += k {
			intra := times[s+k-1].Sub(times[s])
			gap := times[s+k].Sub(times[s+k-1])
			total++
			if intra >= 0 && gap > 0 && 2*intra < gap {
				valid++
			}
		}
		if total >= 1 && valid*10 >= total*9 {
			best = k
		}
	}
	if best == 1 {
		// All rows in one sample: a single burst of up to 64 rows whose
		// times lie within a few milliseconds.
		if n > 1 && n <= maxGPUsPerSample && times[n-1].Sub(times[0]) < 100*time.Millisecond {
			return n, time.Hour
		}
		return 1, 0
	}
	var spreads, gaps []time.Duration
	for s := 0; s+best < n; s += best {
		spreads = append(spreads, times[s+best-1].Sub(times[s]))
		gaps = append(gaps, times[s+best].Sub(times[s+best-1]))
	}
	slices.Sort(spreads)
	slices.Sort(gaps)
	return best, (spreads[len(spreads)/2] + gaps[len(gaps)/2]) / 2
}
