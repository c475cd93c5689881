package analyze

import (
	"cmp"
	"fmt"
	"slices"

	"gpureport/analyze/roles"
	"gpureport/snapshot"
)

// Usage is the memory accounting of one device in one snapshot, with the
// meanings docs/design.md gives. Byte fields are bytes.
type Usage struct {
	// Reserved is the sum of segment sizes (memory held from CUDA).
	Reserved int64
	// Allocated is the sum of active_allocated block sizes.
	Allocated int64
	// Active is the sum of active block sizes (allocated + pending free).
	Active int64
	// Requested is the sum of requested sizes of active blocks.
	Requested int64
	// Inactive is Reserved - Active: cached, free memory.
	Inactive int64
	// LargestFree is the largest inactive block.
	LargestFree int64
	// InternalWaste is Active - Requested: rounding waste inside blocks.
	InternalWaste int64
	// StrandedFree is the free bytes in segments that also hold active
	// blocks: empty_cache() cannot return them, and only requests that
	// fit their pieces can use them. ReusableFree is the free bytes
	// empty_cache() can return: whole free segments, and the free blocks
	// of expandable segments (their pages are unmapped one by one). The
	// two sum to Inactive.
	StrandedFree, ReusableFree int64
	// Segments and Blocks count the device's segments and their blocks.
	Segments int
	Blocks   int
	// TraceEntries is the length of the device's trace ring buffer.
	TraceEntries int
}

// ExternalFragmentation is 1 - LargestFree/Inactive: the share of free
// cached memory that is not in the largest free block (0 when nothing is
// free). 0 means all free memory is one hole; near 1 means it is shattered.
func (u Usage) ExternalFragmentation() float64 {
	if u.Inactive <= 0 {
		return 0
	}
	return 1 - float64(u.LargestFree)/float64(u.Inactive)
}

// DeviceUsage computes the Usage of device dev in snapshot s from its
// segments and blocks (not from the segments' own totals).
func DeviceUsage(s *snapshot.Snapshot, dev int) Usage {
	var u Usage
	for i := range s.Segments {
		seg := s.Segments[i]
		if seg.Device != dev {
			continue
		}
		u.add(seg)
	}
	u.finish()
	u.TraceEntries = s.TraceEntries(dev)
	return u
}

// usageOfPools is DeviceUsage from the PoolUsages of the same device and
// snapshot, which split its segments: the sums are summed, LargestFree is
// the largest of theirs, traceEntries is the device's trace length. A
// series reads both of every snapshot, and reading every block once for
// both halves the time.
func usageOfPools(pools []PoolUsage, traceEntries int) Usage {
	var u Usage
	for i := range pools {
		p := &pools[i].Usage
		u.Reserved += p.Reserved
		u.Allocated += p.Allocated
		u.Active += p.Active
		u.Requested += p.Requested
		u.LargestFree = max(u.LargestFree, p.LargestFree)
		u.StrandedFree += p.StrandedFree
		u.ReusableFree += p.ReusableFree
		u.Segments += p.Segments
		u.Blocks += p.Blocks
	}
	u.finish()
	u.TraceEntries = traceEntries
	return u
}

// finish derives Inactive and InternalWaste once the sums are in.
func (u *Usage) finish() {
	u.Inactive = u.Reserved - u.Active
	u.InternalWaste = u.Active - u.Requested
}

// PoolUsage is the Usage of one pool of a device in one snapshot.
type PoolUsage struct {
	// Pool is "small", "large", or "private (a, b)" for a CUDA graph or
	// MemPool private pool.
	Pool string
	// ID is the pool's segment_pool_id ((0, 0) for the default pool's
	// small and large parts).
	ID [2]int64
	// Kind is what kind of pool it is, and Name a MemPool's name from its
	// allocations' user_metadata ("" when none); KindDecided says what
	// decided the kind (roles.Pools).
	Kind        roles.PoolKind
	Name        string
	KindDecided roles.PoolEvidence
	Usage
}

// PoolUsages splits device dev's usage by pool: the default pool's small
// and large segments, and each private pool (CUDA graphs, MemPool) apart,
// with each pool's kind. Pools are listed small, large, then private
// pools by id.
func PoolUsages(s *snapshot.Snapshot, dev int) []PoolUsage {
	kinds := map[[2]int64]roles.Pool{}
	for _, p := range roles.Pools(s, dev) {
		kinds[p.ID] = p
	}
	type key struct {
		private [2]int64
		pool    snapshot.Pool
	}
	m := map[key]*PoolUsage{}
	// The default pool's parts (small, large) by pool, not by the map:
	// a snapshot in address order alternates between them.
	var def [snapshot.PoolLarge + 1]*PoolUsage
	var keys []key
	// last is the pool of the segment before: a snapshot lists the
	// segments of one pool in runs, and a map lookup a segment was most
	// of this function's time on thousands of segments.
	var last struct {
		k  key
		pu *PoolUsage
	}
	for i := range s.Segments {
		seg := s.Segments[i]
		if seg.Device != dev {
			continue
		}
		k := key{pool: seg.Pool}
		if seg.PrivatePool != [2]int64{} {
			k = key{private: seg.PrivatePool}
		}
		if last.pu == nil || k != last.k {
			byIndex := k.private == [2]int64{} && k.pool <= snapshot.PoolLarge
			var pu *PoolUsage
			if byIndex {
				pu = def[k.pool]
			} else {
				pu = m[k]
			}
			if pu == nil {
				name := seg.Pool.String()
				if k.private != [2]int64{} {
					name = fmt.Sprintf("private (%d, %d)", k.private[0], k.private[1])
				}
				kind := kinds[seg.PrivatePool]
				pu = &PoolUsage{Pool: name, ID: seg.PrivatePool, Kind: kind.Kind, Name: kind.Name, KindDecided: kind.Decided}
				if byIndex {
					def[k.pool] = pu
				}
				m[k] = pu
				keys = append(keys, k)
			}
			last.k, last.pu = k, pu
		}
		last.pu.add(seg)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.private[0], b.private[0]), cmp.Compare(a.private[1], b.private[1]), cmp.Compare(a.pool, b.pool))
	})
	out := make([]PoolUsage, 0, len(keys))
	for _, k := range keys {
		pu := m[k]
		pu.finish()
		out = append(out, *pu)
	}
	return out
}

func (u *Usage) add(seg *snapshot.Segment) {
	u.Segments++
	u.Reserved += seg.TotalSize
	u.Blocks += len(seg.Blocks)
	var active int64
	for j := range seg.Blocks {
		b := &seg.Blocks[j]
		switch b.State {
		case snapshot.StateActiveAllocated:
			u.Allocated += b.Size
			u.Active += b.Size
			u.Requested += b.RequestedSize
			active += b.Size
		case snapshot.StateActivePendingFree:
			u.Active += b.Size
			u.Requested += b.RequestedSize
			active += b.Size
		default:
			if b.Size > u.LargestFree {
				u.LargestFree = b.Size
			}
		}
	}
	// Free is what the segment holds beyond its active blocks, as
	// Inactive counts it.
	if free := seg.TotalSize - active; active > 0 && !seg.Expandable {
		u.StrandedFree += free
	} else {
		u.ReusableFree += free
	}
}

// HostPinnedKind is the kind of the device that pinned host memory is
// (docs/design.md): the CUDA host caching allocator's segments, recorded with
// _record_memory_history(record_pinned_host_memory=True).
const HostPinnedKind = "host_pinned"

// HostUsage is the Usage of the host_pinned device of snapshot s (its
// pinned host segments, and the length of its host trace), and false
// when s has no pinned host memory data.
func HostUsage(s *snapshot.Snapshot) (Usage, bool) {
	h := s.Host()
	if h == nil {
		return Usage{}, false
	}
	return DeviceUsage(h, 0), true
}
