package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
)

// elasticReport is torchrun's ChildFailedError report for a failure of
// rank, whose traceback quotes msg, indented and without a prefix.
func elasticReport(rank int, msg string) string {
	return fmt.Sprintf(`E0501 12:00:06.123000 139 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 1) local_rank: %[1]d (pid: 2345) of binary: /usr/bin/python
Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2024-05-01_12:00:06
  host      : node001
  rank      : %[1]d (local_rank: %[1]d)
  exitcode  : 1 (pid: 2345)
  error_file: /tmp/torchelastic_abc/none_def/attempt_0/%[1]d/error.json
  traceback : Traceback (most recent call last):
    File "/workspace/train.py", line 190, in main
      loss.backward()
  %[2]s
  
============================================================
`, rank, msg)
}

// TestOOMRanksFromLaunchers: the rank of an OOM message comes from
// srun --label's task number (when nothing better gives one), from
// [rankN] behind pdsh's host label, and from torchelastic's report for
// the traceback it quotes, which is the rank's own message written again.
func TestOOMRanksFromLaunchers(t *testing.T) {
	msg := func(gpu int) string {
		return fmt.Sprintf("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU %d has a total capacity of 79.15 GiB of which 1.23 GiB is free. "+
			"Including non-PyTorch memory, this process has 77.91 GiB memory in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, "+
			"and 2.88 GiB is reserved by PyTorch but unallocated.", gpu)
	}
	srun := func(tasks ...int) string {
		var b strings.Builder
		for _, task := range tasks {
			fmt.Fprintf(&b, "%d: Traceback (most recent call last):\n%d:     loss.backward()\n%d: %s\n", task, task, task, msg(0))
		}
		return b.String()
	}
	type want struct{ line, count, rank, device int }
	cases := []struct {
		name string
		text string
		want []want
	}{
		{"srun two tasks, task 1's message", "0: step 7\n" + "1: " + msg(1) + "\n", []want{{2, 1, 1, 1}}},
		// Task 1 alone, unpadded, cannot be told from a process id.
		{"srun task 1 alone", "1: step 7\n" + "1: " + msg(1) + "\n", []want{{2, 1, input.NoRank, 1}}},
		{"srun four tasks, same message", srun(0, 1, 2, 3), []want{{3, 1, 0, 0}, {6, 1, 1, 0}, {9, 1, 2, 0}, {12, 1, 3, 0}}},
		{"srun label before a torchrun rank", "0: [rank5]: " + msg(1) + "\n", []want{{1, 1, 5, 1}}},
		{"srun wrapped, label on every line", "0: step 7\n2: " + strings.Replace(msg(0), "1.23 GiB is free.", "1.23\n2: GiB is free.", 1) + "\n", []want{{2, 1, 2, 0}}},
		{"pdsh host before the rank", "worker-1: [rank9]: step 7\nworker-1: [rank9]: " + msg(1) + "\n", []want{{2, 1, 9, 1}}},
		{"pdsh host before a time", "worker-1: 2024-05-01 12:00:06 " + msg(1) + "\n", []want{{1, 1, input.NoRank, 1}}},
		{"an exception name is no host", "RuntimeError: CUDA error: out of memory\n", []want{{1, 1, input.NoRank, -1}}},
		{"elastic report only", elasticReport(1, msg(1)), []want{{22, 1, 1, 1}}},
		{"rank's message, then the report quoting it", "[rank1]: " + msg(1) + "\n" + elasticReport(1, msg(1)), []want{{1, 2, 1, 1}}},
		{"after the report, no rank", elasticReport(1, msg(1)) + msg(0) + "\n", []want{{22, 1, 1, 1}, {25, 1, input.NoRank, 0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ooms := readOOMs(t, c.text)
			var got []want
			for _, o := range ooms {
				got = append(got, want{o.Line, o.Count, o.Rank, o.Device})
				if o.Requested != 2<<30 && o.Kind == "torch" {
					t.Errorf("line %d: requested %d", o.Line, o.Requested)
				}
				if o.Kind == "torch" && o.Free != int64(1.23*gibF) {
					t.Errorf("line %d: free %d", o.Line, o.Free)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got (line count rank device) %v, want %v", got, c.want)
			}
		})
	}
}

// TestOOMRankFromJSONRecord: a JSON logger's record carries the rank of
// the process that wrote it ("rank", "global_rank", or "local_rank",
// as a number or a string of digits), and its time; the OOM message in
// its text takes both.
func TestOOMRankFromJSONRecord(t *testing.T) {
	msg := "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
		"Including non-PyTorch memory, this process has 77.91 GiB memory in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, " +
		"and 2.88 GiB is reserved by PyTorch but unallocated."
	record := func(keys string) string {
		return `{"level": "INFO", ` + keys + `"msg": "step 1 loss 2.1"}` + "\n" +
			`{"level": "ERROR", ` + keys + `"msg": "training failed", "exc_info": "Traceback (most recent call last):\n  File \"/w/train.py\", line 190, in main\n    loss.backward()\n` + msg + `"}` + "\n"
	}
	cases := []struct {
		name, keys string
		rank       int
		time, note string
	}{
		{"rank", `"ts": "2024-05-01T12:00:05Z", "rank": 2, `, 2, "2024-05-01T12:00:05Z", `record's "rank" key`},
		{"global_rank before local_rank", `"local_rank": 1, "global_rank": 9, `, 9, "", `record's "global_rank" key`},
		{"rank as a string", `"rank": "3", `, 3, "", `record's "rank" key`},
		{"local_rank", `"time": "2024-05-01 12:00:05.250+02:00", "local_rank": 1, `, 1, "2024-05-01T10:00:05.25Z", "the local rank on its node"},
		{"no rank key", `"rank": null, "worker": 4, `, input.NoRank, "", ""},
		{"rank not a number", `"rank": "all", `, input.NoRank, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(record(c.keys)), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != 1 {
				t.Fatalf("%d OOMs, want 1", len(l.OOMs))
			}
			o := l.OOMs[0]
			if o.Line != 2 || o.Rank != c.rank || o.Device != 2 || o.Requested != 2<<30 || o.Free != int64(1.23*gibF) {
				t.Errorf("OOM line %d rank %d device %d requested %d free %d; want 2, %d, 2, %d, %d", o.Line, o.Rank, o.Device, o.Requested, o.Free, c.rank, int64(2<<30), int64(1.23*gibF))
			}
			got := ""
			if !o.Time.IsZero() {
				got = o.Time.UTC().Format(time.RFC3339Nano)
			}
			if got != c.time {
				t.Errorf("time %q, want %q", got, c.time)
			}
			notes := strings.Join(l.Notes, "\n")
			if c.note != "" && !strings.Contains(notes, c.note) || c.note == "" && strings.Contains(notes, "JSON logger") {
				t.Errorf("notes %q, want one containing %q", notes, c.note)
			}
		})
	}
}
