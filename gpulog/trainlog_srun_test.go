package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestSrunTaskLabels: a line's "N: " prefix is a rank only when the
// file's prefixes are srun task numbers (task 0 among them, or padded to
// a width another fills) and a task runs one process; a process id, a
// numbered list, or srun around torchrun (the task is a node) gives none.
func TestSrunTaskLabels(t *testing.T) {
	oom := func(gpu int) string {
		return fmt.Sprintf("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU %d has a total capacity of 79.15 GiB of which 1.23 GiB is free. "+
			"Including non-PyTorch memory, this process has 77.90 GiB memory in use. Of the allocated memory 70.12 GiB is allocated by PyTorch, "+
			"and 6.50 GiB is reserved by PyTorch but unallocated.", gpu)
	}
	label := func(prefix, text string) string {
		var b strings.Builder
		for l := range strings.Lines(text) {
			b.WriteString(prefix + l)
		}
		return b.String()
	}
	tb := func(gpu int) string {
		return "Traceback (most recent call last):\n  File \"/home/u/train.py\", line 88, in <module>\n    loss.backward()\n" + oom(gpu) + "\n"
	}
	type want struct{ line, rank, device int }
	cases := []struct {
		name string
		text string
		want []want
		// note is a part of the note that says how the labels were read
		// ("" for none).
		note string
	}{
		// C1: process ids and other numbered prefixes.
		{"pid prefix", label("48213: ", "step 1 loss 2.3\n"+tb(0)), []want{{5, input.NoRank, 0}}, "prefixes (48213) are not read"},
		{"several pids", label("48213: ", "step 1\n") + label("48214: ", tb(0)), []want{{5, input.NoRank, 0}}, "prefixes (48213 48214) are not read"},
		{"pids and a printed dict's indented key", "{0: 'cat',\n 1: 'dog'}\n" + label("48213: ", tb(0)), []want{{6, input.NoRank, 0}}, "are not read"},
		{"numbered list before an unlabelled OOM", "Model layers:\n0: Embedding(50257, 768)\n1: TransformerBlock\n3: LayerNorm\n" + tb(0), []want{{8, input.NoRank, 0}}, ""},
		// srun's labels.
		{"task 0 and task 3", label("0: ", "step 1\n") + label("3: ", tb(0)), []want{{5, 3, 0}}, "the Slurm task number"},
		{"task 0 alone", label("0: ", tb(0)), []want{{4, 0, 0}}, "the Slurm task number"},
		{"space-padded, width filled", label("12: ", "step 1\n") + label(" 3: ", tb(0)), []want{{5, 3, 0}}, "the Slurm task number"},
		{"zero-padded (old Slurm)", label("03: ", tb(0)), []want{{4, 3, 0}}, "the Slurm task number"},
		{"space-padded alone", label(" 3: ", tb(0)), []want{{4, input.NoRank, 0}}, "are not read"},
		// C2: srun around torchrun, the task is a node.
		{"task 1 names GPU 3", label("0: ", "node 0 up\n") + label("1: ", "node 1 up\n"+tb(3)), []want{{6, input.NoRank, 3}}, "names GPU 3, above its task number"},
		{"torchrun's OMP warning", label("0: ", "W0501 12:00:00.000000 139 torch/distributed/run.py:792] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default\n") +
			label("5: ", tb(3)), []want{{5, input.NoRank, 3}}, "OMP_NUM_THREADS warning"},
		{"one task, two GPUs", label("0: ", "step 1\n") + label("2: ", tb(0)+tb(1)), []want{{5, input.NoRank, 0}, {9, input.NoRank, 1}}, "task 2's messages name 2 GPUs"},
		{"torchrun local ranks behind the label", label("0: ", "[default0]:step 1\n") + label("1: ", "[default3]:"+oom(3)+"\n"), []want{{2, 3, 3}}, ""},
		{"elastic report behind the label: its global rank", label("0: ", "step 1\n") + label("1: ", elasticReport(11, oom(3))), []want{{23, 11, 3}}, ""},
		{"torchrun's [default3]: on another line", label("0: ", "step 1\n") + label("1: ", "[default3]:step 1\n") + label("5: ", tb(3)), []want{{6, input.NoRank, 3}}, "[default3]: prefix shows several processes"},
		// Without any sign of torchrun, task 5 on GPU 3 is read as rank 5:
		// the file cannot tell it from one process per GPU.
		{"node 5 on GPU 3 without torchrun's lines", label("0: ", "step 1\n") + label("5: ", tb(3)), []want{{5, 5, 3}}, "the Slurm task number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(c.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []want
			for _, o := range l.OOMs {
				got = append(got, want{o.Line, o.Rank, o.Device})
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got (line rank device) %v, want %v", got, c.want)
			}
			notes := strings.Join(l.Notes, "\n")
			if c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("no note with %q in:\n%s", c.note, notes)
			}
			if c.note == "" && (strings.Contains(notes, "srun") || strings.Contains(notes, "\"N: \"")) {
				t.Errorf("unexpected note about labels:\n%s", notes)
			}
		})
	}
}

// TestSrunTaskLabelsMemoryReadings: memory readings on labelled lines
// take the task as their rank on the same terms as OOM messages.
func TestSrunTaskLabelsMemoryReadings(t *testing.T) {
	line := func(step int) string {
		return fmt.Sprintf("2024-05-01 12:00:%02d - root - INFO - step: %d  loss:  7.9000  memory: 31.25GiB(39.21%%)  tps: 5,123\n", step, step)
	}
	for _, c := range []struct {
		name   string
		text   string
		rank   int
		labels int
	}{
		{"tasks 0 and 1", "0: " + line(10) + "1: " + line(10) + "0: " + line(20) + "1: " + line(20), -2, 2},
		{"pid prefix", "48213: " + line(10) + "48213: " + line(20), input.NoRank, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(c.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.MemoryStats) != 4-2*btoi(c.labels == 0) {
				t.Fatalf("%d readings: %+v", len(l.MemoryStats), l.MemoryStats)
			}
			for i, r := range l.MemoryStats {
				want := c.rank
				if c.labels > 0 {
					want = i % c.labels
				}
				if r.Rank != want || r.Reserved != int64(31.25*(1<<30)) {
					t.Errorf("reading %d: rank %d reserved %d, want rank %d reserved %d", i, r.Rank, r.Reserved, want, int64(31.25*(1<<30)))
				}
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
