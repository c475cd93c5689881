package gpulog

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/input"
	"gpureport/internal/units"
)

// How GPU logs are recognised (SniffLog) and read (DecodeLog):
//
// Discovery hands SniffLog the first 8 KiB of a file. Only the first usable
// content decides (leading blank lines, NUL bytes and a UTF-8 byte order
// mark are passed over), and a file is claimed only when that content is
// unmistakably one of the formats:
//
//   - "# gpureport record" on the first line: FormatNVML (the recorder's
//     query-gpu CSV, or its per-process CSV);
//   - an XML document whose root is <nvidia_smi_log>: FormatXML;
//   - a '#' line naming a "gpu" column followed by a '#' line naming
//     "Idx": FormatDmon (dmon and pmon);
//   - the nvidia-smi box table (its "| NVIDIA-SMI" banner, after its top
//     border and date line if present): FormatTable;
//   - a CSV header whose every field is an nvidia-smi query field (with or
//     without a "[unit]" suffix): FormatQueryCSV, or FormatComputeAppsCSV
//     when it has pid, process_name or used_(gpu_)memory;
//   - a header-less row that starts with nvidia-smi's timestamp
//     ("2023/06/22 18:56:56.252, ...") or carries MiB values: FormatQueryCSV
//     (DecodeLog then needs a known field order; see knownOrders);
//   - a JSON object holding torch.cuda.memory_stats() keys: FormatMemoryStats;
//   - pynvml's printed memory struct ("c_nvmlMemory_t(total: N B, ...)")
//     on one of the first three lines: FormatPynvml.
//
// UTF-16 files with a byte order mark (PowerShell's redirection) are read
// as their UTF-8 text.
//
// A CSV whose columns are read by meaning is claimed only when its header
// is names (not numbers, nor a sentence cut at its commas) and most of
// the records after it have its number of fields. A file whose first
// content is none of the above is decided by most of its head's lines
// (sniffMajority): nvidia-smi tables with their banner and the date lines
// before them, or a query CSV header and its rows; the reader skips and
// counts the other lines (a script's echo, a shell trace).
//
// A file that mixes formats is classified by its first usable content, and
// the line-oriented nvidia-smi reader (query-gpu CSV, compute-apps CSV,
// tables, NVML recordings) reads all of those formats wherever they occur
// in the file: a table followed by CSV rows keeps the readings of both.
// dmon, XML and memory-stats files have readers of their own.

// maxLineBytes bounds one line of a text log; longer lines (a run of NUL
// bytes, a binary blob) are skipped with a problem, never held in memory.
const maxLineBytes = 1 << 20

// maxMiB bounds a memory value in MiB (8 TiB of device memory), so that
// converting to bytes cannot overflow.
const maxMiB = 8 << 20

// mib is one MiB in bytes: nvidia-smi prints memory in MiB ("MiB", or
// "MB" in dmon and older tools, which also mean MiB).
const mib = 1 << 20

// sniffHead is how much of a log's text ReadLog looks at for a collector
// prefix: as much as discovery sniffs (ingest's sniffLen).
const sniffHead = 8 << 10

// ReadOptions tune ReadLog. The zero value reads zoneless times as UTC.
type ReadOptions struct {
	// Location is the zone of zoneless timestamps; nil means UTC.
	Location *time.Location
	// ModTime is the file's modification time, used to date logs that
	// record only the time of day (dmon -o T) and to anchor elapsed
	// seconds; zero when unknown.
	ModTime time.Time
	// Columns names the columns of CSV logs the heuristics cannot read
	// (--gpu-log-columns); nil when not given.
	Columns *ColumnSpec
	// Name is the file's name as notes cite it ("" when unknown: they
	// say "this log"); DecodeLogWith sets it to the file's base name.
	Name string
	// MaxDocumentBytes bounds a JSON document holding a log (a notebook,
	// a log export: unwrap.go) that is decoded whole, bytes; a larger
	// one is read as the text it is. 0 means 256 MiB.
	MaxDocumentBytes int64
}

// SniffLog tells the GPU log format from the start of a file (its first few
// KiB), and false when the content is no GPU log gpureport reads. It
// claims a file only when its first usable content is clearly one of the
// formats (see the comment at the top of gpulog_read.go); arbitrary text,
// training logs and configuration files are not claimed.
func SniffLog(head []byte) (LogFormat, bool) {
	return SniffLogWith(head, nil)
}

// SniffLogWith is SniffLog that also claims a CSV whose header has the
// columns spec names (nil: none), as FormatCSVColumns.
func SniffLogWith(head []byte, spec *ColumnSpec) (LogFormat, bool) {
	if order := utf16Order(head); order != 0 {
		head = utf16ToUTF8(head[2:], order)
	}
	head = unwrapHead(head)
	if looksLikeWatchCapture(head) {
		head = watchText(head)
	}
	if looksLikeSemicolonCSV(head) {
		head = semicolonText(head)
	}
	if f, ok := sniffDistinct(head, spec); ok {
		return f, true
	}
	if _, f, ok := learnPrefix(head, spec); ok {
		return f, true
	}
	return sniffGuess(head, spec)
}

// sniffDistinct recognises the formats whose first lines are unlike any
// other text: XML, dmon headers, DCGM scrapes, memory_stats JSON, the box
// table, a query CSV header, a CSV with --gpu-log-columns' columns.
func sniffDistinct(head []byte, spec *ColumnSpec) (LogFormat, bool) {
	lines := headLines(head, 3)
	if len(lines) == 0 {
		return "", false
	}
	first := lines[0]
	if f, ok := sniffMoreFormats(head, lines); ok {
		return f, true
	}
	if sniffPynvml(lines) {
		return FormatPynvml, true
	}
	switch {
	case strings.HasPrefix(first, nvmlMagic):
		return FormatNVML, true
	case strings.HasPrefix(first, "<"):
		if bytes.Contains(head, []byte("<nvidia_smi_log")) && (strings.HasPrefix(first, "<?xml") ||
			strings.HasPrefix(first, "<!DOCTYPE nvidia_smi_log") || strings.HasPrefix(first, "<nvidia_smi_log")) {
			return FormatXML, true
		}
		return "", false
	case strings.HasPrefix(first, "#"):
		if len(lines) > 1 && isDmonHeader(first) && isDmonUnits(lines[1]) {
			return FormatDmon, true
		}
		if sniffDCGMDmon(lines) {
			return FormatDCGMDmon, true
		}
		if sniffDCGM(lines) {
			return FormatDCGMProm, true
		}
		return "", false
	case strings.HasPrefix(first, dcgmPrefix) && sniffDCGM(lines):
		return FormatDCGMProm, true
	case strings.HasPrefix(first, "{"):
		if sniffMemoryStats(first) {
			return FormatMemoryStats, true
		}
		if sniffGpustatJSON(head) {
			return FormatGpustatJSON, true
		}
		return "", false
	}
	if sniffGpustat(lines) {
		return FormatGpustat, true
	}
	if strings.HasPrefix(first, nvsmiLogBanner) {
		return FormatQueryText, true
	}
	// A table: its "| NVIDIA-SMI" banner, after the top border and the
	// date line when they are there. A border alone is not enough: other
	// tools draw the same ASCII tables.
	tableAt := func(i int) bool {
		banner := func(j int) bool { return j < len(lines) && isTableBanner(lines[j]) }
		return banner(i) || i < len(lines) && isTableStart(lines[i]) && banner(i+1)
	}
	if tableAt(0) {
		return FormatTable, true
	}
	if _, _, ok := parseDateLine(first, time.UTC); ok && tableAt(1) {
		return FormatTable, true
	}
	if spec != nil {
		if f, ok := sniffColumnsCSV(head, spec); ok && f == FormatCSVColumns {
			return f, true
		}
	}
	if _, _, ok := parseDateLine(first, time.UTC); ok && len(lines) > 1 && sniffDCGM(lines[1:]) {
		return FormatDCGMProm, true
	}
	if h, ok := parseCSVHeader(first); ok {
		if h.apps {
			return FormatComputeAppsCSV, true
		}
		return FormatQueryCSV, true
	}
	return "", false
}

// sniffGuess recognises the formats told by their values or by column
// names that other CSVs share: header-less query CSV rows and CSVs with
// memory columns. It runs after a collector prefix was looked for, which
// would otherwise be read as a first column.
func sniffGuess(head []byte, spec *ColumnSpec) (LogFormat, bool) {
	lines := headLines(head, 1)
	if len(lines) == 0 {
		return "", false
	}
	if looksLikeHeaderlessRow(lines[0]) {
		return FormatQueryCSV, true
	}
	if looksLikeLoopRows(headLines(head, maxLoopDates+1)) {
		return FormatQueryCSV, true
	}
	if f, ok := sniffColumnsCSV(head, spec); ok {
		return f, true
	}
	return sniffMajority(head)
}

// sniffMajority decides a log whose first lines are none of the formats
// by most of its head's lines: nvidia-smi tables (with the NVIDIA-SMI
// banner) and the date lines before them, or a query CSV header and the
// rows under it. The line-oriented reader (readText) reads those lines
// and skips and counts the rest (a script's echo, a shell trace).
func sniffMajority(head []byte) (LogFormat, bool) {
	lines := headLines(head, 1<<30)
	if len(lines) < 3 {
		return "", false
	}
	// The last line may be cut by the end of the head.
	if len(head) >= sniffHead {
		lines = lines[:len(lines)-1]
	}
	tableLines, banner := 0, false
	csvLines, apps := 0, false
	var hdr *csvHeader
	// block counts the lines of the box-drawn block being read; it counts
	// as table lines once the NVIDIA-SMI banner shows it is nvidia-smi's
	// (other tools, a memory_summary() among them, draw boxes too).
	block, inSMI := 0, false
	endBlock := func() {
		if inSMI {
			tableLines += block
		}
		block, inSMI = 0, false
	}
	for _, l := range lines {
		if l[0] == '|' || l[0] == '+' {
			if isTableBanner(l) {
				if inSMI {
					endBlock()
				}
				inSMI, banner = true, true
			}
			block++
			continue
		}
		endBlock()
		if _, _, ok := parseDateLine(l, time.UTC); ok {
			tableLines++
			continue
		}
		if h, ok := parseCSVHeader(l); ok {
			hdr, apps = h, h.apps
			csvLines++
			continue
		}
		if hdr != nil && len(strings.Split(l, ",")) == len(hdr.keys) {
			csvLines++
		}
	}
	endBlock()
	switch {
	case banner && 2*tableLines > len(lines):
		return FormatTable, true
	case hdr != nil && 2*csvLines > len(lines) && apps:
		return FormatComputeAppsCSV, true
	case hdr != nil && 2*csvLines > len(lines):
		return FormatQueryCSV, true
	}
	return "", false
}

// headLines returns up to n non-blank lines from the start of head, with
// NUL bytes, a UTF-8 byte order mark and surrounding spaces removed. A
// line cut by the end of head is returned as it is.
func headLines(head []byte, n int) []string {
	var out []string
	rest := head
	for len(rest) > 0 && len(out) < n {
		i := bytes.IndexByte(rest, '\n')
		var line []byte
		if i < 0 {
			line, rest = rest, nil
		} else {
			line, rest = rest[:i], rest[i+1:]
		}
		if bytes.IndexByte(line, 0) >= 0 {
			line = bytes.ReplaceAll(line, []byte{0}, nil)
		}
		if len(out) == 0 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		s := nvitopASCII(strings.TrimSpace(stripTermControl(string(line))))
		if s == "" {
			continue
		}
		out = append(out, s)
	}
	return out
}

// DecodeLog reads the GPU log at path; zoneless timestamps are read in loc
// (nil: the local zone). Unreadable lines are skipped and counted, not
// fatal; an error means the file as a whole is unusable (it cannot be
// read, or holds no reading at all), a *FileError naming the file.
func DecodeLog(path string, format LogFormat, loc *time.Location) (*GPULog, error) {
	return DecodeLogWith(path, format, ReadOptions{Location: loc})
}

// DecodeLogWith is DecodeLog with options: opt.Location nil means the
// local zone; opt.ModTime is taken from the file.
func DecodeLogWith(path string, format LogFormat, opt ReadOptions) (*GPULog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, input.NewFileError(path, err)
	}
	defer f.Close()
	if opt.Location == nil {
		opt.Location = time.Local
	}
	if st, err := f.Stat(); err == nil {
		opt.ModTime = st.ModTime()
	}
	if opt.Name == "" {
		opt.Name = filepath.Base(path)
	}
	l, err := ReadLog(f, format, opt)
	if err != nil {
		return nil, input.NewFileError(path, err)
	}
	return l, nil
}

// logReaders are the readers of the formats, by format; never modified.
var logReaders = map[LogFormat]func(io.Reader, *logBuilder) error{
	FormatQueryCSV: readText, FormatComputeAppsCSV: readText, FormatTable: readText, FormatNVML: readText,
	FormatDmon: readDmon, FormatXML: readXML, FormatMemoryStats: readMemoryStats,
	FormatCSVColumns: readColumnsCSV, FormatWandbCSV: readColumnsCSV, FormatLightningCSV: readColumnsCSV,
	FormatDCGMProm: readDCGM, FormatDCGMDmon: readDCGMDmon,
	FormatGpustat: readGpustat, FormatGpustatJSON: readGpustatJSON,
	FormatTrainingLog: readTrainingLog, FormatQueryText: readQueryText, FormatPynvml: readPynvml,
	FormatRocmSMI: readRocmSMI, FormatKinetoTrace: readKinetoTrace, FormatWandbEvents: readWandbEvents, FormatMLflowGPU: readMLflowGPU,
	FormatTensorBoardCSV: readTensorBoardCSV,
	FormatPromJSON:       readPromJSON,
}

// ErrNoReadings is wrapped by ReadLog's error for a log in which no line
// gave a reading.
var ErrNoReadings = errors.New("no readings")

// notUnwrappedError is ReadLog's error for a JSON document that could not
// be unwrapped and whose text gave no reading: it is both ErrNoReadings
// and ErrNotUnwrapped, and says why in one sentence.
type notUnwrappedError struct{ msg string }

func (e *notUnwrappedError) Error() string { return e.msg }

func (e *notUnwrappedError) Is(target error) bool {
	return target == ErrNoReadings || target == ErrNotUnwrapped
}

// ReadLog reads a GPU log of the given format from r, which may be gzip-
// or bzip2-compressed (gpulog_compressed.go). Lines it cannot use are
// counted in SkippedLines and described in Problems; the error is for a
// log that cannot be read at all or gives no reading.
func ReadLog(r io.Reader, format LogFormat, opt ReadOptions) (*GPULog, error) {
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	b := newLogBuilder(format, opt)
	r, comp, err := Decompress(r)
	if err != nil {
		return nil, err
	}
	var broken *brokenStream
	if comp != Uncompressed {
		broken = &brokenStream{r: r, c: comp}
		r = broken
	}
	r = maybeUTF16(r)
	br := bufio.NewReaderSize(r, 64<<10)
	r = br
	// notUnwrapped is the note of a document that could not be
	// unwrapped, "" otherwise.
	var notUnwrapped string
	if head, _ := br.Peek(sniffHead); SniffWrapper(head) != WrapperNone {
		// Lines inside a JSON container (unwrap.go): read as the text
		// the job wrote.
		b.document = SniffWrapper(head) != WrapperDocker
		ur, note, failed := unwrapped(br, SniffWrapper(head), opt.MaxDocumentBytes)
		if failed {
			notUnwrapped = note
		}
		br = bufio.NewReaderSize(ur, 64<<10)
		r = br
		b.note(note)
	}
	var watch watchStats
	if head, _ := br.Peek(sniffHead); looksLikeWatchCapture(head) {
		// A curses screen capture of watch: read as its frames' text.
		br = bufio.NewReaderSize(newWatchReader(br, &watch), 64<<10)
		r = br
	}
	var semi *semicolonReader
	if head, _ := br.Peek(sniffHead); looksLikeSemicolonCSV(head) {
		// A query CSV re-saved by a spreadsheet with ';' between fields.
		semi = newSemicolonReader(br)
		br = bufio.NewReaderSize(semi, 64<<10)
		r = br
		b.note("fields are separated by ';' (a spreadsheet's export in a decimal-comma locale): read as nvidia-smi's CSV, decimal commas as points")
	}
	// Any text file read as a GPU log is also read as a training log
	// (trainlog_side.go), and a training log for its GPU readings: a job's
	// output can hold both. The other reading gets the text as this one
	// reads it (unwrapped from its JSON container), in the same pass.
	var side, gpuSide *sideScan
	if _, known := logReaders[format]; known && format != FormatTrainingLog && format != FormatKinetoTrace {
		side = newSideScan(opt)
		r = side.teeFrom(br)
	}
	if format == FormatTrainingLog {
		gpuSide = newGPUSideScan(opt)
		r = gpuSide.teeFrom(br)
	}
	var prefix *linePrefix
	if head, _ := br.Peek(sniffHead); len(head) > 0 {
		if _, ok := sniffDistinct(head, opt.Columns); !ok {
			if p, f, ok := learnPrefix(head, opt.Columns); ok && f == format {
				prefix = p
				b.prefix = newPrefixStripper(r, p, opt.Location)
				r = b.prefix
			}
		}
	}
	read, ok := logReaders[format]
	if !ok {
		return nil, fmt.Errorf("unknown GPU log format %q", format)
	}
	err = read(r, b)
	if side != nil {
		side.finish()
		err = b.adoptSide(side, err)
	}
	if gpuSide != nil {
		gpuSide.finish()
	}
	if err != nil {
		return nil, err
	}
	b.finish()
	if gpuSide != nil {
		b.adoptGPUSide(gpuSide)
	}
	l := b.log
	if prefix != nil {
		b.note(prefix.note())
	}
	if b.prefixTimed > 0 {
		b.note(fmt.Sprintf("%d readings have no time of their own: each takes the time the collector's prefix gives its line", b.prefixTimed))
	}
	if n := watch.note(); n != "" {
		b.note(n)
	}
	if semi != nil {
		if n := semi.dates.note(); n != "" {
			b.note(n)
		}
	}
	if n := broken.note(); n != "" {
		b.note(n)
	}
	// A log whose only content is DeepSpeed's cache-flush warnings or
	// Hugging Face Trainer's memory metrics is still read: the warnings
	// say the allocator is under pressure, the metrics give each stage's
	// peak (noted).
	if len(l.Samples)+len(l.Processes)+len(l.MemoryStats)+len(l.MIG)+len(l.OOMs)+l.CacheFlushes+len(l.TrainerMemory) == 0 {
		msg := fmt.Sprintf("%s log: %v", format, ErrNoReadings)
		if l.SkippedLines > 0 {
			p := l.Problems[0]
			msg += fmt.Sprintf(" (%d lines skipped; line %d: %s)", l.SkippedLines, p.Line, p.Reason)
		}
		if broken != nil && broken.err != nil {
			msg += fmt.Sprintf(" (the %s stream breaks off after %d bytes: %v)", comp, broken.read, broken.err)
		}
		if notUnwrapped != "" {
			// What was not read, and why: a document too large or
			// broken to unwrap is named, never passed over unsaid.
			return nil, &notUnwrappedError{msg + " (" + notUnwrapped + ")"}
		}
		return nil, fmt.Errorf("%s: %w", msg, ErrNoReadings)
	}
	return l, nil
}

// Kinds of skipped lines shared by the readers (GPULog.SkipCounts).
const (
	kindNUL      = "NUL bytes only"
	kindLong     = "line too long"
	kindCut      = "last line cut off (the file ends mid-line)"
	kindBadRow   = "unreadable row"
	kindBadProc  = "unreadable process row"
	kindNoHeader = "row without a header line"
	kindOtherGPU = "row of a different GPU"
	kindBadXML   = "unreadable XML document"
)

// logBuilder accumulates one log's readings, problems and GPUs.
type logBuilder struct {
	log *GPULog
	opt ReadOptions
	// document is true when the input is a whole JSON document holding
	// the text (a notebook, a log export: unwrap.go), whose GPU output no
	// sniff of its head can claim as a GPU log.
	document bool
	// byIndex maps a device index to its position in log.GPUs; byID maps
	// a UUID or bus id of a GPU without index.
	byIndex map[int]int
	byID    map[string]int
	// kinds counts skipped lines by kind.
	kinds map[string]int
	// lr reads the input's lines.
	lr *lineReader
	// elapsed is true when some time was read as elapsed seconds, first
	// at elapsedWhere (anchorElapsed).
	elapsed      bool
	elapsedWhere string
	// prefix removes a log collector's prefix from each line and keeps
	// the times it gives; nil when the log has none.
	prefix *prefixStripper
	// prefixTimed counts readings timed by their line's prefix.
	prefixTimed int
	// tasks is what a training log's lines say about srun labels
	// (trainlog_srun.go).
	tasks srunTasks
}

// lineTime returns t, or when t is zero the time the collector's prefix
// of line n gives (zero when none): for logs whose readings carry no
// time of their own (dmon, a query CSV without a timestamp column) saved
// through kubectl logs --timestamps or Python logging.
func (b *logBuilder) lineTime(t time.Time, n int) time.Time {
	if !t.IsZero() {
		return t
	}
	if lt := b.prefix.lineTime(n); !lt.IsZero() {
		b.prefixTimed++
		b.log.Zoneless = b.log.Zoneless || b.prefix.zoneless
		return lt
	}
	return t
}

// lines starts reading r line by line. When r is the input teed to a
// side reading (trainlog_side.go) that nothing has read yet, the lines
// are read from the input itself and the side reading rides them.
func (b *logBuilder) lines(r io.Reader) *lineReader {
	if t, ok := r.(*sideTee); ok && t.unread() {
		b.lr = newLineReader(t.r)
		t.side.rideOn(b.lr)
		return b.lr
	}
	b.lr = newLineReader(r)
	return b.lr
}

// nextLine returns the next line of lr as it is (indentation kept) and
// its 1-based number; over-long lines on the way are recorded as skipped.
// ok is false at the end of the input.
func (b *logBuilder) nextLine(lr *lineReader) (line string, n int, ok bool) {
	for {
		line, more := lr.next()
		if !more {
			return "", lr.n, false
		}
		if !lr.long {
			return line, lr.n, true
		}
		b.skip(lr.n, kindLong, fmt.Sprintf("more than %d bytes", maxLineBytes))
	}
}

// nextContent returns the next line of lr with content, trimmed, and its
// 1-based number. Over-long lines and blank lines of NUL bytes on the way
// are recorded as skipped; ok is false at the end of the input.
func (b *logBuilder) nextContent(lr *lineReader) (s string, n int, ok bool) {
	for {
		line, more := lr.next()
		if !more {
			return "", lr.n, false
		}
		s = strings.TrimSpace(line)
		switch {
		case lr.long:
			b.skip(lr.n, kindLong, fmt.Sprintf("more than %d bytes", maxLineBytes))
		case s == "":
			if lr.nuls > 0 {
				b.skip(lr.n, kindNUL, nulReason(lr.nuls))
			}
		default:
			return s, lr.n, true
		}
	}
}

func newLogBuilder(format LogFormat, opt ReadOptions) *logBuilder {
	return &logBuilder{
		log:     &GPULog{Format: format},
		opt:     opt,
		byIndex: map[int]int{},
		byID:    map[string]int{},
		kinds:   map[string]int{},
	}
}

// skip records that line could not be used: the kind of problem, and the
// detail (may be ""). Problems keeps the MaxProblems lowest line numbers.
func (b *logBuilder) skip(line int, kind, detail string) {
	b.log.SkippedLines++
	b.kinds[kind]++
	reason := kind
	if detail != "" {
		reason += ": " + detail
	}
	p := LineProblem{Line: line, Reason: reason}
	ps := b.log.Problems
	if len(ps) < MaxProblems {
		b.log.Problems = append(ps, p)
		return
	}
	hi := 0
	for i := range ps {
		if ps[i].Line > ps[hi].Line {
			hi = i
		}
	}
	if line < ps[hi].Line {
		ps[hi] = p
	}
}

// skipRow records that row n could not be read, for the reason detail:
// as the last line cut off when the input ended inside it, else as kind.
func (b *logBuilder) skipRow(n int, kind, detail string) {
	if b.lr != nil && b.lr.unterminated {
		kind = kindCut
	}
	b.skip(n, kind, detail)
}

// finish orders the problems by line, counts skipped lines by kind and
// notes the NUL bytes that were dropped from lines still read.
func (b *logBuilder) finish() {
	l, lr := b.log, b.lr
	b.splitMachines()
	b.deriveUsed()
	slices.SortStableFunc(l.Problems, func(x, y LineProblem) int { return cmp.Compare(x.Line, y.Line) })
	for k, n := range b.kinds {
		l.SkipCounts = append(l.SkipCounts, SkipCount{Kind: k, Lines: n})
	}
	slices.SortFunc(l.SkipCounts, func(x, y SkipCount) int {
		return cmp.Or(cmp.Compare(y.Lines, x.Lines), cmp.Compare(x.Kind, y.Kind))
	})
	if lr != nil && lr.totalNULs > 0 {
		b.note(fmt.Sprintf("%d NUL bytes in %d lines were dropped (a hole left by a crashed logger or by two writers sharing the file)",
			lr.totalNULs, lr.nulLines))
	}
	b.anchorElapsed()
	b.placeUntimed()
	b.noteNoMemory()
	b.noteDriverFailures()
}

// note adds a file-level caveat once.
func (b *logBuilder) note(s string) {
	for _, n := range b.log.Notes {
		if n == s {
			return
		}
	}
	b.log.Notes = append(b.log.Notes, s)
}

// time parses a timestamp field, marking the log zoneless when it had no
// zone.
func (b *logBuilder) time(s string) (time.Time, bool) {
	t, zoneless, ok := parseStamp(s, b.opt.Location)
	if ok && zoneless {
		b.log.Zoneless = true
	}
	return t, ok
}

// device registers the GPU g (g.Index >= 0) or checks it against the GPU
// already known at that index. It returns "" when g is the same device
// (filling in what the earlier rows lacked), or why it is not.
func (b *logBuilder) device(g GPU) string {
	if g.Index < 0 {
		return b.deviceByID(g)
	}
	pos, ok := b.byIndex[g.Index]
	if !ok {
		b.byIndex[g.Index] = len(b.log.GPUs)
		b.log.GPUs = append(b.log.GPUs, g)
		return ""
	}
	known := &b.log.GPUs[pos]
	if why := differentGPU(*known, g); why != "" {
		return why
	}
	mergeGPU(known, g)
	return ""
}

// deviceByID registers a GPU known only by UUID or bus id (compute-apps
// rows); GPUs with neither are not listed.
func (b *logBuilder) deviceByID(g GPU) string {
	id := g.UUID
	if id == "" {
		id = g.BusID
	}
	if id == "" {
		return ""
	}
	if pos, ok := b.byID[id]; ok {
		mergeGPU(&b.log.GPUs[pos], g)
		return ""
	}
	b.byID[id] = len(b.log.GPUs)
	b.log.GPUs = append(b.log.GPUs, g)
	return ""
}

// differentGPU says why g cannot be the device known, "" when it can:
// UUIDs are compared when both have one, else bus ids, else names (a name
// truncated with "..." matches its longer form).
func differentGPU(known, g GPU) string {
	switch {
	case known.UUID != "" && g.UUID != "":
		if known.UUID != g.UUID {
			return fmt.Sprintf("GPU %d is %s earlier in this file, this row says %s", g.Index, known.UUID, g.UUID)
		}
		return ""
	case known.BusID != "" && g.BusID != "":
		if known.BusID != g.BusID {
			return fmt.Sprintf("GPU %d is at bus %s earlier in this file, this row says %s", g.Index, known.BusID, g.BusID)
		}
		return ""
	case known.Name != "" && g.Name != "":
		if !sameName(known.Name, g.Name) {
			return fmt.Sprintf("GPU %d is a %s earlier in this file, this row says %s", g.Index, known.Name, g.Name)
		}
	}
	return ""
}

// sameName compares GPU names, allowing either to be truncated with "...".
func sameName(a, b string) bool {
	if a == b {
		return true
	}
	pa, ta := strings.CutSuffix(a, "...")
	pb, tb := strings.CutSuffix(b, "...")
	switch {
	case ta && tb:
		return strings.HasPrefix(pa, pb) || strings.HasPrefix(pb, pa)
	case ta:
		return strings.HasPrefix(b, pa)
	case tb:
		return strings.HasPrefix(a, pb)
	}
	return false
}

// mergeGPU fills known's missing identifiers from g, keeps the untruncated
// name and the largest memory total.
func mergeGPU(known *GPU, g GPU) {
	if known.UUID == "" {
		known.UUID = g.UUID
	}
	if known.BusID == "" {
		known.BusID = g.BusID
	}
	if known.Name == "" || (strings.HasSuffix(known.Name, "...") && g.Name != "" && !strings.HasSuffix(g.Name, "...")) {
		known.Name = g.Name
	}
	known.MemoryTotal = max(known.MemoryTotal, g.MemoryTotal)
	if known.Index < 0 && g.Index >= 0 {
		known.Index = g.Index
	}
}

// lineReader returns the lines of a text log one at a time, with their
// 1-based numbers, without holding more than maxLineBytes of one line.
// When a log is also read another way (trainlog_side.go), side is handed
// every line it reads.
type lineReader struct {
	r *bufio.Reader
	// n is the number of the line last returned.
	n int
	// buf holds the current line when it spans several buffer fills.
	buf []byte
	// unterminated is true when the line last returned ended at the end
	// of the input without a newline; long when it was cut to
	// maxLineBytes; nuls counts the NUL bytes removed from it; failure
	// when it reports a lost GPU or a failed driver (driverFailure).
	unterminated bool
	long         bool
	nuls         int
	failure      bool
	err          error
	// done is true once the input ended (or failed: err).
	done bool
	// totalNULs and nulLines count the NUL bytes dropped and the lines
	// that held them, over the lines returned.
	totalNULs int
	nulLines  int
	// failures counts the lines that report a lost GPU or a failed
	// driver (driverFailure); firstFailure is the first one's number,
	// firstFailureText its text.
	failures         int
	firstFailure     int
	firstFailureText string
	// side, when set, reads every line too: the side reading of the log
	// riding this reader's lines (trainlog_side.go).
	side *sideScan
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its line ending and NUL bytes, and
// false at the end of the input (or on a read error, kept in err).
func (lr *lineReader) next() (string, bool) {
	s, ok := lr.read()
	if !ok {
		return "", false
	}
	lr.count(s)
	if lr.side != nil {
		lr.side.ride(lr, s)
	}
	return s, true
}

// read reads the next line as next does, without counting it in the
// totals or handing it to the side reading.
func (lr *lineReader) read() (string, bool) {
	lr.start()
	if lr.done {
		return "", false
	}
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.add(chunk)
		switch {
		case err == nil:
			return lr.end(false), true
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			lr.done = true
			if len(lr.buf) == 0 && !lr.long {
				return "", false
			}
			return lr.end(true), true
		default:
			lr.err, lr.done = err, true
			return "", false
		}
	}
}

// start begins a line.
func (lr *lineReader) start() {
	lr.buf = lr.buf[:0]
	lr.long, lr.unterminated, lr.nuls, lr.failure = false, false, 0, false
}

// add appends the next part of the current line, as far as maxLineBytes;
// the NUL bytes in what is left out are counted. Where a line is cut
// does not depend on how its parts were read.
func (lr *lineReader) add(part []byte) {
	room := maxLineBytes - len(lr.buf)
	if len(part) <= room {
		lr.buf = append(lr.buf, part...)
		return
	}
	if room > 0 {
		lr.buf = append(lr.buf, part[:room]...)
		part = part[room:]
	}
	lr.long = true
	lr.nuls += bytes.Count(part, []byte{0})
}

// end ends the current line (unterminated: by the end of the input) and
// returns its text, without its line ending and NUL bytes.
func (lr *lineReader) end(unterminated bool) string {
	lr.n++
	lr.unterminated = unterminated
	line := lr.buf
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if lr.n == 1 {
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	if bytes.IndexByte(line, 0) >= 0 {
		lr.nuls += bytes.Count(line, []byte{0})
		line = bytes.ReplaceAll(line, []byte{0}, nil)
	}
	s := string(line)
	lr.failure = driverFailure(s)
	return s
}

// count adds the line just read, s, to the totals over the input.
func (lr *lineReader) count(s string) {
	if lr.nuls > 0 {
		lr.totalNULs += lr.nuls
		lr.nulLines++
	}
	if lr.failure {
		if lr.failures == 0 {
			lr.firstFailure, lr.firstFailureText = lr.n, strings.TrimSpace(s)
		}
		lr.failures++
	}
}

// nulReason describes a line that held NUL bytes.
func nulReason(n int) string {
	return fmt.Sprintf("%d NUL bytes (a hole left by a crashed logger or two writers sharing the file)", n)
}

// isNA reports whether an nvidia-smi value means "not available":
// [N/A], N/A, [Not Supported], [Unknown Error], "-" and the like.
func isNA(s string) bool {
	switch s {
	case "N/A", "NA", "-", "n/a", "Unknown", "Not Supported":
		return true
	}
	return len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']'
}

// parseBytes parses a memory value such as "841 MiB", "841MiB", "1.5 GiB"
// or, without a unit, a count of unit bytes. Not-available values give
// Unknown; ok is false for anything else.
func parseBytes(s string, unit int64) (int64, bool) {
	s = strings.TrimSpace(s)
	if isNA(s) {
		return Unknown, true
	}
	num, suf := units.SplitUnit(s)
	if suf != "" {
		u, ok := byteUnit(suf)
		if !ok {
			return 0, false
		}
		unit = u
	}
	if num == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(num, 10, 64); err == nil {
		if n < 0 || n > maxMiB*mib/unit {
			return 0, false
		}
		return n * unit, true
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f*float64(unit) > float64(maxMiB)*mib {
		return 0, false
	}
	return int64(f * float64(unit)), true
}

// byteUnit returns the size of a memory unit nvidia-smi or a user might
// print, in bytes; decimal spellings (MB, GB) mean binary units, as in
// nvidia-smi. An empty unit is not a unit here.
func byteUnit(u string) (int64, bool) {
	if strings.TrimSpace(u) == "" {
		return 0, false
	}
	return units.UnitBytes(u, units.Binary)
}

// parseNumber parses "22 %", "33.09 W" or a bare number, with the given
// unit suffix optional; not-available values give NaN.
func parseNumber(s, unit string) (float64, bool) {
	s = strings.TrimSpace(s)
	if isNA(s) {
		return math.NaN(), true
	}
	if unit != "" {
		s = strings.TrimSpace(strings.TrimSuffix(s, unit))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// parseStamp parses a log timestamp: nvidia-smi's "2023/06/22
// 18:56:56.252" (zoneless, read in loc), ISO 8601 with or without a zone,
// or the date line of the plain table ("Fri Aug  1 15:47:06 2025").
func parseStamp(s string, loc *time.Location) (t time.Time, zoneless, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return time.Time{}, false, false
	}
	if s[4] == '/' {
		t, err := time.ParseInLocation("2006/01/02 15:04:05.999999999", s, loc)
		if err != nil {
			t, err = time.ParseInLocation("2006/01/02 15:04", s, loc)
		}
		return t, true, err == nil
	}
	if s[4] == '-' {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t, false, true
		}
		if t, err := time.Parse("2006-01-02 15:04:05.999999999Z07:00", s); err == nil {
			return t, false, true
		}
		if t, err := time.Parse("2006-01-02 15:04:05.999999999 -07:00", s); err == nil {
			return t, false, true
		}
		for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04"} {
			if t, err := time.ParseInLocation(layout, s, loc); err == nil {
				return t, true, true
			}
		}
		return time.Time{}, false, false
	}
	return parseDate(s, loc)
}

// parseDate parses ctime-style dates as nvidia-smi and date(1) print them:
// "Fri Aug  1 15:47:06 2025", optionally with a zone abbreviation before
// the year ("Fri Aug  1 15:47:06 CEST 2025"). Only UTC and GMT are taken
// as zones; other abbreviations are ambiguous and read in loc.
func parseDate(s string, loc *time.Location) (time.Time, bool, bool) {
	f := strings.Fields(s)
	if len(f) == 6 {
		zone := f[4]
		f = append(f[:4], f[5])
		if zone == "UTC" || zone == "GMT" || zone == "Z" {
			t, err := time.Parse("Mon Jan 2 15:04:05 2006", strings.Join(f, " "))
			return t, false, err == nil
		}
	}
	if len(f) != 5 {
		return time.Time{}, false, false
	}
	t, err := time.ParseInLocation("Mon Jan 2 15:04:05 2006", strings.Join(f, " "), loc)
	return t, true, err == nil
}

// parseDateLine recognises the date line printed above an nvidia-smi
// table (or by a script's `date` before it): the whole line is a date, or
// a date followed by " - text", possibly inside a marker ("==== date
// ====") and in any of date(1)'s forms (dateline.go). zoneless is true
// when the date had no zone and was read in loc.
func parseDateLine(s string, loc *time.Location) (t time.Time, zoneless, ok bool) {
	t, zoneless, ok = readDateLine(s, loc)
	// A clock's date line reads a year from 1970 (the Unix epoch, where
	// system clocks start) on; an earlier year ("0225") is digits that
	// happen to fit the layout, not a reading.
	if !ok || t.Year() < 1970 || t.Year() > 9999 {
		return time.Time{}, false, false
	}
	return t, zoneless, true
}

// readDateLine is parseDateLine without the plausibility of the year.
func readDateLine(s string, loc *time.Location) (t time.Time, zoneless, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false, false
	}
	if t, zl, ok := readStampLine(s, loc); ok {
		return t, zl, true
	}
	u := unmarkDate(s)
	if u == "" || strings.ContainsAny(u, "|") {
		return time.Time{}, false, false
	}
	// Inside a script's marker, the line reads as it does alone.
	if u != s {
		if t, zl, ok := readStampLine(u, loc); ok {
			return t, zl, true
		}
	}
	return parseDateWords(u, loc)
}

// readStampLine reads a line that is a time stamp (parseStamp), or one
// followed by " - " and a note, and reports whether it is.
func readStampLine(s string, loc *time.Location) (t time.Time, zoneless, ok bool) {
	if strings.ContainsAny(s, "|+,") {
		return time.Time{}, false, false
	}
	if t, zl, ok := parseStamp(s, loc); ok {
		return t, zl, true
	}
	if i := strings.Index(s, " - "); i > 0 {
		return parseStamp(s[:i], loc)
	}
	return time.Time{}, false, false
}

// normBusID normalises a PCI bus id to nvidia-smi's long form:
// "0000:01:00.0" and "00000000:01:00.0" both give "00000000:01:00.0".
func normBusID(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if isNA(s) {
		return ""
	}
	dom, rest, ok := strings.Cut(s, ":")
	if !ok || strings.Count(rest, ":") != 1 {
		return s
	}
	if len(dom) < 8 {
		dom = strings.Repeat("0", 8-len(dom)) + dom
	}
	return dom + ":" + rest
}

// isBusID reports whether s looks like a PCI bus id ("00000000:01:00.0").
func isBusID(s string) bool {
	dom, rest, ok := strings.Cut(s, ":")
	if !ok || len(dom) < 4 || len(dom) > 8 || !isHex(dom) {
		return false
	}
	bus, rest, ok := strings.Cut(rest, ":")
	if !ok || len(bus) != 2 || !isHex(bus) {
		return false
	}
	dev, fn, ok := strings.Cut(rest, ".")
	return ok && len(dev) == 2 && isHex(dev) && len(fn) == 1 && isHex(fn)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// atoi parses a non-negative decimal int of at most 9 digits.
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
