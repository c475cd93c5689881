package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points the user cache folder (and so the default digest cache)
// at a temporary folder, so that tests never write to the real one.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gpureport-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
