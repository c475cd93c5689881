package gpulog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestHandwrittenMemoryPrints: a script's own print of allocated and
// reserved memory is read when it names GPU memory and has a step or a
// time; units as written (GB as 10^9, with a note of the ambiguity), a
// bare count as bytes only under torch.cuda's function name.
func TestHandwrittenMemoryPrints(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	none := gpulog.Unknown
	type reading struct {
		Step                        int64
		Time                        string
		Rank, Device                int
		Allocated, Reserved         int64
		PeakAllocated, PeakReserved int64
	}
	tests := []struct {
		name    string
		log     string
		want    []reading
		note    string
		notNote string
	}{
		{
			name: "GiB and bytes are exact",
			log: "2024-05-01 12:00:00 INFO step 100 | GPU memory allocated: 12.50 GiB | reserved: 14.00 GiB | max allocated: 13.00 GiB\n" +
				"[rank1]: step 7 torch.cuda.memory_allocated: 13421772800 torch.cuda.memory_reserved()=15032385536\n" +
				"step 8 cuda:1 memory_allocated=1048576\n",
			want: []reading{
				{100, "2024-05-01T12:00:00Z", input.NoRank, 0, 12.5 * gib, 14 * gib, 13 * gib, 0},
				{7, "", 1, 0, 13421772800, 15032385536, 0, 0},
				{8, "", input.NoRank, 1, mib, none, 0, 0},
			},
			note:    "hand-written GPU memory prints",
			notNote: "ambiguous",
		},
		{
			name: "GB read as written, with a note",
			log: "Epoch 1 step 10 GPU mem allocated: 2.5 GB, reserved: 3000 MB\n" +
				"2024-05-01 12:00:00 GPU 3 Allocated: 1.5GB\n" +
				"10:00:00 - INFO - step 200 loss 2.000\n" +
				"10:00:01 - INFO - GPU memory allocated: 12.00 GB, reserved: 16.00 GB\n",
			want: []reading{
				{10, "", input.NoRank, 0, 2_500_000_000, 3_000_000_000, 0, 0},
				{input.NoStep, "2024-05-01T12:00:00Z", input.NoRank, 3, 1_500_000_000, none, 0, 0},
				{200, "", input.NoRank, 0, 12_000_000_000, 16_000_000_000, 0, 0},
			},
			note: "in 3 lines the unit is ambiguous: GB and MB read as written",
		},
		{
			name: "realistic prints of GPU memory",
			log: "step 5 GPU mem: allocated=12.3GB reserved=14.0GB\n" +
				"[step 100] cuda memory allocated: 12.50 GiB\n" +
				"step 7 torch.cuda.memory_allocated: 13421772800\n" +
				"step 8 | loss 2.5 | GPU memory allocated: 2 GiB | RAM used: 30 GB\n",
			want: []reading{
				{5, "", input.NoRank, 0, 12_300_000_000, 14_000_000_000, 0, 0},
				{100, "", input.NoRank, 0, 12.5 * gib, none, 0, 0},
				{7, "", input.NoRank, 0, 13421772800, none, 0, 0},
				{8, "", input.NoRank, 0, 2 * gib, none, 0, 0},
			},
			note: "hand-written GPU memory prints",
		},
		{
			// The count before each print restarts every epoch: the
			// epoch and its length give the step.
			name: "prints after a per-epoch count",
			log:  "epoch 0 iter 90/100 loss 2\nGPU memory allocated: 12 GiB\nepoch 1 iter 90/100 loss 2\nGPU memory allocated: 13 GiB\n",
			want: []reading{
				{90, "", input.NoRank, 0, 12 * gib, none, 0, 0},
				{190, "", input.NoRank, 0, 13 * gib, none, 0, 0},
			},
			note: "placed at step E*N+i",
		},
		{
			// One reading per device a line names, each with the
			// figures after its name.
			name: "two devices on one line",
			log: "2024-03-01 10:00:00 INFO step 0 mem cuda:0 allocated: 20.00 GiB, reserved: 24.00 GiB; cuda:1 allocated: 30.00 GiB, reserved: 34.00 GiB\n" +
				"2024-03-01 10:01:00 INFO step 100 loss 2.49\n" +
				"2024-03-01 10:01:00 INFO mem GPU0 allocated: 20.5 GiB reserved: 24.00 GiB | GPU1 allocated: 30.00 GiB reserved: 34.00 GiB\n",
			want: []reading{
				{0, "2024-03-01T10:00:00Z", input.NoRank, 0, 20 * gib, 24 * gib, 0, 0},
				{0, "2024-03-01T10:00:00Z", input.NoRank, 1, 30 * gib, 34 * gib, 0, 0},
				{100, "2024-03-01T10:01:00Z", input.NoRank, 0, 20.5 * gib, 24 * gib, 0, 0},
				{100, "2024-03-01T10:01:00Z", input.NoRank, 1, 30 * gib, 34 * gib, 0, 0},
			},
			note: "hand-written GPU memory prints",
		},
		{
			// The figure's subject is the last one named before its
			// label: the host's memory beside a GPU word is not the
			// GPU's, nor a cache of the dataset in prose that says "GPU".
			name: "host, page cache and dataset figures on lines that name the GPU give nothing",
			log: "2024-03-01 10:00:00 INFO step 0 | loss 2.500 | gpu util 97% | cpu mem allocated: 30.0 GB\n" +
				"2024-03-01 10:00:00 INFO step 0 | prefetching shards for GPU workers, page cache reserved: 10.0 GB\n" +
				"2024-03-01 09:59:50 INFO step 0 | dataset cached: 120.5 GB on local NVMe (too large for GPU memory; streaming shards)\n" +
				"step 3 cpu mem allocated: 30 GB, reserved: 35 GB | gpu util 97%\n" +
				"step 4 host RAM allocated: 30 GiB on the GPU node\n" +
				"step 5 GPU 0 and GPU 1 allocated: 12 GiB\n",
		},
		{
			name: "unplaced, unnamed, unitless, peak-only and separator-less lines give nothing",
			log: "GPU memory allocated: 12.50 GB\n" +
				"GPU memory allocated: 12.50 GB\n" +
				"step 3 mem: 12.5GB reserved: 14.0GB\n" +
				"step 4 GPU memory allocated: 12.5\n" +
				"step 5 GPU allocated: 12800\n" +
				"step 6 torch.cuda.memory_allocated: 12800\n" +
				"step 7 GPU max allocated: 3 GiB\n" +
				"step 8 GPU allocated memory 3 GiB\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := readTrainLogCase(t, tc.log, len(tc.want))
			var got []reading
			for _, r := range l.MemoryStats {
				ts := ""
				if !r.Time.IsZero() {
					ts = r.Time.UTC().Format(time.RFC3339)
				}
				got = append(got, reading{r.Step, ts, r.Rank, r.Device, r.Allocated, r.Reserved, r.PeakAllocated, r.PeakReserved})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("readings (-want +got):\n%s", diff)
			}
			notes := strings.Join(l.Notes, "\n")
			if len(tc.want) > 0 && !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want one saying %q", l.Notes, tc.note)
			}
			if tc.notNote != "" && strings.Contains(notes, tc.notNote) {
				t.Errorf("notes %q say %q", l.Notes, tc.notNote)
			}
		})
	}
}

// FuzzHandwrittenMemory: the reader of hand-written prints never panics,
// gives only figures a device holds, and a file it reads is claimed.
func FuzzHandwrittenMemory(f *testing.F) {
	f.Add([]byte("2024-05-01 12:00:00 INFO step 100 | GPU memory allocated: 12.50 GiB | reserved: 14.00 GiB | max allocated: 13.00 GiB\n"))
	f.Add([]byte("[rank1]: step 7 torch.cuda.memory_allocated: 13421772800 torch.cuda.memory_reserved()=99999999999999999999\n"))
	f.Add([]byte("step 99999999999999999999 GPU 999 allocated (GB): 1e400 reserved: 2.5 KB peak reserved=3 MiB\n"))
	f.Add([]byte("step 0 mem cuda:0 allocated: 20.00 GiB, reserved: 24.00 GiB; cuda:1 allocated: 30.00 GiB, reserved: 34.00 GiB\n"))
	f.Add([]byte("step 1 mem GPU0 allocated: 1 GiB | GPU1 GPU2 reserved: 2 GiB | cpu mem allocated: 3 GB\n"))
	f.Add([]byte("epoch 2 iter 90/100 loss 1\nGPU memory allocated: 12.5 GiB\nepoch 3 iter 90/100\nGPU memory allocated: 13 GiB\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := fuzzTrainingLog(t, data, "memory readings")
		if l == nil {
			return
		}
		for _, r := range l.MemoryStats {
			if r.Allocated < 0 && r.Reserved < 0 && r.PeakAllocated <= 0 || r.Device < 0 || r.PeakAllocated < 0 || r.PeakReserved < 0 ||
				r.Allocated > 1<<50 || r.Reserved > 1<<50 {
				t.Fatalf("reading %+v", r)
			}
		}
	})
}
