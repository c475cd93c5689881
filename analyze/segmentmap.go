package analyze

import (
	"cmp"
	"slices"

	"gpureport/analyze/frames"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// The segment map is the layout of a device's last snapshot: every
// segment in address order, each with its blocks, their state and
// innermost frame, and the leak suspect (unsuppressed) whose stack
// allocated them. A block belongs to a suspect when its stack has the
// suspect's fingerprint, or its site when a suspect merges stacks.

// SegmentMap is the segments of a device's last snapshot.
type SegmentMap struct {
	// Path is the snapshot file.
	Path string
	// Segments are the device's segments in address order.
	Segments []MapSegment
}

// MapSegment is one segment of a SegmentMap.
type MapSegment struct {
	// Address is the segment's first byte; Size its bytes.
	Address uint64
	Size    int64
	// Pool is the size class it serves ("small", "large"); Stream its
	// CUDA stream; Expandable is true for an expandable segment.
	Pool       string
	Stream     int64
	Expandable bool
	// Blocks split the segment, in address order.
	Blocks []MapBlock
}

// MapBlock is one block of a MapSegment.
type MapBlock struct {
	// Address is the block's first byte, Size its bytes.
	Address uint64
	Size    int64
	// State is PyTorch's name for the block's state ("active_allocated",
	// "active_pending_free", "inactive").
	State string
	// Frame is the innermost frame of its stack; HasFrame is false for a
	// block without one.
	Frame    Frame
	HasFrame bool
	// Suspect is the index in Device.Suspects of the unsuppressed leak
	// suspect whose stack allocated it, -1 when none did (and for a free
	// block).
	Suspect int
}

// segmentMapOf lays out device d's segments in its last snapshot file
// sf; nil when sf holds only a digest. memo is the run's signatures by
// frames (the stacks of the last snapshot were signed for attribution).
func segmentMapOf(d *Device, sf *ingest.SnapshotFile, memo *frames.StackMemo[*Signature]) *SegmentMap {
	if sf == nil || sf.Snapshot == nil {
		return nil
	}
	snap := sf.Snapshot
	m := &SegmentMap{Path: sf.Path}
	fp, site := map[string]int{}, map[string]int{}
	for i := len(d.Suspects) - 1; i >= 0; i-- {
		if s := &d.Suspects[i]; s.Suppressed == "" {
			if s.Fingerprint != "" {
				fp[s.Fingerprint] = i
			}
			if s.Site != "" {
				site[s.Site] = i
			}
		}
	}
	of := map[snapshot.StackID]int{}
	sigs := newRunSignatureCache(&snap.Stacks, memo)
	frames := map[snapshot.StackID]Frame{}
	frameOf := func(id snapshot.StackID) (Frame, bool) {
		if fr, ok := frames[id]; ok {
			return fr, true
		}
		// The innermost frame only: copying each stack's frames to
		// read the first was most of the map's time.
		ids := snap.Stacks.Stack(id)
		if len(ids) == 0 {
			return Frame{}, false
		}
		fr := snap.Stacks.Frames[ids[0]]
		frames[id] = fr
		return fr, true
	}
	suspectOf := func(id snapshot.StackID) int {
		if len(fp)+len(site) == 0 || id == snapshot.NoStack {
			return -1
		}
		if i, ok := of[id]; ok {
			return i
		}
		sig := sigs.get(id)
		i, ok := fp[sig.Fingerprint]
		if !ok {
			i, ok = site[sig.Site]
		}
		if !ok {
			i = -1
		}
		of[id] = i
		return i
	}
	// One array for every segment's blocks, sized first: a large model's
	// 175k blocks (100 bytes each here) appended segment by segment grew
	// and copied each segment's list (38 ms of a report).
	nseg, nblock := 0, 0
	for _, sg := range snap.Segments {
		if sg.Device == d.Device {
			nseg++
			nblock += len(sg.Blocks)
		}
	}
	if nseg > 0 { // none stays nil, as it was
		m.Segments = make([]MapSegment, 0, nseg)
	}
	blocks := make([]MapBlock, 0, nblock)
	for i := range snap.Segments {
		sg := snap.Segments[i]
		if sg.Device != d.Device {
			continue
		}
		ms := MapSegment{Address: sg.Address, Size: sg.TotalSize, Pool: sg.Pool.String(), Stream: sg.Stream, Expandable: sg.Expandable}
		start := len(blocks)
		for _, b := range sg.Blocks {
			mb := MapBlock{Address: b.Address, Size: b.Size, State: b.State.String(), Suspect: -1}
			if b.Stack != snapshot.NoStack {
				mb.Frame, mb.HasFrame = frameOf(b.Stack)
			}
			if b.State != snapshot.StateInactive {
				mb.Suspect = suspectOf(b.Stack)
			}
			blocks = append(blocks, mb)
		}
		if len(blocks) > start {
			ms.Blocks = blocks[start:len(blocks):len(blocks)]
		}
		m.Segments = append(m.Segments, ms)
	}
	slices.SortStableFunc(m.Segments, func(a, b MapSegment) int { return cmp.Compare(a.Address, b.Address) })
	return m
}
