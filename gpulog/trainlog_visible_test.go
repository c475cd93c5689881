package gpulog_test

import (
	"slices"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestVisibleDevices: a CUDA_VISIBLE_DEVICES setting a training log
// prints (a launch line, an export, an environment dump, a rank's line) is
// kept with its line and rank; a list of UUIDs, text after the name and an
// empty setting are not read, and the OOM message after it keeps its own
// "GPU 0". A per-command prefix is its command's alone: a launch line
// after it without one ends it (GPUs nil, or the exported setting), and
// a command sent to the background sets nothing.
func TestVisibleDevices(t *testing.T) {
	oom := "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.00 GiB is free.\n"
	tests := []struct {
		name string
		log  string
		want []gpulog.VisibleDevices
	}{
		{"launch line", "+ CUDA_VISIBLE_DEVICES=3 python train.py --bs 64\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: input.NoRank, GPUs: []int{3}}}},
		{"export of a list", "export CUDA_VISIBLE_DEVICES=\"2,3\"\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: input.NoRank, GPUs: []int{2, 3}}}},
		{"environment dump", "env: {'HOME': '/root', 'CUDA_VISIBLE_DEVICES': '5, 6', 'PATH': '/usr/bin'}\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: input.NoRank, GPUs: []int{5, 6}}}},
		{"a rank's line", "[rank1]: CUDA_VISIBLE_DEVICES: 7\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: 1, GPUs: []int{7}}}},
		{"a bare assignment kept by the shell", "+ CUDA_VISIBLE_DEVICES=4\n+ python train.py\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: input.NoRank, GPUs: []int{4}}}},
		// set -x traces a per-command prefix: it is that command's alone.
		{"a background server's prefix, then the job", "+ export HF_HOME=/scratch/hf\n+ CUDA_VISIBLE_DEVICES=7 nohup python -m vllm.entrypoints.openai.api_server --port 8001\n+ sleep 60\n+ torchrun --standalone --nproc_per_node 4 train.py\n" + oom, nil},
		{"a server sent to the background with &", "CUDA_VISIBLE_DEVICES=6 python -m sglang.launch_server --port 30000 &\n" + oom, nil},
		{"a prefixed command, then a launch without it", "+ CUDA_VISIBLE_DEVICES=7 python prepare_eval.py\n+ python train.py --bs 8\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: input.NoRank, GPUs: []int{7}}, {Line: 2, Rank: input.NoRank}}},
		{"an export outlives a prefixed command", "export CUDA_VISIBLE_DEVICES=2,3\n+ CUDA_VISIBLE_DEVICES=5 python warmup.py\n+ torchrun --nproc_per_node 2 train.py\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: input.NoRank, GPUs: []int{2, 3}}, {Line: 2, Rank: input.NoRank, GPUs: []int{5}}, {Line: 3, Rank: input.NoRank, GPUs: []int{2, 3}}}},
		{"a launch after the export changes nothing", "export CUDA_VISIBLE_DEVICES=1\n+ deepspeed train.py\n" + oom,
			[]gpulog.VisibleDevices{{Line: 1, Rank: input.NoRank, GPUs: []int{1}}}},
		{"UUIDs, text and nothing", "CUDA_VISIBLE_DEVICES=GPU-5f1e2a3b-1111-2222-3333-444455556666\nCUDA_VISIBLE_DEVICES is not set\nCUDA_VISIBLE_DEVICES=\nCUDA_VISIBLE_DEVICES=3abc\n" + oom, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(l.VisibleDevices, tc.want, func(a, b gpulog.VisibleDevices) bool {
				return a.Line == b.Line && a.Rank == b.Rank && slices.Equal(a.GPUs, b.GPUs)
			}) {
				t.Errorf("VisibleDevices %+v, want %+v", l.VisibleDevices, tc.want)
			}
			if len(l.OOMs) != 1 || l.OOMs[0].Device != 0 {
				t.Errorf("OOMs %+v, want one on GPU 0", l.OOMs)
			}
		})
	}
}
