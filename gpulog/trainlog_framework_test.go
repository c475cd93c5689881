package gpulog_test

import (
	"math"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// fwReading is what a framework memory line must give.
type fwReading struct {
	Step                int64
	Time                string
	Rank                int
	Allocated, Reserved int64
	Retries, OOMs       int64
	// PeakAllocated and PeakReserved are the peaks the line prints
	// beside its current figures (0: none).
	PeakAllocated, PeakReserved int64
}

// TestFrameworkMemoryLines: the memory lines Megatron-LM, DeepSpeed,
// torchtitan and a printed memory_stats() dict write are memory_stats
// readings in each framework's own unit, at the step the line names;
// Megatron's max allocated and max reserved and DeepSpeed's Max_MA are
// the readings' peaks, never their current figures (DeepSpeed's Max_CA,
// rounded to a whole GiB, is not read).
func TestFrameworkMemoryLines(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	none := gpulog.Unknown
	tests := []trainLogCase[fwReading]{
		{
			name: "megatron, time from the iteration line above",
			log: " [2024-05-01 12:01:00] iteration       10/  500000 | consumed samples:        5120 | lm loss: 7.1E+00 |\n" +
				"[Rank 0] (after 10 iterations) memory (MB) | allocated: 1234.5 | max allocated: 2345.6 | reserved: 3000.0 | max reserved: 3000.0\n" +
				" [2024-05-01 12:02:00] iteration       20/  500000 | consumed samples:       10240 | lm loss: 7.0E+00 |\n" +
				"[Rank 3] (after 20 iterations) memory (MB) | allocated: 1434.25 | max allocated: 2545.6 | reserved: 3200.0 | max reserved: 3200.0\n" +
				// Not the same iteration: no time borrowed.
				" [2024-05-01 12:03:00] iteration       30/  500000 |\n" +
				"[Rank 0] (after 31 iterations) memory (MB) | allocated: 1.0 | max allocated: 1.0 | cached: 2.0 | max cached: 2.0\n",
			want: []fwReading{
				{10, "2024-05-01T12:01:00Z", 0, 1234*mib + mib/2, 3000 * mib, none, none, mibs(2345.6), 3000 * mib},
				{20, "2024-05-01T12:02:00Z", 3, 1434*mib + mib/4, 3200 * mib, none, none, mibs(2545.6), 3200 * mib},
				{31, "", 0, mib, 2 * mib, none, none, mib, 2 * mib},
			},
			note: "Megatron-LM",
		},
		{
			name: "deepspeed see_memory_usage, GB is GiB, step from the message above",
			log: "[2024-05-01 12:00:00,123] [INFO] [utils.py:791:see_memory_usage] After step 10\n" +
				"[2024-05-01 12:00:00,124] [INFO] [utils.py:792:see_memory_usage] MA 1.25 GB         Max_MA 3.4 GB         CA 4.0 GB         Max_CA 5 GB \n" +
				"[2024-05-01 12:00:00,125] [INFO] [utils.py:799:see_memory_usage] CPU Virtual Memory:  used = 30.5 GB, percent = 12.3%\n" +
				"[2024-05-01 12:00:01,000] [INFO] [utils.py:791:see_memory_usage] before forward\n" +
				"MA 512.5 MB         Max_MA 600 MB         CA 1024 MB         Max_CA 1024 MB \n",
			want: []fwReading{
				{10, "2024-05-01T12:00:00.124Z", input.NoRank, gib + gib/4, 4 * gib, none, none, mibs(3.4 * 1024), 0},
				{input.NoStep, "", input.NoRank, 512*mib + mib/2, gib, none, none, 600 * mib, 0},
			},
			note: "DeepSpeed",
		},
		{
			name: "torchtitan, colours and a logger name between rank and time",
			log: "[rank0]:[titan] 2024-05-01 12:00:00,000 - root - INFO - CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory\n" +
				"[rank2]:[titan] 2024-05-01 12:00:05,000 - root - INFO - \x1b[31mstep: 10  \x1b[32mloss:  7.9000  \x1b[33mmemory: 31.25GiB(39.21%)  \x1b[34mtps: 5,123\x1b[39m\n" +
				"step: 1,200 token:  1,000,000  loss:  7.9 memory: 32.50GiB tgs: 1,000\n",
			want: []fwReading{
				{10, "2024-05-01T12:00:05Z", 2, none, 31*gib + gib/4, none, none, 0, 0},
				{1200, "", input.NoRank, none, 32*gib + gib/2, none, none, 0, 0},
			},
			note: "torchtitan",
		},
		{
			name: "printed memory_stats dict and OrderedDict",
			log: "step 100: {'active_bytes.all.current': 1073741824, 'allocated_bytes.all.current': 1178599424, 'num_alloc_retries': 2, 'num_ooms': 1, 'reserved_bytes.all.current': 3221225472}\n" +
				"OrderedDict([('allocated_bytes.all.current', 1048576), ('reserved_bytes.all.current', 2097152)])\n",
			want: []fwReading{
				{100, "", input.NoRank, 1178599424, 3221225472, 2, 1, 0, 0},
				{input.NoStep, "", input.NoRank, 1048576, 2097152, none, none, 0, 0},
			},
			note: "memory_stats() dicts",
		},
		{
			name: "look-alikes give nothing",
			log: "step: 10 loss: 2.0 memory: high\n" +
				"CPU Virtual Memory:  used = 30.5 GB, percent = 12.3%\n" +
				"model memory (MB) | params: 12\n",
		},
	}
	runTrainLogCases(t, tests, func(r gpulog.MemoryStatsSample, ts string) fwReading {
		return fwReading{r.Step, ts, r.Rank, r.Allocated, r.Reserved, r.NumAllocRetries, r.NumOOMs, r.PeakAllocated, r.PeakReserved}
	})
}

// mibs is x MiB in bytes, rounded as the readers round.
func mibs(x float64) int64 { return int64(math.Round(x * (1 << 20))) }
