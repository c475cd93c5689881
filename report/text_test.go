package report

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/ingest"
)

// TestEachCapped checks the terminal summary's capped lists: the first
// limit items each get their line (with their index), and only a longer
// list ends with one line that counts the rest.
func TestEachCapped(t *testing.T) {
	for _, c := range []struct {
		name  string
		items []string
		want  string
	}{
		{"none", nil, ""},
		{"under the limit", []string{"a", "b"}, "0 a\n1 b\n"},
		{"at the limit", []string{"a", "b", "c"}, "0 a\n1 b\n2 c\n"},
		{"one over", []string{"a", "b", "c", "d"}, "0 a\n1 b\n2 c\n  ... and 1 more letters (see x)\n"},
		{"many over", strings.Split("abcdefgh", ""), "0 a\n1 b\n2 c\n  ... and 5 more letters (see x)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			eachCapped(&b, c.items, 3, "letters (see x)", func(i int, s string) {
				fmt.Fprintf(&b, "%d %s\n", i, s)
			})
			if got := b.String(); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestTextCapsSkipped checks that the terminal summary names at most
// maxTextSkipped skipped files and counts the others in one line.
func TestTextCapsSkipped(t *testing.T) {
	f := &analyze.Findings{}
	for i := range maxTextSkipped + 2 {
		f.Inputs.Skipped = append(f.Inputs.Skipped, ingest.Skipped{Path: fmt.Sprintf("f%d.pickle", i), Reason: "truncated"})
	}
	var b strings.Builder
	if err := Text(&b, f); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	last := fmt.Sprintf("skipped f%d.pickle: truncated\n", maxTextSkipped-1)
	more := "  ... and 2 more skipped files (see summary.md)\n"
	if !strings.Contains(out, last+more) || strings.Contains(out, fmt.Sprintf("f%d.pickle", maxTextSkipped)) {
		t.Errorf("want the first %d skipped files, then %q; got\n%s", maxTextSkipped, more, out)
	}
}
