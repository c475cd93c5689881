package roles

import (
	"bytes"
	"sync"
	"testing"

	"gpureport/internal/gen/train"
	"gpureport/snapshot"
)

// Classification benchmarks on the generated snapshot of the decoder
// benchmarks (100k trace entries): the roles at the dump (what a report
// computes for every snapshot of a run) and at an event inside the trace
// (the trace window's peak, once per device).
//
//	go test -run='^$' -bench=Classify -benchmem ./analyze/roles

var bigOnce struct {
	sync.Once
	s   *snapshot.Snapshot
	err error
}

func bigSnapshot(b *testing.B) *snapshot.Snapshot {
	bigOnce.Do(func() {
		var buf bytes.Buffer
		if _, err := train.WriteBig(&buf, 100_000); err != nil {
			bigOnce.err = err
			return
		}
		bigOnce.s, _, bigOnce.err = snapshot.Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()), snapshot.DecodeOptions{})
	})
	if bigOnce.err != nil {
		b.Fatal(bigOnce.err)
	}
	return bigOnce.s
}

// shapeOnce returns the generator's benchmark shape sh, decoded once.
func shapeOnce(sh train.Shape) func() (*snapshot.Snapshot, error) {
	return sync.OnceValues(func() (*snapshot.Snapshot, error) {
		var buf bytes.Buffer
		if _, err := train.WriteShape(&buf, sh); err != nil {
			return nil, err
		}
		s, _, err := snapshot.Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()), snapshot.DecodeOptions{})
		return s, err
	})
}

// ordinaryOnce is the generator's ordinary benchmark shape (10k blocks,
// 3,000 distinct stacks), decoded.
var ordinaryOnce = shapeOnce(train.Ordinary)

// BenchmarkClassifyStacks classifies the ordinary shape's dump with a
// fresh memo each time: what a run pays once for its distinct stacks
// (reading each stack's frames, its phase and frame rule), whatever its
// number of snapshots.
func BenchmarkClassifyStacks(b *testing.B) {
	s, err := ordinaryOnce()
	if err != nil {
		b.Fatal(err)
	}
	dev := s.Devices()[0]
	b.ReportAllocs()
	for b.Loop() {
		sc := SceneOf(s, dev)
		sc.Memo = NewStackMemo()
		Classify(sc)
	}
}

func BenchmarkClassify(b *testing.B) {
	s := bigSnapshot(b)
	dev := s.Devices()[0]
	d := snapshot.Reduce(s)
	b.Run("dump", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ClassifySnapshot(s, dev)
		}
	})
	b.Run("dump-digest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ClassifySnapshot(d, dev)
		}
	})
	b.Run("mid-trace", func(b *testing.B) {
		b.ReportAllocs()
		at := s.TraceEntries(dev) / 2
		for b.Loop() {
			Classify(SceneAt(s, dev, at))
		}
	})
}

// largeOnce is the generator's large benchmark shape (175k live blocks, a
// mixture-of-experts model's parameters and optimizer state), decoded.
var largeOnce = shapeOnce(train.Large)

// BenchmarkClassifyLarge classifies the large shape's dump, as a run
// does for every large snapshot (its 161k blocks were allocated before
// the trace's window, over 3,000 stacks), with a memo that has read its
// stacks already, as the run's memo has after its first snapshot.
func BenchmarkClassifyLarge(b *testing.B) {
	s, err := largeOnce()
	if err != nil {
		b.Fatal(err)
	}
	dev := s.Devices()[0]
	memo := NewStackMemo()
	b.ReportAllocs()
	for b.Loop() {
		sc := SceneOf(s, dev)
		sc.Memo = memo
		ClassifyBreakdown(sc)
	}
}

// BenchmarkSceneReusing makes the scene of the large shape's digest at
// its dump in the storage of the one before, as a run does for every
// large snapshot's roles.
func BenchmarkSceneReusing(b *testing.B) {
	s, err := largeOnce()
	if err != nil {
		b.Fatal(err)
	}
	d := snapshot.Reduce(s)
	var sc *Scene
	for b.Loop() {
		sc = SceneReusing(sc, d, 0)
	}
}

// BenchmarkSceneAt builds the scene at the end of the large shape's
// trace, as its trace window does: the blocks live at the dump found by
// address (dumpBlocks), against the map by address it replaced.
//
//	go test -run='^$' -bench=SceneAt -benchmem ./analyze/roles
func BenchmarkSceneAt(b *testing.B) {
	s, err := largeOnce()
	if err != nil {
		b.Fatal(err)
	}
	dev := s.Devices()[0]
	at := s.TraceEntries(dev) - 1
	for _, c := range []struct {
		name  string
		scene func(*snapshot.Snapshot, int, int) *Scene
	}{{"blocks", SceneAt}, {"map", sceneAtMapped}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.scene(s, dev, at)
			}
		})
	}
}
