package gpulog_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// gzipped compresses each part as its own gzip member, concatenated.
func gzipped(tb testing.TB, parts ...string) []byte {
	tb.Helper()
	var b bytes.Buffer
	for _, p := range parts {
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write([]byte(p)); err != nil {
			tb.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			tb.Fatal(err)
		}
	}
	return b.Bytes()
}

// bzip2Query is `bzip2 -9` of a two-row query CSV (used 100 and 200 MiB of
// 8192 MiB on GPU 0); Go's library reads bzip2 but cannot write it.
const bzip2Query = "\x42\x5a\x68\x39\x31\x41\x59\x26\x53\x59\x11\x19\x4d\x91\x00\x00\x22\x5f\x80\x00\x10\x40\x05\x70\x60\x10\x02\x00\x0a\x26\x27\x9e\x60\x20\x00\x50\xa6\x8d\x00\x68\x00\x01\x2a\x13\x4c\x4f\x53\x46\x9a\x68\xc9\xe9\x26\x83\xc2\x44\x4a\xd1\xe6\x86\xa4\x17\x23\xcd\x89\xa6\xfc\x1c\x8e\x63\xcb\x0c\x70\x54\x69\x31\x7c\xba\xe0\xb5\xc6\x53\x08\x48\x9c\x44\xf8\xcb\x54\x86\x4f\xc5\xdc\x91\x4e\x14\x24\x04\x46\x53\x64\x40"

func TestReadCompressedLog(t *testing.T) {
	const header = "index, memory.used [MiB], memory.total [MiB]\n"
	rows := func(from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			b.WriteString("0, " + strconv.Itoa(100*(i+1)) + " MiB, 8192 MiB\n")
		}
		return b.String()
	}
	long := gzipped(t, header+rows(0, 2000))
	cases := []struct {
		name string
		data []byte
		comp gpulog.Compression
		// used are the memory.used readings wanted, in MiB; note is a
		// substring of a note wanted ("" for no note).
		used []int64
		note string
	}{
		{"gzip", gzipped(t, header+rows(0, 2)), gpulog.Gzip, []int64{100, 200}, ""},
		{"bzip2", []byte(bzip2Query), gpulog.Bzip2, []int64{100, 200}, ""},
		{"gzip members concatenated (a rotated log appended to)", gzipped(t, header+rows(0, 2), rows(2, 3)), gpulog.Gzip, []int64{100, 200, 300}, ""},
		{"plain text", []byte(header + rows(0, 1)), gpulog.Uncompressed, []int64{100}, ""},
		// A file cut during copy: the rows before the cut are read.
		{"gzip cut off", long[:len(long)/2], gpulog.Gzip, nil, "gzip stream breaks off"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := gpulog.SniffCompression(c.data); got != c.comp {
				t.Errorf("SniffCompression = %q, want %q", got, c.comp)
			}
			dr, comp, err := gpulog.Decompress(bytes.NewReader(c.data))
			text := make([]byte, 64)
			if err == nil {
				_, err = io.ReadFull(dr, text)
			}
			if err != nil || comp != c.comp || !strings.HasPrefix(string(text), header) {
				t.Errorf("Decompress: text %q, compression %q, error %v", text, comp, err)
			}
			if f, ok := gpulog.SniffLog(text); !ok || f != gpulog.FormatQueryCSV {
				t.Errorf("SniffLog(decompressed head) = %q, %v", f, ok)
			}
			l, err := gpulog.ReadLog(bytes.NewReader(c.data), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.used != nil {
				var got []int64
				for _, s := range l.Samples {
					got = append(got, s.MemoryUsed/logMiB)
				}
				if !slices.Equal(got, c.used) {
					t.Errorf("used %v MiB, want %v", got, c.used)
				}
			} else if n := len(l.Samples); n < 100 || n >= 2000 {
				t.Errorf("%d readings kept from the cut stream, want some but not all 2000", n)
			}
			notes := strings.Join(l.Notes, "\n")
			if c.note == "" && strings.Contains(notes, "stream") || c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("notes %q, want %q", notes, c.note)
			}
		})
	}
	// A gzip header that is not one fails the file with the reason.
	_, err := gpulog.ReadLog(bytes.NewReader([]byte("\x1f\x8b\x08\xff\xff")), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("bad gzip header: error %v", err)
	}
	// A stream broken before any reading names the break in the error.
	_, err = gpulog.ReadLog(bytes.NewReader(long[:40]), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "breaks off") {
		t.Errorf("stream cut in the header: error %v", err)
	}
}
