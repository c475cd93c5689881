package roles

import (
	"path/filepath"
	"reflect"
	"testing"

	"gpureport/internal/testutil"
	"gpureport/internal/testutil/realsnap"
	"gpureport/snapshot"
)

// TestStackMemo classifies the sample run's snapshots and every real
// snapshot twice: each on its own, and all with one StackMemo, as the
// analysis of a run does. The decisions and breakdowns must be the same
// (what the memo keeps is a function of a stack's frames), and the memo
// must hold each distinct stack once: the sample's snapshots share most
// stacks under StackIDs of their own.
func TestStackMemo(t *testing.T) {
	sample, err := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run", "*.pickle"))
	if err != nil || len(sample) < 2 {
		t.Fatalf("sample run snapshots: %v (%d)", err, len(sample))
	}
	memo := NewStackMemo()
	stacks := 0
	for f, s := range realsnap.Each(t, sample...) {
		for _, dev := range s.Devices() {
			wantD, wantB := ClassifySnapshot(s, dev)
			sc := SceneOf(s, dev)
			sc.Memo = memo
			gotD, gotB := Classify(sc)
			if !reflect.DeepEqual(gotD, wantD) || !reflect.DeepEqual(gotB, wantB) {
				t.Errorf("%s cuda:%d: classified with the run's memo differs from alone:\nmemo  %+v\nalone %+v", filepath.Base(f), dev, gotB, wantB)
			}
		}
		if f == sample[len(sample)-1] {
			for _, p := range sample {
				ss, _, err := snapshot.DecodeFile(p, snapshot.DecodeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				stacks += ss.Stacks.Len() - 1
			}
			distinct := memo.m.Len()
			if distinct == 0 || distinct*2 > stacks {
				t.Errorf("the memo holds %d stacks after the sample's %d snapshots with %d stacks in all; want each shared stack once", distinct, len(sample), stacks)
			}
		}
	}
}
