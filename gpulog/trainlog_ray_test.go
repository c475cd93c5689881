package gpulog_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
)

// rayTable is the TorchTrainer's table of its two workers.
const rayTable = "(TorchTrainer pid=1138, ip=10.0.0.1) Started distributed worker processes: \n" +
	"(TorchTrainer pid=1138, ip=10.0.0.1) - (node_id=3ea81f, ip=10.0.0.1, pid=1193) world_rank=0, local_rank=0, node_rank=0\n" +
	"(TorchTrainer pid=1138, ip=10.0.0.1) - (node_id=9bd1c2, ip=10.0.0.2, pid=877) world_rank=1, local_rank=0, node_rank=1\n"

const rayOOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.10 GiB is free. " +
	"Including non-PyTorch memory, this process has 78.04 GiB memory in use. Of the allocated memory 76.90 GiB is allocated by PyTorch, and 0.62 GiB is reserved by PyTorch but unallocated.\n"

// rayChain is the driver's RayTaskError chain ending in worker pid's
// exception, with frames lines of traceback between.
func rayChain(pid, ip string, frames int) string {
	return "2024-03-08 10:05:12,001\tERROR tune_controller.py:1331 -- Trial task failed for trial TorchTrainer_5b1c2_00000\nTraceback (most recent call last):\n" +
		"ray.exceptions.RayTaskError(OutOfMemoryError): \x1b[36mray::_Inner.train()\x1b[39m (pid=1138, ip=10.0.0.1, actor_id=36b6, repr=TorchTrainer)\n" +
		"ray.exceptions.RayTaskError(OutOfMemoryError): \x1b[36mray::_RayTrainWorker__execute.get_next()\x1b[39m (pid=" + pid + ", ip=" + ip +
		", actor_id=b2ba, repr=<ray.train._internal.worker_group.RayTrainWorker object at 0x7b8aac2e25c0>)\n" +
		strings.Repeat("  File \"/workspace/train.py\", line 188, in main\n", frames) + rayOOM
}

// TestRayWorkerRanks: an OOM message of a Ray Train worker, by its
// forwarded prefix or the RayTaskError link above its traceback, gets the
// world rank the TorchTrainer's table gives its pid and host; otherwise
// its rank stays unknown.
func TestRayWorkerRanks(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want int
	}{
		{"chain link names the worker", rayTable + rayChain("877", "10.0.0.2", 3), 1},
		{"forwarded worker output", rayTable + "(RayTrainWorker pid=1193, ip=10.0.0.1) " + rayOOM, 0},
		{"no table", rayChain("877", "10.0.0.2", 3), input.NoRank},
		{"pid on another host", rayTable + rayChain("877", "10.0.0.9", 3), input.NoRank},
		{"pid not listed", rayTable + "(RayTrainWorker pid=4242, ip=10.0.0.1) " + rayOOM, input.NoRank},
		{"link too far above", rayTable + rayChain("877", "10.0.0.2", 80), input.NoRank},
		{"trainer's own link only", rayTable + strings.Replace(rayChain("877", "10.0.0.2", 1), "RayTrainWorker object", "Other object", 1), input.NoRank},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != 1 {
				t.Fatalf("%d OOMs, want 1", len(l.OOMs))
			}
			if got := l.OOMs[0].Rank; got != tc.want {
				t.Errorf("rank %d, want %d", got, tc.want)
			}
			noted := strings.Contains(strings.Join(l.Notes, "\n"), "Ray Train")
			if noted != (tc.want != input.NoRank) {
				t.Errorf("notes %q", l.Notes)
			}
		})
	}
}

// FuzzRayWorkerRanks: the Ray table and chains never make the reader
// panic, and a rank given is one the table lists.
func FuzzRayWorkerRanks(f *testing.F) {
	f.Add([]byte(rayTable + rayChain("877", "10.0.0.2", 3)))
	f.Add([]byte(rayTable + "(RayTrainWorker pid=99999999999999999999) " + rayOOM))
	f.Add([]byte("- (node_id=ab, ip=1.2.3.4, pid=5) world_rank=99999999999999999999\n(RayTrainWorker pid=5, ip=1.2.3.4) " + rayOOM))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC})
		if err != nil {
			return
		}
		for _, o := range l.OOMs {
			if o.Rank != input.NoRank && o.Rank < 0 {
				t.Fatalf("OOM rank %d", o.Rank)
			}
		}
	})
}
