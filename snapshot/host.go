package snapshot

// Pinned host memory (PyTorch 2.14 and later, with
// _record_memory_history(record_pinned_host_memory=True)): the CUDA host
// caching allocator keeps its own segments and trace ring buffer, which
// the snapshot writes as host_segments and host_traces beside the
// devices'. The allocator does not split blocks (each segment is one
// allocation, rounded up to a power of two), but its segments, blocks and
// trace events have the device allocator's fields, so the reader keeps
// them as such and Host presents them as a snapshot of their own: every
// computation over a device's segments and trace works on it unchanged.

// HostDevice is the Device of host segments: pinned host memory belongs
// to no CUDA device (PyTorch writes -1).
const HostDevice = -1

// HasHost reports whether s holds pinned host memory data (segments or a
// trace).
func (s *Snapshot) HasHost() bool {
	if s.HostSegments != nil || s.HostTrace != nil {
		return true
	}
	return s.Digest != nil && s.Digest.Host != nil
}

// Host returns the pinned host memory of s as a snapshot whose only
// device, 0, is the host allocator: its segments (Device 0) and its trace
// (Traces[0]), with the stacks, metadata and settings of s shared. It is
// nil when s has no host data. The result is read-only, like s.
func (s *Snapshot) Host() *Snapshot {
	if !s.HasHost() {
		return nil
	}
	h := &Snapshot{Generation: s.Generation, Settings: s.Settings, Stacks: s.Stacks, Meta: s.Meta, Pools: s.Pools}
	if len(s.HostSegments) > 0 {
		segs := make([]Segment, len(s.HostSegments))
		for i, seg := range s.HostSegments {
			segs[i] = *seg
			segs[i].Device = 0
		}
		h.Segments = pointers(segs)
	}
	if s.Digest != nil {
		h.Digest = &Digest{LatestUS: s.Digest.LatestUS}
		if s.Digest.Host != nil {
			h.Digest.Traces = []TraceDigest{*s.Digest.Host}
		}
		return h
	}
	if s.HostTrace != nil {
		h.Traces = [][]TraceEntry{s.HostTrace}
	}
	return h
}
