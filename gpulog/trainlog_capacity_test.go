package gpulog_test

import (
	"math"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// TestTorchtitanCapacity: torchtitan's capacity line at start is kept as
// the device's capacity, with its rank, its index when printed, and the
// precision of its two decimals; it is no reading.
func TestTorchtitanCapacity(t *testing.T) {
	const gib = 1 << 30
	step := "[rank0]:[titan] 2024-05-01 12:00:05,000 - root - INFO - step: 10  loss:  7.9000  memory: 31.25GiB(39.50%)  tps: 5,123\n"
	tests := []struct {
		name string
		log  string
		want []gpulog.DeviceCapacity
	}{
		{
			name: "current wording, per rank",
			log: "[rank0]:[titan] 2024-05-01 12:00:00,000 - root - INFO - CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory\n" +
				"[rank1]:[titan] 2024-05-01 12:00:00,001 - root - INFO - \x1b[32mCUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory\x1b[39m\n" + step,
			want: []gpulog.DeviceCapacity{
				{Line: 1, Rank: 0, Device: -1, Name: "NVIDIA H100 80GB HBM3", Type: "cuda", Total: titanGiB(79.11), Precision: 5 * gib / 1000, Framework: "torchtitan"},
				{Line: 2, Rank: 1, Device: -1, Name: "NVIDIA H100 80GB HBM3", Type: "cuda", Total: titanGiB(79.11), Precision: 5 * gib / 1000, Framework: "torchtitan"},
			},
		},
		{
			name: "older wording with the device index",
			log:  "2024-05-01 12:00:00,000 - root - INFO - GPU capacity: NVIDIA A100-SXM4-80GB (3) with 79.15GiB memory\n" + step,
			want: []gpulog.DeviceCapacity{
				{Line: 1, Rank: -1, Device: 3, Name: "NVIDIA A100-SXM4-80GB", Type: "cuda", Total: titanGiB(79.15), Precision: 5 * gib / 1000, Framework: "torchtitan"},
			},
		},
		{
			name: "the device type the prefix names",
			log: "[rank0]:[titan] 2025-03-01 09:00:00,000 - root - INFO - XPU capacity: Intel(R) Data Center GPU Max 1550 with 63.98GiB memory\n" +
				"[rank1]:[titan] 2025-03-01 09:00:00,001 - root - INFO - ROCM capacity: AMD Instinct MI300X with 191.98GiB memory\n" + step,
			want: []gpulog.DeviceCapacity{
				{Line: 1, Rank: 0, Device: -1, Name: "Intel(R) Data Center GPU Max 1550", Type: "xpu", Total: titanGiB(63.98), Precision: 5 * gib / 1000, Framework: "torchtitan"},
				{Line: 2, Rank: 1, Device: -1, Name: "AMD Instinct MI300X", Type: "cuda", Total: titanGiB(191.98), Precision: 5 * gib / 1000, Framework: "torchtitan"},
			},
		},
		{
			name: "other text with capacity is not read",
			log:  "disk capacity: 2 TB with 1.5GiB memory\nCUDA capacity: with GiB memory\n" + step,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Capacities) != len(tc.want) {
				t.Fatalf("Capacities %+v, want %+v", l.Capacities, tc.want)
			}
			for i, w := range tc.want {
				if l.Capacities[i] != w {
					t.Errorf("capacity %d: %+v, want %+v", i, l.Capacities[i], w)
				}
			}
			if len(l.MemoryStats) != 1 {
				t.Errorf("%d memory_stats readings, want the step line's only", len(l.MemoryStats))
			}
		})
	}
}

// titanGiB is x GiB in bytes, rounded.
func titanGiB(x float64) int64 { return int64(math.Round(x * (1 << 30))) }

// TestFairseqCapacity: fairseq's CUDA environment lines give each
// worker's device total (GiB, printed "GB", to three decimals), kept as
// the capacity of that rank's device; they are no reading.
func TestFairseqCapacity(t *testing.T) {
	log := "2021-05-04 12:00:00 | INFO | fairseq.utils | ***********************CUDA enviroments for all 2 workers***********************\n" +
		"2021-05-04 12:00:00 | INFO | fairseq.utils | rank   0: capabilities =  8.0  ; total memory = 79.151 GB ; name = NVIDIA A100-SXM4-80GB                   \n" +
		"2021-05-04 12:00:00 | INFO | fairseq.utils | rank  12: capabilities =  9.0  ; total memory = 79.109 GB ; name = NVIDIA H100 80GB HBM3\n" +
		"rank 3: capabilities = high ; total memory = 12 GB ; name = x\n" +
		"2021-05-04 12:00:07 | INFO | train_inner | epoch 001:    100 / 4000 loss=9.1, num_updates=100, gb_free=6.2, wall=50\n"
	l, err := gpulog.ReadLog(strings.NewReader(log), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const prec = (1 << 30) / 2000
	want := []gpulog.DeviceCapacity{
		{Line: 2, Rank: 0, Device: -1, Name: "NVIDIA A100-SXM4-80GB", Type: "cuda", Total: titanGiB(79.151), Precision: prec, Framework: "fairseq"},
		{Line: 3, Rank: 12, Device: -1, Name: "NVIDIA H100 80GB HBM3", Type: "cuda", Total: titanGiB(79.109), Precision: prec, Framework: "fairseq"},
	}
	if len(l.Capacities) != len(want) {
		t.Fatalf("Capacities %+v, want %+v", l.Capacities, want)
	}
	for i, w := range want {
		if l.Capacities[i] != w {
			t.Errorf("capacity %d: %+v, want %+v", i, l.Capacities[i], w)
		}
	}
	if len(l.MemoryStats) != 1 {
		t.Errorf("%d memory_stats readings, want the gb_free line's only", len(l.MemoryStats))
	}
}
