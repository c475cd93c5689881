package report

import "testing"

func TestMarkdownEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		// Words with underscores and comparisons stay as typed: GitHub and
		// Jira show a pasted backslash or entity literally.
		{"train_step", "train_step"},
		{"snapshot_step_000010.pickle", "snapshot_step_000010.pickle"},
		{"p < 0.001", "p < 0.001"},
		{"p<0.001", "p<0.001"},
		{"A & B", "A & B"},
		{"_private", `\_private`},
		{"a|b", `a\|b`},
		{"<img src=x>", `\<img src=x>`},
		{"</b>", `\</b>`},
		{"&lt;", `\&lt;`},
		{"[x](http://e)", `\[x](http://e)`},
		{"issue #3", "issue #3"},
		{"+720 MiB", "+720 MiB"},
		{"~3 steps ~5", `\~3 steps \~5`},
		{"a\x1b[31mred", "a\uFFFD\\[31mred"},
	}
	for _, tt := range tests {
		if got := mdEscape(tt.in); got != tt.want {
			t.Errorf("mdEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for in, want := range map[string]string{"# not a heading": `\# not a heading`, "+1 MiB": `\+1 MiB`, "a - b": "a - b"} {
		if got := mdItem(in); got != want {
			t.Errorf("mdItem(%q) = %q, want %q", in, got, want)
		}
	}
	if got := mdCode("a`b|c"); got != "`a'b¦c`" {
		t.Errorf("mdCode = %q", got)
	}
}
