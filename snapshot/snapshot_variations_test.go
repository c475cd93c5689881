package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpureport/internal/gen/pickle"
	"gpureport/internal/testutil"
)

// The generalization test: every real snapshot, re-encoded the way other
// PyTorch and Python versions (and people's own scripts) write the same
// content, must give the same memory totals as the original. The
// variations are rules over the whole tree (every int, every list, every
// dict, every frame), not edits of known files, so a file added to
// ../shared/testdata-real is covered without touching the test.

// treeKind is the schema role of a dict in a loaded snapshot tree.
type treeKind uint8

const (
	tkOther treeKind = iota
	tkTop
	tkSegment
	tkBlock
	tkHistory
	tkFrame
	tkEntry
	tkAnnotation
	tkSettings
)

// walkDicts calls fn once for every dict of a loaded snapshot tree with
// its schema role, parents before children; the dicts are found first, so
// fn may add dicts without having them visited. The tree's memo sharing
// is kept: a dict shared by many lists is visited once.
func walkDicts(root any, fn func(d *pickle.Dict, k treeKind)) {
	type found struct {
		d *pickle.Dict
		k treeKind
	}
	var all []found
	defer func() {
		for _, f := range all {
			fn(f.d, f.k)
		}
	}()
	seen := map[any]bool{}
	var walk func(v any, k treeKind)
	items := func(v any, k treeKind) {
		switch x := v.(type) {
		case *pickle.List:
			if seen[x] {
				return
			}
			seen[x] = true
			for _, it := range x.Items {
				walk(it, k)
			}
		case *pickle.TupleObj:
			if seen[x] {
				return
			}
			seen[x] = true
			for _, it := range x.Items {
				walk(it, k)
			}
		case pickle.Tuple:
			for _, it := range x {
				walk(it, k)
			}
		}
	}
	walk = func(v any, k treeKind) {
		d, ok := v.(*pickle.Dict)
		if !ok {
			items(v, tkOther)
			return
		}
		if seen[d] {
			return
		}
		seen[d] = true
		all = append(all, found{d, k})
		for _, it := range d.Items {
			key, _ := pickle.AsString(it.Key)
			switch {
			case key == "segments" && k == tkTop:
				items(it.Value, tkSegment)
			case key == "blocks" && k == tkSegment:
				items(it.Value, tkBlock)
			case key == "history" && k == tkBlock:
				items(it.Value, tkHistory)
			case key == "frames":
				items(it.Value, tkFrame)
			case key == "device_traces" && k == tkTop:
				seqItems(it.Value, func(tr any) { items(tr, tkEntry) })
			case key == "external_annotations" && k == tkTop:
				items(it.Value, tkAnnotation)
			case key == "allocator_settings" && k == tkTop:
				walk(it.Value, tkSettings)
			default:
				walk(it.Value, tkOther)
			}
		}
	}
	if _, ok := root.(*pickle.Dict); ok {
		walk(root, tkTop)
	} else {
		items(root, tkSegment)
	}
}

// seqItems calls fn for each item of a list or tuple.
func seqItems(v any, fn func(any)) {
	switch x := v.(type) {
	case *pickle.List:
		for _, it := range x.Items {
			fn(it)
		}
	case *pickle.TupleObj:
		for _, it := range x.Items {
			fn(it)
		}
	case pickle.Tuple:
		for _, it := range x {
			fn(it)
		}
	}
}

// mapValues replaces every value of the tree (dict keys and values, list
// and tuple items, the root) by f of it, children first, keeping shared
// containers shared; it returns the new root and how many values f
// changed.
func mapValues(root any, f func(any) (any, bool)) (any, int) {
	done := map[any]any{}
	changed := 0
	var m func(v any) any
	m = func(v any) any {
		switch x := v.(type) {
		case *pickle.Dict:
			if r, ok := done[x]; ok {
				return r
			}
			done[x] = x
			for i := range x.Items {
				x.Items[i].Key = m(x.Items[i].Key)
				x.Items[i].Value = m(x.Items[i].Value)
			}
		case *pickle.List:
			if r, ok := done[x]; ok {
				return r
			}
			done[x] = x
			for i := range x.Items {
				x.Items[i] = m(x.Items[i])
			}
		case *pickle.Str:
			if r, ok := done[x]; ok {
				return r
			}
		case pickle.Tuple:
			t := make(pickle.Tuple, len(x))
			for i := range x {
				t[i] = m(x[i])
			}
			v = t
		}
		r, ok := f(v)
		if ok {
			changed++
		}
		switch x := v.(type) {
		case *pickle.Dict, *pickle.List, *pickle.Str:
			done[x] = r
		}
		return r
	}
	return m(root), changed
}

// setKey sets key k of d (keeping its place) when d has it, and reports
// whether it did.
func setKey(d *pickle.Dict, k string, v any) bool {
	for i, it := range d.Items {
		if s, _ := pickle.AsString(it.Key); s == k {
			d.Items[i].Value = v
			return true
		}
	}
	return false
}

// dropKey removes key k from d and reports whether it was there.
func dropKey(d *pickle.Dict, k string) bool {
	n := len(d.Items)
	d.Items = slices.DeleteFunc(d.Items, func(it pickle.Item) bool { s, _ := pickle.AsString(it.Key); return s == k })
	return len(d.Items) != n
}

// snapVariation is one way of writing the same snapshot.
type snapVariation struct {
	name string
	opt  pickle.Options
	// edit changes the loaded tree (returning its new root) and counts
	// the places it changed; nil leaves the tree as loaded.
	edit func(root any, rng *rand.Rand) (any, int)
	// fast: the fast path must decode it without falling back.
	fast bool
	// check, when set, checks the decoded variant beyond the totals.
	check func(t *testing.T, root any, orig, got *Snapshot)
	// needs is a key a file must hold for the variation to change
	// anything in it ("" when any file will do).
	needs string
}

// optionalKeys are the keys a snapshot may lack, depending on the PyTorch
// version that wrote it (docs/snapshot-format.md).
var optionalKeys = []string{"time_us", "requested_size", "frames", "allocator_settings", "external_annotations",
	"user_metadata", "compile_context", "is_expandable", "segment_pool_id", "stream"}

// snapVariations lists the variations: pickle protocols and picklers,
// integer widths, list/tuple and str/bytes swaps, key order, frame
// fields, unknown keys and each optional key dropped.
func snapVariations() []snapVariation {
	frameEdit := func(key string, v any) func(any, *rand.Rand) (any, int) {
		// Every frame of the file, Python and C++ alike: the totals must
		// not depend on frames at all.
		return func(root any, _ *rand.Rand) (any, int) {
			n := 0
			walkDicts(root, func(d *pickle.Dict, k treeKind) {
				if k == tkFrame && setKey(d, key, v) {
					n++
				}
			})
			return root, n
		}
	}
	allFrames := func(want func(Frame) bool, what string) func(*testing.T, any, *Snapshot, *Snapshot) {
		return func(t *testing.T, _ any, _, got *Snapshot) {
			for _, f := range got.Stacks.Frames {
				if !want(f) {
					t.Fatalf("frame %+v: want %s", f, what)
				}
			}
		}
	}
	vs := []snapVariation{
		{name: "protocol 2", opt: pickle.Options{Protocol: 2}, fast: true},
		{name: "protocol 3", opt: pickle.Options{Protocol: 3}, fast: true},
		{name: "protocol 5", opt: pickle.Options{Protocol: 5}, fast: true},
		{name: "C++ pickler", opt: pickle.Options{Protocol: 2, Style: pickle.TorchCpp}, fast: true},
		{name: "LONG1 ints", opt: pickle.Options{Ints: pickle.IntsLong1}, fast: true},
		{name: "LONG4 ints", opt: pickle.Options{Protocol: 5, Ints: pickle.IntsLong4}, fast: true},
		{name: "tuples for lists", edit: func(root any, _ *rand.Rand) (any, int) {
			return mapValues(root, func(v any) (any, bool) {
				if l, ok := v.(*pickle.List); ok {
					return &pickle.TupleObj{Items: l.Items}, true
				}
				return v, false
			})
		}},
		{name: "lists for tuples", fast: true, edit: func(root any, _ *rand.Rand) (any, int) {
			root, n := mapValues(root, func(v any) (any, bool) {
				if t, ok := v.(pickle.Tuple); ok {
					return pickle.NewList(t...), true
				}
				return v, false
			})
			// A dict key stays a tuple: a list is unhashable, and no
			// pickler writes one as a key (a fuzzed tuple key made the
			// variant one the decoder rightly refused).
			walkDicts(root, func(d *pickle.Dict, _ treeKind) {
				for i := range d.Items {
					if l, ok := d.Items[i].Key.(*pickle.List); ok {
						d.Items[i].Key = pickle.Tuple(l.Items)
						n--
					}
				}
			})
			return root, n
		}},
		{name: "bytes for str", opt: pickle.Options{Protocol: 3}, fast: true, edit: func(root any, _ *rand.Rand) (any, int) {
			return mapValues(root, func(v any) (any, bool) {
				if s, ok := v.(*pickle.Str); ok {
					return &pickle.Bytes{B: []byte(s.S)}, true
				}
				return v, false
			})
		}},
		{name: "shuffled keys", fast: true, edit: func(root any, rng *rand.Rand) (any, int) {
			n := 0
			walkDicts(root, func(d *pickle.Dict, _ treeKind) {
				rng.Shuffle(len(d.Items), func(i, j int) { d.Items[i], d.Items[j] = d.Items[j], d.Items[i] })
				n++
			})
			return root, n
		}},
		{name: "frame line 0", fast: true, needs: "filename", edit: frameEdit("line", int64(0)),
			check: allFrames(func(f Frame) bool { return f.Line == 0 }, "line 0")},
		{name: "frame line -1", fast: true, needs: "filename", edit: frameEdit("line", int64(-1)),
			check: allFrames(func(f Frame) bool { return f.Line == 0 }, "line 0 (unknown)")},
		{name: "frame line 2^64-1", fast: true, needs: "filename", edit: frameEdit("line", ^uint64(0)),
			check: allFrames(func(f Frame) bool { return f.Line == 0 }, "line 0 (unknown)")},
		{name: "filename ??", fast: true, needs: "filename", edit: frameEdit("filename", "??"),
			check: allFrames(func(f Frame) bool { return f.File == "??" }, "file ??")},
		{name: "filename empty", fast: true, needs: "filename", edit: frameEdit("filename", ""),
			check: allFrames(func(f Frame) bool { return f.File == "" }, "no file")},
		{name: "unknown keys", fast: true, edit: func(root any, rng *rand.Rand) (any, int) {
			n := 0
			walkDicts(root, func(d *pickle.Dict, k treeKind) {
				extra := []pickle.Item{
					{Key: "future_big", Value: ^uint64(0)},
					{Key: "future_none", Value: nil},
					{Key: "future_tuple", Value: pickle.Tuple{int64(1), "a", -1.5}},
					{Key: "future_nested", Value: pickle.NewList(pickle.NewDict(0), pickle.NewList(int64(-1)))},
				}
				if k == tkTop {
					// Newest PyTorch: pinned host memory, device -1, in
					// keys of their own that look like segments.
					seg := pickle.NewDict(4)
					seg.Set("device", int64(-1))
					seg.Set("total_size", int64(2<<20))
					seg.Set("blocks", pickle.NewList())
					extra = append(extra, pickle.Item{Key: "host_segments", Value: pickle.NewList(seg)},
						pickle.Item{Key: "host_traces", Value: pickle.NewList(pickle.NewList())})
				}
				for _, it := range extra {
					at := rng.IntN(len(d.Items) + 1)
					d.Items = slices.Insert(d.Items, at, it)
				}
				n++
			})
			return root, n
		}},
	}
	for _, key := range optionalKeys {
		v := snapVariation{name: "no " + key, needs: key, fast: key != "requested_size", edit: func(root any, _ *rand.Rand) (any, int) {
			n := 0
			walkDicts(root, func(d *pickle.Dict, _ treeKind) {
				if dropKey(d, key) {
					n++
				}
			})
			return root, n
		}}
		if key == "requested_size" {
			v.check = checkRequestedAssumed
		}
		vs = append(vs, v)
	}
	return vs
}

// checkRequestedAssumed checks a snapshot read without requested_size:
// each active block's request is its legacy history real_size where it
// has one, else its size (and a note says so).
func checkRequestedAssumed(t *testing.T, root any, _, got *Snapshot) {
	t.Helper()
	var want []int64
	assumed := false
	walkDicts(root, func(d *pickle.Dict, k treeKind) {
		if k != tkBlock {
			return
		}
		state, _ := d.Get("state")
		if s, _ := pickle.AsString(state); !ParseBlockState(s).Active() {
			return
		}
		size, _ := d.Get("size")
		req := size.(int64)
		h, _ := d.Get("history")
		if hl, ok := h.(*pickle.List); ok && len(hl.Items) > 0 {
			if real, ok := hl.Items[0].(*pickle.Dict).Get("real_size"); ok {
				req = real.(int64)
			} else {
				assumed = true
			}
		} else {
			assumed = true
		}
		want = append(want, req)
	})
	var gotReq []int64
	for _, s := range got.Segments {
		for _, b := range s.Blocks {
			if b.State.Active() {
				gotReq = append(gotReq, b.RequestedSize)
			}
		}
	}
	slices.Sort(want)
	slices.Sort(gotReq)
	if !slices.Equal(want, gotReq) {
		t.Fatalf("requested sizes of active blocks differ from the assumption (history real_size, else size)")
	}
	hasNote := false
	for _, n := range got.Notes {
		if strings.HasSuffix(n.Place, ".requested_size") && n.Assumed == assumeRequested {
			hasNote = true
		}
	}
	if hasNote != assumed {
		t.Fatalf("requested_size note %v, want %v: %v", hasNote, assumed, got.Notes)
	}
}

// devTotals are the per-device totals a report is built from.
type devTotals struct {
	Reserved, Allocated, Active, Requested int64
	Segments, Blocks, Trace                int
}

// snapTotals computes the totals of every device with segments or trace
// events, by the definitions of docs/design.md.
func snapTotals(s *Snapshot) map[int]devTotals {
	out := map[int]devTotals{}
	for _, seg := range s.Segments {
		d := out[seg.Device]
		d.Segments++
		d.Reserved += seg.TotalSize
		for _, b := range seg.Blocks {
			d.Blocks++
			if b.State == StateActiveAllocated {
				d.Allocated += b.Size
			}
			if b.State.Active() {
				d.Active += b.Size
				d.Requested += b.RequestedSize
			}
		}
		out[seg.Device] = d
	}
	for dev, tr := range s.Traces {
		if len(tr) > 0 {
			d := out[dev]
			d.Trace = len(tr)
			out[dev] = d
		}
	}
	return out
}

// encodeVariation loads a real snapshot, applies v and re-encodes it. It
// returns the bytes, the edited tree and the number of places changed.
func encodeVariation(data []byte, v snapVariation, seed uint64) ([]byte, any, int, error) {
	root, _, err := pickle.Load(data)
	if err != nil {
		return nil, nil, 0, err
	}
	changed := 1 // an encoding of its own changes every opcode
	if v.edit != nil {
		root, changed = v.edit(root, rand.New(rand.NewPCG(seed, 0x5eed)))
	}
	out, err := pickle.Marshal(root, v.opt)
	return out, root, changed, err
}

// decodeVariation decodes a variant: with the fast path alone when it must
// take it, else through the public path.
func decodeVariation(data []byte, fast bool) (*Snapshot, error) {
	if !fast {
		s, _, err := DecodeBytes(data, DecodeOptions{})
		return s, err
	}
	s, err := decodeFast(bytes.NewReader(data), int64(len(data)), false)
	if errors.Is(err, errFallback) {
		return nil, fmt.Errorf("the fast path fell back (it must take this variation itself)")
	}
	return s, err
}

// checkVariant compares a variant's decode with the original's: the same
// totals per device and, unless the variation drops requested_size, the
// same notes.
func checkVariant(t *testing.T, v snapVariation, root any, orig, got *Snapshot) {
	t.Helper()
	want := snapTotals(orig)
	if v.name == "no requested_size" {
		// Requested bytes are what the dropped key carried: check the
		// rule the decoder assumes instead, and every other total.
		v.check(t, root, orig, got)
		for d, tot := range want {
			tot.Requested = snapTotals(got)[d].Requested
			want[d] = tot
		}
	} else {
		if v.check != nil {
			v.check(t, root, orig, got)
		}
		if !slices.Equal(orig.Notes, got.Notes) {
			t.Fatalf("notes %v, want %v", got.Notes, orig.Notes)
		}
	}
	if g := snapTotals(got); fmt.Sprint(g) != fmt.Sprint(want) {
		t.Fatalf("totals differ:\n got %+v\nwant %+v", g, want)
	}
}

// variationBytes is the pickle bytes each real snapshot is re-encoded
// for: a file gets variationBytes/size variations (at least one, at most
// all that apply to it), the ones the files before it had least, so that
// small files get every variation and the large ones share them out. A
// variation costs about 0.1 s per MB (load, encode, decode), so the test
// takes seconds.
const variationBytes = 1536 << 10

// TestRealSnapshotVariations is the generalization test: every real
// snapshot, re-encoded with the variations other PyTorch and Python
// versions produce, decodes to the same per-device totals (reserved,
// allocated, active, requested bytes; segment, block and trace entry
// counts) as the original, through the fast path where the variation is
// cheap to take there. Every variation must change something in at least
// one file, so none passes vacuously.
func TestRealSnapshotVariations(t *testing.T) {
	vs := snapVariations()
	files := testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")
	changed := make([]int, len(vs))
	hits := make([]int, len(vs))
	planned, ran := 0, 0
	for fi, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		orig, _, err := DecodeBytes(data, DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(orig.Notes) > 0 {
			t.Errorf("%s: a real file needs no assumptions, got notes %v", f, orig.Notes)
		}
		var picked []int
		for i, v := range vs {
			if v.needs == "" || bytes.Contains(data, []byte(v.needs)) {
				picked = append(picked, i)
			}
		}
		slices.SortStableFunc(picked, func(a, b int) int { return hits[a] - hits[b] })
		picked = picked[:min(max(variationBytes/len(data), 1), len(picked))]
		for _, i := range picked {
			hits[i]++
			v := vs[i]
			planned++
			t.Run(filepath.Base(f)+"/"+v.name, func(t *testing.T) {
				ran++
				out, root, n, err := encodeVariation(data, v, uint64(fi))
				if err != nil {
					t.Fatal(err)
				}
				changed[i] += n
				got, err := decodeVariation(out, v.fast)
				if err != nil {
					t.Fatal(err)
				}
				checkVariant(t, v, root, orig, got)
				// Skimming the trace must not change the variant's digest.
				if why, err := skimDiff(out); err != nil || why != "" {
					t.Errorf("skimmed digest: %v %s", err, why)
				}
			})
		}
	}
	if ran < planned {
		return // some left out by -run: coverage is not known
	}
	for i, v := range vs {
		if changed[i] == 0 {
			t.Errorf("variation %q changed nothing in any file", v.name)
		}
	}
}

// dedupeKeys makes every dict of a loaded tree hold each string key once,
// as Python's dicts do (the last value, in the first one's place), so that
// shuffling keys cannot change which value wins; it reports false when the
// tree has a cycle (which no snapshot has).
func dedupeKeys(root any) bool {
	state := map[any]uint8{} // 1: on the path, 2: done
	acyclic := true
	var walk func(v any)
	walk = func(v any) {
		var kids []any
		switch x := v.(type) {
		case *pickle.Dict:
			pos := map[string]int{}
			out := x.Items[:0]
			for _, it := range x.Items {
				if k, ok := pickle.AsString(it.Key); ok {
					if i, dup := pos[k]; dup {
						out[i].Value = it.Value
						continue
					}
					pos[k] = len(out)
				}
				out = append(out, it)
			}
			x.Items = out
			for _, it := range x.Items {
				kids = append(kids, it.Key, it.Value)
			}
		case *pickle.List:
			kids = x.Items
		case pickle.Tuple:
			for _, it := range x {
				walk(it)
			}
			return
		default:
			return
		}
		switch state[v] {
		case 1:
			acyclic = false
			return
		case 2:
			return
		}
		state[v] = 1
		for _, k := range kids {
			walk(k)
		}
		state[v] = 2
	}
	walk(root)
	return acyclic
}

// holdsBytes reports whether the tree at root holds a bytes value, as a
// key or a value anywhere in it.
func holdsBytes(root any) bool {
	seen := map[any]bool{}
	var walk func(v any) bool
	walk = func(v any) bool {
		var kids []any
		switch x := v.(type) {
		case *pickle.Bytes:
			return true
		case *pickle.Dict:
			if seen[x] {
				return false
			}
			seen[x] = true
			for _, it := range x.Items {
				kids = append(kids, it.Key, it.Value)
			}
		case *pickle.List:
			if seen[x] {
				return false
			}
			seen[x] = true
			kids = x.Items
		case *pickle.TupleObj:
			if seen[x] {
				return false
			}
			seen[x] = true
			kids = x.Items
		case pickle.Tuple:
			kids = x
		}
		return slices.ContainsFunc(kids, walk)
	}
	return walk(root)
}

// FuzzSnapshotVariations applies a random set of the variations to a
// pickle (seeded from the real snapshots) and requires the variant to
// decode to the totals of the unvaried tree: choice picks the variations
// (one bit each) and seeds their randomness.
func FuzzSnapshotVariations(f *testing.F) {
	vs := snapVariations()
	for _, p := range testutil.RealFiles(f, "snapshots", "*.pickle", "*.pkl") {
		if st, err := os.Stat(p); err != nil || st.Size() > 64<<10 {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range []uint64{1 << 4, 1<<6 | 1<<9 | 1<<12, 1<<8 | 1<<15 | 1<<17, 0x3ffffff} {
			f.Add(data, c)
		}
	}
	f.Add(writePickle(synthSnapshot(synthOpts{entries: 30, segments: 3, extras: true}), stylePy4), uint64(0x2aaaaaa))
	f.Add(writePickle(synthSnapshot(synthOpts{entries: 10, segments: 2, history: true, noTime: true}), stylePy4), uint64(0x1555555))
	f.Fuzz(func(t *testing.T, data []byte, choice uint64) {
		if len(data) > 64<<10 {
			return
		}
		root, _, err := pickle.Load(data)
		if err != nil || !dedupeKeys(root) {
			return
		}
		base, err := pickle.Marshal(root, pickle.Options{})
		if err != nil {
			return
		}
		orig, _, err := DecodeBytes(base, DecodeOptions{})
		if err != nil {
			return
		}
		var opt pickle.Options
		var applied []string
		rng := rand.New(rand.NewPCG(choice, 0x5eed))
		dropsRequested := false
		for i, v := range vs {
			if choice>>(i%64)&1 == 0 {
				continue
			}
			applied = append(applied, v.name)
			if v.edit != nil {
				root, _ = v.edit(root, rng)
			}
			if v.opt != (pickle.Options{}) {
				opt = v.opt
			}
			dropsRequested = dropsRequested || v.name == "no requested_size"
		}
		if slices.Contains(applied, "bytes for str") || holdsBytes(root) {
			// Bytes need protocol 3: the variation's, or the input's own
			// (a fuzzed SHORT_BINBYTES under the C++ pickler's protocol 2).
			opt = pickle.Options{Protocol: max(opt.Protocol, 3), Ints: opt.Ints}
		}
		out, err := pickle.Marshal(root, opt)
		if err != nil {
			t.Fatalf("%v: encoding: %v", applied, err)
		}
		got, _, err := DecodeBytes(out, DecodeOptions{})
		if errors.Is(err, ErrLimit) {
			return // unknown keys nest two levels deeper
		}
		if err != nil {
			t.Fatalf("%v: %v", applied, err)
		}
		if err := checkSnapshotModel(got); err != nil {
			t.Fatalf("%v: %v", applied, err)
		}
		want, have := snapTotals(orig), snapTotals(got)
		if dropsRequested {
			for d, tot := range want {
				tot.Requested = have[d].Requested
				want[d] = tot
			}
		}
		if fmt.Sprint(have) != fmt.Sprint(want) {
			t.Fatalf("%v: totals differ:\n got %+v\nwant %+v", applied, have, want)
		}
	})
}
