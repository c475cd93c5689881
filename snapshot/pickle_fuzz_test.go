package snapshot

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/pickleop"
	"gpureport/internal/testutil"
)

// Fuzz targets, each run in CI for a bounded time:
//
//	go test -run='^$' -fuzz='^FuzzDecode$' -fuzztime=20s -fuzzminimizetime=5s ./snapshot
//	go test -run='^$' -fuzz='^FuzzDifferential$' -fuzztime=20s -fuzzminimizetime=5s ./snapshot
//	go test -run='^$' -fuzz='^FuzzGzip$' -fuzztime=20s -fuzzminimizetime=5s ./snapshot
//	go test -run='^$' -fuzz='^FuzzZip$' -fuzztime=20s -fuzzminimizetime=5s ./snapshot
//	go test -run='^$' -fuzz='^FuzzSnapshotVariations$' -fuzztime=20s -fuzzminimizetime=5s ./snapshot
//
// (minimizing an interesting input of tens of kilobytes can otherwise take
// the whole time budget). Crashers land in testdata/fuzz/<target>/ and are committed: plain
// `go test` replays them as regression tests.

// fuzzSeeds adds the real snapshots (small ones whole, large ones as
// prefixes and truncations) and synthetic snapshots in every pickler style.
func snapshotFuzzSeeds(f *testing.F, maxWhole int) {
	for _, p := range testutil.RealFiles(f, "snapshots", "*.pickle", "*.pkl") {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= maxWhole {
			f.Add(data)
		} else {
			f.Add(data[:maxWhole])
		}
		f.Add(data[:len(data)/3])
	}
	for _, st := range []pickleStyle{stylePy4, stylePy5, stylePy2, styleCpp} {
		f.Add(writePickle(synthSnapshot(synthOpts{entries: 30, segments: 3, extras: true}), st))
		f.Add(writePickle(synthSnapshot(synthOpts{entries: 10, segments: 2, history: true, noTime: true}), st))
		for _, nested := range []bool{false, true} {
			tree, _ := recentKeysTree(nested) // the keys of PyTorch 2.12-2.16
			f.Add(writePickle(tree, st))
		}
	}
}

// checkModel verifies what every successfully decoded snapshot promises:
// a known generation, stack and frame IDs inside the tables, non-nil
// segments and block lists.
func checkSnapshotModel(s *Snapshot) error {
	switch s.Generation {
	case GenSegmentsList, GenHistory, GenFrames, GenTimed:
	default:
		return fmt.Errorf("generation %q", s.Generation)
	}
	if s.Segments == nil {
		return errors.New("nil segments")
	}
	n := StackID(s.Stacks.Len())
	for id := StackID(1); id < n; id++ {
		for _, f := range s.Stacks.Stack(id) {
			if int(f) >= len(s.Stacks.Frames) {
				return fmt.Errorf("stack %d frame %d of %d", id, f, len(s.Stacks.Frames))
			}
		}
	}
	// Reduce adds stacks to a digest without looking them up, which
	// holds while a model's stacks and frames are each distinct.
	if id, ok := s.Stacks.firstRepeat(); ok {
		return fmt.Errorf("stack %d repeats an earlier one", id)
	}
	seen := make(map[Frame]bool, len(s.Stacks.Frames))
	for i, f := range s.Stacks.Frames {
		if seen[f] {
			return fmt.Errorf("frame %d repeats an earlier one", i)
		}
		seen[f] = true
	}
	if id, ok := Reduce(s).Stacks.firstRepeat(); ok {
		return fmt.Errorf("the digest's stack %d repeats an earlier one", id)
	}
	for i, seg := range s.Segments {
		if seg.Stack >= n || seg.Blocks == nil {
			return fmt.Errorf("segment %d: stack %d of %d, blocks nil %v", i, seg.Stack, n, seg.Blocks == nil)
		}
		for j, b := range seg.Blocks {
			if b.Stack >= n {
				return fmt.Errorf("segment %d block %d: stack %d of %d", i, j, b.Stack, n)
			}
		}
	}
	for d, tr := range s.Traces {
		if tr == nil {
			return fmt.Errorf("trace %d nil", d)
		}
		if err := checkEntries(s, tr, n); err != nil {
			return fmt.Errorf("trace %d: %w", d, err)
		}
	}
	if err := checkEntries(s, s.HostTrace, n); err != nil {
		return fmt.Errorf("host trace: %w", err)
	}
	for i, seg := range s.HostSegments {
		if seg.Device != HostDevice || seg.Stack >= n || seg.Blocks == nil {
			return fmt.Errorf("host segment %d: device %d, stack %d of %d", i, seg.Device, seg.Stack, n)
		}
	}
	if len(s.Meta) > 0 && s.Meta[0] != "" {
		return errors.New("user_metadata 0 is not empty")
	}
	return nil
}

// checkEntries checks that the trace entries of s name stacks, actions,
// metadata and pools inside their tables (n stacks).
func checkEntries(s *Snapshot, tr []TraceEntry, n StackID) error {
	for i, e := range tr {
		if e.Stack >= n || int(e.Action) >= NumActions || int(e.Meta) >= max(len(s.Meta), 1) || int(e.Pool) > len(s.Pools) {
			return fmt.Errorf("entry %d: %+v", i, e)
		}
	}
	return nil
}

// wellFormed reports whether err is an error the decoder may give for bad
// input: a *PickleError, or a pickle that is not a snapshot.
func wellFormedDecodeErr(err error) bool {
	var pe *PickleError
	return errors.As(err, &pe) && pe.Kind != nil || errors.Is(err, ErrNotSnapshot)
}

// FuzzDecode runs the machine in both modes over arbitrary bytes: it must
// never panic, errors must be well formed, a success must be a valid
// model, the fast path must agree with the generic mode (they share the
// pickle semantics; only the memory budget may differ), so must a decode
// into a Scratch's arrays, and a skim of the trace must make the same
// digest.
func FuzzDecode(f *testing.F) {
	snapshotFuzzSeeds(f, 32<<10)
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ferr := decodeFast(bytes.NewReader(data), int64(len(data)), false)
		gen, gerr := decodeFast(bytes.NewReader(data), int64(len(data)), true)
		if gerr != nil && !wellFormedDecodeErr(gerr) {
			t.Fatalf("generic: ill-formed error %v", gerr)
		}
		if gerr == nil {
			if err := checkSnapshotModel(gen); err != nil {
				t.Fatalf("generic: bad model: %v", err)
			}
		}
		if errors.Is(ferr, errFallback) || errors.Is(ferr, ErrLimit) || errors.Is(gerr, ErrLimit) {
			return
		}
		// Read in place (a mapped file, wholeReader), the same snapshot
		// or the same error.
		whole, werr := decodeFast(&wholeReader{b: data}, int64(len(data)), false)
		switch {
		case (werr == nil) != (ferr == nil) || werr != nil && werr.Error() != ferr.Error():
			t.Fatalf("read in place: error %v, streamed %v", werr, ferr)
		case werr == nil:
			if d := diffSnapshots(whole, fast); d != "" {
				t.Fatalf("read in place differs: %s", d)
			}
		}
		switch {
		case ferr == nil && gerr == nil:
			if err := checkSnapshotModel(fast); err != nil {
				t.Fatalf("fast: bad model: %v", err)
			}
			if d := diffSnapshots(fast, gen); d != "" {
				t.Fatalf("fast and generic disagree: %s", d)
			}
			// So must a decode that finds every frames list it can by
			// its run's bytes (framespan.go).
			if s, _, err := decodeSpans(data, false, "always"); err != nil {
				t.Fatalf("decode with spans: %v", err)
			} else if d := diffSnapshots(s, fast); d != "" {
				t.Fatalf("decode with spans differs: %s", d)
			}
			// So must a decode into the arrays another decode left
			// (Scratch): the second of two decodes with one Scratch.
			sc := new(Scratch)
			for i := range 2 {
				again, err := decodeFastMode(bytes.NewReader(data), int64(len(data)), false, false, sc)
				if err != nil {
					t.Fatalf("decode %d with a scratch: %v", i+1, err)
				}
				if d := diffSnapshots(again, fast); d != "" {
					t.Fatalf("decode %d with a scratch differs: %s", i+1, d)
				}
			}
			// A skim must make the same digest as the full decode (or
			// fail only for the memory budget).
			if _, _, err := DecodeBytes(data, DecodeOptions{}); err == nil {
				if why, err := skimDiff(data); err == nil && why != "" {
					t.Fatalf("skimmed digest differs: %s", why)
				} else if err != nil && !errors.Is(err, ErrLimit) {
					t.Fatalf("the full decode succeeds but the skim fails: %v", err)
				}
			}
		case ferr != nil && gerr != nil:
			if !wellFormedDecodeErr(ferr) {
				t.Fatalf("fast: ill-formed error %v", ferr)
			}
			if errors.Is(ferr, ErrNotSnapshot) {
				t.Fatalf("fast path reported a layout error itself: %v", ferr)
			}
			if ferr.Error() != gerr.Error() {
				t.Fatalf("fast error %q, generic error %q", ferr, gerr)
			}
		default:
			t.Fatalf("fast: %v; generic: %v", ferr, gerr)
		}
	})
}

// refSafe walks the opcodes of a pickle and reports whether gopickle can
// read it without trusting a declared length beyond the input: gopickle
// allocates frames and strings at their declared size before reading, so
// a hostile length would exhaust the fuzzer's memory, not test anything.
func gopickleSafe(data []byte) bool {
	i := 0
	left := func() uint64 { return uint64(len(data) - i) }
	for i < len(data) {
		op := data[i]
		i++
		var n uint64
		switch op {
		case pickleop.Stop:
			return true
		case pickleop.Frame, pickleop.BinUnicode8, pickleop.BinBytes8, pickleop.ByteArray8:
			if left() < 8 {
				return true
			}
			n = binary.LittleEndian.Uint64(data[i:])
			i += 8
			if op == pickleop.Frame {
				if n > left() {
					return false
				}
				continue
			}
		case pickleop.BinUnicode, pickleop.BinBytes, pickleop.BinString, pickleop.Long4:
			if left() < 4 {
				return true
			}
			n = uint64(binary.LittleEndian.Uint32(data[i:]))
			i += 4
		case pickleop.ShortBinUnicode, pickleop.ShortBinBytes, pickleop.ShortBinString, pickleop.Long1:
			if left() < 1 {
				return true
			}
			n = uint64(data[i])
			i++
		case pickleop.BinGet, pickleop.BinPut, pickleop.BinInt1, pickleop.Proto, pickleop.Ext1:
			n = 1
		case pickleop.BinInt2, pickleop.Ext2:
			n = 2
		case pickleop.BinInt, pickleop.LongBinGet, pickleop.LongBinPut, pickleop.Ext4:
			n = 4
		case pickleop.BinFloat:
			n = 8
		case pickleop.Int, pickleop.Long, pickleop.Float, pickleop.String, pickleop.Unicode, pickleop.Get, pickleop.Put, pickleop.PersID, pickleop.Global, pickleop.Inst:
			j := bytes.IndexByte(data[i:], '\n')
			if j < 0 {
				return true
			}
			i += j + 1
			if op == pickleop.Global || op == pickleop.Inst {
				if j = bytes.IndexByte(data[i:], '\n'); j < 0 {
					return true
				}
				i += j + 1
			}
			continue
		}
		if n > left() {
			return false
		}
		i += int(n)
	}
	return true
}

// FuzzDifferential compares the decoder (fast path with its fallback)
// with gopickle. When both succeed the models must be equal. Where one
// fails alone, it must be for a documented difference:
//   - we refuse what gopickle tolerates: a memo reference to a missing slot
//     (gopickle pushes None), class opcodes (gopickle builds builtins.list,
//     dict and OrderedDict itself), opcodes outside the snapshot set (text
//     protocol 0, READONLY_BUFFER, which gopickle ignores), our safety
//     limits, and unhashable keys in dicts the result does not reach
//     (checked at SETITEM; gopickle's adapter only checks what it walks);
//   - gopickle fails where we do not: it panics on some input (LONG1 of
//     length 0, and more), and measures nesting while walking the result,
//     we while building it, which differs for containers changed after
//     they were placed.
func FuzzDifferential(f *testing.F) {
	snapshotFuzzSeeds(f, 32<<10)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 || !gopickleSafe(data) {
			return
		}
		open := func() (io.Reader, error) { return bytes.NewReader(data), nil }
		got, err := decodePickleRaw(open, int64(len(data)))
		ref, rerr := DecodeReference(bytes.NewReader(data))
		switch {
		case err == nil && rerr == nil:
			if d := diffSnapshots(got, ref); d != "" {
				t.Fatalf("models differ: %s", d)
			}
		case err == nil:
			msg := rerr.Error()
			if !strings.Contains(msg, "reference decoder panicked") && !strings.Contains(msg, "nested deeper") {
				t.Fatalf("only gopickle fails: %v", rerr)
			}
		case rerr == nil:
			if !errors.Is(err, ErrMemo) && !errors.Is(err, ErrForbiddenOpcode) && !errors.Is(err, ErrUnsupportedOpcode) &&
				!errors.Is(err, ErrLimit) && !strings.Contains(err.Error(), "unhashable dict key") {
				t.Fatalf("only we fail: %v", err)
			}
		}
	})
}

func snapGzip(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// torchSave wraps a pickle the way torch.save does: a zip archive holding
// archive/data.pkl (plus the files torch writes beside it).
func snapTorchSave(data []byte) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range []struct {
		name string
		data []byte
	}{{"archive/data.pkl", data}, {"archive/byteorder", []byte("little")}, {"archive/version", []byte("3\n")}} {
		w, _ := zw.Create(m.name)
		w.Write(m.data)
	}
	zw.Close()
	return b.Bytes()
}

// sameOutcome checks that decoding a pickle from a container gives what
// decoding it bare gives: the same model, or an error on both sides.
func sameSnapshotOutcome(t *testing.T, what string, bare *Snapshot, berr error, s *Snapshot, err error) {
	t.Helper()
	for _, e := range []error{berr, err} {
		var ie *internalError
		if errors.As(e, &ie) {
			t.Fatal(e)
		}
	}
	switch {
	case berr == nil && err == nil:
		if d := diffSnapshots(s, bare); d != "" {
			t.Fatalf("%s and bare pickle disagree: %s", what, d)
		}
	case berr == nil:
		t.Fatalf("%s fails where the bare pickle decodes: %v", what, err)
	case err == nil:
		t.Fatalf("%s decodes where the bare pickle fails (%v)", what, berr)
	}
}

// FuzzGzip decodes arbitrary bytes as a file (any container) and, when
// they are a pickle, their gzip compression, which goes through the
// streaming path (length unknown): both must agree with the bare pickle.
// A small decompression bound keeps bombs cheap.
//
// Its seeds hold bzip2 files too (testdata/bzip2), whole and cut short:
// decoded as a file, they go through the bzip2 stream under the bound.
func FuzzGzip(f *testing.F) {
	f.Add(snapGzip([]byte("\x80\x04N.")))
	for _, name := range []string{"snapshot.pickle.bz2", "bomb.pickle.bz2"} {
		b, err := os.ReadFile(filepath.Join("testdata", "bzip2", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)*2/3])
	}
	fuzzContainer(f, snapGzip, ContainerGzip)
}

// FuzzZip is FuzzGzip for torch.save zip archives.
func FuzzZip(f *testing.F) {
	f.Add(snapTorchSave([]byte("\x80\x02](e.")))
	fuzzContainer(f, snapTorchSave, ContainerZip)
}

// fuzzContainer runs the container fuzz body: data decoded bare, and when
// it is a pickle, wrapped by wrap, must give the same outcome.
func fuzzContainer(f *testing.F, wrap func([]byte) []byte, want Container) {
	snapshotFuzzSeeds(f, 32<<10)
	opt := DecodeOptions{MaxDecompressed: 4 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		bare, _, err := DecodeBytes(data, opt)
		if err == nil {
			if err := checkSnapshotModel(bare); err != nil {
				t.Fatal(err)
			}
		}
		if c, ok := SniffContainer(data); !ok || c != ContainerPickle || len(data) > 1<<20 {
			return
		}
		s, c, werr := DecodeBytes(wrap(data), opt)
		if c != want {
			t.Fatalf("container %q, want %q", c, want)
		}
		sameSnapshotOutcome(t, string(want), bare, err, s, werr)
	})
}
