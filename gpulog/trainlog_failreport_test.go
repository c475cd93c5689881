package gpulog_test

import (
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// elasticReport is torchelastic's ChildFailedError summary naming the
// failed ranks (global rank, local rank), the first as the root cause.
func elasticSummary(ranks ...[2]string) string {
	var b strings.Builder
	b.WriteString("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n")
	b.WriteString("============================================================\ntrain.py FAILED\n------------------------------------------------------------\nFailures:\n")
	if len(ranks) == 1 {
		b.WriteString("  <NO_OTHER_FAILURES>\n")
	}
	for i, r := range ranks[1:] {
		b.WriteString("[" + string(rune('1'+i)) + "]:\n  time      : 2024-03-01_10:20:11\n  host      : node-3\n  rank      : " + r[0] + " (local_rank: " + r[1] + ")\n  exitcode  : 1 (pid: 4123)\n")
	}
	b.WriteString("------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n  time      : 2024-03-01_10:20:11\n  host      : node-3\n")
	b.WriteString("  rank      : " + ranks[0][0] + " (local_rank: " + ranks[0][1] + ")\n  exitcode  : 1 (pid: 4122)\n  error_file: <N/A>\n")
	b.WriteString("  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n============================================================\n")
	return b.String()
}

// TestOOMRankFromLauncherReports: a launcher's report naming the one
// process that failed gives the log's one rankless OOM message its rank
// (torchelastic's ChildFailedError summary, Lightning's observer line);
// Lightning's "[rank: N] " prefix is a rank; pdsh's host label before a
// bare traceback line is the machine once the host's other lines show it,
// and DeepSpeed's world info gives the host's one process its global rank.
// Two failed ranks, two rankless messages, a caught OOM or a report
// before the message leave it rankless.
func TestOOMRankFromLauncherReports(t *testing.T) {
	msg := func(gpu int) string { return "torch.OutOfMemoryError: " + oomText(gpu) + "\n" }
	other := strings.Replace(msg(0), "3.91 GiB", "2.50 GiB", 1)
	tb := "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n    loss.backward()\n"
	lightning := "[rank: 1] Child process with PID 9921 terminated with code 1. Forcefully terminating all other processes to avoid zombies 🧟\n"
	world := "worker-0: [2024-03-01 10:00:05,000] [INFO] [launch.py:145:main] WORLD INFO DICT: {'worker-0': [0], 'worker-1': [0]}\n" +
		"worker-0: [2024-03-01 10:00:05,001] [INFO] [launch.py:151:main] nnodes=2, num_local_procs=1, node_rank=0\n" +
		"worker-1: [2024-03-01 10:00:05,001] [INFO] [launch.py:145:main] WORLD INFO DICT: {'worker-0': [0], 'worker-1': [0]}\n" +
		"worker-1: [2024-03-01 10:00:05,002] [INFO] [launch.py:151:main] nnodes=2, num_local_procs=1, node_rank=1\n"
	type want struct {
		rank    int
		machine string
	}
	tests := []struct {
		name string
		text string
		want []want
	}{{
		name: "torchelastic root cause",
		text: tb + msg(1) + "W0301 10:20:11.418000 1 api.py:858] Sending process 4121 closing signal SIGTERM\n" + elasticSummary([2]string{"1", "1"}),
		want: []want{{1, ""}},
	}, {
		name: "torchelastic, a global rank on the second node",
		text: tb + msg(1) + elasticSummary([2]string{"5", "1"}),
		want: []want{{5, ""}},
	}, {
		name: "torchelastic names two failed ranks",
		text: tb + msg(1) + elasticSummary([2]string{"1", "1"}, [2]string{"0", "0"}),
		want: []want{{input.NoRank, ""}},
	}, {
		name: "two rankless messages",
		text: tb + msg(1) + tb + other + elasticSummary([2]string{"1", "1"}),
		want: []want{{input.NoRank, ""}, {input.NoRank, ""}},
	}, {
		name: "a ranked message and a rankless one",
		text: "[rank0]: " + other + tb + msg(1) + elasticSummary([2]string{"1", "1"}),
		want: []want{{0, ""}, {1, ""}},
	}, {
		name: "the report comes first",
		text: elasticSummary([2]string{"1", "1"}) + tb + msg(1),
		want: []want{{input.NoRank, ""}},
	}, {
		name: "a caught OOM",
		text: tb + msg(1) + "WARNING: out of memory at step 1513, skipping batch\nstep 1514 loss 1.2\n" + lightning,
		want: []want{{input.NoRank, ""}},
	}, {
		name: "Lightning's observer",
		text: "[rank: 0] Seed set to 42\n[rank: 1] Seed set to 42\n" + tb + msg(1) + "\n" + lightning,
		want: []want{{1, ""}},
	}, {
		name: "Lightning's rank prefix on the message",
		text: "[rank: 1] " + msg(1),
		want: []want{{1, ""}},
	}, {
		name: "pdsh host with DeepSpeed's world info",
		text: world + "worker-1: step 100 loss 1.900\nworker-1: " + strings.TrimSuffix(tb, "\n") + "\nworker-1: " + msg(0),
		want: []want{{1, "worker-1"}},
	}, {
		name: "pdsh host running two processes",
		text: strings.ReplaceAll(strings.ReplaceAll(world, "[0]", "[0, 1]"), "num_local_procs=1", "num_local_procs=2") + "worker-1: " + msg(0),
		want: []want{{input.NoRank, "worker-1"}},
	}, {
		name: "a label never seen with a time or rank is no host",
		text: "worker-1: step 100\nworker-1: " + msg(0),
		want: []want{{input.NoRank, ""}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != len(tt.want) {
				t.Fatalf("%d OOMs, want %d: %+v", len(l.OOMs), len(tt.want), l.OOMs)
			}
			for i, w := range tt.want {
				if o := l.OOMs[i]; o.Rank != w.rank || o.Machine != w.machine {
					t.Errorf("OOM %d: rank %d machine %q, want %+v (notes %q)", i, o.Rank, o.Machine, w, l.Notes)
				}
			}
		})
	}
}
