package natural

import (
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"step_9", "step_10", -1},
		{"step_10", "step_9", 1},
		{"node2", "node10", -1},
		{"step_007", "step_7", 0},
		{"rank0_step100", "rank1_step20", -1},
		{"a", "b", -1},
		{"abc", "ab", 1},
		{"", "", 0},
		{"x10y2", "x10y10", -1},
	}
	for _, tt := range tests {
		if got := Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestConsecutive: blocks are numbered one after another in the natural
// order of their names, each taking its size in numbers; a block of
// size 0 takes none; names alike as numbers go in byte order, and one
// name twice in the order given.
func TestConsecutive(t *testing.T) {
	for _, tt := range []struct {
		name         string
		names        []string
		sizes        []int
		first, order []int
	}{
		{"in order", []string{"node0", "node1"}, []int{2, 2}, []int{0, 2}, []int{0, 1}},
		{"natural, not byte order", []string{"train-10", "train-2", "train-1"}, []int{4, 8, 2}, []int{10, 2, 0}, []int{2, 1, 0}},
		{"an empty block", []string{"b", "a", "c"}, []int{3, 0, 1}, []int{0, 0, 3}, []int{1, 0, 2}},
		{"names alike as numbers, in byte order", []string{"n07", "n7", "n007"}, []int{1, 1, 1}, []int{1, 2, 0}, []int{2, 0, 1}},
		{"one name twice, in the order given", []string{"a", "a"}, []int{1, 2}, []int{0, 1}, []int{0, 1}},
		{"none", nil, nil, []int{}, []int{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first, order := Consecutive(tt.names, tt.sizes)
			if !slices.Equal(first, tt.first) || !slices.Equal(order, tt.order) {
				t.Errorf("Consecutive(%q, %v) = %v, %v; want %v, %v", tt.names, tt.sizes, first, order, tt.first, tt.order)
			}
		})
	}
}
