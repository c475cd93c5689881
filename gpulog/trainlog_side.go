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

// sideScan is the training-log reading of a file read as a GPU log.
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
	pr, pw := io.Pipe()
	s := &sideScan{pw: pw, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		b := newLogBuilder(FormatTrainingLog, opt)
		s.err = readTrainingLog(pr, b)
		// The writer must never block on a reader that stopped early.
		_, _ = io.Copy(io.Discard, pr)
		s.log = b.log
	}()
	return s
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
