package snapshot

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"gpureport/internal/gen/train"
)

// Digest benchmarks on the generated snapshot of the decoder benchmarks
// (100k trace entries, about 16 MB). MB/s counts the snapshot's pickle
// bytes, so each figure compares with BenchmarkDecodeGenerated/fast.
//
//	go test -run='^$' -bench=Digest -benchmem ./snapshot

// BenchmarkDigestGenerated measures a digest made from the file (decode
// and Reduce: the work of a cache miss), the reduction alone, and a
// digest read back from its encoding (a cache hit), and reports the
// digest's size in memory and encoded, per pickle byte.
func BenchmarkDigestGenerated(b *testing.B) {
	data, err := bigSnapshotInput()
	if err != nil {
		b.Fatal(err)
	}
	full, c, err := DecodeBytes(data, DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	d := Reduce(full)
	enc, err := EncodeDigest("bench", c, d)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode+reduce", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			s, _, err := DecodeBytes(data, DecodeOptions{})
			if err != nil {
				b.Fatal(err)
			}
			Reduce(s)
		}
	})
	b.Run("skim+reduce", func(b *testing.B) { benchSkim(b, data) })
	b.Run("reduce", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			Reduce(full)
		}
		b.ReportMetric(float64(d.ModelBytes())/float64(len(data)), "digest/B")
	})
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := EncodeDigest("bench", c, d); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(enc))/float64(len(data)), "encoded/B")
	})
	b.Run("decode-digest", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, _, err := DecodeDigest(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchFullReduce measures a digest made from a full decode: the work of
// a cache miss before skims, and of the snapshots drawn in detail.
func benchFullReduce(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, _, err := DecodeBytes(data, DecodeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		Reduce(s)
	}
}

// benchSkim measures a digest made the way a cache miss makes it: a
// skimming decode (DecodeOptions.SkimTrace), then Reduce.
func benchSkim(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, _, err := DecodeBytes(data, DecodeOptions{SkimTrace: true})
		if err != nil {
			b.Fatal(err)
		}
		Reduce(s)
	}
}

// manyStacksInput is a generated snapshot with thousands of distinct
// stacks (BigSpec with 300 extra operators per block: 1,654 distinct
// frame dicts) and 200k trace events, about 40 MB.
var manyStacksInput = sync.OnceValues(func() ([]byte, error) {
	var b bytes.Buffer
	spec := train.BigSpec()
	spec.ExtraOps = 300
	_, err := train.WriteBigSpec(&b, spec, 200_000)
	return b.Bytes(), err
})

// BenchmarkDigestManyStacks compares the full decode with the skim that
// digests use, on the snapshot with thousands of distinct stacks (issue
// 10's digest-only target is 500 MB/s per core).
func BenchmarkDigestManyStacks(b *testing.B) {
	data, err := manyStacksInput()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode+reduce", func(b *testing.B) { benchFullReduce(b, data) })
	b.Run("skim+reduce", func(b *testing.B) { benchSkim(b, data) })
}

// BenchmarkDigestTargetSize compares the full decode with the skim on a
// snapshot of the size issue 10's targets name: 1.4M trace events and
// thousands of distinct stacks (the generator's big file with 300 extra
// operators per block, about 280 MB; `make bench-decode` times the same
// file as a command, beside CPython). Generating it takes seconds and
// holds it in memory: run it on its own.
//
//	go test -run='^$' -bench=DigestTargetSize -benchtime=5x ./snapshot
func BenchmarkDigestTargetSize(b *testing.B) {
	var buf bytes.Buffer
	spec := train.BigSpec()
	spec.ExtraOps = 300
	if _, err := train.WriteBigSpec(&buf, spec, 1_400_000); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run("decode+reduce", func(b *testing.B) { benchFullReduce(b, data) })
	b.Run("skim+reduce", func(b *testing.B) { benchSkim(b, data) })
}

// BenchmarkDigestHeld measures what a run keeps in memory per snapshot
// block while the report is made: the digests of heldDigests distinct
// snapshots of a generator shape, each made the way a load makes it (a
// cache miss: skim and Reduce; a cache hit: DecodeDigest of its entry)
// and passed through one Sharer, as ingest does. The copies differ in one
// block, so their stack tables are shared and their segment lists are
// not, as in a run whose allocator state changes from step to step.
// B/block is the live heap after a collection, per block held.
//
//	go test -run='^$' -bench=DigestHeld ./snapshot
func BenchmarkDigestHeld(b *testing.B) {
	for _, name := range []string{"ordinary", "ordinary-oom", "large"} {
		s, d, _, enc := shapeDigest(b, name)
		blocks := 0
		for _, sg := range d.Segments {
			blocks += len(sg.Blocks)
		}
		b.Run(name+"/reduce", func(b *testing.B) {
			benchHeld(b, blocks, func() *Snapshot { return Reduce(s) })
		})
		b.Run(name+"/cached", func(b *testing.B) {
			benchHeld(b, blocks, func() *Snapshot {
				_, _, d, err := DecodeDigest(enc)
				if err != nil {
					b.Fatal(err)
				}
				return d
			})
		})
	}
}

// shapeDigest returns generator shape name's snapshot skimmed as a load
// skims it, its digest, its container and the digest's encoding.
func shapeDigest(tb testing.TB, name string) (s, d *Snapshot, c Container, enc []byte) {
	tb.Helper()
	data, err := shapeInputs[name]()
	if err != nil {
		tb.Fatal(err)
	}
	s, c, err = DecodeBytes(data, DecodeOptions{SkimTrace: true})
	if err != nil {
		tb.Fatal(err)
	}
	d = Reduce(s)
	if enc, err = EncodeDigest("bench", c, d); err != nil {
		tb.Fatal(err)
	}
	return s, d, c, enc
}

// heldDigests is how many digests BenchmarkDigestHeld holds at once: enough
// that the per-digest cost dominates the Sharer's fixed cost and the
// heap's noise, few enough for the large shape (175k blocks each).
const heldDigests = 16

// benchHeld holds heldDigests digests made by digest, each with blocks
// blocks, and reports the live heap they cost per block.
func benchHeld(b *testing.B, blocks int, digest func() *Snapshot) {
	var perBlock float64
	for b.Loop() {
		held := make([]*Snapshot, heldDigests)
		sharer := NewSharer()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range held {
			d := digest()
			// Distinct copies: one block asks for i more bytes.
			d.Segments[0].Blocks[0].RequestedSize += int64(i)
			sharer.Share(d)
			held[i] = d
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(held)
		runtime.KeepAlive(sharer)
		perBlock = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(heldDigests*blocks)
	}
	b.ReportMetric(perBlock, "B/block")
}

// BenchmarkDigestCodecShapes measures the digest cache's codec on each
// generator shape: the reduction of the skimmed snapshot (a cache miss
// makes the digest so), EncodeDigest of the shape's digest (a cache miss
// writes it), DecodeDigest of its encoding (a re-run reads it once per
// cached snapshot), DecodeDigestReusing of it after the same digest
// (every segment taken from the one read before, not read again), and
// DecodeDigestWithoutSegments of it after the same digest (a re-run's
// file whose point entry stands for its segments). MB/s counts the
// encoded digest's bytes.
//
//	go test -run='^$' -bench=DigestCodecShapes -benchmem ./snapshot
func BenchmarkDigestCodecShapes(b *testing.B) {
	for _, name := range []string{"few", "ordinary", "large"} {
		s, d, c, enc := shapeDigest(b, name)
		// A first run's reduction of each skimmed snapshot, into the
		// arrays the one before left (Sharer.Reduce, without the
		// sharing). MB/s counts the encoded digest's bytes, as below.
		b.Run(name+"/reduce", func(b *testing.B) {
			var r reduceArrays
			b.SetBytes(int64(len(enc)))
			b.ReportAllocs()
			for b.Loop() {
				reduce(s, &r)
			}
		})
		b.Run(name+"/encode", func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeDigest("bench", c, d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/decode", func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := DecodeDigest(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
		// A re-run's load reads digests that mostly repeat the segments
		// of the one before: here every segment, taken from the digest
		// read before.
		b.Run(name+"/decode-repeated", func(b *testing.B) {
			sh, sc := NewSharer(), new(Scratch)
			if _, _, _, err := DecodeDigestReusing(enc, sh, sc); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(enc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := DecodeDigestReusing(enc, sh, sc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/decode-without-segments", func(b *testing.B) {
			sh := NewSharer()
			if _, _, _, err := DecodeDigestWithoutSegments(enc, sh); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(enc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := DecodeDigestWithoutSegments(enc, sh); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
