package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/testutil"
	"gpureport/report"
)

// TestRunsOfTrainingLogsOnly: a folder whose only input is a job's output
// with an OOM (plain text, a notebook's outputs, a CloudWatch export) is
// a run of its own in batch mode, gets a report and meets --fail-on oom;
// alone, it is reported, not "nothing usable".
func TestRunsOfTrainingLogsOnly(t *testing.T) {
	const msg = "CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.52 GiB is free. " +
		"Including non-PyTorch memory, this process has 77.62 GiB memory in use. Of the allocated memory 74.87 GiB is allocated by PyTorch, " +
		"and 2.10 GiB is reserved by PyTorch but unallocated."
	mustJSON := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string][]byte{
		"plain/train.log": []byte("step 1 loss 2.0\ntorch.OutOfMemoryError: " + msg + "\n"),
		"notebook/finetune.ipynb": mustJSON(map[string]any{"cells": []any{map[string]any{"cell_type": "code", "source": []string{"loss.backward()\n"},
			"outputs": []any{map[string]any{"output_type": "error", "ename": "OutOfMemoryError", "evalue": msg,
				"traceback": []string{"\x1b[0;31mOutOfMemoryError\x1b[0m: " + msg}}}}},
			"metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5}),
		"cloudwatch/algo-1.json": mustJSON(map[string]any{"events": []any{
			map[string]any{"logStreamName": "job/algo-1", "timestamp": 1709892011000, "message": "torch.OutOfMemoryError: " + msg, "ingestionTime": 1709892011500, "eventId": "1"}}}),
	})
	overview := filepath.Join(t.TempDir(), "overview")
	code, out, errs := runTB(t, "--batch", "-q", "--no-cache", "--fail-on", "oom", "-o", overview, root)
	if code != exitFailOn || !strings.Contains(out, "3 runs (3 reported") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, r := range []string{"plain", "notebook", "cloudwatch"} {
		s, err := report.ReadSummary(filepath.Join(root, r, "gpureport", report.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.OOMs) != 1 {
			t.Errorf("%s: %d OOMs, want 1", r, len(s.OOMs))
		}
	}
	code, out, errs = runTB(t, "-q", "--no-cache", filepath.Join(root, "notebook"))
	if code != exitOK {
		t.Errorf("one notebook alone: exit %d\n%s\n%s", code, out, errs)
	}
}
