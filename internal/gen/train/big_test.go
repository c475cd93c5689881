package train

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"gpureport/internal/gen/pickle"
	"gpureport/snapshot"
)

// TestWriteBigSmall writes a small "big" snapshot and checks it with the
// project's decoder and the writer's own reader: exactly the requested
// trace entries, consistent segments, shared frames, bounded by the
// stream.
func TestWriteBigSmall(t *testing.T) {
	const n = 30000
	var buf bytes.Buffer
	res, err := WriteBig(&buf, n)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes != int64(buf.Len()) || res.Entries != n || res.Events <= n {
		t.Fatalf("result %+v for %d bytes", res, buf.Len())
	}
	s, _, err := snapshot.Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()), snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Generation != snapshot.GenTimed || len(s.Traces) != 1 || len(s.Traces[0]) != n {
		t.Fatalf("generation %s, %d traces", s.Generation, len(s.Traces))
	}
	tr := s.Traces[0]
	for i := 1; i < len(tr); i++ {
		if tr[i].TimeUS < tr[i-1].TimeUS {
			t.Fatalf("entry %d goes back in time", i)
		}
	}
	if len(s.Segments) != res.Segments {
		t.Errorf("%d segments, result says %d", len(s.Segments), res.Segments)
	}
	if len(s.Stacks.Frames) < 250 || res.MaxDepth < 80 {
		t.Errorf("%d distinct frames, deepest stack %d", len(s.Stacks.Frames), res.MaxDepth)
	}
	// Frames lists are shared: far fewer distinct stacks than entries.
	if s.Stacks.Len() > n {
		t.Errorf("%d distinct stacks for %d entries", s.Stacks.Len(), n)
	}
	_, st, err := pickle.Load(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if st.Protocol != 4 || len(st.Frames) < 10 {
		t.Errorf("protocol %d, %d frames", st.Protocol, len(st.Frames))
	}
	// Deterministic.
	var again bytes.Buffer
	if _, err := WriteBig(&again, n); err != nil {
		t.Fatal(err)
	}
	if sha256.Sum256(buf.Bytes()) != sha256.Sum256(again.Bytes()) {
		t.Error("two big snapshots differ")
	}
}

func BenchmarkWriteBig(b *testing.B) {
	for b.Loop() {
		var cw countWriter
		cw.w = discard{}
		res, err := WriteBig(&cw, 200000)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(res.Bytes)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
