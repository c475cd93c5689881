package batch

import (
	"fmt"
	"testing"
)

// FuzzParseShard: --shard either parses to 0 <= i < n or is an error,
// and a parsed shard prints back as itself.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/8", "8/8", "-1/2", "1/0", "a/b", " 2 / 4 ", "9999999999999999999/1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
			t.Fatalf("ParseShard(%q) = %v", s, sh)
		}
		back, err := ParseShard(sh.String())
		if err != nil || back != sh {
			t.Fatalf("%q -> %v -> %v, %v", s, sh, back, err)
		}
	})
}

// FuzzParseLock: a lock file's content never panics the parser; what it
// accepts names a positive pid and a host.
func FuzzParseLock(f *testing.F) {
	for _, s := range []string{"123 host 2025-01-01T00:00:00Z\n", "", "x y", "-5 h", "0 h", fmt.Sprint(1<<62) + " h"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		pid, host, _, ok := parseLock(b)
		if ok && (pid <= 0 || host == "") {
			t.Fatalf("parseLock(%q) = %d, %q", b, pid, host)
		}
	})
}
