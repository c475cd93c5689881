package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestTuneGC checks that gpureport lowers the GC target and adds the
// ballast only when the user did not set GOGC, and leaves the ballast out
// under GOMEMLIMIT.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		env         map[string]string
		setPercent  int // what the runtime would have made of GOGC
		percent     int
		wantBallast bool
	}{
		{map[string]string{}, 100, gcPercent, true},
		{map[string]string{"GOGC": "80"}, 80, 80, false},
		{map[string]string{"GOMEMLIMIT": "2GiB"}, 100, gcPercent, false},
	} {
		debug.SetGCPercent(c.setPercent)
		got, ballast := tuneGC(func(k string) string { return c.env[k] })
		if got != c.percent || (ballast != nil) != c.wantBallast || (ballast != nil && len(ballast) != gcFloor) {
			t.Errorf("%v: percent %d, ballast of %d bytes; want %d, ballast %v", c.env, got, len(ballast), c.percent, c.wantBallast)
		}
	}
}

// TestBallastRaisesTheHeapGoal: with the ballast reachable, the
// collector's next target is at least gcFloor plus gcPercent of it, the
// floor the ballast exists for; without it, a test binary's small heap
// would make the goal a few megabytes.
func TestBallastRaisesTheHeapGoal(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	_, ballast := tuneGC(func(string) string { return "" })
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	goal := s[0].Value.Uint64()
	runtime.KeepAlive(ballast)
	if want := uint64(gcFloor) * (100 + gcPercent) / 100; goal < want {
		t.Errorf("heap goal %d bytes with the ballast, want at least %d", goal, want)
	}
}
