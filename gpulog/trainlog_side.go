package gpulog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// A file can be a GPU log and a training log at once: a Slurm or
// Kubernetes job script that runs nvidia-smi (its table, a --query-gpu
// CSV block, gpustat) before training writes both into one
// slurm-*.out. Discovery classifies such a file by its GPU content, so
// ReadLog, reading any text file in a GPU log format, also reads it as
// a training log alongside (the side reading): the GPU reader keeps its
// readings, the training-log reader adds the file's out-of-memory
// messages and memory-summary readings.

// The reverse holds too: a file discovery claims as a training log (its
// memory lines outnumber the nvidia-smi table a job script printed before
// them) is also read by the line-oriented GPU reader (readText: tables,
// the date lines before them, query CSV blocks), and the GPU readings it
// finds are kept beside the training-log readings: the table's capacity
// and use are not lost to whichever sniffer claimed the file first.

// Both readings read the text once, in one pass, in the reader's
// goroutine. The side reading is handed lines (trainingReader.line,
// textState.feed) rather than pulling them: when the main reader reads
// lines of the input itself (lineReader), each line it reads is handed
// to the side reading as well, the same string (rideOn, ride); when it
// reads bytes (the CSV and JSON readers) or a collector's prefix is
// removed before it reads them, the bytes it reads are teed to the side
// reading, which splits them into lines as lineReader does (sideTee,
// write). Either way the side reading sees the text as it is after
// decompression, UTF-16 decoding and Docker's unwrapping, and before a
// prefix is removed; a line longer than maxLineBytes is skipped as one
// by both, never held whole.

// sideScan is the training-log reading of a file read as a GPU log, or
// the GPU reading of a file read as a training log.
type sideScan struct {
	// b builds the side reading's log; b.lr is the side reading's view
	// of the line last read (its number, NUL bytes, whether it was cut)
	// and its totals over the input.
	b *logBuilder
	// line reads one line (b.lr's); end ends the input (b.lr.err: how
	// it failed) and returns the reading's error.
	line func(string)
	end  func() error
	// finishLog is true when the side's log is finished as ReadLog
	// finishes one (derived use, times).
	finishLog bool
	// riding is the main reader's line reader when the side rides its
	// lines; nil while it is teed bytes (tee).
	riding *lineReader
	tee    *sideTee
	// ended is true once end was called; log and err are then the side
	// reading's result.
	ended bool
	log   *GPULog
	err   error
}

// newSideScan returns the training-log reading of a GPU log, to be given
// the log's input (teeFrom).
func newSideScan(opt ReadOptions) *sideScan {
	b := newLogBuilder(FormatTrainingLog, opt)
	b.lr = &lineReader{}
	tr := newTrainingReader(b)
	return &sideScan{b: b, line: tr.line, end: tr.end}
}

// newGPUSideScan returns the GPU reading (nvidia-smi tables and query CSV
// blocks: readText) of a training log, to be given the log's input
// (teeFrom).
func newGPUSideScan(opt ReadOptions) *sideScan {
	b := newLogBuilder(FormatTable, opt)
	b.lr = &lineReader{}
	st := &textState{b: b, lr: b.lr}
	return &sideScan{b: b, line: st.feed, end: st.end, finishLog: true}
}

// teeFrom returns the input for the main reader: r, with what is read
// from it teed to s, unless a reader of lines takes r's lines itself
// (logBuilder.lines).
func (s *sideScan) teeFrom(r *bufio.Reader) io.Reader {
	s.tee = &sideTee{r: r, side: s}
	return s.tee
}

// rideOn makes s read every line lr reads.
func (s *sideScan) rideOn(lr *lineReader) {
	s.riding = lr
	lr.side = s
}

// ride reads line, the line main just read.
func (s *sideScan) ride(main *lineReader, line string) {
	lr := s.b.lr
	lr.n, lr.long, lr.unterminated, lr.nuls, lr.failure = main.n, main.long, main.unterminated, main.nuls, main.failure
	lr.count(line)
	s.line(line)
}

// write reads the lines of the text p continues.
func (s *sideScan) write(p []byte) {
	lr := s.b.lr
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			lr.add(p)
			return
		}
		lr.add(p[:i+1])
		p = p[i+1:]
		s.take(lr.end(false))
	}
}

// take reads a line write assembled.
func (s *sideScan) take(line string) {
	s.b.lr.count(line)
	s.line(line)
	s.b.lr.start()
}

// close ends the input: at its end when err is nil or io.EOF, else
// where it failed.
func (s *sideScan) close(err error) {
	if s.ended {
		return
	}
	s.ended = true
	lr := s.b.lr
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		lr.err = err
	case s.riding == nil && (len(lr.buf) > 0 || lr.long):
		s.take(lr.end(true))
	}
	// As after a line reader's last call to next, no line is current.
	lr.start()
	s.err = s.end()
	if s.err == nil && s.finishLog {
		s.b.finish()
	}
	s.log = s.b.log
}

// finish reads what the main reader left of the input, when it stopped
// before its end, and ends the side reading.
func (s *sideScan) finish() {
	if s.ended {
		return
	}
	if lr := s.riding; lr != nil {
		for {
			line, ok := lr.read()
			if !ok {
				break
			}
			s.ride(lr, line)
		}
		s.close(lr.err)
		return
	}
	_, err := io.Copy(io.Discard, s.tee)
	s.close(err)
}

// sideTee reads r, handing what it reads to side (sideScan.write) while
// side does not ride a line reader's lines.
type sideTee struct {
	r    *bufio.Reader
	side *sideScan
	// read is true once anything was read from it.
	read bool
}

// unread reports whether nothing was read from t yet.
func (t *sideTee) unread() bool { return !t.read }

func (t *sideTee) Read(p []byte) (int, error) {
	t.read = true
	n, err := t.r.Read(p)
	if t.side.riding != nil {
		return n, err
	}
	t.side.write(p[:n])
	if err != nil {
		t.side.close(err)
	}
	return n, err
}

// adoptGPUSide adds what the GPU reading of a training log found to it:
// its GPUs, readings, processes and MIG readings, when it found readings.
// Lines that are no GPU output (the training job's) are no problem of the
// GPU reading, so its skipped lines are not kept.
func (b *logBuilder) adoptGPUSide(s *sideScan) {
	// A file whose only readings are nvidia-smi output is a GPU log, not
	// a training log: SniffLog claims it so, and its training-log reading
	// finds nothing of its own. A notebook or a log export is the
	// exception: no sniff of its head sees the output of its cells.
	if s.err != nil || s.log == nil || len(s.log.Samples) == 0 || len(b.log.OOMs)+len(b.log.MemoryStats) == 0 && !b.document {
		return
	}
	side, l := s.log, b.log
	l.GPUs, l.Samples, l.Processes, l.MIG = side.GPUs, side.Samples, side.Processes, side.MIG
	if l.Driver == "" {
		l.Driver = side.Driver
	}
	l.Timing = side.Timing
	l.Zoneless = l.Zoneless || side.Zoneless
	b.note(fmt.Sprintf("this training log also holds nvidia-smi output: %s of %s read from it",
		plural(len(side.Samples), "GPU reading"), plural(len(side.GPUs), "GPU")))
	for _, n := range side.Notes {
		b.note(n)
	}
}

// adoptSide adds what the training-log reading of the file found to the
// GPU log b builds: its out-of-memory messages, its memory-summary
// readings (when the GPU format gave none of its own), and the notes
// about them. readErr is the GPU reader's error; when the file held
// out-of-memory messages the GPU content that failed is noted instead,
// and adoptSide returns nil.
func (b *logBuilder) adoptSide(s *sideScan, readErr error) error {
	if s.err != nil || s.log == nil {
		return readErr
	}
	side := s.log
	stats := len(b.log.MemoryStats) == 0 && len(side.MemoryStats) > 0
	if len(side.OOMs) == 0 && !stats {
		return readErr
	}
	if readErr != nil {
		if len(side.OOMs) == 0 {
			return readErr
		}
		b.note(fmt.Sprintf("the %s content of this file could not be read (%v); its training-job output was", b.log.Format, readErr))
	}
	b.log.OOMs = append(b.log.OOMs, side.OOMs...)
	what := ""
	if len(side.OOMs) > 0 {
		what = plural(len(side.OOMs), "out-of-memory message")
	}
	if stats {
		b.log.MemoryStats = append(b.log.MemoryStats, side.MemoryStats...)
		if what != "" {
			what += " and "
		}
		what += plural(len(side.MemoryStats), "memory-summary reading")
	}
	b.log.Zoneless = b.log.Zoneless || side.Zoneless
	b.note(fmt.Sprintf("this %s log also holds a training job's output: %s read from it", b.log.Format, what))
	for _, n := range side.Notes {
		b.note(n)
	}
	return nil
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
