package snapshot

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/mmapfile"
	"gpureport/internal/testutil"
)

// TestMappedDecodesTheSame decodes every real snapshot and the
// generator's shapes (in a pickle and a gzip file) by DecodeFile, which
// maps a file and reads it in place, and by Decode streaming the same
// file: the snapshots must be equal, in full and skimming the trace, or
// the errors the same. The comparison runs after DecodeFile unmapped the
// file, so a snapshot that kept a pointer into the mapping crashes the
// test; a second decode with the same Scratch checks that the mapping is
// not taken for the next read buffer (writing it would crash too).
func TestMappedDecodesTheSame(t *testing.T) {
	paths := testutil.RealFiles(t, "snapshots", "*.pickle")
	dir := t.TempDir()
	for name, in := range shapeInputs {
		b, err := in()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".pickle")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		if name == "ordinary" {
			p := filepath.Join(dir, name+".pickle.gz")
			if err := os.WriteFile(p, testutil.Gzip(t, b), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
	}
	if _, err := mmapfile.Map(nil, 0); errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no mapped files on this system")
	}
	sc := new(Scratch)
	for _, p := range paths {
		for _, skim := range []bool{false, true} {
			opt := DecodeOptions{SkimTrace: skim}
			mapped, mc, merr := DecodeFile(p, opt)
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			st, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			streamed, sc2, serr := Decode(f, st.Size(), opt)
			f.Close()
			name := filepath.Base(p)
			switch {
			case mc != sc2:
				t.Fatalf("%s: container %q mapped, %q streamed", name, mc, sc2)
			case (merr == nil) != (serr == nil) || merr != nil && !strings.HasSuffix(merr.Error(), serr.Error()):
				t.Fatalf("%s (skim %v): error %v mapped, %v streamed", name, skim, merr, serr)
			case merr == nil:
				if d := diffSnapshots(mapped, streamed); d != "" {
					t.Fatalf("%s (skim %v): the mapped decode differs: %s", name, skim, d)
				}
			}
			// The scratch's arrays, after a mapped decode, for a streamed
			// one and then a mapped one.
			opt.Scratch = sc
			if _, _, err := DecodeFile(p, opt); (err == nil) != (serr == nil) {
				t.Fatalf("%s: with a scratch: %v", name, err)
			}
			f, err = os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			again, _, err := Decode(f, st.Size(), opt)
			f.Close()
			if (err == nil) != (serr == nil) {
				t.Fatalf("%s: streamed after a mapped decode with one scratch: %v", name, err)
			}
			if err == nil {
				if d := diffSnapshots(again, streamed); d != "" {
					t.Fatalf("%s (skim %v): streamed after a mapped decode with one scratch differs: %s", name, skim, d)
				}
			}
		}
	}
}

// TestWholeReleasesReadInput reads the large shape in place with a
// recording release and populate: the snapshot must be the streamed
// one, the input must be made resident ahead of the machine in
// consecutive ranges covering it all, and given back behind it in page
// multiples, most of it by the end.
func TestWholeReleasesReadInput(t *testing.T) {
	data, err := shapeInputs["large"]()
	if err != nil {
		t.Fatal(err)
	}
	var released []int
	populated := 0
	w := &wholeReader{
		b:       data,
		release: func(n int) { released = append(released, n) },
		populate: func(from, to int) {
			if from != populated || to <= from {
				t.Fatalf("populate [%d, %d) after [0, %d)", from, to, populated)
			}
			populated = to
		},
	}
	for _, skim := range []bool{false, true} {
		released, populated = nil, 0
		w.released, w.populated = 0, 0
		s, err := decodeFastMode(w, int64(len(data)), false, skim, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := decodeFastMode(bytes.NewReader(data), int64(len(data)), false, skim, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffSnapshots(s, want); d != "" {
			t.Fatalf("skim %v: read in place differs: %s", skim, d)
		}
		if populated != len(data) {
			t.Errorf("skim %v: populated %d of %d bytes", skim, populated, len(data))
		}
		last := 0
		for _, n := range released {
			if n%pageSize != 0 || n-last < wholeStep {
				t.Fatalf("skim %v: released %v: not page multiples a step apart", skim, released)
			}
			last = n
		}
		if left := len(data) - last; left > wholeStep+releaseMargin+wholeWindow+pageSize {
			t.Errorf("skim %v: %d bytes of %d still held at the end (released %v)", skim, left, len(data), released)
		}
	}
}

// TestMappedFileCutUnderTheDecode maps a snapshot, cuts the file to a
// third (as its writer truncating it would), and decodes the mapping:
// reading the lost pages faults, which must come back as an error naming
// the truncation at an offset past the cut, in a pickle and inside a
// gzip stream, rather than kill the process.
func TestMappedFileCutUnderTheDecode(t *testing.T) {
	data, err := shapeInputs["ordinary"]()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"pickle": data, "gzip": testutil.Gzip(t, data)} {
		for _, skim := range []bool{false, true} {
			p := filepath.Join(t.TempDir(), "snap")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			mf, err := mmapfile.Map(f, int64(len(b)))
			if errors.Is(err, errors.ErrUnsupported) {
				f.Close()
				t.Skip("no mapped files on this system")
			}
			if err != nil {
				t.Fatal(err)
			}
			// At a page's end: the rest of a page the file ends inside
			// reads as zeros, not a fault.
			cut := int64(len(b)/3) &^ (pageSize - 1)
			if err := os.Truncate(p, cut); err != nil {
				t.Fatal(err)
			}
			_, _, err = decodeMapped(mf, DecodeOptions{SkimTrace: skim})
			f.Close()
			var pe *PickleError
			switch {
			case !errors.As(err, &pe) || !errors.Is(err, ErrTruncated):
				t.Fatalf("%s (skim %v): error %v, want a truncation", name, skim, err)
			case pe.Offset < cut || pe.Offset >= int64(len(b)):
				t.Errorf("%s (skim %v): fault at offset %d, the file cut at %d of %d", name, skim, pe.Offset, cut, len(b))
			case !strings.Contains(err.Error(), "it became shorter"):
				t.Errorf("%s (skim %v): error %q does not say the file changed", name, skim, err)
			}
		}
	}
}
