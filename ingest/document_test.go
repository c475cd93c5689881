package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/internal/testutil"
)

// documentOOM is a training log's OOM message.
const documentOOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
	"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated."

// notebookOf is an nbformat 4 notebook whose one cell printed text and,
// with oom, ended in the OOM error.
func notebookOf(tb testing.TB, text string, oom bool) []byte {
	tb.Helper()
	outs := []any{map[string]any{"output_type": "stream", "name": "stdout", "text": text}}
	if oom {
		outs = append(outs, map[string]any{"output_type": "error", "ename": "OutOfMemoryError",
			"evalue": strings.TrimPrefix(documentOOM, "torch.OutOfMemoryError: "), "traceback": []string{}})
	}
	nb, err := json.Marshal(map[string]any{"cells": []any{map[string]any{"cell_type": "code", "source": "train()", "outputs": outs}},
		"metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5})
	if err != nil {
		tb.Fatal(err)
	}
	return nb
}

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc: every
// allocation, freed or not, so at least the most held at once).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDocumentsDecodedOnceBounded: a log inside a JSON document (a
// notebook, a log export), compressed or not, is decoded by its reader
// alone: discovery reads its head (a compressed one's first decompressed
// bytes), whatever the number of documents and sniff workers, so that
// discovery's memory stays far below one document (before, each sniff
// worker decoded one whole, up to 256 MiB each, and the reader decoded
// it again). The loader reads each, once, under its memory budget
// (TestDocumentLoadDecodesOnce, TestDocumentClaimByReader).
func TestDocumentsDecodedOnceBounded(t *testing.T) {
	// 1 MiB of printed lines per document, twice as many documents as
	// sniff workers.
	const docs = 2 * sniffWorkers
	lines := strings.Repeat("step 100 loss 2.000 lr 3.0e-04 grad_norm 1.00 tokens/s 123456\n", 1<<20/62)
	dir := t.TempDir()
	files := map[string][]byte{}
	for i := range docs {
		nb := notebookOf(t, lines, true)
		// Each its own bytes: no two are copies of one another. Every
		// other one compressed, which discovery decompressed and decoded
		// whole too.
		nb = append(nb, fmt.Sprintf("\n%*s", i+1, "")...)
		name := fmt.Sprintf("nb/run%02d.ipynb", i)
		if i%2 == 1 {
			name, nb = name+".gz", testutil.Gzip(t, nb)
		}
		files[name] = nb
	}
	testutil.WriteFiles(t, dir, files)
	var cands []Candidate
	got := allocated(func() {
		var err error
		cands, _, err = Discover(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
	})
	if len(cands) != docs {
		t.Fatalf("%d candidates, want %d", len(cands), docs)
	}
	for _, c := range cands {
		// The loader budgets three times the decompressed document.
		if !c.wholeDocument || estimateMemory(c) < 3<<20 {
			t.Errorf("%s: whole document %v, estimate %d", c.Rel, c.wholeDocument, estimateMemory(c))
		}
	}
	// Discovery reads sniffLen (8 KiB) of each, with its buffers and
	// the walk's and copies' work: under a quarter of a document each
	// (decoding one whole allocates several times its size), and so at
	// most that many quarters at once, whatever the number of workers.
	if limit := uint64(docs << 20 / 4); got > limit {
		t.Errorf("discovery of %d documents of 1 MiB allocated %d bytes, want under %d (their heads)", docs, got, limit)
	}
	t.Logf("discovery of %d documents of 1 MiB allocated %d bytes", docs, got)
}

// TestDocumentLoadDecodesOnce: loading a run of one notebook allocates
// about what its reader alone does (one decode), not that and a
// discovery's decode more.
func TestDocumentLoadDecodesOnce(t *testing.T) {
	lines := strings.Repeat("step 100 loss 2.000 lr 3.0e-04 grad_norm 1.00 tokens/s 123456\n", 1<<20/62)
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{"run.ipynb": notebookOf(t, lines, true)})
	read := allocated(func() {
		if _, err := gpulog.DecodeLogWith(filepath.Join(dir, "run.ipynb"), gpulog.FormatTrainingLog, gpulog.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	load := allocated(func() {
		run, err := Load(context.Background(), dir, LoadOptions{})
		if err != nil || len(run.Logs) != 1 {
			t.Fatalf("load: %v", err)
		}
	})
	// A second decode would add the document, its decoded strings, the
	// text made of them and a scan of its lines (discovery's sniff read
	// every line up to the OOM, at its end): about the reader's
	// allocations again; a quarter more is slack for discovery's heads
	// and the loader.
	if float64(load) > 1.25*float64(read) {
		t.Errorf("loading the notebook allocated %d bytes, its reader alone %d: decoded more than once", load, read)
	}
	t.Logf("reader %d bytes, load %d bytes", read, load)
}

// TestDocumentClaimByReader: the reader decides a document's claim, as
// discovery's sniff did: one that holds nothing it reads is passed over
// (a notebook, a .json file) or listed with the reason discovery gives a
// text log without content (an export saved as .log), and batch mode's
// IsInputFile still tells a document with an OOM from one without. A
// compressed document holding nothing is listed as such, not as a
// snapshot that did not decode; one that could not be unwrapped (cut
// short, too large) and gives nothing as text is listed with why.
func TestDocumentClaimByReader(t *testing.T) {
	empty := notebookOf(t, "step 1 loss 2.0\n", false)
	withOOM := notebookOf(t, "step 1 loss 2.0\n", true)
	quoting, err := json.Marshal(map[string]any{"cells": []any{map[string]any{"cell_type": "code", "source": documentOOM, "outputs": []any{}}}, "nbformat": 4})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := json.Marshal(map[string]any{"events": []any{map[string]any{"timestamp": 1709892011000, "message": "step 1 loss 2.0", "logStreamName": "s"}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{
		"a/empty.ipynb":       empty,
		"a/quoting.ipynb":     quoting,
		"a/export.json":       cw,
		"a/export.log":        cw,
		"a/oom.ipynb":         withOOM,
		"a/oom.ipynb.gz":      testutil.Gzip(t, withOOM),
		"a/empty.ipynb.gz":    testutil.Gzip(t, empty),
		"a/cut.ipynb":         empty[:len(empty)-10],
		"b/only-empty.ipynb":  empty,
		"c/only-quoted.ipynb": quoting,
	})
	run, err := Load(context.Background(), filepath.Join(dir, "a"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	for _, l := range run.Logs {
		logs = append(logs, l.Path)
		if len(l.OOMs) != 1 {
			t.Errorf("%s: OOMs %+v", l.Path, l.OOMs)
		}
	}
	if got := strings.Join(logs, " "); got != "oom.ipynb oom.ipynb.gz" && got != "oom.ipynb.gz oom.ipynb" {
		t.Errorf("logs %q, want oom.ipynb and oom.ipynb.gz", got)
	}
	skipped := map[string]Skipped{}
	for _, s := range run.Skipped {
		skipped[s.Path] = s
	}
	if len(skipped) != 3 {
		t.Errorf("skipped %+v, want export.log, empty.ipynb.gz and cut.ipynb", run.Skipped)
	}
	// A document the reader could not unwrap, in whose text it found
	// nothing, is listed with why: never passed over unsaid.
	if s := skipped["cut.ipynb"]; s.NoContent || !strings.Contains(s.Reason, "no readings (the file starts as a Jupyter notebook but could not be unwrapped (notebook: unexpected end of JSON input)") {
		t.Errorf("cut.ipynb: %+v", s)
	}
	if s := skipped["export.log"]; !s.NoContent || !strings.HasPrefix(s.Reason, noContentReason+" (no GPU readings, no out-of-memory message; first line: ") {
		t.Errorf("export.log: %+v", s)
	}
	if s := skipped["empty.ipynb.gz"]; !s.NoContent || s.Reason != noContentReason+" (a gzip Jupyter notebook without an out-of-memory message, memory line or GPU reading)" {
		t.Errorf("empty.ipynb.gz: %+v", s)
	}
	for p, want := range map[string]bool{"a/oom.ipynb": true, "a/oom.ipynb.gz": true, "a/empty.ipynb": false, "a/empty.ipynb.gz": false,
		"a/quoting.ipynb": false, "b/only-empty.ipynb": false, "c/only-quoted.ipynb": false, "a/export.json": false} {
		if got := IsInputFile(filepath.Join(dir, p)); got != want {
			t.Errorf("IsInputFile(%s) = %v, want %v", p, got, want)
		}
	}
}

// BenchmarkLoadNotebook loads a run of one 1 MiB notebook: its B/op is
// about one decode of it.
func BenchmarkLoadNotebook(b *testing.B) {
	lines := strings.Repeat("step 100 loss 2.000 lr 3.0e-04 grad_norm 1.00 tokens/s 123456\n", 1<<20/62)
	dir := b.TempDir()
	testutil.WriteFiles(b, dir, map[string][]byte{"run.ipynb": notebookOf(b, lines, true)})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(context.Background(), dir, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
