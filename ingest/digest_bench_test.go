package ingest

import (
	"bytes"
	"testing"
	"time"
)

// Digest benchmarks on the generated snapshot of the decoder benchmarks
// (100k trace entries, about 16 MB). MB/s counts the snapshot's pickle
// bytes, so each figure compares with BenchmarkDecodeGenerated/fast.
//
//	go test -run='^$' -bench=Digest -benchmem ./ingest

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

// BenchmarkContentKey measures keying a 64 MiB file held in memory: the
// cost of a cache lookup besides reading the entry.
func BenchmarkContentKey(b *testing.B) {
	data := bytes.Repeat([]byte{1, 2, 3, 4}, 16<<20)
	ra := bytes.NewReader(data)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := contentKey(ra, int64(len(data)), now); err != nil {
			b.Fatal(err)
		}
	}
}
