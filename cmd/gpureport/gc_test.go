package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that gpureport lowers the GC target only when the user
// did not set GOGC.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := tuneGC(getenv); got != gcPercent {
		t.Errorf("GOGC unset: %d, want %d", got, gcPercent)
	}
	debug.SetGCPercent(80) // as the runtime would for GOGC=80
	env["GOGC"] = "80"
	if got := tuneGC(getenv); got != 80 {
		t.Errorf("GOGC=80: %d, want 80 (the user's)", got)
	}
}
