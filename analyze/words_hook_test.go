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
		var code strings.Builder
		for _, p := range words.Recommendation(o, r) {
			if p.Code {
				code.WriteString(p.Text)
			}
		}
		return code.String()
	}
}
