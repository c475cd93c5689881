package snapshot

import (
	"bytes"
	"compress/gzip"
	"slices"
	"testing"
)

// TestScratchDecodesAsFresh decodes the real snapshots and two generated
// shapes one after another with one Scratch, in both orders (so each
// file meets the arrays of larger and of smaller ones), skimmed and in
// full. Each decodes as a fresh decode does, and the digest Sharer.Reduce
// makes of each before the next decode still encodes as Reduce's digest
// of the fresh decode once all are decoded: a digest keeps nothing of the
// arrays the Scratch lends the decoder and the reduction.
func TestScratchDecodesAsFresh(t *testing.T) {
	files := realSnapshotsUpTo(t, 64<<20)
	for _, name := range []string{"few", "ordinary-oom"} {
		data, err := shapeInputs[name]()
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, snapFile{"shape " + name, data})
	}
	// A gzipped file goes through the decompressing path with the Scratch.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(files[len(files)-1].data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	files = append(files, snapFile{"shape ordinary-oom, gzipped", gz.Bytes()})
	if testing.Short() {
		files = slices.DeleteFunc(files, func(f snapFile) bool { return len(f.data) > 1<<20 })
	}
	if len(files) < 10 {
		t.Fatalf("only %d files to decode", len(files))
	}
	for _, skim := range []bool{true, false} {
		// The fresh decodes' digests, encoded.
		want := make([][]byte, len(files))
		fresh := make([]*Snapshot, len(files))
		for i, f := range files {
			s, c, err := DecodeBytes(f.data, DecodeOptions{SkimTrace: skim})
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			fresh[i] = s
			if want[i], err = EncodeDigest("k", c, Reduce(s)); err != nil {
				t.Fatal(err)
			}
		}
		for _, reverse := range []bool{false, true} {
			order := inOrder(len(files), reverse)
			sc, sh := new(Scratch), NewSharer()
			digests := make([]*Snapshot, len(files))
			conts := make([]Container, len(files))
			for _, i := range order {
				s, c, err := DecodeBytes(files[i].data, DecodeOptions{SkimTrace: skim, Scratch: sc})
				if err != nil {
					t.Fatalf("skim %v, reverse %v: %s: %v", skim, reverse, files[i].name, err)
				}
				if d := diffSnapshots(s, fresh[i]); d != "" {
					t.Errorf("skim %v, reverse %v: %s decodes differently with a scratch: %s", skim, reverse, files[i].name, d)
				}
				// Sharer.Reduce borrows the reduction's arrays from sc.
				digests[i], conts[i] = sh.Reduce(s, sc), c
			}
			for i, d := range digests {
				got, err := EncodeDigest("k", conts[i], d)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want[i]) {
					t.Errorf("skim %v, reverse %v: %s: its digest changed after later decodes with the scratch", skim, reverse, files[i].name)
				}
			}
		}
	}
}

// TestEncodeDigestReusing checks that a digest encoded into a used
// buffer, too small or large enough, is the bytes EncodeDigest makes.
func TestEncodeDigestReusing(t *testing.T) {
	_, d, c, want := shapeDigest(t, "few")
	dirty := func(n int) []byte { return bytes.Repeat([]byte{0xa5}, n) }
	for _, buf := range [][]byte{nil, dirty(10), dirty(len(want) - 1), dirty(encodedSizeHint(d) + 1)} {
		got, err := EncodeDigestReusing(buf, "bench", c, d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("buffer of %d bytes: the encoding differs from EncodeDigest's", len(buf))
		}
		if cap(buf) >= encodedSizeHint(d) && &got[0] != &buf[:1][0] {
			t.Errorf("buffer of %d bytes: not reused", len(buf))
		}
	}
}

// TestDecodeDigestReusing reads the digests of the real snapshots and two
// shapes one after another into one Scratch, in both orders: each reads
// as its encoding says, and still encodes to the same bytes once all are
// read, so a shared digest keeps nothing of the borrowed arrays.
func TestDecodeDigestReusing(t *testing.T) {
	files := realSnapshotsUpTo(t, 1<<20)
	var encs [][]byte
	for _, f := range files {
		s, c, err := DecodeBytes(f.data, DecodeOptions{SkimTrace: true})
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		enc, err := EncodeDigest(f.name, c, Reduce(s))
		if err != nil {
			t.Fatal(err)
		}
		encs = append(encs, enc)
	}
	for _, name := range []string{"few", "ordinary-oom"} {
		_, _, _, enc := shapeDigest(t, name)
		encs = append(encs, enc)
	}
	for _, reverse := range []bool{false, true} {
		order := inOrder(len(encs), reverse)
		sc, sh := new(Scratch), NewSharer()
		digests := make([]*Snapshot, len(encs))
		keys := make([]string, len(encs))
		conts := make([]Container, len(encs))
		for _, i := range order {
			k, c, d, err := DecodeDigestReusing(encs[i], sh, sc)
			if err != nil {
				t.Fatalf("digest %d: %v", i, err)
			}
			digests[i], keys[i], conts[i] = d, k, c
		}
		for i, d := range digests {
			got, err := EncodeDigest(keys[i], conts[i], d)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, encs[i]) {
				t.Errorf("reverse %v: %s: the digest changed after later reads with the scratch", reverse, keys[i])
			}
		}
	}
}

// inOrder returns the indexes 0 to n-1, last first when reverse is set.
func inOrder(n int, reverse bool) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if reverse {
		slices.Reverse(order)
	}
	return order
}
