package report

import (
	"fmt"
	"strings"

	"gpureport/analyze"
)

// Helpers the writers share to lay out names and untrusted text; the
// words themselves come from package words.

// shortFingerprint shortens a fingerprint for tables: its first 12
// characters.
func shortFingerprint(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// frameText formats a frame as "name (file:line)".
func frameText(fr analyze.Frame) string {
	loc := fr.File
	if fr.Line > 0 {
		loc = fmt.Sprintf("%s:%d", fr.File, fr.Line)
	}
	if loc == "" {
		return fr.Name
	}
	return fmt.Sprintf("%s (%s)", fr.Name, loc)
}

// cleanText makes untrusted text safe for plain-text outputs (terminal,
// Markdown): control characters, including escape sequences, become
// U+FFFD so a frame name cannot move the cursor or hide text.
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			return '\uFFFD'
		}
		return r
	}, s)
}
