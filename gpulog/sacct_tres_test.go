package gpulog_test

import (
	"strings"
	"testing"

	"gpureport/gpulog"
)

// TestSacctTRESReason: sacct listings with gres/gpumem are recognised in
// both layouts, quote their steps' figures, and say that Slurm's
// OUT_OF_MEMORY is host memory; other listings and text are not claimed.
func TestSacctTRESReason(t *testing.T) {
	parsable := "JobID|JobName|State|Elapsed|MaxRSS|TRESUsageInMax\n" +
		"77|train|OUT_OF_MEMORY|02:14:07||\n" +
		"77.batch|batch|OUT_OF_MEMORY|02:14:07|61234560K|cpu=02:13:55,energy=0,gres/gpumem=78912M,gres/gpuutil=100,mem=61234560K\n" +
		"77.extern|extern|COMPLETED|02:14:07|0|cpu=00:00:00,gres/gpumem=0,gres/gpuutil=0,mem=0\n"
	fixed := "JobID           State      TRESUsageInMax\n" +
		"------------ ---------- ------------------------------------------\n" +
		"91.0          COMPLETED cpu=00:10:00,gres/gpumem=40G,mem=10G\n" +
		"91.1          COMPLETED cpu=00:10:00,gres/gpumem=41G,mem=10G\n" +
		"91.2          COMPLETED cpu=00:10:00,gres/gpumem=42G,mem=10G\n" +
		"91.3          COMPLETED cpu=00:10:00,gres/gpumem=43G,mem=10G\n" +
		"91.4          COMPLETED cpu=00:10:00,gres/gpumem=44G,mem=10G\n"
	tests := []struct {
		name, in string
		ok       bool
		want     []string
		not      []string
	}{
		{"parsable, host OOM", parsable, true, []string{"77.batch gres/gpumem=78912M", "no series", "host RAM"}, []string{"77.extern"}},
		{"fixed width, steps beyond the quoted", fixed, true, []string{"91.0 gres/gpumem=40G", "91.3 gres/gpumem=43G", "and 1 more"}, []string{"host RAM", "91.4"}},
		{"only zero figures", "JobID|State|TRESUsageInMax\n5.extern|COMPLETED|gres/gpumem=0\n", true, []string{"no step with GPU memory above 0"}, nil},
		{"sacct without GPU TRES", "JobID|State|TRESUsageInMax\n5.batch|COMPLETED|cpu=00:01:00,mem=1G\n", false, nil, nil},
		{"no header", "77.batch|batch|COMPLETED|gres/gpumem=78912M\n", false, nil, nil},
		{"a training log", "epoch 1 loss 0.3\nJobID printed by the script\n", false, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := gpulog.SacctTRESReason([]byte(tc.in))
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v (%q)", ok, tc.ok, r)
			}
			for _, w := range tc.want {
				if !strings.Contains(r, w) {
					t.Errorf("reason %q lacks %q", r, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(r, w) {
					t.Errorf("reason %q has %q", r, w)
				}
			}
		})
	}
}

// FuzzSacctTRESReason: never panics, and claims only text with a header.
func FuzzSacctTRESReason(f *testing.F) {
	f.Add([]byte("JobID|JobName|State|Elapsed|MaxRSS|TRESUsageInMax\n8.batch|batch|OUT_OF_MEMORY|02:14:07|61234560K|cpu=02:13:55,gres/gpumem=78912M,mem=61234560K\n"))
	f.Add([]byte("JobIDRaw  TRESUsageInTot\n1.0 gres/gpumem=99999999999999999999999.5P\n1.1 gres/gpumem=\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, ok := gpulog.SacctTRESReason(data)
		if ok != (r != "") {
			t.Fatalf("ok %v with reason %q", ok, r)
		}
		if ok && !strings.Contains(string(data), "JobID") {
			t.Fatalf("claimed without a header: %q", data)
		}
	})
}
