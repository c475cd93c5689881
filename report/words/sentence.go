package words

import "strings"

// Sentence is a sentence in parts: plain text, and code (a setting, a
// call, a site) that a writer may set apart (summary.md as a code span,
// the page in <code>). Its plain text is String.
type Sentence []Part

// Part is a run of a Sentence: Text, which is code when Code is set.
type Part struct {
	Text string
	Code bool
}

// String is the sentence as plain text.
func (s Sentence) String() string {
	var b strings.Builder
	for _, p := range s {
		b.WriteString(p.Text)
	}
	return b.String()
}

// sentence builds a Sentence from its parts: a string is text, a code
// value is code.
func sentence(parts ...any) Sentence {
	out := make(Sentence, 0, len(parts))
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, Part{Text: v})
		case code:
			out = append(out, Part{Text: string(v), Code: true})
		}
	}
	return out
}

// code marks a part of a sentence as code.
type code string

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
