package alloc

// expandableReserve is the address range reserved for each expandable
// segment (it maps pages of it on demand), in bytes.
const expandableReserve = 1 << 37

// pageSize is the mapping granularity of an expandable segment: 2 MiB for
// the small pool, 20 MiB for the large one.
func pageSize(small bool) int64 {
	if small {
		return SmallBuffer
	}
	return LargeBuffer
}

// mallocExpandable serves a request with expandable_segments:True: best
// fit among free blocks, else the segment's free tail, mapping more pages
// at its end when it is too short (segment_map events). Freed memory is unmapped from the end of
// the mapped range by empty_cache (segment_unmap); the mapped range stays
// contiguous, so each expandable segment is reported as one segment.
func (a *Allocator) mallocExpandable(n, size int64, small bool, stream int64, ctx Ctx) (*Block, error) {
	p := a.poolOf(small)
	if b := a.getFreeBlock(p, stream, size); b != nil {
		return a.allocFound(b, p, n, size, ctx), nil
	}
	if a.expSegs == nil {
		a.expSegs = make(map[expKey]*Segment)
	}
	k := expKey{small, stream}
	seg := a.expSegs[k]
	if seg == nil {
		seg = &Segment{Addr: a.findAddress(expandableReserve), Stream: stream, Small: small, Expandable: true}
		a.insertSegment(seg)
		a.expSegs[k] = seg
	}
	page := pageSize(small)
	need := func() (tail *Block, mapBytes int64) {
		for b := seg.head; b != nil; b = b.next {
			tail = b
		}
		want := size
		if tail != nil && tail.State == Inactive {
			want -= tail.Size
		}
		return tail, (want + page - 1) / page * page
	}
	tail, mapBytes := need()
	if mapBytes <= 0 {
		// The free tail is already large enough: PyTorch's
		// try_allocate_expandable_block takes it as it is, whatever
		// get_free_block's oversize rule said of it.
		p.remove(tail)
		return a.allocFound(tail, p, n, size, ctx), nil
	}
	if mapBytes > a.DeviceFree() {
		a.unmapFree(ctx)
		a.retries++
		tail, mapBytes = need()
		if mapBytes > a.DeviceFree() {
			return nil, a.oom(n, size, mapBytes, p, stream, ctx)
		}
	}
	start := seg.Addr + uint64(seg.Size)
	a.record(SegmentMap, start, mapBytes, stream, ctx)
	seg.Size += mapBytes
	a.reserved += mapBytes
	var b *Block
	if tail != nil && tail.State == Inactive {
		p.remove(tail)
		tail.Size += mapBytes
		b = tail
	} else {
		b = &Block{Addr: start, Size: mapBytes, Stream: stream, seg: seg, prev: tail, mapped: true}
		if tail != nil {
			tail.next = b
		} else {
			seg.head = b
		}
	}
	return a.allocFound(b, p, n, size, ctx), nil
}

// unmapFree unmaps the whole free pages at the end of every expandable
// segment.
func (a *Allocator) unmapFree(ctx Ctx) {
	for _, seg := range a.segs {
		if !seg.Expandable || seg.head == nil {
			continue
		}
		var tail *Block
		for b := seg.head; b != nil; b = b.next {
			tail = b
		}
		if tail.State != Inactive {
			continue
		}
		page := uint64(pageSize(seg.Small))
		keep := seg.Addr + alignUp(tail.Addr-seg.Addr, page)
		end := seg.Addr + uint64(seg.Size)
		if keep >= end {
			continue
		}
		n := int64(end - keep)
		a.record(SegmentUnmap, keep, n, seg.Stream, ctx)
		p := a.poolOf(seg.Small)
		p.remove(tail)
		tail.Size -= n
		seg.Size -= n
		a.reserved -= n
		if tail.Size == 0 {
			if tail.prev != nil {
				tail.prev.next = nil
			} else {
				seg.head = nil
			}
		} else {
			p.insert(tail)
		}
	}
}
