package batch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// TestStateFilesOfOtherLayouts: a state file of another layout, or not
// JSON, or not readable is passed over (a manifest as absent, so the run
// is reported again; a part with a warning naming the file), never misread.
func TestStateFilesOfOtherLayouts(t *testing.T) {
	sh := Shard{Index: 0, Count: 1}
	good := &overviewPart{Schema: partSchema, Shard: sh, Roots: []string{"/r"}}
	tests := []struct {
		name     string
		content  []byte // nil: a folder stands where the file should be
		wantPart bool
		wantWarn string
	}{
		{"current layout", nil, true, ""},
		{"another layout", []byte(`{"schema":"gpureport/overview-part/v0","roots":["/x"]}`), false, "not an overview part"},
		{"not JSON", []byte("part"), false, "not an overview part"},
		{"unreadable", nil, false, "is a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := partPath(dir, sh)
			switch {
			case tc.wantPart:
				if err := writePart(dir, good); err != nil {
					t.Fatal(err)
				}
			case tc.content == nil:
				if err := os.MkdirAll(path, 0o755); err != nil {
					t.Fatal(err)
				}
			default:
				testutil.WriteFiles(t, filepath.Dir(path), map[string][]byte{filepath.Base(path): tc.content})
			}
			parts, warn := readParts(dir)
			if tc.wantPart != (len(parts) == 1) {
				t.Fatalf("parts %d, want a part: %v (warnings %q)", len(parts), tc.wantPart, warn)
			}
			if tc.wantPart && !slices.Equal(parts[0].Roots, good.Roots) {
				t.Errorf("part read back with roots %q, want %q", parts[0].Roots, good.Roots)
			}
			if tc.wantWarn == "" && len(warn) > 0 || tc.wantWarn != "" && (len(warn) != 1 || !strings.Contains(warn[0], tc.wantWarn) || !strings.HasPrefix(warn[0], path)) {
				t.Errorf("warnings %q, want one naming %s with %q", warn, path, tc.wantWarn)
			}
		})
	}
	t.Run("manifest of another layout", func(t *testing.T) {
		out := t.TempDir()
		testutil.WriteFiles(t, out, map[string][]byte{manifestName: []byte(`{"schema":"gpureport/inputs/v0","key":"k","files":[]}`)})
		if m := readManifest(out); m != nil {
			t.Errorf("readManifest = %+v, want nil for another layout", m)
		}
		if err := writeManifest(out, &manifest{Schema: manifestSchema, Key: "k"}); err != nil {
			t.Fatal(err)
		}
		if m := readManifest(out); m == nil || m.Key != "k" {
			t.Errorf("readManifest after writeManifest = %+v", m)
		}
	})
}
