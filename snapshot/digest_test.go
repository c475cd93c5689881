package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gpureport/internal/gen/pickle"
	"gpureport/internal/testutil"
)

// digestSources lists the sample run's snapshots and every real snapshot.
func digestSources(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(testutil.RepoRoot(tb), "testdata", "sample-run", "*.pickle"))
	if err != nil {
		tb.Fatal(err)
	}
	return append(files, testutil.RealFiles(tb, "snapshots", "*.pickle", "*.pkl", "*.gz", "*.pt")...)
}

// sameDigest reports how two digests differ ("" when they do not): the
// stacks are compared by their frames, not their interning tables.
func sameDigest(a, b *Snapshot) string {
	switch {
	case a.Generation != b.Generation:
		return "generation"
	case !reflect.DeepEqual(a.Settings, b.Settings):
		return "settings"
	case !reflect.DeepEqual(a.Segments, b.Segments):
		return "segments"
	case !reflect.DeepEqual(a.Digest, b.Digest):
		return "trace digest"
	case a.Stacks.Len() != b.Stacks.Len():
		return "stack count"
	}
	for id := range StackID(a.Stacks.Len()) {
		if !reflect.DeepEqual(a.Stacks.StackFrames(id), b.Stacks.StackFrames(id)) {
			return "stack frames"
		}
	}
	return ""
}

// TestReduceKeepsWhatAnalysisReads checks, on every sample and real
// snapshot, that a digest keeps the segments, blocks, stacks of live
// blocks, settings, latest time, devices and trace lengths of the full
// snapshot, and that it survives EncodeDigest/DecodeDigest unchanged.
func TestReduceKeepsWhatAnalysisReads(t *testing.T) {
	for _, p := range digestSources(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			full, c, err := DecodeFile(p, DecodeOptions{})
			if err != nil {
				t.Skipf("does not decode: %v", err)
			}
			// A decode note must survive the digest and its file format.
			full.Notes = append(full.Notes, DecodeNote{Place: "segments[0].segment_pool_id", Problem: "a string", Assumed: "(0, 0)", Count: 3})
			d := Reduce(full)
			if !reflect.DeepEqual(d.Notes, full.Notes) {
				t.Errorf("notes %v, want %v", d.Notes, full.Notes)
			}
			if d.Traces != nil || d.Annotations != nil || d.Digest == nil {
				t.Fatal("the digest keeps the trace or annotations")
			}
			if d.LatestTimeUS() != full.LatestTimeUS() || !reflect.DeepEqual(d.Devices(), full.Devices()) {
				t.Errorf("latest time %d/%d, devices %v/%v", d.LatestTimeUS(), full.LatestTimeUS(), d.Devices(), full.Devices())
			}
			for _, dev := range full.Devices() {
				if d.TraceEntries(dev) != full.TraceEntries(dev) || d.EarlyUnknownFrees(dev) != full.EarlyUnknownFrees(dev) {
					t.Errorf("device %d: trace summary differs", dev)
				}
				if d.TraceEndsAtOOM(dev) != full.TraceEndsAtOOM(dev) {
					t.Errorf("device %d: trace ends at an OOM: digest %v, file %v", dev, d.TraceEndsAtOOM(dev), full.TraceEndsAtOOM(dev))
				}
				if len(d.OOMEntries(dev)) != len(full.OOMEntries(dev)) {
					t.Errorf("device %d: %d OOMs, want %d", dev, len(d.OOMEntries(dev)), len(full.OOMEntries(dev)))
				}
			}
			if len(d.Segments) != len(full.Segments) {
				t.Fatalf("%d segments, want %d", len(d.Segments), len(full.Segments))
			}
			for i := range full.Segments {
				for j, b := range full.Segments[i].Blocks {
					got := d.Segments[i].Blocks[j]
					if got.Size != b.Size || got.State != b.State ||
						!reflect.DeepEqual(d.Stacks.StackFrames(got.Stack), full.Stacks.StackFrames(b.Stack)) {
						t.Fatalf("segment %d block %d differs", i, j)
					}
				}
			}
			b, err := EncodeDigest("k1", c, d)
			if err != nil {
				t.Fatal(err)
			}
			key, c2, back, err := DecodeDigest(b)
			if err != nil {
				t.Fatal(err)
			}
			if key != "k1" || c2 != c {
				t.Errorf("key %q container %q", key, c2)
			}
			if !reflect.DeepEqual(back.Notes, full.Notes) {
				t.Errorf("notes read back %v, want %v", back.Notes, full.Notes)
			}
			for _, dev := range full.Devices() {
				if back.TraceEndsAtOOM(dev) != full.TraceEndsAtOOM(dev) {
					t.Errorf("device %d: trace-ends-at-OOM lost in the file format", dev)
				}
			}
			if why := sameDigest(d, back); why != "" {
				t.Errorf("the digest read back differs: %s", why)
			}
		})
	}
}

// FuzzDecodeDigest feeds DecodeDigest arbitrary bytes, seeded with the
// digests of real snapshots: it must never panic, and what it accepts must
// encode and read back the same. Read through a Sharer that has read
// another digest first (whose segments it may take), and twice (the
// second read takes every segment of the first), it reads the same, and
// fails the same.
func FuzzDecodeDigest(f *testing.F) {
	var first []byte // the first seed, read first by a primed Sharer
	for _, p := range digestSources(f) {
		full, c, err := DecodeFile(p, DecodeOptions{})
		if err != nil {
			continue
		}
		b, err := EncodeDigest("seed", c, Reduce(full))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 64<<10 {
			f.Add(b)
			if first == nil {
				first = b
			}
		}
	}
	primed := func(t *testing.T) (*Sharer, *Scratch) {
		sh, sc := NewSharer(), new(Scratch)
		if first != nil {
			if _, _, _, err := DecodeDigestReusing(first, sh, sc); err != nil {
				t.Fatal(err)
			}
		}
		return sh, sc
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		key, c, s, err := DecodeDigest(data)
		if err != nil {
			if !errors.Is(err, ErrDigestCorrupt) && !errors.Is(err, ErrDigestVersion) {
				t.Fatalf("untyped error %v", err)
			}
			// The head alone may read where the whole does not (its
			// segments are not checked), but never untyped.
			if _, _, _, herr := DecodeDigestWithoutSegments(data, nil); herr != nil && !errors.Is(herr, ErrDigestCorrupt) && !errors.Is(herr, ErrDigestVersion) {
				t.Fatalf("read without segments: untyped error %v", herr)
			}
			if _, _, _, rerr := DecodeDigestReusing(data, NewSharer(), new(Scratch)); rerr == nil || rerr.Error() != err.Error() {
				t.Fatalf("read into a Scratch: %v, alone: %v", rerr, err)
			}
			sh, sc := primed(t)
			if _, _, _, rerr := DecodeDigestReusing(data, sh, sc); rerr == nil || rerr.Error() != err.Error() {
				t.Fatalf("read after another digest: %v, alone: %v", rerr, err)
			}
			return
		}
		// Read twice through one Sharer: the second takes the first's
		// table, and both are the digest read alone.
		sh := NewSharer()
		for i := range 2 {
			_, _, d, err := DecodeDigestShared(data, sh)
			if err != nil {
				t.Fatalf("read %d through a Sharer: %v", i+1, err)
			}
			if why := sameDigest(s, d); why != "" {
				t.Fatalf("read %d through a Sharer differs: %s", i+1, why)
			}
		}
		// And twice into one Scratch, the second into the arrays the
		// first left, through one Sharer that read another digest first.
		sh, sc := primed(t)
		for i := range 2 {
			_, _, d, err := DecodeDigestReusing(data, sh, sc)
			if err != nil {
				t.Fatalf("read %d into a Scratch: %v", i+1, err)
			}
			if why := sameDigest(s, d); why != "" {
				t.Fatalf("read %d into a Scratch differs: %s", i+1, why)
			}
		}
		// Without its segments, through the Sharer that read it whole.
		if why := sameWithoutSegments(t, data, s, sh); why != "" {
			t.Fatalf("read without its segments: %s", why)
		}
		b, err := EncodeDigest(key, c, s)
		if err != nil {
			t.Fatal(err)
		}
		_, _, back, err := DecodeDigest(b)
		if err != nil {
			t.Fatalf("re-encoded digest does not read back: %v", err)
		}
		if why := sameDigest(s, back); why != "" {
			t.Fatalf("re-encoded digest differs: %s", why)
		}
	})
}

// sameWithoutSegments reads digest b without its devices' segments
// through sh and says how it differs from whole, b read whole, but for
// those ("" when it does not).
func sameWithoutSegments(t *testing.T, b []byte, whole *Snapshot, sh *Sharer) string {
	t.Helper()
	head, err := DigestHeadLength(b)
	if err != nil {
		return err.Error()
	}
	if why := sameHead(b[:head], whole, sh); why != "" {
		return "the head alone: " + why
	}
	return sameHead(b, whole, sh)
}

// sameHead reads digest b, or its head alone, without its devices'
// segments through sh and says how it differs from whole but for those.
func sameHead(b []byte, whole *Snapshot, sh *Sharer) string {
	_, _, d, err := DecodeDigestWithoutSegments(b, sh)
	if err != nil {
		return err.Error()
	}
	if d.Segments != nil || d.Digest == nil || !d.Digest.SegmentsUnread {
		return fmt.Sprintf("%d segments, unread %v", len(d.Segments), d.Digest != nil && d.Digest.SegmentsUnread)
	}
	if !reflect.DeepEqual(d.HostSegments, whole.HostSegments) {
		return "host segments"
	}
	if !reflect.DeepEqual(d.Notes, whole.Notes) || !reflect.DeepEqual(d.Pools, whole.Pools) || !reflect.DeepEqual(d.Meta, whole.Meta) {
		return "notes, pools or user_metadata"
	}
	cp := *d
	cp.Segments = whole.Segments
	dg := *d.Digest
	dg.SegmentsUnread = false
	cp.Digest = &dg
	return sameDigest(&cp, whole)
}

// TestDecodeDigestWithoutSegments reads the digest of every sample and
// real snapshot without its devices' segments, alone and through a Sharer
// that read it whole: all else is the digest read whole. A segment's
// length past the digest's end is refused.
func TestDecodeDigestWithoutSegments(t *testing.T) {
	n := 0
	for _, p := range digestSources(t) {
		full, c, err := DecodeFile(p, DecodeOptions{})
		if err != nil {
			continue
		}
		b, err := EncodeDigest("k", c, Reduce(full))
		if err != nil {
			t.Fatal(err)
		}
		_, _, whole, err := DecodeDigest(b)
		if err != nil {
			t.Fatal(err)
		}
		if why := sameWithoutSegments(t, b, whole, nil); why != "" {
			t.Errorf("%s: %s", p, why)
		}
		sh := NewSharer()
		if _, _, _, err := DecodeDigestReusing(b, sh, new(Scratch)); err != nil {
			t.Fatal(err)
		}
		if why := sameWithoutSegments(t, b, whole, sh); why != "" {
			t.Errorf("%s, through a Sharer: %s", p, why)
		}
		n += len(whole.Segments)
	}
	if n == 0 {
		t.Fatal("no segment in the digests")
	}
	// One segment whose length runs past the end, and two whose second
	// has no length: the counts themselves fit the bytes left.
	long := append([]byte{1, 0, 40, 0, 0, 0}, make([]byte, 16)...)
	short := append([]byte{2, 0, 30, 0, 0, 0}, make([]byte, 32)...)
	for name, b := range map[string][]byte{"past the end": long, "without its length": short} {
		r := &digestReader{b: b}
		if r.segments(false); r.err == nil || !strings.Contains(r.err.Error(), "segment") {
			t.Errorf("a segment %s was read: %v", name, r.err)
		}
	}
}

// TestDigestHead checks the head of a digest, everything but the
// devices' segments under its own checksum: read alone it gives the
// digest without its segments; damage to the segments leaves the head
// readable but the whole refused; damage to the head refuses both; and a
// head length that does not fit is corrupt.
func TestDigestHead(t *testing.T) {
	files := digestSources(t)
	full, c, err := DecodeFile(files[0], DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := EncodeDigest("k", c, Reduce(full))
	if err != nil {
		t.Fatal(err)
	}
	head, err := DigestHeadLength(b[:DigestPrefix])
	if err != nil || head >= len(b)-4 {
		t.Fatalf("head of %d bytes in %d: %v", head, len(b), err)
	}
	flip := func(at int) []byte {
		d := bytes.Clone(b)
		d[at] ^= 1
		return d
	}
	tests := []struct {
		name              string
		data              []byte
		whole, noSegments string // the errors wanted; "" reads
	}{
		{"as written", b, "", ""},
		{"the head alone", b[:head], "no segments after the head", ""},
		{"a segment damaged", flip(head + 8), "checksum", ""},
		{"the head damaged", flip(head - 10), "head checksum", "head checksum"},
		{"the head's checksum damaged", flip(head - 1), "head checksum", "head checksum"},
		{"a head longer than the digest", bytes.Join([][]byte{b[:digestHeadAt], binary.LittleEndian.AppendUint64(nil, uint64(len(b)+1)), b[DigestPrefix:]}, nil), "a head of", "a head of"},
		{"a head shorter than its header", bytes.Join([][]byte{b[:digestHeadAt], binary.LittleEndian.AppendUint64(nil, 3), b[DigestPrefix:]}, nil), "a head of 3 bytes", "a head of 3 bytes"},
		{"cut inside the header", b[:DigestPrefix-1], "no digest header", "no digest header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				want string
				read func([]byte, *Sharer) (string, Container, *Snapshot, error)
			}{{tt.whole, DecodeDigestShared}, {tt.noSegments, DecodeDigestWithoutSegments}} {
				_, _, s, err := c.read(tt.data, nil)
				switch {
				case c.want == "" && err != nil:
					t.Errorf("refused: %v", err)
				case c.want == "" && len(s.Segments) == 0 && !s.Digest.SegmentsUnread:
					t.Error("read without segments")
				case c.want != "" && (!errors.Is(err, ErrDigestCorrupt) || !strings.Contains(err.Error(), c.want)):
					t.Errorf("err = %v, want ErrDigestCorrupt with %q", err, c.want)
				}
			}
		})
	}
}

// skimDiff decodes data in full and skimming its trace
// (DecodeOptions.SkimTrace), and says how their digests differ ("" when
// they are the same, to the byte of their encoding).
func skimDiff(data []byte) (string, error) {
	full, c, err := DecodeBytes(data, DecodeOptions{})
	if err != nil {
		return "", err
	}
	skim, c2, err := DecodeBytes(data, DecodeOptions{SkimTrace: true})
	if err != nil {
		return "", fmt.Errorf("skimming: %w", err)
	}
	a, b := Reduce(full), Reduce(skim)
	if why := sameDigest(a, b); why != "" {
		return why, nil
	}
	if !reflect.DeepEqual(a.Notes, b.Notes) {
		return fmt.Sprintf("notes %v, skimmed %v", a.Notes, b.Notes), nil
	}
	ea, err := EncodeDigest("k", c, a)
	if err != nil {
		return "", err
	}
	eb, err := EncodeDigest("k", c2, b)
	if err != nil {
		return "", err
	}
	if !bytes.Equal(ea, eb) {
		return "encoded digests", nil
	}
	return "", nil
}

// TestSkimmedDigestEqualsFull checks that skimming the trace changes how a
// digest is made, not what it holds: on the sample run, every real
// snapshot and the generated benchmark snapshots (one with thousands of
// distinct stacks).
func TestSkimmedDigestEqualsFull(t *testing.T) {
	type input struct {
		name string
		data func() ([]byte, error)
	}
	var inputs []input
	for _, p := range digestSources(t) {
		inputs = append(inputs, input{filepath.Base(p), func() ([]byte, error) { return os.ReadFile(p) }})
	}
	inputs = append(inputs, input{"generated-big", bigSnapshotInput}, input{"generated-many-stacks", manyStacksInput})
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			data, err := in.data()
			if err != nil {
				t.Fatal(err)
			}
			why, err := skimDiff(data)
			if err != nil {
				t.Skipf("does not decode: %v", err)
			}
			if why != "" {
				t.Errorf("the skimmed digest differs: %s", why)
			}
		})
	}
}

// TestSkimKeepsOOMStacks builds snapshots whose trace holds an OOM event
// with a stack: with the event's keys in PyTorch's order and with frames
// before action, with the OOM's frames list made by the segment_free
// events just before it (the cached segments the failed allocation
// released first), and made by an event far before it; and one without
// an OOM. The skimmed digest equals the full one and keeps the OOM's
// stack; the skim decodes the file once, but for a list it had dropped
// (the event far before), where it decodes the file again in full.
func TestSkimKeepsOOMStacks(t *testing.T) {
	frame := func(name string, line int) *pickle.Dict {
		d := pickle.NewDict(3)
		d.Set("filename", "/work/train.py")
		d.Set("line", line)
		d.Set("name", name)
		return d
	}
	step, fwd := frame("train_step", 10), frame("forward", 20)
	stack := pickle.NewList(fwd, step)
	event := func(action string, addr, size int, frames *pickle.List, framesFirst bool) *pickle.Dict {
		d := pickle.NewDict(6)
		if framesFirst {
			d.Set("frames", frames)
		}
		d.Set("action", action)
		if action == "oom" {
			d.Set("device_free", addr)
		} else {
			d.Set("addr", addr)
		}
		d.Set("size", size)
		d.Set("stream", 0)
		d.Set("time_us", 1000+addr%97)
		if !framesFirst {
			d.Set("frames", frames)
		}
		return d
	}
	const (
		oomOwn       = iota // the OOM's frames list is its own
		oomAfterFree        // made by the segment_free events just before
		oomFarAfter         // made by an event with others between
	)
	tests := []struct {
		name        string
		framesFirst bool
		oom         bool
		share       int
		again       bool // decoded again in full
	}{
		{"PyTorch's key order", false, true, oomOwn, false},
		{"frames before action", true, true, oomOwn, false},
		{"list made by the segment_free events before", false, true, oomAfterFree, false},
		{"list made by an event far before", false, true, oomFarAfter, true},
		{"no OOM", false, false, oomOwn, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			block := pickle.NewDict(4)
			block.Set("size", 1<<20)
			block.Set("requested_size", 1<<20)
			block.Set("state", "active_allocated")
			block.Set("frames", stack)
			seg := pickle.NewDict(8)
			seg.Set("device", 0)
			seg.Set("address", 1<<30)
			seg.Set("total_size", 2<<20)
			seg.Set("allocated_size", 1<<20)
			seg.Set("active_size", 1<<20)
			seg.Set("stream", 0)
			seg.Set("segment_type", "large")
			free := pickle.NewDict(3)
			free.Set("size", 1<<20)
			free.Set("state", "inactive")
			free.Set("frames", pickle.NewList())
			seg.Set("blocks", pickle.NewList(block, free))
			oomStack := pickle.NewList(frame("backward", 30), step)
			other := pickle.NewList(frame("other", 40))
			ff := tc.framesFirst
			trace := pickle.NewList(event("alloc", 1<<30, 1<<20, stack, ff))
			if tc.share == oomFarAfter {
				trace.Append(event("alloc", 1<<32, 4<<20, oomStack, ff))
			}
			trace.Append(event("alloc", 1<<30+1<<20, 1<<20, other, ff))
			trace.Append(event("free_requested", 1<<30+1<<20, 1<<20, other, ff))
			if tc.share == oomAfterFree {
				trace.Append(event("segment_free", 1<<33, 2<<20, oomStack, ff))
				trace.Append(event("segment_free", 1<<34, 2<<20, oomStack, ff))
			}
			if tc.oom {
				trace.Append(event("oom", 4096, 8<<30, oomStack, ff))
			}
			top := pickle.NewDict(2)
			top.Set("segments", pickle.NewList(seg))
			top.Set("device_traces", pickle.NewList(trace))
			data, err := pickle.Marshal(top, pickle.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := decodeFast(bytes.NewReader(data), int64(len(data)), false); err != nil {
				t.Fatalf("the fast path does not take the test's snapshot: %v", err)
			}
			why, err := skimDiff(data)
			if err != nil {
				t.Fatal(err)
			}
			if why != "" {
				t.Errorf("the skimmed digest differs: %s", why)
			}
			s, _, err := DecodeBytes(data, DecodeOptions{SkimTrace: true})
			if err != nil {
				t.Fatal(err)
			}
			if again := s.Traces != nil; again != tc.again || !again && len(s.skimmed) != 1 {
				t.Errorf("decoded again in full: %v, want %v (summary %+v)", again, tc.again, s.skimmed)
			}
			d := Reduce(s)
			ooms := d.OOMEntries(0)
			if !tc.oom {
				if len(ooms) != 0 || d.Digest.Traces[0].LastAlloc != 1 {
					t.Errorf("OOMs %v, summary %+v", ooms, d.Digest.Traces[0])
				}
				return
			}
			if len(ooms) != 1 || !d.TraceEndsAtOOM(0) {
				t.Fatalf("OOMs %v, ends at OOM %v", ooms, d.TraceEndsAtOOM(0))
			}
			got := d.Stacks.StackFrames(ooms[0].Stack)
			if len(got) != 2 || got[0].Name != "backward" || got[1].Name != "train_step" {
				t.Errorf("the OOM's stack is %v, want backward, train_step", got)
			}
		})
	}
}

// TestSkimLongAppends checks a trace that PyTorch's C++ pickler writes as
// one MARK ... APPENDS of 20,000 events, more than the skim's first ring
// holds: the ring grows, the trace is still skimmed, and the digest equals
// the full decode's.
func TestSkimLongAppends(t *testing.T) {
	frames := pickle.NewList(pickle.NewDict(0))
	fr := frames.Items[0].(*pickle.Dict)
	fr.Set("filename", "/work/train.py")
	fr.Set("line", 7)
	fr.Set("name", "train_step")
	trace := pickle.NewList()
	const n = 20_000
	for i := range n {
		e := pickle.NewDict(6)
		action := "alloc"
		if i%2 == 1 {
			action = "free_completed"
		}
		e.Set("action", action)
		e.Set("addr", 1<<30+(i/2)*512)
		e.Set("size", 512)
		e.Set("stream", 0)
		e.Set("time_us", 1_000_000+i)
		e.Set("frames", pickle.NewList(fr))
		trace.Append(e)
	}
	top := pickle.NewDict(2)
	top.Set("segments", pickle.NewList())
	top.Set("device_traces", pickle.NewList(trace))
	data, err := pickle.Marshal(top, pickle.Options{Protocol: 2, Style: pickle.TorchCpp})
	if err != nil {
		t.Fatal(err)
	}
	m := newVM(bytes.NewReader(data), int64(len(data)), false)
	m.skim = true
	v, err := m.run()
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.finish(v)
	if err != nil {
		t.Fatal(err)
	}
	if s.Traces != nil || len(s.skimmed) != 1 || s.skimmed[0].Entries != n || s.skimmed[0].LastAlloc != n-2 {
		t.Fatalf("not skimmed: %d traces, summary %+v", len(s.Traces), s.skimmed)
	}
	if len(m.ents.ring) <= skimRing {
		t.Errorf("ring of %d: the test did not make it grow", len(m.ents.ring))
	}
	why, err := skimDiff(data)
	if err != nil || why != "" {
		t.Errorf("skimmed digest: %v %s", err, why)
	}
}

// TestDigestRelativeBlocks checks that blocks whose addresses and
// requested sizes are written relative to their neighbours (format 8)
// read back exactly whatever their layout: packed, with gaps, out of
// order, overlapping, wrapping past the top of the address space, with a
// requested size above the size or negative.
func TestDigestRelativeBlocks(t *testing.T) {
	const top = math.MaxUint64
	cases := []struct {
		name   string
		seg    uint64
		blocks []Block
	}{
		{"packed", 1 << 40, []Block{{Address: 1 << 40, Size: 512, RequestedSize: 500}, {Address: 1<<40 + 512, Size: 1 << 20, RequestedSize: 1 << 20}}},
		{"gap and first block past the segment's start", 1 << 40, []Block{{Address: 1<<40 + 4096, Size: 512, RequestedSize: 1}, {Address: 1 << 41, Size: 512}}},
		{"out of order and overlapping", 1 << 40, []Block{{Address: 1<<40 + 8192, Size: 4096}, {Address: 1 << 40, Size: 8192}, {Address: 1<<40 + 100, Size: 50}}},
		{"wrapping", top - 1000, []Block{{Address: top - 1000, Size: 2000, RequestedSize: 2000}, {Address: 999, Size: 1}, {Address: top, Size: 1}}},
		{"requested above the size or negative", 0, []Block{{Address: 0, Size: 512, RequestedSize: 4096}, {Address: 512, Size: 1, RequestedSize: -1}, {Address: 513, Size: -7, RequestedSize: math.MinInt64}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := &Snapshot{Digest: &Digest{}}
			stack := want.Stacks.InternStack([]FrameID{want.Stacks.InternFrame(Frame{File: "a.py", Line: 1, Name: "f"})})
			want.Stacks.Seal()
			for i := range c.blocks {
				c.blocks[i].State, c.blocks[i].Stack = StateActiveAllocated, stack
			}
			want.Segments = []*Segment{{Address: c.seg, TotalSize: 1 << 30, Blocks: c.blocks}}
			enc, err := EncodeDigest("relative", ContainerPickle, want)
			if err != nil {
				t.Fatal(err)
			}
			_, _, got, err := DecodeDigest(enc)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Segments[0].Blocks, c.blocks) {
				t.Errorf("blocks read back\n%+v\nwant\n%+v", got.Segments[0].Blocks, c.blocks)
			}
		})
	}
}
