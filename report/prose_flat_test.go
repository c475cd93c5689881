package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// summaryProseKeys are the summary.json keys whose strings are sentences
// for a reader (the rest are names, paths and enumerations).
var summaryProseKeys = map[string]bool{
	"reason": true, "reasons": true, "explanation": true, "evidence": true, "notes": true,
	"headline": true,
}

// TestSummarySentencesFlat: analyze composes its sentences flat, as the
// writers show them unchanged: no sentence in the golden summary.json
// files (the sample run's, the fixture's and the logs-only fixture's) has
// doubled parentheses, parentheses back to back or inside parentheses, or
// a "(s)" plural. A call such as empty_cache() is code, not a parenthesis.
func TestSummarySentencesFlat(t *testing.T) {
	files := []string{
		filepath.Join("testdata", "golden", "summary.json"),
		filepath.Join("testdata", "golden", "logs-only", "summary.json"),
		filepath.Join("..", "testdata", "golden", "sample-run", "summary.json"),
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		n := 0
		var walk func(v any, key string)
		walk = func(v any, key string) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					walk(x, k)
				}
			case []any:
				for _, x := range v {
					walk(x, key)
				}
			case string:
				if summaryProseKeys[key] {
					n++
					if why := parenFlaw(v); why != "" {
						t.Errorf("%s: %s %s:\n%s", file, key, why, v)
					}
				}
			}
		}
		walk(doc, "")
		if n == 0 {
			t.Errorf("%s: no sentences found", file)
		}
	}
}

// parenFlaw says what is wrong with a sentence's parentheses, "" when it
// reads flat.
func parenFlaw(s string) string {
	for _, bad := range []string{"((", "))", ")(", ") (", "(s)"} {
		if strings.Contains(s, bad) {
			return "has " + bad
		}
	}
	depth := 0
	for _, r := range strings.ReplaceAll(s, "()", "") {
		switch r {
		case '(':
			if depth++; depth > 1 {
				return "has parentheses inside parentheses"
			}
		case ')':
			depth--
		}
	}
	return ""
}
