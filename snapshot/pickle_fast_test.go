package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// decodeModes decodes a bare pickle three ways: the fast path (which must
// not fall back on data we know), the same machine in generic mode, and
// gopickle.
func decodeModes(t *testing.T, data []byte) (fast, generic, ref *Snapshot) {
	t.Helper()
	var err error
	fast, err = decodeFast(bytes.NewReader(data), int64(len(data)), false)
	if errors.Is(err, errFallback) {
		t.Fatalf("fast path fell back on a real file")
	}
	if err != nil {
		t.Fatalf("fast: %v", err)
	}
	if generic, err = decodeFast(bytes.NewReader(data), int64(len(data)), true); err != nil {
		t.Fatalf("generic: %v", err)
	}
	if ref, err = DecodeReference(bytes.NewReader(data)); err != nil {
		t.Fatalf("reference: %v", err)
	}
	return fast, generic, ref
}

// TestFastMatchesReferenceOnRealFiles decodes every real snapshot with the
// fast path (no fallback allowed), the generic mode and gopickle, and
// requires the three models to be equal.
func TestFastMatchesReferenceOnRealFiles(t *testing.T) {
	for _, f := range testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl") {
		t.Run(testutil.Rel(t, f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fast, generic, ref := decodeModes(t, data)
			if d := diffSnapshots(fast, ref); d != "" {
				t.Errorf("fast vs reference: %s", d)
			}
			if d := diffSnapshots(generic, ref); d != "" {
				t.Errorf("generic vs reference: %s", d)
			}
			if len(fast.Segments) == 0 && fast.Generation != GenFrames {
				t.Errorf("no segments decoded")
			}
		})
	}
}

// TestPicklerStylesAndLayouts writes synthetic snapshots of every layout in
// every pickler style (CPython protocols 2, 4, 5 and PyTorch's C++
// pickler) and requires the fast path to decode them without falling back
// and to agree with gopickle. It also checks a few decoded values against
// the tree that was written, so agreement is not agreement on nothing.
func TestPicklerStylesAndLayouts(t *testing.T) {
	layouts := map[string]synthOpts{
		"timed":   {entries: 1500, segments: 6, extras: true},
		"frames":  {entries: 200, segments: 3, noTime: true},
		"history": {entries: 30, segments: 5, history: true, noTime: true},
		"state":   {segments: 2},
	}
	for name, o := range layouts {
		tree := synthSnapshot(o)
		for _, st := range []pickleStyle{stylePy4, stylePy5, stylePy2, styleCpp} {
			t.Run(name+"/"+st.String(), func(t *testing.T) {
				fast, generic, ref := decodeModes(t, writePickle(tree, st))
				if d := diffSnapshots(fast, ref); d != "" {
					t.Fatalf("fast vs reference: %s", d)
				}
				if d := diffSnapshots(generic, ref); d != "" {
					t.Fatalf("generic vs reference: %s", d)
				}
				want := map[string]Generation{"timed": GenTimed, "frames": GenFrames, "history": GenHistory, "state": GenTimed}[name]
				if name == "state" {
					want = GenFrames
				}
				if fast.Generation != want {
					t.Errorf("generation %q, want %q", fast.Generation, want)
				}
				if len(fast.Segments) != o.segments {
					t.Fatalf("%d segments, want %d", len(fast.Segments), o.segments)
				}
				if o.entries > 0 {
					if n := len(fast.Traces[0]); n != o.entries+1 {
						t.Fatalf("%d entries on device 0, want %d", n, o.entries+1)
					}
					oom := fast.Traces[0][o.entries]
					if oom.Action != ActionOOM || oom.Addr != 95<<20 || oom.Size != 5<<30 {
						t.Errorf("oom entry %+v", oom)
					}
					e := fast.Traces[0][1]
					if e.Action != ActionFreeRequested || e.Addr != 0x7f0000000000+512 || e.Size != 1024 || e.Stream != 1 {
						t.Errorf("entry 1 %+v", e)
					}
					if got := fast.Stacks.StackFrames(fast.Traces[0][1].Stack); len(got) != 4 || got[0].Name != "fn7" || got[1] != (Frame{File: "??", Name: "at::native::op10"}) {
						t.Errorf("entry 1 frames %+v", got)
					}
					if len(fast.Traces) != 3 || len(fast.Traces[1]) != 3 || fast.Traces[2] == nil || len(fast.Traces[2]) != 0 {
						t.Errorf("trace lengths %d", len(fast.Traces))
					}
				}
				b := fast.Segments[1].Blocks[1]
				if b.State != StateInactive || b.Size != 4<<20 || b.Address != fast.Segments[1].Address+2<<20 {
					t.Errorf("segment 1 block 1 %+v (segment at %#x)", b, fast.Segments[1].Address)
				}
				if o.history {
					if b0 := fast.Segments[0].Blocks[0]; b0.RequestedSize != 2<<20-100 || b0.Stack == NoStack {
						t.Errorf("history block %+v: requested_size and stack come from history[0]", b0)
					}
				}
				if o.extras {
					s := fast.Settings
					if !s.Present || s.Conf != "expandable_segments:True" || s.MaxSplitSize != -1 || s.GCThreshold != 0.5 || !s.ExpandableSegments {
						t.Errorf("settings %+v", s)
					}
					if len(fast.Annotations) != 2 || fast.Annotations[1].Stage != "END" {
						t.Errorf("annotations %+v", fast.Annotations)
					}
				}
			})
		}
	}
}

type snapFile struct {
	name string
	data []byte
}

// realSmallFiles reads the real snapshots no larger than maxSize bytes.
func realSnapshotsUpTo(tb testing.TB, maxSize int) []snapFile {
	tb.Helper()
	var out []snapFile
	for _, f := range testutil.RealFiles(tb, "snapshots", "*.pickle", "*.pkl") {
		st, err := os.Stat(f)
		if err != nil {
			tb.Fatal(err)
		}
		if st.Size() > int64(maxSize) {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, snapFile{testutil.Rel(tb, f), data})
	}
	return out
}

// TestUnusualLayouts decodes legal pickles whose layout the role
// prediction does not expect, and requires the public path (fast, with
// its fallback) to agree with gopickle. It also pins which of them the
// fast path handles itself, so a regression to slow fallbacks on common
// shapes shows up.
func TestUnusualLayouts(t *testing.T) {
	base := func() *pyDict { return synthSnapshot(synthOpts{entries: 40, segments: 3}) }
	segs := func(top *pyDict) []any { v, _ := top.get("segments"); return v.(*pyList).items }
	trace0 := func(top *pyDict) *pyList {
		v, _ := top.get("device_traces")
		return v.(*pyList).items[0].(*pyList)
	}
	for _, c := range []struct {
		name     string
		edit     func(top *pyDict)
		fallback bool // the fast path is expected to hand over
	}{
		{"as written", func(*pyDict) {}, false},
		{"blocks list shared by two segments", func(top *pyDict) {
			b, _ := segs(top)[0].(*pyDict).get("blocks")
			segs(top)[1].(*pyDict).set("blocks", b)
		}, true},
		{"block dict in two segments' lists", func(top *pyDict) {
			b0, _ := segs(top)[0].(*pyDict).get("blocks")
			b1, _ := segs(top)[1].(*pyDict).get("blocks")
			b1.(*pyList).items = append(b1.(*pyList).items, b0.(*pyList).items[0])
		}, true},
		{"entry appended twice", func(top *pyDict) {
			tr := trace0(top)
			tr.items = append(tr.items, tr.items[3])
		}, true},
		{"trace shared by two devices", func(top *pyDict) {
			v, _ := top.get("device_traces")
			l := v.(*pyList)
			l.items[2] = l.items[0]
		}, false},
		{"segment appended twice", func(top *pyDict) {
			v, _ := top.get("segments")
			l := v.(*pyList)
			l.items = append(l.items, l.items[0])
		}, false},
		{"one-key dicts", func(top *pyDict) {
			tr := trace0(top)
			tr.items = append(tr.items, pyD("action", "alloc"))
			tr.items[0].(*pyDict).set("frames", pyL(pyD("name", "only"), pyD(), pyD("line", int64(3))))
		}, false},
		{"empty and one-key dict values before frames", func(top *pyDict) {
			for i, e := range trace0(top).items {
				d := e.(*pyDict)
				f, _ := d.get("frames")
				nd := pyD()
				for j, k := range d.keys {
					if k != "frames" {
						nd.set(k, d.vals[j])
					}
				}
				nd.set("extra_info", []any{pyD(), pyD("k", pyL())}[i%2])
				if f != nil {
					nd.set("frames", f)
				}
				trace0(top).items[i] = nd
			}
		}, false},
		{"segment with 1500 keys", func(top *pyDict) {
			s := segs(top)[0].(*pyDict)
			b, _ := s.get("blocks")
			for i := range 1500 {
				s.set(fmt.Sprintf("pad%d", i), int64(i))
			}
			s.set("blocks", b) // moves nothing: keys keep their place
		}, true}, // CPython only: it splits the keys into SETITEMS batches
		{"frames list of 2500 frames", func(top *pyDict) {
			l := pyL()
			for i := range 2500 {
				l.items = append(l.items, pyD("name", fmt.Sprint(i), "filename", "x.py", "line", int64(i)))
			}
			trace0(top).items[1].(*pyDict).set("frames", l)
		}, false},
		{"frame with a bad field in an unused history entry", func(top *pyDict) {
			b := segs(top)[0].(*pyDict)
			bl, _ := b.get("blocks")
			bl.(*pyList).items[1].(*pyDict).set("history", pyL(pyD("real_size", int64(1)), pyD("frames", pyL(pyD("line", "not an int")))))
		}, false},
		{"bad frame used", func(top *pyDict) {
			trace0(top).items[2].(*pyDict).set("frames", pyL(pyD("line", "not an int")))
		}, true},
		{"list holding itself under an unknown key", func(top *pyDict) {
			l := pyL(int64(1))
			l.items = append(l.items, l)
			top.set("loop", l)
		}, false},
		{"settings dict holding itself", func(top *pyDict) {
			d := pyD("PYTORCH_CUDA_ALLOC_CONF", "x")
			d.set("self", d)
			top.set("allocator_settings", d)
		}, false},
		{"top-level list of segments", func(top *pyDict) {
			v, _ := top.get("segments")
			*top = *pyD("segments", v) // replaced below
		}, false},
	} {
		for _, st := range []pickleStyle{stylePy4, styleCpp, styleMarks} {
			if strings.Contains(c.name, "itself") && st != stylePy4 {
				continue // only CPython memoizes before the items, which cycles need
			}
			t.Run(c.name+"/"+st.String(), func(t *testing.T) {
				top := base()
				c.edit(top)
				var tree any = top
				if c.name == "top-level list of segments" {
					tree, _ = top.get("segments")
				}
				data := writePickle(tree, st)
				ref, rerr := DecodeReference(bytes.NewReader(data))
				got, _, err := DecodeBytes(data, DecodeOptions{})
				if (err == nil) != (rerr == nil) {
					t.Fatalf("decoder: %v; reference: %v", err, rerr)
				}
				if err == nil {
					if d := diffSnapshots(got, ref); d != "" {
						t.Fatalf("models differ: %s", d)
					}
				}
				_, ferr := decodeFast(bytes.NewReader(data), int64(len(data)), false)
				fellBack := errors.Is(ferr, errFallback)
				want := c.fallback || st == styleMarks
				if c.name == "segment with 1500 keys" && st == styleCpp {
					want = false // the C++ pickler writes one SETITEMS
				}
				if fellBack != want {
					t.Errorf("fast path fell back: %v, want %v (%v)", fellBack, want, ferr)
				}
			})
		}
	}
}

// TestFastMatchesReferenceOnSampleRun does the same for the snapshots the
// project's generator made for the bundled sample run.
func TestFastMatchesReferenceOnSampleRun(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run", "*.pickle"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample-run snapshots (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fast, _, ref := decodeModes(t, data)
		if d := diffSnapshots(fast, ref); d != "" {
			t.Errorf("%s: fast vs reference: %s", filepath.Base(f), d)
		}
	}
}
