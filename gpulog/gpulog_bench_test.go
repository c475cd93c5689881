package gpulog_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/internal/testutil"
)

// benchLog decodes one real log from memory b.N times, reporting MB/s and
// GPU readings per decode.
func benchLog(b *testing.B, rel string, format gpulog.LogFormat) {
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(b, "nvidia-smi"), filepath.FromSlash(rel)))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var n int
	for b.Loop() {
		l, err := gpulog.ReadLog(bytes.NewReader(data), format, gpulog.ReadOptions{Location: time.UTC})
		if err != nil {
			b.Fatal(err)
		}
		n = len(l.Samples) + len(l.Processes)
	}
	b.ReportMetric(float64(n), "readings/op")
}

// The two large table logs (2.8 and 2.4 MB) are the hot path of log
// reading; the query CSV and XML benchmarks cover the other readers.
func BenchmarkReadTableL40S(b *testing.B) {
	benchLog(b, "table/l40s_driver550_repeated_1575_samples.log", gpulog.FormatTable)
}

func BenchmarkReadTableRTX3060(b *testing.B) {
	benchLog(b, "table/rtx3060laptop_driver530_repeated_1368_samples.log", gpulog.FormatTable)
}

func BenchmarkReadQueryCSV(b *testing.B) {
	benchLog(b, "query-gpu-csv/rtx4090_query_gpu_power_draw.csv", gpulog.FormatQueryCSV)
}

func BenchmarkReadXML(b *testing.B) {
	benchLog(b, "xml/telegraf_pro-6000-maxq-blackwell-v13.xml", gpulog.FormatXML)
}

func BenchmarkSniffLog(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(b, "nvidia-smi"), "table", "l40s_driver550_repeated_1575_samples.log"))
	if err != nil {
		b.Fatal(err)
	}
	head := data[:8<<10]
	for b.Loop() {
		if _, ok := gpulog.SniffLog(head); !ok {
			b.Fatal("not sniffed")
		}
	}
}

// BenchmarkSniffNotALog sniffs the start of a training job's own log, the
// text file a run folder holds most often beside its GPU logs: every cut
// of its first line is a possible collector prefix (gpulog_prefix.go).
func BenchmarkSniffNotALog(b *testing.B) {
	var sb strings.Builder
	for i := range 200 {
		sb.WriteString("2026-11-26 12:00:01,123 INFO trainer: step " + strconv.Itoa(i) + " loss 2.31 lr 3e-4 tokens/s 12345\n")
	}
	head := []byte(sb.String())[:8<<10]
	for b.Loop() {
		if f, ok := gpulog.SniffLog(head); ok {
			b.Fatalf("sniffed as %s", f)
		}
	}
}

// BenchmarkReadTrainingLog reads a training job's own log (an OOM
// message, then 20,000 lines of progress without memory figures or a
// step number) as a training log: the cost every line pays for the quick
// tests of the training-log reader (out-of-memory messages, memory
// summaries, frameworks' memory lines, recovery lines) and for the GPU
// reading riding its lines.
func BenchmarkReadTrainingLog(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 GiB of which 6.31 MiB is free.\n")
	for i := range 20000 {
		sb.WriteString("[rank0]:2026-11-26 12:00:01,123 INFO trainer: epoch 1 batch " + strconv.Itoa(i) + "/20000 loss 2.31 lr 3e-4 tokens/s 12345 grad_norm 0.98\n")
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gpulog.ReadLog(bytes.NewReader(data), gpulog.FormatTrainingLog, gpulog.ReadOptions{Location: time.UTC}); err != nil {
			b.Fatal(err)
		}
	}
}
