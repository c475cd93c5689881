package pickleop

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// walkCases are pickles with their opcode counts as CPython's
// pickletools.genops counts them (the first five are pickle.dumps of
// Python values at protocols 0 to 4; "crafted" holds the opcodes no
// value of those writes).
var walkCases = []struct {
	name string
	data string
	ops  int
}{
	{"p0-list", "(lp0\nI1\naI22\naVx\np1\naF1.5\naNaI01\naL1180591620717411303424L\nac_codecs\nencode\np2\n(Vby\np3\nVlatin1\np4\ntp5\nRp6\na.", 31},
	{"p1-dict", "}q\x00(X\x01\x00\x00\x00aq\x01K\x01X\x01\x00\x00\x00bq\x02]q\x03(K\x01K\x02L1099511627776L\neX\x01\x00\x00\x00cq\x04(K\x01K\x02K\x03K\x04tq\x05u.", 26},
	{"p2-global", "\x80\x02ccollections\nOrderedDict\nq\x00)Rq\x01X\x01\x00\x00\x00aq\x02K\x01s.", 11},
	{"p3-bytes", "\x80\x03]q\x00(B\x03\x00\x00\x00xxxq\x01C\x01yq\x02}q\x03(X\x01\x00\x00\x00kq\x04J\xfb\xff\xff\xffX\x01\x00\x00\x00jq\x05Jp\x11\x01\x00ue.", 20},
	{"p4-frame", "\x80\x04\x95N\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x06frames\x94]\x94(}\x94(\x8c\x08filename\x94\x8c\x04a.py\x94\x8c\x04line\x94K\x01uh\x03h\x03h\x03h\x03e\x8c\x01s\x94\x8f\x94(K\x01K\x02\x90\x8c\x01f\x94(K\x03\x91\x94u.", 42},
	{"crafted", "\x80\x04\x8d\x03\x00\x00\x00\x00\x00\x00\x00abc\x8e\x02\x00\x00\x00\x00\x00\x00\x00xy\x82\x01\x83\x01\x00\x84\x01\x00\x00\x00(S'a'\nVb\nF1.5\nL5L\np1\ng1\nPid\nQiim\ncls\n201N.", 21},
	{"p5-long4", "\x80\x05\x96\x03\x00\x00\x00\x00\x00\x00\x00abc\x8b\x2c\x01\x00\x00" + strings.Repeat("\x00", 300) + "\x88\x89.", 6},
	{"gets", "\x80\x04](h\x00h\x01h\x02h\x03h\x04h\x05h\x06h\x07h\x08j\x09\x00\x00\x00h\x0ae.", 16},
}

func TestWalkCountsTheOpcodes(t *testing.T) {
	for _, tt := range walkCases {
		t.Run(tt.name, func(t *testing.T) {
			// Bytes after the STOP are not the pickle's.
			data := []byte(tt.data + "trailing")
			ops, end, err := Walk(data)
			if err != nil {
				t.Fatal(err)
			}
			if ops != tt.ops || end != len(tt.data) {
				t.Fatalf("Walk = %d opcodes, end %d; want %d, %d", ops, end, tt.ops, len(tt.data))
			}
		})
	}
}

func TestWalkRefuses(t *testing.T) {
	long := make([]byte, 9)
	long[0] = BinBytes8
	binary.LittleEndian.PutUint64(long[1:], 1<<62)
	tests := []struct {
		name, data, want string
	}{
		{"no stop", "\x80\x04K\x01", "offset 4: the pickle ends without STOP"},
		{"empty", "", "offset 0: the pickle ends without STOP"},
		{"unknown opcode", "\x80\x04\xff.", "offset 2: 0xff: no protocol defines this opcode"},
		{"short argument", "\x80\x04\x8c\x05ab.", "offset 2: SHORT_BINUNICODE (0x8c): argument past the end"},
		{"fixed argument cut", "\x80\x04J\x01\x00", "offset 2: BININT (0x4a): argument past the end"},
		{"negative length", "T\xff\xff\xff\xff.", "offset 0: BINSTRING (0x54): negative length -1"},
		{"huge length", string(long) + ".", "offset 0: BINBYTES8 (0x8e): argument past the end"},
		{"no newline", "\x80\x02cos\nsystem", "offset 2: GLOBAL (0x63): argument past the end"},
		{"cut in a run of gets", "h\x00h\x01h\x02h", "offset 6: BINGET (0x68): argument past the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Walk([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Walk error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestWalkRealSnapshots walks every real snapshot that is a bare pickle
// to its end: pickle.dump writes nothing after the STOP.
func TestWalkRealSnapshots(t *testing.T) {
	walked := 0
	for _, p := range testutil.RealFiles(t, "snapshots") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte{Proto}) {
			continue // gzip, zip (torch.save), JSON
		}
		walked++
		ops, end, err := Walk(data)
		if err != nil || end != len(data) || ops < 10 {
			t.Errorf("%s: Walk = %d opcodes, end %d of %d, %v", testutil.Rel(t, p), ops, end, len(data), err)
		}
	}
	if walked < 10 {
		t.Fatalf("only %d real snapshots are bare pickles", walked)
	}
}

// FuzzWalk seeds from the cases above and the real snapshots (their
// first 64 KiB, and the small ones whole).
func FuzzWalk(f *testing.F) {
	for _, tt := range walkCases {
		f.Add([]byte(tt.data))
	}
	for _, p := range testutil.RealFiles(f, "snapshots", "*.pickle", "*.pkl") {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 64<<10)])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ops, end, err := Walk(data)
		if end > len(data) || ops > len(data) {
			t.Fatalf("Walk = %d opcodes, end %d, past %d bytes", ops, end, len(data))
		}
		if err == nil && (end == 0 || data[end-1] != Stop) {
			t.Fatalf("Walk ended at %d, not after a STOP", end)
		}
	})
}
