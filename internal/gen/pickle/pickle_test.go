package pickle

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/pickleop"
	"gpureport/internal/testutil"
)

// python returns the python3 interpreter, skipping the test without one.
func python(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		tb.Skip("python3 not installed")
	}
	return p
}

// cpythonDumps runs each Python snippet (which must bind obj) and returns
// pickle.dumps(obj, protocol) for each.
func cpythonDumps(t *testing.T, protocol int, snippets []string) [][]byte {
	t.Helper()
	py := python(t)
	var src strings.Builder
	src.WriteString("import pickle, sys\nS = lambda s: s.encode().decode()\n")
	for _, s := range snippets {
		fmt.Fprintf(&src, "g = {'S': S}\nexec(%q, g)\nsys.stdout.write(pickle.dumps(g['obj'], protocol=%d).hex() + '\\n')\n", s, protocol)
	}
	out, err := exec.Command(py, "-c", src.String()).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("python: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(snippets) {
		t.Fatalf("python printed %d results, want %d", len(lines), len(snippets))
	}
	res := make([][]byte, len(lines))
	for i, l := range lines {
		b, err := hex.DecodeString(l)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = b
	}
	return res
}

// pyCase is a Go value and Python code building the same object graph
// (identity included).
type pyCase struct {
	name string
	v    func() any
	py   string
}

func pyCases() []pyCase {
	many := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = fmt.Sprintf("item-%d", i)
		}
		return out
	}
	return []pyCase{
		{"none", func() any { return nil }, "obj = None"},
		{"small-int", func() any { return 1 }, "obj = 1"},
		{"ints", func() any {
			return NewList(int64(0), 1, 255, 256, 65535, 65536, -1, -256, int64(1<<31-1), int64(1<<31),
				int64(-1<<31), int64(-1<<31-1), int64(1<<40), int64(1<<47+3), int64(1<<63-1), int64(-1<<63),
				uint64(1<<63), ^uint64(0), int64(139686137346048), int64(-1<<40))
		}, "obj = [0, 1, 255, 256, 65535, 65536, -1, -256, 2**31-1, 2**31, -2**31, -2**31-1, 2**40, 2**47+3, 2**63-1, -2**63, 2**63, 2**64-1, 139686137346048, -2**40]"},
		{"big-ints", func() any {
			num := func(s string) *big.Int { x, _ := new(big.Int).SetString(s, 0); return x }
			return NewList(num("0x400000000000000000"), num("-0x400000000000000000"), num("0x10000000000000000"),
				num("-0x8000000000000001"), new(big.Int).Lsh(big.NewInt(1), 2100), big.NewInt(-5), new(big.Int).SetUint64(1<<63))
		}, "obj = [2**70, -(2**70), 2**64, -(2**63)-1, 2**2100, -5, 2**63]"},
		{"floats-bools", func() any { return NewList(0.0, 1.5, -2.25, 1e300, true, false, nil) },
			"obj = [0.0, 1.5, -2.25, 1e300, True, False, None]"},
		{"strings", func() any {
			return NewList("", "a", "é", "ab", strings.Repeat("x", 255), strings.Repeat("y", 256), "ünïcode ✓", "", "a", "é")
		}, "obj = [S(''), S('a'), S('é'), S('ab'), S('x'*255), S('y'*256), S('ünïcode ✓'), S(''), S('a'), S('é')]"},
		{"fresh-equal-strings", func() any { return NewList("frame", "frame", "frame") },
			"obj = [S('frame'), S('frame'), S('frame')]"},
		{"shared", func() any {
			k := NewStr("key")
			d := NewDict(1)
			d.Set(k, 1)
			inner := NewList(d, d)
			return NewList(d, inner, inner, k, k, Tuple{int64(0), int64(0)}, Tuple{int64(0), int64(0)})
		}, "k = S('key'); d = {k: 1}; inner = [d, d]; obj = [d, inner, inner, k, k, tuple([0, 0]), tuple([0, 0])]"},
		{"tuples", func() any {
			return NewList(Tuple{}, Tuple{int64(1)}, Tuple{int64(1), int64(2), int64(3)}, Tuple{int64(1), int64(2), int64(3), int64(4)})
		}, "obj = [(), (1,), (1, 2, 3), (1, 2, 3, 4)]"},
		{"empty-and-single", func() any {
			d := NewDict(1)
			d.Set("a", NewList())
			return NewList(NewDict(0), d, NewList(int64(5)))
		}, "obj = [{}, {S('a'): []}, [5]]"},
		{"dict-1000", func() any {
			d := NewDict(1000)
			for i := 0; i < 1000; i++ {
				d.Set(fmt.Sprintf("k%d", i), int64(i))
			}
			return d
		}, "obj = {S('k%d' % i): i for i in range(1000)}"},
		{"dict-2500", func() any {
			d := NewDict(2500)
			for i := 0; i < 2500; i++ {
				d.Set(fmt.Sprintf("k%d", i), int64(i))
			}
			return d
		}, "obj = {S('k%d' % i): i for i in range(2500)}"},
		{"list-1000", func() any { return NewList(many(1000)...) }, "obj = [S('item-%d' % i) for i in range(1000)]"},
		{"list-1001", func() any { return NewList(many(1001)...) }, "obj = [S('item-%d' % i) for i in range(1001)]"},
		{"list-2000", func() any { return NewList(many(2000)...) }, "obj = [S('item-%d' % i) for i in range(2000)]"},
		{"many-frames", func() any { return NewList(many(40000)...) }, "obj = [S('item-%d' % i) for i in range(40000)]"},
		{"big-string-bypasses-frame", func() any {
			return NewList("head", strings.Repeat("z", 70000), "tail", strings.Repeat("q", 65536))
		}, "obj = [S('head'), S('z'*70000), S('tail'), S('q'*65536)]"},
		{"many-memo", func() any {
			shared := make([]*Str, 300)
			items := make([]any, 0, 600)
			for i := range shared {
				shared[i] = NewStr(fmt.Sprintf("s%03d", i))
				items = append(items, shared[i])
			}
			for i := range shared {
				items = append(items, shared[len(shared)-1-i])
			}
			return NewList(items...)
		}, "sh = [S('s%03d' % i) for i in range(300)]; obj = sh + sh[::-1]"},
	}
}

// TestMatchesCPython compares the writer's bytes with CPython's for small
// objects that exercise every opcode, the memo, batching and framing.
func TestMatchesCPython(t *testing.T) {
	cases := pyCases()
	snippets := make([]string, len(cases))
	for i, c := range cases {
		snippets[i] = c.py
	}
	for _, proto := range []int{2, 3, 4, 5} {
		want := cpythonDumps(t, proto, snippets)
		for i, c := range cases {
			t.Run(fmt.Sprintf("p%d/%s", proto, c.name), func(t *testing.T) {
				got, err := Marshal(c.v(), Options{Protocol: proto})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want[i]) {
					t.Fatalf("bytes differ at %d (got %d bytes, CPython %d)\n got: %s\nwant: %s",
						firstDiff(got, want[i]), len(got), len(want[i]), clip(got), clip(want[i]))
				}
			})
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func clip(b []byte) string {
	if len(b) > 80 {
		return hex.EncodeToString(b[:80]) + "..."
	}
	return hex.EncodeToString(b)
}

// TestRealSnapshotsRoundTrip loads every real snapshot (all written by
// CPython's pickle.dump, protocol 4) and writes it back: the bytes must be
// identical, which checks key order handling, the identity memo, string
// singletons, int widths, batching and framing against real files.
func TestRealSnapshotsRoundTrip(t *testing.T) {
	files := testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")
	for _, f := range files {
		t.Run(testutil.Rel(t, f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			v, st, err := Load(data)
			if err != nil {
				t.Fatal(err)
			}
			if st.Protocol != 4 {
				t.Fatalf("protocol %d", st.Protocol)
			}
			got, err := Marshal(v, Options{Protocol: 4})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("round trip differs at byte %d of %d (got %d bytes)", firstDiff(got, data), len(data), len(got))
			}
		})
	}
}

// TestStreamingEqualsTree writes the same value with the streaming calls
// and as a tree.
func TestStreamingEqualsTree(t *testing.T) {
	for _, n := range []int{0, 1, 2, 999, 1000, 1001, 2000, 3500} {
		for _, style := range []Options{{Protocol: 4}, {Protocol: 2}, {Protocol: 2, Style: TorchCpp}} {
			t.Run(fmt.Sprintf("%s-p%d-n%d", style.Style, style.Protocol, n), func(t *testing.T) {
				key := NewStr("action")
				frames := NewList(NewDict(0))
				tree := NewList()
				for i := 0; i < n; i++ {
					d := NewDict(3)
					d.Set(key, fmt.Sprintf("v%d", i%7))
					d.Set("addr", uint64(139686137346048+i*512))
					d.Set("frames", frames)
					tree.Append(d)
				}
				top := NewDict(1)
				top.Set("device_traces", tree)
				want, err := Marshal(top, style)
				if err != nil {
					t.Fatal(err)
				}

				var buf bytes.Buffer
				e, err := NewEncoder(&buf, style)
				if err != nil {
					t.Fatal(err)
				}
				e.CountRefs(top)
				e.Start()
				td := e.BeginDict(1)
				e.Value("device_traces")
				l := e.BeginList(n)
				for i := 0; i < n; i++ {
					d := e.BeginDict(3)
					e.Value(key)
					e.Value(fmt.Sprintf("v%d", i%7))
					e.Next(&d)
					e.Value("addr")
					e.Value(uint64(139686137346048 + i*512))
					e.Next(&d)
					e.Value("frames")
					e.Value(frames)
					e.Next(&d)
					e.End(&d)
					e.Next(&l)
				}
				e.End(&l)
				e.Next(&td)
				e.End(&td)
				if err := e.Finish(); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Fatalf("streamed bytes differ at %d", firstDiff(buf.Bytes(), want))
				}
				if e.Written() != int64(len(want)) {
					t.Errorf("Written() = %d, want %d", e.Written(), len(want))
				}
			})
		}
	}
}

// TestStreamingCountMismatch checks that a container with fewer or more
// items than declared is an error, not a corrupt pickle.
func TestStreamingCountMismatch(t *testing.T) {
	for _, tc := range []struct {
		declared, given int
	}{{2, 1}, {1, 2}, {0, 1}} {
		var buf bytes.Buffer
		e, _ := NewEncoder(&buf, Options{})
		e.Start()
		l := e.BeginList(tc.declared)
		for i := 0; i < tc.given; i++ {
			e.Value(int64(i))
			e.Next(&l)
		}
		e.End(&l)
		if err := e.Finish(); err == nil {
			t.Errorf("declared %d, gave %d: no error", tc.declared, tc.given)
		}
	}
}

func TestEncoderRejects(t *testing.T) {
	if _, err := NewEncoder(&bytes.Buffer{}, Options{Protocol: 1}); err == nil {
		t.Error("protocol 1 accepted")
	}
	if _, err := NewEncoder(&bytes.Buffer{}, Options{Protocol: 4, Style: TorchCpp}); err == nil {
		t.Error("C++ style with protocol 4 accepted")
	}
	if _, err := Marshal(struct{}{}, Options{}); err == nil {
		t.Error("struct value accepted")
	}
	cyc := NewList()
	cyc.Append(cyc)
	if _, err := Marshal(cyc, Options{Protocol: 2, Style: TorchCpp}); err == nil {
		t.Error("cycle accepted by the C++ style")
	}
	// CPython handles a self-referencing list through the memo.
	b, err := Marshal(cyc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if l := v.(*List); len(l.Items) != 1 || l.Items[0] != v {
		t.Error("self-referencing list not restored")
	}
}

// TestCppStyle checks the C++ pickler form: protocol 2, no FRAME, no
// MEMOIZE, strings once by value, shared containers BINPUT after their
// contents, 8-byte LONG1, and that CPython loads it to the same object as
// the CPython-style pickle.
func TestCppStyle(t *testing.T) {
	frame := NewDict(3)
	frame.Set("name", "forward")
	frame.Set("filename", "/home/user/proj/model.py")
	frame.Set("line", int64(88))
	frames := NewList(frame, frame)
	top := NewDict(4)
	top.Set("a", frames)
	top.Set("b", frames)
	top.Set("addr", uint64(139686137346048))
	top.Set("names", NewList("forward", "forward", "x"))
	b, err := Marshal(top, Options{Protocol: 2, Style: TorchCpp})
	if err != nil {
		t.Fatal(err)
	}
	_, st, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if st.Protocol != 2 || st.Ops[pickleop.Frame] != 0 || st.Ops[pickleop.Memoize] != 0 || st.Ops[pickleop.ShortBinUnicode] != 0 {
		t.Errorf("protocol %d, %d FRAME, %d MEMOIZE, %d SHORT_BINUNICODE", st.Protocol, st.Ops[pickleop.Frame], st.Ops[pickleop.Memoize], st.Ops[pickleop.ShortBinUnicode])
	}
	// Strings: a, b, addr, names, name, forward, filename, path, line, x.
	if got := st.Ops[pickleop.BinUnicode]; got != 10 {
		t.Errorf("%d BINUNICODE, want 10 (each distinct string once)", got)
	}
	// Shared: frame (twice in frames) and frames (twice in top).
	if got := st.Ops[pickleop.BinPut] - st.Ops[pickleop.BinUnicode]; got != 2 {
		t.Errorf("%d container BINPUTs, want 2", got)
	}
	if !bytes.Contains(b, []byte{pickleop.Long1, 8}) {
		t.Error("address not written as an 8-byte LONG1")
	}
	py := python(t)
	cp, err := Marshal(top, Options{Protocol: 4})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, c := filepath.Join(dir, "cpp.pkl"), filepath.Join(dir, "cpython.pkl")
	os.WriteFile(a, b, 0o644)
	os.WriteFile(c, cp, 0o644)
	out, err := exec.Command(py, "-c", `import pickle,sys
a=pickle.load(open(sys.argv[1],'rb')); c=pickle.load(open(sys.argv[2],'rb'))
assert a == c, (a, c)
assert a['a'] is a['b'] and a['a'][0] is a['a'][1]
print('ok')`, a, c).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("python: %v\n%s", err, out)
	}
}

// TestMarksStyle checks the Marks form: every list and dict built after
// its items (MARK ... LIST/DICT), shared containers memoized after they
// are built, and the same objects as CPython's pickle, identity included.
func TestMarksStyle(t *testing.T) {
	frame := NewDict(2)
	frame.Set("name", "forward")
	frame.Set("line", int64(88))
	frames := NewList(frame, frame)
	top := NewDict(3)
	top.Set("a", frames)
	top.Set("b", frames)
	top.Set("empty", NewList())
	b, err := Marshal(top, Options{Protocol: 2, Style: Marks})
	if err != nil {
		t.Fatal(err)
	}
	_, st, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if st.Ops[pickleop.EmptyDict]+st.Ops[pickleop.EmptyList]+st.Ops[pickleop.SetItems]+st.Ops[pickleop.Appends] != 0 || st.Ops[pickleop.List] != 2 || st.Ops[pickleop.Dict] != 2 {
		t.Errorf("opcodes: %v", st.Ops)
	}
	// Shared: frame (twice in frames) and frames (twice in top).
	if got := st.Ops[pickleop.BinPut] - st.Ops[pickleop.BinUnicode]; got != 2 {
		t.Errorf("%d container BINPUTs, want 2", got)
	}
	if _, err := NewEncoder(&bytes.Buffer{}, Options{Protocol: 4, Style: Marks}); err == nil {
		t.Error("marks style at protocol 4: no error")
	}
	e, err := NewEncoder(&bytes.Buffer{}, Options{Protocol: 2, Style: Marks})
	if err != nil {
		t.Fatal(err)
	}
	e.Start()
	e.BeginList(0)
	if e.Finish() == nil {
		t.Error("marks style streamed a list")
	}
	py := python(t)
	p := filepath.Join(t.TempDir(), "marks.pkl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "-c", `import pickle,sys
a=pickle.load(open(sys.argv[1],'rb'))
assert a == {'a': [{'name': 'forward', 'line': 88}]*2, 'b': [{'name': 'forward', 'line': 88}]*2, 'empty': []}, a
assert a['a'] is a['b'] and a['a'][0] is a['a'][1]
print('ok')`, p).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("python: %v\n%s", err, out)
	}
}

func TestLoadRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "no STOP"},
		{"global", []byte("\x80\x04cos\nsystem\n."), "construct a class"},
		{"reduce", []byte("\x80\x02N)R."), "construct a class"},
		{"truncated-frame", []byte("\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00N."), "FRAME of 16 bytes"},
		{"straddle", []byte("\x80\x04\x95\x03\x00\x00\x00\x00\x00\x00\x00]\x94K\x01a."), "crosses the end"},
		{"trailing", []byte("\x80\x04N.N"), "trailing"},
		{"bad-get", []byte("\x80\x04h\x05."), "not defined"},
		{"underflow", []byte("\x80\x04a."), "underflow"},
		{"wide-int", []byte("\x80\x04\x8a\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01."), "wider than 64"},
		{"bad-utf8", []byte("\x80\x04\x8c\x01\xff."), "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Load(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// FuzzLoad checks that Load never panics and that whatever it accepts
// (after converting strings) the writer writes back into something Load
// reads to the same structure.
func FuzzLoad(f *testing.F) {
	for _, c := range pyCases() {
		if b, err := Marshal(c.v(), Options{}); err == nil && len(b) < 1<<16 {
			f.Add(b)
		}
	}
	for _, name := range []string{"edge-cases/empty_1dev.pickle", "edge-cases/tiny_2dev_expandable_maxsplit128.pickle",
		"edge-cases/tiny_state_only_voxelflex.pickle", "torch2.3-2.4-allocator-settings/sketchkv_my_snapshot.pickle"} {
		if testing.Short() {
			break
		}
		dir := os.Getenv("GPUREPORT_REAL_DATA")
		if dir == "" {
			dir = filepath.Join("..", "..", "..", "..", "shared", "testdata-real")
		}
		if b, err := os.ReadFile(filepath.Join(dir, "snapshots", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _, err := Load(data)
		if err != nil {
			return
		}
		b, err := Marshal(v, Options{})
		if err != nil {
			return // e.g. a tuple nested past maxDepth
		}
		v2, _, err := Load(b)
		if err != nil {
			t.Fatalf("re-encoded pickle does not load: %v", err)
		}
		b2, err := Marshal(v2, Options{})
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("second round trip differs (err %v)", err)
		}
	})
}

func BenchmarkEncodeTrace(b *testing.B) {
	keys := []*Str{NewStr("action"), NewStr("addr"), NewStr("size"), NewStr("stream"), NewStr("time_us"), NewStr("frames")}
	alloc := NewStr("alloc")
	frames := make([]*List, 64)
	for i := range frames {
		l := NewList()
		for j := 0; j < 40; j++ {
			d := NewDict(3)
			d.Set("name", fmt.Sprintf("fn%d", j))
			d.Set("filename", "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py")
			d.Set("line", int64(1700+j))
			l.Append(d)
		}
		frames[i] = l
	}
	const n = 100000
	b.SetBytes(0)
	for b.Loop() {
		var cw countWriter
		e, _ := NewEncoder(&cw, Options{})
		e.Start()
		l := e.BeginList(n)
		for i := 0; i < n; i++ {
			d := e.BeginDict(6)
			e.Value(keys[0])
			e.Value(alloc)
			e.Next(&d)
			e.Value(keys[1])
			e.Value(uint64(139686137346048 + i*512))
			e.Next(&d)
			e.Value(keys[2])
			e.Value(int64(4096 + i%7*512))
			e.Next(&d)
			e.Value(keys[3])
			e.Value(int64(0))
			e.Next(&d)
			e.Value(keys[4])
			e.Value(int64(1772442000000000 + i*37))
			e.Next(&d)
			e.Value(keys[5])
			e.Value(frames[i%len(frames)])
			e.Next(&d)
			e.End(&d)
			e.Next(&l)
		}
		e.End(&l)
		if err := e.Finish(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(cw.n)/float64(n), "bytes/entry")
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// TestBytesAndSharedTuples compares the writer's bytes objects and shared
// tuples with CPython's (protocols 3 to 5; protocol 2 has no bytes opcode),
// and checks that Load gives them back.
func TestBytesAndSharedTuples(t *testing.T) {
	cases := []pyCase{
		{"bytes", func() any {
			b := &Bytes{B: []byte("segments")}
			return NewList(b, b, &Bytes{B: []byte{}}, &Bytes{B: bytes.Repeat([]byte("x"), 300)}, &Bytes{B: bytes.Repeat([]byte("y"), 70000)})
		}, "b = b'segments'; obj = [b, b, b'', b'x'*300, b'y'*70000]"},
		{"shared-tuples", func() any {
			tp := &TupleObj{Items: []any{NewStr("f.py"), int64(3)}}
			four := &TupleObj{Items: []any{int64(1), int64(2), int64(3), int64(4)}}
			return NewList(tp, tp, four, four, &TupleObj{})
		}, "tp = (S('f.py'), 3); four = (1, 2, 3, 4); obj = [tp, tp, four, four, ()]"},
	}
	snippets := make([]string, len(cases))
	for i, c := range cases {
		snippets[i] = c.py
	}
	for _, proto := range []int{3, 4, 5} {
		want := cpythonDumps(t, proto, snippets)
		for i, c := range cases {
			t.Run(fmt.Sprintf("p%d/%s", proto, c.name), func(t *testing.T) {
				got, err := Marshal(c.v(), Options{Protocol: proto})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want[i]) {
					t.Fatalf("bytes differ at %d\n got: %s\nwant: %s", firstDiff(got, want[i]), clip(got), clip(want[i]))
				}
				if _, _, err := Load(got); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
	if _, err := Marshal(&Bytes{B: []byte("x")}, Options{Protocol: 2}); err == nil {
		t.Error("bytes at protocol 2: no error")
	}
}

// TestIntStyles writes every kind of int with each IntStyle and protocol:
// CPython must read the numbers back (when python3 is there), and so must
// Load; the styles must use only their opcodes.
func TestIntStyles(t *testing.T) {
	var ints pyCase
	for _, c := range pyCases() {
		if c.name == "ints" {
			ints = c
		}
	}
	want, _, err := Load(mustMarshal(t, ints.v(), Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, style := range []IntStyle{IntsLong1, IntsLong4} {
		for _, proto := range []int{2, 3, 4, 5} {
			t.Run(fmt.Sprintf("style%d/p%d", style, proto), func(t *testing.T) {
				data := mustMarshal(t, ints.v(), Options{Protocol: proto, Ints: style})
				got, st, err := Load(data)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got.(*List).Items) != fmt.Sprint(want.(*List).Items) {
					t.Fatalf("read back %v, want %v", got.(*List).Items, want.(*List).Items)
				}
				short := st.Ops[pickleop.BinInt1] + st.Ops[pickleop.BinInt2] + st.Ops[pickleop.BinInt]
				if short != 0 || (style == IntsLong1) != (st.Ops[pickleop.Long1] > 0) || (style == IntsLong4) != (st.Ops[pickleop.Long4] > 0) {
					t.Fatalf("opcodes: %d short ints, %d LONG1, %d LONG4", short, st.Ops[pickleop.Long1], st.Ops[pickleop.Long4])
				}
				if _, err := exec.LookPath("python3"); err != nil {
					return
				}
				src := fmt.Sprintf("import pickle, sys\nobj = pickle.loads(bytes.fromhex(%q))\n%s\nsys.exit(0 if obj == want else 1)\n",
					hex.EncodeToString(data), strings.Replace(ints.py, "obj =", "want =", 1))
				if out, err := exec.Command("python3", "-c", src).CombinedOutput(); err != nil {
					t.Fatalf("CPython reads other numbers: %v %s", err, out)
				}
			})
		}
	}
}

func mustMarshal(t *testing.T, v any, opt Options) []byte {
	t.Helper()
	b, err := Marshal(v, opt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLoadSparseMemo checks that memo indexes far past the input's length
// (LONG_BINPUT of 2^26-1 and of 5 in an 18-byte pickle) are read back and
// cost no array of that size.
func TestLoadSparseMemo(t *testing.T) {
	// PROTO 4, NONE, LONG_BINPUT 2^26-1, POP, NEWTRUE, BINPUT 5, POP,
	// LONG_BINGET 2^26-1, BINGET 5, TUPLE2, STOP.
	data := []byte("\x80\x04Nr\xff\xff\xff\x030\x88q\x050j\xff\xff\xff\x03h\x05\x86.")
	l := loader{data: data, st: &Stats{}}
	v, err := l.run()
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := v.(Tuple); !ok || len(got) != 2 || got[0] != nil || got[1] != true {
		t.Fatalf("loaded %#v, want (None, True)", v)
	}
	if len(l.memo) > len(data)+1 || len(l.sparse) != 1 {
		t.Errorf("memo array of %d entries and %d sparse ones, want at most %d and 1", len(l.memo), len(l.sparse), len(data)+1)
	}
}
