package snapshot

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime/debug"
	"strings"

	"gpureport/input"
	"gpureport/internal/mmapfile"
)

// DefaultMaxDecompressed is the default bound on the bytes a gzip or zip
// snapshot may decompress to (16 GiB): far above any real snapshot, low
// enough that a decompression bomb ends with an error instead of hours of
// work.
const DefaultMaxDecompressed int64 = 16 << 30

// DecodeOptions tune snapshot decoding. The zero value is ready to use.
type DecodeOptions struct {
	// MaxDecompressed bounds the decompressed size of gzip and zip
	// snapshots, in bytes; 0 means DefaultMaxDecompressed.
	MaxDecompressed int64
	// SkimTrace leaves the stacks of trace events out (TraceEntry.Stack is
	// NoStack), except those of OOM events: what Reduce keeps of a trace.
	// The frame dicts are still decoded (their notes are the file's), but
	// no stack is built or interned for each of a million events, which is
	// most of a full decode's work. A digest made from a skimmed snapshot
	// equals one made from the full decode.
	SkimTrace bool
	// Scratch, when set, lends the decoder the arrays of the last decode
	// that used it: the snapshot decoded before with it is then no longer
	// valid (see Scratch). nil decodes into memory of its own.
	Scratch *Scratch
}

// maxNesting bounds how deep containers may nest in a snapshot pickle.
// Real snapshots nest 6 levels; a deeper file is hostile or broken.
const maxNesting = 1000

func (o DecodeOptions) maxDecompressed() int64 {
	if o.MaxDecompressed > 0 {
		return o.MaxDecompressed
	}
	return DefaultMaxDecompressed
}

// ErrNotPickle is wrapped by errors for files that are none of the
// snapshot containers (pickle, gzip, zip, JSON).
var ErrNotPickle = errors.New("not a pickle, gzip, bzip2, torch.save zip or JSON snapshot file")

// SniffContainer tells the container of a snapshot from its first bytes,
// and false when they match none.
func SniffContainer(head []byte) (Container, bool) {
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		return ContainerGzip, true
	case isBzip2(head):
		return ContainerBzip2, true
	case len(head) >= 4 && string(head[:4]) == "PK\x03\x04":
		return ContainerZip, true
	case len(head) >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5:
		return ContainerPickle, true
	case looksLikeJSONSnapshot(head):
		return ContainerJSON, true
	}
	return "", false
}

// DecodeFile decodes the snapshot file at path, whatever its container.
// Errors are *FileError, naming the file.
func DecodeFile(path string, opt DecodeOptions) (*Snapshot, Container, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", input.NewFileError(path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, "", input.NewFileError(path, err)
	}
	var s *Snapshot
	var c Container
	var mf *mmapfile.File
	if st.Mode().IsRegular() {
		mf, _ = mmapfile.Map(f, st.Size()) // else streamed
	}
	if mf != nil {
		s, c, err = decodeMapped(mf, opt)
	} else {
		s, c, err = Decode(f, st.Size(), opt)
	}
	if err != nil {
		return nil, c, input.NewFileError(path, err)
	}
	return s, c, nil
}

// decodeMapped decodes a mapped file in place and unmaps it. A file cut
// shorter while it is mapped makes reading its lost pages fault (SIGBUS
// on Linux): the decode's goroutine turns such a fault into a panic
// (debug.SetPanicOnFault), and the panic into an error, so that a file
// truncated by its writer under the decode costs that file, as it would
// streaming, never the process.
func decodeMapped(mf *mmapfile.File, opt DecodeOptions) (s *Snapshot, c Container, err error) {
	defer mf.Close()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if off, ok := mf.Fault(p); ok {
				s, err = nil, shrankAt(off)
				return
			}
			panic(p)
		}
	}()
	b := mf.Bytes()
	s, c, err = decode(bytes.NewReader(b), int64(len(b)), &wholeReader{b: b, release: mf.Release, populate: mf.Populate}, opt)
	var ie *internalError
	if errors.As(err, &ie) {
		if off, ok := mf.Fault(ie.panicked); ok {
			err = shrankAt(off)
		}
	}
	return s, c, err
}

// shrankAt is the error of a fault reading a mapped file at offset off:
// most often pages cut from the file, else an I/O error of a file system
// that reports one only as a fault.
func shrankAt(off int64) error {
	return &PickleError{Offset: off, Kind: ErrTruncated, Msg: "the file's bytes from here could not be read while it was read: it became shorter (truncated by its writer?) or its storage failed"}
}

// Decode decodes a snapshot of size bytes read from ra: a pickle, a
// gzipped pickle, or a torch.save zip archive (its */data.pkl member),
// detected from the content. Errors about the pickle carry the byte offset
// in the (decompressed) pickle stream.
func Decode(ra io.ReaderAt, size int64, opt DecodeOptions) (*Snapshot, Container, error) {
	return decode(ra, size, nil, opt)
}

// decode is Decode; whole, when set, holds ra's bytes, which a pickle is
// then read from in place, each decode from a copy of whole.
func decode(ra io.ReaderAt, size int64, whole *wholeReader, opt DecodeOptions) (*Snapshot, Container, error) {
	var head [jsonSniffLen]byte
	n, err := ra.ReadAt(head[:], 0)
	if n < len(head) && err != nil && err != io.EOF {
		return nil, "", err
	}
	c, ok := SniffContainer(head[:n])
	if !ok {
		if n == 0 {
			return nil, "", fmt.Errorf("%w: the file is empty", ErrNotPickle)
		}
		return nil, "", fmt.Errorf("%w: it starts with %q", ErrNotPickle, head[:min(n, 4)])
	}
	switch c {
	case ContainerGzip:
		open := func() (io.Reader, error) {
			zr, err := gzip.NewReader(bufio.NewReaderSize(io.NewSectionReader(ra, 0, size), 1<<16))
			if err != nil {
				return nil, fmt.Errorf("gzip: %w", err)
			}
			return zr, nil
		}
		s, err := decodeLimited(open, opt, "gzip data")
		return s, c, err
	case ContainerBzip2:
		open := func() (io.Reader, error) {
			return bzip2.NewReader(bufio.NewReaderSize(io.NewSectionReader(ra, 0, size), 1<<16)), nil
		}
		s, err := decodeLimited(open, opt, "bzip2 data")
		return s, c, err
	case ContainerZip:
		s, err := decodeZip(ra, size, opt)
		return s, c, err
	case ContainerJSON:
		s, err := decodeJSON(io.NewSectionReader(ra, 0, size))
		return s, c, err
	}
	open := func() (io.Reader, error) {
		if whole != nil {
			// Each decode from the start, with nothing released yet:
			// whole itself is never read.
			w := *whole
			return &w, nil
		}
		return io.NewSectionReader(ra, 0, size), nil
	}
	s, err := decodePickleMode(open, size, opt.SkimTrace, opt.Scratch)
	return s, c, err
}

// isTar reports whether head starts a tar archive: a POSIX (ustar) or
// GNU header, whose magic stands at offset 257 of the first 512-byte
// header block (a .tar.gz of snapshot files).
func isTar(head []byte) bool {
	return len(head) >= 262 && string(head[257:262]) == "ustar"
}

// decodeLimited decodes a decompressing stream, failing once it passes the
// decompression bound. what names the stream in errors.
func decodeLimited(open func() (io.Reader, error), opt DecodeOptions, what string) (*Snapshot, error) {
	var lr *limitReader
	// openLimited opens the stream and tells a pickle from JSON inside.
	openLimited := func() (io.Reader, bool, error) {
		r, err := open()
		if err != nil {
			return nil, false, err
		}
		lr = &limitReader{r: r, left: opt.maxDecompressed()}
		// The container was recognised; say so when what it holds is no
		// pickle, rather than decoding its first byte as an opcode.
		br := bufio.NewReaderSize(lr, 1<<16)
		head, perr := br.Peek(jsonSniffLen)
		c, ok := SniffContainer(head)
		if ok && c == ContainerJSON {
			return br, true, nil
		}
		if !ok || c != ContainerPickle {
			switch {
			case lr.hit:
				return br, false, nil // the caller reports the bound
			case perr != nil && perr != io.EOF:
				return nil, false, fmt.Errorf("%s: %w", what, perr)
			}
			if isTar(head) {
				return nil, false, fmt.Errorf("%s: %w: the decompressed data is a tar archive; extract its files and point gpureport at them (it reads snapshot files, not archives of them)", what, ErrNotPickle)
			}
			return nil, false, fmt.Errorf("%s: %w: the decompressed data starts with %q", what, ErrNotPickle, head[:min(len(head), 4)])
		}
		return br, false, nil
	}
	first, isJSON, err := openLimited()
	var s *Snapshot
	switch {
	case err != nil:
	case isJSON:
		s, err = decodeJSON(first)
	default:
		// The first decode reads the stream already open; a second one
		// (decodePickleRawMode's retry without skimming) opens it again.
		limited := func() (io.Reader, error) {
			if r := first; r != nil {
				first = nil
				return r, nil
			}
			r, _, err := openLimited()
			return r, err
		}
		s, err = decodePickleMode(limited, -1, opt.SkimTrace, opt.Scratch)
	}
	if lr != nil && lr.hit {
		return nil, fmt.Errorf("%s: decompressed data exceeds the %d-byte limit (raise it with --max-decompressed)", what, opt.maxDecompressed())
	}
	if err != nil {
		if hasStreamOffset(err) {
			return nil, fmt.Errorf("%s (offsets count decompressed bytes): %w", what, err)
		}
		return nil, err
	}
	// A gzip stream is only known to be intact once read to its end.
	if _, err := io.Copy(io.Discard, lr); err != nil {
		if lr.hit {
			return nil, fmt.Errorf("%s: decompressed data exceeds the %d-byte limit (raise it with --max-decompressed)", what, opt.maxDecompressed())
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return s, nil
}

// hasStreamOffset reports whether err names a byte offset in the pickle
// stream: a *PickleError, or a *pathError that knows the offset of its
// container.
func hasStreamOffset(err error) bool {
	var pe *PickleError
	var pa *pathError
	return errors.As(err, &pe) || errors.As(err, &pa) && pa.at > 0
}

// limitReader reads at most left bytes and records whether more were
// available.
type limitReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		n, _ := l.r.Read(one[:])
		if n > 0 {
			l.hit = true
			return 0, errors.New("decompression limit reached")
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// decodeZip decodes the pickle member of a torch.save archive: the single
// member named data.pkl, at the top or one folder down.
func decodeZip(ra io.ReaderAt, size int64, opt DecodeOptions) (*Snapshot, error) {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	member := dataMember(zr)
	if member == nil {
		return nil, fmt.Errorf("%w: zip archive without a data.pkl member (not a torch.save file)", ErrNotPickle)
	}
	if int64(member.UncompressedSize64) > opt.maxDecompressed() || member.UncompressedSize64 > 1<<62 {
		return nil, fmt.Errorf("zip member %s: declared size %d exceeds the %d-byte limit (raise it with --max-decompressed)", member.Name, member.UncompressedSize64, opt.maxDecompressed())
	}
	var opened []io.Closer
	defer func() {
		for _, c := range opened {
			c.Close()
		}
	}()
	open := func() (io.Reader, error) {
		rc, err := member.Open()
		if err != nil {
			return nil, fmt.Errorf("zip member %s: %w", member.Name, err)
		}
		opened = append(opened, rc)
		return bufio.NewReaderSize(rc, 1<<16), nil
	}
	return decodeLimited(open, opt, "zip member "+member.Name)
}

// dataMember returns the pickle member of a torch.save archive: the
// single member named data.pkl, at the top or one folder down.
func dataMember(zr *zip.Reader) *zip.File {
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, "/")
		if path.Base(name) == "data.pkl" && strings.Count(name, "/") <= 1 {
			return f
		}
	}
	return nil
}

// decodePickle decodes a bare snapshot pickle stream from open, whose
// length is size (-1 when unknown). The fast decoder runs first; a legal
// pickle it cannot type directly (see pickle_roles.go) is read again from a
// fresh stream with the same machine in generic mode and converted from
// the generic tree.
func decodePickle(open func() (io.Reader, error), size int64) (s *Snapshot, err error) {
	return decodePickleMode(open, size, false, nil)
}

// decodePickleMode is decodePickle, skimming the trace when skim is set
// (DecodeOptions.SkimTrace).
func decodePickleMode(open func() (io.Reader, error), size int64, skim bool, sc *Scratch) (s *Snapshot, err error) {
	// The decoder is fuzzed and must not panic on any input; should a bug
	// slip through, it costs one file, not a nightly batch run.
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, &internalError{p}
		}
	}()
	return decodePickleRawMode(open, size, skim, sc)
}

// internalError is a decoder panic turned into an error: a bug in
// gpureport, not a property of the file. Fuzz tests look for it with
// errors.As.
type internalError struct{ panicked any }

func (e *internalError) Error() string {
	return fmt.Sprintf("internal decoder error: %v (please report it with the file)", e.panicked)
}

// decodePickleRaw is decodePickle without the recovery, for fuzzing.
func decodePickleRaw(open func() (io.Reader, error), size int64) (*Snapshot, error) {
	return decodePickleRawMode(open, size, false, nil)
}

// decodePickleRawMode is decodePickleRaw, skimming the trace when skim is
// set. A skim that needed a stack it had dropped (errSkimmedStack)
// decodes again without skimming.
func decodePickleRawMode(open func() (io.Reader, error), size int64, skim bool, sc *Scratch) (*Snapshot, error) {
	r, err := open()
	if err != nil {
		return nil, err
	}
	s, err := decodeFastMode(r, size, false, skim, sc)
	if skim && errors.Is(err, errSkimmedStack) {
		if r, err = open(); err != nil {
			return nil, err
		}
		s, err = decodeFastMode(r, size, false, false, sc)
	}
	if !errors.Is(err, errFallback) {
		return s, err
	}
	if r, err = open(); err != nil {
		return nil, err
	}
	return decodeFastMode(r, size, true, false, sc)
}

// decodeFast runs the pickle machine over r once.
func decodeFast(r io.Reader, size int64, generic bool) (*Snapshot, error) {
	return decodeFastMode(r, size, generic, false, nil)
}

// decodeFastMode is decodeFast, skimming the trace when skim is set,
// with sc's arrays when sc is not nil.
func decodeFastMode(r io.Reader, size int64, generic, skim bool, sc *Scratch) (*Snapshot, error) {
	m := sc.vm(r, size, generic)
	defer sc.keep(m)
	m.skim = skim && !generic
	v, err := m.run()
	if err != nil {
		return nil, err
	}
	return m.finish(v)
}

// Container is the wrapping of a snapshot pickle on disk.
type Container string

// Containers, detected from the content (magic bytes), not the name.
const (
	ContainerPickle Container = "pickle"
	ContainerGzip   Container = "gzip"
	// ContainerBzip2 is a bzip2-compressed pickle or JSON snapshot
	// (.pickle.bz2).
	ContainerBzip2 Container = "bzip2"
	ContainerZip   Container = "zip" // torch.save archive, */data.pkl
	// ContainerJSON is the snapshot written as JSON (decode_json.go),
	// bare or gzipped.
	ContainerJSON Container = "json"
)

// isBzip2 reports whether head starts a bzip2 stream: "BZh", the block
// size digit, then the magic of a first block (the digits of pi) or of
// the end of an empty stream (the digits of sqrt(pi)), so that a text
// that starts with "BZh1" is not taken for one.
func isBzip2(head []byte) bool {
	if len(head) < 10 || string(head[:3]) != "BZh" || head[3] < '1' || head[3] > '9' {
		return false
	}
	m := string(head[4:10])
	return m == "\x31\x41\x59\x26\x53\x59" || m == "\x17\x72\x45\x38\x50\x90"
}

// bzip2Ratio is the decompressed size assumed for a bzip2 snapshot,
// relative to its compressed size, for the memory budget: bzip2 records
// no size, and real snapshots compress 15 to 30 times under gzip (bzip2
// does a little better on their text-like pickles); 30 errs on the side
// of more memory.
const bzip2Ratio = 30

// gzipMinRatio is the decompressed size assumed for a gzip file, relative
// to its compressed size, when its trailer says less (the trailer holds the
// size modulo 4 GiB). Real snapshots compress 15 to 30 times.
const gzipMinRatio = 4

// ContainerSize sniffs a snapshot file's container and returns the size
// of the pickle inside: the file size for a bare pickle, the trailer's
// size for gzip (at least gzipMinRatio times the file), the data.pkl
// member's declared size for a zip archive.
func ContainerSize(path string, size int64) (Container, int64) {
	f, err := os.Open(path)
	if err != nil {
		return ContainerPickle, size
	}
	defer f.Close()
	var head [jsonSniffLen]byte
	n, _ := f.ReadAt(head[:], 0)
	c, ok := SniffContainer(head[:n])
	switch {
	case !ok:
		return ContainerPickle, size
	case c == ContainerGzip:
		var tail [4]byte
		if size >= 18 {
			if _, err := f.ReadAt(tail[:], size-4); err == nil {
				return c, max(int64(binary.LittleEndian.Uint32(tail[:])), gzipMinRatio*size)
			}
		}
		return c, gzipMinRatio * size
	case c == ContainerBzip2:
		return c, bzip2Ratio * size
	case c == ContainerZip:
		zr, err := zip.NewReader(f, size)
		if err == nil {
			if m := dataMember(zr); m != nil && m.UncompressedSize64 < 1<<50 {
				return c, int64(m.UncompressedSize64)
			}
		}
		return c, size
	}
	return c, size
}
