package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSideEntries checks side entries: what is put is got back under its
// key and kind; a missing one is a plain miss; a kind that cannot name a
// file is refused; and an entry that does not read back whole (another
// kind, a flipped byte, a truncated file, lengths past the end, bytes
// after the data) is refused as corrupt and removed, never returned.
func TestSideEntries(t *testing.T) {
	cache := &DigestCache{Dir: t.TempDir()}
	const key = "ab0123"
	data := []byte(`{"requested":1}`)
	if err := cache.PutSide(key, "oom.v1.d0.e7", data); err != nil {
		t.Fatal(err)
	}
	if got, err := cache.GetSide(key, "oom.v1.d0.e7"); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("GetSide = %q, %v; want %q", got, err, data)
	}
	if _, err := cache.GetSide(key, "oom.v1.d0.e8"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("another kind: err = %v, want a plain miss", err)
	}
	for _, kind := range []string{"", "OOM", "a/b", "a b", strings.Repeat("a", maxSideKind+1)} {
		if err := cache.PutSide(key, kind, data); err == nil {
			t.Errorf("PutSide accepted kind %q", kind)
		}
	}

	good := encodeSide("oom.v1", data)
	reCRC := func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
		return b
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x20
	longData := bytes.Clone(good)
	longData[len(sideMagic)+1+len("oom.v1")]++ // the data's length, one more than there is
	trailing := reCRC(append(bytes.Clone(good[:len(good)-4]), 'x', 0, 0, 0, 0))
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"another kind's entry", encodeSide("oom.v2", data), `of kind "oom.v2"`},
		{"a flipped byte", flipped, "checksum"},
		{"truncated", good[:len(good)-3], "checksum"},
		{"data past the end", reCRC(longData), "data length"},
		{"bytes after the data", trailing, "after the data"},
		{"no magic", reCRC(append([]byte("gpureport-digest\n"), good[len(sideMagic):]...)), "header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := cache.sidePath(key, "oom.v1")
			if err := os.WriteFile(p, tt.b, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := cache.GetSide(key, "oom.v1")
			if !errors.Is(err, ErrSideCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("GetSide = %q, %v; want ErrSideCorrupt with %q", got, err, tt.want)
			}
			if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the corrupt entry was kept: %v", err)
			}
		})
	}
}

// TestEvictSideEntries checks that side entries count toward the cache's
// size and go least recently used first, as digests do.
func TestEvictSideEntries(t *testing.T) {
	cache := &DigestCache{Dir: t.TempDir()}
	data := bytes.Repeat([]byte("x"), 1000)
	base := time.Now().Add(-time.Hour)
	keys := []string{"aa01", "bb02", "cc03"}
	for i, k := range keys {
		if err := cache.PutSide(k, "oom.v1", data); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(cache.sidePath(k, "oom.v1"), at, at); err != nil {
			t.Fatal(err)
		}
	}
	cache.MaxBytes = int64(len(encodeSide("oom.v1", data)))
	freed, err := cache.Evict()
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * cache.MaxBytes; freed != want {
		t.Errorf("Evict freed %d bytes, want %d (the two oldest entries)", freed, want)
	}
	for i, k := range keys {
		_, err := os.Stat(cache.sidePath(k, "oom.v1"))
		if kept, want := err == nil, i == len(keys)-1; kept != want {
			t.Errorf("%s kept %v, want %v", k, kept, want)
		}
	}
}

// FuzzDecodeSide feeds decodeSide arbitrary bytes, seeded with entries of
// OOM explanations' size: it must never panic, must refuse what is not
// well formed with ErrSideCorrupt, and what it accepts must encode back
// to the same bytes.
func FuzzDecodeSide(f *testing.F) {
	f.Add(encodeSide("oom.v1.d0.e7", []byte(`{"Requested":1048576,"Phase":"forward"}`)))
	f.Add(encodeSide("oom.v1.host.e0", nil))
	f.Add(encodeSide("oom.v1", bytes.Repeat([]byte{0xff}, 300)))
	f.Fuzz(func(t *testing.T, b []byte) {
		data, err := decodeSide(b, "oom.v1")
		if err != nil {
			if !errors.Is(err, ErrSideCorrupt) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if back := encodeSide("oom.v1", data); !bytes.Equal(back, b) {
			t.Fatalf("accepted entry encodes back as %q, not %q", back, b)
		}
	})
}
