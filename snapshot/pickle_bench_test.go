package snapshot

import (
	"bytes"
	"os"
	"sync"
	"testing"

	"gpureport/internal/gen/train"
	"gpureport/internal/pickleop"
	"gpureport/internal/testutil"
)

// Decoder benchmarks. MB/s counts pickle bytes (decompressed for gzip);
// model/B is the decoded model's size per pickle byte.
//
//	go test -run='^$' -bench=Decode -benchmem ./snapshot

// bigInput is a snapshot from the project's generator (go run
// ./internal/gen big), 100k trace entries (about 16 MB): a tenth of the
// benchmark command's file, big enough for the arena and the memo chunks.
var bigSnapshotInput = sync.OnceValues(func() ([]byte, error) {
	var b bytes.Buffer
	_, err := train.WriteBig(&b, 100_000)
	return b.Bytes(), err
})

// benchDecode decodes data (any container) whose pickle is size bytes.
func benchSnapshotDecode(b *testing.B, data []byte, size int, opt DecodeOptions) {
	b.Helper()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var model int64
	for b.Loop() {
		s, _, err := DecodeBytes(data, opt)
		if err != nil {
			b.Fatal(err)
		}
		model = s.ModelBytes()
	}
	b.ReportMetric(float64(model)/float64(size), "model/B")
}

// BenchmarkDecodeGenerated decodes the generated snapshot: bare (the
// fast path), gzipped (the streaming path), and with gopickle for
// comparison.
func BenchmarkDecodeGenerated(b *testing.B) {
	data, err := bigSnapshotInput()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fast", func(b *testing.B) { benchSnapshotDecode(b, data, len(data), DecodeOptions{}) })
	b.Run("gzip", func(b *testing.B) { benchSnapshotDecode(b, snapGzip(data), len(data), DecodeOptions{}) })
	b.Run("generic", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeFast(bytes.NewReader(data), int64(len(data)), true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gopickle", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeReference(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecodeReal decodes real snapshots of each layout: the largest
// (timed, user_metadata), a frame-heavy one (95 frames per entry), the
// legacy history layout and a segments-only list.
func BenchmarkDecodeReal(b *testing.B) {
	for _, name := range []string{
		"wedsonlin_medium_512_training.pickle",
		"ftcourse_memory_snapshot.pickle",
		"flexgen_opt1.3b_snapshot_b.pickle",
		"layoutediting_memory_snapshot_list.pkl",
	} {
		data, err := os.ReadFile(testutil.RealFiles(b, "snapshots", name)[0])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) { benchSnapshotDecode(b, data, len(data), DecodeOptions{}) })
	}
}

// shapeInputs holds the generator's benchmark shapes (gen shape), made on
// first use: few blocks and a long trace (10 MB), an ordinary snapshot
// (10k blocks, 10k events, 3,000 stacks, 3.5 MB), a large model's (175k
// blocks, 49 MB; seconds to generate), and the ordinary one with two
// caught OOM events in its trace.
var shapeInputs = map[string]func() ([]byte, error){
	"few":          shapeInput(train.FewBlocks, 0),
	"ordinary":     shapeInput(train.Ordinary, 0),
	"ordinary-oom": shapeInput(train.Ordinary, 2),
	"large":        shapeInput(train.Large, 0),
}

func shapeInput(sh train.Shape, ooms int) func() ([]byte, error) {
	sh.OOMs = ooms
	return sync.OnceValues(func() ([]byte, error) {
		var b bytes.Buffer
		_, err := train.WriteShape(&b, sh)
		return b.Bytes(), err
	})
}

// benchWalk steps over data's opcodes without executing them
// (pickleop.Walk): the floor of a decoder that reads every opcode, beside
// which the full and skimmed decodes' times say how much of a decode is
// its own work.
func benchWalk(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := pickleop.Walk(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeShapes decodes the generator's benchmark shapes in full
// and skimmed (as a digest is made), and walks their opcodes (the floor): snapshots whose frames lists are all
// memo gets of shared frame dicts, as pickle.dump writes them, with few
// or 175k blocks. `make bench-decode` compares such files with CPython.
//
//	go test -run='^$' -bench=DecodeShapes -benchmem ./snapshot
func BenchmarkDecodeShapes(b *testing.B) {
	for _, name := range []string{"few", "ordinary", "ordinary-oom", "large"} {
		data, err := shapeInputs[name]()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/full", func(b *testing.B) { benchSnapshotDecode(b, data, len(data), DecodeOptions{}) })
		b.Run(name+"/skim", func(b *testing.B) { benchSnapshotDecode(b, data, len(data), DecodeOptions{SkimTrace: true}) })
		b.Run(name+"/walk", func(b *testing.B) { benchWalk(b, data) })
	}
}
