package gpulog_test

import (
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// loopReading is what a reading of a shell-loop capture must be.
type loopReading struct {
	GPU  int
	Used int64
	Time string
}

// TestLoopCaptures: the shapes a `while true; do date; nvidia-smi ...;
// done` loop leaves, read with their times: date lines (any date(1) form,
// or `date +%s`) over header-less rows, clear-screen codes before a
// table's date line, and Docker json-file objects around query rows.
func TestLoopCaptures(t *testing.T) {
	const mib = 1 << 20
	docker := func(text, at string) string {
		return `{"log":"` + text + `\n","stream":"stdout","time":"` + at + `"}` + "\n"
	}
	tests := []struct {
		name   string
		log    string
		format gpulog.LogFormat
		want   []loopReading
	}{
		{
			name: "date(1) lines over header-less rows",
			log: "Wed May  1 12:00:00 UTC 2024\n0, 1000 MiB, 81920 MiB\n1, 1007 MiB, 81920 MiB\n" +
				"Wed May  1 12:00:05 UTC 2024\n0, 1500 MiB, 81920 MiB\n1, 1507 MiB, 81920 MiB\n",
			format: gpulog.FormatQueryCSV,
			want: []loopReading{{0, 1000 * mib, "12:00:00"}, {1, 1007 * mib, "12:00:00"},
				{0, 1500 * mib, "12:00:05"}, {1, 1507 * mib, "12:00:05"}},
		},
		{
			name:   "date +%s lines over nounits rows",
			log:    "1714564800\n1000, 81920\n1714564805.5\n1500, 81920\n1714564810\n2000, 81920\n",
			format: gpulog.FormatQueryCSV,
			want:   []loopReading{{0, 1000 * mib, "12:00:00"}, {0, 1500 * mib, "12:00:05.5"}, {0, 2000 * mib, "12:00:10"}},
		},
		{
			name: "a row's own timestamp wins over the date line",
			log: "==== 2024-05-01 13:00:00 ====\ntimestamp, index, memory.used [MiB]\n" +
				"2024/05/01 12:00:01.000, 0, 10 MiB\n",
			format: gpulog.FormatQueryCSV,
			want:   []loopReading{{0, 10 * mib, "12:00:01"}},
		},
		{
			name:   "clear-screen codes before a table's date line",
			log:    "\x1b[H\x1b[2J\x1b[3J" + tableH100 + "\x1b[H\x1b[2J\x1b[3J" + strings.Replace(tableH100, "10:00:00", "10:00:05", 1),
			format: gpulog.FormatTable,
			want: []loopReading{{0, 1000 * mib, "10:00:00"}, {1, 0, "10:00:00"},
				{0, 1000 * mib, "10:00:05"}, {1, 0, "10:00:05"}},
		},
		{
			name: "Docker json-file around query rows with a header",
			log: docker("timestamp, index, memory.used [MiB], memory.total [MiB]", "2024-05-01T12:00:00.1Z") +
				docker("2024/05/01 12:00:00.100, 0, 1000 MiB, 81920 MiB", "2024-05-01T12:00:00.2Z") +
				docker("2024/05/01 12:00:05.100, 0, 1500 MiB, 81920 MiB", "2024-05-01T12:00:05.2Z"),
			format: gpulog.FormatQueryCSV,
			want:   []loopReading{{0, 1000 * mib, "12:00:00.1"}, {0, 1500 * mib, "12:00:05.1"}},
		},
		{
			name: "Docker json-file: rows without a time take the object's, a split line is joined",
			log: docker("index, memory.used [MiB]", "2024-05-01T12:00:00Z") +
				`{"log":"0, 10","stream":"stdout","time":"2024-05-01T12:00:01Z"}` + "\n" +
				docker("00 MiB", "2024-05-01T12:00:01.5Z") +
				docker("0, 2000 MiB", "2024-05-01T12:00:02Z"),
			format: gpulog.FormatQueryCSV,
			want:   []loopReading{{0, 1000 * mib, "12:00:01"}, {0, 2000 * mib, "12:00:02"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(tc.log)); !ok || f != tc.format {
				t.Errorf("sniffed %q %v, want %q", f, ok, tc.format)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), tc.format, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			var got []loopReading
			for _, s := range l.Samples {
				got = append(got, loopReading{s.GPU, s.MemoryUsed, s.Time.UTC().Format("15:04:05.999")})
			}
			if len(got) != len(tc.want) {
				t.Fatalf("readings %v, want %v (notes %q, problems %v)", got, tc.want, l.Notes, l.Problems)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("reading %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
			if l.SkippedLines != 0 {
				t.Errorf("%d lines skipped: %v", l.SkippedLines, l.Problems)
			}
		})
	}
}

// TestDockerLogOOMTime: a Docker json-file GPU log whose job also wrote
// an OOM message is read for it as a training log from the unwrapped
// text, so the message takes the object's time.
func TestDockerLogOOMTime(t *testing.T) {
	docker := func(text, at string) string {
		return `{"log":"` + text + `\n","stream":"stdout","time":"` + at + `"}` + "\n"
	}
	log := docker("index, memory.used [MiB], memory.total [MiB]", "2024-05-01T12:00:00Z") +
		docker("0, 1000 MiB, 81920 MiB", "2024-05-01T12:00:01Z") +
		docker("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free.", "2024-05-01T12:00:07Z") +
		docker("0, 1500 MiB, 81920 MiB", "2024-05-01T12:00:08Z")
	l, err := gpulog.ReadLog(strings.NewReader(log), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.OOMs) != 1 || l.OOMs[0].Requested != 2<<30 || l.OOMs[0].Time.UTC().Format("15:04:05") != "12:00:07" {
		t.Fatalf("OOMs %+v, want the 2 GiB request at 12:00:07", l.OOMs)
	}
}
