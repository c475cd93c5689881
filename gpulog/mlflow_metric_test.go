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
		{"mlruns/0/r/metrics/system/gpu_0_memory_usage_percentage", in, false},
		{"mlruns/0/r/metrics/gpu_0_memory_usage_megabytes", in, false},
		{name, "loss 1.0\n", false},
	} {
		if got := gpulog.SniffMLflowGPU(c.rel, []byte(c.head)); got != c.want {
			t.Errorf("%s %.20q: %v, want %v", c.rel, c.head, got, c.want)
		}
	}
}
