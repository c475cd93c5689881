package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"strings"
	"testing"
)

// stackDigest returns a digest whose stack table holds stacks as given
// (frame indexes into three frames), added without interning, so that a
// test can write a table with a repeat.
func stackDigest(stacks ...[]FrameID) *Snapshot {
	s := &Snapshot{Generation: "test", Digest: &Digest{}}
	for _, name := range []string{"a", "b", "c"} {
		s.Stacks.Frames = append(s.Stacks.Frames, Frame{File: "train.py", Line: 1, Name: name})
	}
	for _, ids := range stacks {
		s.Stacks.add(ids)
	}
	return s
}

// patchDigest replaces the first old bytes of an encoded digest with new
// (same length) and sets the checksums again, so that only the patched
// field is wrong.
func patchDigest(t *testing.T, enc, old, new []byte) []byte {
	t.Helper()
	i := bytes.Index(enc, old)
	if i < 0 || len(old) != len(new) {
		t.Fatalf("no %v in the encoded digest", old)
	}
	b := bytes.Clone(enc)
	copy(b[i:], new)
	return resealDigest(b)
}

// resealDigest sets the checksums of digest b again: its head's, when its
// head length fits, and the whole's.
func resealDigest(b []byte) []byte {
	if head := binary.LittleEndian.Uint64(b[digestHeadAt:]); head >= uint64(DigestPrefix)+4 && head <= uint64(len(b)) {
		binary.LittleEndian.PutUint32(b[head-4:], crc32.Checksum(b[:head-4], crcTable))
	}
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crcTable))
	return b
}

// TestDecodeDigestStackTable checks the stack table of a digest: read back
// as written, and refused as corrupt when a stack repeats another, is
// empty, names a frame that is not there, or the stacks hold more or
// fewer frame IDs than the table's count says (the count sizes the
// table, so it is never trusted).
func TestDecodeDigestStackTable(t *testing.T) {
	good, err := EncodeDigest("k", "pickle", stackDigest([]FrameID{0, 1}, []FrameID{2}, []FrameID{1, 0}))
	if err != nil {
		t.Fatal(err)
	}
	// The stack section as EncodeDigest writes it: 3 stacks, 5 frame IDs,
	// then each stack as the frames it shares with the one before at its
	// start and at its end (none here), the number of the others and
	// their IDs.
	section := []byte{3, 5, 0, 0, 2, 0, 1, 0, 0, 1, 2, 0, 0, 2, 1, 0}
	repeat, err := EncodeDigest("k", "pickle", stackDigest([]FrameID{0, 1}, []FrameID{2}, []FrameID{0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	// The section's length, 8 bytes before its frames: one more than the
	// bytes left.
	at := bytes.Index(good, []byte("\x03\x08train.py")) - 8
	long := patchDigest(t, good, good[at:at+8], binary.LittleEndian.AppendUint64(nil, uint64(len(good)-at)))
	short := patchDigest(t, good, good[at:at+8], binary.LittleEndian.AppendUint64(nil, binary.LittleEndian.Uint64(good[at:])-1))
	tests := []struct {
		name string
		data []byte
		want string // "" reads back
	}{
		{"a section longer than the entry", long, "stack section of"},
		{"a section one byte short", short, "stack section: corrupt digest: count 2 with 1 bytes left"},
		{"as written", good, ""},
		{"a stack repeats", repeat, "stack 3 repeats"},
		{"fewer IDs than the count", patchDigest(t, good, section, []byte{3, 6, 0, 0, 2, 0, 1, 0, 0, 1, 2, 0, 0, 2, 1, 0}), "hold 5 frame IDs, the table says 6"},
		{"more IDs than the count", patchDigest(t, good, section, []byte{3, 4, 0, 0, 2, 0, 1, 0, 0, 1, 2, 0, 0, 2, 1, 0}), "stack 3 has 2 frames, 1 of 4"},
		{"an empty stack", patchDigest(t, good, section, []byte{3, 5, 0, 0, 2, 0, 1, 0, 0, 0, 2, 0, 0, 2, 1, 0}), "stack 2 has 0 frames"},
		{"more shared frames than the stack before has", patchDigest(t, good, section, []byte{3, 5, 0, 0, 2, 0, 1, 1, 2, 1, 2, 0, 0, 2, 1, 0}), "stack 2 shares 1 and 2 frames with the 2 of the stack before"},
		{"more frame IDs than the bytes could hold", patchDigest(t, good, section, []byte{3, 0x80, 0x80, 0x80, 0x80, 0x01, 0, 1, 0, 0, 1, 2, 0, 0, 2, 1}), "268435456 frame IDs in"},
		{"a frame not there", patchDigest(t, good, section, []byte{3, 5, 0, 0, 2, 0, 1, 0, 0, 1, 3, 0, 0, 2, 1, 0}), "frame 3 of 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, s, err := DecodeDigest(tt.data)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := s.Stacks.StackFrames(3); len(got) != 2 || got[0].Name != "b" || got[1].Name != "a" {
					t.Fatalf("stack 3 = %v, want b, a", got)
				}
				// The table read without an index still interns.
				if id := s.Stacks.InternStack([]FrameID{2}); id != 2 {
					t.Fatalf("InternStack(c) = %d, want 2", id)
				}
				return
			}
			if !errors.Is(err, ErrDigestCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrDigestCorrupt with %q", err, tt.want)
			}
		})
	}
}

// TestDigestStacksSharedEnds checks that stacks written as the frames
// they share with the stack before at both ends and the frames between
// read back exactly, whatever they share: nothing, a start, an end, both,
// all of a shorter stack, or frames that repeat inside a stack.
func TestDigestStacksSharedEnds(t *testing.T) {
	tests := [][][]FrameID{
		{{0}, {1}, {2}},
		{{0, 1, 2}, {0, 1}, {0, 1, 2, 2}, {1, 2, 2}, {2}},
		{{0, 1, 2, 0, 1, 2}, {0, 1, 1, 0, 1, 2}, {0, 2}, {0, 1, 2, 0, 1, 2, 0}},
		{{2, 2, 2}, {2, 2}, {2, 2, 2, 2}, {1, 2, 2, 2, 1}},
	}
	for _, stacks := range tests {
		enc, err := EncodeDigest("k", "pickle", stackDigest(stacks...))
		if err != nil {
			t.Fatal(err)
		}
		_, _, s, err := DecodeDigest(enc)
		if err != nil {
			t.Fatalf("%v: %v", stacks, err)
		}
		if s.Stacks.Len()-1 != len(stacks) {
			t.Fatalf("%v: read %d stacks", stacks, s.Stacks.Len()-1)
		}
		for i, want := range stacks {
			if got := s.Stacks.Stack(StackID(i + 1)); !slices.Equal(got, want) {
				t.Errorf("%v: stack %d read back as %v", stacks, i+1, got)
			}
		}
	}
}

// TestFirstRepeat checks the check a digest's stack table gets, on tables
// large enough that the open-addressed table wraps and probes.
func TestFirstRepeat(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 100, 1000} {
		var s Stacks
		for i := range n {
			s.add([]FrameID{FrameID(i % 7), FrameID(i)})
		}
		if id, ok := s.firstRepeat(); ok {
			t.Fatalf("%d distinct stacks: stack %d reported as a repeat", n, id)
		}
		if n == 0 {
			continue
		}
		s.add([]FrameID{FrameID((n - 1) % 7), FrameID(n - 1)})
		if id, ok := s.firstRepeat(); !ok || int(id) != n+1 {
			t.Fatalf("%d stacks and a repeat of the last: firstRepeat = %d, %v, want %d", n, id, ok, n+1)
		}
	}
}

// TestDecodeDigestSharedReusesTable checks that digests read through one
// Sharer take the table of an earlier digest with the same stack section
// (the same memory, snapshot.Stacks.SameTable), that a digest with other
// stacks reads its own, that the oldest of more than recentTables
// sections is forgotten, and that every digest reads as it does alone.
func TestDecodeDigestSharedReusesTable(t *testing.T) {
	enc := func(stacks ...[]FrameID) []byte {
		t.Helper()
		b, err := EncodeDigest("k", "pickle", stackDigest(stacks...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tables := make([][]byte, recentTables+1)
	for i := range tables {
		tables[i] = enc([]FrameID{0, 1}, []FrameID{FrameID(i % 3), 2}, make([]FrameID, i+1))
	}
	sh := NewSharer()
	read := func(b []byte) *Snapshot {
		t.Helper()
		_, _, alone, err := DecodeDigest(b)
		if err != nil {
			t.Fatal(err)
		}
		_, _, d, err := DecodeDigestShared(b, sh)
		if err != nil {
			t.Fatal(err)
		}
		if why := sameDigest(alone, d); why != "" {
			t.Fatalf("read through the Sharer differs: %s", why)
		}
		return d
	}
	first := read(tables[0])
	if again := read(tables[0]); !again.Stacks.SameTable(&first.Stacks) {
		t.Error("the same stack section read twice gave two tables")
	}
	if len(sh.recent) != 1 {
		t.Errorf("the same stack section read twice was parsed twice (%d kept)", len(sh.recent))
	}
	if other := read(tables[1]); other.Stacks.SameTable(&first.Stacks) {
		t.Error("another stack section got the first's table")
	}
	for _, b := range tables[2:] {
		read(b)
	}
	// tables[0] is now the oldest of recentTables+1: forgotten, read
	// again (and shared by its content).
	if len(sh.recent) != recentTables {
		t.Errorf("the Sharer keeps %d sections, want %d", len(sh.recent), recentTables)
	}
	for _, r := range sh.recent {
		if r.tab.SameTable(&first.Stacks) {
			t.Error("the oldest section is still kept")
		}
	}
	if back := read(tables[0]); !back.Stacks.SameTable(&first.Stacks) {
		t.Error("a table read again was not shared with its equal")
	}
}
