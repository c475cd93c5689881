package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/ingest"
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

// TestProgressLoad checks the load progress: a terminal bar with files,
// bytes, cached files and throughput, drawn as soon as loading starts; a
// log line every interval and at the end; nothing when quiet.
func TestProgressLoad(t *testing.T) {
	lps := []ingest.LoadProgress{
		{Total: 4, TotalBytes: 4 << 20},
		{Done: 1, Total: 4, DoneBytes: 1 << 20, TotalBytes: 4 << 20, Cached: 1, Rel: "a.pickle"},
		{Done: 4, Total: 4, DoneBytes: 4 << 20, TotalBytes: 4 << 20, Cached: 1, Rel: "d.pickle"},
	}
	var tty bytes.Buffer
	p := &progress{w: &tty, tty: true, interval: time.Hour}
	p.start("reading run42")
	p.updateLoad(lps[0])
	if out := tty.String(); !strings.Contains(out, "reading run42 [........................] 0/4 files, 0 B of 4.00 MiB") {
		t.Errorf("no bar at the start: %q", out)
	}
	time.Sleep(time.Millisecond) // a throughput needs some elapsed time
	p.updateLoad(lps[2])
	p.finish()
	out := tty.String()
	if !strings.Contains(out, "[########################] 4/4 files, 4.00 MiB of 4.00 MiB (1 cached), ") || !strings.Contains(out, "/s") || strings.Contains(out, "\n") {
		t.Errorf("terminal output %q", out)
	}
	var log bytes.Buffer
	p = &progress{w: &log, interval: time.Hour}
	p.start("reading run42")
	for _, lp := range lps {
		p.updateLoad(lp)
	}
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "reading run42: 1/4 files, 1.00 MiB of 4.00 MiB (1 cached)") || !strings.HasPrefix(lines[1], "reading run42: 4/4 files") {
		t.Errorf("log output %q", log.String())
	}
	var quiet bytes.Buffer
	p = newProgress(&quiet, true)
	for _, lp := range lps {
		p.updateLoad(lp)
	}
	if quiet.Len() != 0 {
		t.Errorf("quiet printed %q", quiet.String())
	}
}
