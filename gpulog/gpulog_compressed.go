package gpulog

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// Logs are often kept compressed: logrotate gzips yesterday's nvidia-smi
// log, a cluster archives job output as .log.gz or .bz2, a user gzips a
// log before attaching it to a ticket. ReadLog reads gzip and bzip2
// streams (told by their first bytes, not the file name) as the text they
// hold, and Decompress gives discovery the same text to sniff. A stream
// that breaks off (a file cut during copy, a damaged block) keeps the
// readings before the break, with a note that says where it ended.

// Compression is how a log file's bytes are compressed.
type Compression string

// Compressions a log is read through.
const (
	// Uncompressed is plain text.
	Uncompressed Compression = ""
	// Gzip is a gzip stream (RFC 1952), several members concatenated
	// included, as `cat a.gz b.gz` and logrotate's delaycompress make.
	Gzip Compression = "gzip"
	// Bzip2 is a bzip2 stream.
	Bzip2 Compression = "bzip2"
)

// SniffCompression tells the compression of a file from its first bytes.
func SniffCompression(head []byte) Compression {
	switch {
	case len(head) >= 3 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 8:
		return Gzip
	case len(head) >= 4 && bytes.HasPrefix(head, []byte("BZh")) && head[3] >= '1' && head[3] <= '9':
		return Bzip2
	}
	return Uncompressed
}

// Decompress returns a reader of r's text and how r was compressed: r's
// own bytes when its first bytes name no compression. The error is for a
// stream whose header is unreadable.
func Decompress(r io.Reader) (io.Reader, Compression, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(4)
	c := SniffCompression(head)
	switch c {
	case Gzip:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, c, fmt.Errorf("gzip header: %w", err)
		}
		return zr, c, nil
	case Bzip2:
		return bzip2.NewReader(br), c, nil
	}
	return br, c, nil
}

// brokenStream reads a decompressed stream and ends it at the first error
// instead of failing the read: the text before a damaged or cut part of a
// compressed log is still read. err keeps the error, at the decompressed
// offset read.
type brokenStream struct {
	r    io.Reader
	c    Compression
	read int64
	err  error
}

func (s *brokenStream) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, io.EOF
	}
	n, err := s.r.Read(p)
	s.read += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		s.err = err
		err = io.EOF
	}
	return n, err
}

// note describes where the stream broke, for GPULog.Notes; "" when it did
// not.
func (s *brokenStream) note() string {
	if s == nil || s.err == nil {
		return ""
	}
	return fmt.Sprintf("the %s stream breaks off after %d bytes of text (%v): the file was cut or damaged; the readings before the break are kept",
		s.c, s.read, s.err)
}
