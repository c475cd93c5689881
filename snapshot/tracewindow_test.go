package snapshot

import (
	"reflect"
	"testing"
)

// timeline is n events 1 ms apart of one process, from startUS, at
// addresses from base; shifted moves every time by shiftUS (PyTorch
// converts the clock anew at each dump).
func timeline(startUS int64, n int, base uint64, shiftUS int64) []TraceEntry {
	tr := make([]TraceEntry, n)
	for i := range tr {
		a := ActionAlloc
		if i%2 == 1 {
			a = ActionFreeRequested
		}
		tr[i] = TraceEntry{Action: a, Addr: base + uint64(i%300)*512, Size: 512, TimeUS: startUS + int64(i)*1000 + shiftUS}
	}
	return tr
}

// TestCompareWindows checks what two traces say of one process or two.
func TestCompareWindows(t *testing.T) {
	const t0 = int64(1_714_560_000_000_000)
	const a, b = uint64(0x7f00_0000_0000), uint64(0x7e00_0000_0000)
	one := timeline(t0, 5000, a, 0)
	untimed := timeline(t0, 2000, b, 0)
	for i := range untimed {
		untimed[i].TimeUS = 0
	}
	tests := []struct {
		name string
		x, y []TraceEntry
		want Overlap
	}{
		{"two processes over the same time", one[3000:], timeline(t0+3_000_000+77, 2000, b, 0), OverlapDisjoint},
		{"one process, later dump, shifted clock", one[1000:3000], timeline(t0, 5000, a, -300)[2500:], OverlapShared},
		{"one process, same events", one[:3000], one[2000:], OverlapShared},
		{"ranges apart", one[:1000], timeline(t0+2_000_000, 1000, b, 0), OverlapUnknown},
		{"no times", one[3000:], untimed, OverlapUnknown},
		{"too little overlap sampled", one[:1000], timeline(t0+995_000, 1000, b, 0), OverlapUnknown},
	}
	for _, tt := range tests {
		x, y := WindowOf(tt.x), WindowOf(tt.y)
		if got := CompareWindows(x, y); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
		if got := CompareWindows(y, x); got != tt.want {
			t.Errorf("%s, swapped: %d, want %d", tt.name, got, tt.want)
		}
	}
	// The sample is capped, at a level that keeps every event whose key
	// has that many low zero bits.
	w := WindowOf(one)
	if len(w.Sample) > TraceSampleCap || len(w.Sample) < 8 || w.FirstUS != t0 || w.LastUS != t0+4_999_000 {
		t.Errorf("window %d..%d level %d with %d sampled", w.FirstUS, w.LastUS, w.Level, len(w.Sample))
	}
}

// TestDigestKeepsTraceWindow checks that a digest, written and read back,
// holds the trace window the trace gives.
func TestDigestKeepsTraceWindow(t *testing.T) {
	tr := timeline(1_714_560_000_000_000, 3000, 0x7f00_0000_0000, 0)
	s := &Snapshot{Traces: [][]TraceEntry{tr, nil}}
	want := s.TraceWindows()
	b, err := EncodeDigest("k", ContainerPickle, Reduce(s))
	if err != nil {
		t.Fatal(err)
	}
	_, _, d, err := DecodeDigest(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.TraceWindows(); !reflect.DeepEqual(got, want) {
		t.Errorf("digest windows %+v, want %+v", got, want)
	}
	if len(want[0].Sample) == 0 || want[1].Timed() {
		t.Errorf("windows %+v: want a sample on device 0, no times on device 1", want)
	}
}
