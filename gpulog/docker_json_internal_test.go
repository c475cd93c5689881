package gpulog

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestDockerJSONLongLineBounded: a line of a Docker json-file log over
// maxLineBytes (a stray dump, never an object the driver writes) passes
// through to the line reader, which skips it, without being held whole:
// sniffing and reading such a log allocate a bounded amount, however
// long the line, and the lines after it are read.
func TestDockerJSONLongLineBounded(t *testing.T) {
	oom := "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
		"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated."
	p := filepath.Join(t.TempDir(), "container-json.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	obj := func(s string) string {
		return `{"log":"` + s + `\n","stream":"stderr","time":"2024-03-08T10:00:01.000000000Z"}` + "\n"
	}
	// 48 times maxLineBytes in one line, written a block at a time.
	const long = 48 * maxLineBytes
	block := bytes.Repeat([]byte("x"), 64<<10)
	f.WriteString(obj("step 1 loss 2.0"))
	for range long / len(block) {
		f.Write(block)
	}
	f.WriteString("\n" + obj(oom))
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	alloc := func(fn func()) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		fn()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	open := func() (*os.File, []byte) {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		head := make([]byte, 8<<10)
		n, _ := f.ReadAt(head, 0)
		return f, head[:n]
	}
	// The reading's line reader, the side reading's (trainlog_side.go)
	// and the Docker reader each hold at most maxLineBytes of a line,
	// and their buffers, growing to it, allocate about as much again:
	// under 16 times maxLineBytes, whatever the line (before, the
	// Docker reader held it whole: over 2 times its length).
	const limit = 16 * maxLineBytes
	var claimed bool
	if got := alloc(func() { f, head := open(); claimed = SniffTrainingLog(f, head) }); got > limit || !claimed {
		t.Errorf("sniff: claimed %v, allocated %d bytes for a %d-byte line, want under %d", claimed, got, long, limit)
	}
	var l *GPULog
	if got := alloc(func() {
		f, _ := open()
		l, err = ReadLog(f, FormatTrainingLog, ReadOptions{Location: time.UTC})
	}); got > limit || err != nil {
		t.Errorf("read: %v, allocated %d bytes for a %d-byte line, want under %d", err, got, long, limit)
	}
	if l == nil || len(l.OOMs) != 1 || l.OOMs[0].Line != 3 {
		t.Fatalf("read %+v", l)
	}
	if notes := strings.Join(l.Notes, "\n"); !strings.Contains(notes, "Docker json-file") {
		t.Errorf("notes %q", l.Notes)
	}
}
