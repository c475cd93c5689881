package snapshot

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// zipWith builds a zip archive of the given members; stored ones are not
// compressed, as torch.save writes them.
func snapZip(t *testing.T, members map[string][]byte, method uint16) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, data := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestContainers decodes one snapshot in every container, detected by
// content, and broken or hostile containers: bombs stop at the configured
// decompression bound, corrupt ones fail with a clear error.
func TestContainers(t *testing.T) {
	pkl := writePickle(synthSnapshot(synthOpts{entries: 300, segments: 2, extras: true}), stylePy4)
	want, _, err := DecodeBytes(pkl, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A valid pickle of about 3 MB that compresses to almost nothing.
	bomb := []byte("\x80\x04]\x94(" + strings.Repeat("N", 3<<20) + "e.")
	var concat bytes.Buffer
	half := len(pkl) / 2
	concat.Write(snapGzip(pkl[:half]))
	concat.Write(snapGzip(pkl[half:]))
	gz := snapGzip(pkl)
	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-5] ^= 0xff
	limit := DecodeOptions{MaxDecompressed: 1 << 20}
	for _, c := range []struct {
		name string
		data []byte
		opt  DecodeOptions
		cont Container
		err  string // "" when it must decode to want
	}{
		{"pickle", pkl, DecodeOptions{}, ContainerPickle, ""},
		{"gzip", gz, DecodeOptions{}, ContainerGzip, ""},
		{"gzip of two members", concat.Bytes(), DecodeOptions{}, ContainerGzip, ""},
		{"torch.save stored", snapZip(t, map[string][]byte{"archive/data.pkl": pkl, "archive/version": []byte("3\n")}, zip.Store), DecodeOptions{}, ContainerZip, ""},
		{"torch.save deflated", snapZip(t, map[string][]byte{"snap/data.pkl": pkl}, zip.Deflate), DecodeOptions{}, ContainerZip, ""},
		{"zip with data.pkl at the top", snapZip(t, map[string][]byte{"data.pkl": pkl}, zip.Store), DecodeOptions{}, ContainerZip, ""},
		{"zip without data.pkl", snapZip(t, map[string][]byte{"archive/other.pkl": pkl}, zip.Store), DecodeOptions{}, ContainerZip, "without a data.pkl member"},
		{"zip with data.pkl too deep", snapZip(t, map[string][]byte{"a/b/data.pkl": pkl}, zip.Store), DecodeOptions{}, ContainerZip, "without a data.pkl member"},
		{"gzip bomb", snapGzip(bomb), limit, ContainerGzip, "decompressed data exceeds the 1048576-byte limit"},
		{"zip bomb", snapZip(t, map[string][]byte{"archive/data.pkl": bomb}, zip.Deflate), limit, ContainerZip, "declared size 3145735 exceeds the 1048576-byte limit"},
		{"truncated gzip", gz[:len(gz)/2], DecodeOptions{}, ContainerGzip, "the compressed data ends here (truncated file?)"},
		{"gzip with a bad checksum", badCRC, DecodeOptions{}, ContainerGzip, "gzip data (offsets count decompressed bytes): offset " + strconv.Itoa(len(pkl)) + ": reading: gzip: invalid checksum"},
		{"gzip of a pickle that is no snapshot", snapGzip([]byte("\x80\x04}\x94(\x8c\x08segments\x94K\x05u.")), DecodeOptions{}, ContainerGzip, "gzip data (offsets count decompressed bytes): offset 2: not a PyTorch memory snapshot: segments: expected list, got int"},
		// A .tar.gz of snapshot files: the decompressed data is a tar
		// archive, and the reason says so.
		{"gzip of a tar of snapshots", snapGzip(snapTar(t, "snaps/step_100.pickle", pkl)), DecodeOptions{}, ContainerGzip, "gzip data: not a pickle, gzip, bzip2, torch.save zip or JSON snapshot file: the decompressed data is a tar archive; extract its files"},
		{"gzip of no pickle", snapGzip([]byte("hello")), DecodeOptions{}, ContainerGzip, `gzip data: not a pickle, gzip, bzip2, torch.save zip or JSON snapshot file: the decompressed data starts with "hell"`},
		{"zip of no pickle", snapZip(t, map[string][]byte{"archive/data.pkl": []byte("PK\x03\x04")}, zip.Store), DecodeOptions{}, ContainerZip, `zip member archive/data.pkl: not a pickle`},
		{"empty", nil, DecodeOptions{}, "", "the file is empty"},
		{"text", []byte("lr: 3e-4\n"), DecodeOptions{}, "", `it starts with "lr: "`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, cont, err := DecodeBytes(c.data, c.opt)
			if cont != c.cont {
				t.Errorf("container %q, want %q", cont, c.cont)
			}
			if c.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if d := diffSnapshots(s, want); d != "" {
					t.Fatal(d)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("got %v, want an error saying %q", err, c.err)
			}
		})
	}
	// A member whose header understates its size is caught by the zip
	// reader's own check, or by the bound.
	var lie bytes.Buffer
	zw := zip.NewWriter(&lie)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "archive/data.pkl", Method: zip.Store, CompressedSize64: uint64(len(bomb)), UncompressedSize64: 100})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bomb)
	zw.Close()
	if _, _, err := DecodeBytes(lie.Bytes(), limit); err == nil || !errors.Is(err, zip.ErrFormat) && !strings.Contains(err.Error(), "limit") {
		t.Errorf("lying zip member: %v", err)
	}
}

// TestBzip2Container decodes a bzip2 snapshot (testdata/bzip2, made with
// bzip2 -9 from snapshot.pickle, a protocol-4 pickle of two segments;
// bomb.pickle.bz2 is a 3 MiB pickle of Nones in 70 bytes): it must equal
// the bare pickle, stop at the decompression bound, and fail clearly when
// cut short. Text that starts with "BZh" is no bzip2 stream.
func TestBzip2Container(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "bzip2", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	want, _, err := DecodeBytes(read("snapshot.pickle"), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bz := read("snapshot.pickle.bz2")
	for _, c := range []struct {
		name string
		data []byte
		opt  DecodeOptions
		err  string // "" when it must decode to want
	}{
		{"bzip2", bz, DecodeOptions{}, ""},
		{"bzip2 within a bound it fits", bz, DecodeOptions{MaxDecompressed: 1 << 20}, ""},
		{"bzip2 bomb", read("bomb.pickle.bz2"), DecodeOptions{MaxDecompressed: 1 << 20}, "bzip2 data: decompressed data exceeds the 1048576-byte limit"},
		{"truncated bzip2", bz[:len(bz)/2], DecodeOptions{}, "bzip2 data"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, cont, err := DecodeBytes(c.data, c.opt)
			if cont != ContainerBzip2 {
				t.Errorf("container %q, want %q", cont, ContainerBzip2)
			}
			if c.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if d := diffSnapshots(s, want); d != "" {
					t.Fatal(d)
				}
				if got := s.Segments[0].TotalSize + s.Segments[1].TotalSize; got != 6<<20 {
					t.Errorf("reserved %d, want %d", got, 6<<20)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("got %v, want an error saying %q", err, c.err)
			}
		})
	}
	for _, head := range []string{"BZh1 is a band", "BZh9\x31\x41\x59\x26\x53"} {
		if c, ok := SniffContainer([]byte(head)); ok {
			t.Errorf("%q sniffed as %q", head, c)
		}
	}
}

// snapTar is a tar archive holding data under name.
func snapTar(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
