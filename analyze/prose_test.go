package analyze

import (
	"reflect"
	"strings"
	"testing"
)

// proseFields are the Findings fields that still hold sentences: the
// words of the inputs' readers and of the GPU join, which the Findings
// pass on (Note.Text, Device.GPUJoin). The rest the reports word from
// typed data (package report/words, whose tests check its sentences).
var proseFields = map[string]bool{
	"Text": true, "GPUJoin": true,
}

// allProse returns every sentence of f: the string fields named in
// proseFields, wherever they sit in the Findings.
func allProse(f *Findings) []string {
	var out []string
	var walk func(v reflect.Value, name string)
	walk = func(v reflect.Value, name string) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), name)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), v.Type().Field(i).Name)
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), name)
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(v.MapIndex(k), name)
			}
		case reflect.String:
			if proseFields[name] && v.String() != "" {
				out = append(out, v.String())
			}
		}
	}
	walk(reflect.ValueOf(f), "")
	return out
}

// proseFlaw says what is wrong with a sentence's punctuation: doubled
// parentheses "((" or "))", back-to-back ones ")(" or ") (", parentheses
// inside parentheses, or a "(s)" plural; "" when it reads flat.
func proseFlaw(s string) string {
	for _, bad := range []string{"((", "))", ")(", ") (", "(s)"} {
		if strings.Contains(s, bad) {
			return "has " + bad
		}
	}
	// A call such as empty_cache() is code, not a parenthesis.
	s = strings.ReplaceAll(s, "()", "")
	depth := 0
	for _, r := range s {
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

// CheckProse reports every sentence of f whose punctuation proseFlaw
// rejects (exported for the external tests).
func CheckProse(t *testing.T, name string, f *Findings) {
	t.Helper()
	for _, s := range allProse(f) {
		if why := proseFlaw(s); why != "" {
			t.Errorf("%s: sentence %s:\n%s", name, why, s)
		}
	}
}

func TestProseFlaw(t *testing.T) {
	for s, bad := range map[string]bool{
		"grows +1.00 MiB/step (95% CI +0.90 to +1.10 MiB), p<0.001": false,
		"a (b (c))":                             true,
		"a (b) (c)":                             true,
		"1 suspect(s)":                          true,
		"a (b; c), d (e)":                       false,
		"stays (no trend: p=0.41)":              false,
		"x ((y)":                                true,
		"no growth (p=0.2; slope (x":            true,
		"(empty_cache() or garbage collection)": false,
	} {
		if got := proseFlaw(s) != ""; got != bad {
			t.Errorf("proseFlaw(%q) = %q, want flawed %v", s, proseFlaw(s), bad)
		}
	}
}
