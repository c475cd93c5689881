package main

import (
	"bytes"
	"flag"
	"io"
	"testing"
)

// TestOverride checks that an override flag replaces its field only when
// given, whatever value it is given (0 and -1 included: no value stands
// for "not given"), and that a bad value is the flag package's error.
func TestOverride(t *testing.T) {
	tests := []struct {
		args    []string
		want    int
		wantErr bool
	}{
		{nil, 7, false},
		{[]string{"-n", "3"}, 3, false},
		{[]string{"-n", "0"}, 0, false},
		{[]string{"-n", "-1"}, -1, false},
		{[]string{"-n", "0x10"}, 16, false},
		{[]string{"-n", "three"}, 7, true},
	}
	for _, tc := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		n := overrideFlag(fs, "n", "`n` things (default: the base's)", parseInt)
		err := fs.Parse(tc.args)
		field := 7
		n.apply(&field)
		if (err != nil) != tc.wantErr || field != tc.want {
			t.Errorf("%v: field %d, error %v; want %d, error %v", tc.args, field, err, tc.want, tc.wantErr)
		}
	}
}

// TestOverrideHelp checks that -h shows an override flag with its value's
// name and no default of its own (what it keeps depends on other flags).
func TestOverrideHelp(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var help bytes.Buffer
	fs.SetOutput(&help)
	overrideFlag(fs, "n", "`n` things (default: the base's)", parseInt)
	overrideFlag(fs, "seed", "`seed` of the draws (default: the base's)", parseUint64)
	fs.PrintDefaults()
	want := "  -n n\n    \tn things (default: the base's)\n  -seed seed\n    \tseed of the draws (default: the base's)\n"
	if help.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", help.String(), want)
	}
}
