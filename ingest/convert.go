package ingest

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrNotSnapshot is wrapped by errors for pickles that decode but are not a
// memory snapshot (a list of ints, a dict without segments, ...).
var ErrNotSnapshot = errors.New("not a PyTorch memory snapshot")

// convertSnapshotAt turns a generic Python value tree into a Snapshot. It
// accepts every generation described in snapshot-format.md: a dict with
// segments (and optionally device_traces, allocator_settings,
// external_annotations), or a bare list of segments. Unknown keys are
// ignored; missing optional keys take their zero value. The tree's
// top-level value was returned by the STOP opcode at offset stopAt-1 (0:
// unknown); errors carry the offset of the container where the layout
// goes wrong when the tree records it (the fast decoder's generic mode
// does, gopickle's tree does not).
func convertSnapshotAt(v any, stopAt int64) (*Snapshot, error) {
	c := converter{
		stopAt: stopAt,
		stacks: map[*pyList]StackID{},
		frames: map[*pyDict]FrameID{},
	}
	s, err := c.snapshot(v)
	if err != nil {
		return nil, err
	}
	s.Stacks = c.st
	s.Stacks.Seal()
	return s, nil
}

type converter struct {
	st     Stacks
	stacks map[*pyList]StackID
	frames map[*pyDict]FrameID

	history, timed bool
	stopAt         int64
}

// pathError is a structural error at a logical place in the snapshot, such
// as segments[3].blocks[7].size, and where known the offset of the dict or
// list it is in.
type pathError struct {
	path string
	msg  string
	at   int64 // offset+1 of the enclosing container's opcode; 0 if unknown
}

func (e *pathError) Error() string {
	msg := ErrNotSnapshot.Error() + ": "
	if e.path != "" {
		msg += e.path + ": "
	}
	msg += e.msg
	if e.at > 0 {
		msg = "offset " + strconv.FormatInt(e.at-1, 10) + ": " + msg
	}
	return msg
}

// atOf returns the recorded offset+1 of a container (0 if none).
func atOf(v any) int64 {
	switch x := v.(type) {
	case *pyList:
		return x.at
	case *pyDict:
		return x.at
	}
	return 0
}

// locate gives a pathError without an offset the offset of container
// where; errors pass through from the innermost container outwards, so the
// innermost recorded offset wins.
func locate(err error, where any) error {
	if pe, ok := err.(*pathError); ok && pe.at == 0 {
		pe.at = atOf(where)
	}
	return err
}

func (e *pathError) Unwrap() error { return ErrNotSnapshot }

func typeErr(path, want string, got any) error {
	return &pathError{path: path, msg: fmt.Sprintf("expected %s, got %s", want, typeName(got))}
}

func (c *converter) snapshot(v any) (_ *Snapshot, err error) {
	defer func() { err = locate(err, v) }()
	s := &Snapshot{}
	switch top := v.(type) {
	case *pyList:
		segs, err := c.segments("segments", top)
		if err != nil {
			return nil, err
		}
		s.Segments = segs
		s.Generation = GenSegmentsList
		return s, nil
	case *pyDict:
		sv, ok := top.get("segments")
		if !ok {
			return nil, &pathError{msg: "top-level dict has no 'segments' key"}
		}
		sl, ok := sv.(*pyList)
		if !ok {
			return nil, typeErr("segments", "list", sv)
		}
		segs, err := c.segments("segments", sl)
		if err != nil {
			return nil, err
		}
		s.Segments = segs
		if tv, ok := top.get("device_traces"); ok && tv != nil {
			tl, ok := tv.(*pyList)
			if !ok {
				return nil, typeErr("device_traces", "list", tv)
			}
			s.Traces = make([][]TraceEntry, len(tl.items))
			for d, dv := range tl.items {
				p := "device_traces[" + strconv.Itoa(d) + "]"
				el, ok := dv.(*pyList)
				if !ok {
					return nil, typeErr(p, "list", dv)
				}
				tr, err := c.trace(p, el)
				if err != nil {
					return nil, err
				}
				s.Traces[d] = tr
			}
		}
		if av, ok := top.get("allocator_settings"); ok && av != nil {
			ad, ok := av.(*pyDict)
			if !ok {
				return nil, typeErr("allocator_settings", "dict", av)
			}
			s.Settings = settingsFrom(ad)
		}
		if ev, ok := top.get("external_annotations"); ok && ev != nil {
			el, ok := ev.(*pyList)
			if !ok {
				return nil, typeErr("external_annotations", "list", ev)
			}
			anns, err := annotations(el)
			if err != nil {
				return nil, err
			}
			s.Annotations = anns
		}
	default:
		return nil, &pathError{msg: "top level is a " + typeName(v) + ", not a dict or a list of segments", at: c.stopAt}
	}
	switch {
	case c.history:
		s.Generation = GenHistory
	case c.timed:
		s.Generation = GenTimed
	default:
		s.Generation = GenFrames
	}
	return s, nil
}

func (c *converter) segments(path string, l *pyList) (_ []Segment, err error) {
	defer func() { err = locate(err, l) }()
	segs := make([]Segment, len(l.items))
	for i, sv := range l.items {
		p := path + "[" + strconv.Itoa(i) + "]"
		sd, ok := sv.(*pyDict)
		if !ok {
			return nil, typeErr(p, "segment dict", sv)
		}
		if err := c.segment(p, sd, &segs[i]); err != nil {
			return nil, err
		}
	}
	return segs, nil
}

// intField reads integer key k of d into *dst; required keys must be present.
func intField(path string, d *pyDict, k string, required bool, dst *int64) error {
	v, ok := d.get(k)
	if !ok {
		if required {
			return &pathError{path: path, msg: "missing '" + k + "'"}
		}
		return nil
	}
	n, ok := asInt64(v)
	if !ok {
		return typeErr(path+"."+k, "int", v)
	}
	*dst = n
	return nil
}

func addrField(path string, d *pyDict, k string, dst *uint64) (bool, error) {
	v, ok := d.get(k)
	if !ok {
		return false, nil
	}
	n, ok := asUint64(v)
	if !ok {
		return false, typeErr(path+"."+k, "address (non-negative int below 2^64)", v)
	}
	*dst = n
	return true, nil
}

func (c *converter) segment(p string, d *pyDict, s *Segment) (err error) {
	defer func() { err = locate(err, d) }()
	var dev int64
	if err := intField(p, d, "device", false, &dev); err != nil {
		return err
	}
	s.Device = int(dev)
	if _, err := addrField(p, d, "address", &s.Address); err != nil {
		return err
	}
	for _, f := range []struct {
		k   string
		req bool
		dst *int64
	}{
		{"total_size", true, &s.TotalSize},
		{"allocated_size", false, &s.AllocatedSize},
		{"active_size", false, &s.ActiveSize},
		{"requested_size", false, &s.RequestedSize},
		{"stream", false, &s.Stream},
	} {
		if err := intField(p, d, f.k, f.req, f.dst); err != nil {
			return err
		}
	}
	if v, ok := d.get("segment_type"); ok {
		switch v {
		case "small":
			s.Pool = PoolSmall
		case "large":
			s.Pool = PoolLarge
		default:
			if _, ok := v.(string); !ok {
				return typeErr(p+".segment_type", "str", v)
			}
		}
	}
	if v, ok := d.get("segment_pool_id"); ok && v != nil {
		t, ok := v.(pyTuple)
		if !ok || len(t) != 2 {
			return typeErr(p+".segment_pool_id", "tuple of 2 ints", v)
		}
		for i := range t {
			n, ok := asInt64(t[i])
			if !ok {
				return typeErr(p+".segment_pool_id", "tuple of 2 ints", v)
			}
			s.PrivatePool[i] = n
		}
	}
	if v, ok := d.get("is_expandable"); ok {
		b, ok := v.(bool)
		if !ok {
			return typeErr(p+".is_expandable", "bool", v)
		}
		s.Expandable = b
	}
	if v, ok := d.get("frames"); ok {
		id, err := c.stack(p+".frames", v)
		if err != nil {
			return err
		}
		s.Stack = id
	}
	bv, ok := d.get("blocks")
	if !ok {
		return &pathError{path: p, msg: "missing 'blocks'"}
	}
	bl, ok := bv.(*pyList)
	if !ok {
		return typeErr(p+".blocks", "list", bv)
	}
	s.Blocks = make([]Block, len(bl.items))
	next := s.Address
	for i, b := range bl.items {
		bp := p + ".blocks[" + strconv.Itoa(i) + "]"
		bd, ok := b.(*pyDict)
		if !ok {
			return typeErr(bp, "block dict", b)
		}
		if err := c.block(bp, bd, next, &s.Blocks[i]); err != nil {
			return err
		}
		next = s.Blocks[i].Address + uint64(s.Blocks[i].Size)
	}
	return nil
}

func (c *converter) block(p string, d *pyDict, next uint64, b *Block) (err error) {
	defer func() { err = locate(err, d) }()
	if err := intField(p, d, "size", true, &b.Size); err != nil {
		return err
	}
	if err := intField(p, d, "requested_size", false, &b.RequestedSize); err != nil {
		return err
	}
	sv, ok := d.get("state")
	if !ok {
		return &pathError{path: p, msg: "missing 'state'"}
	}
	ss, ok := sv.(string)
	if !ok {
		return typeErr(p+".state", "str", sv)
	}
	b.State = ParseBlockState(ss)
	has, err := addrField(p, d, "address", &b.Address)
	if err != nil {
		return err
	}
	if !has {
		b.Address = next
	}
	if v, ok := d.get("frames"); ok {
		id, err := c.stack(p+".frames", v)
		if err != nil {
			return err
		}
		b.Stack = id
	}
	if v, ok := d.get("history"); ok && v != nil {
		c.history = true
		hl, ok := v.(*pyList)
		if !ok {
			return typeErr(p+".history", "list", v)
		}
		// The first history entry of an active block is its allocation;
		// inactive blocks carry merged histories of freed pieces, which
		// say nothing about live memory.
		if len(hl.items) > 0 && b.State.Active() {
			hp := p + ".history[0]"
			hd, ok := hl.items[0].(*pyDict)
			if !ok {
				return typeErr(hp, "dict", hl.items[0])
			}
			if _, has := d.get("requested_size"); !has {
				if err := intField(hp, hd, "real_size", false, &b.RequestedSize); err != nil {
					return err
				}
			}
			if fv, ok := hd.get("frames"); ok && b.Stack == NoStack {
				id, err := c.stack(hp+".frames", fv)
				if err != nil {
					return err
				}
				b.Stack = id
			}
		}
	}
	return nil
}

func (c *converter) trace(p string, l *pyList) (_ []TraceEntry, err error) {
	defer func() { err = locate(err, l) }()
	tr := make([]TraceEntry, len(l.items))
	for i, ev := range l.items {
		ep := p + "[" + strconv.Itoa(i) + "]"
		ed, ok := ev.(*pyDict)
		if !ok {
			return nil, typeErr(ep, "trace entry dict", ev)
		}
		if err := c.entry(ep, ed, &tr[i]); err != nil {
			return nil, err
		}
	}
	return tr, nil
}

// entry converts one trace entry dict.
func (c *converter) entry(ep string, ed *pyDict, e *TraceEntry) (err error) {
	defer func() { err = locate(err, ed) }()
	av, ok := ed.get("action")
	if !ok {
		return &pathError{path: ep, msg: "missing 'action'"}
	}
	as, ok := av.(string)
	if !ok {
		return typeErr(ep+".action", "str", av)
	}
	e.Action = ParseAction(as)
	if e.Action == ActionOOM {
		if _, err := addrField(ep, ed, "device_free", &e.Addr); err != nil {
			return err
		}
	} else if _, err := addrField(ep, ed, "addr", &e.Addr); err != nil {
		return err
	}
	if err := intField(ep, ed, "size", false, &e.Size); err != nil {
		return err
	}
	if err := intField(ep, ed, "stream", false, &e.Stream); err != nil {
		return err
	}
	if v, ok := ed.get("time_us"); ok {
		n, ok := asInt64(v)
		if !ok {
			return typeErr(ep+".time_us", "int", v)
		}
		e.TimeUS = n
		c.timed = true
	}
	if v, ok := ed.get("frames"); ok {
		id, err := c.stack(ep+".frames", v)
		if err != nil {
			return err
		}
		e.Stack = id
	}
	return nil
}

// stack interns a frames list; a list shared through the pickle memo is
// converted once.
func (c *converter) stack(p string, v any) (_ StackID, err error) {
	defer func() { err = locate(err, v) }()
	if v == nil {
		return NoStack, nil
	}
	l, ok := v.(*pyList)
	if !ok {
		return NoStack, typeErr(p, "list of frames", v)
	}
	if id, ok := c.stacks[l]; ok {
		return id, nil
	}
	ids := make([]FrameID, len(l.items))
	for i, fv := range l.items {
		fd, ok := fv.(*pyDict)
		if !ok {
			return NoStack, typeErr(p+"["+strconv.Itoa(i)+"]", "frame dict", fv)
		}
		id, err := c.frame(p+"["+strconv.Itoa(i)+"]", fd)
		if err != nil {
			return NoStack, err
		}
		ids[i] = id
	}
	id := c.st.InternStack(ids)
	c.stacks[l] = id
	return id, nil
}

func (c *converter) frame(p string, d *pyDict) (_ FrameID, err error) {
	defer func() { err = locate(err, d) }()
	if id, ok := c.frames[d]; ok {
		return id, nil
	}
	var f Frame
	if v, ok := d.get("filename"); ok {
		s, ok := v.(string)
		if !ok {
			return 0, typeErr(p+".filename", "str", v)
		}
		f.File = s
	}
	if v, ok := d.get("name"); ok {
		s, ok := v.(string)
		if !ok {
			return 0, typeErr(p+".name", "str", v)
		}
		f.Name = s
	}
	var line int64
	if err := intField(p, d, "line", false, &line); err != nil {
		return 0, err
	}
	f.Line = int(line)
	id := c.st.InternFrame(f)
	c.frames[d] = id
	return id, nil
}

func settingsFrom(d *pyDict) AllocatorSettings {
	s := AllocatorSettings{Present: true, MaxSplitSize: -1}
	for i, kv := range d.keys {
		k, ok := kv.(string)
		if !ok {
			continue
		}
		v := d.vals[i]
		s.Raw = append(s.Raw, KeyValue{k, formatValue(v)})
		switch k {
		case "PYTORCH_CUDA_ALLOC_CONF":
			if str, ok := v.(string); ok {
				s.Conf = str
			}
		case "max_split_size":
			if n, ok := asInt64(v); ok {
				s.MaxSplitSize = n
			}
		case "garbage_collection_threshold":
			if f, ok := asFloat(v); ok {
				s.GCThreshold = f
			}
		case "expandable_segments":
			if b, ok := v.(bool); ok {
				s.ExpandableSegments = b
			}
		}
	}
	return s
}

func annotations(l *pyList) (_ []Annotation, err error) {
	defer func() { err = locate(err, l) }()
	out := make([]Annotation, 0, len(l.items))
	for i, v := range l.items {
		p := "external_annotations[" + strconv.Itoa(i) + "]"
		d, ok := v.(*pyDict)
		if !ok {
			return nil, typeErr(p, "dict", v)
		}
		var a Annotation
		if sv, ok := d.get("stage"); ok {
			a.Stage, _ = sv.(string)
		}
		if sv, ok := d.get("name"); ok {
			a.Name, _ = sv.(string)
		}
		var dev int64
		if err := intField(p, d, "device", false, &dev); err != nil {
			return nil, locate(err, d)
		}
		a.Device = int(dev)
		if err := intField(p, d, "time_us", false, &a.TimeUS); err != nil {
			return nil, locate(err, d)
		}
		out = append(out, a)
	}
	return out, nil
}
