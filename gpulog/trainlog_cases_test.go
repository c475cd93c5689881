package gpulog_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/gpulog"
)

// trainLogCase is a training log and what reading it must give: its
// memory_stats readings, each as the test's reading type R keeps it
// (none for a look-alike), and a word a note must carry ("" for none).
type trainLogCase[R any] struct {
	name string
	log  string
	want []R
	note string
}

// runTrainLogCases reads each case's log as a training log and checks
// that its memory_stats readings, made comparable by reading (given each
// reading and its time in RFC 3339, "" when it has none), are the case's,
// all on device 0; that a log with no readings fails with "no readings";
// that the sniffer takes the log for a training log exactly when it gives
// readings; and that a note names the case's word.
func runTrainLogCases[R any](t *testing.T, tests []trainLogCase[R], reading func(r gpulog.MemoryStatsSample, ts string) R) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := readTrainLogCase(t, tc.log, len(tc.want))
			var got []R
			for _, r := range l.MemoryStats {
				ts := ""
				if !r.Time.IsZero() {
					ts = r.Time.UTC().Format(time.RFC3339Nano)
				}
				if r.Device != 0 {
					t.Errorf("device %d, want 0", r.Device)
				}
				got = append(got, reading(r, ts))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("readings (-want +got):\n%s", diff)
			}
			if tc.note != "" && !strings.Contains(strings.Join(l.Notes, "\n"), tc.note) {
				t.Errorf("notes %q, want one naming %s", l.Notes, tc.note)
			}
		})
	}
}

// readTrainLogCase reads log as a training log that must give want
// memory readings: a log with none must fail with "no readings" (a
// look-alike's error of its own; an empty log is returned then), and the
// sniffer must take the log for a training log exactly when it gives
// readings.
func readTrainLogCase(t *testing.T, log string, want int) *gpulog.GPULog {
	t.Helper()
	l, err := gpulog.ReadLog(strings.NewReader(log), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
	if err != nil {
		if want > 0 || !strings.Contains(err.Error(), "no readings") {
			t.Fatal(err)
		}
		l = &gpulog.GPULog{}
	}
	if sniffed := gpulog.SniffTrainingLog(strings.NewReader(log), []byte(log)); sniffed != (want > 0) {
		t.Errorf("sniffed %v with %d readings", sniffed, want)
	}
	return l
}

// fuzzTrainingLog reads data as a training log for a fuzz target: nil
// when it does not read, which it must not when the sniffer claims it;
// a file that reads (without NUL bytes) must be claimed, what names its
// readings.
func fuzzTrainingLog(t *testing.T, data []byte, what string) *gpulog.GPULog {
	t.Helper()
	l, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
	claimed := gpulog.SniffTrainingLog(bytes.NewReader(data), data)
	if err != nil {
		if claimed {
			t.Fatalf("sniffed as a training log but read fails: %v", err)
		}
		return nil
	}
	if !claimed && bytes.IndexByte(data, 0) < 0 && len(data) > 0 {
		t.Fatalf("read %s but not sniffed", what)
	}
	return l
}
