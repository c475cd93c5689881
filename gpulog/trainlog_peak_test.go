package gpulog_test

import (
	"math"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// peakReading is what a toolkit's progress line must give.
type peakReading struct {
	Step                        int64
	Time                        string
	Rank                        int
	Allocated, Reserved         int64
	PeakAllocated, PeakReserved int64
	// SinceStart is the reading's PeakSinceStart: a peak never reset.
	SinceStart bool
}

// TestPeakMemoryLines: the progress lines of MMEngine, MMCV 1.x,
// detectron2 and torchvision's reference scripts give
// torch.cuda.max_memory_allocated() in MiB, read as the reading's peak
// (never as its current allocated memory) at the run's step; detectron2's
// TorchMemoryStats line is a whole reading with its peaks.
func TestPeakMemoryLines(t *testing.T) {
	const mib = 1 << 20
	none := gpulog.Unknown
	noRank := input.NoRank
	tests := []trainLogCase[peakReading]{
		{
			name: "mmengine by epoch and by iteration; val lines passed over",
			log: "2024/05/01 12:00:00 - mmengine - INFO - Epoch(train)  [1][  50/1000]  base_lr: 2.0000e-02 lr: 2.0000e-02  eta: 1:02:03  time: 0.4012  data_time: 0.0123  memory: 3456  grad_norm: 3.2  loss: 1.2345\n" +
				"2024/05/01 12:10:00 - mmengine - INFO - Epoch(train) [12][1000/1000]  lr: 2.0000e-02  eta: 0:00:00  time: 0.4012  data_time: 0.0123  memory: 3500  loss: 1.2\n" +
				"2024/05/01 12:11:00 - mmengine - INFO - Epoch(val)  [12][ 50/500]    eta: 0:00:10  time: 0.1  data_time: 0.01  memory: 900\n" +
				"2024/05/01 12:12:00 - mmengine - INFO - Iter(train) [   50/90000]  lr: 2.0000e-02  eta: 10:00:00  time: 0.4  data_time: 0.01  memory: 4000  loss: 1.0\n" +
				// Console format: month and day only, no time read.
				"05/01 12:13:00 - mmengine - INFO - Iter(train) [  100/90000]  lr: 2.0000e-02  memory: 4001\n",
			want: []peakReading{
				{50, "2024-05-01T12:00:00Z", noRank, none, none, 3456 * mib, 0, false},
				{12000, "2024-05-01T12:10:00Z", noRank, none, none, 3500 * mib, 0, false},
				{50, "2024-05-01T12:12:00Z", noRank, none, none, 4000 * mib, 0, false},
				{100, "", noRank, none, none, 4001 * mib, 0, false},
			},
			note: "MMEngine",
		},
		{
			name: "mmcv 1.x text logger",
			log: "2022-05-01 12:00:00,123 - mmdet - INFO - Epoch [1][50/7330]\tlr: 2.000e-02, eta: 1 day, 0:00:00, time: 0.500, data_time: 0.050, memory: 3456, loss_rpn_cls: 0.5, loss: 1.2\n" +
				"2022-05-01 12:30:00,123 - mmdet - INFO - Epoch [2][100/7330]\tlr: 2.000e-02, eta: 1 day, 0:00:00, time: 0.500, data_time: 0.050, memory: 3460, loss: 1.1\n" +
				"2022-05-01 12:31:00,123 - mmdet - INFO - Epoch(val) [2][500]\tbbox_mAP: 0.3\n" +
				"2022-05-01 12:32:00,123 - mmseg - INFO - Iter [16000/160000]\tlr: 9.000e-03, eta: 9:00:00, time: 0.300, data_time: 0.010, memory: 5000, decode.loss_ce: 0.3\n",
			want: []peakReading{
				{50, "2022-05-01T12:00:00.123Z", noRank, none, none, 3456 * mib, 0, true},
				{7430, "2022-05-01T12:30:00.123Z", noRank, none, none, 3460 * mib, 0, true},
				{16000, "2022-05-01T12:32:00.123Z", noRank, none, none, 5000 * mib, 0, true},
			},
			note: "MMCV 1.x",
		},
		{
			name: "detectron2 metric printer and TorchMemoryStats",
			log: "[05/01 12:00:00 d2.utils.events]:  eta: 0:10:00  iter: 19  total_loss: 1.2  loss_cls: 0.4  time: 0.4012  last_time: 0.4  data_time: 0.0123  last_data_time: 0.01   lr: 0.0002  max_mem: 2345M\n" +
				"[rank3]: [05/01 12:01:00 d2.utils.events]:  eta: 0:09:00  iter: 39  total_loss: 1.1  time: 0.4012  data_time: 0.0123   lr: 0.0004  max_mem: 2400M\n" +
				"[05/01 12:02:00 d2.engine.hooks]:  iter: 59  max_reserved_mem: 3000MB  reserved_mem: 2900MB  max_allocated_mem: 2450MB  allocated_mem: 1200MB \n",
			want: []peakReading{
				{19, "", noRank, none, none, 2345 * mib, 0, true},
				{39, "", 3, none, none, 2400 * mib, 0, true},
				{59, "", noRank, 1200 * mib, 2900 * mib, 2450 * mib, 3000 * mib, false},
			},
			note: "detectron2",
		},
		{
			name: "torchvision MetricLogger, epoch bracket is no rank, test lines passed over",
			log: "Epoch: [0]  [   0/5005]  eta: 1:00:00  lr: 0.1  img/s: 800.0  loss: 6.9 (6.9)  acc1: 0.1 (0.1)  time: 0.3  data: 0.1  max mem: 1234\n" +
				"Epoch: [2]\t[ 100/5005]\teta: 0:30:00\tloss: 6.0 (6.2)\ttime: 0.3\tdata: 0.1\tmax mem: 1300\n" +
				"Test:  [  0/196]  eta: 0:01:00  loss: 6.9  time: 0.3  data: 0.1  max mem: 2000\n" +
				"[rank1]: Epoch: [3]  [  10/5005]  eta: 0:30:00  loss: 6.0  time: 0.3  data: 0.1  max mem: 1310\n",
			want: []peakReading{
				{0, "", noRank, none, none, 1234 * mib, 0, true},
				{10110, "", noRank, none, none, 1300 * mib, 0, true},
				{15025, "", 1, none, none, 1310 * mib, 0, true},
			},
			note: "MetricLogger",
		},
		{
			name: "fairseq gb_free against the total of its CUDA environment line",
			log: "2021-05-04 12:00:00 | INFO | fairseq.utils | ***********************CUDA enviroments for all 2 workers***********************\n" +
				"2021-05-04 12:00:00 | INFO | fairseq.utils | rank   0: capabilities =  7.0  ; total memory = 31.749 GB ; name = Tesla V100-SXM2-32GB                    \n" +
				"2021-05-04 12:00:00 | INFO | fairseq.utils | rank   1: capabilities =  7.0  ; total memory = 15.782 GB ; name = Tesla V100-SXM2-16GB                    \n" +
				"2021-05-04 12:00:07 | INFO | train_inner | epoch 001:    100 / 4000 loss=9.1, nll_loss=8.9, ppl=478, wps=21034, ups=2.1, wpb=9987, bsz=320, num_updates=100, lr=1e-05, gnorm=2.1, train_wall=47, gb_free=6.2, wall=50\n" +
				"2021-05-04 12:30:00 | INFO | train | epoch 001 | loss 9.1 | nll_loss 8.9 | ppl 478 | wps 21034 | ups 2.1 | wpb 9987 | bsz 320 | num_updates 4000 | lr 1e-05 | gnorm 2.1 | train_wall 1880 | gb_free 5.7 | wall 2000\n" +
				`{"epoch": 2, "update": 1.025, "loss": "9.0", "num_updates": "4100", "lr": "1e-05", "gb_free": "5.5", "wall": "2050"}` + "\n",
			want: []peakReading{
				{100, "2021-05-04T12:00:07Z", noRank, none, none, fairseqPeak(31.749, 6.2), 0, false},
				{4000, "2021-05-04T12:30:00Z", noRank, none, none, fairseqPeak(31.749, 5.7), 0, false},
				{4100, "", noRank, none, none, fairseqPeak(31.749, 5.5), 0, false},
			},
			note: "fairseq",
		},
		{
			name: "fairseq gb_free without a total, or of a TPU, gives nothing",
			log: "2021-05-04 12:00:07 | INFO | train_inner | epoch 001:    100 / 4000 loss=9.1, num_updates=100, gb_free=6.2, wall=50\n" +
				"2021-05-04 12:00:00 | INFO | fairseq.utils | rank   0: capabilities =  7.0  ; total memory = 31.749 GB ; name = Tesla V100-SXM2-32GB\n" +
				"2021-05-04 12:00:07 | INFO | train_inner | epoch 001:    100 / 4000 loss=9.1, num_updates=100, gb_free=6.2, gb_total=16.0, wall=50\n" +
				"2021-05-04 12:00:08 | INFO | train_inner | epoch 001:    100 / 4000 loss=9.1, num_updates=100, gb_free=99.0, wall=50\n",
		},
		{
			name: "look-alikes, a GPU_mem line without its header and a print without a step or time give nothing",
			log: "10:00:01 - INFO - GPU memory allocated: 12.50 GB, reserved: 16.50 GB\n" +
				"      1/100      4.38G     0.04    0.02    0.01    26    640: 100%|██████████| 15/15\n" +
				"Epoch(train) [1][50/100]  memory: 0  loss: 1\n" +
				"Epoch: [0]  [ 0/10]  max mem: 12.5\n" +
				"iter: 19  max_mem: 2345MB\n" +
				"Epoch [1][50/100]\tmemory: 99999999999999999999, loss: 1\n" +
				"memory: 1234  loss: 1\n",
		},
	}
	runTrainLogCases(t, tests, func(r gpulog.MemoryStatsSample, ts string) peakReading {
		return peakReading{r.Step, ts, r.Rank, r.Allocated, r.Reserved, r.PeakAllocated, r.PeakReserved, r.PeakSinceStart}
	})
}

// fairseqPeak is the peak a total and a gb_free (both GiB) give, each
// rounded to bytes as the reader rounds them.
func fairseqPeak(total, free float64) int64 {
	return int64(math.Round(total*(1<<30))) - int64(math.Round(free*(1<<30)))
}
