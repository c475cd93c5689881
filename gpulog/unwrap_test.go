package gpulog_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
)

// notebookJSON is an nbformat 4 notebook whose one code cell has the
// given outputs, and whose source quotes an OOM message (source is no
// output: never read).
func notebookJSON(t *testing.T, colab bool, outputs ...map[string]any) string {
	t.Helper()
	cell := map[string]any{
		"cell_type": "code", "execution_count": 7, "id": "a1", "metadata": map[string]any{},
		"outputs": outputs,
		"source":  []string{"try:\n", "    loss.backward()\n", "except RuntimeError as e:\n", "    if \"CUDA out of memory. Tried to allocate\" in str(e): raise\n"},
	}
	var b []byte
	var err error
	if colab {
		// Colab writes nbformat first, cells last.
		b, err = json.Marshal(struct {
			NBFormat      int              `json:"nbformat"`
			NBFormatMinor int              `json:"nbformat_minor"`
			Metadata      map[string]any   `json:"metadata"`
			Cells         []map[string]any `json:"cells"`
		}{4, 0, map[string]any{"colab": map[string]any{"provenance": []any{}}}, []map[string]any{cell}})
	} else {
		// Jupyter sorts the keys: cells first.
		b, err = json.MarshalIndent(map[string]any{"cells": []map[string]any{cell}, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5}, "", " ")
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// notebookV3JSON is an IPython 1-2 notebook (nbformat 3, keys sorted
// as IPython wrote them) whose one worksheet holds a markdown cell and a
// code cell with the given outputs, its input quoting an OOM message.
func notebookV3JSON(t *testing.T, outputs ...map[string]any) string {
	t.Helper()
	cells := []map[string]any{
		{"cell_type": "markdown", "metadata": map[string]any{}, "source": []string{"CUDA out of memory. Tried to allocate 2.00 GiB"}},
		{"cell_type": "code", "collapsed": false, "input": []string{"if \"CUDA out of memory. Tried to allocate\" in str(e): raise\n"},
			"language": "python", "metadata": map[string]any{}, "outputs": outputs, "prompt_number": 3},
	}
	return mustJSON(t, map[string]any{"metadata": map[string]any{"name": ""}, "nbformat": 3, "nbformat_minor": 0,
		"worksheets": []map[string]any{{"cells": cells, "metadata": map[string]any{}}}})
}

// pyerrOut is nbformat 3's error output: errorOut's fields under
// output_type "pyerr".
func pyerrOut(ename, evalue string, withTraceback bool) map[string]any {
	o := errorOut(ename, evalue, withTraceback)
	o["output_type"] = "pyerr"
	return o
}

func streamOut(lines ...string) map[string]any {
	return map[string]any{"name": "stdout", "output_type": "stream", "text": lines}
}

// errorOut is an error output as IPython writes it: the traceback's
// entries coloured, the last "ename: evalue".
func errorOut(ename, evalue string, withTraceback bool) map[string]any {
	tb := []string{}
	if withTraceback {
		tb = []string{
			"\x1b[0;31m---------------------------------------------------------------------------\x1b[0m",
			"\x1b[0;31m" + ename + "\x1b[0m                          Traceback (most recent call last)",
			"Cell \x1b[0;32mIn[7], line 12\x1b[0m\n\x1b[1;32m     10\x1b[0m     loss \x1b[38;5;241m=\x1b[39m out\x1b[38;5;241m.\x1b[39mloss\n\x1b[0;32m---> 12\x1b[0m     loss\x1b[38;5;241m.\x1b[39mbackward()\n",
			"\x1b[0;31m" + ename + "\x1b[0m: " + evalue,
		}
	}
	return map[string]any{"output_type": "error", "ename": ename, "evalue": evalue, "traceback": tb}
}

// gcpEntry is one LogEntry of `gcloud logging read --format=json`.
func gcpEntry(ts, pod, text string) map[string]any {
	e := map[string]any{
		"insertId": "abc" + ts[17:19], "logName": "projects/p/logs/stderr", "receiveTimestamp": ts, "severity": "ERROR",
		"textPayload": text, "timestamp": ts,
		"resource": map[string]any{"type": "k8s_container", "labels": map[string]any{"pod_name": pod, "container_name": "pytorch", "namespace_name": "default"}},
	}
	if pod == "" {
		e["resource"] = map[string]any{"type": "gce_instance", "labels": map[string]any{"instance_id": "1"}}
	}
	return e
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUnwrappedTrainingLogs reads an OOM from the containers a job's
// output is saved in: notebooks (Jupyter's and Colab's key order, with
// and without a traceback), Cloud Logging exports (newest first, Kubernetes
// pods) and CloudWatch exports, each once, with the rank, device and time
// the container gives.
func TestUnwrappedTrainingLogs(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	type want struct {
		rank, device int
		time         time.Time
		count        int
	}
	tests := []struct {
		name    string
		text    string
		wrapper gpulog.Wrapper
		want    []want
	}{{
		name:    "jupyter notebook",
		text:    notebookJSON(t, false, streamOut("step 0 loss 2.31\n", "step 10 loss 2.20\n"), errorOut("OutOfMemoryError", oomText(0), true)),
		wrapper: gpulog.WrapperNotebook,
		want:    []want{{input.NoRank, 0, time.Time{}, 1}},
	}, {
		name:    "colab notebook without traceback",
		text:    notebookJSON(t, true, errorOut("OutOfMemoryError", oomText(1), false)),
		wrapper: gpulog.WrapperNotebook,
		want:    []want{{input.NoRank, 1, time.Time{}, 1}},
	}, {
		name: "nbformat 3 notebook",
		text: notebookV3JSON(t, map[string]any{"output_type": "stream", "stream": "stdout", "text": []string{"step 0 loss 2.31\n"}},
			pyerrOut("OutOfMemoryError", oomText(2), true)),
		wrapper: gpulog.WrapperNotebook,
		want:    []want{{input.NoRank, 2, time.Time{}, 1}},
	}, {
		name:    "nbformat 3 notebook quoting an OOM in its input only",
		text:    notebookV3JSON(t, map[string]any{"output_type": "stream", "stream": "stdout", "text": "step 0 loss 2.31\n"}),
		wrapper: gpulog.WrapperNotebook,
	}, {
		name:    "notebook quoting an OOM in its source only",
		text:    notebookJSON(t, false, streamOut("step 0 loss 2.31\n")),
		wrapper: gpulog.WrapperNotebook,
	}, {
		name: "gcloud logging read, two pods, newest first",
		text: mustJSON(t, []any{
			gcpEntry("2024-03-08T10:00:12.5Z", "ft-worker-1", "[rank1]: torch.OutOfMemoryError: "+oomText(0)),
			gcpEntry("2024-03-08T10:00:11.123456789Z", "ft-worker-0", "[rank0]: torch.OutOfMemoryError: "+oomText(0)),
			gcpEntry("2024-03-08T10:00:10Z", "ft-worker-0", "[rank0]: Traceback (most recent call last):"),
		}),
		wrapper: gpulog.WrapperGCPLogging,
		want: []want{
			{0, 0, at("2024-03-08T10:00:11.123456789Z"), 1},
			{1, 0, at("2024-03-08T10:00:12.5Z"), 1},
		},
	}, {
		name: "gcloud logging read, a VM's jsonPayload",
		text: mustJSON(t, []any{
			map[string]any{"insertId": "x", "jsonPayload": map[string]any{"message": "torch.OutOfMemoryError: " + oomText(2)}, "timestamp": "2024-03-08T10:00:11Z", "logName": "l"},
			map[string]any{"insertId": "y", "protoPayload": map[string]any{"@type": "audit"}, "timestamp": "2024-03-08T10:00:09Z", "logName": "l"},
		}),
		wrapper: gpulog.WrapperGCPLogging,
		want:    []want{{input.NoRank, 2, at("2024-03-08T10:00:11Z"), 1}},
	}, {
		name: "aws logs filter-log-events",
		text: mustJSON(t, map[string]any{"events": []any{
			map[string]any{"logStreamName": "job/algo-1", "timestamp": 1709892011000, "message": "torch.OutOfMemoryError: " + oomText(0) + "\n", "ingestionTime": 1709892011500, "eventId": "2"},
			map[string]any{"logStreamName": "job/algo-1", "timestamp": 1709892010000, "message": "Traceback (most recent call last):", "ingestionTime": 1709892010500, "eventId": "1"},
		}, "searchedLogStreams": []any{}}),
		wrapper: gpulog.WrapperCloudWatch,
		want:    []want{{input.NoRank, 0, time.UnixMilli(1709892011000).UTC(), 1}},
	}, {
		// One stream a host (SageMaker's JOB/algo-N-EPOCH): the same
		// message from two hosts in one second is two OOMs, each
		// host's traceback continuing its own message.
		name: "aws logs filter-log-events, two hosts' streams",
		text: mustJSON(t, map[string]any{"events": []any{
			map[string]any{"logStreamName": "job/algo-1-1709892000", "timestamp": 1709892010000, "message": "Traceback (most recent call last):"},
			map[string]any{"logStreamName": "job/algo-2-1709892000", "timestamp": 1709892010000, "message": "Traceback (most recent call last):"},
			map[string]any{"logStreamName": "job/algo-1-1709892000", "timestamp": 1709892011000, "message": "torch.OutOfMemoryError: " + oomText(0)},
			map[string]any{"logStreamName": "job/algo-2-1709892000", "timestamp": 1709892011000, "message": "torch.OutOfMemoryError: " + oomText(0)},
		}}),
		wrapper: gpulog.WrapperCloudWatch,
		want:    []want{{input.NoRank, 0, time.UnixMilli(1709892011000).UTC(), 1}, {input.NoRank, 0, time.UnixMilli(1709892011000).UTC(), 1}},
	}, {
		// An event without a time stays after the one before it, and
		// takes no time of another.
		name: "aws logs, an event without a time",
		text: mustJSON(t, map[string]any{"events": []any{
			map[string]any{"timestamp": 1709892012000, "message": "step 1"},
			map[string]any{"message": "torch.OutOfMemoryError: " + oomText(3)},
			map[string]any{"timestamp": 1709892010000, "message": "[rank0]: " + strings.Replace("torch.OutOfMemoryError: "+oomText(0), "3.91", "1.00", 1)},
		}}),
		wrapper: gpulog.WrapperCloudWatch,
		want:    []want{{0, 0, time.UnixMilli(1709892010000).UTC(), 1}, {input.NoRank, 3, time.Time{}, 1}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head := []byte(tt.text)
			if len(head) > 8<<10 {
				head = head[:8<<10]
			}
			if got := gpulog.SniffWrapper(head); got != tt.wrapper {
				t.Errorf("SniffWrapper = %q, want %q", got, tt.wrapper)
			}
			if got := gpulog.SniffTrainingLog(strings.NewReader(tt.text), head); got != (len(tt.want) > 0) {
				t.Errorf("SniffTrainingLog = %v, want %v", got, len(tt.want) > 0)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if len(tt.want) == 0 {
				if err == nil {
					t.Errorf("read %d OOMs from a log without one", len(l.OOMs))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != len(tt.want) {
				t.Fatalf("%d OOMs, want %d: %+v", len(l.OOMs), len(tt.want), l.OOMs)
			}
			for i, w := range tt.want {
				o := l.OOMs[i]
				if o.Rank != w.rank || o.Device != w.device || !o.Time.Equal(w.time) || o.Count != w.count || o.Requested <= 0 {
					t.Errorf("OOM %d: rank %d device %d time %v count %d requested %d, want %+v", i, o.Rank, o.Device, o.Time, o.Count, o.Requested, w)
				}
			}
			if len(l.OOMs) == 2 && l.OOMs[0].Time.Equal(l.OOMs[1].Time) && l.OOMs[0].Machine == l.OOMs[1].Machine {
				t.Errorf("two OOMs at one time on one machine %q", l.OOMs[0].Machine)
			}
			if !strings.Contains(strings.Join(l.Notes, "\n"), string(tt.wrapper)) {
				t.Errorf("no note names the container: %q", l.Notes)
			}
		})
	}
}

// TestSniffWrapperRejects: JSON that is no log container is not one,
// whatever keys it shares with one.
func TestSniffWrapperRejects(t *testing.T) {
	for _, text := range []string{
		`[{"name": "a", "timestamp": "2024-03-08T10:00:11Z"}]`,
		`[{"timestamp": "2024-03-08T10:00:11Z", "severity": "INFO"}]`,
		`{"events": [{"type": "click", "message": "x"}]}`,
		`{"config": {"cells": []}}`,
		`{"nbformat": 2, "worksheets": []}`,
		`{"worksheets": "no"}`,
		`{"num_alloc_retries": 0, "num_ooms": 1}`,
		`step 0 loss 2.0`,
		``,
	} {
		if got := gpulog.SniffWrapper([]byte(text)); got != gpulog.WrapperNone {
			t.Errorf("SniffWrapper(%q) = %q, want none", text, got)
		}
	}
	// The head may end anywhere in the document.
	doc := notebookJSON(t, false, streamOut(strings.Repeat("step 0 loss 2.31\n", 2000)))
	for _, n := range []int{16, 40, 200, 8 << 10} {
		if got := gpulog.SniffWrapper([]byte(doc[:n])); got != gpulog.WrapperNotebook {
			t.Errorf("head of %d bytes: %q", n, got)
		}
	}
}

// TestUnwrapBrokenDocument: a document cut short is read as the text it
// is, with a note saying it could not be unwrapped.
func TestUnwrapBrokenDocument(t *testing.T) {
	doc := mustJSON(t, map[string]any{"events": []any{map[string]any{"timestamp": 1, "message": "torch.OutOfMemoryError: " + oomText(0)}}})
	cut := doc[:len(doc)-10]
	l, err := gpulog.ReadLog(bytes.NewReader([]byte(cut)), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(l.Notes, "\n"), "could not be unwrapped") {
		t.Errorf("notes %q", l.Notes)
	}
}

// FuzzUnwrap: any head is told a container or none without a panic, and
// reading a file that claims to be one ends, with or without its
// unwrapping.
func FuzzUnwrap(f *testing.F) {
	f.Add(`{"cells": [{"outputs": [{"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["a\nb"]}]}], "nbformat": 4}`)
	f.Add(`[{"insertId": "a", "textPayload": "x\ny", "timestamp": "2024-03-08T10:00:11Z", "resource": {"labels": {"pod_name": "p"}}}]`)
	f.Add(`{"events": [{"timestamp": 1709892011000, "message": "m"}, {"message": "n"}]}`)
	f.Add(`{"log":"0, 1000 MiB\n","stream":"stdout","time":"2024-05-01T12:00:00Z"}` + "\n")
	f.Add(`{"nbformat": 4, "cells": "no"}`)
	// nbformat 3: cells in worksheets, errors as "pyerr".
	f.Add(`{"metadata": {}, "nbformat": 3, "worksheets": [{"cells": [{"input": "x", "outputs": [{"output_type": "pyerr", "ename": "E", "evalue": "v\nw", "traceback": []}, {"output_type": "stream", "stream": "stderr", "text": ["a", "b\n"]}]}]}]}`)
	f.Add(`{"worksheets": [{"cells": 5}], "nbformat": 3}`)
	f.Add(`{"nbformat": 3, "cells": [{"outputs": [{"output_type": "stream", "text": "x"}]}], "worksheets": [{}, null]}`)
	f.Fuzz(func(t *testing.T, text string) {
		w := gpulog.SniffWrapper([]byte(text))
		if w == gpulog.WrapperNone {
			return
		}
		if _, err := gpulog.ReadLog(strings.NewReader(text), gpulog.FormatTrainingLog, gpulog.ReadOptions{}); err != nil && !errors.Is(err, gpulog.ErrNoReadings) {
			t.Fatalf("%s: %v", w, err)
		}
	})
}

// TestNotebookNvidiaSmiOutput: a notebook whose only GPU content is a
// cell's !nvidia-smi output (no OOM, no memory line) is claimed and read
// for its GPU readings: no sniff of the document's head can see them, so
// the training log's GPU reading gives them. A plain text file of the
// same table stays a GPU log (SniffLog's), never a training log.
func TestNotebookNvidiaSmiOutput(t *testing.T) {
	var lines []string
	for _, used := range []int{3, 9873, 14871} {
		for _, l := range strings.SplitAfter(smiTableOf(used, 15360), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	nb := notebookJSON(t, true, streamOut(lines...))
	if !gpulog.SniffTrainingLog(strings.NewReader(nb), []byte(nb)) {
		t.Fatal("a notebook of !nvidia-smi output is not claimed")
	}
	l, err := gpulog.ReadLog(strings.NewReader(nb), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Samples) != 3 || l.Samples[2].MemoryUsed != 14871<<20 {
		t.Errorf("samples %+v, want 3 readings, the last 14871 MiB used", l.Samples)
	}
	plain := strings.Join(lines, "")
	if gpulog.SniffTrainingLog(strings.NewReader(plain), []byte(plain)) {
		t.Error("a plain nvidia-smi table is claimed as a training log")
	}
}

// TestUnwrapTooLarge: a document over ReadOptions.MaxDocumentBytes is
// not decoded: it is read as the text it is, with a note, and its OOM is
// still found in that text; one whose text gives nothing is an error that
// says why (ErrNoReadings and ErrNotUnwrapped), for the loader to list the
// file with, never passed over unsaid.
func TestUnwrapTooLarge(t *testing.T) {
	filler := strings.Repeat("step 1 loss 2.0\n", 200)
	nb := func(text string) []byte {
		return []byte(mustJSON(t, map[string]any{"cells": []any{map[string]any{"cell_type": "code", "source": "x", "outputs": []any{
			map[string]any{"output_type": "stream", "name": "stdout", "text": text}}}}, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5}))
	}
	withOOM, without := nb(filler+"torch.OutOfMemoryError: "+oomText(0)+"\n"), nb(filler)
	const limit = 1 << 10
	for _, tt := range []struct {
		name     string
		doc      []byte
		limit    int64
		wantOOMs int
		wantErr  string
	}{
		{"within the limit", withOOM, 0, 1, ""},
		{"over the limit, an OOM in its text", withOOM, limit, 1, ""},
		{"over the limit, nothing in its text", without, limit, 0,
			"training-log log: no readings (the file starts as a Jupyter notebook but could not be unwrapped (over 1 KiB, the most gpureport decodes whole): read as the text it is)"},
		{"within the limit, nothing", without, 0, 0, "training-log log: no readings: no readings"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(bytes.NewReader(tt.doc), gpulog.FormatTrainingLog, gpulog.ReadOptions{MaxDocumentBytes: tt.limit})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, gpulog.ErrNoReadings) ||
					errors.Is(err, gpulog.ErrNotUnwrapped) != (tt.limit > 0) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != tt.wantOOMs {
				t.Errorf("%d OOMs, want %d", len(l.OOMs), tt.wantOOMs)
			}
			notes := strings.Join(l.Notes, "\n")
			if strings.Contains(notes, "could not be unwrapped (over 1 KiB, the most gpureport decodes whole)") != (tt.limit > 0) {
				t.Errorf("notes %q", l.Notes)
			}
		})
	}
}
