package main

import (
	"regexp"
	"runtime/debug"
	"testing"
	"time"
)

// TestSideVersionOf checks the name a build gives its side entries in the
// digest cache: the revision of a clean tree, a release's version made
// a valid kind, and none for changed or unknown sources.
func TestSideVersionOf(t *testing.T) {
	build := func(version string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Version: version}}
		for i := 0; i < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"clean tree", build("(devel)", "vcs.revision", "679cac4f00", "vcs.modified", "false"), "679cac4f00"},
		{"changed tree", build("(devel)", "vcs.revision", "679cac4f00", "vcs.modified", "true"), ""},
		{"go install of a release", build("v0.3.0"), "v0.3.0"},
		{"a pseudo-version", build("v0.0.0-20261128011058-679cac4f00AB+incompatible"), "v0.0.0-20261128011058-679cac4f00ab-incompatible"},
		{"no version at all", build("(devel)"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sideVersionOf(tt.bi); got != tt.want {
				t.Errorf("sideVersionOf = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestExeSideVersion checks that an executable rebuilt (another size or
// modification time) names its side entries otherwise, and that the name
// is a valid kind.
func TestExeSideVersion(t *testing.T) {
	at := time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC)
	a := exeSideVersion(30<<20, at)
	if a != exeSideVersion(30<<20, at) {
		t.Fatal("one executable has two names")
	}
	for _, b := range []string{exeSideVersion(30<<20+1, at), exeSideVersion(30<<20, at.Add(time.Nanosecond))} {
		if b == a {
			t.Errorf("a rebuilt executable keeps the name %q", a)
		}
	}
	if !regexp.MustCompile(`^exe-[0-9a-f]{16}$`).MatchString(a) {
		t.Errorf("name %q is not exe- and 16 hex digits", a)
	}
}
