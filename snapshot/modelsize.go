package snapshot

import "unsafe"

// ModelBytes estimates the memory the decoded snapshot holds, in bytes:
// the segment, block and trace entry arrays, the interned frames (string
// bytes counted once however many frames share them) and stacks, the
// settings and the annotations. Arrays shared between devices count once.
func (s *Snapshot) ModelBytes() int64 {
	n := int64(unsafe.Sizeof(*s))
	n += int64(cap(s.Segments))*int64(unsafe.Sizeof((*Segment)(nil))) + int64(len(s.Segments))*int64(unsafe.Sizeof(Segment{}))
	for i := range s.Segments {
		n += int64(cap(s.Segments[i].Blocks)) * int64(unsafe.Sizeof(Block{}))
	}
	n += int64(cap(s.Traces)) * int64(unsafe.Sizeof([]TraceEntry(nil)))
	seen := map[*TraceEntry]bool{}
	for _, tr := range s.Traces {
		if cap(tr) == 0 || seen[unsafe.SliceData(tr)] {
			continue
		}
		seen[unsafe.SliceData(tr)] = true
		n += int64(cap(tr)) * int64(unsafe.Sizeof(TraceEntry{}))
	}
	strs := map[*byte]bool{}
	str := func(x string) int64 {
		if len(x) == 0 || strs[unsafe.StringData(x)] {
			return 0
		}
		strs[unsafe.StringData(x)] = true
		return int64(len(x))
	}
	st := &s.Stacks
	n += int64(cap(st.Frames)) * int64(unsafe.Sizeof(Frame{}))
	for _, f := range st.Frames {
		n += str(f.File) + str(f.Name)
	}
	n += 4 * int64(cap(st.off)+cap(st.ids))
	for _, kv := range s.Settings.Raw {
		n += int64(unsafe.Sizeof(kv)) + str(kv.Key) + str(kv.Value)
	}
	n += str(s.Settings.Conf)
	for _, a := range s.Annotations {
		n += int64(unsafe.Sizeof(a)) + str(a.Stage) + str(a.Name)
	}
	return n
}
