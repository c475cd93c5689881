package gpulog

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestWatchReaderHoldsOneFrame: a redraw of a few bytes ends a frame, and
// each frame is the whole screen's text, so one chunk of the capture can
// stand for thousands of frames. The reader hands them over one at a
// time: what it holds is bounded by one frame, never by what a chunk of
// redraws expands to.
func TestWatchReaderHoldsOneFrame(t *testing.T) {
	const rows, cols = 100, 100
	var in bytes.Buffer
	in.WriteString("\x1b[H\x1b[2J")
	for r := 1; r <= rows; r++ {
		fmt.Fprintf(&in, "\x1b[%d;1H%s", r, strings.Repeat("x", cols))
	}
	// Each redraw changes the first cell: at or before the last change,
	// so it starts a new frame.
	const redraws = 2000 // in one 32 KiB chunk, and within maxWatchExpansion
	for i := range redraws {
		fmt.Fprintf(&in, "\x1b[1;1H%c", 'a'+i%26)
	}
	var st watchStats
	w := newWatchReader(bytes.NewReader(in.Bytes()), &st)
	frameBytes := rows * (cols + 1) * 2 // a frame's text, generously
	buf := make([]byte, 4096)
	total := 0
	for {
		n, err := w.Read(buf)
		total += n
		if held := w.out.Len(); held > frameBytes {
			t.Fatalf("the reader holds %d bytes of text, more than a frame (%d)", held, frameBytes)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if st.frames != redraws+1 {
		t.Errorf("%d frames, want %d", st.frames, redraws+1)
	}
	if total < redraws*rows*cols {
		t.Errorf("%d bytes of text, want every frame's", total)
	}
}

// TestWatchReaderExpansionBounded: a capture that redraws one cell of a
// full screen at a time expands far beyond what watch writes; past
// maxWatchExpansion cells per byte replayed (and a first MiB), frames are
// counted and left out, so that the text read stays in proportion to the
// capture.
func TestWatchReaderExpansionBounded(t *testing.T) {
	screen := make([][]rune, 100)
	for i := range screen {
		screen[i] = []rune(strings.Repeat("x", 100))
	}
	var st watchStats
	w := newWatchReader(strings.NewReader(""), &st)
	w.replayed = 1000 // the screen's cells and its redraws, 1000 bytes
	for range 300 {
		w.frame(screen, 100, true)
	}
	limit := 1<<20 + maxWatchExpansion*w.replayed
	if n := int64(w.out.Len()); n > limit || st.frames*100*101 > int(limit) {
		t.Errorf("%d bytes of text in %d frames from %d bytes of capture, want at most %d", n, st.frames, w.replayed, limit)
	}
	if st.oversized == 0 || st.frames+st.oversized != 300 {
		t.Errorf("%d frames read, %d left out, want 300 in all, some left out", st.frames, st.oversized)
	}
	if !strings.Contains(st.note(), "left out") {
		t.Errorf("note %q", st.note())
	}
}
