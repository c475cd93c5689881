package gpulog

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sideTexts are texts whose side readings must not depend on how the
// side reading got their lines: a wrapped OOM message, an nvidia-smi
// table, a line over maxLineBytes (with NUL bytes past the limit), a
// byte order mark, CRLF endings, a NUL hole, a lost GPU, and an
// unterminated last line.
func sideTexts() map[string]string {
	table := `Wed May  1 12:00:00 2024
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |
| N/A   30C    P0             70W /  700W |    1000MiB /  81559MiB |      0%      Default |
|                                         |                        |             Disabled |
+-----------------------------------------+------------------------+----------------------+
`
	wrapped := "step 1 loss 2.3\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total\n" +
		"capacity of 79.15 GiB of which 1.23 GiB is free. Including non-PyTorch memory, this process has 77.91 GiB memory in use.\n" +
		"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.\n"
	long := strings.Repeat("\r 45%|####      | 45/100", maxLineBytes/20) + strings.Repeat("\x00", 100) + "tail"
	return map[string]string{
		"table then wrapped OOM":    table + wrapped,
		"wrapped OOM then table":    wrapped + table,
		"long line":                 "step 1\n" + long + "\n" + wrapped,
		"long line at the end":      wrapped + long,
		"BOM, CRLF and NULs":        "\xef\xbb\xbf" + strings.ReplaceAll(table, "\n", "\r\n") + "\x00\x00\x00\n" + "step\x00 2\n" + wrapped,
		"lost GPU, unterminated":    table + "Unable to determine the device handle for GPU0000:18:00.0: Unknown Error\n" + strings.TrimSuffix(wrapped, "\n"),
		"message cut by the end":    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total",
		"empty":                     "",
		"blank lines and NULs only": "\n\n\x00\x00\n",
	}
}

// TestSideReadingEveryWay reads each text's side readings (training log
// and GPU) riding a line reader's lines, riding one that stopped early,
// and teed the text's bytes in pieces of several sizes: the logs must be
// the same.
func TestSideReadingEveryWay(t *testing.T) {
	opt := ReadOptions{Location: time.UTC, Name: "x.log"}
	sides := map[string]func() *sideScan{
		"training": func() *sideScan { return newSideScan(opt) },
		"gpu":      func() *sideScan { return newGPUSideScan(opt) },
	}
	ways := map[string]func(s *sideScan, text string){
		// stop is how many lines the main reader reads before it stops
		// (-1: all).
		"ride":              func(s *sideScan, text string) { ride(s, text, -1) },
		"ride, stop early":  func(s *sideScan, text string) { ride(s, text, 3) },
		"ride, read none":   func(s *sideScan, text string) { ride(s, text, 0) },
		"tee, whole":        func(s *sideScan, text string) { tee(s, strings.NewReader(text), 64<<10) },
		"tee, 7 bytes":      func(s *sideScan, text string) { tee(s, strings.NewReader(text), 7) },
		"tee, half reads":   func(s *sideScan, text string) { tee(s, iotest.HalfReader(strings.NewReader(text)), 1000) },
		"tee, one byte":     func(s *sideScan, text string) { tee(s, iotest.OneByteReader(strings.NewReader(text)), 1) },
		"tee, then drained": func(s *sideScan, text string) { tee(s, strings.NewReader(text), 0) },
	}
	for name, text := range sideTexts() {
		for side, start := range sides {
			var want *GPULog
			var wantErr error
			for _, way := range []string{"ride", "ride, stop early", "ride, read none", "tee, whole", "tee, 7 bytes", "tee, half reads", "tee, one byte", "tee, then drained"} {
				if way == "tee, one byte" && len(text) > 1<<16 {
					continue
				}
				s := start()
				ways[way](s, text)
				s.finish()
				if way == "ride" {
					want, wantErr = s.log, s.err
					continue
				}
				if d := cmp.Diff(want, s.log, cmpopts.EquateNaNs()); d != "" || (s.err == nil) != (wantErr == nil) {
					t.Errorf("%s, %s side, %s: error %v, riding all lines %v; log (-riding all lines +this way):\n%s", name, side, way, s.err, wantErr, d)
				}
			}
		}
	}
}

// ride hands s the lines of text a line reader reads, the first stop of
// them (-1: all) before s.finish reads the rest.
func ride(s *sideScan, text string, stop int) {
	tee := s.teeFrom(bufio.NewReaderSize(strings.NewReader(text), 64<<10))
	b := newLogBuilder(FormatTable, ReadOptions{})
	lr := b.lines(tee)
	if lr.side != s {
		panic("the side reading does not ride the line reader")
	}
	for i := 0; stop < 0 || i < stop; i++ {
		if _, ok := lr.next(); !ok {
			break
		}
	}
}

// tee reads r through s's tee in reads of up to n bytes (0: none, all
// left to s.finish).
func tee(s *sideScan, r io.Reader, n int) {
	t := s.teeFrom(bufio.NewReaderSize(r, 16))
	if n == 0 {
		return
	}
	p := make([]byte, n)
	for {
		if _, err := t.Read(p); err != nil {
			return
		}
	}
}

// FuzzSideReadingEveryWay checks on any text that the side readings
// riding a line reader's lines and teed its bytes in small pieces are
// the same.
func FuzzSideReadingEveryWay(f *testing.F) {
	for _, text := range sideTexts() {
		if len(text) < 1<<16 {
			f.Add(text, uint8(7))
		}
	}
	f.Fuzz(func(t *testing.T, text string, n uint8) {
		opt := ReadOptions{Location: time.UTC}
		for _, start := range []func(ReadOptions) *sideScan{newSideScan, newGPUSideScan} {
			a, b := start(opt), start(opt)
			ride(a, text, -1)
			a.finish()
			tee(b, iotest.HalfReader(strings.NewReader(text)), int(n)+1)
			b.finish()
			if d := cmp.Diff(a.log, b.log, cmpopts.EquateNaNs()); d != "" || (a.err == nil) != (b.err == nil) {
				t.Errorf("%s: error %v riding, %v teed; log (-riding +teed):\n%s", a.b.log.Format, a.err, b.err, d)
			}
		}
	})
}
