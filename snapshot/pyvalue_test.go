package snapshot

import (
	"fmt"
	"strings"
	"testing"
)

// TestFormatValueBounded: settings values print like Python's repr, and
// hostile ones (self-containing, deeply nested, huge) print quickly and
// briefly instead of recursing forever or growing quadratically.
func TestFormatValueBounded(t *testing.T) {
	self := pyD("a", int64(1))
	self.set("me", self)
	deep := any(int64(0))
	for range 100 {
		deep = pyD("d", deep)
	}
	huge := pyD()
	for i := range 200000 {
		huge.set(fmt.Sprint(i), int64(i))
	}
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"dict", pyD("1", int64(0), "2", int64(4)), "{1: 0, 2: 4}"},
		{"scalars", pyTuple{nil, true, 1.5, "x"}, "(None, True, 1.5, x)"},
		{"list", pyL(int64(1), int64(2)), "[2 items]"},
		{"self", self, "{a: 1, me: {a: 1, me: {a: 1, me: {a: 1, me: {...}}}}}"},
		{"deep", deep, "{d: {d: {d: {d: {...}}}}}"},
	} {
		if got := formatValue(c.v); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	got := formatValue(huge)
	if len(got) > maxFormatLen+3 || !strings.HasPrefix(got, "{0: 0, 1: 1") || !strings.HasSuffix(got, "...") {
		t.Errorf("huge: %d bytes: %.40q...", len(got), got)
	}
}
