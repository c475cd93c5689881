package analyze

import (
	"regexp"
	"testing"
)

// Words words the findings the way every report does, for the tests that
// check a decision and the sentence stating it together (TestOOMRules,
// TestTrainingOOMCause): package report/words, which an internal test
// cannot import since it imports analyze. The external test file
// words_hook_test.go sets it.
var Words struct {
	// Explanation words an OOM (words.Explanation); Setting names what
	// one of its recommendations changes (the setting of
	// words.Recommendation).
	Explanation func(*OOM) string
	Setting     func(*OOM, Recommendation) string
}

// explain is Words.Explanation, failing t when no words were set.
func explain(t *testing.T, o *OOM) string {
	t.Helper()
	if Words.Explanation == nil {
		t.Fatal("no words set (words_hook_test.go)")
	}
	return Words.Explanation(o)
}

// setting is Words.Setting, failing t when no words were set.
func setting(t *testing.T, o *OOM, r Recommendation) string {
	t.Helper()
	if Words.Setting == nil {
		t.Fatal("no words set (words_hook_test.go)")
	}
	return Words.Setting(o, r)
}

// negativeAmount matches a negative byte amount such as "-4.36 GiB".
var negativeAmount = regexp.MustCompile(`-[0-9.]+ (B|KiB|MiB|GiB|TiB)\b`)
