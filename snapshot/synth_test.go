package snapshot

import (
	"fmt"
	"math/big"
)

// synthOpts shapes a synthetic snapshot tree.
type synthOpts struct {
	entries  int  // trace entries on device 0 (device 1 gets a few more)
	segments int  // segments, 4 blocks each
	history  bool // legacy layout: blocks carry history, no address
	noTime   bool // trace entries without time_us (PyTorch 2.1)
	extras   bool // settings, annotations, compile_context, unknown keys
}

// synthSnapshot builds a snapshot as a generic tree, with frame dicts and
// some frames lists shared by pointer as PyTorch shares them.
func synthSnapshot(o synthOpts) *pyDict {
	frames := make([]*pyDict, 40)
	for i := range frames {
		if i%5 == 0 {
			frames[i] = pyD("name", fmt.Sprintf("at::native::op%d", i), "filename", "??", "line", int64(0))
		} else {
			frames[i] = pyD("name", fmt.Sprintf("fn%d", i), "filename", fmt.Sprintf("/src/train/mod%d.py", i%7), "line", int64(10+i))
		}
	}
	stack := func(i int) *pyList {
		l := pyL()
		for j := 0; j < 3+i%9; j++ {
			l.items = append(l.items, frames[(i*7+j*3)%len(frames)])
		}
		return l
	}
	shared := stack(1000)
	actions := []string{"alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "segment_map", "snapshot", "annotate", "weird_new_action"}
	entry := func(i int) *pyDict {
		e := pyD("action", actions[i%len(actions)], "addr", uint64(0x7f0000000000+i*512), "size", int64(512*(i%300+1)), "stream", int64(i%3))
		if !o.noTime {
			e.set("time_us", int64(1_700_000_000_000_000+i))
		}
		if o.extras {
			e.set("compile_context", "N/A")
			e.set("user_metadata", "")
			e.set("pool_id", pyTuple{int64(0), int64(i % 2)})
			e.set("forward_frames", pyL("a", "b"))
		}
		switch {
		case i%11 == 0:
			e.set("frames", shared)
		case i%13 == 0:
			e.set("frames", pyL())
		case i%17 != 0:
			e.set("frames", stack(i))
		}
		return e
	}
	var tr0, tr1 []any
	for i := 0; i < o.entries; i++ {
		tr0 = append(tr0, entry(i))
	}
	if o.entries > 0 {
		oom := pyD("action", "oom", "device_free", int64(95<<20), "size", int64(5<<30), "stream", int64(0), "addr", "ignored for oom", "frames", stack(3))
		if !o.noTime {
			oom.set("time_us", int64(1_700_000_000_000_000+o.entries))
		}
		tr0 = append(tr0, oom)
	}
	for i := 0; i < 3 && o.entries > 0; i++ {
		tr1 = append(tr1, entry(o.entries+i))
	}
	var segs []any
	addr := uint64(0x7f0000000000)
	for s := 0; s < o.segments; s++ {
		var blocks []any
		a := addr
		var alloc, active, req int64
		for b := 0; b < 4; b++ {
			size := int64(2<<20) * int64(b+1)
			state := []string{"active_allocated", "inactive", "active_pending_free", "active_allocated"}[b]
			bd := pyD("size", size, "state", state)
			if o.history {
				h := pyL(pyD("addr", a, "real_size", size-100, "frames", stack(s+b)))
				if state == "inactive" {
					h.items = append(h.items, pyD("addr", a+512, "real_size", int64(512)))
				}
				bd.set("history", h)
			} else {
				bd.set("address", a)
				bd.set("requested_size", size-100)
				bd.set("frames", stack(s*4+b))
			}
			if state != "inactive" {
				active += size
				req += size - 100
				if state == "active_allocated" {
					alloc += size
				}
			}
			blocks = append(blocks, bd)
			a += uint64(size)
		}
		seg := pyD("device", int64(s%2), "address", addr, "total_size", int64(a-addr),
			"allocated_size", alloc, "active_size", active, "requested_size", req,
			"stream", int64(0), "segment_type", []string{"large", "small"}[s%2])
		if !o.history {
			seg.set("segment_pool_id", pyTuple{int64(0), int64(s % 3)})
			seg.set("is_expandable", s%4 == 0)
			seg.set("frames", stack(s))
		}
		seg.set("blocks", &pyList{items: blocks})
		segs = append(segs, seg)
		addr = a + 1<<30
	}
	top := pyD("segments", &pyList{items: segs}, "device_traces", pyL(&pyList{items: tr0}, &pyList{items: tr1}, pyL()))
	if o.extras {
		big1, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
		top.set("allocator_settings", pyD("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True", "max_split_size", int64(-1),
			"garbage_collection_threshold", 0.5, "expandable_segments", true,
			"roundup_power2_divisions", pyD("1", int64(0), "2", int64(4)), "huge", big1, "none", nil))
		top.set("external_annotations", pyL(pyD("stage", "START", "name", "Optimizer.step", "device", int64(0), "time_us", int64(1_700_000_000_000_001)),
			pyD("stage", "END", "name", "Optimizer.step", "device", int64(0), "time_us", int64(1_700_000_000_000_009))))
		top.set("host_traces", pyL(pyL(pyD("action", "alloc", "addr", int64(1)))))
	}
	return top
}
