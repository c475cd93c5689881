package bykey

import (
	"slices"
	"testing"
)

// TestEntry checks that each key gets one value, made once on its first
// use, that later uses add to it, and that a nil entry counts as none.
func TestEntry(t *testing.T) {
	type sum struct{ n int }
	for _, c := range []struct {
		name  string
		start map[string]*sum
		keys  []string
		want  map[string]int
		made  []string
	}{
		{"empty", map[string]*sum{}, nil, map[string]int{}, nil},
		{"one key", map[string]*sum{}, []string{"a", "a", "a"}, map[string]int{"a": 3}, []string{"a"}},
		{"keys in order of first use", map[string]*sum{}, []string{"b", "a", "b", "c"}, map[string]int{"a": 1, "b": 2, "c": 1}, []string{"b", "a", "c"}},
		{"existing entry kept", map[string]*sum{"a": {n: 10}}, []string{"a", "b"}, map[string]int{"a": 11, "b": 1}, []string{"b"}},
		{"nil entry replaced", map[string]*sum{"a": nil}, []string{"a"}, map[string]int{"a": 1}, []string{"a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var made []string
			for _, k := range c.keys {
				Entry(c.start, k, func() *sum { made = append(made, k); return &sum{} }).n++
			}
			got := map[string]int{}
			for k, v := range c.start {
				got[k] = v.n
			}
			if len(got) != len(c.want) {
				t.Errorf("entries %v, want %v", got, c.want)
			}
			for k, n := range c.want {
				if got[k] != n {
					t.Errorf("entry %q = %d, want %d (all: %v)", k, got[k], n, got)
				}
			}
			if !slices.Equal(made, c.made) {
				t.Errorf("made %v, want %v", made, c.made)
			}
		})
	}
}
