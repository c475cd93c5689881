package gpulog_test

import (
	"strings"
	"testing"

	"gpureport/gpulog"
)

// hfOOM is an OOM message that makes a Trainer's log a training log.
const hfOOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. " +
	"Of the allocated memory 70.00 GiB is allocated by PyTorch, and 5.00 GiB is reserved by PyTorch but unallocated.\n"

// TestHFTrainerMemory: Hugging Face Trainer's memory metrics are read as
// deltas (TrainerMemory), never as readings; the dict's bytes and the
// block's MiB of one stage are one entry; the notes say what they give.
func TestHFTrainerMemory(t *testing.T) {
	const mib = 1 << 20
	dict := "{'train_runtime': 62.5, 'train_samples_per_second': 12.8, 'train_steps_per_second': 0.8, 'total_flos': 1.2e15, " +
		"'train_loss': 1.93, 'init_mem_cpu_alloc_delta': 1364283392, 'init_mem_gpu_alloc_delta': 241172480, " +
		"'init_mem_cpu_peaked_delta': 161480704, 'init_mem_gpu_peaked_delta': 0, 'before_init_mem_cpu': 1034158080, " +
		"'before_init_mem_gpu': 536870912, 'train_mem_cpu_alloc_delta': 1410334720, 'train_mem_gpu_alloc_delta': 726663168, " +
		"'train_mem_cpu_peaked_delta': 0, 'train_mem_gpu_peaked_delta': 7596933120, 'epoch': 3.0}\n"
	block := "[INFO|trainer_pt_utils.py:1030] 2024-05-01 12:10:00,000 >> ***** train metrics *****\n" +
		"[INFO|trainer_pt_utils.py:1030] 2024-05-01 12:10:00,000 >>   before_init_mem_gpu        =      512MB\n" +
		"[INFO|trainer_pt_utils.py:1030] 2024-05-01 12:10:00,000 >>   epoch                      =        3.0\n" +
		"[INFO|trainer_pt_utils.py:1030] 2024-05-01 12:10:00,000 >>   init_mem_gpu_alloc_delta   =      230MB\n" +
		"[INFO|trainer_pt_utils.py:1030] 2024-05-01 12:10:00,000 >>   init_mem_gpu_peaked_delta  =        0MB\n" +
		"[INFO|trainer_pt_utils.py:1030] 2024-05-01 12:10:00,000 >>   train_mem_gpu_alloc_delta  =      693MB\n" +
		"[INFO|trainer_pt_utils.py:1030] 2024-05-01 12:10:00,000 >>   train_mem_gpu_peaked_delta =     7245MB\n"
	blockOnly := strings.NewReplacer("512MB", "512MB", "693MB", "-12MB").Replace(block)
	tests := []struct {
		name  string
		log   string
		want  []gpulog.TrainerMemory
		notes []string
	}{
		{
			name: "dict and block of one run",
			log:  dict + block + hfOOM,
			want: []gpulog.TrainerMemory{
				{Line: 1, Rank: -1, Stage: "init", Begin: 512 * mib, AllocDelta: 230 * mib, PeakedDelta: 0, Unit: 1},
				{Line: 1, Rank: -1, Stage: "train", Begin: gpulog.Unknown, AllocDelta: 726663168, PeakedDelta: 7596933120, Unit: 1},
			},
			notes: []string{"not levels", "train stage (line 1): its peak allocated memory rose 7.75 GiB above its start",
				"init stage (line 1): its peak allocated memory rose 230 MiB above its start, to 742 MiB"},
		},
		{
			name: "block alone, a negative delta",
			log:  hfOOM + blockOnly,
			want: []gpulog.TrainerMemory{
				{Line: 3, Rank: -1, Stage: "init", Begin: 512 * mib, AllocDelta: 230 * mib, PeakedDelta: 0, Unit: mib},
				{Line: 7, Rank: -1, Stage: "train", Begin: gpulog.Unknown, AllocDelta: -12 * mib, PeakedDelta: 7245 * mib, Unit: mib},
			},
			notes: []string{"train stage (line 7): its peak allocated memory rose 7.06 GiB above its start"},
		},
		{
			name: "two evaluations are two entries",
			log:  "{'eval_loss': 2.1, 'eval_mem_gpu_alloc_delta': 0, 'eval_mem_gpu_peaked_delta': 1048576}\n{'eval_loss': 2.0, 'eval_mem_gpu_alloc_delta': 0, 'eval_mem_gpu_peaked_delta': 2097152}\n" + hfOOM,
			want: []gpulog.TrainerMemory{
				{Line: 1, Rank: -1, Stage: "eval", Begin: gpulog.Unknown, AllocDelta: 0, PeakedDelta: 1 * mib, Unit: 1},
				{Line: 2, Rank: -1, Stage: "eval", Begin: gpulog.Unknown, AllocDelta: 0, PeakedDelta: 2 * mib, Unit: 1},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Samples)+len(l.MemoryStats) != 0 {
				t.Errorf("deltas read as levels: %d samples, %d memory_stats", len(l.Samples), len(l.MemoryStats))
			}
			if len(l.TrainerMemory) != len(tc.want) {
				t.Fatalf("TrainerMemory %+v, want %+v", l.TrainerMemory, tc.want)
			}
			for i, w := range tc.want {
				if l.TrainerMemory[i] != w {
					t.Errorf("entry %d: %+v, want %+v", i, l.TrainerMemory[i], w)
				}
			}
			all := strings.Join(l.Notes, "\n")
			for _, n := range tc.notes {
				if !strings.Contains(all, n) {
					t.Errorf("notes %q lack %q", l.Notes, n)
				}
			}
		})
	}
}

// TestHFMetricsAlone: a log whose only memory content is the Trainer's
// metrics (no OOM, no memory line) is claimed as a training log and read,
// its stages kept and noted, never an error of "no readings".
func TestHFMetricsAlone(t *testing.T) {
	for _, log := range []string{
		"{'train_runtime': 612.5, 'epoch': 1.0, 'init_mem_gpu_alloc_delta': 14495514624, 'init_mem_gpu_peaked_delta': 0, " +
			"'train_mem_gpu_alloc_delta': 7000000000, 'train_mem_gpu_peaked_delta': 12000000000, 'before_init_mem_gpu': 0}\n",
		"[INFO|trainer.py:2048] >> ***** Running training *****\n***** train metrics *****\n  before_init_mem_gpu        =        0MB\n" +
			"  init_mem_gpu_alloc_delta   =    13824MB\n  train_mem_gpu_alloc_delta  =     6675MB\n  train_mem_gpu_peaked_delta =    11444MB\n",
	} {
		if !gpulog.SniffTrainingLog(strings.NewReader(log), []byte(log)) {
			t.Errorf("not claimed as a training log:\n%s", log)
		}
		l, err := gpulog.ReadLog(strings.NewReader(log), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if len(l.TrainerMemory) != 2 {
			t.Errorf("TrainerMemory %+v, want the init and train stages", l.TrainerMemory)
		}
	}
}
