package snapshot

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// writeJSON writes a generic value tree as json.dump would: tuples as
// lists, int keys as strings.
func writeJSON(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case *big.Int:
		b.WriteString(x.String())
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		s, _ := json.Marshal(x)
		b.Write(s)
	case *pyList:
		writeJSONList(b, x.items)
	case pyTuple:
		writeJSONList(b, x)
	case *pyDict:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			ks, ok := k.(string)
			if !ok {
				var kb bytes.Buffer
				writeJSON(&kb, k)
				ks = kb.String()
			}
			writeJSON(b, ks)
			b.WriteString(": ")
			writeJSON(b, x.vals[i])
		}
		b.WriteByte('}')
	default:
		panic("writeJSON: " + typeName(v))
	}
}

func writeJSONList(b *bytes.Buffer, items []any) {
	b.WriteByte('[')
	for i, e := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		writeJSON(b, e)
	}
	b.WriteByte(']')
}

// TestDecodeJSONMatchesPickle writes the real snapshots (those under 512
// KiB: JSON repeats every shared stack) as JSON, bare and gzipped, and
// checks that each decodes to what its pickle decodes to.
func TestDecodeJSONMatchesPickle(t *testing.T) {
	n := 0
	for _, f := range testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl") {
		if st, err := os.Stat(f); err != nil || st.Size() > 512<<10 {
			continue
		}
		n++
		t.Run(testutil.Rel(t, f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := DecodeBytes(raw, DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tree, err := referenceTree(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			var js bytes.Buffer
			writeJSON(&js, tree)
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(js.Bytes())
			zw.Close()
			cases := []struct {
				data []byte
				cont Container
			}{{js.Bytes(), ContainerJSON}, {gz.Bytes(), ContainerGzip}}
			if js.Bytes()[0] == '{' {
				// A key of no snapshot first (a tool that adds its own,
				// or a dict rewritten in another order) still reads.
				lead := append([]byte(`{"written_by": {"tool": "x", "steps": [1, [2]]}, `), js.Bytes()[1:]...)
				cases = append(cases, struct {
					data []byte
					cont Container
				}{lead, ContainerJSON})
			}
			for _, c := range cases {
				if got, ok := SniffContainer(c.data[:min(len(c.data), 8<<10)]); !ok || got != c.cont {
					t.Errorf("SniffContainer = %q, %v; want %q", got, ok, c.cont)
				}
				got, cont, err := DecodeBytes(c.data, DecodeOptions{})
				if err != nil {
					t.Fatalf("%s: %v", c.cont, err)
				}
				if cont != c.cont {
					t.Errorf("container %q, want %q", cont, c.cont)
				}
				if d := diffSnapshots(want, got); d != "" {
					t.Errorf("%s decodes differently from the pickle: %s", c.cont, d)
				}
			}
		})
	}
	if n < 10 {
		t.Errorf("only %d real snapshots under 512 KiB", n)
	}
}

// TestDecodeJSONErrors checks what is not a JSON snapshot, and that a
// broken one says where.
func TestDecodeJSONErrors(t *testing.T) {
	for _, notSnapshot := range []string{
		`{"step": 1, "allocated_bytes.all.current": 5}`,
		`{"segmentation": [1, 2]}`,
		`[1, 2, 3]`,
		`"segments"`,
		`{"schema": 1, "kit": {"name": "gpureport-capture"}, "allocator_settings": {}, "ooms": []}`,
		`{"name": "x", "segments": 5, "device_traces": {"a": [1]}}`,
		`{"meta": {"segments": [1]}}`,
	} {
		if c, ok := SniffContainer([]byte(notSnapshot)); ok {
			t.Errorf("%s: SniffContainer = %q", notSnapshot, c)
		}
	}
	tests := []struct {
		in   string
		want string
		is   error
	}{
		{`{"segments": 5}`, "segments", ErrNotSnapshot},
		{`{"version": 2, "segments": [{"device": 0, "blocks": 7}]}`, "JSON at byte 28: not a PyTorch memory snapshot: segments[0]", ErrNotSnapshot},
		{`{"segments": [{"device": 0, "address": 1, "total_size": 2, "blocks": [`, "byte 70: unexpected EOF", io.ErrUnexpectedEOF},
		{`{"segments": []} {"segments": []}`, "more than one value", nil},
		{`{"segments": [` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `]}`, "nested deeper", ErrLimit},
	}
	for _, tt := range tests {
		_, _, err := DecodeBytes([]byte(tt.in), DecodeOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%.60s: error %v, want one with %q", tt.in, err, tt.want)
		}
	}
}

// FuzzDecodeJSON decodes arbitrary JSON-looking bytes: no panic (an
// internal error), and a success is a valid model. Seeds are the start of
// the real snapshots under 128 KiB as JSON, and synthetic ones.
func FuzzDecodeJSON(f *testing.F) {
	for _, p := range testutil.RealFiles(f, "snapshots", "*.pickle", "*.pkl") {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(raw) > 128<<10 {
			continue // gopickle takes seconds on the large ones
		}
		tree, err := referenceTree(bytes.NewReader(raw))
		if err != nil {
			f.Fatal(err)
		}
		var js bytes.Buffer
		writeJSON(&js, tree)
		f.Add(js.Bytes()[:min(js.Len(), 8<<10)])
	}
	for _, o := range []synthOpts{{entries: 30, segments: 3, extras: true}, {entries: 10, segments: 2, history: true, noTime: true}} {
		tree, err := referenceTree(bytes.NewReader(writePickle(synthSnapshot(o), stylePy4)))
		if err != nil {
			f.Fatal(err)
		}
		var js bytes.Buffer
		writeJSON(&js, tree)
		f.Add(js.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := decodeJSON(bytes.NewReader(data))
		var ie *internalError
		if errors.As(err, &ie) {
			t.Fatal(err)
		}
		if err == nil {
			if err := checkSnapshotModel(s); err != nil {
				t.Fatalf("bad model: %v", err)
			}
		}
	})
}
