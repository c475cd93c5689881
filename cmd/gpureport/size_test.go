package main

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"80GiB", 80 << 30, false},
		{"80G", 80 << 30, false},
		{"80GB", 80e9, false},
		{"512MiB", 512 << 20, false},
		{"1.5 TiB", 3 << 39, false},
		{"4096", 4096, false},
		{"12 parsecs", 0, true},
		{"-1G", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}
