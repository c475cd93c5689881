package roles

import (
	"reflect"
	"testing"

	"gpureport/internal/testutil/realsnap"
	"gpureport/snapshot"
)

// TestClassifyBreakdownAsDecisions classifies every device of every real
// snapshot and the ordinary bench shape twice, with and without the
// decisions, through one memo as a run does: the two breakdowns must be
// equal, and each rule's bytes and blocks must be the sums of the
// decisions it made (the breakdown finds a rule's share through a
// one-entry cache of the last rule before its map).
func TestClassifyBreakdownAsDecisions(t *testing.T) {
	ordinary, err := ordinaryOnce()
	if err != nil {
		t.Fatal(err)
	}
	snaps := func(yield func(string, *snapshot.Snapshot) bool) {
		for p, s := range realsnap.Each(t) {
			if !yield(p, s) {
				return
			}
		}
		yield("ordinary shape", ordinary)
	}
	memo := NewStackMemo()
	checked := 0
	for name, s := range snaps {
		for _, dev := range s.Devices() {
			sc := SceneOf(s, dev)
			sc.Memo = memo
			ds, bd := Classify(sc)
			sc2 := SceneOf(s, dev)
			sc2.Memo = memo
			if only := ClassifyBreakdown(sc2); !reflect.DeepEqual(only, bd) {
				t.Errorf("%s device %d: ClassifyBreakdown %+v, Classify %+v", name, dev, only, bd)
			}
			type sum struct {
				bytes  int64
				blocks int
			}
			want := map[string]sum{}
			for i, d := range ds {
				w := want[d.Rule]
				w.bytes += sc.Blocks[i].Size
				w.blocks++
				want[d.Rule] = w
			}
			if len(want) != len(bd.Rules) {
				t.Errorf("%s device %d: %d rules in the breakdown, %d in the decisions", name, dev, len(bd.Rules), len(want))
			}
			for _, rs := range bd.Rules {
				if w := want[rs.Rule]; w.bytes != rs.Bytes || w.blocks != rs.Blocks {
					t.Errorf("%s device %d: rule %q has %d bytes in %d blocks, its decisions %d in %d", name, dev, rs.Rule, rs.Bytes, rs.Blocks, w.bytes, w.blocks)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing classified")
	}
}
