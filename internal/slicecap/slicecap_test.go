package slicecap

import (
	"slices"
	"testing"
)

// TestDoubling checks that room is made only when it is missing, that
// the elements are kept, that a grown slice doubles (or takes the room
// asked, or the floor), and that the old array is left untouched.
func TestDoubling(t *testing.T) {
	for _, c := range []struct {
		name         string
		len, cap, n  int
		min, wantCap int
	}{
		{"room enough", 3, 8, 5, 0, 8},
		{"doubled", 8, 8, 1, 0, 16},
		{"doubled when large (append would add a quarter)", 4096, 4096, 1, 0, 8192},
		{"more than double asked", 8, 8, 20, 0, 28},
		{"the floor", 0, 0, 1, 1024, 1024},
	} {
		s := make([]int, c.len, c.cap)
		for i := range s {
			s[i] = i + 1
		}
		old := s
		got := Doubling(s, c.n, c.min)
		if cap(got) != c.wantCap || !slices.Equal(got, old) {
			t.Errorf("%s: len %d cap %d %v, want cap %d and %v", c.name, len(got), cap(got), got, c.wantCap, old)
		}
		if cap(got) != c.cap && len(old) > 0 {
			got = append(got, 99)
			got[0] = -1
			if old[0] != 1 {
				t.Errorf("%s: the old array was written through the grown slice", c.name)
			}
		}
	}
}
