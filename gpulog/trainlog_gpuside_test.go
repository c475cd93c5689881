package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// smiTableOf is nvidia-smi's table of one GPU using used of total MiB, as a
// job script's "+ nvidia-smi" prints it.
func smiTableOf(used, total int) string {
	return "+ nvidia-smi\nWed May  1 12:00:00 2024\n" +
		"+-----------------------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |\n" +
		"|-----------------------------------------+------------------------+----------------------+\n" +
		"| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n" +
		"|                                         |                        |               MIG M. |\n" +
		"|=========================================+========================+======================|\n" +
		"|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |\n" +
		fmt.Sprintf("| N/A   30C    P0             70W /  700W |  %6dMiB / %6dMiB |      0%%      Default |\n", used, total) +
		"|                                         |                        |             Disabled |\n" +
		"+-----------------------------------------+------------------------+----------------------+\n"
}

// TestTrainingLogKeepsGPUOutput: a file read as a training log keeps the
// GPU readings of the nvidia-smi output in it (a table, a query CSV
// block), beside its memory lines; other box tables and "|" lines are
// no GPU output.
func TestTrainingLogKeepsGPUOutput(t *testing.T) {
	const mib = int64(1) << 20
	var megatron strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&megatron, " [2024-05-01 12:%02d:00] iteration %8d/  500000 | consumed samples: %11d | lm loss: 2.3E+00 |\n", i, 10*i, 5120*i)
		fmt.Fprintf(&megatron, "[Rank 0] (after %d iterations) memory (MB) | allocated: %.1f | max allocated: 2345.6 | reserved: 3000.0 | max reserved: 3000.0\n", 10*i, 1234.5+100*float64(i))
	}
	type sample struct {
		gpu         int
		used, total int64
	}
	cases := []struct {
		name    string
		text    string
		samples []sample
		stats   int
	}{
		{"smi table then Megatron lines", smiTableOf(1, 81559) + "+ torchrun --nproc_per_node=1 train.py\n" + megatron.String(),
			[]sample{{0, 1 * mib, 81559 * mib}}, 12},
		{"two tables around the memory lines", smiTableOf(1, 81559) + megatron.String() + smiTableOf(40960, 81559),
			[]sample{{0, 1 * mib, 81559 * mib}, {0, 40960 * mib, 81559 * mib}}, 12},
		{"query CSV block then Megatron lines", "+ nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv\nindex, memory.used [MiB], memory.total [MiB]\n0, 512 MiB, 40960 MiB\n1, 1024 MiB, 40960 MiB\n" + megatron.String(),
			[]sample{{0, 512 * mib, 40960 * mib}, {1, 1024 * mib, 40960 * mib}}, 12},
		// No GPU output: memory_summary()'s box, a model summary's "|"
		// table, Megatron's own "|" lines.
		{"Megatron lines only", megatron.String(), nil, 12},
		{"memory_summary box", "step 100 | loss 2.0\n" + memorySummary("", 0, "1000 MiB", "4096 MiB", 0, 0), nil, 1},
		{"lightning model summary", "  | Name  | Type   | Params | Mode \n----------------------------------------\n0 | model | GPT    | 124 M  | train\n" + megatron.String(), nil, 12},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(c.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []sample
			for _, s := range l.Samples {
				got = append(got, sample{s.GPU, s.MemoryUsed, s.MemoryTotal})
			}
			if fmt.Sprint(got) != fmt.Sprint(c.samples) {
				t.Errorf("GPU readings (gpu used total) %v, want %v", got, c.samples)
			}
			if len(l.MemoryStats) != c.stats {
				t.Errorf("%d memory readings, want %d", len(l.MemoryStats), c.stats)
			}
			noted := strings.Contains(strings.Join(l.Notes, "\n"), "also holds nvidia-smi output")
			if noted != (len(c.samples) > 0) {
				t.Errorf("note of the nvidia-smi output: %v, want %v (notes %q)", noted, len(c.samples) > 0, l.Notes)
			}
			if len(c.samples) > 0 && (l.SkippedLines != 0 || len(l.GPUs) == 0) {
				t.Errorf("skipped %d lines, %d GPUs: the training lines are no GPU log's problem", l.SkippedLines, len(l.GPUs))
			}
		})
	}
}
