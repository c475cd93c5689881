package gpulog_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestReadMLflowGPU: an MLflow GPU memory metric file is GPU N's used
// memory in decimal megabytes (NVML's used / 1e6), N from its name.
func TestReadMLflowGPU(t *testing.T) {
	const name = "mlruns/0/6f1d/metrics/system/gpu_3_memory_usage_megabytes"
	in := "1709892000000 40000.0 0\n1709892010000 42048.5 1\nnot a line\n"
	l, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatMLflowGPU, gpulog.ReadOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	checkLogInvariants(t, l)
	s := l.Samples
	if len(s) != 2 || s[0].GPU != 3 || s[0].MemoryUsed != 40000*1e6 || s[1].MemoryUsed != 42048500000 || l.SkippedLines != 1 {
		t.Fatalf("samples %+v skipped %d", s, l.SkippedLines)
	}
	if !s[1].Time.Equal(time.Unix(1709892010, 0)) || len(l.GPUs) != 1 || l.GPUs[0].Index != 3 {
		t.Errorf("sample %+v GPUs %+v", s[1], l.GPUs)
	}
	if _, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatMLflowGPU, gpulog.ReadOptions{Name: "metrics.txt"}); err == nil || !strings.Contains(err.Error(), "from the file name") {
		t.Errorf("error %v", err)
	}
	if _, err := gpulog.ReadLog(strings.NewReader("x y z\n"), gpulog.FormatMLflowGPU, gpulog.ReadOptions{Name: name}); !errors.Is(err, gpulog.ErrNoReadings) {
		t.Errorf("error %v", err)
	}
	for _, c := range []struct {
		rel, head string
		want      bool
	}{
		{name, in, true},
		{`mlruns\0\r\metrics\system\gpu_0_memory_usage_megabytes`, in, true},
		{"mlruns/0/r/metrics/system/gpu_0_memory_usage_percentage", "1709892000000 49.0 0\n", true},
		{"mlruns/0/r/metrics/system/gpu_0_utilization_percentage", "1709892000000 49.0 0\n", false},
		{"mlruns/0/r/metrics/gpu_0_memory_usage_megabytes", in, false},
		{name, "loss 1.0\n", false},
	} {
		if got := gpulog.SniffMLflowGPU(c.rel, []byte(c.head)); got != c.want {
			t.Errorf("%s %.20q: %v, want %v", c.rel, c.head, got, c.want)
		}
	}
}

// TestReadMLflowGPUPercent: MLflow's gpu_N_memory_usage_percentage is
// GPU N's used share of the device; beside the megabytes file, shares and
// byte counts at the same times give the device's total, the shares are
// not kept twice, and a share without its byte count becomes bytes of
// that total.
func TestReadMLflowGPUPercent(t *testing.T) {
	const dir = "mlruns/0/6f1d/metrics/system/"
	read := func(name, in string) *gpulog.GPULog {
		t.Helper()
		l, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatMLflowGPU, gpulog.ReadOptions{Name: dir + name})
		if err != nil {
			t.Fatal(err)
		}
		checkLogInvariants(t, l)
		return l
	}
	// An 80 GB device (80e9 bytes): 40 GB is 50.0%, 0.5 GB rounds to 0.6%
	// (too rough to give the total); the last share has no byte count.
	pct := read("gpu_1_memory_usage_percentage", "1709892000000 0.6 0\n1709892010000 50.0 1\n1709892020000 55.0 2\n1709892030000 101 3\nx\n")
	if len(pct.Samples) != 3 || pct.SkippedLines != 2 || pct.Samples[1].GPU != 1 || !pct.Samples[1].HasUsedPercent ||
		pct.Samples[1].MemoryUsedPercent != 50 || pct.Samples[1].MemoryUsed != gpulog.Unknown {
		t.Fatalf("samples %+v skipped %d", pct.Samples, pct.SkippedLines)
	}
	mb := read("gpu_1_memory_usage_megabytes", "1709892000000 500.0 0\n1709892010000 40000.0 1\n")
	// Another GPU's megabytes, and another tool's bytes at the same
	// time, pair with nothing.
	other := read("gpu_2_memory_usage_megabytes", "1709892020000 1.0 0\n")
	l := &gpulog.GPULog{Format: gpulog.FormatWandbEvents, Samples: []gpulog.GPUSample{{GPU: 1, Time: time.UnixMilli(1709892020000), MemoryUsed: 7, MemoryTotal: gpulog.Unknown}}}
	got := gpulog.ResolveShares([]*gpulog.GPULog{pct, mb, other, l}, 0)
	const total = 80e9
	if s := got[1].Samples; s[0].MemoryTotal != total || s[1].MemoryTotal != total || got[1].GPUs[0].MemoryTotal != total {
		t.Errorf("megabytes %+v GPUs %+v", s, got[1].GPUs)
	}
	if s := got[0].Samples; len(s) != 1 || s[0].MemoryUsed != 44e9 || s[0].MemoryTotal != total {
		t.Errorf("percentage %+v notes %q", s, got[0].Notes)
	}
	if len(got[0].Notes) != 3 || len(got[1].Notes) != 1 || got[2] != other || got[3] != l {
		t.Errorf("notes %q, %q; other logs changed: %v %v", got[0].Notes, got[1].Notes, got[2] != other, got[3] != l)
	}
	if mb.Samples[0].MemoryTotal != gpulog.Unknown || len(pct.Samples) != 3 {
		t.Error("ResolveShares changed its input")
	}
	// Alone, the percentage file keeps its shares.
	if got := gpulog.ResolveShares([]*gpulog.GPULog{pct}, 0); got[0] != pct {
		t.Errorf("lone percentage file changed: %+v", got[0].Samples)
	}
}
