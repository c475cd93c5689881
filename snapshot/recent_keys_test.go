package snapshot

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// recentKeysTree is a snapshot with the keys PyTorch 2.12-2.16 added, in
// the shapes they have there: a pool_id pair and user_metadata on every
// trace event (empty where unset), an "annotate" event on a live block,
// FX node fields on a frame of FX-generated code, and pinned host memory
// (host_segments with device -1, host_traces as one list). Device 0 has
// live blocks A (allocated with metadata, then annotated), B (allocated
// in the trace without metadata) and P (allocated before the trace), and
// one free block; the trace also allocates and frees X, and allocates Y
// and frees it with only a free_completed (as when the ring buffer
// dropped its free_requested), so only A and B are open at its end.
func recentKeysTree(hostNested bool) (tree *pyDict, base uint64) {
	base = 0x7f0000000000
	fx := pyD("name", "forward", "filename", "/tmp/fx_generated_3a4b5c.py", "line", int64(12),
		"fx_node_op", "call_function", "fx_node_name", "mm_3", "fx_node_target", "aten.mm.default",
		"fx_original_trace", "  File \"model.py\", line 40, in forward\n    y = self.proj(x)\n")
	user := pyD("name", "train_step", "filename", "/home/u/train.py", "line", int64(57))
	pin := pyD("name", "pin_memory", "filename", "/opt/site-packages/torch/utils/data/_utils/pin_memory.py", "line", int64(73))
	fA, fB := pyL(fx, user), pyL(user)
	block := func(addr uint64, size int64, state string, frames *pyList) *pyDict {
		return pyD("address", addr, "size", size, "requested_size", size, "state", state, "frames", frames)
	}
	seg := pyD("device", int64(0), "address", base, "total_size", int64(8<<20), "allocated_size", int64(6<<20),
		"active_size", int64(6<<20), "requested_size", int64(6<<20), "stream", int64(0), "segment_type", "large",
		"segment_pool_id", pyTuple{int64(0), int64(0)}, "is_expandable", false, "frames", pyL(),
		"blocks", pyL(block(base, 2<<20, "active_allocated", fA), block(base+2<<20, 2<<20, "active_allocated", fB),
			block(base+4<<20, 2<<20, "active_allocated", pyL()), block(base+6<<20, 2<<20, "inactive", pyL())))
	ev := func(action string, addr uint64, size int64, meta string, frames *pyList) *pyDict {
		d := pyD("action", action, "addr", addr, "size", size, "stream", int64(0), "time_us", int64(1_700_000_000_000_000),
			"compile_context", "N/A", "user_metadata", meta, "pool_id", pyTuple{int64(0), int64(0)})
		if frames != nil {
			d.set("frames", frames)
		}
		return d
	}
	x, y := base+8<<20, base+10<<20
	trace := pyL(
		ev("alloc", base, 2<<20, `{"role": "parameters"}`, fA),
		ev("alloc", x, 1024, "", fB),
		ev("free_requested", x, 1024, "", fB),
		ev("free_completed", x, 1024, "", fB),
		ev("alloc", base+2<<20, 2<<20, "", fB),
		ev("alloc", y, 4096, "step 3", fB),
		ev("free_completed", y, 4096, "", pyL()),
		ev("annotate", base, 2<<20, "retained by autograd", pyL(user)),
		ev("annotate", base+2<<20, 2<<20, "", pyL(user)),
	)
	hseg := pyD("device", int64(-1), "address", uint64(0x10000000), "total_size", int64(1<<20), "allocated_size", int64(1<<20),
		"active_size", int64(1<<20), "requested_size", int64(1<<20), "stream", int64(0), "segment_type", "large",
		"segment_pool_id", pyTuple{int64(0), int64(0)}, "is_expandable", false, "frames", pyL(pin),
		"blocks", pyL(block(0x10000000, 1<<20, "active_allocated", pyL(pin))))
	hev := pyL(pyD("action", "alloc", "addr", uint64(0x10000000), "size", int64(1<<20), "stream", int64(0),
		"time_us", int64(1_700_000_000_000_001), "user_metadata", "batch", "frames", pyL(pin)))
	var htr any = hev
	if hostNested {
		htr = pyL(hev)
	}
	tree = pyD("segments", pyL(seg), "device_traces", pyL(trace),
		"allocator_settings", pyD("PYTORCH_CUDA_ALLOC_CONF", "", "expandable_segments", false),
		"external_annotations", pyL(),
		"host_segments", pyL(hseg), "host_traces", htr)
	return tree, base
}

// TestRecentKeys decodes the snapshot of recentKeysTree in every pickler
// style, with the fast path (which must not fall back), the generic mode
// and gopickle, requires the three to agree, and checks the values read:
// user_metadata and pool ids of events, FX nodes of frames, the blocks
// the trace says were allocated in it with their metadata and
// annotations, and the host memory. The digest, skimmed or not, must keep
// the same facts through EncodeDigest and DecodeDigest.
func TestRecentKeys(t *testing.T) {
	for _, nested := range []bool{false, true} {
		tree, base := recentKeysTree(nested)
		for _, st := range []pickleStyle{stylePy4, stylePy5, stylePy2, styleCpp} {
			name := st.String()
			if nested {
				name += "/host-traces-nested"
			}
			t.Run(name, func(t *testing.T) {
				data := writePickle(tree, st)
				fast, generic, ref := decodeModes(t, data)
				for _, c := range []struct {
					what string
					s    *Snapshot
				}{{"generic", generic}, {"reference", ref}} {
					if d := diffSnapshots(fast, c.s); d != "" {
						t.Fatalf("fast vs %s: %s", c.what, d)
					}
				}
				if len(fast.Notes) != 0 {
					t.Errorf("notes %v", fast.Notes)
				}
				checkRecentKeys(t, fast, base)
				d := Reduce(fast)
				checkRecentKeys(t, d, base)
				enc, err := EncodeDigest("k", ContainerPickle, d)
				if err != nil {
					t.Fatal(err)
				}
				_, _, back, err := DecodeDigest(enc)
				if err != nil {
					t.Fatal(err)
				}
				checkRecentKeys(t, back, base)
				if why, err := skimDiff(data); err != nil || why != "" {
					t.Errorf("skimmed digest differs: %s %v", why, err)
				}
			})
		}
	}
}

// checkRecentKeys checks what recentKeysTree holds, on a snapshot or its
// digest.
func checkRecentKeys(t *testing.T, s *Snapshot, base uint64) {
	t.Helper()
	bts := s.BlockTraces(0)
	if len(bts) != 2 || bts[0].Addr != base || bts[1].Addr != base+2<<20 {
		t.Fatalf("block traces %+v, want the blocks at base and base+2 MiB", bts)
	}
	if got := s.MetaText(bts[0].Meta); got != `{"role": "parameters"}` {
		t.Errorf("block A's metadata %q", got)
	}
	if len(bts[0].Notes) != 1 || s.MetaText(bts[0].Notes[0]) != "retained by autograd" {
		t.Errorf("block A's annotations %v", bts[0].Notes)
	}
	if bts[1].Meta != NoMeta || bts[1].Notes != nil || bts[1].Alloc != 4 || bts[1].TimeUS != 1_700_000_000_000_000 {
		t.Errorf("block B %+v: allocated by event 4 at its time, no metadata, the empty annotation dropped", bts[1])
	}
	if _, ok := BlockTraceAt(bts, base+4<<20); ok {
		t.Error("block P was allocated before the trace")
	}
	var fx *Frame
	for i, f := range s.Stacks.Frames {
		if !f.FX.IsZero() {
			fx = &s.Stacks.Frames[i]
		}
	}
	if fx == nil || fx.FX.Name != "mm_3" || fx.FX.Op != "call_function" || fx.FX.Target != "aten.mm.default" || !strings.Contains(fx.FX.Trace, "model.py") {
		t.Errorf("FX frame %+v", fx)
	}
	h := s.Host()
	if h == nil || len(s.HostSegments) != 1 || s.HostSegments[0].Device != HostDevice {
		t.Fatalf("host segments %+v", s.HostSegments)
	}
	if len(h.Segments) != 1 || h.Segments[0].Device != 0 || h.Segments[0].Blocks[0].State != StateActiveAllocated {
		t.Errorf("host view segments %+v", h.Segments)
	}
	hb := h.BlockTraces(0)
	if len(hb) != 1 || h.MetaText(hb[0].Meta) != "batch" || h.TraceEntries(0) != 1 {
		t.Errorf("host block traces %+v (%d events)", hb, h.TraceEntries(0))
	}
	if s.Digest != nil {
		return
	}
	tr := s.Traces[0]
	if len(tr) != 9 || tr[7].Action != ActionAnnotate || s.MetaText(tr[7].Meta) != "retained by autograd" {
		t.Fatalf("trace %+v", tr)
	}
	for i := range tr {
		if p, ok := s.PoolOf(&tr[i]); !ok || p != [2]int64{} {
			t.Errorf("event %d pool %v %v", i, p, ok)
		}
	}
	if !slices.Equal(s.Pools, [][2]int64{{0, 0}}) {
		t.Errorf("pools %v", s.Pools)
	}
}

// TestRecentKeysOfWrongType checks that user_metadata, pool_id, the FX
// fields and host memory of an unexpected type cost that field, with a
// note, never the file, and that both decoders agree on the notes.
func TestRecentKeysOfWrongType(t *testing.T) {
	tree, _ := recentKeysTree(false)
	tr := tree.vals[1].(*pyList).items[0].(*pyList)
	tr.items[0].(*pyDict).set("user_metadata", int64(7))
	tr.items[1].(*pyDict).set("pool_id", "pool")
	seg := tree.vals[0].(*pyList).items[0].(*pyDict)
	bl, _ := seg.get("blocks")
	fr, _ := bl.(*pyList).items[0].(*pyDict).get("frames")
	fr.(*pyList).items[0].(*pyDict).set("fx_node_name", int64(3))
	tree.set("host_traces", "none")
	data := writePickle(tree, stylePy4)
	generic, err := decodeFast(bytes.NewReader(data), int64(len(data)), true)
	if err != nil {
		t.Fatal(err)
	}
	fast, _, err := DecodeBytes(data, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffSnapshots(fast, generic); d != "" {
		t.Fatalf("decoders differ: %s", d)
	}
	var places []string
	for _, n := range fast.Notes {
		places = append(places, n.Place+": "+n.Assumed)
	}
	want := []string{
		"segments[0].blocks[0].frames[0].fx_node_name: empty text",
		"device_traces[0][0].user_metadata: no user_metadata",
		"device_traces[0][1].pool_id: no pool id",
		"host_traces: no pinned host memory data",
	}
	slices.Sort(places)
	slices.Sort(want)
	if !reflect.DeepEqual(places, want) {
		t.Errorf("notes\n%v\nwant\n%v", places, want)
	}
	if fast.HostTrace != nil || len(fast.HostSegments) != 1 {
		t.Errorf("host trace %v, segments %d", fast.HostTrace, len(fast.HostSegments))
	}
}

// TestHostMemoryDatesTheFormat: host memory's blocks and trace date the
// snapshot's format as the device's do, in the fast path as in the
// generic mode and gopickle's reading: a host trace with time_us and no
// device trace event is timed, and a host block with a history (the
// legacy layout) makes the snapshot a history one.
func TestHostMemoryDatesTheFormat(t *testing.T) {
	tests := []struct {
		name string
		edit func(tree *pyDict)
		want Generation
	}{
		{"as recorded", func(*pyDict) {}, GenTimed},
		{"no device trace event", func(tree *pyDict) { tree.set("device_traces", pyL(pyL())) }, GenTimed},
		{"device traces missing", func(tree *pyDict) { tree.set("device_traces", nil) }, GenTimed},
		{"host block with a history", func(tree *pyDict) {
			hseg, _ := tree.get("host_segments")
			hb := hseg.(*pyList).items[0].(*pyDict)
			blocks, _ := hb.get("blocks")
			b := blocks.(*pyList).items[0].(*pyDict)
			b.set("history", pyL(pyD("addr", uint64(0x10000000), "real_size", int64(1<<20), "frames", pyL())))
		}, GenHistory},
	}
	for _, tt := range tests {
		tree, _ := recentKeysTree(false)
		tt.edit(tree)
		for _, st := range []pickleStyle{stylePy4, styleCpp} {
			t.Run(tt.name+"/"+st.String(), func(t *testing.T) {
				fast, generic, ref := decodeModes(t, writePickle(tree, st))
				for _, c := range []struct {
					what string
					s    *Snapshot
				}{{"fast", fast}, {"generic", generic}, {"reference", ref}} {
					if c.s.Generation != tt.want {
						t.Errorf("%s: generation %q, want %q", c.what, c.s.Generation, tt.want)
					}
				}
			})
		}
	}
}

// TestGCThresholdIsAFraction: garbage_collection_threshold is read as a
// fraction; a value PyTorch would refuse (NaN, negative, above 1) is
// left as off, and the raw settings keep it as written.
func TestGCThresholdIsAFraction(t *testing.T) {
	tests := []struct {
		v    any
		want float64
		raw  string
	}{
		{0.8, 0.8, "0.8"},
		{0.0, 0, "0"},
		{1.0, 1, "1"},
		{math.NaN(), 0, "NaN"},
		{-0.5, 0, "-0.5"},
		{2.0, 0, "2"},
		{int64(1), 1, "1"},
	}
	for _, tt := range tests {
		s := settingsFrom(pyD("garbage_collection_threshold", tt.v))
		if s.GCThreshold != tt.want || len(s.Raw) != 1 || s.Raw[0].Value != tt.raw {
			t.Errorf("garbage_collection_threshold %v: read %v, raw %v; want %v, raw %q", tt.v, s.GCThreshold, s.Raw, tt.want, tt.raw)
		}
	}
}
