package frames

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/snapshot"
)

// table interns stacks given as "file:line:name" frames separated by
// "|", innermost first, in order, and returns the table with their IDs.
// order permutes the frames' first appearance, so that two tables number
// the same frames differently.
func table(t *testing.T, order []snapshot.Frame, stacks ...string) (*snapshot.Stacks, []snapshot.StackID) {
	t.Helper()
	st := &snapshot.Stacks{}
	for _, f := range order {
		st.InternFrame(f)
	}
	var ids []snapshot.StackID
	for _, s := range stacks {
		var fids []snapshot.FrameID
		for _, f := range strings.Split(s, "|") {
			var fr snapshot.Frame
			if _, err := fmt.Sscanf(strings.ReplaceAll(f, ":", " "), "%s %d %s", &fr.File, &fr.Line, &fr.Name); err != nil {
				t.Fatalf("frame %q: %v", f, err)
			}
			fids = append(fids, st.InternFrame(fr))
		}
		ids = append(ids, st.InternStack(fids))
	}
	return st, ids
}

// TestStackMemoFindsStacksByFrames checks that a stack is one entry
// whatever table and IDs it comes under, that stacks differing in a
// frame, a field or a length are different entries, and that tables may
// alternate and grow between lookups.
func TestStackMemoFindsStacksByFrames(t *testing.T) {
	stacks := []string{
		"a.py:1:f|b.py:2:g",
		"a.py:1:f|b.py:2:g|c.py:3:h", // the first and one more frame
		"a.py:1:f",                   // a prefix of the first
		"a.py:2:f|b.py:2:g",          // another line
		"b.py:2:g|a.py:1:f",          // the first's frames, reversed
	}
	rev := []snapshot.Frame{{File: "c.py", Line: 3, Name: "h"}, {File: "b.py", Line: 2, Name: "g"}}
	ta, ia := table(t, nil, stacks...)
	// tb numbers the frames otherwise and holds the stacks in reverse
	// order, so that each stack has another StackID and other FrameIDs.
	rs := make([]string, len(stacks))
	for i := range stacks {
		rs[len(stacks)-1-i] = stacks[i]
	}
	tb, ib := table(t, rev, rs...)

	m := NewStackMemo[string]()
	reads := 0
	get := func(tab *snapshot.Stacks, id snapshot.StackID, want string) {
		t.Helper()
		got := m.Get(tab, id, func() string { reads++; return want })
		if got != want {
			t.Errorf("stack %q: memo gave %q", want, got)
		}
	}
	for i, s := range stacks {
		get(ta, ia[i], s)
	}
	if reads != len(stacks) || m.Len() != len(stacks) {
		t.Fatalf("first table: %d reads, %d entries; want %d distinct stacks", reads, m.Len(), len(stacks))
	}
	// Alternate tables: every stack is found, none read again.
	for i := range stacks {
		get(tb, ib[len(stacks)-1-i], stacks[i])
		get(ta, ia[i], stacks[i])
	}
	if reads != len(stacks) {
		t.Errorf("alternating tables read %d stacks again", reads-len(stacks))
	}
	// The same frames with another FX node are another frame.
	fx := snapshot.Frame{File: "a.py", Line: 1, Name: "f", FX: snapshot.FXNode{Op: "call_function", Name: "mm"}}
	id := ta.InternStack([]snapshot.FrameID{ta.InternFrame(fx), ta.InternFrame(snapshot.Frame{File: "b.py", Line: 2, Name: "g"})})
	get(ta, id, "fx")
	// A table grown after its first lookups: its new frame and stack are
	// found, its old ones still are.
	nid := tb.InternStack([]snapshot.FrameID{tb.InternFrame(snapshot.Frame{File: "d.py", Line: 4, Name: "k"})})
	get(tb, nid, "d.py:4:k")
	get(tb, ib[len(stacks)-1], stacks[0])
	if want := len(stacks) + 2; reads != want || m.Len() != want {
		t.Errorf("%d reads, %d entries; want %d", reads, m.Len(), want)
	}
}

// TestNilStackMemoReads checks that a nil memo keeps nothing: every Get
// reads.
func TestNilStackMemoReads(t *testing.T) {
	tab, ids := table(t, nil, "a.py:1:f")
	var m *StackMemo[int]
	reads := 0
	for range 3 {
		if v := m.Get(tab, ids[0], func() int { reads++; return 7 }); v != 7 {
			t.Fatalf("nil memo gave %d", v)
		}
	}
	if reads != 3 {
		t.Errorf("nil memo read %d times for 3 gets", reads)
	}
}

// TestStackMemoSharedTable checks a table that is another's memory (as
// the digests a Sharer gave one table are): its stacks are found without
// reading, under their own IDs, and a table equal in content but held
// apart, or one that numbers its stacks otherwise, gets its own
// translation.
func TestStackMemoSharedTable(t *testing.T) {
	stacks := []string{"a.py:1:f|b.py:2:g", "c.py:3:h", "a.py:1:f"}
	ta, ia := table(t, nil, stacks...)
	shared := *ta // the same frames, offsets and IDs in the same memory
	if !shared.SameTable(ta) {
		t.Fatal("a copy of a table's header is not the same table")
	}
	apart, ip := table(t, nil, stacks...)
	rev := []string{stacks[2], stacks[1], stacks[0]}
	other, io := table(t, nil, rev...)
	m := NewStackMemo[string]()
	reads := 0
	for _, tc := range []struct {
		tab *snapshot.Stacks
		ids []snapshot.StackID
		in  []string
	}{{ta, ia, stacks}, {&shared, ia, stacks}, {apart, ip, stacks}, {other, io, rev}, {&shared, ia, stacks}} {
		for i, s := range tc.in {
			if got := m.Get(tc.tab, tc.ids[i], func() string { reads++; return s }); got != s {
				t.Errorf("stack %q: memo gave %q", s, got)
			}
		}
	}
	if reads != len(stacks) {
		t.Errorf("%d reads, want %d (one per distinct stack)", reads, len(stacks))
	}
}
