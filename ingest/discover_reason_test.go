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
// row of as many fields. A .log or .txt that is no CSV is a job's output
// with nothing to read, no failure, in one quiet reason whatever it
// prints; one with amounts of memory (a hand-made print, host memory)
// says they are in no form gpureport reads; one with another framework's
// OOM message (JAX/XLA, TensorFlow) says so, not quietly.
func TestUnrecognisedLogReason(t *testing.T) {
	tests := []struct {
		name, content string
		flag          bool
		// nothing: a job's text log with nothing to read (quiet);
		// amounts: its reason names amounts of memory it could not read.
		nothing, amounts bool
	}{
		{"nvml.csv", "timestamp,gpu,used_bytes,total_bytes\n2024-05-01 12:00:00,0,1048576000,85899345920\n", true, false, false},
		{"de.csv", "Zeit;GPU;Speicher belegt\n2024-05-01 12:00:00;0;1.000\n", true, false, false},
		{"gpu_mem.log", "2024-05-01 12:00:00 GPU 0: used=1000.00MiB total=81920.00MiB\n", false, true, true},
		{"hand.log", "2024-03-01 10:00:00 [train] step    50 | loss 2.0000 | mem 12.00 GB | max 14.31 GB\n", false, true, true},
		{"ray_train.log", "2024-03-01 10:00:30 | INFO | step 50 | loss 2.4950\nMemory on the node (IP: 10.0.0.1) where the task was running was 250.1GB / 251.6GB\n", false, true, true},
		{"server.txt", "llama_model_loader: loaded meta data with 41 key-value pairs\nallocating 279356.51 MiB on device 0: cudaMalloc failed\n", false, true, true},
		{"numbers.csv", "1,2,3\n4,5,6\n", false, false, false},
		{"train.log", "step 100 loss 2.0\nstep 200 loss 1.9\n", false, true, false},
		// A line of prose with a comma splits into two fields that start
		// with letters, as a header's do; the next line is no row of it.
		{"skip.log", "step 12: OOM on batch with seq_len 8192, skipping batch\nstep 13 loss 2.0\n", false, true, false},
		{"skip-unterminated.log", "step 12: OOM on batch with seq_len 8192, skipping batch\nstep 13 loss 2.0", false, true, false},
		// A header alone (the job died before its first reading).
		{"header.csv", "Time,GPU used\n", true, false, false},
		{"stderr.log", "", false, true, false},
		// Another framework's OOM is no log with nothing in it: the run
		// ran out, and the reason says which message was not read.
		{"jax.log", "step 0 loss 2.3\njaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.\n", false, false, false},
		{"tf.log", "2024-03-08 10:00:05.123456: W tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of memory trying to allocate 4.00GiB\n", false, false, false},
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
			if skipped[0].NoContent != tc.nothing {
				t.Errorf("NoContent %v, want %v (reason %q)", skipped[0].NoContent, tc.nothing, r)
			}
			if strings.HasSuffix(tc.name, "jax.log") || strings.HasSuffix(tc.name, "tf.log") {
				if !strings.HasPrefix(r, "an out-of-memory message gpureport does not read") {
					t.Errorf("reason %q, want the foreign OOM named", r)
				}
				return
			}
			if tc.nothing {
				if !strings.HasPrefix(r, "holds nothing gpureport reads") || strings.Contains(r, "amounts of memory") != tc.amounts {
					t.Errorf("reason %q; want amounts of memory named: %v", r, tc.amounts)
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
