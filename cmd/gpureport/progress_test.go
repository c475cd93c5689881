package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	// A terminal gets one redrawn bar, cleared at the end.
	var tty bytes.Buffer
	p := &progress{w: &tty, tty: true, interval: time.Hour}
	p.start("reading run42")
	p.update(1, 4, "rank0/snapshot_step_000100.pickle")
	p.update(4, 4, "rank3/snapshot_step_000400.pickle")
	p.finish()
	out := tty.String()
	if !strings.Contains(out, "reading run42 [######..................] 1/4 rank0/snapshot_step_000100.pickle") ||
		!strings.Contains(out, "[########################] 4/4") || strings.Contains(out, "\n") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("terminal output %q", out)
	}
	// A log file gets plain lines, rate-limited, and always the last one.
	var log bytes.Buffer
	p = &progress{w: &log, interval: time.Hour}
	p.start("reading run42")
	for i := 1; i <= 100; i++ {
		p.update(i, 100, "x.pickle")
	}
	p.finish()
	if got, want := log.String(), "reading run42: 1/100 files read\nreading run42: 100/100 files read\n"; got != want {
		t.Errorf("log output %q, want %q", got, want)
	}
	// Quiet prints nothing.
	var quiet bytes.Buffer
	p = newProgress(&quiet, true)
	p.update(1, 1, "x")
	p.step(1, 1, "x", "done")
	if quiet.Len() != 0 {
		t.Errorf("quiet printed %q", quiet.String())
	}
}

// TestIsTerminal: /dev/null is a character device but no terminal, so
// `gpureport ... 2>/dev/null` must get log lines, not a redrawn bar.
func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct {
		name string
		w    io.Writer
	}{{"/dev/null", null}, {"file", file}, {"buffer", &bytes.Buffer{}}} {
		if isTerminal(c.w) {
			t.Errorf("%s: isTerminal = true", c.name)
		}
	}
}
