package main

import (
	"strings"
	"testing"
)

// TestSharedFlags: every command that decodes snapshots offers
// --max-decompressed with one help text and default, and refuses a size it
// cannot read as a usage error naming the flag; -q reads the same where
// it exists.
func TestSharedFlags(t *testing.T) {
	tests := []struct {
		cmd       []string
		wantQuiet bool
		wantIn    string // the usage problem's prefix, before the flag
	}{
		{nil, true, "gpureport: --max-decompressed: "},
		{[]string{"diff"}, true, "gpureport: --max-decompressed: "},
		{[]string{"digest"}, true, "gpureport: --max-decompressed: "},
		{[]string{"stats"}, false, "gpureport: stats: --max-decompressed: "},
	}
	const help = "largest decompressed SIZE a gzip/zip snapshot may have (default \"16GiB\")"
	for _, tc := range tests {
		name := strings.Join(tc.cmd, " ")
		if name == "" {
			name = "report"
		}
		t.Run(name, func(t *testing.T) {
			code, out, _ := runCmd(t, append(append([]string{}, tc.cmd...), "-h")...)
			if code != exitOK || !strings.Contains(out, "-max-decompressed SIZE\n") || !strings.Contains(out, help) {
				t.Errorf("-h: exit %d, want the shared --max-decompressed help %q in:\n%s", code, help, out)
			}
			if got := strings.Contains(out, "-q\tno progress output"); got != tc.wantQuiet {
				t.Errorf("-h lists -q with the shared help: %v, want %v", got, tc.wantQuiet)
			}
			args := append(append([]string{}, tc.cmd...), "--max-decompressed", "12 parsecs", "a", "b")
			if tc.cmd != nil && tc.cmd[0] != "diff" {
				args = args[:len(args)-1]
			}
			code, _, errs := runCmd(t, args...)
			if code != exitUsage || !strings.HasPrefix(errs, tc.wantIn) {
				t.Errorf("bad size: exit %d, stderr %q; want %d and a line starting %q", code, errs, exitUsage, tc.wantIn)
			}
		})
	}
}
