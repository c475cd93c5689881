package gpulog_test

import (
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
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				// A log with no reading is an error of its own; that is
				// what a look-alike must give.
				if len(tc.want) > 0 || !strings.Contains(err.Error(), "no readings") {
					t.Fatal(err)
				}
				l = &gpulog.GPULog{}
			}
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
			if sniffed := gpulog.SniffTrainingLog(strings.NewReader(tc.log), []byte(tc.log)); sniffed != (len(tc.want) > 0) {
				t.Errorf("sniffed %v with %d readings", sniffed, len(tc.want))
			}
			if tc.note != "" && !strings.Contains(strings.Join(l.Notes, "\n"), tc.note) {
				t.Errorf("notes %q, want one naming %s", l.Notes, tc.note)
			}
		})
	}
}
