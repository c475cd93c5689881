package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/snapshot"
)

// OutputDirName is the folder gpureport writes a run's report into, inside
// the run directory; discovery never reads it back as input.
const OutputDirName = "gpureport"

// Candidate is a file discovery picked as a possible input.
type Candidate struct {
	// Path is the absolute (or as-given) file path.
	Path string
	// Rel is the path relative to the run directory, slash-separated.
	Rel string
	// Kind says how the file will be read.
	Kind CandidateKind
	// Log is the log format when Kind is KindLog.
	Log gpulog.LogFormat
	// Bytes is the file size; ModTime its modification time.
	input.Source
	// id is the file's identity when discovery opened it, for the stat
	// index (statindex.go); identified says whether the platform gave
	// one.
	id         fileIdentity
	identified bool
	// wholeDocument is true for a log inside a JSON document (a
	// notebook, a log export: gpulog.SniffWrapper), compressed or not,
	// which is decoded whole to be read (estimateMemory). Discovery reads
	// only its head: its reader decodes it, once, under the loader's
	// memory budget, and decides the claim that discovery makes of other
	// text files (SniffTrainingLog).
	wholeDocument bool
	// unclaimed is what a document in which the reader finds nothing
	// (gpulog.ErrNoReadings) becomes, as classify would have left it
	// unclaimed: the reason it is listed as skipped with, or "" (a
	// notebook without an OOM, a JSON file of data) for a file that is
	// no input, as if never found.
	unclaimed string
}

// CandidateKind says what a discovered file looks like.
type CandidateKind uint8

// Candidate kinds.
const (
	// KindSnapshot is a pickle, gzip, zip or JSON snapshot file: a snapshot
	// candidate.
	KindSnapshot CandidateKind = iota + 1
	// KindLog is a GPU log in a recognised format.
	KindLog
	// KindUnusable is a file whose name promises an input but whose content
	// is none; it is reported as skipped.
	KindUnusable
	// KindCaptureManifest is a capture kit's manifest
	// (CaptureManifestName), found by its name.
	KindCaptureManifest
)

// reForeignOOM finds another framework's out-of-memory message in a
// text log no reader claimed: XLA's RESOURCE_EXHAUSTED (JAX's
// XlaRuntimeError), TensorFlow's BFC allocator and ResourceExhaustedError
// lines.
var reForeignOOM = regexp.MustCompile(`(?m)[^\n]*(?:RESOURCE_EXHAUSTED|ResourceExhaustedError|OOM when allocating tensor|Allocator \(\w+\) ran out of memory)[^\n]*`)

// noContentReason starts the skip reason of a text log that holds nothing
// gpureport reads (Skipped.NoContent).
const noContentReason = "holds nothing gpureport reads"

// sniffLen is how much of a file discovery reads to classify it.
const sniffLen = 8 << 10

// sniffWorkers is how many files discovery sniffs at once, at least: on
// a network file system each open and read waits a round trip, which
// more files in flight hide; on a local disk the system calls are the
// work, and workers beyond the cores only wait their turn.
const sniffWorkers = 8

// Discover walks dir recursively and classifies its files by content
// (magic bytes, log headers), not by name. It never descends into the
// report folder (OutputDirName, or any folder in exclude), hidden folders,
// or symbolic links to folders. Files whose extension promises a snapshot
// or a log but whose content is neither come back as KindUnusable with the
// reason; other unrecognised files are ignored. Paths to one file (links)
// and plain copies of a file under a name without a number of its own
// (copies.go) are read once, the others listed as skipped. A log inside
// a JSON document (a notebook, a log export) is a KindLog candidate by its
// head alone: Load's reader decides whether it holds anything to read.
func Discover(dir string, exclude []string) ([]Candidate, []Skipped, error) {
	return discover(dir, exclude, nil)
}

// discover is Discover that also claims CSV files with the columns spec
// names (nil: none) as GPU logs.
func discover(dir string, exclude []string, spec *gpulog.ColumnSpec) ([]Candidate, []Skipped, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a directory", dir)
	}
	var ex []string
	for _, e := range exclude {
		if a, err := filepath.Abs(e); err == nil {
			ex = append(ex, a)
		}
	}
	// The walk lists the files in order (and the entries it cannot
	// read); their contents are then sniffed by sniffWorkers at once,
	// each file's open and reads being system calls and waits more than
	// work (a re-run of 200 snapshots spent 5-10 ms here on one core of
	// a local disk), and the results taken in the walk's order.
	type walked struct {
		p, rel string
		// unreadable is the reason of an entry the walk could not read;
		// "" for a file to classify.
		unreadable string
		// link is true for a symbolic link.
		link bool
	}
	var files []walked
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel := relPath(dir, p)
		if err != nil {
			if p == dir {
				return err
			}
			files = append(files, walked{p: p, rel: rel, unreadable: "cannot read: " + errText(err)})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p == dir {
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") || isReportDir(p, name) || slices.Contains(ex, absPath(p)) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		files = append(files, walked{p: p, rel: rel, link: d.Type()&fs.ModeSymlink != 0})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	type sniffed struct {
		c      Candidate
		reason string
		ok     bool
	}
	out := make([]sniffed, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(runtime.GOMAXPROCS(0), sniffWorkers), len(files)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				if f := files[i]; f.unreadable == "" {
					c, reason, ok := classify(f.p, f.rel, spec)
					out[i] = sniffed{c, reason, ok}
				}
			}
		})
	}
	wg.Wait()
	var cands []Candidate
	var skipped []Skipped
	keep := sameFiles(len(files), func(i int) (Candidate, bool, bool) { return out[i].c, out[i].ok, files[i].link })
	// Of the files left, plain copies of another (copies.go).
	var read []int
	for i := range files {
		if out[i].ok && keep[i] == i {
			read = append(read, i)
		}
	}
	copyOf := map[int]string{}
	readCands := make([]Candidate, len(read))
	for k, i := range read {
		readCands[k] = out[i].c
	}
	of, timed := copies(readCands)
	for k, j := range of {
		switch {
		case j >= 0 && timed[k]:
			copyOf[read[k]] = timedCopyReason(readCands[j].Rel)
		case j >= 0:
			copyOf[read[k]] = copyReason(readCands[j].Rel)
		}
	}
	for i, f := range files {
		switch r := out[i]; {
		case f.unreadable != "":
			skipped = append(skipped, Skipped{Path: f.rel, Reason: f.unreadable})
		case r.ok && keep[i] != i:
			skipped = append(skipped, Skipped{Path: f.rel, Reason: "the same file as " + out[keep[i]].c.Rel + " (a symbolic or hard link to it): read once"})
		case r.ok && copyOf[i] != "":
			skipped = append(skipped, Skipped{Path: f.rel, Reason: copyOf[i]})
		case r.ok:
			cands = append(cands, r.c)
		case r.reason != "":
			skipped = append(skipped, skippedFile(f.rel, r.reason))
		}
	}
	return cands, skipped, nil
}

// skippedFile is the Skipped entry of a file classify did not claim, for
// the reason it gave.
func skippedFile(rel, reason string) Skipped {
	return Skipped{Path: rel, Reason: reason, NoContent: strings.HasPrefix(reason, noContentReason)}
}

// sameFiles finds the paths that name one file (a symbolic link such as
// latest.pickle to snapshot_step_80.pickle, or a hard link) among n
// walked entries, by the identity (device and inode) of the file each
// opened; of entry i, at gives the candidate, whether it is one, and
// whether the path is a symbolic link. It returns for each entry the
// entry that is read for its file: a path that is no link before a link,
// then a name with a step before one without (the step places the
// snapshot), then the first in walk order. Entries that are no
// candidate, or whose platform gives no identity, are their own.
func sameFiles(n int, at func(i int) (c Candidate, ok, link bool)) []int {
	keep := make([]int, n)
	first := map[fileIdentity]int{}
	better := func(i, j int) bool {
		ci, _, li := at(i)
		cj, _, lj := at(j)
		if li != lj {
			return !li
		}
		si, sj := StepFromName(ci.Rel) != input.NoStep, StepFromName(cj.Rel) != input.NoStep
		return si && !sj
	}
	for i := range n {
		keep[i] = i
		c, ok, _ := at(i)
		if !ok || !c.identified {
			continue
		}
		// The identity without the times: a link and its target are
		// one inode, whatever the times say.
		id := fileIdentity{Ino: c.id.Ino, Dev: c.id.Dev}
		j, seen := first[id]
		if !seen {
			first[id] = i
			continue
		}
		if better(i, j) {
			first[id] = i
		}
	}
	for i := range n {
		c, ok, _ := at(i)
		if ok && c.identified {
			keep[i] = first[fileIdentity{Ino: c.id.Ino, Dev: c.id.Dev}]
		}
	}
	return keep
}

// IsInputFile reports whether the file at p (or the file a symbolic link
// there points to) is a snapshot container or a GPU log gpureport reads,
// judged by content as Discover judges it.
//
// A JSON document holding a log (Candidate.wholeDocument) is an input
// when it holds what its reader reads: it is scanned here as discovery
// once scanned it (gpulog.SniffTrainingLog), one file at a time.
func IsInputFile(p string) bool {
	c, _, ok := classify(p, filepath.Base(p), nil)
	if ok && c.wholeDocument {
		return documentClaimed(p)
	}
	return ok && (c.Kind == KindSnapshot || c.Kind == KindLog)
}

// documentClaimed reports whether the JSON document at p (compressed or
// not) holds an OOM message or a reading its reader reads.
func documentClaimed(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	r, _, err := gpulog.Decompress(f)
	if err != nil {
		return false
	}
	br := bufio.NewReaderSize(r, sniffLen)
	head, _ := br.Peek(sniffLen)
	return gpulog.SniffTrainingLog(br, head)
}

// isReportDir reports whether a folder is a gpureport output folder: named
// OutputDirName, or holding a gpureport summary.json.
func isReportDir(p, name string) bool {
	if name == OutputDirName {
		return true
	}
	_, err := os.Stat(filepath.Join(p, "summary.json"))
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(p, "index.html"))
	return err == nil
}

// classify reads the head of a file and decides what it is. A text file
// that is no GPU log is read through for an out-of-memory message (a
// training job's stdout/stderr: FormatTrainingLog), unless its extension
// says it is source code or configuration; documentation (a README, a
// Markdown page: isDocumentation) is never read. A job's output inside a JSON
// container (a notebook's outputs, a log export: gpulog.SniffWrapper) is
// read through whatever its extension (.ipynb, .json).
func classify(p, rel string, spec *gpulog.ColumnSpec) (Candidate, string, bool) {
	if c, ok := classifyManifest(p, rel); ok {
		return c, "", true
	}
	if isDocumentation(p) {
		// A README or notes page quoting an OOM is no job output
		// (docnames.go).
		return Candidate{}, "", false
	}
	ext := strings.ToLower(filepath.Ext(p))
	promised := isSnapshotExt(ext) || ext == ".gz" || ext == ".bz2" || isLogExt(ext)
	f, err := os.Open(p)
	if err != nil {
		if promised {
			return Candidate{}, "cannot open: " + errText(err), false
		}
		return Candidate{}, "", false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return Candidate{}, "", false
	}
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		if promised {
			return Candidate{}, "cannot read: " + errText(err), false
		}
		return Candidate{}, "", false
	}
	head = head[:n]
	c := Candidate{Path: p, Rel: rel, Source: input.Source{Path: rel, Bytes: st.Size(), ModTime: st.ModTime()}}
	c.id, c.identified = identityOf(st)
	if comp := gpulog.SniffCompression(head); comp != gpulog.Uncompressed {
		if lf, doc, ok := classifyCompressed(f, p, spec); ok {
			c.Kind, c.Log = KindLog, lf
			if doc != gpulog.WrapperNone {
				// As an uncompressed document: its reader decides, and
				// one that holds nothing is a job's output with nothing
				// read (not a snapshot that failed to decode).
				c.wholeDocument = true
				c.unclaimed = fmt.Sprintf("%s (a %s %s without an out-of-memory message, memory line or GPU reading)", noContentReason, comp, doc)
			}
			return c, "", true
		}
	}
	if _, ok := snapshot.SniffContainer(head); ok {
		c.Kind = KindSnapshot
		return c, "", true
	}
	if reason, ok := unreadCompression(head, p); ok {
		return Candidate{}, reason, false
	}
	if lf, ok := gpulog.SniffLogWith(head, spec); ok {
		c.Kind = KindLog
		c.Log = lf
		return c, "", true
	}
	if gpulog.SniffMLflowGPU(rel, head) {
		c.Kind, c.Log = KindLog, gpulog.FormatMLflowGPU
		return c, "", true
	}
	if gpulog.SniffTensorBoardCSV(rel, head) {
		c.Kind, c.Log = KindLog, gpulog.FormatTensorBoardCSV
		return c, "", true
	}
	if reason, ok := gpulog.TensorBoardCSVReason(rel, head); ok && promised {
		return Candidate{}, reason, false
	}
	w := gpulog.SniffWrapper(head)
	if (!notJobOutputExt(ext) || jsonLogRecords(ext, head) || w != gpulog.WrapperNone) && n > 0 {
		if isDocument(w) {
			// Decoded by its reader alone, which decides the claim
			// (Candidate.wholeDocument): sniffing it here would decode
			// it whole once more, and one such document per sniff
			// worker at once (up to 256 MiB each).
			c.Kind, c.Log, c.wholeDocument = KindLog, gpulog.FormatTrainingLog, true
			c.unclaimed = unclaimedReason(ext, head, promised)
			return c, "", true
		}
		if _, err := f.Seek(0, io.SeekStart); err == nil && gpulog.SniffTrainingLog(f, head) {
			c.Kind, c.Log = KindLog, gpulog.FormatTrainingLog
			return c, "", true
		}
	}
	return Candidate{}, unclaimedReason(ext, head, promised), false
}

// isDocument reports whether w is a container decoded whole (a notebook, a
// log export), not one streamed line by line (Docker's objects).
func isDocument(w gpulog.Wrapper) bool {
	return w != gpulog.WrapperNone && w != gpulog.WrapperDocker
}

// unclaimedReason is the reason classify lists a file it does not claim
// as skipped with (of extension ext, starting with head), "" for a file
// it passes over: neither promised by its extension nor a kind of JSON
// gpureport names.
func unclaimedReason(ext string, head []byte, promised bool) string {
	n := len(head)
	if reason, ok := unreadJSON(ext, head); ok {
		return reason
	}
	if !promised {
		return ""
	}
	if reason, ok := gpulog.SacctTRESReason(head); ok {
		return reason
	}
	if textLog := ext == ".log" || ext == ".txt"; textLog {
		if m := reForeignOOM.Find(head); m != nil {
			// An OOM no reader claimed is another framework's (JAX/XLA,
			// TensorFlow): the run did run out, and the report must
			// not file the log as one with nothing in it.
			return fmt.Sprintf("an out-of-memory message gpureport does not read (%q): only PyTorch's and CUDA's messages are read, not JAX/XLA's or TensorFlow's", firstLine(m, 100))
		}
	}
	if textLog := ext == ".log" || ext == ".txt"; textLog && (n == 0 || !mayHoldGPUTable(head)) {
		// A job's stdout or stderr that no reader claimed (a rank's loss
		// lines, a server's start-up, an empty stderr.log): nothing to
		// read, no failure, whatever else it prints. Amounts of memory
		// in it (a hand-made "mem 12.00 GB" print, host memory) are in
		// no form gpureport reads: the reason says so, in the same quiet
		// words, since every reader already had its try.
		if n == 0 {
			return noContentReason + " (an empty file)"
		}
		what := "no GPU readings, no out-of-memory message"
		if reMemoryQuantity.Match(head) {
			what += "; its amounts of memory are in no form gpureport reads"
		}
		return fmt.Sprintf("%s (%s; first line: %q)", noContentReason, what, firstLine(head, 80))
	}
	if n == 0 {
		return "empty file"
	}
	if oldPickle(head) {
		return "a pickle of protocol 0 or 1 (no protocol header), which torch.cuda.memory._dump_snapshot never writes: load it in Python and dump it again with protocol 2 or later"
	}
	if isSnapshotExt(ext) || ext == ".gz" || ext == ".bz2" {
		return fmt.Sprintf("not a snapshot: no pickle, gzip, bzip2 or zip signature and no JSON snapshot (starts with %q)", firstBytes(head, 16))
	}
	if reason, ok := gpulog.GrafanaCSVReason(head); ok {
		return reason
	}
	reason := fmt.Sprintf("not a recognised GPU log (first line: %q)", firstLine(head, 80))
	if startsCSV(head) {
		reason += "; if it is a CSV of GPU memory, name its columns with --gpu-log-columns " +
			"(keys time, used, total, free, gpu and unit, each set to a column of this header: time=<column>,used=<column>,unit=MiB)"
	}
	return reason
}

// reMemoryQuantity finds an amount of memory with its unit ("1000.00MiB",
// "80 GB").
var reMemoryQuantity = regexp.MustCompile(`\d(?:\.\d+)?\s*(?:[KMGT]i?B|bytes)\b`)

// mayHoldGPUTable reports whether the head of a text log gpureport did
// not read may be a table of GPU data it could read when told how, or a
// file that is no text: binary content, or a CSV header
// (--gpu-log-columns may name its columns). Those are warned about; a
// job's output is not (unclaimedReason).
func mayHoldGPUTable(head []byte) bool {
	return bytes.IndexByte(head, 0) >= 0 || startsCSV(head)
}

// csvHeaderFields reports whether a line is a CSV header: two or more
// fields split by commas, semicolons or tabs, each a name (it starts with
// a letter and is no number), so that --gpu-log-columns could name them;
// with the separator and the number of fields.
func csvHeaderFields(line string) (sep string, n int, ok bool) {
	line = strings.TrimPrefix(strings.TrimSpace(line), "\ufeff")
	for _, sep := range []string{",", ";", "\t"} {
		fields := strings.Split(line, sep)
		if len(fields) < 2 {
			continue
		}
		ok := true
		for _, f := range fields {
			f = strings.Trim(strings.TrimSpace(f), `"`)
			if f == "" || !unicode.IsLetter([]rune(f)[0]) {
				ok = false
				break
			}
		}
		if ok {
			return sep, len(fields), true
		}
	}
	return "", 0, false
}

// startsCSV reports whether head, a file's first bytes, starts as a CSV
// does: a header line (csvHeaderFields) and, when a second line
// follows, one of as many fields under the same separator. A line of
// prose with a comma ("step 12: OOM on batch ..., skipping batch") has
// two fields that start with letters too, but the log's next line is no
// row of it.
func startsCSV(head []byte) bool {
	text := string(head)
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' })
	if len(lines) == 0 {
		return false
	}
	sep, n, ok := csvHeaderFields(firstLine(head, 4<<10))
	if !ok {
		return false
	}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		// The second line may be cut where head (sniffLen bytes of a
		// longer file) ends: a row shorter than the header there is no
		// evidence against it.
		if l == lines[len(lines)-1] && len(head) >= sniffLen && len(strings.Split(l, sep)) < n {
			return true
		}
		return len(strings.Split(l, sep)) == n
	}
	return true
}

// unreadCompressions are the compressions gpureport does not decompress,
// by their magic bytes: a file under one whose name promises a snapshot
// or a log is listed as skipped with the reason, not ignored.
var unreadCompressions = []struct{ magic, name string }{
	{"\xfd7zXZ\x00", "xz"},
	{"\x28\xb5\x2f\xfd", "zstd"},
}

// unreadCompression returns the skip reason of a file compressed in a
// way gpureport does not read (unreadCompressions) whose name, under the
// compression's extension, promises a snapshot (snapshot.pickle.xz) or a
// GPU log; false otherwise.
func unreadCompression(head []byte, p string) (string, bool) {
	for _, u := range unreadCompressions {
		if !bytes.HasPrefix(head, []byte(u.magic)) {
			continue
		}
		base := filepath.Base(p)
		inner := strings.ToLower(filepath.Ext(strings.TrimSuffix(base, filepath.Ext(base))))
		switch {
		case isSnapshotExt(inner):
			return u.name + "-compressed snapshot: not supported; decompress it first (gzip and bzip2 are read)", true
		case isLogExt(inner):
			return u.name + "-compressed log: not supported; decompress it first (gzip and bzip2 are read)", true
		}
	}
	return "", false
}

// classifyCompressed tells whether the compressed file f (at path p) holds
// a text log, by the text it decompresses to: a GPU log format, or a
// training log with an out-of-memory message (unless the name under the
// compression extension says source code or data, as notJobOutputExt). A
// compressed pickle, or text that is no log, is not claimed here: gzip
// files go on to be tried as snapshots. A JSON document holding a log (a
// notebook, a log export) is claimed by its head, and named (doc), for its
// reader to decide (Candidate.wholeDocument).
func classifyCompressed(f io.ReadSeeker, p string, spec *gpulog.ColumnSpec) (lf gpulog.LogFormat, doc gpulog.Wrapper, ok bool) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", "", false
	}
	r, _, err := gpulog.Decompress(f)
	if err != nil {
		return "", "", false
	}
	// One decompression serves both sniffs: the head is peeked, and the
	// training-log scan reads on from the start.
	br := bufio.NewReaderSize(r, sniffLen)
	text, _ := br.Peek(sniffLen)
	if len(text) == 0 {
		return "", "", false
	}
	if _, ok := snapshot.SniffContainer(text); ok {
		return "", "", false
	}
	if lf, ok := gpulog.SniffLogWith(text, spec); ok {
		return lf, "", true
	}
	base := filepath.Base(p)
	inner := strings.ToLower(filepath.Ext(strings.TrimSuffix(base, filepath.Ext(base))))
	w := gpulog.SniffWrapper(text)
	if notJobOutputExt(inner) && w == gpulog.WrapperNone {
		return "", "", false
	}
	if isDocument(w) {
		return gpulog.FormatTrainingLog, w, true
	}
	if gpulog.SniffTrainingLog(br, text) {
		return gpulog.FormatTrainingLog, "", true
	}
	return "", "", false
}

// reLogRecordLevel and reLogRecordText find the keys of a JSON logger's
// record (python-json-logger, structlog, loguru's serialize=True): a
// level and a message or exception. reElasticErrorFile matches the start
// of torchelastic's error file (attempt_N/R/error.json), which holds the
// failed rank's exception as {"message": {"message": "...", "extraInfo":
// ...}}.
var (
	reLogRecordLevel   = regexp.MustCompile(`"(?:level|levelname|severity|lvl|log\.level)"\s*:`)
	reLogRecordText    = regexp.MustCompile(`"(?:msg|message|event|exc_info|exception|text)"\s*:`)
	reElasticErrorFile = regexp.MustCompile(`^\{\s*"message"\s*:\s*\{\s*"message"\s*:`)
)

// jsonLogRecords reports whether a JSON or JSON-lines file (by its
// extension), which is otherwise not scanned for OOM messages (it may be
// configuration or a data set), is a job's log: its first line is a JSON
// logger's record, or the file is torchelastic's error file.
func jsonLogRecords(ext string, head []byte) bool {
	if ext != ".json" && ext != ".jsonl" && ext != ".ndjson" {
		return false
	}
	first, _, _ := bytes.Cut(bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n"), []byte("\n"))
	if len(first) == 0 || first[0] != '{' {
		return false
	}
	if reElasticErrorFile.Match(first) {
		return true
	}
	return ext != ".json" && reLogRecordLevel.Match(first) && reLogRecordText.Match(first)
}

func isLogExt(ext string) bool {
	switch ext {
	case ".csv", ".log", ".txt", ".xml", ".jsonl", ".ndjson", ".tsv":
		return true
	}
	return false
}

// notJobOutputExt reports whether an extension names source code,
// notebooks, documentation, configuration or tabular data: such files
// quote OOM messages (an except clause, a README) or are large data sets,
// never a job's stdout/stderr, and are not scanned for OOM messages.
func notJobOutputExt(ext string) bool {
	switch ext {
	case ".py", ".pyi", ".ipynb", ".c", ".cc", ".cpp", ".h", ".hpp", ".cu", ".cuh", ".go", ".rs", ".java",
		".js", ".ts", ".sh", ".bash", ".md", ".rst", ".html", ".htm", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".json",
		".csv", ".tsv", ".jsonl", ".ndjson", ".xml", ".parquet", ".arrow", ".npy", ".npz", ".pt", ".pth", ".safetensors", ".bin":
		return true
	}
	return false
}

func firstBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func firstLine(b []byte, n int) string {
	s := string(firstBytes(b, 4*n))
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

func relPath(dir, p string) string {
	r, err := filepath.Rel(dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

func absPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// errText strips the path from an *fs.PathError, which callers print next
// to the path already.
func errText(err error) string {
	var pe *fs.PathError
	if e, ok := err.(*fs.PathError); ok {
		pe = e
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// oldPickle reports whether head starts like a pickle of protocol 0 or 1,
// which has no PROTO header: a MARK and a text dict or list opcode with
// its memo put ("(dp0\n", "(lp0\n"), or an empty dict or list followed by
// a binary memo put or a MARK ("}q\x00(", "]q\x00"). A snapshot written
// with pickle.dump(obj, f, 0) or by Python 2 starts so.
func oldPickle(head []byte) bool {
	switch {
	case len(head) < 3:
		return false
	case head[0] == '(' && (head[1] == 'd' || head[1] == 'l') && head[2] == 'p':
		return true
	case (head[0] == '}' || head[0] == ']') && (head[1] == 'q' || head[1] == 'r' || head[1] == '('):
		return true
	}
	return false
}
