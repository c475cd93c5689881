package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/internal/testutil"
)

// TestRankFromLauncherPaths reads ranks from the per-process file names
// of NeMo's exp_manager and the folders of torchrun --log_dir, and from
// no other digit folder.
func TestRankFromLauncherPaths(t *testing.T) {
	tests := []struct {
		path string
		want int
	}{
		{"nemo_experiments/gpt/2024-03-08_10-00-00/nemo_log_globalrank-2_localrank-0.txt", 2},
		{"nemo_experiments/gpt/2024-03-08_10-00-00/nemo_log_globalrank-13_localrank-5.txt", 13},
		{"exp/nemo_error_log.txt", input.NoRank},
		{"logs/none_6w3kq1x2/attempt_0/1/stderr.log", 1},
		{"logs/none_6w3kq1x2/attempt_3/0/stdout.log", 0},
		{"logs/none_6w3kq1x2/attempt_1/7/error.json", 7},
		{"logs/2024/03/train.log", input.NoRank},
		{"runs/attempt_0/1", input.NoRank},
	}
	for _, tt := range tests {
		if got := RankFromPath(tt.path); got != tt.want {
			t.Errorf("RankFromPath(%q) = %d, want %d", tt.path, got, tt.want)
		}
	}
}

// TestLoadLauncherLogs: the OOMs of torchelastic's per-worker logs take
// the local rank from the folder, and a later attempt's log says it is a
// restart; a log in a JSON container (a notebook, a log export) is found
// whatever its extension, and source code quoting an OOM is not.
func TestLoadLauncherLogs(t *testing.T) {
	msg := func(gpu int) string {
		return fmt.Sprintf("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU %d has a total capacity of 79.15 GiB of which 1.23 GiB is free. "+
			"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.", gpu)
	}
	nb, err := json.Marshal(map[string]any{"cells": []any{map[string]any{"cell_type": "code", "source": "x", "outputs": []any{
		map[string]any{"output_type": "error", "ename": "OutOfMemoryError", "evalue": strings.TrimPrefix(msg(0), "torch.OutOfMemoryError: "), "traceback": []string{}},
	}}}, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := json.Marshal(map[string]any{"events": []any{map[string]any{"timestamp": 1709892011000, "message": msg(0), "logStreamName": "s"}}})
	if err != nil {
		t.Fatal(err)
	}
	srcNB, err := json.Marshal(map[string]any{"cells": []any{map[string]any{"cell_type": "code", "source": msg(0), "outputs": []any{}}}, "nbformat": 4})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{
		"logs/none_x/attempt_0/1/stderr.log": []byte("step 1\n" + msg(1) + "\n"),
		"logs/none_x/attempt_1/1/stderr.log": []byte("step 1\n" + msg(1) + "\n"),
		"notebooks/finetune.ipynb":           nb,
		"export/algo-1.json":                 cw,
		"notebooks/quoting.ipynb":            srcNB,
	})
	run, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*gpulog.GPULog{}
	for _, l := range run.Logs {
		got[l.Path] = l
	}
	for _, p := range []string{"logs/none_x/attempt_0/1/stderr.log", "logs/none_x/attempt_1/1/stderr.log"} {
		l := got[p]
		if l == nil || len(l.OOMs) != 1 || l.OOMs[0].Rank != 1 {
			t.Fatalf("%s: %+v", p, l)
		}
		notes := strings.Join(l.Notes, "\n")
		if !strings.Contains(notes, "local rank 1") || strings.Contains(notes, "restart 1") != strings.Contains(p, "attempt_1") {
			t.Errorf("%s: notes %q", p, l.Notes)
		}
	}
	for _, p := range []string{"notebooks/finetune.ipynb", "export/algo-1.json"} {
		if l := got[p]; l == nil || len(l.OOMs) != 1 || l.OOMs[0].Requested != 2<<30 {
			t.Errorf("%s: %+v", p, l)
		}
	}
	if got["notebooks/quoting.ipynb"] != nil {
		t.Errorf("a notebook quoting an OOM in its source is read as a log")
	}
	if c := gpulog.SniffWrapper(nb); c != gpulog.WrapperNotebook {
		t.Errorf("SniffWrapper(notebook) = %q", c)
	}
	if !IsInputFile(filepath.Join(dir, "notebooks/finetune.ipynb")) {
		t.Errorf("a notebook with an OOM is no input file (batch mode would not see its run)")
	}
}

// TestWholeDocumentMemory: a log inside a JSON document is decoded whole,
// so the loader budgets three times its size; a plain log its size.
func TestWholeDocumentMemory(t *testing.T) {
	oom := "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
		"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.\n"
	lines := strings.Repeat("step 100 loss 2.0 lr 3e-4 grad_norm 1.0\n", 12000)
	nb, err := json.Marshal(map[string]any{"cells": []any{map[string]any{"cell_type": "code", "source": "x", "outputs": []any{
		map[string]any{"output_type": "stream", "name": "stdout", "text": lines + oom}}}}, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 5})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{"run.ipynb": nb, "train.log": []byte(lines + oom)})
	for name, whole := range map[string]bool{"run.ipynb": true, "train.log": false} {
		c, _, ok := classify(filepath.Join(dir, name), name, nil)
		if !ok || c.Log != gpulog.FormatTrainingLog || c.wholeDocument != whole {
			t.Fatalf("%s: %+v", name, c)
		}
		want := c.Bytes
		if whole {
			want = 3 * c.Bytes
		}
		if got := estimateMemory(c); got != max(want, 1<<20) {
			t.Errorf("%s: estimate %d, want %d", name, got, max(want, 1<<20))
		}
	}
}

// TestLoadElasticNodes: torchelastic's per-worker logs of several nodes,
// gathered one folder per node (node0/, node1/: torchrun --log_dir on each
// node, each with a run folder of its own), each number their workers by
// local rank. The node folder is the machine: node1's local rank 0 is
// another process than node0's, numbered as torchrun numbers global ranks
// (nodes in path order, each after the local ranks of the ones before),
// and its messages name the node folder as their machine. A rank the line
// gives is kept; one node's logs alone keep their local ranks.
func TestLoadElasticNodes(t *testing.T) {
	msg := func(gib int) string {
		return fmt.Sprintf("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate %d.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. "+
			"Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.", gib)
	}
	type want struct {
		rank    int
		machine string
	}
	tests := []struct {
		name  string
		files map[string]string
		want  map[string]want
	}{{
		name: "two nodes, one worker each",
		files: map[string]string{
			"node0/logs/none_abc/attempt_0/0/stderr.log": msg(2),
			"node1/logs/none_xyz/attempt_0/0/stderr.log": msg(3),
		},
		want: map[string]want{
			"node0/logs/none_abc/attempt_0/0/stderr.log": {0, "node0/logs"},
			"node1/logs/none_xyz/attempt_0/0/stderr.log": {1, "node1/logs"},
		},
	}, {
		name: "two nodes, two workers each, a restart, a global rank on a line",
		files: map[string]string{
			"node-2/none_a/attempt_0/1/stderr.log":  msg(2),
			"node-10/none_a/attempt_0/0/stderr.log": msg(3),
			"node-10/none_a/attempt_1/1/stderr.log": msg(4),
			"node-10/none_a/attempt_0/1/stderr.log": "[rank3]: " + msg(5),
		},
		want: map[string]want{
			"node-2/none_a/attempt_0/1/stderr.log":  {1, "node-2"},
			"node-10/none_a/attempt_0/0/stderr.log": {2, "node-10"},
			"node-10/none_a/attempt_1/1/stderr.log": {3, "node-10"},
			"node-10/none_a/attempt_0/1/stderr.log": {3, "node-10"},
		},
	}, {
		// Only node1's local rank 1 writes an OOM; the other workers' logs
		// are empty or hold only training steps, and are skipped. Their
		// local-rank folders still show two workers on node0.
		name: "two nodes, two workers each, one OOM, the other logs holding nothing",
		files: map[string]string{
			"node0/logs/run_a/attempt_0/0/stderr.log": "",
			"node0/logs/run_a/attempt_0/0/stdout.log": "step 100 loss 2.0",
			"node0/logs/run_a/attempt_0/1/stderr.log": "",
			"node0/logs/run_a/attempt_0/1/stdout.log": "step 100 loss 2.0",
			"node1/logs/run_a/attempt_0/0/stderr.log": "",
			"node1/logs/run_a/attempt_0/0/stdout.log": "step 100 loss 2.0",
			"node1/logs/run_a/attempt_0/1/stderr.log": "",
			"node1/logs/run_a/attempt_0/1/stdout.log": msg(4),
		},
		want: map[string]want{
			"node1/logs/run_a/attempt_0/1/stdout.log": {3, "node1/logs"},
		},
	}, {
		// Each host's log_dir contents gathered into a folder named after
		// the host, without the run folder: the host folders are the
		// machines, in natural order (assumed, as host names say nothing
		// of the node ranks).
		name: "host folders without a run folder",
		files: map[string]string{
			"gpu-node-17/attempt_0/0/stdout.log": "step 100 loss 2.0",
			"gpu-node-17/attempt_0/1/stdout.log": "step 100 loss 2.0",
			"gpu-node-09/attempt_0/0/stdout.log": msg(2),
			"gpu-node-09/attempt_0/1/stdout.log": "step 100 loss 2.0",
		},
		want: map[string]want{
			"gpu-node-09/attempt_0/0/stdout.log": {0, "gpu-node-09"},
		},
	}, {
		name: "host folders without a run folder, OOMs on both hosts' local rank 0",
		files: map[string]string{
			"gpu-node-9/attempt_0/0/stderr.log":  msg(2),
			"gpu-node-9/attempt_0/1/stderr.log":  "",
			"gpu-node-10/attempt_0/0/stderr.log": msg(3),
			"gpu-node-10/attempt_0/1/stderr.log": "",
		},
		want: map[string]want{
			"gpu-node-9/attempt_0/0/stderr.log":  {0, "gpu-node-9"},
			"gpu-node-10/attempt_0/0/stderr.log": {2, "gpu-node-10"},
		},
	}, {
		// Two run folders torchelastic named (run id, "_", mkdtemp's eight
		// characters) at the top: two runs under one log_dir look the
		// same as two nodes' run folders; they stay one machine.
		name: "two run folders at the top",
		files: map[string]string{
			"none_6w3kq1x2/attempt_0/0/stderr.log": msg(2),
			"none_p0_9zzab/attempt_0/1/stderr.log": msg(3),
		},
		want: map[string]want{
			"none_6w3kq1x2/attempt_0/0/stderr.log": {0, ""},
			"none_p0_9zzab/attempt_0/1/stderr.log": {1, ""},
		},
	}, {
		name: "one node",
		files: map[string]string{
			"logs/none_a/attempt_0/0/stderr.log": msg(2),
			"logs/none_a/attempt_0/1/stderr.log": msg(3),
		},
		want: map[string]want{
			"logs/none_a/attempt_0/0/stderr.log": {0, ""},
			"logs/none_a/attempt_0/1/stderr.log": {1, ""},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string][]byte{}
			for p, s := range tt.files {
				if s == "" {
					files[p] = nil // an empty file
					continue
				}
				files[p] = []byte("step 1\n" + s + "\n")
			}
			testutil.WriteFiles(t, dir, files)
			run, err := Load(context.Background(), dir, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Logs) != len(tt.want) {
				t.Fatalf("%d logs, want %d", len(run.Logs), len(tt.want))
			}
			for _, l := range run.Logs {
				w := tt.want[l.Path]
				if len(l.OOMs) != 1 || l.OOMs[0].Rank != w.rank || l.OOMs[0].Machine != w.machine {
					t.Errorf("%s: OOMs %+v, want rank %d machine %q", l.Path, l.OOMs, w.rank, w.machine)
				}
				if !strings.HasPrefix(tt.files[l.Path], "[rank") && run.LogPathRank(l.Path) != w.rank {
					t.Errorf("%s: LogPathRank %d, want %d", l.Path, run.LogPathRank(l.Path), w.rank)
				}
				if w.machine != "" && !strings.Contains(strings.Join(l.Notes, "\n"), fmt.Sprintf("global rank %d", w.rank)) {
					t.Errorf("%s: notes %q", l.Path, l.Notes)
				}
			}
		})
	}
}

// TestElasticNodeOrderNamed: global ranks follow the machines' folders
// for certain only when they are numbered after their node ranks, 0 to
// M-1 (node0, node1); host names give an order the note calls assumed.
func TestElasticNodeOrderNamed(t *testing.T) {
	tests := []struct {
		name    string
		rels    []string
		assumed bool
	}{
		{"node ranks", []string{"node0/logs/r_a/attempt_0/0/stderr.log", "node1/logs/r_b/attempt_0/0/stderr.log"}, false},
		{"node ranks under a common folder", []string{"job/node_0/r_a/attempt_0/0/stderr.log", "job/node_1/r_a/attempt_0/0/stderr.log"}, false},
		{"host names", []string{"gpu-node-17/logs/r_a/attempt_0/0/stderr.log", "gpu-node-09/logs/r_a/attempt_0/0/stderr.log"}, true},
		{"numbered from 1", []string{"node1/r_a/attempt_0/0/stderr.log", "node2/r_a/attempt_0/0/stderr.log"}, true},
		{"not numbered", []string{"worker-a/r_a/attempt_0/0/stderr.log", "worker-b/r_a/attempt_0/0/stderr.log"}, true},
		{"host folders without a run folder", []string{"gpu-node-17/attempt_0/0/stderr.log", "gpu-node-09/attempt_0/0/stderr.log"}, true},
		{"node folders without a run folder", []string{"node0/attempt_0/0/stderr.log", "node1/attempt_0/0/stderr.log"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := elasticNodeRanks(tt.rels)
			if len(nodes) != len(tt.rels) {
				t.Fatalf("nodes %+v", nodes)
			}
			for _, rel := range tt.rels {
				n := nodes[rel]
				note := elasticNote(rel, &n)
				if got := strings.Contains(note, "is assumed"); got != tt.assumed {
					t.Errorf("%s: note %q, assumed %v, want %v", rel, note, got, tt.assumed)
				}
			}
			// Host names in natural order: gpu-node-09's worker is rank 0,
			// named as assumed.
			if tt.name == "host names" && nodes["gpu-node-09/logs/r_a/attempt_0/0/stderr.log"].Rank != 0 {
				t.Errorf("gpu-node-09 rank %d", nodes["gpu-node-09/logs/r_a/attempt_0/0/stderr.log"].Rank)
			}
		})
	}
}
