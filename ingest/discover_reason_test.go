package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// TestUnrecognisedLogReason: a .csv/.log discovery cannot read says why;
// one whose first line is a CSV header also names --gpu-log-columns,
// which reads a CSV of any column names, when the next line, if any, is a
// row of as many fields. A text log without memory figures is a job's
// output with nothing to read, no failure.
func TestUnrecognisedLogReason(t *testing.T) {
	tests := []struct {
		name, content string
		flag          bool
	}{
		{"nvml.csv", "timestamp,gpu,used_bytes,total_bytes\n2024-05-01 12:00:00,0,1048576000,85899345920\n", true},
		{"de.csv", "Zeit;GPU;Speicher belegt\n2024-05-01 12:00:00;0;1.000\n", true},
		{"gpu_mem.log", "2024-05-01 12:00:00 GPU 0: used=1000.00MiB total=81920.00MiB\n", false},
		{"numbers.csv", "1,2,3\n4,5,6\n", false},
		{"train.log", "step 100 loss 2.0\nstep 200 loss 1.9\n", false},
		// A line of prose with a comma splits into two fields that start
		// with letters, as a header's do; the next line is no row of it.
		{"skip.log", "step 12: OOM on batch with seq_len 8192, skipping batch\nstep 13 loss 2.0\n", false},
		{"skip-unterminated.log", "step 12: OOM on batch with seq_len 8192, skipping batch\nstep 13 loss 2.0", false},
		// A header alone (the job died before its first reading).
		{"header.csv", "Time,GPU used\n", true},
		{"stderr.log", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testutil.WriteFile(t, filepath.Join(dir, tc.name), []byte(tc.content))
			cands, skipped, err := Discover(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(cands) != 0 || len(skipped) != 1 {
				t.Fatalf("candidates %v, skipped %v", cands, skipped)
			}
			r := skipped[0].Reason
			// A job's text log without memory figures (loss lines, an
			// empty stderr) holds nothing to read: no failure.
			nothing := strings.HasPrefix(tc.content, "step") || tc.content == ""
			if skipped[0].NoContent != nothing {
				t.Errorf("NoContent %v, want %v (reason %q)", skipped[0].NoContent, nothing, r)
			}
			if nothing {
				if !strings.Contains(r, "holds nothing gpureport reads") {
					t.Errorf("reason %q", r)
				}
				return
			}
			if !strings.Contains(r, "not a recognised GPU log") || strings.Contains(r, "--gpu-log-columns") != tc.flag {
				t.Errorf("reason %q; want --gpu-log-columns named: %v", r, tc.flag)
			}
		})
	}
}

// TestOldPickleReason: a snapshot pickled with protocol 0 or 1 has no
// PROTO header; discovery says so instead of calling it no pickle, and
// text that merely starts with a parenthesis is still not one.
func TestOldPickleReason(t *testing.T) {
	tests := []struct {
		name, content string
		old           bool
	}{
		{"p0.pickle", "(dp0\nVsegments\np1\n(lp2\nsVdevice_traces\np3\n(lp4\ns.", true},
		{"p0list.pickle", "(lp0\n(dp1\nVdevice\np2\nI0\nsa.", true},
		{"p1.pickle", "}q\x00(X\x08\x00\x00\x00segmentsq\x01]q\x02u.", true},
		{"p1list.pickle", "]q\x00}q\x01a.", true},
		{"text.pickle", "(draft) notes on the run\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testutil.WriteFile(t, filepath.Join(dir, tc.name), []byte(tc.content))
			_, skipped, err := Discover(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(skipped) != 1 {
				t.Fatalf("skipped %v", skipped)
			}
			if got := strings.Contains(skipped[0].Reason, "protocol 0 or 1"); got != tc.old {
				t.Errorf("reason %q; want protocol 0 or 1 named: %v", skipped[0].Reason, tc.old)
			}
		})
	}
}
