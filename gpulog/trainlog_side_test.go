package gpulog_test

import (
	"compress/gzip"
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// smiTable is nvidia-smi's table of one GPU with 1 MiB of 81559 MiB used,
// as a job script's "+ nvidia-smi" writes it before training.
const smiTable = `+ nvidia-smi
Wed May  1 12:00:00 2024
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |
| N/A   30C    P0             70W /  700W |       1MiB /  81559MiB |      0%      Default |
|                                         |                        |             Disabled |
+-----------------------------------------+------------------------+----------------------+
`

// smiCSV is a --query-gpu block of one GPU with 1 MiB of 81559 MiB used.
const smiCSV = "name, memory.total [MiB], memory.used [MiB]\nNVIDIA H100 80GB HBM3, 81559 MiB, 1 MiB\n"

// gpustatBlock is gpustat's output for two GPUs, 1 of 81559 MB used each.
const gpustatBlock = `node001                   Wed May  1 12:00:00 2024  550.54.15
[0] NVIDIA H100 80GB HBM3 | 30°C,   0 % |     1 / 81559 MB |
[1] NVIDIA H100 80GB HBM3 | 31°C,   0 % |     1 / 81559 MB |
`

// gpustatJSON is gpustat --json's output for one GPU with 1 of 81559 MB
// used.
const gpustatJSON = `{"hostname": "node001", "driver_version": "550.54.15", "query_time": "2024-05-01T12:00:00", "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "memory.used": 1, "memory.total": 81559}]}
`

// jobOOM is a training job's lines ending in a 2.3+ OOM message of GPU 0
// (4 lines).
const jobOOM = `step 1 loss 2.3
Traceback (most recent call last):
    loss.backward()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. Including non-PyTorch memory, this process has 77.91 GiB memory in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.
`

// TestGPULogAlsoTrainingLog: a job's output that holds an nvidia-smi
// table, a query CSV block or gpustat output is read as that GPU log, and
// its OOM message and memory summaries are read as well, wherever they
// are in the file.
func TestGPULogAlsoTrainingLog(t *testing.T) {
	const mib = int64(1) << 20
	cases := []struct {
		name string
		text string
		// format is what SniffLog must call the file; samples the GPU
		// readings it gives, each with usedMiB of memory in use.
		format  gpulog.LogFormat
		samples int
		usedMiB int64
		// oomLine is the OOM message's line, 0 for none; stats the
		// memory-summary readings.
		oomLine int
		stats   int
	}{
		{"table-then-oom", smiTable + jobOOM, gpulog.FormatTable, 1, 1, 17, 0},
		{"oom-then-table", jobOOM + smiTable, gpulog.FormatTable, 1, 1, 4, 0},
		{"csv-then-oom", smiCSV + jobOOM, gpulog.FormatQueryCSV, 1, 1, 6, 0},
		{"gpustat-then-oom", gpustatBlock + jobOOM, gpulog.FormatGpustat, 2, 1, 7, 0},
		{"table-then-summary", strings.TrimPrefix(smiTable, "+ nvidia-smi\n") + "epoch 1\n" + memorySummary("", 0, "1000 MiB", "4096 MiB", 0, 0), gpulog.FormatTable, 1, 1, 0, 1},
		{"table-only", smiTable, gpulog.FormatTable, 1, 1, 0, 0},
		// The side reading is teed the bytes a prefix is removed from,
		// or that a reader of bytes reads (and stops reading at the
		// first line that is no JSON).
		{"prefixed-csv-then-oom", prefixed(smiCSV+jobOOM, func(i int) string { return fmt.Sprintf("2024-05-01T12:00:%02d.000000000Z ", i) }),
			gpulog.FormatQueryCSV, 1, 1, 6, 0},
		{"gpustat-json-then-oom", gpustatJSON + jobOOM, gpulog.FormatGpustatJSON, 1, 1, 5, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, ok := gpulog.SniffLog([]byte(c.text))
			if !ok || f != c.format {
				t.Fatalf("sniffed %q %v, want %q", f, ok, c.format)
			}
			for _, gz := range []bool{false, true} {
				text := c.text
				if gz {
					var b strings.Builder
					w := gzip.NewWriter(&b)
					w.Write([]byte(text))
					w.Close()
					text = b.String()
				}
				l, err := gpulog.ReadLog(strings.NewReader(text), f, gpulog.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if l.Format != c.format || len(l.Samples) != c.samples {
					t.Fatalf("gz %v: format %s, %d readings, want %s, %d", gz, l.Format, len(l.Samples), c.format, c.samples)
				}
				for _, s := range l.Samples {
					if s.MemoryUsed != c.usedMiB*mib || s.MemoryTotal != 81559*mib {
						t.Errorf("gz %v: reading %+v, want %d of %d MiB", gz, s, c.usedMiB, 81559)
					}
				}
				if c.oomLine == 0 {
					if len(l.OOMs) != 0 {
						t.Errorf("gz %v: OOMs %+v, want none", gz, l.OOMs)
					}
				} else {
					if len(l.OOMs) != 1 {
						t.Fatalf("gz %v: %d OOMs, want 1: %+v", gz, len(l.OOMs), l.OOMs)
					}
					o := l.OOMs[0]
					if o.Line != c.oomLine || o.Requested != 2<<30 || o.Free != int64(1.23*gibF) || o.Allocated != int64(74.50*gibF) ||
						o.ReservedUnallocated != int64(2.88*gibF) || o.Capacity != int64(79.15*gibF) || o.Device != 0 {
						t.Errorf("gz %v: OOM %+v", gz, o)
					}
				}
				if len(l.MemoryStats) != c.stats {
					t.Fatalf("gz %v: %d memory readings, want %d", gz, len(l.MemoryStats), c.stats)
				}
				if c.stats > 0 && (l.MemoryStats[0].Allocated != 1000*mib || l.MemoryStats[0].Reserved != 4096*mib) {
					t.Errorf("gz %v: memory reading %+v", gz, l.MemoryStats[0])
				}
				noted := false
				for _, n := range l.Notes {
					noted = noted || strings.Contains(n, "also holds a training job's output")
				}
				if noted != (c.oomLine > 0 || c.stats > 0) {
					t.Errorf("gz %v: notes %q", gz, l.Notes)
				}
			}
		})
	}
}

// TestTrainingLogLongLine: a line longer than the reader's limit (1 MiB,
// a tqdm bar redrawn with carriage returns, written to a file) is skipped
// and counted, and the lines after it are read: the file is still a
// training log, with its OOM message.
func TestTrainingLogLongLine(t *testing.T) {
	bar := strings.Repeat("\r 45%|████▌     | 45000/100000 [01:23<01:40, 543.21it/s, loss=2.345]", 1<<20/64)
	oom := jobOOM[strings.Index(jobOOM, "torch.OutOfMemoryError"):]
	cases := []struct {
		name string
		text string
		// line is the OOM message's line.
		line int
	}{
		{"bar then message", "step 1\n" + bar + "\nTraceback (most recent call last):\n" + oom, 4},
		{"bar runs into the traceback", "step 1\n" + bar + "Traceback (most recent call last):\n" + oom, 3},
		{"bar first", bar + "\n" + oom, 2},
		{"message then bar", "step 1\n" + oom + bar + "\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if len(bar) <= 1<<20 {
				t.Fatalf("bar of %d bytes is not over the limit", len(bar))
			}
			if !gpulog.SniffTrainingLog(strings.NewReader(c.text), []byte(c.text[:min(len(c.text), 8<<10)])) {
				t.Fatal("not recognised as a training log")
			}
			l, err := gpulog.ReadLog(strings.NewReader(c.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != 1 || l.OOMs[0].Line != c.line || l.OOMs[0].Requested != 2<<30 || l.OOMs[0].Free != int64(1.23*gibF) {
				t.Fatalf("OOMs %+v, want one at line %d", l.OOMs, c.line)
			}
			if l.SkippedLines != 1 || len(l.SkipCounts) != 1 || l.SkipCounts[0].Kind != "line too long" {
				t.Errorf("skipped %d: %+v, want the one long line", l.SkippedLines, l.SkipCounts)
			}
		})
	}
}
