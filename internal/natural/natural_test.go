package natural

import "testing"

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
