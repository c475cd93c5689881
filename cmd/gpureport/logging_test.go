package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// TestPlainHandler: diagnostics on a terminal are plain lines, not
// time=... level=WARN msg=... beside the prose of the summary.
func TestPlainHandler(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(&plainHandler{w: &b, level: slog.LevelWarn, mu: &sync.Mutex{}})
	log.Warn("skipped input", "file", "run/notes.csv", "reason", "not a GPU log: no header")
	log.Info("hidden below the level")
	log.With("run", "run42").Error("cannot decode", "err", "truncated", "offset", 17)
	want := "warning: skipped input run/notes.csv: not a GPU log: no header\n" +
		"error: cannot decode run42: truncated (offset 17)\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(b.String(), "level=") || strings.Contains(b.String(), "time=") {
		t.Error("key=value output on a terminal")
	}
	// Not a terminal: slog's text lines, for cron logs.
	var c bytes.Buffer
	newLogger(&c, slog.LevelWarn).Warn("skipped input", "file", "x")
	if !strings.Contains(c.String(), "level=WARN") {
		t.Errorf("non-terminal output %q, want key=value", c.String())
	}
}
