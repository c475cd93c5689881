package ingest

import (
	"slices"
	"testing"
	"unsafe"
)

// TestStackShare checks that equal stack tables end up sharing storage,
// that unequal ones do not, and that interning into a shared table later
// never changes the table it shares with.
func TestStackShare(t *testing.T) {
	table := func(frames ...string) *Stacks {
		s := &Stacks{}
		var ids []FrameID
		for i, name := range frames {
			ids = append(ids, s.InternFrame(Frame{File: "train.py", Line: 10 + i, Name: name}))
			s.InternStack(ids)
		}
		s.Seal()
		return s
	}
	same := func(a, b *Stacks) bool {
		return unsafe.SliceData(a.Frames) == unsafe.SliceData(b.Frames) && unsafe.SliceData(a.ids) == unsafe.SliceData(b.ids)
	}
	sh := newStackShare()
	a, b, c := table("step", "forward", "linear"), table("step", "forward", "linear"), table("step", "forward", "conv")
	for _, s := range []*Stacks{a, b, c} {
		sh.share(s)
	}
	if !same(a, b) {
		t.Error("equal tables do not share storage")
	}
	if same(a, c) {
		t.Error("different tables share storage")
	}
	want := a.StackFrames(3)
	b.InternStack([]FrameID{b.InternFrame(Frame{File: "x.py", Line: 1, Name: "new"})})
	if got := a.StackFrames(3); !slices.Equal(got, want) || a.Len() != 4 || len(a.Frames) != 3 {
		t.Errorf("interning into a shared table changed the other: %v, %d stacks, %d frames", got, a.Len(), len(a.Frames))
	}
}
