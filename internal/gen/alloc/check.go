package alloc

import "fmt"

// Check verifies the allocator's invariants, the ones every real snapshot
// obeys and a few of the simulator's own: segments sorted and disjoint;
// blocks contiguous from their segment's start and summing to its size;
// free blocks in the free lists of their segment's pool (private pools
// apart);
// sizes and addresses multiples of 512; small segments 2 MiB; no two
// neighbouring free blocks; the free pools holding exactly the free
// blocks; and the running totals equal to the block sums.
func (a *Allocator) Check() error {
	var reserved, allocated, active int64
	free := map[*Block]bool{}
	var prevEnd uint64
	for i, s := range a.segs {
		if i > 0 && s.Addr < prevEnd {
			return fmt.Errorf("segment %#x overlaps the previous one (ends %#x)", s.Addr, prevEnd)
		}
		prevEnd = s.Addr + uint64(a.span(s))
		if !s.Expandable {
			switch {
			case s.Small && s.Size != SmallBuffer:
				return fmt.Errorf("small segment %#x of %d bytes", s.Addr, s.Size)
			case !s.Small && (s.Size%RoundLarge != 0 || s.Size < MinLargeAlloc):
				return fmt.Errorf("large segment %#x of %d bytes", s.Addr, s.Size)
			}
		}
		next := s.Addr
		var total int64
		var prev *Block
		for b := s.head; b != nil; b = b.next {
			if b.seg != s || b.prev != prev {
				return fmt.Errorf("segment %#x: block %#x has broken links", s.Addr, b.Addr)
			}
			if b.Addr != next {
				return fmt.Errorf("segment %#x: block at %#x, want %#x", s.Addr, b.Addr, next)
			}
			if b.Size <= 0 || b.Size%MinBlockSize != 0 || b.Addr%MinBlockSize != 0 {
				return fmt.Errorf("segment %#x: block %#x has size %d", s.Addr, b.Addr, b.Size)
			}
			if b.State == Inactive && prev != nil && prev.State == Inactive {
				return fmt.Errorf("segment %#x: free blocks %#x and %#x not merged", s.Addr, prev.Addr, b.Addr)
			}
			switch b.State {
			case Inactive:
				free[b] = true
			case ActiveAllocated:
				allocated += b.Size
				active += b.Size
			case ActivePendingFree:
				active += b.Size
			}
			next += uint64(b.Size)
			total += b.Size
			prev = b
		}
		if total != s.Size {
			return fmt.Errorf("segment %#x: blocks sum to %d, segment size %d", s.Addr, total, s.Size)
		}
		reserved += s.Size
	}
	n := 0
	type idPool struct {
		id PoolID
		p  *pool
	}
	pools := []idPool{{PoolID{}, &a.small}, {PoolID{}, &a.large}}
	for id, pp := range a.private {
		pools = append(pools, idPool{id, &pp[0]}, idPool{id, &pp[1]})
	}
	for _, ip := range pools {
		p := ip.p
		for i, b := range p.free {
			if !free[b] {
				return fmt.Errorf("pool holds block %#x (%s) that is not a free block of a segment", b.Addr, b.State)
			}
			if b.seg.Small != p.small || b.seg.Pool != ip.id {
				return fmt.Errorf("block %#x in the wrong pool", b.Addr)
			}
			if i > 0 {
				q := p.free[i-1]
				if q.Stream > b.Stream || q.Stream == b.Stream && (q.Size > b.Size || q.Size == b.Size && q.Addr >= b.Addr) {
					return fmt.Errorf("pool not sorted at %d", i)
				}
			}
			n++
		}
	}
	if n != len(free) {
		return fmt.Errorf("%d free blocks, pools hold %d", len(free), n)
	}
	if reserved != a.reserved || allocated != a.allocated || active != a.active {
		return fmt.Errorf("totals reserved %d allocated %d active %d; blocks say %d %d %d",
			a.reserved, a.allocated, a.active, reserved, allocated, active)
	}
	return nil
}
