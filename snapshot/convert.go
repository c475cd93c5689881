package snapshot

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
)

// ErrNotSnapshot is wrapped by errors for pickles that decode but are not a
// memory snapshot (a list of ints, a dict without segments, ...).
var ErrNotSnapshot = errors.New("not a PyTorch memory snapshot")

// convertSnapshotAt turns a generic Python value tree into a Snapshot. It
// accepts every generation described in docs/snapshot-format.md: a dict with
// segments (and optionally device_traces, allocator_settings,
// external_annotations), or a bare list of segments.
//
// The shape of the snapshot (a dict or list of segments, segment dicts
// with a list of block dicts, device_traces as lists of entry dicts) must
// be there, or the file is not a snapshot. Everything else is read by
// meaning (decode_fields.go): lists and tuples alike, str and bytes alike,
// integers of any width, unknown keys ignored, missing keys and None as
// unknown; a field that cannot be made sense of gets an assumed value and a
// note in Snapshot.Notes.
//
// The tree's top-level value was returned by the STOP opcode at offset
// stopAt-1 (0: unknown); errors carry the offset of the container where
// the layout goes wrong when the tree records it (the fast decoder's
// generic mode does, gopickle's tree does not).
func convertSnapshotAt(v any, stopAt int64) (*Snapshot, error) {
	c := converter{
		stopAt:  stopAt,
		stacks:  map[*pyList]StackID{},
		tstacks: map[*any]StackID{},
		frames:  map[*pyDict]FrameID{},
	}
	s, err := c.snapshot(v)
	if err != nil {
		return nil, err
	}
	finish(s, c.st, &c.meta, &c.pools, &c.notes)
	return s, nil
}

// finish gives s what a decoder collected besides its segments and
// traces: the stack table (sealed), the metadata texts and pool ids, and
// the notes, with those of checking its segments. Both decoders end so.
func finish(s *Snapshot, st Stacks, meta *metaTable, pools *poolTable, notes *noteSet) {
	s.Stacks = st
	s.Stacks.Seal()
	s.Meta, s.Pools = meta.texts, pools.pairs
	checkSegments(s, notes)
	s.Notes = notes.notes
}

type converter struct {
	st      Stacks
	stacks  map[*pyList]StackID
	tstacks map[*any]StackID // tuples of frames, by their first item
	frames  map[*pyDict]FrameID
	notes   noteSet
	meta    metaTable
	pools   poolTable
	// host is set while host_segments are read: their device is
	// HostDevice, whatever the field says.
	host bool

	history, timed bool
	stopAt         int64
}

// pathError is a structural error at a logical place in the snapshot, such
// as segments[3].blocks[7], and where known the offset of the dict or
// list it is in.
type pathError struct {
	path string
	msg  string
	at   int64 // offset+1 of the enclosing container's opcode; 0 if unknown
	// json is true when at counts bytes of JSON text, not of a pickle
	// stream: the error then says "JSON at byte N", as the JSON reader's
	// own errors do.
	json bool
}

func (e *pathError) Error() string {
	msg := ErrNotSnapshot.Error() + ": "
	if e.path != "" {
		msg += e.path + ": "
	}
	msg += e.msg
	switch {
	case e.at > 0 && e.json:
		msg = "JSON at byte " + strconv.FormatInt(e.at-1, 10) + ": " + msg
	case e.at > 0:
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

// seqOf returns the items of a list or a tuple, and false for anything
// else: the two are alike in a snapshot.
func seqOf(v any) ([]any, bool) {
	switch x := v.(type) {
	case *pyList:
		return x.items, true
	case pyTuple:
		return x, true
	}
	return nil, false
}

// strOf reads a text field: a str, or bytes (generic trees hold bytes as
// str already). Missing and None read "" without a problem.
func strOf(v any, present bool) (string, fieldProblem) {
	switch x := v.(type) {
	case string:
		return x, probNone
	case []byte:
		return string(x), probNone
	case nil:
		return "", probNone
	}
	if !present {
		return "", probNone
	}
	return "", probNotStr
}

// get returns the value of key k of d, nil when it has none.
func get(d *pyDict, k string) any {
	v, _ := d.get(k)
	return v
}

func (c *converter) snapshot(v any) (_ *Snapshot, err error) {
	defer func() { err = locate(err, v) }()
	s := &Snapshot{}
	if items, ok := seqOf(v); ok {
		segs, err := c.segments("segments", items, v)
		if err != nil {
			return nil, err
		}
		s.Segments = pointers(segs)
		s.Generation = GenSegmentsList
		return s, nil
	}
	top, ok := v.(*pyDict)
	if !ok {
		if n, ok := v.(*big.Int); ok && n.Text(16) == legacyTorchMagic {
			return nil, &pathError{msg: "a legacy torch.save file (PyTorch before 1.6, or _use_new_zipfile_serialization=False), whose first pickle is its magic number: save the snapshot again with torch.save's default format, or write it with torch.cuda.memory._dump_snapshot", at: c.stopAt}
		}
		return nil, &pathError{msg: "top level is a " + typeName(v) + ", not a dict or a list of segments", at: c.stopAt}
	}
	sv, ok := top.get("segments")
	if !ok {
		return nil, &pathError{msg: "top-level dict has no 'segments' key"}
	}
	items, ok := seqOf(sv)
	if !ok {
		return nil, typeErr("segments", "list", sv)
	}
	segs, err := c.segments("segments", items, sv)
	if err != nil {
		return nil, err
	}
	s.Segments = pointers(segs)
	if tv := get(top, "device_traces"); tv != nil {
		tl, ok := seqOf(tv)
		if !ok {
			return nil, typeErr("device_traces", "list", tv)
		}
		s.Traces = make([][]TraceEntry, len(tl))
		for d, dv := range tl {
			p := "device_traces[" + strconv.Itoa(d) + "]"
			el, ok := seqOf(dv)
			if !ok {
				return nil, locate(typeErr(p, "list", dv), tv)
			}
			tr, err := c.trace(p, el, dv)
			if err != nil {
				return nil, locate(err, tv)
			}
			s.Traces[d] = tr
		}
	}
	readExtras(s, get(top, "allocator_settings"), get(top, "external_annotations"), &c.notes)
	if err := c.hostMemory(s, get(top, "host_segments"), get(top, "host_traces")); err != nil {
		return nil, err
	}
	s.Generation = generationOf(c.history, c.timed)
	return s, nil
}

// hostMemory sets s's pinned host memory from the values of host_segments
// and host_traces (nil when absent or None). host_segments is a list of
// segment dicts, as segments is; host_traces a list of trace entry dicts
// (the host allocator has one ring buffer), or a list of such lists,
// which are read one after the other. A value of another shape is noted
// and left out; a segment or entry inside that is not a dict fails the
// file, as it does in segments and device_traces. The fast decoder reads
// host memory through this too.
func (c *converter) hostMemory(s *Snapshot, segs, traces any) error {
	if segs != nil {
		items, ok := seqOf(segs)
		if !ok {
			c.notes.add("host_segments", probNotList, segs, assumeNoHost)
		} else {
			c.host = true
			hs, err := c.segments("host_segments", items, segs)
			c.host = false
			if err != nil {
				return err
			}
			s.HostSegments = pointers(hs)
		}
	}
	if traces == nil {
		return nil
	}
	items, ok := seqOf(traces)
	if !ok {
		c.notes.add("host_traces", probNotList, traces, assumeNoHost)
		return nil
	}
	nested := len(items) > 0
	for _, it := range items {
		if _, isList := seqOf(it); !isList {
			nested = false
		}
	}
	if !nested {
		tr, err := c.trace("host_traces", items, traces)
		if err != nil {
			return err
		}
		s.HostTrace = tr
		return nil
	}
	s.HostTrace = []TraceEntry{}
	for i, it := range items {
		el, _ := seqOf(it)
		tr, err := c.trace("host_traces["+strconv.Itoa(i)+"]", el, it)
		if err != nil {
			return locate(err, traces)
		}
		s.HostTrace = append(s.HostTrace, tr...)
	}
	return nil
}

// readExtras sets s's allocator settings and annotations from their
// generic values (nil when absent or None), noting a value of the wrong
// type. Both decoders read them this way.
func readExtras(s *Snapshot, settings, annots any, ns *noteSet) {
	if settings != nil {
		if d, ok := settings.(*pyDict); ok {
			s.Settings = settingsFrom(d)
		} else {
			ns.add("allocator_settings", probNotDict, settings, assumeNoSettings)
		}
	}
	if annots != nil {
		if l, ok := seqOf(annots); ok {
			s.Annotations = annotations(l, ns)
		} else {
			ns.add("external_annotations", probNotList, annots, assumeNoAnnots)
		}
	}
}

// generationOf names the layout from what the file holds: block
// histories, else timed trace events, else frames only.
func generationOf(history, timed bool) Generation {
	switch {
	case history:
		return GenHistory
	case timed:
		return GenTimed
	}
	return GenFrames
}

// segments converts the items of a segments list (where: the list, for
// error offsets).
func (c *converter) segments(path string, items []any, where any) ([]Segment, error) {
	return convertDicts(path, items, where, "segment dict", c.segment)
}

// convertDicts converts each item of a list (where: the list) with one,
// which gets the item's path; an item that is no dict fails as what.
func convertDicts[T any](path string, items []any, where any, what string, one func(p string, d *pyDict, out *T) error) (_ []T, err error) {
	defer func() { err = locate(err, where) }()
	out := make([]T, len(items))
	for i, v := range items {
		p := path + "[" + strconv.Itoa(i) + "]"
		d, ok := v.(*pyDict)
		if !ok {
			return nil, typeErr(p, what, v)
		}
		if err := one(p, d, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *converter) segment(p string, d *pyDict, s *Segment) (err error) {
	defer func() { err = locate(err, d) }()
	bv, ok := d.get("blocks")
	if !ok {
		return &pathError{path: p, msg: "missing 'blocks'"}
	}
	bl, ok := seqOf(bv)
	if !ok {
		return typeErr(p+".blocks", "list", bv)
	}
	var pr fieldProblem
	v := get(d, "device")
	if c.host {
		s.Device = HostDevice
	} else if s.Device, pr = deviceField(numOf(v)); pr != probNone {
		c.notes.add(p+".device", pr, v, assumeDevice0)
	}
	v = get(d, "address")
	if a, _, pr := addrField(numOf(v)); pr != probNone {
		c.notes.add(p+".address", pr, v, assumeAddress0)
	} else {
		s.Address = a
	}
	v = get(d, "stream")
	if s.Stream, pr = streamField(numOf(v)); pr != probNone {
		c.notes.add(p+".stream", pr, v, assumeStream0)
	}
	if v, ok := d.get("segment_type"); ok {
		switch str, pr := strOf(v, true); {
		case pr != probNone:
			c.notes.add(p+".segment_type", pr, v, assumePoolUnknown)
		case str == "small":
			s.Pool = PoolSmall
		case str == "large":
			s.Pool = PoolLarge
		}
	}
	if v := get(d, "segment_pool_id"); v != nil {
		pool, ok := poolPair(v)
		if !ok {
			c.notes.add(p+".segment_pool_id", probNotPair, v, assumeDefaultPool)
		}
		s.PrivatePool = pool
	}
	v, present := d.get("is_expandable")
	x, st := numOf(v)
	_, isBool := v.(bool)
	if s.Expandable, pr = boolField(x, st, isBool); pr != probNone && present {
		c.notes.add(p+".is_expandable", pr, v, assumeNotExpand)
	}
	s.Stack = c.stack(p+".frames", d)
	s.Blocks = make([]Block, len(bl))
	next := s.Address
	for i, b := range bl {
		bp := p + ".blocks[" + strconv.Itoa(i) + "]"
		bd, ok := b.(*pyDict)
		if !ok {
			return locate(typeErr(bp, "block dict", b), bv)
		}
		c.block(bp, bd, next, &s.Blocks[i])
		next = s.Blocks[i].Address + uint64(s.Blocks[i].Size)
	}
	total, alloc, active, req := blockSums(s.Blocks)
	v = get(d, "total_size")
	if n, known, pr := sizeField(numOf(v)); known {
		s.TotalSize = n
	} else {
		s.TotalSize = total
		c.notes.add(p+".total_size", pr, v, assumeTotalSize)
	}
	for _, f := range [...]struct {
		k   string
		dst *int64
		sum int64
	}{{"allocated_size", &s.AllocatedSize, alloc}, {"active_size", &s.ActiveSize, active}, {"requested_size", &s.RequestedSize, req}} {
		v := get(d, f.k)
		n, known, pr := sizeField(numOf(v))
		switch {
		case known:
			*f.dst = n
		case pr == probMissing || pr == probUnknown:
			*f.dst = f.sum // redundant with the blocks: no note
		default:
			*f.dst = f.sum
			c.notes.add(p+"."+f.k, pr, v, assumeSegSum)
		}
	}
	return nil
}

// poolPair reads segment_pool_id: a tuple (or list) of two integers.
func poolPair(v any) ([2]int64, bool) {
	var pool [2]int64
	items, ok := seqOf(v)
	if !ok || len(items) != 2 {
		return pool, false
	}
	for i, it := range items {
		x, st := numOf(it)
		if st != intOK && st != intHigh {
			return [2]int64{}, false
		}
		pool[i] = int64(x)
	}
	return pool, true
}

func (c *converter) block(p string, d *pyDict, next uint64, b *Block) {
	v := get(d, "size")
	n, known, pr := sizeField(numOf(v))
	if !known {
		c.notes.add(p+".size", pr, v, assumeBlockSize0)
	}
	b.Size = n
	sv, present := d.get("state")
	switch str, pr := strOf(sv, present); {
	case pr != probNone:
		b.State = StateUnknown
		c.notes.add(p+".state", pr, sv, assumeStateUnknown)
	case sv == nil:
		b.State = StateUnknown
		c.notes.add(p+".state", probMissing, nil, assumeStateUnknown)
	default:
		if b.State = ParseBlockState(str); b.State == StateUnknown {
			c.notes.add(p+".state", probUnknownName, str, assumeStateUnknown)
		}
	}
	v = get(d, "address")
	a, known, pr := addrField(numOf(v))
	if pr != probNone {
		c.notes.add(p+".address", pr, v, assumeBlockAddress)
	}
	b.Address = next
	if known {
		b.Address = a
	}
	b.Stack = c.stack(p+".frames", d)
	// The first history entry of an active block is its allocation;
	// inactive blocks carry merged histories of freed pieces, which say
	// nothing about live memory.
	var real any
	if hv := get(d, "history"); hv != nil {
		c.history = true
		hl, ok := seqOf(hv)
		switch {
		case !ok:
			c.notes.add(p+".history", probNotList, hv, assumeNoHistory)
		case len(hl) > 0 && b.State.Active():
			hp := p + ".history[0]"
			if hd, ok := hl[0].(*pyDict); !ok {
				c.notes.add(hp, probNotDict, hl[0], assumeNoHistory)
			} else {
				real = get(hd, "real_size")
				if b.Stack == NoStack {
					b.Stack = c.stack(hp+".frames", hd)
				}
			}
		}
	}
	rv := get(d, "requested_size")
	rx, rst := numOf(rv)
	ax, ast := numOf(real)
	if b.RequestedSize, pr = blockRequested(b.State.Active(), b.Size, rx, rst, ax, ast); pr != probNone {
		c.notes.add(p+".requested_size", pr, rv, assumeRequested)
	}
}

// trace converts the items of one device's trace list (where: the list).
func (c *converter) trace(p string, items []any, where any) ([]TraceEntry, error) {
	return convertDicts(p, items, where, "trace entry dict", func(ep string, ed *pyDict, e *TraceEntry) error {
		c.entry(ep, ed, e)
		return nil
	})
}

// entry converts one trace entry dict.
func (c *converter) entry(ep string, ed *pyDict, e *TraceEntry) {
	av, present := ed.get("action")
	switch str, pr := strOf(av, present); {
	case pr != probNone:
		c.notes.add(ep+".action", pr, av, assumeActionOther)
	case av == nil:
		c.notes.add(ep+".action", probMissing, nil, assumeActionOther)
	default:
		e.Action = ParseAction(str)
	}
	ak := "addr"
	if e.Action == ActionOOM {
		ak = "device_free"
	}
	v := get(ed, ak)
	var pr fieldProblem
	if e.Addr, _, pr = addrField(numOf(v)); pr != probNone {
		c.notes.add(ep+"."+ak, pr, v, assumeZero)
	}
	v = get(ed, "size")
	if e.Size, pr = optSize(numOf(v)); pr != probNone {
		c.notes.add(ep+".size", pr, v, assumeZero)
	}
	v = get(ed, "stream")
	if e.Stream, pr = streamField(numOf(v)); pr != probNone {
		c.notes.add(ep+".stream", pr, v, assumeStream0)
	}
	if v, ok := ed.get("time_us"); ok {
		c.timed = true
		if e.TimeUS, pr = optSize(numOf(v)); pr != probNone {
			c.notes.add(ep+".time_us", pr, v, assumeZero)
		}
	}
	e.Stack = c.stack(ep+".frames", ed)
	if v, present := ed.get("user_metadata"); present {
		str, pr := strOf(v, true)
		if pr != probNone {
			c.notes.add(ep+".user_metadata", pr, v, assumeNoMeta)
		}
		e.Meta = c.meta.id(str)
	}
	if v := get(ed, "pool_id"); v != nil {
		pair, ok := poolPair(v)
		switch {
		case !ok:
			c.notes.add(ep+".pool_id", probNotPair, v, assumeNoPoolID)
		default:
			if e.Pool, ok = c.pools.ref(pair); !ok {
				c.notes.addText(ep+".pool_id", "one pool id more than the "+strconv.Itoa(maxPools)+" this reader keeps", assumeNoPoolID)
			}
		}
	}
}

// stack interns the frames list under key "frames" of d (NoStack when it
// has none); a list shared through the pickle memo is converted once. A
// frames value that is no list, or a frame that is no dict, is noted and
// left out.
func (c *converter) stack(p string, d *pyDict) StackID {
	v := get(d, "frames")
	if v == nil {
		return NoStack
	}
	var items []any
	switch x := v.(type) {
	case *pyList:
		if id, ok := c.stacks[x]; ok {
			return id
		}
		items = x.items
	case pyTuple:
		if len(x) == 0 {
			return NoStack
		}
		if id, ok := c.tstacks[&x[0]]; ok {
			return id
		}
		items = x
	default:
		c.notes.add(p, probNotList, v, assumeNoStack)
		return NoStack
	}
	ids := make([]FrameID, 0, len(items))
	for i, fv := range items {
		fd, ok := fv.(*pyDict)
		if !ok {
			c.notes.add(p+"["+strconv.Itoa(i)+"]", probNotDict, fv, assumeFrameSkipped)
			continue
		}
		ids = append(ids, c.frame(p+"["+strconv.Itoa(i)+"]", fd))
	}
	id := c.st.InternStack(ids)
	switch x := v.(type) {
	case *pyList:
		c.stacks[x] = id
	case pyTuple:
		c.tstacks[&x[0]] = id
	}
	return id
}

func (c *converter) frame(p string, d *pyDict) FrameID {
	if id, ok := c.frames[d]; ok {
		return id
	}
	var f Frame
	strFields(d, p, &c.notes, strField{"filename", &f.File}, strField{"name", &f.Name})
	fxFields(d, p, &c.notes, &f.FX)
	v := get(d, "line")
	var pr fieldProblem
	if f.Line, pr = lineField(numOf(v)); pr != probNone {
		c.notes.add(p+".line", pr, v, assumeZero)
	}
	id := c.st.InternFrame(f)
	c.frames[d] = id
	return id
}

// fxFields reads the FX node fields that augment_with_fx_traces adds to
// a frame dict (fx_node_op, fx_node_name, fx_node_target,
// fx_original_trace) into fx; absent ones stay empty, and one that is no
// str is noted and taken as empty.
func fxFields(d *pyDict, p string, ns *noteSet, fx *FXNode) {
	for _, k := range [...]strField{{"fx_node_op", &fx.Op}, {"fx_node_name", &fx.Name}, {"fx_node_target", &fx.Target}, {"fx_original_trace", &fx.Trace}} {
		if v, present := d.get(k.key); present {
			var pr fieldProblem
			if *k.dst, pr = strOf(v, true); pr != probNone {
				ns.add(p+"."+k.key, pr, v, assumeEmpty)
			}
		}
	}
}

// strField is a str field of a dict and where its text goes.
type strField struct {
	key string
	dst *string
}

// strFields reads the str fields of dict d (at path p), noting each that
// is missing or no str (and taken as empty).
func strFields(d *pyDict, p string, ns *noteSet, fields ...strField) {
	for _, k := range fields {
		v, present := d.get(k.key)
		var pr fieldProblem
		if *k.dst, pr = strOf(v, present); pr != probNone {
			ns.add(p+"."+k.key, pr, v, assumeEmpty)
		}
	}
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
			// A fraction: PyTorch takes none outside (0, 1). Another
			// value (NaN, a negative) is left as off; Raw keeps it.
			if f, ok := asFloat(v); ok && f >= 0 && f <= 1 {
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

// annotations converts the items of external_annotations; items that are
// not dicts are left out, with a note.
func annotations(items []any, ns *noteSet) []Annotation {
	out := make([]Annotation, 0, len(items))
	for i, v := range items {
		p := "external_annotations[" + strconv.Itoa(i) + "]"
		d, ok := v.(*pyDict)
		if !ok {
			ns.add(p, probNotDict, v, assumeSkipped)
			continue
		}
		var a Annotation
		strFields(d, p, ns, strField{"stage", &a.Stage}, strField{"name", &a.Name})
		v := get(d, "device")
		var pr fieldProblem
		if a.Device, pr = deviceField(numOf(v)); pr != probNone {
			ns.add(p+".device", pr, v, assumeDevice0)
		}
		v = get(d, "time_us")
		if a.TimeUS, pr = optSize(numOf(v)); pr != probNone {
			ns.add(p+".time_us", pr, v, assumeZero)
		}
		out = append(out, a)
	}
	return out
}

// legacyTorchMagic is the number a legacy (non-zip) torch.save stream
// pickles first (torch/serialization.py's MAGIC_NUMBER), before its
// protocol version, system information and the saved object (in
// hexadecimal).
const legacyTorchMagic = "1950a86a20f9469cfc6c"
