package analyze_test

import (
	"strings"

	"gpureport/analyze"
	"gpureport/report/words"
)

// The internal tests word OOMs as the reports do (analyze.Words).
func init() {
	analyze.Words.Explanation = words.Explanation
	analyze.Words.Setting = func(o *analyze.OOM, r analyze.Recommendation) string {
		// An allocator setting is the sentence's code; a change in words
		// is prose, the whole sentence (words.Recommendation).
		rec := words.Recommendation(o, r)
		var code strings.Builder
		for _, p := range rec {
			if p.Code {
				code.WriteString(p.Text)
			}
		}
		if code.Len() == 0 {
			return rec.String()
		}
		return code.String()
	}
}
