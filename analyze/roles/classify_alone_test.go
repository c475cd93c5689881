package roles

import (
	"bytes"
	"reflect"
	"testing"

	"gpureport/internal/gen/train"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// TestStackAloneDecisions holds the decisions classify keeps by stack
// (byStackAlone) to those made afresh for every block: the same
// decisions and breakdown for every device of every real snapshot, of its
// digest, and of the generated shapes, at the dump and at the middle and
// end of the trace. It fails when a block whose decision reads more than
// its stack (a label, a private pool, an allocation the trace saw) takes
// its stack's.
func TestStackAloneDecisions(t *testing.T) {
	var snaps []*snapshot.Snapshot
	for _, p := range testutil.RealFiles(t, "snapshots", "*.pickle") {
		if s, _, err := snapshot.DecodeFile(p, snapshot.DecodeOptions{}); err == nil {
			snaps = append(snaps, s, snapshot.Reduce(s))
		}
	}
	for _, sh := range []train.Shape{train.Ordinary, func() train.Shape { s := train.Ordinary; s.OOMs = 2; return s }()} {
		var buf bytes.Buffer
		if _, err := train.WriteShape(&buf, sh); err != nil {
			t.Fatal(err)
		}
		s, _, err := snapshot.Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()), snapshot.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, s)
	}
	snaps = append(snaps, recentFixture(t))
	alone := 0
	// Blocks of one stack that read more than it, before and after one
	// that reads only it: a label (user_metadata, an annotation), a
	// CUDA graph's pool, an allocation the trace saw.
	ord := snaps[len(snaps)-3]
	for id := range min(ord.Stacks.Len(), 200) {
		st := snapshot.StackID(id)
		plain := Block{Size: 512, Stack: st, Alloc: -1, Freed: -1}
		labelled, noted, pooled, traced := plain, plain, plain, plain
		labelled.Meta = `{"role": "parameters"}`
		noted.Notes = []string{"optimizer state"}
		pooled.Pool = [2]int64{1, 2}
		traced.Alloc = 0
		sc := &Scene{Stacks: &ord.Stacks, HasTrace: true, Trace: []snapshot.TraceEntry{{Action: snapshot.ActionAlloc, Stack: st}},
			Pools:  map[[2]int64]Pool{{1, 2}: {ID: [2]int64{1, 2}, Kind: PoolCUDAGraph}},
			Blocks: []Block{labelled, noted, pooled, traced, plain, labelled, noted, pooled, traced, plain}}
		got, _ := Classify(sc)
		want := make([]Decision, len(sc.Blocks))
		newClassifier(sc).run(want)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("stack %d: decisions by stack %v, afresh %v", id, got, want)
		}
	}
	for k, s := range snaps {
		for _, dev := range s.Devices() {
			scenes := []*Scene{SceneOf(s, dev)}
			if n := s.TraceEntries(dev); n > 0 {
				scenes = append(scenes, SceneAt(s, dev, n/2), SceneAt(s, dev, n-1))
			}
			for j, sc := range scenes {
				if sc == nil {
					continue
				}
				for i := range sc.Blocks {
					if stackAlone(&sc.Blocks[i]) {
						alone++
					}
				}
				got, gotBd := Classify(sc)
				want := make([]Decision, len(sc.Blocks))
				wantBd := newClassifier(sc).run(want)
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotBd, wantBd) {
					t.Fatalf("snapshot %d device %d scene %d: decisions by stack differ from those made afresh", k, dev, j)
				}
			}
		}
	}
	if alone == 0 {
		t.Fatal("no block was decided by its stack alone: the test checks nothing")
	}
}

// recentFixture is recentFixtureBytes decoded: labels, private pools,
// annotations.
func recentFixture(t *testing.T) *snapshot.Snapshot {
	b := recentFixtureBytes(t)
	s, _, err := snapshot.Decode(bytes.NewReader(b), int64(len(b)), snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
