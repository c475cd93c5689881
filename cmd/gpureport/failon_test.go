package main

import (
	"slices"
	"testing"

	"gpureport/analyze"
)

// TestFailOn: --fail-on reads the flags by their one spelling (and the
// old outside-leak), "any" is every flag, an unknown name is an error, and
// a verdict meets the flags it raises.
func TestFailOn(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		bad  bool
	}{
		{"", nil, false},
		{"leak, OOM", []string{"leak", "oom"}, false},
		{"outside-leak", []string{"outside_allocator_leak"}, false},
		{"outside_allocator_leak,fragmentation", []string{"outside_allocator_leak", "fragmentation"}, false},
		{"any", []string{"leak", "outside_allocator_leak", "oom", "fragmentation"}, false},
		{"leak,sadness", nil, true},
	}
	for _, tt := range tests {
		got, err := parseFailOn(tt.in)
		if (err != nil) != tt.bad || !slices.Equal(got, tt.want) {
			t.Errorf("parseFailOn(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
	v := analyze.Verdict{Leak: true, Fragmentation: true}
	if got := failOnMet(v, []string{"oom", "fragmentation", "leak"}); !slices.Equal(got, []string{"fragmentation", "leak"}) {
		t.Errorf("failOnMet = %q", got)
	}
	if got := v.FlagText(); got != "leak, fragmentation" {
		t.Errorf("FlagText = %q", got)
	}
}
