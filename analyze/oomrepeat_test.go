package analyze

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// readTrainingLogAt reads text as the training log at path, the rank of
// its unranked messages rank (as discovery gives a file name's rank).
func readTrainingLogAt(t *testing.T, path, text string, rank int) *gpulog.GPULog {
	t.Helper()
	l, err := gpulog.ReadLog(strings.NewReader(text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l.Path = path
	for i := range l.OOMs {
		if l.OOMs[i].Rank == input.NoRank {
			l.OOMs[i].Rank = rank
		}
	}
	return l
}

// TestRepeatedOOMs: the same message in two files of a run (a copy of the
// same process's output) is one OOM naming the other file; identical
// messages of two ranks, of two instances of one file pattern (two
// attempts, two nodes, one name in two folders, two hosts' names), or at
// two times stay apart, and an unranked copy
// joins a ranked message only when one rank printed those figures.
func TestRepeatedOOMs(t *testing.T) {
	msg := func(req string) string {
		return "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + req + ". GPU 0 has a total capacity of 79.15 GiB of which 1.52 GiB is free. " +
			"Including non-PyTorch memory, this process has 77.62 GiB memory in use. Of the allocated memory 74.87 GiB is allocated by PyTorch, " +
			"and 2.10 GiB is reserved by PyTorch but unallocated.\n"
	}
	tb := "Traceback (most recent call last):\n  File \"/workspace/train.py\", line 188, in main\n    loss.backward()\n"
	type file struct {
		path, text string
		rank       int
	}
	none := input.NoRank
	type want struct {
		path    string
		rank    int
		repeats string
	}
	cases := []struct {
		name  string
		files []file
		want  []want
	}{
		{"W&B console capture", []file{{"train.log", "step 1\n" + tb + msg("3.91 GiB"), none}, {"wandb/run-20240308_100001-q1w2e3r4/files/output.log", tb + msg("3.91 GiB"), none}},
			[]want{{"train.log", none, "wandb/run-20240308_100001-q1w2e3r4/files/output.log"}}},
		{"torchrun --tee: the console's rank goes to the copy", []file{{"logs/none_x/attempt_0/0/stderr.log", tb + msg("3.91 GiB"), none}, {"slurm-999.out", "[rank0]:" + msg("3.91 GiB"), none}},
			[]want{{"logs/none_x/attempt_0/0/stderr.log", 0, "slurm-999.out"}}},
		{"torchelastic's error.json and the console", []file{{"logs/none_x/attempt_0/1/error.json", `{"message": {"message": "` + strings.TrimSpace(msg("3.91 GiB")) + `", "extraInfo": {"timestamp": "1714564806"}}}` + "\n", none}, {"slurm-5.out", "[rank1]: " + msg("3.91 GiB"), none}},
			[]want{{"logs/none_x/attempt_0/1/error.json", 1, "slurm-5.out"}}},
		{"rank files: two ranks stay two", []file{{"rank0.log", msg("3.91 GiB"), 0}, {"rank1.log", msg("3.91 GiB"), 1}},
			[]want{{"rank0.log", 0, ""}, {"rank1.log", 1, ""}}},
		{"one file pattern: two attempts stay two", []file{{"logs/a/attempt_0/0/stderr.log", msg("3.91 GiB"), none}, {"logs/a/attempt_1/0/stderr.log", msg("3.91 GiB"), none}},
			[]want{{"logs/a/attempt_0/0/stderr.log", 0, ""}, {"logs/a/attempt_1/0/stderr.log", 0, ""}}},
		{"one file name in two folders: a relaunch stays two", []file{{"first_try/train.log", tb + msg("3.91 GiB"), none}, {"resumed/train.log", tb + msg("3.91 GiB"), none}},
			[]want{{"first_try/train.log", none, ""}, {"resumed/train.log", none, ""}}},
		{"two hosts' files of one name pattern, one second: two stay two", []file{{"gpu-host-east.log", "2024-03-08 10:05:12 " + msg("3.91 GiB"), none}, {"gpu-host-west.log", "2024-03-08 10:05:12 " + msg("3.91 GiB"), none}},
			[]want{{"gpu-host-east.log", none, ""}, {"gpu-host-west.log", none, ""}}},
		// A limit: unrelated names in one folder may be a tee of one
		// process (slurm-N.out and train.log) or two nodes' redirects;
		// nothing in the files tells which, and they are taken as one.
		{"a tee beside the scheduler's output is one", []file{{"slurm-77.out", tb + msg("3.91 GiB"), none}, {"train.log", tb + msg("3.91 GiB"), none}},
			[]want{{"slurm-77.out", none, "train.log"}}},
		{"different figures stay two", []file{{"train.log", msg("3.91 GiB"), none}, {"error.txt", msg("3.90 GiB"), none}},
			[]want{{"error.txt", none, ""}, {"train.log", none, ""}}},
		{"different times stay two", []file{{"train.log", "2024-03-08 10:05:12 " + msg("3.91 GiB"), none}, {"error.log", "2024-03-08 10:09:40 " + msg("3.91 GiB"), none}},
			[]want{{"error.log", none, ""}, {"train.log", none, ""}}},
		{"times a second apart are one", []file{{"train.log", "2024-03-08 10:05:12 " + msg("3.91 GiB"), none}, {"pod.log", "2024-03-08T10:05:13.2Z " + msg("3.91 GiB"), none}},
			[]want{{"pod.log", none, "train.log"}}},
		{"an unranked copy that two ranks could have written stays apart", []file{{"console.out", "[rank0]:" + msg("3.91 GiB") + "[rank8]:" + msg("3.91 GiB"), none}, {"error.txt", msg("3.91 GiB"), none}},
			[]want{{"console.out", 0, ""}, {"console.out", 8, ""}, {"error.txt", none, ""}}},
		// kubectl logs --prefix names each line's pod: the same message
		// from two pods is two machines' OOMs; a pod's console line and
		// the process's own file (no label) are one.
		{"two pods stay two", []file{{"pods.log", "[pod/w-0/pytorch] " + msg("3.91 GiB") + "[pod/w-1/pytorch] " + msg("3.91 GiB"), none}},
			[]want{{"pods.log", none, ""}, {"pods.log", none, ""}}},
		{"a pod's console line and its own file are one", []file{{"pods.log", "[pod/w-0/pytorch] " + msg("3.91 GiB"), none}, {"w-0/stderr.txt", msg("3.91 GiB"), none}},
			[]want{{"pods.log", none, "w-0/stderr.txt"}}},
		{"an unlabelled copy that two pods could have written stays apart", []file{{"a.log", "[pod/w-0/pytorch] " + msg("3.91 GiB"), none}, {"b.log", "[pod/w-1/pytorch] " + msg("3.91 GiB"), none}, {"c/stderr.txt", msg("3.91 GiB"), none}},
			[]want{{"a.log", none, ""}, {"b.log", none, ""}, {"c/stderr.txt", none, ""}}},
		{"a figureless message of two unknown processes stays apart", []file{{"train.log", "RuntimeError: CUDA error: out of memory\n", none}, {"eval.log", "RuntimeError: CUDA error: out of memory\n", none}},
			[]want{{"eval.log", none, ""}, {"train.log", none, ""}}},
		{"a file's own retries: each copy joins one", []file{{"train.log", msg("3.91 GiB") + strings.Repeat("step\n", 500) + msg("3.91 GiB"), none}, {"output.log", msg("3.91 GiB") + strings.Repeat("step\n", 500) + msg("3.91 GiB"), none}},
			[]want{{"output.log", none, "train.log"}, {"output.log", none, "train.log"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs []*gpulog.GPULog
			for _, f := range c.files {
				logs = append(logs, readTrainingLogAt(t, f.path, f.text, f.rank))
			}
			// Logs come in path order, as discovery gives them.
			slices.SortFunc(logs, func(a, b *gpulog.GPULog) int { return strings.Compare(a.Path, b.Path) })
			var got []want
			for _, o := range trainingLogOOMs(placeLogOOMs(logs, pathRank, nil), nil, nil, 0) {
				got = append(got, want{o.Path, o.Rank, strings.Join(o.RepeatedIn, ",")})
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got (path rank repeats)\n %v\nwant\n %v", got, c.want)
			}
		})
	}
}

// TestTwoProcesses: paths a launcher, job script or person writes once
// per process, attempt, node or relaunch are two processes' files; a
// tool's copy under a name of its own is not told apart by its path.
func TestTwoProcesses(t *testing.T) {
	cases := []struct {
		a, b string
		two  bool
	}{
		{"rank0.log", "rank1.log", true},
		{"logs/x/attempt_0/0/stderr.log", "logs/x/attempt_1/0/stderr.log", true},
		{"first_try/train.log", "resumed/train.log", true},
		{"node0/logs/stderr.log", "node1/logs/stderr.log", true},
		{"gpu-host-east.log", "gpu-host-west.log", true},
		{"run_east_gpu.log", "run_west_gpu.log", true},
		{"train.log", "train.log", false},
		{"train.log", "output.log", false},
		{"train.log", "wandb/run-20240308_100001-q1w2e3r4/files/output.log", false},
		{"slurm-999.out", "logs/none_x/attempt_0/0/stderr.log", false},
		{"driver.log", "ray_results/T/T_0/error.txt", false},
		{"x/nemo_log_globalrank-2_localrank-0.txt", "x/nemo_error_log.txt", false},
		{"gpu-host-east.log", "gpu-host-west.out", false},
		{"a/gpu-host-east.log", "b/gpu-host-west.log", false},
		{"gpu-host-east.log", "gpu-node-west.log", false},
	}
	for _, c := range cases {
		if got := twoProcesses(c.a, c.b); got != c.two {
			t.Errorf("twoProcesses(%q, %q) = %v, want %v", c.a, c.b, got, c.two)
		}
		if got := twoProcesses(c.b, c.a); got != c.two {
			t.Errorf("twoProcesses(%q, %q) = %v, want %v", c.b, c.a, got, c.two)
		}
	}
}

// TestRepeatedOOMNote: the run's notes name the files that repeat an OOM,
// one note for the OOMs of a file and device that the same files repeat,
// counting them.
func TestRepeatedOOMNote(t *testing.T) {
	rep := []string{"a/output.log", "b/error.txt"}
	f := &Findings{OOMs: []OOM{{Path: "train.log", Rank: input.NoRank, RepeatedIn: rep}, {Path: "x.log"},
		{Path: "train.log", Rank: input.NoRank, RepeatedIn: rep}, {Path: "train.log", Rank: input.NoRank, Device: 1, RepeatedIn: rep}}}
	repeatedOOMNotes(f)
	if len(f.Notes) != 2 || f.Notes[0].Kind != NoteOOMRepeated || f.Notes[0].Paths[0] != "train.log" || f.Notes[0].Text != "a/output.log, b/error.txt" ||
		f.Notes[0].Count != 2 || f.Notes[1].Device.Device != 1 || f.Notes[1].Count != 1 {
		t.Errorf("notes %+v, want 2 OOMs of cuda:0, 1 of cuda:1", f.Notes)
	}
}

// TestVerdictHandledOOMs: OOMs the job caught and went on from raise the
// oom flag at warning severity; one OOM not caught makes the verdict
// critical.
func TestVerdictHandledOOMs(t *testing.T) {
	oom := func(handled bool) OOM {
		return OOM{Path: "train.log", Rank: input.NoRank, Cause: CauseCapacity, Handled: handled}
	}
	cases := []struct {
		name     string
		ooms     []OOM
		severity Severity
		handled  int64
	}{
		{"all caught", []OOM{oom(true), oom(true)}, SeverityWarning, 2},
		{"one crash", []OOM{oom(true), oom(false)}, SeverityCritical, 1},
		{"crash only", []OOM{oom(false)}, SeverityCritical, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &Findings{OOMs: c.ooms, Thresholds: Thresholds{Horizon: DefaultHorizon}}
			decideVerdict(f)
			v := f.Verdict
			if !v.OOM || v.Severity != c.severity || v.OOMsHandled != c.handled || v.OOMs != int64(len(c.ooms)) {
				t.Errorf("oom %v severity %s handled %d of %d; want true, %s, %d of %d", v.OOM, v.Severity, v.OOMsHandled, v.OOMs, c.severity, c.handled, len(c.ooms))
			}
		})
	}
}
