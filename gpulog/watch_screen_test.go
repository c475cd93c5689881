package gpulog_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// watchCapture100x40 is `script -c 'watch -n 1 nvidia-smi'` (procps-ng
// watch 4.0.2, TERM=xterm, a 100x40 terminal) over five one-second
// frames of a two-GPU table: the first frame drawn in full by cursor
// address, then only the changed cells (the title's clock, nvidia-smi's
// date line, the memory figures), the cursor parked at 40;100 after each.
const watchCapture100x40 = "Script started on 2026-11-29 15:03:03+00:00 [COMMAND=\"stty cols 100 rows 40; timeout 4.5 watch -n 1 /tmp/s21/formats/fake-smi\" <not executed on terminal>]\n\x1b[?1049h\x1b[22;0;0t\x1b[1;40r\x1b(B\x1b[m\x1b[4l\x1b[?7h\x1b[H\x1b[2JEvery 1.0s: /tmp/s21/formats/fake-smi" +
	"\x1b[1;73Hvm: Sun Nov 29 15:03:03 2026" +
	"\x1b[3;1HSun Nov 29 15:03:03 2026\r" +
	"\x1b[4d+-----------------------------------------------------------------------------------------+\r" +
	"\x1b[5d| NVIDIA-SMI 570.133.20" +
	"\x1b[5;37HDriver Version: 570.133.20     CUDA Version: 12.8     |\r" +
	"\x1b[6d|-----------------------------------------+------------------------+----------------------+\r" +
	"\x1b[7d| GPU  Name" +
	"\x1b[7;29HPersistence-M | Bus-Id" +
	"\x1b[7;61HDisp.A | Volatile Uncorr. ECC |\r" +
	"\x1b[8d| Fan  Temp   Perf" +
	"\x1b[8;29HPwr:Usage/Cap |" +
	"\x1b[8;55HMemory-Usage | GPU-Util  Compute M. |\r" +
	"\x1b[9d|" +
	"\x1b[9;43H|" +
	"\x1b[9;68H|" +
	"\x1b[9;84HMIG M. |\r" +
	"\x1b[10d|=========================================+========================+======================|\r" +
	"\x1b[11d|   0  NVIDIA H100 80GB HBM3" +
	"\x1b[11;39HOff |   00000000:AB:00.0 Off |" +
	"\x1b[11;89H0 |\r" +
	"\x1b[12d| N/A   33C    P0" +
	"\x1b[12;31H73W /  700W |    1000MiB /  81559MiB |     12%\x1b[83GDefault |\r" +
	"\x1b[13d|" +
	"\x1b[13;43H|" +
	"\x1b[13;68H|" +
	"\x1b[13;82HDisabled |\r" +
	"\x1b[14d+-----------------------------------------+------------------------+----------------------+\r" +
	"\x1b[15d|   1  NVIDIA H100 80GB HBM3" +
	"\x1b[15;39HOff |   00000000:BA:00.0 Off |" +
	"\x1b[15;89H0 |\r" +
	"\x1b[16d| N/A   26C    P0" +
	"\x1b[16;31H70W /  700W |\x1b[51G0MiB /  81559MiB |\x1b[75G0%\x1b[83GDefault |\r" +
	"\x1b[17d|" +
	"\x1b[17;43H|" +
	"\x1b[17;68H|" +
	"\x1b[17;82HDisabled |\r" +
	"\x1b[18d+-----------------------------------------+------------------------+----------------------+" +
	"\x1b[40;100H" +
	"\x1b[1;95H4" +
	"\x1b[3;19H4" +
	"\x1b[12;48H2537" +
	"\x1b[16;49H211" +
	"\x1b[40;100H" +
	"\x1b[1;95H5" +
	"\x1b[3;19H5" +
	"\x1b[12;48H4074" +
	"\x1b[16;49H422" +
	"\x1b[40;100H" +
	"\x1b[1;95H6" +
	"\x1b[3;19H6" +
	"\x1b[12;48H5611" +
	"\x1b[16;49H633" +
	"\x1b[40;100H" +
	"\x1b[1;95H7" +
	"\x1b[3;19H8" +
	"\x1b[12;48H7148" +
	"\x1b[16;49H844" +
	"\x1b[40;100H" +
	"\x1b[40;1H\x1b[?1049l\x1b[23;0;0t\r\x1b[?1l\x1b>\nScript done on 2026-11-29 15:03:08+00:00 [COMMAND_EXIT_CODE=\"124\"]\n"

// watchCapture80x24 is the same on an 80x24 terminal: watch wraps the
// 89-column table lines onto two rows, and the screen ends after GPU 0's
// rows.
const watchCapture80x24 = "Script started on 2026-11-29 15:13:37+00:00 [COMMAND=\"stty cols 80 rows 24; TERM=xterm-256color timeout 3.5 watch -n 1 /tmp/s21/formats/fake-smi\" <not executed on terminal>]\n\x1b[?1049h\x1b[22;0;0t\x1b[1;24r\x1b(B\x1b[m\x1b[4l\x1b[?7h\x1b[H\x1b[2JEvery 1.0s: /tmp/s21/formats/fake-smi" +
	"\x1b[1;53Hvm: Sun Nov 29 15:13:37 2026" +
	"\x1b[3;1HSun Nov 29 15:13:37 2026\r" +
	"\x1b[4d+-------------------------------------------------------------------------------" +
	"\x1b[5;1H----------+\r" +
	"\x1b[6d| NVIDIA-SMI 570.133.20" +
	"\x1b[6;37HDriver Version: 570.133.20     CUDA Version:" +
	"\x1b[7;2H12.8     |\r" +
	"\x1b[8d|-----------------------------------------+------------------------+------------" +
	"\x1b[9;1H----------+\r" +
	"\x1b[10d| GPU  Name" +
	"\x1b[10;29HPersistence-M | Bus-Id" +
	"\x1b[10;61HDisp.A | Volatile Un" +
	"\x1b[11;1Hcorr. ECC |\r" +
	"\x1b[12d| Fan  Temp   Perf" +
	"\x1b[12;29HPwr:Usage/Cap |" +
	"\x1b[12;55HMemory-Usage | GPU-Util  C" +
	"\x1b[13;1Hompute M. |\r" +
	"\x1b[14d|" +
	"\x1b[14;43H|" +
	"\x1b[14;68H|" +
	"\x1b[15;4HMIG M. |\r" +
	"\x1b[16d|=========================================+========================+============" +
	"\x1b[17;1H==========|\r" +
	"\x1b[18d|   0  NVIDIA H100 80GB HBM3" +
	"\x1b[18;39HOff |   00000000:AB:00.0 Off |" +
	"\x1b[19;9H0 |\r" +
	"\x1b[20d| N/A   33C    P0" +
	"\x1b[20;31H73W /  700W |    1000MiB /  81559MiB |     12%" +
	"\x1b[21;3HDefault |\r" +
	"\x1b[22d|" +
	"\x1b[22;43H|" +
	"\x1b[22;68H|\r" +
	"\x1b[23d Disabled |\r" +
	"\x1b[24d+-----------------------------------------+------------------------+-----------\x1b[?7l-\x1b[?7h" +
	"\x1b[1;75H8" +
	"\x1b[3;19H8" +
	"\x1b[20;48H2537" +
	"\x1b[24;80H" +
	"\x1b[1;75H9" +
	"\x1b[3;19H9" +
	"\x1b[20;48H4074" +
	"\x1b[24;80H" +
	"\x1b[1;74H40" +
	"\x1b[3;18H40" +
	"\x1b[20;48H5611" +
	"\x1b[24;80H" +
	"\x1b[24;1H\x1b[?1049l\x1b[23;0;0t\r\x1b[?1l\x1b>\nScript done on 2026-11-29 15:13:41+00:00 [COMMAND_EXIT_CODE=\"124\"]\n"

// watchCaptureProcesses is the same on a 100x40 xterm-256color terminal
// with nvidia-smi's process table: a process row replaces "No running
// processes found" in the third frame, its end erased with ESC[K.
const watchCaptureProcesses = "Script started on 2026-11-29 15:20:20+00:00 [COMMAND=\"stty cols 100 rows 40; timeout 4.5 watch -n 1 /tmp/s21/formats/fake-smi2\" <not executed on terminal>]\n\x1b[?1049h\x1b[22;0;0t\x1b[1;40r\x1b(B\x1b[m\x1b[4l\x1b[?7h\x1b[H\x1b[2JEvery 1.0s: /tmp/s21/formats/fake-smi2" +
	"\x1b[1;73Hvm: Sun Nov 29 15:20:20 2026" +
	"\x1b[3;1HSun Nov 29 15:20:20 2026\r" +
	"\x1b[4d+-----------------------------------------------------------------------------------------+\r" +
	"\x1b[5d| NVIDIA-SMI 570.133.20" +
	"\x1b[5;37HDriver Version: 570.133.20     CUDA Version: 12.8     |\r" +
	"\x1b[6d|-----------------------------------------+------------------------+----------------------+\r" +
	"\x1b[7d| GPU  Name" +
	"\x1b[7;29HPersistence-M | Bus-Id" +
	"\x1b[7;61HDisp.A | Volatile Uncorr. ECC |\r" +
	"\x1b[8d| Fan  Temp   Perf" +
	"\x1b[8;29HPwr:Usage/Cap |" +
	"\x1b[8;55HMemory-Usage | GPU-Util  Compute M. |\r" +
	"\x1b[9d|" +
	"\x1b[9;43H|" +
	"\x1b[9;68H|" +
	"\x1b[9;84HMIG M. |\r" +
	"\x1b[10d|=========================================+========================+======================|\r" +
	"\x1b[11d|   0  NVIDIA H100 80GB HBM3" +
	"\x1b[11;39HOff |   00000000:AB:00.0 Off |" +
	"\x1b[11;89H0 |\r" +
	"\x1b[12d| N/A   33C    P0" +
	"\x1b[12;31H73W /  700W |    1000MiB /  81559MiB |     12%\x1b[83GDefault |\r" +
	"\x1b[13d|" +
	"\x1b[13;43H|" +
	"\x1b[13;68H|" +
	"\x1b[13;82HDisabled |\r" +
	"\x1b[14d+-----------------------------------------+------------------------+----------------------+\r" +
	"\x1b[15d|   1  NVIDIA H100 80GB HBM3" +
	"\x1b[15;39HOff |   00000000:BA:00.0 Off |" +
	"\x1b[15;89H0 |\r" +
	"\x1b[16d| N/A   26C    P0" +
	"\x1b[16;31H70W /  700W |\x1b[51G0MiB /  81559MiB |\x1b[75G0%\x1b[83GDefault |\r" +
	"\x1b[17d|" +
	"\x1b[17;43H|" +
	"\x1b[17;68H|" +
	"\x1b[17;82HDisabled |\r" +
	"\x1b[18d+-----------------------------------------+------------------------+----------------------+\r" +
	"\x1b[20d+-----------------------------------------------------------------------------------------+\r" +
	"\x1b[21d| Processes:" +
	"\x1b[21;91H|\r" +
	"\x1b[22d|  GPU   GI   CI" +
	"\x1b[22;31HPID   Type   Process name" +
	"\x1b[22;80HGPU Memory |\r" +
	"\x1b[23d|" +
	"\x1b[23;10HID   ID" +
	"\x1b[23;80HUsage\x1b[91G|\r" +
	"\x1b[24d|=========================================================================================|\r" +
	"\x1b[25d|  No running processes found" +
	"\x1b[25;91H|\r" +
	"\x1b[26d+-----------------------------------------------------------------------------------------+" +
	"\x1b[40;100H" +
	"\x1b[1;95H1" +
	"\x1b[3;19H1" +
	"\x1b[12;48H2537" +
	"\x1b[16;49H211" +
	"\x1b[40;100H" +
	"\x1b[1;95H2" +
	"\x1b[3;19H2" +
	"\x1b[12;48H4074" +
	"\x1b[16;49H422" +
	"\x1b[25;4H  0   N/A  N/A          424242\x1b[40GC   python train.py" +
	"\x1b[25;82H3574MiB |\x1b[K" +
	"\x1b[40;100H" +
	"\x1b[1;95H3" +
	"\x1b[3;19H3" +
	"\x1b[12;48H5611" +
	"\x1b[16;49H633" +
	"\x1b[25;82H5111" +
	"\x1b[40;100H" +
	"\x1b[40;1H\x1b[?1049l\x1b[23;0;0t\r\x1b[?1l\x1b>\nScript done on 2026-11-29 15:20:25+00:00 [COMMAND_EXIT_CODE=\"124\"]\n"

// TestWatchCapture: a curses capture of watch is read frame by frame,
// each at its date, and a redraw the replay cannot follow is skipped and
// counted, never guessed.
func TestWatchCapture(t *testing.T) {
	const mib = 1 << 20
	// skipFrame puts a control sequence the replay does not know (CBT,
	// back tab) after the second frame: the second is read (nothing
	// changed after the sequence before the third began), the third and
	// fourth are skipped; a full redraw after a clear and the partial one
	// after it are read.
	skipFrame := strings.Replace(watchCapture100x40, "\x1b[1;95H5", "\x1b[2Z\x1b[1;95H5", 1)
	skipFrame = strings.Replace(skipFrame, "\x1b[1;95H7", "\x1b[H\x1b[2J"+fullFrame100x40("10:00:07", 7148), 1)
	tests := []struct {
		name  string
		log   string
		want  []loopReading
		procs []int64
		note  string
		// skipped counts the lines not read (a shell prompt).
		skipped int
	}{
		{
			name: "100x40: every frame",
			log:  watchCapture100x40,
			want: []loopReading{{0, 1000 * mib, "15:03:03"}, {1, 0, "15:03:03"}, {0, 2537 * mib, "15:03:04"}, {1, 211 * mib, "15:03:04"},
				{0, 4074 * mib, "15:03:05"}, {1, 422 * mib, "15:03:05"}, {0, 5611 * mib, "15:03:06"}, {1, 633 * mib, "15:03:06"},
				{0, 7148 * mib, "15:03:08"}, {1, 844 * mib, "15:03:08"}},
			note: "(5 frames;",
		},
		{
			name: "80x24: wrapped lines joined, the cut screen's GPU read",
			log:  watchCapture80x24,
			want: []loopReading{{0, 1000 * mib, "15:13:37"}, {0, 2537 * mib, "15:13:38"}, {0, 4074 * mib, "15:13:39"}, {0, 5611 * mib, "15:13:40"}},
			note: "(4 frames;",
		},
		{
			name: "process rows drawn and erased in redraws",
			log:  watchCaptureProcesses,
			want: []loopReading{{0, 1000 * mib, "15:20:20"}, {1, 0, "15:20:20"}, {0, 2537 * mib, "15:20:21"}, {1, 211 * mib, "15:20:21"},
				{0, 4074 * mib, "15:20:22"}, {1, 422 * mib, "15:20:22"}, {0, 5611 * mib, "15:20:23"}, {1, 633 * mib, "15:20:23"}},
			procs: []int64{3574 * mib, 5111 * mib},
			note:  "(4 frames;",
		},
		{
			name: "a plain nvidia-smi after watch in the same script session",
			log: strings.Replace(watchCapture100x40, "\x1b[?1l\x1b>\n", "\x1b[?1l\x1b>\n$ nvidia-smi\r\n"+
				strings.ReplaceAll(tableH100, "\n", "\r\n"), 1),
			want: []loopReading{{0, 1000 * mib, "15:03:03"}, {1, 0, "15:03:03"}, {0, 2537 * mib, "15:03:04"}, {1, 211 * mib, "15:03:04"},
				{0, 4074 * mib, "15:03:05"}, {1, 422 * mib, "15:03:05"}, {0, 5611 * mib, "15:03:06"}, {1, 633 * mib, "15:03:06"},
				{0, 7148 * mib, "15:03:08"}, {1, 844 * mib, "15:03:08"}, {0, 1000 * mib, "10:00:00"}, {1, 0, "10:00:00"}},
			note:    "(5 frames;",
			skipped: 1,
		},
		{
			name: "title's clock dates frames without nvidia-smi's date line",
			log:  strings.NewReplacer("\x1b[3;1HSun Nov 29 15:03:03 2026\r", "", "\x1b[3;19H4", "", "\x1b[3;19H5", "", "\x1b[3;19H6", "", "\x1b[3;19H8", "").Replace(watchCapture100x40),
			want: []loopReading{{0, 1000 * mib, "15:03:03"}, {1, 0, "15:03:03"}, {0, 2537 * mib, "15:03:04"}, {1, 211 * mib, "15:03:04"},
				{0, 4074 * mib, "15:03:05"}, {1, 422 * mib, "15:03:05"}, {0, 5611 * mib, "15:03:06"}, {1, 633 * mib, "15:03:06"},
				{0, 7148 * mib, "15:03:07"}, {1, 844 * mib, "15:03:07"}},
			note: "(5 frames;",
		},
		{
			name: "an unknown sequence skips frames until a full clear",
			log:  skipFrame,
			want: []loopReading{{0, 1000 * mib, "15:03:03"}, {1, 0, "15:03:03"}, {0, 2537 * mib, "15:03:04"}, {1, 211 * mib, "15:03:04"},
				{0, 7148 * mib, "10:00:07"}, {1, 844 * mib, "10:00:07"}, {0, 7148 * mib, "10:00:08"}, {1, 844 * mib, "10:00:08"}},
			note: "4 frames; line numbers count the replayed text's lines); 2 partial redraws skipped",
		},
		{
			name: "an unknown sequence inside a redraw skips that frame and the rest",
			log:  strings.Replace(watchCapture100x40, "\x1b[12;48H2537", "\x1b[12;48H2537\x1b[2Z", 1),
			want: []loopReading{{0, 1000 * mib, "15:03:03"}, {1, 0, "15:03:03"}},
			note: "(1 frame; line numbers count the replayed text's lines); 4 partial redraws skipped",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			format, ok := gpulog.SniffLog([]byte(tc.log))
			if !ok || format != gpulog.FormatTable {
				t.Fatalf("SniffLog = %q, %v; want table", format, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), format, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []loopReading
			for _, s := range l.Samples {
				got = append(got, loopReading{s.GPU, s.MemoryUsed, s.Time.Format("15:04:05.999")})
			}
			if !equalReadings(got, tc.want) {
				t.Errorf("readings:\n got %v\nwant %v\nproblems %v", got, tc.want, l.Problems)
			}
			var procs []int64
			for _, p := range l.Processes {
				procs = append(procs, p.UsedMemory)
			}
			if tc.procs != nil && fmt.Sprint(procs) != fmt.Sprint(tc.procs) {
				t.Errorf("process readings %v, want %v", procs, tc.procs)
			}
			if l.SkippedLines != tc.skipped {
				t.Errorf("%d lines skipped: %v", l.SkippedLines, l.Problems)
			}
			if !strings.Contains(strings.Join(l.Notes, "\n"), tc.note) {
				t.Errorf("notes %q lack %q", l.Notes, tc.note)
			}
		})
	}
}

// fullFrame100x40 is watch's full redraw of one frame (after a clear) as
// curses writes it, GPU 0 using used MiB and GPU 1 844 MiB.
func fullFrame100x40(clock string, used int) string {
	first := watchCapture100x40[strings.Index(watchCapture100x40, "Every"):strings.Index(watchCapture100x40, "\x1b[40;100H")]
	first = strings.ReplaceAll(first, "15:03:03", clock)
	first = strings.Replace(first, "Sun Nov 29", "Fri Mar  8", 2)
	first = strings.Replace(first, "    1000MiB", "    "+strings.Repeat(" ", 4-len(itoa(used)))+itoa(used)+"MiB", 1)
	return strings.Replace(first, "\x1b[51G0MiB", "\x1b[49G844MiB", 1)
}

func itoa(n int) string {
	var b []byte
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func equalReadings(a, b []loopReading) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWatchCaptureTimes: frames without a zone are read in the reader's
// location, as the table's date lines are.
func TestWatchCaptureTimes(t *testing.T) {
	loc := time.FixedZone("X", 3600)
	l, err := gpulog.ReadLog(bytes.NewReader([]byte(watchCapture100x40)), gpulog.FormatTable, gpulog.ReadOptions{Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Samples[0].Time; !got.Equal(time.Date(2026, 11, 29, 15, 3, 3, 0, loc)) || !l.Zoneless {
		t.Errorf("first frame at %v (zoneless %v)", got, l.Zoneless)
	}
}
