package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzScriptSafe: whatever a data string holds, the escaped option stays
// valid JSON that decodes to the same value and carries no character that
// could end a <script> element or a JavaScript line.
func FuzzScriptSafe(f *testing.F) {
	for _, s := range []string{"</script><script>alert(1)</script>", "<!--", "\u2028\u2029", "a&b>c", `"><img src=x onerror=alert(1)>`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		in, _ := json.Marshal(map[string]string{"name": s})
		out, err := scriptSafe(string(in))
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(string(out), "<>&\u2028\u2029") {
			t.Fatalf("escaped option %q still holds a dangerous character", out)
		}
		var back map[string]string
		if err := json.Unmarshal([]byte(out), &back); err != nil || back["name"] != s {
			t.Fatalf("round trip: %q, %v", back["name"], err)
		}
	})
}

// openTag matches an unescaped '<' that starts an HTML tag, comment or
// autolink.
var openTag = regexp.MustCompile(`(^|[^\\])<[\pL/!?]`)

// FuzzMarkdownEscape: escaped text never opens an HTML tag or a link and
// never carries a control character.
func FuzzMarkdownEscape(f *testing.F) {
	for _, s := range []string{"train_step", "<img src=x>", "[x](javascript:alert(1))", "a|b", "\x1b[31m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := mdEscape(s)
		if strings.ContainsAny(out, "\x1b\n\r") || openTag.MatchString(out) {
			t.Fatalf("mdEscape(%q) = %q opens a tag or keeps a control character", s, out)
		}
		if strings.Contains(strings.ReplaceAll(out, `\[`, ""), "[") {
			t.Fatalf("mdEscape(%q) = %q leaves a bracket unescaped", s, out)
		}
		code := mdCode(s)
		if s != "" && (strings.Count(code, "`") != 2 || strings.Contains(code, "|")) {
			t.Fatalf("mdCode(%q) = %q", s, code)
		}
	})
}

// FuzzParseSummary: summary.json read back by batch mode never panics, and
// what it accepts re-encodes.
func FuzzParseSummary(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "golden", "summary.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"schema":"gpureport/summary/v1","devices":[{"trend":{"slope_bytes_per_step":null}}]}`))
	f.Add([]byte(`{"schema":"other"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSummary(b)
		if err != nil {
			return
		}
		r := OverviewRunFromSummary(s)
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("overview row of an accepted summary does not encode: %v", err)
		}
	})
}
