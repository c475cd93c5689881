package layout

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"

	"gpureport/internal/gen/pickle"
)

// Container is how a snapshot pickle is stored on disk.
type Container string

// Containers.
const (
	// Plain is the bare pickle (torch.cuda.memory._dump_snapshot).
	Plain Container = "pickle"
	// Gzip is a gzipped pickle (.pickle.gz).
	Gzip Container = "gzip"
	// Zip is a torch.save archive: archive/data.pkl (pickle protocol 2,
	// torch.save's default) with the byteorder, version and
	// serialization_id records, stored uncompressed with 64-byte aligned
	// data as PyTorch's writer does.
	Zip Container = "zip"
)

// Ext returns the file name extension for the container.
func (c Container) Ext() string {
	switch c {
	case Gzip:
		return ".pickle.gz"
	case Zip:
		return ".pt"
	}
	return ".pickle"
}

// FileOptions choose the pickle dialect and container of a file.
type FileOptions struct {
	// Protocol is the pickle protocol (0 means 4; a torch.save zip always
	// uses 2).
	Protocol int
	// Cpp selects PyTorch's C++ pickler style (protocol 2).
	Cpp bool
	// Container is Plain, Gzip or Zip ("" means Plain).
	Container Container
}

// Encode returns the file bytes of the snapshot tree v.
func Encode(v any, opt FileOptions) ([]byte, error) {
	po := pickle.Options{Protocol: opt.Protocol}
	if opt.Cpp {
		po = pickle.Options{Protocol: 2, Style: pickle.TorchCpp}
	}
	if opt.Container == Zip && !opt.Cpp {
		po.Protocol = 2
	}
	data, err := pickle.Marshal(v, po)
	if err != nil {
		return nil, err
	}
	return Wrap(data, opt.Container)
}

// Wrap stores the pickle data in container c ("" means Plain): gzipped,
// in a torch.save archive, or as it is.
func Wrap(data []byte, c Container) ([]byte, error) {
	switch c {
	case Gzip:
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(data); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case Zip:
		return torchSaveZip("archive", data)
	case Plain, "":
		return data, nil
	}
	return nil, fmt.Errorf("unknown container %q", c)
}

// WriteFile writes the snapshot tree v to path, creating its directory.
func WriteFile(path string, v any, opt FileOptions) (int, error) {
	b, err := Encode(v, opt)
	if err != nil {
		return 0, fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return 0, err
	}
	return len(b), nil
}

// zipAlign is PyTorch's kFieldAlignment: record data starts on 64-byte
// boundaries.
const zipAlign = 64

// torchSaveZip lays out a torch.save archive holding one pickle.
// Zip times are left zero (1980-01-01), so archives are reproducible.
func torchSaveZip(prefix string, pkl []byte) ([]byte, error) {
	type rec struct {
		name string
		data []byte
	}
	recs := []rec{
		{"data.pkl", pkl},
		{".format_version", []byte("1")},
		{".storage_alignment", []byte("64")},
		{"byteorder", []byte("little")},
		{"version", []byte("3\n")},
	}
	// .data/serialization_id: 20 digits of a hash of the record names and
	// 20 of the combined CRC, like PyTorch's (deterministic) id.
	h := fnv.New64a()
	var crc uint32
	for _, r := range recs {
		h.Write([]byte(r.name))
		crc = crc32.Update(crc, crc32.IEEETable, r.data)
	}
	recs = append(recs, rec{".data/serialization_id", []byte(fmt.Sprintf("%020d%020d", h.Sum64(), crc))})

	var buf countingBuffer
	zw := zip.NewWriter(&buf)
	for _, r := range recs {
		name := prefix + "/" + r.name
		// Local header: 30 bytes + name + extra; pad the extra field so
		// the data starts aligned.
		start := buf.n + 30 + int64(len(name)) + 4
		pad := (zipAlign - start%zipAlign) % zipAlign
		extra := make([]byte, 4+pad)
		extra[0], extra[1] = 'F', 'B'
		extra[2], extra[3] = byte(pad), byte(pad>>8)
		fh := &zip.FileHeader{
			Name:               name,
			Method:             zip.Store,
			CRC32:              crc32.ChecksumIEEE(r.data),
			CompressedSize64:   uint64(len(r.data)),
			UncompressedSize64: uint64(len(r.data)),
			Extra:              extra,
		}
		w, err := zw.CreateRaw(fh)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(r.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.b.Bytes(), nil
}

type countingBuffer struct {
	b bytes.Buffer
	n int64
}

func (c *countingBuffer) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.b.Write(p)
}

var _ io.Writer = (*countingBuffer)(nil)
