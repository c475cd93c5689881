package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"unsafe"

	"gpureport/internal/pickleop"
)

// le32 and le64 encode little-endian operands.
func pkLE32(n uint32) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], n)
	return string(b[:])
}

func pkLE64(n uint64) string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], n)
	return string(b[:])
}

// TestPickleErrors feeds broken and hostile pickles to the decoder. Each
// must fail with the right kind of error at the right offset, saying what
// is wrong, in both modes of the machine.
func TestPickleErrors(t *testing.T) {
	deepLists := "\x80\x02" + strings.Repeat("]", 1100) + strings.Repeat("a", 1099) + "."
	deepTuples := "\x80\x02)" + strings.Repeat("\x85", 1100) + "."
	for _, c := range []struct {
		name   string
		in     string
		kind   error
		offset int64
		msg    string
		stream bool // size unknown, as for gzip and zip members
	}{
		{"truncated frame", "\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94(", ErrTruncated, 2, "extends past the end", false},
		{"truncated after proto", "\x80\x02", ErrTruncated, 2, "unexpected end of data", false},
		{"truncated operand", "\x80\x02J\x01\x02", ErrTruncated, 2, "BININT (0x4a): the data ends at offset 5", false},
		{"truncated string", "\x80\x02X\x05\x00\x00\x00ab", ErrTruncated, 2, "exceeds the 2 bytes left", false},
		{"global", "\x80\x02cbuiltins\nlist\n)R.", ErrForbiddenOpcode, 2, "GLOBAL (0x63)", false},
		{"stack global", "\x80\x04\x8c\x08builtins\x8c\x04list\x93.", ErrForbiddenOpcode, 18, "STACK_GLOBAL (0x93)", false},
		{"reduce", "\x80\x02)\x85R.", ErrForbiddenOpcode, 4, "REDUCE (0x52)", false},
		{"build", "\x80\x02}}b.", ErrForbiddenOpcode, 4, "BUILD", false},
		{"persistent id", "\x80\x02NQ.", ErrForbiddenOpcode, 3, "BINPERSID", false},
		{"ext1", "\x80\x02\x82\x01.", ErrForbiddenOpcode, 2, "EXT1", false},
		{"missing memo", "\x80\x02h\x0c.", ErrMemo, 2, "BINGET 12 refers to a memo slot never set", false},
		{"missing long memo", "\x80\x02N\x94j" + pkLE32(70000) + ".", ErrMemo, 4, "LONG_BINGET 70000", false},
		{"huge string", "\x80\x02X\xff\xff\xff\x7f", ErrTruncated, 2, "declared string length 2147483647", false},
		{"huge string8", "\x80\x04\x8d" + pkLE64(1<<40) + "x.", ErrTruncated, 2, "declared string length 1099511627776 exceeds the 2 bytes left", false},
		{"huge string8 in a stream", "\x80\x04\x8d" + pkLE64(1<<40) + "x.", ErrLimit, 2, "exceeds the 268435456-byte limit", true},
		{"big string cut in a stream", "\x80\x04X" + pkLE32(100<<20) + "xyz", ErrTruncated, 2, "BINUNICODE (0x58): the data ends at offset 10, inside its operand", true},
		{"huge bytes", "\x80\x03B\xff\xff\xff\xff.", ErrTruncated, 2, "declared string length 4294967295", false},
		{"huge long4", "\x80\x02\x8b\xff\xff\xff\x7f.", ErrLimit, 2, "exceeds the 65536-byte limit", false},
		{"negative long4", "\x80\x02\x8b\xff\xff\xff\xff.", ErrMalformed, 2, "negative byte count", false},
		{"huge frame", "\x80\x04\x95" + pkLE64(1<<40) + "N.", ErrTruncated, 2, "extends past the end", false},
		{"frame in frame", "\x80\x04\x95" + pkLE64(11) + "\x95" + pkLE64(1) + "N.", ErrMalformed, 11, "new frame begins before the end", false},
		{"frame past a stream's end", "\x80\x04\x95" + pkLE64(100) + "N.", ErrTruncated, 12, "data ends before it", true},
		{"operand crosses frame", "\x80\x04\x95\x02" + pkLE64(0)[1:] + "J\x01\x02\x03\x04.", ErrMalformed, 11, "crosses the end of its FRAME", false},
		{"deep lists", deepLists, ErrLimit, 2 + 1100 + 1000, "nested deeper than 1000 levels", false},
		{"deep tuples", deepTuples, ErrLimit, 3 + 1000, "nested deeper than 1000 levels", false},
		{"deep marks", "\x80\x02" + strings.Repeat("(", 1100), ErrLimit, 2 + 1000, "MARKs nested deeper", false},
		{"unknown opcode", "\x80\x02\xff.", ErrUnsupportedOpcode, 2, "unknown opcode 0xff", false},
		{"text opcode", "\x80\x02I12\n.", ErrUnsupportedOpcode, 2, "INT (0x49)", false},
		{"set", "\x80\x04\x8f.", ErrUnsupportedOpcode, 2, "EMPTY_SET", false},
		{"protocol 6", "\x80\x02\x80\x06N.", ErrUnsupportedOpcode, 2, "unsupported pickle protocol 6", false},
		{"odd setitems", "\x80\x02}(K\x01u.", ErrMalformed, 6, "odd number of items", false},
		{"append underflow", "\x80\x02a.", ErrMalformed, 2, "stack underflow", false},
		{"append below mark", "\x80\x02](K\x01a.", ErrMalformed, 6, "stack underflow", false},
		{"append to dict", "\x80\x02}K\x01a.", ErrMalformed, 5, "appends to a dict, not a list", false},
		{"setitem on list", "\x80\x02]K\x01K\x02s.", ErrMalformed, 7, "sets items of a list, not a dict", false},
		{"appends without mark", "\x80\x02]e.", ErrMalformed, 3, "no MARK to pop", false},
		{"unhashable key", "\x80\x02}]K\x01s.", ErrMalformed, 6, "unhashable dict key of type list", false},
		{"stop on empty stack", "\x80\x02.", ErrMalformed, 2, "stack underflow", false},
		{"memoize empty stack", "\x80\x04\x94.", ErrMalformed, 2, "stack underflow", false},
	} {
		for _, generic := range []bool{false, true} {
			name := c.name
			if generic {
				name += "/generic"
			}
			t.Run(name, func(t *testing.T) {
				size := int64(len(c.in))
				if c.stream {
					size = -1
				}
				_, err := decodeFast(strings.NewReader(c.in), size, generic)
				var pe *PickleError
				if !errors.As(err, &pe) {
					t.Fatalf("got %v, want a *PickleError", err)
				}
				if !errors.Is(err, c.kind) || pe.Offset != c.offset || !strings.Contains(err.Error(), c.msg) {
					t.Errorf("got %q (kind %v, offset %d), want kind %v at offset %d saying %q", err, pe.Kind, pe.Offset, c.kind, c.offset, c.msg)
				}
				if !strings.HasPrefix(err.Error(), "offset ") {
					t.Errorf("%q does not start with the offset", err)
				}
			})
		}
	}
}

// TestNotSnapshots: pickles that decode but are no snapshot get
// ErrNotSnapshot saying where the layout is wrong: the logical path and
// the offset of the dict or list that holds the problem (of STOP for a
// top-level scalar).
func TestNotSnapshots(t *testing.T) {
	for _, c := range []struct{ name, in, msg string }{
		{"list of ints", "\x80\x02](K\x01K\x02e.", "offset 2: not a PyTorch memory snapshot: segments[0]: expected segment dict, got int"},
		{"dict without segments", "\x80\x02}.", "offset 2: not a PyTorch memory snapshot: top-level dict has no 'segments' key"},
		{"int", "\x80\x02K\x01.", "offset 4: not a PyTorch memory snapshot: top level is a int, not a dict or a list of segments"},
		// A legacy torch.save stream: its first pickle is the magic number
		// 0x1950a86a20f9469cfc6c, LONG1 of 10 little-endian bytes.
		{"legacy torch.save", "\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.", "offset 14: not a PyTorch memory snapshot: a legacy torch.save file (PyTorch before 1.6, or _use_new_zipfile_serialization=False), whose first pickle is its magic number: save the snapshot again with torch.save's default format, or write it with torch.cuda.memory._dump_snapshot"},
		{"another big int", "\x80\x02\x8a\x0a\x6d\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.", "offset 14: not a PyTorch memory snapshot: top level is a int, not a dict or a list of segments"},
		{"segments not a list", "\x80\x02}X\x08\x00\x00\x00segmentsK\x01s.", "offset 2: not a PyTorch memory snapshot: segments: expected list, got int"},
		{"segment without blocks", "\x80\x02](}(X\x0a\x00\x00\x00total_sizeK\x01ue.", "offset 4: not a PyTorch memory snapshot: segments[0]: missing 'blocks'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _, err := DecodeBytes([]byte(c.in), DecodeOptions{})
			if !errors.Is(err, ErrNotSnapshot) || err.Error() != c.msg {
				t.Fatalf("got %v, %v; want %q", s, err, c.msg)
			}
		})
	}
	// Deeper: a block of a written snapshot that is no dict is located at
	// its blocks list.
	top := synthSnapshot(synthOpts{entries: 5, segments: 1})
	sv, _ := top.get("segments")
	bl, _ := sv.(*pyList).items[0].(*pyDict).get("blocks")
	bl.(*pyList).items[1] = "big"
	data := writePickle(top, stylePy4)
	_, _, err := DecodeBytes(data, DecodeOptions{})
	var pe *pathError
	if !errors.As(err, &pe) || pe.path != "segments[0].blocks[1]" || pe.at == 0 || data[pe.at-1] != pickleop.EmptyList {
		t.Fatalf("got %v: want segments[0].blocks[1] located at the blocks list's EMPTY_LIST", err)
	}
}

// TestMemoryBudget: inputs built to make the decoder allocate far more
// than their size stop with ErrLimit (masses of containers), or cost memory
// in proportion to their size (memo slots sprayed over the index space).
func TestMemoryBudget(t *testing.T) {
	var spray strings.Builder
	spray.WriteString("\x80\x02N")
	for i := range 20000 {
		spray.WriteString("r" + pkLE32(uint32(i*memoChunk)))
	}
	spray.WriteString(".")
	m := newVM(strings.NewReader(spray.String()), int64(spray.Len()), false)
	if _, err := m.run(); err != nil {
		t.Fatalf("memo spray: %v", err)
	}
	if m.used > 16*int64(spray.Len()) {
		t.Errorf("memo spray of %d bytes used %d bytes", spray.Len(), m.used)
	}

	containers := "\x80\x02" + strings.Repeat("}0", 1<<20) + "N."
	for _, generic := range []bool{false, true} {
		m := newVM(strings.NewReader(containers), int64(len(containers)), generic)
		m.budget = 4 << 20
		_, err := m.run()
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MiB for") {
			t.Fatalf("containers (generic %v): got %v, want ErrLimit about the memory budget", generic, err)
		}
		if m.used > 2*(m.budget+budgetPerByte*int64(len(containers))) {
			t.Errorf("used %d bytes before stopping", m.used)
		}
		// Each dict on an empty stack is a top-level dict: its payload
		// is charged in full, not as a small container.
		if held := int64(len(m.topDicts)) * int64(unsafe.Sizeof(topDict{})); m.used < held {
			t.Errorf("containers (generic %v): %d top-level dicts hold %d bytes, %d charged", generic, len(m.topDicts), held, m.used)
		}
	}
}

// TestTruncatedEverywhere cuts small real snapshots (and one synthetic
// snapshot per pickler style) at every offset: each prefix must fail with
// ErrTruncated at or before the cut, without panicking, both from a file
// (size known) and from a stream (size unknown).
func TestTruncatedEverywhere(t *testing.T) {
	inputs := map[string][]byte{}
	for _, st := range []pickleStyle{stylePy4, stylePy2, styleCpp} {
		inputs["synthetic-"+st.String()] = writePickle(synthSnapshot(synthOpts{entries: 20, segments: 2, extras: true}), st)
	}
	for _, f := range realSnapshotsUpTo(t, 12<<10) {
		inputs[f.name] = f.data
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			for cut := 0; cut < len(data); cut += step {
				prefix := data[:cut]
				for _, size := range []int64{int64(cut), -1} {
					_, err := decodeFast(bytes.NewReader(prefix), size, false)
					var pe *PickleError
					if !errors.Is(err, ErrTruncated) || !errors.As(err, &pe) || pe.Offset > int64(cut) {
						t.Fatalf("cut at %d (size %d): got %v, want ErrTruncated at or before the cut", cut, size, err)
					}
				}
			}
		})
	}
}

// heldBytes is what the payload tables of the typed roles hold once the
// machine stopped: each table's capacity times its element size (a table
// that doubled holds its whole new array), and the trace entries made.
func heldBytes(m *vm) int64 {
	size := func(n int, elem uintptr) int64 { return int64(n) * int64(elem) }
	return size(cap(m.segmentDicts), unsafe.Sizeof(segmentDict{})) +
		size(cap(m.segments), unsafe.Sizeof(Segment{})) +
		size(cap(m.blockDicts), unsafe.Sizeof(blockDict{})) +
		size(cap(m.blocks), unsafe.Sizeof(Block{})) +
		size(cap(m.frameDicts), unsafe.Sizeof(uint32(0))) +
		size(cap(m.gobjs), unsafe.Sizeof(any(nil))) +
		size(m.ents.n, unsafe.Sizeof(TraceEntry{})+1) +
		size(cap(m.st.Frames)+len(m.st.Frames), unsafe.Sizeof(Frame{}))
}

// TestMemoryBudgetPerObject: hostile pickles written by the project's
// pickle writer, made of masses of minimal typed dicts (segments, blocks,
// trace entries, frames). Whatever the decoder makes live for them must
// be charged to the budget, so under a small budget the decode either
// stays within it or stops with ErrLimit: it never holds more than the
// budget allows without saying so.
func TestMemoryBudgetPerObject(t *testing.T) {
	const n = 100000
	many := func(mk func() any) *pyList {
		l := pyL()
		for range n {
			l.items = append(l.items, mk())
		}
		return l
	}
	for _, c := range []struct {
		name string
		top  func() *pyDict
		// stops: what the objects hold passes the budget (a segment and
		// its record are 106 bytes, its empty blocks list 80; a distinct
		// frame over 200 with its index entry; from a few bytes of pickle
		// each), so the decode must stop with ErrLimit.
		stops bool
	}{
		{"segment dicts", func() *pyDict {
			return pyD("segments", many(func() any { return pyD("address", 0, "total_size", 0, "blocks", pyL()) }))
		}, true},
		{name: "block dicts", top: func() *pyDict {
			return pyD("segments", pyL(pyD("address", 0, "total_size", 0, "blocks", many(func() any { return pyD("size", 0, "state", "inactive") }))))
		}},
		{name: "trace entries", top: func() *pyDict {
			return pyD("segments", pyL(), "device_traces", pyL(many(func() any { return pyD("action", "alloc") })))
		}},
		{name: "frame dicts", top: func() *pyDict {
			frames := many(func() any { return pyD("filename", "f.py", "line", 1, "name", "f") })
			return pyD("segments", pyL(pyD("address", 0, "total_size", 0, "blocks", pyL(pyD("size", 0, "state", "inactive", "frames", frames)))))
		}},
		{name: "distinct frames", top: func() *pyDict {
			line := 0
			frames := many(func() any { line++; return pyD("filename", "f.py", "line", line, "name", "f") })
			return pyD("segments", pyL(pyD("address", 0, "total_size", 0, "blocks", pyL(pyD("size", 0, "state", "inactive", "frames", frames)))))
		}, stops: true},
	} {
		for _, st := range []pickleStyle{stylePy4, stylePy2, styleCpp} {
			t.Run(c.name+"/"+st.String(), func(t *testing.T) {
				data := writePickle(c.top(), st)
				m := newVM(bytes.NewReader(data), int64(len(data)), false)
				m.budget = 1 << 20
				_, err := m.run()
				held := heldBytes(m)
				t.Logf("%d bytes of input: %d held, %d charged: %v", len(data), held, m.used, err)
				if m.used < held {
					t.Errorf("%d bytes held, %d charged", held, m.used)
				}
				within := m.used <= m.budget+budgetPerByte*int64(len(data))
				if err != nil && !errors.Is(err, ErrLimit) || err == nil && !within {
					t.Errorf("%d bytes of input, %d charged: got %v, want ErrLimit or a decode within the budget", len(data), m.used, err)
				}
				if c.stops && !errors.Is(err, ErrLimit) {
					t.Errorf("%d bytes of input, %d charged: got %v, want ErrLimit", len(data), m.used, err)
				}
			})
		}
	}
}
