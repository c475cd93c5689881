package layout

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/gen/alloc"
	"gpureport/internal/gen/pickle"
	"gpureport/snapshot"
)

// fixture builds a small allocator state with every block state, a
// traceback-less block, an expandable-free mix of pools and a trace that
// starts with frees of evicted allocations.
func fixture(t *testing.T, cfg alloc.Config) *alloc.Allocator {
	t.Helper()
	if cfg.Capacity == 0 {
		cfg.Capacity = 1 << 30
	}
	if cfg.MaxEntries == 0 {
		cfg.MaxEntries = 12
	}
	a := alloc.New(cfg)
	user := &Frame{Name: "train_step", File: "/home/user/proj/train.py", Line: 57}
	lib := &Frame{Name: "_call_impl", File: "/opt/conda/lib/python3.11/site-packages/torch/nn/modules/module.py", Line: 1750}
	cpp := &Frame{Name: "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, CUstream_st*)", File: "CUDACachingAllocator.cpp"}
	interp1 := &Frame{Name: "_PyEval_EvalFrameDefault", File: "??"}
	interp2 := &Frame{Name: "_PyEval_EvalFrameDefault", File: "??"} // same text, another call site
	id := uint64(0)
	ctx := func(fr ...*Frame) *Context {
		id++
		return &Context{ID: id, Frames: fr}
	}
	a.SetRecording(false)
	pre, _ := a.Malloc(3<<20, 0, nil) // allocated before recording: no frames
	a.SetRecording(true)
	var live []*alloc.Block
	for i := 0; i < 6; i++ {
		a.SetTime(1772442000000000 + int64(i)*1000)
		b, err := a.Malloc(int64(1000+i*300000), 0, ctx(cpp, interp1, lib, interp2, user))
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, b)
	}
	a.Free(live[1], ctx(lib, user))
	a.Free(live[4], ctx(user))
	pend, _ := a.Malloc(12<<20, 0, ctx(cpp, user))
	a.SetTime(1772442000100000)
	a.FreeAfter(pend, ctx(user), 1772442000200000)
	_ = pre
	return a
}

// decodeSnapshot decodes data, a snapshot in any container, with the
// production decoder. (The fast decoder is checked against gopickle in
// ingest's own tests: gopickle is linked into tests only, not reachable
// from here.)
func decodeSnapshot(t *testing.T, data []byte) *snapshot.Snapshot {
	t.Helper()
	s, _, err := snapshot.Decode(bytes.NewReader(data), int64(len(data)), snapshot.DecodeOptions{})
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return s
}

// checkInvariants applies the rules every real snapshot obeys.
func checkInvariants(t *testing.T, s *snapshot.Snapshot) {
	t.Helper()
	var prevEnd uint64
	for i, seg := range s.Segments {
		if seg.Address < prevEnd {
			t.Fatalf("segment %d at %#x overlaps or is out of order", i, seg.Address)
		}
		prevEnd = seg.Address + uint64(seg.TotalSize)
		var total, allocd, active, req int64
		next := seg.Address
		for j, b := range seg.Blocks {
			if b.Address != next {
				t.Fatalf("segment %d block %d at %#x, want %#x", i, j, b.Address, next)
			}
			if b.Address%512 != 0 || b.Size%512 != 0 {
				t.Fatalf("segment %d block %d not 512-aligned", i, j)
			}
			next += uint64(b.Size)
			total += b.Size
			if b.State == snapshot.StateActiveAllocated {
				allocd += b.Size
			}
			if b.State.Active() {
				active += b.Size
				req += b.RequestedSize
			}
		}
		if total != seg.TotalSize || allocd != seg.AllocatedSize || active != seg.ActiveSize || req != seg.RequestedSize {
			t.Fatalf("segment %d: blocks sum to %d/%d/%d/%d, segment says %d/%d/%d/%d", i,
				total, allocd, active, req, seg.TotalSize, seg.AllocatedSize, seg.ActiveSize, seg.RequestedSize)
		}
		switch seg.Pool {
		case snapshot.PoolSmall:
			if !seg.Expandable && seg.TotalSize != alloc.SmallBuffer {
				t.Fatalf("small segment of %d bytes", seg.TotalSize)
			}
			for _, b := range seg.Blocks {
				if b.State.Active() && b.Size > alloc.SmallSize {
					t.Fatalf("small-pool block of %d bytes", b.Size)
				}
			}
		case snapshot.PoolLarge:
			if !seg.Expandable && seg.TotalSize%alloc.RoundLarge != 0 {
				t.Fatalf("large segment of %d bytes", seg.TotalSize)
			}
		}
	}
}

func build(t *testing.T, opt Options, cfg alloc.Config) any {
	a := fixture(t, cfg)
	b := NewBuilder(opt)
	return b.Build([]Device{{Alloc: a, Trace: a.Trace()}}, Settings{Conf: "expandable_segments:False", MaxSplitSize: -1}, []Annotation{
		{Stage: "START", Name: "Optimizer.step#AdamW.step", TimeUS: 1772442000001000},
		{Stage: "END", Name: "Optimizer.step#AdamW.step", TimeUS: 1772442000002000},
	})
}

func TestShapesDecode(t *testing.T) {
	full := Options{Format: Timed, AllocatorSettings: true, ExternalAnnotations: true, CompileContext: true, UserMetadata: true, GraphCaptureKey: true, Devices: 2}
	for _, tc := range []struct {
		name string
		opt  Options
		cfg  alloc.Config
		file FileOptions
		gen  snapshot.Generation
		cont snapshot.Container
	}{
		{"timed-p4", full, alloc.Config{}, FileOptions{Protocol: 4}, snapshot.GenTimed, snapshot.ContainerPickle},
		{"timed-p5", full, alloc.Config{}, FileOptions{Protocol: 5}, snapshot.GenTimed, snapshot.ContainerPickle},
		{"timed-p2", full, alloc.Config{}, FileOptions{Protocol: 2}, snapshot.GenTimed, snapshot.ContainerPickle},
		{"timed-2.2", Options{Format: Timed}, alloc.Config{}, FileOptions{}, snapshot.GenTimed, snapshot.ContainerPickle},
		{"cpp", Options{Format: Timed, Cpp: true}, alloc.Config{}, FileOptions{Cpp: true}, snapshot.GenTimed, snapshot.ContainerPickle},
		{"frames", Options{Format: Frames, Devices: 4}, alloc.Config{}, FileOptions{}, snapshot.GenFrames, snapshot.ContainerPickle},
		{"history", Options{Format: History}, alloc.Config{History: true}, FileOptions{}, snapshot.GenHistory, snapshot.ContainerPickle},
		{"segments-list", Options{Format: SegmentsList}, alloc.Config{}, FileOptions{}, snapshot.GenSegmentsList, snapshot.ContainerPickle},
		{"gzip", full, alloc.Config{}, FileOptions{Container: Gzip}, snapshot.GenTimed, snapshot.ContainerGzip},
		{"zip", full, alloc.Config{}, FileOptions{Container: Zip}, snapshot.GenTimed, snapshot.ContainerZip},
		{"expandable", full, alloc.Config{Expandable: true}, FileOptions{}, snapshot.GenTimed, snapshot.ContainerPickle},
		{"max-split", full, alloc.Config{MaxSplitSize: 8 << 20}, FileOptions{}, snapshot.GenTimed, snapshot.ContainerPickle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := Encode(build(t, tc.opt, tc.cfg), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			s, c, err := snapshot.Decode(bytes.NewReader(data), int64(len(data)), snapshot.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c != tc.cont || s.Generation != tc.gen {
				t.Errorf("container %s generation %s, want %s %s", c, s.Generation, tc.cont, tc.gen)
			}
			decodeSnapshot(t, data)
			checkInvariants(t, s)
			if len(s.Segments) < 2 {
				t.Errorf("%d segments", len(s.Segments))
			}
			if tc.gen == snapshot.GenSegmentsList {
				return
			}
			tr := s.Traces[0]
			if len(tr) != 12 {
				t.Fatalf("%d trace entries, want the ring's 12", len(tr))
			}
			if tr[0].Action != snapshot.ActionFreeRequested && tr[0].Action != snapshot.ActionFreeCompleted && tr[0].Action != snapshot.ActionAlloc {
				t.Errorf("trace starts with %s", tr[0].Action)
			}
			if want := max(tc.opt.Devices, 1); len(s.Traces) != want {
				t.Errorf("%d device_traces, want %d", len(s.Traces), want)
			}
			var pending, noFrames int
			for _, seg := range s.Segments {
				for _, b := range seg.Blocks {
					if b.State == snapshot.StateActivePendingFree {
						pending++
					}
					if b.State == snapshot.StateActiveAllocated && b.Stack == snapshot.NoStack {
						noFrames++
					}
				}
			}
			if pending != 1 || noFrames != 1 {
				t.Errorf("%d pending-free blocks, %d live blocks without frames; want 1 and 1", pending, noFrames)
			}
			if tc.opt.AllocatorSettings && (!s.Settings.Present || s.Settings.MaxSplitSize != -1) {
				t.Errorf("settings %+v", s.Settings)
			}
			// The user frame survives the round trip.
			found := false
			for _, f := range s.Stacks.Frames {
				if f.File == "/home/user/proj/train.py" && f.Line == 57 && f.Name == "train_step" {
					found = true
				}
			}
			if !found {
				t.Error("frame train.py:57 missing")
			}
		})
	}
}

// TestSharing checks the object sharing real snapshots have: one frame
// dict per frame, one frames list per traceback (block and alloc event
// share it; a free's two events share theirs), one empty list, and
// distinct dicts for two frames with equal text.
func TestSharing(t *testing.T) {
	tree := build(t, Options{Format: Timed, Devices: 1}, alloc.Config{MaxEntries: 100})
	data, err := pickle.Marshal(tree, pickle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := pickle.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	top := v.(*pickle.Dict)
	segsV, _ := top.Get("segments")
	trV, _ := top.Get("device_traces")
	tr := trV.(*pickle.List).Items[0].(*pickle.List).Items
	lists := map[*pickle.List]int{}
	dicts := map[*pickle.Dict]bool{}
	var empties []*pickle.List
	blockLists := map[*pickle.List]bool{}
	for _, sv := range segsV.(*pickle.List).Items {
		sd := sv.(*pickle.Dict)
		bl, _ := sd.Get("blocks")
		for _, bv := range bl.(*pickle.List).Items {
			fr, _ := bv.(*pickle.Dict).Get("frames")
			l := fr.(*pickle.List)
			if len(l.Items) == 0 {
				empties = append(empties, l)
			} else {
				blockLists[l] = true
			}
		}
	}
	for i := 1; i < len(empties); i++ {
		if empties[i] != empties[0] {
			t.Fatal("empty frames lists are not one shared list")
		}
	}
	var prev *pickle.Dict
	for _, ev := range tr {
		e := ev.(*pickle.Dict)
		fr, ok := e.Get("frames")
		if !ok {
			continue
		}
		l := fr.(*pickle.List)
		lists[l]++
		for _, f := range l.Items {
			dicts[f.(*pickle.Dict)] = true
		}
		act, _ := e.Get("action")
		if s, _ := pickle.AsString(act); s == "free_completed" && prev != nil {
			pf, _ := prev.Get("frames")
			if pf.(*pickle.List) != l {
				t.Error("free_requested and free_completed do not share their frames list")
			}
		}
		if s, _ := pickle.AsString(act); s == "alloc" && blockLists[l] {
			delete(blockLists, l)
		}
		prev = e
	}
	if len(blockLists) > 0 {
		t.Errorf("%d live blocks whose frames list is not their alloc event's", len(blockLists))
	}
	// 5 distinct frame objects: cpp, interp1, lib, interp2, user.
	if len(dicts) != 5 {
		t.Errorf("%d distinct frame dicts, want 5", len(dicts))
	}
}

// TestCPythonLoads checks that CPython reads every shape and that what it
// reads re-pickles to the same bytes (protocols 2, 4 and 5).
func TestCPythonLoads(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	var files []string
	for i, opt := range []Options{
		{Format: Timed, AllocatorSettings: true, ExternalAnnotations: true, CompileContext: true, UserMetadata: true, Devices: 2},
		{Format: Frames},
		{Format: History},
		{Format: SegmentsList},
	} {
		for _, proto := range []int{2, 4, 5} {
			cfg := alloc.Config{History: opt.Format == History}
			data, err := Encode(build(t, opt, cfg), FileOptions{Protocol: proto})
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, fmt.Sprintf("s%d-p%d.pickle", i, proto))
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	script := `import pickle, sys
for f in sys.argv[1:]:
    data = open(f, 'rb').read()
    obj = pickle.loads(data)
    assert pickle.dumps(obj, protocol=data[1]) == data, f
print('ok')`
	out, err := exec.Command(py, append([]string{"-c", script}, files...)...).CombinedOutput()
	if err != nil || !bytes.Equal(bytes.TrimSpace(out), []byte("ok")) {
		t.Fatalf("python: %v\n%s", err, out)
	}
}

func TestZipLayout(t *testing.T) {
	data, err := Encode(build(t, Options{Format: Timed}, alloc.Config{}), FileOptions{Container: Zip})
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, name := range []string{"archive/data.pkl", "archive/byteorder", "archive/version", "archive/.data/serialization_id"} {
		if !strings.Contains(s, name) {
			t.Errorf("zip lacks %s", name)
		}
	}
	// The data.pkl payload starts 64-byte aligned, as PyTorch writes it.
	i := strings.Index(s, "\x80\x02")
	if i < 0 || i%64 != 0 {
		t.Errorf("pickle payload at offset %d, want a multiple of 64", i)
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []string{"timed", "frames", "history", "segments-list"} {
		if _, err := ParseFormat(f); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseFormat("v3"); err == nil {
		t.Error("unknown format accepted")
	}
}

// TestRecentKeys builds a snapshot with what PyTorch 2.14-2.16 write
// beside the older keys (user_metadata texts, pool ids on events, a
// private pool's segments, an annotate event, an FX-augmented frame,
// pinned host memory) and checks that the production decoder reads back
// what was built.
func TestRecentKeys(t *testing.T) {
	opt := Options{Format: Timed, AllocatorSettings: true, ExternalAnnotations: true, CompileContext: true, UserMetadata: true, PoolIDs: true, Devices: 1}
	def := alloc.New(alloc.Config{Capacity: 1 << 30, MaxEntries: 100})
	graph := alloc.New(alloc.Config{Capacity: 1 << 30, MaxEntries: 100, BaseAddress: 0x7f4000000000})
	fx := &Frame{Name: "forward", File: "/tmp/fx_generated_3a4b5c.py", Line: 12,
		FX: &FXNode{Op: "call_function", Name: "mm_3", Target: "aten.mm.default", Trace: "File \"model.py\", line 40, in forward"}}
	user := &Frame{Name: "train_step", File: "/home/user/proj/train.py", Line: 57}
	def.SetTime(1772442000000000)
	a, _ := def.Malloc(4<<20, 0, &Context{ID: 1, Frames: []*Frame{fx, user}, Meta: `{"role": "activations"}`})
	graph.SetTime(1772442000000500)
	graph.Malloc(8<<20, 0, &Context{ID: 2, Frames: []*Frame{user}})
	def.SetTime(1772442000001000)
	def.Annotate(a, &Context{ID: 3, Frames: []*Frame{user}, Meta: "kept for backward"})
	b := NewBuilder(opt)
	pin := &Frame{Name: "pin_memory", File: "/opt/conda/lib/python3.11/site-packages/torch/utils/data/_utils/pin_memory.py", Line: 73}
	hctx := &Context{ID: 4, Frames: []*Frame{pin}, Meta: "batch"}
	b.Host = &Host{
		Segments: []HostSegment{{Addr: 0x10000000, Size: 1 << 20, Requested: 1000000, Live: true, Ctx: hctx}, {Addr: 0x10100000, Size: 1 << 21, Requested: 1 << 21}},
		Trace:    []alloc.TraceEntry{{Action: alloc.Alloc, Addr: 0x10000000, Size: 1000000, TimeUS: 1772442000000100, Ctx: hctx}},
	}
	tree := b.Build([]Device{{Alloc: def, Trace: def.Trace()}, {Alloc: graph, Trace: graph.Trace(), Pool: [2]int64{1, 0}}}, Settings{MaxSplitSize: -1}, nil)
	data, err := Encode(tree, FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := decodeSnapshot(t, data)
	checkInvariants(t, s)
	if len(s.Notes) != 0 {
		t.Errorf("notes %v", s.Notes)
	}
	pools := map[[2]int64]int{}
	for _, seg := range s.Segments {
		pools[seg.PrivatePool]++
	}
	if pools[[2]int64{0, 0}] != 1 || pools[[2]int64{1, 0}] != 1 {
		t.Errorf("segments by pool %v", pools)
	}
	tr := s.Traces[0]
	var acts []string
	for i := range tr {
		p, ok := s.PoolOf(&tr[i])
		acts = append(acts, fmt.Sprintf("%s%v%v:%s", tr[i].Action, p, ok, s.MetaText(tr[i].Meta)))
	}
	// The segment_alloc runs on the allocating thread: it carries the
	// thread's metadata too.
	want := `[segment_alloc[0 0]true:{"role": "activations"} alloc[0 0]true:{"role": "activations"} segment_alloc[1 0]true: alloc[1 0]true: annotate[0 0]true:kept for backward]`
	if got := fmt.Sprint(acts); got != want {
		t.Errorf("events\n%s\nwant\n%s", got, want)
	}
	bts := s.BlockTraces(0)
	if len(bts) != 2 || s.MetaText(bts[0].Meta) != `{"role": "activations"}` || len(bts[0].Notes) != 1 {
		t.Errorf("block traces %+v", bts)
	}
	frames := s.Stacks.StackFrames(s.Segments[0].Blocks[0].Stack)
	if len(frames) != 2 || frames[0].FX.Name != "mm_3" || frames[0].FX.Trace == "" || !frames[1].FX.IsZero() {
		t.Errorf("block frames %+v", frames)
	}
	h := s.Host()
	if h == nil || len(h.Segments) != 2 || h.Segments[0].Blocks[0].State != snapshot.StateActiveAllocated || h.Segments[1].Blocks[0].State != snapshot.StateInactive {
		t.Fatalf("host %+v", h)
	}
	if hb := h.BlockTraces(0); len(hb) != 1 || h.MetaText(hb[0].Meta) != "batch" {
		t.Errorf("host block traces %+v", hb)
	}
}
