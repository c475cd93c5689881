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

// TestPerRankLogsWithoutGPUContent: torchelastic's per-worker stdout.log
// files with loss lines only (and an empty one) are listed as holding
// nothing to read, not as inputs that could not be used; the OOMs of its
// stderr.log files take the local rank from the folder; a README quoting
// an OOM is documentation, no input.
func TestPerRankLogsWithoutGPUContent(t *testing.T) {
	const msg = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU %d has a total capacity of 79.15 GiB of which 1.52 GiB is free. " +
		"Including non-PyTorch memory, this process has 77.62 GiB memory in use. Of the allocated memory 74.87 GiB is allocated by PyTorch, " +
		"and 2.10 GiB is reserved by PyTorch but unallocated.\n"
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{
		"logs/none_x/attempt_0/0/stdout.log": []byte("step 100 loss 2.0\n"),
		"logs/none_x/attempt_0/1/stdout.log": nil,
		"logs/none_x/attempt_0/0/stderr.log": []byte("step 100\n" + strings.Replace(msg, "%d", "0", 1)),
		"logs/none_x/attempt_0/1/stderr.log": []byte("step 100\n" + strings.Replace(msg, "%d", "1", 1)),
		"README":                             []byte("This run died with:\n" + strings.Replace(msg, "%d", "0", 1)),
	})
	code, _, errs := runTB(t, "-q", "--no-cache", dir)
	if code != exitOK || strings.Contains(errs, "stdout.log") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	s, err := report.ReadSummary(filepath.Join(dir, "gpureport", report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.OOMs) != 2 {
		t.Fatalf("%d OOMs, want 2 (the README is no input): %+v", len(s.OOMs), s.OOMs)
	}
	for _, o := range s.OOMs {
		if o.Rank == nil || *o.Rank != o.Device {
			t.Errorf("%s: rank %v on device %d, want the folder's local rank", o.Path, o.Rank, o.Device)
		}
	}
	notes := strings.Join(s.Notes, "\n")
	if strings.Contains(notes, "could not be used") || !strings.Contains(notes, "2 text logs held nothing gpureport reads") {
		t.Errorf("notes:\n%s", notes)
	}
	if len(s.Inputs.Skipped) != 2 {
		t.Errorf("skipped %+v, want the two stdout.log files listed", s.Inputs.Skipped)
	}
}
