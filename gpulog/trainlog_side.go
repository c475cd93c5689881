package gpulog

import (
	"fmt"
	"io"
	"strconv"
)

// A file can be a GPU log and a training log at once: a Slurm or
// Kubernetes job script that runs nvidia-smi (its table, a --query-gpu
// CSV block, gpustat) before training writes both into one
// slurm-*.out. Discovery classifies such a file by its GPU content, so
// ReadLog, reading any text file in a GPU log format, also reads it as
// a training log (readTrainingLog) alongside: the GPU reader keeps its
// readings, the training-log reader adds the file's out-of-memory
// messages and memory-summary readings. Both read the same bytes once:
// the GPU reader's input is teed into the training-log reader, which
// runs in its own goroutine behind a pipe.

// The reverse holds too: a file discovery claims as a training log (its
// memory lines outnumber the nvidia-smi table a job script printed before
// them) is also read by the line-oriented GPU reader (readText: tables,
// the date lines before them, query CSV blocks), and the GPU readings it
// finds are kept beside the training-log readings: the table's capacity
// and use are not lost to whichever sniffer claimed the file first.

// sideScan is the training-log reading of a file read as a GPU log, or
// the GPU reading of a file read as a training log.
type sideScan struct {
	pw   *io.PipeWriter
	done chan struct{}
	// log and err are the training-log reader's result, set once done is
	// closed.
	log *GPULog
	err error
}

// startSideScan starts reading a training log from what is written to
// the returned scan's pipe.
func startSideScan(opt ReadOptions) *sideScan {
	return startSide(FormatTrainingLog, readTrainingLog, opt, false)
}

// startGPUSideScan starts reading GPU readings (nvidia-smi tables and
// query CSV blocks) from what is written to the returned scan's pipe.
func startGPUSideScan(opt ReadOptions) *sideScan {
	return startSide(FormatTable, readText, opt, true)
}

// startSide runs read on a pipe in its own goroutine; finish, when set,
// finishes its log as ReadLog finishes one (derived use, times).
func startSide(format LogFormat, read func(io.Reader, *logBuilder) error, opt ReadOptions, finish bool) *sideScan {
	pr, pw := io.Pipe()
	s := &sideScan{pw: pw, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		b := newLogBuilder(format, opt)
		s.err = read(pr, b)
		// The writer must never block on a reader that stopped early.
		_, _ = io.Copy(io.Discard, pr)
		if s.err == nil && finish {
			b.finish()
		}
		s.log = b.log
	}()
	return s
}

// adoptGPUSide adds what the GPU reading of a training log found to it:
// its GPUs, readings, processes and MIG readings, when it found readings.
// Lines that are no GPU output (the training job's) are no problem of the
// GPU reading, so its skipped lines are not kept.
func (b *logBuilder) adoptGPUSide(s *sideScan) {
	// A file whose only readings are nvidia-smi output is a GPU log, not
	// a training log: SniffLog claims it so, and its training-log reading
	// finds nothing of its own.
	if s.err != nil || s.log == nil || len(s.log.Samples) == 0 || len(b.log.OOMs)+len(b.log.MemoryStats) == 0 {
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

// finish ends the input (the GPU reader's source, drained to its end
// through rest so that the training-log reader sees the whole file) and
// waits for the training-log reader.
func (s *sideScan) finish(rest io.Reader) {
	_, err := io.Copy(io.Discard, rest)
	s.pw.CloseWithError(err)
	<-s.done
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
