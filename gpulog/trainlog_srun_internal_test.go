package gpulog

import (
	"slices"
	"strings"
	"testing"
)

// TestSrunLabel checks srunLabel against the regexp it stands for, on
// labels and near misses.
func TestSrunLabel(t *testing.T) {
	lines := []string{"", " ", ":", ": ", "0: x", "0:x", "0 : x", "  3: step 1", "03: x", "123456: x", "1234567: x",
		"12a: x", "\t3: x", " 3:  x", "3: ", "3:", "   ", strings.Repeat(" ", 89), "|   0  NVIDIA", "٣: x", "1: 2: x"}
	for _, l := range lines {
		if got, want := srunLabel(l), rePrefixTask.FindStringSubmatch(l); !slices.Equal(got, want) {
			t.Errorf("srunLabel(%q) = %q, the regexp finds %q", l, got, want)
		}
	}
}

// FuzzSrunLabel checks srunLabel against the regexp on any line.
func FuzzSrunLabel(f *testing.F) {
	f.Add("  3: step 1")
	f.Add("1234567: x")
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := srunLabel(l), rePrefixTask.FindStringSubmatch(l); !slices.Equal(got, want) {
			t.Errorf("srunLabel(%q) = %q, the regexp finds %q", l, got, want)
		}
	})
}
